#!/bin/sh
# cover-letter.sh SUBSYS PART PARTS SERIES/PATCH...: the cover letter of
# one posting of make postings: the subject on the first line, then the
# body. Everything comes from the repository: what and why from each
# patch's first paragraph; the profiles that exercised its files and
# their coverage from docs/coverage.tsv; the verdicts of the last boots
# and the lseek ABI differences when results/ holds them; the findings it
# fixes from patches/*/findings; the build dependencies on other postings
# from patches/subsystem-deps.tsv.
. "$(dirname "$0")/../lab/lib.sh"
[ $# -ge 4 ] || die "usage: cover-letter.sh SUBSYS PART PARTS SERIES/PATCH..."
subsys=$1 part=$2 parts=$3
shift 3
tab=$(printf '\t')
cov="$TOP/docs/coverage.tsv"
tmp=${TMPDIR:-/tmp}/cover.$$
trap 'rm -f "$tmp".*' EXIT

# heading SERIES/PATCH: the "# " heading above the patch in its series file.
heading() {
	awk -v p="${1#*/}" '/^# / && NR > 1 { h = substr($0, 3) }
		$1 == p { print h; exit }' "$TOP/patches/${1%%/*}/series"
}
title=$(for p; do heading "$p"; done | sed 's/ (.*//' | awk 'NF && !seen[$0]++' |
	awk '{ printf "%s%s", sep, $0; sep = "; " }')
[ "$parts" -eq 1 ] || title="$title (part $part of $parts)"
echo "$subsys: ${title:-changes from the bklfree lab}"

for p; do
	awk '/^\+\+\+ b\// { sub(/^\+\+\+ b\//, ""); print } /^rename to / { print $3 }' \
		"$TOP/patches/$p"
done | sort -u >"$tmp.files"
awk -F'\t' -v ff="$tmp.files" 'BEGIN { while ((getline l < ff) > 0) f[l] = 1 }
	$1 in f && $2 == "exercised" { n = split($3, q, ","); for (i = 1; i <= n; i++) print q[i] }' \
	"$cov" 2>/dev/null | sort -u >"$tmp.profiles"

echo "This series comes from the bklfree lab, which applies its patches to"
echo "Debian's linux-source-6.1 ($(sed -n 's/^\(VERSION\|PATCHLEVEL\|SUBLEVEL\) = //p' "$PRISTINE/Makefile" | paste -sd.))"
echo "and boots pristine and patched kernels in QEMU against emulated devices."
[ "$parts" -eq 1 ] || echo "It is part $part of $parts of the $subsys patches (at most 15 a posting)$([ "$part" -eq 1 ] || echo "; it applies on top of part $((part - 1))")."
echo
echo "What and why:"
for p; do
	echo
	# The subject, its folded header lines joined.
	echo "- $(awk '/^Subject:/ { s = $0; while ((getline l) > 0 && l ~ /^[ \t]/) s = s l
		sub(/^Subject: (\[[^]]*\] )?/, "", s); gsub(/[ \t]+/, " ", s); print s; exit }' "$TOP/patches/$p")"
	# The first paragraph of the message: the problem it solves.
	awk '/^Subject:/ { s = 1; next } s == 1 && /^$/ { s = 2; next }
		s == 2 && /^$/ { if (n) exit; next } s == 2 { print "  " $0; n++ }' "$TOP/patches/$p"
done
if [ -f "$TOP/patches/subsystem-deps.tsv" ]; then
	awk -F'\t' -v s="$subsys" '/^#/ || $1 != s { next }
		!($3 in need) { why[++n] = $3 } { need[$3] = need[$3] " " $2 }
		END { for (i = 1; i <= n; i++)
			printf "\nIt must be applied after the postings of these subsystems, because\n%s:\n %s\n", why[i], need[why[i]] }' \
		"$TOP/patches/subsystem-deps.tsv" | fold -s -w 72
fi

echo
echo "How it was tested:"
echo
if [ -s "$tmp.profiles" ]; then
	echo "The lab profiles that exercised the files of this series (the function"
	echo "profiler saw their code run; docs/coverage.tsv of the last full run):"
	echo "$(paste -sd' ' "$tmp.profiles")."
	echo "'make apply SUBSYS=$subsys && make boot SUBSYS=$subsys' boots them on"
	echo "pristine 6.1 and on 6.1 with this subsystem's patches alone."
	while read -r pr; do
		b="$RESULTS/baseline/$pr/verdict" a="$RESULTS/patched/$pr/verdict"
		[ -f "$b" ] && [ -f "$a" ] || continue
		echo "  $pr: baseline $(kv "$b" verdict), patched $(kv "$a" verdict) (the last boots in results/)"
	done <"$tmp.profiles"
else
	echo "No lab profile exercised the files of this series (no QEMU model or"
	echo "not built for x86_64); it was compiled: make check builds every touched"
	echo "file in an allmodconfig tree."
fi
lseek=$(while read -r pr; do
	d="$RESULTS/lseek-diff/$pr.txt"
	[ -s "$d" ] && sed "s/^/  $pr: /" "$d"
done <"$tmp.profiles")
if [ -n "$lseek" ]; then
	echo
	echo "lseek ABI (lseek/lseek-abi walk, baseline -> patched) on those profiles:"
	echo "$lseek"
fi

found=$(for p; do
	grep -h "$tab${p#*/}\$" "$TOP/patches/${p%%/*}/findings" 2>/dev/null |
		awk -F'\t' '{ printf "  %s, %s: %s\n", $1, $2, $3 }'
done)
if [ -n "$found" ]; then
	echo
	echo "It fixes these failures of pristine 6.1 (profile, guest test: case):"
	echo "$found"
fi

echo
echo "Coverage of the files it touches (docs/coverage.tsv):"
awk -F'\t' -v ff="$tmp.files" 'BEGIN { while ((getline l < ff) > 0) f[l] = 1 }
	$1 in f { if ($2 == "exercised") printf "  %s: exercised (%d profiles)\n", $1, split($3, q, ",")
		else printf "  %s: %s%s\n", $1, $2, ($4 == "-" ? "" : " (" $4 ")"); seen[$1] = 1 }
	END { for (x in f) if (!(x in seen) && x ~ /\.c$/) printf "  %s: not in the map\n", x }' "$cov" 2>/dev/null |
	sort
