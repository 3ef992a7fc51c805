#!/bin/sh
# lava-verdict.sh DIR KERNEL PROFILE LAB_DIR: judges one LAVA job fetched
# into DIR by lava-submit.sh (job.txt, console.log, results.txt,
# lava-results.log) with tools/lab/verdict, as boot.sh judges a lab boot,
# and compares with the lab's own boot of PROFILE on KERNEL in LAB_DIR.
# A job LAVA ended at a timeout is judged --timed-out (a hang, unless the
# console shows a panic first); any other incomplete job as a QEMU that
# went away (--exit-status 1): never a pass. Writes DIR/verdict (verdict's
# keys and the job's facts), DIR/cases and DIR/lab-cases (verdict --cases),
# DIR/lava-cases and DIR/judge-cases (LAVA's own test cases, and the
# judge's named as LAVA names them), DIR/compare; prints one line. Exit
# status 1 when the verdict or the case list differs from the lab's, or
# (for a complete job) LAVA's cases differ from the judge's.
. "$(dirname "$0")/../lab/lib.sh"

d=${1:?usage: lava-verdict.sh DIR KERNEL PROFILE LAB_DIR} k=${2:?} p=${3:?} lab=${4:?}
need_file "$d/job.txt" "fetch the job first (lava-submit.sh)"
need_file "$lab/verdict" "no lab boot of '$p' on '$k' to compare with: run 'make boot PROFILES=$p KERNELS=$k'"

field() {
	sed -n "s/^$1 *: //p" "$d/job.txt"
}
health=$(field Health)
# LAVA's outcome of the job: "{'case': 'job', ..., 'error_msg': ..., 'error_type': ...}".
job_line=$(grep "'case': 'job'" "$d/lava-results.log" | tail -n 1)
error_type=$(printf '%s' "$job_line" | sed -n "s/.*'error_type': '\([^']*\)'.*/\1/p")
error_msg=$(printf '%s' "$job_line" | sed -n "s/.*'error_msg': '\([^']*\)'.*/\1/p")
# A dispatcher that died (killed, its host restarted) sends no outcome.
[ -n "$job_line" ] || [ "$health" = Complete ] || error_msg="no outcome from the dispatcher (it ended mid-job)"
# Seconds from QEMU's start to the last monitor's end (LAVA's own
# measure), and from the job's start to its end.
guest=$(grep "'case': 'lava-test-monitor'" "$d/lava-results.log" | sed -n "s/.*'duration': '\([0-9.]*\)'.*/\1/p" | tail -n 1)
secs() {
	date -u -d "$(echo "$1" | sed 's/^\(....\)\(..\)\(..\)T/\1-\2-\3 /')" +%s
}
job_secs=$(($(secs "$(field 'end time')") - $(secs "$(field 'start time')")))

set --
case $health in
Complete) ;;
*)
	case $error_msg in
	*"timed out"*) set -- --timed-out ;;
	*) set -- --exit-status 1 ;;
	esac
	;;
esac
for t in $(profile_get "$p" optional | cut -d' ' -f1); do
	set -- "$@" --optional "$t"
done
"$TOOLS/verdict" "$@" "$d/console.log" >"$d/verdict" || die "verdict failed on '$d/console.log'"
printf 'kernel=%s\nprofile=%s\nlava_job=%s\nlava_health=%s\nlava_error=%s%s\nlava_guest_secs=%s\nlava_job_secs=%s\n' \
	"$k" "$p" "$(cat "$d/job-id")" "$health" "$error_type" "${error_type:+${error_msg:+: }}$error_msg" \
	"${guest:-}" "$job_secs" >>"$d/verdict"
"$TOOLS/verdict" --cases "$d/console.log" >"$d/cases"
"$TOOLS/verdict" --cases "$lab/console.log" >"$d/lab-cases"

# LAVA's own cases ("* SUITE.CASE [RESULT]", LAVA's suite dropped) and the
# judge's named as LAVA names them (tests/host/t1103-lava-jobs.sh).
sed -n 's/^\* \([^.]*\)\.\(.*\) \[\(.*\)\]$/\1	\2	\3/p' "$d/results.txt" |
	grep -v '^lava	' | sort >"$d/lava-cases"
awk -F'\t' '{ s = $1; gsub("/", "_", s)
	c = tolower($4); gsub(/^[ \t]+|[ \t]+$/, "", c); gsub(/[^a-z0-9_]+/, "_", c)
	print s "\t" c "\t" $3 }' "$d/cases" | sort >"$d/judge-cases"

v=$(kv "$d/verdict" verdict)
lv=$(kv "$lab/verdict" verdict)
same=yes
[ "$v" = "$lv" ] || same=no
if cmp -s "$d/cases" "$d/lab-cases"; then cases=equal; else cases=differ same=no; fi
if cmp -s "$d/lava-cases" "$d/judge-cases"; then lcases=equal; else lcases=differ; fi
[ "$health" != Complete ] || [ "$lcases" = equal ] || same=no
{
	echo "lava=$v"
	echo "lab=$lv"
	echo "cases=$cases ($(grep -c . "$d/cases") LAVA, $(grep -c . "$d/lab-cases") lab)"
	echo "lava_cases=$lcases ($(grep -c . "$d/lava-cases") LAVA test cases, $(grep -c . "$d/judge-cases") of the judge)"
	echo "lab_wall=$(kv "$lab/verdict" wall)"
	echo "same=$same"
} >"$d/compare"
progress lava "$p on $k: LAVA job $(cat "$d/job-id") $health${error_msg:+ ($error_msg)}, verdict $v ($(kv "$d/verdict" reason)); lab $lv; cases $cases; LAVA's cases $lcases; guest ${guest:-?} s (lab $(kv "$lab/verdict" wall) s), job $job_secs s"
[ "$same" = yes ]
