// SPDX-License-Identifier: GPL-2.0
/*
 * vivid-sequence - the sequence numbers and timestamps of vivid's capture
 * stream at a frame period and frame size chosen from the kernel's HZ and
 * from how long this machine takes to draw a frame (vivid.profile: one
 * vivid instance, only a video capture node, /dev/video0).
 *
 * V4L2 rule: the sequence numbers of a capture stream rise; a frame the
 * driver drops leaves a gap, and no two buffers ever carry the same number.
 * Timestamps (monotonic) never go back.
 *
 * The finding (patches/drivers 0201): vivid_thread_vid_cap() reads
 * cur_jiffies, rounds the jiffies since STREAMON to the nearest frame
 * index, draws the frame, then sleeps until cur_jiffies + wait_jiffies,
 * where wait_jiffies counts from after the drawing: it wakes early by the
 * timer ticks the drawing spanned. Whether that early wake-up rounds back
 * to the frame just drawn (a repeated sequence number) depends on the
 * drawing time D against the frame period P, both in jiffies: the drawing
 * must span a tick (D of about 1 jiffy or more) and the next frame's start
 * must not have passed when it ends (D below about P). A model of the loop
 * (wake-ups on ticks, drawing started just after one) gives, at P = 2.3
 * jiffies, repeats in 8 to 28 % of the frames for D from 0.9 to 2.3
 * jiffies and none below 0.9; P = 2.3 is the period with the widest such
 * range among those of 1 to 5 jiffies (integer periods never repeat).
 * With the fix the thread wakes at the next frame's start, which rounds to
 * the next index for every P of 1 jiffy or more (0201's guarantee); below
 * 1 jiffy even the fixed loop may repeat a number, so P stays above it.
 *
 * So the test does not rely on one machine's speed (the previous version
 * streamed fixed DMT 120 Hz timings, 2.1 jiffies at HZ=250, and repeated
 * numbers on 6.1 only because TCG drew a 2560x1600 frame in about 1.6
 * jiffies; a faster or slower guest, or another HZ, made it pass there):
 *  - HZ is CONFIG_HZ from /proc/config.gz;
 *  - the HDMI input gets custom CVT reduced blanking v2 timings (the kind
 *    vivid accepts besides its list: any width, any refresh rate within
 *    its 14 to 775 MHz pixel clock), so the frame period is set exactly;
 *  - the drawing time is measured by the dequeuing loop itself, which
 *    never sleeps: it reads the TSC and tries DQBUF, and a stretch of more
 *    than an eighth of a jiffy it lost to the CPU, shared among the
 *    buffers that came right after it, is their drawing (the kernel is not
 *    preemptive, the capture thread draws in one go); the median over a
 *    stream, in jiffies through the TSC counts between a tick before
 *    STREAMON and one after STREAMOFF. Not vivid's
 *    timestamps: under TCG the guest's TSC calibration sometimes fails
 *    and its clock is then jiffies, and a loaded host makes the guest lose
 *    ticks (jiffies ran at 43 to 100 % of the TSC's pace in these boots);
 *  - calibration: streams of CAL_FRAMES at a slow rate (10 jiffies a
 *    frame, or 4 times the last drawing time) measure the drawing time of
 *    a frame size, and the size is scaled (secant through the last two
 *    measurements) until a frame draws in DRAW_CJ hundredths of a jiffy,
 *    the middle, on a log scale, of the DRAW_MIN_CJ..DRAW_MAX_CJ window;
 *  - streams of STREAM_MS at PERIOD_CJ hundredths of a jiffy a frame until
 *    NWINDOW of them drew within the window, NTRIES at most, the size
 *    corrected after each by the drawing time it saw (the host's load
 *    changes). Case 5 fails if fewer ran within the window: then the check
 *    proved too little, on either kernel.
 * The chosen numbers are printed. Limits of P = 2.3 jiffies (case 3
 * fails, on either kernel, saying which): a guest so fast that even the
 * largest frame the 775 MHz pixel clock allows draws in under DRAW_MIN_CJ
 * (under QEMU -icount shift=0, 1 ns an instruction, the HZ=250 lab kernel
 * already needs 3000x1874, 650 MHz, so a guest drawing 1.2 times as fast
 * or more, as under KVM, is out of reach; at HZ=1000 the period allows 4
 * times fewer pixels), and one so slow that the
 * smallest frame the 14 MHz minimum allows draws in more than DRAW_MAX_CJ
 * (-icount shift=4: 296x184 took 5.9 jiffies). A longer period with a
 * drawing of about 0.7 of it would reach slower guests; 0201's guarantee
 * (P of 1 jiffy or more) bounds the fast side.
 *
 * Figures on 6.1 (HZ=250): plain TCG on a loaded host (jiffies ran at 56
 * to 100 % of the TSC's pace), 1528x954 to 2432x1520 drawn in 1.25 to
 * 2.04 jiffies, 14 to 25 repeats a boot; -icount shift=0, 3000x1874, and
 * shift=2, 736x460, both drawn in 1.47 jiffies, 9 repeats in 85 frames a
 * stream. With 0201: none, in the same conditions.
 *
 * Timestamps are only required not to go back: on 6.1 a repeated frame
 * may fall in the same jiffy as the one before, and the lab kernel's clock
 * may be jiffies.
 */
