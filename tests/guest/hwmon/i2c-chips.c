// SPDX-License-Identifier: GPL-2.0
/*
 * i2c-chips - the file operations of eight I2C chip drivers the llseek
 * series touches, on chips i2c-stub makes (the i2c-chips profile).
 *
 * patches/core 0111 gives the debugfs files of ibm-cffps, max20730,
 * q54sj108a2 and ucd9000 generic_file_llseek; 0019 drops no_llseek from
 * the watchdogs of fschmd and w83793, 0029 from lis3lv02d's /dev/freefall,
 * 0036 from the rtc core's /dev/rtcN and m41t80's watchdog.
 *
 * The guest's init loads i2c-stub with a chip at each address below and
 * SMBus block transfers enabled (functionality=0xf7f0000), then every
 * driver (module= lines). For each chip the test writes, through
 * /dev/i2c-N (I2C_SLAVE_FORCE and SMBus writes into the stub's register
 * file), the registers the driver's probe checks and the ones its files
 * report, instantiates the driver with new_device, checks that it bound
 * (the device's driver link) and drives its files: read, pread, lseek,
 * write and ioctl where the file has them, pinning what the driver
 * computes from the preset registers and what it writes back.
 *
 * What i2c-stub cannot give (kept out, see docs/profiles.md):
 * - /dev/freefall: lis3lv02d registers it only when the client has an
 *   IRQ, and new_device gives none; the test binds the chip, reads the
 *   position it computes and checks that /dev/freefall is absent.
 * - m41t80's watchdog: CONFIG_RTC_DRV_M41T80_WDT is not in the lab
 *   kernel; /dev/rtcN (drivers/rtc/dev.c, also 0036) is driven instead.
 * - ibm-cffps input_history: raw I2C messages, which i2c-stub refuses.
 *
 * On 6.1 the pmbus debugfs files have noop_llseek, so lseek 0 SEEK_SET
 * after a read returns the position, not 0: that differs between the
 * kernels and is left to hwmon/pmbus-lseek (pmbus_core) and to the lseek
 * walk; this test prints it as a diagnostic and pins what both kernels
 * share (read, end of file, SEEK_CUR, pread, pwrite). The chips stay
 * bound, so lseek/lseek-abi records their debugfs files.
 *
 * A second w83793 (0x2e) binds beside the first; the first is removed
 * under the function tracer, bound again, and the second removed: drivers
 * 0411 (one reboot notifier for the module, not one registration per chip).
 *
 * When a chip does not bind, its later cases are skipped, naming why.
 */
#include <fcntl.h>
#include <glob.h>
#include <sys/ioctl.h>
#include <linux/i2c.h>
#include <linux/i2c-dev.h>
#include <linux/rtc.h>
#include <linux/watchdog.h>

#include "ktap.h"
#include "i2c-stub.h"
#include "slurp.h"
#include "tracefs.h"

#define DEBUGFS_PMBUS	"/sys/kernel/debug/pmbus"

static int bus = -1;		/* the stub's adapter number */
static int i2c_fd = -1;		/* /dev/i2c-<bus> */
static char why[512];		/* why the current chip's cases skip */
static int chip_ok;		/* the current chip bound */

/* ktap_ok() while the chip is usable, ktap_skip() once it is not. */
static __attribute__((format(printf, 2, 3)))
int check(int cond, const char *fmt, ...)
{
	char desc[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(desc, sizeof(desc), fmt, ap);
	va_end(ap);
	if (!chip_ok) {
		ktap_skip(why[0] ? why : "an earlier case failed", "%s", desc);
		return 0;
	}
	return ktap_ok(cond, "%s", desc);
}

/* A case whose failure makes the chip's remaining cases skip. */
static __attribute__((format(printf, 2, 3)))
void gate(int cond, const char *fmt, ...)
{
	char desc[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(desc, sizeof(desc), fmt, ap);
	va_end(ap);
	if (!check(cond, "%s", desc) && chip_ok) {
		if (!why[0])
			snprintf(why, sizeof(why), "'%s' failed", desc);
		chip_ok = 0;
	}
}

/* --- /dev/i2c-N: the stub's register file ------------------------------ */

static int smbus(int addr, char rw, int cmd, int size, union i2c_smbus_data *d)
{
	struct i2c_smbus_ioctl_data a = {
		.read_write = rw, .command = cmd, .size = size, .data = d,
	};

	if (ioctl(i2c_fd, I2C_SLAVE_FORCE, addr))
		return -1;
	return ioctl(i2c_fd, I2C_SMBUS, &a);
}

static int set_byte(int addr, int reg, int val)
{
	union i2c_smbus_data d = { .byte = val };

	return smbus(addr, I2C_SMBUS_WRITE, reg, I2C_SMBUS_BYTE_DATA, &d);
}

static int set_word(int addr, int reg, int val)
{
	union i2c_smbus_data d = { .word = val };

	return smbus(addr, I2C_SMBUS_WRITE, reg, I2C_SMBUS_WORD_DATA, &d);
}

/* An SMBus block: the stub answers a block read only after this. */
static int set_block(int addr, int reg, const void *buf, size_t len)
{
	union i2c_smbus_data d = { .block = { len } };

	memcpy(&d.block[1], buf, len);
	return smbus(addr, I2C_SMBUS_WRITE, reg, I2C_SMBUS_BLOCK_DATA, &d);
}

static int get_byte(int addr, int reg)
{
	union i2c_smbus_data d;

	if (smbus(addr, I2C_SMBUS_READ, reg, I2C_SMBUS_BYTE_DATA, &d))
		return -1;
	return d.byte;
}

struct reg {
	int kind;		/* 'b' byte, 'w' word, 's' SMBus block */
	int reg;
	int val;		/* byte or word */
	const char *blk;	/* block bytes */
	size_t len;
};

#define B(r, v)		{ 'b', (r), (v), NULL, 0 }
#define W(r, v)		{ 'w', (r), (v), NULL, 0 }
#define S(r, s)		{ 's', (r), 0, (s), sizeof(s) - 1 }

static int preset(int addr, const struct reg *r, size_t n)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < n && !rc; i++) {
		if (r[i].kind == 'b')
			rc = set_byte(addr, r[i].reg, r[i].val);
		else if (r[i].kind == 'w')
			rc = set_word(addr, r[i].reg, r[i].val);
		else
			rc = set_block(addr, r[i].reg, r[i].blk, r[i].len);
		if (rc)
			snprintf(why, sizeof(why), "chip 0x%02x register 0x%02x: %s",
				 addr, r[i].reg, strerror(errno));
	}
	return !rc;
}

