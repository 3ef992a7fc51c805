#!/bin/sh
# fuzz-affs.sh: the long AFFS corrupted-image fuzz ('make fuzz-affs').
# Boots the affs-fuzz profile on each kernel of KERNELS (default: baseline
# patched) with AFFS_FUZZ_COUNT=${FUZZ_COUNT:-1000} images (tools/affs/affs-fuzz;
# the profile's seed unless FUZZ_SEED is set), and prints a summary: images
# per kernel, the verdict, how many images were walked, the image of a
# failure with its mutations (from fuzz.img.index) and where the console
# log is.
#
# It never builds a kernel: build/kernel/KERNEL/vmlinux must exist ("run
# make build first" otherwise). BOOT_TIMEOUT (seconds, default about one
# second an image plus 300) replaces the profile's timeout for these boots.
# Exit status 0 when every boot passed, 1 otherwise.
. "$(dirname "$0")/../lab/lib.sh"

count=${FUZZ_COUNT:-1000}
case $count in
'' | *[!0-9]*) die "bad FUZZ_COUNT '$count' (expected a number of images)" ;;
esac
[ "$count" -gt 0 ] || die "bad FUZZ_COUNT '$count' (expected 1 or more)"
seed=${FUZZ_SEED:-}
case $seed in
*[!0-9]*) die "bad FUZZ_SEED '$seed' (expected a number)" ;;
esac
kernels=${KERNELS:-baseline patched}
timeout=${BOOT_TIMEOUT:-$((count + 300))}

for k in $kernels; do
	need_file "$(kernel_image "$k")" "run make build first"
done
for f in "$TOOLS/affs-fuzz" "$TOOLS/mkfs.affs" "$TOOLS/verdict" \
	"$TOOLS/profile" "$BUILD/initramfs/base.cpio"; do
	need_file "$f" "run 'make tools guest initramfs' first"
done

echo "== affs fuzz: $count images per kernel, seed ${seed:-from the profile}, kernels: $kernels, timeout ${timeout}s"
status=0
summary=
for k in $kernels; do
	BOOT_REUSE=0 AFFS_FUZZ_COUNT=$count AFFS_FUZZ_SEED=$seed BOOT_TIMEOUT=$timeout \
		"$TOP/scripts/lab/boot.sh" "$k" affs-fuzz || status=1
	run="$RESULTS/$k/affs-fuzz"
	v=$(kv "$run/verdict" verdict)
	reason=$(kv "$run/verdict" reason)
	# Images the guest started, and the last one: where a crash or hang is.
	started=$(grep -c '^ *# image [0-9]* ' "$run/console.log" 2>/dev/null)
	last=$(sed -n 's/^ *# image \([0-9]*\) .*/\1/p' "$run/console.log" 2>/dev/null | tail -n 1)
	made=$(sed -n 's/^# BKLFUZZ1 count=\([0-9]*\) .*/\1/p' "$run/fuzz.img.index" 2>/dev/null)
	line=$(printf '%-9s %-6s %s of %s images started' "$k" "${v:-none}" \
		"${started:-0}" "${made:-?}")
	if [ "$v" != pass ]; then
		status=1
		line="$line
          reason: ${reason:-no verdict}"
		if [ -n "$last" ]; then
			desc=$(sed -n "s/^$last //p" "$run/fuzz.img.index" 2>/dev/null)
			made_seed=$(sed -n 's/^# BKLFUZZ1 .* seed=\([0-9]*\)$/\1/p' "$run/fuzz.img.index" 2>/dev/null)
			# The guest wrote to the images it mounted read-write:
			# regenerate the image as it was before the walk.
			line="$line
          last image started: $last ($desc)
          regenerate it: $TOOLS/affs-fuzz x.img 0 $((last + 1)) $made_seed && $TOOLS/affs-fuzz --extract x.img $last $last.adf"
		fi
		line="$line
          console: $run/console.log"
	fi
	summary="$summary
$line"
done
echo "== affs fuzz summary"
printf '%s\n' "$summary" | sed 1d
exit $status
