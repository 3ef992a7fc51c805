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
# must match tests/host/fixtures/llseek/crosscheck.tsv.
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
ktap_plan $(($(echo "$expected" | wc -l) + 4))

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
ktap_done
