/* SPDX-License-Identifier: GPL-2.0 */
/*
 * raw-plug.h - plugging a raw_gadget device (usb/raw-device.h) into
 * dummy_hcd and finding what the host side made of it: the interface with
 * the device's ids, the driver bound to it and its node; unplugging it and
 * waiting for both to go, also under a reader blocked in read() (the
 * test's run() installs on_usr1 for SIGUSR1 without SA_RESTART, which
 * ends a read left blocked). Shared by usb/raw-vendor, usb/roccat and the
 * uvc tests.
 */
#ifndef BKLFREE_USB_RAW_PLUG_H
#define BKLFREE_USB_RAW_PLUG_H

#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <sys/inotify.h>

#include "slurp.h"
#include "usb/raw-device.h"

/*
 * Wait at most ms for ready(arg), re-checking when devtmpfs creates or
 * removes a node in /dev or /dev/usb (a bound driver makes its node, an
 * unbound one removes it), and at least every 100 ms for what sysfs alone
 * shows. Returns ready()'s last answer.
 */
static inline int wait_for(int (*ready)(void *), void *arg, unsigned int ms)
{
	long long deadline = ktap_now_ms() + ms;
	struct pollfd p = { .events = POLLIN };
	char ev[4096] __attribute__((aligned(8)));
	int r;

	p.fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (p.fd >= 0)
		inotify_add_watch(p.fd, "/dev", IN_CREATE | IN_DELETE);
	for (;;) {
		long long left;

		if (p.fd >= 0)
			inotify_add_watch(p.fd, "/dev/usb", IN_CREATE | IN_DELETE);
		r = ready(arg);
		left = deadline - ktap_now_ms();
		if (r || left <= 0)
			break;
		if (poll(&p, 1, left < 100 ? (int)left : 100) > 0)
			while (read(p.fd, ev, sizeof(ev)) > 0)
				;
	}
	if (p.fd >= 0)
		close(p.fd);
	return r;
}

/* One plugged-in device and what the host made of it. */
struct plug {
	const struct rd_device *dev;
	const char *driver;	/* the interface driver expected */
	const char *node;	/* a fixed node (misc device), or NULL */
	struct rd_emu *e;
	char intf[272];		/* sysfs name of interface 0 */
	char path[300];		/* the node */
};

/* The sysfs device with our ids: its interface 0 in p->intf. */
static inline int find_intf(struct plug *p)
{
	DIR *d = opendir("/sys/bus/usb/devices");
	struct dirent *de;
	int found = 0;

	while (d && !found && (de = readdir(d))) {
		char path[320], v[16], pid[16];

		if (de->d_name[0] == '.' || strchr(de->d_name, ':'))
			continue;
		snprintf(path, sizeof(path), "/sys/bus/usb/devices/%s/idVendor",
			 de->d_name);
		if (!read_line(path, v, sizeof(v)))
			continue;
		snprintf(path, sizeof(path), "/sys/bus/usb/devices/%s/idProduct",
			 de->d_name);
		if (!read_line(path, pid, sizeof(pid)))
			continue;
		if (strtoul(v, NULL, 16) == p->dev->vid &&
		    strtoul(pid, NULL, 16) == p->dev->pid) {
			snprintf(p->intf, sizeof(p->intf), "%s:1.0", de->d_name);
			found = 1;
		}
	}
	if (d)
		closedir(d);
	return found;
}

/* The driver of interface 0, or "" when none. */
static inline void intf_driver(struct plug *p, char *buf, size_t n)
{
	char path[320], link[256];
	ssize_t len;

	snprintf(path, sizeof(path), "/sys/bus/usb/devices/%s/driver", p->intf);
	len = readlink(path, link, sizeof(link) - 1);
	buf[0] = '\0';
	if (len > 0) {
		link[len] = '\0';
		snprintf(buf, n, "%s", strrchr(link, '/') + 1);
	}
}

