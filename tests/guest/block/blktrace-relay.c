// SPDX-License-Identifier: GPL-2.0
/*
 * blktrace-relay - the relay files (kernel/relay.c) blktrace makes in
 * debugfs (kernel/trace/blktrace.c), through the ioctls blktrace(8) uses,
 * on a loop device over a 4 MiB file of /tmp (tmpfs).
 *
 * BLKTRACESETUP (act_mask 0xffff, four sub-buffers of 64 KiB) names the
 * device and makes debugfs block/NAME/trace0 (the relay file of the one
 * CPU), dropped and msg; sysfs trace/enable reads 1 and trace/act_mask
 * names the actions; a second setup is EBUSY. Between BLKTRACESTART and
 * BLKTRACESTOP an O_DIRECT write of 4 KiB at sector 128 and an O_DIRECT
 * read of 4 KiB at sector 2048 go to the device, and a line is written to
 * msg. BLKTRACESTOP flushes the relay buffer (relay_flush), so trace0
 * polls readable; read() gives whole struct blk_io_trace records, each
 * with BLK_IO_TRACE_MAGIC, version 7 and the loop device's dev_t, among
 * them a queue (Q) event of our pid and a complete (C) event, 4096 bytes
 * each, for the write at sector 128 and for the read at sector 2048, and
 * the message as a notify record. Read to the end, trace0 reads 0 and
 * polls empty. dropped reads 0.
 *
 * relay_file_operations has no llseek (no_llseek in 6.1, left out once
 * the llseek series drops it: the same NULL): lseek is ESPIPE on both
 * kernels. trace0 is a debugfs file, reached through debugfs's full
 * proxy (fs/debugfs/file.c), which passes on the real file's read, poll,
 * llseek, write and ioctl, those it has, but no mmap (nor splice_read):
 * relay_file_mmap cannot be reached through blktrace in 6.1, and mmap(2)
 * of trace0 is ENODEV, at the buffer's size as at any other.
 * BLKTRACETEARDOWN removes trace0, dropped and msg (the device's debugfs
 * directory stays) and trace/enable reads 0; the loop device is cleared
 * after.
 */
#include <fcntl.h>
#include <linux/blktrace_api.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "block/loop.h"

#define BACKING "/tmp/blktrace.img"
#define BACKING_SIZE (4 << 20)
#define SUBBUF (64 << 10)
#define NSUBBUF 4
#define WRITE_SECTOR 128
#define READ_SECTOR 2048
#define IO_BYTES 4096
#define MESSAGE "bklfree blktrace-relay marker"
#define DBG "/sys/kernel/debug/block/"

static char node[32], name[BLKTRACE_BDEV_SIZE], dir[128];
static int loop_fd = -1;
static unsigned int loop_dev;	/* the kernel's dev_t: major << 20 | minor */
static int set_up;

/* What read() gave from trace0. */
static unsigned char *trace;
static size_t trace_len;

static int fail(const char *what)
{
	ktap_perror(what);
	return 0;
}

static int attach(void)
{
	struct stat st;
	int file;

	file = open(BACKING, O_CREAT | O_TRUNC | O_RDWR | O_CLOEXEC, 0600);
	if (file < 0 || ftruncate(file, BACKING_SIZE))
		return fail(BACKING);
	close(file);
	loop_fd = loop_bind(BACKING, 0, node, sizeof(node));
	if (loop_fd < 0)
		return 0;
	if (fstat(loop_fd, &st))
		return fail("fstat");
	loop_dev = major(st.st_rdev) << 20 | minor(st.st_rdev);
	ktap_diag("%s (%u:%u) over %s", node, major(st.st_rdev),
		  minor(st.st_rdev), BACKING);
	return 1;
}

static int file_is(const char *path, const char *want)
{
	char b[256];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return fail(path);
	n = read(fd, b, sizeof(b) - 1);
	close(fd);
	if (n < 0)
		return fail(path);
	b[n] = '\0';
	if (!strstr(b, want))
		ktap_diag("%s: %s", path, b);
	return strstr(b, want) != NULL;
}

static int sysfs_trace(const char *attr, const char *want)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/block/%s/trace/%s", node + 5,
		 attr);
	return file_is(path, want);
}

static int setup(void)
{
	struct blk_user_trace_setup buts = {
		.act_mask = 0xffff,
		.buf_size = SUBBUF,
		.buf_nr = NSUBBUF,
	};
	static const char *const made[] = { "trace0", "dropped", "msg" };
	char path[192];
	size_t i;

	if (loop_fd < 0)
		return 0;
	if (ioctl(loop_fd, BLKTRACESETUP, &buts))
		return fail("BLKTRACESETUP");
	set_up = 1;
	snprintf(name, sizeof(name), "%s", buts.name);
	snprintf(dir, sizeof(dir), DBG "%s", name);
	ktap_diag("traced as %s", name);
	for (i = 0; i < ARRAY_SIZE(made); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, made[i]);
		if (access(path, F_OK))
			return fail(path);
	}
	return !strcmp(name, node + 5);
}

