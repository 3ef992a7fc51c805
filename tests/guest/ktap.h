/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktap.h - the one helper every guest test includes (like kselftest.h).
 *
 * A test declares what it needs in one struct and a table of cases:
 *
 *	static void run(void) { ... ktap_ok(cond, "desc %s", x); ... }
 *
 *	const struct ktap_test ktap_test = {
 *		.plan = ARRAY_SIZE(tcases),
 *		.devices = (const char *const[]){ "/dev/video0", NULL },
 *		.kconfig = (const char *const[]){ "CONFIG_VIDEO_VIVID", NULL },
 *		.timeout = 30,
 *		.upstream = "9e4d79a98ebd",
 *		.run = run,
 *	};
 *
 * A test made only of independent checks can instead give a table of
 * struct ktap_case rows as .cases (with .plan = ARRAY_SIZE of it) and no
 * .run; main() runs the rows through ktap_run_cases().
 *
 * A test whose number of cases depends on the boot (the targets a profile
 * names on the kernel command line) gives .plan_fn instead of .plan: it is
 * called once the needs are met, before the plan line, and returns the plan.
 *
 * The shared main() prints "KTAP version 1" and the plan, skips the whole
 * test naming the first missing need ("1..0 # SKIP /dev/video0 absent"),
 * arms an alarm for the timeout, runs the cases and exits 0 when every case
 * passed, 1 when any failed or the plan was not met, 4 when all skipped.
 * Never print a result line by hand: use ktap_ok(), ktap_skip(), ktap_bail().
 * A skip fails the boot unless the profile marks the test optional=.
 *
 * "TEST --needs" prints the declared needs, one "device PATH" or "kconfig
 * CONFIG_NAME" line each, and exits 0 without touching anything else: the
 * host checks them against the profiles (tests/host/t0002). Any other
 * argument is a usage error (exit 2).
 *
 * For waiting, bounded and without sleeps: ktap_now_ms() for deadlines and
 * ktap_wait_dev() for devices that show up late. Shared by several tests:
 * ktap_open_dev() (a node, waited for), ktap_seek_fails() (an lseek that
 * must fail with an errno) and ktap_pump() (bytes through a loop of fds).
 */
#ifndef BKLFREE_KTAP_H
#define BKLFREE_KTAP_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <time.h>
#include <unistd.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define KTAP_PASS 0
#define KTAP_FAIL 1
#define KTAP_SKIP 4

/*
 * The common case table: one row per case, a description and a function
 * returning non-zero on success. A failing row with errno set also prints
 * the errno as a diagnostic.
 */
struct ktap_case {
	const char *desc;
	int (*fn)(void);
};

struct ktap_test {
	unsigned int plan;		/* number of ktap_ok/ktap_skip calls */
	const char *const *devices;	/* NULL-terminated paths that must exist */
	const char *const *kconfig;	/* NULL-terminated CONFIG_ names set
					 * =y or =m */
	unsigned int timeout;		/* seconds; 0 means 30 */
	const char *upstream;		/* commit or patch the test guards */
	void (*run)(void);		/* the cases, or NULL to run .cases */
	const struct ktap_case *cases;	/* a table of .plan rows */
	unsigned int (*plan_fn)(void);	/* the plan, when only known at
					 * run time; overrides .plan */
};

/* Defined by the test file. */
extern const struct ktap_test ktap_test;

static unsigned int ktap_count, ktap_failed, ktap_skipped;

static void ktap_vline(const char *prefix, const char *fmt, va_list ap)
{
	fputs(prefix, stdout);
	vprintf(fmt, ap);
}

