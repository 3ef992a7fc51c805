// SPDX-License-Identifier: GPL-2.0
/*
 * edu-uio - drive QEMU's educational PCI device (1234:11e8) from userspace
 * through uio_pci_generic.
 *
 * The device is bound to uio_pci_generic by writing its ID to the driver's
 * new_id, the way a user hands any PCI function to userspace. Then:
 *
 *   - BAR0 mapped through sysfs resource0 reads the identification
 *     register (0x00) as 0x010000ed, and so does the same BAR mapped
 *     through /dev/uioN (uio map 0, the uio_mmap path);
 *   - the liveness register (0x04) reads back the complement of each
 *     value written;
 *   - the factorial register (0x08) computes n! modulo 2^32 in a device
 *     thread; the status register (0x20) bit 0 is polled, with a bound,
 *     until the computation is done;
 *   - a write to /dev/uioN fails with ENOSYS: uio_pci_generic has no
 *     irqcontrol; userspace unmasks INTx by clearing Interrupt Disable
 *     (bit 10) of the PCI command register through the sysfs config
 *     file, as Documentation/driver-api/uio-howto.rst shows;
 *   - with INTx unmasked and no interrupt raised, poll() on /dev/uioN
 *     stays quiet for 100 ms;
 *   - writing the raise register (0x60) asserts INTx: poll() wakes, read()
 *     returns the interrupt count 1, the interrupt status register (0x24)
 *     holds the raised bits and the handler has set Interrupt Disable;
 *     writing the bits to the acknowledge register (0x64) clears them
 *     and, unmasked again, no second interrupt arrives;
 *   - a factorial with the status register's interrupt bit (0x80) set
 *     raises interrupt status bit 0 when done, seen through /dev/uioN.
 *
 * This guards the UIO character device (drivers/uio/uio.c: open, read,
 * write, poll and mmap) and uio_pci_generic's INTx masking handshake
 * through any rework of file_operations. uio's names noop_llseek, the
 * method the 2.6.37 llseek work (upstream 6038f373a3dc) spread to drivers
 * that ignore the file position.
 */
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <sys/mman.h>

#include "ktap.h"

#define PCI_DEVICES "/sys/bus/pci/devices"
#define UIO_DRIVER "/sys/bus/pci/drivers/uio_pci_generic"
#define EDU_VENDOR 0x1234
#define EDU_DEVICE 0x11e8
#define EDU_ID 0x010000edu
#define EDU_BAR_MAP 4096

#define REG_ID 0x00
#define REG_LIVENESS 0x04
#define REG_FACT 0x08
#define REG_STATUS 0x20
#define REG_IRQ_STATUS 0x24
#define REG_IRQ_RAISE 0x60
#define REG_IRQ_ACK 0x64

#define PCI_COMMAND_HIGH 5
#define INTX_DISABLE_HIGH 0x04

#define STATUS_COMPUTING 0x01
#define STATUS_IRQFACT 0x80
#define IRQ_FACT 0x01
#define IRQ_RAISED 0x00c0ffeeu

#define IRQ_WAIT_MS 2000
#define QUIET_MS 100

static const uint32_t liveness[] = { 0, 0xffffffffu, 0x12345678u, 0xa5a5a5a5u };

static const struct {
	uint32_t n;
	uint32_t fact;	/* n! modulo 2^32: the register is 32 bits */
} facts[] = {
	{ 0, 1 },
	{ 1, 1 },
	{ 5, 120 },
	{ 10, 3628800 },
	{ 12, 479001600 },
	{ 13, 1932053504 },	/* 6227020800 wraps */
};

/* Cases outside the tables: see run(). */
#define OTHER_CASES 11

static char pci_dev[300];
static char uio_node[300];
static volatile uint32_t *bar;
static int uio_fd = -1, config_fd = -1;

static int read_hex(const char *dir, const char *name, unsigned long *val)
{
	char path[600], buf[32];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return 0;
	ok = fgets(buf, sizeof(buf), f) != NULL;
	fclose(f);
	if (ok)
		*val = strtoul(buf, NULL, 16);
	return ok;
}

/* The one edu function on the bus, as /sys/bus/pci/devices/ADDR. */
static int find_edu(void)
{
	DIR *d = opendir(PCI_DEVICES);
	struct dirent *de;
	int found = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char dir[300];
		unsigned long v, id;

		if (de->d_name[0] == '.')
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", PCI_DEVICES, de->d_name);
		if (read_hex(dir, "vendor", &v) &&
		    read_hex(dir, "device", &id) && v == EDU_VENDOR &&
		    id == EDU_DEVICE && !found++)
			snprintf(pci_dev, sizeof(pci_dev), "%s", dir);
	}
	closedir(d);
	if (found != 1)
		ktap_diag("%d edu functions on the bus", found);
	return found == 1;
}

