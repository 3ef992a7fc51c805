# Hibernation's userspace interface, /dev/snapshot (kernel/power/user.c,
# which the seed llseek patch and patches/core 0055 touch), driven through
# a whole image round trip that writes no disk and never powers off: user
# space frozen, an image made and read back, freed, thawed; then the
# resuming side refusing image headers that are not this machine's
# (another page count, a wrong x86 magic). No tool= lines: making an
# image freezes and thaws every device, and this profile keeps to the
# serial console alone (no virtio-9p share whose transport would have to
# survive it).
description=/dev/snapshot: a hibernation image made, read back and freed, no disk, no power-off
kconfig=CONFIG_SWAP=y
kconfig=CONFIG_HIBERNATION=y
# /dev/snapshot itself (kernel/power/Kconfig, default y, which allnoconfig
# leaves off): without it the boot has no node and the test skips.
kconfig=CONFIG_HIBERNATION_SNAPSHOT_DEV=y
tests=core/snapshot
timeout=120
