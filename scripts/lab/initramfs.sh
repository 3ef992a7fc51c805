#!/bin/sh
# initramfs.sh: build/initramfs/base.cpio, the part every boot shares:
# busybox-static with its applets in /bin and /sbin, tests/guest/init as
# /init, and the empty mount points. /usr stays empty: a profile with tool=
# lines gets the host's /usr there, read-only over virtio-9p, and /lib64
# and /lib/x86_64-linux-gnu point into it for the host programs' loader. Each boot appends its own
# archive (scripts/lib.sh profile_initrd): the profile's guest tests and
# modules. Archives are written by the kernel's own usr/gen_init_cpio from a
# file list, so device nodes need no root and the same inputs give the same
# bytes. The tool= programs are checked here, on the host, so a missing one
# is named before any boot.
. "$(dirname "$0")/lib.sh"
need_tree

busybox=/bin/busybox
need_file "$busybox" "apt-get install busybox-static (or run 'make deps')"
# Debian's dynamic busybox also installs /bin/busybox: the guest has no libc.
if ldd "$busybox" >/dev/null 2>&1; then
	die "'$busybox' is dynamically linked: apt-get install busybox-static"
fi

gen="$TOOLS/gen_init_cpio"
if [ ! -x "$gen" ] || [ "$PRISTINE/usr/gen_init_cpio.c" -nt "$gen" ]; then
	mkdir -p "$TOOLS"
	cc -O2 -o "$gen" "$PRISTINE/usr/gen_init_cpio.c" ||
		die "cannot build usr/gen_init_cpio"
fi

# The guest runs tool= programs from the host's /usr: they must live there.
for p in $(all_profiles); do
	for t in $(profile_get "$p" tool) ; do
		case $t in
		/usr/*) ;;
		*) die "'$t' named by qemu-devices/$p.profile is not under /usr, which is all the guest sees of the host" ;;
		esac
		[ -x "$t" ] || die "'$t' named by qemu-devices/$p.profile is missing; install its Debian package (dpkg -S $t on a machine that has it)"
	done
done

out="$BUILD/initramfs"
mkdir -p "$out"
list="$out/base.list"
{
	for d in /bin /sbin /dev /proc /sys /tmp /etc /usr /tests /lib /lib/modules; do
		echo "dir $d 0755 0 0"
	done
	# The host's loader and libraries, once /usr is mounted: Debian's
	# /usr/lib64/ld-linux-x86-64.so.2 is an absolute link into
	# /lib/x86_64-linux-gnu, and /lib itself holds this boot's modules.
	echo "slink /lib64 /usr/lib64 0777 0 0"
	echo "slink /lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu 0777 0 0"
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "nod /dev/null 0666 0 0 c 1 3"
	echo "file /init $TOP/tests/guest/init 0755 0 0"
	echo "file /bin/busybox $busybox 0755 0 0"
	# Every applet in /bin or /sbin, none in /usr: that is the host's.
	"$busybox" --list-full | sed -n 's|^\(usr/\)\{0,1\}\(s\{0,1\}bin\)/\(.*\)|/\2/\3|p' |
		sort -u | while read -r applet; do
		[ "$applet" = /bin/busybox ] || echo "slink $applet /bin/busybox 0777 0 0"
	done
} >"$list.tmp"
# Written again only when changed: every boot's quick look (boot.sh)
# compares the list's time.
replace_changed "$list.tmp" "$list" || die "cannot write '$list'"
"$gen" -t "$CPIO_MTIME" "$list" >"$out/base.cpio.tmp" || die "gen_init_cpio failed on '$list'"
replace_changed "$out/base.cpio.tmp" "$out/base.cpio" || die "cannot write '$out/base.cpio'"
progress initramfs "base $(wc -c <"$out/base.cpio") bytes (busybox, init); tests and modules are added per boot"
