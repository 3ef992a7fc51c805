#!/bin/sh
# staging-move-regen.sh [--check]: regenerate patches/staging-move/*.patch.
#
# A scratch git repository (build/staging-move/work) is made from copies of
# the pristine files the series touches, then patches/staging-move/series is
# walked in order:
#   - a pure move (listed in move_of below) is made with "git mv" and
#     committed with the message kept here;
#   - any other patch is the source of its own change: it is applied with
#     "git am" from patches/staging-move/.
# Every commit is then written back with "git format-patch -M", so the moves
# are git-style renames ("similarity index 100%") that GNU patch applies.
# Author, committer and dates are fixed and git's own configuration is
# ignored, so a second run writes the same bytes. With --check nothing is
# written: the run fails, naming the patch, when a regenerated patch differs
# from the tracked one.
#
# The series touches no file that patches/core changes, so the copies come
# from the pristine tree; scripts/lab/apply.sh proves the order core then
# staging-move on every "make apply".
. "$(dirname "$0")/../lab/lib.sh"
need_tree

check=
case ${1:-} in
--check) check=1 ;;
'') ;;
*) die "unknown argument '$1' (usage: staging-move-regen.sh [--check])" ;;
esac

dir="$TOP/patches/staging-move"
scratch="$BUILD/staging-move"
work="$scratch/work"
out="$scratch/out"

# Pristine paths the series reads or changes.
paths="fs/affs net/appletalk fs/Kconfig fs/Makefile net/Kconfig net/Makefile
drivers/staging/Kconfig drivers/staging/Makefile
drivers/net/appletalk/Kconfig MAINTAINERS Documentation/filesystems/affs.rst"

# move_of PATCH: "FROM TO" when PATCH is a pure move, else nothing.
move_of() {
	case $1 in
	0101-*) echo "fs/affs drivers/staging/affs" ;;
	0201-*) echo "net/appletalk drivers/staging/appletalk" ;;
	esac
}

# move_message PATCH: the commit message of a pure move.
move_message() {
	case $1 in
	0101-*) cat <<'EOF'
staging: affs: move fs/affs to drivers/staging/affs

The Amiga FFS lost its last lock_kernel() calls in 2.6.37, but the 2010
plan for such code ("BKL-free in 2.6.37 (maybe)", LWN) was to shift old,
little-maintained code into staging and remove it if nobody fixes it up.
MAINTAINERS lists affs as "Odd Fixes". Do that, as was done for ncpfs in
4.16 by
commit 1bb8155080c6 ("ncpfs: move net/ncpfs to drivers/staging/ncpfs").

This patch only renames files: no byte of code changes, so the move can
be reviewed with "git diff -M" and every later change to the driver is
visible on its own. The Kconfig and Makefile hooks follow in the next
patch; the tree does not configure between the two, so they are applied
together.

Signed-off-by: Seed 3daa4c11 maintainers <maintainers@users.noreply.a-seed-3daa4c11.example>
EOF
	;;
	0201-*) cat <<'EOF'
staging: appletalk: move net/appletalk to drivers/staging/appletalk

The 2010 BKL removal work ("BKL-free in 2.6.37 (maybe)", LWN) named
AppleTalk among the old code still needing the BKL and planned to move
such code into staging and remove it unless it gets fixed up. The BKL is
long gone, but the AppleTalk network layer has no maintainer: MAINTAINERS
lists it as "Odd fixes" with no M: line. Move it to staging, as was done
for ncpfs in 4.16 by
commit 1bb8155080c6 ("ncpfs: move net/ncpfs to drivers/staging/ncpfs").

This patch only renames files: no byte of code changes. The headers
(include/linux/atalk.h, include/uapi/linux/atalk.h) and the interface
drivers in drivers/net/appletalk/ stay where they are. The Kconfig and
Makefile hooks follow in the next patch; the tree does not configure
between the two, so they are applied together.

Signed-off-by: Seed 3daa4c11 maintainers <maintainers@users.noreply.a-seed-3daa4c11.example>
EOF
	;;
	esac
}

lab_git_identity

g() {
	git -C "$work" -c core.abbrev=12 -c diff.renames=true \
		-c format.signature= "$@"
}

rm -rf "$work" "$out"
mkdir -p "$work" "$out"
(cd "$PRISTINE" && cp -a --parents $paths "$work") ||
	die "cannot copy the pristine files into '$work'"
g init -q && g add -A && g commit -q -m "pristine 6.1 files" ||
	die "cannot make the scratch repository '$work'"

n=0
series_file "$dir/series" | while read -r p; do
	n=$((n + 1))
	mv=$(move_of "$p")
	if [ -n "$mv" ]; then
		mkdir -p "$work/$(dirname "${mv#* }")"
		g mv "${mv% *}" "${mv#* }" &&
			move_message "$p" | g commit -q -F - ||
			die "cannot make the move '$p'"
	else
		[ -f "$dir/$p" ] || die "'patches/staging-move/$p' is missing:" \
			"commit the change in '$work' and write it with format-patch"
		g am -q "$dir/$p" || die "'patches/staging-move/$p' does not apply" \
			"with git am; see '$work'"
	fi
	g format-patch -1 -M -N --stdout --zero-commit --no-signature \
		HEAD >"$out/$p" || die "cannot write '$p'"
done || exit 1

status=0
for f in "$out"/*.patch; do
	p=$(basename "$f")
	if [ -n "$check" ]; then
		cmp -s "$f" "$dir/$p" || {
			warn "'patches/staging-move/$p' differs from its regeneration;" \
				"diff $f $dir/$p"
			status=1
		}
	elif ! cmp -s "$f" "$dir/$p"; then
		cp "$f" "$dir/$p" && progress regen "wrote patches/staging-move/$p"
	fi
done
[ -n "$check" ] && [ "$status" = 0 ] &&
	progress regen "$(ls "$out" | wc -l) patches match their regeneration"
exit "$status"
