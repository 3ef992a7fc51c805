#!/bin/sh
# bench.sh: figures, not tests. Prints a table and writes results/bench.json.
#   cold build      the lab kernel (vmlinux and modules) from scratch,
#                   ccache disabled
#   incremental     rebuild after touching one driver file
#   boot to KTAP    QEMU start to the guest's first KTAP line with the core
#                   profile's initramfs, under TCG (and KVM where the probe
#                   says it works), for the lab kernel and for Debian's own
#                   distro kernel booting the same initramfs and kernel
#                   parameters (the core boot's own, acpi=off), both as Debian
#                   boots it (bzImage) and through PVH like the lab kernel;
#                   runs interleaved, ratios of the medians printed
#   matrix          wall time of every profile on both kernels, boots/s
# Figures with a target (issue 14) print it and whether it is met;
# bench.json holds the targets too, for the report's front page.
# BENCH_RUNS (default 5) boots per figure; BENCH_SKIP_COLD=1 skips the
# cold build (six minutes on two cores).
. "$(dirname "$0")/lib.sh"

runs=${BENCH_RUNS:-5}
dir="$BUILD/bench"
mkdir -p "$dir" "$RESULTS"
json="$RESULTS/bench.json"
src="$KTREES/baseline/src"
lab=$(kernel_image baseline)
need_file "$lab" "run 'make build' first"
# Every boot below starts the core profile's own initramfs.
profile_initrd baseline core "$dir/core.cpio" || exit 1

# The kernel parameters of the core profile's matrix boot (profile_cmdline:
# acpi=off among them), its tests narrowed to core/chardev so the boot ends
# soon after the line, without the host's /usr (no 9p device here; init
# mounts it after printing the line anyway).
bench_cmdline=$(profile_cmdline core |
	sed 's|bklfree\.tests=[^ ]*|bklfree.tests=core/chardev|; s| bklfree\.hostusr||')

# stats N...: "min median max" of the numbers.
stats() {
	printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 }
		END { printf "%.2f %.2f %.2f", v[1], v[int((NR + 1) / 2)], v[NR] }'
}
median() { stats "$@" | cut -d' ' -f2; }

# first_ktap ACCEL KERNEL: seconds from QEMU start to "KTAP version 1".
first_ktap() {
	b="$dir/boot"
	rm -rf "$b"
	mkdir -p "$b"
	: >"$b/console.log"
	t0=$(now)
	(cd "$b" && run_qemu "$1" "$2" "$dir/core.cpio" "$bench_cmdline" 120) &
	qemu=$!
	# The console grows while QEMU runs; the first KTAP line ends the wait.
	timeout 120 tail -n +1 -f --pid=$qemu "$b/console.log" |
		grep -q -m 1 '^KTAP version 1'
	t1=$(now)
	wait $qemu
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }'
}

# Debian's distro kernel, unpacked (never installed) from its package; its
# vmlinux (scripts/extract-vmlinux) boots through the same PVH entry as ours.
distro= distro_pvh=
pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
	sed -n 's/.*Depends: \(linux-image-6\.1\.[^ ]*-amd64\)$/\1/p' | head -n 1)
