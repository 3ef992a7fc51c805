// SPDX-License-Identifier: GPL-2.0
/*
 * cec-dvb - two media character devices no other lab test opens: the CEC
 * adapters vivid emulates (drivers/media/cec/core/cec-api.c) and the DVB
 * demux and DVR of vidtv (drivers/media/dvb-core/dmxdev.c).
 *
 * CEC. vivid (node_types=0x101: video capture and output) makes two
 * adapters on one emulated bus: /dev/cec0 on HDMI input 0 ("vivid-000-
 * vid-cap0", physical address 0.0.0.0, a TV) and /dev/cec1 on HDMI output
 * 0 ("vivid-000-vid-out0", 1.0.0.0). Pinned from 6.1:
 *   - open queues one CEC_EVENT_STATE_CHANGE flagged INITIAL_STATE
 *     (phys 0.0.0.0, no logical address), then DQEVENT is EAGAIN;
 *   - CEC_ADAP_G_CAPS: driver "vivid" (the platform driver's name), 4
 *     logical addresses, LOG_ADDRS|TRANSMIT|PASSTHROUGH|MONITOR_ALL|
 *     MONITOR_PIN (CEC_CAP_RC dropped: no CONFIG_MEDIA_CEC_RC), version 6.1;
 *   - CEC_G_MODE of a new handle is INITIATOR; S_MODE refuses unknown
 *     bits and a monitor mode with an initiator (EINVAL);
 *   - unconfigured: G_LOG_ADDRS all 0xff, TRANSMIT EPERM, poll not
 *     writable;
 *   - S_LOG_ADDRS (blocking) claims address 0 for a TV and 4 for a
 *     playback device (the poll messages are NACKed on the emulated bus),
 *     DQEVENT then gives the new mask;
 *   - configured: poll writable and nothing to read, RECEIVE EAGAIN
 *     (non-blocking) and ETIMEDOUT (50 ms timeout);
 *   - TRANSMIT to an absent address ends NACK|MAX_RETRIES after the 4
 *     attempts of CEC 2.0; cec1's Standby to the TV arrives on cec0 (a
 *     follower) within 1 s;
 *   - lseek is ESPIPE on both kernels (6.1 no_llseek; patches/core 0027
 *     drops it and a NULL .llseek clears FMODE_LSEEK).
 *
 * DVB. vidtv's mux thread runs from the first started feed, but its
 * packets reach the demux only while the demod has lock, and the demod
 * has none until the frontend is tuned (vidtv_bridge_on_new_pkts_avail).
 * So untuned, a section filter with a timeout ends in ETIMEDOUT; tuned
 * (DVB-T, 474 MHz, the module's default valid frequency) the PAT of
 * transport stream 0x4081 (VIDTV_DEFAULT_TS_ID) comes within 2 s, and a
 * TS tap on PID 0 fills dvr0 with 188-byte packets. Also pinned: read
 * of a demux without a filter is 0, DMX_START without one EINVAL,
 * DMX_SET_BUFFER_SIZE 0 EINVAL and EBUSY on a started filter, a PES type
 * past DMX_PES_OTHER EINVAL, DMX_STOP makes poll quiet and read EAGAIN;
 * dvr0 is single-reader (EBUSY), O_RDWR is EOPNOTSUPP (no DVB_MMAP) and
 * O_WRONLY EINVAL (vidtv has no memory frontend). lseek SEEK_SET 0 of
 * demux0 and dvr0 returns 0 on both kernels (6.1 default_llseek,
 * patches/core 0207 noop_llseek); SEEK_SET 4096, where they differ, is
 * recorded by the lseek walk (patches/core/expected-lseek-changes).
 */
#include <fcntl.h>
#include <linux/cec.h>
#include <linux/dvb/dmx.h>
#include <linux/dvb/frontend.h>
#include <sys/ioctl.h>

#include "ktap.h"

#define CEC0 "/dev/cec0"
#define CEC1 "/dev/cec1"
#define DVB "/dev/dvb/adapter0/"
#define DEMUX DVB "demux0"
#define DVR DVB "dvr0"
#define FRONTEND DVB "frontend0"
#define TS_ID 0x4081
#define WAIT_MS 2000

