#!/bin/sh
# kcidb.sh: results/kcidb.json, the last boots as a KCIDB I/O document
# (schema v5.3, scripts/kcidb/schema-v5.3.json; docs/kcidb.md):
#   checkouts  one a kernel: Debian's linux-source-6.1, and for patched the
#              series applied (patchset_hash), this repository's commit
#   builds     one a kernel: compiler, config, log, PASS when vmlinux exists
#   tests      one a boot (boot.PROFILE, its verdict as a status, the change
#              across kernels in misc), one a test and a case of the boot
#              as "verdict --cases" lists them (boot.PROFILE.TEST.CASE), and
#              a MISS for each test the profile runs that the boot never
#              reached
# Facts come from each boot's verdict file and the judge's listing (never
# the console), the status and change from lib.sh (the report's own), the
# kernels' trees; build/tools/kcidb-json writes the JSON. URLs are
# KCIDB_BASE_URL (default file://RESULTS/) plus a path under results/; the
# build logs and configs are copied to results/kcidb/KERNEL/ so that
# results/ alone can be served. Object ids carry KCIDB_RUN (default: this
# repository's commit, 12 digits, "-dirty" with uncommitted changes).
. "$(dirname "$0")/../lab/lib.sh"

ls "$RESULTS"/baseline/*/verdict "$RESULTS"/patched/*/verdict >/dev/null 2>&1 ||
	die "no boots in '$RESULTS': run 'make boot' first"
need_file "$TOOLS/kcidb-json" "run 'make tools' first"
base=${KCIDB_BASE_URL:-file://$RESULTS/}
case $base in
*://*/) ;;
*) die "KCIDB_BASE_URL '$base' must be an absolute URL ending in '/'" ;;
esac
commit=$(git -C "$TOP" rev-parse HEAD 2>/dev/null) || commit=
dirty=false
if [ -n "$commit" ] && [ -n "$(git -C "$TOP" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
	dirty=true
fi
if [ -z "${KCIDB_RUN:-}" ]; then
	KCIDB_RUN=$(printf '%.12s' "${commit:-nogit}")
	[ "$dirty" = false ] || KCIDB_RUN="$KCIDB_RUN-dirty"
fi
tab=$(printf '\t')
us=$(printf '\037')
case $KCIDB_RUN in
*"$tab"* | "") die "KCIDB_RUN must be a non-empty word" ;;
esac
out="$RESULTS/kcidb.json"
kernels="baseline patched"
profiles=$(all_profiles)

# path_word NAME: NAME as one word of a KCIDB v5 test path ([A-Za-z0-9_-]);
# a run of other characters becomes "_".
path_word() {
	printf '%s\n' "$1" | LC_ALL=C sed 's/[^A-Za-z0-9_-][^A-Za-z0-9_-]*/_/g'
}

# patchset_hash DIR: KCIDB's patchset hash of the patches DIR/applied lists
# (SERIES/NAME a line): sha256 over their sha256 sums, a line each, in
# order. The patches are read from patches/, so they must still be the ones
# apply.sh applied: their checksums must be those of DIR/fingerprint.
patchset_hash() {
	while read -r _p; do
		need_file "$TOP/patches/$_p" "'$1/applied' names a patch patches/ no longer holds: run 'make apply'"
		cksum <"$TOP/patches/$_p"
	done <"$1/applied" >"$RESULTS/kcidb/cksums" || exit 1
	grep -v '^series ' "$1/fingerprint" 2>/dev/null | cmp -s - "$RESULTS/kcidb/cksums" ||
		die "the patches in patches/ differ from those '$1' was made from: run 'make apply'"
	rm -f "$RESULTS/kcidb/cksums"
	while read -r _p; do
		sha256sum <"$TOP/patches/$_p" | cut -c1-64
	done <"$1/applied" | sha256sum | cut -c1-64
}

