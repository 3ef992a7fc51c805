#!/bin/sh
# needs: kernels
# (It needs no kernel, but takes over 2 minutes, about 3.5 on 2 cores:
# make check runs it after the build, make check-host does not.)
# make postings (scripts/postings/postings.sh) with a test identity, into
# TMPDIR: each subsystem's posting, its parts in order, git ams alone onto
# a fresh git work tree of the pristine tree (reset between postings) and
# gives the map's patches; at most 15 patches a part, numbered [PATCH n/m],
# a cover letter with subject, body and To:; author and last sign-off the
# user's; every Fixes: line of a patch is kept. Drivers patches without a
# Fixes: line are listed (issue 13 part 2), not failed. With no identity
# configured, postings are refused and nothing is written.
. "$TOP/tests/host/ktap.sh"
ktap_plan 7
P="$TOP/scripts/postings"

# No identity: a clone with no repo identity, no global or system config.
git clone -q --shared "$TOP" "$TMPDIR/clone" 2>/dev/null
mkdir -p "$TMPDIR/home"
out=$(cd "$TMPDIR/clone" && HOME="$TMPDIR/home" GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 \
	TOP="$TMPDIR/clone" POSTINGS_OUT="$TMPDIR/none" sh scripts/postings/postings.sh media 2>&1)
rc=$?
ktap_diag "$out"
[ $rc -ne 0 ] && echo "$out" | grep -q "^error: no git identity: .*git config --global user.name" &&
	[ ! -e "$TMPDIR/none" ]
ktap_ok $? "with no git identity, postings are refused with a clear error and nothing is written"

printf '[user]\n\tname = A. U. Thor\n\temail = author@example.org\n' >"$TMPDIR/gitconfig"
export GIT_CONFIG_GLOBAL="$TMPDIR/gitconfig"
who="$(git -C "$TOP" config user.name) <$(git -C "$TOP" config user.email)>"
start=$(date +%s)
POSTINGS_OUT="$TMPDIR/postings" sh "$P/postings.sh" >"$TMPDIR/log" 2>&1
ktap_ok $? "make postings writes every subsystem's posting" || ktap_diag "$(tail -n 5 "$TMPDIR/log")"
ktap_diag "postings made in $(($(date +%s) - start)) s, signed by $who"

# The mails of one posting, parts in order (names sort so).
mails() { find "$TMPDIR/postings/$1" -name '[0-9]*.patch' ! -name '0000-*' | sort; }
export GIT_CONFIG_NOSYSTEM=1
sh "$P/pristine-git.sh" "$TMPDIR/work" || ktap_bail "no git work tree of the pristine tree"
unset GIT_CONFIG_GLOBAL
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.org \
	GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.org
start=$(date +%s)
am_bad= n_bad= form_bad= fixes_bad= id_bad= nofixes=
for s in $(sh "$P/subsys.sh" list); do
	want=$(sh "$P/subsys.sh" patches "$s")
	git -C "$TMPDIR/work" reset -q --hard pristine
	# shellcheck disable=SC2046 # mail paths have no spaces
	if ! git -C "$TMPDIR/work" am -q $(mails "$s") >"$TMPDIR/am.log" 2>&1; then
		am_bad="$am_bad $s"
		git -C "$TMPDIR/work" am --abort 2>/dev/null
		continue
	fi
	[ "$(git -C "$TMPDIR/work" rev-list --count pristine..HEAD)" = "$(echo "$want" | wc -l)" ] ||
		n_bad="$n_bad $s"
	for d in $(find "$TMPDIR/postings/$s" -name 0000-cover-letter.patch | sort); do
		d=$(dirname "$d")
		n=$(ls "$d" | grep -vc '^0000-')
		[ "$n" -le 15 ] && grep -q '^Subject: \[PATCH 0*0/'"$n"'\] '"$s"': ' "$d/0000-cover-letter.patch" &&
			grep -q '^To: ' "$d/0000-cover-letter.patch" &&
			! grep -q '\*\*\* \(SUBJECT\|BLURB\) HERE' "$d/0000-cover-letter.patch" &&
			grep -q '^How it was tested:' "$d/0000-cover-letter.patch" &&
			[ "$(grep -l "^Subject: \[PATCH 0*[1-9][0-9]*/$n\] " "$d"/0*.patch | wc -l)" = "$n" ] ||
			form_bad="$form_bad ${d#"$TMPDIR/postings/"}"
	done
	# Author and the last sign-off of every commit are the user's.
	[ "$(git -C "$TMPDIR/work" log --format='%an <%ae>' pristine..HEAD | sort -u)" = "$who" ] &&
		for c in $(git -C "$TMPDIR/work" rev-list pristine..HEAD); do
			git -C "$TMPDIR/work" log -1 --format=%B "$c" | grep '^Signed-off-by: ' | tail -n 1
		done | grep -vqxF "Signed-off-by: $who"
	[ $? -eq 1 ] || id_bad="$id_bad $s"
	# Every Fixes: line of a patch is in its mail.
	for p in $want; do
		m=$(grep -l "^Subject: .*$(sed -n 's/^Subject: \(\[[^]]*\] \)\{0,1\}//p' "$TOP/patches/$p" | head -n 1 | cut -c1-30 | sed 's/[][\.*^$/]/./g')" $(mails "$s") | head -n 1)
		grep '^Fixes: ' "$TOP/patches/$p" | while read -r f; do
			grep -qxF "$f" "$m" || echo "$p"
		done | grep -q . && fixes_bad="$fixes_bad $p"
		case $p in drivers/*)
			grep -q '^Fixes: ' "$TOP/patches/$p" || nofixes="$nofixes
$p" ;;
		esac
	done
done
ktap_ok "$([ -z "$am_bad" ] && echo 0 || echo 1)" "every posting git ams alone onto the pristine tree" ||
	ktap_diag "do not apply:$am_bad"
ktap_diag "git am of every posting in $(($(date +%s) - start)) s"
ktap_ok "$([ -z "$n_bad$form_bad" ] && echo 0 || echo 1)" "each posting holds its map's patches, at most 15 a part, numbered, with a cover letter" ||
	ktap_diag "wrong count:$n_bad; wrong form:$form_bad"
ktap_ok "$([ -z "$id_bad" ] && echo 0 || echo 1)" "author and last Signed-off-by are the user's git identity" ||
	ktap_diag "not signed by $who:$id_bad"
ktap_ok "$([ -z "$fixes_bad" ] && echo 0 || echo 1)" "every Fixes: line of a patch is kept in its mail" ||
	ktap_diag "lost Fixes: in$fixes_bad"
ktap_diag "drivers patches without a Fixes: line (issue 13 part 2):$(echo "$nofixes" | sed 's/^/ /' | tr -d '\n')"

# The Fixes: check can fail: a mail whose Fixes: line was dropped.
p=$(grep -l '^Fixes: ' "$TOP"/patches/drivers/*.patch | head -n 1)
f=$(grep -m1 '^Fixes: ' "$p")
grep -vxF "$f" "$p" >"$TMPDIR/nofix.patch"
! grep -qxF "$f" "$TMPDIR/nofix.patch" && grep -qxF "$f" "$p"
ktap_ok $? "a mail without its patch's Fixes: line is told apart"
ktap_done
