#!/bin/sh
# needs: llseek-tree
# The llseek consistency fixes of patches/core (0101-0199, block
# "# llseek: consistency fixes" of the series) against their decisions:
# every row of the llseek report in the classes nonseekable-but-llseek-set,
# noop-but-uses-pos and seq-read-without-seq-lseek has exactly one row in
# coccinelle/llseek/decisions.tsv, fix or keep; a fix names a patch of the
# block (a keep names none) and every patch of the block is named; every
# patch applies alone to the pristine tree and the block applies in order
# after the no_llseek removal (0001-0065); in that tree each initialiser
# reads what its decision says (a dropped dead llseek is unset, a
# noop-but-uses-pos fix has an llseek that moves the position, a seq_file
# fix reads seq_lseek, a keep is unchanged); checkpatch --strict is clean
# but for UNKNOWN_COMMIT_ID. A dropped or doubled decision and a tree
# without the fixes must be caught.
. "$TOP/tests/host/ktap.sh"
: "${BUILD:=$TOP/build}"
. "$TOP/tests/host/llseek.sh"

heading="# llseek: consistency fixes"
removal="# llseek: drop no_llseek"
classes="nonseekable-but-llseek-set noop-but-uses-pos seq-read-without-seq-lseek"
ktap_plan 10

# rows: file, name, class and llseek of the report's rows of our classes.
rows() {
	awk -F '\t' -v cl="$classes" 'BEGIN { n = split(cl, a, " ")
			for (i = 1; i <= n; i++) want[a[i]] = 1 }
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$col["class"] in want {
			print $1 "\t" $3 "\t" $col["class"] "\t" $col["llseek"] }' \
		"$report" | LC_ALL=C sort -u
}

# undecided DECISIONS: report rows of our classes without exactly one
# fix or keep row in DECISIONS.
undecided() {
	awk -F '\t' 'FILENAME == ARGV[1] { want[$1 "\t" $2] = 1; next }
		FNR > 1 && ($3 == "fix" || $3 == "keep") { n[$1 "\t" $2]++ }
		END { for (k in want) if (n[k] != 1)
			print k " (" (n[k] ? n[k] : "no") " decisions)" }' \
		"$TMPDIR/rows" "$1" | LC_ALL=C sort
}

# ours: the decision rows of our classes, with the class and the
# pristine llseek from the report appended.
ours() {
	awk -F '\t' -v OFS='\t' 'FILENAME == ARGV[1] {
			k[$1 "\t" $2] = $3 OFS $4; next }
		FNR > 1 && ($1 "\t" $2) in k { print $0, k[$1 "\t" $2] }' \
		"$TMPDIR/rows" "$decisions"
}

# wrong TREE: decisions that TREE does not bear out.
wrong() {
	while IFS="$tab" read -r f n d p r class was; do
		vals=$(llseek_of "$1" "$f" "$n")
		[ -n "$vals" ] || { echo "$f $n: no such initialiser"; continue; }
		for v in $vals; do
			case $d:$class:$v in
			fix:nonseekable-but-llseek-set:unset) ;;
			fix:seq-read-without-seq-lseek:seq_lseek) ;;
			fix:noop-but-uses-pos:noop_llseek) echo "$f $n: still noop_llseek" ;;
			fix:noop-but-uses-pos:unset) echo "$f $n: llseek dropped" ;;
			fix:noop-but-uses-pos:*) ;;
			keep:*:"$was") ;;
			*) echo "$f $n: $d ($class) but llseek is $v" ;;
			esac
		done
	done <"$TMPDIR/ours"
}

if [ ! -f "$pristine/Makefile" ] || [ ! -f "$report" ]; then
	why="no kernel tree: run 'make tree'"
	[ -f "$pristine/Makefile" ] && why="no $report: run 'make llseek-report'"
	for c in "decisions.tsv has its header" "every row has one decision" \
		"a dropped or doubled decision is caught" \
		"fix rows name patches of the block" "each patch applies alone" \
		"the block applies after 0065" "the tree bears the decisions out" \
		"a tree without the fixes is caught" "checkpatch" \
		"patches numbered 0101-0199"; do
		ktap_skip "$why" "$c"
	done
	ktap_done
fi

llseek_decisions_header "$decisions"

rows >"$TMPDIR/rows"
left=$(undecided "$decisions")
n=$(wc -l <"$TMPDIR/rows")
[ "$n" -gt 0 ] && [ -z "$left" ]
ktap_ok $? "each of the $n rows of the three consistency classes has exactly one fix or keep decision" ||
	ktap_diag "$left"

# Without its first row of our classes, and with that row twice.
ours >"$TMPDIR/ours"
first=$(head -n 1 "$TMPDIR/ours" | cut -f1-5)
grep -vxF "$first" "$decisions" >"$TMPDIR/dropped"
{ cat "$decisions"; echo "$first"; } >"$TMPDIR/doubled"
[ -n "$first" ] && [ -n "$(undecided "$TMPDIR/dropped")" ] &&
	[ -n "$(undecided "$TMPDIR/doubled")" ]
ktap_ok $? "a decisions file with one row dropped, or doubled, is caught"

llseek_block "$heading" >"$TMPDIR/block"
bad=$(llseek_block_mismatch "$TMPDIR/block" "$TMPDIR/ours")
[ -s "$TMPDIR/block" ] && [ -z "$bad" ]
ktap_ok $? "every fix names a patch of the consistency block ($(wc -l <"$TMPDIR/block") patches) and every patch a fix" ||
	ktap_diag "$bad"

bad=$(llseek_not_alone $(cat "$TMPDIR/block"))
[ -z "$bad" ]
ktap_ok $? "each patch applies alone to the pristine tree" ||
	ktap_diag "do not apply:$bad"

tree="$TMPDIR/tree"
rc=0
llseek_tree "$tree" $(llseek_block "$removal") $(cat "$TMPDIR/block") || rc=1
ktap_ok "$rc" "the block applies in order after the no_llseek removal (0001-0065)"

bad=$(wrong "$tree")
[ "$rc" = 0 ] && [ -z "$bad" ]
ktap_ok $? "in that tree every initialiser reads what its decision says" ||
	ktap_diag "$bad"
rm -rf "$tree"

bad=$(wrong "$pristine" | grep -c .)
[ "$bad" -gt 0 ]
ktap_ok $? "the pristine tree, without the fixes, is caught ($bad rows)"

llseek_checkpatch $(cat "$TMPDIR/block")

bad=$(grep -vE '^01(0[1-9]|[1-9][0-9])-' "$TMPDIR/block")
[ -z "$bad" ]
ktap_ok $? "the block's patches are numbered 0101-0199" || ktap_diag "$bad"
ktap_done
