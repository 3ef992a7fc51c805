# UBI on a RAM MTD device: mtdram makes /dev/mtd0, the UBI control node
# attaches it and makes a volume, and the UBI debugfs files run.
description=mtdram with UBI: /dev/ubi_ctrl, a volume, UBI debugfs
kconfig=CONFIG_MTD=m
kconfig=CONFIG_MTD_MTDRAM=m
kconfig=CONFIG_MTD_UBI=m
kconfig=CONFIG_UBIFS_FS=m
# Both in KiB: 32 PEBs of 128 KiB, 28 left for volumes after UBI's
# layout volume and reserves (tests/guest/mtd/ubi.c pins these numbers).
module=mtdram total_size=4096 erase_size=128
module=ubi
# UBIFS asks the crypto API for its three compressors by name when it
# loads (request_module, not a symbol dependency): load them first, after
# the crypto manager, which each algorithm registered would wait for in a
# kernel with CONFIG_CRYPTO_MANAGER=m (see misc-devices.profile).
module=cryptomgr
module=lzo
module=deflate
module=zstd
module=ubifs
tests=mtd/ubi mtd/ubifs-debugfs
timeout=60
