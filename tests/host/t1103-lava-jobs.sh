#!/bin/sh
# t1103-lava-jobs: scripts/lava/lava-jobs.sh makes a LAVA job for every
# profile and kernel LAVA can run, and names why for the rest; every job
# passes LAVA's own schema (lava-validate.sh) and a broken one does not;
# the jobs' monitors make of a real console (fixtures/lava: the core
# profile's boots of both kernels, "# cov:" and "# lseek:" lines dropped),
# read as lava-dispatcher reads it (lava-monitor.py: pexpect through a
# pty), exactly the cases tools/lab/verdict lists, also with 40 kB of
# diagnostics in a test, and of a cut-short one no complete run. No kernel is needed: the artifacts are URLs.
. "$TOP/tests/host/ktap.sh"

fx="$TOP/tests/host/fixtures/lava"
jobs="$TMPDIR/results/lava/jobs"
py=${LAVA_PYTHON:-/usr/bin/python3}
lava_jobs="$TOP/scripts/lava/lava-jobs.sh"
gen() {
	RESULTS="$TMPDIR/results" sh "$lava_jobs"
}
validate() {
	sh "$TOP/scripts/lava/lava-validate.sh" "$@"
}
# lava_cases JOB CONSOLE: the LAVA cases of CONSOLE, sorted.
lava_cases() {
	"$py" "$TOP/tests/host/lava-monitor.py" "$1" "$2" | sort
}
# verdict_cases CONSOLE: verdict's cases named as LAVA names them: the
# suite is the test with / as _, the case its description lower-cased with
# runs of non-word characters as _.
verdict_cases() {
	"$TOOLS/verdict" --cases "$1" | awk -F'\t' '{
		s = $1; gsub("/", "_", s)
		c = tolower($4); gsub(/^[ \t]+|[ \t]+$/, "", c); gsub(/[^a-z0-9_]+/, "_", c)
		print s "\t" c "\t" $3 }' | sort
}

ktap_plan 14

profiles=$(ls "$TOP"/qemu-devices/*.profile | wc -l)
gen >"$TMPDIR/gen.out" 2>&1
ktap_ok $? "lava-jobs.sh runs on every profile and both kernels" || ktap_diag "$(cat "$TMPDIR/gen.out")"

made=$(ls "$jobs"/baseline/*.yaml "$jobs"/patched/*.yaml | wc -l)
skipped=$(cut -f1,2 "$jobs/skipped.tsv" | sort -u | wc -l)
[ "$made" -gt 0 ] && [ $((made + skipped)) -eq $((2 * profiles)) ]
ktap_ok $? "every profile and kernel has a job or a line in skipped.tsv ($made jobs, $skipped skipped)"

# A skip's reason names a key the profile has; every profile with such a
# key is skipped (so a reason can be neither invented nor forgotten).
# listed: "N PROFILE KEY", the lines of skipped.tsv whose reason starts
# with "KEY=:", counted once for all.
nl='
'
listed=$(awk -F'\t' '{ for (k = 1; k <= 3; k++) { key = k == 1 ? "inject" : k == 2 ? "hostcheck" : "peer"
		if (index($3, key "=:") == 1) n[$2 " " key]++ } }
	END { for (x in n) print n[x] " " x }' "$jobs/skipped.tsv")
bad=
for f in "$TOP"/qemu-devices/*.profile; do
	p=${f##*/}
	p=${p%.profile}
	for key in inject hostcheck peer; do
		has=$("$TOOLS/profile" "$f" $key)
		case "$nl$listed$nl" in
		*"${nl}2 $p $key$nl"*) n=2 ;;
		*" $p $key$nl"*) n=other ;;
		*) n=0 ;;
		esac
		{ [ -n "$has" ] && [ "$n" = 2 ]; } || { [ -z "$has" ] && [ "$n" = 0 ]; } ||
			bad="$bad $p:$key"
	done
done
[ -z "$bad" ] && [ "$skipped" -gt 0 ]
ktap_ok $? "skipped.tsv lists exactly the profiles with inject=, hostcheck= or peer=, by that key" || ktap_diag "wrong:$bad"