d="$dir/distro"
if [ -n "$pkg" ] && [ ! -f "$d/vmlinux" ]; then
	rm -rf "$d"
	mkdir -p "$d"
	(cd "$d" && apt-get download "$pkg" >/dev/null 2>&1 &&
		dpkg-deb -x ./*.deb root && cp root/boot/vmlinuz-* vmlinuz &&
		sh "$src/scripts/extract-vmlinux" vmlinuz >vmlinux) ||
		{ warn "cannot download and unpack $pkg"; rm -f "$d/vmlinux"; }
fi
[ -n "$pkg" ] || warn "no linux-image-6.1 package found for the distro comparison"

# Interleaved, so the machine's load falls on every variant alike.
lab_tcg=
i=0
while [ $i -lt "$runs" ]; do
	lab_tcg="$lab_tcg $(first_ktap tcg "$lab")"
	if [ -f "$d/vmlinux" ]; then
		distro="$distro $(first_ktap tcg "$d/vmlinuz")"
		distro_pvh="$distro_pvh $(first_ktap tcg "$d/vmlinux")"
	fi
	i=$((i + 1))
done

printf '%-44s %s\n' figure "seconds (min median max)"
if [ -z "${BENCH_SKIP_COLD:-}" ]; then
	obj="$dir/obj"
	rm -rf "$obj"
	mkdir -p "$obj"
	cp "$KTREES/baseline/obj/.config" "$obj/.config"
	t0=$(now)
	CCACHE_DISABLE=1 make -C "$src" O="$obj" -j"$(nproc)" CC="ccache gcc" \
		olddefconfig vmlinux modules >"$dir/cold.log" 2>&1 || die "cold build failed; log: $dir/cold.log"
	cold=$(elapsed "$t0")
	printf '%-44s %s\n' "cold build, lab kernel and modules, $(nproc) cores" "$cold"
	t0=$(now)
	touch "$src/drivers/char/mem.c"
	CCACHE_DISABLE=1 make -C "$src" O="$obj" -j"$(nproc)" CC="ccache gcc" \
		vmlinux modules >"$dir/incr.log" 2>&1 || die "incremental build failed; log: $dir/incr.log"
	incr=$(elapsed "$t0")
	printf '%-44s %s\n' "incremental build after touching drivers/char/mem.c" "$incr"
else
	cold=null incr=null
fi

# The targets, "OP LIMIT" (a boot figure's is for its median), written
# to bench.json as they are.
target_first_ktap="<= 1.0" target_ratio="<= 0.15" target_rate=">= 1"
target() { # target FIGURE "OP LIMIT": "met" or "NOT met"
	echo "$2" | awk -v f="$1" '{
		ok = ($1 == "<=") ? f <= $2 : f >= $2; print ok ? "met" : "NOT met" }'
}
lab_med=$(median $lab_tcg)
printf '%-44s %s  (target %s s median: %s)\n' "lab kernel, boot to first KTAP, TCG" \
	"$(stats $lab_tcg)" "$target_first_ktap" "$(target "$lab_med" "$target_first_ktap")"
accel=$(qemu_accel)
lab_kvm=
if [ "$accel" = kvm ]; then
	i=0
	while [ $i -lt "$runs" ]; do lab_kvm="$lab_kvm $(first_ktap kvm "$lab")"; i=$((i + 1)); done
	printf '%-44s %s\n' "lab kernel, boot to first KTAP, KVM" "$(stats $lab_kvm)"
else
	printf '%-44s %s\n' "lab kernel, boot to first KTAP, KVM" "not measured: $(head -n 1 "$BUILD/accel" 2>/dev/null)"
fi
ratio=null ratio_pvh=null
if [ -n "$distro" ]; then
	printf '%-44s %s\n' "distro $pkg bzImage, first KTAP, TCG" "$(stats $distro)"
	printf '%-44s %s\n' "distro $pkg vmlinux (PVH), first KTAP, TCG" "$(stats $distro_pvh)"
	ratio=$(awk -v a="$lab_med" -v b="$(median $distro)" 'BEGIN { printf "%.2f", a / b }')
	ratio_pvh=$(awk -v a="$lab_med" -v b="$(median $distro_pvh)" 'BEGIN { printf "%.2f", a / b }')
	printf '%-44s %s  (target %s: %s)\n' "ratio lab / distro bzImage (medians, TCG)" "$ratio" \
		"$target_ratio" "$(target "$ratio" "$target_ratio")"
	printf '%-44s %s\n' "ratio lab / distro PVH (medians, TCG)" "$ratio_pvh"
fi

t0=$(now)
BOOT_REUSE=0 "$TOP/scripts/lab/matrix.sh" >"$dir/matrix.log" 2>&1
matrix=$(elapsed "$t0")
nboots=$(($(echo $PROFILES | wc -w) * 2))
rate=$(awk -v n="$nboots" -v t="$matrix" 'BEGIN { printf "%.2f", n / t }')
printf '%-44s %s\n' "whole matrix, $nboots boots, two passes" "$matrix"
printf '%-44s %s  (target %s: %s)\n' "matrix throughput, boots per second" "$rate" \
	"$target_rate" "$(target "$rate" "$target_rate")"

list() { echo "$*" | sed 's/^ *//; s/ /, /g'; }
cat >"$json" <<EOT
{
  "cores": $(nproc),
  "accel": $(json_str "$(head -n 1 "$BUILD/accel" 2>/dev/null)"),
  "cold_build_s": $cold,
  "incremental_build_s": $incr,
  "lab_tcg_first_ktap_s": [$(list $lab_tcg)],
  "lab_kvm_first_ktap_s": [$(list $lab_kvm)],
  "distro_package": $(json_str "$pkg"),
  "distro_tcg_first_ktap_s": [$(list $distro)],
  "distro_pvh_tcg_first_ktap_s": [$(list $distro_pvh)],
  "ratio_lab_to_distro": $ratio,
  "ratio_lab_to_distro_pvh": $ratio_pvh,
  "matrix_wall_s": $matrix,
  "matrix_boots": $nboots,
  "matrix_boots_per_s": $rate,
  "targets": {
    "lab_tcg_first_ktap_s": "$target_first_ktap",
    "ratio_lab_to_distro": "$target_ratio",
    "matrix_boots_per_s": "$target_rate"
  }
}
EOT
echo "bench: $json"
