// SPDX-License-Identifier: GPL-2.0
/*
 * ubi - UBI on mtdram (the mtd-ubi profile): drivers/mtd/ubi/cdev.c's three
 * kinds of character device and the debugfs files of drivers/mtd/ubi/debug.c.
 *
 * mtdram makes a 4 MiB RAM MTD device of 128 KiB erase blocks (the
 * profile's total_size=4096 erase_size=128): 32 PEBs. /dev/ubi_ctrl attaches
 * it (UBI_IOCATT), which formats the empty flash; /dev/ubi0 makes, resizes,
 * renames and removes a dynamic volume; /dev/ubi0_0 is updated, read back
 * and seeked (vol_cdev_llseek: fixed_size_llseek over used_bytes); the
 * control and device nodes refuse seeking (no_llseek, dropped by
 * patches/core 0031). Every number is worked out from the 6.1 source:
 *
 * - mtdram's writesize is 1, so the EC and VID headers take 64 bytes each
 *   (io.c): leb_start 128, usable LEB 131072 - 128 = 130944 bytes;
 * - of 32 PEBs the layout volume takes 2 (UBI_LAYOUT_VOLUME_EBS), the EBA
 *   and WL reserves 1 each, and a device that cannot have bad blocks
 *   reserves none for them: 28 available;
 * - a dynamic volume's used_bytes is reserved LEBs * usable LEB size
 *   (vmt.c); an update only sets the data, the rest reads as erased 0xff.
 *
 * Cases run in order and depend on each other (attach, make, use, remove,
 * detach); a case after a failed one fails with it rather than skip.
 */
#include <fcntl.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <mtd/ubi-user.h>

#include "ktap.h"

#define LEB		130944		/* usable LEB size, see above */
#define PEBS		32		/* 4096 KiB / 128 KiB */
#define AVAIL		28		/* PEBS - 2 layout - 1 EBA - 1 WL */
#define VOL_LEBS	4
#define VOL_BYTES	((long long)VOL_LEBS * LEB)
#define DATA		5000		/* bytes of the volume update */
#define DBG		"/sys/kernel/debug/ubi/ubi0/"

static int mtd_num = -1;
static unsigned char data[DATA];

static int node(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC);

	if (fd < 0)
		ktap_diag("open %s: %s", path, strerror(errno));
	return fd;
}

