# The always-present character devices and the in-kernel file types that
# every other profile relies on: a regression here breaks the whole matrix.
description=mem/null/zero/random, pipes and FIFOs, eventfd/timerfd/epoll/inotify, procfs and nsfs, debugfs, the fd mount API, fd posix clocks, fio on loop
tests=core/chardev core/pipe-fifo core/event-fds core/procfs core/debugfs core/mount-api core/posix-clock lseek/driver-lseek block/fio-verify
# Boot takes 1-2 s under TCG and the tests well under 5 s, plus 3-7 s for
# block/fio-verify (mostly fio's start: its libraries are read over 9p; a
# fio run is killed after 30 s); 60 s leaves room for a slow CI machine
# without letting a hang block the run for long. Not here: the kernel's
# epoll selftest (filesystems/epoll/epoll_wakeup_test): its epoll59 is
# 100000 hand-offs between two threads busy-waiting on a shared counter,
# which a one-CPU lab guest serves one scheduler tick at a time, far past
# the harness's 30 s.
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
# block/fio-verify's target (its header): a loop device over a 3 MiB file
# in tmpfs, fio's three jobs of 1 MiB each on it with O_DIRECT.
cmdline=bklfree.fio=loop:tmpfs:direct:1024
# fio keeps its job table in SysV shared memory.
kconfig=CONFIG_SYSVIPC=y
# block/fio-verify runs Debian's fio from the host's /usr.
tool=/usr/bin/fio
#, the kernel's epoll selftest, waits on AF_UNIX
# socket pairs.
kconfig=CONFIG_UNIX=y
