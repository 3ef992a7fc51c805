#!/bin/sh
# t1104-kcidb: scripts/kcidb/kcidb.sh on a results tree made from the
# console logs of tests/host/fixtures/kcidb/ by the real judge (as boot.sh
# does), with that folder's stand-in kernel trees (kernel/) and repository
# (top/: four profiles, a two-patch series):
#   fixed    baseline fails a case, patched passes       change "fixed"
#   regress  baseline passes, patched panics in a/one    "regression";
#            a/one unfinished (ERROR), the two later tests MISS
#   escape   both kernels, the same failing boot         "same"; case
#            descriptions with quotes, backslashes, dots, UTF-8, a byte
#            that is no UTF-8, a repeated and an all-punctuation one, and
#            every KTAP result but unfinished
#   never    baseline only: QEMU never ran the guest     MISS, change "-"
# The document must validate against scripts/kcidb/schema-v5.3.json
# (scripts/kcidb/validate.sh), and the validator must refuse broken ones;
# each case and test of a boot must be one line of the judge's listing
# ("verdict --cases"), with the status docs/kcidb.md gives its result.
# Needs TOP and TOOLS; the checks read the document with Debian's python3
# (a dependency of the validator).
if [ -z "${TOP:-}" ] || [ -z "${TOOLS:-}" ]; then
	echo "error: TOP and TOOLS must be set (repository, host tools)" >&2
	exit 1
fi
. "$TOP/tests/host/ktap.sh"

fx=$TOP/tests/host/fixtures/kcidb
vfx=$TOP/tests/host/fixtures/verdict
tmp=${TMPDIR:-/tmp}/bklfree-t1104
rm -rf "$tmp"
mkdir -p "$tmp" || exit 1
res=$tmp/results
tab=$(printf '\t')

ktap_plan 16

# boot KERNEL PROFILE LOG [VERDICT-ARGS...]: a boot's directory as boot.sh
# leaves it: the console, the judge's verdict and the boot's facts.
boot() {
	_d=$res/$1/$2
	mkdir -p "$_d" && cp "$3" "$_d/console.log" || return 1
	_k=$1 _p=$2 _log=$3
	shift 3
	(cd "$(dirname "$_log")" && "$TOOLS/verdict" "$@" "$_d/console.log") >"$_d/verdict" &&
		printf 'kernel=%s\nprofile=%s\naccel=tcg\nwall=1.5\nqemu_status=0\n' "$_k" "$_p" >>"$_d/verdict"
}

# kcidb [ENV...]: kcidb.sh on the fixture, output in $tmp/kcidb.out.
kcidb() {
	env TOP="$fx/top" RESULTS="$res" KTREES="${ktrees:-$fx/kernel}" TOOLS="$TOOLS" \
		KCIDB_RUN=fixture KCIDB_BASE_URL=https://lab.example/bklfree/ "$@" \
		sh "$TOP/scripts/kcidb/kcidb.sh" >"$tmp/kcidb.out" 2>&1
}

# rows DOC: one line per test: id, build_id, path, status, comment,
# misc.test, misc.ktap_number, misc.ktap_result, misc.change, log_url.
rows() {
	/usr/bin/python3 -c '
import json, sys
for t in json.load(open(sys.argv[1], encoding="utf-8"))["tests"]:
    m = t.get("misc", {})
    print("\t".join([t["id"], t["build_id"], t["path"], t["status"], t.get("comment", ""),
                     m.get("test", ""), m.get("ktap_number", ""), m.get("ktap_result", ""),
                     m.get("change", ""), t.get("log_url", "")]))' "$1"
}

# refused NAME SED-SCRIPT WHAT: the document edited by SED-SCRIPT is
# refused with an error line holding WHAT.
refused() {
	sed "$2" "$res/kcidb.json" >"$tmp/$1.json"
	! cmp -s "$res/kcidb.json" "$tmp/$1.json" ||
		{ ktap_diag "the edit '$2' changed nothing"; return 1; }
	sh "$TOP/scripts/kcidb/validate.sh" "$tmp/$1.json" >"$tmp/$1.out" 2>&1
	_rc=$?
	[ "$_rc" = 1 ] && grep -q "^error: .*$3" "$tmp/$1.out" && return 0
	ktap_diag "exit status $_rc; $(cat "$tmp/$1.out")"
	return 1
}

