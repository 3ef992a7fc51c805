#!/bin/sh
# scripts/lab/initramfs.sh copies the Debian programs profiles name with tool=
# into the initramfs at their host paths, with every shared library and
# the loader ldd lists; a tool that is not installed is refused by name.
. "$TOP/tests/host/ktap.sh"
ktap_plan 5

[ -f "$BUILD/pristine/usr/gen_init_cpio.c" ] && [ -d "$BUILD/guest/tests" ] ||
	ktap_bail "no tree or guest tests: run 'make tree guest'"
w="$TMPDIR/t2002"
rm -rf "$w"
mkdir -p "$w/top/qemu-devices" "$w/build"
ln -s "$BUILD/pristine" "$w/build/pristine"
ln -s "$BUILD/guest" "$w/build/guest"
cp -r "$TOP/tests" "$w/top/"
tool=$(command -v fio) || ktap_bail "fio is not installed: run 'make deps'"
printf 'description=x\ntests=core/chardev\ntimeout=5\ntool=%s\n' "$tool" \
	>"$w/top/qemu-devices/t.profile"

mk() {
	TOP="$w/top" BUILD="$w/build" TOOLS="$TOOLS" sh "$TOP/scripts/lab/initramfs.sh"
}

mk >"$w/out" 2>&1
ktap_ok $? "an initramfs with a host program is built" || ktap_diag "$(cat "$w/out")"
list="$w/build/initramfs.list"
grep -q "^file $tool " "$list"
ktap_ok $? "the program is at its host path"
missing=
for lib in $(ldd "$tool" | sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) .*/\1/p'); do
	grep -q "^file $lib " "$list" || missing="$missing $lib"
done
[ -z "$missing" ]
ktap_ok $? "every library and the loader ldd lists are there${missing:+ - missing:$missing}"
grep -q '^dir /lib/x86_64-linux-gnu ' "$list" || grep -q '^dir /usr/lib/x86_64-linux-gnu ' "$list"
ktap_ok $? "the library directories are created"

printf 'tool=/usr/bin/no-such-program\n' >>"$w/top/qemu-devices/t.profile"
mk >/dev/null 2>"$w/err"
[ $? -ne 0 ] && grep -q "^error: '/usr/bin/no-such-program' named by a profile's tool= line is missing" "$w/err"
ktap_ok $? "a tool that is not installed is refused by name" || ktap_diag "$(cat "$w/err")"
ktap_done
