# Shared helpers for the lab's shell scripts; sourced, never run.
# Every script is POSIX sh and is called from the Makefile with TOP, BUILD
# and RESULTS in the environment.

: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${BUILD:=$TOP/build}"
: "${RESULTS:=$TOP/results}"
: "${TOOLS:=$BUILD/tools}"
PRISTINE="$BUILD/pristine"
KTREES="$BUILD/kernel"
TARBALL=/usr/src/linux-source-6.1.tar.xz
: "${QEMU:=qemu-system-x86_64}"

die() {
	printf 'error: %s\n' "$*" >&2
	exit 1
}

warn() {
	printf 'warning: %s\n' "$*" >&2
}

now() {
	date +%s.%N | cut -c1-14
}

# elapsed START: seconds since START with one decimal.
elapsed() {
	awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'
}

# progress STAGE TEXT: one line of progress, prefixed by the stage name.
progress() {
	printf '  %-9s %s\n' "$1" "$2"
}

# need_file PATH HINT: stop with HINT when PATH is missing.
need_file() {
	[ -e "$1" ] || die "'$1' is missing: $2"
}

need_tree() {
	need_file "$PRISTINE/.bklfree-extracted" "run 'make tree' first"
}

# profile_get PROFILE KEY: the values of KEY in qemu-devices/PROFILE.profile.
profile_get() {
	"$TOOLS/profile" "$TOP/qemu-devices/$1.profile" "$2"
}

all_profiles() {
	for p in "$TOP"/qemu-devices/*.profile; do
		basename "$p" .profile
	done
}

# check_profiles NAME...: every name must be a valid profile.
check_profiles() {
	for p in "$@"; do
		[ -f "$TOP/qemu-devices/$p.profile" ] ||
			die "unknown profile '$p' (known: $(all_profiles | tr '\n' ' '))"
		"$TOOLS/profile" "$TOP/qemu-devices/$p.profile" || exit 1
	done
}

# qemu_accel: kvm when the probe saw a KVM boot reach userspace, else tcg.
qemu_accel() {
	if [ -f "$BUILD/accel" ]; then head -n 1 "$BUILD/accel" | cut -d' ' -f1; else echo tcg; fi
}

# lab_initrd BZIMAGE: the initramfs to boot that kernel with. The shared
# build/initramfs.cpio, or, when the kernel has modules (build-kernel.sh
# leaves modules.cpio beside it), initrd.cpio there: the shared archive with
# the kernel's modules appended (the kernel unpacks concatenated archives in
# order), remade when either part is newer.
lab_initrd() {
	_dir=$(dirname "$1")
	if [ ! -f "$_dir/modules.cpio" ]; then
		echo "$BUILD/initramfs.cpio"
		return 0
	fi
	if [ ! -f "$_dir/initrd.cpio" ] ||
		[ "$BUILD/initramfs.cpio" -nt "$_dir/initrd.cpio" ] ||
		[ "$_dir/modules.cpio" -nt "$_dir/initrd.cpio" ]; then
		cat "$BUILD/initramfs.cpio" "$_dir/modules.cpio" >"$_dir/initrd.cpio.$$" &&
			mv "$_dir/initrd.cpio.$$" "$_dir/initrd.cpio" || return 1
	fi
	echo "$_dir/initrd.cpio"
}

# run_qemu ACCEL BZIMAGE CMDLINE SECONDS [QEMU-ARGS...]: boot the lab
# initramfs in the current directory, console in console.log, QEMU's own
# messages in qemu.stderr. Returns QEMU's status; 124 means it was killed at
# the timeout. -nodefaults and -nic none: the guest sees only the devices
# it is given and never a network; -no-reboot: the guest's final reboot (or
# a panic, with panic=-1) ends QEMU.
run_qemu() {
	_accel=$1 _kernel=$2 _cmdline=$3 _secs=$4
	shift 4
	_initrd=$(lab_initrd "$_kernel") || return 1
	timeout -k 5 "$_secs" "$QEMU" -M pc -accel "$_accel" \
		-m 256M -smp 1 -nodefaults -no-reboot -display none -nic none \
		-kernel "$_kernel" -initrd "$_initrd" \
		-append "console=ttyS0 loglevel=5 panic=-1 rdinit=/init $_cmdline" \
		-chardev file,id=con,path=console.log -serial chardev:con \
		"$@" </dev/null 2>qemu.stderr
}

# json_str TEXT: TEXT as a JSON string literal (quotes, backslashes and
# control characters escaped).
json_str() {
	printf '%s' "$1" | tr -d '\000-\010\013-\037' |
		sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/\t/\\t/g' |
		awk 'BEGIN { printf "\"" } NR > 1 { printf "\\n" } { printf "%s", $0 } END { printf "\"" }'
}

# series_file FILE: the patch names of a quilt series file, in order
# (comments and blank lines dropped). series_patches SERIES: those of
# patches/SERIES/series.
series_file() {
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$1"
}
series_patches() {
	series_file "$TOP/patches/$1/series"
}

# lab_kbuild_env BASEDIR: export what every kernel build here shares: ccache
# paths relative to BASEDIR (so trees side by side share objects) and a
# fixed build identity (so the same source gives the same objects).
lab_kbuild_env() {
	export CCACHE_BASEDIR="$1" CCACHE_NOHASHDIR=1
	export KBUILD_BUILD_TIMESTAMP="2010-09-20" KBUILD_BUILD_USER=bklfree
	export KBUILD_BUILD_HOST=lab
}

# kv FILE KEY: the value of KEY in a key=value file.
kv() {
	sed -n "s/^$2=//p" "$1" 2>/dev/null | head -n 1
}

# verdict_failures VERDICT: what a boot failed in, read from its verdict
# file (tools/lab/verdict's output, never the console), in the terms of
# scripts/lab/findings.sh, sorted: "TEST<TAB>DESCRIPTION" per failed case, a
# line per test that failed or skipped as a whole (no finding records one,
# so it never matches), "splat" and "hostcheck".
verdict_failures() {
	_tab=$(printf '\t')
	{
		sed -n 's/^failed_case=//p' "$1"
		sed -n "s/^failed_test=\([^$_tab]*\)$_tab/\1${_tab}failed as a whole: /p" "$1"
		sed -n "s/^skipped_test=\([^$_tab]*\)$_tab/\1${_tab}skipped: /p" "$1"
		[ "$(kv "$1" splats)" = 0 ] || echo splat
		_h=$(kv "$1" hostcheck)
		[ -z "$_h" ] || [ "$_h" = pass ] || echo hostcheck
	} | sort -u
}

# lab_git_identity: the fixed author, committer, dates and locale of every
# generated patch series, with the user's git configuration ignored, so a
# regeneration writes the same bytes on any machine.
lab_git_identity() {
	export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
	export GIT_AUTHOR_NAME="bklfree lab" GIT_AUTHOR_EMAIL=bklfree@example.org
	export GIT_COMMITTER_NAME="bklfree lab" GIT_COMMITTER_EMAIL=bklfree@example.org
	export GIT_AUTHOR_DATE="2024-01-01 00:00:00 +0000"
	export GIT_COMMITTER_DATE="$GIT_AUTHOR_DATE"
	export TZ=UTC LC_ALL=C
}
