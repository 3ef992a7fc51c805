# The kernel NFS server and the sunrpc code under it, with no NFS client
# and no nfs-utils: the nfsd filesystem (fs/nfsd/nfsctl.c), the sunrpc
# caches in /proc/net/rpc (net/sunrpc/cache.c) and rpc_pipefs
# (net/sunrpc/rpc_pipe.c), ending in nfsd started for real and answering
# an NFSv3 GETATTR whose auth.unix.ip and auth.unix.gid upcalls the test
# answers itself (it also stands in for rpcbind).
#
# And kafs (fs/afs/mntpt.c): its dynamic root, a cell added with its VL
# server on 127.0.0.1, and the automount of the cell's directory, which
# fails (nothing listens). kafs's cache manager socket is AF_RXRPC over
# UDP/IPv6 (afs_open_socket): it loads only with CONFIG_IPV6 and
# CONFIG_AF_RXRPC_IPV6, so IPv6 is a module that this boot loads first.
description=nfsd filesystem, sunrpc caches and rpc_pipefs, nfsd answering a GETATTR; kafs dynamic root and automount
kconfig=CONFIG_NFSD=m
kconfig=CONFIG_AFS_FS=m
kconfig=CONFIG_IPV6=m
kconfig=CONFIG_AF_RXRPC_IPV6=y
# nfsd pulls in sunrpc, lockd, grace and exportfs.
module=nfsd
module=ipv6
module=kafs
tests=net/nfsd-sunrpc net/afs-dynroot
timeout=90
