#!/bin/sh
# t9000-coverage-map: docs/coverage.tsv, the coverage map of the last full
# run (docs/coverage.md), still fits the series and the profiles: the
# header is "file<TAB>state<TAB>profiles<TAB>reason"; every .c file the
# series touch (scripts/lab/touched.sh) and every seed patch path still in
# 6.1 has exactly one row; a state is exercised, built, compiled or
# unreachable; an exercised row names its profiles and every profile it
# names is a qemu-devices/<name>.profile; a row that is not exercised has
# a reason or is listed in scripts/coverage/reachable.tsv. The two lists
# are well formed and share no file.
#
# COVERAGE_TSV checks another map (make check passes results/coverage.tsv).
# The negative cases run the same check on broken copies.
. "$TOP/tests/host/ktap.sh"

tsv=${COVERAGE_TSV:-$TOP/docs/coverage.tsv}
here="$TOP/scripts/coverage"
w="$TMPDIR/t9000"
rm -rf "$w"
mkdir -p "$w"
tab=$(printf '\t')

# The files the map must have: touched, and seed paths still in 6.1 (the
# latter only when the tree is extracted).
"$TOP/scripts/lab/touched.sh" >"$w/want" 2>"$w/err" || ktap_bail "touched.sh failed: $(cat "$w/err")"
"$TOP/scripts/lab/touched.sh" --moves >"$w/moves" || ktap_bail "touched.sh --moves failed"
pristine="${BUILD:-$TOP/build}/pristine"
have_tree=
if [ -f "$pristine/.bklfree-extracted" ]; then
	have_tree=yes
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$here/seed-paths" |
		awk -F "$tab" 'NR == FNR { to[$1] = $2; next }
			{ print $0 "\t" ($0 in to ? to[$0] : $0) }' "$w/moves" - |
		while IFS="$tab" read -r old new; do
			[ -f "$pristine/$old" ] && echo "$new"
		done >>"$w/want"
