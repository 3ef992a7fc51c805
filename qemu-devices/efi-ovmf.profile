# EFI runtime services and variables: the kernel boots through Debian's
# OVMF (firmware=ovmf: the bzImage's EFI stub under -bios OVMF.fd instead
# of vmlinux through PVH), whose variable store is in RAM under -bios, so
# nothing the tests write outlives the boot. efivarfs (fs/efivarfs), the
# EFI test driver's /dev/efi_test and the capsule loader's
# /dev/efi_capsule_loader. ACPI stays off (no cmdline acpi=).
# timeout: under TCG OVMF takes 3.3 s to start the EFI stub, the first
# KTAP line comes at 4.5 s and the boot ends at 7 s (PVH: 1.2 s and 3.5 s);
# Debian's own xz kernel on a loaded host took 30 s through OVMF. 60 s is
# twice the slowest boot seen.
description=EFI under OVMF: efivarfs, /dev/efi_test, the capsule loader
firmware=ovmf
kconfig=CONFIG_EFI=y
kconfig=CONFIG_EFI_STUB=y
kconfig=CONFIG_EFIVAR_FS=m
kconfig=CONFIG_EFI_CAPSULE_LOADER=m
kconfig=CONFIG_EFI_TEST=m
module=efivarfs
module=efi_test
module=capsule-loader
tests=firmware/efivarfs firmware/efi-runtime
timeout=60
