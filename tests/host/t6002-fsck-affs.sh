#!/bin/sh
# t6002-fsck-affs: tools/affs/fsck.affs passes clean volumes and names each
# seeded corruption. Volumes come from tools/affs/affs-image (tests/guest/affs/
# tree.h: nested directories, 100 entries in one directory, files with
# extension blocks, a soft and a hard link). Then:
#   - every flavour (OFS and FFS, plain, international, directory cache)
#     is clean, status 0;
#   - each corruption below, made with the block's checksum fixed again
#     (but for the first), is reported on its own "block N:" line with
#     the expected words, status 1: a bad checksum, a used block marked
#     free, a leaked block, a hash chain pointing outside the volume, an
#     entry in the wrong hash slot, a hash chain looping back, an OFS data
#     block's byte count, sequence number and next pointer, a file's
#     extension chain cut, a hard link missing from its chain, a soft link
#     without NUL, a directory cache record's size;
#   - garbage (random bytes, zeros, a truncated image, an empty file) gives
#     status 1 and a summary, never a crash or a hang; a missing file or a
#     bad command line gives status 2.
# Words are read and written big-endian with od and dd, so the test needs
# no other tool.
. "$TOP/tests/host/ktap.sh"

img_tool=$TOOLS/affs-image
fsck=$TOOLS/fsck.affs
w=$TMPDIR/t6002
rm -rf "$w" && mkdir -p "$w" || ktap_bail "cannot make '$w'"
[ -x "$img_tool" ] && [ -x "$fsck" ] || ktap_bail "run 'make tools' first"

# getw IMG BLOCK OFFSET: the big-endian word there, unsigned.
getw() {
	od -An -tu4 --endian=big -j $(($2 * 512 + $3)) -N4 "$1" | tr -d ' '
}

# putw IMG BLOCK OFFSET VALUE
putw() {
	v=$(($4 & 0xffffffff))
	printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $((v >> 24 & 255)) \
		$((v >> 16 & 255)) $((v >> 8 & 255)) $((v & 255)))" |
		dd of="$1" bs=1 seek=$(($2 * 512 + $3)) conv=notrunc status=none
}

