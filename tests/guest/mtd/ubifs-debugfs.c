// SPDX-License-Identifier: GPL-2.0
/*
 * ubifs-debugfs - UBIFS on a UBI volume of mtdram (the mtd-ubi profile,
 * after mtd/ubi has detached its device) and the debugfs files of
 * fs/ubifs/debug.c, whose no_llseek initialisers patches/core 0053 drops.
 *
 * The global knobs in debugfs ubifs/ (chk_general, chk_index, chk_orphans,
 * chk_lprops, chk_fs, tst_recovery) and the same knobs of one mounted file
 * system in ubifs/ubi0_0/ (plus ro_error) read "0\n", take "1" and read it
 * back, take "0" again and refuse anything else with EINVAL; none can be
 * seeked (ESPIPE: no ->llseek, and the per-fs ones are opened with
 * nonseekable_open). The write-only dump_lprops, dump_budg and dump_tnc
 * print the file system's state to the kernel log and return the count.
 * The file system itself: a file written, synced and read back, then the
 * volume unmounted, removed and the device detached.
 */
#include <fcntl.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <mtd/ubi-user.h>

#include "ktap.h"
#include "slurp.h"

#define DBG		"/sys/kernel/debug/ubifs/"
#define FS_DBG		DBG "ubi0_0/"
#define MNT		"/tmp/ubifs"
#define VOL_LEBS	24	/* of mtdram's 28 available: UBIFS needs 17 */
#define LEB		130944	/* mtdram's usable LEB size (mtd/ubi.c) */

static const char *const knobs[] = {
	"chk_general", "chk_index", "chk_orphans", "chk_lprops", "chk_fs",
	"tst_recovery",
};

static const char *const dumps[] = { "dump_lprops", "dump_budg", "dump_tnc" };

static int read_val(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, len - 1);

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return n;
}

/* 0, then 1 written and read back, then 0 again; "x" EINVAL; no seek. */
static int knob_ok(const char *dir, const char *name)
{
	char path[128], v[8];
	int fd, ok, einval, espipe;

	snprintf(path, sizeof(path), "%s%s", dir, name);
	ok = read_val(path, v, sizeof(v)) == 2 && !strcmp(v, "0\n");
	ok = ok && !put_text(path, "1") && read_val(path, v, sizeof(v)) == 2 &&
	     !strcmp(v, "1\n") && !put_text(path, "0") &&
	     read_val(path, v, sizeof(v)) == 2 && !strcmp(v, "0\n");
	einval = put_text(path, "x") < 0 && errno == EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	espipe = fd >= 0 && lseek(fd, 0, SEEK_SET) < 0 && errno == ESPIPE;
	if (fd >= 0)
		close(fd);
	if (!ok || !einval || !espipe)
		ktap_diag("%s: values %d, EINVAL %d, ESPIPE %d", path, ok,
			  einval, espipe);
	return ok && einval && espipe;
}

static int all_knobs(const char *dir)
{
	size_t i;
	int ok = 1;

	for (i = 0; i < ARRAY_SIZE(knobs); i++)
		ok &= knob_ok(dir, knobs[i]);
	return ok;
}

static int mtd_number(void)
{
	FILE *f = fopen("/proc/mtd", "r");
	char line[128];
	int n = -1;

	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "\"mtdram test device\""))
			sscanf(line, "mtd%d:", &n);
	if (f)
		fclose(f);
	return n;
}

static int ubi_ioctl(const char *node, unsigned long cmd, void *arg)
{
	int fd = open(node, O_RDWR | O_CLOEXEC), r;

	if (fd < 0)
		return -1;
	r = ioctl(fd, cmd, arg);
	close(fd);
	return r;
}

static int attach_and_mkvol(void)
{
	struct ubi_attach_req att = {
		.ubi_num = 0, .mtd_num = mtd_number(), .vid_hdr_offset = 0,
	};
	struct ubi_mkvol_req mk = {
		.vol_id = 0, .alignment = 1,
		.bytes = (long long)VOL_LEBS * LEB,
		.vol_type = UBI_DYNAMIC_VOLUME, .name_len = 3, .name = "bkl",
	};

	if (att.mtd_num < 0 || ubi_ioctl("/dev/ubi_ctrl", UBI_IOCATT, &att))
		return ktap_perror("UBI_IOCATT") + 1;
	if (!ktap_dev_present("/dev/ubi0") ||
	    ubi_ioctl("/dev/ubi0", UBI_IOCMKVOL, &mk))
		return ktap_perror("UBI_IOCMKVOL") + 1;
	return ktap_dev_present("/dev/ubi0_0");
}

static int file_round_trip(void)
{
	char buf[64] = "";
	int fd = open(MNT "/f", O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int ok = fd >= 0 && write(fd, "bklfree ubifs\n", 14) == 14 &&
		 !fsync(fd) && pread(fd, buf, sizeof(buf), 0) == 14 &&
		 !memcmp(buf, "bklfree ubifs\n", 14);

	if (fd >= 0)
		close(fd);
	return ok;
}

static int dumps_ok(void)
{
	char path[128];
	size_t i;
	int ok = 1;

	for (i = 0; i < ARRAY_SIZE(dumps); i++) {
		snprintf(path, sizeof(path), FS_DBG "%s", dumps[i]);
		if (put_text(path, "1")) {
			ktap_diag("%s: %s", path, strerror(errno));
			ok = 0;
		}
	}
	return ok;
}

static int ro_error_ok(void)
{
	char v[8];

	return read_val(FS_DBG "ro_error", v, sizeof(v)) == 2 &&
	       !strcmp(v, "0\n");
}

static int teardown(void)
{
	int32_t vol = 0;
	int32_t ubi = 0;
	int ok = !umount(MNT);

	ok = ok && !ubi_ioctl("/dev/ubi0", UBI_IOCRMVOL, &vol);
	ok = ok && !ubi_ioctl("/dev/ubi_ctrl", UBI_IOCDET, &ubi);
	return ok && access(FS_DBG, F_OK);
}

static void run(void)
{
	int ok;

	ktap_ok(all_knobs(DBG), "global knobs: 0, 1 read back, 0; EINVAL; ESPIPE");
	ok = attach_and_mkvol();
	ktap_ok(ok, "mtdram attached again, volume 0 of %d LEBs", VOL_LEBS);
	mkdir(MNT, 0755);
	ok = ok && !mount("ubi0_0", MNT, "ubifs", 0, NULL);
	ktap_ok(ok, "mount -t ubifs ubi0_0 (formats the empty volume)");
	ktap_ok(ok && file_round_trip(), "a file written, synced, read back");
	ktap_ok(ok && !access(FS_DBG, F_OK) && all_knobs(FS_DBG),
		"ubi0_0 knobs: 0, 1 read back, 0; EINVAL; ESPIPE");
	ktap_ok(ok && ro_error_ok(), "ubi0_0/ro_error reads 0");
	ktap_ok(ok && dumps_ok(), "dump_lprops, dump_budg, dump_tnc take a write");
	ktap_ok(ok && teardown(),
		"umount, volume removed, device detached, ubi0_0 debugfs gone");
}

const struct ktap_test ktap_test = {
	.plan = 8,
	.devices = (const char *const[]){ "/dev/ubi_ctrl", DBG, NULL },
	.kconfig = (const char *const[]){ "CONFIG_UBIFS_FS", NULL },
	.timeout = 60,
	.run = run,
};
