# Cluster and big block filesystems with no cluster and no disk: GFS2 with
# lock_nolock and btrfs, each on a loop device over tmpfs whose image
# Debian's mkfs.gfs2 and mkfs.btrfs (from the host's /usr) make in the
# guest (fs/gfs2/file.c, fs/btrfs/super.c and its /dev/btrfs-control); a
# DLM lockspace of one node, the guest test playing dlm_controld's part
# through configfs, sysfs and uevents, with a lock taken through its misc
# device and its debugfs files read and seeked (fs/dlm/debug_fs.c, which
# patches/core/0050 touches), lock lines written to LS_locks (pristine 6.1
# swaps their flags and nodeid: drivers 0412); OCFS2's user cluster stack control device
# (fs/ocfs2/stack_user.c) and the DLM filesystem ocfs2_dlmfs
# (fs/ocfs2/dlmfs/dlmfs.c), first without a cluster, then with a domain
# joined on that one-node DLM cluster, last with the control device closed
# (the join must not outlive the failed mkdir: drivers 0413).
description=GFS2 (lock_nolock) and btrfs on loop devices, a one-node DLM lockspace and its debugfs files, ocfs2_control and ocfs2_dlmfs
kconfig=CONFIG_DLM=m
kconfig=CONFIG_DLM_DEBUG=y
kconfig=CONFIG_OCFS2_FS=m
kconfig=CONFIG_OCFS2_FS_USERSPACE_CLUSTER=m
kconfig=CONFIG_GFS2_FS=m
kconfig=CONFIG_BTRFS_FS=m
# Loop devices: CONFIG_BLK_DEV_LOOP=m and CONFIG_CONFIGFS_FS=m (DLM's
# cluster configuration) come from the kernel-facilities and misc-devices
# profiles' fragments, which every lab kernel merges.
module=loop
# libcrc32c, which gfs2 and btrfs need, fails its init without a crc32c
# shash; crc32c_generic is only its soft dependency, so name it here (it
# also computes btrfs's default crc32c checksums).
module=crc32c_generic
module=gfs2
module=btrfs
module=dlm
# ocfs2 (the filesystem) sets the locking protocol (1.0) that the control
# device's SETV is checked against; ocfs2_stack_user is the control
# device and the user stack; ocfs2_dlmfs the DLM filesystem.
module=ocfs2
module=ocfs2_stack_user
module=ocfs2_dlmfs
tool=/usr/sbin/mkfs.gfs2
tool=/usr/sbin/mkfs.btrfs
# kmemleak on (the lab kernels have it, default off): debug/kmemleak runs
# last and fails on any object the tests above leaked (drivers 0414, 0415).
cmdline=kmemleak=on
tests=fs/gfs2-btrfs fs/dlm-lockspace fs/ocfs2-control debug/kmemleak
# A boot takes 20 to 45 s under TCG (more on a loaded host); each test
# ends itself after 60 s.
timeout=150