boot baseline fixed "$fx/fail.log" &&
	boot patched fixed "$fx/pass.log" &&
	boot baseline regress "$fx/pass.log" &&
	boot patched regress "$fx/panic.log" &&
	boot baseline escape "$fx/escape.log" &&
	boot patched escape "$fx/escape.log" &&
	boot baseline never "$vfx/qemu-never-ran.log" --exit-status 1 \
		--qemu-stderr qemu-never-ran.stderr ||
	ktap_bail "cannot make the fixture results tree in $res"

kcidb
ktap_ok $? "kcidb.sh writes the fixture's document" ||
	ktap_bail "kcidb.sh failed: $(cat "$tmp/kcidb.out")"

sh "$TOP/scripts/kcidb/validate.sh" "$res/kcidb.json" >"$tmp/valid.out" 2>&1
ktap_ok $? "the document is valid KCIDB v5.3" ||
	ktap_diag "$(cat "$tmp/valid.out")"

rows "$res/kcidb.json" >"$tmp/rows" || ktap_bail "cannot read the document's tests"

# Every line of each boot's listing is one test, with its number, result
# and description (a byte that is not UTF-8 comes back as U+FFFD), and
# nothing else has a number.
: >"$tmp/listed"
for d in "$res"/baseline/*/ "$res"/patched/*/; do
	k=$(basename "$(dirname "$d")") p=$(basename "$d")
	"$TOOLS/verdict" --cases "$d/console.log" |
		LC_ALL=C sed 's/\xff/\xef\xbf\xbd/g' |
		awk -F '\t' -v OFS='\t' -v id="bklfree:fixture:$k:$p" '{ print id ":" $2, $1, $2, $3, $4 }'
done | sort >"$tmp/listed"
awk -F '\t' -v OFS='\t' '$7 != "" { print $1, $6, $7, $8, $5 }' "$tmp/rows" | sort >"$tmp/got"
[ -s "$tmp/listed" ] && ktap_golden t1103-listing "$tmp/listed" "$tmp/got"
ktap_ok $? "each test and case is one line of the judge's listing, description intact"

grep -F 'quote "q" and back\slash \\ end' "$tmp/rows" | cut -f3 | sort -u >"$tmp/esc"
printf 'boot.escape.x_escape.quote_q_and_back_slash_end\n' | cmp -s - "$tmp/esc"
ktap_ok $? "quotes and backslashes survive the JSON; the path keeps [A-Za-z0-9_-] words" ||
	ktap_diag "paths: $(cat "$tmp/esc")"

# The status of each KTAP result (docs/kcidb.md), and every result is seen.
awk -F '\t' '$8 != "" { print $8 " " $4 }' "$tmp/rows" | sort -u >"$tmp/map"
printf '%s\n' "fail FAIL" "pass PASS" "skip SKIP" "timeout FAIL" "unfinished ERROR" "xfail PASS" |
	cmp -s - "$tmp/map"
ktap_ok $? "KTAP results map to KCIDB statuses; the fixture holds all six" ||
	ktap_diag "result status pairs: $(tr '\n' ',' <"$tmp/map")"

# The boots: status from the verdict (kcidb_status), change from verdict_change.
awk -F '\t' '$3 ~ /^boot\.[^.]*$/ { sub(/^bklfree:fixture:/, "", $1); print $1, $4, $9 }' "$tmp/rows" |
	sort >"$tmp/boots"
cat >"$tmp/boots.want" <<EOF
baseline:escape FAIL same
baseline:fixed FAIL fixed
baseline:never MISS -
baseline:regress PASS regression
patched:escape FAIL same
patched:fixed PASS fixed
patched:regress FAIL regression
EOF
ktap_golden t1103-boots "$tmp/boots.want" "$tmp/boots"
ktap_ok $? "one test per boot: its verdict's status and the change across kernels"

# The tests a boot never reached are MISS, by name.
awk -F '\t' '$4 == "MISS" && $3 ~ /\..*\./ { print $3 }' "$tmp/rows" | sort >"$tmp/miss"
printf '%s\n' boot.never.a_one boot.never.locks_file-locks boot.never.lseek_lseek-abi \
	boot.regress.locks_file-locks boot.regress.lseek_lseek-abi | cmp -s - "$tmp/miss"
ktap_ok $? "the tests a boot never reached are MISS" ||
	ktap_diag "MISS: $(tr '\n' ' ' <"$tmp/miss")"