# fixsum IMG BLOCK OFFSET: make the block's 128 words sum to 0 again.
fixsum() {
	putw "$1" "$2" "$3" 0
	s=$(od -An -tu4 --endian=big -v -j $(($2 * 512)) -N512 "$1" |
		awk '{ for (i = 1; i <= NF; i++) s = (s + $i) % 4294967296 }
			END { printf "%.0f\n", (4294967296 - s) % 4294967296 }')
	putw "$1" "$2" "$3" "$s"
}

# name IMG BLOCK: the entry name of a header block.
name() {
	len=$(od -An -tu1 -j $(($2 * 512 + 432)) -N1 "$1" | tr -d ' ')
	dd if="$1" bs=1 skip=$(($2 * 512 + 433)) count="$len" status=none
}

# hash_table IMG DIRBLOCK: the directory's 72 hash slots, one od for all.
hash_table() {
	od -An -tu4 --endian=big -v -j $(($2 * 512 + 24)) -N288 "$1"
}

# find_entry IMG DIRBLOCK NAME: the header block of NAME in the directory.
find_entry() {
	for b in $(hash_table "$1" "$2"); do
		n=0
		while [ "$b" != 0 ] && [ $n -lt 200 ]; do
			if [ "$(name "$1" "$b")" = "$3" ]; then
				echo "$b"
				return 0
			fi
			b=$(getw "$1" "$b" 496)
			n=$((n + 1))
		done
	done
	return 1
}

# slot_of IMG DIRBLOCK BLOCK: the hash slot whose chain starts at BLOCK.
slot_of() {
	slot=0
	for b in $(hash_table "$1" "$2"); do
		[ "$b" = "$3" ] && { echo $slot; return 0; }
		slot=$((slot + 1))
	done
	return 1
}

# corrupt DESC BASE WORDS: copy image BASE, run the commands on "$c" (the
# copy), then fsck.affs must exit 1 and print a problem line matching
# the extended regular expression WORDS.
corrupt() {
	desc=$1 base=$2 words=$3
	shift 3
	c=$w/c.img
	cp "$w/$base.img" "$c" && "$@"
	"$fsck" "$c" >"$w/out" 2>&1
	st=$?
	[ $st = 1 ] && grep -Eq "^block [0-9]+: .*($words)" "$w/out"
	ktap_ok $? "$desc: reported, status 1" ||
		ktap_diag "status $st; $(head -n 8 "$w/out")"
}

flavours="ofs ofs,intl ofs,dircache ffs ffs,intl ffs,dircache"
ktap_plan 25
for f in $flavours; do
	"$img_tool" "$w/$f.img" 4 "$f" 2>"$w/err" &&
		"$fsck" "$w/$f.img" >"$w/out" 2>&1 &&
		grep -q ': clean$' "$w/out"
	ktap_ok $? "$f: a fresh volume is clean" ||
		ktap_diag "$(cat "$w/err" "$w/out" | head -n 8)"
done

blocks=8192 root=4096
ofs=ofs,intl
hello=$(find_entry "$w/$ofs.img" $root hello.txt) &&
	soft=$(find_entry "$w/$ofs.img" $root soft) &&
	docs=$(find_entry "$w/$ofs.img" $root docs) &&
	big=$(find_entry "$w/$ofs.img" "$docs" big.bin) ||
	ktap_bail "cannot find the tree's blocks in $ofs.img"
hslot=$(slot_of "$w/$ofs.img" $root "$hello") ||
	ktap_bail "hello.txt does not start its hash chain"
first=$(getw "$w/$ofs.img" "$big" 16)
second=$(getw "$w/$ofs.img" "$first" 16)

flip_root_sum() { putw "$c" $root 20 $(($(getw "$c" $root 20) ^ 1)); }
corrupt "checksum of the root block flipped" "$ofs" \
	"bad checksum of root block" flip_root_sum

# The bitmap word of BLOCK: page k / 4064 (from the root's list at byte
# 316), word 1 + k % 4064 / 32, bit k % 32, for k = BLOCK - 2.
bitmap_bit() {
	k=$(($1 - 2))
	bmb=$(getw "$c" $root $((316 + k / 4064 * 4)))
	o=$((4 + k % 4064 / 32 * 4))
	bit=$((1 << (k % 32)))
}
set_free() {
	bitmap_bit "$1"
	putw "$c" "$bmb" $o $(($(getw "$c" "$bmb" $o) | bit))
	fixsum "$c" "$bmb" 0
}
set_used() {
	bitmap_bit "$1"
	putw "$c" "$bmb" $o $(($(getw "$c" "$bmb" $o) & ~bit))
	fixsum "$c" "$bmb" 0
}
corrupt "a file header marked free in the bitmap" "$ofs" \
	"file header of $root is marked free" set_free "$hello"
corrupt "an unused block marked used in the bitmap" "$ofs" \
	"leaked" set_used $((blocks - 1))

chain_out() { putw "$c" "$hello" 496 999999; fixsum "$c" "$hello" 20; }
corrupt "a hash chain pointing outside the volume" "$ofs" \
	"points outside the volume" chain_out
chain_loop() { putw "$c" "$hello" 496 "$hello"; fixsum "$c" "$hello" 20; }
corrupt "a hash chain looping back to its entry" "$ofs" \
	"loops back to $hello" chain_loop
wrong_slot() {
	to=$(((hslot + 1) % 72))
	while [ "$(getw "$c" $root $((24 + 4 * to)))" != 0 ]; do
		to=$(((to + 1) % 72))
	done
	putw "$c" $root $((24 + 4 * to)) "$(getw "$c" $root $((24 + 4 * hslot)))"
	putw "$c" $root $((24 + 4 * hslot)) 0
	fixsum "$c" $root 20
}
corrupt "an entry moved to the wrong hash slot" "$ofs" \
	"hashes to $hslot" wrong_slot

ofs_count() { putw "$c" "$first" 12 100; fixsum "$c" "$first" 20; }
corrupt "an OFS data block's byte count" "$ofs" "byte count 100" ofs_count
ofs_seq() { putw "$c" "$second" 8 7; fixsum "$c" "$second" 20; }
corrupt "an OFS data block's sequence number" "$ofs" \
	"sequence number 7" ofs_seq
ofs_next() { putw "$c" "$first" 16 "$first"; fixsum "$c" "$first" 20; }
corrupt "an OFS data block's next pointer" "$ofs" "next pointer $first" \
	ofs_next
cut_ext() { putw "$c" "$big" 504 0; fixsum "$c" "$big" 20; }
corrupt "a file's extension chain cut" "$ofs" "extension chain ends" cut_ext
unlink_hard() { putw "$c" "$hello" 472 0; fixsum "$c" "$hello" 20; }
corrupt "a hard link missing from its real file's chain" "$ofs" \
	"is not in the link chain" unlink_hard
soft_nul() {
	head -c 288 /dev/zero | tr '\0' a |
		dd of="$c" bs=1 seek=$((soft * 512 + 24)) conv=notrunc status=none
	fixsum "$c" "$soft" 20
}
corrupt "a soft link target without NUL" "$ofs" "not NUL-terminated" soft_nul
dc_size() {
	dc=$(getw "$c" $root 504)
	putw "$c" "$dc" 28 12345
	fixsum "$c" "$dc" 20
}
corrupt "a directory cache record's size" "ffs,dircache" \
	"directory cache record [0-9]+ size 12345" dc_size

# Garbage: status 1 with a summary line; never a crash.
head -c 4194304 /dev/urandom >"$w/random.img"
head -c 4194304 /dev/zero >"$w/zero.img"
head -c 1000 "$w/ofs.img" >"$w/short.img"
: >"$w/empty.img"
for g in random zero short empty; do
	"$fsck" "$w/$g.img" >"$w/out" 2>&1
	st=$?
	[ $st = 1 ] && grep -q "^$w/$g.img: .*problem" "$w/out"
	ktap_ok $? "$g bytes: status 1 and a summary" ||
		ktap_diag "status $st; $(tail -n 3 "$w/out")"
done
"$fsck" "$w/missing.img" >/dev/null 2>"$w/err"
st=$?
[ $st = 2 ] && grep -q "^error: cannot open" "$w/err"
ktap_ok $? "a missing image: status 2 and an error line" ||
	ktap_diag "status $st; $(cat "$w/err")"
"$fsck" >/dev/null 2>"$w/err"
st=$?
[ $st = 2 ] && grep -q "^usage: fsck.affs" "$w/err"
ktap_ok $? "no image: status 2 and the usage line" ||
	ktap_diag "status $st; $(cat "$w/err")"
ktap_done