/* Registers expected to read back these byte values. */
static int regs_are(int addr, const int (*rv)[2], size_t n)
{
	size_t i;
	int ok = chip_ok;

	for (i = 0; i < n && chip_ok; i++) {
		int v = get_byte(addr, rv[i][0]);

		if (v != rv[i][1]) {
			ktap_diag("chip 0x%02x register 0x%02x is 0x%02x, want 0x%02x",
				  addr, rv[i][0], v, rv[i][1]);
			ok = 0;
		}
	}
	return ok;
}

/* --- binding ------------------------------------------------------------ */

/* Case: new_device NAME ADDR binds DRIVER (probing is synchronous). */
static void bind_chip(const char *name, int addr, const char *driver)
{
	char path[128], line[32], link[256] = "";
	const char *base;
	int fd, n, ok = 0;

	snprintf(path, sizeof(path), "/sys/bus/i2c/devices/i2c-%d/new_device", bus);
	n = snprintf(line, sizeof(line), "%s 0x%02x", name, addr);
	if (chip_ok) {
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write(fd, line, n) != n)
			snprintf(why, sizeof(why), "%s '%s': %s", path, line,
				 strerror(errno));
		if (fd >= 0)
			close(fd);
		snprintf(path, sizeof(path), "/sys/bus/i2c/devices/%d-%04x/driver",
			 bus, addr);
		n = readlink(path, link, sizeof(link) - 1);
		link[n > 0 ? n : 0] = '\0';
		base = strrchr(link, '/');
		ok = base && !strcmp(base + 1, driver);
		if (!ok && !why[0])
			snprintf(why, sizeof(why), "%s did not bind to %s 0x%02x (see dmesg)",
				 driver, name, addr);
	}
	gate(ok, "%s 0x%02x: new_device binds %s", name, addr, driver);
}

/* The chip's first sysfs child matching PATTERN (hwmon/hwmon*, rtc/rtc*). */
static int chip_child(int addr, const char *pattern, char *out, size_t size)
{
	char path[128];
	glob_t g;
	int ok;

	snprintf(path, sizeof(path), "/sys/bus/i2c/devices/%d-%04x/%s", bus, addr,
		 pattern);
	if (glob(path, 0, NULL, &g))
		return 0;
	ok = g.gl_pathc == 1;
	if (ok)
		snprintf(out, size, "%s", strrchr(g.gl_pathv[0], '/') + 1);
	globfree(&g);
	return ok;
}

/* --- pmbus debugfs files -------------------------------------------------- */

struct dfile {
	const char *file;
	const char *want;	/* what a read gives, NULs and all */
	ssize_t len;
	const char *shown;	/* for the descriptions */
};

#define DF(f, s, shown)	{ (f), (s), sizeof(s) - 1, (shown) }

static char pmbus_dir[192];	/* debugfs/pmbus/hwmonN/<client name> */

static void pmbus_dir_of(const char *name, int addr)
{
	char hwmon[32] = "";

	if (chip_ok && !chip_child(addr, "hwmon/hwmon*", hwmon, sizeof(hwmon)))
		snprintf(why, sizeof(why), "%s 0x%02x has no hwmon device", name, addr);
	snprintf(pmbus_dir, sizeof(pmbus_dir), DEBUGFS_PMBUS "/%s/%s", hwmon, name);
	gate(hwmon[0] && !access(pmbus_dir, X_OK), "%s: debugfs directory pmbus/%s/%s",
	     name, hwmon, name);
}