#include "ktap.h"
#include "media/vivid.h"

#if !defined(__x86_64__) && !defined(__i386__)
#error "the drawing time is read from the x86 TSC"
#endif

#define NBUFS 4
/* Frame period and drawing times, in hundredths of a jiffy. */
#define PERIOD_CJ 230
#define DRAW_CJ 148
#define DRAW_MIN_CJ 105
#define DRAW_MAX_CJ 210
/* Calibration: measurements at most, and frames per measurement. */
#define NCAL 4
#define CAL_FRAMES 6
/* Streams at PERIOD_CJ at most, each this long. */
#define NTRIES 5
#define NWINDOW 2
#define STREAM_MS 1000
#define NSTREAMS (NCAL + NTRIES)
/* Fewer frames than this in a stream means streaming itself is broken. */
#define MIN_FRAMES 5
/* Bad frames described one by one in each stream; the rest are counted. */
#define MAX_DIAG 4
/* Frames whose drawing time is kept, per stream. */
#define MAX_FRAMES 2048
/* vivid_dv_timings_cap: sizes and pixel clock of the HDMI input. */
#define MIN_SIZE 64
#define MAX_WIDTH 4096
#define MAX_HEIGHT 2160
/* 14 MHz, and the 1 kHz grain v4l2_detect_cvt() may round down by */
#define MIN_PCLK 14010000ULL
#define MAX_PCLK 775000000ULL
/* CVT reduced blanking v2: horizontal blanking, vsync, v back porch. */
#define RB2_HBLANK 80
#define RB2_VSYNC 8
#define RB2_VBP 6

static int old_input = -1, hdmi = -1;
static struct v4l2_dv_timings old_timings;
static int have_old_timings;
static long long hz, jiffy_ns;
/* TSC counts per jiffy, over TICKS_CAL ticks at the start */
static unsigned long long tsc_jiffy;
#define TICKS_CAL 25

/* What one stream delivered. */
struct stream {
	unsigned int w, h;
	unsigned long long pclk;
	long long period_ns;	/* from the timeperframe vivid reports */
	unsigned int frames, dups, backs, gaps, ts_back, errors;
	long long first_bad;	/* frame index of the first bad sequence */
	unsigned long long draw_tsc;	/* median drawing time, TSC counts */
	unsigned long long tsc_jiffy;	/* TSC counts per jiffy */
	long long draw_cj;	/* median drawing time, 1/100 jiffy */
};

static struct stream streams[NSTREAMS];
static unsigned int nstreams, ncal, calibrated, in_window;
/* The size the streams at PERIOD_CJ start from, its predicted drawing. */
static unsigned int pick_w, pick_h;
static unsigned long long lag[MAX_FRAMES];

static unsigned long long tsc(void)
{
	return __builtin_ia32_rdtsc();
}

/* A timer tick: CLOCK_MONOTONIC_COARSE steps, the TSC just after. */
struct tick {
	unsigned long long tsc;
	long long ns;
};

static void next_tick(struct tick *t)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &a);
	do
		clock_gettime(CLOCK_MONOTONIC_COARSE, &b);
	while (a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec);
	t->tsc = tsc();
	t->ns = b.tv_sec * 1000000000LL + b.tv_nsec;
}

/* Hundredths of a jiffy in ns, and ns in hundredths of a jiffy. */
static long long cj_ns(long long cj)
{
	return cj * jiffy_ns / 100;
}

