# An SD card on QEMU's SDHCI PCI controller: the mmc block driver
# (/dev/mmcblk0 and its MMC_IOC_CMD ioctl, drivers/mmc/core/block.c) and
# the mmc debugfs files (drivers/mmc/core/debugfs.c).
description=sdhci-pci with an sd-card: mmc block, MMC_IOC_CMD, mmc debugfs
image=sd.img 16
qemu=-device sdhci-pci
qemu=-drive if=none,id=sd,format=raw,file=sd.img
qemu=-device sd-card,drive=sd
kconfig=CONFIG_MMC=m
kconfig=CONFIG_MMC_BLOCK=m
kconfig=CONFIG_MMC_SDHCI=m
kconfig=CONFIG_MMC_SDHCI_PCI=m
module=sdhci-pci
module=mmc_block
tests=mmc/sd-card
timeout=60
