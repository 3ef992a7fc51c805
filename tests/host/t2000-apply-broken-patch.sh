#!/bin/sh
# scripts/lab/apply.sh on a small stand-in tree: a good patch applies without
# writing through the hard links into the pristine tree; a patch that does
# not apply stops everything with one line naming series, patch file, file
# and hunk, keeps the patch output in a log, and leaves no patched tree
# that looks finished.
. "$TOP/tests/host/ktap.sh"
ktap_plan 7

w="$TMPDIR/t2000"
rm -rf "$w"
mkdir -p "$w/top/patches/core" "$w/top/patches/staging-move" \
	"$w/top/patches/drivers" "$w/build/pristine"
printf 'one\ntwo\nthree\n' >"$w/build/pristine/hello.c"
echo "all:" >"$w/build/pristine/Makefile"
echo test >"$w/build/pristine/.bklfree-extracted"
cat >"$w/top/patches/core/0001-hello-good.patch" <<'EOT'
Subject: [PATCH] hello: change two

--- a/hello.c
+++ b/hello.c
@@ -1,3 +1,3 @@
 one
-two
+TWO
 three
EOT
cat >"$w/top/patches/core/0002-hello-broken.patch" <<'EOT'
Subject: [PATCH] hello: a patch against text that is not there

--- a/hello.c
+++ b/hello.c
@@ -1,3 +1,3 @@
 uno
-dos
+DOS
 tres
EOT
for s in staging-move drivers; do : >"$w/top/patches/$s/series"; done

apply() {
	TOP="$w/top" BUILD="$w/build" KTREES="$w/build/kernel" sh "$TOP/scripts/lab/apply.sh" "$@"
}

echo 0001-hello-good.patch >"$w/top/patches/core/series"
apply core >"$w/out" 2>&1
ktap_ok $? "a good series applies"
grep -qx TWO "$w/build/kernel/patched/src/hello.c" &&
	grep -qx two "$w/build/pristine/hello.c"
ktap_ok $? "the patched copy changed and the pristine tree did not"

printf '# core\n0001-hello-good.patch\n0002-hello-broken.patch\n' \
	>"$w/top/patches/core/series"
apply core >"$w/out" 2>"$w/err"
ktap_ok $((! $?)) "a series with a broken patch fails"
ktap_diag "error line: $(cat "$w/err")"
[ "$(wc -l <"$w/err")" -eq 1 ] &&
	grep -q "^error: series 'core': patch 'patches/core/0002-hello-broken.patch' does not apply: file hello.c: Hunk #1 FAILED" "$w/err"
ktap_ok $? "one error line names series, patch file, file and hunk"
log=$(sed -n 's/.*; log: //p' "$w/err")
[ -s "$log" ] && grep -q FAILED "$log"
ktap_ok $? "the patch output is kept in the named log"
[ ! -e "$w/build/kernel/patched/src.new" ] &&
	grep -qx TWO "$w/build/kernel/patched/src/hello.c" &&
	[ "$(cat "$w/build/kernel/patched/applied")" = core/0001-hello-good.patch ]
ktap_ok $? "the previous patched tree is kept whole"

echo 0003-missing.patch >"$w/top/patches/core/series"
apply core 2>"$w/err" >/dev/null
[ $? -ne 0 ] && grep -q "lists 'patches/core/0003-missing.patch', which does not exist" "$w/err"
ktap_ok $? "a series naming a missing patch file is refused"
ktap_done
