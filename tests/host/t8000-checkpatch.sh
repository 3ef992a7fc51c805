#!/bin/sh
# Every patch of every series passes the tree's scripts/checkpatch.pl
# --strict, one case per patch. UNKNOWN_COMMIT_ID alone is ignored: it
# needs upstream git history to look ids up, and the pristine tree is a
# tarball. FILE_PATH_CHANGES ("does MAINTAINERS need updating?") is
# ignored for a patch only when a later patch of its series updates
# MAINTAINERS: the staging moves must stay pure renames, so their
# MAINTAINERS change is a patch of its own. --no-tree, because
# checkpatch's tree checks want a git tree. TYPO_SPELLING is ignored for
# a patch whose Fixes: line quotes an upstream subject with a misspelling
# (it must be quoted as it is), and a copy of that patch without its
# Fixes: lines is checked with it. Clean results are kept by the patch's
# bytes (checkpatch.sh): the llseek tests check some of the same.
. "$TOP/tests/host/ktap.sh"
. "$TOP/tests/host/checkpatch.sh"

cp="$BUILD/pristine/scripts/checkpatch.pl"
[ -f "$cp" ] || ktap_bail "no kernel tree: run 'make tree'"
# A Fixes: line quotes the upstream subject as it is, misspellings and
# all: the patches whose Fixes: titles hold a word of the tree's
# scripts/spelling.txt, one per line (one awk for all patches).
fixes_typos() {
	awk 'NR == FNR { if (split($0, w, /[|][|]/) == 2) bad[tolower(w[1])]
			 next }
	     FNR == 1 { body = 1 }
	     /^---$/ { body = 0 }
	     body && /^Fixes: [0-9a-f]+ \("/ {
		t = tolower($0)
		sub(/^[^"]*"/, "", t)
		n = split(t, w, /[^a-z0-9_]+/)
		for (i = 1; i <= n; i++)
			if (w[i] in bad && !(FILENAME in seen)) {
				seen[FILENAME]
				print FILENAME
			}
	     }' "$BUILD/pristine/scripts/spelling.txt" "$@"
}
# "IGNORE PATCH" per patch, series by series in series order. A patch
# before the last one of its series that edits MAINTAINERS has a later
# one that does. A patch of fixes_typos is checked as it is without
# TYPO_SPELLING, and its copy without the Fixes: lines with it.
mkdir -p "$TMPDIR/no-fixes"
for s in "$TOP"/patches/*/series; do
	d=$(dirname "$s")
	list=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$s")
	last=$(cd "$d" && grep -l '^+++ b/MAINTAINERS$' $list 2>/dev/null | tail -n 1)
	later=${last:+,FILE_PATH_CHANGES}
	typos=" $(cd "$d" && fixes_typos $list | tr '\n' ' ')"
	for p in $list; do
		[ "$p" != "$last" ] || later=
		case $typos in
		*" $p "*)
			echo "UNKNOWN_COMMIT_ID$later,TYPO_SPELLING $d/$p"
			sed '/^Fixes: /d' "$d/$p" >"$TMPDIR/no-fixes/$p"
			echo "UNKNOWN_COMMIT_ID$later $TMPDIR/no-fixes/$p"
			;;
		*) echo "UNKNOWN_COMMIT_ID$later $d/$p" ;;
		esac
	done
done >"$TMPDIR/list"
[ -s "$TMPDIR/list" ] || ktap_bail "no series under patches/"
ktap_plan $(($(wc -l <"$TMPDIR/list") + 1))
checkpatch_run <"$TMPDIR/list"
while read -r ignore p; do
	out=$(checkpatch_result "$ignore" "$p")
	[ $? = 0 ] && [ -z "$out" ]
	case $p in
	"$TMPDIR"/no-fixes/*) name="${p#"$TMPDIR"/no-fixes/} without its Fixes: lines" ;;
	*) name=${p#"$TOP"/patches/} ;;
	esac
	ktap_ok $? "checkpatch --strict: $name" || ktap_diag "$out"
done <"$TMPDIR/list"
# The check can fail: a line over 100 columns and a trailing space.
long=$(printf 'x%.0s' $(seq 1 120))
cat >"$TMPDIR/bad.patch" <<EOT
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: Lab <lab@example.org>
Subject: [PATCH] lab: a deliberately bad patch

Signed-off-by: Lab <lab@example.org>
---
 lib/bad.c | 1 +
 1 file changed, 1 insertion(+)

diff --git a/lib/bad.c b/lib/bad.c
--- a/lib/bad.c
+++ b/lib/bad.c
@@ -1,1 +1,2 @@
 int a;
+int $long; 
EOT
(cd "$TMPDIR" && perl "$cp" --strict --no-tree -q "$TMPDIR/bad.patch" >/dev/null 2>&1)
[ $? != 0 ]
ktap_ok $? "a bad patch is flagged"
ktap_done
