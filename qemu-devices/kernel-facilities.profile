# Kernel facilities the lab kernels can switch on that need no device, each
# a file the seed llseek patch or our series touches: POSIX message queues
# (ipc/mqueue.c), fanotify (fanotify_user.c), hugetlbfs, the boot-time
# profiler's /proc/profile (kernel/profile.c), the kprobes debugfs files
# (kernel/kprobes.c), romfs and squashfs images that Debian's genromfs and
# mksquashfs (from the host's /usr) make in the guest, and blktrace's
# relay files (kernel/relay.c) over a loop device, and transparent huge
# pages (mm/huge_memory.c): anonymous and tmpfs huge pages made and split
# again through debugfs split_huge_pages. And gcov's debugfs control file
# (kernel/gcov/fs.c) in a kernel that has gcov support and profiles
# nothing (no GCOV_PROFILE_ALL: it would instrument every object).
description=mqueue, fanotify, hugetlbfs, /proc/profile, kprobes debugfs, romfs and squashfs images made in the guest, blktrace relay files, transparent huge pages, gcov's reset file
kconfig=CONFIG_POSIX_MQUEUE=y
kconfig=CONFIG_FANOTIFY=y
kconfig=CONFIG_HUGETLBFS=y
kconfig=CONFIG_PROFILING=y
kconfig=CONFIG_KPROBES=y
kconfig=CONFIG_BLK_DEV=y
kconfig=CONFIG_BLK_DEV_LOOP=m
kconfig=CONFIG_ROMFS_FS=m
kconfig=CONFIG_SQUASHFS=m
kconfig=CONFIG_BLK_DEV_IO_TRACE=y
kconfig=CONFIG_TRANSPARENT_HUGEPAGE=y
kconfig=CONFIG_GCOV_KERNEL=y
# Options that default to y but that allnoconfig, which every lab kernel
# starts from, leaves off. squashfs reads mksquashfs's default (gzip)
# images only with its zlib decompressor; with no decompressor at all it
# refuses every image (supported_squashfs_filesystem).
kconfig=CONFIG_SQUASHFS_ZLIB=y
# tracefs kprobe_events: core/kprobes-debugfs makes, fires, disarms and
# removes a real probe with it (its four cases skip without it).
kconfig=CONFIG_KPROBE_EVENTS=y
# Not set: CONFIG_FANOTIFY_ACCESS_PERMISSIONS, for core/fanotify's
# FAN_DENY and FAN_ALLOW cases. It needs CONFIG_SECURITY, the LSM hooks,
# in every lab kernel (a rebuild of most objects and hooks in every boot);
# without it the test checks that a permission mark is refused (EINVAL)
# and skips those two cases by name.
# Four 2 MiB huge pages of the guest's 256 MiB for hugetlbfs; core/thp
# makes its transparent ones (one at a time) from what is left.
cmdline=hugepages=4
# /proc/profile exists only when the profiler is on: profile=2 samples
# kernel text in 4-byte buckets.
cmdline=profile=2
module=loop
module=romfs
module=squashfs
tool=/usr/bin/genromfs
tool=/usr/bin/mksquashfs
tests=core/mqueue kselftest/mq-open-tests core/fanotify core/hugetlbfs core/thp core/profile core/kprobes-debugfs block/romfs-squashfs block/blktrace-relay core/gcov-reset
timeout=90
