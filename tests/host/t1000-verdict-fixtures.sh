#!/bin/sh
# t1000-verdict-fixtures: tools/lab/verdict on captured-style console logs.
#
# Each tests/host/fixtures/verdict/NAME.out is one case: verdict reads
# NAME.log, with the extra arguments in NAME.args (one a line) if that file
# exists, run in the fixtures directory (so an argument can name a fixture
# file), and must exit 0, print nothing on stderr and print exactly
# NAME.out. A mismatch leaves NAME.bad under $TMPDIR (or /tmp) and shows the
# head of the diff and the command for the full diff (ktap_golden). Each
# NAME.cases is the listing of the same log, "verdict --cases ARGS...
# NAME.log", checked the same way. The last cases check that the golden
# files hold every verdict, every kind of named failure and every result
# of a listing, so a tool stuck on one answer cannot pass.
#
# Needs TOP (the repository) and TOOLS (the built host tools).
if [ -z "${TOP:-}" ] || [ -z "${TOOLS:-}" ]; then
	echo "error: TOP and TOOLS must be set (repository, host tools)" >&2
	exit 1
fi
. "$TOP/tests/host/ktap.sh"

fixtures=$TOP/tests/host/fixtures/verdict
bad=${TMPDIR:-/tmp}/bklfree-t1000
mkdir -p "$bad" || exit 1

# check NAME [--cases]: one fixture, one KTAP case; with --cases, its
# listing against NAME.cases (kept as NAME.cases.bad on a mismatch).
check() {
	name=$1 golden=$1.out badname=$1 list=${2:-}
	set --
	if [ "$list" = --cases ]; then
		golden=$name.cases badname=$name.cases
		set -- --cases
	fi
	if [ -f "$fixtures/$name.args" ]; then
		while IFS= read -r a; do
			set -- "$@" "$a"
		done <"$fixtures/$name.args"
	fi
	args=$*
	(cd "$fixtures" && exec "$TOOLS/verdict" "$@" "$name.log") \
		>"$bad/$golden.got" 2>"$bad/$golden.err"
	status=$?
	set -- "$golden"
	[ "$status" = 0 ] || ktap_diag "verdict exited with status $status"
	[ ! -s "$bad/$1.err" ] || ktap_diag "$(cat "$bad/$1.err")"
	[ "$status" = 0 ] && [ ! -s "$bad/$1.err" ] &&
		ktap_golden "$badname" "$fixtures/$1" "$bad/$1.got"
	ktap_ok $? "$name${args:+ $args}"
	rm -f "$bad/$1.got"
	[ -s "$bad/$1.err" ] || rm -f "$bad/$1.err"
}

n=0
for out in "$fixtures"/*.out "$fixtures"/*.cases; do
	[ -f "$out" ] && n=$((n + 1))
done
ktap_plan $((n + 3))
for out in "$fixtures"/*.out; do
	[ -f "$out" ] && check "$(basename "$out" .out)"
done
for out in "$fixtures"/*.cases; do
	[ -f "$out" ] && check "$(basename "$out" .cases)" --cases
done

verdicts=$(sed -n 's/^verdict=//p' "$fixtures"/*.out | sort -u | tr '\n' ' ')
[ "$verdicts" = "error fail hang panic pass skip " ]
ktap_ok $? "golden files hold every verdict" ||
	ktap_diag "verdicts in the golden files: $verdicts"
named=$(sed -n 's/^\([a-z0-9_]*\)=.*/\1/p' "$fixtures"/*.out | sort -u |
	grep -Ex 'failed_case|failed_test|skipped_test|optional_skip|first_failed_case|first_failed_case_ktap|v4l2_compliance|v4l2_compliance_media|hostcheck' |
	tr '\n' ' ')
[ "$named" = "failed_case failed_test first_failed_case first_failed_case_ktap hostcheck optional_skip skipped_test v4l2_compliance v4l2_compliance_media " ]
ktap_ok $? "golden files name failed cases, failed and skipped tests, diagnostics" ||
	ktap_diag "named in the golden files: $named"
results=$(cut -f3 "$fixtures"/*.cases | sort -u | tr '\n' ' ')
[ "$results" = "fail pass skip timeout unfinished xfail " ]
ktap_ok $? "golden listings hold every result" ||
	ktap_diag "results in the golden listings: $results"
ktap_done
