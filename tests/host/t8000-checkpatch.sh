#!/bin/sh
# Every patch of every series passes the tree's scripts/checkpatch.pl
# --strict, one case per patch. UNKNOWN_COMMIT_ID alone is ignored: it
# needs upstream git history to look ids up, and the pristine tree is a
# tarball. FILE_PATH_CHANGES ("does MAINTAINERS need updating?") is
# ignored for a patch only when a later patch of its series updates
# MAINTAINERS: the staging moves must stay pure renames, so their
# MAINTAINERS change is a patch of its own. --no-tree, because
# checkpatch's tree checks want a git tree. Clean results are kept by the
# patch's bytes (checkpatch.sh): the llseek tests check some of the same.
. "$TOP/tests/host/ktap.sh"
. "$TOP/tests/host/checkpatch.sh"

cp="$BUILD/pristine/scripts/checkpatch.pl"
[ -f "$cp" ] || ktap_bail "no kernel tree: run 'make tree'"
# "IGNORE PATCH" per patch, series by series in series order. A patch
# before the last one of its series that edits MAINTAINERS has a later
# one that does.
for s in "$TOP"/patches/*/series; do
	d=$(dirname "$s")
	list=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$s")
	last=$(cd "$d" && grep -l '^+++ b/MAINTAINERS$' $list 2>/dev/null | tail -n 1)
	later=${last:+,FILE_PATH_CHANGES}
	for p in $list; do
		[ "$p" != "$last" ] || later=
		echo "UNKNOWN_COMMIT_ID$later $d/$p"
	done
done >"$TMPDIR/list"
[ -s "$TMPDIR/list" ] || ktap_bail "no series under patches/"
ktap_plan $(($(wc -l <"$TMPDIR/list") + 1))
checkpatch_run <"$TMPDIR/list"
while read -r ignore p; do
	out=$(checkpatch_result "$ignore" "$p")
	[ $? = 0 ] && [ -z "$out" ]
	ktap_ok $? "checkpatch --strict: ${p#"$TOP"/patches/}" || ktap_diag "$out"
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
