description=DRAFT efi under OVMF
kconfig=CONFIG_EFI=y
kconfig=CONFIG_EFI_STUB=y
kconfig=CONFIG_EFIVAR_FS=m
kconfig=CONFIG_EFI_CAPSULE_LOADER=m
kconfig=CONFIG_EFI_TEST=m
tests=core/chardev
timeout=120
