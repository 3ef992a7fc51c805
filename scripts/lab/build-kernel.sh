#!/bin/sh
# build-kernel.sh VARIANT: build vmlinux, bzImage and the modules out of tree
# with ccache. QEMU boots vmlinux through its PVH entry point (no
# decompression); bzImage is kept for anyone booting it elsewhere. The
# modules are installed (with depmod's modules.dep) under
# build/kernel/VARIANT/modules, where scripts/boot.sh takes each profile's
# own module= lines and what they depend on into that boot's initramfs.
# traced-builtin lists the built-in functions of the coverage map's files,
# for the coverage profiler (docs/lab.md).
# Both variants keep src/ and obj/ side by side, so with CCACHE_BASEDIR at
# build/kernel the compiler lines match and the second variant reuses the
# first one's objects for every file the patches do not touch, including
# through its headers: patches/core 0065 edits include/linux/fs.h, which
# nearly every object includes, so a cold patched build compiles almost
# everything again (the ccache keys of an untouched file do match).
# A progress line every 30 s: objects compiled, and the share of the last
# complete build's object count once there was one.
. "$(dirname "$0")/lib.sh"

variant=${1:?usage: build-kernel.sh VARIANT}
src="$KTREES/$variant/src"
obj="$KTREES/$variant/obj"
out="$KTREES/$variant"
log="$out/build.log"
need_file "$obj/.config" "run 'make config' first"
grep -qx 'CONFIG_MODULES=y' "$obj/.config" ||
	die "'$obj/.config' has no CONFIG_MODULES=y (kconfig/base.config sets it)"

lab_kbuild_env "$KTREES"
start=$(now)
m="$out/modules"
# installed_modules: the install under $m is whole (depmod's modules.dep).
installed_modules() {
	[ -s "$(echo "$m"/lib/modules/*/modules.dep)" ]
}
# Up to date: the last build finished (its stamp holds the compiler and
# the coverage map's file list, which traced-builtin is made from) and no
# file of src/ nor the .config is newer than that stamp. Kbuild's own
# no-op pass over 3230 objects and the modules' install took about 35 s
# a kernel, most of a warm make that changed one patch.
stamp="$out/built"
want="$(gcc --version | head -n 1); map $("$TOP/scripts/coverage/map-files.sh" | cksum)"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -f "$out/vmlinux" ] &&
	[ -f "$out/bzImage" ] && [ -f "$out/traced-builtin" ] &&
	installed_modules && [ -z "$(find "$src" "$obj/.config" -newer "$stamp" -print -quit)" ]; then
	progress build "$variant up to date: nothing in src/ or its .config is newer than its last build"
	exit 0
fi
# A failed build must not leave the previous kernel looking current (the
# modules go with the kernel: boot.sh needs vmlinux first). The images
# are set aside, not removed: one the build leaves as it was keeps its
# time (boot.sh's quick look, image_sum's cached sum).
rm -f "$stamp"
for f in vmlinux bzImage; do
	[ ! -f "$out/$f" ] || mv "$out/$f" "$out/$f.last"
done
# The stamp gets the time the build started: a file edited during it is
# newer, so the next make builds again.
: >"$stamp.start"
make -C "$src" O="$obj" -j"$(nproc)" CC="ccache gcc" vmlinux bzImage modules \
	>"$log" 2>&1 &
pid=$!
total=$(cat "$out/objects" 2>/dev/null)
compiled() {
	n=$(grep -c '^  CC' "$log")
	echo "$variant: $n objects compiled${total:+ (about $((n * 100 / total)) % of a full build)}"
}
every_30s build "$pid" compiled &
ticker=$!
wait "$pid"
rc=$?
kill "$ticker" 2>/dev/null
if [ "$rc" != 0 ]; then
	grep -E 'error|Error' "$log" | head -n 5 >&2
	die "kernel build failed for '$variant'; full log: $log"
