#!/bin/sh
# The profile reader: every malformed profile is refused with one error
# line naming file and line; a valid one prints its values; every real
# profile in qemu-devices/ is valid and names guest tests that exist.
# What scripts/lab/lib.sh makes of the keys that change how a guest
# starts: acpi=off unless cmdline= names acpi=, firmware=ovmf's image and
# QEMU arguments.
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

set -- $(ls "$TOP"/qemu-devices/*.profile "$TOP"/qemu-devices/peers/*.profile)
ktap_plan $((22 + $#))

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
refused bad-firmware "cannot parse '%s' line 3: bad firmware 'seabios' (expected ovmf)"
ktap_ok $? "a firmware other than ovmf is refused"
refused bad-peer "cannot parse '%s' line 3: bad peer 'peers/x' (expected PROFILE of qemu-devices/peers)"
ktap_ok $? "a peer named with a path is refused"

out=$("$profile" "$fx/valid.profile" tests | tr '\n' ' ')
[ "$out" = "core/a usb/b " ]
ktap_ok $? "tests are printed one a line"
out=$("$profile" "$fx/valid.profile" qemu | tr '\n' '|')
[ "$out" = "-device edu|-device i6300esb|" ]
ktap_ok $? "repeated qemu lines keep their order"
out=$("$profile" "$fx/valid.profile" optional)
[ "$out" = "usb/b no USB HID device in some QEMU builds" ]
ktap_ok $? "optional lines print test and reason" || ktap_diag "got: $out"
out=$("$profile" "$fx/valid.profile" firmware)
[ "$out" = "ovmf" ]
ktap_ok $? "firmware prints its value" || ktap_diag "got: $out"

# lib.sh on stand-in profiles: plain (no cmdline), acpi (cmdline names
# acpi=), ovmf (firmware=ovmf).
lab="$TMPDIR/t0001"
rm -rf "$lab"
mkdir -p "$lab/qemu-devices"
printf 'description=x\ntests=core/a\ntimeout=5\n' >"$lab/qemu-devices/plain.profile"
printf 'description=x\ntests=core/a\ncmdline=quiet\ncmdline=acpi=force\ntimeout=5\n' >"$lab/qemu-devices/acpi.profile"
printf 'description=x\ntests=core/a\nfirmware=ovmf\nqemu=-device edu\ntimeout=5\n' >"$lab/qemu-devices/ovmf.profile"
out=$(TOP="$lab" TOOLS="$TOOLS" sh -c \
	'. "$0" && for p in plain acpi ovmf; do echo "$p: $(profile_cmdline "$p")"; done' \
	"$TOP/scripts/lab/lib.sh")
[ "$out" = "plain: bklfree.tests=core/a  acpi=off
acpi: bklfree.tests=core/a quiet acpi=force
ovmf: bklfree.tests=core/a  acpi=off" ]
ktap_ok $? "profile_cmdline adds acpi=off unless a cmdline= line names acpi=" ||
	ktap_diag "got: $out"
out=$(TOP="$lab" TOOLS="$TOOLS" KTREES=/k sh -c \
	'. "$0" && profile_image patched plain && profile_image patched ovmf' \
	"$TOP/scripts/lab/lib.sh" | tr '\n' ' ')
[ "$out" = "/k/patched/vmlinux /k/patched/bzImage " ]
ktap_ok $? "profile_image: vmlinux through PVH, the bzImage for firmware=ovmf" ||
	ktap_diag "got: $out"
out=$(TOP="$lab" TOOLS="$TOOLS" sh -c \
	'. "$0" && profile_qemu_args ovmf && echo . && profile_qemu_args plain' \
	"$TOP/scripts/lab/lib.sh" | tr '\n' '|')
[ "$out" = "-bios /usr/share/ovmf/OVMF.fd|-device edu|.|" ]
ktap_ok $? "profile_qemu_args: -bios OVMF.fd first for firmware=ovmf, nothing else" ||
	ktap_diag "got: $out"

# check_profiles: a peer= that names no qemu-devices/peers profile is an
# error naming both; a valid one is checked too.
mkdir -p "$lab/qemu-devices/peers"
printf 'description=x\ntests=core/a\npeer=gone\ntimeout=5\n' >"$lab/qemu-devices/lonely.profile"
err=$(TOP="$lab" TOOLS="$TOOLS" sh -c '. "$0" && check_profiles lonely' \
	"$TOP/scripts/lab/lib.sh" 2>&1)
[ $? -ne 0 ] && [ "$err" = "error: profile 'lonely' names peer 'gone': no qemu-devices/peers/gone.profile" ]
ktap_ok $? "check_profiles refuses a peer that does not exist, naming it" || ktap_diag "got: $err"
printf 'description=x\ntests=core/a\ntimeout=0\n' >"$lab/qemu-devices/peers/gone.profile"
err=$(TOP="$lab" TOOLS="$TOOLS" sh -c '. "$0" && check_profiles lonely' \
	"$TOP/scripts/lab/lib.sh" 2>&1)
[ $? -ne 0 ] && case $err in *"peers/gone.profile' line 3: bad timeout"*) true ;; *) false ;; esac
ktap_ok $? "check_profiles checks the peer's own profile" || ktap_diag "got: $err"
printf 'description=x\ntests=core/a\nkconfig=CONFIG_USB=m\ntimeout=5\n' >"$lab/qemu-devices/peers/gone.profile"
err=$(TOP="$lab" TOOLS="$TOOLS" sh -c '. "$0" && check_profiles lonely' \
	"$TOP/scripts/lab/lib.sh" 2>&1)
[ $? -ne 0 ] && [ "$err" = "error: peer profile '$lab/qemu-devices/peers/gone.profile' has kconfig= lines, which a peer cannot use" ]
ktap_ok $? "a peer with kconfig= lines is refused (the union config never reads them)" || ktap_diag "got: $err"

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
