#!/bin/sh
# findings.sh PROFILE: the baseline failures that the series' findings
# files (patches/SERIES/findings) expect for PROFILE, as sorted "TEST:CASE"
# lines, counting only findings whose fixing patch is applied to the
# patched tree.
. "$(dirname "$0")/lib.sh"

profile=${1:?usage: findings.sh PROFILE}
applied="$KTREES/patched/applied"
for f in "$TOP"/patches/*/findings; do
	[ -f "$f" ] || continue
	series=$(basename "$(dirname "$f")")
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$f" |
		while read -r p test cases patch; do
			[ "$p" = "$profile" ] || continue
			grep -qx "$series/$patch" "$applied" 2>/dev/null || continue
			echo "$cases" | tr ',' '\n' | sed "s|^|$test:|"
		done
done | sort
