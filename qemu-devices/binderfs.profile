# Android's binder IPC through binderfs: a binderfs mount, a binder device
# made through binder-control, and the binder character device's ioctls.
description=binderfs: binder-control, a new binder device, binder ioctls
kconfig=CONFIG_ANDROID_BINDER_IPC=m
kconfig=CONFIG_ANDROID_BINDERFS=y
# The kernel's binderfs selftest (kselftest/binderfs-test) hands binder
# file descriptors over AF_UNIX socket pairs and checks what a user
# namespace may do with binderfs.
kconfig=CONFIG_UNIX=y
kconfig=CONFIG_NAMESPACES=y
kconfig=CONFIG_USER_NS=y
# devices=binder: a binderfs mount makes binder-control and one default
# device ("binder"), so the device the test adds is the boot's third minor.
module=binder_linux devices=binder
tests=misc/binderfs kselftest/binderfs-test
timeout=60
