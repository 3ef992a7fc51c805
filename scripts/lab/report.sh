#!/bin/sh
# report.sh: the matrix of the last boots, profiles x kernels.
#   stdout                 a text table: verdict and wall time per boot, the
#                          change across kernels, the lseek ABI comparison;
#                          then each v4l2-compliance run's totals on both
#                          kernels and whether patched does no worse
#   results/summary.json   every boot's result.json plus the run's facts
#   results/index.html     the front page: the run's facts, the bench
#                          figures with their targets (when
#                          results/bench.json exists), the same matrix with
#                          every cell linking to the page of its boot, the
#                          boots that did not pass, and the coverage map
#                          (results/coverage.txt or .tsv, when made)
#   results/KERNEL/PROFILE/index.html
#                          the page of each boot (boot-page.sh)
# Change across kernels (verdict_change in lib.sh): "regression" (baseline
# passed, patched does not), "fixed" (the other way), "same", or "changed"
# (both did not pass, differently). Everything comes from each boot's
# verdict file (written by tools/lab/verdict, the only reader of a boot's
# console).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/html.sh"

[ -d "$RESULTS" ] || die "no results in '$RESULTS': run 'make boot' first"
# A subsystem's boots (make boot SUBSYS=) are reported alone.
profiles=$(all_profiles)
[ -z "$SUBSYS" ] || profiles=$("$TOP/scripts/lab/profiles.sh") || exit 1
accel_line=$(head -n 1 "$BUILD/accel" 2>/dev/null || echo "tcg (not probed)")
applied="$KTREES/patched/applied"
tree_line=$(series_line)

# boot_facts: one line a profile of $profiles, fields split by US
# (\037, so that an empty field stays one): the profile, then for baseline
# and for patched the verdict (empty: no boot), the text cell ("VERDICT
# WALLs", " (reused)" for a boot taken from an earlier run, or "not run"),
# the reason, and the reason, verdict and cell escaped for HTML. One awk
# reads every verdict file, as kv does (a key's first value): asking kv
# for each took seconds over 110 boots.
us=$(printf '\037')
boot_facts() {
	printf '%s\n' $profiles | awk -v results="$RESULTS" -v us="$us" "$HTML_ESC_AWK$KV_FIRST_AWK"'
	{
		out = $0
		for (j = 1; j <= 2; j++) {
			d = results "/" (j == 1 ? "baseline" : "patched") "/" $0
			delete val
			while ((getline l < (d "/verdict")) > 0)
				kv_first(l, val)
			close(d "/verdict")
			v = val["verdict"]
			c = "not run"
			if (has(d "/verdict")) {
				c = v " " val["wall"] "s"
				if (has(d "/reused"))
					c = c " (reused)"
			}
			out = out us v us c us val["reason"] us esc(val["reason"]) us esc(v) us esc(c)
		}
		print out
	}
	# has(FILE): FILE exists (getline gives -1 for a file it cannot open).
	function has(f,   r, l) {
		r = (getline l < f) >= 0
		close(f)
		return r
	}'
}

lseek_cell() {
	if [ -f "$RESULTS/baseline/$1/verdict" ] && [ -f "$RESULTS/patched/$1/verdict" ]; then
		"$TOP/scripts/lab/lseek-diff.sh" "$1" >"$RESULTS/lseek-cell" 2>&1
		# A boot that panicked before the walk has no records.
		if [ $? = 2 ] && grep -qx 'verdict=panic' "$RESULTS/baseline/$1/verdict" "$RESULTS/patched/$1/verdict"; then
			echo "not compared (a boot panicked before the walk)"
		else
			cat "$RESULTS/lseek-cell"
		fi
		rm -f "$RESULTS/lseek-cell"
	else
		echo "-"
	fi
}

