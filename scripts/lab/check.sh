#!/bin/sh
# check.sh: every test of the project, ending with "N passed, N failed".
#   1. host tests, before any kernel is built: each tests/host/tNNNN-*.sh
#      without a "# needs:" line prints KTAP, which tools/lab/verdict reads;
#      every top-level case counts (a skip is counted as skipped, never as
#      passed); the first failing test stops the run (check-lib.sh); then
#      the llseek report of the whole tree and the tests marked "# needs:
#      llseek-tree", which check the llseek series against the whole tree
#      (t4000 regenerates the removal series, t4002 and t4003 read the
#      report): a failing report or test stops the run too
#   2. allmodconfig single-object builds of the files the series touch
#      (scripts/lab/compile-touched.sh), one case per compiled file; then
#      the host tests marked "# needs: kernels"
#   3. the boot matrix: both kernels are built and every profile is booted
#      on both; each boot counts by its verdict (tools/lab/verdict, the only
#      judge): "pass" passes, "skip" (an optional= test skipped) is counted
#      as skipped, anything else fails, except a baseline boot with a
#      recorded finding (patches/*/findings), which passes only when it
#      fails in exactly the recorded cases (named by their KTAP
#      description; and with a splat or a failed host check exactly when
#      one is recorded)
#   4. v4l2-compliance totals, where a profile runs it, of each run of the
#      tool (v4l2_check in check-lib.sh): the patched kernel may fail no
#      more checks and pass no fewer than the baseline
#   5. the lseek ABI comparison of each profile: passes when nothing but
#      the series' expected changes differs
#   6. the coverage map of the boots (scripts/coverage/coverage.sh) is made,
#      and tests/host/t9000 accepts it
#   7. results/kcidb.json is written (scripts/kcidb/kcidb.sh) and valid
#      against the KCIDB schema (scripts/kcidb/validate.sh)
# Exit status 0 only when nothing failed.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/check-lib.sh"

echo "== host tests"
# Before any kernel is built: a failing host test stops the run.
if ! host_tests host --stop; then
	check_summary
	exit 1
fi

echo "== llseek report"
# The llseek series against the whole tree: the decision tests (t4002,
# t4003) read results/llseek/report.tsv, which a fresh clone has not, so
# it is made here rather than let them skip; t4000 regenerates the
# removal series. A minute and more of spatch, kept out of the host
# tests' fast lane (make check-host; make check-llseek runs this).
llseek_report
echo "== the llseek series against the whole tree"
if [ "$failed" -ne 0 ] || ! host_tests llseek-tree --stop; then
	check_summary
	exit 1
fi

tab=$(printf '\t')

# terms LINES: findings lines (scripts/lab/findings.sh) on one line, for a
# message: "TEST: DESCRIPTION; ...".
terms() {
	[ -n "$1" ] || { echo none; return; }
	printf '%s\n' "$1" | sed "s/$tab/: /" | paste -sd';' - | sed 's/;/; /g'
}

# differ KNOWN GOT: what a finding records and the boot did not show, and
# what the boot showed that no finding records.
differ() {
	printf '%s\n' "$1" >"$logdir/findings.known"
	printf '%s\n' "$2" >"$logdir/findings.got"
	printf 'recorded, not seen: %s; seen, not recorded: %s\n' \
		"$(terms "$(comm -23 "$logdir/findings.known" "$logdir/findings.got")")" \
		"$(terms "$(comm -13 "$logdir/findings.known" "$logdir/findings.got")")"
}

# summary LINES: how many cases, and the words: "2 case(s), splat".
summary() {
	printf '%s\n' "$1" | awk '/\t/ { n++; next } { w = w ", " $0 }
		END { printf "%d case(s)%s\n", n, w }'
}

echo "== tree, kernels and initramfs"
# Every series, whatever the last make apply recorded (SUBSYS= clears one
# from the environment).
make -C "$TOP" --no-print-directory build initramfs KERNELS="baseline patched" \
	SERIES=all SUBSYS= ||
	count fail "build" "make build initramfs failed (see above)"

echo "== touched files in allmodconfig"
# Every .c file the series touch compiles in an allmodconfig build of the
# patched tree; files no x86_64 config builds are listed, not counted.
# Its progress lines (stderr) stay on the terminal.
"$TOP/scripts/lab/compile-touched.sh" >"$logdir/compile-touched.log"
if [ -s "$RESULTS/compile-touched.txt" ]; then
	while read -r status file rest; do
		case $status in
		ok) passed=$((passed + 1)) ;;
		FAIL) count fail "compile $file" "see $RESULTS/compile-touched.txt" ;;
		esac
	done <"$RESULTS/compile-touched.txt"
	tail -n 1 "$logdir/compile-touched.log"
	grep "^not-built" "$RESULTS/compile-touched.txt" | sed 's/^/  /'
