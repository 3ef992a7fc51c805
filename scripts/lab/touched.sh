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
# The series' patch files in order, read by one awk (two seds a patch
# were most of the time).
files=
for s in "$@"; do
	need_file "$TOP/patches/$s/series" "no series 'patches/$s'"
	for p in $(series_patches "$s"); do
		files="$files $TOP/patches/$s/$p"
	done
done
[ -n "$files" ] || exit 0
# shellcheck disable=SC2086 # files is one path a word
PREFIX="$TOP/patches/" awk -v mode="$mode" -v tab="$tab" '
	FNR == 1 { n++; sp = substr(FILENAME, length(ENVIRON["PREFIX"]) + 1); hold = "" }
	mode == "moves" && /^rename from / { hold = substr($0, 13); next }
	mode == "moves" && /^rename to / {
		pat = hold "\n" substr($0, 11)
		hold = substr($0, 11)
		sub(/\n/, tab, pat)
		print pat
		next
	}
	mode != "moves" && /^\+\+\+ b\/.*\.c$/ { print substr($0, 7) tab sprintf("%04d", n) tab sp; next }
	mode != "moves" && /^rename to .*\.c$/ { print substr($0, 11) tab sprintf("%04d", n) tab sp }
' $files | case $mode in
moves) cat ;;
patches) sort -t "$tab" -k1,1 -k2,2 -u | cut -f1,3 ;;
*) cut -f1 | sort -u ;;
esac