/* The driver bound to pci_dev, "" when none. */
static void bound_driver(char *name, size_t len)
{
	char path[400], target[400];
	ssize_t n;

	snprintf(path, sizeof(path), "%s/driver", pci_dev);
	n = readlink(path, target, sizeof(target) - 1);
	name[0] = '\0';
	if (n > 0) {
		target[n] = '\0';
		snprintf(name, len, "%s", strrchr(target, '/') + 1);
	}
}

/* Bind through new_id; fill uio_node from the device's uio directory. */
static int bind_uio(void)
{
	char drv[64], path[400];
	struct dirent *de;
	DIR *d;
	int fd;

	fd = open(UIO_DRIVER "/new_id", O_WRONLY);
	if (fd < 0)
		return ktap_perror(UIO_DRIVER "/new_id") + 1;
	snprintf(path, sizeof(path), "%04x %04x", EDU_VENDOR, EDU_DEVICE);
	if (write(fd, path, strlen(path)) < 0)
		ktap_perror("write new_id");
	close(fd);

	bound_driver(drv, sizeof(drv));
	ktap_diag("%s bound to '%s'", pci_dev, drv);
	if (strcmp(drv, "uio_pci_generic"))
		return 0;
	snprintf(path, sizeof(path), "%s/uio", pci_dev);
	d = opendir(path);
	if (!d)
		return ktap_perror(path) + 1;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "uio", 3))
			snprintf(uio_node, sizeof(uio_node), "/dev/%s",
				 de->d_name);
	closedir(d);
	ktap_diag("uio node %s", uio_node);
	return uio_node[0] != '\0';
}

static volatile uint32_t *map_bar(const char *path, off_t off)
{
	void *p;
	int fd = open(path, O_RDWR | O_SYNC);

	if (fd < 0) {
		ktap_perror(path);
		return NULL;
	}
	p = mmap(NULL, EDU_BAR_MAP, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 off);
	close(fd);
	if (p == MAP_FAILED) {
		ktap_perror("mmap");
		return NULL;
	}
	return p;
}

static uint32_t rd(volatile uint32_t *b, unsigned int reg)
{
	return b[reg / 4];
}

static void wr(unsigned int reg, uint32_t val)
{
	bar[reg / 4] = val;
}

/* Wait, bounded, for the factorial thread to clear the computing bit. */
static int fact_done(void)
{
	long long end = ktap_now_ms() + IRQ_WAIT_MS;

	while (rd(bar, REG_STATUS) & STATUS_COMPUTING)
		if (ktap_now_ms() > end)
			return 0;
	return 1;
}

/*
 * The high byte of the PCI command register holds Interrupt Disable
 * (bit 10). uio_pci_generic sets it in its handler and has no irqcontrol:
 * userspace clears it through the config space, as the UIO howto shows.
 */
static int intx_masked(void)
{
	unsigned char cmd_high;

	if (pread(config_fd, &cmd_high, 1, PCI_COMMAND_HIGH) != 1)
		return ktap_perror("pread command register");
	return !!(cmd_high & INTX_DISABLE_HIGH);
}

static int irq_unmask(void)
{
	unsigned char cmd_high;

	if (pread(config_fd, &cmd_high, 1, PCI_COMMAND_HIGH) != 1)
		return ktap_perror("pread command register") + 1;
	cmd_high &= ~INTX_DISABLE_HIGH;
	if (pwrite(config_fd, &cmd_high, 1, PCI_COMMAND_HIGH) != 1)
		return ktap_perror("pwrite command register") + 1;
	return 1;
}

/*
 * Wait up to ms for an interrupt. Returns the new interrupt count, 0 when
 * none came, -1 on error.
 */
static long irq_wait(int ms)
{
	struct pollfd pfd = { .fd = uio_fd, .events = POLLIN };
	int32_t count;
	int r = poll(&pfd, 1, ms);

	if (r < 0)
		return ktap_perror("poll");
	if (!r)
		return 0;
	if (read(uio_fd, &count, sizeof(count)) != sizeof(count))
		return ktap_perror("read uio");
	return count;
}