# page_gen: what every boot page is made from besides its boot's own
# files: the scripts that write it, the verdict tool that lists its cases,
# what findings.sh reads (the findings files, the patches applied, the
# patches and profiles there are, the profile tool), the V4L2 keys.
page_gen=$( {
	cksum "$TOP/scripts/lab/boot-page.sh" "$TOP/scripts/lab/html.sh" \
		"$TOP/scripts/lab/lib.sh" "$TOP/scripts/lab/findings.sh" "$TOOLS/verdict" \
		"$TOOLS/profile" "$TOP"/patches/*/findings "$applied" \
		"$TOP"/qemu-devices/*.profile 2>&1
	ls "$TOP"/patches/*/
	echo "$V4L2_KEYS"
} | cksum)
# write_page KERNEL PROFILE LSEEK: the boot's page (boot-page.sh), unless
# the page there was made from the same inputs: page_gen, the lseek
# summary and comparison, whether the other kernel booted the profile, and
# the name, size and time of every file of the boot (a boot run again
# rewrites them; the first reuse writes "reused"; boot.sh's quick look's
# files, inputs.since, .files and .env, are not on the page). Rewriting every page
# took most of a warm make's report, 55 s for 110 boots.
write_page() {
	_run="$RESULTS/$1/$2"
	_other=baseline
	[ "$1" = baseline ] && _other=patched
	_sum=$( {
		echo "$page_gen"
		printf '%s\n' "$3"
		[ -f "$RESULTS/$_other/$2/verdict" ] && echo "$_other booted"
		[ ! -f "$RESULTS/lseek-diff/$2.txt" ] || cksum <"$RESULTS/lseek-diff/$2.txt"
		find "$_run" -mindepth 1 ! -name index.html ! -name index.html.tmp ! -name page.sum ! -name cases.tmp \
			! -name inputs.since ! -name inputs.files ! -name inputs.env -printf '%P %s %T@\n' | sort
	} | cksum)
	[ -f "$_run/index.html" ] && [ "$(cat "$_run/page.sum" 2>/dev/null)" = "$_sum" ] &&
		return
	rm -f "$_run/page.sum"
	"$TOP/scripts/lab/boot-page.sh" "$1" "$2" "$3" ||
		die "cannot write the page of boot '$1/$2'"
	echo "$_sum" >"$_run/page.sum"
}

echo
echo "bklfree regression matrix - accel: $accel_line"
echo "series: $tree_line"
echo
fmt='%-17s %-22s %-22s %-11s %s\n'
printf "$fmt" profile baseline patched change "lseek ABI (baseline -> patched)"
printf "$fmt" ------- -------- ------- ------ ---------
n_pass=0 n_fail=0 n_skip=0 n_reg=0 n_fix=0
html_rows=
facts=$(mktemp "${TMPDIR:-/tmp}/report-facts.XXXXXX") || die "cannot make a scratch file"
trap 'rm -f "$facts"' EXIT
trap 'exit 1' INT TERM
boot_facts >"$facts" || die "cannot read the boots' verdict files"
# booted: the profiles with a boot on either kernel.
booted=
# Fields: profile; baseline's verdict, cell, reason, and the three escaped
# (b*); the same for patched (p*).
while IFS=$us read -r p bv bc br brh bvh bch pv pc pr prh pvh pch; do
	if [ "$bc" = "not run" ] && [ "$pc" = "not run" ]; then
		printf "$fmt" "$p" "not run" "not run" - -
		html_rows="$html_rows<tr><th>$p</th><td class=\"none\">not run</td><td class=\"none\">not run</td><td>-</td><td>-</td></tr>
"
		continue
	fi
	booted="$booted $p"
	verdict_change "$bv" "$pv"
	c=$change
	l=$(lseek_cell "$p")
	printf "$fmt" "$p" "$bc" "$pc" "$c" "$l"
	for v in "$bv" "$pv"; do
		case $v in
		pass) n_pass=$((n_pass + 1)) ;;
		skip) n_skip=$((n_skip + 1)) ;;
		"") ;;
		*) n_fail=$((n_fail + 1)) ;;
		esac
	done
	[ "$c" = regression ] && n_reg=$((n_reg + 1))
	[ "$c" = fixed ] && n_fix=$((n_fix + 1))
	row="<tr><th>$p</th>"
	for k in baseline patched; do
		if [ "$k" = baseline ]; then
			v=$bv vh=$bvh rh=$brh ch=$bch
		else
			v=$pv vh=$pvh rh=$prh ch=$pch
		fi
		if [ -z "$v" ]; then
			row="$row<td class=\"none\">not run</td>"
			continue
		fi
		write_page "$k" "$p" "$l"
		row="$row<td class=\"$vh\" title=\"$rh\"><a href=\"$k/$p/index.html\">$ch</a></td>"
	done
	if [ -f "$RESULTS/lseek-diff/$p.txt" ] && [ "$l" != "-" ]; then
		l="<a href=\"lseek-diff/$p.txt\">$(html_text "$l")</a>"
	else
		l=$(html_text "$l")
	fi
	html_rows="$html_rows$row<td>$c</td><td>$l</td></tr>
