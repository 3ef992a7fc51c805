#!/bin/sh
# needs: kernels
# A boot whose inputs are the last boot's is not run again (boot.sh,
# lib.sh boot_inputs), with the real baseline kernel: the second boot of
# a profile keeps the first one's console and verdict and says "reused";
# so is one after the shared initramfs was written again to other bytes
# (gen_init_cpio without -t stamps its folders with the time) and one
# with boot.sh called by another path; a changed profile, BOOT_REUSE=0,
# another BOOT_TIMEOUT and a last verdict of hang (the host's as much as
# the kernel's) each boot again. A plain reuse is boot.sh's quick look
# (no listed file newer than the last listing); a listed file written
# again with the same bytes is listed again and reused; a .ksft that
# appears beside a packed test (no listed file changed) boots again, and
# so does a changed file that an image= line's maker reads (a recipe).
. "$TOP/tests/host/ktap.sh"
. "$TOP/tests/host/standin-boot.sh"
ktap_plan 14

standin_lab t3004
# Reuse as make boot has it, whatever the caller exported.
BOOT_REUSE=1
export BOOT_REUSE
# The lab's build folder, but copies of the shared initramfs and of the
# guest tests this boot packs, which this test writes again.
mkdir -p "$w/build/initramfs"
ln -s "$BUILD/kernel" "$TOOLS" "$w/build/" || exit 1
cp "$BUILD/initramfs/base.cpio" "$BUILD/initramfs/base.list" "$w/build/initramfs/"
for t in core/chardev locks/file-locks lseek/lseek-abi; do
	mkdir -p "$w/build/guest/tests/${t%/*}" &&
		cp "$BUILD/guest/tests/$t" "$w/build/guest/tests/$t" || exit 1
done
lab_base="$BUILD/initramfs/base.cpio"
BUILD="$w/build" TOOLS="$w/build/tools"
export BUILD TOOLS
d="$w/top/qemu-devices"
printf 'description=one quick test\ntests=core/chardev\ntimeout=60\n' >"$d/quick.profile"
run="$w/results/baseline/quick"

# new_mark: a second later, a fresh $w/mark, older than anything the next
# step writes or boots (file times are coarser than the clock).
new_mark() {
	sleep 1
	: >"$w/mark"
}

# booted SINCE: the boot ran (a console newer than the file SINCE).
booted() {
	[ "$run/console.log" -nt "$1" ] && ! grep -q 'reused' "$w/quick.out"
}

standin_boot "$w" quick
[ "$(verdict_kv "$run/verdict" verdict)" = pass ] && [ -s "$run/inputs" ] && [ ! -e "$run/reused" ]
ktap_ok $? "the first boot runs and passes, its inputs listed" ||
	ktap_diag "$(cat "$w/quick.out")"

cp "$run/verdict" "$w/verdict.first"
new_mark
standin_boot "$w" quick
grep -q "reused: inputs unchanged since that boot ($run/inputs)" "$w/quick.out" &&
	[ -e "$run/reused" ] && ! booted "$w/mark" && cmp -s "$run/verdict" "$w/verdict.first"
ktap_ok $? "the same boot again is reused: same console and verdict, said so" ||
	ktap_diag "$(cat "$w/quick.out")"
[ -s "$run/inputs.files" ] && [ -f "$run/inputs.since" ] && [ ! "$run/inputs.since" -nt "$w/mark" ] &&
	grep -qx "$BUILD/initramfs/base.list" "$run/inputs.files"
ktap_ok $? "that reuse was the quick look's: the inputs were not listed again" ||
	ktap_diag "$(ls -l --full-time "$run/inputs.since" "$w/mark")"
[ ! -e "$w/results/baseline/.next-quick" ]
ktap_ok $? "the reused boot leaves no folder of its inputs behind"

# The shared initramfs written again, a second later: other bytes, the
# same files.
new_mark
"$TOOLS/gen_init_cpio" "$w/build/initramfs/base.list" >"$w/build/initramfs/base.cpio"
! cmp -s "$lab_base" "$w/build/initramfs/base.cpio" &&
	standin_boot "$w" quick && grep -q 'reused' "$w/quick.out" && ! booted "$w/mark" &&
	[ -e "$run/reused" ] && [ ! "$run/reused" -nt "$w/mark" ]
