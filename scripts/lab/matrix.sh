#!/bin/sh
# matrix.sh: boot every profile in $PROFILES (profiles.sh: with SUBSYS,
# those that exercise its files) on every kernel in $KERNELS, after the
# KVM/TCG probe, the longest first, in two passes:
#  1. profiles whose tests need a core of their own (timing=, and peer=,
#     whose two guests are two cores), one guest per core (MATRIX_CORES,
#     default nproc);
#  2. the rest, MATRIX_LANES guests at a time (default two per core): a TCG
#     guest waits on its timers and devices much of its boot, so more
#     guests than cores finish sooner (4 lanes ran the 110 boots in 460 to
#     561 s against 592 s with 2 on this 2-core machine), but a guest then
#     loses its core at random, which is what pass 1 keeps from the
#     calibrated reproducers (vivid-sequence missed in one of three such
#     runs before it had its own pass).
. "$(dirname "$0")/lib.sh"

: "${KERNELS:=baseline patched}"
: "${MATRIX_CORES:=$(nproc)}"
: "${MATRIX_LANES:=$((2 * MATRIX_CORES))}"
# need_count NAME VALUE
need_count() {
	case $2 in
	'' | *[!0-9]* | 0) die "$1 must be a number of guests, 1 or more (got '$2')" ;;
	esac
}
need_count MATRIX_LANES "$MATRIX_LANES"
need_count MATRIX_CORES "$MATRIX_CORES"
[ "$MATRIX_CORES" -le "$MATRIX_LANES" ] || MATRIX_CORES=$MATRIX_LANES
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
# own: the profiles of pass 1.
own=
for p in $PROFILES; do
	[ -z "$(profile_get "$p" timing)$(profile_get "$p" peer)" ] || own="$own $p"
done
progress matrix "$(echo $KERNELS | wc -w) kernels x $(echo $PROFILES | wc -w) profiles, accel $(qemu_accel); $(echo $own | wc -w) profiles one guest per core ($MATRIX_CORES at a time), then the rest $MATRIX_LANES at a time"
start=$(now)
# boot.sh numbers its progress line "n/N" from this file.
MATRIX_TOTAL=$(($(echo $KERNELS | wc -w) * $(echo $PROFILES | wc -w)))
MATRIX_DONE="$RESULTS/matrix-done"
mkdir -p "$RESULTS"
: >"$MATRIX_DONE"
# Every boot's inputs name QEMU's version (lib.sh boot_inputs): asked once.
LAB_QEMU_VERSION=$("$QEMU" --version | head -n 1)
export MATRIX_TOTAL MATRIX_DONE LAB_QEMU_VERSION
# by_wall PROFILE...: "KERNEL PROFILE" lines, the longest boots first (by
# the last run's wall time; a boot not run yet counts as long), so the
# lanes end together.
by_wall() {
	for p in "$@"; do
		for k in $KERNELS; do
			w=$(kv "$RESULTS/$k/$p/verdict" wall)
			echo "${w:-999} $k $p"
		done
	done | sort -k1,1nr -k3,3 -k2,2 | cut -d' ' -f2-
}

rc=0
# shellcheck disable=SC2086 # $own is a list of names
by_wall $own | xargs -r -P "$MATRIX_CORES" -n 2 "$TOP/scripts/lab/boot.sh" || rc=$?
# shellcheck disable=SC2086 # $PROFILES is a list of names
by_wall $(for p in $PROFILES; do case " $own " in *" $p "*) ;; *) echo "$p" ;; esac; done) |
	xargs -r -P "$MATRIX_LANES" -n 2 "$TOP/scripts/lab/boot.sh" || rc=$?
echo "$(elapsed "$start")" >"$RESULTS/matrix-wall"
progress matrix "done in $(elapsed "$start") s"
exit $rc
