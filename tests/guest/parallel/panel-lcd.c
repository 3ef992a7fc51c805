// SPDX-License-Identifier: GPL-2.0
/*
 * panel-lcd - /dev/lcd of the parallel-port LCD panel driver
 * (drivers/auxdisplay/panel.c, profile 3: an 8-bit HD44780-like display
 * with no keypad) on QEMU's isa-parallel. The character device is
 * charlcd.c's, touched by the series: write-only, one opener at a time,
 * not seekable; every byte goes through charlcd_write_char(), text and
 * the driver's escape sequences alike (ESC [ L c: cursor off, ESC [ L b:
 * blink off, form feed: clear), and a write longer than 32 bytes passes
 * the cond_resched() in the loop. Nothing answers on the port, and
 * nothing needs to: the display is driven by writes alone.
 */
#include <fcntl.h>

#include "ktap.h"

#define LCD "/dev/lcd"

static int fd = -1;

static int open_read_refused(void)
{
	int f = open(LCD, O_RDONLY | O_CLOEXEC);

	if (f >= 0)
		close(f);
	return f < 0 && errno == EPERM;
}

static int open_write(void)
{
	fd = open(LCD, O_WRONLY | O_CLOEXEC);
	return fd >= 0;
}

static int second_open_busy(void)
{
	int f = open(LCD, O_WRONLY | O_CLOEXEC);

	if (f >= 0)
		close(f);
	return f < 0 && errno == EBUSY;
}

static int write_all(const char *s, size_t len)
{
	return fd >= 0 && write(fd, s, len) == (ssize_t)len;
}

static int write_text(void)
{
	static const char s[] = "\fbklfree\nlab";

	return write_all(s, sizeof(s) - 1);
}

static int write_escapes(void)
{
	static const char s[] = "\x1b[Lc\x1b[Lb\x1b[Lx0y1;panel";

	return write_all(s, sizeof(s) - 1);
}

static int write_long(void)
{
	char s[100];

	memset(s, 'x', sizeof(s));
	s[49] = '\n';
	return write_all(s, sizeof(s));
}

static int no_seek(void)
{
	errno = 0;
	if (fd < 0 || lseek(fd, 0, SEEK_SET) >= 0 || errno != ESPIPE)
		return 0;
	errno = 0;
	return pwrite(fd, "p", 1, 0) < 0 && errno == ESPIPE;
}

static int close_reopen(void)
{
	int ok = fd >= 0 && !close(fd);

	fd = -1;
	ok = ok && open_write();
	if (fd >= 0)
		close(fd);
	fd = -1;
	return ok;
}

static const struct ktap_case cases[] = {
	{ "open for reading refused: EPERM (write-only device)", open_read_refused },
	{ "open for writing", open_write },
	{ "a second open: EBUSY (one opener at a time)", second_open_busy },
	{ "form feed and two lines of text written whole", write_text },
	{ "escape sequences (cursor off, blink off, goto x0y1) written whole", write_escapes },
	{ "100 bytes in one write, past the cond_resched() every 32", write_long },
	{ "lseek and pwrite: ESPIPE (nonseekable_open)", no_seek },
	{ "close, then open again", close_reopen },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(cases),
	.devices = (const char *const[]){ LCD, NULL },
	.kconfig = (const char *const[]){ "CONFIG_PARPORT_PANEL", NULL },
	.cases = cases,
};
