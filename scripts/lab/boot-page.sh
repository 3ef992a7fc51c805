#!/bin/sh
# boot-page.sh KERNEL PROFILE [LSEEK]: results/KERNEL/PROFILE/index.html,
# the page of one boot, linked from the front page (report.sh calls this
# for every boot whose page is not current, page.sum; LSEEK is its summary
# of the profile's lseek ABI comparison). The page holds:
#   - the verdict, its reason and the boot's facts (wall time, accel, QEMU
#     status, counts), all from the boot's verdict file
#   - what the boot failed in, the verdict's failed_case=, failed_test=,
#     skipped_test= and optional_skip= lines
#   - the findings recorded for the profile (scripts/lab/findings.sh) and
#     whether this boot shows exactly them: a baseline boot must fail in
#     exactly them, a patched boot in none of them
#   - the lseek ABI comparison of the profile (results/lseek-diff/PROFILE.txt)
#   - every test and case of the console with its result, failing ones
#     marked, as "tools/lab/verdict --cases" lists them (the only reader of
#     the console's KTAP; nothing here parses KTAP)
#   - links to console.log, ktap.txt, hostcheck.log (and a peer guest's
#     console and verdict, peer/) and the other files of
#     the boot, the same profile on the other kernel, and the front page
# Every text from a log or a verdict file is escaped (html_escape).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/html.sh"

kernel=${1:?usage: boot-page.sh KERNEL PROFILE [LSEEK]}
profile=${2:?usage: boot-page.sh KERNEL PROFILE [LSEEK]}
lseek=${3:-}
run="$RESULTS/$kernel/$profile"
f="$run/verdict"
need_file "$f" "no boot of '$profile' on '$kernel': run 'make boot' first"
tab=$(printf '\t')
v=$(kv "$f" verdict)

# facts KEY...: a table row for each key the verdict file has, in the
# order given, with its first value (as kv reads it), escaped as
# html_escape does; one awk for them all.
facts() {
	awk -v keys="$*" "$HTML_ESC_AWK$KV_FIRST_AWK"'
	BEGIN { n = split(keys, want, " ") }
	{ kv_first($0, val) }
	END {
		for (j = 1; j <= n; j++) {
			k = want[j]
			if (!(k in val))
				continue
			v = esc(val[k] (k == "wall" ? " s" : ""))
			printf "<tr><th>%s</th><td>%s</td></tr>\n", k, v
		}
	}' "$f"
}

# failures: the verdict's named failures and skips, one list item each.
failures() {
	grep -E '^(failed_case|failed_test|skipped_test|optional_skip)=' "$f" |
		sed "s/=/$tab/" | html_escape | awk -F '\t' '
		BEGIN { what["failed_case"] = "failed case"
			what["failed_test"] = "failed as a whole"
			what["skipped_test"] = "skipped"
			what["optional_skip"] = "skipped (optional)" }
		{ printf "<li><span class=\"%s\">%s</span> %s: %s</li>\n",
			$1 == "optional_skip" ? "skip" : "fail", what[$1], $2, $3 }'
}

