// SPDX-License-Identifier: GPL-2.0
/*
 * oss-seq-midi - the sound core without sound hardware: snd-dummy (a card
 * with PCM and mixer), snd-virmidi (a card of virtual rawmidi ports on the
 * sequencer) and, over them, the OSS PCM and mixer emulation, the ALSA
 * sequencer, the OSS sequencer and rawmidi. Each file is driven through
 * its own file operations beyond open; the cards are found by driver in
 * /proc/asound/cards, never by index.
 *
 * /dev/mixer (sound/core/oss/mixer_oss.c) on the dummy card:
 *   - SOUND_MIXER_INFO names id "Dummy" (the card's driver) and "Dummy
 *     Mixer"; DEVMASK, STEREODEVS and RECMASK are VOLUME, SYNTH, LINE,
 *     MIC and CD (0x1c9): the dummy's "X Volume" and "X Capture Switch";
 *   - READ_VOLUME is 33:33, the control's 0 on its -50..100 range;
 *     WRITE_VOLUME 75:60 reads back 75:60 and the ALSA control holds
 *     63 40 (DIV_ROUND_CLOSEST(150 * v, 100) - 50).
 * /dev/dsp (sound/core/oss/pcm_oss.c) on the dummy card, playback:
 *   - GETFMTS is the full OSS list 0x5b1f9: without
 *     CONFIG_SND_PCM_OSS_PLUGINS a stream is not "direct" and
 *     snd_pcm_oss_get_formats() returns the fixed list;
 *   - S16_LE, 2 channels, 48000 Hz are taken; GETBLKSIZE is 8192 and
 *     GETOSPACE 8 fragments of 8192 bytes, not 16 of 4096: the fragment
 *     is sized from the buffer's frame limit read while the format mask
 *     still allows U8 (128 KiB of S16 stereo), then the 64 KiB buffer
 *     keeps 8 of them;
 *   - poll says POLLOUT before a write; a non-blocking write of 16384
 *     bytes of silence is taken whole and SNDCTL_DSP_SYNC plays it out
 *     (85.3 ms of sound; at least 77 ms, two jiffies of the dummy's
 *     timer less, after the write);
 * capture: with the trigger off a non-blocking read is EAGAIN; after
 * PCM_ENABLE_INPUT poll says POLLIN within 2 s and a read returns one
 * 8192-byte fragment.
 * /dev/snd/seq (sound/core/seq/seq_clientmgr.c):
 *   - PVERSION 1.0.3, CLIENT_ID 128 (the first dynamic client);
 *   - a port subscribed to itself: read EAGAIN and no POLLIN, then a
 *     NOTEON written to its subscribers is read back, source and
 *     destination the port;
 *   - snd-virmidi's client for device 0 of its card is a kernel client
 *     "Virtual Raw MIDI C-0" with port 0 "VirMIDI C-0", 16 channels.
 * /dev/snd/midiCcD0 (sound/core/rawmidi.c) of the virmidi card:
 *   - PVERSION 2.0.2; INFO of the output: id "VirMidi", name "Virtual
 *     Raw MIDI", flags output, input and duplex, 16 subdevices, 15 free;
 *   - 90 3c 64 written and drained arrives at a seq port subscribed to
 *     the virmidi port as NOTEON channel 0 note 60 velocity 100;
 *   - a NOTEON channel 1 note 64 velocity 80 sent to the virmidi port
 *     reads back as 91 40 50; before it a read is EAGAIN, no POLLIN.
 * /dev/sequencer (sound/core/seq/oss/seq_oss.c), synth mode:
 *   - NRSYNTHS 0, NRMIDIS 4 (snd-virmidi's default midi_devs); one
 *     MIDI_INFO names "VirMIDI C-0";
 *   - poll says POLLOUT and not POLLIN; it is noop_llseek, so
 *     SEEK_SET 4096 returns 0;
 *   - three SEQ_MIDIPUTC records written reach the rawmidi as 90 3c 64;
 *   - 90 3c 64 written to the rawmidi reads back as SEQ_MIDIPUTC
 *     records after a SEQ_WAIT (GETINCOUNT 4); SNDCTL_SEQ_RESET empties
 *     the queue (GETINCOUNT 0, read EAGAIN).
 * Every one of these files but seq_oss.c names no_llseek, which the llseek
 * series drops: lseek stays ESPIPE on both kernels.
 */
