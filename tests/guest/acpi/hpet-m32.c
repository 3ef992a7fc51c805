// SPDX-License-Identifier: GPL-2.0
/*
 * hpet-m32 - acpi/hpet built as a 32-bit program (-m32, the Makefile's
 * rule for *-m32.c): HPET_INFO and HPET_IRQFREQ arrive with their 32-bit
 * command numbers and hpet_compat_ioctl() translates them, and a read
 * gives a compat_ulong_t count (4 bytes, in_compat_syscall() in
 * hpet_read). The same cases and answers as the 64-bit test; needs
 * CONFIG_IA32_EMULATION (asked for by vivid.profile).
 */
#include "hpet.c"
