# The affs crash recipes of tests/data/affs-crash/recipes-bitmap, walked
# as in affs-crash. A profile of its own because a baseline boot shows
# only one fatal affs bug: the affs-crash baseline ends in the hash chain
# loop's soft lockup before it could reach these images, and the oops
# these images give pristine 6.1 (affs_free_block() with a block below
# s_reserved, 'make fuzz-affs' seed 2 on the patched kernel) kills the
# walker with the volume's locks held, so that a later image, or the
# final sync, hangs instead of showing its own bug. oops=panic ends the
# baseline boot at that oops (a few seconds) instead of at the timeout;
# the patched kernel (drivers 0008) reports the bad block and walks on.
description=AFFS crash recipes, bitmap: a block below s_reserved freed (apart from affs-crash: one fatal bug per baseline boot)
image=crash.img 0 affs-fuzz --recipes tests/data/affs-crash/recipes-bitmap
qemu=-drive if=none,id=fuzz,format=raw,file=crash.img
qemu=-device virtio-blk-pci,drive=fuzz,serial=bklfree-fuzz
kconfig=CONFIG_STAGING=y
kconfig=CONFIG_MISC_FILESYSTEMS=y
kconfig=CONFIG_AFFS_FS=m
kconfig=CONFIG_BLK_DEV=y
kconfig=CONFIG_BLK_DEV_LOOP=m
kconfig=CONFIG_VIRTIO=y
kconfig=CONFIG_VIRTIO_BLK=m
module=virtio_blk
module=loop
module=affs
cmdline=oops=panic
cmdline=softlockup_panic=1
cmdline=hung_task_panic=1
tests=affs/fuzz-walk
timeout=90