#include <fcntl.h>
#include <poll.h>
#include <sound/asound.h>
#include <sound/asequencer.h>
#include <linux/soundcard.h>
#include <sys/ioctl.h>

#include "ktap.h"

#define CARDS "/proc/asound/cards"
#define SEQ "/dev/snd/seq"
#define SEQUENCER "/dev/sequencer"
#define WAIT_MS 2000

/* The OSS formats pcm_oss.c lists when not direct (AFMT_S32_LE on). */
#define OSS_ALL_FORMATS (AFMT_MU_LAW | AFMT_U8 | AFMT_S16_LE | AFMT_S16_BE | \
			 AFMT_S8 | AFMT_U16_LE | AFMT_U16_BE | 0x1000 | \
			 0x2000 | 0x8000 | 0x10000 | 0x40000)
#define DUMMY_DEVMASK (SOUND_MASK_VOLUME | SOUND_MASK_SYNTH | \
		       SOUND_MASK_LINE | SOUND_MASK_MIC | SOUND_MASK_CD)

#define RATE 48000
#define FRAME 4	/* S16_LE, 2 channels */
#define FRAG 8192	/* 128 KiB halved to under 1 s, divided by 8 */
#define FRAGS 8		/* what of 16 fit the dummy's 64 KiB */
#define VIRMIDI_DEVS 4

static int dummy_card = -1, virmidi_card = -1;
static int virmidi_client = -1;
static char buf[FRAG * 2];

/* Node NAME of card C, waited for like a declared device. */
static int node(const char *name, int card, int flags)
{
	char path[64];

	snprintf(path, sizeof(path), name, card);
	return ktap_open_dev(path, flags);
}

/* OSS names card 0's nodes without a number: /dev/dsp, /dev/dsp1. */
static int oss_node(const char *name, int card, int flags)
{
	char fmt[32];

	snprintf(fmt, sizeof(fmt), card ? "/dev/%s%%d" : "/dev/%s", name);
	return node(fmt, card, flags);
}

static int poll_in(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, ms) == 1 && (p.revents & POLLIN);
}

static short poll_now(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN | POLLOUT };

	return poll(&p, 1, 0) < 0 ? POLLERR : p.revents;
}

static int espipe(int fd)
{
	return ktap_seek_fails(fd, 0, SEEK_CUR, ESPIPE);
}

static int read_eagain(int fd)
{
	return read(fd, buf, sizeof(buf)) < 0 && errno == EAGAIN;
}

/* " 0 [Dummy          ]: Dummy - Dummy": the number and the driver. */
static int find_cards(void)
{
	char line[256], driver[64];
	FILE *f;
	int n;

	if (dummy_card >= 0 && virmidi_card >= 0)
		return 1;
	f = fopen(CARDS, "r");
	if (!f)
		return ktap_perror(CARDS) + 1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%d [%*[^]]]: %63s -", &n, driver) != 2)
			continue;
		ktap_diag("card %d driver %s", n, driver);
		if (!strcmp(driver, "Dummy"))
			dummy_card = n;
		else if (!strcmp(driver, "VirMIDI"))
			virmidi_card = n;
	}
	fclose(f);
	return dummy_card >= 0 && virmidi_card >= 0;
}

static int cards_listed(void)
{
	return find_cards() && dummy_card != virmidi_card;
}

/* mixer_oss.c */

static int mixer_open(void)
{
	return find_cards() ? oss_node("mixer", dummy_card, O_RDWR) : -1;
}

static int mixer_identity(void)
{
	struct mixer_info info;
	int fd = mixer_open();
	int ok;

	memset(&info, 0, sizeof(info));
	ok = fd >= 0 && !ioctl(fd, SOUND_MIXER_INFO, &info);
	if (ok)
		ktap_diag("mixer id '%s' name '%s' modify_counter %d", info.id,
			  info.name, info.modify_counter);
	close(fd);
	return ok && !strcmp(info.id, "Dummy") &&
	       !strcmp(info.name, "Dummy Mixer");
}

static int mixer_masks(void)
{
	int fd = mixer_open();
	int dev = 0, stereo = 0, rec = 0;
	int ok = fd >= 0 && !ioctl(fd, SOUND_MIXER_READ_DEVMASK, &dev) &&
		 !ioctl(fd, SOUND_MIXER_READ_STEREODEVS, &stereo) &&
		 !ioctl(fd, SOUND_MIXER_READ_RECMASK, &rec);

	ktap_diag("devmask %#x stereodevs %#x recmask %#x", dev, stereo, rec);
	close(fd);
	return ok && dev == DUMMY_DEVMASK && stereo == DUMMY_DEVMASK &&
	       rec == DUMMY_DEVMASK;
}