/* A diagnostic line; fmt has no newline. */
static inline __attribute__((format(printf, 1, 2)))
void ktap_diag(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ktap_vline("# ", fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* One case: "ok N desc" or "not ok N desc". Returns cond. */
static inline __attribute__((format(printf, 2, 3)))
int ktap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	ktap_count++;
	if (!cond)
		ktap_failed++;
	printf("%s %u ", cond ? "ok" : "not ok", ktap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	return cond;
}

/* One skipped case: "ok N desc # SKIP reason". */
static inline __attribute__((format(printf, 2, 3)))
void ktap_skip(const char *reason, const char *fmt, ...)
{
	va_list ap;

	ktap_count++;
	ktap_skipped++;
	printf("ok %u ", ktap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(" # SKIP %s\n", reason);
}

/* The test cannot go on: "Bail out! reason", exit as failed. */
static inline __attribute__((format(printf, 1, 2), noreturn))
void ktap_bail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ktap_vline("Bail out! ", fmt, ap);
	va_end(ap);
	putchar('\n');
	exit(KTAP_FAIL);
}

/* "what: strerror" for a failed call, as a diagnostic. Returns -1. */
static inline int ktap_perror(const char *what)
{
	ktap_diag("%s: %s", what, strerror(errno));
	return -1;
}

static inline void ktap_run_cases(const struct ktap_case *c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		errno = 0;
		if (!ktap_ok(c[i].fn(), "%s", c[i].desc) && errno)
			ktap_perror(c[i].desc);
	}
}

/* Milliseconds on CLOCK_MONOTONIC, for deadlines and durations. */
static inline long long ktap_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* What the ready() of ktap_wait_dev() answers. */
enum {
	KTAP_READY = 1,		/* stop waiting: found, or no use waiting */
	KTAP_WAIT = 0,		/* wait for devtmpfs to create a node */
	KTAP_BUSY = -1,		/* a node is there but does not open yet */
};

/*
 * Devices show up late (USB enumerates, disks probe asynchronously) and
 * the lab kernel has no networking, so no uevent socket: devtmpfs's mknod
 * is the event. Waits at most ms milliseconds for ready(arg) to answer
 * KTAP_READY: ready() is called at once and again whenever devtmpfs creates
 * an entry in /dev or in subdir (NULL: none; /dev/bsg, /dev/usb, watched
 * from when it appears), and at once again, after sched_yield(), while it
 * answers KTAP_BUSY. That is for a node in the window between device_add(),
 * which makes it, and the driver making it openable (a tty's cdev,
 * bdev_add()): open() fails with ENXIO and nothing happens that could be
 * waited on. Without inotify ready() is called once. Returns how many times
 * ready() was called; errno is as the last call left it.
 */
static inline unsigned int ktap_wait_dev(const char *subdir,
					 int (*ready)(void *), void *arg,
					 unsigned int ms)
{
	long long deadline = ktap_now_ms() + ms;
	struct pollfd p = { .events = POLLIN };
	unsigned int calls = 0;
	int r, err;

	p.fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (p.fd >= 0 && inotify_add_watch(p.fd, "/dev", IN_CREATE) < 0) {
		close(p.fd);
		p.fd = -1;
	}
	if (p.fd < 0)
		ktap_perror("inotify on /dev");
	for (;;) {
		char ev[4096] __attribute__((aligned(8)));
		long long left;

		if (p.fd >= 0 && subdir)
			inotify_add_watch(p.fd, subdir, IN_CREATE);
		r = ready(arg);
		calls++;
		left = deadline - ktap_now_ms();
		if (r == KTAP_READY || left <= 0 || p.fd < 0)
			break;
		if (r == KTAP_BUSY)
			sched_yield();
		if (poll(&p, 1, r == KTAP_BUSY ? 0 : (int)left) > 0)
			while (read(p.fd, ev, sizeof(ev)) > 0)
				;
	}
	err = errno;
	if (p.fd >= 0)
		close(p.fd);
	errno = err;
	return calls;
}

/* ktap_wait_dev()'s ready() for one path: there yet? */
static int ktap_dev_there(void *path)
{
	return access(path, F_OK) ? KTAP_WAIT : KTAP_READY;
}

/*
 * A needed device may still be probing when the test starts (a module's
 * driver probes from a work item, USB enumerates): wait for its node at
 * most KTAP_DEV_WAIT_MS, watching its directory, before calling it absent.
 */
#define KTAP_DEV_WAIT_MS 3000

static int ktap_dev_present(const char *path)
{
	char dir[256];
	char *slash;

	if (!access(path, F_OK))
		return 1;
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	ktap_wait_dev(strcmp(dir, "/dev") ? dir : NULL, ktap_dev_there,
		      (void *)path, KTAP_DEV_WAIT_MS);
	return !access(path, F_OK);
}

/* Open a device node (waiting for it as above), or say why not: -1. */
static inline int ktap_open_dev(const char *path, int flags)
{
	int fd;

	if (!ktap_dev_present(path)) {
		ktap_diag("%s absent", path);
		return -1;
	}
	fd = open(path, flags | O_CLOEXEC);
	if (fd < 0)
		ktap_diag("open %s: %s", path, strerror(errno));
	return fd;
}

/* lseek(fd, off, whence) fails with err, or a diagnostic says what it did. */
static inline int ktap_seek_fails(int fd, off_t off, int whence, int err)
{
	off_t r;

	errno = 0;
	r = lseek(fd, off, whence);
	if (r == -1 && errno == err)
		return 1;
	ktap_diag("lseek(%lld, %d): %lld (%s), want %s", (long long)off,
		  whence, (long long)r, strerror(errno), strerrorname_np(err));
	return 0;
}

/*
 * Write len bytes of src on out while reading len bytes into dst from in
 * (both non-blocking, as through a loop), for at most ms milliseconds or
 * until an error other than EAGAIN. Returns the bytes read; a diagnostic
 * says what was sent and read when it is short.
 */
static inline size_t ktap_pump(int out, int in, const unsigned char *src,
			       unsigned char *dst, size_t len, int ms)
{
	long long end = ktap_now_ms() + ms;
	size_t sent = 0, got = 0;
	int err = 0;

	while (got < len) {
		struct pollfd pfd[2] = {
			{ .fd = in, .events = POLLIN },
			{ .fd = sent < len ? out : -1, .events = POLLOUT },
		};
		long long left = end - ktap_now_ms();
		ssize_t n;

		if (left <= 0 || poll(pfd, 2, left) <= 0)
			break;
		if (pfd[1].revents & POLLOUT) {
			n = write(out, src + sent, len - sent);
			if (n > 0) {
				sent += n;
			} else if (n < 0 && errno != EAGAIN) {
				err = errno;
				break;
			}
		}
		if (pfd[0].revents & POLLIN) {
			n = read(in, dst + got, len - got);
			if (n > 0) {
				got += n;
			} else if (n < 0 && errno != EAGAIN) {
				err = errno;
				break;
			}
		}
	}
	if (got < len)
		ktap_diag("sent %zu of %zu bytes, received %zu in %d ms%s%s",
			  sent, len, got, ms, err ? ": " : "",
			  err ? strerror(err) : "");
	return got;
}

static int ktap_kconfig_set(const char *name)
{
	size_t len = strlen(name);
	char line[256];
	int found = 0;
	FILE *f;

	f = popen("zcat /proc/config.gz 2>/dev/null", "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, name, len) && (!strcmp(line + len, "=y\n") ||
						  !strcmp(line + len, "=m\n")))
			found = 1;
	pclose(f);
	return found;
}

