#!/bin/sh
# matrix.sh: boot every profile in $PROFILES (profiles.sh: with SUBSYS,
# those that exercise its files) on every kernel in $KERNELS, MATRIX_LANES
# boots at a time (default one per core), after the KVM/TCG probe, the
# longest first. More lanes than cores finish sooner (a TCG guest waits on
# its timers and devices much of its boot: 4 lanes ran the 110 boots in
# 460 to 561 s against 592 s with 2 on this 2-core machine), but a guest
# then loses its core at random: vivid-sequence's calibrated reproducer
# (baseline) missed in one of three such runs, so they are not the default.
. "$(dirname "$0")/lib.sh"

: "${KERNELS:=baseline patched}"
: "${MATRIX_LANES:=$(nproc)}"
case $MATRIX_LANES in
'' | *[!0-9]* | 0) die "MATRIX_LANES must be a number of guests, 1 or more (got '$MATRIX_LANES')" ;;
esac
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
progress matrix "$(echo $KERNELS | wc -w) kernels x $(echo $PROFILES | wc -w) profiles, accel $(qemu_accel), $MATRIX_LANES guests at a time"
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
	xargs -P "$MATRIX_LANES" -n 2 "$TOP/scripts/lab/boot.sh"
rc=$?
echo "$(elapsed "$start")" >"$RESULTS/matrix-wall"
progress matrix "done in $(elapsed "$start") s"
exit $rc
