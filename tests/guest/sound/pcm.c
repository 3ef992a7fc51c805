// SPDX-License-Identifier: GPL-2.0
/*
 * pcm - drive QEMU's intel-hda controller and hda-duplex codec through the
 * raw ALSA ioctls (no alsa-lib), against QEMU's "none" audio backend,
 * which plays and records silence at the real sample rate.
 *
 * Control device /dev/snd/controlC0:
 *   - SNDRV_CTL_IOCTL_CARD_INFO names driver "HDA-Intel", card "HDA
 *     Intel" and mixer "QEMU Generic" (the codec, vendor 0x1af4);
 *   - writing "Master Playback Volume" 40/50 and its switch on reads back
 *     through SNDRV_CTL_IOCTL_ELEM_READ, and reaches the codec: the amp
 *     values /proc/asound/card0/codec#0 reads from it with a verb are
 *     0x28 0x32 (unmuted).
 *
 * Playback on /dev/snd/pcmC0D0p and capture on /dev/snd/pcmC0D0c, each:
 *   - SNDRV_PCM_IOCTL_HW_REFINE of an open configuration space leaves
 *     only what the codec offers: S16_LE, 2 channels, 16000 to 96000 Hz;
 *   - SNDRV_PCM_IOCTL_HW_PARAMS for S16_LE, 2 channels, 48000 Hz, four
 *     periods of 1024 frames returns exactly that;
 *   - SNDRV_PCM_IOCTL_SW_PARAMS is taken and reports a boundary that is a
 *     multiple of the buffer size; SNDRV_PCM_IOCTL_PREPARE leaves the
 *     stream PREPARED.
 * Playback: SNDRV_PCM_IOCTL_WRITEI_FRAMES of four periods is taken whole
 * and starts the stream; poll() for POLLOUT returns within 2 s and
 * SNDRV_PCM_IOCTL_STATUS shows the stream RUNNING with the hardware
 * pointer at least a period on; after one more period is written the
 * pointer moves on again; SNDRV_PCM_IOCTL_DROP stops it (SETUP). Then two
 * periods are written and SNDRV_PCM_IOCTL_DRAIN, blocking, returns after
 * they played (SETUP).
 * Capture: after SNDRV_PCM_IOCTL_START, poll() for POLLIN returns within
 * 2 s, SNDRV_PCM_IOCTL_READI_FRAMES of one period returns that many
 * frames, all silence (the buffer was filled with 0x55 first), and the
 * hardware pointer is at least a period on; DROP stops it.
 *
 * This guards the ALSA PCM and control character devices
 * (sound/core/pcm_native.c, control.c) and their ioctl paths through any
 * rework of file_operations. Both open nonseekable and name no_llseek,
 * the refusal the 2.6.37 llseek work (upstream 6038f373a3dc) made the
 * default for drivers without an llseek method.
 */
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sound/asound.h>
#include <sys/ioctl.h>

#include "ktap.h"

#define CTL "/dev/snd/controlC0"
#define PCM_PLAY "/dev/snd/pcmC0D0p"
#define PCM_CAPT "/dev/snd/pcmC0D0c"
#define CODEC_PROC "/proc/asound/card0/codec#0"

#define RATE 48000
#define CHANNELS 2
#define PERIOD 1024
#define PERIODS 4
#define BUFFER (PERIOD * PERIODS)
#define FRAME_BYTES (CHANNELS * 2)
#define RATE_MIN 16000
#define RATE_MAX 96000
#define WAIT_MS 2000

#define VOL_LEFT 40
#define VOL_RIGHT 50
#define AMP_VALS "Amp-Out vals:  [0x28 0x32]"

static short frames[BUFFER * CHANNELS];

/* Cases: control 3, per stream 4, playback 5, capture 3. */
#define CASES (3 + 2 * 4 + 5 + 3)

static struct snd_mask *mask(struct snd_pcm_hw_params *p, int var)
{
	return &p->masks[var - SNDRV_PCM_HW_PARAM_FIRST_MASK];
}