static int mixer_read_volume(void)
{
	int fd = mixer_open();
	int vol = -1;
	int ok = fd >= 0 && !ioctl(fd, SOUND_MIXER_READ_VOLUME, &vol);

	ktap_diag("volume %d:%d", vol & 0xff, (vol >> 8) & 0xff);
	close(fd);
	return ok && vol == (33 | 33 << 8);
}

/* The ALSA control behind the OSS slot, read on the control device. */
static int master_is(long left, long right)
{
	struct snd_ctl_elem_value v;
	int fd = node("/dev/snd/controlC%d", dummy_card, O_RDONLY);
	int ok;

	memset(&v, 0, sizeof(v));
	v.id.iface = SNDRV_CTL_ELEM_IFACE_MIXER;
	snprintf((char *)v.id.name, sizeof(v.id.name), "Master Volume");
	ok = fd >= 0 && !ioctl(fd, SNDRV_CTL_IOCTL_ELEM_READ, &v);
	ktap_diag("Master Volume %ld %ld", v.value.integer.value[0],
		  v.value.integer.value[1]);
	close(fd);
	return ok && v.value.integer.value[0] == left &&
	       v.value.integer.value[1] == right;
}

static int mixer_write_volume(void)
{
	int fd = mixer_open();
	int set = 75 | 60 << 8, vol = set, back = -1;
	int ok = fd >= 0 && !ioctl(fd, SOUND_MIXER_WRITE_VOLUME, &vol) &&
		 !ioctl(fd, SOUND_MIXER_READ_VOLUME, &back);

	ktap_diag("wrote %#x, returned %#x, read %#x", set, vol, back);
	ok = ok && vol == set && back == set && master_is(63, 40) &&
	     espipe(fd);
	close(fd);
	return ok;
}

/* pcm_oss.c */

static int dsp_open(int flags)
{
	return find_cards() ? oss_node("dsp", dummy_card, flags) : -1;
}

/* S16_LE, 2 channels, 48000 Hz: each call answers what it took. */
static int dsp_setup(int fd)
{
	int fmt = AFMT_S16_LE, ch = 2, rate = RATE;
	int ok = !ioctl(fd, SNDCTL_DSP_SETFMT, &fmt) &&
		 !ioctl(fd, SNDCTL_DSP_CHANNELS, &ch) &&
		 !ioctl(fd, SNDCTL_DSP_SPEED, &rate);

	if (!ok || fmt != AFMT_S16_LE || ch != 2 || rate != RATE)
		ktap_diag("format %#x channels %d rate %d: %s", fmt, ch, rate,
			  strerror(errno));
	return ok && fmt == AFMT_S16_LE && ch == 2 && rate == RATE;
}

static int dsp_formats(void)
{
	int fd = dsp_open(O_WRONLY | O_NONBLOCK);
	int fmts = 0;
	int ok = fd >= 0 && !ioctl(fd, SNDCTL_DSP_GETFMTS, &fmts);

	ktap_diag("formats %#x", fmts);
	close(fd);
	return ok && fmts == OSS_ALL_FORMATS;
}

static int dsp_params(void)
{
	int fd = dsp_open(O_WRONLY | O_NONBLOCK);
	int ok = fd >= 0 && dsp_setup(fd);

	close(fd);
	return ok;
}

/* A freshly prepared playback buffer: every fragment free. */
static int ospace_empty(int fd)
{
	audio_buf_info info;

	memset(&info, 0, sizeof(info));
	if (ioctl(fd, SNDCTL_DSP_GETOSPACE, &info))
		return ktap_perror("SNDCTL_DSP_GETOSPACE") + 1;
	ktap_diag("ospace fragsize %d fragstotal %d fragments %d bytes %d",
		  info.fragsize, info.fragstotal, info.fragments, info.bytes);
	return info.fragsize == FRAG && info.fragstotal == FRAGS &&
	       info.fragments == FRAGS && info.bytes == FRAG * FRAGS;
}

