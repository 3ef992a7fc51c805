# The virtual video test driver: one capture node. The test negotiates a
# format and streams a few frames through mmap buffers.
description=vivid V4L2 capture: querycap, formats, mmap streaming
kconfig=CONFIG_MEDIA_SUPPORT=m
kconfig=CONFIG_MEDIA_TEST_SUPPORT=y
kconfig=CONFIG_VIDEO_DEV=m
kconfig=CONFIG_V4L_TEST_DRIVERS=y
kconfig=CONFIG_FB=m
kconfig=CONFIG_VIDEO_VIVID=m
# vivid's /dev/media0, which media/v4l2-compliance runs the tool over.
kconfig=CONFIG_MEDIA_CONTROLLER=y
# media/vivid-disconnect-m32 is a 32-bit build of vivid-disconnect: the
# 32-bit compat ioctl path must serve the disconnect event too.
kconfig=CONFIG_IA32_EMULATION=y
# Debian's kernels have it: a 32-bit program with 32-bit time_t (the i386
# default) needs the time32 syscalls (futex) and ioctl layouts
# (VIDIOC_DQEVENT32_TIME32).
kconfig=CONFIG_COMPAT_32BIT_TIME=y
module=vivid n_devs=1 node_types=0x1
# media/vivid-unbind unbinds vivid in sysfs and binds it again: it runs last.
tests=media/vivid-capture media/vivid-sequence media/vivid-stress media/v4l2-compliance media/vivid-disconnect media/vivid-disconnect-m32 media/vivid-driver-calls media/vivid-unbind
# v4l2-compliance runs from Debian's v4l-utils, from the host's /usr shared
# read-only into the guest.
tool=/usr/bin/v4l2-compliance
# media/vivid-sequence calibrates a frame size to draw in about 1.5
# jiffies: a guest that shares its core loses it at random (with two
# guests a core, one matrix run in three drew frames in 1.05 to 2.1
# jiffies and the baseline's reproducer missed).
timing=vivid-sequence calibrates the drawing time of a frame in jiffies
# Under TCG the boot took 21 to 25 s on a lightly loaded host and up to 35
# s on a busy one (load 8 on 2 cores); v4l2-compliance is about 12 s of it
# (3.5 s over /dev/video0, 8 s over /dev/media0 with streaming). 180 s
# still ends a hang within three minutes.
timeout=180
