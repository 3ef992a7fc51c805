# Shared helpers for the lab's shell scripts; sourced, never run.
# Every script is POSIX sh and is called from the Makefile with TOP, BUILD
# and RESULTS in the environment.

: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${BUILD:=$TOP/build}"
: "${RESULTS:=$TOP/results}"
: "${TOOLS:=$BUILD/tools}"
PRISTINE="$BUILD/pristine"
# KTREES: where the built kernels are; a second checkout may boot another
# checkout's kernels (read only) with KTREES=/that/checkout/build/kernel.
: "${KTREES:=$BUILD/kernel}"
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

# every_30s STAGE PID COMMAND...: while process PID runs, a progress line
# every 30 s: what COMMAND prints and the seconds so far. Run it in the
# background beside a long stage and kill it when the stage ends.
every_30s() {
	_stage=$1 _pid=$2 _t0=$(now)
	shift 2
	# sleep without our output: killed, we leave it behind, and it must
	# not hold a pipe that someone reads to its end.
	while sleep 30 >/dev/null 2>&1; do
		kill -0 "$_pid" 2>/dev/null || return 0
		progress "$_stage" "$("$@"), $(elapsed "$_t0") s"
	done
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
		[ -e "$p" ] || continue
		p=${p##*/}
		echo "${p%.profile}"
	done
}

# check_profiles NAME...: every name must be a valid profile of
# qemu-devices/ (a peer profile is never booted alone), and the peer
# profile a peer= line names must pass check_peer.
check_profiles() {
	for p in "$@"; do
		case $p in
		*/*) die "'$p' is not a profile of qemu-devices/ (a peer profile boots only beside the profile that names it)" ;;
		esac
		[ -f "$TOP/qemu-devices/$p.profile" ] ||
			die "unknown profile '$p' (known: $(all_profiles | tr '\n' ' '))"
		"$TOOLS/profile" "$TOP/qemu-devices/$p.profile" || exit 1
		_peer=$(profile_get "$p" peer)
		[ -z "$_peer" ] && continue
		[ -f "$TOP/qemu-devices/peers/$_peer.profile" ] ||
			die "profile '$p' names peer '$_peer': no qemu-devices/peers/$_peer.profile"
		check_peer "$_peer"
	done
}

# check_peer NAME: qemu-devices/peers/NAME.profile is a valid profile with
# none of the keys a peer cannot use: kconfig= (the union config reads
# only qemu-devices/), optional=, hostcheck=, inject=, peer=, timing=
# (the booting profile's pass counts), and image=
# lines with a maker (a peer's images are lab patterns).
check_peer() {
	_f="$TOP/qemu-devices/peers/$1.profile"
	"$TOOLS/profile" "$_f" || exit 1
	for _k in kconfig optional hostcheck inject peer timing; do
		[ -z "$(profile_get "peers/$1" "$_k")" ] ||
			die "peer profile '$_f' has $_k= lines, which a peer cannot use"
	done
	profile_get "peers/$1" image | while read -r _n _m _maker; do
		[ -z "$_maker" ] || exit 1
	done || die "peer profile '$_f' has an image= with a maker; a peer's images are lab patterns"
}

# qemu_accel: kvm when the probe saw a KVM boot reach userspace, else tcg.
qemu_accel() {
	if [ -f "$BUILD/accel" ]; then head -n 1 "$BUILD/accel" | cut -d' ' -f1; else echo tcg; fi
}

# kernel_image KERNEL: the image QEMU boots for a kernel variant: vmlinux,
# entered through its PVH note (no decompression under TCG).
kernel_image() {
	echo "$KTREES/$1/vmlinux"
}

# OVMF: Debian's UEFI firmware for QEMU (package ovmf), for profiles with
# firmware=ovmf. profile_image KERNEL PROFILE: what that profile's boot
# gives QEMU's -kernel: the bzImage (its EFI stub) under OVMF, else
# kernel_image.
OVMF=/usr/share/ovmf/OVMF.fd
profile_image() {
	if [ "$(profile_get "$2" firmware)" = ovmf ]; then
		echo "$KTREES/$1/bzImage"
	else
		kernel_image "$1"
	fi
}

# module_closure MODDIR NAME...: the .ko paths (relative to MODDIR, the
# kernel's /lib/modules/VERSION) of modules NAME and everything they
# depend on, from depmod's modules.dep; "-" and "_" are the same in a name.
# A name that is built in (modules.builtin) needs no file; an unknown one is
# an error naming it.
module_closure() {
	_dir=$1
	shift
	awk -v names="$*" -v builtin="$_dir/modules.builtin" '
	function norm(p) { sub(/.*\//, "", p); sub(/\.ko.*$/, "", p); gsub(/-/, "_", p); return p }
	BEGIN { while ((getline l < builtin) > 0) inbuilt[norm(l)] = 1 }
	{ sub(/:$/, "", $1); key = norm($1); path[key] = $1; deps[key] = ""
	  for (i = 2; i <= NF; i++) deps[key] = deps[key] " " $i }
	function add(p,   n, d, i) {
		if (p in seen) return
		seen[p] = 1; print p
		n = split(deps[norm(p)], d, " ")
		for (i = 1; i <= n; i++) add(d[i])
	}
	END {
		n = split(names, w, " ")
		for (i = 1; i <= n; i++) {
			k = norm(w[i])
			if (k in path) add(path[k])
			else if (!(k in inbuilt)) { print "unknown module " w[i] > "/dev/stderr"; bad = 1 }
		}
		exit bad
	}' "$_dir/modules.dep"
}

# The tests every boot runs after its profile's (tests/guest/init).
EVERY_BOOT_TESTS="locks/file-locks lseek/lseek-abi"
# The name of the one config both kernels are built with (config.sh: the
# fragments and every profile's kconfig= lines).
LAB_CONFIG_NAME=lab-union

# profile_initrd KERNEL PROFILE OUT: the initramfs one boot gets, written to
# OUT: build/initramfs/base.cpio (busybox, /init) followed by an archive of
# this profile's own guest tests (and the two every boot runs), its module=
# lines as /etc/bklfree-modules and those modules of KERNEL with what they
# depend on; for the coverage profiler, the kernel's touched built-in
# functions (/etc/bklfree-traced) and those modules' names. The kernel
# unpacks concatenated archives in order.
profile_initrd() {
	profile_initrd_list "$@" && initrd_pack "$3"
}

# profile_initrd_list KERNEL PROFILE OUT: what profile_initrd packs, as
# gen_init_cpio's list OUT.list (with OUT.modules and
# OUT.traced-modules, which it packs); boot.sh compares a boot's inputs
# before it packs anything.
profile_initrd_list() {
	_k=$1 _p=$2 _out=$3
	need_file "$BUILD/initramfs/base.cpio" "run 'make initramfs' first"
	_md=$(echo "$KTREES/$_k"/modules/lib/modules/*)
	need_file "$_md/modules.dep" "run 'make build KERNELS=$_k' first"
	_ver=${_md##*/}
	profile_get "$_p" module >"$_out.modules" || return 1
	_names=$(cut -d' ' -f1 "$_out.modules")
	# shellcheck disable=SC2086 # names are words
	_kos=$(module_closure "$_md" $_names) ||
		die "profile '$_p' names a module that kernel '$_k' does not have (module= lines)"
	{
		echo "dir /tests 0755 0 0"
		echo "dir /etc 0755 0 0"
		echo "file /etc/bklfree-modules $_out.modules 0644 0 0"
		# What the coverage profiler counts: the touched built-in
		# functions, and every module this boot may load, whole.
		for _ko in $_kos; do echo "$_ko"; done |
			sed 's|.*/||; s|\.ko.*||; s|-|_|g' >"$_out.traced-modules"
		echo "file /etc/bklfree-traced-modules $_out.traced-modules 0644 0 0"
		[ -f "$KTREES/$_k/traced-builtin" ] &&
			echo "file /etc/bklfree-traced $KTREES/$_k/traced-builtin 0644 0 0"
		for _t in $(profile_get "$_p" tests) $EVERY_BOOT_TESTS; do
			need_file "$BUILD/guest/tests/$_t" "no guest test '$_t': run 'make guest'"
			echo "dir /tests/${_t%/*} 0755 0 0"
			echo "file /tests/$_t $BUILD/guest/tests/$_t 0755 0 0"
			# A kernel selftest lies beside the test that runs it.
			[ ! -f "$BUILD/guest/tests/$_t.ksft" ] ||
				echo "file /tests/$_t.ksft $BUILD/guest/tests/$_t.ksft 0755 0 0"
		done
		echo "dir /lib/modules/$_ver 0755 0 0"
		for _f in modules.dep modules.alias modules.symbols modules.builtin modules.order; do
			[ -f "$_md/$_f" ] && echo "file /lib/modules/$_ver/$_f $_md/$_f 0644 0 0"
		done
		for _ko in $_kos; do
			_d=${_ko%/*}
			while [ "$_d" != "$_ko" ] && [ -n "$_d" ]; do
				echo "dir /lib/modules/$_ver/$_d 0755 0 0"
				case $_d in */*) _d=${_d%/*} ;; *) _d= ;; esac
			done
			echo "file /lib/modules/$_ver/$_ko $_md/$_ko 0644 0 0"
		done
	} | awk '!seen[$0]++' | sort -s -k2,2 >"$_out.list"
}

# The time gen_init_cpio gives the folders, links and nodes it makes
# (files keep their own): without -t it is the time it runs, and the same
# list and files gave other bytes on every run.
CPIO_MTIME=0

# initrd_pack OUT: OUT from OUT.list (profile_initrd_list), after the
# shared base.cpio.
initrd_pack() {
	"$TOOLS/gen_init_cpio" -t "$CPIO_MTIME" "$1.list" >"$1.part" ||
		die "gen_init_cpio failed on '$1.list'"
	cat "$BUILD/initramfs/base.cpio" "$1.part" >"$1" && rm -f "$1.part"
}

# replace_changed NEW FILE: NEW becomes FILE when their bytes differ, else
# NEW goes and FILE keeps its time: the files a boot packs change time
# only when they change (boot.sh's quick look compares times). Fails when
# NEW could not become FILE.
replace_changed() {
	if cmp -s "$1" "$2"; then rm -f "$1"; else mv "$1" "$2"; fi
}

# image_sum FILE: FILE's sha256, kept beside it in FILE.sha256 while that
# is newer than FILE (a kernel image is hashed once per build, not once
# per boot); where FILE's folder is read-only it is hashed each time.
image_sum() {
	if [ ! "$1.sha256" -nt "$1" ]; then
		_s=$(sha256sum <"$1") || return 1
		{ echo "$_s" >"$1.sha256.$$" && mv "$1.sha256.$$" "$1.sha256"; } 2>/dev/null
		echo "$_s"
		return 0
	fi
	cat "$1.sha256"
}

# lseek_records CONSOLE: the lseek ABI records of tests/guest/lseek/lseek-abi
# in a boot's console, "# lseek: " and six tab-separated fields; a test's
# own diagnostic that starts "lseek:" is not one.
lseek_records() {
	awk '/^ *# lseek: / { sub(/^ *# lseek: /, ""); if (split($0, f, "\t") == 6) print }' "$1"
}

# boot_inputs LAB KERNEL PROFILE [PEER-LIST]: everything one boot's outcome
# depends on, as text (boot.sh compares it with the last boot's; run in
# the folder where profile_initrd wrote initrd.cpio.list): the kernel
# image, every file of the shared initramfs and of the part beside it, the
# profile's text, the peer's (PEER-LIST: its initramfs list), QEMU's
# version and arguments, the lab scripts and tools that run and judge the
# boot, the image makers, the files their arguments name, the host checks,
# OVMF for a firmware=ovmf profile, and the host programs tool= lines
# share with their packages' state. LAB: the folder of boot.sh.
# Also writes inputs.files there: the files read for it, one path a line,
# and the folders of the packed ones (a file that appears beside them, a
# test's .ksft, changes what is packed), for boot.sh's quick look.
boot_inputs() {
	_here=$1 _k=$2 _p=$3 _pl=${4:-}
	_img=$(profile_image "$_k" "$_p")
	echo "kernel $(image_sum "$_img")"
	# The archives by their lists and files, not their bytes: an archive
	# holds each file's mtime, and a file built again to the same bytes
	# (a guest test, a module) is the same boot.
	_lists="$BUILD/initramfs/base.list initrd.cpio.list${_pl:+ $_pl}"
	# shellcheck disable=SC2086 # the lists' paths have no spaces
	cat $_lists
	# shellcheck disable=SC2086 # the lists' paths have no spaces
	_packed=$(awk '$1 == "file" { print $3 }' $_lists | sort -u)
	# shellcheck disable=SC2086 # the packed files' paths have no spaces
	sha256sum $_packed
	cat "$TOP/qemu-devices/$_p.profile"
	_peer=$(profile_get "$_p" peer)
	[ -z "$_peer" ] || cat "$TOP/qemu-devices/peers/$_peer.profile"
	# matrix.sh asks QEMU once for all its boots.
	if [ -n "${LAB_QEMU_VERSION:-}" ]; then
		echo "$LAB_QEMU_VERSION"
	else
		"$QEMU" --version | head -n 1
	fi
	echo "$(qemu_accel) $LAB_MACHINE $LAB_MEMORY_MIB $LAB_APPEND"
	echo "timeout ${BOOT_TIMEOUT:-} $(profile_cmdline "$_p")"
	# What tools/affs/affs-fuzz, an image maker, reads from the environment.
	echo "affs-fuzz ${AFFS_FUZZ_COUNT:-} ${AFFS_FUZZ_SEED:-}"
	profile_qemu_args "$_p"
	# By name: boot.sh may be called by any path.
	_scripts="$_here/boot.sh $_here/boot-peer.sh $_here/lib.sh $TOOLS/verdict $TOOLS/profile $TOOLS/mkpattern"
	for _f in $_scripts; do
		_s=$(sha256sum <"$_f") || return 1
		echo "${_f##*/} $_s"
	done
	_makers=$( {
		profile_get "$_p" image | awk 'NF > 2 { print $3 }'
		profile_get "$_p" hostcheck | cut -d' ' -f1
	} | sort -u | sed "s|^|$TOOLS/|")
	for _t in $_makers; do sha256sum "$_t"; done
	# The files an image maker's arguments name (affs-fuzz --recipes
	# FILE, read from the repository when not found here): another recipe
	# is another image.
	_argfiles=$(profile_get "$_p" image | awk 'NF > 3 {
			for (i = 4; i <= NF; i++) print $i }' | while read -r _a; do
			case $_a in /*) ;; *) _a=$TOP/$_a ;; esac
			[ ! -f "$_a" ] || echo "$_a"
		done | sort -u)
	for _f in $_argfiles; do sha256sum "$_f"; done
	# The firmware a firmware=ovmf boot starts from.
	_fw=
	[ "$(profile_get "$_p" firmware)" != ovmf ] || _fw=$OVMF
	[ -z "$_fw" ] || sha256sum "$_fw"
	_tools=$(profile_get "$_p" tool; [ -z "$_peer" ] || profile_get "peers/$_peer" tool)
	if [ -n "$_tools" ]; then
		# shellcheck disable=SC2086 # absolute paths, no spaces
		sha256sum $(echo "$_tools" | sort -u) /var/lib/dpkg/status
	fi
	{
		echo "$_img"
		echo "$BUILD/initramfs/base.list"
		# The base archive too: a file packed from a package (busybox)
		# keeps the time dpkg gave it, but the archive is written again
		# when its bytes change (initramfs.sh).
		echo "$BUILD/initramfs/base.cpio"
		echo "$KTREES/$_k/modules/lib/modules"
		# Those packed from an absolute path (the rest are made beside
		# the list from what is here), and the guest tests' folders (a
		# test's .ksft that appears beside it is packed too).
		printf '%s\n' $_packed | awk -v g="$BUILD/guest/" '/^\// { print }
			index($0, g) == 1 { sub(/\/[^\/]*$/, ""); print }'
		echo "$TOP/qemu-devices/$_p.profile"
		[ -z "$_peer" ] || echo "$TOP/qemu-devices/peers/$_peer.profile"
		printf '%s\n' $_scripts $_makers $_argfiles $_fw
		# A file from a package keeps the packaged time: dpkg's state
		# is what changes when the package does.
		[ -z "$_tools$_fw" ] || echo /var/lib/dpkg/status
		[ -z "$_tools" ] || printf '%s\n' $_tools
	} | sort -u >inputs.files
}

# boot_env LAB: what boot_inputs depends on besides the files it lists,
# one line: where the lab, its tools, kernels and results are, QEMU and
# its version, the accelerator, every boot's QEMU arguments and kernel
# parameters, BOOT_TIMEOUT and the AFFS image maker's settings.
boot_env() {
	echo "$1 $TOP $BUILD $TOOLS $KTREES $RESULTS $QEMU" \
		"| ${LAB_QEMU_VERSION:-$("$QEMU" --version | head -n 1)}" \
		"| $(qemu_accel) $LAB_MACHINE $LAB_MEMORY_MIB $LAB_APPEND" \
		"| ${BOOT_TIMEOUT:-} | ${AFFS_FUZZ_COUNT:-} ${AFFS_FUZZ_SEED:-}"
}

# run_qemu ACCEL KERNEL INITRD CMDLINE SECONDS [QEMU-ARGS...]: boot a lab
# kernel image (kernel_image) with INITRD in the current directory, console
# in console.log, QEMU's own messages in qemu.stderr. Returns QEMU's status;
# 124 means it was killed at the timeout. -nodefaults and -nic none: the
# guest sees only the devices it is given and never a network; -no-reboot:
# the guest's final reboot (or a panic, with panic=-1) ends QEMU.
# noapictimer: under TCG the local APIC timer fails its calibration check
# after 0.2 s of waiting and is disabled anyway; this skips the wait.
# tsc=unstable: under TCG the TSC's calibration against the PIT mostly
# fails, but now and then, under load, succeeds with a rate far off; the
# TSC then becomes the clocksource and the guest's clock runs that much
# fast (forty times, once: a test's 60 s alarm fired in a 9.8 s boot), and
# the watchdog may not catch it for a minute of guest time. Marked
# unstable from the start, it is never the clocksource (refined-jiffies
# is, as in most boots anyway). tests/host/t3005 and core/clock-rate.
# LAB_MACHINE, LAB_MEMORY_MIB and LAB_APPEND are also what every LAVA job
# asks for (scripts/lava/lava-jobs.sh), so a LAVA boot is the lab's boot.
LAB_MACHINE="-M pc -smp 1 -nodefaults -no-reboot"
LAB_MEMORY_MIB=256
LAB_APPEND="console=ttyS0 loglevel=5 panic=-1 noapictimer tsc=unstable rdinit=/init"
run_qemu() {
	_accel=$1 _kernel=$2 _initrd=$3 _cmdline=$4 _secs=$5
	shift 5
	# shellcheck disable=SC2086 # LAB_MACHINE is words
	timeout -k 5 "$_secs" "$QEMU" $LAB_MACHINE -accel "$_accel" \
		-m "${LAB_MEMORY_MIB}M" -display none -nic none \
		-kernel "$_kernel" -initrd "$_initrd" \
		-append "$LAB_APPEND $_cmdline" \
		-chardev file,id=con,path=console.log -serial chardev:con \
		"$@" </dev/null 2>qemu.stderr
}

# profile_images PROFILE: the disk images of PROFILE's image= lines, made
# in the current folder: NAME MIB [MAKER ARG...], a test pattern, or what
# tools/MAKER writes.
profile_images() {
	profile_get "$1" image | while read -r _name _mib _maker _args; do
		if [ -z "$_maker" ]; then
			"$TOOLS/mkpattern" "$_name" "$_mib" || exit 1
		else
			[ -x "$TOOLS/$_maker" ] || { echo "error: no image maker '$TOOLS/$_maker' (make tools)" >&2; exit 1; }
			# shellcheck disable=SC2086 # ARG... are words
			"$TOOLS/$_maker" "$_name" "$_mib" $_args || exit 1
		fi
	done || die "cannot create the images of profile '$1'"
}

# qemu_timed_out STATUS: run_qemu's status says timeout killed QEMU
# (124: SIGTERM at the limit, 137: SIGKILL 5 s later).
qemu_timed_out() {
	[ "$1" = 124 ] || [ "$1" = 137 ]
}

# peer_netdev LOCAL REMOTE N: the QEMU arguments of a two-guest boot's NIC
# (boot.sh, boot-peer.sh): a virtio-net device, MAC 52:54:00:b1:f0:N, on a
# datagram netdev that receives on the unix socket LOCAL and sends to
# REMOTE. The sockets lie in the boot's own folder, so no other boot, of
# this checkout or another, can reach them.
peer_netdev() {
	echo "-netdev dgram,id=peer,local.type=unix,local.path=$1,remote.type=unix,remote.path=$2 -device virtio-net-pci,netdev=peer,mac=52:54:00:b1:f0:$3"
}

# PEER_GRACE: seconds a peer guest may run on after the boot it belongs
# to ended; a peer whose partner failed early would otherwise wait out
# its own test's waits.
PEER_GRACE=${PEER_GRACE:-60}
case $PEER_GRACE in
'' | *[!0-9]*) die "PEER_GRACE must be a number of seconds, not '$PEER_GRACE'" ;;
esac

# peer_wait JOB DIR: waits for the peer guest's boot-peer.sh job; past
# PEER_GRACE seconds it marks DIR/killed (boot-peer.sh then judges the
# peer as timed out: verdict hang) and kills the peer's QEMU
# (DIR/qemu.pid, which QEMU removes when it ends).
peer_wait() {
	_end=$(($(date +%s) + PEER_GRACE))
	while kill -0 "$1" 2>/dev/null && [ "$(date +%s)" -lt "$_end" ]; do
		sleep 1
	done
	if kill -0 "$1" 2>/dev/null; then
		: >"$2/killed"
		! peer_kill "$2" ||
			progress boot "  peer guest still running ${PEER_GRACE} s after the boot: killed"
	fi
	wait "$1"
}

# peer_kill DIR: kills the peer's QEMU (also on an interrupted boot);
# false when it was not running.
peer_kill() {
	_pid=$(cat "$1/qemu.pid" 2>/dev/null)
	[ -n "$_pid" ] && kill "$_pid" 2>/dev/null
}

# profile_cmdline PROFILE: the kernel parameters of a profile's boot after
# LAB_APPEND: its tests, its cmdline= lines, bklfree.hostusr with tool=.
# The lab kernels have ACPI (for the profiles that test ACPI and EFI
# drivers), but a boot runs without it, as before, unless a cmdline= line
# of its profile names acpi= itself: acpi=off keeps every other profile's
# devices, interrupt routing and boot time what they were without ACPI.
profile_cmdline() {
	_c="bklfree.tests=$(profile_get "$1" tests | paste -sd, -)"
	_c="$_c $(profile_get "$1" cmdline | paste -sd' ' -)"
	case " $_c" in
	*" acpi="*) ;;
	*) _c="$_c acpi=off" ;;
	esac
	[ -z "$(profile_get "$1" tool)" ] || _c="$_c bklfree.hostusr"
	echo "$_c"
}

# profile_qemu_args PROFILE: the profile's own QEMU arguments, one qemu=
# line a line, and the host /usr share's when it has tool= lines.
profile_qemu_args() {
	[ "$(profile_get "$1" firmware)" != ovmf ] || echo "-bios $OVMF"
	profile_get "$1" qemu
	[ -z "$(profile_get "$1" tool)" ] || host_usr_args
}

# host_usr_args: the QEMU arguments that share the host's /usr with the
# guest, read-only (the guest can never write the host); init mounts it on
# /usr when the kernel command line has bklfree.hostusr.
host_usr_args() {
	echo "-fsdev local,id=hostusr,path=/usr,security_model=none,readonly=on -device virtio-9p-pci,fsdev=hostusr,mount_tag=hostusr"
}

# json_str TEXT: TEXT as a JSON string literal (quotes, backslashes and
# control characters escaped).
json_str() {
	printf '%s' "$1" | json_escape |
		awk 'BEGIN { printf "\"" } NR > 1 { printf "\\n" } { printf "%s", $0 } END { printf "\"" }'
}

# json_escape: standard input with JSON's escapes for each line's quotes,
# backslashes and tabs, other control characters but the newline dropped.
json_escape() {
	tr -d '\000-\010\013-\037' | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/\t/\\t/g'
}

# json_lines FILE: each line of FILE as a JSON string literal, as json_str
# makes it, joined by ", " (one pass, not three processes a line).
json_lines() {
	json_escape <"$1" | awk '{ printf "%s\"%s\"", (NR > 1 ? ", " : ""), $0 }'
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

# tr_slash CHAR TEXT: TEXT with each / as CHAR, left in $slashed (set,
# not printed, so that a caller needs no subshell for it).
tr_slash() {
	slashed= _ts=$2
	while :; do
		case $_ts in
		*/*) slashed="$slashed${_ts%%/*}$1" _ts=${_ts#*/} ;;
		*) slashed="$slashed$_ts"; return ;;
		esac
	done
}