static struct snd_interval *interval(struct snd_pcm_hw_params *p, int var)
{
	return &p->intervals[var - SNDRV_PCM_HW_PARAM_FIRST_INTERVAL];
}

static void params_any(struct snd_pcm_hw_params *p)
{
	int i;

	/*
	 * Every defined value: the kernel's format constraints are 64-bit
	 * masks and leave the words above them as they were.
	 */
	memset(p, 0, sizeof(*p));
	for (i = SNDRV_PCM_HW_PARAM_FIRST_MASK;
	     i <= SNDRV_PCM_HW_PARAM_LAST_MASK; i++)
		mask(p, i)->bits[0] = mask(p, i)->bits[1] = ~0U;
	for (i = SNDRV_PCM_HW_PARAM_FIRST_INTERVAL;
	     i <= SNDRV_PCM_HW_PARAM_LAST_INTERVAL; i++)
		interval(p, i)->max = UINT_MAX;
	p->rmask = ~0U;
	p->info = ~0U;
}

static void mask_only(struct snd_pcm_hw_params *p, int var, unsigned int bit)
{
	struct snd_mask *m = mask(p, var);

	memset(m, 0, sizeof(*m));
	m->bits[bit / 32] = 1U << (bit % 32);
}

static int mask_is_only(struct snd_pcm_hw_params *p, int var,
			unsigned int bit)
{
	struct snd_mask want;
	const __u32 *b = mask(p, var)->bits;

	memset(&want, 0, sizeof(want));
	want.bits[bit / 32] = 1U << (bit % 32);
	if (memcmp(mask(p, var), &want, sizeof(want)))
		ktap_diag("param %d: mask %08x %08x", var, b[0], b[1]);
	return !memcmp(mask(p, var), &want, sizeof(want));
}

static void interval_set(struct snd_pcm_hw_params *p, int var,
			 unsigned int val)
{
	struct snd_interval *i = interval(p, var);

	memset(i, 0, sizeof(*i));
	i->min = i->max = val;
	i->integer = 1;
}

/* The interval is [lo, hi], both ends closed. */
static int interval_is(struct snd_pcm_hw_params *p, int var, unsigned int lo,
		       unsigned int hi)
{
	struct snd_interval *i = interval(p, var);

	if (i->min != lo || i->max != hi || i->openmin || i->openmax ||
	    i->empty)
		ktap_diag("param %d: %s%u, %u%s%s", var, i->openmin ? "(" : "[",
			  i->min, i->max, i->openmax ? ")" : "]",
			  i->empty ? " empty" : "");
	return i->min == lo && i->max == hi && !i->openmin && !i->openmax &&
	       !i->empty;
}

static int pcm_state(int fd, struct snd_pcm_status *st)
{
	memset(st, 0, sizeof(*st));
	if (ioctl(fd, SNDRV_PCM_IOCTL_STATUS, st))
		return ktap_perror("SNDRV_PCM_IOCTL_STATUS");
	ktap_diag("state %d hw_ptr %lu appl_ptr %lu avail %lu delay %ld",
		  (int)st->state, st->hw_ptr, st->appl_ptr, st->avail,
		  st->delay);
	return st->state;
}

static int wait_fd(int fd, short events)
{
	struct pollfd pfd = { .fd = fd, .events = events };

	return poll(&pfd, 1, WAIT_MS) == 1 && (pfd.revents & events);
}

