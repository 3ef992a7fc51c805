#!/bin/sh
# llseek-report.sh: classify the llseek of every struct file_operations and
# struct proc_ops initialiser of the pristine tree (make llseek-report).
#   results/llseek/report.tsv      one row per initialiser, per literal
#                                  element of an array, or per use of a
#                                  macro of the rule's MACROS table, from
#                                  coccinelle/llseek/fops_llseek.cocci; the
#                                  columns and classes are in
#                                  coccinelle/llseek/README.md
#   results/llseek/crosscheck.tsv  the independent count: every initialiser
#                                  a regular expression finds in the files
#                                  that name the two types, and whether the
#                                  report has it
#   results/llseek/decisions.tsv   the reviewed rows: every row whose
#                                  action is "review: ...", and every row
#                                  coccinelle/llseek/decisions.tsv decides,
#                                  joined by file and name with that
#                                  decision (fix or keep, its patch and
#                                  reason), or "-" when nobody decided yet
#   stdout                         class counts, cross-check, decisions
#                                  per class, wall time
# Fails when spatch gives up on a file or when the regular expression finds
# a literal initialiser outside a #define, or a use of a table macro, that
# the report lacks.
# LLSEEK_TREE (default build/pristine) and LLSEEK_OUT (default
# results/llseek) let the host tests run it on a small tree.
. "$(dirname "$0")/../lab/lib.sh"
. "$TOP/scripts/llseek/llseek-lib.sh"
[ "$LLSEEK_TREE" != "$PRISTINE" ] || need_tree
command -v spatch >/dev/null || die "spatch is missing: run 'make deps'"
: "${LLSEEK_OUT:=$RESULTS/llseek}"

# The macros of the rule's MACROS table (an initialiser in a header's
# #define body, a row per use): their uses make a file a candidate too.
macros='DEFINE_(SHOW|SEQ|PROC_SHOW)_ATTRIBUTE|DEFINE_(SIMPLE|DEBUGFS)_ATTRIBUTE(_SIGNED)?|DEFINE_DRM_GEM(_DMA)?_FOPS'

start=$(now)
work="$BUILD/llseek/report"
mkdir -p "$work" "$LLSEEK_OUT"
# The files naming either type or a macro (the independent count below
# reads them all), in one pass over the tree; spatch's are those of them
# with an initialiser's "struct TYPE" or a macro use: a line that has
# either also names the type or the macro.
llseek_candidates "(^|[^_[:alnum:]])(file_operations|proc_ops|$macros)([^_[:alnum:]]|\$)" \
	>"$work/files-wide" || die "cannot list the files of '$LLSEEK_TREE'"
(cd "$LLSEEK_TREE" && xargs sh -c 'grep -lE "$0" "$@" || [ $? = 1 ]' \
	"struct[[:space:]]+(file_operations|proc_ops)([^_[:alnum:]]|\$)|(^|[^_[:alnum:]])($macros)[[:space:]]*\\(") \
	<"$work/files-wide" >"$work/files" || die "cannot list the files of '$LLSEEK_TREE'"
nfiles=$(wc -l <"$work/files")

llseek_spatch fops_llseek.cocci report "$work/files" "$work/spatch" ||
	die "spatch failed on the files above; log: $work/spatch/err"

{
	printf 'file\tline\tname\tkind\tllseek\topen\topen_unseekable'
	printf '\tread\tread_pos\twrite\twrite_pos\tread_iter\tread_iter_pos'
	printf '\twrite_iter\twrite_iter_pos\tseq_file\tother_pos\tclass\taction\n'
	sed 's|^\./||' "$work/spatch/out" |
		LC_ALL=C sort -t "$(printf '\t')" -k1,1 -k2,2n -k3,3
} >"$LLSEEK_OUT/report.tsv"
spatch_time=$(elapsed "$start")

