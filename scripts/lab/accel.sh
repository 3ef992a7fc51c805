#!/bin/sh
# accel.sh KERNEL-IMAGE: decide between KVM and TCG, once per host boot.
# /dev/kvm can exist while nested KVM hangs before the kernel prints a
# line, so KVM is used only when a probe boot with it reaches the first KTAP
# line (userspace) within the probe timeout. The answer and the reason go
# to build/accel, keyed by the host's boot id.
. "$(dirname "$0")/lib.sh"

kernel=$(realpath "${1:?usage: accel.sh KERNEL-IMAGE}") || die "no kernel '$1'"
boot_id=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null)
if [ -f "$BUILD/accel" ] && [ "$(sed -n 2p "$BUILD/accel")" = "$boot_id" ]; then
	exit 0
fi

probe_secs=10
answer="tcg /dev/kvm absent"
if [ -w /dev/kvm ]; then
	dir="$BUILD/accel-probe"
	rm -rf "$dir"
	mkdir -p "$dir"
	start=$(now)
	(cd "$dir" && run_qemu kvm "$kernel" "$BUILD/initramfs/base.cpio" "bklfree.tests=" "$probe_secs")
	rc=$?
	if grep -q '^KTAP version 1' "$dir/console.log" 2>/dev/null; then
		answer="kvm probe boot reached userspace in $(elapsed "$start") s"
	elif [ "$rc" = 124 ]; then
		answer="tcg KVM probe boot hung (no KTAP within $probe_secs s; console in $dir)"
	else
		answer="tcg KVM probe boot failed: $(tail -n 1 "$dir/qemu.stderr")"
	fi
fi
printf '%s\n%s\n' "$answer" "$boot_id" >"$BUILD/accel"
progress accel "$answer"
