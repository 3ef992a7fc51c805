// SPDX-License-Identifier: GPL-2.0
/*
 * hcd-debugfs - the debugfs files of the EHCI and OHCI host controller
 * drivers (drivers/usb/host/ehci-dbg.c and ohci-dbg.c, both included in
 * their -hcd.c) on QEMU's usb-ehci and pci-ohci, which have no device
 * plugged in: usb/ehci/<bus>/{async,bandwidth,periodic,registers} and
 * usb/ohci/<bus>/{async,periodic,registers}, <bus> being the controller's
 * PCI name.
 *
 * Both drivers keep one snapshot per open file: the first read of an open
 * file fills a buffer (debug_output() calls fill_buffer() while count is
 * 0), later reads and seeks move through that same buffer with
 * simple_read_from_buffer(), and .llseek is default_llseek on an inode of
 * size 0. So per file: the whole read pins the content (the registers
 * file names the bus and the controller, periodic gives the schedule's
 * size, bandwidth the HS table, async is empty on an idle bus); read again
 * after lseek(0) in 7-byte pieces it gives the same bytes (the snapshot,
 * not a new fill); pread at an offset gives the snapshot's tail, SEEK_END
 * lands on 0 (i_size), a read past the end gives 0 bytes and a negative
 * offset is EINVAL.
 *
 * ehci-dbg.c builds its files only with CONFIG_DYNAMIC_DEBUG (the whole
 * file is under #ifdef CONFIG_DYNAMIC_DEBUG, and so is ehci-hcd.c's
 * usb/ehci directory): the test needs it, as the profile does.
 *
 * Guards the llseek series' reading of default_llseek users
 * (patches/core): these files keep default_llseek, so their seek
 * behaviour must not change.
 */
#include <fcntl.h>
#include <glob.h>

#include "ktap.h"

#define DBG_ROOT	"/sys/kernel/debug/usb/"
#define SNAP_MAX	(64 * 1024)

enum hcd { EHCI, OHCI };

static const char *const hcd_name[] = { "ehci", "ohci" };

/* Checks the whole content of a file; returns 1 when it is as pinned. */
typedef int (*content_fn)(const char *buf, size_t len, const char *bus);

struct tfile {
	enum hcd hcd;
	const char *name;
	content_fn content;
	const char *what;	/* what content() pins, for the description */
};

static char bus_of[2][64];	/* the <bus> directory of each controller */

/* The n-th line (from 1) of buf, without its newline, into out. */
static int line(const char *buf, size_t len, unsigned int n, char *out,
		size_t outlen)
{
	const char *p = buf, *end = buf + len, *nl;

	while (--n) {
		nl = memchr(p, '\n', end - p);
		if (!nl)
			return 0;
		p = nl + 1;
	}
	nl = memchr(p, '\n', end - p);
	if (!nl || (size_t)(nl - p) >= outlen)
		return 0;
	memcpy(out, p, nl - p);
	out[nl - p] = '\0';
	return 1;
}

static int empty(const char *buf, size_t len, const char *bus)
{
	(void)buf;
	(void)bus;
	return len == 0;
}

/* "size = N": the periodic frame list (EHCI 256, 512 or 1024). */
static int ehci_periodic(const char *buf, size_t len, const char *bus)
{
	char l[80];
	int n = 0;

	(void)bus;
	if (!line(buf, len, 1, l, sizeof(l)) || sscanf(l, "size = %d", &n) != 1)
		return 0;
	ktap_diag("ehci periodic: %s", l);
	return n == 256 || n == 512 || n == 1024;
}

/* OHCI's periodic table has NUM_INTS (32) slots. */
static int ohci_periodic(const char *buf, size_t len, const char *bus)
{
	char l[80];

	(void)bus;
	return line(buf, len, 1, l, sizeof(l)) && !strcmp(l, "size = 32");
}