fi
sort -u -o "$w/want" "$w/want"
for p in "$TOP"/qemu-devices/*.profile; do basename "$p" .profile; done >"$w/profiles"

# check_map TSV: prints one line per problem; status 1 when there is one.
check_map() {
	{
		[ "$(head -n 1 "$1")" = "file${tab}state${tab}profiles${tab}reason" ] ||
			echo "header is not 'file<TAB>state<TAB>profiles<TAB>reason': $(head -n 1 "$1")"
		tail -n +2 "$1" | cut -f1 | sort | uniq -d | sed 's/^/more than one row: /'
		tail -n +2 "$1" | cut -f1 | sort -u | comm -13 - "$w/want" | sed 's/^/no row: /'
		tail -n +2 "$1" | awk -F "$tab" -v profs="$w/profiles" -v reach="$here/reachable.tsv" '
			BEGIN {
				while ((getline l < profs) > 0) known[l] = 1
				while ((getline l < reach) > 0)
					if (l !~ /^#/ && l != "") { split(l, a, "\t"); how[a[1]] = 1 }
			}
			NF != 4 { print "not 4 fields: " $0; next }
			$2 !~ /^(exercised|built|compiled|unreachable)$/ { print "unknown state: " $0 }
			$2 == "exercised" && $3 == "-" { print "exercised without a profile: " $1 }
			$3 != "-" { n = split($3, p, ",")
				for (i = 1; i <= n; i++)
					if (!(p[i] in known))
						print "no profile " p[i] ": " $1 }
			$2 != "exercised" && ($4 == "" || $4 == "-") && !($1 in how) {
				print "not exercised, no reason, not in reachable.tsv: " $1 }'
	} >"$w/problems"
	[ ! -s "$w/problems" ]
}

ktap_plan 9

[ -f "$tsv" ] || ktap_bail "no coverage map '$tsv' (make coverage UPDATE_DOCS=1)"
check_map "$tsv"
ktap_ok $? "$(basename "$tsv"): $(($(wc -l <"$tsv") - 1)) rows, every touched file$([ -n "$have_tree" ] && echo ' and seed path in 6.1') has one, profiles exist, every gap is explained" ||
	ktap_diag "$(head -n 20 "$w/problems")"

# The two hand-kept lists: two fields a line, a known HOW, no file in both.
awk -F "$tab" '!/^#/ && !/^$/ && (NF != 2 || $2 == "") { print FILENAME ": " $0 }' \
	"$here/reasons.tsv" "$here/reachable.tsv" >"$w/bad"
awk -F "$tab" '!/^#/ && !/^$/ && $2 !~ /^(core|software|qemu:[^ ]+)/ { print "reachable.tsv: unknown how: " $0 }' \
	"$here/reachable.tsv" >>"$w/bad"
[ ! -s "$w/bad" ]
ktap_ok $? "reasons.tsv and reachable.tsv are FILE<TAB>TEXT lines, HOW is core, software or qemu:DEVICE" ||
	ktap_diag "$(head -n 10 "$w/bad")"

sed -e '/^#/d' -e '/^$/d' "$here/reachable.tsv" | cut -f1 | sort >"$w/reach"
sed -e '/^#/d' -e '/^$/d' "$here/reasons.tsv" | cut -f1 >"$w/pats"
while read -r f; do
	while read -r pat; do
		# shellcheck disable=SC2254 # the pattern is a glob
		case $f in $pat) echo "$f (reason $pat)"; break ;; esac
	done <"$w/pats"
done <"$w/reach" >"$w/both"
[ ! -s "$w/both" ]
ktap_ok $? "no file is both reachable and given a reason" || ktap_diag "$(head -n 10 "$w/both")"

# Negative cases, on copies of the map.
cp "$tsv" "$w/map.tsv"
first=$(sed -n 2p "$w/map.tsv" | cut -f1)
grep -v "^$first$tab" "$w/map.tsv" >"$w/missing.tsv"
! check_map "$w/missing.tsv" && grep -qx "no row: $first" "$w/problems"
ktap_ok $? "a touched file without a row is caught" || ktap_diag "$(head -n 5 "$w/problems")"

{ head -n 1 "$w/map.tsv"; printf 'dir/x.c\texercised\tcore,no-such-profile\t-\n'; tail -n +2 "$w/map.tsv"; } >"$w/profile.tsv"
! check_map "$w/profile.tsv" && grep -qx 'no profile no-such-profile: dir/x.c' "$w/problems"
ktap_ok $? "a row naming a profile that does not exist is caught" || ktap_diag "$(head -n 5 "$w/problems")"

{ printf 'file\tstate\treason\tprofiles\n'; tail -n +2 "$w/map.tsv"; } >"$w/header.tsv"
! check_map "$w/header.tsv" && grep -q '^header is not' "$w/problems"
ktap_ok $? "a wrong header is caught" || ktap_diag "$(head -n 5 "$w/problems")"

{ head -n 1 "$w/map.tsv"; printf 'drivers/net/wireless/ath/ath5k/debug.c\tcompiled\t-\t-\n'
	tail -n +2 "$w/map.tsv" | grep -v '^drivers/net/wireless/ath/ath5k/debug.c	'; } >"$w/reason.tsv"
! check_map "$w/reason.tsv" && grep -qx 'not exercised, no reason, not in reachable.tsv: drivers/net/wireless/ath/ath5k/debug.c' "$w/problems"
ktap_ok $? "a row not exercised with no reason and not reachable is caught" || ktap_diag "$(head -n 5 "$w/problems")"

{ head -n 1 "$w/map.tsv"; printf 'drivers/char/mem.c\texercised\t-\t-\n'
	tail -n +2 "$w/map.tsv" | grep -v '^drivers/char/mem.c	'; } >"$w/noprof.tsv"
! check_map "$w/noprof.tsv" && grep -qx 'exercised without a profile: drivers/char/mem.c' "$w/problems"
ktap_ok $? "an exercised row without a profile is caught" || ktap_diag "$(head -n 5 "$w/problems")"

{ cat "$w/map.tsv"; sed -n 2p "$w/map.tsv"; } >"$w/dup.tsv"
! check_map "$w/dup.tsv" && grep -qx "more than one row: $first" "$w/problems"
ktap_ok $? "a file with two rows is caught" || ktap_diag "$(head -n 5 "$w/problems")"

ktap_done
