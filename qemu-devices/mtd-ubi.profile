# UBI on a RAM MTD device: mtdram makes /dev/mtd0, the UBI control node
# attaches it and makes a volume, and the UBI debugfs files run.
description=mtdram with UBI: /dev/ubi_ctrl, a volume, UBI debugfs
kconfig=CONFIG_MTD=m
kconfig=CONFIG_MTD_MTDRAM=m
kconfig=CONFIG_MTD_UBI=m
# Both in KiB: 32 PEBs of 128 KiB, 28 left for volumes after UBI's
# layout volume and reserves (tests/guest/mtd/ubi.c pins these numbers).
module=mtdram total_size=4096 erase_size=128
module=ubi
tests=mtd/ubi
timeout=60
