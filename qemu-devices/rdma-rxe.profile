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
kconfig=CONFIG_DUMMY=m
module=dummy
module=rdma_rxe
module=rdma_ucm
module=ib_umad
module=ib_uverbs
tool=/usr/bin/rdma
tool=/usr/bin/ibv_devices
tool=/usr/bin/ibv_devinfo
tests=net/rdma-rxe
timeout=90
