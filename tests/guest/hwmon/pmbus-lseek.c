// SPDX-License-Identifier: GPL-2.0
/*
 * pmbus-lseek - lseek on pmbus_core's debugfs mfr_id file (patches/core
 * 0111, "hwmon: (pmbus) make lseek rewind the debugfs files that read by
 * position").
 *
 * QEMU x86 has no PMBus device, so the profile makes one: the guest's
 * init loads the kernel's own i2c-stub.ko (the hwmon profile's module=
 * line) with one chip at 0x40 and SMBus block transfers enabled
 * (functionality=0xf7f0000: quick, byte, byte data, word data, I2C block,
 * SMBus block). The test checks that, writes the chip's MFR_ID block (0x99) through
 * /dev/i2c-N, and binds the generic pmbus driver to it as a
 * "bmr453" (one page) through new_device. The stub answers every other
 * byte and word register with 0, which pmbus_core reads as a working chip
 * in linear mode with no faults. The stub answers a block read only after
 * a block write of that command, so MFR_ID is the only mfr_* file
 * pmbus_init_debugfs() creates.
 *
 * mfr_read() formats the block and a newline on every read and serves it
 * by *ppos. With 6.1's noop_llseek a rewind after the first read returns
 * the old position, not 0 (case 6), and the next read gives end of file
 * (case 7); with generic_file_llseek both work. Those two cases are the
 * finding in patches/core/findings: the baseline boot must fail in
 * exactly them. The device stays bound, so lseek/lseek-abi records
 * mfr_id too (patches/core/expected-lseek-changes).
 *
 * When a step cannot be done the later cases are skipped, naming why,
 * never passed.
 */
#include <fcntl.h>
#include <glob.h>
#include <sys/ioctl.h>
#include <linux/i2c.h>
#include <linux/i2c-dev.h>

#include "ktap.h"
#include "i2c-stub.h"

#define CHIP_ADDR	0x40
#define PMBUS_MFR_ID	0x99
#define MFR_ID		"BKLFREE"
#define MFR_TEXT	MFR_ID "\n"	/* what mfr_id reads: the block, '\n' */
#define MFR_LEN		((ssize_t)sizeof(MFR_TEXT) - 1)

static char why[1024];		/* why the later cases are skipped */
static int bus = -1;
static char mfr_path[256];
static int mfr_fd = -1;

/* Case 1: init loaded i2c-stub (module= line) with the chip at 0x40. */
static int stub_loaded(void)
{
	const char *p = "/sys/module/i2c_stub/parameters/chip_addr";
	char buf[64] = "";
	FILE *f = fopen(p, "r");

	if (!f) {
		snprintf(why, sizeof(why), "%s absent: %s", p, strerror(errno));
		return 0;
	}
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	if (strtoul(buf, NULL, 0) != CHIP_ADDR) {
		snprintf(why, sizeof(why), "%s is '%s', want %d", p, buf, CHIP_ADDR);
		return 0;
	}
	return 1;
}

static int i2c_node_ready(void *path)
{
	return access(path, F_OK) ? KTAP_WAIT : KTAP_READY;
}

/* Case 2: MFR_ID written as an SMBus block through /dev/i2c-N. */
static int preset_mfr_id(void)
{
	union i2c_smbus_data d = { .block = { sizeof(MFR_ID) - 1 } };
	struct i2c_smbus_ioctl_data args = {
		.read_write = I2C_SMBUS_WRITE, .command = PMBUS_MFR_ID,
		.size = I2C_SMBUS_BLOCK_DATA, .data = &d,
	};
	char dev[32];
	int fd, ok;

	bus = i2c_stub_bus();
	if (bus < 0) {
		snprintf(why, sizeof(why), "no i2c adapter named '%s'", STUB_NAME);
		return 0;
	}
	snprintf(dev, sizeof(dev), "/dev/i2c-%d", bus);
	ktap_wait_dev(NULL, i2c_node_ready, dev, 5000);
	fd = open(dev, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, sizeof(why), "%s: %s", dev, strerror(errno));
		return 0;
	}
	memcpy(&d.block[1], MFR_ID, sizeof(MFR_ID) - 1);
	ok = ioctl(fd, I2C_SLAVE, CHIP_ADDR) == 0 &&
	     ioctl(fd, I2C_SMBUS, &args) == 0;
	if (!ok)
		snprintf(why, sizeof(why), "%s: block write of MFR_ID: %s", dev,
			 strerror(errno));
	close(fd);
	return ok;
}

