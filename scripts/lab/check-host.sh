#!/bin/sh
# check-host.sh [llseek-report]: the host tests alone, no kernel build.
#   make check-host    every tests/host/tNNNN-*.sh without a "# needs:"
#                      line, as many at a time as there are cores
#   make check-llseek  (argument llseek-report) the llseek report of the
#                      whole tree, made when missing or stale, then the
#                      tests that read it ("# needs: llseek-report")
# All run; each top-level case counts (a skip is counted as skipped). The
# Makefile builds the tools (and for check-host the guest tests) and
# extracts the tree first.
# Ends with "N passed, N failed"; exit status 0 only when nothing failed.
# check.sh runs the same tests, stopping at the first failure.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/check-lib.sh"

case $* in
"")
	echo "== host tests"
	host_tests host
	;;
llseek-report)
	echo "== llseek report"
	llseek_report
	echo "== host tests that read it"
	host_tests llseek-report
	;;
*) die "usage: check-host.sh [llseek-report]" ;;
esac
check_summary
