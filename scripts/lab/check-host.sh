#!/bin/sh
# check-host.sh [llseek-tree]: the host tests alone, no kernel build.
#   make check-host    every tests/host/tNNNN-*.sh without a "# needs:"
#                      second line, as many at a time as there are cores
#   make check-llseek  (argument llseek-tree) the llseek report of the
#                      whole tree, made when missing or stale, then the
#                      tests of the llseek series against the whole tree
#                      ("# needs: llseek-tree"): t4000 and the two that
#                      read the report
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
llseek-tree)
	echo "== llseek report"
	llseek_report
	echo "== the llseek series against the whole tree"
	host_tests llseek-tree
	;;
*) die "usage: check-host.sh [llseek-tree]" ;;
esac
check_summary