checkouts() {
	for k in $kernels; do
		t="$KTREES/$k"
		[ -d "$t" ] || continue
		ver=$(cat "$t/src/.bklfree-extracted" 2>/dev/null) || ver=unknown
		printf 'checkout\ns\tid\tbklfree:%s:%s\ns\torigin\tbklfree\n' "$KCIDB_RUN" "$k"
		printf 's\ttree_name\tlinux-source-6.1\n'
		if [ "$k" = baseline ]; then
			printf 's\tpatchset_hash\t\nb\tvalid\ttrue\n'
			printf 's\tcomment\tDebian linux-source-6.1 %s, no patches\n' "$ver"
		elif [ -f "$t/applied" ]; then
			hash=$(patchset_hash "$t") || exit 1
			printf 's\tpatchset_hash\t%s\nb\tvalid\ttrue\n' "$hash"
			printf 's\tcomment\tDebian linux-source-6.1 %s, %s\n' "$ver" "$(series_line)"
			printf 'n\tmisc.patches\t%s\n' "$(wc -l <"$t/applied")"
		else
			# apply.sh writes "applied" last: the series did not apply.
			printf 'b\tvalid\tfalse\n'
			printf 's\tcomment\tDebian linux-source-6.1 %s, the series did not apply\n' "$ver"
		fi
		printf 's\tmisc.debian_version\t%s\n' "$ver"
		[ -z "$commit" ] || printf 's\tmisc.bklfree_commit\t%s\nb\tmisc.bklfree_dirty\t%s\n' "$commit" "$dirty"
	done
}

builds() {
	for k in $kernels; do
		t="$KTREES/$k"
		[ -f "$t/build.log" ] || continue
		mkdir -p "$RESULTS/kcidb/$k" || exit 1
		printf 'build\ns\tid\tbklfree:%s:%s\ns\tcheckout_id\tbklfree:%s:%s\n' \
			"$KCIDB_RUN" "$k" "$KCIDB_RUN" "$k"
		printf 's\torigin\tbklfree\ns\tarchitecture\tx86_64\ns\tconfig_name\t%s\n' "$LAB_CONFIG_NAME"
		cp "$t/build.log" "$RESULTS/kcidb/$k/build.log" || exit 1
		printf 's\tlog_url\t%skcidb/%s/build.log\n' "$base" "$k"
		if [ -f "$t/obj/.config" ]; then
			cp "$t/obj/.config" "$RESULTS/kcidb/$k/kernel.config" || exit 1
			printf 's\tconfig_url\t%skcidb/%s/kernel.config\n' "$base" "$k"
		fi
		# The compiler as the kernel recorded it (init/version.c).
		cc=$(sed -n 's/^#define LINUX_COMPILER[[:space:]]*"\(.*\)"$/\1/p' \
			"$t/obj/include/generated/compile.h" 2>/dev/null)
		[ -z "$cc" ] || printf 's\tcompiler\t%s\n' "$cc"
		rel=$(cat "$t/obj/include/config/kernel.release" 2>/dev/null)
		[ -z "$rel" ] || printf 's\tcomment\tLinux %s, %s kernel\n' "$rel" "$k"
		# build-kernel.sh removes vmlinux first and copies it last.
		if [ -f "$t/vmlinux" ]; then
			printf 's\tstatus\tPASS\n'
		else
			printf 's\tstatus\tFAIL\n'
		fi
	done
}

