# AppleTalk DDP (net/appletalk, drivers/staging/appletalk after the staging
# move) over the loopback interface: no network device is needed, the
# guest gives lo an AppleTalk address and talks to itself.
description=AppleTalk DDP sockets over loopback: bind, sendto/recvfrom, ioctls, /proc/net/atalk
kconfig=CONFIG_NET=y
kconfig=CONFIG_STAGING=y
kconfig=CONFIG_ATALK=m
kconfig=CONFIG_BLK_DEV=y
kconfig=CONFIG_BLK_DEV_LOOP=m
module=appletalk
# Case 29 holds a sendto asleep in a page fault on a loop device.
module=loop
tests=net/appletalk-ddp
timeout=90
