# The ACPI side of -M pc, the one profile that boots with ACPI (every
# other boot gets acpi=off, scripts/lab/lib.sh profile_cmdline): the HPET
# the ACPI HPET table names (/dev/hpet, drivers/char/hpet.c), QEMU's
# acpi-erst device behind the ERST table (module erst-dbg,
# /dev/erst_dbg) and the fixed-feature power button, whose presses the
# button driver sends out as ACPI netlink events (drivers/acpi/event.c).
# hpet-intcap=0xff0104: -M pc lets an HPET comparator route only to IRQ 2,
# which hpet.c never takes in IO-APIC mode; q35's routing (GSI 16-23, 8,
# 2) gives the timer /dev/hpet hands out an interrupt of its own.
# The ERST store is a 64 KiB file made in the run directory, which
# boot.sh empties before each boot, so every boot starts with no records.
# hpet_mmap=1 with CONFIG_HPET_MMAP: the register page maps (read-only
# here), so the test reads the counter from user space.
# timeout: the boot takes 6.5 s under TCG (ACPI adds 0.25 s before the
# first KTAP line); the tests' alarms (hpet 20 s, erst-dbg 20,
# power-button 30) end a stuck test, so even three stuck tests are
# reported as such before the 90 s.
description=ACPI on -M pc: /dev/hpet, ERST debug node, power button events
qemu=-global hpet.hpet-intcap=0xff0104
qemu=-object memory-backend-file,id=erstnvram,mem-path=erst.img,size=0x10000,share=on
qemu=-device acpi-erst,memdev=erstnvram
kconfig=CONFIG_ACPI=y
kconfig=CONFIG_ACPI_BUTTON=m
kconfig=CONFIG_HPET=y
kconfig=CONFIG_HPET_MMAP=y
kconfig=CONFIG_ACPI_APEI=y
kconfig=CONFIG_ACPI_APEI_ERST_DEBUG=m
cmdline=acpi=force
cmdline=hpet_mmap=1
module=erst-dbg
module=button
inject=acpi-power-1 system_powerdown
inject=acpi-power-2 system_powerdown
tests=acpi/hpet acpi/hpet-m32 acpi/erst-dbg acpi/power-button
timeout=90