/* The first line of a sysfs or debugfs file, newline stripped. */
static int read_line(const char *path, char *buf, size_t len)
{
	int fd = node(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return ktap_perror(path);
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static long long read_num(const char *path)
{
	char buf[64];

	if (read_line(path, buf, sizeof(buf)))
		return -1;
	return strtoll(buf, NULL, 10);
}

/* sysfs file PATH holds the number WANT. */
static int num_is(const char *path, long long want)
{
	long long v = read_num(path);

	if (v != want)
		ktap_diag("%s: %lld, expected %lld", path, v, want);
	return v == want;
}

static int gone(const char *path)
{
	struct stat st;

	return stat(path, &st) < 0 && errno == ENOENT;
}

/* /proc/mtd: "mtd0: 00400000 00020000 "mtdram test device"". */
static int proc_mtd(void)
{
	char line[256];
	unsigned int num, size, erase;
	FILE *f = fopen("/proc/mtd", "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "mtd%u: %x %x", &num, &size, &erase) == 3 &&
		    strstr(line, "\"mtdram test device\"")) {
			ktap_diag("%s", strtok(line, "\n"));
			if (size == 4096 * 1024 && erase == 128 * 1024)
				mtd_num = (int)num;
		}
	fclose(f);
	return mtd_num >= 0;
}

static int dev_ioctl(const char *path, unsigned long cmd, void *arg)
{
	int fd = node(path, O_RDWR);
	int r, err;

	if (fd < 0)
		return -1;
	r = ioctl(fd, cmd, arg);
	err = errno;
	close(fd);
	errno = err;
	return r;
}

static int ctrl_ioctl(unsigned long cmd, void *arg)
{
	return dev_ioctl("/dev/ubi_ctrl", cmd, arg);
}

/* lseek on a node without an llseek: ESPIPE (vfs_llseek, no FMODE_LSEEK). */
static int espipe(const char *path, int flags)
{
	int fd = node(path, flags);
	int ok = fd >= 0 && ktap_seek_fails(fd, 0, SEEK_SET, ESPIPE);

	close(fd);
	return ok;
}

static int ctrl_no_seek(void)
{
	return espipe("/dev/ubi_ctrl", O_RDWR);
}

/* UBI_IOCATT with UBI_DEV_NUM_AUTO: ubi_num 0 comes back, /dev/ubi0 appears. */
static int attach(void)
{
	struct ubi_attach_req req = { .ubi_num = UBI_DEV_NUM_AUTO,
				      .mtd_num = mtd_num };

	if (mtd_num < 0 || ctrl_ioctl(UBI_IOCATT, &req))
		return 0;
	ktap_diag("mtd%d attached as ubi%d", mtd_num, req.ubi_num);
	return req.ubi_num == 0 && ktap_dev_present("/dev/ubi0");
}

/* ubi_attach_mtd_dev(): the same MTD device again is EEXIST. */
static int attach_again(void)
{
	struct ubi_attach_req req = { .ubi_num = UBI_DEV_NUM_AUTO,
				      .mtd_num = mtd_num };

	return ctrl_ioctl(UBI_IOCATT, &req) < 0 && errno == EEXIST;
}

/* A negative mtd_num is refused before any lookup: EINVAL. */
static int attach_bad(void)
{
	struct ubi_attach_req req = { .ubi_num = UBI_DEV_NUM_AUTO,
				      .mtd_num = -1 };

	return ctrl_ioctl(UBI_IOCATT, &req) < 0 && errno == EINVAL;
}

static int geometry(void)
{
	return num_is("/sys/class/ubi/ubi0/eraseblock_size", LEB) &
	       num_is("/sys/class/ubi/ubi0/total_eraseblocks", PEBS) &
	       num_is("/sys/class/ubi/ubi0/avail_eraseblocks", AVAIL) &
	       num_is("/sys/class/ubi/ubi0/min_io_size", 1) &
	       num_is("/sys/class/ubi/ubi0/mtd_num", mtd_num);
}

static int ubi_no_seek(void)
{
	return espipe("/dev/ubi0", O_RDONLY);
}

static struct ubi_mkvol_req mkvol_req(const char *name)
{
	struct ubi_mkvol_req req = {
		.vol_id = UBI_VOL_NUM_AUTO,
		.alignment = 1,
		.bytes = VOL_BYTES,
		.vol_type = UBI_DYNAMIC_VOLUME,
		.name_len = (short)strlen(name),
	};

	snprintf(req.name, sizeof(req.name), "%s", name);
	return req;
}

/* UBI_IOCMKVOL: volume 0 of 4 LEBs, /dev/ubi0_0, 24 PEBs left. */
static int mkvol(void)
{
	struct ubi_mkvol_req req = mkvol_req("bklfree");

	if (dev_ioctl("/dev/ubi0", UBI_IOCMKVOL, &req))
		return 0;
	return req.vol_id == 0 && ktap_dev_present("/dev/ubi0_0") &&
	       num_is("/sys/class/ubi/ubi0_0/reserved_ebs", VOL_LEBS) &
	       num_is("/sys/class/ubi/ubi0_0/data_bytes", VOL_BYTES) &
	       num_is("/sys/class/ubi/ubi0/avail_eraseblocks", AVAIL - VOL_LEBS);
}

/* ubi_create_volume(): a second volume of the same name is EEXIST. */
static int mkvol_same_name(void)
{
	struct ubi_mkvol_req req = mkvol_req("bklfree");

	return dev_ioctl("/dev/ubi0", UBI_IOCMKVOL, &req) < 0 &&
	       errno == EEXIST;
}

/* UBI_IOCVOLUP beyond the reserved LEBs: EINVAL. */
static int volup_too_big(void)
{
	int64_t bytes = VOL_BYTES + 1;

	return dev_ioctl("/dev/ubi0_0", UBI_IOCVOLUP, &bytes) < 0 &&
	       errno == EINVAL;
}

/*
 * UBI_IOCVOLUP of DATA bytes: while the update runs, lseek and read are
 * EBUSY; the write of all DATA bytes ends it and returns DATA.
 */
static int volume_update(void)
{
	int64_t bytes = DATA;
	char c;
	int fd = node("/dev/ubi0_0", O_RDWR);
	int ok, busy_seek, busy_read;
	ssize_t n;
	size_t i;

	for (i = 0; i < sizeof(data); i++)
		data[i] = (unsigned char)(i * 7 + 3);
	if (fd < 0)
		return 0;
	ok = !ioctl(fd, UBI_IOCVOLUP, &bytes);
	busy_seek = lseek(fd, 0, SEEK_SET) < 0 && errno == EBUSY;
	busy_read = read(fd, &c, 1) < 0 && errno == EBUSY;
	n = write(fd, data, sizeof(data));
	if (!busy_seek || !busy_read || n != DATA)
		ktap_diag("seek busy %d, read busy %d, write %zd", busy_seek,
			  busy_read, n);
	ok = ok && busy_seek && busy_read && n == DATA;
	close(fd);
	return ok && num_is("/sys/class/ubi/ubi0_0/upd_marker", 0);
}

/* Read back: the data, then erased flash (0xff) up to the LEB's end. */
static int read_back(void)
{
	static unsigned char buf[DATA + 100];
	int fd = node("/dev/ubi0_0", O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf)) : -1;
	size_t i;
	int ok = n == (ssize_t)sizeof(buf) && !memcmp(buf, data, DATA);

	for (i = DATA; ok && i < sizeof(buf); i++)
		ok = buf[i] == 0xff;
	close(fd);
	return ok;
}

/*
 * fixed_size_llseek over used_bytes: SEEK_END is the volume's size, a read
 * there is 0 bytes, beyond it is EINVAL, so is a negative position and any
 * whence but SEEK_SET, SEEK_CUR and SEEK_END (SEEK_DATA), and SEEK_CUR then
 * SEEK_SET read the right bytes.
 */
static int volume_seek(void)
{
	unsigned char c[2] = { 0, 0 };
	int fd = node("/dev/ubi0_0", O_RDONLY);
	off_t end = fd >= 0 ? lseek(fd, 0, SEEK_END) : -1;
	int step = 0;

	if (end != VOL_BYTES || read(fd, c, 1) != 0)
		goto out;
	step++;
	if (lseek(fd, 1, SEEK_END) >= 0 || errno != EINVAL)
		goto out;
	step++;
	if (lseek(fd, 0, SEEK_DATA) >= 0 || errno != EINVAL)
		goto out;
	step++;
	if (lseek(fd, -1, SEEK_SET) >= 0 || errno != EINVAL)
		goto out;
	step++;
	if (lseek(fd, 100, SEEK_SET) != 100 || lseek(fd, 10, SEEK_CUR) != 110)
		goto out;
	step++;
	if (read(fd, c, 2) != 2 || c[0] != data[110] || c[1] != data[111])
		goto out;
	step++;
	if (lseek(fd, LEB, SEEK_SET) != LEB || read(fd, c, 1) != 1 ||
	    c[0] != 0xff)
		goto out;
	step++;
out:
	if (step != 7)
		ktap_diag("step %d: SEEK_END %lld (expected %lld), bytes %02x %02x",
			  step, (long long)end, VOL_BYTES, c[0], c[1]);
	close(fd);
	return step == 7;
}

/* UBI_IOCEBISMAP: the update mapped LEB 0 only. */
static int leb_mapped(void)
{
	int32_t l0 = 0, l3 = 3;
	int fd = node("/dev/ubi0_0", O_RDONLY);
	int m0 = fd >= 0 ? ioctl(fd, UBI_IOCEBISMAP, &l0) : -1;
	int m3 = fd >= 0 ? ioctl(fd, UBI_IOCEBISMAP, &l3) : -1;

	close(fd);
	if (m0 != 1 || m3 != 0)
		ktap_diag("LEB 0 mapped %d, LEB 3 mapped %d", m0, m3);
	return m0 == 1 && m3 == 0;
}

/*
 * While /dev/ubi0_0 is open, the volume cannot be opened exclusively:
 * UBI_IOCRSVOL and UBI_IOCRMVOL are EBUSY, and so is UBI_IOCDET of the
 * device (its reference count).
 */
static int busy_while_open(void)
{
	struct ubi_rsvol_req rs = { .bytes = 8LL * LEB, .vol_id = 0 };
	int32_t vol = 0, ubi = 0;
	int fd = node("/dev/ubi0_0", O_RDONLY);
	int rs_busy, rm_busy, det_busy;

	rs_busy = dev_ioctl("/dev/ubi0", UBI_IOCRSVOL, &rs) < 0 &&
		  errno == EBUSY;
	rm_busy = dev_ioctl("/dev/ubi0", UBI_IOCRMVOL, &vol) < 0 &&
		  errno == EBUSY;
	det_busy = ctrl_ioctl(UBI_IOCDET, &ubi) < 0 && errno == EBUSY;
	close(fd);
	if (!rs_busy || !rm_busy || !det_busy)
		ktap_diag("rsvol busy %d, rmvol busy %d, detach busy %d",
			  rs_busy, rm_busy, det_busy);
	return fd >= 0 && rs_busy && rm_busy && det_busy;
}

/* UBI_IOCRSVOL to 8 LEBs: reserved_ebs 8, SEEK_END follows. */
static int resize(void)
{
	struct ubi_rsvol_req rs = { .bytes = 8LL * LEB, .vol_id = 0 };
	int fd;
	off_t end;

	if (dev_ioctl("/dev/ubi0", UBI_IOCRSVOL, &rs))
		return 0;
	fd = node("/dev/ubi0_0", O_RDONLY);
	end = fd >= 0 ? lseek(fd, 0, SEEK_END) : -1;
	close(fd);
	return end == 8LL * LEB &&
	       num_is("/sys/class/ubi/ubi0_0/reserved_ebs", 8) &
	       num_is("/sys/class/ubi/ubi0/avail_eraseblocks", AVAIL - 8);
}

/* UBI_IOCRNVOL renames volume 0; the sysfs name follows. */
static int rename_vol(void)
{
	struct ubi_rnvol_req rn = { .count = 1 };
	char name[64];

	rn.ents[0].vol_id = 0;
	rn.ents[0].name_len = 8;
	snprintf(rn.ents[0].name, sizeof(rn.ents[0].name), "bklfree2");
	if (dev_ioctl("/dev/ubi0", UBI_IOCRNVOL, &rn) ||
	    read_line("/sys/class/ubi/ubi0_0/name", name, sizeof(name)))
		return 0;
	return !strcmp(name, "bklfree2");
}

/* rename_volumes(): a count above UBI_MAX_RNVOL is EINVAL. */
static int rename_bad_count(void)
{
	struct ubi_rnvol_req rn = { .count = UBI_MAX_RNVOL + 1 };

	return dev_ioctl("/dev/ubi0", UBI_IOCRNVOL, &rn) < 0 &&
	       errno == EINVAL;
}

/* An unknown command on each node: ENOTTY. */
static int unknown_ioctls(void)
{
	int32_t x = 0;
	int ctrl = ctrl_ioctl(_IOW('o', 99, int32_t), &x) < 0 &&
		   errno == ENOTTY;
	int dev = dev_ioctl("/dev/ubi0", _IOW('o', 99, int32_t), &x) < 0 &&
		  errno == ENOTTY;
	int vol = dev_ioctl("/dev/ubi0_0", _IOW('O', 99, int32_t), &x) < 0 &&
		  errno == ENOTTY;

	return ctrl && dev && vol;
}

/* A debugfs boolean: reads "0\n", a "1" write reads back, "x" is EINVAL. */
static int dbg_bool(const char *name)
{
	char path[128], buf[8];
	int fd, ok;

	snprintf(path, sizeof(path), DBG "%s", name);
	if (read_line(path, buf, sizeof(buf)) || strcmp(buf, "0")) {
		ktap_diag("%s: \"%s\", expected 0", name, buf);
		return 0;
	}
	fd = node(path, O_WRONLY);
	ok = fd >= 0 && write(fd, "1\n", 2) == 2;
	close(fd);
	ok = ok && !read_line(path, buf, sizeof(buf)) && !strcmp(buf, "1");
	fd = node(path, O_WRONLY);
	ok = ok && fd >= 0 && write(fd, "x", 1) < 0 && errno == EINVAL &&
	     write(fd, "0", 1) == 1;
	close(fd);
	return ok && !read_line(path, buf, sizeof(buf)) && !strcmp(buf, "0");
}

static int dbg_bools(void)
{
	static const char *const names[] = {
		"chk_gen", "chk_io", "chk_fastmap", "tst_disable_bgt",
		"tst_emulate_bitflips", "tst_emulate_io_failures",
	};
	size_t i;
	int ok = 1;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!dbg_bool(names[i])) {
			ktap_diag("debugfs %s failed", names[i]);
			ok = 0;
		}
	return ok;
}

