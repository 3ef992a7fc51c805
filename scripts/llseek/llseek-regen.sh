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
# check_file F: the checks of one rewritten file, each stopping the run
# with its own message: no no_llseek left but the define, no line gained,
# no line lost but initialisers, blank lines and the define.
check_file() {
	left=$(grep -nw no_llseek "$new/$1" |
		grep -v '^[0-9]*:#define no_llseek NULL$')
	[ -z "$left" ] || die "'$1' still names no_llseek after the rule:
$left"
	if diff "$LLSEEK_TREE/$1" "$new/$1" | grep -q '^>'; then
		die "the rule changed more than initialiser lines in '$1'; see" \
			"diff $LLSEEK_TREE/$1 $new/$1"
	fi
	diff "$LLSEEK_TREE/$1" "$new/$1" | sed -n 's/^< //p' |
		grep -Ev "$init_re|^[[:space:]]*$|$define_re" >"$work/odd" &&
		die "the rule removed other lines from '$1':
$(cat "$work/odd")"
}
# One awk for every file (a dozen processes a file were most of the
# run): it drops the initialiser lines in #define bodies and comments
# from each copy, logs them to $work/text ("FILE:LINE: WHY"), and makes
# the checks of check_file: a line naming no_llseek (as grep -w finds it)
# other than the define, the copy not a subsequence of the pristine file
# (a line gained), or a pristine line missing from it that is not an
# initialiser, blank or the define. It prints the first file that fails
# one, and check_file then says how.
: >"$work/text"
bad=$(INIT_RE=$init_re DEFINE_RE=$define_re NEW=$new OLD=$LLSEEK_TREE \
	TEXT="$work/text" awk '
	{
		f = $0
		path = ENVIRON["NEW"] "/" f
		n = 0
		while ((r = (getline l < path)) > 0)
			line[++n] = l
		close(path)
		if (r < 0)
			exit 2
		m = 0
		for (i = 1; i <= n; i++) {
			l = line[i]
			if (l ~ ENVIRON["INIT_RE"] && l ~ /\\[[:space:]]*$/)
				print f ":" i ": in a #define body" >ENVIRON["TEXT"]
			else if (l ~ ENVIRON["INIT_RE"] && l ~ /^[[:space:]]*\*/)
				print f ":" i ": in a comment" >ENVIRON["TEXT"]
			else
				kept[++m] = l
		}
		printf "" >path
		for (i = 1; i <= m; i++)
			print kept[i] >path
		if (close(path) < 0)
			exit 2
		for (i = 1; i <= m; i++)
			if (kept[i] ~ /(^|[^_[:alnum:]])no_llseek([^_[:alnum:]]|$)/ &&
			    kept[i] != "#define no_llseek NULL") {
				print f
				exit
			}
		path = ENVIRON["OLD"] "/" f
		j = 1
		while ((r = (getline l < path)) > 0) {
			if (j <= m && l == kept[j])
				j++
			else if (l !~ ENVIRON["INIT_RE"] && l !~ /^[[:space:]]*$/ &&
			    l !~ ENVIRON["DEFINE_RE"]) {
				print f
				exit
			}
		}
		close(path)
		if (r < 0 || j <= m) {
			print f
			exit
		}
	}' "$work/files") || die "cannot edit the copies in '$new'"
if [ -n "$bad" ]; then
	check_file "$bad"
	die "'$bad' fails a check of the rewritten files"
fi

# The subsystem of a file: drivers/x, fs/x, net/x, sound/x, arch/x; a
# file directly in one of those is the top directory itself ("fs",
# "net"); else the top.
awk '$0 != "include/linux/fs.h" {
	n = split($0, c, "/")
	s = c[1]
	if (n > 2 && (s == "drivers" || s == "fs" || s == "net" || s == "sound" || s == "arch"))
		s = s "/" c[2]
	print s "\t" $0
}' "$work/files" | sort -t "$(printf '\t')" -k1,1 -k2,2 >"$work/groups"

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
	nfiles=0
	for f in $files; do
		nfiles=$((nfiles + 1))
	done
	# shellcheck disable=SC2086 # files is one path a word
	(cd "$new" && cp --parents $files "$git") && g add -- $files ||
		die "cannot stage the files of '$s'"
	inits=$(g diff --cached | grep -Ec "^-${init_re#^}")
	# The lines step 2 removed from these files, file by file.
	text=$(printf '%s\n' $files | awk -F: 'NR == FNR { order[++n] = $0; next }
		{ by[$1] = by[$1] $0 "\n" }
		END { for (i = 1; i <= n; i++) printf "%s", by[order[i]] }' - "$work/text")
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
	tr_slash - "$s"
	commit "$slashed-drop-no_llseek" <"$work/message"
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
	[ -f "$out/${f##*/}" ] || rm -f "$f"
done
for f in "$out"/*.patch; do
	cmp -s "$f" "$dir/${f##*/}" || cp "$f" "$dir/" ||
		die "cannot write '$dir/${f##*/}'"
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
