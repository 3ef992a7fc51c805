#!/bin/sh
# The coccinelle/llseek rules on their test inputs, Coccinelle's tests/
# layout: coccinelle/llseek/tests/<rule>[-<case>].c is run through
# coccinelle/llseek/<rule>.cocci; <name>.res is the file after
# "spatch -D patch", <name>.report the sorted "spatch -D report" output.
# A mismatch keeps the output as TMPDIR/<name>.bad and prints the diff
# head. A deliberately wrong expectation must be caught. Then
# scripts/llseek/llseek-report.sh runs on the test inputs as a small tree: its
# rows must be the rule's own, and its cross-check (the independent
# regular expression, with the #define and #if 0 initialisers it finds)
# must match tests/host/fixtures/llseek/crosscheck.tsv, and spatch run on
# two files at a time (LLSEEK_CHUNK) gives the same rows. Last, the rows of
# fops_llseek-macros.report (one per macro of the rule's MACROS table) are
# checked against the macros' definitions in the pristine tree's headers:
# each llseek, read and write value is what the #define body sets, and an
# open that makes the file unseekable is simple_attr_open(), which ends
# with nonseekable_open() in fs/libfs.c; a wrong row must be caught.
. "$TOP/tests/host/ktap.sh"

dir="$TOP/coccinelle/llseek/tests"
golden="$TOP/tests/host/fixtures/llseek/crosscheck.tsv"
if ! command -v spatch >/dev/null; then
	ktap_plan 1
	ktap_skip "spatch absent" "llseek rules"
	ktap_done
fi
py=
[ -x /usr/bin/python3 ] && py="--python /usr/bin/python3"
tab=$(printf '\t')

# spatch_run RULE MODE NAME OUT: the rule on NAME.c, from the tests folder.
spatch_run() {
	if [ "$2" = patch ]; then
		(cd "$dir" && spatch $py --very-quiet --no-includes -D patch \
			--sp-file "../$1.cocci" "$3.c" -o "$4" >/dev/null) &&
			{ [ -f "$4" ] || cp "$dir/$3.c" "$4"; }
	else
		(cd "$dir" && spatch $py --very-quiet --no-includes -D report \
			--sp-file "../$1.cocci" "$3.c") |
			LC_ALL=C sort -t "$tab" -k1,1 -k2,2n >"$4"
	fi
}

expected=$(cd "$dir" && ls *.res *.report | LC_ALL=C sort)
ktap_plan $(($(echo "$expected" | wc -l) + 7))

# macro_mismatch REPORT: the macro rows of REPORT that the definitions in
# the pristine tree do not bear out, one line each.
macro_mismatch() {
	awk -F'\t' -v tree="$pristine" '
		# body(H, D): the #define D of TREE/H, its continuation lines
		function body(h, d,    l, on, b) {
			on = 0; b = ""
			while ((getline l < (tree "/" h)) > 0) {
				if (l ~ "^#define " d "([( \t]|$)") on = 1
				if (!on) continue
				b = b l "\n"
				if (l !~ /\\[ \t]*$/) break
			}
			close(tree "/" h)
			return b
		}
		function sets(b, m, v) {
			return b ~ ("\\.(proc_)?" m "[ \t]*=[^\n]*[^_a-z]" v "[^_a-z0-9]")
		}
		$18 == "macro" {
			a = $19; sub(/^none at the use; /, "", a)
			split(a, w, " "); d = w[1]; h = w[3]
			b = body(h, d)
			if (b == "") { print $3 ": no #define " d " in " h; next }
			if (!sets(b, $4 == "proc_ops" ? "lseek" : "llseek", $5))
				print $3 ": " d " does not set llseek " $5
			if ($8 != "unset" && !sets(b, "read", $8))
				print $3 ": " d " does not set read " $8
			if ($10 != "unset" && !sets(b, "write", $10))
				print $3 ": " d " does not set write " $10
			if ($7 == "yes" && (b !~ /simple_attr_open\(/ || !libfs))
				print $3 ": " d "\047s open is not simple_attr_open() ending in nonseekable_open()"
		}
		BEGIN {
			f = tree "/fs/libfs.c"
			while ((getline l < f) > 0) {
				if (l ~ /^int simple_attr_open\(/) on = 1
				if (on && l ~ /return nonseekable_open\(/) libfs = 1
				if (on && l ~ /^}/) on = 0
			}
		}' "$1"
}

for e in $expected; do
	name=${e%.*}
	rule=${name%%-*}
	case $e in
	*.res) mode=patch ;;
	*) mode=report ;;
	esac
	rm -f "$TMPDIR/$e"
	spatch_run "$rule" "$mode" "$name" "$TMPDIR/$e" &&
		ktap_golden "$e" "$dir/$e" "$TMPDIR/$e"
	ktap_ok $? "$rule.cocci -D $mode on $name.c gives $e"
