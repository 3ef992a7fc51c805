#!/bin/sh
# Every patch of every series passes the tree's scripts/checkpatch.pl
# --strict, one case per patch. UNKNOWN_COMMIT_ID alone is ignored: it
# needs upstream git history to look ids up, and the pristine tree is a
# tarball. FILE_PATH_CHANGES ("does MAINTAINERS need updating?") is
# ignored for a patch only when a later patch of its series updates
# MAINTAINERS: the staging moves must stay pure renames, so their
# MAINTAINERS change is a patch of its own. --no-tree, because
# checkpatch's tree checks want a git tree.
. "$TOP/tests/host/ktap.sh"

cp="$BUILD/pristine/scripts/checkpatch.pl"
[ -f "$cp" ] || ktap_bail "no kernel tree: run 'make tree'"
patches=$(for s in "$TOP"/patches/*/series; do
	d=$(dirname "$s")
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$s" | sed "s|^|$d/|"
done)
[ -n "$patches" ] || ktap_bail "no series under patches/"
ktap_plan $(($(echo "$patches" | wc -l) + 1))
# later_maintainers PATCH: a later patch of PATCH's series edits MAINTAINERS.
later_maintainers() {
	d=$(dirname "$1")
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$d/series" |
		sed -n "\|^$(basename "$1")\$|,\$p" | sed 1d | while read -r q; do
			grep -q '^+++ b/MAINTAINERS$' "$d/$q" && echo yes && break
		done | grep -q yes
}
for p in $patches; do
	ignore=UNKNOWN_COMMIT_ID
	later_maintainers "$p" && ignore=$ignore,FILE_PATH_CHANGES
	out=$(cd "$TMPDIR" && perl "$cp" --strict --no-tree -q \
		--ignore "$ignore" "$p" 2>&1)
	[ $? = 0 ] && [ -z "$out" ]
	ktap_ok $? "checkpatch --strict: ${p#"$TOP"/patches/}" || ktap_diag "$out"
done
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