/* The HS table: a title and 64 microframes, 8 a line, nothing else. */
static int ehci_bandwidth(const char *buf, size_t len, const char *bus)
{
	char l[128], want[8];
	unsigned int i;

	(void)bus;
	if (!line(buf, len, 1, l, sizeof(l)) ||
	    strcmp(l, "HS bandwidth allocation (us per microframe)"))
		return 0;
	for (i = 0; i < 8; i++) {
		snprintf(want, sizeof(want), "%2u: ", i * 8);
		if (!line(buf, len, i + 2, l, sizeof(l)) ||
		    strncmp(l, want, 4))
			return 0;
	}
	return !line(buf, len, 10, l, sizeof(l));
}

/* Line 1 the bus, line 2 the product, line rev_line begins with rev. */
static int registers_head(const char *buf, size_t len, const char *bus,
			  const char *product, unsigned int rev_line,
			  const char *rev)
{
	char l[128], want[128];

	snprintf(want, sizeof(want), "bus pci, device %s", bus);
	if (!line(buf, len, 1, l, sizeof(l)) || strcmp(l, want))
		return 0;
	if (!line(buf, len, 2, l, sizeof(l)) || strcmp(l, product))
		return 0;
	return line(buf, len, rev_line, l, sizeof(l)) &&
	       !strncmp(l, rev, strlen(rev));
}

/* bus, product_desc, then "EHCI 1.00, rh state ..." (QEMU's HCIVERSION). */
static int ehci_registers(const char *buf, size_t len, const char *bus)
{
	char l[128];

	if (line(buf, len, 3, l, sizeof(l)))
		ktap_diag("ehci registers: %s", l);
	return registers_head(buf, len, bus, "EHCI Host Controller", 3,
			      "EHCI 1.00, rh state ");
}

/*
 * bus, product_desc, hcd_name, then the revision line: OHCI 1.0, and
 * always "NO legacy support" (ohci_dump_status() tests bit 8 of a value it
 * masked to 8 bits).
 */
static int ohci_registers(const char *buf, size_t len, const char *bus)
{
	char l[128];

	if (!line(buf, len, 3, l, sizeof(l)) || strcmp(l, "ohci_hcd"))
		return 0;
	if (line(buf, len, 4, l, sizeof(l)))
		ktap_diag("ohci registers: %s", l);
	return registers_head(buf, len, bus, "OHCI PCI host controller", 4,
			      "OHCI 1.0, NO legacy support registers, rh state ");
}

static const struct tfile tfiles[] = {
	{ EHCI, "async", empty, "empty on an idle bus" },
	{ EHCI, "bandwidth", ehci_bandwidth, "the HS table, no TT" },
	{ EHCI, "periodic", ehci_periodic, "size = frame list size" },
	{ EHCI, "registers", ehci_registers, "names bus, controller, EHCI 1.00" },
	{ OHCI, "async", empty, "empty on an idle bus" },
	{ OHCI, "periodic", ohci_periodic, "size = 32" },
	{ OHCI, "registers", ohci_registers, "names bus, controller, OHCI 1.0" },
};

#define CASES_PER_FILE	3
#define NGLOBAL		2

/* The one <bus> directory of a controller's debugfs root. */
static int find_bus(enum hcd h)
{
	char pat[128];
	glob_t g;
	int ok;

	snprintf(pat, sizeof(pat), DBG_ROOT "%s/*", hcd_name[h]);
	if (glob(pat, 0, NULL, &g))
		return 0;
	ok = g.gl_pathc == 1;
	if (ok)
		snprintf(bus_of[h], sizeof(bus_of[h]), "%s",
			 strrchr(g.gl_pathv[0], '/') + 1);
	else
		ktap_diag("%zu directories match %s", g.gl_pathc, pat);
	globfree(&g);
	return ok;
}

/* Reads fd to its end in pieces of at most step bytes. */
static ssize_t read_all(int fd, char *buf, size_t max, size_t step)
{
	size_t got = 0;
	ssize_t n;

	do {
		n = read(fd, buf + got, step < max - got ? step : max - got);
		if (n < 0)
			return -1;
		got += n;
	} while (n > 0 && got < max);
	return got;
}