"
done <"$facts"
echo
skips=
[ "$n_skip" = 0 ] || skips=", $n_skip skipped an optional test"
echo "$n_pass boots passed, $n_fail did not$skips; $n_reg regression(s), $n_fix fixed"
while IFS=$us read -r p bv _ br _ _ _ pv _ pr _ _ _; do
	for k in baseline patched; do
		if [ "$k" = baseline ]; then v=$bv r=$br; else v=$pv r=$pr; fi
		case $v in
		pass | "") ;;
		*) echo "  $k/$p: $v: $r (console: results/$k/$p/console.log)" ;;
		esac
	done
done <"$facts"
tab=$(printf '\t')
# v4l2-compliance's totals, each run of the tool compared (lib.sh).
# Only the profiles whose boots ran it (one grep over the verdicts, not
# four reads a profile).
v4l2_booted=" $(cd "$RESULTS" && grep -lE "^($(echo $V4L2_KEYS | tr ' ' '|'))=" \
	baseline/*/verdict patched/*/verdict 2>/dev/null | cut -d/ -f2 | sort -u | paste -sd' ' -) "
v4l2_lines=$(for p in $booted; do
	case $v4l2_booted in *" $p "*) ;; *) continue ;; esac
	v4l2_compare "$p" | while IFS="$tab" read -r name result a b; do
		printf '%s on %s: baseline %s; patched %s: %s\n' "$name" "$p" "$a" "$b" "$result"
	done
done)
[ -z "$v4l2_lines" ] || printf '%s\n' "$v4l2_lines"
[ -f "$RESULTS/matrix-wall" ] && echo "matrix wall time: $(cat "$RESULTS/matrix-wall") s"

