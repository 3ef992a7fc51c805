#!/bin/sh
# profiles.sh: the profiles a boot or report takes, one a line: $PROFILES
# when set; else, with SUBSYS set, the profiles that exercised the files
# of that subsystem's patches (docs/coverage.tsv, the last full run);
# else every profile. make boot SUBSYS=media boots only what can tell
# media's patches apart from pristine 6.1.
. "$(dirname "$0")/lib.sh"

if [ -n "$PROFILES" ]; then
	printf '%s\n' $PROFILES
elif [ -n "$SUBSYS" ]; then
	p=$("$TOP/scripts/postings/subsys.sh" profiles "$SUBSYS") || exit 1
	[ -n "$p" ] || die "no profile exercised the files of subsystem '$SUBSYS' (docs/coverage.tsv): nothing to boot; name PROFILES= to boot some anyway"
	printf '%s\n' "$p"
else
	all_profiles
fi
