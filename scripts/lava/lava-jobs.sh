#!/bin/sh
# lava-jobs.sh: one LAVA job definition per profile and kernel (make
# lava-jobs), in $RESULTS/lava/jobs/KERNEL/PROFILE.yaml, for LAVA's qemu
# device type. Every job boots what boot.sh boots: the same QEMU arguments
# (lib.sh's LAB_MACHINE, profile_qemu_args), kernel parameters (LAB_APPEND,
# profile_cmdline) and timeout, all read through tools/lab/profile. Its
# artifacts are URLs under LAVA_ARTIFACTS; artifacts.tsv says what file
# each URL must serve. A profile LAVA cannot run gets no job, and its
# reason is a line of skipped.tsv (lava_cannot below). Every job is then
# checked with LAVA's own schema. LAVA_TIMEOUT=SECS replaces the profiles'
# timeouts (lava-submit.sh's hang check). PROFILES= or SUBSYS= (the
# profiles that exercise a subsystem's files) narrow the set. docs/lava.md.
. "$(dirname "$0")/../lab/lib.sh"

: "${LAVA_ARTIFACTS:=file://$RESULTS/lava/artifacts}"
: "${LAVA_KVM:=0}"
: "${KERNELS:=baseline patched}"
# PROFILES, else SUBSYS's profiles (those that exercised its files), else all.
PROFILES=$(sh "$(dirname "$0")/../lab/profiles.sh") || exit 1
out="$RESULTS/lava/jobs"

case $LAVA_ARTIFACTS in
http://?* | https://?* | file:///*) ;;
*) die "LAVA_ARTIFACTS='$LAVA_ARTIFACTS' is not an http://, https:// or file:/// URL" ;;
esac
case $LAVA_ARTIFACTS in
*[[:space:]\'\"]*) die "LAVA_ARTIFACTS='$LAVA_ARTIFACTS' holds a space or a quote" ;;
esac
art=${LAVA_ARTIFACTS%/}
case ${LAVA_TIMEOUT:-1} in
*[!0-9]* | 0) die "LAVA_TIMEOUT='$LAVA_TIMEOUT' is not a number of seconds" ;;
esac
case $LAVA_KVM in
0 | 1) ;;
*) die "LAVA_KVM='$LAVA_KVM' is not 0 or 1" ;;
esac
for k in $KERNELS; do
	case $k in
	baseline | patched) ;;
	*) die "unknown kernel '$k' (known: baseline patched)" ;;
	esac
done
# shellcheck disable=SC2086 # PROFILES is words
check_profiles $PROFILES

# The keys of the profile at hand, read once: each read is a run of
# tools/profile, and a job asks for the same keys many times, and again
# for the other kernel. profile_get (lib.sh's, which profile_cmdline and
# profile_qemu_args read through) answers from them; load_profile PROFILE
# reads them.
pv_keys="timeout tool image qemu firmware tests cmdline module inject hostcheck peer"
pv_profile=
load_profile() {
	pv_profile=
	for _key in $pv_keys; do
		_v=$("$TOOLS/profile" "$TOP/qemu-devices/$1.profile" "$_key") || exit 1
		eval "pv_$_key=\$_v"
	done
	pv_profile=$1
}
profile_get() {
	case $1:" $pv_keys " in
	"$pv_profile":*" $2 "*)
		eval "_v=\$pv_$2"
		[ -z "$_v" ] || printf '%s\n' "$_v"
		;;
	*) "$TOOLS/profile" "$TOP/qemu-devices/$1.profile" "$2" ;;
	esac
}

# lava_cannot PROFILE: why LAVA cannot run PROFILE, one reason a line,
# each naming the profile key it comes from; nothing when it can.
lava_cannot() {
	[ -z "$(profile_get "$1" inject)" ] ||
		say "inject=: its tests wait for QEMU monitor commands sent when the guest prints '# bklfree-inject:'; LAVA's qemu device type runs -monitor none and no LAVA action sends monitor commands"
	[ -z "$(profile_get "$1" hostcheck)" ] ||
		say "hostcheck=: its verdict needs host programs run on the disk images after the boot; a LAVA job cannot run them"
	[ -z "$(profile_get "$1" peer)" ] ||
		say "peer=: it boots a second guest beside the first, joined by a QEMU datagram netdev; a LAVA qemu job boots one guest"
}

# say TEXT: TEXT and a newline, backslashes kept (dash's echo reads them).
say() {
	printf '%s\n' "$*"
}

# yq TEXT: TEXT as a YAML single-quoted scalar (only ' is special there),
# left in $yq: a job asks for hundreds of these, and a function that sets
# a variable needs no subshell (sed only when there is a quote).
yq() {
	case $1 in
	*\'*) yq="'$(printf '%s' "$1" | sed "s/'/''/g")'" ;;
	*) yq="'$1'" ;;
	esac
}

