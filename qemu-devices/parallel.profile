# A PC parallel port whose output lands in a file in the run directory. The
# guest writes through lp and drives the data and control lines via ppdev.
# parallel.out then holds lp's writes ("!", a line, 5000 bytes of A-Z,
# "held by lp0") and the one "Z" ppdev strobes: 5046 bytes.
description=isa-parallel: lp writes and ppdev claim, data and control lines
qemu=-chardev file,id=lpt,path=parallel.out
qemu=-device isa-parallel,chardev=lpt
kconfig=CONFIG_PARPORT=m
kconfig=CONFIG_PARPORT_PC=m
kconfig=CONFIG_PRINTER=m
kconfig=CONFIG_PPDEV=m
module=parport_pc
module=lp
module=ppdev
tests=parallel/lp parallel/ppdev
timeout=60
