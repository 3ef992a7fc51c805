// SPDX-License-Identifier: GPL-2.0
/*
 * vivid-thread-sequence - the sequence numbers of vivid's other paced
 * streams: SDR capture, video output and touch capture (media-soft.profile:
 * vivid node_types=0x80121). media/vivid-sequence covers video capture.
 *
 * The four vivid threads that pace a stream by jiffies share one loop, and
 * on 6.1 each sleeps until a deadline counted from before the buffer's
 * work: it wakes early by the work's time and, when that is half a buffer
 * period or more, gives the next buffer the same sequence number
 * (patches/drivers/0201). Sequence numbers of a stream must rise: a drop
 * leaves a gap, a number is never repeated.
 *
 * Only the capture thread's repeats show under TCG (media/vivid-sequence).
 * The output and touch threads do little per buffer (and touch is paced at
 * a fixed 10 buffers a second). The SDR thread fills a buffer in about 9 ms
 * here, but at eight ADC rates whose buffer period was 1.05 to 2.5 times
 * that, 6.1 repeated no number: the thread ran late or ahead instead, its
 * early wake-ups landing after the deadline had passed. So this test
 * streams the three at their default rates and checks that their
 * numbers rise, on both kernels: a regression check for 0201's change to
 * these threads, not a reproducer.
 */
#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <linux/videodev2.h>

#include "ktap.h"

#define NBUFS		8
#define STREAM_MS	1500
#define MIN_BUFS	5
/* Bad buffers described one by one in each stream; the rest are counted. */
#define MAX_DIAG	4

struct node {
	const char *what;
	char path[32];
	enum v4l2_buf_type type;
	int fd;
	/* what its stream delivered */
	unsigned int bufs, dups, backs, gaps, errors;
};

static struct node sdr = { "SDR capture", "/dev/swradio0",
			   V4L2_BUF_TYPE_SDR_CAPTURE, -1, 0, 0, 0, 0, 0 };
static struct node out = { "video output", "", V4L2_BUF_TYPE_VIDEO_OUTPUT,
			   -1, 0, 0, 0, 0, 0 };
static struct node touch = { "touch capture", "/dev/v4l-touch0",
			     V4L2_BUF_TYPE_VIDEO_CAPTURE, -1, 0, 0, 0, 0, 0 };

/* ioctl on n's node; says which failed and why. */
static int nioctl(struct node *n, unsigned long req, void *arg,
		  const char *name)
{
	if (ioctl(n->fd, req, arg) == 0)
		return 1;
	ktap_diag("%s: %s: %s", n->path, name, strerror(errno));
	return 0;
}