# kv FILE KEY: the value of KEY in a key=value file (nothing when FILE is
# missing). One process, none for a missing file; a caller that needs many
# keys of many files reads them with one awk instead, with KV_FIRST_AWK.
kv() {
	[ -f "$1" ] || return 0
	sed -n "/^$2=/{s///p;q}" "$1" 2>/dev/null
}

# KV_FIRST_AWK: kv as an awk function, kv_first(LINE, VAL): a KEY=VALUE
# line's value goes to VAL[KEY] unless KEY has one already, so VAL ends
# with each key's first value, as kv gives it (report.sh, boot-page.sh,
# kcidb.sh read verdict files so).
# shellcheck disable=SC2016 # awk code, expanded by awk
KV_FIRST_AWK='function kv_first(l, val,   i) {
	i = index(l, "=")
	if (i > 1 && !(substr(l, 1, i - 1) in val))
		val[substr(l, 1, i - 1)] = substr(l, i + 1)
}'

# kcidb_status VERDICT: a boot's verdict as a KCIDB status (result.json,
# results/kcidb.json; docs/kcidb.md): "error" (QEMU never ran the guest)
# is the harness's failure, MISS; hang and panic are the kernel's, FAIL.
kcidb_status() {
	case $1 in
	pass) echo PASS ;; skip) echo SKIP ;; error) echo MISS ;; *) echo FAIL ;;
	esac
}

