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
[ $# -gt 0 ] || set -- $("$here/subsys.sh" list)
order=$(for s in core staging-move drivers; do
	series_patches "$s" | while read -r p _; do echo "$s/$p"; done; done)
# Every path a patch names (old and new, a rename's both ends) that is a
# file of the pristine tree.
git init -q --bare "$GIT_DIR" &&
	for p in $order; do
		sed -n 's|^diff --git a/\(.*\) b/\(.*\)$|\1\n\2|p
			s|^--- a/\([^\t]*\).*|\1|p; s|^+++ b/\([^\t]*\).*|\1|p
			s/^\(rename\|copy\) \(from\|to\) //p' "$TOP/patches/$p"
	done | sort -u | (cd "$PRISTINE" && while read -r f; do
		[ -f "$f" ] || [ -L "$f" ] && echo "$f"; done) |
	git --work-tree="$PRISTINE" update-index --add --stdin &&
	pristine=$(git write-tree) || die "cannot hash the pristine files the patches name"
rc=0
for s; do
	list=$("$here/subsys.sh" patches "$s") || exit 1
	git read-tree "$pristine" || die "cannot read the pristine files"
	bad=
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
	files=$(sed -n 's|^--- a/||p; s|^+++ b/||p' "$TOP/patches/$bad" | sort -u)
	need=
	for q in $(echo "$order" | sed "\|^$bad\$|,\$d"); do
		echo "$list" | grep -qFx "$q" && continue
		sed -n 's|^--- a/||p; s|^+++ b/||p' "$TOP/patches/$q" | grep -qFx "$files" || continue
		# q with the patches of its own subsystem before it, then ours.
		git read-tree "$pristine"
		for p in $("$here/subsys.sh" patches "$("$here/subsys.sh" of "$q")" | sed "\|^$q\$|q"); do
			git apply --cached "$TOP/patches/$p" 2>/dev/null || continue 2
		done
		for p in $list; do
			git apply --cached "$TOP/patches/$p" 2>/dev/null || break
			[ "$p" = "$bad" ] && { need=$q; break 2; }
		done
	done
	echo "FAIL $s: $bad does not apply alone ($(head -n 1 "$GIT_INDEX_FILE.err"))${need:+; it needs $need of subsystem $("$here/subsys.sh" of "$need"): group the two}"
done
exit $rc
