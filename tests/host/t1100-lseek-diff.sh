#!/bin/sh
# scripts/lab/lseek-diff.sh: a record that differs between the baseline and
# patched boots fails unless an applied series lists it in its
# expected-lseek-changes; a listed change that did not happen fails too.
# xHCI's debugfs device directories (devices/NN, a slot ID) compare as one,
# but a differing record under them still fails. A file only the baseline
# has passes when listed "-RECORD" (a file a pristine bug leaves behind),
# and fails when listed so but the patched boot has it too.
. "$TOP/tests/host/ktap.sh"
ktap_plan 12

w="$TMPDIR/t1100"
rm -rf "$w"
mkdir -p "$w/top/patches/core" "$w/build/kernel/patched" \
	"$w/results/baseline/p" "$w/results/patched/p"
tab=$(printf '\t')
rec() { printf '%s\n' "$*" | tr ' ' "$tab"; }
{ rec /dev/null chr 0 0 0 0; rec /dev/zero chr 0 0 0 0; rec /dev/x chr 0 0 0 4096; } \
	>"$w/results/baseline/p/lseek.tsv"
diffcmd() {
	TOP="$w/top" BUILD="$w/build" KTREES="$w/build/kernel" RESULTS="$w/results" \
		sh "$TOP/scripts/lab/lseek-diff.sh" p
}

# boot.sh's lseek.tsv: only lseek-abi's records, not a test's diagnostic
# that starts "lseek:" (usb/roccat printed one; a kernel message run into
# it made the two kernels' records differ).
{
	echo "KTAP version 1"
	printf '    # lseek: /dev/null\tchr\t0\t0\t0\t0\r\n'
	echo "    # lseek: SEEK_SET 4096 -> 0, SEEK_CUR 10 -> 0[    3.84] BUG: x"
	printf '# lseek: /dev/zero\tchr\t0\t0\t0\t0\n'
} >"$w/console.log"
# shellcheck disable=SC1091 # lib.sh, sourced for lseek_records
(. "$TOP/scripts/lab/lib.sh" && lseek_records "$w/console.log") >"$w/records"
printf '/dev/null\tchr\t0\t0\t0\t0\r\n/dev/zero\tchr\t0\t0\t0\t0\n' | cmp -s - "$w/records"
ktap_ok $? "boot.sh's records are lseek-abi's lines alone" || ktap_diag "$(cat -A "$w/records")"

cp "$w/results/baseline/p/lseek.tsv" "$w/results/patched/p/lseek.tsv"
: >"$w/build/kernel/patched/applied"
[ "$(diffcmd)" = same ]
ktap_ok $? "identical records are the same"

{ rec /dev/null chr 0 0 0 0; rec /dev/zero chr 0 0 0 0; rec /dev/x chr ESPIPE ESPIPE ESPIPE ESPIPE; } \
	>"$w/results/patched/p/lseek.tsv"
out=$(diffcmd)
[ $? -eq 1 ] && [ "$out" = "1 unexpected difference(s), 0 expected" ]
ktap_ok $? "an unlisted difference fails" || ktap_diag "$out"
grep -q "^unexpected: /dev/x${tab}chr${tab}0" "$w/results/lseek-diff/p.txt"
ktap_ok $? "the details name the file and both records"

rec /dev/x chr ESPIPE ESPIPE ESPIPE ESPIPE >"$w/top/patches/core/expected-lseek-changes"
echo core/0001-x.patch >"$w/build/kernel/patched/applied"
out=$(diffcmd)
[ $? -eq 0 ] && [ "$out" = "1 expected change(s), nothing else differs" ]
ktap_ok $? "a listed difference of an applied series passes" || ktap_diag "$out"

: >"$w/build/kernel/patched/applied"
diffcmd >/dev/null
[ $? -eq 1 ]
ktap_ok $? "the list of a series that is not applied does not count"

echo core/0001-x.patch >"$w/build/kernel/patched/applied"
cp "$w/results/baseline/p/lseek.tsv" "$w/results/patched/p/lseek.tsv"
out=$(diffcmd)
[ $? -eq 1 ] && grep -q '^unchanged:  /dev/x' "$w/results/lseek-diff/p.txt"
ktap_ok $? "a listed change that did not happen fails" || ktap_diag "$out"

: >"$w/build/kernel/patched/applied"
x=/sys/kernel/debug/usb/xhci/0000:00:02.0/devices
rec $x/01/ep03/trbs reg 0 0 EINVAL 4096 >"$w/results/baseline/p/lseek.tsv"
rec $x/02/ep03/trbs reg 0 0 EINVAL 4096 >"$w/results/patched/p/lseek.tsv"
[ "$(diffcmd)" = same ]
ktap_ok $? "the same xHCI endpoint file under another slot number is the same"
rec $x/02/ep03/trbs reg 0 0 0 4096 >"$w/results/patched/p/lseek.tsv"
out=$(diffcmd)
[ $? -eq 1 ] && grep -q "^unexpected: $x/SLOT/ep03/trbs" "$w/results/lseek-diff/p.txt"
ktap_ok $? "a different record under another slot number still fails" || ktap_diag "$out"

echo drivers/0001-y.patch >"$w/build/kernel/patched/applied"
mkdir -p "$w/top/patches/drivers"
{ rec /dev/null chr 0 0 0 0; rec /sys/leak reg 0 0 EINVAL 4096; } >"$w/results/baseline/p/lseek.tsv"
rec /dev/null chr 0 0 0 0 >"$w/results/patched/p/lseek.tsv"
: >"$w/top/patches/drivers/expected-lseek-changes"
out=$(diffcmd)
[ $? -eq 1 ] && grep -q "^gone:       /sys/leak${tab}reg" "$w/results/lseek-diff/p.txt"
ktap_ok $? "a file only the baseline has fails unlisted" || ktap_diag "$out"
printf -- '-%s\n' "$(rec /sys/leak reg 0 0 EINVAL 4096)" >"$w/top/patches/drivers/expected-lseek-changes"
out=$(diffcmd)
[ $? -eq 0 ] && [ "$out" = "1 expected change(s), nothing else differs" ]
ktap_ok $? "listed as gone, it passes" || ktap_diag "$out"
cp "$w/results/baseline/p/lseek.tsv" "$w/results/patched/p/lseek.tsv"
out=$(diffcmd)
[ $? -eq 1 ] && grep -q '^stayed:     /sys/leak' "$w/results/lseek-diff/p.txt"
ktap_ok $? "listed as gone but still there on patched fails" || ktap_diag "$out"
ktap_done