/* Opens n->path: 1 when vivid answers QUERYCAP with device_caps in want. */
static int node_open(struct node *n, unsigned int want)
{
	struct v4l2_capability cap = { 0 };

	n->fd = open(n->path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (n->fd < 0) {
		ktap_diag("open %s: %s", n->path, strerror(errno));
		return 0;
	}
	if (!nioctl(n, VIDIOC_QUERYCAP, &cap, "VIDIOC_QUERYCAP"))
		return 0;
	if (strcmp((char *)cap.driver, "vivid") || !(cap.device_caps & want)) {
		close(n->fd);
		n->fd = -1;
		return 0;
	}
	ktap_diag("%s: %s, %.32s", n->what, n->path, cap.card);
	return 1;
}

/* The /dev/videoN vivid made as a video output. */
static int find_output(void)
{
	unsigned int i;

	for (i = 0; i < 8; i++) {
		snprintf(out.path, sizeof(out.path), "/dev/video%u", i);
		if (access(out.path, F_OK) == 0 &&
		    node_open(&out, V4L2_CAP_VIDEO_OUTPUT))
			return 1;
	}
	ktap_diag("no vivid video output among /dev/video0-7");
	return 0;
}

static int nodes(void)
{
	int ok = node_open(&sdr, V4L2_CAP_SDR_CAPTURE);

	ok = find_output() && ok;
	return node_open(&touch, V4L2_CAP_TOUCH) && ok;
}

/* QBUF buffer i of n; an output buffer carries a whole payload. */
static int queue(struct node *n, unsigned int i)
{
	struct v4l2_buffer b = {
		.index = i, .type = n->type, .memory = V4L2_MEMORY_MMAP,
	};

	if (!nioctl(n, VIDIOC_QUERYBUF, &b, "VIDIOC_QUERYBUF"))
		return 0;
	b.bytesused = b.length;
	return nioctl(n, VIDIOC_QBUF, &b, "VIDIOC_QBUF");
}

/* Dequeue and queue again until ms have passed, counting. */
static void dequeue(struct node *n, unsigned int ms)
{
	short ev = n->type == V4L2_BUF_TYPE_VIDEO_OUTPUT ? POLLOUT : POLLIN;
	struct pollfd p = { .fd = n->fd, .events = ev };
	long long last = -1, end = ktap_now_ms() + ms;

	for (;;) {
		struct v4l2_buffer b = {
			.type = n->type, .memory = V4L2_MEMORY_MMAP,
		};
		long long left = end - ktap_now_ms();

		if (left <= 0)
			break;
		if (poll(&p, 1, (int)left) != 1)
			continue;
		if (!nioctl(n, VIDIOC_DQBUF, &b, "VIDIOC_DQBUF")) {
			n->errors++;
			break;
		}
		if (((long long)b.sequence <= last ||
		     (b.flags & V4L2_BUF_FLAG_ERROR)) &&
		    n->dups + n->backs + n->errors < MAX_DIAG)
			ktap_diag("%s buffer %u: sequence %u after %lld, flags 0x%x",
				  n->what, n->bufs, b.sequence, last, b.flags);
		if ((long long)b.sequence == last)
			n->dups++;
		else if ((long long)b.sequence < last)
			n->backs++;
		else if (last >= 0 && b.sequence > last + 1)
			n->gaps++;
		if (b.flags & V4L2_BUF_FLAG_ERROR)
			n->errors++;
		last = b.sequence;
		n->bufs++;
		if (!queue(n, b.index)) {
			n->errors++;
			break;
		}
	}
}

/* REQBUFS, queue all, STREAMON, dequeue, STREAMOFF, free. */
static int stream(struct node *n, unsigned int ms)
{
	struct v4l2_requestbuffers rb = {
		.count = NBUFS, .type = n->type, .memory = V4L2_MEMORY_MMAP,
	};
	enum v4l2_buf_type type = n->type;
	unsigned int i;
	int ok = 0, on = 0;

	if (n->fd < 0 ||
	    !nioctl(n, VIDIOC_REQBUFS, &rb, "VIDIOC_REQBUFS"))
		return 0;
	for (i = 0; i < rb.count; i++)
		if (!queue(n, i))
			goto free;
	on = nioctl(n, VIDIOC_STREAMON, &type, "VIDIOC_STREAMON");
	if (on)
		dequeue(n, ms);
	ok = on && nioctl(n, VIDIOC_STREAMOFF, &type, "VIDIOC_STREAMOFF");
	ktap_diag("%s: %u buffers in %u ms, %u gaps, %u duplicates, %u decreases, %u errors",
		  n->what, n->bufs, ms, n->gaps, n->dups, n->backs,
		  n->errors);
free:
	rb.count = 0;
	ok = nioctl(n, VIDIOC_REQBUFS, &rb, "VIDIOC_REQBUFS 0") && ok;
	return ok && !n->errors && n->bufs >= MIN_BUFS;
}

static int rises(struct node *n)
{
	return n->bufs >= MIN_BUFS && !n->dups && !n->backs;
}

static int sdr_stream(void) { return stream(&sdr, STREAM_MS); }
static int sdr_rises(void) { return rises(&sdr); }
static int out_stream(void) { return stream(&out, STREAM_MS); }
static int out_rises(void) { return rises(&out); }
static int touch_stream(void) { return stream(&touch, STREAM_MS); }
static int touch_rises(void) { return rises(&touch); }

static int closed(void)
{
	struct node *n[] = { &sdr, &out, &touch };
	unsigned int i;
	int ok = 1;

	for (i = 0; i < 3; i++)
		ok = n[i]->fd >= 0 && !close(n[i]->fd) && ok;
	return ok;
}

static const struct ktap_case tcases[] = {
	{ "vivid SDR capture, video output and touch nodes found", nodes },
	{ "SDR capture streams 1.5 s: 5 buffers or more, no error",
	  sdr_stream },
	{ "SDR capture sequence numbers rise: no duplicate, no decrease",
	  sdr_rises },
	{ "video output streams 1.5 s: 5 buffers or more, no error",
	  out_stream },
	{ "video output sequence numbers rise: no duplicate, no decrease",
	  out_rises },
	{ "touch capture streams 1.5 s: 5 buffers or more, no error",
	  touch_stream },
	{ "touch capture sequence numbers rise: no duplicate, no decrease",
	  touch_rises },
	{ "the three nodes close", closed },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(tcases),
	.devices = (const char *const[]){ "/dev/swradio0", "/dev/v4l-touch0",
					  NULL },
	.kconfig = (const char *const[]){ "CONFIG_VIDEO_VIVID", NULL },
	.timeout = 30,
	.upstream = "patches/drivers 0201 (vivid threads' wake-up)",
	.cases = tcases,
};