static long long ns_cj(long long ns)
{
	return jiffy_ns ? ns * 100 / jiffy_ns : 0;
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

static int read_hz(void)
{
	FILE *f = popen("zcat /proc/config.gz 2>/dev/null", "r");
	struct tick t0, t1;
	char line[256];

	if (!f)
		return ktap_perror("popen zcat /proc/config.gz") + 1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "CONFIG_HZ=", 10))
			hz = atoll(line + 10);
	pclose(f);
	if (hz < 24 || hz > 10000) {
		ktap_diag("CONFIG_HZ=%lld", hz);
		return 0;
	}
	jiffy_ns = 1000000000LL / hz;
	next_tick(&t0);
	do
		next_tick(&t1);
	while (t1.ns - t0.ns < TICKS_CAL * jiffy_ns);
	tsc_jiffy = (t1.tsc - t0.tsc) * jiffy_ns / (t1.ns - t0.ns);
	ktap_diag("%llu TSC counts a jiffy", tsc_jiffy);
	ktap_diag("HZ=%lld: a jiffy is %lld us; frame period %lld.%02lld jiffies (%lld us), drawing wanted %lld.%02lld (%lld.%02lld to %lld.%02lld)",
		  hz, jiffy_ns / 1000, PERIOD_CJ / 100LL, PERIOD_CJ % 100LL,
		  cj_ns(PERIOD_CJ) / 1000, DRAW_CJ / 100LL, DRAW_CJ % 100LL,
		  DRAW_MIN_CJ / 100LL, DRAW_MIN_CJ % 100LL,
		  DRAW_MAX_CJ / 100LL, DRAW_MAX_CJ % 100LL);
	return 1;
}

/*
 * CVT reduced blanking v2 timings of w x h with a frame period of about
 * period_ns, as v4l2_detect_cvt() computes them back from the total lines,
 * the line rate and the width (vsync 8, positive hsync): the vertical front
 * porch follows from the line rate, the pixel clock has a 1 kHz grain.
 * 0 when the pixel clock is out of vivid's range.
 */
static int cvt_rb2(unsigned int w, unsigned int h, long long period_ns,
		   struct v4l2_dv_timings *t)
{
	struct v4l2_bt_timings *bt = &t->bt;
	unsigned long long pclk = 0, hfreq, total_w = w + RB2_HBLANK;
	unsigned int vfp = 1, last = 0, i;
	long long fp;

	for (i = 0; i < 8 && vfp != last; i++) {
		last = vfp;
		pclk = total_w * (h + vfp + RB2_VSYNC + RB2_VBP) *
		       1000000000ULL / (unsigned long long)period_ns;
		pclk = (pclk + 500) / 1000 * 1000;
		hfreq = pclk / total_w;
		fp = (long long)(460 * hfreq / 1000000) + 1 - RB2_VSYNC -
		     RB2_VBP;
		vfp = fp < 1 ? 1 : (unsigned int)fp;
	}
	memset(t, 0, sizeof(*t));
	t->type = V4L2_DV_BT_656_1120;
	bt->width = w;
	bt->height = h;
	bt->polarities = V4L2_DV_HSYNC_POS_POL;
	bt->pixelclock = pclk;
	bt->hfrontporch = 8;
	bt->hsync = 32;
	bt->hbackporch = RB2_HBLANK - 8 - 32;
	bt->vfrontporch = vfp;
	bt->vsync = RB2_VSYNC;
	bt->vbackporch = RB2_VBP;
	bt->standards = V4L2_DV_BT_STD_CVT;
	bt->flags = V4L2_DV_FL_REDUCED_BLANKING;
	return pclk >= MIN_PCLK && pclk <= MAX_PCLK;
}

