#!/bin/sh
# scripts/lab/findings.sh and the comparison make check makes: findings
# name failing cases by their KTAP description (tab-separated fields, so the
# spaces of a description are part of it), a finding counts only while its
# fixing patch is applied, malformed lines are refused naming file and
# line, and what tools/lab/verdict names in a real baseline console
# (fixtures/verdict/vivid-findings.log) is what such a findings file
# records, in the same terms (verdict_failures in scripts/lab/lib.sh).
. "$TOP/tests/host/ktap.sh"
. "$TOP/scripts/lab/lib.sh"
ktap_plan 11

w="$TMPDIR/t1101"
rm -rf "$w"
mkdir -p "$w/top/patches/drivers" "$w/top/qemu-devices" \
	"$w/build/kernel/patched" || exit 1
tab=$(printf '\t')
f="$w/top/patches/drivers/findings"
for p in 0001-fix.patch 0002-fix.patch 0503-fix.patch 0201-fix.patch; do
	: >"$w/top/patches/drivers/$p"
done
printf 'description=x\ntests=area/one area/two\ntimeout=5\n' \
	>"$w/top/qemu-devices/p.profile"
printf 'description=x\ntests=area/one\ntimeout=5\n' \
	>"$w/top/qemu-devices/other.profile"

findings() {
	TOP="$w/top" BUILD="$w/build" KTREES="$w/build/kernel" sh "$TOP/scripts/lab/findings.sh" "$1"
}
# refused NAME LINE...: a findings file of those lines is refused with an
# error naming NAME's file and line.
refused() {
	_want=$1
	shift
	printf '%s\n' "$@" >"$f"
	findings p >"$w/out" 2>"$w/err"
	_rc=$?
	[ "$_rc" != 0 ] && [ ! -s "$w/out" ] && grep -q "^error: cannot parse 'patches/drivers/findings' line $_want" "$w/err"
	_st=$?
	[ "$_st" = 0 ] || ktap_diag "status $_rc; stdout: $(cat "$w/out"); stderr: $(cat "$w/err")"
	return $_st
}

{
	echo "# profile${tab}test${tab}what${tab}patch"
	echo "p${tab}area/one${tab}rewind returns 0: the value${tab}0001-fix.patch"
	echo "p${tab}area/one${tab}a second case, with  two spaces${tab}0001-fix.patch"
} >"$f"
echo drivers/0001-fix.patch >"$w/build/kernel/patched/applied"
[ "$(findings p)" = "area/one${tab}a second case, with  two spaces
area/one${tab}rewind returns 0: the value" ]
ktap_ok $? "a finding lists its cases by test and description while its patch is applied" ||
	ktap_diag "got: $(findings p)"
[ -z "$(findings other)" ]
ktap_ok $? "other profiles have no findings"
: >"$w/build/kernel/patched/applied"
[ -z "$(findings p)" ]
ktap_ok $? "without its patch a finding does not count"

printf 'p\tarea/one\tsplat\t0001-fix.patch\np\tarea/two\thostcheck\t0002-fix.patch\np\tarea/two\tx y\t0002-fix.patch\n' >"$f"
printf 'drivers/0001-fix.patch\ndrivers/0002-fix.patch\n' >"$w/build/kernel/patched/applied"
[ "$(findings p | tr '\n' '|')" = "area/two${tab}x y|hostcheck|splat|" ]
ktap_ok $? "splat and hostcheck findings are listed as such" ||
	ktap_diag "got: $(findings p)"

refused "2: expected 4 tab-separated fields" "# comment" \
	"p area/one rewind returns 0 0001-fix.patch"
ktap_ok $? "space-separated fields are refused"
refused "1: bad case 'not ok 8 x'" "p${tab}area/one${tab}not ok 8 x${tab}0001-fix.patch"
ktap_ok $? "a whole KTAP line instead of the description is refused"
refused "1: no patch '0009-none.patch'" "p${tab}area/one${tab}x${tab}0009-none.patch"
ktap_ok $? "a patch the series does not have is refused"
refused "1: test 'area/three' is not in the tests= of profile 'p'" \
	"p${tab}area/three${tab}x${tab}0001-fix.patch"
ktap_ok $? "a test the profile does not run is refused"

# The real vivid baseline: the failing cases verdict names are the ones
# patches/*/findings record (by description, not by number).
"$TOOLS/verdict" "$TOP/tests/host/fixtures/verdict/vivid-findings.log" \
	>"$w/verdict" || ktap_bail "verdict failed"
printf 'description=x\ntests=media/vivid-sequence media/vivid-disconnect\ntimeout=5\n' \
	>"$w/top/qemu-devices/vivid.profile"
{
	for c in "subscribe to V4L2_EVENT_DISCONNECT" \
		"blocked DQEVENT with the subscription gets the disconnect event within 1 s" \
		"blocked DQEVENT without the subscription fails with ENODEV within 1 s" \
		"after unplug DQEVENT returns the pending brightness event first" \
		"then the disconnect event with nothing pending" \
		"UNSUBSCRIBE_EVENT still works on the subscribed handle"; do
		echo "vivid${tab}media/vivid-disconnect${tab}$c${tab}0503-fix.patch"
	done
	echo "vivid${tab}media/vivid-sequence${tab}sequence numbers rise in every stream: no duplicate, no decrease${tab}0201-fix.patch"
} >"$f"
printf 'drivers/0503-fix.patch\ndrivers/0201-fix.patch\n' >"$w/build/kernel/patched/applied"
known=$(findings vivid)
got=$(verdict_failures "$w/verdict")
[ -n "$got" ] && [ "$got" = "$known" ]
ktap_ok $? "a real baseline's named failing cases equal its findings" ||
	ktap_diag "verdict: $got
findings: $known"
printf 'drivers/0503-fix.patch\n' >"$w/build/kernel/patched/applied"
[ "$(findings vivid)" != "$got" ]
ktap_ok $? "one failing case more than recorded is a mismatch"

# A skipped test, a test failed as a whole and a splat or failed host check
# show in verdict_failures, so they can never go unnoticed in a finding.
cat >"$w/verdict2" <<EOT
verdict=fail
splats=1
hostcheck='fsck.affs ofs.img' failed
failed_case=area/one${tab}a case
failed_test=area/two${tab}exit status 1
skipped_test=area/three${tab}/dev/x absent
optional_skip=area/four${tab}/dev/y absent
EOT
[ "$(verdict_failures "$w/verdict2" | tr '\n' '|')" = \
	"area/one${tab}a case|area/three${tab}skipped: /dev/x absent|area/two${tab}failed as a whole: exit status 1|hostcheck|splat|" ]
ktap_ok $? "verdict_failures names cases, whole tests, skips, splats and host checks; not optional skips" ||
	ktap_diag "got: $(verdict_failures "$w/verdict2")"
ktap_done
