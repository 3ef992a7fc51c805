# kafs with no AFS server: a cell on 127.0.0.1 added through
# /proc/fs/afs/cells, the dynamic root (-o dyn) and the automount of the
# cell's directory (fs/afs/mntpt.c, a seed path of the llseek patch),
# which fails fast because nothing answers the volume location lookup.
# kafs loads only with IPv6: its cache manager socket is AF_RXRPC over
# UDP/IPv6 (afs_open_socket), hence ipv6 and CONFIG_AF_RXRPC_IPV6. A boot
# of its own: with ipv6 loaded, netfs-soft's nfsd failed to start
# (see there).
description=kafs: a cell on 127.0.0.1, the dynamic root, a cell directory's automount
kconfig=CONFIG_AFS_FS=m
kconfig=CONFIG_IPV6=m
kconfig=CONFIG_AF_RXRPC_IPV6=y
module=ipv6
module=kafs
tests=net/afs-dynroot
# Trial boots: about 20 s to the last case under load; each automount is
# bounded at 30 s inside the test.
timeout=90
