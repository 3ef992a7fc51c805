#!/bin/sh
# boot.sh KERNEL PROFILE: boot one profile on one kernel variant.
# Everything lands in results/KERNEL/PROFILE/: console.log, qemu.stderr,
# ktap.txt (the console without kernel lines, for people), lseek.tsv (the
# lseek ABI records), verdict (key=value from tools/lab/verdict, the only
# judge of the boot, plus the boot's facts) and result.json.
# A boot that outlives the profile's timeout is killed and reported as a
# hang; its console is kept.
. "$(dirname "$0")/lib.sh"

kernel=${1:?usage: boot.sh KERNEL PROFILE}
profile=${2:?usage: boot.sh KERNEL PROFILE}
check_profiles "$profile"
image=$(profile_image "$kernel" "$profile")
need_file "$image" "run 'make build KERNELS=$kernel' first"
command -v "$QEMU" >/dev/null ||
	die "'$QEMU' not found: apt-get install qemu-system-x86 (or run 'make deps')"

here=$(cd "$(dirname "$0")" && pwd)
run="$RESULTS/$kernel/$profile"

# boot_done VERDICT WALL NOTE: the boot's progress line; under the matrix
# "n/N", boots done of all (counted under a lock).
boot_done() {
	n=
	if [ -n "${MATRIX_DONE:-}" ]; then
		n="$(flock "$MATRIX_DONE" sh -c 'echo "$1" >>"$0" && wc -l <"$0"' \
			"$MATRIX_DONE" "$kernel $profile")/$MATRIX_TOTAL "
	fi
	progress boot "$(printf '%s%-9s %-12s %-6s %5s s  %s' "$n" "$kernel" "$profile" "$1" "$2" "$3")"
}

# reuse: the last boot stays, with a file "reused" saying since when.
reuse() {
	# The first run that reused it: a page made from the boot's files
	# stays current while it is reused again.
	[ -f "$run/reused" ] || date -u +%Y-%m-%dT%H:%M:%SZ >"$run/reused"
	boot_done "$last" "$(kv "$run/verdict" wall)" "reused: inputs unchanged since that boot ($run/inputs)"
	exit 0
}

# This boot's initramfs (the shared base, the profile's tests and modules)
# and the peer's, listed first in a folder of their own: a boot whose
# inputs (lib.sh, boot_inputs) are the last boot's is not run again. Only
# a pass, fail, skip or panic is reused (the kernel's verdicts; a hang or
# QEMU's error may be the host's), and BOOT_REUSE=0 boots anyway (make
# check and make bench always do).
last=$(kv "$run/verdict" verdict)
case ${BOOT_REUSE:-1}:$last in
1:pass | 1:fail | 1:skip | 1:panic) reusable=yes ;;
*) reusable= ;;
esac
# The quick look first: when no file the last boot's inputs were listed
# from (its inputs.files) is newer than the listing began (inputs.since)
# and the rest is the same (boot_env), listing them again would give the
# same text. It saves some sixty processes a boot, which a warm make's
# reused boots spent beside the one boot it runs.
# It holds while nothing builds beside the boots (make builds before it
# boots): a file written in another shell during a listing may keep a
# time older than the listing's end.
quick_look() {
	[ -n "$reusable" ] && [ -s "$run/inputs" ] && [ -f "$run/inputs.since" ] &&
		[ -s "$run/inputs.files" ] &&
		[ "$(boot_env "$here")" = "$(cat "$run/inputs.env" 2>/dev/null)" ] || return 1
	# A listed file gone makes find fail; -H: a listed link by its target.
	# shellcheck disable=SC2046 # the listed paths have no spaces
	newer=$(find -H $(cat "$run/inputs.files") -maxdepth 0 -newer "$run/inputs.since" -print -quit 2>/dev/null) &&
		[ -z "$newer" ]
}
quick_look && reuse
next="$RESULTS/$kernel/.next-$profile"
rm -rf "$next"
mkdir -p "$next"
cd "$next" || exit 1
# Before anything is read: a file changed from here on is newer. Two
# seconds early, so that a file written in the same tick counts as newer
# too (file times are coarser than the clock).
touch -d "@$(($(date +%s) - 2))" inputs.since
profile_initrd_list "$kernel" "$profile" initrd.cpio || exit 1
peer=$(profile_get "$profile" peer)
if [ -n "$peer" ]; then
	# The peer's list first; packed below only to fail here, before any
	# guest starts, when it cannot be (boot-peer.sh packs its own).
	mkdir peer-inputs
	(cd peer-inputs && profile_initrd_list "$kernel" "peers/$peer" initrd.cpio) || exit 1
