#!/bin/sh
# t1106-failed-cases: failed_cases (check-lib.sh), the lines check.sh
# prints under a failing boot so that a CI log holding only check's output
# says which case failed and what the test printed before it (CI once kept
# "not ok 5 affs/ofs-write-end # exit status 1" and nothing else).
#
# On a KTAP log shaped like a boot's ktap.txt: the diagnostics since the
# last case line and the first failing nested case, indented, nothing of
# the passing subtests before it nor of the failures after it; at most 12
# lines however much the test printed; nothing for a log without a
# failure or a missing file.
#
# Needs TOP (the repository).
if [ -z "${TOP:-}" ]; then
	echo "error: TOP must be set (the repository)" >&2
	exit 1
fi
. "$TOP/tests/host/ktap.sh"

w=${TMPDIR:-/tmp}/t1106
rm -rf "$w"
mkdir -p "$w" || exit 1
RESULTS=$w/results BUILD=$w/build
. "$TOP/scripts/lab/lib.sh"
. "$TOP/scripts/lab/check-lib.sh" >/dev/null

ktap_plan 4

cat >"$w/fail.txt" <<'LOG'
KTAP version 1
1..2
    # Subtest: a/first
    KTAP version 1
    # guards nothing
    1..2
    # a diagnostic of a passing case
    ok 1 first passes
    ok 2 second passes
ok 1 a/first
    # Subtest: a/second
    KTAP version 1
    # guards patches/drivers 0106
    1..3
    ok 1 mount
    # f.bin: header byte size 1000, expected 2000
    # f.bin: data block 3 is 0 by the chain
    not ok 2 f.bin on the disk
    # later
    not ok 3 remount
not ok 2 a/second # exit status 1
LOG
want='        | # f.bin: header byte size 1000, expected 2000
        | # f.bin: data block 3 is 0 by the chain
        | not ok 2 f.bin on the disk'
got=$(failed_cases "$w/fail.txt")
[ "$got" = "$want" ]
ktap_ok $? "the first failing case with the diagnostics before it" ||
	ktap_diag "got: $got"

{
	sed -n 1,4p "$w/fail.txt"
	i=0
	while [ $i -lt 30 ]; do echo "    # line $i"; i=$((i + 1)); done
	echo "    not ok 1 noisy"
} >"$w/noisy.txt"
got=$(failed_cases "$w/noisy.txt")
[ "$(printf '%s\n' "$got" | wc -l)" = 12 ] &&
	[ "$(printf '%s\n' "$got" | tail -n 1)" = "        | not ok 1 noisy" ]
ktap_ok $? "a test that printed 30 lines: 12, the failing case last" ||
	ktap_diag "got: $got"

sed '/not ok/d' "$w/fail.txt" >"$w/pass.txt"
[ -z "$(failed_cases "$w/pass.txt")" ]
ktap_ok $? "nothing for a log without a failing case"

[ -z "$(failed_cases "$w/missing.txt")" ]
ktap_ok $? "nothing for a missing file"
ktap_done
