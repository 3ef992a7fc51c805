/* SPDX-License-Identifier: GPL-2.0 */
/*
 * raw-device.h - a small USB device emulator over raw_gadget
 * (drivers/usb/gadget/legacy/raw_gadget.c, /dev/raw-gadget) on dummy_hcd's
 * virtual device controller, so that a guest test can be the vendor device
 * a host-side driver's id table asks for.
 *
 * A device is a struct rd_device: its ids, strings, one interface (class
 * triple, class-specific descriptors, up to RD_MAX_EPS endpoints; for a HID
 * interface the report descriptor the host asks for by GET_DESCRIPTOR),
 * optionally interfaces without endpoints before it (a UVC camera's
 * VideoControl interface), and the hooks that play its protocol.
 * rd_start() forks the emulator: a child process that opens
 * /dev/raw-gadget, binds to dummy_udc.0 at full speed and answers the
 * host's control requests from its event loop (standard ones itself, class
 * and vendor ones through ->control, unknown ones with a stall). When the
 * host sets configuration 1 it enables the endpoints and starts one thread
 * per endpoint: an OUT thread reads what the host sends, a packet at a
 * time, and hands it to ->out; an IN thread writes what ->fill produces,
 * or else what rd_send() queued for that endpoint (a pipe, so both the
 * test and the child's hooks can queue). The child reports to the test
 * through a second pipe: the configuration, every class or vendor
 * control request with its data, and every OUT transfer (rd_next() waits
 * for one, bounded).
 *
 * rd_stop() is the unplug: SIGKILL ends the child, its raw-gadget file is
 * released, raw_gadget unregisters the gadget driver and dummy_hcd sees the
 * device disconnect. Every ioctl the child blocks in (EVENT_FETCH, EP_READ,
 * EP_WRITE) waits interruptibly, so the kill always ends it; the child also
 * dies with the test (PR_SET_PDEATHSIG).
 */
#ifndef BKLFREE_USB_RAW_DEVICE_H
#define BKLFREE_USB_RAW_DEVICE_H

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <linux/hid.h>
#include <linux/usb/ch9.h>
#include <linux/usb/raw_gadget.h>

#include "ktap.h"

#define RD_MAX_EPS	4
#define RD_MAX_DATA	2048	/* bytes of a transfer reported to the test */
#define RD_BUF		8192	/* largest transfer the emulator moves */

struct rd_emu;

struct rd_ep {
	uint8_t addr;		/* bEndpointAddress */
	uint8_t type;		/* USB_ENDPOINT_XFER_BULK or _INT */
	uint16_t maxp;
	uint8_t interval;
};

struct rd_device {
	const char *name;
	uint16_t vid, pid, bcd;
	uint8_t if_class, if_subclass, if_protocol;
	const uint8_t *extra;	/* class descriptors after the interface's */
	unsigned int extra_len;
	const uint8_t *report;	/* HID report descriptor, or NULL */
	unsigned int report_len;
	/*
	 * Descriptors between the configuration's and the interface's:
	 * pre_interfaces whole interfaces without endpoints, numbered from
	 * 0; the interface above is then number pre_interfaces.
	 */
	const uint8_t *pre;
	unsigned int pre_len, pre_interfaces;
	/*
	 * The emulator closes the test's other files: a node the test
	 * opened before plugging this device in is then released by the
	 * test's close(), not later by the emulator's exit.
	 */
	int close_fds;
	const char *manufacturer, *product, *serial;	/* serial may be NULL */
	unsigned int nep;
	struct rd_ep ep[RD_MAX_EPS];
	/*
	 * A class or vendor request: out holds the host's data stage (OUT).
	 * For an IN request write at most c->wLength bytes to in and return
	 * how many; return 0 to acknowledge an OUT request; < 0 stalls.
	 * NULL: every such request is stalled.
	 */
	int (*control)(struct rd_emu *e, const struct usb_ctrlrequest *c,
		       const uint8_t *out, unsigned int outlen, uint8_t *in);
	/* Data the host sent on OUT endpoint index i. */
	void (*out)(struct rd_emu *e, unsigned int i, const uint8_t *data,
		    unsigned int len);
	/*
	 * IN endpoint index i: fill buf with the next transfer and return its
	 * length, or < 0 to take transfers from the endpoint's queue instead.
	 */
	int (*fill)(struct rd_emu *e, unsigned int i, uint8_t *buf,
		    unsigned int max);
};