cut -f2,3 "$tmp/rows" | sort | uniq -d >"$tmp/dup"
[ ! -s "$tmp/dup" ] && grep -q "${tab}boot.escape.x_escape.same_name_2$tab" "$tmp/rows" &&
	grep -q "${tab}boot.escape.x_escape._$tab" "$tmp/rows"
ktap_ok $? "paths are unique in a build: a repeated description gets _2" ||
	ktap_diag "repeated: $(cat "$tmp/dup")"

# Checkouts and builds: the patchset hash as KCIDB's documentation computes
# it, the build status from vmlinux, the logs and configs copied and named
# by URL under KCIDB_BASE_URL.
want=$(cd "$fx/top/patches/core" && sha256sum 0001-one.patch 0002-two.patch | cut -c-64 | sha256sum | cut -c-64)
grep -q "\"patchset_hash\": \"$want\"" "$res/kcidb.json" &&
	grep -q '"id": "bklfree:fixture:baseline", "origin": "bklfree", "tree_name": "linux-source-6.1", "patchset_hash": ""' "$res/kcidb.json"
ktap_ok $? "patchset_hash: sha256 of the patches' sha256 sums; empty for baseline"

/usr/bin/python3 -c '
import json, sys
for b in json.load(open(sys.argv[1]))["builds"]:
    print(b["id"], b["status"], b["log_url"], b["config_url"], b["compiler"])' "$res/kcidb.json" >"$tmp/builds"
cat >"$tmp/builds.want" <<EOF
bklfree:fixture:baseline PASS https://lab.example/bklfree/kcidb/baseline/build.log https://lab.example/bklfree/kcidb/baseline/kernel.config gcc (Debian 12.2.0-14+deb12u1) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40
bklfree:fixture:patched FAIL https://lab.example/bklfree/kcidb/patched/build.log https://lab.example/bklfree/kcidb/patched/kernel.config gcc (Debian 12.2.0-14+deb12u1) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40
EOF
ktap_golden t1103-builds "$tmp/builds.want" "$tmp/builds" &&
	cmp -s "$fx/kernel/patched/obj/.config" "$res/kcidb/patched/kernel.config" &&
	cmp -s "$fx/kernel/baseline/build.log" "$res/kcidb/baseline/build.log"
ktap_ok $? "builds: PASS with vmlinux, FAIL without; log and config copied under the base URL"

refused status 's/"status": "SKIP"/"status": "BROKEN"/' "status.*'BROKEN' is not one of"
ktap_ok $? "the validator refuses an unknown status"
refused noid 's/{"id": "bklfree:fixture:patched", "checkout_id"/{"checkout_id"/' \
	"builds\[1\]: 'id' is a required property"
ktap_ok $? "the validator refuses a build without its id"
refused relative 's|"log_url": "https://lab.example/bklfree/patched/fixed/console.log"|"log_url": "patched/fixed/console.log"|' \
	"log_url: 'patched/fixed/console.log' is not a 'uri'"
ktap_ok $? "the validator refuses a relative URL (the uri format is checked)"
refused dangling 's/"build_id": "bklfree:fixture:patched"/"build_id": "bklfree:fixture:nobuild"/' \
	"build_id: 'bklfree:fixture:nobuild' names no object of builds"
ktap_ok $? "the validator refuses a test of a build the document does not hold"

# A patched tree made from other patches than patches/ holds now.
mkdir -p "$tmp/kernel" && cp -R "$fx/kernel/baseline" "$fx/kernel/patched" "$tmp/kernel/" &&
	sed -i 's/^4175849249 /1 /' "$tmp/kernel/patched/fingerprint"
ktrees=$tmp/kernel kcidb
[ $? = 1 ] && grep -q "^error: the patches in patches/ differ from those .* was made from: run 'make apply'" "$tmp/kcidb.out"
ktap_ok $? "kcidb.sh stops when the patched tree predates patches/" ||
	ktap_diag "$(cat "$tmp/kcidb.out")"

kcidb KCIDB_BASE_URL=results/
[ $? = 1 ] && grep -q "^error: KCIDB_BASE_URL 'results/' must be an absolute URL" "$tmp/kcidb.out"
ktap_ok $? "kcidb.sh refuses a base URL that is not absolute" ||
	ktap_diag "$(cat "$tmp/kcidb.out")"
ktap_done