static int same(const char *buf, ssize_t n, const struct dfile *f, const char *what)
{
	if (n == f->len && !memcmp(buf, f->want, n))
		return 1;
	ktap_diag("%s %s returned %zd byte(s), want %zd", f->file, what, n, f->len);
	return 0;
}

/* Three cases per file, on an fd of its own. */
static void pmbus_file(const char *chip, const struct dfile *f)
{
	char path[256], buf[128];
	int fd = -1, ok = 0;
	off_t r;

	snprintf(path, sizeof(path), "%s/%s", pmbus_dir, f->file);
	if (chip_ok) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			ktap_diag("%s: %s", path, strerror(errno));
		else
			ok = same(buf, read(fd, buf, sizeof(buf)), f, "first read");
	}
	check(ok, "%s %s: read gives %s", chip, f->file, f->shown);
	ok = fd >= 0 && read(fd, buf, sizeof(buf)) == 0;
	r = fd >= 0 ? lseek(fd, 0, SEEK_CUR) : -1;
	if (fd >= 0 && r != f->len)
		ktap_diag("%s: lseek 0 SEEK_CUR returned %lld", f->file, (long long)r);
	check(ok && r == f->len, "%s %s: then end of file at %zd (lseek 0 SEEK_CUR)",
	      chip, f->file, f->len);
	ok = fd >= 0 && same(buf, pread(fd, buf, sizeof(buf), 0), f, "pread at 0") &&
	     pread(fd, buf, sizeof(buf), 1) == f->len - 1 &&
	     !memcmp(buf, f->want + 1, f->len - 1);
	check(ok, "%s %s: pread at 0 and at 1 give the text and its tail",
	      chip, f->file);
	if (fd >= 0) {
		/* 6.1: the position (noop_llseek); patched: 0. */
		r = lseek(fd, 0, SEEK_SET);
		ktap_diag("%s %s: lseek 0 SEEK_SET after the read returned %lld",
			  chip, f->file, (long long)r);
		close(fd);
	}
}

static void pmbus_files(const char *chip, const struct dfile *f, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		pmbus_file(chip, &f[i]);
}

/* pwrite(TEXT) at OFF to a debugfs file: returns what pwrite returned. */
static ssize_t pwrite_file(const char *file, const char *text, size_t len, off_t off)
{
	char path[256];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", pmbus_dir, file);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return ktap_perror(path);
	n = pwrite(fd, text, len, off);
	if (n < 0)
		ktap_perror("pwrite");
	close(fd);
	return n;
}

static void begin_chip(void)
{
	why[0] = '\0';
	chip_ok = i2c_fd >= 0;
	if (!chip_ok)
		snprintf(why, sizeof(why), "no /dev/i2c-N for the stub");
}

/* 0x10: ibm-cffps as cffps2 (named, so no version detection). */
static void ibm_cffps(void)
{
	static const struct reg r[] = {
		S(0x99, "ACME"),		/* MFG_ID */
		W(0xbd, 0x012e),		/* CCIN, read swapped: 2E01 */
		W(0xa7, 1600),			/* MAX_POWER_OUT, cffps2: not swapped */
		W(0xfa, 0x0102), W(0xfb, 0x0304), W(0xfc, 0x0506),	/* FW */
		B(0x02, 0x17),			/* ON_OFF_CONFIG */
	};
	static const struct dfile after = DF("on_off_config", "1b\n", "1b");
	static const int rv[][2] = { { 0x02, 0x1b } };
	char buf[16];
	ssize_t n;
	int fd;

	/* The driver writes data[rc] = '\n' and returns rc + 2: a NUL too. */
	static const struct dfile fz[] = {
		{ "mfg_id", "ACME\n", 6, "ACME (MFG_ID block)" },
		{ "ccin", "2E01\n", 6, "2E01 (CCIN word swapped)" },
		{ "max_power_out", "1600\n", 6, "1600" },
		{ "fw_version", "010203040506\n", 14, "010203040506 (three FW words)" },
		{ "on_off_config", "17\n", 4, "17" },
	};

	begin_chip();
	gate(chip_ok && preset(0x10, r, ARRAY_SIZE(r)), "ibm_cffps2 0x10: registers preset");
	bind_chip("ibm_cffps2", 0x10, "ibm-cffps");
	pmbus_dir_of("ibm_cffps2", 0x10);
	pmbus_files("ibm-cffps", fz, ARRAY_SIZE(fz));
	n = chip_ok ? pwrite_file("on_off_config", "\x1b", 1, 0) : -1;
	check(n == 1 && regs_are(0x10, rv, ARRAY_SIZE(rv)),
	      "ibm-cffps on_off_config: pwrite of one byte at 0 writes ON_OFF_CONFIG");
	n = chip_ok ? pwrite_file("on_off_config", "\x2b", 1, 1) : -1;
	check(n == 0 && regs_are(0x10, rv, ARRAY_SIZE(rv)),
	      "ibm-cffps on_off_config: pwrite at 1 writes nothing and returns 0");
	fd = -1;
	if (chip_ok) {
		char path[256];

		snprintf(path, sizeof(path), "%s/on_off_config", pmbus_dir);
		fd = open(path, O_RDONLY | O_CLOEXEC);
	}
	n = fd >= 0 ? read(fd, buf, sizeof(buf)) : -1;
	check(n == 4 && !memcmp(buf, after.want, 4),
	      "ibm-cffps on_off_config: read gives the written value, 1b");
	if (fd >= 0)
		close(fd);
}

