#!/bin/sh
# bench.sh: figures, not tests. Prints a table and writes results/bench.json.
#   cold build      the union lab kernel from scratch, ccache disabled
#   incremental     rebuild after touching one driver file
#   boot to KTAP    core profile, QEMU start to the guest's first KTAP line,
#                   under TCG (and KVM where the probe says it works), for
#                   the lab kernel and for Debian's own distro kernel booting
#                   the same initramfs; the ratio of the medians is printed
#   matrix          wall time of every profile on both kernels
# BENCH_RUNS (default 5) boots per figure; BENCH_SKIP_COLD=1 skips the
# cold build (six minutes on two cores).
. "$(dirname "$0")/lib.sh"

runs=${BENCH_RUNS:-5}
dir="$BUILD/bench"
mkdir -p "$dir" "$RESULTS"
json="$RESULTS/bench.json"
src="$KTREES/baseline/src"
need_file "$KTREES/baseline/bzImage" "run 'make build' first"

# stats N...: "min median max" of the numbers.
stats() {
	printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 }
		END { printf "%.2f %.2f %.2f", v[1], v[int((NR + 1) / 2)], v[NR] }'
}

# first_ktap ACCEL BZIMAGE: seconds from QEMU start to "KTAP version 1".
first_ktap() {
	b="$dir/boot"
	rm -rf "$b"
	mkdir -p "$b"
	: >"$b/console.log"
	t0=$(now)
	(cd "$b" && run_qemu "$1" "$2" "bklfree.tests=core/chardev" 120) &
	qemu=$!
	# The console grows while QEMU runs; the first KTAP line ends the wait.
	timeout 120 tail -n +1 -f --pid=$qemu "$b/console.log" |
		grep -q -m 1 '^KTAP version 1'
	t1=$(now)
	wait $qemu
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }'
}

boots() { # boots ACCEL BZIMAGE: $runs samples
	i=0 out=
	while [ $i -lt "$runs" ]; do
		out="$out $(first_ktap "$1" "$2")"
		i=$((i + 1))
	done
	echo $out
}

printf '%-44s %s\n' figure "seconds (min median max)"
if [ -z "${BENCH_SKIP_COLD:-}" ]; then
	obj="$dir/obj"
	rm -rf "$obj"
	mkdir -p "$obj"
	cp "$KTREES/baseline/obj/.config" "$obj/.config"
	t0=$(now)
	CCACHE_DISABLE=1 make -C "$src" O="$obj" -j"$(nproc)" CC="ccache gcc" \
		olddefconfig bzImage >"$dir/cold.log" 2>&1 || die "cold build failed; log: $dir/cold.log"
	cold=$(elapsed "$t0")
	printf '%-44s %s\n' "cold build, union kernel, $(nproc) cores" "$cold"
	t0=$(now)
	touch "$src/drivers/char/mem.c"
	CCACHE_DISABLE=1 make -C "$src" O="$obj" -j"$(nproc)" CC="ccache gcc" \
		bzImage >"$dir/incr.log" 2>&1 || die "incremental build failed; log: $dir/incr.log"
	incr=$(elapsed "$t0")
	printf '%-44s %s\n' "incremental build after touching drivers/char/mem.c" "$incr"
else
	cold=null incr=null
fi

lab_tcg=$(boots tcg "$KTREES/baseline/bzImage")
printf '%-44s %s\n' "lab kernel, boot to first KTAP, TCG" "$(stats $lab_tcg)"
accel=$(qemu_accel)
lab_kvm=
if [ "$accel" = kvm ]; then
	lab_kvm=$(boots kvm "$KTREES/baseline/bzImage")
	printf '%-44s %s\n' "lab kernel, boot to first KTAP, KVM" "$(stats $lab_kvm)"
else
	printf '%-44s %s\n' "lab kernel, boot to first KTAP, KVM" "not measured: $(head -n 1 "$BUILD/accel" 2>/dev/null)"
fi

# Debian's distro kernel, unpacked (never installed) from its package.
distro=
pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
	sed -n 's/.*Depends: \(linux-image-6\.1\.[^ ]*-amd64\)$/\1/p' | head -n 1)
if [ -n "$pkg" ]; then
	d="$dir/distro"
	if [ ! -f "$d/vmlinuz" ]; then
		rm -rf "$d"
		mkdir -p "$d"
		(cd "$d" && apt-get download "$pkg" >/dev/null 2>&1 &&
			dpkg-deb -x ./*.deb root && cp root/boot/vmlinuz-* vmlinuz) ||
			warn "cannot download and unpack $pkg"
	fi
	if [ -f "$d/vmlinuz" ]; then
		distro=$(boots tcg "$d/vmlinuz")
		printf '%-44s %s\n' "distro $pkg, boot to first KTAP, TCG" "$(stats $distro)"
	fi
else
	warn "no linux-image-6.1 package found for the distro comparison"
fi
ratio=null
if [ -n "$distro" ]; then
	ratio=$(awk -v a="$(stats $lab_tcg | cut -d' ' -f2)" -v b="$(stats $distro | cut -d' ' -f2)" \
		'BEGIN { printf "%.2f", a / b }')
	printf '%-44s %s\n' "ratio lab / distro (medians, TCG)" "$ratio"
fi

t0=$(now)
"$TOP/scripts/lab/matrix.sh" >"$dir/matrix.log" 2>&1
matrix=$(elapsed "$t0")
printf '%-44s %s\n' "whole matrix, $(echo $PROFILES | wc -w) profiles x 2 kernels" "$matrix"

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
  "ratio_lab_to_distro": $ratio,
  "matrix_wall_s": $matrix
}
EOT
echo "bench: $json"
