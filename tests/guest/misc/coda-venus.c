// SPDX-License-Identifier: GPL-2.0
/*
 * coda-venus - a Coda mount with the test as Venus, the cache manager:
 * /dev/cfs0 is opened, coda is mounted on /coda-mnt with that descriptor
 * in struct coda_mount_data, and a thread of the test answers every
 * upcall the kernel queues on /dev/cfs0 (read the request, write the
 * reply with the same unique id): CODA_ROOT and CODA_GETATTR for the
 * mount, CODA_ACCESS and CODA_LOOKUP for path walks, CODA_STATFS, and
 * CODA_IOCTL for the pioctls.
 *
 * The cases go through the control file /coda-mnt/.CONTROL
 * (fs/coda/pioctl.c): coda_ioctl_permission() lets it be opened and
 * written but never executed, coda_pioctl() looks up the PioctlData's
 * path and hands the command, with the path and follow flag taken out of
 * its size field, to Venus as CODA_IOCTL; Venus's answer (data, or an
 * error) comes back through the ioctl. Its .llseek is noop_llseek on both
 * kernels (neither the seed patch nor this series changes it): lseek
 * returns 0 and leaves the position.
 *
 * Every wait is bounded: the Venus thread polls /dev/cfs0 for 50 ms at a
 * time until the test stops it, and the kernel itself gives up on an
 * unanswered upcall after coda_timeout (30 s), less than this test's
 * alarm.
 */
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>

#include "ktap.h"

/*
 * From include/uapi/linux/coda.h of 6.1, which user space cannot include
 * (it pulls in <linux/time.h> after glibc's <time.h>); same types, so the
 * same layout on x86-64.
 */
#define CODA_ROOT	2
#define CODA_IOCTL	6
#define CODA_GETATTR	7
#define CODA_ACCESS	9
#define CODA_LOOKUP	10
#define CODA_SIGNAL	23
#define CODA_STATFS	34
#define CODA_MOUNT_VERSION 1
#define CODA_SUPER_MAGIC 0x73757245
#define C_VDIR		2

struct coda_fid {
	uint32_t opaque[4];
};

struct coda_timespec {
	int64_t tv_sec;
	long tv_nsec;
};

struct coda_vattr {
	long va_type;
	unsigned short va_mode;
	short va_nlink;
	uint32_t va_uid, va_gid;
	long va_fileid;
	uint64_t va_size;
	long va_blocksize;
	struct coda_timespec va_atime, va_mtime, va_ctime;
	unsigned long va_gen, va_flags;
	uint64_t va_rdev, va_bytes, va_filerev;
};

struct coda_in_hdr {
	uint32_t opcode, unique;
	int pid, pgid;
	uint32_t uid;
};

struct coda_out_hdr {
	uint32_t opcode, unique, result;
};

struct coda_fid_in {		/* getattr, access, lookup, ioctl: a fid first */
	struct coda_in_hdr ih;
	struct coda_fid fid;
};

struct coda_ioctl_in {
	struct coda_in_hdr ih;
	struct coda_fid fid;
	int cmd, len, rwflag;
	char *data;		/* the offset of the data in the message */
};

struct coda_ioctl_out {
	struct coda_out_hdr oh;
	int len;
	char *data;		/* the offset of the data in the message */
};

struct coda_root_out {
	struct coda_out_hdr oh;
	struct coda_fid fid;
};

struct coda_getattr_out {
	struct coda_out_hdr oh;
	struct coda_vattr attr;
};

struct coda_statfs_out {
	struct coda_out_hdr oh;
	int32_t f_blocks, f_bfree, f_bavail, f_files, f_ffree;
};

struct vice_ioctl {
	void *in, *out;
	unsigned short in_size, out_size;
};

struct pioctl_data {
	const char *path;
	int follow;
	struct vice_ioctl vi;
};

struct coda_mount_data {
	int version;
	int fd;
};

/*
 * A pioctl command as a Coda client issues it: _IOW('V', id, struct
 * ViceIoctl) with the size grown by the path pointer and follow flag;
 * coda_pioctl() takes them out again before the upcall.
 */
