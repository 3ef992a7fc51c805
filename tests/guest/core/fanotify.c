// SPDX-License-Identifier: GPL-2.0
/*
 * fanotify - the fanotify group file (fs/notify/fanotify/fanotify_user.c):
 * its read, poll, ioctl, llseek and show_fdinfo, and its write that
 * answers permission events.
 *
 * A notification group, fanotify_init(FAN_CLASS_NOTIF | FAN_CLOEXEC |
 * FAN_NONBLOCK, O_RDONLY), marks a directory of /tmp (tmpfs) for FAN_OPEN
 * and FAN_CLOSE_WRITE of its children. Empty, the group reads EAGAIN, poll
 * says nothing and FIONREAD is 0; /proc/self/fdinfo shows the group's flags
 * and the mark (the directory's inode and the mask). A file made, written
 * and closed there queues events (the two may be merged into one, the same
 * file and pid: fanotify_should_merge): poll says POLLIN, FIONREAD is the
 * bytes queued, each event read is metadata version 3 of 24 bytes with our
 * pid and a descriptor whose /proc/self/fd link names the file, and the
 * masks together are exactly FAN_OPEN | FAN_CLOSE_WRITE. A read-only open
 * of the file queues FAN_OPEN alone, a file outside the directory queues
 * nothing, and after FAN_MARK_REMOVE nothing is queued.
 *
 * The group file's llseek is noop_llseek in 6.1: lseek succeeds and leaves
 * the position at 0, whatever the offset (not ESPIPE: a change there is an
 * ABI change the llseek series must not make).
 *
 * A FAN_CLASS_CONTENT group is allowed in any 6.1 kernel; its FAN_OPEN_PERM
 * marks need CONFIG_FANOTIFY_ACCESS_PERMISSIONS (and so CONFIG_SECURITY),
 * without which fanotify_mark refuses them with EINVAL. With it, a thread
 * of the test answers the permission events through write(): FAN_DENY
 * makes our open() fail with EPERM, FAN_ALLOW lets the next one through.
 * Without the option, that the mark is refused is checked and the two
 * answers are skipped, naming the option.
 */
#include <fcntl.h>
#include <pthread.h>
#include <sys/fanotify.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

#include "ktap.h"

#define DIR_PATH "/tmp/fanotify"
#define FILE_PATH DIR_PATH "/watched"
#define OUTSIDE "/tmp/fanotify-outside"
#define GROUP_FLAGS (FAN_CLASS_NOTIF | FAN_CLOEXEC | FAN_NONBLOCK)
#define MARK_MASK (FAN_OPEN | FAN_CLOSE_WRITE | FAN_EVENT_ON_CHILD)

static int group = -1;

static int fail(const char *what)
{
	ktap_perror(what);
	return 0;
}

static int queued(void)
{
	int n = -1;

	return ioctl(group, FIONREAD, &n) ? -1 : n;
}

static int readable(int ms)
{
	struct pollfd p = { .fd = group, .events = POLLIN };

	return poll(&p, 1, ms) == 1 && (p.revents & POLLIN);
}

static int init_group(void)
{
	int fdflags, flflags;

	group = fanotify_init(GROUP_FLAGS, O_RDONLY);
	if (group < 0)
		return fail("fanotify_init");
	fdflags = fcntl(group, F_GETFD);
	flflags = fcntl(group, F_GETFL);
	return fdflags >= 0 && (fdflags & FD_CLOEXEC) && flflags >= 0 &&
	       (flflags & O_NONBLOCK);
}

static int empty_group(void)
{
	char buf[256];
	int eagain;

	errno = 0;
	eagain = read(group, buf, sizeof(buf)) < 0 && errno == EAGAIN;
	return eagain && !readable(0) && queued() == 0;
}

static int mark_dir(void)
{
	if (mkdir(DIR_PATH, 0755) && errno != EEXIST)
		return fail("mkdir " DIR_PATH);
	if (fanotify_mark(group, FAN_MARK_ADD, MARK_MASK, AT_FDCWD, DIR_PATH))
		return fail("fanotify_mark " DIR_PATH);
	return 1;
}

/* fdinfo: "fanotify flags:3 ..." and "fanotify ino:INO ... mask:MASK". */
static int fdinfo(void)
{
	char path[64], buf[2048], want[64];
	const char *mark;
	struct stat st;
	unsigned int mask = 0;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", group);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || stat(DIR_PATH, &st))
		return fail(path);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	snprintf(want, sizeof(want), "fanotify ino:%lx ",
		 (unsigned long)st.st_ino);
	mark = strstr(buf, want);
	if (mark && strstr(mark, " mask:"))
		sscanf(strstr(mark, " mask:"), " mask:%x", &mask);
	snprintf(want, sizeof(want), "fanotify flags:%x ", GROUP_FLAGS);
	ktap_diag("mark mask %#x", mask);
	return strstr(buf, want) && mark && mask == MARK_MASK;
}

