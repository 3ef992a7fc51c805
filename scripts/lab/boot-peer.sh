#!/bin/sh
# boot-peer.sh KERNEL PEER DIR NETDEV: boot the peer profile PEER
# (qemu-devices/peers/PEER.profile) on kernel KERNEL in DIR, the second
# guest of a profile's boot (boot.sh starts it in the background, with
# NETDEV the QEMU arguments of the NIC that joins it to the first one).
# Writes DIR/console.log, qemu.stderr, qemu.pid while QEMU runs (boot.sh
# kills a peer that outlives its boot by PEER_GRACE seconds, after making
# DIR/killed) and verdict (tools/lab/verdict on the peer's console; a
# killed peer is judged timed out).
. "$(dirname "$0")/lib.sh"

kernel=${1:?usage: boot-peer.sh KERNEL PEER DIR NETDEV}
peer=${2:?usage: boot-peer.sh KERNEL PEER DIR NETDEV}
dir=${3:?usage: boot-peer.sh KERNEL PEER DIR NETDEV}
netdev=${4:?usage: boot-peer.sh KERNEL PEER DIR NETDEV}
check_peer "$peer"
profile=peers/$peer

mkdir -p "$dir"
cd "$dir" || exit 1
profile_images "$profile"
profile_initrd "$kernel" "$profile" initrd.cpio || exit 1
set -f
# shellcheck disable=SC2046 # QEMU arguments are words
set -- $(profile_qemu_args "$profile") $netdev -pidfile qemu.pid
set +f
run_qemu "$(qemu_accel)" "$(profile_image "$kernel" "$profile")" initrd.cpio \
	"$(profile_cmdline "$profile")" "$(profile_get "$profile" timeout)" "$@"
rc=$?
set -- --exit-status "$rc" --qemu-stderr qemu.stderr
{ qemu_timed_out "$rc" || [ -e killed ]; } && set -- "$@" --timed-out
[ -e console.log ] || : >console.log
"$TOOLS/verdict" "$@" console.log >verdict ||
	die "verdict failed on '$dir/console.log'"
