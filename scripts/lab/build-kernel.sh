#!/bin/sh
# build-kernel.sh VARIANT: build bzImage out of tree with ccache, and the
# modules when a profile asked for CONFIG_MODULES=y (hwmon's i2c-stub, which
# can only be a module): they are installed under build/kernel/VARIANT/modules
# and packed into modules.cpio, which run_qemu appends to the shared
# initramfs for this kernel only, so each kernel loads its own modules.
# Both variants keep src/ and obj/ side by side, so with CCACHE_BASEDIR at
# build/kernel the compiler lines match and the second variant reuses the
# first one's objects for every file the patches do not touch.
. "$(dirname "$0")/lib.sh"

variant=${1:?usage: build-kernel.sh VARIANT}
src="$KTREES/$variant/src"
obj="$KTREES/$variant/obj"
log="$KTREES/$variant/build.log"
need_file "$obj/.config" "run 'make config' first"

lab_kbuild_env "$KTREES"
start=$(now)
mods=
grep -qx 'CONFIG_MODULES=y' "$obj/.config" && mods=modules
# A failed build must not leave the previous kernel (or modules) looking current.
rm -rf "$KTREES/$variant/bzImage" "$KTREES/$variant/modules" \
	"$KTREES/$variant/modules.cpio" "$KTREES/$variant/initrd.cpio"
if ! make -C "$src" O="$obj" -j"$(nproc)" CC="ccache gcc" bzImage $mods \
	>"$log" 2>&1; then
	grep -E 'error|Error' "$log" | head -n 5 >&2
	die "kernel build failed for '$variant'; full log: $log"
fi
if [ -n "$mods" ]; then
	m="$KTREES/$variant/modules"
	make -C "$src" O="$obj" INSTALL_MOD_PATH="$m" INSTALL_MOD_STRIP=1 \
		modules_install >>"$log" 2>&1 ||
		die "modules_install failed for '$variant'; full log: $log"
	# Directories and .ko files only (not the build/source links), packed
	# by the tree's gen_init_cpio like the initramfs.
	(cd "$m" && find lib -type d | sort | sed 's|.*|dir /& 0755 0 0|' &&
		find lib -type f | sort | sed "s|.*|file /& $m/& 0644 0 0|") \
		>"$m.list" &&
		"$obj/usr/gen_init_cpio" "$m.list" >"$m.cpio" ||
		die "cannot pack the modules of '$variant' ($m.list)"
fi
cp "$obj/arch/x86/boot/bzImage" "$KTREES/$variant/bzImage"
progress build "$variant bzImage${mods:+ and $(find "$KTREES/$variant/modules" -name '*.ko' | wc -l) module(s)} in $(elapsed "$start") s (log $log)"