# findings: the profile's recorded findings against what this boot shows.
findings() {
	echo "<h2>Findings</h2>"
	if ! known=$("$TOP/scripts/lab/findings.sh" "$profile" 2>&1); then
		echo "<p class=\"bad\">The findings cannot be read:</p>"
		printf '<pre>%s</pre>\n' "$(html_text "$known")"
		return
	fi
	if [ -z "$known" ]; then
		echo "<p>No finding is recorded for this profile (among the patches applied to the patched tree).</p>"
		return
	fi
	got=$(verdict_failures "$f")
	# One row per finding, seen or not, and on baseline what the boot
	# showed that no finding records ("TEST<TAB>CASE", splat, hostcheck).
	rows=$({
		printf '%s\n' "$known" | while IFS= read -r l; do
			if printf '%s\n' "$got" | grep -qxF -e "$l"; then
				printf 'seen\t%s\n' "$l"
			else
				printf 'not seen\t%s\n' "$l"
			fi
		done
		[ "$kernel" = baseline ] && [ -n "$got" ] &&
			printf '%s\n' "$got" | while IFS= read -r l; do
				printf '%s\n' "$known" | grep -qxF -e "$l" ||
					printf 'seen, not recorded\t%s\n' "$l"
			done
	})
	n_known=$(printf '%s\n' "$known" | wc -l)
	n_seen=$(printf '%s\n' "$rows" | grep -c "^seen$tab")
	echo "<p>Recorded in patches/*/findings: what pristine 6.1 fails in on this profile, fixed by an applied patch. A baseline boot must fail in exactly these, a patched boot in none of them.</p>"
	echo "<table><tr><th>test</th><th>failing case (or splat, hostcheck)</th><th>in this boot</th></tr>"
	printf '%s\n' "$rows" | html_escape | awk -F '\t' -v kernel="$kernel" '{
		test = NF > 2 ? $2 : "(the boot)"
		what = NF > 2 ? $3 : $2
		good = kernel == "baseline" ? $1 == "seen" : $1 == "not seen"
		printf "<tr><td>%s</td><td>%s</td><td class=\"%s\">%s</td></tr>\n",
			test, what, good ? "ok" : "bad", $1 }'
	echo "</table>"
	if [ "$kernel" = baseline ] && [ "$got" = "$known" ]; then
		echo "<p class=\"ok\">This boot fails in exactly the recorded findings.</p>"
	elif [ "$kernel" = baseline ]; then
		echo "<p class=\"bad\">This boot does not fail in exactly the recorded findings: $n_seen of $n_known seen, $(printf '%s\n' "$rows" | grep -c '^seen, not recorded') failure(s) not recorded.</p>"
	elif [ "$n_seen" = 0 ]; then
		echo "<p class=\"ok\">None of them shows in this boot.</p>"
	else
		echo "<p class=\"bad\">$n_seen of the $n_known still show in this boot.</p>"
	fi
}

# lseek_section: the profile's lseek ABI comparison, when both boots ran.
lseek_section() {
	echo "<h2>lseek ABI, baseline to patched</h2>"
	d="$RESULTS/lseek-diff/$profile.txt"
	if [ -z "$lseek" ] || [ "$lseek" = "-" ]; then
		echo "<p>Not compared: the profile did not boot on both kernels.</p>"
		return
	fi
	printf '<p>%s</p>\n' "$(html_text "$lseek")"
	if [ -s "$d" ]; then
		printf '<pre>%s</pre>\n' "$(html_escape <"$d")"
	else
		echo "<p>No path's record differs.</p>"
	fi
}