# boot_tests KERNEL PROFILE: the boot's test and those of its listing.
boot_tests() {
	k=$1 p=$2 run="$RESULTS/$1/$2"
	# The verdict file's keys this needs, read at once (as kv reads them).
	IFS=$us read -r v reason wall accel <<EOT
$(awk -v us="$us" "$KV_FIRST_AWK"'{ kv_first($0, val) }
	END { print val["verdict"] us val["reason"] us val["wall"] us val["accel"] }' "$run/verdict")
EOT
	[ -n "$v" ] || die "'$run/verdict' has no verdict= line"
	need_file "$run/console.log" "a boot with a verdict keeps its console"
	word=$(path_word "$p")
	id="bklfree:$KCIDB_RUN:$k:$p"
	other=patched
	[ "$k" = baseline ] || other=baseline
	printf 'test\ns\tid\t%s\ns\tbuild_id\tbklfree:%s:%s\ns\torigin\tbklfree\n' "$id" "$KCIDB_RUN" "$k"
	printf 's\tpath\tboot.%s\ns\tstatus\t%s\n' "$word" "$(kcidb_status "$v")"
	printf 's\tcomment\t%s\n' "$reason"
	printf 'n\tduration\t%s\n' "$wall"
	printf 's\tlog_url\t%s%s/%s/console.log\n' "$base" "$k" "$p"
	printf 's\tenvironment.comment\tQEMU -M pc, x86_64, accel %s\n' "$accel"
	printf 's\tmisc.profile\t%s\ns\tmisc.verdict\t%s\n' "$p" "$v"
	# The report's change across kernels, and the boot it compares.
	if [ "$k" = baseline ]; then
		verdict_change "$v" "$(kv "$RESULTS/patched/$p/verdict" verdict)"
	else
		verdict_change "$(kv "$RESULTS/baseline/$p/verdict" verdict)" "$v"
	fi
	printf 's\tmisc.change\t%s\n' "$change"
	[ ! -f "$RESULTS/$other/$p/verdict" ] ||
		printf 's\tmisc.compared_with\tbklfree:%s:%s:%s\n' "$KCIDB_RUN" "$other" "$p"
	"$TOOLS/verdict" --cases "$run/console.log" >"$RESULTS/kcidb/listing" ||
		die "verdict --cases failed on '$run/console.log'"
	# shellcheck disable=SC2086 # the tests are words
	{ profile_get "$p" tests && printf '%s\n' $EVERY_BOOT_TESTS; } >"$RESULTS/kcidb/expected" ||
		exit 1
	# Each line of the listing (TEST NUMBER RESULT DESCRIPTION DIRECTIVE)
	# is a test; a path that repeats in the boot gets "_2", "_3".
	LC_ALL=C awk -F '\t' -v id="$id" -v build="bklfree:$KCIDB_RUN:$k" \
		-v path="boot.$word" -v logurl="$base$k/$p/console.log" -v verdict="$v" \
		-v expected_file="$RESULTS/kcidb/expected" '
	function word(s) {
		gsub(/[^A-Za-z0-9_-]+/, "_", s)
		return s == "" ? "_" : s
	}
	# unique(KIND, NAME): NAME, or NAME_2, NAME_3 when KIND had it.
	function unique(kind, p,   q, n) {
		q = p
		while ((kind, q) in taken)
			q = p "_" (++n + 1)
		taken[kind, q] = 1
		return q
	}
	function obj(tid, tpath, status, comment) {
		printf "test\ns\tid\t%s\ns\tbuild_id\t%s\n", unique("id", tid), build
		printf "s\torigin\tbklfree\ns\tpath\t%s\ns\tstatus\t%s\n", unique("path", tpath), status
		printf "s\tcomment\t%s\ns\tlog_url\t%s\n", comment, logurl
	}
	BEGIN {
		# KTAP results as KCIDB statuses (docs/kcidb.md): the judge
		# counts XFAIL and TODO as passed and TIMEOUT as failed; a test
		# the boot cut short did not complete.
		status["pass"] = "PASS"; status["xfail"] = "PASS"
		status["fail"] = "FAIL"; status["timeout"] = "FAIL"
		status["skip"] = "SKIP"; status["unfinished"] = "ERROR"
		while ((getline t < expected_file) > 0)
			expected[++n_exp] = t
	}
	{
		if (!($3 in status)) {
			printf "error: verdict --cases gave result \"%s\" on line %d\n", $3, FNR > "/dev/stderr"
			exit 1
		}
		if ($2 ~ /\./) {
			tpath = path "." word($1) "." word($4)
		} else {
			tpath = path "." word($1)
			seen[$1] = 1
		}
		obj(id ":" $2, tpath, status[$3], $4)
		printf "s\tmisc.test\t%s\ns\tmisc.ktap_number\t%s\n", $1, $2
		printf "s\tmisc.ktap_result\t%s\n", $3
		if ($5 != "")
			printf "s\tmisc.directive\t%s\n", $5
	}
	END {
		# The tests the boot never reached: not run, for no fault of
		# the test, and nothing known of the code they test.
		for (i = 1; i <= n_exp; i++) {
			t = expected[i]
			if (t in seen)
				continue
			seen[t] = 1
			obj(id ":" t, path "." word(t), "MISS", t)
			printf "s\tmisc.test\t%s\n", t
			printf "s\tmisc.reason\tnot reached: the boot ended (%s) before it\n", verdict
		}
	}' "$RESULTS/kcidb/listing"
}

mkdir -p "$RESULTS/kcidb" || exit 1
{
	printf 'version\t5\t3\n'
	checkouts || exit 1
	builds || exit 1
	for p in $profiles; do
		for k in $kernels; do
			[ -f "$RESULTS/$k/$p/verdict" ] || continue
			boot_tests "$k" "$p" || die "cannot list the tests of boot '$k/$p'"
		done
	done
} >"$RESULTS/kcidb/records" || exit 1
rm -f "$RESULTS/kcidb/listing" "$RESULTS/kcidb/expected"
"$TOOLS/kcidb-json" <"$RESULTS/kcidb/records" >"$out.tmp" ||
	die "kcidb-json refused the records (kept in '$RESULTS/kcidb/records')"
mv "$out.tmp" "$out"
echo "kcidb: $out, $(grep -c '^test$' "$RESULTS/kcidb/records") tests of $(grep -c '^build$' "$RESULTS/kcidb/records") builds (run $KCIDB_RUN)"
