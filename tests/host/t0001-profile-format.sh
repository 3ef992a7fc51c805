#!/bin/sh
# The profile reader: every malformed profile is refused with one error
# line naming file and line; a valid one prints its values; every real
# profile in qemu-devices/ is valid and names guest tests that exist.
. "$TOP/tests/host/ktap.sh"

fx="$TOP/tests/host/fixtures/profile"
profile="$TOOLS/profile"

# refused NAME EXPECTED-ERROR: the fixture fails with exactly that message.
refused() {
	err=$("$profile" "$fx/$1.profile" 2>&1 >/dev/null)
	rc=$?
	[ "$rc" -ne 0 ] && [ "$err" = "error: $(printf "$2" "$fx/$1.profile")" ]
	st=$?
	[ $st -eq 0 ] || ktap_diag "got (status $rc): $err"
	return $st
}

set -- $(ls "$TOP"/qemu-devices/*.profile)
ktap_plan $((13 + $#))

refused unknown-key "cannot parse '%s' line 4: unknown key 'qemu_args'"
ktap_ok $? "unknown key names file line and key"
refused twice "cannot parse '%s' line 4: key 'timeout' given twice"
ktap_ok $? "non-repeatable key given twice is refused"
refused missing-tests "cannot parse '%s': missing key 'tests'"
ktap_ok $? "missing required key is refused"
refused bad-kconfig "cannot parse '%s' line 4: bad kconfig 'USB=y' (expected CONFIG_NAME=VALUE)"
ktap_ok $? "kconfig value without CONFIG_ prefix is refused"
refused bad-timeout "cannot parse '%s' line 3: bad timeout '0' (expected seconds, 1 to 3600)"
ktap_ok $? "zero timeout is refused"
refused bad-tests "cannot parse '%s' line 2: bad tests 'core/a core' (expected AREA/NAME [AREA/NAME ...])"
ktap_ok $? "test name without area is refused"
refused no-equals "cannot parse '%s' line 4: expected key=value"
ktap_ok $? "line without = is refused"
refused optional-not-a-test "cannot parse '%s' line 2: optional test 'usb/b' is not in tests="
ktap_ok $? "optional test not in tests= is refused, even before tests="
refused optional-no-reason "cannot parse '%s' line 3: bad optional 'usb/b' (expected TEST REASON)"
ktap_ok $? "optional test without a reason is refused"
refused optional-twice "cannot parse '%s' line 4: optional test 'usb/b' given twice"
ktap_ok $? "optional test given twice is refused"

out=$("$profile" "$fx/valid.profile" tests | tr '\n' ' ')
[ "$out" = "core/a usb/b " ]
ktap_ok $? "tests are printed one a line"
out=$("$profile" "$fx/valid.profile" qemu | tr '\n' '|')
[ "$out" = "-device edu|-device i6300esb|" ]
ktap_ok $? "repeated qemu lines keep their order"
out=$("$profile" "$fx/valid.profile" optional)
[ "$out" = "usb/b no USB HID device in some QEMU builds" ]
ktap_ok $? "optional lines print test and reason" || ktap_diag "got: $out"

for p in "$@"; do
	name=$(basename "$p" .profile)
	missing=
	tests=$("$profile" "$p" tests) || missing="(invalid profile)"
	for t in $tests; do
		[ -f "$TOP/tests/guest/$t.c" ] || missing="$missing $t"
	done
	[ -z "$missing" ]
	ktap_ok $? "profile $name is valid and its tests exist${missing:+ - missing:$missing}"
done
ktap_done
