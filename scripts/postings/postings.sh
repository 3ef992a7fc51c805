#!/bin/sh
# postings.sh [SUBSYS...]: make postings. For each subsystem of
# patches/subsystems.tsv (or those named), results/postings/SUBSYS/ (with
# more than 15 patches, SUBSYS/part-K-of-M/, each at most 15) holds
# git format-patch mails: 0000-cover-letter.patch (cover-letter.sh) and
# the patches numbered [PATCH 01/15], threaded under the cover letter,
# To the maintainers and Cc the reviewers and lists that the pristine
# tree's scripts/get_maintainer.pl names for them.
# The patches go through git itself: git am onto a git work tree of the
# pristine tree (pristine-git.sh), one subsystem at a time from pristine,
# so every posting applies alone. Author, committer and Signed-off-by are
# the user's git identity (git config user.name and user.email), the way
# git format-patch -s signs; the lab's own identity, which signs the
# patches in this repository, is replaced by it. No identity: refused.
# POSTINGS_OUT overrides the output directory (the host tests use it).
. "$(dirname "$0")/../lab/lib.sh"
need_tree
here=$(dirname "$0")
out=${POSTINGS_OUT:-$RESULTS/postings}
max=15

# The user's identity, from the configuration git reads in this checkout.
name=$(git -C "$TOP" config user.name)
email=$(git -C "$TOP" config user.email)
[ -n "$name" ] && [ -n "$email" ] ||
	die "no git identity: postings are signed with your git user.name and user.email; set them with 'git config --global user.name \"Your Name\"' and 'git config --global user.email you@example.org'"
lab=$(lab_git_identity && echo "$GIT_AUTHOR_NAME <$GIT_AUTHOR_EMAIL>")

[ $# -gt 0 ] || set -- $("$here/subsys.sh" list)
nsub=$#
for s; do "$here/subsys.sh" patches "$s" >/dev/null || exit 1; done

work="$BUILD/postings/work"
"$here/pristine-git.sh" "$work" || exit 1
# Only the identity and settings given here count, never the user's
# other git configuration (hooks, am.threeWay, format.* ...).
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null TZ=UTC LC_ALL=C
export GIT_AUTHOR_NAME="$name" GIT_AUTHOR_EMAIL="$email"
export GIT_COMMITTER_NAME="$name" GIT_COMMITTER_EMAIL="$email"
unset GIT_AUTHOR_DATE GIT_COMMITTER_DATE
g() { git -C "$work" "$@"; }

start=$(now)
mkdir -p "$out"
total=0
for s; do
	g reset -q --hard pristine || die "cannot reset '$work'"
	list=$("$here/subsys.sh" patches "$s")
	for p in $list; do
		log="$BUILD/logs/postings-$s.log"
		g am -q "$TOP/patches/$p" >"$log" 2>&1 || {
			g am --abort >/dev/null 2>&1
			die "subsystem '$s': 'patches/$p' does not git am onto the pristine tree after the subsystem's earlier patches; log: $log"
		}
		# The user is the author; the lab's sign-off gives way to the
		# user's, which format-patch -s adds.
		g log -1 --format=%B | awk -v lab="Signed-off-by: $lab" '$0 != lab' |
			g commit -q --amend --reset-author -F - ||
			die "subsystem '$s': cannot re-sign 'patches/$p'"
	done
	n=$(echo "$list" | wc -l)
	parts=$(((n + max - 1) / max))
	rm -rf "${out:?}/$s"
	mkdir -p "$out/$s"
	k=1 first=0
	while [ "$k" -le "$parts" ]; do
		# Parts as even as they can be: part k ends at patch k*n/parts.
		last=$((k * n / parts))
		dir="$out/$s"
		[ "$parts" -eq 1 ] || dir="$out/$s/part-$k-of-$parts"
		mine=$(echo "$list" | sed -n "$((first + 1)),${last}p")
		# shellcheck disable=SC2086 # patch names are words
		"$here/cover-letter.sh" "$s" "$k" "$parts" $mine >"$dir.cover" ||
			die "cannot write the cover letter of '$s'"
		# To: maintainers and supporters; Cc: reviewers and lists.
		set --
		for p in $mine; do set -- "$@" "$TOP/patches/$p"; done
		(cd "$PRISTINE" && perl scripts/get_maintainer.pl --nogit --nogit-fallback \
			--rolestats "$@") >"$dir.maint" 2>"$BUILD/logs/postings-$s.maint.log" ||
			die "get_maintainer.pl failed for '$s'; log: $BUILD/logs/postings-$s.maint.log"
		# No maintainer (only reviewers or lists): they are the To.
		cc=--cc
		grep -q '(maintainer:\|(supporter:\|(odd fixer:' "$dir.maint" || cc=--to
		set --
		while IFS= read -r l; do
			# The address without its role; a role may hold parentheses.
			case $l in
			*">"*) addr="${l%%>*}>" ;;
			*) addr=${l%% (*} ;;
			esac
			case $l in
			*"(maintainer:"* | *"(supporter:"* | *"(odd fixer:"*) set -- "$@" "--to=$addr" ;;
			*) set -- "$@" "$cc=$addr" ;;
			esac
		done <"$dir.maint"
		base=$(g rev-parse "HEAD~$((n - first))")
		g format-patch -q -s --cover-letter --thread=shallow --numbered \
			--no-signature -o "$dir" "$@" "$base..HEAD~$((n - last))" ||
			die "git format-patch failed for '$s'"
		# The cover letter's subject and blurb are cover-letter.sh's.
		awk -v cover="$dir.cover" '
			BEGIN { getline subj < cover; while ((getline l < cover) > 0) body = body l "\n" }
			/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, subj) }
			/^\*\*\* BLURB HERE \*\*\*$/ { printf "%s", body; next }
			{ print }' "$dir/0000-cover-letter.patch" >"$dir.tmp" &&
			mv "$dir.tmp" "$dir/0000-cover-letter.patch"
		rm -f "$dir.cover" "$dir.maint"
		first=$last k=$((k + 1))
	done
	total=$((total + n))
	progress postings "$s: $n patch(es)$([ "$parts" -eq 1 ] || echo " in $parts parts")"
done
progress postings "$total patches of $nsub subsystem(s) in $out in $(elapsed "$start") s, signed by $name <$email>"
