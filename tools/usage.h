/* SPDX-License-Identifier: GPL-2.0 */
/*
 * usage.h - the one way the host tools print an error (like git's
 * usage.c): "error: " and the message, lowercase, no full stop. Each tool's
 * die() adds its own exit status and clean-up.
 */
#ifndef BKLFREE_USAGE_H
#define BKLFREE_USAGE_H

#include <stdarg.h>
#include <stdio.h>

static inline void vreport(const char *fmt, va_list ap)
{
	fputs("error: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

#endif /* BKLFREE_USAGE_H */