# re_quote TEXT: TEXT as a Python regular expression matching it
# literally, left in $rq.
re_quote() {
	case $1 in
	*[][\\.^\$*+?\(\){}\|]*) rq=$(printf '%s' "$1" | sed 's/[][\\.^$*+?(){}|]/\\&/g') ;;
	*) rq=$1 ;;
	esac
}

# image_key NAME: the deploy image name of an image= file, a Python format
# field (LAVA fills "{key}" in image_arg with the downloaded path).
image_key() {
	printf '%s' "$1" | tr -c 'A-Za-z0-9\n' _
}

# monitor TEST: the LAVA monitor of one guest test. init prints
# "    # Subtest: TEST", the test's KTAP indented by 4, then "ok N TEST"
# (or "not ok N TEST # ...") at the top level. Every case line and the
# top-level line are LAVA cases (named by their description, LAVA
# lower-cases it and turns runs of non-word characters into _). The
# result is read ahead: a "# SKIP" directive, else "not ok" or "ok". Case
# lines are consumed with their line end; the top-level line is not, so
# "end" (a line end at the start of what is left) matches only after it.
# LAVA's pexpect searches only the last 4000 characters, so after a long
# run of diagnostics (lseek-abi's 40 kB of records) "what is left" may
# start anywhere: end also asks that the next line be what follows a
# top-level line (the next "# Subtest:", init's "# cov:" lines or a kernel
# line), never a test's indented diagnostic.
# A line ends in \r*\n: the guest writes \r\n and the pty LAVA reads
# QEMU's stdio through adds a \r (QEMU leaves output processing on).
monitor() {
	re_quote "$1"
	_t=$rq
	tr_slash _ "$1"
	say "    - name: $slashed"
	yq "# Subtest: $_t\\r*\\n"
	say "      start: $yq"
	yq '\A\r*\n(?=    # Subtest: |# |\[)'
	say "      end: $yq"
	yq "(?:\\A|\\n)(?P<case> {4})?(?(case)|(?=(?:not )?ok \\d+ $_t(?: #|\\r|\\n)))(?=(?:[^\\r\\n]*? # )?(?P<result>SKIP|not ok|ok))(?:not )?ok \\d+ (?P<test_case_id>[^\\r\\n]*?)(?: # [^\\r\\n]*)?(?(case)\\r*\\n|(?=\\r*\\n))"
	say "      pattern: $yq"
	say "      fixupdict: {ok: pass, 'not ok': fail, SKIP: skip}"
}

# parts PROFILE: what the jobs of PROFILE on every kernel share, made
# once (each part costs processes) and left in variables for job: secs
# (its timeout), notes (what a LAVA run of it needs), opts (its QEMU
# options, the qemu= lines of image= files left out), kernel_arg, images
# (the deploy of each image= file) with image_rows (their artifacts.tsv
# lines), monitors.
parts() {
	_p=$1
	secs=${LAVA_TIMEOUT:-$(profile_get "$_p" timeout)}
	notes=$(
		profile_get "$_p" tool | while read -r _tool; do
			say "# - tool=$_tool: run from the worker's /usr, shared read-only over"
			say "#   virtio-9p; the worker must have it installed (scripts/lab/deps.sh)."
		done
		profile_get "$_p" image | while read -r _name _rest; do
			say "# - image=$_name $_rest: deployed from $art/images/$_p/$_name,"
			say "#   which must be made fresh for every job (the guest writes it)."
		done
		profile_get "$_p" qemu | grep -o 'path=[^,]*' | sort -u | while read -r _path; do
			say "# - $_path: a file or socket in QEMU's working directory on the worker."
		done)
	# qemu= lines naming an image= file go with that image's deploy.
	_images=$(profile_get "$_p" image | cut -d' ' -f1)
	opts=$(profile_qemu_args "$_p" | while read -r _line; do
		for _i in $_images; do
			case ",$_line," in *",file=$_i,"*) continue 2 ;; esac
		done
		yq "$_line"
		say "  - $yq"
	done)
	yq "-kernel {kernel} -append \"$LAB_APPEND $(profile_cmdline "$_p")\""
	kernel_arg=$yq
	images= image_rows=
	for _i in $_images; do
		_key=$(image_key "$_i")
		_arg=$(profile_get "$_p" qemu | awk -v f="file=$_i" -v k="file={$_key}" '
			{ n = split($0, w, ","); hit = 0
			  for (i = 1; i <= n; i++) if (w[i] == f) { w[i] = k; hit = 1 }
			  if (hit) { s = w[1]; for (i = 2; i <= n; i++) s = s "," w[i]; print s } }')
		[ -n "$_arg" ] || die "profile '$_p': no qemu= line has file=$_i of its image= line"
		yq "$_arg"
		images="$images      $_key:
        image_arg: $yq
"
		yq "$art/images/$_p/$_i"
		images="$images        url: $yq
"
		image_rows="${image_rows}images/$_p/$_i	image $(profile_get "$_p" image | grep "^$_i ")
"
	done
	# init's order: setup (with module= or tool= lines), the profile's
	# tests, then the two every boot runs.
	monitors=$(
		if [ -n "$(profile_get "$_p" module)$(profile_get "$_p" tool)" ]; then
			monitor setup
		fi
		for _t in $(profile_get "$_p" tests) locks/file-locks lseek/lseek-abi; do
			monitor "$_t"
		done)
}