/*
 * The power cut numbers are unsigned: a write reads back, a non-number is
 * EINVAL. tst_emulate_power_cut stays 0 (anything else cuts the power).
 */
static int dbg_power_cut(void)
{
	char buf[16];
	int fd = node(DBG "tst_emulate_power_cut_min", O_WRONLY);
	int ok = fd >= 0 && write(fd, "3", 1) == 1 &&
		 write(fd, "-3", 2) < 0 && errno == EINVAL;

	close(fd);
	ok = ok && !read_line(DBG "tst_emulate_power_cut_min", buf,
			      sizeof(buf)) && !strcmp(buf, "3");
	fd = node(DBG "tst_emulate_power_cut_max", O_WRONLY);
	ok = ok && fd >= 0 && write(fd, "0x10", 4) == 4;
	close(fd);
	ok = ok && !read_line(DBG "tst_emulate_power_cut_max", buf,
			      sizeof(buf)) && !strcmp(buf, "16");
	fd = node(DBG "tst_emulate_power_cut", O_WRONLY);
	ok = ok && fd >= 0 && write(fd, "0", 1) == 1;
	close(fd);
	return ok && !read_line(DBG "tst_emulate_power_cut", buf,
				sizeof(buf)) && !strcmp(buf, "0");
}

/* dfs_fops has no working llseek (no_llseek, dropped by 0031): ESPIPE. */
static int dbg_no_seek(void)
{
	return espipe(DBG "chk_gen", O_RDONLY);
}

