#!/bin/sh
# needs: kernels
# A skip is not a pass, end to end with the real baseline kernel: the
# watchdog profile without its QEMU device (-device i6300esb), booted by
# scripts/lab/boot.sh, fails, and its verdict names the skipped test and
# what it said ("/dev/watchdog0 absent"). With an optional= line for that
# test the verdict is skip: the skip is allowed (make check counts it as
# skipped, not failed) and reported, never a pass.
. "$TOP/tests/host/ktap.sh"
. "$TOP/tests/host/standin-boot.sh"
ktap_plan 7

standin_lab t3001
tab=$(printf '\t')
test=watchdog/i6300esb
said="/dev/watchdog0 absent"

grep -vx 'qemu=-device i6300esb' "$TOP/qemu-devices/watchdog.profile" \
	>"$w/top/qemu-devices/nodev.profile"
grep -qx 'qemu=-device i6300esb' "$TOP/qemu-devices/watchdog.profile" &&
	grep -qx "tests=$test" "$w/top/qemu-devices/nodev.profile" ||
	ktap_bail "qemu-devices/watchdog.profile no longer has '-device i6300esb' and 'tests=$test' lines"
{
	cat "$w/top/qemu-devices/nodev.profile"
	echo "optional=$test this copy of the profile has no i6300esb"
} >"$w/top/qemu-devices/nodev-optional.profile"

boot() {
	standin_boot "$w" "$1"
}

boot nodev
v="$w/results/baseline/nodev/verdict"
[ "$(verdict_kv "$v" verdict)" = fail ]
ktap_ok $? "a profile whose device is missing fails" ||
	ktap_diag "$(cat "$w/nodev.out")"
[ "$(verdict_kv "$v" reason)" = "test '$test' skipped: $said" ]
ktap_ok $? "the reason names the skipped test and what it said" ||
	ktap_diag "reason: $(verdict_kv "$v" reason)"
[ "$(grep '^skipped_test=' "$v")" = "skipped_test=$test$tab$said" ] &&
	! grep -q '^optional_skip=' "$v"
ktap_ok $? "the verdict lists the test as skipped, not optional" ||
	ktap_diag "$(cat "$v")"

boot nodev-optional
v="$w/results/baseline/nodev-optional/verdict"
[ "$(verdict_kv "$v" verdict)" = skip ]
ktap_ok $? "with optional= the missing device gives skip, not pass" ||
	ktap_diag "$(cat "$w/nodev-optional.out")"
[ "$(verdict_kv "$v" reason)" = "optional test '$test' skipped: $said" ]
ktap_ok $? "the skip verdict still names the test and what it said" ||
	ktap_diag "reason: $(verdict_kv "$v" reason)"
[ "$(grep '^optional_skip=' "$v")" = "optional_skip=$test$tab$said" ] &&
	! grep -q '^skipped_test=' "$v"
ktap_ok $? "the verdict lists the test as an optional skip" ||
	ktap_diag "$(cat "$v")"
grep -q '"status": "SKIP"' "$w/results/baseline/nodev-optional/result.json"
ktap_ok $? "result.json records the boot as SKIP"
ktap_done
