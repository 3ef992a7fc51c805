// SPDX-License-Identifier: GPL-2.0
/*
 * efivarfs - the EFI variable filesystem (fs/efivarfs, module efivarfs)
 * on OVMF's variables (the efi-ovmf profile boots the bzImage through
 * Debian's OVMF, whose variable store lives in RAM under -bios: nothing
 * written here outlives the boot).
 *
 * A file is NAME-GUID; its content is the variable's 4-byte attributes
 * followed by its data, and a write() is one SetVariable call of the same
 * form (fs/efivarfs/file.c). Variables that efivarfs does not know (its
 * variable_validate list: Boot####, BootOrder, ... of the EFI global GUID)
 * are immutable, so that they are not deleted by accident.
 *
 * Each case pins what 6.1 does:
 *   - efivarfs mounts on /sys/firmware/efi/efivars; it lists BootOrder
 *     and the Boot#### entries it names, every name NAME-GUID;
 *   - BootOrder reads as attributes NV|BS|RT then an even number of
 *     bytes; its size in stat is that length; reads of 3 bytes and the
 *     rest give the same bytes (f_pos moves), pread at 4 gives the data;
 *     it is not immutable (FS_IOC_GETFLAGS);
 *   - O_CREAT of BklfreeTest-GUID and a write of NV|BS|RT and 18 bytes:
 *     the whole write is taken, stat and a read give it back;
 *   - a write shorter than the attributes, or with an attribute bit
 *     outside EFI_VARIABLE_MASK, is EINVAL;
 *   - the new variable is immutable: open for writing and unlink are
 *     EPERM; FS_IOC_SETFLAGS 0 clears it, then an APPEND_WRITE write adds
 *     to the data;
 *   - lseek is ESPIPE: 6.1 has .llseek = no_llseek, the patched kernel
 *     drops it (patches/core 0051) and a NULL .llseek clears FMODE_LSEEK
 *     at open, so both kernels answer the same;
 *   - unlink deletes the variable: the file is gone, open is ENOENT,
 *     and a remount does not list it.
 */
#include <dirent.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "ktap.h"

#define DIR_ "/sys/firmware/efi/efivars"
#define GLOBAL "8be4df61-93ca-11d2-aa0d-00e098032b8c"
#define BOOT_ORDER DIR_ "/BootOrder-" GLOBAL
/* A GUID of our own (random, version 4): no firmware knows it. */
#define TEST_GUID "6d0b1e54-2f7a-4c3e-9b81-b7f1c2a4d5e6"
#define TEST_VAR DIR_ "/BklfreeTest-" TEST_GUID

#define NV 0x1
#define BS 0x2
#define RT 0x4
#define APPEND 0x40
#define DATA1 "bklfree efivarfs 1"
#define DATA2 " appended"

/* The whole content of a variable file: its length, or -1. */
static ssize_t slurp(const char *path, unsigned char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n, total = 0;

	if (fd < 0)
		return -1;
	while ((n = read(fd, buf + total, size - total)) > 0)
		total += n;
	close(fd);
	return n < 0 ? -1 : total;
}

/* A variable's attributes then data, as one write() of a new buffer. */
static ssize_t put(int fd, uint32_t attr, const char *data)
{
	unsigned char buf[64];
	size_t len = strlen(data);

	memcpy(buf, &attr, 4);
	memcpy(buf + 4, data, len);
	return write(fd, buf, 4 + len);
}

/* Is NAME in the mounted directory? */
static int listed(const char *name)
{
	DIR *d = opendir(DIR_);
	struct dirent *e;
	int found = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		found |= !strcmp(e->d_name, name);
	closedir(d);
	return found;
}

static int getflags(const char *path, int *flags)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), r;

	if (fd < 0)
		return -1;
	r = ioctl(fd, FS_IOC_GETFLAGS, flags);
	close(fd);
	return r;
}