# verdict_change BASELINE PATCHED: a profile's change across kernels from
# its two verdicts (empty: no boot on that kernel): "regression" (baseline
# passed, patched does not), "fixed" (the other way), "same", "changed"
# (both did not pass, differently), or "-" when a kernel has no verdict;
# left in $change (set, not printed: the report needs no subshell).
verdict_change() {
	if [ -z "$1" ] || [ -z "$2" ]; then change="-"
	elif [ "$1" = "$2" ]; then change=same
	elif [ "$1" = pass ]; then change=regression
	elif [ "$2" = pass ]; then change=fixed
	else change=changed
	fi
}

# The verdict keys of v4l2-compliance's totals, one per run of the tool
# (tests/guest/media/v4l2-compliance.c prints them, tools/lab/verdict reads
# them): -d /dev/video0, and -m /dev/media0 with streaming.
V4L2_KEYS="v4l2_compliance v4l2_compliance_media"

# v4l2_compare PROFILE: for each key of V4L2_KEYS that a boot of PROFILE
# has, one line "NAME<TAB>RESULT<TAB>BASELINE<TAB>PATCHED": NAME is the key
# as the test prints it (v4l2-compliance-media), BASELINE and PATCHED the
# totals ("total=N succeeded=N failed=N warnings=N", or "none"), RESULT
# "no worse" when the patched kernel fails no more checks and passes no
# fewer than the baseline, "worse" when it does, "not run" when a kernel
# has no totals and "unreadable" when they lack a number. Warnings are not
# compared: the Requests test's come and go with TCG's timing.
v4l2_compare() {
	for _k in $V4L2_KEYS; do
		_a=$(kv "$RESULTS/baseline/$1/verdict" "$_k")
		_b=$(kv "$RESULTS/patched/$1/verdict" "$_k")
		[ -n "$_a$_b" ] || continue
		if [ -z "$_a" ] || [ -z "$_b" ]; then
			_r="not run"
		else
			printf '%s\n%s\n' "$_a" "$_b" | awk '
				{ for (i = 1; i <= NF; i++) if (split($i, f, "=") == 2 &&
					f[2] ~ /^[0-9]+$/) v[NR, f[1]] = f[2] + 0 }
				END {
					if (!((1, "failed") in v) || !((1, "succeeded") in v) ||
					    !((2, "failed") in v) || !((2, "succeeded") in v))
						exit 2
					exit !(v[2, "failed"] <= v[1, "failed"] &&
					       v[2, "succeeded"] >= v[1, "succeeded"])
				}'
			case $? in
			0) _r="no worse" ;; 1) _r=worse ;; *) _r=unreadable ;;
			esac
		fi
		printf '%s\t%s\t%s\t%s\n' "$(echo "$_k" | tr _ -)" "$_r" \
			"${_a:-none}" "${_b:-none}"
	done
}

