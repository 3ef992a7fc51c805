/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vivid.h - what the vivid capture tests share: the open node, ioctls that
 * name what failed, and the MMAP buffer queue (QUERYBUF, mmap, QBUF,
 * munmap). Include after ktap.h; one node, /dev/video0, per test.
 */
#ifndef BKLFREE_VIVID_H
#define BKLFREE_VIVID_H

#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/videodev2.h>

static const enum v4l2_buf_type CAP = V4L2_BUF_TYPE_VIDEO_CAPTURE;

static int fd = -1;

/* 1 when the ioctl succeeds; else says which failed and why, 0. */
static int xioctl(unsigned long req, void *arg, const char *name)
{
	if (ioctl(fd, req, arg) == 0)
		return 1;
	ktap_diag("%s: %s", name, strerror(errno));
	errno = 0;
	return 0;
}

/* Opens /dev/video0 and queries it: 1 when the vivid driver answers. */
static int vivid_open(struct v4l2_capability *cap)
{
	fd = open("/dev/video0", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return ktap_perror("open /dev/video0") + 1;
	if (!xioctl(VIDIOC_QUERYCAP, cap, "VIDIOC_QUERYCAP"))
		return 0;
	ktap_diag("driver %.16s card %.32s", cap->driver, cap->card);
	return !strcmp((char *)cap->driver, "vivid");
}

/*
 * QUERYBUF and mmap the n MMAP buffers REQBUFS gave, each at least min
 * bytes long; mem[] and len[] keep what vivid_unmap() undoes.
 */
static int vivid_map(unsigned int n, void **mem, size_t *len, size_t min)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct v4l2_buffer b = {
			.index = i, .type = CAP, .memory = V4L2_MEMORY_MMAP,
		};
		void *m;

		if (!xioctl(VIDIOC_QUERYBUF, &b, "VIDIOC_QUERYBUF"))
			return 0;
		if (b.length < min) {
			ktap_diag("buffer %u: length %u < %zu", i, b.length,
				  min);
			return 0;
		}
		m = mmap(NULL, b.length, PROT_READ, MAP_SHARED, fd,
			 b.m.offset);
		if (m == MAP_FAILED)
			return ktap_perror("mmap") + 1;
		mem[i] = m;
		len[i] = b.length;
	}
	return 1;
}

static void vivid_unmap(unsigned int n, void **mem, size_t *len)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (mem[i]) {
			munmap(mem[i], len[i]);
			mem[i] = NULL;
		}
}

/* QBUF buffers 0 to n - 1. */
static int vivid_queue_all(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct v4l2_buffer b = {
			.index = i, .type = CAP, .memory = V4L2_MEMORY_MMAP,
		};

		if (!xioctl(VIDIOC_QBUF, &b, "VIDIOC_QBUF"))
			return 0;
	}
	return 1;
}

/* A dequeued buffer's timestamp in microseconds. */
static long long vivid_ts_us(const struct v4l2_buffer *b)
{
	return b->timestamp.tv_sec * 1000000LL + b->timestamp.tv_usec;
}

#endif /* BKLFREE_VIVID_H */
