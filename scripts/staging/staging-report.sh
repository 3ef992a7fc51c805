#!/bin/sh
# staging-report.sh: what a person tracking staging removal reads, for every
# driver in drivers/staging of the patched tree (build/kernel/patched/src,
# made by "make apply") and every driver patches/staging-move/staging-drivers
# records that is no longer in the tree (ncpfs):
#   driver, lines of .c/.h code, since when in staging and upstream fate
#   (from staging-drivers, else "unknown"), the first lines of its TODO,
#   the lab profiles whose kconfig= lines enable one of its symbols, and
#   each such profile's last verdict on the patched kernel.
# Text on stdout and in results/staging-report.txt; JSON in
# results/staging-report.json. README.md, "Staging report", explains it.
. "$(dirname "$0")/../lab/lib.sh"

staging="$KTREES/patched/src/drivers/staging"
facts="$TOP/patches/staging-move/staging-drivers"
[ -d "$staging" ] || die "'$staging' is missing: run 'make apply' first"
need_file "$facts" "the staging facts file is tracked in git"
[ -x "$TOOLS/profile" ] || die "'$TOOLS/profile' is missing: run 'make tools' first"
mkdir -p "$RESULTS"
txt="$RESULTS/staging-report.txt"
json="$RESULTS/staging-report.json"
tab=$(printf '\t')

# fact DRIVER COLUMN: column 2 (since) or 3 (fate) of staging-drivers.
fact() {
	v=$(sed -e '/^#/d' "$facts" | awk -F "$tab" -v d="$1" -v c="$2" \
		'$1 == d { print $c; exit }')
	echo "${v:-unknown}"
}

# symbols DIR: the config symbols the Kconfig files under DIR define.
symbols() {
	find "$1" -name 'Kconfig*' -type f -exec sed -n \
		's/^[[:space:]]*\(menu\)\{0,1\}config[[:space:]]\{1,\}\([A-Za-z0-9_]\{1,\}\).*/\2/p' \
		{} + | sort -u
}

# exercised_by DIR: the profiles that set one of DIR's symbols to y or m.
exercised_by() {
	syms=$(symbols "$1")
	[ -n "$syms" ] || return 0
	for p in $(all_profiles); do
		profile_get "$p" kconfig | sed -n 's/^CONFIG_\([A-Za-z0-9_]*\)=[ym]$/\1/p' |
			grep -qxF "$syms" && echo "$p"
	done
}

# todo DIR: up to three items of DIR's TODO (or, without one, of the first
# TODO below it): its "-", "*" or "1." list items, markers removed, else its
# first lines; headings and underlines are skipped.
todo() {
	f="$1/TODO"
	[ -f "$f" ] || f=$(find "$1" -name TODO -type f | sort | head -n 1)
	[ -n "$f" ] || return 0
	awk '
		{ sub(/^[ \t]+/, ""); sub(/[ \t]+$/, "") }
		$0 == "" || /^[=-]+$/ || /^(TODO|To-?[Dd]o)( list)?.*:$/ { next }
		/^([-*]|[0-9]+\.) / { sub(/^([-*]|[0-9]+\.) +/, ""); item[++ni] = $0; next }
		{ line[++nl] = $0 }
		END {
			if (ni) for (i = 1; i <= ni && i <= 3; i++) print item[i]
			else for (i = 1; i <= nl && i <= 3; i++) print line[i]
		}' "$f" | cut -c1-100
}

# loc DIR: lines in DIR's .c and .h files.
loc() {
	find "$1" -type f \( -name '*.c' -o -name '*.h' \) -exec cat {} + | wc -l
}

# json_list LINES: the lines as a JSON array of strings.
json_list() {
	printf '['
	sep=
	printf '%s\n' "$1" | while IFS= read -r l; do
		[ -n "$l" ] || continue
		printf '%s%s' "$sep" "$(json_str "$l")"
		sep=', '
	done
	printf ']'
}

# The drivers: directories in the tree, then recorded ones that are gone.
drivers=$( (find "$staging" -mindepth 1 -maxdepth 1 -type d -exec basename {} \;
	sed -e '/^#/d' -e '/^[[:space:]]*$/d' "$facts" | cut -f1) | sort -u)

{
	printf 'staging report: drivers/staging of the patched tree (build/%s)\n\n' "${staging#$BUILD/}"
	printf '%-14s %7s  %-20s %-44s %s\n' driver loc since "lab (verdict)" "upstream fate"
} >"$txt"
printf '{\n  "tree": %s,\n  "drivers": [' "$(json_str "build/${staging#$BUILD/}")" >"$json"
sep=
n=0 gone=0 lab=0
for d in $drivers; do
	dir="$staging/$d"
	since=$(fact "$d" 2) fate=$(fact "$d" 3)
	if [ -d "$dir" ]; then
		in_tree=true lines=$(loc "$dir") items=$(todo "$dir")
		profiles=$(exercised_by "$dir")
	else
		in_tree=false lines= items= profiles=
		gone=$((gone + 1))
	fi
	n=$((n + 1))
	shown= pj= vsep=
	for p in $profiles; do
		v=$(kv "$RESULTS/patched/$p/verdict" verdict)
		shown="$shown${shown:+, }$p ${v:-not run}"
		pj="$pj$vsep{\"profile\": $(json_str "$p"), \"verdict\": $(json_str "${v:-not run}")}"
		vsep=', '
	done
	[ -z "$profiles" ] || lab=$((lab + 1))
	[ "$in_tree" = true ] || shown="not in tree"
	printf '%-14s %7s  %-20s %-44s %s\n' "$d" "${lines:--}" "$since" \
		"${shown:--}" "$fate" >>"$txt"
	if [ "$in_tree" = true ]; then
		if [ -n "$items" ]; then
			printf '%s\n' "$items" | sed 's/^/    todo: /' >>"$txt"
		else
			echo "    todo: (no TODO file)" >>"$txt"
		fi
	fi
	printf '%s\n    {"driver": %s, "in_tree": %s, "loc": %s, "since": %s, "todo": %s, "lab": [%s], "upstream_fate": %s}' \
		"$sep" "$(json_str "$d")" "$in_tree" "${lines:-null}" \
		"$(json_str "$since")" "$(json_list "$items")" "$pj" \
		"$(json_str "$fate")" >>"$json"
	sep=,
done
printf '\n%s drivers, %s exercised by the lab, %s recorded but no longer in the tree\n' \
	"$n" "$lab" "$gone" >>"$txt"
printf '\n  ],\n  "drivers_total": %s,\n  "exercised": %s,\n  "not_in_tree": %s\n}\n' \
	"$n" "$lab" "$gone" >>"$json"
cat "$txt"