# Broken jobs: a value the schema refuses, a monitor name LAVA refuses.
# Every job and the two broken ones in one run of the validator (one
# Python start): it must name the broken ones and nothing else.
sed 's/^visibility: public/visibility: everyone/' "$jobs/patched/core.yaml" >"$TMPDIR/bad-visibility.yaml"
sed 's|^    - name: core_chardev|    - name: core/chardev|' "$jobs/patched/core.yaml" >"$TMPDIR/bad-monitor.yaml"
validate "$jobs"/*/*.yaml "$TMPDIR/bad-visibility.yaml" "$TMPDIR/bad-monitor.yaml" >"$TMPDIR/invalid.out" 2>&1
rc=$?
! grep -q "^invalid $jobs/" "$TMPDIR/invalid.out" &&
	[ "$(grep -c "^invalid $TMPDIR/bad-" "$TMPDIR/invalid.out")" -eq 2 ] &&
	[ "$(grep -c . "$TMPDIR/invalid.out")" -eq 2 ]
ktap_ok $? "LAVA's schema accepts every job" || ktap_diag "$(grep -v "^invalid $TMPDIR/bad-" "$TMPDIR/invalid.out" | head -n 5)"
[ $rc -eq 1 ] && [ "$(grep -c "^invalid $TMPDIR/bad-" "$TMPDIR/invalid.out")" -eq 2 ] &&
	grep -q "^invalid $TMPDIR/bad-visibility.yaml: .*visibility" "$TMPDIR/invalid.out" &&
	grep -q "^invalid $TMPDIR/bad-monitor.yaml: .*name" "$TMPDIR/invalid.out"
ktap_ok $? "LAVA's schema refuses a bad visibility and a bad monitor name, each named" ||
	ktap_diag "status $rc: $(cat "$TMPDIR/invalid.out")"

# The job boots what boot.sh boots: the profile's kernel parameters and
# QEMU arguments, its timeout, both artifacts under LAVA_ARTIFACTS.
PROFILES=virtio KERNELS=patched LAVA_ARTIFACTS=http://127.0.0.1:8008/a gen >/dev/null 2>&1
j="$jobs/patched/virtio.yaml"
[ "$(ls "$jobs"/*/*.yaml | wc -l)" -eq 1 ] &&
	grep -q "bklfree.tests=virtio/hwrng,virtio/vport,.* bklfree.hostusr\"'\$" "$j" &&
	grep -q "url: 'http://127.0.0.1:8008/a/patched/virtio/initrd.cpio'" "$j" &&
	grep -q "image_arg: '-drive if=none,id=vblk,format=raw,file={vblk_img}'" "$j" &&
	grep -q "url: 'http://127.0.0.1:8008/a/images/virtio/vblk.img'" "$j" &&
	grep -q "^  - '-device virtio-blk-pci,drive=vblk,serial=bklfree-vblk'" "$j" &&
	grep -q "^  - '-nodefaults'" "$j" && grep -q "^  job: {seconds: $((600 + 2 * 60))}" "$j" &&
	grep -q "^images/virtio/vblk.img	image vblk.img 8\$" "$jobs/artifacts.tsv"
ktap_ok $? "PROFILES, KERNELS and LAVA_ARTIFACTS select; the job carries the profile's arguments, images and timeout"
# SUBSYS= takes the profiles scripts/lab/profiles.sh names for it: those
# that exercised the subsystem's files in docs/coverage.tsv.
want=$(PROFILES= SUBSYS=media sh "$TOP/scripts/lab/profiles.sh" | sort | tr '\n' ' ')
PROFILES= SUBSYS=media KERNELS=patched gen >/dev/null 2>&1
got=$(ls "$jobs"/patched | sed -n 's/\.yaml$//p' | sort | tr '\n' ' ')
[ -n "$want" ] && [ "$got" = "$want" ]
ktap_ok $? "SUBSYS=media makes jobs for the profiles that exercise media's files ($got)" ||
	ktap_diag "want '$want', got '$got'"

