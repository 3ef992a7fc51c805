# The parallel-port LCD panel driver (drivers/auxdisplay/panel.c) on QEMU's
# isa-parallel: an HD44780 display wired to the data and control lines.
# Writes need no answer, so /dev/lcd runs charlcd.c (touched by the
# series) with nothing attached: the bytes go to parallel.out. A profile of
# its own: panel claims the port for as long as it is loaded, which the
# parallel profile's ppdev cases would fight.
description=isa-parallel with the panel driver: /dev/lcd through charlcd
qemu=-chardev file,id=lpt,path=parallel.out
qemu=-device isa-parallel,chardev=lpt
kconfig=CONFIG_PARPORT=m
kconfig=CONFIG_PARPORT_PC=m
kconfig=CONFIG_AUXDISPLAY=y
kconfig=CONFIG_PARPORT_PANEL=m
module=parport_pc
# profile 3: an 8-bit 2x16 LCD and no keypad (drivers/auxdisplay/panel.c),
# so no keypad scan timer polls the port for the whole boot
module=panel parport=0 profile=3
tests=parallel/panel-lcd
timeout=60
