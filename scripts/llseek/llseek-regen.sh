#!/bin/sh
# llseek-regen.sh [DIR]: regenerate the no_llseek removal series from the
# pristine tree (make regen). DIR defaults to patches/core.
#   1. coccinelle/llseek/no_llseek.cocci drops every .llseek = no_llseek and
#      .proc_lseek = no_llseek initialiser, on copies of the files that name
#      no_llseek;
#   2. lines Coccinelle cannot see, initialisers in #define bodies and in
#      comments, are removed as text, and the run stops if any other use of
#      no_llseek is left or if anything but such lines would change;
#   3. the changes become one commit per subsystem in a scratch git
#      repository (build/llseek/regen/git), then one for
#      scripts/coccinelle/api/stream_open.cocci and a last one that removes
#      the define from include/linux/fs.h and adds a porting.rst entry;
#   4. "git format-patch" writes each commit as
#      NNNN-llseek-<subsystem>-....patch in DIR, stale NNNN-llseek-*.patch
#      files there are removed, and the "# llseek: drop no_llseek" block of
#      DIR/series is rewritten (its other lines are kept).
# Author, dates and git's configuration are fixed, so the same tree gives
# the same bytes; tests/host/t4000-llseek-regen.sh checks the committed
# series against a regeneration.
. "$(dirname "$0")/../lab/lib.sh"
. "$TOP/scripts/llseek/llseek-lib.sh"
[ "$LLSEEK_TREE" != "$PRISTINE" ] || need_tree
command -v spatch >/dev/null || die "spatch is missing: run 'make deps'"
[ $# -le 1 ] || die "usage: llseek-regen.sh [DIR]"
dir=${1:-$TOP/patches/core}
mkdir -p "$dir" || die "cannot make '$dir'"

lab_git_identity
signoff="Signed-off-by: $GIT_AUTHOR_NAME <$GIT_AUTHOR_EMAIL>"
heading="# llseek: drop no_llseek"
# An initialiser line, in code, in a #define body or in a comment.
sp='[[:space:]]*'
init_re="^$sp(\\*$sp)?\\.(llseek|proc_lseek)$sp=${sp}no_llseek,?$sp(\\\\)?\$"
define_re='^#define no_llseek NULL$'

work="$BUILD/llseek/regen"
new="$work/new"
git="$work/git"
out="$work/out"
rm -rf "$new" "$git" "$out"
mkdir -p "$new" "$git" "$out"
start=$(now)
version=$(cat "$LLSEEK_TREE/.bklfree-extracted" 2>/dev/null)
spatch_version=$(spatch --version | sed -n 's/^spatch version \([^ ]*\).*/\1/p')

# 1. The rule, on copies. Nothing reads spatch's diff of them, which took
# more than half of its time (--no-show-diff: 24.8 -> 10.3 s CPU).
llseek_candidates '(^|[^_[:alnum:]])no_llseek([^_[:alnum:]]|$)' \
	>"$work/files" || die "cannot list the files of '$LLSEEK_TREE'"
llseek_spatch no_llseek.cocci patch "$work/files" "$work/spatch" --in-place --no-show-diff ||
	die "spatch failed on the files above; log: $work/spatch/err"
rmdir "$new" && mv "$work/spatch/tree" "$new" ||
	die "cannot collect the rewritten files"

# 2. What the rule cannot see, as text; then nothing may be left.
: >"$work/text"
while read -r f; do
	INIT_RE=$init_re awk -v f="$f" '
		function drop(why) { print f ":" NR ": " why >"/dev/stderr" }
		$0 ~ ENVIRON["INIT_RE"] && /\\[[:space:]]*$/ {
			drop("in a #define body"); next }
		$0 ~ ENVIRON["INIT_RE"] && /^[[:space:]]*\*/ {
			drop("in a comment"); next }
		{ print }' "$new/$f" >"$new/$f.tmp" 2>>"$work/text" &&
		mv "$new/$f.tmp" "$new/$f" || die "cannot edit '$new/$f'"
	left=$(grep -nw no_llseek "$new/$f" |
		grep -v '^[0-9]*:#define no_llseek NULL$')
	[ -z "$left" ] || die "'$f' still names no_llseek after the rule:
$left"
	if diff "$LLSEEK_TREE/$f" "$new/$f" | grep -q '^>'; then
		die "the rule changed more than initialiser lines in '$f'; see" \
			"diff $LLSEEK_TREE/$f $new/$f"
	fi
	diff "$LLSEEK_TREE/$f" "$new/$f" | sed -n 's/^< //p' |
		grep -Ev "$init_re|^[[:space:]]*$|$define_re" >"$work/odd" &&
		die "the rule removed other lines from '$f':
$(cat "$work/odd")"
done <"$work/files"

# subsystem PATH: drivers/x, fs/x, net/x, sound/x, arch/x; a file directly
# in one of those is the top directory itself ("fs", "net"); else the top.
subsystem() {
	case $1 in
	drivers/*/* | fs/*/* | net/*/* | sound/*/* | arch/*/*)
		echo "$1" | cut -d/ -f1-2 ;;
	*) echo "${1%%/*}" ;;
	esac
}
grep -v '^include/linux/fs\.h$' "$work/files" | while read -r f; do
	printf '%s\t%s\n' "$(subsystem "$f")" "$f"
done | sort -t "$(printf '\t')" -k1,1 -k2,2 >"$work/groups"

# 3. The scratch repository: the pristine files, then one commit a patch.
g() {
	git -C "$git" -c core.abbrev=12 -c format.signature= "$@"
}
extra="include/linux/fs.h Documentation/filesystems/porting.rst
scripts/coccinelle/api/stream_open.cocci"
(cat "$work/files"; printf '%s\n' $extra) | sort -u >"$work/copied"
(cd "$LLSEEK_TREE" && cp --parents $(cat "$work/copied") "$git") ||
	die "cannot copy the pristine files into '$git'"
g init -q && g add -A && g commit -q -m "pristine 6.1 files" ||
	die "cannot make the scratch repository '$git'"

# plural N WORD: "1 file", "2 files".
plural() {
	if [ "$1" = 1 ]; then echo "1 $2"; else echo "$1 ${2}s"; fi
}

n=0
# commit NAME: commit the index with the message on stdin and write the
# next patch as NNNN-llseek-NAME.patch.
commit() {
	n=$((n + 1))
	name=$(printf '%04d-llseek-%s.patch' "$n" "$1")
	g commit -q -F - &&
		g format-patch -1 -N --stdout --zero-commit --no-signature HEAD \
			>"$out/$name" || die "cannot write '$name'"
	echo "$name" >>"$out/series"
}

: >"$out/series"
for s in $(cut -f1 "$work/groups" | uniq); do
	files=$(awk -F'\t' -v s="$s" '$1 == s { print $2 }' "$work/groups")
	for f in $files; do
		cp "$new/$f" "$git/$f" && g add "$f" || die "cannot stage '$f'"
	done
	inits=$(g diff --cached |
		grep -Ec "^-$(printf %s "$init_re" | cut -c2-)")
	nfiles=$(echo "$files" | wc -l)
	text=$(for f in $files; do grep "^$f:" "$work/text"; done)
	{
		cat <<EOF
$s: drop no_llseek initialisers

no_llseek has been a plain "#define no_llseek NULL" since
commit 868941b14441 ("fs: remove no_llseek") in 6.0. Setting .llseek
(or .proc_lseek) to it stores NULL, which is what leaving the member out
stores: do_dentry_open() clears FMODE_LSEEK for a NULL ->llseek (procfs
does the same for a NULL ->proc_lseek), so lseek(2) keeps failing with
ESPIPE, and pread/pwrite keep working as before. Dropping the
initialisers changes no behaviour; once every subsystem has done so the
define can go, as upstream did tree-wide in 6.12 with
commit cb787f4ac0c2 ("[tree-wide] finally take no_llseek out").

This patch covers $s: $(plural "$inits" initialiser) in $(plural "$nfiles" file).

Generated by scripts/llseek/llseek-regen.sh with the semantic patch
coccinelle/llseek/no_llseek.cocci (spatch $spatch_version) on Debian's
linux-source-6.1 ${version:-(unknown version)}.
EOF
		if [ -n "$text" ]; then
			printf '\n%s %s\n' "Coccinelle does not see these;" \
				"the generator removed them as text:"
			echo "$text" | sed 's/^/  /'
		fi
		printf '\n%s\n' "$signoff"
	} >"$work/message"
	commit "$(echo "$s" | tr / -)-drop-no_llseek" <"$work/message"
done

# stream_open.cocci tells no_llseek from other .llseek values; with no
# no_llseek left that rule never matches, so it goes.
sc="scripts/coccinelle/api/stream_open.cocci"
awk '
	/^@ has_no_llseek @$/ { skip = 1 }
	skip && /^$/ { skip = 0; next }
	skip { next }
	{ sub(/ \|\| has_no_llseek/, ""); print }' "$LLSEEK_TREE/$sc" \
	>"$git/$sc" && ! grep -qw no_llseek "$git/$sc" &&
	! cmp -s "$LLSEEK_TREE/$sc" "$git/$sc" ||
	die "'$sc' no longer has the has_no_llseek rule this script removes"
g add "$sc" || die "cannot stage '$sc'"
commit coccinelle-stream_open-forget-no_llseek <<EOF
coccinelle: stream_open: forget no_llseek

The previous patches of this series removed every .llseek = no_llseek
initialiser, and the next one removes the define. The has_no_llseek rule
of stream_open.cocci then never matches, and "!has_llseek ||
has_no_llseek || has_noop_llseek" says the same as "!has_llseek ||
has_noop_llseek": a fops without .llseek is what a no_llseek one has
become. Drop the rule so that the script stops naming a symbol that no
longer exists.

Generated by scripts/llseek/llseek-regen.sh (a text edit of the rule).

$signoff
EOF

# The define and its porting note.
awk -v re="$define_re" '$0 !~ re' "$LLSEEK_TREE/include/linux/fs.h" \
	>"$git/include/linux/fs.h" &&
	[ "$(diff "$LLSEEK_TREE/include/linux/fs.h" "$git/include/linux/fs.h" |
		grep -c '^[<>]')" = 1 ] ||
	die "'include/linux/fs.h' has no '#define no_llseek NULL' line"
cat >>"$git/Documentation/filesystems/porting.rst" <<'EOF'

---

**mandatory**

The no_llseek define (NULL since 6.0) is gone too.  A file that must
fail lseek(2) with ESPIPE leaves ->llseek NULL, or has its ->open() call
nonseekable_open() or stream_open() when pread/pwrite must fail as well;
one that accepts lseek(2) without a position of its own uses noop_llseek.
EOF
g add include/linux/fs.h Documentation/filesystems/porting.rst ||
	die "cannot stage the define's removal"
commit fs-drop-the-no_llseek-define <<EOF
fs: drop the no_llseek define

The patches before this one removed every .llseek = no_llseek and
.proc_lseek = no_llseek initialiser. no_llseek has been NULL since
commit 868941b14441 ("fs: remove no_llseek"), kept only so that those
initialisers kept compiling; it has no users now, so remove it and say
in porting.rst what to use instead. Out-of-tree code that still sets it
fails to build and should drop the line, as upstream did in 6.12 with
commit cb787f4ac0c2 ("[tree-wide] finally take no_llseek out").

Generated by scripts/llseek/llseek-regen.sh.

$signoff
EOF

# 4. Into DIR: the patches, and the series block.
for f in "$dir"/[0-9][0-9][0-9][0-9]-llseek-*.patch; do
	[ -e "$f" ] || continue
	[ -f "$out/$(basename "$f")" ] || rm -f "$f"
done
for f in "$out"/*.patch; do
	cmp -s "$f" "$dir/$(basename "$f")" || cp "$f" "$dir/" ||
		die "cannot write '$dir/$(basename "$f")'"
done
[ -f "$dir/series" ] || : >"$dir/series"
awk -v h="$heading" -v list="$out/series" '
	function block() {
		print h
		while ((getline l < list) > 0) print l
		done = 1
	}
	$0 == h { skip = 1; next }
	skip && /^[0-9][0-9][0-9][0-9]-llseek-.*\.patch$/ { next }
	skip && /^$/ { skip = 0; block(); print; next }
	skip { skip = 0; block(); print ""; print; next }
	# Before the first heading after the file comment, when there is none.
	!done && !skip && blank && /^# / { block(); print "" }
	{ blank = /^$/; print }
	END { if (skip || !done) { if (!skip && NR) print ""; block() } }
' "$dir/series" >"$work/series" || die "cannot rewrite '$dir/series'"
cmp -s "$work/series" "$dir/series" || cp "$work/series" "$dir/series" ||
	die "cannot write '$dir/series'"
summary="$n patches ($(wc -l <"$work/groups") files) in $dir"
progress regen "$summary in $(elapsed "$start") s"
