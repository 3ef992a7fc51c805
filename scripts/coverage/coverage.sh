#!/bin/sh
# coverage.sh [SERIES...]: the runtime coverage map (make coverage). One row
# per file of map-files.sh: each .c file the series touch and each path of
# the seed patch (seed-paths) that still exists in 6.1, followed through the
# staging moves:
#   exercised    code of the file ran in a boot of the patched kernel, and
#                in the same profile's boot of the baseline kernel when the
#                file exists in the pristine tree
#   built        its object is in a lab kernel (vmlinux.a or a module's
#                .mod list), never seen running on both kernels
#   compiled     only the allmodconfig single-object compile built it
#                (results/compile-touched.txt, "ok")
#   unreachable  neither
# "Ran" is measured: results/<kernel>/<profile>/functions.tsv lists the
# functions the function profiler saw called during that boot (NAME<TAB>HITS);
# a name counts for a file when the file's object defines it (nm type T or
# t) and no other object of that kernel does: a static name that several
# objects define (s_start, show, ...) is ambiguous and counts for none;
# a module's function counts only in the boots whose initramfs carried that
# module (initrd.cpio.traced-modules), since the profiler names functions
# without their module.
# The object of a patched path is build/kernel/patched/obj/DIR/X.o; on the
# baseline, the path before the moves under build/kernel/baseline/obj.
#
# Every row that is not exercised has a reason: the first matching pattern
# of reasons.tsv, else a measured one (ran on one kernel only), else the
# pristine error of a "not-built" compile. A row with none must be listed
# in reachable.tsv (how a guest can reach it): its reason is "not run yet"
# and how, and the summary counts it as reachable, not yet exercised. A
# file in neither is an error, and so is a file in both.
#
# Writes results/coverage.tsv (file, state, profiles, reason),
# results/coverage.txt (the summary, then the map with the patches of each
# file; the report's front page shows it, so make runs this before the
# report) and results/coverage.html (the same as a page). UPDATE_DOCS=1
# copies the TSV to docs/coverage.tsv, the map of the last full run.
. "$(dirname "$0")/../lab/lib.sh"
. "$(dirname "$0")/../lab/html.sh"

here="$TOP/scripts/coverage"
: "${REASONS:=$here/reasons.tsv}"
: "${REACHABLE:=$here/reachable.tsv}"
: "${SEED_PATHS:=$here/seed-paths}"
need_tree
for f in "$REASONS" "$REACHABLE" "$SEED_PATHS"; do
	need_file "$f" "it is part of scripts/coverage"