done

first=$(echo "$expected" | head -n 1)
{ cat "$TMPDIR/$first"; echo "/* one line more */"; } >"$TMPDIR/wrong"
(ktap_golden wrong "$dir/$first" "$TMPDIR/wrong" >/dev/null)
ktap_ok $((! $?)) "a wrong expectation for $first is caught"
rm -f "$TMPDIR/wrong.bad"

out="$TMPDIR/report"
rm -rf "$out"
LLSEEK_TREE=$dir LLSEEK_OUT=$out BUILD="$TMPDIR/build" \
	sh "$TOP/scripts/llseek/llseek-report.sh" >"$TMPDIR/report.log" 2>&1
ktap_ok $? "llseek-report.sh on the test inputs accounts for every initialiser" ||
	ktap_diag "$(tail -n 5 "$TMPDIR/report.log")"

cat "$dir"/fops_llseek-*.report | LC_ALL=C sort >"$TMPDIR/rule-rows"
grep '^fops_llseek-' "$out/report.tsv" 2>/dev/null | LC_ALL=C sort \
	>"$TMPDIR/report-rows"
ktap_golden report-rows "$TMPDIR/rule-rows" "$TMPDIR/report-rows"
ktap_ok $? "its rows are the rule's own"

ktap_golden crosscheck.tsv "$golden" "$out/crosscheck.tsv" 2>/dev/null
ktap_ok $? "its cross-check matches fixtures/llseek/crosscheck.tsv"

# spatch runs LLSEEK_CHUNK files at a time (for its progress lines): two
# at a time, the rows are the same.
LLSEEK_CHUNK=2 LLSEEK_TREE=$dir LLSEEK_OUT="$out-chunked" BUILD="$TMPDIR/build" \
	sh "$TOP/scripts/llseek/llseek-report.sh" >"$TMPDIR/report-chunked.log" 2>&1 &&
	[ "$(ls "$TMPDIR/build/llseek/report/spatch"/chunk.* | wc -l)" -gt 1 ] &&
	ktap_golden report-chunked "$out/report.tsv" "$out-chunked/report.tsv"
ktap_ok $? "two files a spatch run give the same report" ||
	ktap_diag "$(tail -n 5 "$TMPDIR/report-chunked.log")"

pristine="${BUILD:-$TOP/build}/pristine"
macros="$dir/fops_llseek-macros.report"
if [ -f "$pristine/Makefile" ]; then
	bad=$(macro_mismatch "$macros" 2>&1)
	rc=$?
	n=$(grep -c "${tab}macro$tab" "$macros")
	[ "$rc" = 0 ] && [ "$n" -gt 0 ] && [ -z "$bad" ]
	ktap_ok $? "the $n macro rows of fops_llseek-macros.report are what the definitions in $pristine set" ||
		ktap_diag "$bad"
	# The first macro row with another llseek must be caught.
	awk -F'\t' -v OFS='\t' '$18 == "macro" && !done { $5 = "default_llseek"; done = 1 } 1' \
		"$macros" >"$TMPDIR/wrong-macros"
	bad=$(macro_mismatch "$TMPDIR/wrong-macros") && [ -n "$bad" ]
	ktap_ok $? "a macro row with another llseek than its definition is caught"
else
	ktap_skip "no kernel tree: run 'make tree'" "macro rows match their definitions"
	ktap_skip "no kernel tree: run 'make tree'" "a wrong macro row is caught"
fi
ktap_done
