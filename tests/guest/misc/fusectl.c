// SPDX-License-Identifier: GPL-2.0
/*
 * fusectl - the fuse control filesystem (fs/fuse/control.c) on
 * /sys/fs/fuse/connections, with one live connection: /dev/fuse given to
 * a fuse mount (fd=) that no server ever answers. The mount queues
 * FUSE_INIT (protocol 7.38 in 6.1) without waiting for the reply, so the
 * connection is listed by its device number. Its files read 6.1's
 * values: waiting 1, the unanswered INIT (fuse_request_queue_background
 * counts every background request, fs/fuse/dev.c), max_background 12 and
 * congestion_threshold 9 (fs/fuse/inode.c defaults); max_background takes
 * a new value up to 65535; abort ends the connection: the INIT request
 * ends (waiting 0) and /dev/fuse reads ENODEV. Nothing here touches the
 * mount's files, which would wait for the INIT reply.
 */
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <linux/fuse.h>

#include "ktap.h"

#define MNT "/tmp/fusectl-mnt"
#define CTL "/sys/fs/fuse/connections"

static int dev = -1;
static unsigned int minor;
static char conn[64];
static char buf[FUSE_MIN_READ_BUFFER];

/* Read PATH into buf; non-zero when it reads exactly WANT. */
static int reads(const char *file, const char *want)
{
	char path[128];
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s", conn, file);
	fd = open(path, O_RDONLY);
	n = fd < 0 ? -1 : read(fd, buf, 64);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	if (strcmp(buf, want))
		ktap_diag("%s: \"%.*s\"", file, (int)strcspn(buf, "\n"), buf);
	return !strcmp(buf, want);
}

static ssize_t writes(const char *file, const char *s)
{
	char path[128];
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s", conn, file);
	fd = open(path, O_WRONLY);
	n = fd < 0 ? -1 : write(fd, s, strlen(s));
	close(fd);
	return n;
}

/* The minor of MNT's device, from /proc/self/mountinfo. */
static int mount_minor(void)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char line[512], point[256];
	unsigned int major, min;
	int found = 0;

	while (f && !found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%*u %*u %u:%u %*s %255s", &major, &min,
			       point) == 3 && !strcmp(point, MNT);
	if (f)
		fclose(f);
	minor = min;
	return found && major == 0;
}

static int fuse_mount(void)
{
	char opts[128];
	struct fuse_in_header *h = (void *)buf;
	struct fuse_init_in *in = (void *)(h + 1);
	ssize_t n;

	dev = open("/dev/fuse", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	snprintf(opts, sizeof(opts),
		 "fd=%d,rootmode=40000,user_id=0,group_id=0", dev);
	mkdir(MNT, 0755);
	if (dev < 0 || mount("bklfree", MNT, "fuse", MS_NODEV | MS_NOSUID, opts))
		return 0;
	n = read(dev, buf, sizeof(buf));
	return n >= (ssize_t)(sizeof(*h) + sizeof(*in)) &&
	       h->opcode == FUSE_INIT && in->major == 7 && in->minor == 38 &&
	       mount_minor();
}

static int ctl_mount(void)
{
	struct stat st;

	snprintf(conn, sizeof(conn), CTL "/%u", minor);
	return !mount("fusectl", CTL, "fusectl", 0, NULL) && !stat(conn, &st) &&
	       S_ISDIR(st.st_mode);
}

static int defaults(void)
{
	return reads("waiting", "1\n") && reads("max_background", "12\n") &&
	       reads("congestion_threshold", "9\n");
}

static int max_background(void)
{
	return writes("max_background", "65536") < 0 && errno == EINVAL &&
	       writes("max_background", "20") == 2 &&
	       reads("max_background", "20\n");
}

static int abort_conn(void)
{
	return writes("abort", "1") == 1 && read(dev, buf, sizeof(buf)) < 0 &&
	       errno == ENODEV && reads("waiting", "0\n");
}

/* Unmounting the fuse mount removes its connection from fusectl. */
static int unmount(void)
{
	struct stat st;
	int ok = !umount2(MNT, 0) && stat(conn, &st) < 0 && errno == ENOENT;

	ok = !umount2(CTL, 0) && ok;
	close(dev);
	return !rmdir(MNT) && ok;
}

static const struct ktap_case tcases[] = {
	{ "fuse mount with fd= queues FUSE_INIT 7.38", fuse_mount },
	{ "fusectl mounts and lists the connection", ctl_mount },
	{ "connection files: waiting 1, max_background 12, congestion_threshold 9", defaults },
	{ "max_background: 65536 EINVAL, 20 reads back", max_background },
	{ "abort ends the connection: /dev/fuse reads ENODEV, waiting 0", abort_conn },
	{ "unmounting removes the connection, fusectl unmounts", unmount },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(tcases),
	.devices = (const char *const[]){ "/dev/fuse", NULL },
	.kconfig = (const char *const[]){ "CONFIG_FUSE_FS", NULL },
	.timeout = 20,
	.cases = tcases,
};
