# PMBus hwmon without PMBus hardware: QEMU x86 has none, so the guest loads
# i2c-stub (a module: CONFIG_I2C_STUB "depends on m", the one module of the
# lab kernel), writes the chip's MFR_ID block through /dev/i2c-N and binds
# the built-in generic pmbus driver to the stub chip with new_device. The
# test then rewinds pmbus_core's debugfs mfr_id file (patches/core 0111).
description=i2c-stub chip bound to the generic pmbus driver: pmbus debugfs mfr_id
kconfig=CONFIG_MODULES=y
kconfig=CONFIG_I2C=y
kconfig=CONFIG_I2C_CHARDEV=y
kconfig=CONFIG_I2C_STUB=m
kconfig=CONFIG_HWMON=y
kconfig=CONFIG_PMBUS=y
kconfig=CONFIG_SENSORS_PMBUS=y
tests=hwmon/pmbus-lseek
# Loading the module, probing the chip and the checks take well under a
# second after a 1-2 s boot under TCG; 60 s as for core.
timeout=60
