#!/bin/sh
# Declared needs against the profiles that run them. Every guest test a
# profile runs (its tests= and the tests tests/guest/init runs in every
# boot) answers --needs with its struct ktap_test needs and nothing else,
# and each CONFIG_ option it needs is set (=y or =m) by a fragment its
# profile's kernel is built from: kconfig/base.config, kconfig/debug.config
# and, while the lab builds one union kernel (scripts/lab/config.sh), every
# profile's kconfig= lines. A need no fragment sets would make the test
# skip on every boot (ktap.h's main reads /proc/config.gz), and a skip
# fails the boot: this names profile, test and option before any kernel is
# built. The last case proves the check fails on a profile set without the
# options.
#
# Needs TOP, TOOLS (tools/lab/profile) and BUILD (the guest tests from
# 'make guest').
. "$TOP/tests/host/ktap.sh"

guest="$BUILD/guest/tests"
w="$TMPDIR/t0002"
rm -rf "$w"
mkdir -p "$w" || exit 1

# The tests init adds to every boot's list, read from init itself.
always=$(sed -n 's/^tests="\$tests \(.*\)"$/\1/p' "$TOP/tests/guest/init")

# kernel_options TOPDIR PROFILE: every CONFIG_ name that a fragment of
# PROFILE's kernel sets to y or m, sorted. Today's kernel is the union of
# every profile: PROFILE does not narrow the fragments yet.
kernel_options() {
	{
		cat "$1/kconfig/base.config" "$1/kconfig/debug.config" &&
		for _p in "$1"/qemu-devices/*.profile; do
			"$TOOLS/profile" "$_p" kconfig || return 1
		done
	} | sed -n 's/^\(CONFIG_[A-Za-z0-9_]*\)=[ym]$/\1/p' | sort -u
}

# needs_of TEST: the program that answers --needs for TEST. A 32-bit test
# (NAME-m32.c, whose whole source is #include "NAME.c") has its twin's
# needs; a host kernel without IA32 emulation cannot run it (status 126),
# so its 64-bit twin answers for it then.
needs_of() {
	case $1 in
	*-m32)
		_twin=${1%-m32}
		if ! "$guest/$1" --needs >/dev/null 2>&1 </dev/null &&
			[ -x "$guest/$_twin" ] &&
			grep -qx "#include \"${_twin##*/}.c\"" "$TOP/tests/guest/$1.c"
		then
			echo "$_twin"
			return
		fi
	esac
	echo "$1"
}

# unmet TEST OPTIONS-FILE: the CONFIG_ names TEST needs that are not in
# OPTIONS-FILE, one a line; status 1 when its --needs answer is wrong.
unmet() {
	"$guest/$(needs_of "$1")" --needs >"$w/needs" 2>"$w/needs.err" </dev/null &&
		[ ! -s "$w/needs.err" ] &&
		! grep -Eqv '^(device /.|kconfig CONFIG_[A-Z0-9_]+$)' "$w/needs" ||
		return 1
	sed -n 's/^kconfig //p' "$w/needs" | sort -u | comm -23 - "$2"
}

[ -n "$always" ] ||
	ktap_bail "cannot read the always-run tests from tests/guest/init"
[ -x "$guest/core/chardev" ] ||
	ktap_bail "no guest tests in '$guest': run 'make guest'"

# Each profile's tests (read once: tests_I for the I-th profile) and
# init's, a case each; a peer profile (qemu-devices/peers/, the second
# guest of a two-guest boot) boots the same union kernel.
n=0 i=0
for p in "$TOP"/qemu-devices/*.profile "$TOP"/qemu-devices/peers/*.profile; do
	i=$((i + 1))
	tests=$("$TOOLS/profile" "$p" tests) || ktap_bail "cannot read '$p'"
	eval "tests_$i=\$tests"
	for t in $tests $always; do
		n=$((n + 1))
	done
done
ktap_plan $((n + 3))

"$guest/core/chardev" --bogus >"$w/out" 2>"$w/err"
rc=$?
[ "$rc" = 2 ] && [ ! -s "$w/out" ] && grep -q 'usage: .* \[--needs\]' "$w/err"
ktap_ok $? "a guest test refuses an unknown argument and does nothing" ||
	ktap_diag "status $rc; stdout: $(cat "$w/out"); stderr: $(cat "$w/err")"

"$guest/watchdog/i6300esb" --needs >"$w/out" 2>&1
printf '%s\n' "device /dev/watchdog0" \
	"device /sys/bus/pci/drivers/i6300ESB timer" \
	"kconfig CONFIG_WATCHDOG_CORE" "kconfig CONFIG_I6300ESB_WDT" |
	cmp -s - "$w/out"
ktap_ok $? "--needs prints the declared devices and options and nothing else" ||
	ktap_diag "got: $(cat "$w/out")"

# One union kernel boots every profile: its options are read once.
kernel_options "$TOP" union >"$w/set-union" ||
	ktap_bail "cannot read the kconfig fragments"
i=0
for p in "$TOP"/qemu-devices/*.profile "$TOP"/qemu-devices/peers/*.profile; do
	i=$((i + 1))
	name=${p##*/}
	name=${name%.profile}
	ln -sf "set-union" "$w/set-$name"
	eval "tests=\$tests_$i"
	for t in $tests $always; do
		# A test's answer against the union is the same in every
		# profile that runs it (each runs the two of init): a clean
		# one is kept, by test; anything else is asked again.
		clean="$w/clean-${t%%/*}+${t#*/}"
		if [ -f "$clean" ] && [ "$w/set-$name" -ef "$w/set-union" ]; then
			missing= st=0
		else
			missing=$(unmet "$t" "$w/set-$name")
			st=$?
			[ "$st" = 0 ] && [ -z "$missing" ] &&
				[ "$w/set-$name" -ef "$w/set-union" ] && : >"$clean"
		fi
		[ "$st" = 0 ] && [ -z "$missing" ]
		ktap_ok $? "profile $name test $t: declared kconfig needs are set" &&
			continue
		if [ "$st" != 0 ]; then
			ktap_diag "'$guest/$t --needs' failed or printed something else:"
			ktap_diag "$(cat "$w/needs" "$w/needs.err")"
		fi
		for o in $missing; do
			ktap_diag "profile '$name' test '$t' needs $o, which no fragment of its kernel sets (kconfig/base.config, kconfig/debug.config, qemu-devices/*.profile kconfig=)"
		done
	done
done

# A lab whose only profile is the watchdog's without its kconfig= lines.
mkdir -p "$w/top/kconfig" "$w/top/qemu-devices"
: >"$w/top/kconfig/base.config"
echo CONFIG_WATCHDOG_CORE=n >"$w/top/kconfig/debug.config"
grep -v '^kconfig=' "$TOP/qemu-devices/watchdog.profile" \
	>"$w/top/qemu-devices/watchdog.profile"
kernel_options "$w/top" watchdog >"$w/set-bare" &&
	[ "$(unmet watchdog/i6300esb "$w/set-bare" | tr '\n' ' ')" = \
		"CONFIG_I6300ESB_WDT CONFIG_WATCHDOG_CORE " ]
ktap_ok $? "options set by no fragment (or =n) are found" ||
	ktap_diag "got: $(unmet watchdog/i6300esb "$w/set-bare")"
ktap_done
