#!/bin/sh
# t6000-mkfs-affs-unadf: volumes made by tools/affs/mkfs.affs read back by an
# independent reader, Debian's unadf (ADFlib 0.7.11a). For each flavour,
# OFS and FFS, each plain, international (-i) and with directory cache
# (-d), the fixture tree of affs.sh is copied onto a 2M volume and
#   - unadf -lr lists exactly the golden names, sizes and dates (-lrc too,
#     from the directory cache blocks, where there are some);
#   - unadf -r -d extracts every file and directory with the same content;
#   - unadf prints no warning but the two of its own bugs in the golden
#     stderr files (see tools/README.md);
#   - looking names up goes through the hash chains: a nested path, and
#     "CAF\311" finds "caf\351" only in international mode.
# Then FFS volumes of 880K and 1760K (floppies to unadf), 64M and 1G
# (bitmap extension blocks) list the same.
# unadf shows neither soft nor hard links: t6002 checks those blocks.
. "$TOP/tests/host/ktap.sh"
. "$TOP/tests/host/affs.sh"

command -v unadf >/dev/null || ktap_bail "unadf is not installed: run 'make deps'"
mkfs=$TOOLS/mkfs.affs
w=$TMPDIR/t6000
rm -rf "$w" && mkdir -p "$w" && affs_fixture "$w/src" ||
	ktap_bail "cannot make the fixture in '$w'"
SOURCE_DATE_EPOCH=1577968496	# 2020-01-02 12:34:56 UTC
export SOURCE_DATE_EPOCH

# Expected extraction: each directory, and each file with its md5sum,
# but the links unadf does not extract.
(cd "$w/src" && find . ! -type l ! -path ./dir/hard | sort |
	while read -r p; do
		if [ -d "$p" ]; then echo "dir $p"; else md5sum "$p"; fi
	done) >"$w/want" || ktap_bail "cannot list the fixture"

# listing IMG OPTS: unadf's entry lines, sorted.
listing() {
	unadf $2 "$1" 2>/dev/null |
		grep '^ *[0-9]* *[0-9][0-9][0-9][0-9]/[0-9][0-9]/' | sort
}

ktap_plan 36
for t in ofs ffs; do
	for o in plain -i -d; do
		f=$t$o img=$w/$t$o.adf opt=
		[ "$o" = plain ] || opt=$o
		"$mkfs" -t "$t" $opt -s 2M -l Fixture -r "$w/src" "$img" \
			2>"$w/err"
		ktap_ok $? "$f: mkfs.affs -t $t $opt makes the volume" ||
			ktap_diag "$(cat "$w/err")"

		listing "$img" -lr >"$w/list"
		affs_golden listing.out "$w/list" "$f: unadf -lr lists the tree"
		if [ "$o" = -d ]; then
			listing "$img" -lrc >"$w/list"
			affs_golden listing.out "$w/list" \
				"$f: unadf -lrc lists it from the directory cache"
		fi

		rm -rf "$w/x" && mkdir "$w/x"
		unadf -r "$img" -d "$w/x" >/dev/null 2>"$w/err"
		(cd "$w/x" && find . | sort | while read -r p; do
			if [ -d "$p" ]; then echo "dir $p"; else md5sum "$p"; fi
		done) >"$w/got"
		cmp -s "$w/want" "$w/got"
		ktap_ok $? "$f: unadf -r extracts identical files" ||
			ktap_diag "$(diff "$w/want" "$w/got" | head -n 20)"
		affs_golden "stderr-$t.out" "$w/err" \
			"$f: unadf warns of its own bugs only"

		a=$(unadf -p "$img" dir/sub/deeper/nested.txt 2>/dev/null)
		b=$(unadf -p "$img" "caf$(printf '\351')" 2>/dev/null)
		c=$(unadf -p "$img" "CAF$(printf '\311')" 2>/dev/null)
		if [ "$o" = plain ]; then want_c=; else want_c='latin-1 name'; fi
		[ "$a" = nested ] && [ "$b" = 'latin-1 name' ] && [ "$c" = "$want_c" ]
		ktap_ok $? "$f: unadf finds names through the hash chains" ||
			ktap_diag "got '$a' '$b' '$c'"
	done
done

for s in 880K 1760K 64M 1G; do
	img=$w/ffs-$s.adf
	"$mkfs" -d -s "$s" -r "$w/src" "$img" 2>"$w/err"
	made=$?
	listing "$img" -lr >"$w/list"
	unadf -lr "$img" >/dev/null 2>>"$w/err"
	[ "$made" = 0 ] && cmp -s "$w/err" "$affs_golden_dir/stderr-ffs.out" &&
		cmp -s "$w/list" "$affs_golden_dir/listing.out"
	ktap_ok $? "ffs -d $s: unadf lists the tree without warnings" ||
		ktap_diag "$(cat "$w/err")"
	rm -f "$img"
done
ktap_done
