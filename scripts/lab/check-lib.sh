# check-lib.sh: what check.sh and check-host.sh share: the counters, the
# llseek report, the host test runner and the last line. Sourced after
# lib.sh, never run.
#
# count pass|fail|skip NAME [DETAIL]
#                    one result, printed and counted
# llseek_report      makes results/llseek/report.tsv (t4002 and t4003 of
#                    the llseek-tree class read it) when it is missing or
#                    older than the tree, the rules, decisions.tsv or the
#                    llseek scripts; one result
# host_tests CLASS [--stop]
#                    runs tests/host/tNNNN-*.sh of CLASS: "host" those
#                    without a "# needs: WHAT" second line, else those that
#                    need WHAT: "llseek-tree" or "kernels"
#                    (tests/README.md); each top-level KTAP case counts
#                    (tools/lab/verdict reads the KTAP), a skip as skipped,
#                    never as passed. "kernels" runs one at a time, the
#                    others as many at a time as there are cores
#                    (HOST_JOBS=N); results are printed in name order, and
#                    every 30 s a line names the tests still running.
#                    --stop ends at the first failing test and returns 1.
#                    A test of a class no runner knows exits the shell
#                    before any test starts (no last line: a hard stop)
# v4l2_check PROFILE each run of v4l2-compliance on PROFILE's two boots
#                    (v4l2_compare in lib.sh): one result each, a pass
#                    only when the patched kernel does no worse (check.sh;
#                    tests/host/t1105 proves it fails when it does worse)
# check_summary      the failures, the skips and the last line, "N passed,
#                    N failed"; returns 0 only when nothing failed
export TOP BUILD RESULTS TOOLS

passed=0 failed=0 skipped=0
failures=
logdir="$RESULTS/check"
mkdir -p "$logdir"

count() { # count pass|fail|skip NAME [DETAIL]
	case $1 in
	pass) passed=$((passed + 1)); printf 'ok      %s\n' "$2" ;;
	skip) skipped=$((skipped + 1)); printf 'skip    %s # %s\n' "$2" "$3" ;;
	*) failed=$((failed + 1)); printf 'FAIL    %s%s\n' "$2" "${3:+: $3}"
	   failures="$failures
  $2${3:+: $3}" ;;
	esac
}

llseek_report() {
	_r="$RESULTS/llseek/report.tsv"
	if [ -f "$_r" ] && [ -z "$(find "$PRISTINE/.bklfree-extracted" \
		"$TOP/coccinelle/llseek" "$TOP/scripts/llseek" \
		-newer "$_r" -type f 2>/dev/null | head -n 1)" ]; then
		count pass "llseek report: $(($(wc -l <"$_r") - 1)) rows classified (up to date)"
	elif llseek_report_run; then
		count pass "llseek report: $(($(wc -l <"$_r") - 1)) rows classified"
	else
		count fail "llseek report" "see $logdir/llseek-report.log"
	fi
}

# llseek_report_run: llseek-report.sh, its output in the log but for its
# progress lines (a minute and more of spatch), which are shown too.
llseek_report_run() {
	rm -f "$logdir/llseek-report.rc"
	{
		"$TOP/scripts/llseek/llseek-report.sh" 2>&1
		echo "$?" >"$logdir/llseek-report.rc"
	} | tee "$logdir/llseek-report.log" | grep --line-buffered '^  llseek '
	[ "$(cat "$logdir/llseek-report.rc")" = 0 ]
}

# host_run TEST: one host test in the background, its KTAP in
# $logdir/NAME.log; when it ends, "STATUS SECONDS" in $logdir/NAME.rc and a
# line on fd 3 (host_tests reads it to start the next). The test itself
# gets no fd 3.
host_run() {
	_name=$(basename "$1" .sh)
	rm -f "$logdir/$_name.rc"
	(
		_t0=$(now)
		TMPDIR="$logdir/tmp-$_name" sh -c 'mkdir -p "$TMPDIR" && exec sh "$0"' \
			"$1" >"$logdir/$_name.log" 2>&1 3>&-
		# Whole or not at all: host_tests reads it once it exists.
		echo "$? $(elapsed "$_t0")" >"$logdir/$_name.rc.new" &&
			mv "$logdir/$_name.rc.new" "$logdir/$_name.rc"
		echo "$_name" >&3
	) &
}

# host_result NAME: count and print one finished test; returns 1 when it
# failed.
host_result() {
	name=$1
	log="$logdir/$name.log"
	read -r rc secs <"$logdir/$name.rc"
	# The test's top-level results, as tools/lab/verdict counts
	# them (the one KTAP reader).
	v="$logdir/$name.verdict"
	"$TOOLS/verdict" "$log" >"$v" || : >"$v"
	n_ok=$(kv "$v" passed) n_skip=$(kv "$v" skipped)
	n_bad=$(kv "$v" failed) n_timeout=$(kv "$v" timeout)
	n_ok=${n_ok:-0} n_skip=${n_skip:-0}
	n_bad=$((${n_bad:-0} + ${n_timeout:-0}))
	_tab=$(printf '\t')
	sed -n "s/^failed_test=\([^$_tab]*\)$_tab.*/  $name: not ok \1/p" "$v"
	passed=$((passed + n_ok))
	skipped=$((skipped + n_skip))
	failed=$((failed + n_bad))
	if [ "$rc" -ne 0 ] && [ "$n_bad" -eq 0 ]; then
		count fail "$name" "exit status $rc without a failing case ($(kv "$v" reason)); log: $log"
	else
		printf '%-7s %s: %s passed, %s failed, %s skipped (%s s)\n' \
			"$([ "$n_bad" -eq 0 ] && echo ok || echo FAIL)" "$name" \
			"$n_ok" "$n_bad" "$n_skip" "$secs"
		[ "$n_bad" -eq 0 ] || failures="$failures
  $name: $n_bad failed case(s); log: $log"
	fi
	[ "$rc" -eq 0 ] && [ "$n_bad" -eq 0 ]
}

