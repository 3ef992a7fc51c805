#!/bin/sh
# t1105-v4l2-compare: the cross-kernel comparison of v4l2-compliance's
# totals, both runs of the tool (tests/guest/media/v4l2-compliance.c: -d
# /dev/video0 and -m /dev/media0 -s 10), on a fake results tree.
#
# The baseline boot's console is tests/host/fixtures/verdict/vivid-media.log
# (a real vivid boot: 113 and 128 checks, 4 failing in each); each case's
# patched console is the same with its totals diagnostics edited by a sed
# script. tools/lab/verdict judges both as boot.sh does; then v4l2_check
# (check-lib.sh, what check.sh runs for every profile) must count a pass
# for each run the patched kernel does no worse in and a failure for every
# other, naming the run and the result v4l2_compare (lib.sh) gives. A
# patched kernel that fails one more check, loses a check, or fails a check
# more in the first run must each fail: a comparison that cannot fail
# proves nothing. The last case reads report.sh's text and front page for
# a worse patched kernel.
#
# Needs TOP (the repository) and TOOLS (the built host tools).
if [ -z "${TOP:-}" ] || [ -z "${TOOLS:-}" ]; then
	echo "error: TOP and TOOLS must be set (repository, host tools)" >&2
	exit 1
fi
export TOP TOOLS
. "$TOP/tests/host/ktap.sh"

log=$TOP/tests/host/fixtures/verdict/vivid-media.log
w=${TMPDIR:-/tmp}/t1105
rm -rf "$w"
mkdir -p "$w" || exit 1
RESULTS=$w/results BUILD=$w/build
. "$TOP/scripts/lab/lib.sh"
. "$TOP/scripts/lab/check-lib.sh"

v='    # v4l2-compliance: '
m='    # v4l2-compliance-media: '
# NAME|BASELINE SED|PATCHED SED|WANT: the edits of each console (empty:
# none) and what v4l2_check must print, "STATUS NAME RESULT" per run.
cases="same|||ok v4l2-compliance no worse; ok v4l2-compliance-media no worse
media: a check fails more||s/^\($m\)total=128 succeeded=124 failed=4/\1total=128 succeeded=123 failed=5/|ok v4l2-compliance no worse; FAIL v4l2-compliance-media worse
media: a check lost||s/^\($m\)total=128 succeeded=124/\1total=127 succeeded=123/|ok v4l2-compliance no worse; FAIL v4l2-compliance-media worse
media: a check more, failing||s/^\($m\)total=128 succeeded=124 failed=4/\1total=129 succeeded=124 failed=5/|ok v4l2-compliance no worse; FAIL v4l2-compliance-media worse
media: a check fixed||s/^\($m\)total=128 succeeded=124 failed=4/\1total=128 succeeded=125 failed=3/|ok v4l2-compliance no worse; ok v4l2-compliance-media no worse
media: more warnings only||s/^\($m.*\)warnings=5/\1warnings=9/|ok v4l2-compliance no worse; ok v4l2-compliance-media no worse
video0: a check fails more||s/^\($v\)total=113 succeeded=109 failed=4/\1total=113 succeeded=108 failed=5/|FAIL v4l2-compliance worse; ok v4l2-compliance-media no worse
media: not run on patched||/^$m/d|ok v4l2-compliance no worse; FAIL v4l2-compliance-media not run
media: not run on baseline|/^$m/d||ok v4l2-compliance no worse; FAIL v4l2-compliance-media not run
media: a number missing||s/^\($m.*\)succeeded=124/\1succeeded=x/|ok v4l2-compliance no worse; FAIL v4l2-compliance-media unreadable
neither run on either|/^    # v4l2-compliance/d|/^    # v4l2-compliance/d|"

# boot KERNEL SED: the vivid boot of KERNEL, its console edited by SED.
boot() {
	_d="$RESULTS/$1/vivid"
	mkdir -p "$_d" &&
		sed -e "$2" "$log" >"$_d/console.log" &&
		"$TOOLS/verdict" "$_d/console.log" >"$_d/verdict" &&
		printf 'kernel=%s\nprofile=vivid\naccel=tcg\nwall=1.5\nqemu_status=0\n' \
			"$1" >>"$_d/verdict" &&
		echo "the console without kernel lines" >"$_d/ktap.txt"
}

ktap_plan $(($(printf '%s\n' "$cases" | wc -l) + 2))

printf '%s\n' "$cases" >"$w/cases"
while IFS='|' read -r name base patched want; do
	rm -rf "$RESULTS/baseline" "$RESULTS/patched"
	boot baseline "$base" && boot patched "$patched" ||
		ktap_bail "cannot make the fake boots of '$name'"
	passed=0 failed=0 failures=
	v4l2_check vivid >"$w/out"
	got=$(sed -n -e 's/^ok *\([^ ]*\) vivid no worse on patched (.*/ok \1 no worse/p' \
		-e 's/^FAIL *\([^ ]*\) vivid: patched: \([a-z ]*\) (.*/FAIL \1 \2/p' "$w/out" |
		paste -sd';' - | sed 's/;/; /g')
	n_fail=$(grep -c '^FAIL ' "$w/out")
	[ "$got" = "$want" ] && [ "$failed" = "$n_fail" ] &&
		[ "$passed" = "$(grep -c '^ok ' "$w/out")" ]
	ktap_ok $? "$name: ${want:-nothing compared}" ||
		ktap_diag "got: $got; counted $passed passed, $failed failed
$(cat "$w/out")"
done <"$w/cases"

# The report of a patched kernel that fails one more check over media0.
rm -rf "$RESULTS/baseline" "$RESULTS/patched"
boot baseline "" && boot patched "s/^\($m\)total=128 succeeded=124 failed=4/\1total=128 succeeded=123 failed=5/" ||
	ktap_bail "cannot make the fake boots of the report"
sh "$TOP/scripts/lab/report.sh" >"$w/report.out" 2>&1
rc=$?
t='v4l2-compliance-media on vivid: baseline total=128 succeeded=124 failed=4 warnings=5; patched total=128 succeeded=123 failed=5 warnings=5: worse'
[ "$rc" = 0 ] && grep -qxF "$t" "$w/report.out" &&
	grep -qxF 'v4l2-compliance on vivid: baseline total=113 succeeded=109 failed=4 warnings=0; patched total=113 succeeded=109 failed=4 warnings=0: no worse' "$w/report.out"
ktap_ok $? "report.sh's text names both runs, the media one worse" ||
	ktap_diag "exit status $rc: $(grep -i v4l2 "$w/report.out")"
grep -qxF "<p>$t</p>" "$RESULTS/index.html" &&
	grep -qF '<tr><th>v4l2_compliance_media</th><td>total=128 succeeded=123 failed=5 warnings=5</td></tr>' \
		"$RESULTS/patched/vivid/index.html"
ktap_ok $? "the front page shows the comparison, the boot page the totals" ||
	ktap_diag "$(grep -i v4l2 "$RESULTS/index.html" "$RESULTS/patched/vivid/index.html")"
ktap_done