static int dsp_blocks(void)
{
	int fd = dsp_open(O_WRONLY | O_NONBLOCK);
	int blk = 0;
	int ok = fd >= 0 && dsp_setup(fd) &&
		 !ioctl(fd, SNDCTL_DSP_GETBLKSIZE, &blk);

	ktap_diag("block size %d", blk);
	ok = ok && blk == FRAG && ospace_empty(fd);
	close(fd);
	return ok;
}

static int dsp_idle(void)
{
	int fd = dsp_open(O_WRONLY | O_NONBLOCK);
	int ok = fd >= 0 && dsp_setup(fd) &&
		 (poll_now(fd) & (POLLOUT | POLLIN | POLLERR)) == POLLOUT &&
		 espipe(fd);

	close(fd);
	return ok;
}

static int dsp_play(void)
{
	int fd = dsp_open(O_WRONLY | O_NONBLOCK);
	long long t0, ms;
	ssize_t n = -1;
	int ok = fd >= 0 && dsp_setup(fd);

	memset(buf, 0, sizeof(buf));
	t0 = ktap_now_ms();
	if (ok)
		n = write(fd, buf, sizeof(buf));
	ok = ok && n == (ssize_t)sizeof(buf) && !ioctl(fd, SNDCTL_DSP_SYNC);
	ms = ktap_now_ms() - t0;
	ktap_diag("wrote %zd bytes, synced after %lld ms", n, ms);
	/* Played at the rate, less two 4 ms jiffies of the dummy's timer. */
	ok = ok && ms >= (long long)sizeof(buf) * 1000 / (RATE * FRAME) - 8 &&
	     ospace_empty(fd);
	close(fd);
	return ok;
}

static int dsp_capture(void)
{
	int fd = dsp_open(O_RDONLY | O_NONBLOCK);
	int off = 0, on = PCM_ENABLE_INPUT;
	ssize_t n = -1;
	int ok = fd >= 0 && dsp_setup(fd) &&
		 !ioctl(fd, SNDCTL_DSP_SETTRIGGER, &off);

	/* Not started: nothing to read, and the read does not start it. */
	ok = ok && read(fd, buf, FRAG) < 0 && errno == EAGAIN;
	ok = ok && !ioctl(fd, SNDCTL_DSP_SETTRIGGER, &on) &&
	     poll_in(fd, WAIT_MS);
	if (ok)
		n = read(fd, buf, FRAG);
	ktap_diag("capture read %zd", n);
	close(fd);
	return ok && n == FRAG;
}

/* seq_clientmgr.c */