static int touch_file(void)
{
	int fd = open(FILE_PATH, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC,
		      0644);

	if (fd < 0)
		return fail(FILE_PATH);
	if (write(fd, "fanotify\n", 9) != 9) {
		close(fd);
		return fail("write " FILE_PATH);
	}
	return !close(fd);
}

/* Bounded: the events are queued before open() and close() return. */
static int poll_readable(void)
{
	return readable(1000);
}

static int fionread(void)
{
	int n = queued();

	ktap_diag("FIONREAD %d", n);
	return n > 0 && n % FAN_EVENT_METADATA_LEN == 0;
}

/* noop_llseek: success, and the position stays 0. */
static int llseek_noop(void)
{
	off_t set = lseek(group, 4096, SEEK_SET);
	off_t cur = lseek(group, 0, SEEK_CUR);
	off_t end = lseek(group, 0, SEEK_END);

	ktap_diag("SEEK_SET 4096 -> %lld, SEEK_CUR -> %lld, SEEK_END -> %lld",
		  (long long)set, (long long)cur, (long long)end);
	return set == 0 && cur == 0 && end == 0 && queued() > 0;
}

/*
 * Reads every queued event; each must be well formed, ours and about
 * FILE_PATH. Returns the masks OR-ed, or 0 on a bad event; *count is how
 * many were read.
 */
static unsigned long long read_events(unsigned int *count)
{
	char buf[4096] __attribute__((aligned(8)));
	unsigned long long masks = 0;
	ssize_t n;

	*count = 0;
	while ((n = read(group, buf, sizeof(buf))) > 0) {
		struct fanotify_event_metadata *md = (void *)buf;
		ssize_t len = n;

		for (; FAN_EVENT_OK(md, len); md = FAN_EVENT_NEXT(md, len)) {
			char link[64], target[256];
			ssize_t t;
			int good;

			snprintf(link, sizeof(link), "/proc/self/fd/%d",
				 md->fd);
			t = md->fd >= 0 ?
			    readlink(link, target, sizeof(target) - 1) : -1;
			target[t > 0 ? t : 0] = '\0';
			if (md->fd >= 0)
				close(md->fd);
			good = md->vers == FANOTIFY_METADATA_VERSION &&
			       md->metadata_len == FAN_EVENT_METADATA_LEN &&
			       md->event_len == FAN_EVENT_METADATA_LEN &&
			       md->pid == getpid() &&
			       !strcmp(target, FILE_PATH);
			ktap_diag("event: vers %u len %u mask %#llx pid %d fd -> %s",
				  md->vers, md->event_len,
				  (unsigned long long)md->mask, md->pid,
				  target);
			if (!good)
				return 0;
			masks |= md->mask;
			++*count;
		}
	}
	return masks;
}

static int events_of_write(void)
{
	unsigned int count;
	unsigned long long masks = read_events(&count);

	return count >= 1 && count <= 2 &&
	       masks == (FAN_OPEN | FAN_CLOSE_WRITE);
}

static int drained(void)
{
	return empty_group();
}

