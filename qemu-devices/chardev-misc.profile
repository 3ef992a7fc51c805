# Software character devices the llseek series touches, no hardware: each
# module makes its node at load (gpio-mockup one chip of 8 lines,
# pps-ktimer /dev/pps0, rc-loopback /dev/lirc0) and misc/chardev-fops
# drives each node's own operations; joydev binds to a joystick made
# through uinput, and binfmt_misc is mounted and given a rule.
description=uinput, uhid, userio, uleds, tun, dm control, fuse, cuse, rfkill, ublk, pps, gpiochip, vhost-net, lirc, joydev, binfmt_misc
kconfig=CONFIG_INPUT=y
kconfig=CONFIG_INPUT_MISC=y
kconfig=CONFIG_INPUT_UINPUT=m
kconfig=CONFIG_HID=m
kconfig=CONFIG_UHID=m
kconfig=CONFIG_SERIO=m
kconfig=CONFIG_USERIO=m
kconfig=CONFIG_NEW_LEDS=y
kconfig=CONFIG_LEDS_CLASS=m
kconfig=CONFIG_LEDS_USER=m
kconfig=CONFIG_NETDEVICES=y
kconfig=CONFIG_NET_CORE=y
kconfig=CONFIG_TUN=m
kconfig=CONFIG_MD=y
kconfig=CONFIG_BLK_DEV_DM=m
kconfig=CONFIG_FUSE_FS=m
kconfig=CONFIG_CUSE=m
kconfig=CONFIG_RFKILL=m
kconfig=CONFIG_BLK_DEV=y
kconfig=CONFIG_BLK_DEV_UBLK=m
kconfig=CONFIG_PPS=m
kconfig=CONFIG_PPS_CLIENT_KTIMER=m
kconfig=CONFIG_GPIOLIB=y
kconfig=CONFIG_GPIO_CDEV=y
kconfig=CONFIG_GPIO_MOCKUP=m
kconfig=CONFIG_VHOST_MENU=y
kconfig=CONFIG_VHOST_NET=m
kconfig=CONFIG_RC_CORE=m
kconfig=CONFIG_LIRC=y
kconfig=CONFIG_RC_DEVICES=y
kconfig=CONFIG_RC_LOOPBACK=m
kconfig=CONFIG_INPUT_JOYDEV=m
kconfig=CONFIG_BINFMT_MISC=m
module=uinput
module=uhid
module=userio
module=uleds
module=tun
module=dm-mod
module=fuse
module=cuse
module=rfkill
module=ublk_drv
module=pps-ktimer
# One mock chip, its lines numbered from the first free base.
module=gpio-mockup gpio_mockup_ranges=-1,8
module=vhost_net
module=rc-loopback
module=joydev
module=binfmt_misc
tests=misc/chardev-fops misc/joydev-uinput misc/binfmt-misc misc/fusectl
timeout=60
