#!/bin/sh
# findings.sh PROFILE: the baseline failures that patches/drivers/findings
# expects for PROFILE, as sorted "TEST:CASE" lines, counting only findings
# whose fixing patch is applied to the patched tree.
. "$(dirname "$0")/lib.sh"

profile=${1:?usage: findings.sh PROFILE}
applied="$KTREES/patched/applied"
sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$TOP/patches/drivers/findings" |
	while read -r p test cases patch; do
		[ "$p" = "$profile" ] || continue
		grep -qx "drivers/$patch" "$applied" 2>/dev/null || continue
		echo "$cases" | tr ',' '\n' | sed "s|^|$test:|"
	done | sort
