# The kernel NFS server and the sunrpc code under it, with no NFS client
# and no nfs-utils: the nfsd filesystem (fs/nfsd/nfsctl.c), the sunrpc
# caches in /proc/net/rpc (net/sunrpc/cache.c) and rpc_pipefs
# (net/sunrpc/rpc_pipe.c), ending in nfsd started for real and answering
# an NFSv3 GETATTR whose auth.unix.ip and auth.unix.gid upcalls the test
# answers itself (it also stands in for rpcbind).
#
# kafs (fs/afs/mntpt.c) loads only with CONFIG_IPV6 and
# CONFIG_AF_RXRPC_IPV6 (its cache manager socket is AF_RXRPC over
# UDP/IPv6, afs_open_socket): the kernels build both as modules, and
# net/afs-dynroot (a cell on 127.0.0.1, the dynamic root, the automount
# of the cell's directory) passes with ipv6 and kafs loaded. It is not in
# this boot yet: with ipv6 loaded nfsd's start fails (EINVAL writing its
# thread count) and net/nfsd-sunrpc fails; kafs gets a boot of its own or
# nfsd's listener set-up learns IPv6 first.
description=nfsd filesystem, sunrpc caches and rpc_pipefs, nfsd answering a GETATTR
kconfig=CONFIG_NFSD=m
kconfig=CONFIG_AFS_FS=m
kconfig=CONFIG_IPV6=m
kconfig=CONFIG_AF_RXRPC_IPV6=y
# nfsd pulls in sunrpc, lockd, grace and exportfs.
module=nfsd
tests=net/nfsd-sunrpc
timeout=90
