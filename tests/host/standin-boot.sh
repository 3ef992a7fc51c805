# standin-boot.sh - sourced by the host tests that boot the real baseline
# kernel ("needs: kernels") on profiles of their own.
#
# standin_lab NAME: w=$TMPDIR/NAME, emptied, with the folders of a
# stand-in lab (w/top/qemu-devices/peers); bails out without the baseline
# kernel or the initramfs.
# standin_boot DIR PROFILE: boots PROFILE of the stand-in lab DIR/top (its
# own qemu-devices/) with scripts/lab/boot.sh on the baseline kernel;
# results in DIR/results, boot.sh's output in DIR/PROFILE.out; boot.sh's
# status. verdict_kv FILE KEY: the first value of KEY in a verdict file.
standin_lab() {
	[ -f "$BUILD/kernel/baseline/vmlinux" ] && [ -f "$BUILD/initramfs/base.cpio" ] ||
		ktap_bail "no baseline kernel or initramfs: run 'make build initramfs'"
	w="$TMPDIR/$1"
	rm -rf "$w"
	mkdir -p "$w/top/qemu-devices/peers" || exit 1
}

standin_boot() {
	TOP="$1/top" RESULTS="$1/results" sh "$TOP/scripts/lab/boot.sh" baseline "$2" \
		>"$1/$2.out" 2>&1
}

verdict_kv() {
	sed -n "s/^$2=//p" "$1" | head -n 1
}