#define VIVID_CAPS (CEC_CAP_LOG_ADDRS | CEC_CAP_TRANSMIT | \
		    CEC_CAP_PASSTHROUGH | CEC_CAP_MONITOR_ALL | \
		    CEC_CAP_MONITOR_PIN)

static int cec0 = -1, cec1 = -1, demux = -1, dvr = -1, fe = -1;

static int fails(int r)
{
	return r < 0 ? errno : 0;
}

static void set_nonblock(int fd, int on)
{
	int fl = fcntl(fd, F_GETFL);

	fcntl(fd, F_SETFL, on ? fl | O_NONBLOCK : fl & ~O_NONBLOCK);
}

/* CEC */

static int cec_initial_event(void)
{
	struct cec_event ev;

	cec0 = open(CEC0, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (cec0 < 0)
		return 0;
	memset(&ev, 0, sizeof(ev));
	if (ioctl(cec0, CEC_DQEVENT, &ev))
		return 0;
	ktap_diag("event %u flags 0x%x phys 0x%04x mask 0x%x", ev.event,
		  ev.flags, ev.state_change.phys_addr,
		  ev.state_change.log_addr_mask);
	return ev.event == CEC_EVENT_STATE_CHANGE &&
	       ev.flags == CEC_EVENT_FL_INITIAL_STATE &&
	       ev.state_change.phys_addr == 0 &&
	       ev.state_change.log_addr_mask == 0;
}

static int cec_no_more_events(void)
{
	struct cec_event ev;

	return fails(ioctl(cec0, CEC_DQEVENT, &ev)) == EAGAIN;
}

static int cec_caps(void)
{
	struct cec_caps caps;

	memset(&caps, 0, sizeof(caps));
	if (ioctl(cec0, CEC_ADAP_G_CAPS, &caps))
		return 0;
	ktap_diag("driver %.32s name %.32s las %u caps 0x%x version 0x%x",
		  caps.driver, caps.name, caps.available_log_addrs,
		  caps.capabilities, caps.version);
	return !strcmp(caps.driver, "vivid") &&
	       !strcmp(caps.name, "vivid-000-vid-cap0") &&
	       caps.available_log_addrs == CEC_MAX_LOG_ADDRS &&
	       caps.capabilities == VIVID_CAPS &&
	       caps.version >> 8 == ((6 << 8) | 1);
}

static int cec_modes(void)
{
	__u32 mode = 0, bad = 0x100;
	__u32 monitor = CEC_MODE_INITIATOR | CEC_MODE_MONITOR_ALL;
	int def, unknown, mon;

	def = !ioctl(cec0, CEC_G_MODE, &mode) && mode == CEC_MODE_INITIATOR;
	unknown = fails(ioctl(cec0, CEC_S_MODE, &bad)) == EINVAL;
	mon = fails(ioctl(cec0, CEC_S_MODE, &monitor)) == EINVAL;
	errno = 0;
	return def && unknown && mon;
}

static int cec_follower(void)
{
	__u32 mode = CEC_MODE_INITIATOR | CEC_MODE_FOLLOWER, got = 0;

	return !ioctl(cec0, CEC_S_MODE, &mode) &&
	       !ioctl(cec0, CEC_G_MODE, &got) && got == mode;
}

static int cec_unconfigured(void)
{
	struct cec_log_addrs la;
	struct cec_msg msg;
	struct pollfd p = { .fd = cec0, .events = POLLIN | POLLOUT | POLLPRI };
	__u16 pa = 0xabcd;
	int tx, i, empty = 1;

	memset(&la, 0, sizeof(la));
	if (ioctl(cec0, CEC_ADAP_G_LOG_ADDRS, &la) ||
	    ioctl(cec0, CEC_ADAP_G_PHYS_ADDR, &pa))
		return 0;
	for (i = 0; i < CEC_MAX_LOG_ADDRS; i++)
		if (la.log_addr[i] != CEC_LOG_ADDR_INVALID)
			empty = 0;
	memset(&msg, 0, sizeof(msg));
	cec_msg_init(&msg, 0, 4);
	msg.msg[1] = CEC_MSG_STANDBY;
	msg.len = 2;
	tx = fails(ioctl(cec0, CEC_TRANSMIT, &msg)) == EPERM;
	errno = 0;
	if (poll(&p, 1, 0) < 0)
		return 0;
	ktap_diag("phys 0x%04x, %u addresses, poll 0x%x", pa, la.num_log_addrs,
		  p.revents);
	return pa == 0 && empty && !la.num_log_addrs && tx && !p.revents;
}

static int claim(int fd, __u8 type, __u8 prim, __u8 all, const char *osd,
		 __u8 want_la)
{
	struct cec_log_addrs la;
	int ok;

	memset(&la, 0, sizeof(la));
	la.cec_version = CEC_OP_CEC_VERSION_2_0;
	la.vendor_id = CEC_VENDOR_ID_NONE;
	la.num_log_addrs = 1;
	la.log_addr_type[0] = type;
	la.primary_device_type[0] = prim;
	la.all_device_types[0] = all;
	snprintf(la.osd_name, sizeof(la.osd_name), "%s", osd);
	set_nonblock(fd, 0);
	ok = !ioctl(fd, CEC_ADAP_S_LOG_ADDRS, &la);
	set_nonblock(fd, 1);
	ktap_diag("%s: address %u mask 0x%x", osd, la.log_addr[0], la.log_addr_mask);
	return ok && la.log_addr[0] == want_la && la.log_addr_mask == 1u << want_la;
}

static int cec_claim_tv(void)
{
	struct cec_event ev;
	struct cec_log_addrs la;

	if (!claim(cec0, CEC_LOG_ADDR_TYPE_TV, CEC_OP_PRIM_DEVTYPE_TV,
		   CEC_OP_ALL_DEVTYPE_TV, "bklfree-tv", CEC_LOG_ADDR_TV))
		return 0;
	memset(&ev, 0, sizeof(ev));
	memset(&la, 0, sizeof(la));
	if (ioctl(cec0, CEC_DQEVENT, &ev) || ioctl(cec0, CEC_ADAP_G_LOG_ADDRS, &la))
		return 0;
	ktap_diag("event %u flags 0x%x mask 0x%x", ev.event, ev.flags,
		  ev.state_change.log_addr_mask);
	return ev.event == CEC_EVENT_STATE_CHANGE && !ev.flags &&
	       ev.state_change.log_addr_mask == 1 && la.num_log_addrs == 1 &&
	       la.log_addr[0] == CEC_LOG_ADDR_TV && !strcmp(la.osd_name, "bklfree-tv");
}

static int cec_configured_idle(void)
{
	struct pollfd p = { .fd = cec0, .events = POLLIN | POLLOUT | POLLPRI };
	struct cec_msg msg;
	int eagain, timedout;

	if (poll(&p, 1, 0) < 0)
		return 0;
	ktap_diag("poll 0x%x", p.revents);
	memset(&msg, 0, sizeof(msg));
	eagain = fails(ioctl(cec0, CEC_RECEIVE, &msg)) == EAGAIN;
	memset(&msg, 0, sizeof(msg));
	msg.timeout = 50;
	set_nonblock(cec0, 0);
	timedout = fails(ioctl(cec0, CEC_RECEIVE, &msg)) == ETIMEDOUT;
	set_nonblock(cec0, 1);
	errno = 0;
	return p.revents == POLLOUT && eagain && timedout;
}

static int cec_nack(void)
{
	struct cec_msg msg;
	int r;

	memset(&msg, 0, sizeof(msg));
	cec_msg_init(&msg, CEC_LOG_ADDR_TV, CEC_LOG_ADDR_PLAYBACK_2);
	msg.msg[1] = CEC_MSG_STANDBY;
	msg.len = 2;
	set_nonblock(cec0, 0);
	r = ioctl(cec0, CEC_TRANSMIT, &msg);
	set_nonblock(cec0, 1);
	ktap_diag("tx_status 0x%x nack %u arb %u", msg.tx_status,
		  msg.tx_nack_cnt, msg.tx_arb_lost_cnt);
	return !r && msg.tx_status == (CEC_TX_STATUS_NACK | CEC_TX_STATUS_MAX_RETRIES) &&
	       msg.tx_nack_cnt == 4;
}

static int cec_claim_playback(void)
{
	__u16 pa = 0;

	cec1 = open(CEC1, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (cec1 < 0 || ioctl(cec1, CEC_ADAP_G_PHYS_ADDR, &pa))
		return 0;
	ktap_diag("cec1 phys 0x%04x", pa);
	return pa == 0x1000 &&
	       claim(cec1, CEC_LOG_ADDR_TYPE_PLAYBACK, CEC_OP_PRIM_DEVTYPE_PLAYBACK,
		     CEC_OP_ALL_DEVTYPE_PLAYBACK, "bklfree-play",
		     CEC_LOG_ADDR_PLAYBACK_1);
}

/* cec1 sends Standby to the TV; cec0's follower handle receives it. */
static int cec_standby_arrives(void)
{
	long long deadline;
	struct cec_msg msg;
	int r;

	memset(&msg, 0, sizeof(msg));
	cec_msg_init(&msg, CEC_LOG_ADDR_PLAYBACK_1, CEC_LOG_ADDR_TV);
	msg.msg[1] = CEC_MSG_STANDBY;
	msg.len = 2;
	set_nonblock(cec1, 0);
	r = ioctl(cec1, CEC_TRANSMIT, &msg);
	set_nonblock(cec1, 1);
	ktap_diag("transmit: %d tx_status 0x%x", r, msg.tx_status);
	if (r || msg.tx_status != CEC_TX_STATUS_OK)
		return 0;
	/* Skip the broadcasts of cec1's configuration. */
	deadline = ktap_now_ms() + 1000;
	set_nonblock(cec0, 0);
	for (;;) {
		long long left = deadline - ktap_now_ms();

		if (left <= 0)
			break;
		memset(&msg, 0, sizeof(msg));
		msg.timeout = left;
		if (ioctl(cec0, CEC_RECEIVE, &msg))
			break;
		ktap_diag("received %u bytes: %02x %02x", msg.len, msg.msg[0],
			  msg.len > 1 ? msg.msg[1] : 0);
		if (msg.len == 2 && msg.msg[0] == 0x40 && msg.msg[1] == CEC_MSG_STANDBY) {
			set_nonblock(cec0, 1);
			return msg.rx_status == CEC_RX_STATUS_OK;
		}
	}
	set_nonblock(cec0, 1);
	return 0;
}

static int cec_lseek(void)
{
	int r = lseek(cec0, 0, SEEK_SET) == -1 && errno == ESPIPE;

	close(cec0);
	close(cec1);
	return r;
}

/* DVB */

static int demux_fresh(void)
{
	char buf[16];

	demux = open(DEMUX, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (demux < 0)
		return 0;
	return read(demux, buf, sizeof(buf)) == 0 &&
	       fails(ioctl(demux, DMX_START)) == EINVAL &&
	       fails(ioctl(demux, DMX_SET_BUFFER_SIZE, 0)) == EINVAL &&
	       !ioctl(demux, DMX_SET_BUFFER_SIZE, 65536);
}

static void pat_filter(struct dmx_sct_filter_params *f, __u32 timeout, __u32 flags)
{
	memset(f, 0, sizeof(*f));
	f->pid = 0;
	f->filter.filter[0] = 0x00;
	f->filter.mask[0] = 0xff;
	f->timeout = timeout;
	f->flags = DMX_CHECK_CRC | flags;
}

/* Untuned: no packet passes, the 100 ms section timeout fires. */
static int demux_untuned_timeout(void)
{
	struct dmx_sct_filter_params f;
	struct pollfd p = { .fd = demux, .events = POLLIN };
	char buf[4096];
	int r, busy;

	pat_filter(&f, 100, 0);
	if (ioctl(demux, DMX_SET_FILTER, &f) || ioctl(demux, DMX_START))
		return 0;
	busy = fails(ioctl(demux, DMX_SET_BUFFER_SIZE, 8192)) == EBUSY;
	r = poll(&p, 1, WAIT_MS);
	ktap_diag("poll %d revents 0x%x", r, p.revents);
	errno = 0;
	return busy && r == 1 && (p.revents & (POLLIN | POLLERR)) == (POLLIN | POLLERR) &&
	       fails(read(demux, buf, sizeof(buf))) == ETIMEDOUT;
}

static int tune(void)
{
	struct dtv_property props[] = {
		{ .cmd = DTV_CLEAR },
		{ .cmd = DTV_DELIVERY_SYSTEM, .u.data = SYS_DVBT },
		{ .cmd = DTV_FREQUENCY, .u.data = 474000000 },
		{ .cmd = DTV_BANDWIDTH_HZ, .u.data = 8000000 },
		{ .cmd = DTV_TUNE },
	};
	struct dtv_properties cmd = { .num = ARRAY_SIZE(props), .props = props };
	long long deadline;
	fe_status_t st = 0;

	fe = open(FRONTEND, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fe < 0 || ioctl(fe, FE_SET_PROPERTY, &cmd))
		return 0;
	deadline = ktap_now_ms() + WAIT_MS;
	for (;;) {
		struct pollfd p = { .fd = fe, .events = POLLIN | POLLPRI };
		struct dvb_frontend_event ev;
		long long left;

		if (ioctl(fe, FE_READ_STATUS, &st))
			return 0;
		left = deadline - ktap_now_ms();
		if ((st & FE_HAS_LOCK) || left <= 0)
			break;
		if (poll(&p, 1, (int)left) > 0)
			while (!ioctl(fe, FE_GET_EVENT, &ev))
				;
	}
	ktap_diag("frontend status 0x%x", st);
	errno = 0;
	return (st & FE_HAS_LOCK) != 0;
}

static int demux_pat(void)
{
	struct dmx_sct_filter_params f;
	struct pollfd p = { .fd = demux, .events = POLLIN };
	unsigned char sec[4096];
	ssize_t n;
	int r, len;

	if (ioctl(demux, DMX_STOP))
		return 0;
	pat_filter(&f, 0, DMX_IMMEDIATE_START | DMX_ONESHOT);
	if (ioctl(demux, DMX_SET_FILTER, &f))
		return 0;
	r = poll(&p, 1, WAIT_MS);
	ktap_diag("poll %d revents 0x%x", r, p.revents);
	if (r != 1)
		return 0;
	n = read(demux, sec, sizeof(sec));
	if (n < 8)
		return 0;
	len = ((sec[1] << 8) | sec[2]) & 0xfff;
	ktap_diag("section %zd bytes: table 0x%02x length %d ts id 0x%04x", n,
		  sec[0], len, (sec[3] << 8) | sec[4]);
	return sec[0] == 0x00 && len == n - 3 && ((sec[3] << 8) | sec[4]) == TS_ID;
}

static int demux_stop(void)
{
	struct pollfd p = { .fd = demux, .events = POLLIN };
	char buf[64];

	if (ioctl(demux, DMX_STOP) || poll(&p, 1, 0) != 0)
		return 0;
	return fails(read(demux, buf, sizeof(buf))) == EAGAIN;
}

static int dvr_open_modes(void)
{
	int fd2, rdwr, wronly;

	dvr = open(DVR, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (dvr < 0)
		return 0;
	fd2 = open(DVR, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd2 >= 0)
		close(fd2);
	if (fd2 >= 0 || errno != EBUSY)
		return 0;
	fd2 = open(DVR, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	rdwr = fd2 < 0 && errno == EOPNOTSUPP;
	if (fd2 >= 0)
		close(fd2);
	fd2 = open(DVR, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	wronly = fd2 < 0 && errno == EINVAL;
	if (fd2 >= 0)
		close(fd2);
	errno = 0;
	return rdwr && wronly && fails(ioctl(dvr, DMX_SET_BUFFER_SIZE, 0)) == EINVAL &&
	       !ioctl(dvr, DMX_SET_BUFFER_SIZE, 188 * 1024);
}

/* A TS tap on PID 0: whole packets in dvr0. */
static int dvr_ts_tap(void)
{
	struct dmx_pes_filter_params pes = {
		.pid = 0, .input = DMX_IN_FRONTEND, .output = DMX_OUT_TS_TAP,
		.pes_type = DMX_PES_OTHER, .flags = DMX_IMMEDIATE_START,
	};
	struct dmx_pes_filter_params bad = pes;
	struct pollfd p = { .fd = dvr, .events = POLLIN };
	unsigned char pkt[188];
	ssize_t n;
	int r, badtype;

	bad.pes_type = DMX_PES_OTHER + 1;
	badtype = fails(ioctl(demux, DMX_SET_PES_FILTER, &bad)) == EINVAL;
	if (ioctl(demux, DMX_SET_PES_FILTER, &pes))
		return 0;
	r = poll(&p, 1, WAIT_MS);
	ktap_diag("poll %d revents 0x%x", r, p.revents);
	if (r != 1)
		return 0;
	n = read(dvr, pkt, sizeof(pkt));
	if (n != sizeof(pkt))
		return 0;
	ktap_diag("packet %02x %02x %02x %02x", pkt[0], pkt[1], pkt[2], pkt[3]);
	return badtype && pkt[0] == 0x47 && (((pkt[1] & 0x1f) << 8) | pkt[2]) == 0 &&
	       !ioctl(demux, DMX_STOP);
}

static int dvb_lseek(void)
{
	int ok = lseek(demux, 0, SEEK_SET) == 0 && lseek(demux, 0, SEEK_CUR) == 0 &&
		 lseek(dvr, 0, SEEK_SET) == 0;

	close(dvr);
	close(demux);
	close(fe);
	return ok;
}

static const struct ktap_case cases[] = {
	{ "cec0: open queues the initial STATE_CHANGE event (0.0.0.0, no address)", cec_initial_event },
	{ "cec0: a second non-blocking CEC_DQEVENT is EAGAIN", cec_no_more_events },
	{ "CEC_ADAP_G_CAPS: driver vivid, vivid-000-vid-cap0, 4 addresses, caps, version 6.1", cec_caps },
	{ "CEC_G_MODE INITIATOR; CEC_S_MODE unknown bits or monitor with initiator EINVAL", cec_modes },
	{ "CEC_S_MODE INITIATOR|FOLLOWER reads back", cec_follower },
	{ "unconfigured: no logical address, CEC_TRANSMIT EPERM, poll idle", cec_unconfigured },
	{ "CEC_ADAP_S_LOG_ADDRS TV claims address 0, DQEVENT mask 0x1, G_LOG_ADDRS", cec_claim_tv },
	{ "configured: poll writable only, CEC_RECEIVE EAGAIN and ETIMEDOUT", cec_configured_idle },
	{ "CEC_TRANSMIT to absent Playback 2: NACK|MAX_RETRIES after 4 attempts", cec_nack },
	{ "cec1 (phys 1.0.0.0) claims Playback 1", cec_claim_playback },
	{ "cec1 transmits Standby, the cec0 follower receives it within 1 s", cec_standby_arrives },
	{ "lseek " CEC0 " is ESPIPE", cec_lseek },
	{ "demux0: read without a filter 0, DMX_START EINVAL, DMX_SET_BUFFER_SIZE 0 EINVAL", demux_fresh },
	{ "demux0 untuned: the PAT filter times out, DMX_SET_BUFFER_SIZE EBUSY, read ETIMEDOUT", demux_untuned_timeout },
	{ "frontend0: FE_SET_PROPERTY DVB-T 474 MHz locks within 2 s", tune },
	{ "demux0 tuned: the PAT of transport stream 0x4081 within 2 s", demux_pat },
	{ "DMX_STOP: poll idle, non-blocking read EAGAIN", demux_stop },
	{ "dvr0: second reader EBUSY, O_RDWR EOPNOTSUPP, O_WRONLY EINVAL, buffer size", dvr_open_modes },
	{ "DMX_SET_PES_FILTER TS tap on PID 0 fills dvr0, bad PES type EINVAL", dvr_ts_tap },
	{ "lseek demux0 and dvr0 to 0 returns 0", dvb_lseek },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(cases),
	.devices = (const char *const[]){ CEC0, CEC1, DEMUX, DVR, FRONTEND, NULL },
	.kconfig = (const char *const[]){ "CONFIG_VIDEO_VIVID_CEC",
		"CONFIG_DVB_VIDTV", NULL },
	.timeout = 30,
	.upstream = "patches/core 0027 (media: drop no_llseek), 0207 (dvb-core: noop_llseek)",
	.cases = cases,
};
