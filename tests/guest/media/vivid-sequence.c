// SPDX-License-Identifier: GPL-2.0
/*
 * vivid-sequence - the sequence numbers and timestamps of vivid's capture
 * stream at the highest frame rates it offers (vivid.profile: one vivid
 * instance, only a video capture node, /dev/video0).
 *
 * V4L2 rule: the sequence numbers of a capture stream rise; a frame the
 * driver drops leaves a gap, and no two buffers ever carry the same number.
 * Timestamps (monotonic) never go back.
 *
 * vivid's HDMI input takes the DV timings ENUM_DV_TIMINGS lists and runs at
 * their refresh rate. Of the progressive timings of 100 Hz or more (the
 * DMT 120 Hz reduced blanking ones), the NSTREAMS largest are set one after
 * the other with S_DV_TIMINGS and streamed for STREAM_MS each through NBUFS
 * mmap buffers, each dequeued and queued again at once; sequence numbers
 * start again at 0 with each STREAMON. The input and timings the test found
 * are set back at the end. The streams take about 3.6 s.
 *
 * The finding (case 4): vivid_thread_vid_cap() sleeps until cur_jiffies +
 * wait_jiffies, where cur_jiffies was read before drawing the frame and
 * wait_jiffies counts from after it, so it wakes early by the drawing time;
 * it then rounds the time since STREAMON to the nearest frame index. At
 * 120 Hz a frame period is 2.1 jiffies (HZ=250): a drawing that spans a
 * timer tick, as a 2560x1600 frame under TCG often does, makes the thread
 * wake still in the frame it has just captured, and the next buffer gets
 * the same sequence number (on 6.1, 7 duplicates in 0.3 s at 2560x1600;
 * the webcam's 60 frames a second at 320x180 drew too fast to show it).
 * Fixed by patches/drivers/0201.
 *
 * Timestamps are only required not to go back: the lab kernel's clock may
 * be jiffies, and on 6.1 a repeated frame may fall in the same jiffy, which
 * would make a check for strictly rising timestamps fail only sometimes.
 */
#include <poll.h>

#include "ktap.h"
#include "media/vivid.h"

#define NBUFS 8
#define NSTREAMS 3
#define STREAM_MS 1200
#define MIN_HZ 100
/* Fewer frames than this in a stream means streaming itself is broken. */
#define MIN_FRAMES 5
/* Bad frames described one by one in each stream; the rest are counted. */
#define MAX_DIAG 4

static int old_input = -1, hdmi = -1;
static struct v4l2_dv_timings old_timings;
static int have_old_timings;
static struct v4l2_dv_timings timings[NSTREAMS];
static unsigned int ntimings;

/* What one stream delivered. */
struct stream {
	unsigned int frames, dups, backs, gaps, ts_back, errors;
	long long first_bad;	/* frame index of the first bad sequence */
};

static struct stream streams[NSTREAMS];
static unsigned int streamed;

static unsigned long long pixels(const struct v4l2_bt_timings *bt)
{
	return (unsigned long long)bt->width * bt->height;
}

/* Refresh rate in 1/100 Hz. */
static unsigned int hz100(const struct v4l2_bt_timings *bt)
{
	unsigned long long total = (unsigned long long)
		V4L2_DV_BT_FRAME_WIDTH(bt) * V4L2_DV_BT_FRAME_HEIGHT(bt);

	return total ? bt->pixelclock * 100 / total : 0;
}

static int hdmi_input(void)
{
	struct v4l2_capability cap = { 0 };
	struct v4l2_input in = { 0 };

	if (!vivid_open(&cap) ||
	    !xioctl(VIDIOC_G_INPUT, &old_input, "VIDIOC_G_INPUT"))
		return 0;
	for (in.index = 0; !ioctl(fd, VIDIOC_ENUMINPUT, &in); in.index++)
		if ((in.capabilities & V4L2_IN_CAP_DV_TIMINGS) && hdmi < 0) {
			hdmi = in.index;
			ktap_diag("input %u: %.32s", in.index, in.name);
		}
	if (hdmi < 0 || !xioctl(VIDIOC_S_INPUT, &hdmi, "VIDIOC_S_INPUT"))
		return 0;
	have_old_timings = xioctl(VIDIOC_G_DV_TIMINGS, &old_timings,
				  "VIDIOC_G_DV_TIMINGS");
	return have_old_timings;
}

