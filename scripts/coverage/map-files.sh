#!/bin/sh
# map-files.sh [SERIES...]: the files of the coverage map, one a line as
# "FILE<TAB>BASE": every .c file the series touch (scripts/lab/touched.sh)
# and every path of the seed patch (seed-paths) that the pristine 6.1 tree
# still has, followed through the series' moves. FILE is the path after
# the series, BASE the same file's path in the pristine (baseline) tree.
# coverage.sh maps these files; build-kernel.sh tells the guest's function
# profiler to count their built-in functions.
. "$(dirname "$0")/../lab/lib.sh"

: "${SEED_PATHS:=$TOP/scripts/coverage/seed-paths}"
need_tree
need_file "$SEED_PATHS" "it is part of scripts/coverage"
[ $# -gt 0 ] || set -- core staging-move drivers
tab=$(printf '\t')
w=$(mktemp -d "${TMPDIR:-/tmp}/map-files.XXXXXX") || die "cannot make a scratch directory"
trap 'rm -rf "$w"' EXIT
trap 'exit 1' INT TERM

"$TOP/scripts/lab/touched.sh" "$@" >"$w/touched" || exit 1
"$TOP/scripts/lab/touched.sh" --moves "$@" >"$w/moves" || exit 1
# A seed path is in the map when the pristine tree has it, at its place
# after the moves.
sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$SEED_PATHS" | sort -u |
	awk -F "$tab" 'NR == FNR { to[$1] = $2; next }
		{ print $0 "\t" ($0 in to ? to[$0] : $0) }' "$w/moves" - |
	while IFS="$tab" read -r old new; do
		[ -f "$PRISTINE/$old" ] && printf '%s\n' "$new"
	done >"$w/seed.in61"
sort -u "$w/touched" "$w/seed.in61" |
	awk -F "$tab" 'NR == FNR { from[$2] = $1; next }
		{ print $0 "\t" ($0 in from ? from[$0] : $0) }' "$w/moves" -
