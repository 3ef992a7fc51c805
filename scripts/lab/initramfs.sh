#!/bin/sh
# initramfs.sh: build/initramfs.cpio, shared by every profile and kernel.
# busybox-static and its applets, tests/guest/init as /init, the static
# guest tests built under build/guest/tests, and every Debian program a
# profile names with tool=, at its host path with the shared libraries and
# loader that ldd lists for it. The archive is written by the
# kernel's own usr/gen_init_cpio from a file list, so device nodes need no
# root and the archive is the same bytes for the same inputs.
. "$(dirname "$0")/lib.sh"
need_tree

busybox=/bin/busybox
need_file "$busybox" "apt-get install busybox-static (or run 'make deps')"
# Debian's dynamic busybox also installs /bin/busybox: the guest has no libc.
if ldd "$busybox" >/dev/null 2>&1; then
	die "'$busybox' is dynamically linked: apt-get install busybox-static"
fi
need_file "$BUILD/guest/tests" "build the guest tests first ('make guest')"

gen="$TOOLS/gen_init_cpio"
if [ ! -x "$gen" ] || [ "$PRISTINE/usr/gen_init_cpio.c" -nt "$gen" ]; then
	mkdir -p "$TOOLS"
	cc -O2 -o "$gen" "$PRISTINE/usr/gen_init_cpio.c" ||
		die "cannot build usr/gen_init_cpio"
fi

# The host programs of all profiles and the libraries they load.
tools=$(for p in $(all_profiles); do profile_get "$p" tool || exit 1; done | sort -u) ||
	die "cannot read the profiles' tool= lines"
files=
for t in $tools; do
	[ -x "$t" ] || die "'$t' named by a profile's tool= line is missing; install its Debian package (dpkg -S $t on a machine that has it)"
	libs=$(ldd "$t" 2>/dev/null | sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) .*/\1/p')
	files="$files $t $libs"
done
files=$(printf '%s\n' $files | sort -u)

list="$BUILD/initramfs.list"
{
	for d in /bin /sbin /dev /proc /sys /tmp /etc /usr /usr/bin /tests; do
		echo "dir $d 0755 0 0"
	done
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "nod /dev/null 0666 0 0 c 1 3"
	echo "file /init $TOP/tests/guest/init 0755 0 0"
	echo "file /bin/busybox $busybox 0755 0 0"
	"$busybox" --list-full | while read -r applet; do
		[ "$applet" = bin/busybox ] || echo "slink /$applet /bin/busybox 0777 0 0"
	done
	(cd "$BUILD/guest" && find tests -mindepth 1 | sort) | while read -r f; do
		if [ -d "$BUILD/guest/$f" ]; then
			echo "dir /$f 0755 0 0"
		else
			echo "file /$f $BUILD/guest/$f 0755 0 0"
		fi
	done
	# Host programs last, so they win over a busybox applet of the same
	# name; parent directories first, links resolved.
	for f in $files; do
		d=$(dirname "$f")
		while [ "$d" != / ]; do echo "$d"; d=$(dirname "$d"); done
	done | sort -u | grep -vxE '/(bin|sbin|dev|proc|sys|tmp|etc|usr|usr/bin|tests)' |
		while read -r d; do echo "dir $d 0755 0 0"; done
	for f in $files; do
		echo "file $f $(readlink -f "$f") 0755 0 0"
	done
} >"$list"
"$gen" "$list" >"$BUILD/initramfs.cpio.tmp" ||
	die "gen_init_cpio failed on '$list'"
mv "$BUILD/initramfs.cpio.tmp" "$BUILD/initramfs.cpio"
progress initramfs "$(wc -c <"$BUILD/initramfs.cpio") bytes, $(grep -c '^file /tests' "$list") guest tests, $(echo $tools | wc -w) host programs"