/* The NSTREAMS largest progressive timings of MIN_HZ or more, largest first. */
static int fast_timings(void)
{
	struct v4l2_enum_dv_timings e = { 0 };
	unsigned int i, j, listed = 0;

	for (e.index = 0; !ioctl(fd, VIDIOC_ENUM_DV_TIMINGS, &e); e.index++) {
		const struct v4l2_bt_timings *bt = &e.timings.bt;

		if (bt->interlaced || hz100(bt) < MIN_HZ * 100)
			continue;
		listed++;
		for (i = 0; i < ntimings; i++)
			if (pixels(bt) > pixels(&timings[i].bt))
				break;
		if (i == NSTREAMS)
			continue;
		if (ntimings < NSTREAMS)
			ntimings++;
		for (j = ntimings - 1; j > i; j--)
			timings[j] = timings[j - 1];
		timings[i] = e.timings;
	}
	ktap_diag("%u timings listed, %u of %u Hz or more", e.index, listed,
		  MIN_HZ);
	return ntimings > 0;
}

/* Dequeue and queue again until STREAM_MS have passed. */
static void dequeue(struct stream *st)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	long long last_seq = -1, last_ts = -1;
	long long end = ktap_now_ms() + STREAM_MS;

	st->first_bad = -1;
	for (;;) {
		struct v4l2_buffer b = {
			.type = CAP, .memory = V4L2_MEMORY_MMAP,
		};
		long long left = end - ktap_now_ms(), ts;
		int bad;

		if (left <= 0)
			break;
		if (poll(&p, 1, (int)left) != 1)
			continue;
		if (!xioctl(VIDIOC_DQBUF, &b, "VIDIOC_DQBUF")) {
			st->errors++;
			break;
		}
		ts = vivid_ts_us(&b);
		bad = (long long)b.sequence <= last_seq || ts < last_ts ||
		      (b.flags & V4L2_BUF_FLAG_ERROR);
		if (bad && st->dups + st->backs + st->ts_back + st->errors <
			   MAX_DIAG)
			ktap_diag("frame %u: sequence %u after %lld, timestamp %lld us after %lld, flags 0x%x",
				  st->frames, b.sequence, last_seq, ts,
				  last_ts, b.flags);
		if ((long long)b.sequence == last_seq)
			st->dups++;
		else if ((long long)b.sequence < last_seq)
			st->backs++;
		else if (last_seq >= 0 && b.sequence > last_seq + 1)
			st->gaps++;
		if ((long long)b.sequence <= last_seq && st->first_bad < 0)
			st->first_bad = st->frames;
		if (ts < last_ts)
			st->ts_back++;
		if (b.flags & V4L2_BUF_FLAG_ERROR)
			st->errors++;
		last_seq = b.sequence;
		last_ts = ts;
		st->frames++;
		if (!xioctl(VIDIOC_QBUF, &b, "VIDIOC_QBUF")) {
			st->errors++;
			break;
		}
	}
}

