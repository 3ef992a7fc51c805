#!/bin/sh
# needs: kernels
# scripts/lab/boot.sh on bad input, with the real baseline kernel: an unknown
# or malformed profile and a missing QEMU are refused with one clear line;
# a guest that never finishes is killed at its timeout and reported as a
# hang with its console kept; a guest that panics is reported as a panic;
# scripts/lab/matrix.sh refuses a MATRIX_LANES that is not a count.
. "$TOP/tests/host/ktap.sh"
ktap_plan 8

[ -f "$BUILD/kernel/baseline/vmlinux" ] && [ -f "$BUILD/initramfs/base.cpio" ] ||
	ktap_bail "no baseline kernel or initramfs: run 'make build initramfs'"
w="$TMPDIR/t3000"
rm -rf "$w"
mkdir -p "$w/top/qemu-devices"
# /bin/sh as PID 1 reads the console forever: the boot can only time out.
# 15 s: the shell's banner, which case 5 looks for, comes after about 2 s
# under TCG, and one run with the other core busy failed a case at 8 s.
cat >"$w/top/qemu-devices/hang.profile" <<'EOT'
description=init waits on the console forever
cmdline=rdinit=/bin/sh
tests=core/chardev
timeout=15
EOT
# No /init to run and no root device: the kernel panics.
cat >"$w/top/qemu-devices/panic.profile" <<'EOT'
description=no init at all
cmdline=rdinit=/no-such-init
tests=core/chardev
timeout=30
EOT
printf 'description=x\ntests=core/chardev\ntimeout=5\nqemu_args=-device edu\n' \
	>"$w/top/qemu-devices/broken.profile"

boot() {
	TOP="$w/top" RESULTS="$w/results" sh "$TOP/scripts/lab/boot.sh" baseline "$@"
}

boot no-such-profile >/dev/null 2>"$w/err"
[ $? -ne 0 ] && grep -q "^error: unknown profile 'no-such-profile' (known: broken hang panic" "$w/err"
ktap_ok $? "an unknown profile is refused and the known ones listed" ||
	ktap_diag "$(cat "$w/err")"

boot broken >/dev/null 2>"$w/err"
[ $? -ne 0 ] && grep -q "^error: cannot parse '.*/broken.profile' line 4: unknown key 'qemu_args'" "$w/err"
ktap_ok $? "a malformed profile is refused naming file and line" ||
	ktap_diag "$(cat "$w/err")"

QEMU=/nonexistent/qemu-system-x86_64 boot hang >/dev/null 2>"$w/err"
[ $? -ne 0 ] && grep -q "^error: '/nonexistent/qemu-system-x86_64' not found: apt-get install qemu-system-x86" "$w/err"
ktap_ok $? "a missing QEMU is refused with the package to install" ||
	ktap_diag "$(cat "$w/err")"

boot hang >"$w/out" 2>&1
v="$w/results/baseline/hang"
[ "$(sed -n 's/^verdict=//p' "$v/verdict")" = hang ]
ktap_ok $? "a guest that never finishes is reported as a hang" ||
	ktap_diag "$(cat "$w/out")"
grep -q 'built-in shell' "$v/console.log" && grep -q "console kept in $v/console.log" "$w/out"
ktap_ok $? "the hung guest's console is kept and its path printed"

boot panic >"$w/out" 2>&1
v="$w/results/baseline/panic"
[ "$(sed -n 's/^verdict=//p' "$v/verdict")" = panic ]
ktap_ok $? "a guest kernel panic is reported as a panic" ||
	ktap_diag "$(cat "$w/out")"
grep -q '^reason=.*Kernel panic' "$v/verdict"
ktap_ok $? "the panic verdict quotes the panic line"

MATRIX_LANES=two TOP="$w/top" RESULTS="$w/results" sh "$TOP/scripts/lab/matrix.sh" \
	>/dev/null 2>"$w/err"
[ $? -ne 0 ] && grep -q "^error: MATRIX_LANES must be a number of guests, 1 or more (got 'two')" "$w/err" &&
	[ ! -e "$w/results/matrix-done" ]
ktap_ok $? "a MATRIX_LANES that is not a count is refused before any boot" ||
	ktap_diag "$(cat "$w/err")"
ktap_done