static int do_mount(void)
{
	if (mount("efivarfs", DIR_, "efivarfs", 0, NULL)) {
		ktap_perror("mount");
		return 0;
	}
	return 1;
}

static int listing(void)
{
	DIR *d = opendir(DIR_);
	struct dirent *e;
	int n = 0, bad = 0, boot = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (e->d_name[0] == '.')
			continue;
		n++;
		/* NAME-GUID: a GUID is 36 characters. */
		if (len < 38 || e->d_name[len - 37] != '-')
			bad++;
		if (!strncmp(e->d_name, "Boot", 4) && len == 8 + 37 &&
		    !strcmp(e->d_name + 9, GLOBAL))
			boot++;
		if (n <= 40)
			ktap_diag("%s", e->d_name);
	}
	closedir(d);
	ktap_diag("%d variables, %d Boot####", n, boot);
	return n >= 3 && !bad && boot >= 1 &&
	       listed("BootOrder-" GLOBAL) == 1;
}

static int boot_order(void)
{
	unsigned char buf[256];
	char name[64];
	uint32_t attr;
	struct stat st;
	ssize_t n = slurp(BOOT_ORDER, buf, sizeof(buf));
	int i, missing = 0;

	if (n < 6 || stat(BOOT_ORDER, &st))
		return 0;
	memcpy(&attr, buf, 4);
	ktap_diag("BootOrder attributes 0x%x, %zd bytes, st_size %lld", attr,
		  n, (long long)st.st_size);
	for (i = 4; i + 1 < n; i += 2) {
		snprintf(name, sizeof(name), "Boot%04X-%s",
			 buf[i] | buf[i + 1] << 8, GLOBAL);
		if (listed(name) != 1) {
			ktap_diag("%s is not listed", name);
			missing++;
		}
	}
	return attr == (NV | BS | RT) && n % 2 == 0 && st.st_size == n &&
	       !missing;
}

static int pieces(void)
{
	unsigned char whole[256], part[256], data[256];
	ssize_t n = slurp(BOOT_ORDER, whole, sizeof(whole)), a, b, p;
	int fd = open(BOOT_ORDER, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || n < 6)
		return 0;
	a = read(fd, part, 3);
	b = read(fd, part + 3, sizeof(part) - 3);
	p = pread(fd, data, sizeof(data), 4);
	close(fd);
	ktap_diag("read %zd then %zd, pread at 4 %zd", a, b, p);
	return a == 3 && a + b == n && !memcmp(part, whole, n) &&
	       p == n - 4 && !memcmp(data, whole + 4, n - 4);
}

static int known_not_immutable(void)
{
	int flags = -1;

	return !getflags(BOOT_ORDER, &flags) && !(flags & FS_IMMUTABLE_FL);
}

static int fd_new = -1;