static void ktap_on_alarm(int sig)
{
	static const char msg[] = "Bail out! timeout\n";

	(void)sig;
	if (write(STDOUT_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(KTAP_FAIL);
	_exit(KTAP_FAIL);
}

/* --needs: the declared needs, for the host; nothing else is done. */
static int ktap_print_needs(const struct ktap_test *t)
{
	const char *const *p;

	for (p = t->devices; p && *p; p++)
		printf("device %s\n", *p);
	for (p = t->kconfig; p && *p; p++)
		printf("kconfig %s\n", *p);
	return fflush(stdout) ? KTAP_FAIL : KTAP_PASS;
}

int main(int argc, char **argv)
{
	const struct ktap_test *t = &ktap_test;
	const char *const *p;
	unsigned int plan;

	if (argc == 2 && !strcmp(argv[1], "--needs"))
		return ktap_print_needs(t);
	if (argc > 1) {
		fprintf(stderr, "usage: %s [--needs]\n", argv[0]);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	puts("KTAP version 1");
	if (t->upstream)
		ktap_diag("guards %s", t->upstream);
	for (p = t->devices; p && *p; p++) {
		if (!ktap_dev_present(*p)) {
			printf("1..0 # SKIP %s absent\n", *p);
			return KTAP_SKIP;
		}
	}
	for (p = t->kconfig; p && *p; p++) {
		if (!ktap_kconfig_set(*p)) {
			printf("1..0 # SKIP %s not set\n", *p);
			return KTAP_SKIP;
		}
	}
	plan = t->plan_fn ? t->plan_fn() : t->plan;
	printf("1..%u\n", plan);
	signal(SIGALRM, ktap_on_alarm);
	alarm(t->timeout ? t->timeout : 30);
	if (t->run)
		t->run();
	else
		ktap_run_cases(t->cases, plan);
	alarm(0);
	if (ktap_count != plan) {
		ktap_diag("planned %u cases, ran %u", plan, ktap_count);
		return KTAP_FAIL;
	}
	if (ktap_failed)
		return KTAP_FAIL;
	if (ktap_skipped == ktap_count && ktap_count)
		return KTAP_SKIP;
	return KTAP_PASS;
}

#endif /* BKLFREE_KTAP_H */