static int seq_open(void)
{
	int fd = open(SEQ, O_RDWR | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		ktap_perror(SEQ);
	return fd;
}

/* An application port, which the OSS sequencer does not take as MIDI. */
static int seq_port(int fd, int client)
{
	struct snd_seq_port_info p;

	memset(&p, 0, sizeof(p));
	p.addr.client = client;
	snprintf(p.name, sizeof(p.name), "bklfree");
	p.capability = SNDRV_SEQ_PORT_CAP_READ | SNDRV_SEQ_PORT_CAP_WRITE |
		       SNDRV_SEQ_PORT_CAP_SUBS_READ |
		       SNDRV_SEQ_PORT_CAP_SUBS_WRITE;
	p.type = SNDRV_SEQ_PORT_TYPE_APPLICATION;
	if (ioctl(fd, SNDRV_SEQ_IOCTL_CREATE_PORT, &p))
		return ktap_perror("SNDRV_SEQ_IOCTL_CREATE_PORT");
	return p.addr.port;
}

static int seq_connect(int fd, int sc, int sp, int dc, int dp)
{
	struct snd_seq_port_subscribe s;

	memset(&s, 0, sizeof(s));
	s.sender.client = sc;
	s.sender.port = sp;
	s.dest.client = dc;
	s.dest.port = dp;
	if (ioctl(fd, SNDRV_SEQ_IOCTL_SUBSCRIBE_PORT, &s))
		return ktap_perror("SNDRV_SEQ_IOCTL_SUBSCRIBE_PORT") + 1;
	return 1;
}

/* A direct NOTEON from port 0 to whoever is subscribed to it. */
static int seq_note(int fd, int channel, int note, int velocity)
{
	struct snd_seq_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = SNDRV_SEQ_EVENT_NOTEON;
	ev.queue = SNDRV_SEQ_QUEUE_DIRECT;
	ev.source.port = 0;
	ev.dest.client = SNDRV_SEQ_ADDRESS_SUBSCRIBERS;
	ev.data.note.channel = channel;
	ev.data.note.note = note;
	ev.data.note.velocity = velocity;
	return write(fd, &ev, sizeof(ev)) == sizeof(ev);
}

/* The next event, waited for at most WAIT_MS. */
static int seq_event(int fd, struct snd_seq_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	if (!poll_in(fd, WAIT_MS) || read(fd, ev, sizeof(*ev)) != sizeof(*ev))
		return ktap_perror("seq read") + 1;
	ktap_diag("event type %d from %d:%d to %d:%d, note %d %d %d",
		  ev->type, ev->source.client, ev->source.port,
		  ev->dest.client, ev->dest.port, ev->data.note.channel,
		  ev->data.note.note, ev->data.note.velocity);
	return 1;
}

static int is_note(struct snd_seq_event *ev, int channel, int note,
		   int velocity)
{
	return ev->type == SNDRV_SEQ_EVENT_NOTEON &&
	       ev->data.note.channel == channel && ev->data.note.note == note &&
	       ev->data.note.velocity == velocity;
}

static int seq_version(void)
{
	int fd = seq_open();
	int v = 0, id = -1;
	int ok = fd >= 0 && !ioctl(fd, SNDRV_SEQ_IOCTL_PVERSION, &v) &&
		 !ioctl(fd, SNDRV_SEQ_IOCTL_CLIENT_ID, &id);

	ktap_diag("seq protocol %#x, client %d", v, id);
	ok = ok && v == SNDRV_SEQ_VERSION && id == 128 && espipe(fd);
	close(fd);
	return ok;
}

static int seq_loopback(void)
{
	struct snd_seq_event ev;
	int fd = seq_open();
	int me = -1, port = -1, ok;

	ok = fd >= 0 && !ioctl(fd, SNDRV_SEQ_IOCTL_CLIENT_ID, &me);
	ok = ok && (port = seq_port(fd, me)) == 0 &&
	     seq_connect(fd, me, 0, me, 0);
	ok = ok && read_eagain(fd) &&
	     (poll_now(fd) & (POLLIN | POLLOUT | POLLERR)) == POLLOUT;
	ok = ok && seq_note(fd, 0, 60, 100) && seq_event(fd, &ev) &&
	     is_note(&ev, 0, 60, 100) && ev.source.client == me &&
	     ev.source.port == 0 && ev.dest.client == me && ev.dest.port == 0;
	close(fd);
	return ok;
}

/* snd-virmidi's client for device 0: a kernel client of its card. */
static int find_virmidi_client(int fd)
{
	struct snd_seq_client_info c;
	char want[64];

	if (virmidi_client >= 0)
		return 1;
	if (!find_cards())
		return 0;
	snprintf(want, sizeof(want), "Virtual Raw MIDI %d-0", virmidi_card);
	memset(&c, 0, sizeof(c));
	c.client = -1;
	while (!ioctl(fd, SNDRV_SEQ_IOCTL_QUERY_NEXT_CLIENT, &c))
		if (c.card == virmidi_card && !strcmp(c.name, want) &&
		    c.type == KERNEL_CLIENT)
			virmidi_client = c.client;
	if (virmidi_client < 0)
		ktap_diag("no client '%s'", want);
	return virmidi_client >= 0;
}

static int seq_virmidi_port(void)
{
	struct snd_seq_port_info p;
	char want[64];
	int fd = seq_open();
	int ok = fd >= 0 && find_virmidi_client(fd);

	memset(&p, 0, sizeof(p));
	p.addr.client = virmidi_client;
	p.addr.port = 0;
	ok = ok && !ioctl(fd, SNDRV_SEQ_IOCTL_GET_PORT_INFO, &p);
	snprintf(want, sizeof(want), "VirMIDI %d-0", virmidi_card);
	if (ok)
		ktap_diag("client %d port 0 '%s' caps %#x type %#x", virmidi_client,
			  p.name, p.capability, p.type);
	close(fd);
	return ok && !strcmp(p.name, want) && p.midi_channels == 16 &&
	       (p.type & SNDRV_SEQ_PORT_TYPE_MIDI_GENERIC) &&
	       (p.capability & SNDRV_SEQ_PORT_CAP_SUBS_READ) &&
	       (p.capability & SNDRV_SEQ_PORT_CAP_SUBS_WRITE);
}

/* rawmidi.c */

static int midi_open(int flags)
{
	return find_cards() ?
	       node("/dev/snd/midiC%dD0", virmidi_card, flags | O_NONBLOCK) :
	       -1;
}

static int midi_drain(int fd)
{
	int stream = SNDRV_RAWMIDI_STREAM_OUTPUT;

	return !ioctl(fd, SNDRV_RAWMIDI_IOCTL_DRAIN, &stream);
}

static int midi_info(void)
{
	struct snd_rawmidi_info info;
	int fd = midi_open(O_WRONLY);
	int v = 0;
	int ok = fd >= 0 && !ioctl(fd, SNDRV_RAWMIDI_IOCTL_PVERSION, &v);

	memset(&info, 0, sizeof(info));
	info.stream = SNDRV_RAWMIDI_STREAM_OUTPUT;
	ok = ok && !ioctl(fd, SNDRV_RAWMIDI_IOCTL_INFO, &info);
	ktap_diag("rawmidi protocol %#x card %d device %d flags %#x id '%s' name '%s' subname '%s' %u of %u free",
		  v, info.card, info.device, info.flags, info.id, info.name,
		  info.subname, info.subdevices_avail, info.subdevices_count);
	ok = ok && v == SNDRV_RAWMIDI_VERSION && info.card == virmidi_card &&
	     info.device == 0 &&
	     info.flags == (SNDRV_RAWMIDI_INFO_OUTPUT |
			    SNDRV_RAWMIDI_INFO_INPUT |
			    SNDRV_RAWMIDI_INFO_DUPLEX) &&
	     !strcmp((char *)info.id, "VirMidi") &&
	     !strcmp((char *)info.name, "Virtual Raw MIDI") &&
	     info.subdevices_count == 16 && info.subdevices_avail == 15 &&
	     espipe(fd);
	close(fd);
	return ok;
}

static const unsigned char note_on[] = { 0x90, 0x3c, 0x64 };

/* Bytes to the virmidi port's subscribers: a NOTEON on the sequencer. */
static int midi_to_seq(void)
{
	struct snd_seq_event ev;
	int sfd = seq_open(), mfd = -1;
	int me = -1, ok;

	ok = sfd >= 0 && find_virmidi_client(sfd) &&
	     !ioctl(sfd, SNDRV_SEQ_IOCTL_CLIENT_ID, &me) &&
	     seq_port(sfd, me) == 0 &&
	     seq_connect(sfd, virmidi_client, 0, me, 0);
	ok = ok && (mfd = midi_open(O_WRONLY)) >= 0 &&
	     write(mfd, note_on, sizeof(note_on)) == sizeof(note_on) &&
	     midi_drain(mfd);
	ok = ok && seq_event(sfd, &ev) && is_note(&ev, 0, 60, 100) &&
	     ev.source.client == virmidi_client && ev.source.port == 0;
	close(mfd);
	close(sfd);
	return ok;
}

/* Read n bytes from the rawmidi, waiting at most WAIT_MS in all. */
static int midi_read(int fd, unsigned char *b, size_t n)
{
	long long deadline = ktap_now_ms() + WAIT_MS;
	size_t got = 0;
	ssize_t r;

	while (got < n && poll_in(fd, (int)(deadline - ktap_now_ms()))) {
		r = read(fd, b + got, n - got);
		if (r <= 0)
			break;
		got += r;
	}
	ktap_diag("rawmidi read %zu bytes: %02x %02x %02x", got, b[0], b[1],
		  b[2]);
	return got == n;
}

/* A NOTEON to the virmidi port: bytes on every reading rawmidi file. */
static int seq_to_midi(void)
{
	static const unsigned char want[] = { 0x91, 0x40, 0x50 };
	unsigned char got[3] = { 0 };
	int sfd = seq_open(), mfd = -1;
	int me = -1, ok;

	ok = sfd >= 0 && find_virmidi_client(sfd) &&
	     !ioctl(sfd, SNDRV_SEQ_IOCTL_CLIENT_ID, &me) &&
	     seq_port(sfd, me) == 0 &&
	     seq_connect(sfd, me, 0, virmidi_client, 0);
	/* The first read triggers the input: only then events come in. */
	ok = ok && (mfd = midi_open(O_RDONLY)) >= 0 && read_eagain(mfd) &&
	     !(poll_now(mfd) & (POLLIN | POLLERR));
	ok = ok && seq_note(sfd, 1, 64, 80) && midi_read(mfd, got, 3) &&
	     !memcmp(got, want, sizeof(want));
	close(mfd);
	close(sfd);
	return ok;
}

/* seq_oss.c */

static int sequencer_open(int flags)
{
	int fd = open(SEQUENCER, flags | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		ktap_perror(SEQUENCER);
	return fd;
}

/* The OSS MIDI device whose port is the virmidi card's device 0. */
static int oss_virmidi_dev(int fd, int nr)
{
	struct midi_info mi;
	char want[64];
	int i;

	snprintf(want, sizeof(want), "VirMIDI %d-0", virmidi_card);
	for (i = 0; i < nr; i++) {
		memset(&mi, 0, sizeof(mi));
		mi.device = i;
		if (ioctl(fd, SNDCTL_MIDI_INFO, &mi))
			return ktap_perror("SNDCTL_MIDI_INFO");
		ktap_diag("OSS midi %d: '%s'", i, mi.name);
		if (!strcmp(mi.name, want))
			return i;
	}
	return -1;
}

static int sequencer_devices(void)
{
	int fd = find_cards() ? sequencer_open(O_WRONLY) : -1;
	int synths = -1, midis = -1;
	int ok = fd >= 0 && !ioctl(fd, SNDCTL_SEQ_NRSYNTHS, &synths) &&
		 !ioctl(fd, SNDCTL_SEQ_NRMIDIS, &midis);

	ktap_diag("%d synths, %d midis", synths, midis);
	ok = ok && synths == 0 && midis == VIRMIDI_DEVS &&
	     oss_virmidi_dev(fd, midis) >= 0;
	close(fd);
	return ok;
}

static int sequencer_idle(void)
{
	int fd = sequencer_open(O_RDWR);
	off_t pos = -1;
	int ok = fd >= 0 &&
		 (poll_now(fd) & (POLLIN | POLLOUT | POLLERR)) == POLLOUT;

	if (ok)
		pos = lseek(fd, 4096, SEEK_SET);
	ktap_diag("lseek SEEK_SET 4096: %lld", (long long)pos);
	close(fd);
	return ok && pos == 0;
}

/* One SEQ_MIDIPUTC record per byte: the OSS synth-mode MIDI byte. */
static void putc_records(unsigned char *rec, int dev)
{
	size_t i;

	memset(rec, 0, 4 * sizeof(note_on));
	for (i = 0; i < sizeof(note_on); i++) {
		rec[4 * i] = SEQ_MIDIPUTC;
		rec[4 * i + 1] = note_on[i];
		rec[4 * i + 2] = dev;
	}
}

static int sequencer_write(void)
{
	unsigned char rec[4 * sizeof(note_on)], got[3] = { 0 };
	int fd = find_cards() ? sequencer_open(O_WRONLY) : -1;
	int mfd = -1, nr = 0, dev = -1, ok;

	ok = fd >= 0 && !ioctl(fd, SNDCTL_SEQ_NRMIDIS, &nr) &&
	     (dev = oss_virmidi_dev(fd, nr)) >= 0;
	ok = ok && (mfd = midi_open(O_RDONLY)) >= 0 && read_eagain(mfd);
	putc_records(rec, dev);
	ok = ok && write(fd, rec, sizeof(rec)) == sizeof(rec) &&
	     midi_read(mfd, got, 3) && !memcmp(got, note_on, sizeof(note_on));
	close(mfd);
	close(fd);
	return ok;
}

/* The MIDI bytes of dev in the records read, after a SEQ_WAIT. */
static int sequencer_read(int fd, int dev)
{
	unsigned char rec[64];
	size_t got = 0;
	ssize_t n, i;
	int wait = 0;

	n = read(fd, rec, sizeof(rec));
	for (i = 0; i + 4 <= n; i += 4) {
		if (rec[i] == SEQ_WAIT && !got)
			wait = 1;
		else if (rec[i] == SEQ_MIDIPUTC && rec[i + 2] == dev &&
			 got < sizeof(note_on) && rec[i + 1] == note_on[got])
			got++;
		else
			ktap_diag("record %02x %02x %02x %02x", rec[i],
				  rec[i + 1], rec[i + 2], rec[i + 3]);
	}
	ktap_diag("read %zd bytes of records, %zu MIDI bytes", n, got);
	return wait && got == sizeof(note_on) && n == (ssize_t)(4 * (1 + got));
}

static int midi_note(void)
{
	int mfd = midi_open(O_WRONLY);
	int ok = mfd >= 0 &&
		 write(mfd, note_on, sizeof(note_on)) == sizeof(note_on) &&
		 midi_drain(mfd);

	close(mfd);
	return ok;
}

static int sequencer_input_reset(void)
{
	int fd = find_cards() ? sequencer_open(O_RDWR) : -1;
	int nr = 0, dev = -1, count = -1, ok;

	/* O_RDWR opens every MIDI device for input: a drained write is in. */
	ok = fd >= 0 && !ioctl(fd, SNDCTL_SEQ_NRMIDIS, &nr) &&
	     (dev = oss_virmidi_dev(fd, nr)) >= 0 && midi_note() &&
	     !ioctl(fd, SNDCTL_SEQ_GETINCOUNT, &count) && poll_in(fd, 0);
	ktap_diag("incount %d", count);
	ok = ok && count == 4 && sequencer_read(fd, dev);
	ok = ok && midi_note() && poll_in(fd, 0) &&
	     !ioctl(fd, SNDCTL_SEQ_RESET) &&
	     !ioctl(fd, SNDCTL_SEQ_GETINCOUNT, &count);
	ktap_diag("incount after reset %d", count);
	ok = ok && count == 0 && read_eagain(fd);
	close(fd);
	return ok;
}

static const struct ktap_case cases[] = {
	{ "/proc/asound/cards lists the Dummy and VirMIDI cards", cards_listed },
	{ "mixer: SOUND_MIXER_INFO id Dummy, name Dummy Mixer", mixer_identity },
	{ "mixer: DEVMASK, STEREODEVS, RECMASK are volume synth line mic cd", mixer_masks },
	{ "mixer: READ_VOLUME 33:33, the control's 0 of -50..100", mixer_read_volume },
	{ "mixer: WRITE_VOLUME 75:60 reads back, control 63 40, lseek ESPIPE", mixer_write_volume },
	{ "dsp: GETFMTS is the full OSS list 0x5b1f9 (not direct)", dsp_formats },
	{ "dsp: SETFMT S16_LE, CHANNELS 2, SPEED 48000 taken", dsp_params },
	{ "dsp: GETBLKSIZE 8192, GETOSPACE 8 free fragments of 8192", dsp_blocks },
	{ "dsp: POLLOUT before a write, lseek ESPIPE", dsp_idle },
	{ "dsp: 16384 bytes of silence taken, SYNC plays them out", dsp_play },
	{ "dsp capture: EAGAIN with the trigger off, an 8192-byte fragment after it", dsp_capture },
	{ "seq: PVERSION 1.0.3, CLIENT_ID 128, lseek ESPIPE", seq_version },
	{ "seq: a port subscribed to itself reads back its NOTEON", seq_loopback },
	{ "seq: the virmidi client's port 0 is VirMIDI C-0, 16 channels", seq_virmidi_port },
	{ "rawmidi: PVERSION 2.0.2, INFO of the virmidi output, lseek ESPIPE", midi_info },
	{ "rawmidi: 90 3c 64 written arrive on the sequencer as NOTEON", midi_to_seq },
	{ "rawmidi: a sequencer NOTEON reads back as 91 40 50", seq_to_midi },
	{ "sequencer: NRSYNTHS 0, NRMIDIS 4, MIDI_INFO names VirMIDI C-0", sequencer_devices },
	{ "sequencer: POLLOUT without POLLIN, noop_llseek SEEK_SET 4096 is 0", sequencer_idle },
	{ "sequencer: SEQ_MIDIPUTC records written reach the rawmidi", sequencer_write },
	{ "sequencer: rawmidi bytes read back as records, SEQ_RESET empties", sequencer_input_reset },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(cases),
	.devices = (const char *const[]){ CARDS, SEQ, SEQUENCER, NULL },
	.kconfig = (const char *const[]){ "CONFIG_SND_DUMMY",
		"CONFIG_SND_VIRMIDI", "CONFIG_SND_PCM_OSS",
		"CONFIG_SND_MIXER_OSS", "CONFIG_SND_SEQUENCER",
		"CONFIG_SND_SEQUENCER_OSS", NULL },
	.timeout = 30,
	.upstream = "patches/core 0061 (sound/core: drop no_llseek)",
	.cases = cases,
};
