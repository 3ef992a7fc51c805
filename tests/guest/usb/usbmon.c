// SPDX-License-Identifier: GPL-2.0
/*
 * usbmon - the USB monitor's three interfaces on the usb-hid profile's
 * bus (drivers/usb/mon, touched by the llseek series): the binary
 * /dev/usbmon0 (ring size, statistics, mmap of the ring, lseek refused),
 * the text interface debugfs usb/usbmon/0u (a non-blocking read gives
 * events or EAGAIN) and the statistics file 0s.
 */
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "ktap.h"
#include "usb/mon-bin.h"

#define BIN MON_BIN
#define DBG MON_TEXT_DIR

static int bin_fd = -1;
static int ring_size;

static int bin_ring(void)
{
	bin_fd = open(BIN, O_RDONLY | O_CLOEXEC);
	if (bin_fd < 0)
		return 0;
	ring_size = ioctl(bin_fd, MON_IOCQ_RING_SIZE);
	ktap_diag("usbmon0 ring %d bytes", ring_size);
	return ring_size > 0;
}

static int bin_stats(void)
{
	struct mon_bin_stats st = { 0 };

	return bin_fd >= 0 && !ioctl(bin_fd, MON_IOCG_STATS, &st);
}

static int bin_mmap(void)
{
	void *p;

	if (bin_fd < 0 || ring_size <= 0)
		return 0;
	p = mmap(NULL, ring_size, PROT_READ, MAP_SHARED, bin_fd, 0);
	if (p == MAP_FAILED)
		return 0;
	munmap(p, ring_size);
	return 1;
}

static int bin_lseek(void)
{
	int ok = bin_fd >= 0 && lseek(bin_fd, 0, SEEK_SET) < 0 && errno == ESPIPE;

	close(bin_fd);
	return ok;
}

static int text_read(void)
{
	char buf[4096];
	int fd = open(DBG "0u", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf)) : -1;
	int ok = n > 0 || (n < 0 && errno == EAGAIN);

	close(fd);
	return ok;
}

static int stat_read(void)
{
	char buf[256];
	int fd = open(DBG "0s", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	if (n > 0) {
		buf[n] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		ktap_diag("0s: %s", buf);
	}
	close(fd);
	return n > 0;
}

static const struct ktap_case cases[] = {
	{ "usbmon0: MON_IOCQ_RING_SIZE is positive", bin_ring },
	{ "usbmon0: MON_IOCG_STATS", bin_stats },
	{ "usbmon0: the ring maps read-only", bin_mmap },
	{ "usbmon0: lseek is ESPIPE", bin_lseek },
	{ "usbmon 0u: a non-blocking read gives events or EAGAIN", text_read },
	{ "usbmon 0s: the statistics read back", stat_read },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(cases),
	.devices = (const char *const[]){ BIN, DBG "0u", NULL },
	.kconfig = (const char *const[]){ "CONFIG_USB_MON", NULL },
	.timeout = 30,
	.upstream = "patches/core llseek series (drivers/usb/mon)",
	.cases = cases,
};