fi
boot_inputs "$here" "$kernel" "$profile" ${peer:+peer-inputs/initrd.cpio.list} >inputs ||
	die "cannot list the inputs of the boot of '$profile' on '$kernel'"
boot_env "$here" >inputs.env
if [ -n "$reusable" ] && cmp -s inputs "$run/inputs"; then
	# Same inputs from files written again: the quick look's files go
	# with the boot, for the next make.
	mv inputs.since inputs.files inputs.env "$run/" &&
		cd "$RESULTS" && rm -rf "$next"
	reuse
fi
initrd_pack initrd.cpio || exit 1
if [ -n "$peer" ]; then
	(cd peer-inputs && initrd_pack initrd.cpio) || exit 1
fi
rm -rf peer-inputs
rm -rf "$run"
mv "$next" "$run"
cd "$run" || exit 1

profile_images "$profile"

cmdline=$(profile_cmdline "$profile")
# BOOT_TIMEOUT overrides the profile's timeout (make fuzz-affs runs longer).
secs=${BOOT_TIMEOUT:-$(profile_get "$profile" timeout)}
accel=$(qemu_accel)
# Profile qemu= lines are whitespace-separated arguments, never globbed;
# tool= programs run from the host's /usr, shared read-only.
set -f
set -- $(profile_qemu_args "$profile")
set +f

# Profiles with inject= lines get a monitor on a pair of FIFOs; a watcher
# follows the console and, when a guest test prints "# bklfree-inject: TAG",
# sends that tag's monitor commands.
profile_get "$profile" inject >inject.list
if [ -s inject.list ]; then
	mkfifo monitor.in monitor.out
	set -- "$@" -chardev pipe,id=mon,path=monitor -mon chardev=mon,mode=readline
	: >console.log
	cat monitor.out >monitor.log &
	drain=$!
	tail -n +1 -f --pid=$$ console.log | while read -r line; do
		case $line in
		*"# bklfree-inject: "*) tag=${line##*# bklfree-inject: } ;;
		*) continue ;;
		esac
		tag=$(printf '%s' "$tag" | tr -d '\r')
		grep "^$tag " inject.list | cut -d' ' -f2- >monitor.in
	done &
	watcher=$!
fi

# peer=NAME: a second guest (qemu-devices/peers/NAME.profile) on the same
# kernel, booted beside this one in peer/ by boot-peer.sh (its messages in
# peer/boot-peer.log); a datagram netdev over two unix sockets of this
# run's folder joins their virtio-net NICs (eth0 in each). The peer's
# verdict counts as a host check of this boot.
# Guests and cores: the matrix runs several boots at once (matrix.sh); a
# boot with a peer runs two guests, so it takes the guest lock of the
# results alone (exclusive), every other boot shares it.
exec 9>>"$RESULTS/.guests.lock"
if [ -z "$peer" ]; then
	flock -s 9
else
	flock -x 9
	mkdir peer
	sh "$here/boot-peer.sh" "$kernel" "$peer" peer \
		"$(peer_netdev guest.sock ../guest.sock 01)" >peer/boot-peer.log 2>&1 &
	peer_job=$!
	trap 'peer_kill peer; exit 1' INT TERM
	# shellcheck disable=SC2046 # QEMU arguments are words
	set -- "$@" $(peer_netdev guest.sock peer/guest.sock 02)
fi