static void file_cases(const struct tfile *t)
{
	static char snap[SNAP_MAX], again[SNAP_MAX];
	char path[192];
	const char *bus = bus_of[t->hcd];
	ssize_t len = -1, n2 = -1, n;
	off_t mid, end;
	int fd, ok;

	snprintf(path, sizeof(path), DBG_ROOT "%s/%s/%s", hcd_name[t->hcd],
		 bus, t->name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		ktap_perror(path);
	else
		len = read_all(fd, snap, sizeof(snap), sizeof(snap));
	ok = len >= 0 && len < SNAP_MAX && t->content(snap, len, bus);
	if (len >= 0 && !ok)
		ktap_diag("%s: %zd bytes, begins '%.60s'", t->name, len, snap);
	ktap_ok(ok, "%s %s whole read: %s", hcd_name[t->hcd], t->name,
		t->what);

	/* The same fd again from 0, in 7-byte reads: the same snapshot. */
	if (fd >= 0 && len >= 0 && lseek(fd, 0, SEEK_SET) == 0)
		n2 = read_all(fd, again, sizeof(again), 7);
	ok = n2 == len && !memcmp(snap, again, len > 0 ? len : 0);
	if (!ok && n2 >= 0)
		ktap_diag("%zd bytes the second time, %zd the first", n2, len);
	ktap_ok(ok, "%s %s lseek 0 then 7-byte reads give the same snapshot",
		hcd_name[t->hcd], t->name);

	/*
	 * pread in the middle; SEEK_END is i_size, 0 for debugfs; past the
	 * snapshot's end nothing; a negative position EINVAL.
	 */
	ok = fd >= 0 && len >= 0;
	mid = len / 2;
	if (ok) {
		n = pread(fd, again, sizeof(again), mid);
		ok = n == len - mid && !memcmp(again, snap + mid, n);
		if (!ok)
			ktap_diag("pread at %lld gave %zd bytes", (long long)mid,
				  n);
	}
	if (ok) {
		end = lseek(fd, 0, SEEK_END);
		ok = end == 0;
		if (!ok)
			ktap_diag("SEEK_END 0 gave %lld", (long long)end);
	}
	if (ok) {
		ok = lseek(fd, len + 100, SEEK_SET) == len + 100 &&
		     read(fd, again, sizeof(again)) == 0 &&
		     lseek(fd, 0, SEEK_CUR) == len + 100;
		if (!ok)
			ktap_diag("a read past the end did not give 0 bytes");
	}
	if (ok) {
		ok = lseek(fd, -1, SEEK_SET) < 0 && errno == EINVAL;
		if (!ok)
			ktap_diag("lseek -1 was not EINVAL");
	}
	ktap_ok(ok, "%s %s pread at len/2, SEEK_END 0, past the end 0 bytes, negative EINVAL",
		hcd_name[t->hcd], t->name);
	if (fd >= 0)
		close(fd);
}

static void run(void)
{
	size_t i;

	ktap_ok(find_bus(EHCI), "ehci: one bus directory under usb/ehci");
	ktap_ok(find_bus(OHCI), "ohci: one bus directory under usb/ohci");
	for (i = 0; i < 2; i++)
		if (bus_of[i][0])
			ktap_diag("%s bus %s", hcd_name[i], bus_of[i]);
	for (i = 0; i < ARRAY_SIZE(tfiles); i++)
		file_cases(&tfiles[i]);
}

const struct ktap_test ktap_test = {
	.plan = NGLOBAL + CASES_PER_FILE * ARRAY_SIZE(tfiles),
	.devices = (const char *const[]){ DBG_ROOT "ohci", NULL },
	.kconfig = (const char *const[]){ "CONFIG_USB_EHCI_HCD",
		"CONFIG_USB_OHCI_HCD", "CONFIG_DYNAMIC_DEBUG", NULL },
	.timeout = 30,
	.upstream = "patches/core llseek series (default_llseek users in drivers/usb/host)",
	.run = run,
};