/* What the child reports. */
enum rd_kind {
	RD_CONFIGURED = 1,	/* SET_CONFIGURATION 1 done, endpoints enabled */
	RD_CONTROL,		/* a class or vendor request (and OUT data) */
	RD_OUT,			/* a transfer on OUT endpoint .ep */
	RD_FAILED,		/* the emulator could not go on; data says why */
};

struct rd_msg {
	uint8_t kind;
	uint8_t ep;
	uint16_t len;
	struct usb_ctrlrequest setup;
	uint8_t data[RD_MAX_DATA];
};

struct rd_emu {
	const struct rd_device *dev;
	pid_t pid;
	int report[2];			/* child -> test */
	int queue[RD_MAX_EPS][2];	/* IN endpoint queues */
	/* In the child only: */
	int fd;
	int handle[RD_MAX_EPS];		/* raw_gadget endpoint handles */
	void *state;			/* for the hooks */
};

/* ---- the child ---------------------------------------------------------- */

static void rd_report(struct rd_emu *e, uint8_t kind, uint8_t ep,
		      const struct usb_ctrlrequest *setup, const void *data,
		      unsigned int len)
{
	struct rd_msg m = { .kind = kind, .ep = ep };
	size_t n;

	if (len > RD_MAX_DATA)
		len = RD_MAX_DATA;
	m.len = len;
	if (setup)
		m.setup = *setup;
	if (len)
		memcpy(m.data, data, len);
	n = offsetof(struct rd_msg, data) + len;
	/* atomic (<= PIPE_BUF), non-blocking: dropped when nobody reads */
	if (write(e->report[1], &m, n) < 0)
		return;
}

static void rd_fail(struct rd_emu *e, const char *what)
{
	char msg[128];

	snprintf(msg, sizeof(msg), "%s: %s", what, strerror(errno));
	rd_report(e, RD_FAILED, 0, NULL, msg, strlen(msg) + 1);
	_exit(1);
}

/* Queue one transfer for IN endpoint index i (test or hooks). */
static inline int rd_send(struct rd_emu *e, unsigned int i, const void *data,
		   unsigned int len)
{
	uint8_t buf[2 + 2048];

	if (i >= RD_MAX_EPS || len > 2048)
		return -1;
	buf[0] = len & 0xff;
	buf[1] = len >> 8;
	memcpy(buf + 2, data, len);
	return write(e->queue[i][1], buf, 2 + len) == (ssize_t)(2 + len) ? 0 : -1;
}

struct rd_io {
	struct usb_raw_ep_io io;
	uint8_t data[RD_BUF];
};

static int rd_ep0_write(struct rd_emu *e, const void *data, unsigned int len)
{
	struct rd_io b = { .io.ep = 0, .io.length = len };

	memcpy(b.data, data, len);
	return ioctl(e->fd, USB_RAW_IOCTL_EP0_WRITE, &b);
}

static int rd_ep0_read(struct rd_emu *e, void *data, unsigned int len)
{
	struct rd_io b = { .io.ep = 0, .io.length = len };
	int r = ioctl(e->fd, USB_RAW_IOCTL_EP0_READ, &b);

	if (r > 0)
		memcpy(data, b.data, r);
	return r;
}

struct rd_thread_arg {
	struct rd_emu *e;
	unsigned int i;
};

static int rd_read_full(int fd, void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t r = read(fd, (uint8_t *)buf + done, len - done);

		if (r <= 0)
			return -1;
		done += r;
	}
	return 0;
}

static void *rd_in_thread(void *p)
{
	struct rd_thread_arg *a = p;
	struct rd_emu *e = a->e;
	static __thread struct rd_io b;
	int n;

	for (;;) {
		n = e->dev->fill ? e->dev->fill(e, a->i, b.data, RD_BUF) : -1;
		if (n < 0) {
			uint8_t hdr[2];

			if (rd_read_full(e->queue[a->i][0], hdr, 2))
				return NULL;
			n = hdr[0] | hdr[1] << 8;
			if (rd_read_full(e->queue[a->i][0], b.data, n))
				return NULL;
		}
		b.io.ep = e->handle[a->i];
		b.io.flags = 0;
		b.io.length = n;
		if (ioctl(e->fd, USB_RAW_IOCTL_EP_WRITE, &b) < 0)
			return NULL;
	}
}