/* 0x11: max20730, MFR_ID MAXIM, MFR_MODEL M20743, MFR_REVISION F. */
static void max20730(void)
{
	static const struct reg r[] = {
		S(0x99, "MAXIM"), S(0x9a, "M20743"), S(0x9b, "F"),
		W(0xd1, 0x0100),	/* MFR_VOUT_MIN: 256 / 512 V */
		W(0xd2, 0x0011),	/* MFR_DEVSET1: FSW 4, TSTAT 1 */
	};
	static const struct dfile f[] = {
		DF("vout_min", "0.5000\n", "0.5000 (MFR_VOUT_MIN 0x100)"),
		DF("frequency", "700\n", "700 (DEVSET1 FSW 4)"),
		DF("power_good_delay", "125\n", "125 (DEVSET1 TSTAT 1)"),
	};

	begin_chip();
	gate(chip_ok && preset(0x11, r, ARRAY_SIZE(r)), "max20730 0x11: registers preset");
	bind_chip("max20730", 0x11, "max20730");
	pmbus_dir_of("max20730", 0x11);
	pmbus_files("max20730", f, ARRAY_SIZE(f));
}

/* 0x12: q54sj108a2, MFR_ID DELTA + 1, MODEL Q54SJ108A2 + 4, REVISION S + 3. */
static void q54sj108a2(void)
{
	static const struct reg r[] = {
		S(0x99, "DELTA1"), S(0x9a, "Q54SJ108A2XXXX"), S(0x9b, "SA01"),
		B(0x01, 0x00),		/* OPERATION */
		B(0x10, 0x00),		/* WRITE_PROTECT */
	};
	static const struct dfile f[] = {
		{ "mfr_id", "DELTA1\n", 8, "DELTA1" },
		{ "mfr_model", "Q54SJ108A2XXXX\n", 16, "Q54SJ108A2XXXX" },
		{ "mfr_revision", "SA01\n", 6, "SA01" },
		{ "operation", "00\n", 4, "00" },
	};
	static const int rv[][2] = { { 0x01, 0x80 }, { 0x10, 0x00 } };
	char path[256], buf[16];
	ssize_t n = -1;
	int fd;

	begin_chip();
	gate(chip_ok && preset(0x12, r, ARRAY_SIZE(r)), "q54sj108a2 0x12: registers preset");
	bind_chip("q54sj108a2", 0x12, "q54sj108a2");
	pmbus_dir_of("q54sj108a2", 0x12);
	pmbus_files("q54sj108a2", f, ARRAY_SIZE(f));
	fd = -1;
	if (chip_ok) {
		snprintf(path, sizeof(path), "%s/operation", pmbus_dir);
		fd = open(path, O_RDWR | O_CLOEXEC);
		n = fd >= 0 ? write(fd, "0x80", 4) : -1;
	}
	check(n == 4 && regs_are(0x12, rv, ARRAY_SIZE(rv)),
	      "q54sj108a2 operation: write 0x80 sets OPERATION");
	n = fd >= 0 ? pread(fd, buf, sizeof(buf), 0) : -1;
	check(n == 4 && !memcmp(buf, "80\n", 4),
	      "q54sj108a2 operation: then reads 80");
	if (fd >= 0)
		close(fd);
}

/* 0x13: ucd9000 as ucd90120, one page, MFR_STATUS 12 34 56 78. */
static void ucd9000(void)
{
	static const struct reg r[] = {
		S(0xfd, "UCD90120|1.0"),	/* DEVICE_ID */
		B(0xd6, 1),			/* NUM_PAGES */
		S(0xd5, "\x20"),		/* MONITOR_CONFIG: voltage, page 0 */
		S(0xf3, "\x12\x34\x56\x78"),	/* MFR_STATUS */
	};
	static const struct dfile f[] = {
		DF("mfr_status", "12345678\n", "12345678 (MFR_STATUS in hex)"),
	};

	begin_chip();
	gate(chip_ok && preset(0x13, r, ARRAY_SIZE(r)), "ucd90120 0x13: registers preset");
	bind_chip("ucd90120", 0x13, "ucd9000");
	pmbus_dir_of("ucd90120", 0x13);
	pmbus_files("ucd9000", f, ARRAY_SIZE(f));
}

/* --- watchdogs --------------------------------------------------------- */

static int wdt_int(int fd, unsigned long req, int in, int *out)
{
	int v = in;

	if (ioctl(fd, req, &v))
		return -errno;
	*out = v;
	return 0;
}

