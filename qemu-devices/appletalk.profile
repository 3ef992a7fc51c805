# AppleTalk DDP (net/appletalk, drivers/staging/appletalk after the staging
# move). appletalk-forward plays the hosts on two TAP interfaces' cables
# and has the kernel forward DDP frames from one to the other through a
# gateway route (atalk_route_packet, AARP); it runs first and removes its
# taps, so appletalk-ddp starts with no AppleTalk interface, gives lo an
# address and talks to itself over the loopback.
description=AppleTalk DDP: forwarding between two TAP interfaces (AARP, gateway and direct routes), then sockets over loopback: bind, sendto/recvfrom, ioctls, /proc/net/atalk
kconfig=CONFIG_NET=y
kconfig=CONFIG_STAGING=y
kconfig=CONFIG_ATALK=m
kconfig=CONFIG_TUN=m
kconfig=CONFIG_BLK_DEV=y
kconfig=CONFIG_BLK_DEV_LOOP=m
module=appletalk
module=tun
# Case 29 holds a sendto asleep in a page fault on a loop device.
module=loop
tests=net/appletalk-forward net/appletalk-ddp
timeout=90
