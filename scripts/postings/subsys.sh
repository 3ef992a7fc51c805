#!/bin/sh
# subsys.sh COMMAND [NAME]: the subsystem map, patches/subsystems.tsv.
#   check           the map is well formed and names every patch of every
#                   series exactly once, and nothing else; errors name the line
#   list            the subsystems, in map order
#   patches NAME    NAME's patches as SERIES/PATCH, in apply order (core,
#                   staging-move, drivers; series order within each)
#   all             "NAME<TAB>SERIES/PATCH" for every subsystem in map order
#                   and its patches as "patches NAME" gives them: one call
#                   instead of one per subsystem
#   of SERIES/PATCH the subsystem of one patch
#   files NAME      the files NAME's patches leave changed or created (a
#                   moved file by its new path)
#   profiles NAME   the profiles that exercised those files (docs/coverage.tsv)
# Read by apply.sh (make apply SUBSYS=), the Makefile (make boot SUBSYS=)
# and the postings scripts.
. "$(dirname "$0")/../lab/lib.sh"

: "${SUBSYS_MAP:=$TOP/patches/subsystems.tsv}"
: "${COVERAGE_MAP:=$TOP/docs/coverage.tsv}"
ORDER="core staging-move drivers"

# rows: the map without comments and blank lines, "LINENO<TAB>NAME<TAB>PATCH".
rows() {
	[ -f "$SUBSYS_MAP" ] || die "no subsystem map '$SUBSYS_MAP'"
	awk '/^#/ || /^[[:space:]]*$/ { next } { print NR "\t" $0 }' "$SUBSYS_MAP"
}

# all_patches: every SERIES/PATCH of every series, in apply order.
all_patches() {
	for s in $ORDER; do
		series_patches "$s" | while read -r p _; do echo "$s/$p"; done
	done
}

check() {
	_tmp=${TMPDIR:-/tmp}/subsys-check.$$
	all_patches >"$_tmp.all" || die "cannot read the series"
	rows | awk -F'\t' -v map="$SUBSYS_MAP" -v allf="$_tmp.all" '
	BEGIN { while ((getline l < allf) > 0) known[l] = 1 }
	function bad(msg) { printf "error: %s line %d: %s\n", map, $1, msg; err = 1 }
	NF != 3 { bad("want SUBSYSTEM<TAB>SERIES/PATCH, got " NF - 1 " field(s)"); next }
	$2 !~ /^[a-z0-9][a-z0-9-]*$/ { bad("bad subsystem name \"" $2 "\" (lower case, digits, -)"); next }
	!($3 in known) { bad("\"" $3 "\" is not a patch of any series"); next }
	$3 in seen { bad("\"" $3 "\" is already in subsystem " seen[$3] " (line " at[$3] ")"); next }
	{ seen[$3] = $2; at[$3] = $1 }
	END {
		for (p in known) if (!(p in seen)) {
			printf "error: %s: patch \"%s\" belongs to no subsystem\n", map, p; err = 1
		}
		exit err
	}' >"$_tmp.err"
	_rc=$?
	rm -f "$_tmp.all"
	[ "$_rc" -eq 0 ] || { sort "$_tmp.err" >&2; rm -f "$_tmp.err"; exit 1; }
	rm -f "$_tmp.err"
}

list() {
	rows | cut -f2 | awk '!seen[$0]++'
}

need_name() {
	[ -n "$1" ] || die "which subsystem? (known: $(list | tr '\n' ' '))"
	list | grep -qx "$1" || die "unknown subsystem '$1' (known: $(list | tr '\n' ' '))"
}

patches() {
	need_name "$1"
	rows | awk -F'\t' -v n="$1" '$2 == n { print $3 }' >"${TMPDIR:-/tmp}/subsys-patches.$$"
	all_patches | grep -Fxf "${TMPDIR:-/tmp}/subsys-patches.$$"
	rm -f "${TMPDIR:-/tmp}/subsys-patches.$$"
}

all() {
	_tmp=${TMPDIR:-/tmp}/subsys-all.$$
	all_patches >"$_tmp" || die "cannot read the series"
	rows | awk -F'\t' -v allf="$_tmp" '
	!($2 in seen) { seen[$2] = 1; order[++n] = $2 }
	{ in_s[$2, $3] = 1 }
	END {
		while ((getline l < allf) > 0) all[++m] = l
		for (i = 1; i <= n; i++)
			for (j = 1; j <= m; j++)
				if ((order[i], all[j]) in in_s) print order[i] "\t" all[j]
	}'
	_rc=$?
	rm -f "$_tmp"
	return $_rc
}

files() {
	patches "$1" | while read -r p; do
		awk '/^\+\+\+ b\// { sub(/^\+\+\+ b\//, ""); print }
		     /^rename to / { print $3 }' "$TOP/patches/$p"
	done | sort -u
}

profiles() {
	[ -f "$COVERAGE_MAP" ] || die "no coverage map '$COVERAGE_MAP': run 'make coverage UPDATE_DOCS=1'"
	files "$1" >"${TMPDIR:-/tmp}/subsys-files.$$"
	awk -F'\t' -v ff="${TMPDIR:-/tmp}/subsys-files.$$" '
	BEGIN { while ((getline l < ff) > 0) f[l] = 1 }
	$1 in f && $2 == "exercised" { n = split($3, p, ","); for (i = 1; i <= n; i++) print p[i] }
	' "$COVERAGE_MAP" | sort -u
	rm -f "${TMPDIR:-/tmp}/subsys-files.$$"
}

case $1 in
check) check ;;
list) list ;;
all) all ;;
patches | files | profiles) "$1" "$2" ;;
of)
	[ -n "$2" ] || die "usage: subsys.sh of SERIES/PATCH"
	rows | awk -F'\t' -v p="$2" '$3 == p { print $2; f = 1 } END { exit !f }' ||
		die "patch '$2' is in no subsystem of '$SUBSYS_MAP'"
	;;
*) die "usage: subsys.sh check|list|all|patches NAME|of SERIES/PATCH|files NAME|profiles NAME" ;;
esac