static int open_node(const char *path)
{
	return chip_ok ? ktap_open_dev(path, O_RDWR) : -1;
}

/* The watchdog ioctls both drivers answer alike. */
static void wdt_common(int fd, const char *who, const char *ident, int options)
{
	struct watchdog_info wi = { 0 };
	int v = 0;
	off_t r;

	check(fd >= 0 && !ioctl(fd, WDIOC_GETSUPPORT, &wi) &&
	      !strcmp((char *)wi.identity, ident) && (int)wi.options == options,
	      "%s: WDIOC_GETSUPPORT is '%s', options 0x%x", who, ident, options);
	errno = 0;
	r = fd >= 0 ? lseek(fd, 0, SEEK_SET) : 0;
	check(fd >= 0 && r == -1 && errno == ESPIPE, "%s: lseek fails with ESPIPE", who);
	errno = 0;
	check(fd >= 0 && read(fd, &v, sizeof(v)) == -1 && errno == EINVAL,
	      "%s: read fails with EINVAL (no read)", who);
	check(fd >= 0 && write(fd, "xV", 2) == 2, "%s: write of the magic V", who);
}

#define WDT_OPTS (WDIOF_KEEPALIVEPING | WDIOF_SETTIMEOUT | WDIOF_CARDRESET | \
		  WDIOF_MAGICCLOSE)

/* 0x73: fschmd ("Heimdall"): /dev/watchdog, minor 130 (bound first). */
static void fschmd(void)
{
	static const struct reg r[] = {
		B(0x03, 0x42),		/* REVISION */
		B(0x21, 0x00),		/* WDOG_CONTROL */
		B(0x23, 0x02),		/* WDOG_STATE: card reset */
		B(0x28, 0x00),		/* WDOG_PRESET */
	};
	static const int probe[][2] = { { 0x28, 30 } };		/* 60 s / 2 */
	static const int opened[][2] = { { 0x21, 0x10 } };	/* trigger */
	static const int t100[][2] = { { 0x28, 50 } };
	static const int t600[][2] = { { 0x28, 10 }, { 0x21, 0x40 } };
	static const int closed[][2] = { { 0x21, 0x60 } };	/* 60 s unit, stop */
	struct watchdog_info wi = { 0 };
	int fd, v = 0;

	begin_chip();
	gate(chip_ok && preset(0x73, r, ARRAY_SIZE(r)), "fschmd 0x73: registers preset");
	bind_chip("fschmd", 0x73, "fschmd");
	check(regs_are(0x73, probe, 1), "fschmd: probe sets a 60 s timeout (preset 30)");
	fd = open_node("/dev/watchdog");
	gate(fd >= 0, "fschmd: /dev/watchdog opens");
	check(regs_are(0x73, opened, 1), "fschmd: open triggers the watchdog");
	check(fd >= 0 && !ioctl(fd, WDIOC_GETSUPPORT, &wi) && wi.firmware_version == 0x42,
	      "fschmd: WDIOC_GETSUPPORT firmware_version is REVISION 0x42");
	check(fd >= 0 && !wdt_int(fd, WDIOC_GETBOOTSTATUS, 0, &v) && v == WDIOF_CARDRESET,
	      "fschmd: WDIOC_GETBOOTSTATUS is WDIOF_CARDRESET (WDOG_STATE)");
	check(fd >= 0 && !wdt_int(fd, WDIOC_GETTIMEOUT, 0, &v) && v == 60,
	      "fschmd: WDIOC_GETTIMEOUT is 60");
	check(fd >= 0 && !wdt_int(fd, WDIOC_SETTIMEOUT, 100, &v) && v == 100 &&
	      regs_are(0x73, t100, 1), "fschmd: WDIOC_SETTIMEOUT 100 writes preset 50");
	check(fd >= 0 && !wdt_int(fd, WDIOC_SETTIMEOUT, 600, &v) && v == 600 &&
	      regs_are(0x73, t600, 2),
	      "fschmd: WDIOC_SETTIMEOUT 600 switches to minutes, preset 10");
	check(fd >= 0 && wdt_int(fd, WDIOC_SETTIMEOUT, 1, &v) == -EINVAL,
	      "fschmd: WDIOC_SETTIMEOUT 1 fails with EINVAL");
	wdt_common(fd, "fschmd /dev/watchdog", "FSC watchdog", WDT_OPTS);
	if (fd >= 0)
		close(fd);
	check(fd >= 0 && regs_are(0x73, closed, 1),
	      "fschmd: close after the magic V stops the watchdog");
}

/* A w83793's watchdog registers: disabled (probe, magic close), opened. */
static const int w83793_disabled[][2] = { { 0x01, 0xaa } };
static const int w83793_opened[][2] = { { 0x01, 0x55 }, { 0x04, 2 } };

