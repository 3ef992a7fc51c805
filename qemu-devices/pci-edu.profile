# QEMU's educational PCI device driven from userspace through
# uio_pci_generic: identification, liveness and factorial registers over
# BAR0, and a legacy interrupt counted through /dev/uio0.
description=edu PCI device bound to uio_pci_generic: BAR0 registers and INTx
qemu=-device edu
kconfig=CONFIG_UIO=m
kconfig=CONFIG_UIO_PCI_GENERIC=m
module=uio_pci_generic
tests=pci/edu-uio
timeout=60