done
[ $# -gt 0 ] || set -- core staging-move drivers
tab=$(printf '\t')
w=$(mktemp -d "${TMPDIR:-/tmp}/coverage.XXXXXX") || die "cannot make a scratch directory"
trap '[ -n "$COVERAGE_KEEP" ] || rm -rf "$w"' EXIT
trap 'exit 1' INT TERM
mkdir -p "$RESULTS"

# --- the files of the map (map-files.sh: "FILE<TAB>BASE")
"$here/map-files.sh" "$@" >"$w/files.base" || exit 1
"$TOP/scripts/lab/touched.sh" --patches "$@" >"$w/touched.patches" || exit 1
cut -f1 "$w/touched.patches" | sort -u >"$w/touched"
sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$SEED_PATHS" | sort -u >"$w/seed"
# The seed's paths still in 6.1: the map's files whose pristine path is one.
awk -F "$tab" 'NR == FNR { s[$1] = 1; next } ($2 in s) { print $1 }' \
	"$w/seed" "$w/files.base" | sort -u >"$w/seed.in61"

# --- objects: which a lab kernel built, and the functions each defines
# built_objects OBJ: the objects linked into that kernel: vmlinux.a's
# members and every module's objects (.mod files of modules.order).
built_objects() {
	if [ -f "$1/vmlinux.a" ]; then
		(cd "$1" && ar t vmlinux.a)
	fi
	if [ -f "$1/modules.order" ]; then
		sed 's/\.ko$/.mod/' "$1/modules.order" |
			(cd "$1" && xargs -r cat 2>/dev/null) | tr ' ' '\n'
	fi
}
# inpristine: the map's files the pristine tree has (by their path there).
cut -f2 "$w/files.base" | while read -r b; do
	[ -f "$PRISTINE/$b" ] && printf '%s\n' "$b"
done >"$w/inpristine"
notes=
for k in baseline patched; do
	obj="$KTREES/$k/obj"
	# kvm.ko names its virt/kvm objects through arch/x86/kvm/../../../:
	# each "dir/../" goes, so the object is found under its own path.
	built_objects "$obj" | sed -e '/^$/d' -e ':a' -e 's#[^/]*/\.\./##' -e 'ta' |
		sort -u >"$w/built.$k"
	[ -s "$w/built.$k" ] || notes="$notes
note: no $k lab kernel in '$obj' (no vmlinux.a, no modules): run 'make build'; no file counts as built there"
	# modobj.K: "OBJECT<TAB>MODULE" for every object a module links (its
	# .mod file), the module named as ftrace and modprobe name it.
	find "$obj" -name '*.mod' -exec awk -v t="$tab" 'FNR == 1 { n = FILENAME
		sub(/.*\//, "", n); sub(/\.mod$/, "", n); gsub(/-/, "_", n) }
		{ print $0 t n }' {} + 2>/dev/null | sort -u >"$w/modobj.$k"
	# The profiler prints a name cut to 30 characters (ftrace.c's
	# "%-30.30s"), so names are compared on their first 30.
	# dup.K: the function names more than one object of that kernel
	# defines (static names repeat: s_start, show, ...). The profiler
	# names a function without its file, so a hit on such a name cannot
	# say which file ran and counts for none of them.
	(cd "$obj" && xargs nm --defined-only <"$w/built.$k" 2>/dev/null) |
		awk '$2 == "T" || $2 == "t" { n[substr($3, 1, 30)]++ }
			END { for (f in n) if (n[f] > 1) print f }' >"$w/dup.$k"
	# names.K: "NAME<TAB>FILE<TAB>MODULE" for every function a map file's
	# object defines and no other object does (FILE is the patched path on
	# both kernels; MODULE is "-" for a built-in object).
	# included.K: "FILE<TAB>OBJECT" for a .c file that another built
	# object #includes (ohci-dbg.c in ohci-hcd.o), from the dependency
	# lists kbuild keeps in each object's .cmd file.
	sed 's|^\(.*/\)\{0,1\}\([^/]*\)$|\1.\2.cmd|' "$w/built.$k" |
		(cd "$obj" && xargs ls 2>/dev/null | xargs awk '
		FNR == 1 { o = FILENAME; sub(/\/\./, "/", o); sub(/^\./, "", o); sub(/\.cmd$/, "", o) }
		/^source_/ { src = $3 }
		/^  \.\.\/src\/.*\.c \\$/ { if ($1 != src) { p = $1; sub(/^\.\.\/src\//, "", p); print p "\t" o } }' 2>/dev/null) |
		sort -u >"$w/included.$k"
	# objs.K: "FILE<TAB>OBJECT<TAB>MODULE<TAB>C" for each map file with an
	# object in this kernel, C its source path in this kernel's tree. A
	# file with no object of its own (C in included.K) counts by the
	# functions its source defines in the first object that includes it.
	awk -F "$tab" -v k="$k" -v w="$w" '
	BEGIN {
		while ((getline l < (w "/built." k)) > 0) built[l] = 1
		while ((getline l < (w "/inpristine")) > 0) base[l] = 1
		while ((getline l < (w "/included." k)) > 0) {
			split(l, a, "\t"); if (!(a[1] in inc)) inc[a[1]] = a[2]
		}
		while ((getline l < (w "/modobj." k)) > 0) {
			split(l, a, "\t"); if (!(a[1] in mod)) mod[a[1]] = a[2]
		}
	}
	{
		c = (k == "baseline") ? $2 : $1
		if (k == "baseline" && !(c in base)) next
		o = c; sub(/\.c$/, "", o); o = o ".o"
		own = "-"
		if (!(o in built)) {
			if (!(c in inc)) next
			o = inc[c]; own = c
		}
		print $1 "\t" o "\t" (o in mod ? mod[o] : "-") "\t" own
	}' "$w/files.base" >"$w/objs.$k"
	cut -f1 "$w/objs.$k" >"$w/obj.$k"
	# own.K: "FILE<TAB>NAME" for the functions an included file's source
	# defines (a definition's first line, not ending in ";").
	while IFS="$tab" read -r f _ _ c; do
		[ "$c" = - ] && continue
		sed -n 's/^[A-Za-z_][^;=(]*[^A-Za-z0-9_]\([A-Za-z_][A-Za-z0-9_]*\) *(.*[^;]$/\1/p; s/^\([A-Za-z_][A-Za-z0-9_]*\)(.*[^;]$/\1/p' \
			"$KTREES/$k/src/$c" 2>/dev/null | sort -u | sed "s|^|$f$tab|"
	done <"$w/objs.$k" >"$w/own.$k"
	# The functions of each object, less its init and exit code: a
	# module's init runs (and is profiled) at every load, but registering
	# a driver is not running it. One objdump for all the objects; it
	# heads each object's table with "OBJECT:     file format ...".
	cut -f2 "$w/objs.$k" | sort -u | (cd "$obj" && xargs -r objdump -t 2>/dev/null) |
		awk -F "$tab" -v k="$k" -v w="$w" '
		BEGIN {
			while ((getline l < (w "/objs." k)) > 0) {
				split(l, a, "\t"); n[a[2]]++
				file[a[2], n[a[2]]] = a[1]; m[a[2], n[a[2]]] = a[3]
				hasown[a[1]] = (a[4] != "-")
			}
			while ((getline l < (w "/own." k)) > 0) {
				split(l, a, "\t"); mine[a[1], a[2]] = 1; anyown[a[1]] = 1
			}
			FS = " "
		}
		/:     file format / { o = $1; sub(/:$/, "", o); next }
		$0 ~ / F / && $(NF - 2) != "*UND*" && $(NF - 2) !~ /^\.(init|exit)\.text/ {
			for (i = 1; i <= n[o]; i++) {
				f = file[o, i]
				# An included file whose source showed no definition
				# counts by the whole object, as before.
				if (hasown[f] && anyown[f] && !((f, $NF) in mine)) continue
				print substr($NF, 1, 30) "\t" f "\t" m[o, i]
			}
		}' | sort -u |
		awk -F "$tab" 'NR == FNR { dup[$1] = 1; next } !($1 in dup)' "$w/dup.$k" - >"$w/names.$k"
done

# --- what ran: "FILE<TAB>PROFILE" per kernel, from every boot's
# functions.tsv
boots=0 measured=0
for k in baseline patched; do
	: >"$w/ran.$k"
	for p in $(all_profiles); do
		[ -d "$RESULTS/$k/$p" ] && boots=$((boots + 1))
		t="$RESULTS/$k/$p/functions.tsv"
		[ -f "$t" ] || continue
		measured=$((measured + 1))
		# A module's function counts only in a boot that could load
		# that module (its initramfs carried it): the profiler names
		# functions without their module, and static names repeat.
		mods="$RESULTS/$k/$p/initrd.cpio.traced-modules"
		[ -f "$mods" ] || mods=/dev/null
		awk -F "$tab" -v p="$p" 'FILENAME == ARGV[1] { loaded[$1] = 1; next }
			FILENAME == ARGV[2] { if ($3 == "-" || ($3 in loaded)) n[$1] = n[$1] " " $2; next }
			$2 + 0 > 0 && ($1 in n) { c = split(n[$1], fs, " ")
				for (i = 1; i <= c; i++) print fs[i] "\t" p }' \
			"$mods" "$w/names.$k" "$t" >>"$w/ran.$k"
	done
	sort -u -o "$w/ran.$k" "$w/ran.$k"
done
[ "$measured" -gt 0 ] || notes="$notes
note: no boot left a functions.tsv (results/<kernel>/<profile>/functions.tsv, the in-guest function profile): nothing can count as exercised"

# --- the map
ct="$RESULTS/compile-touched.txt"
[ -f "$ct" ] || notes="$notes
note: no '$ct' (scripts/lab/compile-touched.sh, in make check): no file counts as compiled"
for f in "$REASONS" "$REACHABLE"; do
	sed -e '/^#/d' -e '/^[[:space:]]*$/d' "$f"
	echo "--"
done >"$w/rules"
awk -F "$tab" -v ctf="$ct" -v rules="$w/rules" -v w="$w" '
function glob2re(g,   r, i, c) {
	r = "^"
	for (i = 1; i <= length(g); i++) {
		c = substr(g, i, 1)
		if (c == "*") r = r ".*"
		else if (c == "?") r = r "."
		else if (c ~ /[.+^$(){}|\\\[\]]/) r = r "\\" c
		else r = r c
	}
	return r "$"
}
BEGIN {
	part = 0
	while ((getline line < rules) > 0) {
		if (line == "--") { part++; continue }
		split(line, a, "\t")
		if (part == 0) { nr++; pat[nr] = glob2re(a[1]); why[nr] = a[2] }
		else how[a[1]] = a[2]
	}
	while ((getline line < ctf) > 0) {
		split(line, a, " ")
		if (a[1] == "ok") compiled[a[2]] = 1
		else if (a[1] == "not-built") {
			r = line
			sub(/^not-built +[^ ]+ \(/, "", r); sub(/\)$/, "", r)
			notbuilt[a[2]] = "allmodconfig: " r
		}
	}
	while ((getline line < (w "/inpristine")) > 0) base[line] = 1
	while ((getline line < (w "/obj.patched")) > 0) built[line] = 1
	while ((getline line < (w "/ran.patched")) > 0) {
		split(line, a, "\t"); rp[a[1]] = rp[a[1]] " " a[2]
		rpk[a[1], a[2]] = 1
	}
	while ((getline line < (w "/ran.baseline")) > 0) {
		split(line, a, "\t"); rb[a[1]] = rb[a[1]] " " a[2]
		rbk[a[1], a[2]] = 1
	}
}
{
	f = $1; b = $2
	inbase = b in base
	profs = ""
	c = split(rp[f], ps, " ")
	for (i = 1; i <= c; i++)
		if (!inbase || ((f, ps[i]) in rbk))
			profs = profs (profs == "" ? "" : ",") ps[i]
	reason = "-"
	if (profs != "") state = "exercised"
	else {
		state = f in built ? "built" : f in compiled ? "compiled" : "unreachable"
		if (rp[f] != "")
			reason = "ran on patched (" substr(rp[f], 2) ") but never in the same profile on baseline" (rb[f] != "" ? " (baseline:" rb[f] ")" : "")
		else if (rb[f] != "")
			reason = "ran on baseline only (" substr(rb[f], 2) "), never on patched"
		else {
			for (i = 1; i <= nr; i++)
				if (f ~ pat[i]) { reason = why[i]; break }
			if (reason == "-" && !(f in how) && (f in notbuilt))
				reason = notbuilt[f]
		}
	}
	# classes for the checks: r = a rule gives the reason
	ruled = 0
	for (i = 1; i <= nr; i++) if (f ~ pat[i]) { ruled = 1; break }
	print f "\t" state "\t" (profs == "" ? "-" : profs) "\t" reason \
		"\t" (f in how ? how[f] : "-") "\t" ruled
}' "$w/files.base" >"$w/map"

# Every row not exercised must be explained or classed reachable.
awk -F "$tab" '$2 != "exercised" && $4 == "-" && $5 == "-"' "$w/map" | cut -f1 >"$w/unclassified"
awk -F "$tab" '$5 != "-" && $6 == 1' "$w/map" | cut -f1 >"$w/both"

# A reachable row not exercised: its reason is how a guest would reach it.
{
	printf 'file\tstate\tprofiles\treason\n'
	awk -F "$tab" -v OFS="$tab" '$2 != "exercised" && $4 == "-" && $5 != "-" {
		$4 = "not run yet (reachable: " $5 ")" } { print $1, $2, $3, $4 }' "$w/map"
} >"$RESULTS/coverage.tsv"

# --- the text map and its summary
# rows AWK-CONDITION: how many rows of the map meet it.
# shellcheck disable=SC2016 # the conditions are awk, quoted for awk
rows() { awk -F "$tab" "$1" "$w/map" | wc -l; }
n_files=$(wc -l <"$w/map")
n_touched=$(wc -l <"$w/touched")
n_seed=$(wc -l <"$w/seed")
n_seed61=$(wc -l <"$w/seed.in61")
awk -F "$tab" 'NR == FNR { s[$1] = 1; next } ($1 in s)' "$w/seed.in61" "$w/map" >"$w/seed.rows"
seed_ex=$(awk -F "$tab" '$2 == "exercised"' "$w/seed.rows" | wc -l)
seed_reach=$(awk -F "$tab" '$2 == "exercised" || ($4 == "-" && $5 != "-")' "$w/seed.rows" | wc -l)
{
	echo "bklfree coverage map: $n_files files ($n_touched touched by the series '$*', $(comm -13 "$w/touched" "$w/seed.in61" | wc -l) more from the seed patch)"
	echo "boots measured (with functions.tsv): $measured of $boots"
	printf '%s\n' "$notes" | sed '/^$/d'
	echo
	for s in exercised built compiled unreachable; do
		printf '%-12s %s\n' "$s" "$(rows "\$2 == \"$s\"")"
	done
	echo
	echo "not exercised, with a reason:         $(rows '$2 != "exercised" && $4 != "-"')"
	echo "reachable, not yet exercised:         $(rows '$2 != "exercised" && $4 == "-" && $5 != "-"') ($(sep=; for h in core software qemu; do printf '%s%s %s' "$sep" "$(awk -F "$tab" -v h="$h" '$2 != "exercised" && $4 == "-" && index($5, h) == 1' "$w/map" | wc -l)" "$h"; sep=', '; done))"
	echo "seed patch paths: $n_seed in all, $n_seed61 still in 6.1, $seed_reach of those reachable, $seed_ex exercised"
	echo
	# Each row, then the patches (their numbers) that touch its file.
	awk -F "$tab" 'BEGIN { fmt = "%-58s %-11s %-24s %s\n"
		printf fmt, "file", "state", "profiles", "reason (or how a guest reaches it)" }
	NR == FNR { p = $2; sub(/-.*/, "", p); n[$1]++
		pt[$1] = pt[$1] (n[$1] > 1 ? "," : "") p; next }
	{ r = $4
		if (r == "-" && $5 != "-" && $2 != "exercised") r = "- (reachable: " $5 ")"
		printf fmt, $1, $2, $3, r
		printf "    patches: %s\n", (pt[$1] != "" ? pt[$1] : "none (seed patch path)") }' \
		"$w/touched.patches" "$w/map"
} >"$RESULTS/coverage.txt"

# --- the HTML page: the summary and the map (the report's front page
# shows coverage.txt)
{
	html_head "bklfree coverage map"
	echo '<h1>Coverage map</h1>'
	printf '<pre>%s</pre>\n' "$(sed -n '1,/^seed patch paths/p' "$RESULTS/coverage.txt" | html_escape)"
	echo '<table><tr><th>file</th><th>state</th><th>profiles</th><th>reason</th></tr>'
	# One row a file, its texts escaped as html_escape does.
	awk -F "$tab" "$HTML_ESC_AWK"'
	{ r = $4
		if (r == "-" && $5 != "-" && $2 != "exercised") r = "- (reachable: " $5 ")"
		printf "<tr><td>%s</td><td class=\"%s\">%s</td><td>%s</td><td>%s</td></tr>\n",
			esc($1), $2, $2, esc($3), esc(r) }' "$w/map"
	echo '</table><p><a href="coverage.tsv">coverage.tsv</a>, <a href="coverage.txt">coverage.txt</a>, <a href="index.html">the report</a></p>'
	html_tail
} >"$RESULTS/coverage.html"

sed -n '1,/^seed patch paths/p' "$RESULTS/coverage.txt"
echo "coverage: results/coverage.tsv, results/coverage.txt, results/coverage.html"
rc=0
if [ -s "$w/unclassified" ]; then
	printf 'error: %s file(s) not exercised have neither a reason (%s) nor a way a guest reaches them (%s):\n' \
		"$(wc -l <"$w/unclassified")" "$REASONS" "$REACHABLE" >&2
	sed 's/^/  /' "$w/unclassified" >&2
	rc=1
fi
if [ -s "$w/both" ]; then
	printf 'error: %s file(s) have a reason and are listed reachable; keep one:\n' "$(wc -l <"$w/both")" >&2
	sed 's/^/  /' "$w/both" >&2
	rc=1
fi
if [ "$rc" = 0 ] && [ -n "$UPDATE_DOCS" ]; then
	cp "$RESULTS/coverage.tsv" "$TOP/docs/coverage.tsv"
	echo "coverage: docs/coverage.tsv updated"
fi
exit "$rc"