/* A w83793's registers before its probe. */
static const struct reg w83793_regs[] = {
	B(0x00, 0x00),		/* BANKSEL */
	B(0x0c, 0x88),		/* I2C_SUBADDR: no subclients */
	B(0x03, 0x01),		/* WDT_STATUS: caused the last reboot */
	B(0x01, 0x00), B(0x04, 0x00), B(0x40, 0x00),
};

/* 0x2f: w83793, no subclients; /dev/watchdog1 (minor 212). */
static void w83793(void)
{
	static const int t150[][2] = { { 0x04, 3 } };
	int fd, v = 0;

	begin_chip();
	gate(chip_ok && preset(0x2f, w83793_regs, ARRAY_SIZE(w83793_regs)),
	     "w83793 0x2f: registers preset");
	bind_chip("w83793", 0x2f, "w83793");
	check(regs_are(0x2f, w83793_disabled, 1) && (get_byte(0x2f, 0x40) & 0x04),
	      "w83793: probe enables the WDT registers and disables the watchdog");
	fd = open_node("/dev/watchdog1");
	gate(fd >= 0, "w83793: /dev/watchdog1 opens");
	check(regs_are(0x2f, w83793_opened, 2), "w83793: open enables it with 2 minutes");
	check(fd >= 0 && !wdt_int(fd, WDIOC_GETSTATUS, 0, &v) && v == WDIOF_CARDRESET,
	      "w83793: WDIOC_GETSTATUS is WDIOF_CARDRESET (WDT_STATUS bit 0)");
	check(fd >= 0 && !wdt_int(fd, WDIOC_GETBOOTSTATUS, 0, &v) && v == 0,
	      "w83793: WDIOC_GETBOOTSTATUS is 0");
	check(fd >= 0 && !wdt_int(fd, WDIOC_GETTIMEOUT, 0, &v) && v == 120,
	      "w83793: WDIOC_GETTIMEOUT is 120");
	check(fd >= 0 && !wdt_int(fd, WDIOC_SETTIMEOUT, 150, &v) && v == 180 &&
	      regs_are(0x2f, t150, 1), "w83793: WDIOC_SETTIMEOUT 150 gives 180, 3 minutes");
	wdt_common(fd, "w83793 /dev/watchdog1", "w83793 watchdog", WDT_OPTS);
	if (fd >= 0)
		close(fd);
	check(fd >= 0 && regs_are(0x2f, w83793_disabled, 1),
	      "w83793: close after the magic V disables the watchdog");
}

#define W83793_TRACE	TRACEFS_INSTANCES "i2c-chips"

/*
 * The function tracer, in an instance of this test's, on w83793_remove()
 * and unregister_reboot_notifier(): what a remove calls.
 */
static int remove_trace_start(void)
{
	return tracefs_instance(W83793_TRACE) &&
	       tracefs_write(W83793_TRACE "/set_ftrace_filter",
			     "w83793_remove unregister_reboot_notifier") &&
	       tracefs_write(W83793_TRACE "/trace", "") &&
	       tracefs_write(W83793_TRACE "/current_tracer", "function");
}

/*
 * The calls traced since remove_trace_start() into buf, then the tracer
 * off (changing the tracer empties the buffer).
 */
static int remove_trace_stop(char *buf, size_t size)
{
	int ok = slurp(W83793_TRACE "/trace", buf, size) >= 0;

	ok = tracefs_write(W83793_TRACE "/current_tracer", "nop") && ok;
	tracefs_write(W83793_TRACE "/set_ftrace_filter", "");
	if (rmdir(W83793_TRACE) && errno != ENOENT)
		ktap_perror("rmdir " W83793_TRACE);
	return ok;
}

/*
 * 0x2e: a second w83793 beside the one at 0x2f, as on boards with one per
 * CPU socket; /dev/watchdog2 (minor 213). On 6.1 every probe registers
 * the driver's one static reboot notifier: a second chip's registration
 * fails (WARNING "already registered", -EEXIST), and with it the probe.
 * drivers 0411 registers it once, at module init, and remove no longer
 * unregisters it: with both chips bound, removing 0x2f must not call
 * unregister_reboot_notifier() (the function tracer's view; 6.1 never
 * gets there, that case skips). The chip at 0x2f is bound again (it keeps
 * /dev/watchdog1 for hwmon/i2c-watchdog-remove) and the one at 0x2e
 * removed, so that the lseek walk sees the same nodes as before.
 */
