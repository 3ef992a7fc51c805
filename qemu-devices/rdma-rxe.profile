# Soft RoCE: rdma_rxe makes an RDMA device of a dummy netdev, so the RDMA
# core's user interfaces (ucma's /dev/infiniband/rdma_cm, user_mad's
# umadN and uverbs' uverbsN, all touched by the series) run with no
# hardware. iproute2's rdma tool adds the link, Debian's ibverbs-utils
# (ibv_devices, ibv_devinfo, from the host's /usr) open uverbs through
# libibverbs and its rxe provider.
description=rdma_rxe on a dummy netdev: rdma_cm, umad and uverbs nodes; iproute2 rdma, ibverbs-utils
kconfig=CONFIG_INFINIBAND=m
kconfig=CONFIG_INFINIBAND_USER_MAD=m
kconfig=CONFIG_INFINIBAND_USER_ACCESS=m
kconfig=CONFIG_RDMA_RXE=m
# The RDMA CM (rdma_cm.ko, and ucma's rdma_ucm.ko with
# /dev/infiniband/rdma_cm) is a bool that defaults to y, but the lab
# merges onto allnoconfig, which leaves it n: name it.
kconfig=CONFIG_INFINIBAND_ADDR_TRANS=y
kconfig=CONFIG_DUMMY=m
module=dummy
# rxe_register_device() allocates the "crc32" shash: crc32_generic
# (CONFIG_CRYPTO_CRC32=m, selected by RDMA_RXE), which only
# request_module() asks for, and with CONFIG_CRYPTO_MANAGER=m its
# registration would wait for cryptomgr (see misc-devices.profile):
# neither is in the initramfs unless named here. Without them "rdma link
# add" fails with ENOENT ("rdma_rxe: failed to init crc32 algorithm").
module=cryptomgr
module=crc32_generic
module=rdma_rxe
module=rdma_ucm
module=ib_umad
module=ib_uverbs
tool=/usr/bin/rdma
tool=/usr/bin/ibv_devices
tool=/usr/bin/ibv_devinfo
tests=net/rdma-rxe
timeout=90