/* Refine, set, software parameters and prepare: 4 cases. */
static int setup_stream(int fd, const char *name, int capture)
{
	struct snd_pcm_hw_params hw;
	struct snd_pcm_sw_params sw;
	int ok;

	params_any(&hw);
	mask_only(&hw, SNDRV_PCM_HW_PARAM_ACCESS,
		  SNDRV_PCM_ACCESS_RW_INTERLEAVED);
	ok = !ioctl(fd, SNDRV_PCM_IOCTL_HW_REFINE, &hw);
	if (!ok)
		ktap_perror("SNDRV_PCM_IOCTL_HW_REFINE");
	ok = ok && mask_is_only(&hw, SNDRV_PCM_HW_PARAM_FORMAT,
				SNDRV_PCM_FORMAT_S16_LE);
	ok = ok && interval_is(&hw, SNDRV_PCM_HW_PARAM_CHANNELS, CHANNELS,
			       CHANNELS);
	ok = ok && interval_is(&hw, SNDRV_PCM_HW_PARAM_RATE, RATE_MIN,
			       RATE_MAX);
	ktap_ok(ok, "%s HW_REFINE leaves S16_LE, %d channels, %d to %d Hz",
		name, CHANNELS, RATE_MIN, RATE_MAX);

	params_any(&hw);
	mask_only(&hw, SNDRV_PCM_HW_PARAM_ACCESS,
		  SNDRV_PCM_ACCESS_RW_INTERLEAVED);
	mask_only(&hw, SNDRV_PCM_HW_PARAM_FORMAT, SNDRV_PCM_FORMAT_S16_LE);
	mask_only(&hw, SNDRV_PCM_HW_PARAM_SUBFORMAT,
		  SNDRV_PCM_SUBFORMAT_STD);
	interval_set(&hw, SNDRV_PCM_HW_PARAM_CHANNELS, CHANNELS);
	interval_set(&hw, SNDRV_PCM_HW_PARAM_RATE, RATE);
	interval_set(&hw, SNDRV_PCM_HW_PARAM_PERIOD_SIZE, PERIOD);
	interval_set(&hw, SNDRV_PCM_HW_PARAM_BUFFER_SIZE, BUFFER);
	ok = !ioctl(fd, SNDRV_PCM_IOCTL_HW_PARAMS, &hw);
	if (!ok)
		ktap_perror("SNDRV_PCM_IOCTL_HW_PARAMS");
	ok = ok && interval_is(&hw, SNDRV_PCM_HW_PARAM_RATE, RATE, RATE);
	ok = ok && interval_is(&hw, SNDRV_PCM_HW_PARAM_CHANNELS, CHANNELS,
			       CHANNELS);
	ok = ok && interval_is(&hw, SNDRV_PCM_HW_PARAM_PERIOD_SIZE, PERIOD,
			       PERIOD);
	ok = ok && interval_is(&hw, SNDRV_PCM_HW_PARAM_PERIODS, PERIODS,
			       PERIODS);
	ok = ok && interval_is(&hw, SNDRV_PCM_HW_PARAM_BUFFER_SIZE, BUFFER,
			       BUFFER);
	ok = ok && hw.rate_num == RATE && hw.rate_den == 1;
	ktap_ok(ok, "%s HW_PARAMS S16_LE, %d channels, %d Hz, %d periods of %d frames",
		name, CHANNELS, RATE, PERIODS, PERIOD);

	/* The boundary comes back from the first call; never stop on xrun. */
	memset(&sw, 0, sizeof(sw));
	sw.proto = SNDRV_PCM_VERSION;
	sw.period_step = 1;
	sw.avail_min = PERIOD;
	sw.start_threshold = capture ? 1 : PERIOD;
	sw.stop_threshold = BUFFER;
	ok = !ioctl(fd, SNDRV_PCM_IOCTL_SW_PARAMS, &sw);
	ok = ok && sw.boundary >= BUFFER && sw.boundary % BUFFER == 0;
	sw.stop_threshold = sw.boundary;
	ok = ok && !ioctl(fd, SNDRV_PCM_IOCTL_SW_PARAMS, &sw);
	if (!ok)
		ktap_diag("boundary %lu: %s", sw.boundary, strerror(errno));
	ktap_ok(ok, "%s SW_PARAMS taken, boundary a multiple of %d frames",
		name, BUFFER);

	return ok;
}

static int prepare(int fd, const char *name)
{
	struct snd_pcm_status st;

	return ktap_ok(!ioctl(fd, SNDRV_PCM_IOCTL_PREPARE) &&
		       pcm_state(fd, &st) == SNDRV_PCM_STATE_PREPARED,
		       "%s PREPARE leaves the stream PREPARED", name);
}