# cases: every test and case, from tools/lab/verdict --cases.
cases() {
	echo "<h2>Tests and cases</h2>"
	if [ ! -s "$run/console.log" ]; then
		echo "<p>The console is empty: no test ran.</p>"
		return
	fi
	"$TOOLS/verdict" --cases "$run/console.log" >"$run/cases.tmp" ||
		die "verdict --cases failed on '$run/console.log'"
	if [ ! -s "$run/cases.tmp" ]; then
		echo "<p>The console holds no test result.</p>"
		rm -f "$run/cases.tmp"
		return
	fi
	html_escape <"$run/cases.tmp" | awk -F '\t' '
	BEGIN { shown["pass"] = "ok"; shown["fail"] = "not ok"
		shown["skip"] = "skip"; shown["xfail"] = "xfail"
		shown["timeout"] = "timeout"
		shown["unfinished"] = "unfinished (no result line)"
		split("pass fail timeout skip xfail unfinished", order, " ") }
	# counts(KIND): "N ok, N not ok, ..." of the tests or the cases.
	function counts(kind,   i, r, out, sep) {
		for (i = 1; i in order; i++) {
			r = order[i]
			if (n[kind, r]) {
				out = out sep n[kind, r] " " shown[r]
				sep = ", "
			}
		}
		return out
	}
	$2 !~ /\./ {
		tests++
		n["test", $3]++
		rows = rows sprintf("<tr class=\"test\"><th>%s</th><th>%s</th><th class=\"%s\">%s</th><th>%s</th></tr>\n",
			$2, $1, $3, shown[$3], $5)
		next
	}
	{
		cases++
		n["case", $3]++
		failing = $3 == "fail" || $3 == "timeout"
		if (failing)
			bad = bad sprintf("<li><a href=\"#c%s\">%s %s</a>: %s</li>\n", $2, $2, $1, $4)
		rows = rows sprintf("<tr id=\"c%s\"%s><td class=\"num\">%s</td><td>%s</td><td class=\"%s\">%s</td><td>%s</td></tr>\n",
			$2, failing ? " class=\"failing\"" : "", $2, $4, $3, shown[$3], $5)
	}
	END {
		printf "<p>%d tests (%s); %d cases", tests, counts("test"), cases
		if (cases)
			printf " (%s)", counts("case")
		printf ".</p>\n"
		if (bad != "")
			printf "<p>Failing cases (marked in the table):</p>\n<ul>\n%s</ul>\n", bad
		printf "<table><tr><th>number</th><th>description</th><th>result</th><th>directive</th></tr>\n%s</table>\n", rows
	}'
	rm -f "$run/cases.tmp"
}

# links: the boot's files that exist.
links() {
	echo "<h2>Files</h2><ul>"
	for file in console.log ktap.txt hostcheck.log verdict result.json lseek.tsv \
		inputs initrd.cpio.list qemu.stderr monitor.log peer/console.log peer/verdict; do
		[ -s "$run/$file" ] || [ "$file" = console.log ] || continue
		[ -e "$run/$file" ] || continue
		printf '<li><a href="%s">%s</a></li>\n' "$file" "$file"
	done
	[ -f "$RESULTS/lseek-diff/$profile.txt" ] &&
		printf '<li><a href="../../lseek-diff/%s.txt">lseek-diff/%s.txt</a></li>\n' "$profile" "$profile"
	echo "</ul>"
}

other=baseline
[ "$kernel" = baseline ] && other=patched

{
	html_head "bklfree: $kernel/$profile: $v"
	printf '<p><a href="../../index.html">bklfree regression matrix</a>'
	[ -f "$RESULTS/$other/$profile/verdict" ] &&
		printf ' | <a href="../../%s/%s/index.html">%s on %s</a>' "$other" "$profile" "$profile" "$other"
	printf '</p>\n'
	printf '<h1>%s on %s: <span class="%s">%s</span></h1>\n' \
		"$(html_text "$profile")" "$kernel" "$(html_text "$v")" "$(html_text "$v")"
	printf '<p>%s</p>\n' "$(html_text "$(kv "$f" reason)")"
	[ ! -f "$run/reused" ] ||
		printf '<p>Reused since the run of %s: this boot'"'"'s inputs (<a href="inputs">inputs</a>) were those of the boot below in every run since, so it was not run again.</p>\n' \
			"$(html_text "$(cat "$run/reused")")"
	echo "<table>"
	# shellcheck disable=SC2086 # V4L2_KEYS is a list of keys
	facts verdict wall accel qemu_status ktap tests passed failed skipped \
		xfail timeout subtests_passed subtests_failed subtests_skipped splats \
		first_splat_line hostcheck $V4L2_KEYS
	echo "</table>"
	l=$(failures)
	if [ -n "$l" ]; then
		printf '<h2>What the boot failed in</h2>\n<ul>\n%s\n</ul>\n' "$l"
	fi
	findings
	lseek_section
	cases
	links
	html_tail
} >"$run/index.html.tmp" && mv "$run/index.html.tmp" "$run/index.html"