/* Case 3: new_device binds the pmbus driver; its hwmon device appears. */
static int bind_pmbus(void)
{
	char path[128], line[32];
	glob_t g;
	int fd, n, ok;

	snprintf(path, sizeof(path), "/sys/bus/i2c/devices/i2c-%d/new_device", bus);
	n = snprintf(line, sizeof(line), "bmr453 0x%02x", CHIP_ADDR);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, line, n) != n) {
		snprintf(why, sizeof(why), "%s '%s': %s", path, line, strerror(errno));
		if (fd >= 0)
			close(fd);
		return 0;
	}
	close(fd);
	/* Probing is synchronous: the hwmon device is there or never. */
	snprintf(path, sizeof(path), "/sys/bus/i2c/devices/%d-%04x/hwmon/hwmon*",
		 bus, CHIP_ADDR);
	if (glob(path, 0, NULL, &g) || g.gl_pathc != 1) {
		snprintf(why, sizeof(why), "pmbus did not bind (no %s; see dmesg)", path);
		return 0;
	}
	ok = snprintf(mfr_path, sizeof(mfr_path), "/sys/kernel/debug/pmbus/%s/mfr_id",
		      strrchr(g.gl_pathv[0], '/') + 1) < (int)sizeof(mfr_path);
	globfree(&g);
	ktap_diag("pmbus bound as %s", mfr_path);
	return ok;
}

static int same_text(const char *buf, ssize_t n, const char *what)
{
	if (n == MFR_LEN && !memcmp(buf, MFR_TEXT, MFR_LEN))
		return 1;
	ktap_diag("%s returned %zd byte(s), want %zd ('" MFR_ID "\\n')",
		  what, n, MFR_LEN);
	return 0;
}

/* Case 4: the first read gives the block and a newline. */
static int first_read(void)
{
	char buf[64];
	ssize_t n;

	mfr_fd = open(mfr_path, O_RDONLY | O_CLOEXEC);
	if (mfr_fd < 0) {
		snprintf(why, sizeof(why), "%s: %s", mfr_path, strerror(errno));
		return 0;
	}
	n = read(mfr_fd, buf, sizeof(buf));
	return same_text(buf, n, "first read");
}

static int pos_is(off_t off, int whence, off_t want, const char *what)
{
	off_t r = lseek(mfr_fd, off, whence);

	if (r != want)
		ktap_diag("%s returned %lld, want %lld", what, (long long)r,
			  (long long)want);
	return r == want;
}

static void run(void)
{
	static const char *const desc[] = {
		"i2c-stub is loaded with a chip at 0x40",
		"MFR_ID preset through /dev/i2c-N (SMBus block write)",
		"new_device binds the pmbus driver (bmr453) to the stub chip",
		"mfr_id: first read gives the MFR_ID block and a newline",
		"mfr_id: lseek 0 SEEK_CUR after it is the length read",
		"mfr_id: lseek 0 SEEK_SET rewinds to 0",
		"mfr_id: the read after the rewind gives the same text",
		"mfr_id: pread at 0 gives the same text",
	};
	char buf[64];
	unsigned int i = 0;
	int ok = 1;

	if (ok)
		ok = ktap_ok(stub_loaded(), "%s", desc[i++]);
	if (ok)
		ok = ktap_ok(preset_mfr_id(), "%s", desc[i++]);
	if (ok)
		ok = ktap_ok(bind_pmbus(), "%s", desc[i++]);
	if (ok)
		ok = ktap_ok(first_read(), "%s", desc[i++]);
	if (ok) {
		ktap_ok(pos_is(0, SEEK_CUR, MFR_LEN, "lseek 0 SEEK_CUR"), "%s", desc[i++]);
		ktap_ok(pos_is(0, SEEK_SET, 0, "lseek 0 SEEK_SET"), "%s", desc[i++]);
		ktap_ok(same_text(buf, read(mfr_fd, buf, sizeof(buf)),
				  "read after the rewind"), "%s", desc[i++]);
		ktap_ok(same_text(buf, pread(mfr_fd, buf, sizeof(buf), 0),
				  "pread at 0"), "%s", desc[i++]);
	} else if (why[0]) {
		ktap_diag("%s", why);
	}
	while (i < ARRAY_SIZE(desc))
		ktap_skip(why[0] ? why : "an earlier case failed", "%s", desc[i++]);
	if (mfr_fd >= 0)
		close(mfr_fd);
}

const struct ktap_test ktap_test = {
	.plan = 8,
	.kconfig = (const char *const[]){ "CONFIG_I2C_CHARDEV",
					  "CONFIG_SENSORS_PMBUS", NULL },
	.timeout = 30,
	.upstream = "patches/core 0111 (pmbus debugfs noop_llseek)",
	.run = run,
};