# host_running: host_tests's progress line, the started tests that have
# not ended.
host_running() {
	_names=
	for _n in $_queue; do
		[ -f "$logdir/$_n.rc" ] || _names="$_names $_n"
	done
	progress check "running:${_names:- (none)}, $(elapsed "$_since") s"
}

# host_class TEST: what TEST needs, from a "# needs: WHAT" second line
# (below "#!/bin/sh"), or "host" when it has none. A WHAT no runner knows
# stops the run: such a test would run nowhere.
host_class() {
	_class=$(sed -n '2{s/^# needs:[[:space:]]*//p;q;}' "$1")
	case $_class in
	"") echo host ;;
	kernels | llseek-tree) echo "$_class" ;;
	*) die "${1#"$TOP"/}: '# needs: $_class' (known: kernels, llseek-tree)" ;;
	esac
}

host_tests() { # host_tests CLASS [--stop]
	# The kernel tests boot guests with timeouts: one at a time.
	_jobs=1
	[ "$1" = kernels ] || _jobs=${HOST_JOBS:-$(nproc 2>/dev/null || echo 1)}
	_stop=$2 _todo= _running=0
	for t in "$TOP"/tests/host/t[0-9][0-9][0-9][0-9]-*.sh; do
		_c=$(host_class "$t") || exit 1
		[ "$_c" != "$1" ] || _todo="$_todo $t"
	done
	# Each test that ends writes a line to the FIFO (fd 3, opened read and
	# write so that it never reads end of file); results are printed in
	# name order whatever order the tests end in.
	rm -f "$logdir/.ended"
	mkfifo "$logdir/.ended" && exec 3<>"$logdir/.ended" && rm -f "$logdir/.ended" ||
		die "cannot make the FIFO $logdir/.ended"
	set -- $_todo
	_queue= _stopped= _since=$(now)
	# Results wait for every test before them in name order: a line every
	# 30 s says which are still running (a ".tick" on the FIFO).
	(while sleep 30 >/dev/null 2>&1 && kill -0 $$ 2>/dev/null; do
		echo .tick >&3
	done) >/dev/null 2>&1 &
	_ticker=$!
	while :; do
		# The finished tests at the head of the queue, in name order.
		while [ -n "$_queue" ]; do
			_head=${_queue%% *}
			[ -f "$logdir/$_head.rc" ] || break
			_queue=${_queue#"$_head"}
			_queue=${_queue# }
			host_result "$_head" || [ "$_stop" != --stop ] || {
				_stopped=$_head
				break 2
			}
		done
		[ $# -gt 0 ] || [ -n "$_queue" ] || break
		while [ $# -gt 0 ] && [ "$_running" -lt "$_jobs" ]; do
			host_run "$1"
			_queue="${_queue:+$_queue }$(basename "$1" .sh)"
			_running=$((_running + 1))
			shift
		done
		read -r _ended <&3
		if [ "$_ended" = .tick ]; then
			host_running
			continue
		fi
		_running=$((_running - 1))
		# Under --stop, a test that failed ends the starting: every
		# test before it in name order has started.
		[ "$_stop" != --stop ] || { read -r _rc _ <"$logdir/$_ended.rc" &&
			[ "$_rc" -eq 0 ]; } || set --
	done
	# Every test started has ended (those started beside a failing one
	# under --stop run to their end, uncounted).
	while [ "$_running" -gt 0 ]; do
		read -r _ended <&3
		[ "$_ended" = .tick ] || _running=$((_running - 1))
	done
	kill "$_ticker" 2>/dev/null
	exec 3>&-
	[ -z "$_stopped" ] || {
		echo "stopped at the first failing host test, $_stopped"
		return 1
	}
}

v4l2_check() { # v4l2_check PROFILE
	_tab=$(printf '\t')
	v4l2_compare "$1" >"$logdir/v4l2-compare" || {
		count fail "v4l2-compliance $1" "cannot compare the totals"
		return
	}
	while IFS="$_tab" read -r _name _result _a _b; do
		if [ "$_result" = "no worse" ]; then
			count pass "$_name $1 no worse on patched (baseline $_a; patched $_b)"
		else
			count fail "$_name $1" "patched: $_result (baseline: $_a; patched: $_b)"
		fi
	done <"$logdir/v4l2-compare"
}

check_summary() {
	[ -z "$failures" ] || printf '\nfailures:%s\n' "$failures"
	echo
	# Skips are neither passes nor failures; they are named above and
	# counted here, and the last line keeps its "N passed, N failed" form.
	[ "$skipped" -eq 0 ] || echo "$skipped skipped (not counted as passed)"
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}