static int sysfs_and_busy(void)
{
	struct blk_user_trace_setup again = {
		.act_mask = 0xffff, .buf_size = SUBBUF, .buf_nr = NSUBBUF,
	};
	int busy;

	errno = 0;
	busy = ioctl(loop_fd, BLKTRACESETUP, &again) < 0 && errno == EBUSY;
	return busy && sysfs_trace("enable", "1\n") &&
	       sysfs_trace("act_mask", "queue") &&
	       sysfs_trace("act_mask", "complete");
}

static int traced_io(void)
{
	char path[192];
	void *b = NULL;
	int fd, ok, msg;

	if (!set_up || ioctl(loop_fd, BLKTRACESTART))
		return fail("BLKTRACESTART");
	fd = open(node, O_RDWR | O_DIRECT | O_CLOEXEC);
	if (fd < 0 || posix_memalign(&b, 4096, IO_BYTES)) {
		ioctl(loop_fd, BLKTRACESTOP);
		return fail(node);
	}
	memset(b, 0x5a, IO_BYTES);
	ok = pwrite(fd, b, IO_BYTES, WRITE_SECTOR * 512LL) == IO_BYTES &&
	     pread(fd, b, IO_BYTES, READ_SECTOR * 512LL) == IO_BYTES;
	if (!ok)
		ktap_perror("O_DIRECT I/O");
	close(fd);
	free(b);
	snprintf(path, sizeof(path), "%s/msg", dir);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	msg = fd >= 0 && write(fd, MESSAGE, strlen(MESSAGE)) ==
			 (ssize_t)strlen(MESSAGE);
	if (fd >= 0)
		close(fd);
	if (ioctl(loop_fd, BLKTRACESTOP))
		return fail("BLKTRACESTOP");
	return ok && msg;
}

static int trace_fd = -1;

static int poll_readable(void)
{
	char path[192];
	struct pollfd p = { .events = POLLIN };

	snprintf(path, sizeof(path), "%s/trace0", dir);
	trace_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (trace_fd < 0)
		return fail(path);
	p.fd = trace_fd;
	return poll(&p, 1, 2000) == 1 && (p.revents & POLLIN);
}

static int read_all(void)
{
	size_t size = NSUBBUF * SUBBUF;
	ssize_t n;

	trace = malloc(size);
	if (!trace || trace_fd < 0)
		return 0;
	while (trace_len < size &&
	       (n = read(trace_fd, trace + trace_len, size - trace_len)) > 0)
		trace_len += n;
	ktap_diag("read %zu bytes of records", trace_len);
	return trace_len >= sizeof(struct blk_io_trace);
}

/* What the records hold, for the cases below. */
static unsigned int nrecords, bad_records;
static int write_q, write_c, read_q, read_c, message;

static const char *act_name(unsigned int act)
{
	static const char *const names[] = {
		"?", "Q", "B", "M", "F", "G", "S", "R", "C", "D", "I", "X",
		"A", "N", "U", "T", "?", "RA",
	};

	act &= 0xffff;
	return act < ARRAY_SIZE(names) ? names[act] : "?";
}

static void parse(void)
{
	size_t off = 0;

	while (off + sizeof(struct blk_io_trace) <= trace_len) {
		struct blk_io_trace t;
		unsigned int act, cat;
		int is_write, is_read;

		memcpy(&t, trace + off, sizeof(t));
		if ((t.magic & 0xffffff00) != BLK_IO_TRACE_MAGIC ||
		    (t.magic & 0xff) != BLK_IO_TRACE_VERSION ||
		    t.device != loop_dev) {
			if (!bad_records++)
				ktap_diag("bad record at %zu: magic %#x device %#x",
					  off, t.magic, t.device);
			break;
		}
		nrecords++;
		act = t.action & 0xffff;
		cat = t.action >> BLK_TC_SHIFT;
		if (cat & BLK_TC_NOTIFY) {
			if (act == __BLK_TN_MESSAGE &&
			    t.pdu_len >= strlen(MESSAGE) &&
			    !memcmp(trace + off + sizeof(t), MESSAGE,
				    strlen(MESSAGE)))
				message = 1;
		} else {
			is_write = (cat & BLK_TC_WRITE) != 0;
			is_read = !is_write && (cat & BLK_TC_READ);
			if (t.sector == WRITE_SECTOR && is_write &&
			    t.bytes == IO_BYTES) {
				write_q |= act == __BLK_TA_QUEUE &&
					   t.pid == (unsigned int)getpid();
				write_c |= act == __BLK_TA_COMPLETE && !t.error;
			}
			if (t.sector == READ_SECTOR && is_read &&
			    t.bytes == IO_BYTES) {
				read_q |= act == __BLK_TA_QUEUE &&
					  t.pid == (unsigned int)getpid();
				read_c |= act == __BLK_TA_COMPLETE && !t.error;
			}
			if (nrecords <= 40)
				ktap_diag("%-2s sector %llu bytes %u cat %#x pid %u",
					  act_name(act),
					  (unsigned long long)t.sector,
					  t.bytes, cat, t.pid);
		}
		off += sizeof(t) + t.pdu_len;
	}
	if (off != trace_len && !bad_records++)
		ktap_diag("%zu bytes left after the last record",
			  trace_len - off);
}

