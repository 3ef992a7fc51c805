# EFI runtime services and variables: the kernel boots through Debian's
# OVMF (firmware=ovmf: the bzImage's EFI stub under -bios OVMF.fd instead
# of vmlinux through PVH), whose variable store is in RAM under -bios, so
# nothing the tests write outlives the boot. efivarfs (fs/efivarfs), the
# EFI test driver's /dev/efi_test and the capsule loader's
# /dev/efi_capsule_loader. ACPI stays off (no cmdline acpi=).
# timeout: OVMF's start under TCG is most of the boot; see docs/profiles.md
# for the measured times.
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
timeout=120
