description=DRAFT dlm ocfs2 gfs2 btrfs
kconfig=CONFIG_DLM=m
kconfig=CONFIG_DLM_DEBUG=y
kconfig=CONFIG_OCFS2_FS=m
kconfig=CONFIG_OCFS2_FS_USERSPACE_CLUSTER=m
kconfig=CONFIG_GFS2_FS=m
kconfig=CONFIG_BTRFS_FS=m
tests=core/chardev
timeout=90