static int create(void)
{
	unsigned char buf[64];
	struct stat st;
	ssize_t n;

	fd_new = open(TEST_VAR, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
	if (fd_new < 0 || put(fd_new, NV | BS | RT, DATA1) != 4 + strlen(DATA1))
		return 0;
	n = slurp(TEST_VAR, buf, sizeof(buf));
	if (stat(TEST_VAR, &st))
		return 0;
	ktap_diag("read back %zd bytes, st_size %lld", n, (long long)st.st_size);
	return n == 4 + (ssize_t)strlen(DATA1) && st.st_size == n &&
	       *(uint32_t *)buf == (NV | BS | RT) &&
	       !memcmp(buf + 4, DATA1, strlen(DATA1)) &&
	       listed("BklfreeTest-" TEST_GUID) == 1;
}

static int bad_writes(void)
{
	int shrt, attr;

	shrt = write(fd_new, "ab", 2) < 0 ? errno : 0;
	attr = put(fd_new, NV | BS | RT | 0x80, DATA1) < 0 ? errno : 0;
	ktap_diag("2-byte write errno %d, attribute 0x80 errno %d", shrt, attr);
	errno = 0;
	return shrt == EINVAL && attr == EINVAL && !close(fd_new);
}

static int immutable(void)
{
	int flags = 0, w, u, fd;

	if (getflags(TEST_VAR, &flags))
		return 0;
	fd = open(TEST_VAR, O_WRONLY | O_CLOEXEC);
	w = fd < 0 ? errno : 0;
	if (fd >= 0)
		close(fd);
	u = unlink(TEST_VAR) ? errno : 0;
	ktap_diag("flags 0x%x, open for writing errno %d, unlink errno %d",
		  flags, w, u);
	errno = 0;
	return (flags & FS_IMMUTABLE_FL) && w == EPERM && u == EPERM;
}

static int chattr_append(void)
{
	unsigned char buf[64];
	int flags = 0, fd = open(TEST_VAR, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return 0;
	if (ioctl(fd, FS_IOC_SETFLAGS, &flags)) {
		close(fd);
		return 0;
	}
	close(fd);
	fd = open(TEST_VAR, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || put(fd, NV | BS | RT | APPEND, DATA2) != 4 + strlen(DATA2))
		return 0;
	close(fd);
	n = slurp(TEST_VAR, buf, sizeof(buf));
	ktap_diag("after append %zd bytes", n);
	return !getflags(TEST_VAR, &flags) && !(flags & FS_IMMUTABLE_FL) &&
	       n == 4 + (ssize_t)strlen(DATA1 DATA2) &&
	       !memcmp(buf + 4, DATA1 DATA2, strlen(DATA1 DATA2));
}

static int lseek_espipe(void)
{
	int fd = open(TEST_VAR, O_RDONLY | O_CLOEXEC), err;

	if (fd < 0)
		return 0;
	err = lseek(fd, 0, SEEK_SET) < 0 ? errno : 0;
	close(fd);
	errno = 0;
	return err == ESPIPE;
}

static int delete(void)
{
	int gone, enoent;

	if (unlink(TEST_VAR))
		return 0;
	gone = listed("BklfreeTest-" TEST_GUID) == 0;
	enoent = open(TEST_VAR, O_RDONLY | O_CLOEXEC) < 0 && errno == ENOENT;
	errno = 0;
	/* A fresh mount lists what the firmware has, not the dentry cache. */
	if (umount(DIR_) || !do_mount())
		return 0;
	return gone && enoent && listed("BklfreeTest-" TEST_GUID) == 0 &&
	       listed("BootOrder-" GLOBAL) == 1 && !umount(DIR_);
}

static const struct ktap_case cases[] = {
	{ "mount efivarfs on " DIR_, do_mount },
	{ "it lists NAME-GUID files, BootOrder and Boot####", listing },
	{ "BootOrder: NV|BS|RT, its Boot#### all listed, st_size its length", boot_order },
	{ "BootOrder read in two pieces and pread at 4 give the same bytes", pieces },
	{ "BootOrder is not immutable (a variable efivarfs validates)", known_not_immutable },
	{ "create BklfreeTest-GUID, write NV|BS|RT and data, read it back", create },
	{ "a 2-byte write and attribute 0x80 are EINVAL", bad_writes },
	{ "the new variable is immutable: open for write and unlink EPERM", immutable },
	{ "FS_IOC_SETFLAGS 0, then an APPEND_WRITE adds to the data", chattr_append },
	{ "lseek on a variable is ESPIPE", lseek_espipe },
	{ "unlink deletes it: not listed, ENOENT, not after a remount", delete },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(cases),
	.devices = (const char *const[]){ DIR_, NULL },
	.kconfig = (const char *const[]){ "CONFIG_EFI", "CONFIG_EFIVAR_FS",
		NULL },
	.timeout = 30,
	.upstream = "patches/core 0051 (fs/efivarfs: drop no_llseek)",
	.cases = cases,
};