/*
 * detailed_erase_block_info (a seq_file): a header and one line per PEB,
 * 33 lines; seq_lseek goes back to 0 and refuses SEEK_END (EINVAL).
 */
static int dbg_erase_blocks(void)
{
	static char buf[8192];
	size_t len = 0;
	ssize_t n;
	int lines = 0, ok;
	char *p;
	int fd = node(DBG "detailed_erase_block_info", O_RDONLY);

	if (fd < 0)
		return 0;
	while ((n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += (size_t)n;
	buf[len] = '\0';
	for (p = buf; (p = strchr(p, '\n')); p++)
		lines++;
	ok = n == 0 && !strncmp(buf, "physical_block_number\terase_count\n", 34) &&
	     lines == PEBS + 1;
	if (!ok)
		ktap_diag("%d lines, read %zd", lines, n);
	ok = ok && lseek(fd, 0, SEEK_END) < 0 && errno == EINVAL &&
	     lseek(fd, 0, SEEK_SET) == 0 && read(fd, buf, 5) == 5 &&
	     !strncmp(buf, "physi", 5);
	close(fd);
	return ok;
}

/* UBI_IOCRMVOL: the node goes, the PEBs come back; again is ENODEV. */
static int rmvol(void)
{
	int32_t vol = 0;

	if (dev_ioctl("/dev/ubi0", UBI_IOCRMVOL, &vol))
		return 0;
	return gone("/dev/ubi0_0") &&
	       num_is("/sys/class/ubi/ubi0/avail_eraseblocks", AVAIL) &&
	       dev_ioctl("/dev/ubi0", UBI_IOCRMVOL, &vol) < 0 &&
	       errno == ENODEV;
}

/* UBI_IOCDET: /dev/ubi0 and the debugfs directory go; again is EINVAL. */
static int detach(void)
{
	int32_t ubi = 0;

	if (ctrl_ioctl(UBI_IOCDET, &ubi))
		return 0;
	return gone("/dev/ubi0") && gone("/sys/kernel/debug/ubi/ubi0") &&
	       ctrl_ioctl(UBI_IOCDET, &ubi) < 0 && errno == EINVAL;
}

static const struct ktap_case cases[] = {
	{ "/proc/mtd: mtdram, 4 MiB of 128 KiB erase blocks", proc_mtd },
	{ "ubi_ctrl: lseek is ESPIPE", ctrl_no_seek },
	{ "ubi_ctrl: UBI_IOCATT attaches mtdram as ubi0", attach },
	{ "ubi_ctrl: UBI_IOCATT of an attached device is EEXIST", attach_again },
	{ "ubi_ctrl: UBI_IOCATT of mtd -1 is EINVAL", attach_bad },
	{ "ubi0: LEB 130944, 32 PEBs, 28 available, min I/O 1", geometry },
	{ "ubi0: lseek is ESPIPE", ubi_no_seek },
	{ "ubi0: UBI_IOCMKVOL makes volume 0 of 4 LEBs", mkvol },
	{ "ubi0: UBI_IOCMKVOL of an existing name is EEXIST", mkvol_same_name },
	{ "ubi0_0: UBI_IOCVOLUP beyond the reserved LEBs is EINVAL", volup_too_big },
	{ "ubi0_0: UBI_IOCVOLUP, lseek and read EBUSY while updating, write ends it", volume_update },
	{ "ubi0_0: read back the data, then erased 0xff", read_back },
	{ "ubi0_0: lseek SEEK_END is the volume size, SEEK_CUR, SEEK_DATA EINVAL", volume_seek },
	{ "ubi0_0: UBI_IOCEBISMAP, LEB 0 mapped, LEB 3 not", leb_mapped },
	{ "ubi0: UBI_IOCRSVOL, UBI_IOCRMVOL and UBI_IOCDET are EBUSY while open", busy_while_open },
	{ "ubi0: UBI_IOCRSVOL to 8 LEBs", resize },
	{ "ubi0: UBI_IOCRNVOL renames volume 0", rename_vol },
	{ "ubi0: UBI_IOCRNVOL of too many volumes is EINVAL", rename_bad_count },
	{ "ubi_ctrl, ubi0, ubi0_0: an unknown ioctl is ENOTTY", unknown_ioctls },
	{ "debugfs ubi0: the six booleans read, write, refuse x", dbg_bools },
	{ "debugfs ubi0: power cut numbers read back, refuse -3", dbg_power_cut },
	{ "debugfs ubi0: lseek is ESPIPE", dbg_no_seek },
	{ "debugfs ubi0: detailed_erase_block_info, 33 lines, seq_lseek", dbg_erase_blocks },
	{ "ubi0: UBI_IOCRMVOL removes volume 0, again ENODEV", rmvol },
	{ "ubi_ctrl: UBI_IOCDET detaches ubi0, again EINVAL", detach },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(cases),
	.devices = (const char *const[]){ "/dev/ubi_ctrl", "/proc/mtd", NULL },
	.kconfig = (const char *const[]){ "CONFIG_MTD_MTDRAM", "CONFIG_MTD_UBI",
					  NULL },
	.timeout = 45,
	.upstream = "patches/core 0031 (drivers/mtd: drop no_llseek)",
	.cases = cases,
};
