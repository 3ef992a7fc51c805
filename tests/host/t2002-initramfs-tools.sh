#!/bin/sh
# The initramfs stage: scripts/lab/initramfs.sh writes the shared base archive
# (busybox applets in /bin and /sbin only, /usr empty for the host's /usr,
# /lib64 pointing into it) and refuses a tool= program that is missing or
# not under /usr by name; scripts/lab/lib.sh profile_initrd appends one
# profile's own tests and its module= lines with the modules they depend on
# (from a fake modules.dep), and refuses a module the kernel does not have.
# An archive made again from the same files has the same bytes.
. "$TOP/tests/host/ktap.sh"
ktap_plan 10

[ -f "$BUILD/pristine/usr/gen_init_cpio.c" ] && [ -d "$BUILD/guest/tests" ] ||
	ktap_bail "no tree or guest tests: run 'make tree guest'"
w="$TMPDIR/t2002"
rm -rf "$w"
mkdir -p "$w/top/qemu-devices" "$w/build"
ln -s "$BUILD/pristine" "$w/build/pristine"
ln -s "$BUILD/guest" "$w/build/guest"
cp -r "$TOP/tests" "$TOP/scripts" "$w/top/"
tool=$(command -v fio) || ktap_bail "fio is not installed: run 'make deps'"
cat >"$w/top/qemu-devices/t.profile" <<EOT
description=x
tests=core/chardev
timeout=5
tool=$tool
module=foo-bar opt=1
module=baz
EOT

mk() {
	TOP="$w/top" BUILD="$w/build" KTREES="$w/build/kernel" TOOLS="$TOOLS" sh "$w/top/scripts/lab/initramfs.sh"
}

mk >"$w/out" 2>&1
ktap_ok $? "the base archive is built for a profile with a host program" ||
	ktap_diag "$(cat "$w/out")"
list="$w/build/initramfs/base.list"
! grep -q "^file $tool " "$list" && ! grep -q '^[a-z]* /usr/' "$list" &&
	grep -q '^dir /usr ' "$list"
ktap_ok $? "no host program and nothing under /usr: /usr is left for the host's"
grep -q '^slink /lib64 /usr/lib64 ' "$list" && grep -q '^slink /bin/sh /bin/busybox ' "$list" &&
	grep -q '^slink /sbin/modprobe /bin/busybox ' "$list"
ktap_ok $? "busybox applets in /bin and /sbin, /lib64 points into /usr"

# The same list and files, a second later: the same bytes (gen_init_cpio
# -t; without it every folder and link carries the time it ran).
cp "$w/build/initramfs/base.cpio" "$w/base.first"
sleep 1
mk >/dev/null 2>&1 && cmp -s "$w/base.first" "$w/build/initramfs/base.cpio"
ktap_ok $? "the base archive made again from the same files is the same bytes"

printf 'tool=/usr/bin/no-such-program\n' >>"$w/top/qemu-devices/t.profile"
mk >/dev/null 2>"$w/err"
[ $? -ne 0 ] && grep -q "^error: '/usr/bin/no-such-program' named by qemu-devices/t.profile is missing" "$w/err"
ktap_ok $? "a tool that is not installed is refused by name" || ktap_diag "$(cat "$w/err")"
sed -i 's|^tool=/usr/bin/no-such-program$|tool=/bin/busybox|' "$w/top/qemu-devices/t.profile"
mk >/dev/null 2>"$w/err"
[ $? -ne 0 ] && grep -q "^error: '/bin/busybox' named by qemu-devices/t.profile is not under /usr" "$w/err"
ktap_ok $? "a tool outside /usr is refused" || ktap_diag "$(cat "$w/err")"
sed -i '/^tool=\/bin\/busybox$/d; /no-such-program/d' "$w/top/qemu-devices/t.profile"
mk >/dev/null 2>&1

# A fake kernel with three modules: foo-bar needs dep, baz is built in.
md="$w/build/kernel/k/modules/lib/modules/6.1.0-lab"
mkdir -p "$md/kernel/drivers/x"
for m in foo_bar dep other; do echo "$m" >"$md/kernel/drivers/x/$m.ko"; done
printf 'kernel/drivers/x/foo_bar.ko: kernel/drivers/x/dep.ko\nkernel/drivers/x/dep.ko:\nkernel/drivers/x/other.ko:\n' >"$md/modules.dep"
echo kernel/drivers/y/baz.ko >"$md/modules.builtin"
initrd() {
	TOP="$w/top" BUILD="$w/build" KTREES="$w/build/kernel" TOOLS="$TOOLS" sh -c \
		'. "$TOP/scripts/lab/lib.sh" && mkdir -p "$BUILD/run" && profile_initrd k t "$BUILD/run/initrd.cpio"'
}
initrd >"$w/out" 2>&1
ktap_ok $? "a profile's initramfs is made" || ktap_diag "$(cat "$w/out")"
plist="$w/build/run/initrd.cpio.list"
grep -q '^file /lib/modules/6.1.0-lab/kernel/drivers/x/foo_bar.ko ' "$plist" &&
	grep -q '^file /lib/modules/6.1.0-lab/kernel/drivers/x/dep.ko ' "$plist" &&
	! grep -q 'other.ko' "$plist" &&
	grep -q '^file /lib/modules/6.1.0-lab/modules.dep ' "$plist"
[ "$(sort "$w/build/run/initrd.cpio.traced-modules" | paste -sd' ' -)" = "dep foo_bar" ] &&
	grep -q '^file /etc/bklfree-traced-modules ' "$plist"
ktap_ok $? "it carries the profile's modules and what they need, no others; their names for the coverage profiler" ||
	ktap_diag "$(cat "$plist")"
grep -q '^file /tests/core/chardev ' "$plist" && grep -q '^file /tests/lseek/lseek-abi ' "$plist" &&
	[ "$(grep -c '^file /tests/' "$plist")" = 3 ] &&
	[ "$(cat "$w/build/run/initrd.cpio.modules")" = "$(printf 'foo-bar opt=1\nbaz')" ]
ktap_ok $? "its own test and the two every boot runs; the module lines for init"
printf 'module=nope\n' >>"$w/top/qemu-devices/t.profile"
initrd >/dev/null 2>"$w/err"
[ $? -ne 0 ] && grep -q '^unknown module nope' "$w/err" &&
	grep -q "^error: profile 't' names a module that kernel 'k' does not have" "$w/err"
ktap_ok $? "a module the kernel does not have is refused by name" || ktap_diag "$(cat "$w/err")"
ktap_done
