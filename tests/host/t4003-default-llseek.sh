#!/bin/sh
# needs: llseek-tree
# The default_llseek conversions of patches/core (0201-0299, block
# "# llseek: default_llseek conversions" of the series) against their
# decisions: every default-llseek-unused-pos row of the llseek report has
# a row in coccinelle/llseek/decisions.tsv; a "fix" names a patch of the
# block and a "keep" names none; every patch applies alone to the pristine
# tree, and the block applies in order after the no_llseek removal
# (0001-0065); in that result every fixed initialiser reads noop_llseek
# (or sets no llseek at all, or is gone because its patch deletes it as
# dead code, as 0210 does hostap's aux_dump fallback) and every kept one
# still reads default_llseek; checkpatch --strict is clean but for
# UNKNOWN_COMMIT_ID; the section's records in expected-lseek-changes are
# accepted by scripts/lab/lseek-diff.sh against console-style (CR LF)
# records. The checks must catch a dropped decision and an unconverted
# initialiser.
. "$TOP/tests/host/ktap.sh"
: "${BUILD:=$TOP/build}"
. "$TOP/tests/host/llseek.sh"

heading="# llseek: default_llseek conversions"
class=default-llseek-unused-pos
ktap_plan 10

# unused_rows REPORT: file and name of the report's rows of our class.
unused_rows() {
	awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "class") c = i; next }
		c && $c == "'$class'" { print $1 "\t" $3 }' "$1" | LC_ALL=C sort -u
}

# missing REPORT DECISIONS: class rows of REPORT without a fix/keep row.
missing() {
	unused_rows "$1" >"$TMPDIR/want"
	awk -F '\t' 'NR > 1 && ($3 == "fix" || $3 == "keep") { print $1 "\t" $2 }' \
		"$2" | LC_ALL=C sort -u >"$TMPDIR/have"
	LC_ALL=C comm -23 "$TMPDIR/want" "$TMPDIR/have"
}

# ours DECISIONS: the rows of DECISIONS for the class rows of the report
# (or, without a report, the rows naming a 02NN patch).
ours() {
	if [ -f "$report" ]; then
		unused_rows "$report" >"$TMPDIR/keys"
		awk -F '\t' 'FILENAME == ARGV[1] { k[$1 "\t" $2] = 1; next }
			FNR > 1 && ($1 "\t" $2) in k' "$TMPDIR/keys" "$1"
	else
		awk -F '\t' 'FNR > 1 && $4 ~ /^02[0-9][0-9]-/' "$1"
	fi
}

# deletes PATCH FILE NAME: PATCH's hunks for FILE delete the line that
# opens the initialiser NAME.
deletes() {
	awk -v f="a/$2" -v n="$3" '/^diff --git / { on = ($3 == f); next }
		on && $0 ~ "^-.*struct (file_operations|proc_ops) " n "( |$)" { hit = 1 }
		END { exit !hit }' "$core/$1" 2>/dev/null
}

# wrong TREE DECISIONS: rows whose initialiser in TREE does not match
# the decision (fix: noop_llseek or unset, or no initialiser when the
# fix's patch deletes it; keep: default_llseek).
wrong() {
	ours "$2" | while IFS="$tab" read -r f n d p r; do
		vals=$(llseek_of "$1" "$f" "$n")
		if [ -z "$vals" ]; then
			[ "$d" = fix ] && deletes "$p" "$f" "$n" && continue
			echo "$f $n: no such initialiser"
			continue
		fi
		for v in $vals; do
			case $d:$v in
			fix:noop_llseek | fix:unset | keep:default_llseek) ;;
			*) echo "$f $n: $d but llseek is $v" ;;
			esac
		done
	done
}

if [ ! -f "$pristine/Makefile" ]; then
	for c in "decisions.tsv has its header" "every report row has a decision" \
		"a dropped decision is caught" "fix rows name patches of the block" \
		"each patch applies alone" "the block applies after 0065" \
		"fixed initialisers read noop_llseek" "an unconverted initialiser is caught" \
		"checkpatch" "expected-lseek-changes"; do
		ktap_skip "no kernel tree: run 'make tree'" "$c"
	done
	ktap_done
fi

llseek_decisions_header "$decisions"

if [ -f "$report" ]; then
	left=$(missing "$report" "$decisions")
	n=$(unused_rows "$report" | wc -l)
	[ "$n" -gt 0 ] && [ -z "$left" ]
	ktap_ok $? "every $class row of the report ($n) has a fix or keep decision" ||
		ktap_diag "no decision: $left"
	# A decisions file without its first row of our class must fail.
	first=$(ours "$decisions" | head -n 1 | cut -f1,2)
	grep -vF "$first" "$decisions" >"$TMPDIR/dropped"
	[ -n "$first" ] && [ -n "$(missing "$report" "$TMPDIR/dropped")" ]
	ktap_ok $? "a decisions file without one row is caught"
