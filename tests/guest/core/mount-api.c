// SPDX-License-Identifier: GPL-2.0
/*
 * mount-api - the file-descriptor mount API of fs/fsopen.c: a tmpfs made
 * with fsopen, fsconfig and fsmount and attached with move_mount, resized
 * through fspick and FSCONFIG_CMD_RECONFIGURE, and the fs_context's
 * message log read back from the descriptor (fscontext_read) after a
 * refused parameter. The values are 6.1's: the log lines are "e " plus
 * the filesystem's name (fs/fs_context.c logfc), one message per read,
 * EMSGSIZE for a short buffer and ENODATA once the log is empty.
 */
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include "ktap.h"

#define TMPFS_MAGIC 0x01021994
#define MNT "/tmp/mount-api"

static char msg[256];

/* The next message of the context's log into msg; its length, or -1. */
static ssize_t next_msg(int fd)
{
	ssize_t n = read(fd, msg, sizeof(msg) - 1);

	msg[n > 0 ? n : 0] = '\0';
	return n;
}

/* fsopen refuses an unknown filesystem and an unknown flag. */
static int fsopen_errors(void)
{
	int ok = fsopen("bklfree-nofs", 0) < 0 && errno == ENODEV;

	return ok && fsopen("tmpfs", ~FSOPEN_CLOEXEC) < 0 && errno == EINVAL;
}

/*
 * A bad value and an unknown key are EINVAL and each leaves one message;
 * a read too short for one is EMSGSIZE and keeps it.
 */
static int context_log(void)
{
	char small[8];
	int fd = fsopen("tmpfs", FSOPEN_CLOEXEC);
	int ok = fd >= 0 && next_msg(fd) < 0 && errno == ENODATA &&
		 fsconfig(fd, FSCONFIG_SET_STRING, "mode", "xyz", 0) < 0 &&
		 errno == EINVAL &&
		 fsconfig(fd, FSCONFIG_SET_STRING, "bklfree", "1", 0) < 0 &&
		 errno == EINVAL &&
		 read(fd, small, sizeof(small)) < 0 && errno == EMSGSIZE;

	ok = ok && next_msg(fd) > 0 &&
	     !strcmp(msg, "e tmpfs: Bad value for 'mode'\n");
	ok = ok && next_msg(fd) > 0 &&
	     !strcmp(msg, "e tmpfs: Unknown parameter 'bklfree'\n");
	ok = ok && next_msg(fd) < 0 && errno == ENODATA;
	if (!ok && msg[0])
		ktap_diag("last message: %s", msg);
	close(fd);
	return ok;
}

static unsigned long tmpfs_blocks(void)
{
	struct statfs s;

	if (statfs(MNT, &s) || s.f_type != TMPFS_MAGIC)
		return 0;
	return s.f_blocks * s.f_bsize / 4096;
}

/*
 * fsopen, size=1M, FSCONFIG_CMD_CREATE (a second one is EBUSY), fsmount,
 * move_mount onto MNT: a tmpfs of 256 pages there.
 */
static int create_mount(void)
{
	int fd = fsopen("tmpfs", FSOPEN_CLOEXEC), mfd = -1;
	int ok;

	mkdir(MNT, 0755);
	ok = fd >= 0 && !fsconfig(fd, FSCONFIG_SET_STRING, "size", "1M", 0) &&
	     !fsconfig(fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0) &&
	     fsconfig(fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0 &&
	     errno == EBUSY &&
	     (mfd = fsmount(fd, FSMOUNT_CLOEXEC, MOUNT_ATTR_NODEV)) >= 0 &&
	     !move_mount(mfd, "", AT_FDCWD, MNT, MOVE_MOUNT_F_EMPTY_PATH);
	close(mfd);
	close(fd);
	if (ok && tmpfs_blocks() != 256)
		ktap_diag("%s: %lu pages", MNT, tmpfs_blocks());
	return ok && tmpfs_blocks() == 256;
}

/*
 * fspick the mount, size=2M, FSCONFIG_CMD_RECONFIGURE: 512 pages. fspick
 * of a directory that is not a mount's root is EINVAL.
 */
static int pick_resize(void)
{
	int fd, ok;

	mkdir(MNT "/sub", 0755);
	ok = fspick(AT_FDCWD, MNT "/sub", FSPICK_CLOEXEC) < 0 && errno == EINVAL;
	fd = fspick(AT_FDCWD, MNT, FSPICK_CLOEXEC);
	ok = ok && fd >= 0 &&
	     !fsconfig(fd, FSCONFIG_SET_STRING, "size", "2M", 0) &&
	     !fsconfig(fd, FSCONFIG_CMD_RECONFIGURE, NULL, NULL, 0);
	close(fd);
	return ok && tmpfs_blocks() == 512;
}

/* After umount2 the directory made in the mount is gone with it. */
static int unmount(void)
{
	struct stat st;

	return !umount2(MNT, 0) && stat(MNT "/sub", &st) < 0 &&
	       errno == ENOENT && !rmdir(MNT);
}

static const struct ktap_case tcases[] = {
	{ "fsopen: unknown filesystem ENODEV, unknown flag EINVAL", fsopen_errors },
	{ "fs_context log: two refused parameters, two messages, then ENODATA", context_log },
	{ "fsopen fsconfig fsmount move_mount make a 1M tmpfs", create_mount },
	{ "fspick and FSCONFIG_CMD_RECONFIGURE resize it to 2M", pick_resize },
	{ "the new mount unmounts", unmount },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(tcases),
	.timeout = 20,
	.cases = tcases,
};
