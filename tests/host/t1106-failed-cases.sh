#!/bin/sh
# t1106-failed-cases: tools/lab/verdict's first_failed_case= and
# first_failed_case_ktap= lines, which check.sh prints under a failing boot
# so that a CI log holding only check's output says which case failed and
# what the test printed before it (CI once kept "not ok 5
# affs/ofs-write-end # exit status 1" and nothing else).
#
# On a KTAP log shaped like a boot's console: the first failing nested
# case, named by its test and description, with the diagnostics since the
# last case line and then its own "not ok" line, unindented, nothing of the
# passing subtests before it nor of the failures after it, the same with
# CRLF line ends; at most 11 diagnostics however much the test printed;
# nothing for a log without a failure, for a failing case XFAIL excuses,
# for an empty console, and nothing on stdout for a missing one.
#
# Needs TOP (the repository) and TOOLS (the built host tools).
if [ -z "${TOP:-}" ] || [ -z "${TOOLS:-}" ]; then
	echo "error: TOP and TOOLS must be set (repository, host tools)" >&2
	exit 1
fi
. "$TOP/tests/host/ktap.sh"

w=${TMPDIR:-/tmp}/t1106
rm -rf "$w"
mkdir -p "$w" || exit 1
tab=$(printf '\t')

# shown LOG: the first_failed_case lines verdict prints for LOG.
shown() {
	"$TOOLS/verdict" "$1" | grep '^first_failed_case'
}

ktap_plan 7

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
want="first_failed_case=a/second${tab}f.bin on the disk
first_failed_case_ktap=# f.bin: header byte size 1000, expected 2000
first_failed_case_ktap=# f.bin: data block 3 is 0 by the chain
first_failed_case_ktap=not ok 2 f.bin on the disk"
got=$(shown "$w/fail.txt")
[ "$got" = "$want" ]
ktap_ok $? "the first failing case with the diagnostics before it" ||
	ktap_diag "got: $got"

sed 's/$/\r/' "$w/fail.txt" >"$w/crlf.txt"
got=$(shown "$w/crlf.txt")
[ "$got" = "$want" ]
ktap_ok $? "the same from a console with CRLF line ends" ||
	ktap_diag "got: $got"

{
	sed -n 1,4p "$w/fail.txt"
	i=0
	while [ $i -lt 30 ]; do echo "    # line $i"; i=$((i + 1)); done
	echo "    not ok 1 noisy"
} >"$w/noisy.txt"
got=$(shown "$w/noisy.txt" | sed -n 's/^first_failed_case_ktap=//p')
[ "$(printf '%s\n' "$got" | wc -l)" = 12 ] &&
	[ "$(printf '%s\n' "$got" | sed -n 11p)" = "# line 10" ] &&
	[ "$(printf '%s\n' "$got" | tail -n 1)" = "not ok 1 noisy" ]
ktap_ok $? "a test that printed 30 lines: its first 11, then the failing case" ||
	ktap_diag "got: $got"

sed '/not ok/d' "$w/fail.txt" >"$w/pass.txt"
[ -z "$(shown "$w/pass.txt")" ]
ktap_ok $? "nothing for a log without a failing case"

sed 's/^not ok 2 a\/second # exit status 1$/not ok 2 a\/second # XFAIL known/' \
	"$w/fail.txt" >"$w/xfail.txt"
[ -z "$(shown "$w/xfail.txt")" ]
ktap_ok $? "nothing for failing cases XFAIL excuses"

: >"$w/empty.txt"
[ -z "$(shown "$w/empty.txt")" ]
ktap_ok $? "nothing for an empty console (no KTAP)"

"$TOOLS/verdict" "$w/missing.txt" >"$w/missing.out" 2>/dev/null
[ $? = 2 ] && [ ! -s "$w/missing.out" ]
ktap_ok $? "a missing console: exit status 2, nothing on stdout"
ktap_done