else
	count fail "compile touched files" "no result; log: $logdir/compile-touched.log"
fi

echo "== host tests that need the kernels"
host_tests kernels

echo "== boots"
# Every boot runs: a check never takes an earlier run's verdict.
if BOOT_REUSE=0 make -C "$TOP" --no-print-directory boot KERNELS="baseline patched" SERIES=all SUBSYS= \
	PROFILES="$(all_profiles | tr '\n' ' ')"; then
	for p in $(all_profiles); do
		ended_in_finding=
		for k in baseline patched; do
			f="$RESULTS/$k/$p/verdict"
			v=$(kv "$f" verdict)
			known=
			if [ "$k" = baseline ] &&
				! known=$("$TOP/scripts/lab/findings.sh" "$p"); then
				count fail "boot $k/$p" "the findings cannot be read (see above)"
				continue
			fi
			if [ -n "$known" ]; then
				# A finding: the baseline must fail in exactly the
				# recorded cases, so the fix is proven both ways.
				got=$(verdict_failures "$f")
				# A splat may end the boot in a panic
				# (softlockup_panic): still a failure, not a hang.
				if { [ "$v" = fail ] || { [ "$v" = panic ] &&
					echo "$known" | grep -qx splat; }; } &&
					[ "$got" = "$known" ]; then
					count pass "boot $k/$p fails as the findings record ($(summary "$known"))"
					[ "$v" = panic ] && ended_in_finding=yes
				else
					count fail "boot $k/$p" "expected the recorded finding ($(summary "$known")), got $v; $(differ "$known" "$got") (console: ${f%verdict}console.log)"
				fi
			elif [ "$v" = pass ]; then
				count pass "boot $k/$p"
			elif [ "$v" = skip ]; then
				# An optional= test skipped: allowed, and named.
				count skip "boot $k/$p" "$(kv "$f" reason)"
			else
				count fail "boot $k/$p" "${v:-no verdict}: $(kv "$f" reason) (console: ${f%verdict}console.log)"
				# The first failing case and what its test
				# printed before it, as the verdict shows them.
				sed -n 's/^first_failed_case_ktap=/        | /p' "$f" 2>/dev/null
			fi
		done
		# Each run of v4l2-compliance: the patched kernel must do no
		# worse.
		v4l2_check "$p"
		out=$("$TOP/scripts/lab/lseek-diff.sh" "$p")
		rc=$?
		if [ "$rc" = 0 ]; then
			count pass "lseek ABI $p ($out)"
		elif [ "$rc" = 2 ] && [ -n "$ended_in_finding" ] &&
			[ -s "$RESULTS/patched/$p/lseek.tsv" ]; then
			# The recorded finding panics the baseline before its
			# lseek walk: there is nothing to compare, and that is
			# not a result either way.
			printf 'note    lseek ABI %s not compared: the baseline boot ends in its recorded panic\n' "$p"
		else
			count fail "lseek ABI $p" "$out; details: $RESULTS/lseek-diff/$p.txt"
		fi
	done
	# The coverage map of these boots (scripts/coverage/coverage.sh), and
	# the guard of docs/coverage.tsv run on it; before the report, whose
	# front page shows it.
	if "$TOP/scripts/coverage/coverage.sh" >"$logdir/coverage.log" 2>&1; then
		count pass "coverage map made ($(sed -n 's/^reachable, not yet exercised: *//p' "$logdir/coverage.log") reachable, not yet exercised)"
	else
		count fail "coverage map made" "see $logdir/coverage.log"
	fi
	if COVERAGE_TSV="$RESULTS/coverage.tsv" TMPDIR="$logdir/tmp-coverage" \
		sh -c 'mkdir -p "$TMPDIR" && exec sh "$0"' "$TOP/tests/host/t9000-coverage-map.sh" \
		>"$logdir/coverage-guard.log" 2>&1; then
		count pass "coverage map guard on results/coverage.tsv"
	else
		count fail "coverage map guard on results/coverage.tsv" "see $logdir/coverage-guard.log"
	fi
	"$TOP/scripts/lab/report.sh" >"$logdir/report.txt" 2>&1
	# The boots as a KCIDB document, checked against its schema.
	if "$TOP/scripts/kcidb/kcidb.sh" >"$logdir/kcidb.log" 2>&1 &&
		"$TOP/scripts/kcidb/validate.sh" "$RESULTS/kcidb.json" >>"$logdir/kcidb.log" 2>&1; then
		count pass "results/kcidb.json $(sed -n 's/.*: valid /valid /p' "$logdir/kcidb.log")"
	else
		count fail "results/kcidb.json" "see $logdir/kcidb.log"
	fi
else
	count fail "build and boot" "make boot failed (see above)"
fi

check_summary
