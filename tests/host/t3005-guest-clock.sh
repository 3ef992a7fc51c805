#!/bin/sh
# needs: kernels
# The guest's clock keeps the host's pace even when the kernel gets its
# TSC rate wrong: the real baseline kernel boots core/clock-rate (one RTC
# second against CLOCK_MONOTONIC) with a TSC rate forced forty times low
# (tsc_early_khz=52000 where the host's TSC runs at about 2 GHz), the
# wrong calibration a loaded TCG guest once made by itself. With the lab's
# kernel parameters (LAB_APPEND has tsc=unstable) the TSC is never the
# clocksource and the test passes; with a copy of the lab's scripts whose
# LAB_APPEND lacks tsc=unstable the TSC becomes the clocksource, the
# guest's clock runs forty times fast, and the same test must fail.
. "$TOP/tests/host/ktap.sh"
. "$TOP/tests/host/standin-boot.sh"
ktap_plan 4

standin_lab t3005
cat >"$w/top/qemu-devices/clock.profile" <<'EOT'
description=the guest's clock against the RTC, with a TSC rate forty times low
module=rtc_cmos
tests=core/clock-rate
cmdline=tsc_early_khz=52000
timeout=60
EOT

grep -q '^LAB_APPEND=".* tsc=unstable ' "$TOP/scripts/lab/lib.sh"
ktap_ok $? "the lab's kernel parameters mark the TSC unstable"

# Under KVM the guest's clock is kvm-clock, whatever the TSC's rate.
accel=$(head -n 1 "$BUILD/accel" 2>/dev/null | cut -d' ' -f1)
if [ "${accel:-tcg}" != tcg ]; then
	for c in "with tsc=unstable the clock keeps the RTC's pace" \
		"without it the TSC's wrong rate makes the clock fast and the test fails" \
		"that boot ran the measure, without tsc=unstable"; do
		ktap_skip "the lab boots with $accel, not TCG" "$c"
	done
	ktap_done
fi

standin_boot "$w" clock
run="$w/results/baseline/clock"
[ "$(verdict_kv "$run/verdict" verdict)" = pass ] &&
	grep -q '^ok .* core/clock-rate' "$run/console.log"
ktap_ok $? "with tsc=unstable the clock keeps the RTC's pace" ||
	ktap_diag "$(cat "$w/clock.out")"
ktap_diag "$(grep -m1 'one RTC second' "$run/console.log" | sed 's/^# //')"

# The lab's scripts again, without tsc=unstable.
mkdir -p "$w/scripts"
cp -R "$TOP/scripts/lab" "$w/scripts/"
sed -i '/^LAB_APPEND=/s/ tsc=unstable//' "$w/scripts/lab/lib.sh"
! grep -q '^LAB_APPEND=.*tsc=unstable' "$w/scripts/lab/lib.sh" ||
	ktap_bail "cannot take tsc=unstable out of a copy of lib.sh"
TOP="$w/top" RESULTS="$w/results-tsc" sh "$w/scripts/lab/boot.sh" baseline clock \
	>"$w/clock-tsc.out" 2>&1
run="$w/results-tsc/baseline/clock"
[ "$(verdict_kv "$run/verdict" verdict)" = fail ] &&
	grep -q '^not ok .* core/clock-rate' "$run/console.log"
ktap_ok $? "without it the TSC's wrong rate makes the clock fast and the test fails" ||
	ktap_diag "$(cat "$w/clock-tsc.out")"
grep -q 'RTC second' "$run/console.log" && grep -q 'tsc_early_khz=52000' "$run/inputs" &&
	! grep -q 'tsc=unstable' "$run/inputs"
ktap_ok $? "that boot ran the measure, without tsc=unstable" ||
	ktap_diag "$(grep -m3 -e 'RTC' -e 'tsc' "$run/console.log" "$run/inputs")"
ktap_diag "$(grep -m1 'RTC second' "$run/console.log" | sed 's/^# //')"
ktap_done
