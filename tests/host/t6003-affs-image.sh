#!/bin/sh
# t6003-affs-image: the affs profile's images hold exactly tests/guest/
# affs/tree.h. For each flavour the profile and its neighbours use (OFS
# and FFS, plain, international, directory cache; 4 MiB and the profile's
# 16 MiB FFS), tools/affs/affs-image makes the volume and
#   - Debian's unadf (an independent reader) extracts every directory and
#     file with the bytes of "affs-image --tree" (the same table written
#     to a host directory; unadf shows no links, the guest tests read
#     those);
#   - tools/affs/fsck.affs finds it clean;
#   - a second run gives the same bytes (fixed dates, no randomness).
# Then bad command lines exit 2 with the usage line and leave no image.
. "$TOP/tests/host/ktap.sh"

command -v unadf >/dev/null || ktap_bail "unadf is not installed: run 'make deps'"
img_tool=$TOOLS/affs-image
fsck=$TOOLS/fsck.affs
w=$TMPDIR/t6003
TZ=UTC LC_ALL=C
export TZ LC_ALL
rm -rf "$w" && mkdir -p "$w" || ktap_bail "cannot make '$w'"
"$img_tool" --tree "$w/tree" || ktap_bail "affs-image --tree failed"

# listing DIR: each directory, and each file with its md5sum, no links.
listing() {
	(cd "$1" && find . ! -type l ! -path ./docs/hard | sort |
		while read -r p; do
			if [ -d "$p" ]; then echo "dir $p"; else md5sum "$p"; fi
		done)
}
listing "$w/tree" >"$w/want" || ktap_bail "cannot list the tree"
[ "$(grep -c . "$w/want")" -gt 100 ] || ktap_bail "the tree is too small"

ktap_plan 22
for spec in "ofs 4" "ofs,intl 4" "ofs,dircache 4" "ffs 4" "ffs,intl 4" \
	"ffs,dircache 4" "ffs 16"; do
	set -- $spec
	f=$1 mib=$2 img=$w/$1-$2.img
	"$img_tool" "$img" "$mib" "$f" 2>"$w/err"
	made=$?
	rm -rf "$w/x" && mkdir "$w/x"
	unadf -r "$img" -d "$w/x" >/dev/null 2>&1
	listing "$w/x" >"$w/got"
	[ $made = 0 ] && cmp -s "$w/want" "$w/got"
	ktap_ok $? "$f $mib MiB: unadf extracts exactly the tree" ||
		ktap_diag "$(cat "$w/err"; diff "$w/want" "$w/got" | head -n 10)"
	"$fsck" "$img" >"$w/out" 2>&1
	ktap_ok $? "$f $mib MiB: fsck.affs finds it clean" ||
		ktap_diag "$(head -n 10 "$w/out")"
	"$img_tool" "$img.2" "$mib" "$f" 2>/dev/null && cmp -s "$img" "$img.2"
	ktap_ok $? "$f $mib MiB: a second run gives the same bytes"
	rm -f "$img" "$img.2"
done

# usage_error DESC ARGS...: status 2, the usage line, no image left.
usage_error() {
	desc=$1
	shift
	(cd "$w" && "$img_tool" "$@") >/dev/null 2>"$w/err"
	st=$?
	[ $st = 2 ] && grep -q '^usage: affs-image' "$w/err" &&
		! ls "$w"/bad.img* >/dev/null 2>&1
	ktap_ok $? "$desc: status 2 and the usage line" ||
		ktap_diag "status $st; $(cat "$w/err")"
}
usage_error "a bad flavour" bad.img 4 hfs
ktap_done
