# Corrupted AFFS images: tools/affs/affs-fuzz writes COUNT mutated copies of a
# small populated volume (bitmap, root block, hash chains, extension blocks,
# checksums, loops in chains) one after another into fuzz.img; the guest
# loop-mounts each at its offset and walks it. Any oops, BUG, WARNING,
# lockup or hang fails the boot; the last "# image N" line names the image.
# 'make fuzz-affs' runs the same profile with AFFS_FUZZ_COUNT=1000 or more.
# The lab kernel is PREEMPT_NONE on one CPU: a loop in the kernel that never
# sleeps starves the test's own per-image timer, and only the soft lockup
# detector sees it; softlockup_panic and hung_task_panic end such a boot at
# the first report (26 s) instead of at the timeout. Measured under TCG:
# about 23 images a second.
description=AFFS corrupted-image fuzz: mount and walk mutated volumes over loop
image=fuzz.img 0 affs-fuzz 150 1
qemu=-drive if=none,id=fuzz,format=raw,file=fuzz.img
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
cmdline=softlockup_panic=1
# A soft lockup is reported after twice watchdog_thresh: 10 s instead of the
# default 20 s, which ended the baseline boot at about 29 s; no image of the
# patched walk keeps the CPU for more than a fraction of a second.
cmdline=watchdog_thresh=5
cmdline=hung_task_panic=1
tests=affs/fuzz-walk
timeout=240