#define PIOC(id) _IOC(_IOC_WRITE, 'V', (id), sizeof(struct vice_ioctl) + \
		      sizeof(char *) + sizeof(int))
#define VIOC(id) _IOW('V', (id), struct vice_ioctl)
#define VIOCGETVOLSTAT 4

#define MNT "/coda-mnt"

static const struct coda_fid root_fid = { { 0x7f000001, 1, 1, 1 } };

/* ---- Venus -------------------------------------------------------------- */

static struct {
	int fd;
	atomic_int stop;
	pthread_t thread;
	pthread_mutex_t lock;
	/* what the kernel asked, in order */
	unsigned int nops;
	uint32_t ops[256];
	struct coda_fid getattr_fid;	/* the first CODA_GETATTR's */
	int have_getattr;
	int ioctl_cmd, ioctl_len;	/* the last CODA_IOCTL's */
	struct coda_fid ioctl_fid;
	char ioctl_data[64];
	unsigned int bad;		/* replies the kernel refused */
} venus = { .fd = -1, .lock = PTHREAD_MUTEX_INITIALIZER };

static int same_fid(const struct coda_fid *a, const struct coda_fid *b)
{
	return !memcmp(a, b, sizeof(*a));
}

/* How many upcalls of opcode op were seen (op 0: of any opcode). */
static unsigned int seen(uint32_t op)
{
	unsigned int i, n = 0;

	pthread_mutex_lock(&venus.lock);
	for (i = 0; i < venus.nops && i < ARRAY_SIZE(venus.ops); i++)
		n += !op || venus.ops[i] == op;
	pthread_mutex_unlock(&venus.lock);
	return n;
}

/*
 * The answer to a CODA_IOCTL, chosen by its input: "fail" gets EROFS,
 * "big" an answer longer than any out buffer of the test, anything else
 * its bytes reversed.
 */
static size_t venus_ioctl(const struct coda_ioctl_in *in, size_t n,
			  uint8_t *reply)
{
	struct coda_ioctl_out *out = (void *)reply;
	size_t off = (size_t)in->data, len = in->len, i;
	const char *d = (const char *)in + off;

	if (off > n || len > n - off)
		len = 0;
	pthread_mutex_lock(&venus.lock);
	venus.ioctl_cmd = in->cmd;
	venus.ioctl_len = in->len;
	venus.ioctl_fid = in->fid;
	memset(venus.ioctl_data, 0, sizeof(venus.ioctl_data));
	memcpy(venus.ioctl_data, d, len < 63 ? len : 63);
	pthread_mutex_unlock(&venus.lock);
	out->data = (char *)sizeof(*out);
	if (len == 4 && !memcmp(d, "fail", 4)) {
		out->oh.result = EROFS;
		return sizeof(*out);
	}
	if (len == 3 && !memcmp(d, "big", 3)) {
		out->len = 200;
		memset(reply + sizeof(*out), 'x', 200);
		return sizeof(*out) + 200;
	}
	for (i = 0; i < len && i < 256; i++)
		reply[sizeof(*out) + i] = d[len - 1 - i];
	out->len = i;
	return sizeof(*out) + i;
}

