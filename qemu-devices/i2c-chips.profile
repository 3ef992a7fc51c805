# Sensor and clock chips the series touches, with no I2C hardware: i2c-stub
# answers at the chip addresses below with registers the test presets
# through /dev/i2c-N (the identification the drivers probe for), then the
# test instantiates each driver with new_device and drives its files.
description=i2c-stub chips: pmbus (ibm-cffps, max20730, q54sj108a2, ucd9000), fschmd, two w83793, lis3lv02d, rtc-m41t80
kconfig=CONFIG_I2C=m
kconfig=CONFIG_I2C_CHARDEV=m
kconfig=CONFIG_I2C_STUB=m
kconfig=CONFIG_HWMON=m
kconfig=CONFIG_PMBUS=m
kconfig=CONFIG_NEW_LEDS=y
kconfig=CONFIG_LEDS_CLASS=m
kconfig=CONFIG_SENSORS_IBM_CFFPS=m
kconfig=CONFIG_SENSORS_MAX20730=m
kconfig=CONFIG_SENSORS_Q54SJ108A2=m
kconfig=CONFIG_SENSORS_UCD9000=m
kconfig=CONFIG_SENSORS_FSCHMD=m
kconfig=CONFIG_SENSORS_W83793=m
kconfig=CONFIG_INPUT=y
kconfig=CONFIG_SENSORS_LIS3_I2C=m
kconfig=CONFIG_RTC_CLASS=y
kconfig=CONFIG_RTC_INTF_DEV=y
kconfig=CONFIG_RTC_DRV_M41T80=m
module=i2c-dev
module=i2c-stub chip_addr=0x10,0x11,0x12,0x13,0x2f,0x1d,0x68,0x73,0x2e functionality=0xf7f0000
# The drivers, loaded before the test instantiates them with new_device
# (it binds fschmd before w83793, so fschmd gets /dev/watchdog).
module=ibm-cffps
module=max20730
module=q54sj108a2
module=ucd9000
module=fschmd
module=w83793
module=lis3lv02d_i2c
module=rtc-m41t80
tests=hwmon/i2c-chips hwmon/i2c-watchdog-remove
# The whole boot took 4.1 to 8.3 s under TCG on 2026-12-04 (both
# kernels, three runs); 60 leaves room for a loaded machine.
timeout=60
