#!/bin/sh
# check-lava.sh: the local LAVA instance end to end (make check-lava, opt
# in: it needs make lava-up, and the lab's boots of core on both kernels
# and of LAVA_DEVICE_PROFILE on patched in LAB_RESULTS). KTAP, then
# "N passed, N failed". Six boots: core on both kernels and one device
# profile, equal to the lab's; core with a 3 s timeout (LAVA ends it: a
# hang); core with its worker restarted mid-job (incomplete, never a pass).
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

ktap_plan 7

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

# The worker (and the dispatcher it runs) killed mid-job and started again.
LAVA_RUNS="$out/restart" PROFILES=core KERNELS=patched submit >"$out/restart.log" 2>&1 &
submitter=$!
i=0
while [ $i -lt 120 ]; do
	# QEMU runs the job's guest: its command line names the job's directory.
	id=$(cat "$out/restart/patched/core/job-id" 2>/dev/null) &&
		ps -eo args | grep -v grep | grep -q "^[^ ]*qemu-system.*/dispatcher/tmp/$id/" && break
	sleep 1
	i=$((i + 1))
done
sleep 2
daemon_stop worker
"$(dirname "$0")/lava-up.sh" >"$out/up-again.log" 2>&1
wait "$submitter"
v="$out/restart/patched/core/verdict"
[ -n "${id:-}" ] && [ -f "$v" ] && [ "$(kv "$v" lava_health)" != Complete ] && [ "$(kv "$v" verdict)" != pass ]
ktap_ok $? "the worker restarted mid-job: the job is not complete and the boot not a pass ($(kv "$v" lava_health), $(kv "$v" verdict))" ||
	ktap_diag "$(tail -n 3 "$out/restart.log")"

# What a guest gets under LAVA against the lab's own boot (docs/lava.md).
for c in "$out"/runs/*/*/compare; do
	d=${c%/compare}
	ktap_diag "$(basename "$(dirname "$d")") $(basename "$d"): guest $(kv "$d/verdict" lava_guest_secs) s under LAVA, $(kv "$c" lab_wall) s in the lab; job $(kv "$d/verdict" lava_job_secs) s"
done
lavacli workers show "$LAVA_WORKER" | grep -q 'state *: Online'
ktap_ok $? "the worker is online again after the restart"
echo "$((ktap_count - ktap_failed)) passed, $ktap_failed failed"
ktap_done