/* The reply to one upcall (its length), or 0 for none. */
static size_t venus_answer(const uint8_t *msg, size_t n, uint8_t *reply)
{
	const struct coda_in_hdr *ih = (const void *)msg;
	const struct coda_fid_in *fi = (const void *)msg;
	struct coda_out_hdr *oh = (void *)reply;
	size_t len = sizeof(*oh);

	pthread_mutex_lock(&venus.lock);
	if (venus.nops < ARRAY_SIZE(venus.ops))
		venus.ops[venus.nops] = ih->opcode;
	venus.nops++;
	if (ih->opcode == CODA_GETATTR && !venus.have_getattr) {
		venus.getattr_fid = fi->fid;
		venus.have_getattr = 1;
	}
	pthread_mutex_unlock(&venus.lock);
	oh->opcode = ih->opcode;
	oh->unique = ih->unique;
	oh->result = 0;
	switch (ih->opcode) {
	case CODA_SIGNAL:		/* asynchronous: no reply */
		return 0;
	case CODA_ROOT: {
		struct coda_root_out *r = (void *)reply;

		r->fid = root_fid;
		return sizeof(*r);
	}
	case CODA_GETATTR: {
		struct coda_getattr_out *r = (void *)reply;

		if (!same_fid(&fi->fid, &root_fid)) {
			oh->result = ENOENT;
			return len;
		}
		r->attr.va_type = C_VDIR;
		r->attr.va_mode = 0755;
		r->attr.va_nlink = 2;
		r->attr.va_size = 2048;
		r->attr.va_blocksize = 4096;
		r->attr.va_atime.tv_sec = 1700000000;
		r->attr.va_mtime.tv_sec = 1700000000;
		r->attr.va_ctime.tv_sec = 1700000000;
		return sizeof(*r);
	}
	case CODA_ACCESS:		/* every access allowed */
		return len;
	case CODA_LOOKUP:		/* the root is empty */
		oh->result = ENOENT;
		return len;
	case CODA_STATFS: {
		struct coda_statfs_out *r = (void *)reply;

		r->f_blocks = 1000;
		r->f_bfree = 600;
		r->f_bavail = 500;
		r->f_files = 100;
		r->f_ffree = 90;
		return sizeof(*r);
	}
	case CODA_IOCTL:
		return venus_ioctl((const void *)msg, n, reply);
	}
	oh->result = EOPNOTSUPP;
	return len;
}

static void *venus_run(void *arg)
{
	static uint8_t msg[16384], reply[16384];
	struct pollfd p = { .fd = venus.fd, .events = POLLIN };

	(void)arg;
	while (!atomic_load(&venus.stop)) {
		ssize_t n;
		size_t len;

		if (poll(&p, 1, 50) <= 0)
			continue;
		n = read(venus.fd, msg, sizeof(msg));
		if (n < (ssize_t)sizeof(struct coda_in_hdr))
			continue;
		memset(reply, 0, sizeof(reply));
		len = venus_answer(msg, n, reply);
		if (len && write(venus.fd, reply, len) != (ssize_t)len) {
			pthread_mutex_lock(&venus.lock);
			venus.bad++;
			pthread_mutex_unlock(&venus.lock);
		}
	}
	return NULL;
}