start=$(now)
run_qemu "$accel" "$image" initrd.cpio "$cmdline" "$secs" "$@"
rc=$?
wall=$(elapsed "$start")
[ -n "${watcher:-}" ] && kill "$watcher" "${drain:-}" 2>/dev/null
[ -z "$peer" ] || peer_wait "$peer_job" peer
killed=
[ ! -e peer/killed ] || killed=1
exec 9>&-
trap - INT TERM

# hostcheck=PROGRAM ARG...: host tools that check what the guest left in
# the images; their outcome goes to tools/lab/verdict, which judges the boot.
set -- --exit-status "$rc" --qemu-stderr qemu.stderr
! qemu_timed_out "$rc" || set -- "$@" --timed-out
profile_get "$profile" hostcheck >hostcheck.list
if [ -s hostcheck.list ] || [ -n "$peer" ]; then
	failed_check=
	: >hostcheck.log
	while read -r prog args; do
		echo "\$ $prog $args" >>hostcheck.log
		# shellcheck disable=SC2086 # ARG... are words
		if ! "$TOOLS/$prog" $args >>hostcheck.log 2>&1 </dev/null; then
			[ -n "$failed_check" ] || failed_check="$prog${args:+ $args}"
		fi
	done <hostcheck.list
	if [ -n "$peer" ]; then
		pv=$(kv peer/verdict verdict)
		if [ -n "$pv" ]; then
			echo "peer guest $peer ($run/peer/console.log): verdict $pv: $(kv peer/verdict reason)${killed:+ (killed $PEER_GRACE s after this boot ended)}" >>hostcheck.log
		else
			echo "peer guest $peer: no verdict; see $run/peer/boot-peer.log:" >>hostcheck.log
			cat peer/boot-peer.log >>hostcheck.log
		fi
		[ "$pv" = pass ] || [ -n "$failed_check" ] || failed_check="peer guest $peer"
	fi
	if [ -n "$failed_check" ]; then
		set -- "$@" --hostcheck-failed "$failed_check"
	else
		set -- "$@" --hostcheck-passed
	fi
fi
# optional=TEST REASON: TEST may skip; its skip is reported, not failed.
for t in $(profile_get "$profile" optional | cut -d' ' -f1); do
	set -- "$@" --optional "$t"
done
# QEMU that never started may leave no console file at all.
[ -e console.log ] || : >console.log
"$TOOLS/verdict" "$@" console.log >verdict ||
	die "verdict failed on '$run/console.log'"
grep -v '^\[ *[0-9]*\.[0-9]*\]' console.log >ktap.txt
lseek_records console.log >lseek.tsv
# The coverage profiler's records (tests/guest/init): function, calls.
sed -n 's/^# cov: //p' console.log | tr -d '\r' >functions.tsv
printf 'kernel=%s\nprofile=%s\naccel=%s\nwall=%s\nqemu_status=%s\n' \
	"$kernel" "$profile" "$accel" "$wall" "$rc" >>verdict
v=$(kv verdict verdict)
# KCIDB-like record of this boot: its build, the test path and status.
status=$(kcidb_status "$v")
cat >result.json <<EOT
{
  "build": {"id": "bklfree:$kernel", "architecture": "x86_64",
            "config_name": "$LAB_CONFIG_NAME", "log_path": "../../../build/kernel/$kernel/build.log"},
  "boot": {"profile": "$profile", "accel": "$accel", "duration": $wall,
           "qemu_status": $rc},
  "test": {"id": "bklfree:$kernel:$profile", "build_id": "bklfree:$kernel",
           "path": "boot.$profile", "status": "$status", "verdict": "$v",
           "reason": $(json_str "$(kv verdict reason)"),
           "passed": $(kv verdict passed | grep . || echo 0),
           "failed": $(kv verdict failed | grep . || echo 0),
           "log_path": "$kernel/$profile/console.log"}
}
EOT
boot_done "$v" "$wall" "$(sed -n 's/^reason=//p' verdict)"
[ "$v" != hang ] || progress boot "  console kept in $run/console.log"