static void test_registers(void)
{
	volatile uint32_t *uio_bar;
	char res[400];
	size_t i;

	snprintf(res, sizeof(res), "%s/resource0", pci_dev);
	bar = map_bar(res, 0);
	if (!bar)
		ktap_bail("cannot map BAR0 through %s", res);
	ktap_ok(rd(bar, REG_ID) == EDU_ID,
		"identification register 0x%08x through resource0", EDU_ID);

	/* uio map N is at offset N pages of /dev/uioN. */
	uio_bar = map_bar(uio_node, 0);
	ktap_ok(uio_bar && rd(uio_bar, REG_ID) == EDU_ID,
		"identification register 0x%08x through %s map 0", EDU_ID,
		uio_node);
	if (uio_bar)
		munmap((void *)uio_bar, EDU_BAR_MAP);

	for (i = 0; i < ARRAY_SIZE(liveness); i++) {
		uint32_t got;

		wr(REG_LIVENESS, liveness[i]);
		got = rd(bar, REG_LIVENESS);
		if (!ktap_ok(got == ~liveness[i],
			     "liveness write 0x%08x reads 0x%08x",
			     liveness[i], ~liveness[i]))
			ktap_diag("read 0x%08x", got);
	}

	for (i = 0; i < ARRAY_SIZE(facts); i++) {
		uint32_t got = 0;
		int done;

		wr(REG_FACT, facts[i].n);
		done = fact_done();
		if (done)
			got = rd(bar, REG_FACT);
		if (!ktap_ok(done && got == facts[i].fact,
			     "factorial of %u reads %u", facts[i].n,
			     facts[i].fact))
			ktap_diag("%s, read %u",
				  done ? "done" : "still computing", got);
	}
}

static void test_interrupts(void)
{
	char path[400];
	int32_t on = 1;
	uint32_t st;
	long got;

	uio_fd = open(uio_node, O_RDWR);
	if (uio_fd < 0)
		ktap_bail("open %s: %s", uio_node, strerror(errno));
	snprintf(path, sizeof(path), "%s/config", pci_dev);
	config_fd = open(path, O_RDWR);
	if (config_fd < 0)
		ktap_bail("open %s: %s", path, strerror(errno));

	errno = 0;
	ktap_ok(write(uio_fd, &on, sizeof(on)) == -1 && errno == ENOSYS,
		"write to %s fails with ENOSYS: no irqcontrol", uio_node);

	st = rd(bar, REG_IRQ_STATUS);
	got = irq_unmask() ? irq_wait(QUIET_MS) : -1;
	ktap_diag("before raise: count %ld, status 0x%08x", got, st);
	ktap_ok(st == 0 && got == 0,
		"no interrupt pending or delivered before a raise");

	/* The uio event count starts at 0 when the device registers. */
	wr(REG_IRQ_RAISE, IRQ_RAISED);
	got = irq_wait(IRQ_WAIT_MS);
	st = rd(bar, REG_IRQ_STATUS);
	ktap_diag("interrupt count %ld, status 0x%08x", got, st);
	ktap_ok(got == 1 && st == IRQ_RAISED,
		"raise 0x%08x wakes poll on %s, count 1, status 0x%08x",
		IRQ_RAISED, uio_node, IRQ_RAISED);
	ktap_ok(intx_masked() == 1,
		"the handler set Interrupt Disable in the command register");

	wr(REG_IRQ_ACK, IRQ_RAISED);
	st = rd(bar, REG_IRQ_STATUS);
	ktap_ok(st == 0 && irq_unmask() && irq_wait(QUIET_MS) == 0,
		"acknowledge clears the status and no interrupt follows");

	wr(REG_STATUS, STATUS_IRQFACT);
	wr(REG_FACT, 6);
	got = irq_wait(IRQ_WAIT_MS);
	st = rd(bar, REG_IRQ_STATUS);
	ktap_diag("interrupt count %ld, status 0x%08x", got, st);
	ktap_ok(got == 2 && st == IRQ_FACT,
		"factorial with interrupt enabled wakes poll, count 2, status 0x%x",
		IRQ_FACT);
	ktap_ok(fact_done() && rd(bar, REG_FACT) == 720,
		"factorial of 6 reads 720 after its interrupt");
	wr(REG_IRQ_ACK, IRQ_FACT);
	wr(REG_STATUS, 0);
	ktap_ok(rd(bar, REG_IRQ_STATUS) == 0 && irq_unmask() &&
		irq_wait(QUIET_MS) == 0,
		"factorial interrupt acknowledged, no interrupt follows");
	close(config_fd);
	close(uio_fd);
}

static void run(void)
{
	if (!find_edu())
		ktap_bail("no edu device %04x:%04x", EDU_VENDOR, EDU_DEVICE);
	ktap_ok(bind_uio(), "bind %04x:%04x through %s/new_id", EDU_VENDOR,
		EDU_DEVICE, UIO_DRIVER);
	if (!uio_node[0])
		ktap_bail("no uio node for %s", pci_dev);
	test_registers();
	test_interrupts();
}

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(liveness) + ARRAY_SIZE(facts) + OTHER_CASES,
	.devices = (const char *const[]){ UIO_DRIVER, NULL },
	.kconfig = (const char *const[]){ "CONFIG_UIO_PCI_GENERIC", NULL },
	.timeout = 20,
	.upstream = "6038f373a3dc",
	.run = run,
};
