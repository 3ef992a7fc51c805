description=DRAFT nfsd sunrpc afs
kconfig=CONFIG_NFSD=m
kconfig=CONFIG_AFS_FS=m
tests=core/chardev
timeout=90
