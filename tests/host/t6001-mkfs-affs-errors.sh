#!/bin/sh
# t6001-mkfs-affs-errors: mkfs.affs refuses bad input with one documented
# error line (status 1, or 2 and the usage line for a usage error), and
# leaves neither the image nor its temporary file behind.
. "$TOP/tests/host/ktap.sh"
. "$TOP/tests/host/affs.sh"

mkfs=$TOOLS/mkfs.affs
w=$TMPDIR/t6001
rm -rf "$w" && mkdir -p "$w/long" "$w/colon" "$w/clash" "$w/big" "$w/fill" \
	"$w/fifo" || ktap_bail "cannot make '$w'"
: >"$w/long/abcdefghijklmnopqrstuvwxyz01234"
: >"$w/colon/a:b"
: >"$w/clash/Readme" && : >"$w/clash/README"
head -c 2000000 /dev/zero >"$w/big/f"
# 1000 one-byte files: their data blocks fit in 880K (1758 blocks free
# but the root and bitmap), not with their 1000 headers.
i=0
while [ $i -lt 1000 ]; do
	echo >"$w/fill/f$i"
	i=$((i + 1))
done
mkfifo "$w/fifo/p" || ktap_bail "cannot make a fifo"

# refused DESC STATUS MESSAGE ARGS...: mkfs.affs ARGS fails with STATUS,
# its first stderr line is MESSAGE and no image is left.
refused() {
	desc=$1 status=$2 message=$3
	shift 3
	(cd "$w" && "$mkfs" "$@" img.adf) >"$w/out" 2>"$w/err"
	rc=$?
	left=$(cd "$w" && ls img.adf* 2>/dev/null)
	[ "$rc" = "$status" ] && [ "$(head -n 1 "$w/err")" = "error: $message" ] &&
		[ -z "$left" ] && [ ! -s "$w/out" ]
	ktap_ok $? "$desc" && return
	rm -f "$w"/img.adf*
	ktap_diag "status $rc, left: '$left', stderr: $(cat "$w/err")"
}

ktap_plan 13
refused "name over 30 characters" 1 \
	"name too long 'long/abcdefghijklmnopqrstuvwxyz01234' (at most 30 characters)" \
	-r long
refused "name with a colon" 1 \
	"bad name 'colon/a:b' (no '/', ':' or control characters)" -r colon
refused "names equal but for case" 1 \
	"names clash 'clash/README' and 'clash/Readme' (AFFS ignores case)" \
	-r clash
refused "file larger than the volume" 1 \
	"volume too small for 'big' (1048576 bytes)" -r big
refused "headers overflow the volume" 1 \
	"volume too small for 'fill' (901120 bytes)" -s 880K -r fill
refused "fifo in the tree" 1 \
	"cannot store 'fifo/p': not a file, directory or symbolic link" -r fifo
refused "label with a slash" 1 \
	"bad label 'a/b' (no '/', ':' or control characters)" -l a/b
refused "size below 880K" 1 \
	"bad size '879K' (expected 880K to 1G, a multiple of 1K)" -s 879K
refused "size above 1G" 1 \
	"bad size '2G' (expected 880K to 1G, a multiple of 1K)" -s 2G
refused "unknown option" 2 "unknown option '-x'" -x
sed -n 2p "$w/err" | grep -q '^usage: mkfs.affs '
ktap_ok $? "usage after a usage error"
refused "unknown type" 2 "bad type 'sfs' (expected ofs or ffs)" -t sfs
refused "missing host directory" 1 \
	"cannot use 'none': No such file or directory" -r none
ktap_done
