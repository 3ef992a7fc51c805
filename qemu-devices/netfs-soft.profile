# The kernel NFS server and the sunrpc code under it, with no NFS client
# and no nfs-utils: the nfsd filesystem (fs/nfsd/nfsctl.c), the sunrpc
# caches in /proc/net/rpc (net/sunrpc/cache.c) and rpc_pipefs
# (net/sunrpc/rpc_pipe.c), ending in nfsd started for real and answering
# an NFSv3 GETATTR whose auth.unix.ip and auth.unix.gid upcalls the test
# answers itself (it also stands in for rpcbind).
#
# CONFIG_AFS_FS is built for fs/afs/mntpt.c (kafs's dynamic root and its
# automount), but kafs cannot load in these kernels: its cache manager
# socket is AF_RXRPC over UDP/IPv6 (afs_open_socket), and without
# CONFIG_IPV6 and CONFIG_AF_RXRPC_IPV6 the bind is EAFNOSUPPORT, so the
# module's init fails. No module=kafs and no AFS test until then.
description=nfsd filesystem, sunrpc caches and rpc_pipefs, nfsd answering a GETATTR
kconfig=CONFIG_NFSD=m
kconfig=CONFIG_AFS_FS=m
# nfsd pulls in sunrpc, lockd, grace and exportfs.
module=nfsd
tests=net/nfsd-sunrpc
timeout=90
