# The kernel NFS server and the sunrpc code under it, with no NFS client
# and no nfs-utils: the nfsd filesystem (fs/nfsd/nfsctl.c), the sunrpc
# caches in /proc/net/rpc (net/sunrpc/cache.c) and rpc_pipefs
# (net/sunrpc/rpc_pipe.c), ending in nfsd started for real and answering
# an NFSv3 GETATTR whose auth.unix.ip and auth.unix.gid upcalls the test
# answers itself (it also stands in for rpcbind).
#
# kafs has a boot of its own (netfs-afs.profile): it needs ipv6 loaded,
# and in a trial boot with ipv6 loaded nfsd's start failed (EINVAL
# writing its thread count: nfsd then also sets up IPv6 listeners, and
# net/nfsd-sunrpc's stand-in rpcbind speaks only what IPv4 needs; not
# yet traced to the line).
description=nfsd filesystem, sunrpc caches and rpc_pipefs, nfsd answering a GETATTR
kconfig=CONFIG_NFSD=m
# nfsd pulls in sunrpc, lockd, grace and exportfs.
module=nfsd
tests=net/nfsd-sunrpc
timeout=90
