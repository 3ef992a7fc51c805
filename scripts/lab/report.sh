#!/bin/sh
# report.sh: the matrix of the last boots, profiles x kernels.
#   stdout                 a text table: verdict and wall time per boot, the
#                          change across kernels, the lseek ABI comparison
#   results/summary.json   every boot's result.json plus the run's facts
#   results/index.html     the same matrix, linking each console log
# Change across kernels: "regression" (baseline passed, patched does not),
# "fixed" (the other way), "same", or "changed" (both did not pass,
# differently). Everything comes from each boot's verdict file (written by
# tools/lab/verdict, the only reader of a boot's console).
. "$(dirname "$0")/lib.sh"

[ -d "$RESULTS" ] || die "no results in '$RESULTS': run 'make boot' first"
profiles=$(all_profiles)
accel_line=$(head -n 1 "$BUILD/accel" 2>/dev/null || echo "tcg (not probed)")
applied="$KTREES/patched/applied"
if [ ! -f "$applied" ]; then
	tree_line="patched tree not made yet"
elif [ ! -s "$applied" ]; then
	tree_line="no patches applied: patched == baseline"
else
	tree_line="$(wc -l <"$applied") patches applied: $(cut -d/ -f1 "$applied" | uniq -c | awk '{ printf "%s%s %s", s, $1, $2; s = ", " }')"
fi

cell() {
	f="$RESULTS/$1/$2/verdict"
	if [ -f "$f" ]; then
		printf '%s %ss' "$(kv "$f" verdict)" "$(kv "$f" wall)"
	else
		printf 'not run'
	fi
}

change() {
	a=$(kv "$RESULTS/baseline/$1/verdict" verdict)
	b=$(kv "$RESULTS/patched/$1/verdict" verdict)
	if [ -z "$a" ] || [ -z "$b" ]; then echo "-"
	elif [ "$a" = "$b" ]; then echo same
	elif [ "$a" = pass ]; then echo regression
	elif [ "$b" = pass ]; then echo fixed
	else echo "changed"
	fi
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

echo
echo "bklfree regression matrix - accel: $accel_line"
echo "series: $tree_line"
echo
fmt='%-17s %-16s %-16s %-11s %s\n'
printf "$fmt" profile baseline patched change "lseek ABI (baseline -> patched)"
printf "$fmt" ------- -------- ------- ------ ---------
n_pass=0 n_fail=0 n_skip=0 n_reg=0 n_fix=0
html_rows=
for p in $profiles; do
	c=$(change "$p")
	l=$(lseek_cell "$p")
	printf "$fmt" "$p" "$(cell baseline "$p")" "$(cell patched "$p")" "$c" "$l"
	for k in baseline patched; do
		v=$(kv "$RESULTS/$k/$p/verdict" verdict)
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
		v=$(kv "$RESULTS/$k/$p/verdict" verdict)
		r=$(kv "$RESULTS/$k/$p/verdict" reason | sed 's/&/\&amp;/g; s/</\&lt;/g; s/"/\&quot;/g')
		row="$row<td class=\"${v:-none}\" title=\"$r\"><a href=\"$k/$p/console.log\">$(cell "$k" "$p")</a></td>"
	done
	html_rows="$html_rows$row<td>$c</td><td><a href=\"lseek-diff/$p.txt\">$l</a></td></tr>
"
done
echo
skips=
[ "$n_skip" = 0 ] || skips=", $n_skip skipped an optional test"
echo "$n_pass boots passed, $n_fail did not$skips; $n_reg regression(s), $n_fix fixed"
for p in $profiles; do
	for k in baseline patched; do
		v=$(kv "$RESULTS/$k/$p/verdict" verdict)
		case $v in
		pass | "") ;;
		*) echo "  $k/$p: $v: $(kv "$RESULTS/$k/$p/verdict" reason) (console: results/$k/$p/console.log)" ;;
		esac
	done
done
for p in $profiles; do
	a=$(kv "$RESULTS/baseline/$p/verdict" v4l2_compliance)
	b=$(kv "$RESULTS/patched/$p/verdict" v4l2_compliance)
	[ -n "$a$b" ] && echo "v4l2-compliance on $p: baseline ${a:-not run}; patched ${b:-not run}"
done
[ -f "$RESULTS/matrix-wall" ] && echo "matrix wall time: $(cat "$RESULTS/matrix-wall") s"

# summary.json: the run's facts and every boot's record.
{
	printf '{\n  "origin": "bklfree",\n  "accel": %s,\n  "series": %s,\n' \
		"$(json_str "$accel_line")" "$(json_str "$tree_line")"
	printf '  "patches": ['
	sep=
	[ -f "$applied" ] && while read -r a; do
		printf '%s%s' "$sep" "$(json_str "$a")"
		sep=", "
	done <"$applied"
	printf '],\n  "boots": [\n'
	sep=
	for p in $profiles; do
		for k in baseline patched; do
			j="$RESULTS/$k/$p/result.json"
			[ -f "$j" ] || continue
			printf '%s' "$sep"
			sed 's/^/    /' "$j"
			sep=",
"
		done
	done
	printf '\n  ]\n}\n'
} >"$RESULTS/summary.json"

cat >"$RESULTS/index.html" <<EOT
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>bklfree regression matrix</title>
<style>
body { font-family: sans-serif; margin: 2em; }
table { border-collapse: collapse; }
th, td { border: 1px solid #999; padding: 0.3em 0.8em; text-align: left; }
td.pass { background: #cfc; } td.fail, td.panic, td.error { background: #fcc; }
td.hang { background: #fdb; } td.skip, td.none { background: #eee; }
</style></head><body>
<h1>bklfree regression matrix</h1>
<p>accel: $accel_line<br>series: $tree_line<br>
$n_pass boots passed, $n_fail did not$skips; $n_reg regression(s), $n_fix fixed.
Hover a cell for the verdict's reason; click it for the console log.</p>
<table><tr><th>profile</th><th>baseline</th><th>patched</th><th>change</th><th>lseek ABI</th></tr>
$html_rows</table>
<p><a href="summary.json">summary.json</a></p>
</body></html>
EOT
echo "report: results/summary.json, results/index.html"
