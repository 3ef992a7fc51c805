# LSI SAS 1068 (QEMU's mptsas1068) with a disk: the Fusion MPT base and SAS
# drivers and their management node /dev/mptctl (drivers/message/fusion/mptctl.c).
# 6.1's mptsas makes no SAS end device of QEMU 7.2's disk (no rphy, no sd;
# docs/profiles.md), so sd_mod is not loaded: scsi/mptctl reaches the disk
# through MPTCOMMAND's SCSI IO passthrough. CONFIG_BLK_DEV_SD stays for
# when it does.
description=mptsas1068 HBA: mptctl management ioctls
image=mpt.img 8
qemu=-device mptsas1068,id=mpt
qemu=-drive if=none,id=mptd,format=raw,file=mpt.img
qemu=-device scsi-hd,bus=mpt.0,drive=mptd,serial=bklfree-mpt
kconfig=CONFIG_SCSI=m
kconfig=CONFIG_SCSI_LOWLEVEL=y
kconfig=CONFIG_BLK_DEV_SD=m
kconfig=CONFIG_FUSION=y
kconfig=CONFIG_FUSION_SAS=m
kconfig=CONFIG_FUSION_CTL=m
module=mptsas
module=mptctl
tests=scsi/mptctl
timeout=60
