#!/bin/sh
# needs: llseek-tree
# The no_llseek removal series of patches/core is exactly what
# scripts/llseek/llseek-regen.sh makes from the pristine tree (nobody hand-edits
# a generated patch, and the generator is deterministic), and it holds:
# every patch applies alone to the pristine tree, the series applies in
# order and leaves no no_llseek outside Documentation, and checkpatch
# --strict finds nothing but the commit ids it cannot look up without
# upstream history (UNKNOWN_COMMIT_ID). A patch changed by one byte must
# be caught.
. "$TOP/tests/host/ktap.sh"
. "$TOP/tests/host/llseek.sh"
ktap_plan 7

heading="# llseek: drop no_llseek"
if ! command -v spatch >/dev/null || [ ! -f "$pristine/Makefile" ]; then
	why="spatch absent"
	[ -f "$pristine/Makefile" ] || why="no kernel tree: run 'make tree'"
	for c in "regen runs" "patches match" "series block matches" \
		"a changed patch is caught" "each patch applies alone" \
		"the series applies in order" "checkpatch"; do
		ktap_skip "$why" "$c"
	done
	ktap_done
fi

# patches DIR: the generated patch files of DIR, sorted.
patches() {
	(cd "$1" && ls | grep -E '^[0-9]{4}-llseek-.*\.patch$' | LC_ALL=C sort)
}

# block SERIES: the "# llseek: drop no_llseek" block of a series file.
block() {
	awk -v h="$heading" '$0 == h { on = 1 } on && /^$/ { exit } on' "$1"
}

# compare A B: the generated patches of directories A and B are the same
# files with the same bytes; prints the differences' head.
compare() {
	patches "$1" >"$TMPDIR/list-a"
	patches "$2" >"$TMPDIR/list-b"
	ktap_golden patch-list "$TMPDIR/list-a" "$TMPDIR/list-b" || return 1
	_rc=0
	for p in $(cat "$TMPDIR/list-a"); do
		ktap_golden "$p" "$1/$p" "$2/$p" || _rc=1
	done
	return $_rc
}

regen="$TMPDIR/regen"
rm -rf "$regen"
mkdir -p "$regen"
BUILD="$BUILD" sh "$TOP/scripts/llseek/llseek-regen.sh" "$regen" >"$TMPDIR/regen.log" 2>&1
ktap_ok $? "llseek-regen.sh regenerates the series into TMPDIR" ||
	ktap_diag "$(tail -n 5 "$TMPDIR/regen.log")"

compare "$core" "$regen"
ktap_ok $? "patches/core holds exactly the regenerated llseek patches ($(patches "$regen" | wc -l))"

block "$core/series" >"$TMPDIR/series-core"
block "$regen/series" >"$TMPDIR/series-regen"
[ -s "$TMPDIR/series-core" ] &&
	ktap_golden series-block "$TMPDIR/series-core" "$TMPDIR/series-regen"
ktap_ok $? "patches/core/series has the regenerated llseek block"

tampered="$TMPDIR/tampered"
rm -rf "$tampered"
cp -r "$regen" "$tampered"
one=$(patches "$tampered" | head -n 1)
awk '!done && /^-\t/ { sub(/^-\t/, "-    "); done = 1 } 1' "$regen/$one" \
	>"$tampered/$one"
(compare "$regen" "$tampered" >/dev/null)
ktap_ok $((! $?)) "a patch with one changed line is caught"

bad=$(llseek_not_alone $(patches "$core"))
[ -n "$(patches "$core")" ] && [ -z "$bad" ]
ktap_ok $? "each patch applies alone to the pristine tree" ||
	ktap_diag "do not apply:$bad"

tree="$TMPDIR/tree"
rc=0
llseek_tree "$tree" $(llseek_block "$heading") || rc=1
if [ "$rc" = 0 ]; then
	if ! left=$(llseek_naming "$tree" no_llseek); then
		ktap_diag "llseek_naming failed on $tree"
		rc=1
	elif [ -n "$left" ]; then
		ktap_diag "no_llseek left in: $left"
		rc=1
	fi
fi
grep -qx '#define no_llseek NULL' "$pristine/include/linux/fs.h" ||
	{ ktap_diag "the pristine include/linux/fs.h changed"; rc=1; }
ktap_ok "$rc" "the series applies in order, no no_llseek is left outside Documentation, the pristine tree is unchanged"
rm -rf "$tree"

llseek_checkpatch $(patches "$core")
ktap_done
