#!/bin/sh
# matrix.sh: boot every profile in $PROFILES (profiles.sh: with SUBSYS,
# those that exercise its files) on every kernel in $KERNELS, two guests
# at a time (one per core), after the KVM/TCG probe, the
# longest first.
. "$(dirname "$0")/lib.sh"

: "${KERNELS:=baseline patched}"
PROFILES=$("$TOP/scripts/lab/profiles.sh") || exit 1
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
# boot.sh numbers its progress line "n/N" from this file.
MATRIX_TOTAL=$(($(echo $KERNELS | wc -w) * $(echo $PROFILES | wc -w)))
MATRIX_DONE="$RESULTS/matrix-done"
mkdir -p "$RESULTS"
: >"$MATRIX_DONE"
export MATRIX_TOTAL MATRIX_DONE
# Longest boots first (by the last run's wall time; a boot not run yet
# counts as long), so the two lanes end together.
for p in $PROFILES; do
	for k in $KERNELS; do
		w=$(kv "$RESULTS/$k/$p/verdict" wall)
		echo "${w:-999} $k $p"
	done
done | sort -k1,1nr -k3,3 -k2,2 | cut -d' ' -f2- |
	xargs -P 2 -n 2 "$TOP/scripts/lab/boot.sh"
rc=$?
echo "$(elapsed "$start")" >"$RESULTS/matrix-wall"
progress matrix "done in $(elapsed "$start") s"
exit $rc