# The independent count: a regular expression over every file that names
# file_operations or proc_ops (a superset of spatch's files), comments
# blanked out. It sees "struct file_operations [ATTRS] NAME [N] [ATTRS] = {"
# across lines. "form" is plain, array, macro (inside a #define, where
# spatch cannot look) or if0 (under #if 0, which spatch skips as the
# compiler does). A use of one of the macros outside a #define body and
# #if 0, "NAME(ARG", is form "macro-use", named as its definition names
# the initialiser: ARG_fops (DEFINE_SHOW_ATTRIBUTE, DEFINE_SEQ_ATTRIBUTE),
# ARG_proc_ops (DEFINE_PROC_SHOW_ATTRIBUTE), else ARG.
(cd "$LLSEEK_TREE" && MACROS=$macros xargs perl -e '
	my $attr = qr/__\w++\s*(?:\((?:[^()]|\([^()]*\))*\))?\s*/;
	for my $f (@ARGV) {
		open(my $fh, "<", $f) or die "cannot read $f\n";
		local $/;
		my $s = <$fh>;
		$s =~ s{/\*.*?\*/}{ (my $c = $&) =~ s/[^\n]/ /g; $c }gse;
		$s =~ s{//[^\n]*}{}g;
		my @lines = split /\n/, $s, -1;
		my (@dead, @stack);
		for my $i (0 .. $#lines) {
			local $_ = $lines[$i];
			if (/^\s*#\s*if/) {
				push @stack, /^\s*#\s*if\s+0\b/ ? 1 : 0;
			} elsif (/^\s*#\s*el/) {
				$stack[-1] = 0 if @stack;
			} elsif (/^\s*#\s*endif/) {
				pop @stack;
			}
			$dead[$i + 1] = grep { $_ } @stack;
		}
		while ($s =~ /\bstruct\s+(file_operations|proc_ops)\s+
			      (?:$attr)*(\w(?:\w|\s|\#\#)*?)\s*
			      (\[[^\]]*\])?\s*(?:$attr)*=\s*\{/gx) {
			my ($kind, $name, $arr, $at) = ($1, $2, $3, $-[2]);
			my $line = 1 + (substr($s, 0, $at) =~ tr/\n//);
			my $bol = rindex($s, "\n", $-[0]) + 1;
			my $eol = index($s, "\n", $-[0]);
			my $phys = substr($s, $bol, $eol - $bol);
			$name =~ s/\s+/ /g;
			my $form = ($phys =~ /\\\s*$/ || $name =~ /#/) ? "macro" :
				$dead[$line] ? "if0" :
				defined($arr) ? "array" : "plain";
			print "$f\t$line\t$name\t$kind\t$form\n";
		}
		(my $macros = $ENV{MACROS}) =~ s/\((?!\?)/(?:/g;
		for my $i (0 .. $#lines) {
			next unless $lines[$i] =~
			    /^\s*(?:static\s+)?($macros)\s*\(\s*(\w+)/;
			my ($m, $arg) = ($1, $2);
			next if $lines[$i] =~ /\\\s*$/ ||
			    ($i > 0 && $lines[$i - 1] =~ /\\\s*$/) || $dead[$i + 1];
			my ($kind, $name) = ("file_operations", $arg);
			$name .= "_fops" if $m =~ /^DEFINE_(SHOW|SEQ)_ATTRIBUTE$/;
			($kind, $name) = ("proc_ops", "${arg}_proc_ops")
				if $m eq "DEFINE_PROC_SHOW_ATTRIBUTE";
			print "$f\t", $i + 1, "\t$name\t$kind\tmacro-use\n";
		}
	}' <"$work/files-wide") | LC_ALL=C sort -t "$(printf '\t')" -k1,1 -k2,2n \
	>"$work/grep.tsv" || die "the independent count failed"

# Join: plain by file, line and name; an array by file and name (the report
# has a row per literal element, "name[]"). Report rows whose name the
# regular expression never saw in that file come last, as "report-only".
awk -F'\t' -v OFS='\t' '
	NR == FNR {
		if (FNR == 1) next
		name = $3; array = sub(/\[\]$/, "", name)
		if (array) arrays[$1 SUBSEP name] = 1
		else plain[$1 SUBSEP $2 SUBSEP name] = 1
		rep[FNR] = $1 OFS $2 OFS $3 OFS $4; repkey[FNR] = $1 SUBSEP name
		next
	}
	{
		grepped[$1 SUBSEP $3] = 1
		if ($5 == "plain" || $5 == "macro-use")
			has = ($1 SUBSEP $2 SUBSEP $3) in plain
		else if ($5 == "array") has = ($1 SUBSEP $3) in arrays
		else has = 0
		print $1, $2, $3, $4, $5, has ? "yes" : "no"
	}
	END {
		for (i in rep)
			if (!(repkey[i] in grepped))
				print rep[i], "report-only", "yes"
	}' "$LLSEEK_OUT/report.tsv" "$work/grep.tsv" |
	LC_ALL=C sort -t "$(printf '\t')" -k1,1 -k2,2n |
	{ printf 'file\tline\tname\tkind\tform\tin_report\n'; cat; } \
	>"$LLSEEK_OUT/crosscheck.tsv"

rows=$(($(wc -l <"$LLSEEK_OUT/report.tsv") - 1))
elems=$(awk -F'\t' 'NR > 1 && $3 ~ /\[\]$/' "$LLSEEK_OUT/report.tsv" | wc -l)
uses=$(awk -F'\t' 'NR > 1 && $18 == "macro"' "$LLSEEK_OUT/report.tsv" | wc -l)
count() { # count FORM [IN_REPORT]: cross-check rows of that form
	awk -F'\t' -v f="$1" -v r="$2" \
		'NR > 1 && $5 == f && (r == "" || $6 == r)' \
		"$LLSEEK_OUT/crosscheck.tsv" | wc -l
}
echo "llseek report: $rows rows ($((rows - elems - uses)) initialisers," \
	"$elems array elements, $uses macro uses) from $nfiles files in" \
	"$spatch_time s"
awk -F'\t' 'NR > 1 { n[$18]++ }
	END { for (c in n) printf "  %-28s %5d\n", c, n[c] }' \
	"$LLSEEK_OUT/report.tsv" | LC_ALL=C sort
echo "cross-check: the regular expression finds $(count plain) plain and" \
	"$(count array) array initialisers, $(count macro) in #define" \
	"bodies, $(count if0) under #if 0"
echo "  plain in the report: $(count plain yes); arrays with literal" \
	"elements in it: $(count array yes); report rows it lacks:" \
	"$(count report-only)"
echo "  uses of the macros of the rule's table: $(count macro-use), in the" \
	"report: $(count macro-use yes); by the class of the definition:"
awk -F'\t' 'NR > 1 && $18 == "macro" {
		c = $19; sub(/^none at the use; /, "", c); sub(/:.*/, "", c)
		n[c]++
	}
	END { for (c in n) printf "    %-70s %5d\n", c, n[c] }' \
	"$LLSEEK_OUT/report.tsv" | LC_ALL=C sort
echo "  report: $LLSEEK_OUT/report.tsv; cross-check:" \
	"$LLSEEK_OUT/crosscheck.tsv ($(elapsed "$start") s in all)"

# The decisions: coccinelle/llseek/decisions.tsv (file, name, decision,
# patch, reason; LLSEEK_DECISIONS for the host tests) joined with the
# report by file and name. A decision whose initialiser the report lacks
# is listed last with class "-", and counted.
: "${LLSEEK_DECISIONS:=$TOP/coccinelle/llseek/decisions.tsv}"
decisions=$LLSEEK_DECISIONS
[ -f "$decisions" ] || decisions=/dev/null
awk -F'\t' -v OFS='\t' '
	FILENAME == ARGV[1] {
		if (FNR > 1 && NF >= 4)
			dec[$1 SUBSEP $2] = $3 OFS $4 OFS $5
		next
	}
	FNR == 1 { next }
	{
		k = $1 SUBSEP $3
		if (!(k in dec) && $19 !~ /^review/) next
		print $1, $2, $3, $18, (k in dec) ? dec[k] : "-" OFS "-" OFS "-"
		seen[k] = 1
	}
	END {
		for (k in dec)
			if (!(k in seen)) {
				split(k, f, SUBSEP)
				print f[1], "-", f[2], "-", dec[k]
			}
	}' "$decisions" "$LLSEEK_OUT/report.tsv" |
	LC_ALL=C sort -t "$(printf '\t')" -k1,1 -k2,2n -k3,3 |
	{ printf 'file\tline\tname\tclass\tdecision\tpatch\treason\n'; cat; } \
	>"$LLSEEK_OUT/decisions.tsv"
echo "decisions ($LLSEEK_DECISIONS), per class: fix, keep, undecided"
awk -F'\t' 'NR > 1 && $4 != "-" {
		n[$4]++
		if ($5 == "fix" || $5 == "keep") d[$4, $5]++
		else d[$4, "-"]++
	}
	NR > 1 && $4 == "-" { stale++ }
	END {
		for (c in n)
			printf "  %-28s %5d %5d %5d\n", c, d[c, "fix"],
				d[c, "keep"], d[c, "-"]
		if (stale)
			printf "  %-28s %5d\n", "(not in the report)", stale
	}' "$LLSEEK_OUT/decisions.tsv" | LC_ALL=C sort
echo "  decisions: $LLSEEK_OUT/decisions.tsv"
missing=$(awk -F'\t' 'NR > 1 && ($5 == "plain" || $5 == "macro-use") && $6 == "no" {
	print $1 ":" $2 " " $3 }' "$LLSEEK_OUT/crosscheck.tsv")
[ -z "$missing" ] || die "literal initialisers missing from the report:
$missing"