else
	ktap_skip "no $report: run 'make llseek-report'" "every report row has a decision"
	ktap_skip "no $report: run 'make llseek-report'" "a dropped decision is caught"
fi

ours "$decisions" >"$TMPDIR/ours"
llseek_block "$heading" >"$TMPDIR/block"
bad=$(llseek_block_mismatch "$TMPDIR/block" "$TMPDIR/ours"
	for p in $(cat "$TMPDIR/block"); do
		case $p in 02[0-9][0-9]-*) ;; *) echo "$p: not numbered 0201-0299" ;; esac
	done)
[ -s "$TMPDIR/block" ] && [ -z "$bad" ]
ktap_ok $? "every fix names a patch of the default_llseek conversions block ($(wc -l <"$TMPDIR/block") patches) and every patch a fix" ||
	ktap_diag "$bad"

bad=$(llseek_not_alone $(cat "$TMPDIR/block"))
[ -s "$TMPDIR/block" ] && [ -z "$bad" ]
ktap_ok $? "each patch applies alone to the pristine tree" ||
	ktap_diag "do not apply:$bad"

tree="$TMPDIR/tree"
rc=0
llseek_tree "$tree" $(llseek_block "# llseek: drop no_llseek") $(cat "$TMPDIR/block") || rc=1
ktap_ok "$rc" "the block applies in order after the no_llseek removal (0001-0065)"

if [ "$rc" = 0 ]; then
	bad=$(wrong "$tree" "$decisions")
	[ -s "$TMPDIR/ours" ] && [ -z "$bad" ]
	ktap_ok $? "in the result every fix reads noop_llseek (or none, or its patch deletes it) and every keep default_llseek ($(grep -c "${tab}fix$tab" "$TMPDIR/ours") fix, $(grep -c "${tab}keep$tab" "$TMPDIR/ours") keep)" ||
		ktap_diag "$bad"
	# Without the block (the pristine tree) every fix must be flagged.
	nfix=$(grep -c "${tab}fix$tab" "$TMPDIR/ours")
	nbad=$(wrong "$pristine" "$decisions" | grep -c ': fix but llseek is default_llseek$')
	[ "$nfix" -gt 0 ] && [ "$nbad" = "$nfix" ]
	ktap_ok $? "an unconverted initialiser is caught (all $nfix on the pristine tree)"
else
	ktap_skip "the block does not apply" "fixed initialisers read noop_llseek"
	ktap_skip "the block does not apply" "an unconverted initialiser is caught"
fi
rm -rf "$tree"

llseek_checkpatch $(cat "$TMPDIR/block")

# The section's records: a baseline record per path with default_llseek's
# SEEK_SET 4096 answer, the expected one on the patched side, both with
# the console's CR; lseek-diff.sh must count them all as expected.
# The section runs from its heading to the next empty line.
sect=$(awk '/^# default_llseek conversions/ { on = 1; next }
	on && /^$/ { exit }
	on && /^\// { print }' "$core/expected-lseek-changes" 2>/dev/null)
lab="$TMPDIR/lab"
rm -rf "$lab"
mkdir -p "$lab/results/baseline/p" "$lab/results/patched/p" \
	"$lab/build/kernel/patched" "$lab/top/patches/core" "$lab/top/scripts/lab"
cp "$TOP/scripts/lab/lseek-diff.sh" "$TOP/scripts/lab/lib.sh" "$lab/top/scripts/lab/"
printf '%s\n' "$sect" | grep -v '^$' >"$lab/top/patches/core/expected-lseek-changes"
echo "core/0203-x.patch" >"$lab/build/kernel/patched/applied"
printf '%s\n' "$sect" | awk 'BEGIN { FS = OFS = "\t" } NF == 6 { $6 = 4096; printf "%s\r\n", $0 }' \
	>"$lab/results/baseline/p/lseek.tsv"
printf '%s\n' "$sect" | awk 'NF { printf "%s\r\n", $0 }' >"$lab/results/patched/p/lseek.tsv"
n=$(printf '%s\n' "$sect" | grep -c .)
got=$(TOP="$lab/top" BUILD="$lab/build" RESULTS="$lab/results" \
	sh "$lab/top/scripts/lab/lseek-diff.sh" p 2>&1)
[ "$n" -gt 0 ] && [ "$got" = "$n expected change(s), nothing else differs" ]
ktap_ok $? "lseek-diff.sh accepts the $n record(s) of the section as expected changes" ||
	ktap_diag "$got"
rm -rf "$lab"
ktap_done