ktap_ok $? "a shared initramfs written again with the same files is still reused, since the first reuse" ||
	ktap_diag "$(cat "$w/quick.out")"

(cd "$TOP" && TOP="$w/top" RESULTS="$w/results" sh scripts/lab/boot.sh baseline quick) \
	>"$w/quick.out" 2>&1 && grep -q 'reused' "$w/quick.out" && ! booted "$w/mark"
ktap_ok $? "boot.sh called by a relative path reuses it too" || ktap_diag "$(cat "$w/quick.out")"

# A listed file written again with the same bytes: the quick look sees
# it newer, the inputs are listed again and are the same.
new_mark
cp -p "$run/inputs.since" "$w/since.before"
touch "$w/build/initramfs/base.list"
standin_boot "$w" quick && grep -q 'reused' "$w/quick.out" && ! booted "$w/mark" &&
	[ "$run/inputs.since" -nt "$w/since.before" ]
ktap_ok $? "a listed file written again with the same bytes is listed again and still reused" ||
	ktap_diag "$(cat "$w/quick.out")"

# A file that appears beside a packed test is packed too (a kernel
# selftest's .ksft): no listed file changed, but their folder did.
new_mark
printf '#!/bin/sh\n' >"$w/build/guest/tests/core/chardev.ksft"
standin_boot "$w" quick
booted "$w/mark" && grep -q '/tests/core/chardev.ksft' "$run/initrd.cpio.list"
ktap_ok $? "a .ksft that appears beside a packed test boots again" ||
	ktap_diag "$(cat "$w/quick.out")"

# The profile changed: an image made from a recipe file of the
# repository (affs-fuzz reads it through TOP).
new_mark
mkdir -p "$w/top/tests/data"
sed -n '/^[a-z]/{p;q}' "$TOP/tests/data/affs-crash/recipes-loops" >"$w/top/tests/data/recipes"
echo "image=crash.img 0 affs-fuzz --recipes tests/data/recipes" >>"$d/quick.profile"
standin_boot "$w" quick
booted "$w/mark" && [ ! -e "$run/reused" ] && [ "$(verdict_kv "$run/verdict" verdict)" = pass ] &&
	[ -s "$run/crash.img" ]
ktap_ok $? "a changed profile boots again" || ktap_diag "$(cat "$w/quick.out")"

new_mark
echo "# another comment" >>"$w/top/tests/data/recipes"
standin_boot "$w" quick
booted "$w/mark" && grep -qx "$w/top/tests/data/recipes" "$run/inputs.files"
ktap_ok $? "a recipe file an image= line names, changed, boots again" ||
	ktap_diag "$(cat "$w/quick.out")"

new_mark
BOOT_TIMEOUT=59 standin_boot "$w" quick
booted "$w/mark"
ktap_ok $? "another BOOT_TIMEOUT boots again (the quick look compares more than files)" ||
	ktap_diag "$(cat "$w/quick.out")"

new_mark
BOOT_REUSE=0 standin_boot "$w" quick
booted "$w/mark"
ktap_ok $? "BOOT_REUSE=0 boots again" || ktap_diag "$(cat "$w/quick.out")"

new_mark
sed -i 's/^verdict=pass$/verdict=hang/' "$run/verdict"
standin_boot "$w" quick
booted "$w/mark" && [ "$(verdict_kv "$run/verdict" verdict)" = pass ]
ktap_ok $? "a last verdict of hang is never reused" || ktap_diag "$(cat "$w/quick.out")"

# The inputs name the kernel image's sum, kept beside the image.
k=$(sed -n 's/^kernel //p' "$run/inputs")
[ -n "$k" ] && [ "$k" = "$(sha256sum <"$BUILD/kernel/baseline/vmlinux")" ]
ktap_ok $? "the inputs hold the kernel image's sha256" ||
	ktap_diag "inputs: $k"
ktap_done
