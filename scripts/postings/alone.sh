#!/bin/sh
# alone.sh [SUBSYS...]: each subsystem's patches (all, or those named)
# apply alone onto the pristine tree, in the map's order: git apply
# --cached onto a private index, so no file is written. The index holds
# only the pristine files some patch of some series names: git apply
# reads no other, and hashing these few hundred takes a second where
# committing the whole tree (pristine-git.sh, for make postings) takes
# 25 s. One line per subsystem, "ok NAME" or "FAIL NAME: ...";
# a failing patch is tried again after each earlier patch of another
# subsystem that touches one of its files, and the one that makes it
# apply is named: group the two subsystems in patches/subsystems.tsv.
# Exit status 1 when one failed.
. "$(dirname "$0")/../lab/lib.sh"
here=$(dirname "$0")
need_tree
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_DIR
GIT_DIR=$(mktemp -d "${TMPDIR:-/tmp}/alone.XXXXXX") ||
	die "cannot make a scratch directory"
export GIT_INDEX_FILE="$GIT_DIR/alone-index"
trap 'rm -rf "$GIT_DIR"' EXIT
# Every subsystem's patches, read once (a call of subsys.sh per
# subsystem took most of the time).
all=$("$here/subsys.sh" all) || exit 1
[ $# -gt 0 ] || set -- $("$here/subsys.sh" list)
# patches_of NAME: NAME's patches in apply order, as subsys.sh patches
# gives them (which names the known ones when NAME is none).
patches_of() {
	printf '%s\n' "$all" | awk -F'\t' -v s="$1" '$1 == s { print $2; f = 1 } END { exit !f }' ||
		"$here/subsys.sh" patches "$1"
}
# of SERIES/PATCH: the subsystem of a patch.
of() {
	printf '%s\n' "$all" | awk -F'\t' -v p="$1" '$2 == p { print $1; exit }'
}
order=$(for s in core staging-move drivers; do
	series_patches "$s" | while read -r p _; do echo "$s/$p"; done; done)
# Every path a patch names (old and new, a rename's both ends) that is a
# file of the pristine tree.
# shellcheck disable=SC2086 # order is one SERIES/PATCH a word
git init -q --bare "$GIT_DIR" &&
	(cd "$TOP/patches" && sed -n 's|^diff --git a/\(.*\) b/\(.*\)$|\1\n\2|p
			s|^--- a/\([^\t]*\).*|\1|p; s|^+++ b/\([^\t]*\).*|\1|p
			s/^\(rename\|copy\) \(from\|to\) //p' $order) |
	sort -u | (cd "$PRISTINE" && while read -r f; do
		[ -f "$f" ] || [ -L "$f" ] && echo "$f"; done) |
	git --work-tree="$PRISTINE" update-index --add --stdin &&
	pristine=$(git write-tree) || die "cannot hash the pristine files the patches name"
rc=0
for s; do
	list=$(patches_of "$s") || exit 1
	git read-tree "$pristine" || die "cannot read the pristine files"
	bad=
	# The subsystem's patches in one git apply, which applies them in
	# order or leaves the index as it was; only when that fails, one at
	# a time, to name the one that does not apply.
	# shellcheck disable=SC2046 # one patch path a word
	[ -z "$list" ] || git apply --cached $(for p in $list; do
		echo "$TOP/patches/$p"; done) 2>/dev/null ||
		for p in $list; do
			git apply --cached "$TOP/patches/$p" 2>"$GIT_INDEX_FILE.err" && continue
			bad=$p
			break
		done
	if [ -z "$bad" ]; then
		echo "ok $s"
		continue
	fi
	rc=1
	need=
	# The patches before it, of other subsystems, that name one of its
	# files ("--- a/" or "+++ b/"), in order: one awk reads them all.
	printf '%s\n' "$list" >"$GIT_DIR/ours"
	# shellcheck disable=SC2046 # one SERIES/PATCH a word
	cands=$(cd "$TOP/patches" && awk '
		function named(l) { return l ~ /^--- a\// || l ~ /^\+\+\+ b\// }
		FILENAME == ARGV[1] { ours[$0] = 1; next }
		FILENAME == ARGV[2] { if (named($0)) files[substr($0, 7)] = 1; next }
		FNR == 1 { order[++n] = FILENAME }
		named($0) && (substr($0, 7) in files) && !(FILENAME in ours) { hit[FILENAME] = 1 }
		END { for (i = 1; i <= n; i++) if (order[i] in hit) print order[i] }' \
		"$GIT_DIR/ours" "$bad" $(echo "$order" | sed "\|^$bad\$|,\$d"))
	for q in $cands; do
		# q with the patches of its own subsystem before it, then ours.
		git read-tree "$pristine"
		for p in $(patches_of "$(of "$q")" | sed "\|^$q\$|q"); do
			git apply --cached "$TOP/patches/$p" 2>/dev/null || continue 2
		done
		for p in $list; do
			git apply --cached "$TOP/patches/$p" 2>/dev/null || break
			[ "$p" = "$bad" ] && { need=$q; break 2; }
		done
	done
	echo "FAIL $s: $bad does not apply alone ($(head -n 1 "$GIT_INDEX_FILE.err"))${need:+; it needs $need of subsystem $(of "$need"): group the two}"
done
exit $rc
