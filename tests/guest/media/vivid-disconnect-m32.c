// SPDX-License-Identifier: GPL-2.0
/*
 * vivid-disconnect-m32 - media/vivid-disconnect built as a 32-bit program
 * (-m32, the Makefile's rule for *-m32.c): every V4L2 ioctl then goes
 * through the kernel's 32-bit compat entry, v4l2_compat_ioctl32(), which
 * on 6.1 answers ENODEV for an unregistered node before the core can serve
 * the disconnect event (patches/core/0503). Built with the i386 default
 * 32-bit time_t, like Debian's i386 programs: its DQEVENT is the compat
 * layout VIDIOC_DQEVENT32_TIME32. Needs CONFIG_IA32_EMULATION and
 * CONFIG_COMPAT_32BIT_TIME (vivid.profile).
 */
#include "vivid-disconnect.c"
