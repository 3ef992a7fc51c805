/* SPDX-License-Identifier: GPL-2.0 */
/*
 * usage.h - the one way the host tools report a problem (like git's
 * usage.c): "error: " and the message, lowercase, no full stop, the
 * problem first, the subject in quotes.
 *
 * A tool defines USAGE, its usage line(s), before including this file:
 *
 *	#define USAGE "usage: mkpattern FILE SIZE-MIB"
 *	#include "usage.h"
 *
 * and gets
 *
 *	die(fmt, ...)          the error; runs die_cleanup if set, then exits
 *	                       with die_status (1 unless the tool sets another)
 *	error(fmt, ...)        the error; returns -1
 *	usage_error(fmt, ...)  the error and USAGE; exits 2
 *
 * A tool without USAGE gets only vreport().
 */
#ifndef BKLFREE_USAGE_H
#define BKLFREE_USAGE_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static inline void vreport(const char *fmt, va_list ap)
{
	fputs("error: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

#ifdef USAGE
static int die_status = 1;
static void (*die_cleanup)(void);

static inline __attribute__((format(printf, 1, 2), noreturn))
void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(fmt, ap);
	va_end(ap);
	if (die_cleanup)
		die_cleanup();
	exit(die_status);
}

static inline __attribute__((format(printf, 1, 2)))
int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(fmt, ap);
	va_end(ap);
	return -1;
}

static inline __attribute__((format(printf, 1, 2), noreturn))
void usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s\n", USAGE);
	exit(2);
}
#endif /* USAGE */

#endif /* BKLFREE_USAGE_H */