# records: every boot's result.json, indented, a line "," between two.
records() {
	set --
	for p in $profiles; do
		for k in baseline patched; do
			[ ! -f "$RESULTS/$k/$p/result.json" ] || set -- "$@" "$RESULTS/$k/$p/result.json"
		done
	done
	[ $# = 0 ] || awk 'FNR == 1 && NR > 1 { print "," } { print "    " $0 }' "$@"
}

# summary.json: the run's facts and every boot's record.
{
	printf '{\n  "origin": "bklfree",\n  "accel": %s,\n  "series": %s,\n' \
		"$(json_str "$accel_line")" "$(json_str "$tree_line")"
	printf '  "patches": ['
	[ ! -f "$applied" ] || json_lines "$applied"
	printf '],\n  "boots": [\n'
	records
	printf '\n  ]\n}\n'
} >"$RESULTS/summary.json"

# bench_rows: results/bench.json as table rows: figure, measured (a list
# of boot times as min, median and max), target. bench.sh writes one key a
# line and the targets, "OP LIMIT", in a "targets" block; a figure (a
# list's median) that meets its target is marked ok, one that misses it
# bad.
bench_rows() {
	awk '
	/^  "targets": \{/ { in_t = 1; next }
	in_t && /^  \}/ { in_t = 0; next }
	match($0, /"[a-z_]+": /) {
		key = substr($0, RSTART + 1, RLENGTH - 4)
		val = substr($0, RSTART + RLENGTH)
		sub(/,$/, "", val)
		if (in_t) {
			gsub(/"/, "", val)
			target[key] = val
		} else {
			keys[++n] = key
			value[key] = val
		}
	}
	END {
		for (i = 1; i <= n; i++) {
			k = keys[i]
			v = value[k]
			fig = ""
			if (v ~ /^\[/) {
				gsub(/[\[\] ]/, "", v)
				m = split(v, a, ",")
				# insertion sort: a few samples
				for (x = 2; x <= m; x++)
					for (y = x; y > 1 && a[y - 1] + 0 > a[y] + 0; y--) {
						t = a[y]; a[y] = a[y - 1]; a[y - 1] = t
					}
				if (m) {
					fig = a[int((m + 1) / 2)]
					v = sprintf("min %s, median %s, max %s (%d runs)",
						a[1], fig, a[m], m)
				}
			} else if (v != "null") {
				gsub(/^"|"$/, "", v)
				fig = v
			}
			if (v == "null" || v == "")
				v = "not measured"
			status = "none"
			if ((k in target) && fig != "") {
				split(target[k], tg, " ")
				met = tg[1] == ">=" ? fig + 0 >= tg[2] + 0 : fig + 0 <= tg[2] + 0
				status = met ? "ok" : "bad"
			}
			printf "%s\t%s\t%s\t%s\n", k, v, (k in target) ? target[k] : "", status
		}
	}' "$RESULTS/bench.json" | html_escape | awk -F '\t' '
	BEGIN {
		label["cold_build_s"] = "cold build of the lab kernel and modules, ccache disabled (s)"
		label["incremental_build_s"] = "incremental build after touching drivers/char/mem.c (s)"
		label["lab_tcg_first_ktap_s"] = "lab kernel, QEMU start to first KTAP line, TCG (s)"
		label["lab_kvm_first_ktap_s"] = "lab kernel, QEMU start to first KTAP line, KVM (s)"
		label["distro_package"] = "distro kernel package"
		label["distro_tcg_first_ktap_s"] = "distro kernel bzImage, same initramfs, first KTAP line, TCG (s)"
		label["distro_pvh_tcg_first_ktap_s"] = "distro kernel through PVH, first KTAP line, TCG (s)"
		label["ratio_lab_to_distro"] = "ratio lab / distro bzImage (medians)"
		label["ratio_lab_to_distro_pvh"] = "ratio lab / distro PVH (medians)"
		label["matrix_wall_s"] = "whole matrix, every profile on both kernels (s)"
		label["matrix_boots"] = "boots in the matrix"
		label["matrix_boots_per_s"] = "matrix throughput, boots per second"
	}
	{
		printf "<tr><td>%s</td><td%s>%s</td><td>%s</td></tr>\n",
			$1 in label ? label[$1] : $1,
			$4 == "none" ? "" : " class=\"" $4 "\"", $2, $3
	}'
}

{
	html_head "bklfree regression matrix"
	echo "<h1>bklfree regression matrix</h1>"
	echo "<table>"
	printf '<tr><th>accel</th><td>%s</td></tr>\n' "$(html_text "$accel_line")"
	printf '<tr><th>series</th><td>%s</td></tr>\n' "$(html_text "$tree_line")"
	printf '<tr><th>boots</th><td>%s</td></tr>\n' \
		"$n_pass passed, $n_fail did not$skips; $n_reg regression(s), $n_fix fixed"
	[ -f "$RESULTS/matrix-wall" ] &&
		printf '<tr><th>matrix wall time</th><td>%s s</td></tr>\n' "$(html_text "$(cat "$RESULTS/matrix-wall")")"
	echo "</table>"

	echo "<h2>Figures</h2>"
	if [ -f "$RESULTS/bench.json" ]; then
		echo "<p>From <a href=\"bench.json\">bench.json</a> (<code>make bench</code>); a figure with a target is green when it meets it, red when it does not.</p>"
		echo "<table><tr><th>figure</th><th>measured</th><th>target</th></tr>"
		bench_rows
		echo "</table>"
	else
		echo "<p>Not measured yet (make bench).</p>"
	fi

	echo "<h2>Matrix</h2>"
	echo "<p>Each cell links to the page of its boot (verdict, every test and case, findings, lseek ABI, logs); hover it for the verdict's reason.</p>"
	echo "<table><tr><th>profile</th><th>baseline</th><th>patched</th><th>change</th><th>lseek ABI (baseline to patched)</th></tr>"
	printf '%s' "$html_rows"
	echo "</table>"

	not_passed=$(while IFS=$us read -r p bv _ _ brh bvh _ pv _ _ prh pvh _; do
		for k in baseline patched; do
			if [ "$k" = baseline ]; then v=$bv vh=$bvh rh=$brh; else v=$pv vh=$pvh rh=$prh; fi
			case $v in
			pass | "") ;;
			*) printf '<li><a href="%s/%s/index.html">%s/%s</a>: %s: %s</li>\n' \
				"$k" "$p" "$k" "$p" "$vh" "$rh" ;;
			esac
		done
	done <"$facts")
	if [ -n "$not_passed" ]; then
		echo "<h2>Boots that did not pass</h2><ul>"
		printf '%s\n' "$not_passed"
		echo "</ul>"
	fi
	[ -z "$v4l2_lines" ] || printf '%s\n' "$v4l2_lines" | while IFS= read -r l; do
		printf '<p>%s</p>\n' "$(html_text "$l")"
	done

	echo "<h2>Coverage</h2>"
	cov=
	for c in coverage.txt coverage.tsv; do
		[ -f "$RESULTS/$c" ] && { cov=$c; break; }
	done
	if [ -n "$cov" ]; then
		printf '<p>From <a href="%s">%s</a>.</p>\n<pre>%s</pre>\n' "$cov" "$cov" \
			"$(html_escape <"$RESULTS/$cov")"
	else
		echo "<p>Not made yet (make coverage).</p>"
	fi

	echo '<p><a href="summary.json">summary.json</a></p>'
	html_tail
} >"$RESULTS/index.html.tmp" && mv "$RESULTS/index.html.tmp" "$RESULTS/index.html"
echo "report: results/summary.json, results/index.html and a page per boot"