/* The integer square root of n. */
static unsigned int isqrt(unsigned long long n)
{
	unsigned long long r = 0, bit;

	for (bit = 1ULL << 62; bit > n; bit >>= 2)
		;
	for (; bit; bit >>= 2) {
		if (n >= r + bit) {
			n -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
	}
	return (unsigned int)r;
}

/*
 * A 16:10 frame size of about px pixels (width a multiple of 8, height
 * even) within vivid's limits and with a pixel clock of at most 775 MHz
 * at period_ns; 0 when there is none.
 */
static int frame_size(double px, long long period_ns, unsigned int *w,
		      unsigned int *h)
{
	struct v4l2_dv_timings t;
	double s;

	if (px > (double)MAX_WIDTH * MAX_HEIGHT)
		px = (double)MAX_WIDTH * MAX_HEIGHT;
	for (s = 1.0; s > 0.01; s *= 0.98) {
		*w = isqrt((unsigned long long)(px * s * 16 / 10)) & ~7u;
		if (*w > MAX_WIDTH)
			*w = MAX_WIDTH;
		if (*w < MIN_SIZE * 2)
			*w = MIN_SIZE * 2;
		*h = (*w * 10 / 16) & ~1u;
		if (*h > MAX_HEIGHT)
			*h = MAX_HEIGHT;
		if (cvt_rb2(*w, *h, period_ns, &t))
			return 1;
		if (t.bt.pixelclock < MIN_PCLK) {
			ktap_diag("%ux%u would need a pixel clock of %llu Hz at %lld us a frame, under vivid's 14 MHz: a frame vivid can stream at this period draws too slowly here",
				  *w, *h, (unsigned long long)t.bt.pixelclock,
				  period_ns / 1000);
			return 0;
		}
	}
	return 0;
}

static int cmp_ull(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a;
	unsigned long long y = *(const unsigned long long *)b;

	return (x > y) - (x < y);
}

/*
 * Dequeue and queue again until ms have passed or max frames came, never
 * sleeping: the loop reads the TSC and tries DQBUF. A stretch of more than
 * an eighth of a jiffy it lost to the CPU followed by k buffers is k
 * drawings (the kernel is not preemptive: the capture thread draws in one
 * go, and draws the next frame at once when its deadline has passed).
 */
static void dequeue(struct stream *st, long long ms, unsigned int max)
{
	long long last_seq = -1, last_ts = -1;
	long long end = ktap_now_ms() + ms;
	unsigned long long prev = tsc(), burst = 0, t;
	unsigned long long big = tsc_jiffy / 8;
	unsigned int nlag = 0, k = 0;

	st->first_bad = -1;
	while (st->frames < max && ktap_now_ms() < end) {
		struct v4l2_buffer b = {
			.type = CAP, .memory = V4L2_MEMORY_MMAP,
		};
		long long ts;
		int bad;

		t = tsc();
		if (t - prev > big) {
			if (k && nlag < MAX_FRAMES)
				lag[nlag++] = burst / k;
			burst = t - prev;
			k = 0;
		}
		prev = t;
		if (ioctl(fd, VIDIOC_DQBUF, &b)) {
			if (errno == EAGAIN)
				continue;
			ktap_perror("VIDIOC_DQBUF");
			st->errors++;
			break;
		}
		k++;
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
		prev = tsc();
	}
	errno = 0;
	if (k && burst && nlag < MAX_FRAMES)
		lag[nlag++] = burst / k;
	/* none: drawings shorter than an eighth of a jiffy */
	st->draw_tsc = big / 2;
	if (nlag) {
		qsort(lag, nlag, sizeof(lag[0]), cmp_ull);
		st->draw_tsc = lag[nlag / 2];
	}
}

/*
 * One stream of w x h at a period of about period_ns: S_DV_TIMINGS,
 * buffers, STREAMON, dequeue, STREAMOFF, free. 1 when it streamed
 * MIN_FRAMES or more without an error.
 */
static int stream(unsigned int w, unsigned int h, long long period_ns,
		  long long ms, unsigned int max)
{
	struct stream *st = &streams[nstreams++];
	struct v4l2_requestbuffers rb = {
		.count = NBUFS, .type = CAP, .memory = V4L2_MEMORY_MMAP,
	};
	struct v4l2_streamparm parm = { .type = CAP };
	struct v4l2_format f = { .type = CAP };
	struct v4l2_dv_timings t;
	enum v4l2_buf_type type = CAP;
	void *mem[NBUFS] = { NULL };
	size_t len[NBUFS] = { 0 };
	struct v4l2_fract *tpf = &parm.parm.capture.timeperframe;
	struct tick t0, t1;
	long long jiffies;
	int ok = 0, on = 0;

	st->w = w;
	st->h = h;
	if (!cvt_rb2(w, h, period_ns, &t)) {
		ktap_diag("%ux%u: pixel clock %llu Hz for %lld us a frame is out of range",
			  w, h, (unsigned long long)t.bt.pixelclock,
			  period_ns / 1000);
		return 0;
	}
	if (!xioctl(VIDIOC_S_DV_TIMINGS, &t, "VIDIOC_S_DV_TIMINGS") ||
	    !xioctl(VIDIOC_G_DV_TIMINGS, &t, "VIDIOC_G_DV_TIMINGS") ||
	    !xioctl(VIDIOC_G_PARM, &parm, "VIDIOC_G_PARM") ||
	    !xioctl(VIDIOC_G_FMT, &f, "VIDIOC_G_FMT"))
		return 0;
	st->pclk = t.bt.pixelclock;
	if (!tpf->denominator || t.bt.width != w || t.bt.height != h ||
	    f.fmt.pix.width != w || f.fmt.pix.height != h) {
		ktap_diag("%ux%u asked, timings %ux%u, format %ux%u, %u/%u s a frame",
			  w, h, t.bt.width, t.bt.height, f.fmt.pix.width,
			  f.fmt.pix.height, tpf->numerator, tpf->denominator);
		return 0;
	}
	st->period_ns = tpf->numerator * 1000000000LL / tpf->denominator;
	if (!xioctl(VIDIOC_REQBUFS, &rb, "VIDIOC_REQBUFS"))
		return 0;
	if (rb.count != NBUFS) {
		ktap_diag("REQBUFS gave %u buffers, not %u", rb.count, NBUFS);
		goto free;
	}
	if (!vivid_map(NBUFS, mem, len, 0) || !vivid_queue_all(NBUFS))
		goto free;
	next_tick(&t0);
	on = xioctl(VIDIOC_STREAMON, &type, "VIDIOC_STREAMON");
	if (on)
		dequeue(st, ms, max);
	ok = on && xioctl(VIDIOC_STREAMOFF, &type, "VIDIOC_STREAMOFF");
	next_tick(&t1);
	jiffies = (t1.ns - t0.ns + jiffy_ns / 2) / jiffy_ns;
	if (jiffies > 0)
		st->tsc_jiffy = (t1.tsc - t0.tsc) / (unsigned long long)jiffies;
	if (st->tsc_jiffy)
		st->draw_cj = (long long)(st->draw_tsc * 100 / st->tsc_jiffy);
	ktap_diag("%ux%u, pixel clock %llu Hz, %lld us = %lld.%02lld jiffies a frame: %u frames in %lld jiffies (%llu TSC counts each), drawn in %lld us = %lld.%02lld jiffies (median); %u gaps, %u duplicates, %u decreases, %u timestamps going back, %u errors",
		  w, h, st->pclk, st->period_ns / 1000,
		  ns_cj(st->period_ns) / 100, ns_cj(st->period_ns) % 100,
		  st->frames, jiffies, st->tsc_jiffy,
		  cj_ns(st->draw_cj) / 1000, st->draw_cj / 100,
		  st->draw_cj % 100, st->gaps, st->dups, st->backs,
		  st->ts_back, st->errors);
free:
	vivid_unmap(NBUFS, mem, len);
	rb.count = 0;
	ok = xioctl(VIDIOC_REQBUFS, &rb, "VIDIOC_REQBUFS 0") && ok;
	return ok && !st->errors && st->draw_cj > 0 &&
	       st->frames >= (max < MIN_FRAMES ? max : MIN_FRAMES);
}

/*
 * The size that should draw in DRAW_CJ, from the last two measurements
 * (a secant in pixels, drawing time taken as affine in the pixel count),
 * or from the last one alone (proportional).
 */
static double next_px(const struct stream *a, const struct stream *b)
{
	double want = DRAW_CJ;
	double pb = (double)b->w * b->h, db = (double)b->draw_cj;

	if (a) {
		double pa = (double)a->w * a->h, da = (double)a->draw_cj;

		if (pa != pb && (db - da) * (pb - pa) > 0) {
			double px = pb + (want - db) * (pb - pa) / (db - da);

			if (px > pb / 4 && px < pb * 4)
				return px;
		}
	}
	return pb * want / db;
}

/* Slow streams until a frame size draws in about DRAW_CJ. */
static int calibrate(void)
{
	long long period = cj_ns(PERIOD_CJ), slow;
	unsigned int w = 960, h = 600, i;
	struct stream *st = NULL, *prev = NULL;
	long long d;

	if (!jiffy_ns)
		return 0;
	for (i = 0; i < NCAL; i++) {
		slow = 10 * jiffy_ns;
		if (st && 4 * cj_ns(st->draw_cj) > slow)
			slow = 4 * cj_ns(st->draw_cj);
		/* vivid's lowest pixel clock bounds the period of a size */
		if (slow > (long long)((w + RB2_HBLANK) * (h + 15ULL) *
				       1000000000ULL / MIN_PCLK))
			slow = (long long)((w + RB2_HBLANK) * (h + 15ULL) *
					   1000000000ULL / MIN_PCLK);
		prev = st;
		st = &streams[nstreams];
		if (!stream(w, h, slow, 40 * slow / 1000000, CAL_FRAMES))
			return 0;
		ncal++;
		d = st->draw_cj;
		if (!frame_size(next_px(prev, st), period, &pick_w, &pick_h)) {
			ktap_diag("no frame size fits a %lld us frame period",
				  period / 1000);
			return 0;
		}
		if ((d > DRAW_CJ * 9 / 10 && d < DRAW_CJ * 11 / 10) ||
		    (pick_w == w && pick_h == h))
			break;
		w = pick_w;
		h = pick_h;
	}
	ktap_diag("chosen: %ux%u at %lld.%02lld jiffies a frame (%lld us), drawing %lld.%02lld jiffies expected",
		  pick_w, pick_h, PERIOD_CJ / 100LL, PERIOD_CJ % 100LL,
		  period / 1000, DRAW_CJ / 100LL, DRAW_CJ % 100LL);
	d = (long long)(st->draw_cj * ((double)pick_w * pick_h) /
			((double)st->w * st->h));
	if (d < DRAW_MIN_CJ) {
		ktap_diag("impossible here: the largest frame vivid can stream at %lld.%02lld jiffies a frame draws in about %lld.%02lld jiffies, under the %lld.%02lld it must take to span a timer tick",
			  PERIOD_CJ / 100LL, PERIOD_CJ % 100LL, d / 100,
			  d % 100, DRAW_MIN_CJ / 100LL, DRAW_MIN_CJ % 100LL);
		return 0;
	}
	calibrated = 1;
	return 1;
}

/*
 * Streams at PERIOD_CJ until NWINDOW of them drew within the window, NTRIES
 * at most; after each, the size is corrected by the drawing time it saw
 * (in proportion, then by secant through the last two fast streams: the
 * slow calibration streams ran under other conditions).
 */
static int stream_fast(void)
{
	long long period = cj_ns(PERIOD_CJ), d;
	unsigned int i, w = pick_w, h = pick_h;
	struct stream *st, *prev = NULL;

	if (!calibrated)
		return 0;
	for (i = 0; i < NTRIES && in_window < NWINDOW; i++) {
		st = &streams[nstreams];
		if (!stream(w, h, period, STREAM_MS, MAX_FRAMES))
			return 0;
		if (ns_cj(st->period_ns) < 100) {
			ktap_diag("frame period under a jiffy");
			return 0;
		}
		d = st->draw_cj;
		if (d >= DRAW_MIN_CJ && d <= DRAW_MAX_CJ)
			in_window++;
		else if (!frame_size(next_px(prev, st), period, &w, &h))
			return 0;
		prev = st;
	}
	return 1;
}

static int window_held(void)
{
	const struct stream *st;
	unsigned int i;

	for (i = ncal; i < nstreams; i++) {
		st = &streams[i];
		if (!st->period_ns)
			continue;
		ktap_diag("stream %u: %ux%u drawn in %lld.%02lld jiffies of a %lld.%02lld-jiffy frame period: %s",
			  i, st->w, st->h, st->draw_cj / 100,
			  st->draw_cj % 100, ns_cj(st->period_ns) / 100,
			  ns_cj(st->period_ns) % 100,
			  st->draw_cj >= DRAW_MIN_CJ &&
			  st->draw_cj <= DRAW_MAX_CJ ? "within" : "outside");
	}
	return in_window >= NWINDOW;
}

static int sequence_rises(void)
{
	unsigned int i, bad = 0;

	for (i = 0; i < nstreams; i++)
		if (streams[i].dups || streams[i].backs) {
			ktap_diag("stream %u (%ux%u): %u repeated and %u decreasing sequence numbers in %u frames, the first at frame %lld",
				  i, streams[i].w, streams[i].h,
				  streams[i].dups, streams[i].backs,
				  streams[i].frames, streams[i].first_bad);
			bad++;
		}
	return nstreams > 0 && !bad;
}

static int timestamps_never_back(void)
{
	unsigned int i, bad = 0;

	for (i = 0; i < nstreams; i++)
		bad += streams[i].ts_back;
	return nstreams > 0 && !bad;
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
	{ "CONFIG_HZ read from /proc/config.gz", read_hz },
	{ "calibrated: a frame size drawn in about 1.48 jiffies at 2.3 jiffies a frame",
	  calibrate },
	{ "streams at 2.3 jiffies a frame: 5 frames or more, no error",
	  stream_fast },
	{ "2 streams drew their frames in 1.05 to 2.1 jiffies (median), the range where 6.1 repeats numbers",
	  window_held },
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