/* Bound to the expected driver, and its node is in /dev. */
static inline int bound(void *arg)
{
	struct plug *p = arg;
	char drv[64], dir[320];
	struct dirent *de;
	int v4l = 0;
	DIR *d;

	if (!find_intf(p))
		return 0;
	intf_driver(p, drv, sizeof(drv));
	if (strcmp(drv, p->driver))
		return 0;
	if (p->node) {
		snprintf(p->path, sizeof(p->path), "%s", p->node);
		return !access(p->path, F_OK);
	}
	/*
	 * A USB class driver's node (usbmisc), or a video driver's first
	 * node (video4linux, index 0: uvcvideo's capture node, not its
	 * metadata node).
	 */
	snprintf(dir, sizeof(dir), "/sys/bus/usb/devices/%s/usbmisc", p->intf);
	d = opendir(dir);
	if (!d) {
		snprintf(dir, sizeof(dir), "/sys/bus/usb/devices/%s/video4linux",
			 p->intf);
		d = opendir(dir);
		v4l = 1;
	}
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char *c, index[16], attr[600];

		if (de->d_name[0] == '.')
			continue;
		snprintf(attr, sizeof(attr), "%s/%s/index", dir, de->d_name);
		if (v4l && (!read_line(attr, index, sizeof(index)) ||
			    strcmp(index, "0")))
			continue;
		/* "usb/adutux%d" is named "usb!adutux0" in sysfs */
		for (c = de->d_name; *c; c++)
			if (*c == '!')
				*c = '/';
		snprintf(p->path, sizeof(p->path), "/dev/%s", de->d_name);
		if (access(p->path, F_OK))
			snprintf(p->path, sizeof(p->path), "/dev/usb/%s",
				 de->d_name);
		break;
	}
	closedir(d);
	return p->path[0] && !access(p->path, F_OK);
}

/* The device and its node are gone. */
/*
 * The node and the interface's bus link go before the driver's
 * disconnect() has run to its end (bus_remove_device() drops the link
 * first; idmouse removes its node, then marks itself gone); the USB
 * device ("1-1" of "1-1:1.0") is deleted only after every interface's
 * disconnect returned, so that is what the unplug waits for.
 */
static inline int gone(void *arg)
{
	struct plug *p = arg;
	char path[320];

	snprintf(path, sizeof(path), "/sys/bus/usb/devices/%.*s",
		 (int)strcspn(p->intf, ":"), p->intf);
	return access(path, F_OK) && access(p->path, F_OK);
}

/* Plug the device in; one case: bound to the driver, node there. */
static inline int plug_in(struct plug *p, void *state)
{
	struct rd_msg m;
	char drv[64] = "";
	int ok = 0;

	p->path[0] = '\0';
	p->intf[0] = '\0';
	p->e = rd_start(p->dev, state);
	if (p->e && rd_next(p->e, RD_CONFIGURED, 0, 5000, &m))
		ok = wait_for(bound, p, 5000);
	if (!ok && p->intf[0])
		intf_driver(p, drv, sizeof(drv));
	if (!ok)
		ktap_diag("%s: interface %s, driver '%s', node '%s'",
			  p->dev->name, p->intf[0] ? p->intf : "absent", drv,
			  p->path);
	return ktap_ok(ok, "%s: %04x:%04x bound to %s, %s", p->dev->name,
		       p->dev->vid, p->dev->pid, p->driver,
		       ok ? p->path : "no node");
}

/* Unplug: end the emulator and wait for the interface and node to go. */
static inline int unplug(struct plug *p)
{
	if (!p->e)
		return 0;
	rd_stop(p->e);
	free(p->e);
	p->e = NULL;
	return wait_for(gone, p, 5000);
}

static inline int open_node(struct plug *p, int flags)
{
	int fd = p->path[0] ? open(p->path, flags | O_CLOEXEC) : -1;

	if (fd < 0)
		ktap_diag("open %s: %s", p->path, strerror(errno));
	return fd;
}

/* r failed with errno err. */
static inline int fails(ssize_t r, int err)
{
	return r < 0 && errno == err;
}

static inline short poll_now(int fd, short events)
{
	struct pollfd q = { .fd = fd, .events = events };

	return poll(&q, 1, 0) < 0 ? -1 : q.revents;
}

/* "8 bytes" or "ENODEV" for a read/write result. */
static inline const char *res(ssize_t r, int err, char *buf, size_t n)
{
	if (r >= 0)
		snprintf(buf, n, "%zd", r);
	else
		snprintf(buf, n, "%s", strerrorname_np(err) ?: "?");
	return buf;
}


/* ---- unplugging under a blocked reader --------------------------------- */

struct reader {
	int fd;
	void *buf;
	size_t len;
	ssize_t r;
	int err;
	int done[2];
	pthread_t t;
};

static uint8_t big[1 << 20];
static struct reader rdr;

static inline void *reader_run(void *arg)
{
	struct reader *r = arg;

	r->r = read(r->fd, r->buf ? r->buf : big, r->len);
	r->err = errno;
	if (write(r->done[1], "x", 1) < 0)
		r->err = errno;
	return NULL;
}

