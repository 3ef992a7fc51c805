# The always-present character devices and the in-kernel file types that
# every other profile relies on: a regression here breaks the whole matrix.
description=mem/null/zero/random, pipes and FIFOs, eventfd/timerfd/epoll/inotify, procfs and nsfs, debugfs, the fd mount API, fd posix clocks
tests=core/chardev core/pipe-fifo core/event-fds core/procfs core/debugfs core/mount-api core/posix-clock lseek/driver-lseek
# Boot takes 1-2 s under TCG and the tests well under 5 s; 60 s leaves room
# for a slow CI machine without letting a hang block the run for long.
timeout=60
# /dev/cpu_dma_latency (kernel/power/qos.c) exists only with CPU_IDLE; its
# lseek is checked by lseek/driver-lseek (patches/core 0112).
kconfig=CONFIG_CPU_IDLE=y
kconfig=CONFIG_BLK_DEV=y
kconfig=CONFIG_BLK_DEV_LOOP=m
kconfig=CONFIG_INPUT_MOUSEDEV=m
kconfig=CONFIG_INPUT_EVDEV=m
# lseek/driver-lseek opens /dev/loop-control and /dev/input/mice.
module=loop
module=mousedev
module=evdev