static int venus_start(void)
{
	if (!ktap_dev_present("/dev/cfs0")) {
		ktap_diag("/dev/cfs0 absent");
		return 0;
	}
	venus.fd = open("/dev/cfs0", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (venus.fd < 0)
		return ktap_perror("open /dev/cfs0"), 0;
	if (pthread_create(&venus.thread, NULL, venus_run, NULL)) {
		close(venus.fd);
		venus.fd = -1;
		return 0;
	}
	return 1;
}

static void venus_stop(void)
{
	atomic_store(&venus.stop, 1);
	pthread_join(venus.thread, NULL);
}

/* ---- the cases ---------------------------------------------------------- */

#define CHECK(cond)							\
	((cond) ? 1 : (ktap_diag("%s:%d: %s failed, errno %d (%s)",	\
				 __func__, __LINE__, #cond, errno,	\
				 strerror(errno)), 0))

static int mounted, ctl = -1;

static int pioctl(const char *path, int id, const void *in, size_t in_size,
		  void *out, size_t out_size)
{
	struct pioctl_data d = {
		.path = path, .follow = 1,
		.vi = { (void *)in, out, in_size, out_size },
	};

	return ioctl(ctl, PIOC(id), &d);
}

static int coda_mount(void)
{
	struct coda_mount_data data = { CODA_MOUNT_VERSION, -1 };
	uint32_t first[2] = { 0, 0 };
	int ok = CHECK(venus_start());

	if (ok) {
		data.fd = venus.fd;
		if (mkdir(MNT, 0755) && errno != EEXIST)
			ktap_perror("mkdir " MNT);
		mounted = !mount("coda", MNT, "coda", 0, &data);
		ok = CHECK(mounted);
	}
	pthread_mutex_lock(&venus.lock);
	memcpy(first, venus.ops, sizeof(first));
	pthread_mutex_unlock(&venus.lock);
	if (ok && (first[0] != CODA_ROOT || first[1] != CODA_GETATTR))
		ktap_diag("first upcalls %u, %u", first[0], first[1]);
	ok = ok && CHECK(first[0] == CODA_ROOT && first[1] == CODA_GETATTR);
	ok = ok && CHECK(same_fid(&venus.getattr_fid, &root_fid));
	return ok;
}

/* coda_f2i(): the inode number of a fid */
static unsigned long f2i(const struct coda_fid *f)
{
	return f->opaque[3] ^ (f->opaque[2] << 10) ^ (f->opaque[1] << 20) ^
	       f->opaque[0];
}

static int coda_root(void)
{
	struct statfs sf;
	struct stat st;
	unsigned int before = seen(CODA_STATFS);
	int ok = CHECK(mounted);

	ok = ok && CHECK(!stat(MNT, &st));
	ok = ok && CHECK(S_ISDIR(st.st_mode) && (st.st_mode & 07777) == 0755 &&
			 st.st_nlink == 2 && st.st_size == 2048 &&
			 st.st_mtime == 1700000000);
	if (ok && st.st_ino != f2i(&root_fid))
		ktap_diag("root inode %lu, coda_f2i %lu",
			  (unsigned long)st.st_ino, f2i(&root_fid));
	ok = ok && CHECK(st.st_ino == f2i(&root_fid));
	ok = ok && CHECK(!statfs(MNT, &sf));
	ok = ok && CHECK(sf.f_type == CODA_SUPER_MAGIC && sf.f_bsize == 4096 &&
			 sf.f_blocks == 1000 && sf.f_bfree == 600 &&
			 sf.f_bavail == 500 && sf.f_files == 100 &&
			 sf.f_ffree == 90);
	ok = ok && CHECK(seen(CODA_STATFS) == before + 1);
	return ok;
}

static int control_open(void)
{
	struct stat st;
	int ok = CHECK(mounted);

	ok = ok && CHECK((ctl = open(MNT "/.CONTROL", O_RDONLY | O_CLOEXEC)) >= 0);
	/* coda_cnode_makectl(): mode 0444 and no file type, CTL_INO */
	ok = ok && CHECK(!fstat(ctl, &st));
	if (ok && (st.st_mode != 0444 || st.st_ino != (ino_t)-1))
		ktap_diag("control file mode 0%o inode %lu", st.st_mode,
			  (unsigned long)st.st_ino);
	ok = ok && CHECK(st.st_mode == 0444 && st.st_ino == (ino_t)-1);
	/* coda_ioctl_permission() refuses MAY_EXEC only, whatever the mode */
	ok = ok && CHECK(!access(MNT "/.CONTROL", R_OK | W_OK));
	ok = ok && CHECK(access(MNT "/.CONTROL", X_OK) < 0 && errno == EACCES);
	return ok;
}

static int control_pioctl(void)
{
	char out[64] = "";
	unsigned int before = seen(CODA_IOCTL);
	int ok = CHECK(ctl >= 0), cmd, len;
	struct coda_fid fid;
	char data[64];

	ok = ok && CHECK(!pioctl(MNT, VIOCGETVOLSTAT, "hello", 5, out,
				 sizeof(out)));
	ok = ok && CHECK(!memcmp(out, "olleh", 6));
	ok = ok && CHECK(seen(CODA_IOCTL) == before + 1);
	pthread_mutex_lock(&venus.lock);
	cmd = venus.ioctl_cmd;
	len = venus.ioctl_len;
	fid = venus.ioctl_fid;
	memcpy(data, venus.ioctl_data, sizeof(data));
	pthread_mutex_unlock(&venus.lock);
	if (ok && (cmd != (int)VIOC(VIOCGETVOLSTAT) || len != 5))
		ktap_diag("Venus got command 0x%x (0x%x expected), %d bytes",
			  cmd, (unsigned int)VIOC(VIOCGETVOLSTAT), len);
	ok = ok && CHECK(cmd == (int)VIOC(VIOCGETVOLSTAT) && len == 5 &&
			 !memcmp(data, "hello", 6));
	ok = ok && CHECK(same_fid(&fid, &root_fid));
	return ok;
}

static int control_errors(void)
{
	char out[64];
	unsigned int before = seen(CODA_IOCTL), lookups = seen(CODA_LOOKUP);
	int ok = CHECK(ctl >= 0);

	/* Venus's error, positive on the wire, is the ioctl's errno */
	ok = ok && CHECK(pioctl(MNT, VIOCGETVOLSTAT, "fail", 4, out,
				sizeof(out)) < 0 && errno == EROFS);
	/* 200 bytes of answer for 64 of buffer */
	ok = ok && CHECK(pioctl(MNT, VIOCGETVOLSTAT, "big", 3, out,
				sizeof(out)) < 0 && errno == EINVAL);
	ok = ok && CHECK(seen(CODA_IOCTL) == before + 2);
	/* no CODA_IOCTL: a path outside coda, one Venus's lookup does not
	 * find, no PioctlData */
	ok = ok && CHECK(pioctl("/", VIOCGETVOLSTAT, "x", 1, out,
				sizeof(out)) < 0 && errno == EINVAL);
	ok = ok && CHECK(pioctl(MNT "/absent", VIOCGETVOLSTAT, "x", 1, out,
				sizeof(out)) < 0 && errno == ENOENT);
	ok = ok && CHECK(seen(CODA_LOOKUP) > lookups);
	ok = ok && CHECK(ioctl(ctl, PIOC(VIOCGETVOLSTAT), NULL) < 0 &&
			 errno == EINVAL);
	ok = ok && CHECK(seen(CODA_IOCTL) == before + 2);
	return ok;
}

static int control_lseek(void)
{
	char b[8];
	int ok = CHECK(ctl >= 0);

	/* noop_llseek: the position stays 0 */
	ok = ok && CHECK(lseek(ctl, 4096, SEEK_SET) == 0);
	ok = ok && CHECK(lseek(ctl, 10, SEEK_CUR) == 0);
	ok = ok && CHECK(lseek(ctl, -1, SEEK_END) == 0);
	/* no .read */
	ok = ok && CHECK(read(ctl, b, sizeof(b)) < 0 && errno == EINVAL);
	return ok;
}

static int coda_unmount(void)
{
	int ok = CHECK(mounted), again;

	if (ctl >= 0)
		ok = CHECK(!close(ctl)) && ok;
	ctl = -1;
	if (mounted)
		ok = CHECK(!umount(MNT)) && ok;
	mounted = 0;
	venus_stop();
	ok = ok && CHECK(venus.bad == 0);
	ktap_diag("Venus answered %u upcalls", seen(0));
	ok = CHECK(!close(venus.fd)) && ok;
	/* the device is free again: one opener at a time */
	again = open("/dev/cfs0", O_RDWR | O_CLOEXEC);
	ok = ok && CHECK(again >= 0);
	if (again >= 0)
		close(again);
	return ok;
}

static const struct ktap_case cases[] = {
	{ "coda mounted with /dev/cfs0 as Venus: CODA_ROOT then CODA_GETATTR of the root fid answered", coda_mount },
	{ "coda root: Venus's attributes, inode number from the root fid, statfs through CODA_STATFS", coda_root },
	{ "coda .CONTROL opened: mode 0444 without a type, inode CTL_INO, access W_OK allowed and X_OK EACCES", control_open },
	{ "coda pioctl VIOCGETVOLSTAT on the root: CODA_IOCTL with the ViceIoctl command, the fid and data, Venus's answer copied out", control_pioctl },
	{ "coda pioctl errors: Venus's EROFS, an answer too long EINVAL, a path outside coda EINVAL, an absent path ENOENT", control_errors },
	{ "coda .CONTROL lseek (noop_llseek): SEEK_SET, SEEK_CUR and SEEK_END give 0, read EINVAL", control_lseek },
	{ "coda unmounted, /dev/cfs0 closed and free for a new Venus, no reply refused", coda_unmount },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(cases),
	.devices = (const char *const[]){ "/dev/cfs0", NULL },
	.kconfig = (const char *const[]){ "CONFIG_CODA_FS", NULL },
	.timeout = 45,
	.upstream = "the seed patch's fs/coda/pioctl.c (noop_llseek)",
	.cases = cases,
};
