#!/bin/sh
# findings.sh PROFILE: the baseline failures that the series' findings
# files (patches/SERIES/findings) expect for PROFILE, as sorted lines,
# counting only findings whose fixing patch is applied to the patched tree:
# "TEST:CASE" for a failing guest test case, "splat" when the bug shows as
# a kernel splat (oops, WARNING, lockdep) in the baseline console, and
# "hostcheck" when it shows in a profile's host check of an image.
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
			echo "$cases" | tr ',' '\n' | while read -r c; do
				case $c in
				splat|hostcheck) echo "$c" ;;
				*[!0-9]*|'') echo "error: $f: bad case '$c' for $test" >&2; exit 1 ;;
				*) echo "$test:$c" ;;
				esac
			done
		done
done | sort -u
