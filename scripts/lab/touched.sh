#!/bin/sh
# touched.sh [--patches | --moves] [SERIES...]: the .c files the series
# touch, at their place after the series, one a line, sorted. The one list
# compile-touched.sh compiles and coverage/coverage.sh maps.
#
# A patch touches a file it changes or creates (a "+++ b/FILE.c" line) or
# moves there (git's "rename to FILE.c", the pure moves of
# patches/staging-move, which carry no "+++" line).
#   --patches   "FILE<TAB>SERIES/PATCH" for every patch that touches FILE,
#               sorted by file, then in series order
#   --moves     "OLD<TAB>NEW" for every file a series moves (any type), so
#               a path of the pristine tree can be followed to its place
# SERIES defaults to the three series, in their order.
. "$(dirname "$0")/lib.sh"

mode=files
case $1 in
--patches | --moves) mode=${1#--}; shift ;;
-*) die "unknown option '$1' (usage: touched.sh [--patches | --moves] [SERIES...])" ;;
esac
[ $# -gt 0 ] || set -- core staging-move drivers

tab=$(printf '\t')
n=0
for s in "$@"; do
	need_file "$TOP/patches/$s/series" "no series 'patches/$s'"
	for p in $(series_patches "$s"); do
		n=$((n + 1))
		f="$TOP/patches/$s/$p"
		if [ "$mode" = moves ]; then
			sed -n -e '/^rename from /{s///;h;}' \
				-e "/^rename to /{s///;H;x;s/\n/$tab/p;}" "$f"
		else
			sed -n -e 's|^+++ b/\(.*\.c\)$|\1|p' \
				-e 's|^rename to \(.*\.c\)$|\1|p' "$f" |
				sed "s|\$|$tab$(printf '%04d' "$n")$tab$s/$p|"
		fi
	done
done | case $mode in
moves) cat ;;
patches) sort -t "$tab" -k1,1 -k2,2 -u | cut -f1,3 ;;
*) cut -f1 | sort -u ;;
esac