/* A read-only open: FAN_OPEN alone; a file elsewhere: nothing. */
static int open_only(void)
{
	unsigned int count;
	unsigned long long masks;
	int fd = open(FILE_PATH, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return fail(FILE_PATH);
	close(fd);
	fd = open(OUTSIDE, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0)
		return fail(OUTSIDE);
	if (write(fd, "x", 1) != 1) {
		close(fd);
		return fail("write " OUTSIDE);
	}
	close(fd);
	unlink(OUTSIDE);
	masks = read_events(&count);
	return count == 1 && masks == FAN_OPEN;
}

static int mark_remove(void)
{
	int fd;

	if (fanotify_mark(group, FAN_MARK_REMOVE, MARK_MASK, AT_FDCWD,
			  DIR_PATH))
		return fail("FAN_MARK_REMOVE");
	fd = open(FILE_PATH, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(FILE_PATH);
	close(fd);
	return empty_group();
}

/* The permission group and its answering thread. */
static int perm_group = -1;
static int perm_config;

struct answers {
	unsigned int answered;
	int bad;
};

/* Answers the first open FAN_DENY and the second FAN_ALLOW. */
static void *answer(void *arg)
{
	static const unsigned int verdicts[] = { FAN_DENY, FAN_ALLOW };
	struct answers *a = arg;
	long long deadline = ktap_now_ms() + 10000;

	while (a->answered < ARRAY_SIZE(verdicts)) {
		char buf[4096] __attribute__((aligned(8)));
		struct pollfd p = { .fd = perm_group, .events = POLLIN };
		struct fanotify_event_metadata *md = (void *)buf;
		long long left = deadline - ktap_now_ms();
		ssize_t len;

		if (left <= 0 || poll(&p, 1, (int)left) <= 0)
			break;
		len = read(perm_group, buf, sizeof(buf));
		for (; len > 0 && FAN_EVENT_OK(md, len);
		     md = FAN_EVENT_NEXT(md, len)) {
			struct fanotify_response r = { .fd = md->fd };

			if (!(md->mask & FAN_OPEN_PERM) ||
			    a->answered >= ARRAY_SIZE(verdicts)) {
				a->bad = 1;
				r.response = FAN_ALLOW;
			} else {
				r.response = verdicts[a->answered++];
			}
			if (write(perm_group, &r, sizeof(r)) != sizeof(r))
				a->bad = 1;
			close(md->fd);
		}
	}
	return NULL;
}

static int content_group(void)
{
	perm_config = ktap_kconfig_set("CONFIG_FANOTIFY_ACCESS_PERMISSIONS");
	perm_group = fanotify_init(FAN_CLASS_CONTENT | FAN_CLOEXEC, O_RDONLY);
	if (perm_group < 0)
		return fail("fanotify_init FAN_CLASS_CONTENT");
	ktap_diag("CONFIG_FANOTIFY_ACCESS_PERMISSIONS %s",
		  perm_config ? "set" : "not set");
	return 1;
}

/*
 * With the option: the mark is taken, our open is denied then allowed.
 * Without it: the mark is EINVAL. Three cases either way.
 */
static void perm_cases(void)
{
	struct answers a = { 0, 0 };
	pthread_t thread;
	int marked, denied, allowed, fd, err;

	errno = 0;
	marked = perm_group >= 0 &&
		 !fanotify_mark(perm_group, FAN_MARK_ADD, FAN_OPEN_PERM,
				AT_FDCWD, FILE_PATH);
	err = errno;
	if (!perm_config) {
		ktap_ok(!marked && err == EINVAL,
			"FAN_OPEN_PERM mark is EINVAL without CONFIG_FANOTIFY_ACCESS_PERMISSIONS");
		ktap_skip("CONFIG_FANOTIFY_ACCESS_PERMISSIONS not set",
			  "FAN_OPEN_PERM answered FAN_DENY: open is EPERM");
		ktap_skip("CONFIG_FANOTIFY_ACCESS_PERMISSIONS not set",
			  "FAN_OPEN_PERM answered FAN_ALLOW: open succeeds");
		return;
	}
	if (!ktap_ok(marked, "FAN_OPEN_PERM mark on the file"))
		ktap_diag("fanotify_mark: %s", strerror(err));
	if (!marked || pthread_create(&thread, NULL, answer, &a)) {
		ktap_ok(0, "FAN_OPEN_PERM answered FAN_DENY: open is EPERM");
		ktap_ok(0, "FAN_OPEN_PERM answered FAN_ALLOW: open succeeds");
		return;
	}
	errno = 0;
	fd = open(FILE_PATH, O_RDONLY | O_CLOEXEC);
	denied = fd < 0 && errno == EPERM;
	if (fd >= 0)
		close(fd);
	fd = open(FILE_PATH, O_RDONLY | O_CLOEXEC);
	allowed = fd >= 0;
	if (fd >= 0)
		close(fd);
	pthread_join(thread, NULL);
	ktap_diag("answered %u permission events, unexpected ones %d",
		  a.answered, a.bad);
	ktap_ok(denied && !a.bad,
		"FAN_OPEN_PERM answered FAN_DENY: open is EPERM");
	ktap_ok(allowed && a.answered == 2 && !a.bad,
		"FAN_OPEN_PERM answered FAN_ALLOW: open succeeds");
}

static const struct ktap_case tcases[] = {
	{ "fanotify_init FAN_CLASS_NOTIF, CLOEXEC and NONBLOCK set", init_group },
	{ "empty group: read EAGAIN, no POLLIN, FIONREAD 0", empty_group },
	{ "mark a tmpfs directory FAN_OPEN FAN_CLOSE_WRITE on children", mark_dir },
	{ "fdinfo shows the group flags and the mark's inode and mask", fdinfo },
	{ "create, write and close a file in the directory", touch_file },
	{ "poll says POLLIN", poll_readable },
	{ "FIONREAD counts whole events", fionread },
	{ "lseek is noop_llseek: succeeds, position stays 0", llseek_noop },
	{ "events: version, length, our pid, fd names the file, OPEN and CLOSE_WRITE", events_of_write },
	{ "drained: read EAGAIN, no POLLIN, FIONREAD 0", drained },
	{ "read-only open gives FAN_OPEN alone, a file elsewhere nothing", open_only },
	{ "FAN_MARK_REMOVE: no more events", mark_remove },
	{ "fanotify_init FAN_CLASS_CONTENT", content_group },
};

static void run(void)
{
	ktap_run_cases(tcases, ARRAY_SIZE(tcases));
	perm_cases();
	if (group >= 0)
		close(group);
	if (perm_group >= 0)
		close(perm_group);
	unlink(FILE_PATH);
	rmdir(DIR_PATH);
}

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(tcases) + 3,
	.kconfig = (const char *const[]){ "CONFIG_FANOTIFY", NULL },
	.timeout = 30,
	.run = run,
};