static void w83793_second(void)
{
	static char trace[16384];
	const char *call, *desc;
	int fd, ok, second, traced, removed;

	begin_chip();
	gate(chip_ok && preset(0x2e, w83793_regs, ARRAY_SIZE(w83793_regs)),
	     "w83793 0x2e: registers preset");
	bind_chip("w83793", 0x2e, "w83793");
	fd = open_node("/dev/watchdog2");
	check(fd >= 0 && regs_are(0x2e, w83793_opened, 2),
	      "w83793 0x2e: /dev/watchdog2 opens and enables its watchdog, 2 minutes");
	ok = fd >= 0 && write(fd, "V", 1) == 1;
	if (fd >= 0)
		close(fd);
	check(ok && regs_are(0x2e, w83793_disabled, 1),
	      "w83793 0x2e: close after the magic V disables it");

	/* The rest runs whether 0x2e bound or not: 0x2f is bound. */
	second = chip_ok;
	why[0] = '\0';
	chip_ok = i2c_fd >= 0;
	traced = chip_ok && remove_trace_start();
	if (chip_ok && !traced)
		ktap_diag("the function tracer could not be set up in " W83793_TRACE);
	removed = chip_ok && i2c_stub_delete(bus, 0x2f);
	if (chip_ok)
		traced = remove_trace_stop(trace, sizeof(trace)) && traced;
	if (traced && !strstr(trace, "w83793_remove"))
		ktap_diag("the function tracer did not see w83793_remove()");
	call = strstr(trace, "unregister_reboot_notifier");
	if (call)
		ktap_diag("traced: %.*s", (int)strcspn(call, "\n"), call);
	desc = "w83793: removing 0x2f with 0x2e bound calls "
	       "no unregister_reboot_notifier()";
	if (second)
		ktap_ok(removed && traced && strstr(trace, "w83793_remove") && !call,
			"%s", desc);
	else
		ktap_skip("the chip at 0x2e did not bind", "%s", desc);
	gate(removed && preset(0x2f, w83793_regs, ARRAY_SIZE(w83793_regs)),
	     "w83793 0x2f: registers preset again");
	bind_chip("w83793", 0x2f, "w83793");
	check(ktap_dev_present("/dev/watchdog1"), "w83793 0x2f: bound again, /dev/watchdog1");
	chip_ok = i2c_fd >= 0;
	ktap_ok(chip_ok && i2c_stub_delete(bus, 0x2e), "w83793 0x2e: delete_device removes it");
}

/* --- lis3lv02d ------------------------------------------------------------ */

/* 0x1d: an 8-bit LIS302DL (WHO_AM_I 0x3b); no IRQ, so no /dev/freefall. */
static void lis3lv02d(void)
{
	static const struct reg r[] = {
		B(0x0f, 0x3b),		/* WHO_AM_I: WAI_8B */
		B(0x20, 0x00),		/* CTRL_REG1: 100 Hz */
		B(0x29, 10), B(0x2b, 0xfb), B(0x2d, 56),	/* OUTX, OUTY, OUTZ */
	};
	const char *pos = "/sys/devices/platform/lis3lv02d/position";
	char buf[64] = "";
	FILE *f = NULL;

	begin_chip();
	gate(chip_ok && preset(0x1d, r, ARRAY_SIZE(r)), "lis3lv02d 0x1d: registers preset");
	bind_chip("lis3lv02d", 0x1d, "lis3lv02d_i2c");
	if (chip_ok) {
		f = fopen(pos, "r");
		if (!f || !fgets(buf, sizeof(buf), f))
			ktap_diag("%s: %s", pos, strerror(errno));
		else
			ktap_diag("position: %s", buf);
		if (f)
			fclose(f);
	}
	/* raw * 18 mg (8-bit sensitivity), axes unmapped */
	check(!strcmp(buf, "(180,-90,1008)\n"), "lis3lv02d: position is (180,-90,1008)");
	check(access("/dev/freefall", F_OK) && errno == ENOENT,
	      "lis3lv02d: no /dev/freefall without an IRQ (new_device gives none)");
}

/* --- m41t80 and /dev/rtcN ---------------------------------------------- */

static int tm_is(const struct rtc_time *t, int y, int mo, int d, int h, int mi, int s)
{
	if (t->tm_year == y - 1900 && t->tm_mon == mo - 1 && t->tm_mday == d &&
	    t->tm_hour == h && t->tm_min == mi && t->tm_sec == s)
		return 1;
	ktap_diag("time is %04d-%02d-%02d %02d:%02d:%02d", t->tm_year + 1900,
		  t->tm_mon + 1, t->tm_mday, t->tm_hour, t->tm_min, t->tm_sec);
	return 0;
}