# refused VAR=VALUE ERROR: lava-jobs.sh fails with ERROR as its only line.
refused() {
	err=$(env "$1" RESULTS="$TMPDIR/results" sh "$lava_jobs" 2>&1)
	[ $? -eq 1 ] && [ "$err" = "error: $2" ]
}
refused PROFILES=nosuch "unknown profile 'nosuch' (known: $(ls "$TOP"/qemu-devices | sed -n 's/\.profile$//p' | tr '\n' ' '))"
ktap_ok $? "an unknown profile is refused by name"
refused KERNELS=mainline "unknown kernel 'mainline' (known: baseline patched)"
ktap_ok $? "an unknown kernel is refused by name"
refused LAVA_ARTIFACTS=127.0.0.1/x "LAVA_ARTIFACTS='127.0.0.1/x' is not an http://, https:// or file:/// URL"
ktap_ok $? "an artifact base that is not a URL is refused"

# The monitors on real consoles of the core profile: the fixture's profile
# is core's as it was when the consoles were captured.
TOP="$fx" PROFILES=core KERNELS="baseline patched" gen >/dev/null 2>&1
same=0
for k in baseline patched; do
	lava_cases "$jobs/$k/core.yaml" "$fx/core-$k.log" >"$TMPDIR/lava-$k" &&
		verdict_cases "$fx/core-$k.log" >"$TMPDIR/verdict-$k" &&
		[ "$(grep -c . "$TMPDIR/lava-$k")" -gt 90 ] &&
		ktap_golden "lava-$k" "$TMPDIR/verdict-$k" "$TMPDIR/lava-$k" &&
		same=$((same + 1))
done
[ $same -eq 2 ] && grep -q "	fail\$" "$TMPDIR/lava-baseline" && grep -q "	skip\$" "$TMPDIR/lava-patched"
ktap_ok $? "the monitors make every case verdict lists, pass, fail and skip alike, on a passing and a failing boot"

# A long run of diagnostics inside a test (a real lseek-abi prints 40 kB
# of records before its first case): pexpect then searches only the last
# 4000 characters, whose start falls anywhere; at every alignment tried the
# monitors still make exactly verdict's cases.
awk '/# Subtest: lseek\/lseek-abi/ { print; for (i = 0; i < 900; i++) printf "    # lseek: /dev/tty%d\tchr\tESPIPE\tESPIPE\tESPIPE\tESPIPE\r\n", i; next } { print }' \
	"$fx/core-patched.log" >"$TMPDIR/long.log"
long_ok=0
pads="0 1 2 3 5 8 13 21 34 55"
for pad in $pads; do
	sed "s/^\(    # lseek: \/dev\/tty0\)/\1$(printf "%${pad}s" "")/" "$TMPDIR/long.log" >"$TMPDIR/long-$pad.log"
done
# One Python start for the ten: each console's cases in long-PAD.log.cases.
# shellcheck disable=SC2046 # the consoles' paths have no spaces
"$py" "$TOP/tests/host/lava-monitor.py" "$jobs/patched/core.yaml" \
	$(for pad in $pads; do echo "$TMPDIR/long-$pad.log"; done) 2>"$TMPDIR/long.err"
for pad in $pads; do
	sort "$TMPDIR/long-$pad.log.cases" | cmp -s - "$TMPDIR/verdict-patched" &&
		long_ok=$((long_ok + 1))
done
[ $long_ok -eq 10 ]
ktap_ok $? "40 kB of diagnostics in a test, 10 alignments of pexpect's window: the monitors make verdict's cases ($long_ok of 10)"

# A monitor that reads results wrong is caught by the same comparison.
sed 's/SKIP|not ok|ok/not ok|ok/' "$jobs/patched/core.yaml" >"$TMPDIR/noskip.yaml"
lava_cases "$TMPDIR/noskip.yaml" "$fx/core-patched.log" >"$TMPDIR/noskip"
[ -s "$TMPDIR/noskip" ] && ! cmp -s "$TMPDIR/noskip" "$TMPDIR/verdict-patched"
ktap_ok $? "a monitor without the SKIP directive differs from verdict"

# A boot cut short (a panic, a hang) never completes the monitors.
head -n 60 "$fx/core-patched.log" >"$TMPDIR/cut.log"
"$py" "$TOP/tests/host/lava-monitor.py" "$jobs/patched/core.yaml" "$TMPDIR/cut.log" >/dev/null 2>"$TMPDIR/cut.err"
rc=$?
[ $rc -eq 1 ] && grep -q 'never found' "$TMPDIR/cut.err"
ktap_ok $? "a console cut short leaves a monitor unfinished (LAVA: the test action times out)"

ktap_done
