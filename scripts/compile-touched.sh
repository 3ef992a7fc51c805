#!/bin/sh
# compile-touched.sh [SERIES...]: compile every .c file the series touch, in
# an allmodconfig build of the patched tree (build/kernel/allmod/obj), one
# object at a time as kbuild single targets. The lab kernels build only
# what the profiles need; this catches a patch that breaks a driver no
# profile enables.
#
# A touched file is reported as one of
#   ok        compiled without error or warning (allmodconfig has
#             CONFIG_WERROR=y, so a warning is an error)
#   FAIL      kbuild failed; the compiler lines follow
#   not-x86   under arch/<not x86>, or a driver whose Kconfig needs another
#             architecture, so allmodconfig on x86_64 does not build it
# Exit 0 when nothing failed. Results: results/compile-touched.txt.
. "$(dirname "$0")/lib.sh"

[ $# -gt 0 ] || set -- core staging-move drivers
src="$KTREES/patched/src"
obj="$KTREES/allmod/obj"
need_file "$src/Makefile" "run 'make apply' first"
out="$RESULTS/compile-touched.txt"
mkdir -p "$obj" "$RESULTS"

# The .c files the series create or change, at their place after the series.
files=$(for s in "$@"; do
	f="$TOP/patches/$s/series"
	need_file "$f" "no series 'patches/$s'"
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$f" | while read -r p; do
		sed -n 's|^+++ b/\(.*\.c\)$|\1|p' "$TOP/patches/$s/$p"
	done
done | sort -u)
[ -n "$files" ] || die "the series '$*' touch no .c file"

export CCACHE_BASEDIR="$KTREES" CCACHE_NOHASHDIR=1
export KBUILD_BUILD_TIMESTAMP="2010-09-20" KBUILD_BUILD_USER=bklfree
export KBUILD_BUILD_HOST=lab
kmake() { make -C "$src" O="$obj" CC="ccache gcc" "$@"; }

start=$(now)
log="$KTREES/allmod/prepare.log"
if [ ! -f "$obj/.config" ] || [ "$KTREES/patched/fingerprint" -nt "$obj/.config" ]; then
	kmake allmodconfig >"$log" 2>&1 || die "allmodconfig failed; log: $log"
fi
kmake -j"$(nproc)" prepare >>"$log" 2>&1 || die "'make prepare' failed; log: $log"

x86=
: >"$out"
for f in $files; do
	case $f in
	arch/x86/*|arch/*/x86/*) x86="$x86 $f" ;;
	arch/*) printf 'not-x86  %s (arch code)\n' "$f" >>"$out" ;;
	*) x86="$x86 $f" ;;
	esac
done

# One make for all objects keeps kbuild's descent cheap; -k goes on past a
# failure, and each object's result is read back from the tree.
targets=$(for f in $x86; do echo "${f%.c}.o"; done)
for t in $targets; do rm -f "$obj/$t"; done
# shellcheck disable=SC2086 # targets are words
kmake -k -j"$(nproc)" $targets >"$KTREES/allmod/objects.log" 2>&1
for f in $x86; do
	o="${f%.c}.o"
	if [ -f "$obj/$o" ]; then
		printf 'ok       %s\n' "$f" >>"$out"
	elif grep -q "^[^ ]*$f:[0-9]*:[0-9]*: error\|\[.*$o\] Error" "$KTREES/allmod/objects.log"; then
		printf 'FAIL     %s\n' "$f" >>"$out"
		grep "$f:[0-9]*:[0-9]*: " "$KTREES/allmod/objects.log" | head -n 3 | sed 's/^/         /' >>"$out"
	else
		# kbuild had no rule for it: its Kconfig symbol is off in
		# allmodconfig on x86_64 (depends on another architecture).
		printf 'not-x86  %s (not enabled by allmodconfig on x86_64)\n' "$f" >>"$out"
	fi
done

sort -o "$out" "$out"
cat "$out"
nok=$(grep -c '^ok' "$out") nfail=$(grep -c '^FAIL' "$out") nskip=$(grep -c '^not-x86' "$out")
progress compile "$nok touched file(s) compiled, $nfail failed, $nskip not buildable on x86_64 ($(elapsed "$start") s; log $KTREES/allmod/objects.log)"
[ "$nfail" = 0 ]