static long writei(int fd, unsigned long n)
{
	struct snd_xferi x = { .buf = frames, .frames = n };

	if (ioctl(fd, SNDRV_PCM_IOCTL_WRITEI_FRAMES, &x))
		return ktap_perror("SNDRV_PCM_IOCTL_WRITEI_FRAMES");
	return x.result;
}

static void test_playback(void)
{
	struct snd_pcm_status st;
	unsigned long hw1;
	long long t0, ms;
	long n;
	int fd, ok, flags;

	fd = open(PCM_PLAY, O_RDWR | O_NONBLOCK);
	if (fd < 0)
		ktap_bail("open %s: %s", PCM_PLAY, strerror(errno));
	setup_stream(fd, "playback", 0);
	prepare(fd, "playback");

	memset(frames, 0, sizeof(frames));
	n = writei(fd, BUFFER);
	ktap_ok(n == BUFFER,
		"playback WRITEI_FRAMES of %d frames takes them all", BUFFER);

	ok = wait_fd(fd, POLLOUT) &&
	     pcm_state(fd, &st) == SNDRV_PCM_STATE_RUNNING &&
	     st.hw_ptr >= PERIOD && st.appl_ptr == BUFFER;
	hw1 = st.hw_ptr;
	ktap_ok(ok,
		"playback POLLOUT within %d ms, RUNNING, hw_ptr a period on",
		WAIT_MS);

	n = writei(fd, PERIOD);
	ok = n == PERIOD && wait_fd(fd, POLLOUT) &&
	     pcm_state(fd, &st) == SNDRV_PCM_STATE_RUNNING && st.hw_ptr > hw1;
	ktap_ok(ok, "playback hw_ptr moves on after one more period");

	ktap_ok(!ioctl(fd, SNDRV_PCM_IOCTL_DROP) &&
		pcm_state(fd, &st) == SNDRV_PCM_STATE_SETUP,
		"playback DROP leaves the stream SETUP");

	/* Drain waits in the kernel: only for a blocking descriptor. */
	flags = fcntl(fd, F_GETFL);
	ok = !ioctl(fd, SNDRV_PCM_IOCTL_PREPARE) &&
	     writei(fd, 2 * PERIOD) == 2 * PERIOD &&
	     !fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
	t0 = ktap_now_ms();
	ok = ok && !ioctl(fd, SNDRV_PCM_IOCTL_DRAIN);
	ms = ktap_now_ms() - t0;
	ktap_diag("drain of %d frames took %lld ms", 2 * PERIOD, ms);
	ok = ok && pcm_state(fd, &st) == SNDRV_PCM_STATE_SETUP &&
	     st.hw_ptr >= 2 * PERIOD && ms < WAIT_MS;
	ktap_ok(ok, "playback DRAIN of two periods plays them out within %d ms",
		WAIT_MS);
	close(fd);
}

static int all_zero(const short *s, size_t n)
{
	while (n--)
		if (*s++)
			return 0;
	return 1;
}

static void test_capture(void)
{
	struct snd_pcm_status st;
	struct snd_xferi x = { .buf = frames, .frames = PERIOD };
	int fd, ok;

	fd = open(PCM_CAPT, O_RDWR | O_NONBLOCK);
	if (fd < 0)
		ktap_bail("open %s: %s", PCM_CAPT, strerror(errno));
	setup_stream(fd, "capture", 1);
	prepare(fd, "capture");

	ok = !ioctl(fd, SNDRV_PCM_IOCTL_START) && wait_fd(fd, POLLIN);
	memset(frames, 0x55, sizeof(frames));
	ok = ok && !ioctl(fd, SNDRV_PCM_IOCTL_READI_FRAMES, &x);
	ktap_diag("read %ld frames", (long)x.result);
	ktap_ok(ok && x.result == PERIOD &&
		all_zero(frames, PERIOD * CHANNELS),
		"capture READI_FRAMES of %d frames returns %d frames of silence",
		PERIOD, PERIOD);
	ok = pcm_state(fd, &st) == SNDRV_PCM_STATE_RUNNING &&
	     st.hw_ptr >= PERIOD;
	ktap_ok(ok, "capture RUNNING, hw_ptr a period on");
	ktap_ok(!ioctl(fd, SNDRV_PCM_IOCTL_DROP) &&
		pcm_state(fd, &st) == SNDRV_PCM_STATE_SETUP,
		"capture DROP leaves the stream SETUP");
	close(fd);
}

