#!/bin/sh
# pristine-git.sh DIR: make DIR a git work tree of the pristine tree, its
# one commit tagged "pristine", for git am and git format-patch; prints
# nothing. DIR is a hard-link copy of build/pristine (git replaces a file
# it changes, unlinking the old name first, so the pristine tree is never
# written) sharing the objects of build/postings/pristine.git, which is
# committed once per extraction and reused (about 25 s on 2 cores).
# Everything is added with -f: the tarball's own .gitignore ignores ".*",
# "*.patch" and more, which would hide tracked files of the tree.
# core.trustctime off: making the hard links changes every inode's ctime.
. "$(dirname "$0")/../lab/lib.sh"
need_tree
[ $# -eq 1 ] || die "usage: pristine-git.sh DIR"
dir=$1
cache="$BUILD/postings/pristine.git"
stamp=$(cksum <"$PRISTINE/.bklfree-extracted")

# Git here never reads the user's configuration: only what is set below.
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
g() { git -c core.trustctime=false -c core.checkStat=minimal "$@"; }

if [ "$(cat "$cache/bklfree-stamp" 2>/dev/null)" != "$stamp" ]; then
	start=$(now)
	rm -rf "$cache"
	mkdir -p "$cache" "$BUILD/logs" || die "cannot make '$cache'"
	{
		git init -q --bare "$cache" &&
			g --git-dir="$cache" config core.bare false &&
			g --git-dir="$cache" --work-tree="$PRISTINE" add -f -A . &&
			g --git-dir="$cache" --work-tree="$PRISTINE" rm -q --cached .bklfree-extracted &&
			GIT_AUTHOR_NAME=pristine GIT_AUTHOR_EMAIL=pristine@bklfree.invalid \
			GIT_COMMITTER_NAME=pristine GIT_COMMITTER_EMAIL=pristine@bklfree.invalid \
			GIT_AUTHOR_DATE="2024-01-01 00:00:00 +0000" \
			GIT_COMMITTER_DATE="2024-01-01 00:00:00 +0000" \
				g --git-dir="$cache" --work-tree="$PRISTINE" commit -q -m "pristine $(cat "$PRISTINE/.bklfree-extracted")" &&
			g --git-dir="$cache" tag pristine
	} >"$BUILD/logs/pristine-git.log" 2>&1 ||
		{ rm -rf "$cache"; die "cannot commit the pristine tree to '$cache'; log: $BUILD/logs/pristine-git.log"; }
	echo "$stamp" >"$cache/bklfree-stamp"
	progress postings "pristine tree committed to git in $(elapsed "$start") s"
fi

rm -rf "$dir"
mkdir -p "$(dirname "$dir")"
cp -al "$PRISTINE/." "$dir" || die "cannot copy the pristine tree to '$dir'"
rm -f "$dir/.bklfree-extracted"
git init -q "$dir" &&
	echo "$cache/objects" >"$dir/.git/objects/info/alternates" &&
	cp "$cache/index" "$dir/.git/index" &&
	g -C "$dir" update-ref refs/heads/pristine-base "$(g --git-dir="$cache" rev-parse pristine)" &&
	g -C "$dir" tag pristine pristine-base &&
	g -C "$dir" symbolic-ref HEAD refs/heads/pristine-base &&
	g -C "$dir" config core.trustctime false &&
	g -C "$dir" config core.checkStat minimal &&
	g -C "$dir" config gc.auto 0 &&
	g -C "$dir" update-index -q --refresh >/dev/null ||
	die "cannot make the git work tree '$dir'"
