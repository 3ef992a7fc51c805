#!/bin/sh
# make apply SUBSYS= and the recorded selection, on a stand-in tree (as
# t2000): apply.sh --subsys takes one subsystem's patches of every series,
# a later apply with no argument (make build) keeps that selection, "all"
# takes every series, an unknown subsystem is refused; the Makefile hands
# SUBSYS and SERIES on so; profiles.sh picks the profiles that exercised a
# subsystem's files (make boot SUBSYS=).
. "$TOP/tests/host/ktap.sh"
ktap_plan 9

w="$TMPDIR/t2005"
rm -rf "$w"
mkdir -p "$w/top/patches/core" "$w/top/patches/staging-move" \
	"$w/top/patches/drivers" "$w/top/scripts" "$w/build/pristine"
cp -r "$TOP/scripts/lab" "$TOP/scripts/postings" "$w/top/scripts/"
printf 'one\ntwo\nthree\n' >"$w/build/pristine/a.c"
printf 'uno\ndos\ntres\n' >"$w/build/pristine/b.c"
echo "all:" >"$w/build/pristine/Makefile"
echo test >"$w/build/pristine/.bklfree-extracted"
mk() { # mk SERIES/PATCH FILE OLD NEW
	printf -- '--- a/%s\n+++ b/%s\n@@ -2 +2 @@\n-%s\n+%s\n' "$2" "$2" "$3" "$4" >"$w/top/patches/$1"
	echo "${1#*/}" >>"$w/top/patches/${1%%/*}/series"
}
mk core/0001-a.patch a.c two TWO
mk core/0002-b.patch b.c dos DOS
mk drivers/0001-a.patch a.c TWO 2
: >"$w/top/patches/staging-move/series"
printf 'x\tcore/0001-a.patch\ny\tcore/0002-b.patch\nx\tdrivers/0001-a.patch\n' >"$w/top/patches/subsystems.tsv"
apply() { TOP="$w/top" BUILD="$w/build" KTREES="$w/build/kernel" sh "$w/top/scripts/lab/apply.sh" "$@"; }
applied() { tr '\n' ' ' <"$w/build/kernel/patched/applied"; }

apply --subsys x >"$w/out" 2>&1
[ "$(applied)" = "core/0001-a.patch drivers/0001-a.patch " ] &&
	grep -qx 2 "$w/build/kernel/patched/src/a.c" && grep -qx dos "$w/build/kernel/patched/src/b.c"
ktap_ok $? "apply.sh --subsys x takes x's patches of every series, nothing else" || ktap_diag "$(cat "$w/out")"

apply >"$w/out" 2>&1
[ "$(applied)" = "core/0001-a.patch drivers/0001-a.patch " ] &&
	grep -q "up to date: subsystem x (recorded by the last 'make apply'" "$w/out"
ktap_ok $? "apply.sh with no argument keeps the recorded selection, and says so" || ktap_diag "$(cat "$w/out")"

apply core >/dev/null 2>&1 && apply >"$w/out" 2>&1
[ "$(applied)" = "core/0001-a.patch core/0002-b.patch " ]
ktap_ok $? "a recorded SERIES=core stays core on the next apply"

apply all >/dev/null 2>&1
[ "$(applied)" = "core/0001-a.patch core/0002-b.patch drivers/0001-a.patch " ] &&
	[ "$(cat "$w/build/kernel/patched/selection")" = "core staging-move drivers" ]
ktap_ok $? "apply.sh all takes every series again"

apply --subsys nope >/dev/null 2>"$w/err"
[ $? -ne 0 ] && grep -q "unknown subsystem 'nope' (known: x y" "$w/err" &&
	[ "$(applied)" = "core/0001-a.patch core/0002-b.patch drivers/0001-a.patch " ]
ktap_ok $? "an unknown subsystem is refused and the tree is kept"

# The Makefile: what apply, make alone and boot pass on (make -n).
a=$(make -s -n -C "$TOP" apply SUBSYS=media 2>/dev/null | grep 'apply.sh')
b=$(make -s -n -C "$TOP" apply SUBSYS= SERIES= 2>/dev/null | grep 'apply.sh')
c=$(make -n -C "$TOP" all SUBSYS= SERIES= 2>/dev/null | grep 'boot')
d=$(make -s -n -C "$TOP" boot SUBSYS=media 2>/dev/null | grep 'report.sh')
case $a in *"apply.sh --subsys media") ;; *) false ;; esac &&
	case $b in *"apply.sh ") ;; *"apply.sh") ;; *) false ;; esac &&
	case $c in *"boot SERIES=all"*) ;; *) false ;; esac && [ -n "$d" ]
ktap_ok $? "make apply SUBSYS=media, make build (recorded), make (all) and make boot SUBSYS= pass the selection on" ||
	ktap_diag "apply: $a; build: $b; all: $c; boot: $d"

p=$(SUBSYS=media PROFILES= sh "$TOP/scripts/lab/profiles.sh" | tr '\n' ' ')
want=$(sh "$TOP/scripts/postings/subsys.sh" files media | while read -r f; do
	awk -F'\t' -v f="$f" '$1 == f && $2 == "exercised" { print $3 }' "$TOP/docs/coverage.tsv"
done | tr ',' '\n' | sort -u | tr '\n' ' ')
[ -n "$p" ] && [ "$p" = "$want" ] && case " $p " in *" vivid "*) ;; *) false ;; esac
ktap_ok $? "make boot SUBSYS=media boots the profiles that exercised media's files" ||
	ktap_diag "got '$p', coverage.tsv says '$want'"
ktap_diag "SUBSYS=media boots: $p"

[ "$(SUBSYS=media PROFILES="core vivid" sh "$TOP/scripts/lab/profiles.sh" | tr '\n' ' ')" = "core vivid " ] &&
	[ "$(SUBSYS= PROFILES= sh "$TOP/scripts/lab/profiles.sh" | wc -l)" = "$(ls "$TOP"/qemu-devices/*.profile | wc -l)" ]
ktap_ok $? "PROFILES= wins over SUBSYS=; neither boots every profile"

SUBSYS=parisc PROFILES= sh "$TOP/scripts/lab/profiles.sh" >/dev/null 2>"$w/err"
[ $? -ne 0 ] && grep -q "no profile exercised the files of subsystem 'parisc'" "$w/err"
ktap_ok $? "a subsystem no profile exercises stops with why, not with every profile"
ktap_done