/* One stream: S_DV_TIMINGS, buffers, STREAMON, dequeue, STREAMOFF, free. */
static int stream(struct v4l2_dv_timings *t, struct stream *st)
{
	struct v4l2_requestbuffers rb = {
		.count = NBUFS, .type = CAP, .memory = V4L2_MEMORY_MMAP,
	};
	struct v4l2_format f = { .type = CAP };
	enum v4l2_buf_type type = CAP;
	void *mem[NBUFS] = { NULL };
	size_t len[NBUFS] = { 0 };
	unsigned int hz = hz100(&t->bt);
	int ok = 0, on = 0;

	if (!xioctl(VIDIOC_S_DV_TIMINGS, t, "VIDIOC_S_DV_TIMINGS") ||
	    !xioctl(VIDIOC_G_FMT, &f, "VIDIOC_G_FMT") ||
	    !xioctl(VIDIOC_REQBUFS, &rb, "VIDIOC_REQBUFS"))
		return 0;
	if (rb.count != NBUFS) {
		ktap_diag("REQBUFS gave %u buffers, not %u", rb.count, NBUFS);
		goto free;
	}
	if (!vivid_map(NBUFS, mem, len, 0) || !vivid_queue_all(NBUFS))
		goto free;
	on = xioctl(VIDIOC_STREAMON, &type, "VIDIOC_STREAMON");
	if (on)
		dequeue(st);
	ok = on && xioctl(VIDIOC_STREAMOFF, &type, "VIDIOC_STREAMOFF");
	ktap_diag("%ux%u %u.%02u Hz (format %ux%u): %u frames, %u gaps, %u duplicates, %u decreases, %u timestamps going back, %u errors",
		  t->bt.width, t->bt.height, hz / 100, hz % 100,
		  f.fmt.pix.width, f.fmt.pix.height, st->frames, st->gaps,
		  st->dups, st->backs, st->ts_back, st->errors);
free:
	vivid_unmap(NBUFS, mem, len);
	rb.count = 0;
	ok = xioctl(VIDIOC_REQBUFS, &rb, "VIDIOC_REQBUFS 0") && ok;
	return ok && !st->errors && st->frames >= MIN_FRAMES;
}

static int stream_all(void)
{
	int ok = 1;

	for (streamed = 0; streamed < ntimings; streamed++)
		ok = stream(&timings[streamed], &streams[streamed]) && ok;
	return ok && streamed > 0;
}

static int sequence_rises(void)
{
	unsigned int i, bad = 0;

	for (i = 0; i < streamed; i++)
		if (streams[i].dups || streams[i].backs) {
			ktap_diag("stream %u (%ux%u): first repeated sequence at frame %lld",
				  i, timings[i].bt.width, timings[i].bt.height,
				  streams[i].first_bad);
			bad++;
		}
	return streamed > 0 && !bad;
}

static int timestamps_never_back(void)
{
	unsigned int i, bad = 0;

	for (i = 0; i < streamed; i++)
		bad += streams[i].ts_back;
	return streamed > 0 && !bad;
}

static int restore(void)
{
	int ok = fd >= 0;

	if (ok && have_old_timings)
		ok = xioctl(VIDIOC_S_DV_TIMINGS, &old_timings,
			    "VIDIOC_S_DV_TIMINGS back");
	if (fd >= 0 && old_input >= 0)
		ok = xioctl(VIDIOC_S_INPUT, &old_input, "VIDIOC_S_INPUT back") &&
		     ok;
	if (fd >= 0)
		close(fd);
	return ok && have_old_timings && old_input >= 0;
}

static const struct ktap_case tcases[] = {
	{ "HDMI input selected, its DV timings read", hdmi_input },
	{ "ENUM_DV_TIMINGS lists progressive timings of 100 Hz or more",
	  fast_timings },
	{ "each of the 3 largest streams 1.2 s: 5 frames or more, no error",
	  stream_all },
	{ "sequence numbers rise in every stream: no duplicate, no decrease",
	  sequence_rises },
	{ "timestamps never go back in any stream", timestamps_never_back },
	{ "input and DV timings set back", restore },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(tcases),
	.devices = (const char *const[]){ "/dev/video0", NULL },
	.kconfig = (const char *const[]){ "CONFIG_VIDEO_VIVID", NULL },
	.timeout = 30,
	.upstream = "patches/drivers 0201 (vivid capture thread wake-up)",
	.cases = tcases,
};