static void *rd_out_thread(void *p)
{
	struct rd_thread_arg *a = p;
	struct rd_emu *e = a->e;
	static __thread struct rd_io b;
	int n;

	for (;;) {
		/*
		 * One packet at a time: a transfer of exactly wMaxPacketSize
		 * bytes has no short packet to end a longer request.
		 */
		b.io.ep = e->handle[a->i];
		b.io.flags = 0;
		b.io.length = e->dev->ep[a->i].maxp;
		n = ioctl(e->fd, USB_RAW_IOCTL_EP_READ, &b);
		if (n < 0)
			return NULL;
		rd_report(e, RD_OUT, a->i, NULL, b.data, n);
		if (e->dev->out)
			e->dev->out(e, a->i, b.data, n);
	}
}

static void rd_put16(uint8_t *p, uint16_t v)
{
	p[0] = v & 0xff;
	p[1] = v >> 8;
}

static unsigned int rd_config_desc(const struct rd_device *d, uint8_t *p)
{
	unsigned int n = 0, i;

	p[n++] = USB_DT_CONFIG_SIZE;
	p[n++] = USB_DT_CONFIG;
	n += 2;					/* wTotalLength, below */
	p[n++] = 1 + d->pre_interfaces;		/* bNumInterfaces */
	p[n++] = 1;				/* bConfigurationValue */
	p[n++] = 0;				/* iConfiguration */
	p[n++] = USB_CONFIG_ATT_ONE;
	p[n++] = 50;				/* 100 mA */
	if (d->pre_len)
		memcpy(p + n, d->pre, d->pre_len);
	n += d->pre_len;
	p[n++] = USB_DT_INTERFACE_SIZE;
	p[n++] = USB_DT_INTERFACE;
	p[n++] = d->pre_interfaces;		/* bInterfaceNumber */
	p[n++] = 0;				/* bAlternateSetting */
	p[n++] = d->nep;
	p[n++] = d->if_class;
	p[n++] = d->if_subclass;
	p[n++] = d->if_protocol;
	p[n++] = 0;				/* iInterface */
	memcpy(p + n, d->extra, d->extra_len);
	n += d->extra_len;
	for (i = 0; i < d->nep; i++) {
		p[n++] = USB_DT_ENDPOINT_SIZE;
		p[n++] = USB_DT_ENDPOINT;
		p[n++] = d->ep[i].addr;
		p[n++] = d->ep[i].type;
		rd_put16(p + n, d->ep[i].maxp);
		n += 2;
		p[n++] = d->ep[i].interval;
	}
	rd_put16(p + 2, n);
	return n;
}

static unsigned int rd_string_desc(const struct rd_device *d, unsigned int idx,
				   uint8_t *p)
{
	const char *s = idx == 1 ? d->manufacturer : idx == 2 ? d->product :
			idx == 3 ? d->serial : NULL;
	unsigned int n = 2;

	if (idx == 0) {
		p[0] = 4;
		p[1] = USB_DT_STRING;
		rd_put16(p + 2, 0x0409);
		return 4;
	}
	if (!s)
		return 0;
	for (; *s && n < 254; s++, n += 2)
		rd_put16(p + n, (uint8_t)*s);
	p[0] = n;
	p[1] = USB_DT_STRING;
	return n;
}

/* Enable every endpoint and start its thread (SET_CONFIGURATION 1). */
static void rd_configure(struct rd_emu *e)
{
	static struct rd_thread_arg args[RD_MAX_EPS];
	const struct rd_device *d = e->dev;
	unsigned int i;

	for (i = 0; i < d->nep; i++) {
		struct usb_endpoint_descriptor ep = {
			.bLength = USB_DT_ENDPOINT_SIZE,
			.bDescriptorType = USB_DT_ENDPOINT,
			.bEndpointAddress = d->ep[i].addr,
			.bmAttributes = d->ep[i].type,
			.wMaxPacketSize = d->ep[i].maxp,
			.bInterval = d->ep[i].interval,
		};
		pthread_t t;

		e->handle[i] = ioctl(e->fd, USB_RAW_IOCTL_EP_ENABLE, &ep);
		if (e->handle[i] < 0)
			rd_fail(e, "EP_ENABLE");
		args[i].e = e;
		args[i].i = i;
		if (pthread_create(&t, NULL, d->ep[i].addr & USB_DIR_IN ?
				   rd_in_thread : rd_out_thread, &args[i]))
			rd_fail(e, "pthread_create");
	}
	if (ioctl(e->fd, USB_RAW_IOCTL_VBUS_DRAW, 50) < 0)
		rd_fail(e, "VBUS_DRAW");
	if (ioctl(e->fd, USB_RAW_IOCTL_CONFIGURE, 0) < 0)
		rd_fail(e, "CONFIGURE");
}