# series_line: what the patched tree holds, one line: "125 patches applied:
# 105 core, 8 staging-move, 12 drivers".
series_line() {
	_applied="$KTREES/patched/applied"
	if [ ! -f "$_applied" ]; then
		echo "patched tree not made yet"
	elif [ ! -s "$_applied" ]; then
		echo "no patches applied: patched == baseline"
	else
		printf '%s' "$(wc -l <"$_applied") patches applied: $(cut -d/ -f1 "$_applied" | uniq -c | awk '{ printf "%s%s %s", s, $1, $2; s = ", " }')"
		# make apply SUBSYS= records its selection (scripts/lab/apply.sh).
		case $(cat "$KTREES/patched/selection" 2>/dev/null) in
		"--subsys "*) printf ' (subsystem %s alone)' "$(sed 's/^--subsys //' "$KTREES/patched/selection")" ;;
		esac
		echo
	fi
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
# regeneration writes the same bytes on any machine. The identity is the
# project's own (this repository's git user), the one every patch of the
# series is signed off with.
lab_git_identity() {
	export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
	export GIT_AUTHOR_NAME="Seed 3daa4c11 maintainers" GIT_AUTHOR_EMAIL=maintainers@users.noreply.a-seed-3daa4c11.example
	export GIT_COMMITTER_NAME="Seed 3daa4c11 maintainers" GIT_COMMITTER_EMAIL=maintainers@users.noreply.a-seed-3daa4c11.example
	export GIT_AUTHOR_DATE="2024-01-01 00:00:00 +0000"
	export GIT_COMMITTER_DATE="$GIT_AUTHOR_DATE"
	export TZ=UTC LC_ALL=C
}
