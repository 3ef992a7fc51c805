#!/bin/sh
# patches/subsystems.tsv: every patch of every series in exactly one
# subsystem and no other name; each subsystem's patches apply alone onto
# the pristine tree (scripts/postings/alone.sh), and a map that splits a
# patch from the one it needs is caught naming it; the build dependencies
# git am cannot see (symbol-deps.sh) are exactly patches/subsystem-deps.tsv.
. "$TOP/tests/host/ktap.sh"
ktap_plan 7
S="$TOP/scripts/postings/subsys.sh"
map="$TOP/patches/subsystems.tsv"

out=$(sh "$S" check 2>&1)
ktap_ok $? "every patch of every series is in exactly one subsystem" || ktap_diag "$out"

# A doctored map: one patch dropped, one twice, one that is no patch.
first=$(grep -v '^#' "$map" | head -n 1 | cut -f2)
{ grep -v "	$first\$" "$map"; printf 'media\tcore/0007-llseek-drivers-auxdisplay-drop-no_llseek.patch\n';
  printf 'media\tcore/9999-no-such.patch\n'; } >"$TMPDIR/bad.tsv"
SUBSYS_MAP="$TMPDIR/bad.tsv" sh "$S" check >/dev/null 2>"$TMPDIR/err"
rc=$?
ktap_diag "$(cat "$TMPDIR/err")"
[ $rc -ne 0 ] && grep -q "patch \"$first\" belongs to no subsystem" "$TMPDIR/err" &&
	grep -q 'core/0007-llseek-drivers-auxdisplay-drop-no_llseek.patch" is already in subsystem auxdisplay' "$TMPDIR/err" &&
	grep -q '"core/9999-no-such.patch" is not a patch of any series' "$TMPDIR/err"
ktap_ok $? "a map missing a patch, naming one twice or naming no patch is refused, each named"

sh "$S" patches no-such >/dev/null 2>"$TMPDIR/err"
[ $? -ne 0 ] && grep -q "unknown subsystem 'no-such' (known: .*media" "$TMPDIR/err"
ktap_ok $? "an unknown subsystem is refused with the known names"

start=$(date +%s)
out=$(sh "$TOP/scripts/postings/alone.sh" 2>&1)
ktap_ok $? "every subsystem's patches apply alone onto the pristine tree" ||
	ktap_diag "$(echo "$out" | grep -v '^ok')"
ktap_diag "$(echo "$out" | grep -c '^ok') subsystems in $(($(date +%s) - start)) s"

# affs apart from appletalk: appletalk's Kconfig patch needs affs's.
sed 's/^staging\t\(.*-affs-\)/affs\t\1/' "$map" >"$TMPDIR/split.tsv"
out=$(SUBSYS_MAP="$TMPDIR/split.tsv" sh "$TOP/scripts/postings/alone.sh" staging 2>&1)
[ $? -ne 0 ] && echo "$out" | grep -q "^FAIL staging: staging-move/0202-.* it needs staging-move/0102-staging-affs-build-from-drivers-staging.patch of subsystem affs: group the two"
ktap_ok $? "a subsystem whose patch needs another subsystem's is caught, naming the patch" ||
	ktap_diag "$out"

sh "$TOP/scripts/postings/symbol-deps.sh" >"$TMPDIR/deps" &&
	grep -v '^#' "$TOP/patches/subsystem-deps.tsv" >"$TMPDIR/deps.want" &&
	ktap_golden subsystem-deps "$TMPDIR/deps.want" "$TMPDIR/deps"
ktap_ok $? "patches/subsystem-deps.tsv is what symbol-deps.sh finds"

# Without it, media's and vfs's maps would let 0065 go first: moving
# 0027 (a no_llseek user) into vfs must drop the vfs->media line.
sed 's/^media\t\(core\/0027-\)/vfs\t\1/' "$map" >"$TMPDIR/moved.tsv"
SUBSYS_MAP="$TMPDIR/moved.tsv" sh "$TOP/scripts/postings/symbol-deps.sh" >"$TMPDIR/deps2"
grep -q "^vfs	media	" "$TMPDIR/deps" && ! grep -q "^vfs	media	" "$TMPDIR/deps2"
ktap_ok $? "symbol-deps.sh follows the map: a removed macro's users in other subsystems"
ktap_done
