# A HID sensor hub with no hardware: uhid creates a HID device whose report
# descriptor is a sensor hub with a custom sensor, so hid-sensor-hub and
# hid-sensor-custom bind and the custom sensor's files run.
description=uhid sensor hub: hid-sensor-custom
kconfig=CONFIG_HID=m
kconfig=CONFIG_UHID=m
kconfig=CONFIG_HID_SENSOR_HUB=m
kconfig=CONFIG_HID_SENSOR_CUSTOM_SENSOR=m
module=uhid
module=hid-sensor-hub
module=hid-sensor-custom
tests=hid/sensor-custom
timeout=60
