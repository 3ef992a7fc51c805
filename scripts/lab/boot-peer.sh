#!/bin/sh
# boot-peer.sh KERNEL PEER DIR NETDEV: boot the peer profile PEER
# (qemu-devices/peers/PEER.profile) on kernel KERNEL in DIR, the second
# guest of a profile's boot (boot.sh starts it in the background, with
# NETDEV the QEMU arguments of the NIC that joins it to the first one).
# Writes DIR/console.log, qemu.stderr, qemu.pid (boot.sh kills a peer
# that outlives its boot by more than a grace period) and verdict
# (tools/lab/verdict on the peer's console).
. "$(dirname "$0")/lib.sh"

kernel=${1:?usage: boot-peer.sh KERNEL PEER DIR NETDEV}
peer=peers/${2:?usage: boot-peer.sh KERNEL PEER DIR NETDEV}
dir=${3:?usage: boot-peer.sh KERNEL PEER DIR NETDEV}
netdev=${4:?usage: boot-peer.sh KERNEL PEER DIR NETDEV}
check_profiles "$peer"

mkdir -p "$dir"
cd "$dir" || exit 1
# A peer's images are lab pattern images (image=NAME MIB, no maker).
profile_get "$peer" image | while read -r name mib maker; do
	[ -z "$maker" ] || { echo "error: $peer: image '$name' has a maker; a peer's images are patterns" >&2; exit 1; }
	"$TOOLS/mkpattern" "$name" "$mib" || exit 1
done || die "cannot create the images of profile '$peer'"
profile_initrd "$kernel" "$peer" initrd.cpio || exit 1
set -f
# shellcheck disable=SC2046 # QEMU arguments are words
set -- $(profile_qemu_args "$peer") $netdev -pidfile qemu.pid
set +f
run_qemu "$(qemu_accel)" "$(profile_image "$kernel" "$peer")" initrd.cpio \
	"$(profile_cmdline "$peer")" "$(profile_get "$peer" timeout)" "$@"
rc=$?
set -- --exit-status "$rc" --qemu-stderr qemu.stderr
[ "$rc" = 124 ] || [ "$rc" = 137 ] && set -- "$@" --timed-out
[ -e console.log ] || : >console.log
"$TOOLS/verdict" "$@" console.log >verdict ||
	die "verdict failed on '$dir/console.log'"
