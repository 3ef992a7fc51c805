// SPDX-License-Identifier: GPL-2.0
/*
 * uvc-camera - a USB Video Class camera (usb/uvc-device.h: QEMU has no
 * UVC model) with no controls, streamed and unplugged under open files.
 *
 * The file the series touches is uvc_debugfs.c, the per-stream statistics
 * file usb/uvcvideo/BUS-DEV-INTF/stats (core 0027 drops its no_llseek).
 * Cases, in order:
 * - the device enumerates, uvcvideo binds interface 0, /dev/video0 appears;
 * - VIDIOC_QUERYCAP says uvcvideo, video capture and streaming; G_FMT the
 *   frame the descriptors give (16x8 YUYV, 256 bytes);
 * - the stats file exists for the streaming interface, reads its text
 *   (frames, packets, ... sof) whole, again after a rewind-less reopen,
 *   and lseek on it fails ESPIPE (no llseek, as before the series);
 * - mmap streaming: three frames dequeued, each 256 bytes of one value that
 *   grows from frame to frame, no error flag;
 * - after STREAMOFF the stats file, opened again, counts at least those
 *   frames and no errors: uvc_video_stats_dump() reports what streamed;
 * - Debian's v4l2-compliance on the node, with 5 frames of streaming on
 *   each I/O method (media/v4l2-compliance.h: two cases, and its totals,
 *   which the host compares between the kernels: the patched kernel must
 *   do no worse);
 * - unplug with /dev/video0 and a stats file open: the video node's ioctl
 *   fails ENODEV, the stats file reads EIO (debugfs cut its proxy) and
 *   both close; the stream's debugfs directory is gone.
 */
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/videodev2.h>

#include "media/v4l2-compliance.h"
#include "slurp.h"
#include "usb/raw-plug.h"
#include "usb/uvc-device.h"

#define NODE		"/dev/video0"
#define STATS_ROOT	"/sys/kernel/debug/usb/uvcvideo"
#define FRAMES		3

static const uint8_t vc[] = UVC_VC_DESCRIPTORS(0);	/* no controls */
static const struct rd_device camera = UVC_CAMERA("uvc", 0x0102, vc, uvc_stream_control);

static char stats_path[300];
static char text[1024];

/* The one stream directory under STATS_ROOT: its stats file's path. */
static int find_stats(void)
{
	DIR *d = opendir(STATS_ROOT);
	struct dirent *de;

	stats_path[0] = '\0';
	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.')
			snprintf(stats_path, sizeof(stats_path),
				 STATS_ROOT "/%s/stats", de->d_name);
	if (d)
		closedir(d);
	return stats_path[0] && !access(stats_path, R_OK);
}

/* The stats file's "NAME: N" value, or -1. */
static long stat_of(const char *name)
{
	const char *p = strstr(text, name);

	return p ? strtol(p + strlen(name), NULL, 10) : -1;
}

/* Some byte of buf is not c. */
static int memchr_inv_byte(const uint8_t *buf, uint8_t c, size_t n)
{
	while (n--)
		if (*buf++ != c)
			return 1;
	return 0;
}

static int xioctl(int fd, unsigned long req, void *arg)
{
	int r;

	do
		r = ioctl(fd, req, arg);
	while (r < 0 && errno == EINTR);
	return r;
}

/* QUERYCAP and G_FMT describe the emulated camera. */
static int describes_camera(int fd)
{
	struct v4l2_capability cap = { 0 };
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	int ok;

	ok = !xioctl(fd, VIDIOC_QUERYCAP, &cap) &&
	     !strcmp((char *)cap.driver, "uvcvideo") &&
	     cap.device_caps & V4L2_CAP_VIDEO_CAPTURE &&
	     cap.device_caps & V4L2_CAP_STREAMING;
	ok = !xioctl(fd, VIDIOC_G_FMT, &f) && ok &&
	     f.fmt.pix.width == UVC_WIDTH && f.fmt.pix.height == UVC_HEIGHT &&
	     f.fmt.pix.pixelformat == V4L2_PIX_FMT_YUYV &&
	     f.fmt.pix.sizeimage == UVC_FRAME;
	if (!ok)
		ktap_diag("querycap '%s' caps 0x%x; fmt %ux%u '%.4s' %u bytes",
			  (char *)cap.driver, cap.device_caps, f.fmt.pix.width,
			  f.fmt.pix.height, (char *)&f.fmt.pix.pixelformat,
			  f.fmt.pix.sizeimage);
	return ok;
}

/* Two reads of the stats file: the same text; lseek ESPIPE. */
static int stats_readable(void)
{
	static char again[sizeof(text)];
	int fd, sp, ok;

	if (!find_stats()) {
		ktap_diag("no stream directory under " STATS_ROOT);
		return 0;
	}
	if (slurp(stats_path, text, sizeof(text)) <= 0 ||
	    slurp(stats_path, again, sizeof(again)) <= 0)
		return 0;
	fd = open(stats_path, O_RDONLY | O_CLOEXEC);
	sp = fd >= 0 && lseek(fd, 0, SEEK_SET) < 0 && errno == ESPIPE;
	if (fd >= 0)
		close(fd);
	ok = sp && !strcmp(text, again) && strstr(text, "frames:") &&
	     strstr(text, "\nsof: ");
	if (!ok)
		ktap_diag("stats: lseek %s; text '%.60s'",
			  sp ? "ESPIPE" : "not ESPIPE", text);
	return ok;
}

