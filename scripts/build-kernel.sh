#!/bin/sh
# build-kernel.sh VARIANT: build bzImage out of tree with ccache.
# Both variants keep src/ and obj/ side by side, so with CCACHE_BASEDIR at
# build/kernel the compiler lines match and the second variant reuses the
# first one's objects for every file the patches do not touch.
. "$(dirname "$0")/lib.sh"

variant=${1:?usage: build-kernel.sh VARIANT}
src="$KTREES/$variant/src"
obj="$KTREES/$variant/obj"
log="$KTREES/$variant/build.log"
need_file "$obj/.config" "run 'make config' first"

export CCACHE_BASEDIR="$KTREES" CCACHE_NOHASHDIR=1
export KBUILD_BUILD_TIMESTAMP="2010-09-20" KBUILD_BUILD_USER=bklfree
export KBUILD_BUILD_HOST=lab
start=$(now)
# A failed build must not leave the previous kernel looking current.
rm -f "$KTREES/$variant/bzImage"
if ! make -C "$src" O="$obj" -j"$(nproc)" CC="ccache gcc" bzImage \
	>"$log" 2>&1; then
	grep -E 'error|Error' "$log" | head -n 5 >&2
	die "kernel build failed for '$variant'; full log: $log"
fi
cp "$obj/arch/x86/boot/bzImage" "$KTREES/$variant/bzImage"
progress build "$variant bzImage in $(elapsed "$start") s (log $log)"
