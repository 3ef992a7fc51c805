#!/bin/sh
# alone.sh [SUBSYS...]: each subsystem's patches (all, or those named)
# apply alone onto the pristine tree, in the map's order: git apply
# --cached onto a private index of build/postings/pristine.git, so no
# file is written. One line per subsystem, "ok NAME" or "FAIL NAME: ...";
# a failing patch is tried again after each earlier patch of another
# subsystem that touches one of its files, and the one that makes it
# apply is named: group the two subsystems in patches/subsystems.tsv.
# Exit status 1 when one failed.
. "$(dirname "$0")/../lab/lib.sh"
here=$(dirname "$0")
"$here/pristine-git.sh" "$BUILD/postings/alone-work" || exit 1
rm -rf "$BUILD/postings/alone-work"
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_DIR="$BUILD/postings/pristine.git"
export GIT_INDEX_FILE="${TMPDIR:-/tmp}/alone-index.$$"
trap 'rm -f "$GIT_INDEX_FILE" "$GIT_INDEX_FILE.err"' EXIT
[ $# -gt 0 ] || set -- $("$here/subsys.sh" list)
order=$(for s in core staging-move drivers; do
	series_patches "$s" | while read -r p _; do echo "$s/$p"; done; done)
rc=0
for s; do
	list=$("$here/subsys.sh" patches "$s") || exit 1
	git read-tree pristine || die "cannot read the pristine tree"
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
		git read-tree pristine
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
