# affs.sh: shared by the t6000 mkfs.affs tests. Sourced after ktap.sh:
#
# affs_fixture DIR   make the host tree every test copies onto a volume:
#                    nested directories, an empty directory, a 30-character
#                    name, an empty file, a Latin-1 name ("caf\351"), a text
#                    file of 182000 bytes (more than 72 data blocks, so two
#                    or more extension blocks in OFS and FFS), a soft link
#                    in the same directory, one up two levels, and a hard
#                    link. Every file and directory gets mtime 2020-01-02
#                    12:34:56 UTC; no data block is all zero.
# affs_golden NAME FILE DESC
#                    one KTAP case: FILE equals the golden file
#                    fixtures/mkfs.affs/NAME (ktap_golden).
#
# The tests run with TZ=UTC and LC_ALL=C so dates and sort order are fixed.
TZ=UTC LC_ALL=C
export TZ LC_ALL
affs_golden_dir=$TOP/tests/host/fixtures/mkfs.affs

affs_fixture() {
	rm -rf "$1" && mkdir -p "$1/dir/sub/deeper" "$1/empty-dir" &&
	printf 'hello, amiga\n' >"$1/hello.txt" &&
	: >"$1/empty" &&
	printf 'thirty\n' >"$1/abcdefghijklmnopqrstuvwxyz0123" &&
	printf 'latin-1 name\n' >"$1/caf$(printf '\351')" &&
	printf 'nested\n' >"$1/dir/sub/deeper/nested.txt" &&
	awk 'BEGIN { for (i = 0; i < 14000; i++) printf "line %07d\n", i }' \
		>"$1/dir/big.txt" &&
	ln -s hello.txt "$1/soft" &&
	ln -s ../../hello.txt "$1/dir/sub/up" &&
	ln "$1/hello.txt" "$1/dir/hard" &&
	find "$1" ! -type l -exec touch -t 202001021234.56 {} +
}

affs_golden() {
	ktap_golden "$1" "$affs_golden_dir/$1" "$2"
	ktap_ok $? "$3"
}
