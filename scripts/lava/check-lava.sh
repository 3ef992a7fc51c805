#!/bin/sh
# check-lava.sh: the local LAVA instance end to end (make check-lava, opt
# in: it needs make lava-up, and the lab's boots of core on both kernels
# and of LAVA_DEVICE_PROFILE on patched in LAB_RESULTS). KTAP, then
# "N passed, N failed". Six boots: core on both kernels and one device
# profile, equal to the lab's; core with a 3 s timeout (LAVA ends it: a
# hang); core with its worker restarted mid-job (the job goes on), and
# with its dispatcher killed (incomplete, never a pass).
. "$(dirname "$0")/lava-lib.sh"
. "$TOP/tests/host/ktap.sh"

: "${LAVA_DEVICE_PROFILE:=watchdog}"
: "${LAB_RESULTS:=$RESULTS}"
export LAB_RESULTS
out="$RESULTS/lava/check"
rm -rf "$out"
mkdir -p "$out"
submit() {
	"$(dirname "$0")/lava-submit.sh"
}

ktap_plan 8

"$(dirname "$0")/lava-up.sh" >"$out/up.log" 2>&1 &&
	[ "$(manage devices list -a | grep -c "^\* $LAVA_DEVICE ")" = 1 ] &&
	[ "$(manage workers list | grep -c "^\* $LAVA_WORKER ")" = 1 ]
ktap_ok $? "lava-up again changes nothing: one worker, one device, lavacli answers" ||
	ktap_diag "$(tail -n 5 "$out/up.log")"

# Every socket the instance listens on is on 127.0.0.1 (ss: postgres,
# gunicorn; the workers and the scheduler listen on none).
ss -ltnpH >"$out/listen.txt"
grep -E 'postgres|gunicorn|lava' "$out/listen.txt" >"$out/lava-listen.txt"
[ -s "$out/lava-listen.txt" ] && ! awk '{ print $4 }' "$out/lava-listen.txt" | grep -v '^127\.0\.0\.1:'
ktap_ok $? "the instance listens on 127.0.0.1 only" || ktap_diag "$(cat "$out/lava-listen.txt")"

LAVA_RUNS="$out/runs" PROFILES=core KERNELS="baseline patched" submit >"$out/core.log" 2>&1
ktap_ok $? "core on baseline and patched: LAVA's verdicts and cases equal the lab's" ||
	ktap_diag "$(tail -n 5 "$out/core.log")"

LAVA_RUNS="$out/runs" PROFILES="$LAVA_DEVICE_PROFILE" KERNELS=patched submit >"$out/device.log" 2>&1
ktap_ok $? "$LAVA_DEVICE_PROFILE on patched: LAVA's verdict and cases equal the lab's" ||
	ktap_diag "$(tail -n 5 "$out/device.log")"

# A guest that cannot finish in time: LAVA's test timeout ends the job.
LAVA_RUNS="$out/hang" LAVA_TIMEOUT=3 PROFILES=core KERNELS=patched submit >"$out/hang.log" 2>&1
v="$out/hang/patched/core/verdict"
[ "$(kv "$v" verdict)" = hang ] && [ "$(kv "$v" lava_health)" = Incomplete ] &&
	kv "$v" lava_error | grep -q 'timed out'
ktap_ok $? "a 3 s timeout: LAVA ends the job (incomplete, timed out) and the judge says hang" ||
	ktap_diag "$(tail -n 3 "$out/hang.log")"

# restart WHAT RUNS: submit core on patched into RUNS, and once QEMU runs
# the job's guest, stop the worker ("worker") or kill the job's dispatcher
# (lava-run) and its QEMU as well ("dispatcher", a crash), then start the
# worker again (lava-up.sh).
restart() {
	LAVA_RUNS="$2" PROFILES=core KERNELS=patched submit >"$2.log" 2>&1 &
	_submitter=$!
	_i=0
	while [ $_i -lt 120 ]; do
		# QEMU runs the job's guest: its command line names the job's directory.
		_id=$(cat "$2/patched/core/job-id" 2>/dev/null) &&
			ps -eo args | grep -v grep | grep -q "^[^ ]*qemu-system.*/dispatcher/tmp/$_id/" && break
		sleep 1
		_i=$((_i + 1))
	done
	sleep 2
	# lava-run runs in a session of its own: stopping the worker leaves it.
	_pids=$(ps -eo pid=,args= | grep -v grep |
		grep -E "lava-run \[job: $_id\]|qemu-system.*/dispatcher/tmp/$_id/" | awk '{ print $1 }')
	daemon_stop worker
	# shellcheck disable=SC2086 # pids are words
	[ "$1" = worker ] || kill -KILL $_pids 2>/dev/null
	"$(dirname "$0")/lava-up.sh" >"$2-up.log" 2>&1
	wait "$_submitter"
}

# The worker restarted mid-job (as systemd restarts lava-worker): the job
# goes on under lava-run and completes, equal to the lab's.
restart worker "$out/worker"
v="$out/worker/patched/core/verdict"
[ -f "$v" ] && [ "$(kv "$v" lava_health)" = Complete ] && [ "$(kv "$out/worker/patched/core/compare" same)" = yes ]
ktap_ok $? "the worker restarted mid-job: the job goes on and completes, equal to the lab's ($(kv "$v" lava_health), $(kv "$v" verdict))" ||
	ktap_diag "$(tail -n 3 "$out/worker.log")"

# The dispatcher killed mid-job with its QEMU, the worker started again.
restart dispatcher "$out/dispatcher"
v="$out/dispatcher/patched/core/verdict"
[ -f "$v" ] && [ "$(kv "$v" lava_health)" = Incomplete ] && [ "$(kv "$v" verdict)" != pass ]
ktap_ok $? "the dispatcher killed mid-job: the job is incomplete and the boot not a pass ($(kv "$v" lava_health), $(kv "$v" verdict))" ||
	ktap_diag "$(tail -n 3 "$out/dispatcher.log")"

# What a guest gets under LAVA against the lab's own boot (docs/lava.md).
for c in "$out"/runs/*/*/compare; do
	d=${c%/compare}
	ktap_diag "$(basename "$(dirname "$d")") $(basename "$d"): guest $(kv "$d/verdict" lava_guest_secs) s under LAVA, $(kv "$c" lab_wall) s in the lab; job $(kv "$d/verdict" lava_job_secs) s"
done
lavacli workers show "$LAVA_WORKER" | grep -q 'state *: Online'
ktap_ok $? "the worker is online again after the restart"
echo "$((ktap_count - ktap_failed)) passed, $ktap_failed failed"
ktap_done