static int records(void)
{
	parse();
	ktap_diag("%u records, %u bad", nrecords, bad_records);
	return nrecords > 0 && !bad_records;
}

static int write_events(void)
{
	return write_q && write_c;
}

static int read_events(void)
{
	return read_q && read_c;
}

static int message_record(void)
{
	return message;
}

static int drained(void)
{
	struct pollfd p = { .fd = trace_fd, .events = POLLIN };
	char b[64];

	return trace_fd >= 0 && read(trace_fd, b, sizeof(b)) == 0 &&
	       poll(&p, 1, 0) == 0;
}

static int dropped(void)
{
	char path[192];

	snprintf(path, sizeof(path), "%s/dropped", dir);
	return set_up && file_is(path, "0\n");
}

static int no_llseek(void)
{
	off_t r;

	errno = 0;
	r = lseek(trace_fd, 0, SEEK_SET);
	return trace_fd >= 0 && r < 0 && errno == ESPIPE;
}

/*
 * relay_file_mmap maps a whole relay buffer, but blktrace makes trace0
 * with debugfs_create_file(), whose full proxy file_operations carry only
 * llseek, read, write, poll and unlocked_ioctl (__full_proxy_fops_init):
 * no mmap, so mmap(2) is ENODEV at the whole buffer's size and at any
 * other.
 */
static int mmap_enodev(void)
{
	static const size_t sizes[] = { NSUBBUF * SUBBUF, SUBBUF };
	size_t i;
	void *m;

	if (trace_fd < 0)
		return 0;
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		errno = 0;
		m = mmap(NULL, sizes[i], PROT_READ, MAP_SHARED, trace_fd, 0);
		if (m != MAP_FAILED) {
			ktap_diag("mmap of %zu bytes worked", sizes[i]);
			munmap(m, sizes[i]);
			return 0;
		}
		if (errno != ENODEV)
			return fail("mmap trace0");
	}
	return 1;
}

static int teardown(void)
{
	static const char *const made[] = { "trace0", "dropped", "msg" };
	char path[192];
	size_t i;
	int ok;

	if (trace_fd >= 0)
		close(trace_fd);
	trace_fd = -1;
	if (!set_up || ioctl(loop_fd, BLKTRACETEARDOWN))
		return fail("BLKTRACETEARDOWN");
	set_up = 0;
	ok = !access(dir, F_OK) && sysfs_trace("enable", "0\n");
	for (i = 0; i < ARRAY_SIZE(made); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, made[i]);
		if (!access(path, F_OK)) {
			ktap_diag("%s still there", path);
			ok = 0;
		}
	}
	return ok;
}

static int detach(void)
{
	int ok;

	if (loop_fd < 0)
		return 0;
	ok = loop_clear(loop_fd, node);
	loop_fd = -1;
	return !unlink(BACKING) && ok;
}

static const struct ktap_case tcases[] = {
	{ "loop device over a 4 MiB tmpfs file", attach },
	{ "BLKTRACESETUP: named after the device, trace0 dropped msg made", setup },
	{ "sysfs trace/enable 1, act_mask names queue and complete; setup again EBUSY", sysfs_and_busy },
	{ "BLKTRACESTART, O_DIRECT write and read, a msg line, BLKTRACESTOP", traced_io },
	{ "trace0 polls readable after the stop", poll_readable },
	{ "trace0 read() returns records", read_all },
	{ "every record: magic, version 7, the loop device", records },
	{ "write at sector 128: Q of our pid and C, 4096 bytes", write_events },
	{ "read at sector 2048: Q of our pid and C, 4096 bytes", read_events },
	{ "msg line as a notify message record", message_record },
	{ "read to the end: 0, no POLLIN", drained },
	{ "dropped reads 0", dropped },
	{ "lseek on trace0 is ESPIPE", no_llseek },
	{ "mmap of trace0 is ENODEV (debugfs proxy has no mmap)", mmap_enodev },
	{ "BLKTRACETEARDOWN: trace0 dropped msg gone, enable 0", teardown },
	{ "loop device cleared, file removed", detach },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(tcases),
	.devices = (const char *const[]){ "/dev/loop-control", NULL },
	.kconfig = (const char *const[]){ "CONFIG_BLK_DEV_IO_TRACE",
					  "CONFIG_BLK_DEV_LOOP", NULL },
	.timeout = 30,
	.cases = tcases,
};