/* 0x68: m41t80, 2010-09-20 12:34:56 with the ST and HT bits set. */
static void m41t80(void)
{
	static const struct reg r[] = {
		B(0x00, 0x00), B(0x01, 0xd6), B(0x02, 0x34), B(0x03, 0x12),
		B(0x04, 0x01), B(0x05, 0x20), B(0x06, 0x09), B(0x07, 0x10),
		B(0x0c, 0x40),		/* ALARM_HOUR: HT */
		B(0x0f, 0x00),		/* FLAGS: no oscillator failure */
	};
	static const int probe[][2] = { { 0x01, 0x56 }, { 0x0c, 0x00 } };
	static const int set[][2] = {
		{ 0x01, 0x05 }, { 0x02, 0x04 }, { 0x03, 0x03 }, { 0x04, 0x00 },
		{ 0x05, 0x02 }, { 0x06, 0x01 }, { 0x07, 0x11 },
	};
	struct rtc_time t;
	struct rtc_time alm;
	struct pollfd p;
	char rtc[32] = "", node[48] = "/dev/rtc?";
	unsigned long data;
	int fd = -1;

	begin_chip();
	gate(chip_ok && preset(0x68, r, ARRAY_SIZE(r)), "m41t80 0x68: registers preset");
	bind_chip("m41t80", 0x68, "rtc-m41t80");
	check(regs_are(0x68, probe, 2), "m41t80: probe clears the ST and HT bits");
	if (chip_ok && !chip_child(0x68, "rtc/rtc*", rtc, sizeof(rtc)))
		snprintf(why, sizeof(why), "m41t80 has no rtc device");
	snprintf(node, sizeof(node), "/dev/%s", rtc);
	if (rtc[0])
		fd = open_node(node);
	gate(fd >= 0, "m41t80: its /dev/rtcN opens");
	memset(&t, 0, sizeof(t));
	check(fd >= 0 && !ioctl(fd, RTC_RD_TIME, &t) && tm_is(&t, 2010, 9, 20, 12, 34, 56),
	      "m41t80: RTC_RD_TIME is 2010-09-20 12:34:56");
	t = (struct rtc_time){ .tm_year = 111, .tm_mon = 0, .tm_mday = 2,
			       .tm_hour = 3, .tm_min = 4, .tm_sec = 5 };
	check(fd >= 0 && !ioctl(fd, RTC_SET_TIME, &t) && regs_are(0x68, set, ARRAY_SIZE(set)),
	      "m41t80: RTC_SET_TIME 2011-01-02 03:04:05 writes the BCD registers");
	memset(&t, 0, sizeof(t));
	check(fd >= 0 && !ioctl(fd, RTC_RD_TIME, &t) && tm_is(&t, 2011, 1, 2, 3, 4, 5),
	      "m41t80: RTC_RD_TIME then reads it back");
	errno = 0;
	check(fd >= 0 && ioctl(fd, RTC_ALM_READ, &alm) == -1 && errno == EINVAL,
	      "m41t80: RTC_ALM_READ fails with EINVAL (no IRQ, no alarm)");
	errno = 0;
	if (fd >= 0)
		fcntl(fd, F_SETFL, O_NONBLOCK);
	check(fd >= 0 && read(fd, &data, sizeof(data)) == -1 && errno == EAGAIN,
	      "m41t80: a non-blocking read fails with EAGAIN");
	p = (struct pollfd){ .fd = fd, .events = POLLIN };
	check(fd >= 0 && poll(&p, 1, 0) == 0, "m41t80: poll finds nothing to read");
	errno = 0;
	check(fd >= 0 && lseek(fd, 0, SEEK_SET) == -1 && errno == ESPIPE,
	      "m41t80: lseek fails with ESPIPE");
	if (fd >= 0)
		close(fd);
}

static void run(void)
{
	static const char *const addrs = "16,17,18,19,47,29,104,115,46";
	const char *p = "/sys/module/i2c_stub/parameters/chip_addr";
	char buf[64] = "", dev[32];
	FILE *f = fopen(p, "r");
	int ok;

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
	/* The array has MAX_CHIPS entries, the unused ones 0. */
	ok = !strncmp(buf, addrs, strlen(addrs)) &&
	     (buf[strlen(addrs)] == '\0' || buf[strlen(addrs)] == ',') &&
	     (bus = i2c_stub_bus()) >= 0;
	if (ok) {
		snprintf(dev, sizeof(dev), "/dev/i2c-%d", bus);
		if (ktap_dev_present(dev))
			i2c_fd = open(dev, O_RDWR | O_CLOEXEC);
		if (i2c_fd < 0)
			ktap_perror(dev);
	} else {
		ktap_diag("%s is '%s', want '%s'", p, buf, addrs);
	}
	ktap_ok(i2c_fd >= 0, "i2c-stub has the nine chips and /dev/i2c-N opens");
	ibm_cffps();
	max20730();
	q54sj108a2();
	ucd9000();
	fschmd();
	w83793();
	w83793_second();
	lis3lv02d();
	m41t80();
	if (i2c_fd >= 0)
		close(i2c_fd);
}

const struct ktap_test ktap_test = {
	.plan = 111,
	.kconfig = (const char *const[]){
		"CONFIG_I2C_CHARDEV", "CONFIG_I2C_STUB",
		"CONFIG_SENSORS_IBM_CFFPS", "CONFIG_SENSORS_MAX20730",
		"CONFIG_SENSORS_Q54SJ108A2", "CONFIG_SENSORS_UCD9000",
		"CONFIG_SENSORS_FSCHMD", "CONFIG_SENSORS_W83793",
		"CONFIG_SENSORS_LIS3_I2C", "CONFIG_RTC_DRV_M41T80",
		"CONFIG_RTC_INTF_DEV", "CONFIG_FUNCTION_TRACER", NULL },
	.timeout = 40,
	.upstream = "patches/core 0019, 0029, 0036, 0111 (i2c chip drivers' llseek)",
	.run = run,
};