fi
# The installed modules are current when modules.order is the installed
# one and no .ko was rebuilt since. With the same module set (modules.order,
# modules.builtin and its modinfo, the release's folder), a config that
# neither signs nor compresses modules, only the modules of modules.order
# rebuilt since are installed, as modules_install installs them (a copy,
# stripped of debug information), and depmod runs as scripts/depmod.sh
# runs it: a whole modules_install took about 10 s for one rebuilt module.
# Anything else gets the whole modules_install.
installed="$out/modules.order.installed"
krel=$(cat "$obj/include/config/kernel.release") || die "no kernel.release in '$obj'"
dst="$m/lib/modules/$krel"
same_set() {
	installed_modules && [ -d "$dst/kernel" ] && cmp -s "$obj/modules.order" "$installed" &&
		cmp -s "$obj/modules.builtin" "$dst/modules.builtin" &&
		cmp -s "$obj/modules.builtin.modinfo" "$dst/modules.builtin.modinfo" &&
		! grep -qE '^CONFIG_(MODULE_SIG_ALL|MODULE_COMPRESS_(GZIP|XZ|ZSTD))=y' "$obj/.config"
}
if same_set; then
	while read -r ko; do
		[ "$obj/$ko" -nt "$installed" ] || continue
		[ -f "$dst/kernel/$ko" ] || die "'$ko' is in modules.order but not under '$dst/kernel': remove '$m' and build again"
		cp "$obj/$ko" "$dst/kernel/$ko.new" && strip --strip-debug "$dst/kernel/$ko.new" &&
			mv "$dst/kernel/$ko.new" "$dst/kernel/$ko" ||
			die "cannot install the rebuilt module '$ko' under '$dst'"
		echo "  INSTALL $dst/kernel/$ko (rebuilt alone)"
	done <"$obj/modules.order" >"$out/modules.rebuilt" || exit 1
	if [ ! -s "$out/modules.rebuilt" ]; then
		echo "modules_install skipped: no module changed" >>"$log"
	else
		cat "$out/modules.rebuilt" >>"$log"
		# depmod writes every index again; those it wrote to the same
		# bytes get their time back (boot.sh's quick look, as for the
		# images). Kbuild's depmod.sh looks in /sbin too.
		rm -rf "$out/depmod.before" && mkdir "$out/depmod.before" &&
			cp -p "$dst"/modules.* "$out/depmod.before/" ||
			die "cannot keep the module indexes of '$dst'"
		PATH="$PATH:/sbin:/usr/sbin" depmod -ae -F "$obj/System.map" -b "$m" "$krel" >>"$log" 2>&1 ||
			die "depmod failed for '$variant'; full log: $log"
		for f in "$out/depmod.before"/modules.*; do
			! cmp -s "$f" "$dst/${f##*/}" || touch -r "$f" "$dst/${f##*/}"
		done
		rm -rf "$out/depmod.before"
		touch "$installed"
	fi
	rm -f "$out/modules.rebuilt"
else
	rm -rf "$m" "$installed"
	make -C "$src" O="$obj" INSTALL_MOD_PATH="$m" INSTALL_MOD_STRIP=1 \
		modules_install >>"$log" 2>&1 ||
		die "modules_install failed for '$variant'; full log: $log"
	cp "$obj/modules.order" "$installed"
fi
installed_modules || die "no modules.dep under '$m' (is kmod's depmod installed?)"
# The functions the coverage profiler counts in the built-in part of this
# kernel: those of every coverage map file's object (the touched files and
# the seed patch's paths, scripts/coverage/map-files.sh) that no module
# links (module functions are counted whole, per module, by the guest's
# init). The baseline has each file at its pristine path.
# A name vmlinux defines more than once (a static s_start, show ...) is left
# out: the profiler reports names only, so coverage.sh cannot attribute it,
# and filtering on it would trace every function of that name.
find "$obj" -name '*.mod' -exec cat {} + | sort -u >"$out/module-objects"
nm --defined-only "$obj/vmlinux" | awk '$2 == "t" || $2 == "T" { print $3 }' |
	sort | uniq -d >"$out/vmlinux-duplicates"
col=1
[ "$variant" = baseline ] && col=2
"$TOP/scripts/coverage/map-files.sh" | cut -f"$col" | while read -r f; do
	o=${f%.c}.o
	[ -f "$obj/$o" ] && ! grep -qx "$o" "$out/module-objects" || continue
	nm --defined-only "$obj/$o" | awk '$2 == "t" || $2 == "T" { print $3 }'
done | sort -u | comm -23 - "$out/vmlinux-duplicates" >"$out/traced-builtin.new" ||
	die "cannot list the traced functions of '$variant'"
replace_changed "$out/traced-builtin.new" "$out/traced-builtin" ||
	die "cannot write '$out/traced-builtin'"
# An image the build left as it was goes back with its time.
for f in vmlinux arch/x86/boot/bzImage; do
	b=${f##*/}
	if cmp -s "$obj/$f" "$out/$b.last"; then
		mv "$out/$b.last" "$out/$b"
	else
		cp "$obj/$f" "$out/$b" && rm -f "$out/$b.last"
	fi || die "cannot copy '$obj/$f' to '$out'"
done
n=$(grep -c '^  CC' "$log")
# The object count of a build that compiled nearly everything is the
# yardstick for the next build's progress lines.
[ -n "$total" ] && [ "$n" -lt "$total" ] || echo "$n" >"$out/objects"
echo "$want" >"$stamp" && touch -r "$stamp.start" "$stamp" && rm -f "$stamp.start"
progress build "$variant vmlinux and $(find "$m" -name '*.ko' | wc -l) modules in $(elapsed "$start") s, $n objects compiled (log $log)"
