# PMBus hwmon without PMBus hardware: QEMU x86 has none, so the guest's init
# loads i2c-stub (CONFIG_I2C_STUB "depends on m") with one chip, the test
# writes the chip's MFR_ID block through /dev/i2c-N and binds the generic
# pmbus driver to the stub chip with new_device. The
# test then rewinds pmbus_core's debugfs mfr_id file (patches/core 0111).
description=i2c-stub chip bound to the generic pmbus driver: pmbus debugfs mfr_id
kconfig=CONFIG_I2C=m
kconfig=CONFIG_I2C_CHARDEV=m
kconfig=CONFIG_I2C_STUB=m
kconfig=CONFIG_HWMON=m
kconfig=CONFIG_PMBUS=m
kconfig=CONFIG_SENSORS_PMBUS=m
module=i2c-dev
module=pmbus
# One stub chip at 0x40 with SMBus block transfers (functionality: quick,
# byte, byte data, word data, I2C block, SMBus block = 0xf7f0000).
module=i2c-stub chip_addr=0x40 functionality=0xf7f0000
tests=hwmon/pmbus-lseek
# Loading the module, probing the chip and the checks take well under a
# second after a 1-2 s boot under TCG; 60 s as for core.
timeout=60