static inline int reader_done(struct reader *r, unsigned int ms)
{
	struct pollfd q = { .fd = r->done[0], .events = POLLIN };

	return poll(&q, 1, ms) > 0;
}

static inline void on_usr1(int sig)
{
	(void)sig;
}

/*
 * read() that gives up after ms: a read the device never answers is
 * interrupted by a signal (-1, EINTR, and a diagnostic) so the test goes on.
 */
static inline ssize_t timed_read(int fd, void *buf, size_t len,
				 unsigned int ms)
{
	struct reader r = { .fd = fd, .buf = buf, .len = len, .r = -1 };

	if (pipe2(r.done, O_CLOEXEC) ||
	    pthread_create(&r.t, NULL, reader_run, &r))
		return -1;
	if (!reader_done(&r, ms)) {
		ktap_diag("read(%zu) still blocked after %u ms; interrupting it",
			  len, ms);
		pthread_kill(r.t, SIGUSR1);
		reader_done(&r, 2000);
	}
	pthread_join(r.t, NULL);
	close(r.done[0]);
	close(r.done[1]);
	errno = r.err;
	return r.r;
}

/*
 * Leave a reader in read(fd, len) for block_ms (blocked: it has not
 * returned), unplug, and give it 5 s to return. One case:
 * "unplugged under a blocked read()": the reader was blocked, returned,
 * and read returned want (a count >= 0, or -1 with want_err).
 */
static inline void unplug_reading(struct plug *p, int fd, size_t len,
				  unsigned int block_ms, ssize_t want,
				  int want_err, int alt_err, const char *why)
{
	int blocked = 0, returned = 0, ok;
	char got[32], exp[48];

	rdr.fd = fd;
	rdr.buf = NULL;
	rdr.len = len;
	rdr.r = -2;
	if (pipe2(rdr.done, O_CLOEXEC) ||
	    pthread_create(&rdr.t, NULL, reader_run, &rdr)) {
		ktap_ok(0, "%s: unplugged under a blocked read()", p->dev->name);
		unplug(p);
		return;
	}
	blocked = !reader_done(&rdr, block_ms);
	unplug(p);
	returned = reader_done(&rdr, 5000);
	if (!returned) {
		ktap_diag("%s: reader still in read() 5 s after the unplug; signalling it",
			  p->dev->name);
		pthread_kill(rdr.t, SIGUSR1);
		reader_done(&rdr, 3000);
	}
	pthread_join(rdr.t, NULL);
	close(rdr.done[0]);
	close(rdr.done[1]);
	ok = blocked && returned &&
	     (want >= 0 ? rdr.r == want : rdr.r < 0 &&
	      (rdr.err == want_err || (alt_err && rdr.err == alt_err)));
	res(rdr.r, rdr.err, got, sizeof(got));
	ktap_diag("%s: reader blocked %d, returned within 5 s %d, read gave %s",
		  p->dev->name, blocked, returned, got);
	res(want, want_err, exp, sizeof(exp));
	if (alt_err)
		snprintf(exp + strlen(exp), sizeof(exp) - strlen(exp), " or %s",
			 strerrorname_np(alt_err));
	ktap_ok(ok, "%s: unplugged under a blocked read(): it returns %s within 5 s (%s)",
		p->dev->name, exp, why);
}

/*
 * After the unplug the open descriptor's read gives want_err; close()
 * succeeds, or fails with close_err (a ->flush that reports the unplug).
 */
static inline void stale_read(struct plug *p, int fd, size_t len,
			      int want_err, int close_err)
{
	uint8_t buf[64];
	ssize_t r = timed_read(fd, buf, len < sizeof(buf) ? len : sizeof(buf), 3000);
	int rerr = errno, c = close(fd), cerr = errno;
	char got[32], cgot[32];

	if (!(r < 0 && rerr == want_err) ||
	    (close_err ? !(c < 0 && cerr == close_err) : c != 0))
		ktap_diag("%s: stale read gave %s, close %s", p->dev->name,
			  res(r, rerr, got, sizeof(got)),
			  res(c, cerr, cgot, sizeof(cgot)));
	ktap_ok(r < 0 && rerr == want_err &&
		(close_err ? c < 0 && cerr == close_err : c == 0),
		"%s: after the unplug read() on the open file fails with %s, close() %s%s",
		p->dev->name, strerrorname_np(want_err),
		close_err ? "fails with " : "succeeds",
		close_err ? strerrorname_np(close_err) : "");
}

#endif /* BKLFREE_USB_RAW_PLUG_H */