# job KERNEL PROFILE: the job definition on stdout, from the parts of
# PROFILE; the URLs it uses and what each serves on fd 3.
job() {
	_k=$1 _p=$2
	_initrd="$_k/$_p/initrd.cpio"
	say "# bklfree: profile $_p on kernel $_k. Written by scripts/lava/lava-jobs.sh"
	say "# from qemu-devices/$_p.profile; do not edit. What a LAVA run of it"
	say "# can and cannot do (docs/lava.md):"
	say "# - the LAVA qemu device type adds -nographic, -monitor none and a virtio"
	say "#   NIC on user networking (no driver for it in the lab kernels); the"
	say "#   rest is the lab's own command line."
	[ -z "$notes" ] || say "$notes"
	say "device_type: qemu"
	yq "bklfree $_p on $_k"
	say "job_name: $yq"
	say "visibility: public"
	say "priority: medium"
	say "metadata: {bklfree.profile: $_p, bklfree.kernel: $_k}"
	say "timeouts:"
	say "  job: {seconds: $((600 + 2 * secs))}"
	say "  connection: {seconds: $secs}"
	say "context:"
	say "  arch: amd64"
	say "  memory: $LAB_MEMORY_MIB"
	[ "$LAVA_KVM" = 1 ] || say "  no_kvm: true"
	say "  extra_options:"
	say "$machine"
	[ -z "$opts" ] || say "$opts"
	say "actions:"
	say "- deploy:"
	say "    to: tmpfs"
	say "    timeout: {seconds: 300}"
	say "    images:"
	say "      kernel:"
	say "        image_arg: $kernel_arg"
	yq "$art/$_k/bzImage"
	say "        url: $yq"
	say "      initrd:"
	say "        image_arg: '-initrd {initrd}'"
	yq "$art/$_initrd"
	say "        url: $yq"
	printf '%s\tkernel %s bzImage\n' "$_k/bzImage" "$_k" >&3
	printf '%s\tinitrd %s %s\n' "$_initrd" "$_k" "$_p" >&3
	printf '%s' "$images"
	printf '%s' "$image_rows" >&3
	say "- boot:"
	say "    method: qemu"
	say "    media: tmpfs"
	say "    timeout: {seconds: $secs}"
	say "- test:"
	say "    timeout: {seconds: $secs}"
	say "    monitors:"
	say "$monitors"
}

# The lab's machine, an option and its value a line; -nodefaults drops
# the serial port -nographic gives LAVA, so it is named. The same in
# every job.
# shellcheck disable=SC2086 # LAB_MACHINE is words
machine=$(printf '%s\n' $LAB_MACHINE -serial stdio |
	awk '/^-/ && NR > 1 { print o; o = "" } { o = o (o == "" ? "" : " ") $0 } END { print o }' |
	while read -r _o; do yq "$_o"; say "  - $yq"; done)

rm -rf "$out"
mkdir -p "$out"
: >"$out/skipped.tsv"
: >"$out/artifacts.tsv.tmp"
made=0 skipped=0
for p in $PROFILES; do
	load_profile "$p"
	why=$(lava_cannot "$p")
	if [ -n "$why" ]; then
		for k in $KERNELS; do
			printf '%s\n' "$why" | sed "s|^|$k	$p	|" >>"$out/skipped.tsv"
		done
		skipped=$((skipped + 1))
		continue
	fi
	parts "$p"
	for k in $KERNELS; do
		[ -d "$out/$k" ] || mkdir -p "$out/$k"
		job "$k" "$p" >"$out/$k/$p.yaml" 3>>"$out/artifacts.tsv.tmp" ||
			die "cannot write the LAVA job of '$p' on '$k'"
		made=$((made + 1))
	done
done
sort -u "$out/artifacts.tsv.tmp" >"$out/artifacts.tsv" && rm -f "$out/artifacts.tsv.tmp"
# LAVA's own schema judges every job written (lava-validate.sh).
if [ "$made" -gt 0 ]; then
	"$(dirname "$0")/lava-validate.sh" "$out"/*/*.yaml ||
		die "LAVA's schema refused a job written above"
fi
progress lava "$made job(s) in $out, $skipped profile(s) LAVA cannot run (skipped.tsv)"
