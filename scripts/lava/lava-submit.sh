#!/bin/sh
# lava-submit.sh: the boots of PROFILES on KERNELS run by the local LAVA
# instance (make lava-submit, after make lava-up): writes the jobs with
# their artifacts served by a loopback http server started here, submits
# them with lavacli, waits (a progress line every 30 s at most), fetches
# each job's log and results, and judges each with lava-verdict.sh against
# the lab's own boot in LAB_RESULTS. Exit status 1 when any LAVA verdict
# or case list differs from the lab's. LAVA_TIMEOUT=SECS shortens every
# job's timeouts (a guest that cannot finish: LAVA must end it, a hang).
# Out: LAVA_RUNS/KERNEL/PROFILE/ (default $RESULTS/lava/runs). docs/lava.md.
. "$(dirname "$0")/lava-lib.sh"

: "${KERNELS:=baseline patched}"
: "${PROFILES:=core}"
: "${LAB_RESULTS:=$RESULTS}"
export KERNELS PROFILES
: "${LAVA_RUNS:=$RESULTS/lava/runs}"
runs=$LAVA_RUNS
art="$RESULTS/lava/artifacts"

[ -f "$LAVA_STATE/lavacli.yaml" ] && lavacli system version >/dev/null 2>&1 ||
	die "no LAVA instance answers at $LAVA_URL: run 'make lava-up' first"

LAVA_ARTIFACTS="http://$LAVA_HOST:$LAVA_ART_PORT" "$(dirname "$0")/lava-jobs.sh" || exit 1
"$(dirname "$0")/lava-artifacts.sh" "$RESULTS/lava/jobs/artifacts.tsv" "$art" || exit 1

# The artifacts, on loopback, for as long as the jobs run.
daemon_stop artifacts
daemon_start artifacts "$LAVA_PYTHON" -m http.server --bind "$LAVA_HOST" \
	--directory "$art" "$LAVA_ART_PORT"
trap 'daemon_stop artifacts' EXIT
trap 'exit 130' INT TERM
wait_http "http://$LAVA_HOST:$LAVA_ART_PORT/" 20 || die "the artifact server did not start"

mkdir -p "$runs"
: >"$runs/submitted"
for k in $KERNELS; do
	for p in $PROFILES; do
		job="$RESULTS/lava/jobs/$k/$p.yaml"
		[ -f "$job" ] || continue
		id=$(lavacli jobs submit "$job") && [ "$id" -gt 0 ] 2>/dev/null ||
			die "lavacli refused $job: $id"
		rm -rf "${runs:?}/$k/$p"
		mkdir -p "$runs/$k/$p"
		echo "$id" >"$runs/$k/$p/job-id"
		printf '%s %s %s\n' "$id" "$k" "$p" >>"$runs/submitted"
	done
done
total=$(wc -l <"$runs/submitted")
[ "$total" -gt 0 ] || die "no job to submit (skipped.tsv says why)"
progress lava "$total job(s) submitted to $LAVA_URL"

# Wait: poll every 5 s, a line when a job ends and at least every 30 s.
t0=$(now)
last=0
while :; do
	done_n=0 running=
	while read -r id k p; do
		d="$runs/$k/$p"
		if [ -f "$d/job.txt" ]; then
			done_n=$((done_n + 1))
			continue
		fi
		state=$(lavacli jobs show "$id" | sed -n 's/^state *: //p')
		if [ "$state" = Finished ]; then
			lavacli jobs show "$id" >"$d/job.txt"
			done_n=$((done_n + 1))
			progress lava "job $id ($p on $k): $(sed -n 's/^Health *: //p' "$d/job.txt"), $(elapsed "$t0") s"
		else
			running="$running $id:${state:-?}"
		fi
	done <"$runs/submitted"
	[ "$done_n" -lt "$total" ] || break
	s=$(elapsed "$t0")
	if [ "${s%.*}" -ge $((last + 30)) ]; then
		progress lava "$done_n of $total finished, waiting for$running, $s s"
		last=${s%.*}
	fi
	sleep 5
done

# Fetch and judge each job.
bad=0
while read -r id k p; do
	d="$runs/$k/$p"
	lavacli jobs logs --raw "$id" >"$d/lava-log.yaml"
	lavacli jobs logs --filters results "$id" >"$d/lava-results.log"
	lavacli results "$id" >"$d/results.txt"
	# The guest's serial output: "target" lines, and "feedback" lines
	# (what LAVA reads after the last monitor), in log order, without
	# lavacli's timestamp and feedback namespace.
	lavacli jobs logs --filters target,feedback "$id" |
		sed 's/^[0-9T:-]* //; s/^<common> //' >"$d/console.log"
	"$(dirname "$0")/lava-verdict.sh" "$d" "$k" "$p" "$LAB_RESULTS/$k/$p" || bad=$((bad + 1))
done <"$runs/submitted"
[ "$bad" -eq 0 ] || {
	progress lava "$bad of $total LAVA boot(s) differ from the lab's ($runs/*/*/compare)"
	exit 1
}
progress lava "$total LAVA boot(s), verdicts and cases equal to the lab's ($runs)"
