#!/bin/sh
# Install what the lab needs from Debian, once: apt-get runs only when a
# package is missing. We run as root on a fresh Debian 12 machine.
. "$(dirname "$0")/lib.sh"

# Kernel build, emulation, initramfs, semantic patches and guest tools;
# lava-common for LAVA's job schema (make lava-jobs) and python3-pexpect, which
# lava-dispatcher reads a console with (t1103's monitors); python3-jsonschema and
# python3-rfc3987 for the KCIDB schema check (its uri format); gcc-multilib
# for the 32-bit guest tests (*-m32.c); gfs2-utils and btrfs-progs for the
# mkfs.gfs2 and mkfs.btrfs the cluster-fs profile's guest runs; iw for the
# wireless-hwsim profile; ovmf, the UEFI firmware of the efi-ovmf profile
# (firmware=ovmf); apparmor for apparmor_parser (the lsm-apparmor profile)
# and iptables for iptables-legacy (net-soft), both run in the guest from
# the host's /usr.
packages="build-essential bc bison flex libelf-dev libssl-dev cpio xz-utils
kmod rsync quilt ccache linux-source-6.1 qemu-system-x86 qemu-utils ovmf
busybox-static coccinelle v4l-utils usbip fio unadf
ibverbs-utils ibverbs-providers squashfs-tools genromfs iw gfs2-utils btrfs-progs
lava-common python3-pexpect python3-jsonschema python3-rfc3987 gcc-multilib
apparmor iptables"

missing=
for p in $packages; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
		grep -q 'install ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

progress deps "installing:$missing"
[ "$(id -u)" = 0 ] ||
	die "packages missing:$missing; run as root or: sudo apt-get install$missing"
log="$BUILD/logs/apt.log"
mkdir -p "$(dirname "$log")"
if ! { apt-get update && DEBIAN_FRONTEND=noninteractive \
	apt-get install -y --no-install-recommends $missing; } >"$log" 2>&1; then
	tail -n 5 "$log" >&2
	die "apt-get install$missing failed; full log in $log"
fi