static int elem_write(int fd, const char *name, long left, long right)
{
	struct snd_ctl_elem_value v;

	memset(&v, 0, sizeof(v));
	v.id.iface = SNDRV_CTL_ELEM_IFACE_MIXER;
	snprintf((char *)v.id.name, sizeof(v.id.name), "%s", name);
	v.value.integer.value[0] = left;
	v.value.integer.value[1] = right;
	if (ioctl(fd, SNDRV_CTL_IOCTL_ELEM_WRITE, &v) < 0)
		return ktap_perror(name);
	return 0;
}

static int elem_is(int fd, const char *name, long left, long right)
{
	struct snd_ctl_elem_value v;

	memset(&v, 0, sizeof(v));
	v.id.iface = SNDRV_CTL_ELEM_IFACE_MIXER;
	snprintf((char *)v.id.name, sizeof(v.id.name), "%s", name);
	if (ioctl(fd, SNDRV_CTL_IOCTL_ELEM_READ, &v))
		return ktap_perror(name) + 1;
	ktap_diag("%s: %ld %ld", name, v.value.integer.value[0],
		  v.value.integer.value[1]);
	return v.value.integer.value[0] == left &&
	       v.value.integer.value[1] == right;
}

/* The codec's amp values, as the proc file reads them from QEMU. */
static int codec_has(const char *text)
{
	char line[256];
	FILE *f = fopen(CODEC_PROC, "r");
	int found = 0;

	if (!f)
		return ktap_perror(CODEC_PROC) + 1;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, text))
			found = 1;
	fclose(f);
	return found;
}

static void test_control(void)
{
	struct snd_ctl_card_info info;
	int fd, ok;

	fd = open(CTL, O_RDWR);
	if (fd < 0)
		ktap_bail("open %s: %s", CTL, strerror(errno));
	memset(&info, 0, sizeof(info));
	ok = !ioctl(fd, SNDRV_CTL_IOCTL_CARD_INFO, &info);
	ktap_diag("card %d id '%s' driver '%s' name '%s' mixer '%s'", info.card,
		  info.id, info.driver, info.name, info.mixername);
	ktap_ok(ok && info.card == 0 &&
		!strcmp((char *)info.driver, "HDA-Intel") &&
		!strcmp((char *)info.name, "HDA Intel") &&
		!strcmp((char *)info.mixername, "QEMU Generic"),
		"CARD_INFO card 0 driver HDA-Intel, name HDA Intel, mixer QEMU Generic");

	ok = !elem_write(fd, "Master Playback Volume", VOL_LEFT, VOL_RIGHT) &&
	     !elem_write(fd, "Master Playback Switch", 1, 1) &&
	     elem_is(fd, "Master Playback Volume", VOL_LEFT, VOL_RIGHT) &&
	     elem_is(fd, "Master Playback Switch", 1, 1);
	ktap_ok(ok, "Master Playback Volume %d %d and Switch on read back",
		VOL_LEFT, VOL_RIGHT);
	ktap_ok(codec_has(AMP_VALS),
		"the codec's output amp reads 0x28 0x32, unmuted");
	close(fd);
}

static void run(void)
{
	test_control();
	test_playback();
	test_capture();
}

const struct ktap_test ktap_test = {
	.plan = CASES,
	.devices = (const char *const[]){ CTL, PCM_PLAY, PCM_CAPT, NULL },
	.kconfig = (const char *const[]){ "CONFIG_SND_HDA_INTEL",
		"CONFIG_SND_HDA_GENERIC", NULL },
	.timeout = 30,
	.upstream = "6038f373a3dc",
	.run = run,
};
