#!/bin/sh
# matrix.sh: boot every profile in $PROFILES on every kernel in $KERNELS,
# two guests at a time (one per core), after the KVM/TCG probe.
. "$(dirname "$0")/lib.sh"

: "${KERNELS:=baseline patched}"
: "${PROFILES:=$(all_profiles)}"
check_profiles $PROFILES
for k in $KERNELS; do
	case $k in
	baseline | patched) ;;
	*) die "unknown kernel '$k' (known: baseline patched)" ;;
	esac
done

set -- $KERNELS
"$TOP/scripts/lab/accel.sh" "$(kernel_image "$1")" || exit 1
progress matrix "$(echo $KERNELS | wc -w) kernels x $(echo $PROFILES | wc -w) profiles, accel $(qemu_accel), 2 guests at a time"
start=$(now)
for p in $PROFILES; do
	for k in $KERNELS; do
		echo "$k $p"
	done
done | xargs -P 2 -n 2 "$TOP/scripts/lab/boot.sh"
rc=$?
echo "$(elapsed "$start")" >"$RESULTS/matrix-wall"
progress matrix "done in $(elapsed "$start") s"
exit $rc