/* A standard request: answer length, 0 to acknowledge, < 0 to stall. */
static int rd_standard(struct rd_emu *e, const struct usb_ctrlrequest *c,
		       uint8_t *in, int *configured)
{
	const struct rd_device *d = e->dev;

	switch (c->bRequest) {
	case USB_REQ_GET_DESCRIPTOR:
		switch (c->wValue >> 8) {
		case USB_DT_DEVICE: {
			struct usb_device_descriptor dd = {
				.bLength = USB_DT_DEVICE_SIZE,
				.bDescriptorType = USB_DT_DEVICE,
				.bcdUSB = 0x0110,
				.bMaxPacketSize0 = 64,
				.idVendor = d->vid,
				.idProduct = d->pid,
				.bcdDevice = d->bcd,
				.iManufacturer = 1,
				.iProduct = 2,
				.iSerialNumber = d->serial ? 3 : 0,
				.bNumConfigurations = 1,
			};

			memcpy(in, &dd, sizeof(dd));
			return sizeof(dd);
		}
		case USB_DT_CONFIG:
			return rd_config_desc(d, in);
		case USB_DT_STRING: {
			int n = rd_string_desc(d, c->wValue & 0xff, in);

			return n ? n : -1;
		}
		case HID_DT_REPORT:
			if (!d->report)
				return -1;
			memcpy(in, d->report, d->report_len);
			return d->report_len;
		}
		return -1;
	case USB_REQ_SET_CONFIGURATION:
		if (c->wValue == 1 && !*configured) {
			rd_configure(e);
			*configured = 1;
		}
		return 0;
	case USB_REQ_GET_CONFIGURATION:
		in[0] = *configured;
		return 1;
	case USB_REQ_SET_INTERFACE:
		return 0;
	case USB_REQ_GET_INTERFACE:
		in[0] = 0;
		return 1;
	case USB_REQ_GET_STATUS:
		in[0] = in[1] = 0;
		return 2;
	}
	return -1;
}

static __attribute__((noreturn)) void rd_child(struct rd_emu *e)
{
	struct {
		struct usb_raw_event ev;
		uint8_t data[sizeof(struct usb_ctrlrequest)];
	} ev;
	struct usb_raw_init init = { .speed = USB_SPEED_FULL };
	static uint8_t in[RD_BUF], out[RD_BUF];
	int configured = 0, was_configured = 0;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/*
	 * The lab kernel has one CPU and no preemption: a driver that
	 * busy-waits for the device's answer (pcwd_usb's mdelay loop) only
	 * gets it if the emulator runs first when the control transfer
	 * completes. Real-time threads (every thread inherits it) do.
	 */
	sched_setscheduler(0, SCHED_FIFO, &(struct sched_param){ .sched_priority = 10 });
	e->fd = open("/dev/raw-gadget", O_RDWR);
	if (e->fd < 0)
		rd_fail(e, "open /dev/raw-gadget");
	strcpy((char *)init.driver_name, "dummy_udc");
	strcpy((char *)init.device_name, "dummy_udc.0");
	if (ioctl(e->fd, USB_RAW_IOCTL_INIT, &init) < 0)
		rd_fail(e, "INIT");
	if (ioctl(e->fd, USB_RAW_IOCTL_RUN, 0) < 0)
		rd_fail(e, "RUN");
	for (;;) {
		const struct usb_ctrlrequest *c = (void *)ev.data;
		unsigned int len, outlen = 0;
		int r;

		ev.ev.type = 0;
		ev.ev.length = sizeof(ev.data);
		if (ioctl(e->fd, USB_RAW_IOCTL_EVENT_FETCH, &ev) < 0)
			rd_fail(e, "EVENT_FETCH");
		if (ev.ev.type != USB_RAW_EVENT_CONTROL)
			continue;
		len = c->wLength;
		if (len > RD_BUF)
			len = RD_BUF;
		if ((c->bRequestType & USB_TYPE_MASK) == USB_TYPE_STANDARD) {
			r = rd_standard(e, c, in, &configured);
		} else {
			if (!(c->bRequestType & USB_DIR_IN) && len) {
				r = rd_ep0_read(e, out, len);
				if (r < 0)
					continue;
				outlen = r;
			}
			rd_report(e, RD_CONTROL, 0, c, out, outlen);
			r = e->dev->control ?
			    e->dev->control(e, c, out, outlen, in) : -1;
			if (outlen)	/* the data stage acknowledged it */
				continue;
		}
		if (r < 0) {
			ioctl(e->fd, USB_RAW_IOCTL_EP0_STALL, 0);
		} else if (c->bRequestType & USB_DIR_IN && len) {
			rd_ep0_write(e, in, (unsigned int)r < len ? (unsigned int)r : len);
		} else {
			rd_ep0_read(e, out, 0);
		}
		if (configured && !was_configured) {
			was_configured = 1;
			rd_report(e, RD_CONFIGURED, 0, NULL, NULL, 0);
		}
	}
}

