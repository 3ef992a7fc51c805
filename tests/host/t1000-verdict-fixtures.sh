#!/bin/sh
# t1000-verdict-fixtures: tools/lab/verdict on captured-style console logs.
#
# Each tests/host/fixtures/verdict/NAME.out is one case: verdict reads
# NAME.log, with the extra arguments in NAME.args if that file exists, and
# must exit 0, print nothing on stderr and print exactly NAME.out. A mismatch
# leaves NAME.bad under $TMPDIR (or /tmp) and shows the head of the diff and
# the command for the full diff (ktap_golden). The last case checks that the golden files
# hold every verdict, so a tool stuck on one answer cannot pass.
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

# check NAME: one fixture, one KTAP case.
check() {
	out=$fixtures/$1.out
	args=
	[ -f "$fixtures/$1.args" ] && args=$(cat "$fixtures/$1.args")
	# The arguments are words: split them, never glob them.
	set -f
	# shellcheck disable=SC2086
	"$TOOLS/verdict" $args "$fixtures/$1.log" \
		>"$bad/$1.got" 2>"$bad/$1.err"
	status=$?
	set +f
	[ "$status" = 0 ] || ktap_diag "verdict exited with status $status"
	[ ! -s "$bad/$1.err" ] || ktap_diag "$(cat "$bad/$1.err")"
	[ "$status" = 0 ] && [ ! -s "$bad/$1.err" ] &&
		ktap_golden "$1" "$out" "$bad/$1.got"
	ktap_ok $? "$1${args:+ $args}"
	rm -f "$bad/$1.got"
	[ -s "$bad/$1.err" ] || rm -f "$bad/$1.err"
}

n=0
for out in "$fixtures"/*.out; do
	[ -f "$out" ] && n=$((n + 1))
done
ktap_plan $((n + 1))
for out in "$fixtures"/*.out; do
	[ -f "$out" ] && check "$(basename "$out" .out)"
done

verdicts=$(sed -n 's/^verdict=//p' "$fixtures"/*.out | sort -u | tr '\n' ' ')
[ "$verdicts" = "fail hang panic pass skip " ]
ktap_ok $? "golden files hold every verdict" ||
	ktap_diag "verdicts in the golden files: $verdicts"
ktap_done
