#!/bin/sh
# t1107-host-runner: host_tests (scripts/lab/check-lib.sh), the runner of
# the host tests, on stand-in tests: "host" runs exactly the tests without
# a "# needs:" line, "llseek-tree" and "kernels" exactly theirs; a skip
# is counted as skipped, not passed; results are printed in name order
# when a later test ends first; --stop ends at the first failing test,
# starts nothing after it and returns 1; a "# needs:" that no runner knows
# stops the run naming the file, since such a test would run nowhere.
# Then the real tests: each that reads the llseek report of the whole
# tree is marked "# needs: llseek-tree" (in the host lane it would run
# before make check makes the report, and skip on a fresh clone), none
# has its "# needs:" line lower in its head comment than line 2 (where no
# runner reads it), and check.sh runs all three classes.
. "$TOP/tests/host/ktap.sh"
ktap_plan 9

w=${TMPDIR:-/tmp}/t1107
rm -rf "$w"
mkdir -p "$w/top/tests/host" || exit 1
RESULTS=$w/results
. "$TOP/scripts/lab/lib.sh"
. "$TOP/scripts/lab/check-lib.sh"
real=$TOP
ran=$w/ran

# standin NAME NEEDS BODY: a stand-in test tests/host/NAME.sh, with a
# "# needs: NEEDS" line unless NEEDS is empty; it notes that it ran in
# $ran, then runs BODY (ktap.sh sourced, its plan up to BODY).
standin() {
	{
		echo '#!/bin/sh'
		[ -z "$2" ] || echo "# needs: $2"
		echo ". '$real/tests/host/ktap.sh'"
		echo "echo $1 >>'$ran'"
		printf '%s\n' "$3"
	} >"$w/top/tests/host/$1.sh"
}
one_ok='ktap_plan 1; ktap_ok 0 "one"; ktap_done'
# t0001 waits (10 s at most; Debian's sleep takes fractions) until the
# runner has t0003's result, and notes that it saw it: with two at a
# time, a later test ends first.
done3=$RESULTS/check/t0003-skips.rc
standin t0001-plain "" "ktap_plan 2; ktap_ok 0 'a'
i=0; while [ ! -e '$done3' ] && [ \$i -lt 100 ]; do sleep 0.1; i=\$((i + 1)); done
[ ! -e '$done3' ] || : >'$w/t0001.saw'
ktap_ok 0 'b'; ktap_done"
standin t0002-boots kernels "$one_ok"
standin t0003-skips "" "ktap_plan 2; ktap_ok 0 'a'; ktap_skip 'no device' 'b'; ktap_done"
standin t0004-report llseek-tree "$one_ok"

# run CLASS [--stop]: host_tests on the stand-in, two at a time, its
# output in $w/out, then "rc passed skipped failed" in $w/counts (none
# when it stopped the shell) and the tests that ran, sorted, in
# $w/ran.sorted.
run() {
	: >"$ran"
	rm -f "$done3" "$w/t0001.saw" "$w/counts"
	(
		TOP=$w/top HOST_JOBS=2
		host_tests "$@"
		echo "$? $passed $skipped $failed" >"$w/counts"
	) >"$w/out" 2>&1
	sort "$ran" >"$w/ran.sorted"
}
# ran_exactly NAME...: the stand-ins that ran are exactly NAME...
ran_exactly() {
	[ "$(paste -sd' ' "$w/ran.sorted")" = "$*" ]
}

run host
ran_exactly t0001-plain t0003-skips && [ "$(cat "$w/counts")" = "0 3 1 0" ]
ktap_ok $? "host runs the two tests without '# needs:', a skip counted as skipped" ||
	ktap_diag "ran: $(cat "$w/ran.sorted"); rc passed skipped failed: $(cat "$w/counts")"

[ -e "$w/t0001.saw" ] &&
	[ "$(sed -n 's/^ok *\(t[0-9]*\)-.*/\1/p' "$w/out" | paste -sd' ')" = "t0001 t0003" ]
ktap_ok $? "results in name order though t0003 ended first" || ktap_diag "$(cat "$w/out")"

run llseek-tree
ran_exactly t0004-report && [ "$(cat "$w/counts")" = "0 1 0 0" ]
ktap_ok $? "llseek-tree runs only the test that needs it"

run kernels
ran_exactly t0002-boots && [ "$(cat "$w/counts")" = "0 1 0 0" ]
ktap_ok $? "kernels runs only the test that needs them"

# --stop: t0003 fails while t0001, before it in name order, still runs;
# t0006 after it must never start.
standin t0003-skips "" "ktap_plan 1; ktap_ok 1 'broken'; ktap_done"
standin t0006-after "" "$one_ok"
run host --stop
ran_exactly t0001-plain t0003-skips && [ "$(cut -d' ' -f1,4 "$w/counts")" = "1 1" ] &&
	grep -q '^stopped at the first failing host test, t0003-skips$' "$w/out"
ktap_ok $? "--stop: a test failing beside an earlier one starts none after it, returns 1" ||
	ktap_diag "ran: $(cat "$w/ran.sorted"); $(tail -n 3 "$w/out")"

standin t0005-typo kernel "$one_ok"
run host
[ ! -s "$w/ran.sorted" ] && [ ! -e "$w/counts" ] &&
	grep -q "tests/host/t0005-typo.sh: '# needs: kernel' (known: kernels, llseek-tree)" "$w/out"
ktap_ok $? "an unknown '# needs:' stops the run naming the file, before any test runs" ||
	ktap_diag "$(tail -n 3 "$w/out")"

# The real tests that read $RESULTS/llseek/report.tsv (llseek.sh's
# $report) and their classes; this test names both, and reads neither.
bad=
for t in "$real"/tests/host/t[0-9][0-9][0-9][0-9]-*.sh; do
	[ "${t##*/}" != t1107-host-runner.sh ] || continue
	grep -q 'llseek/report\.tsv\|\$report\([^_[:alnum:]]\|$\)\|\${report}' "$t" || continue
	c=$(TOP=$real && host_class "$t" 2>/dev/null)
	[ "$c" = llseek-tree ] || bad="$bad ${t##*/} ($c)"
done
[ -z "$bad" ]
ktap_ok $? "every host test that reads the llseek report needs llseek-tree" ||
	ktap_diag "not marked:$bad"

# A "# needs:" in a test's leading comment below line 2 is read by no
# runner: the test would run in the host lane, before what it needs.
bad=$(awk 'FNR > 2 && !/^#/ { nextfile } FNR > 2 && /^# needs:/ {
		print " " FILENAME ":" FNR }' "$real"/tests/host/t[0-9][0-9][0-9][0-9]-*.sh |
	sed "s|$real/tests/host/||")
[ -z "$bad" ]
ktap_ok $? "no host test has its '# needs:' line below line 2" ||
	ktap_diag "misplaced:$bad"

for c in host llseek-tree kernels; do
	grep -q "^[^#]*host_tests $c\( \|\$\)" "$real/scripts/lab/check.sh" || echo "$c"
done >"$w/missing"
[ ! -s "$w/missing" ]
ktap_ok $? "check.sh runs the host tests of all three classes" ||
	ktap_diag "not run: $(cat "$w/missing")"
ktap_done