/* In the child: close every file but stdio and the emulator's pipes. */
static void rd_close_others(struct rd_emu *e)
{
	int fd, i, keep;

	for (fd = 3; fd < 1024; fd++) {
		keep = fd == e->report[1];
		for (i = 0; i < RD_MAX_EPS; i++)
			keep |= fd == e->queue[i][0] || fd == e->queue[i][1];
		if (!keep)
			close(fd);
	}
}

/* ---- the test ----------------------------------------------------------- */

/* Plug the device in: fork the emulator. NULL (and a diagnostic) on error. */
static struct rd_emu *rd_start(const struct rd_device *d, void *state)
{
	struct rd_emu *e = calloc(1, sizeof(*e));
	unsigned int i;

	if (!e)
		return NULL;
	e->dev = d;
	e->state = state;
	if (pipe2(e->report, O_CLOEXEC))
		goto fail;
	for (i = 0; i < RD_MAX_EPS; i++)
		if (pipe2(e->queue[i], O_CLOEXEC))
			goto fail;
	fflush(stdout);
	e->pid = fork();
	if (e->pid < 0)
		goto fail;
	if (!e->pid) {
		close(e->report[0]);
		fcntl(e->report[1], F_SETFL, O_NONBLOCK);
		if (d->close_fds)
			rd_close_others(e);
		rd_child(e);
	}
	close(e->report[1]);
	return e;
fail:
	ktap_perror("rd_start");
	free(e);
	return NULL;
}

/*
 * The next report of kind (and endpoint index ep for RD_OUT) within ms
 * milliseconds; other reports are dropped. 1 when found, 0 on timeout or
 * when the emulator ended (a RD_FAILED report is printed).
 */
static int rd_next(struct rd_emu *e, int kind, int ep, unsigned int ms,
		   struct rd_msg *m)
{
	long long deadline = ktap_now_ms() + ms;
	struct pollfd p = { .fd = e->report[0], .events = POLLIN };
	size_t hdr = offsetof(struct rd_msg, data);

	for (;;) {
		long long left = deadline - ktap_now_ms();

		if (left < 0 || poll(&p, 1, (int)left) <= 0)
			return 0;
		if (rd_read_full(e->report[0], m, hdr) ||
		    (m->len && rd_read_full(e->report[0], m->data, m->len)))
			return 0;
		if (m->kind == RD_FAILED) {
			ktap_diag("%s emulator: %.*s", e->dev->name, m->len,
				  (char *)m->data);
			return 0;
		}
		if (m->kind == kind && (kind != RD_OUT || m->ep == ep))
			return 1;
	}
}

/* Unplug: end the emulator; its raw-gadget file goes and the device too. */
static void rd_stop(struct rd_emu *e)
{
	unsigned int i;

	if (e->pid > 0) {
		kill(e->pid, SIGKILL);
		waitpid(e->pid, NULL, 0);
		e->pid = 0;
	}
	for (i = 0; i < RD_MAX_EPS; i++) {
		close(e->queue[i][0]);
		close(e->queue[i][1]);
		e->queue[i][0] = e->queue[i][1] = -1;
	}
	close(e->report[0]);
	e->report[0] = -1;
}

#endif /* BKLFREE_USB_RAW_DEVICE_H */
