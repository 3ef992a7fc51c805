// SPDX-License-Identifier: GPL-2.0
/*
 * vivid-stress - concurrent ioctls from several threads on several file
 * handles of one V4L2 node while one of them streams, for 1.5 s, with
 * lockdep on (every lab kernel has PROVE_LOCKING). This is the
 * serialisation the 2010 RFC "BKL, locking and ioctls" asked the core to
 * do with a per-device mutex (upstream video_device->lock, ee6869afc922),
 * dropped while waiting in DQBUF and DQEVENT: a thread blocked in DQBUF or
 * DQEVENT must not stop the others, and no lock order may be violated.
 *
 * One streamer dequeues and requeues mmap buffers; format readers call
 * G_FMT, ENUM_FMT and G_PARM; control writers set and read brightness
 * while subscribed to its events; event waiters block in DQEVENT on those
 * control events. Every thread must finish enough rounds without an
 * unexpected error (EBUSY from S_FMT-like calls on a non-streaming handle
 * is expected and not used here); a lockdep report or WARNING on the
 * console fails the boot through the verdict.
 */
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <linux/videodev2.h>

#include "ktap.h"

#define VIDEO "/dev/video0"
#define RUN_MS 1500
#define NBUF 3

struct worker {
	const char *name;
	void (*round)(struct worker *w);
	unsigned int min_rounds;
	int fd;
	pthread_t thread;
	unsigned int rounds, errors;
	int last_errno;
	const char *last_call;
};

static volatile int stop;

static void check(struct worker *w, int ret, const char *call)
{
	if (ret < 0) {
		w->errors++;
		w->last_errno = errno;
		w->last_call = call;
	}
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	while (!stop) {
		w->round(w);
		w->rounds++;
	}
	return NULL;
}

static void format_round(struct worker *w)
{
	struct v4l2_format fmt = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_fmtdesc desc = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_streamparm parm = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

	check(w, ioctl(w->fd, VIDIOC_G_FMT, &fmt), "G_FMT");
	check(w, ioctl(w->fd, VIDIOC_ENUM_FMT, &desc), "ENUM_FMT");
	check(w, ioctl(w->fd, VIDIOC_G_PARM, &parm), "G_PARM");
}

static void control_round(struct worker *w)
{
	struct v4l2_control c = { .id = V4L2_CID_BRIGHTNESS,
				  .value = (int)(w->rounds % 200) };

	check(w, ioctl(w->fd, VIDIOC_S_CTRL, &c), "S_CTRL");
	check(w, ioctl(w->fd, VIDIOC_G_CTRL, &c), "G_CTRL");
}

/* Blocks in DQEVENT (the core drops the device lock while it waits). */
static void event_round(struct worker *w)
{
	struct pollfd p = { .fd = w->fd, .events = POLLPRI };
	struct v4l2_event ev;

	/* Bounded: the control writers keep events coming. */
	if (poll(&p, 1, 200) == 1)
		check(w, ioctl(w->fd, VIDIOC_DQEVENT, &ev), "DQEVENT");
}

static void stream_round(struct worker *w)
{
	struct v4l2_buffer buf = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
				   .memory = V4L2_MEMORY_MMAP };
	struct pollfd p = { .fd = w->fd, .events = POLLIN };

	if (poll(&p, 1, 2000) != 1) {
		check(w, -1, "poll for a frame");
		return;
	}
	check(w, ioctl(w->fd, VIDIOC_DQBUF, &buf), "DQBUF");
	check(w, ioctl(w->fd, VIDIOC_QBUF, &buf), "QBUF");
}

static int start_streaming(int fd)
{
	struct v4l2_requestbuffers req = { .count = NBUF,
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP };
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	unsigned int i;

	if (ioctl(fd, VIDIOC_REQBUFS, &req) || req.count < 2)
		return 0;
	for (i = 0; i < req.count; i++) {
		struct v4l2_buffer buf = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					   .memory = V4L2_MEMORY_MMAP, .index = i };

		if (ioctl(fd, VIDIOC_QUERYBUF, &buf) ||
		    mmap(NULL, buf.length, PROT_READ, MAP_SHARED, fd,
			 buf.m.offset) == MAP_FAILED ||
		    ioctl(fd, VIDIOC_QBUF, &buf))
			return 0;
	}
	return !ioctl(fd, VIDIOC_STREAMON, &type);
}

static struct worker workers[] = {
	{ .name = "streamer DQBUF and QBUF", .round = stream_round, .min_rounds = 3 },
	{ .name = "format reader one", .round = format_round, .min_rounds = 20 },
	{ .name = "format reader two", .round = format_round, .min_rounds = 20 },
	{ .name = "control writer", .round = control_round, .min_rounds = 20 },
	{ .name = "event waiter", .round = event_round, .min_rounds = 5 },
};

static void run(void)
{
	struct v4l2_event_subscription sub = { .type = V4L2_EVENT_CTRL,
					       .id = V4L2_CID_BRIGHTNESS };
	struct timespec tick = { .tv_nsec = 50 * 1000 * 1000 };
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE, started = 1;
	long long end;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(workers); i++) {
		workers[i].fd = open(VIDEO, O_RDWR | O_CLOEXEC);
		if (workers[i].fd < 0)
			ktap_bail("cannot open " VIDEO ": %s", strerror(errno));
	}
	ktap_ok(start_streaming(workers[0].fd) &&
		!ioctl(workers[4].fd, VIDIOC_SUBSCRIBE_EVENT, &sub),
		"streaming started and control events subscribed");
	for (i = 0; i < ARRAY_SIZE(workers); i++)
		if (pthread_create(&workers[i].thread, NULL, worker_main, &workers[i]))
			started = 0;
	ktap_ok(started, "five threads started on five handles");
	end = ktap_now_ms() + RUN_MS;
	while (ktap_now_ms() < end)
		nanosleep(&tick, NULL);
	stop = 1;
	for (i = 0; i < ARRAY_SIZE(workers); i++) {
		struct worker *w = &workers[i];

		pthread_join(w->thread, NULL);
		ktap_diag("%s: %u rounds, %u errors", w->name, w->rounds,
			  w->errors);
		if (w->errors)
			ktap_diag("%s: last error from %s: %s", w->name,
				  w->last_call, strerror(w->last_errno));
		ktap_ok(!w->errors && w->rounds >= w->min_rounds,
			"%s finishes %u rounds or more without error", w->name,
			w->min_rounds);
	}
	ktap_ok(!ioctl(workers[0].fd, VIDIOC_STREAMOFF, &type),
		"STREAMOFF after the storm");
	for (i = 0; i < ARRAY_SIZE(workers); i++)
		close(workers[i].fd);
}

const struct ktap_test ktap_test = {
	.plan = 3 + ARRAY_SIZE(workers),
	.devices = (const char *const[]){ VIDEO, NULL },
	.timeout = 30,
	.upstream = "ee6869afc922",
	.run = run,
};
