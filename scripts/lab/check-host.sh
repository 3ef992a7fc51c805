#!/bin/sh
# check-host.sh: the host tests alone, no kernel build (make check-host).
#   1. the llseek report t4002 and t4003 read, made when missing or stale
#   2. every tests/host/tNNNN-*.sh without a "# needs: kernels" line; all
#      run, each top-level case counts (a skip is counted as skipped)
# The Makefile builds the tools and guest tests and extracts the tree
# first. Ends with "N passed, N failed"; exit status 0 only when nothing
# failed. check.sh runs the same tests, stopping at the first failure.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/check-lib.sh"

echo "== llseek report"
llseek_report
echo "== host tests"
host_tests host
check_summary