/* Three frames through mmap streaming; each one value, rising. */
static int stream_frames(int fd)
{
	struct v4l2_requestbuffers rb = {
		.count = 2, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE, got = 0, ok = 1, last = -1;
	void *map[2] = { MAP_FAILED, MAP_FAILED };
	unsigned int i;

	if (xioctl(fd, VIDIOC_REQBUFS, &rb) || rb.count < 2)
		return ktap_perror("REQBUFS"), 0;
	for (i = 0; i < 2; i++) {
		struct v4l2_buffer b = { .index = i, .type = rb.type,
					 .memory = rb.memory };

		if (xioctl(fd, VIDIOC_QUERYBUF, &b) || xioctl(fd, VIDIOC_QBUF, &b))
			return ktap_perror("QUERYBUF/QBUF"), 0;
		map[i] = mmap(NULL, b.length, PROT_READ, MAP_SHARED, fd,
			      b.m.offset);
		if (map[i] == MAP_FAILED)
			return ktap_perror("mmap"), 0;
	}
	if (xioctl(fd, VIDIOC_STREAMON, &type))
		return ktap_perror("STREAMON"), 0;
	while (got < FRAMES) {
		struct v4l2_buffer b = { .type = rb.type, .memory = rb.memory };
		struct pollfd p = { .fd = fd, .events = POLLIN };
		const uint8_t *f;

		if (poll(&p, 1, 5000) <= 0 || xioctl(fd, VIDIOC_DQBUF, &b)) {
			ktap_diag("frame %d: none within 5 s", got);
			ok = 0;
			break;
		}
		f = map[b.index];
		if (b.bytesused != UVC_FRAME || b.flags & V4L2_BUF_FLAG_ERROR ||
		    memchr_inv_byte(f, f[0], UVC_FRAME) || (int)f[0] <= last) {
			ktap_diag("frame %d: %u bytes, flags 0x%x, first byte %u after %d",
				  got, b.bytesused, b.flags, f[0], last);
			ok = 0;
		}
		last = f[0];
		got++;
		xioctl(fd, VIDIOC_QBUF, &b);
	}
	xioctl(fd, VIDIOC_STREAMOFF, &type);
	for (i = 0; i < 2; i++)
		munmap(map[i], UVC_FRAME);
	return ok;
}

/* Unplugged under open files: ENODEV, EIO, clean closes, directory gone. */
static int unplug_open(struct plug *p, int fd)
{
	struct v4l2_capability cap;
	char dir[sizeof(stats_path)], c;
	int sfd = open(stats_path, O_RDONLY | O_CLOEXEC), ok;
	ssize_t r;

	snprintf(dir, sizeof(dir), "%.*s", (int)(strrchr(stats_path, '/') - stats_path),
		 stats_path);
	ok = unplug(p);
	ok = fails(xioctl(fd, VIDIOC_QUERYCAP, &cap), ENODEV) && ok;
	r = sfd >= 0 ? read(sfd, &c, 1) : 0;
	ok = fails(r, EIO) && ok;
	if (sfd >= 0 && close(sfd))
		ok = 0;
	if (close(fd))
		ok = 0;
	if (!ok || !access(dir, F_OK))
		ktap_diag("after the unplug: stats read %zd (%s), %s %s",
			  r, r < 0 ? strerror(errno) : "-", dir,
			  access(dir, F_OK) ? "gone" : "still there");
	return ok && access(dir, F_OK);
}

static const struct v4l2_compliance_run compliance = {
	"v4l2-compliance", "Total for ",
	(char *const[]){ V4L2_COMPLIANCE, "-d", NODE, "-s", "5", NULL },
};

#define CASES 8

static void run(void)
{
	struct plug p = { .dev = &camera, .driver = "uvcvideo", .node = NODE };
	int fd, ok;

	if (!plug_in(&p, NULL))
		goto out;
	fd = open_node(&p, O_RDWR);
	ktap_ok(fd >= 0 && describes_camera(fd),
		"uvc: QUERYCAP uvcvideo, capture and streaming; G_FMT 16x8 YUYV, 256 bytes");
	ktap_ok(stats_readable(),
		"uvc: usb/uvcvideo/*/stats reads its counters whole, twice alike; lseek ESPIPE");
	ktap_ok(fd >= 0 && stream_frames(fd),
		"uvc: mmap streaming: 3 frames of 256 bytes, each the next frame's bytes, no error flag");
	/*
	 * The handle that set the format or asked for buffers keeps
	 * uvcvideo's streaming privilege until it is closed: close it, so
	 * that v4l2-compliance's own handles may stream.
	 */
	if (fd >= 0)
		close(fd);
	ok = find_stats() && slurp(stats_path, text, sizeof(text)) > 0;
	ktap_diag("stats after streaming: frames %ld, packets %ld, errors %ld",
		  stat_of("frames:"), stat_of("packets:"), stat_of("errors:"));
	ktap_ok(ok && stat_of("frames:") >= FRAMES && stat_of("errors:") == 0,
		"uvc: after STREAMOFF the stats count the frames streamed, no errors");
	v4l2_compliance(&compliance);
	fd = open_node(&p, O_RDWR);
	ktap_ok(fd >= 0 && unplug_open(&p, fd),
		"uvc: unplugged with the node and stats open: ioctl ENODEV, stats read EIO, both close, the stream's directory goes");
out:
	unplug(&p);
	while (ktap_count < CASES)
		ktap_ok(0, "uvc: case not reached");
}

const struct ktap_test ktap_test = {
	.plan = CASES,
	.devices = (const char *const[]){ "/dev/raw-gadget", STATS_ROOT,
					  V4L2_COMPLIANCE, NULL },
	.kconfig = (const char *const[]){ "CONFIG_USB_RAW_GADGET",
					  "CONFIG_USB_DUMMY_HCD",
					  "CONFIG_USB_VIDEO_CLASS", NULL },
	.timeout = 120,
	.upstream = "drivers/media/usb/uvc/uvc_debugfs.c (core 0027: no_llseek dropped)",
	.run = run,
};
