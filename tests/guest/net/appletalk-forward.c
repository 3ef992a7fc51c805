// SPDX-License-Identifier: GPL-2.0
/*
 * appletalk-forward - AppleTalk DDP forwarding between two TAP interfaces:
 * atalk_rcv() -> atalk_route_packet() -> aarp_send_ddp() in
 * drivers/staging/appletalk/ddp.c and aarp.c (net/appletalk in 6.1).
 *
 * The guest makes two TAP interfaces, atf0 and atf1 (/dev/net/tun,
 * IFF_TAP | IFF_NO_PI), and gives them the AppleTalk addresses 0100:10
 * (netrange 0100-0100) and 0200:20 (0200-0200) with SIOCSIFADDR, which
 * probes each address with AARP on its tap and adds a route to each
 * network. SIOCADDRT adds a route to network 0300 through the gateway
 * 0200:30, which atrtr_create() puts on atf1 by its netrange. The test
 * then plays the hosts on both cables: it writes EtherTalk frames (802.3
 * length, 802.2 LLC AA AA 03, SNAP 08 00 07 80 9B, DDP) into atf0 and
 * reads what the kernel sends out of atf1:
 *
 *   - a DDP frame from 0100:05 for 0300:07: not ours (atalk_find_interface
 *     finds nothing), so atalk_route_packet() forwards it via the gateway;
 *     aarp_send_ddp() queues it and sends an AARP request for 0200:30 on
 *     atf1 (SNAP 00 00 00 80 F3); the test answers with an AARP reply and
 *     the frame leaves atf1 for the gateway's Ethernet address with its
 *     hop count one higher and every other byte the same;
 *   - a second frame goes out at once through the resolved AARP entry;
 *   - frames that must not be forwarded (15 hops already, a network with
 *     no route, the gateway's network after SIOCDELRT) are dropped: each
 *     is followed by a frame that must be forwarded, and that one must be
 *     the first thing atf1 sends;
 *   - a frame for a host on atf1's own network (no gateway) asks AARP for
 *     that host itself;
 *   - closing the taps unregisters them; the close must return (it waits
 *     until nothing holds a reference on the device) and the interfaces,
 *     routes and AARP entries must be gone.
 *
 * Frame formats, from the 6.1 source: eth_header() writes the length for
 * ETH_P_802_2 (llc_mac_hdr_init), llc_build_and_send_ui_pkt() the UI
 * header AA AA 03, snap_request() the 5-byte SNAP id; struct ddpehdr and
 * struct elapaarp in include/linux/atalk.h; the DDP checksum is
 * atalk_checksum() (bytes 4.. of the DDP header and data, add and rotate
 * left by one in 16 bits, 0 sent as FFFF).
 *
 * The lab kernels have one CPU and no preemption, so this test cannot race
 * a route removal with a forward; it proves the forwarding path works the
 * same on both kernels (patches/drivers 0009 changes how it holds the
 * route).
 */
#include <fcntl.h>
#include <net/if.h>
#include <net/route.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <linux/atalk.h>
#include <linux/if_arp.h>
#include <linux/if_tun.h>
#include <linux/sockios.h>

#include "ktap.h"
#include "atalk.h"

#ifndef AF_APPLETALK
#define AF_APPLETALK 5
#endif

/* Our interfaces and the networks around them. */
#define NET_A 0x0100		/* atf0's cable */
#define NODE_A 0x10
#define NET_B 0x0200		/* atf1's cable */
#define NODE_B 0x20
#define GW_NODE 0x30		/* the router to NET_R, on NET_B */
#define HOST_B 0x31		/* a host on NET_B */
#define NET_R 0x0300		/* reached through the gateway */
#define NODE_R 0x07
#define NET_NOROUTE 0x0400
#define SRC_NODE 0x05		/* the sender, a host on NET_A */
#define DPORT 0x40
#define SPORT 0x41

#define AARP_PROBES 10		/* AARP_RETRANSMIT_LIMIT, aarp_probe_network */
#define WAIT_MS 2000
#define QUIET_MS 500

#define ETH_HLEN_ 14
#define LLC_SNAP 8		/* AA AA 03 and the 5-byte SNAP id */
#define DDP_HLEN 13		/* struct ddpehdr */
#define AARP_LEN 28		/* struct elapaarp */
#define FRAME_MAX 1600

static const unsigned char ddp_snap[5] = { 0x08, 0x00, 0x07, 0x80, 0x9b };
static const unsigned char aarp_snap[5] = { 0x00, 0x00, 0x00, 0x80, 0xf3 };
static const unsigned char aarp_mcast[6] = { 0x09, 0x00, 0x07,
					     0xff, 0xff, 0xff };
/* Hosts the test plays (locally administered unicast addresses). */
static const unsigned char mac_src[6] = { 0x02, 0x00, 0x5e, 0x10, 0x00, 0x05 };
static const unsigned char mac_gw[6] = { 0x02, 0x00, 0x5e, 0x20, 0x00, 0x30 };

static const char *const tap_name[2] = { "atf0", "atf1" };
static int tap[2] = { -1, -1 };
static unsigned char tap_mac[2][6];
static int ctl = -1;

enum kind { K_OTHER, K_DDP, K_AARP };

struct frame {
	unsigned char b[FRAME_MAX];
	size_t len;
};

/* -------------------------------------------------------------------- */
/* frames */

static void put16(unsigned char *p, unsigned int v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

static unsigned int get16(const unsigned char *p)
{
	return (unsigned int)p[0] << 8 | p[1];
}

/* atalk_checksum(): over the DDP bytes from 4 on; 0 is sent as FFFF. */
static unsigned int ddp_sum(const unsigned char *ddp, size_t len)
{
	unsigned int sum = 0;
	size_t i;

	for (i = 4; i < len; i++) {
		sum = (sum + ddp[i]) & 0xffff;
		sum = ((sum << 1) | (sum >> 15)) & 0xffff;
	}
	return sum ? sum : 0xffff;
}

/* Ethernet 802.3 header, LLC UI and SNAP id; returns the payload. */
static unsigned char *llc_snap(struct frame *f, const unsigned char *dst,
			       const unsigned char *src,
			       const unsigned char *snap, size_t payload)
{
	unsigned char *p = f->b;

	memcpy(p, dst, 6);
	memcpy(p + 6, src, 6);
	put16(p + 12, LLC_SNAP + payload);
	p[14] = 0xaa;
	p[15] = 0xaa;
	p[16] = 0x03;
	memcpy(p + 17, snap, 5);
	f->len = ETH_HLEN_ + LLC_SNAP + payload;
	return p + ETH_HLEN_ + LLC_SNAP;
}

/* A DDP frame from SRC_NODE on NET_A, written into atf0. */
static void ddp_frame(struct frame *f, unsigned int hops, unsigned int dnet,
		      unsigned int dnode, const char *data)
{
	size_t dlen = strlen(data), len = DDP_HLEN + dlen;
	unsigned char *d = llc_snap(f, tap_mac[0], mac_src, ddp_snap, len);

	put16(d, hops << 10 | len);
	put16(d + 4, dnet);
	put16(d + 6, NET_A);
	d[8] = dnode;
	d[9] = SRC_NODE;
	d[10] = DPORT;
	d[11] = SPORT;
	d[12] = 0x0b;		/* the DDP type byte starts the data */
	memcpy(d + 13, data, dlen);
	put16(d + 2, ddp_sum(d, len));
}

/* struct elapaarp after the headers. */
static void aarp_frame(struct frame *f, const unsigned char *dst,
		       const unsigned char *src, unsigned int function,
		       unsigned int snet, unsigned int snode,
		       const unsigned char *hw_dst, unsigned int dnet,
		       unsigned int dnode)
{
	unsigned char *a = llc_snap(f, dst, src, aarp_snap, AARP_LEN);

	put16(a, 1);			/* AARP_HW_TYPE_ETHERNET */
	put16(a + 2, 0x809b);		/* ETH_P_ATALK */
	a[4] = 6;
	a[5] = 4;			/* AARP_PA_ALEN */
	put16(a + 6, function);
	memcpy(a + 8, src, 6);
	a[14] = 0;
	put16(a + 15, snet);
	a[17] = snode;
	memcpy(a + 18, hw_dst, 6);
	a[24] = 0;
	put16(a + 25, dnet);
	a[27] = dnode;
}

/* What a frame read from a tap is; its 802.3 length must be exact. */
static enum kind kind_of(const struct frame *f)
{
	const unsigned char *p = f->b;

	if (f->len < ETH_HLEN_ + LLC_SNAP || get16(p + 12) >= 0x600 ||
	    get16(p + 12) != f->len - ETH_HLEN_ || p[14] != 0xaa ||
	    p[15] != 0xaa || p[16] != 0x03)
		return K_OTHER;
	if (!memcmp(p + 17, ddp_snap, 5))
		return K_DDP;
	if (!memcmp(p + 17, aarp_snap, 5) &&
	    f->len == ETH_HLEN_ + LLC_SNAP + AARP_LEN)
		return K_AARP;
	return K_OTHER;
}

static const unsigned char *payload(const struct frame *f)
{
	return f->b + ETH_HLEN_ + LLC_SNAP;
}

static void diag_frame(const char *what, const struct frame *f)
{
	char hex[3 * 64 + 1] = "";
	size_t i;

	for (i = 0; i < f->len && i < 64; i++)
		snprintf(hex + 3 * i, 4, " %02x", f->b[i]);
	ktap_diag("%s (%zu bytes):%s", what, f->len, hex);
}

static int tap_write(int i, const struct frame *f)
{
	ssize_t n = write(tap[i], f->b, f->len);

	if (n == (ssize_t)f->len)
		return 1;
	ktap_diag("write %s: %zd of %zu bytes (%s)", tap_name[i], n, f->len,
		  n < 0 ? strerror(errno) : "short");
	return 0;
}

/* The next frame on tap i within ms: 1, or 0 (timeout or error). */
static int tap_read(int i, struct frame *f, int ms)
{
	struct pollfd p = { .fd = tap[i], .events = POLLIN };
	ssize_t n;

	if (poll(&p, 1, ms) != 1)
		return 0;
	n = read(tap[i], f->b, sizeof(f->b));
	if (n < 0) {
		ktap_perror(tap_name[i]);
		return 0;
	}
	f->len = n;
	return 1;
}

/* Reads tap i until quiet for QUIET_MS; counts AARP probes for net.node. */
static int drain_probes(int i, unsigned int net, unsigned int node,
			int *others)
{
	struct frame f;
	int probes = 0;

	*others = 0;
	while (tap_read(i, &f, QUIET_MS)) {
		const unsigned char *a = payload(&f);

		if (kind_of(&f) == K_AARP && !memcmp(f.b, aarp_mcast, 6) &&
		    !memcmp(f.b + 6, tap_mac[i], 6) && get16(a + 6) == 3 &&
		    !memcmp(a + 8, tap_mac[i], 6) && get16(a + 15) == net &&
		    a[17] == node && get16(a + 25) == net && a[27] == node)
			probes++;
		else if (++*others == 1)
			diag_frame("unexpected frame", &f);
	}
	return probes;
}

/*
 * The first frame on atf1 within WAIT_MS, which must be of kind want;
 * skip_aarp skips AARP requests for the gateway (the AARP timer resends
 * them every 200 ms until the reply).
 */
static int first_frame(struct frame *f, enum kind want, int skip_aarp)
{
	long long end = ktap_now_ms() + WAIT_MS;
	int left;

	while ((left = end - ktap_now_ms()) > 0) {
		if (!tap_read(1, f, left))
			break;
		if (skip_aarp && kind_of(f) == K_AARP &&
		    get16(payload(f) + 6) == 1 &&
		    get16(payload(f) + 25) == NET_B &&
		    payload(f)[27] == GW_NODE)
			continue;
		if (kind_of(f) == want)
			return 1;
		diag_frame("atf1 sent first", f);
		return 0;
	}
	ktap_diag("atf1 sent nothing within %d ms", WAIT_MS);
	return 0;
}

/*
 * f is in forwarded from sent: to dst from atf1's address, the same DDP
 * bytes but the hop count one higher (the checksum does not cover it).
 */
static int is_forwarded(const struct frame *f, const struct frame *sent,
			const unsigned char *dst)
{
	const unsigned char *d = payload(f), *s = payload(sent);
	size_t len = sent->len - ETH_HLEN_ - LLC_SNAP;
	unsigned int want = get16(s) + (1 << 10);

	if (f->len != sent->len || memcmp(f->b, dst, 6) ||
	    memcmp(f->b + 6, tap_mac[1], 6)) {
		diag_frame("forwarded", f);
		return 0;
	}
	if (get16(d) != want) {
		ktap_diag("len_hops %04x, want %04x", get16(d), want);
		return 0;
	}
	if (memcmp(d + 2, s + 2, len - 2)) {
		diag_frame("forwarded", f);
		diag_frame("sent", sent);
		return 0;
	}
	if (get16(d + 2) != ddp_sum(d, len)) {
		ktap_diag("checksum %04x, want %04x", get16(d + 2),
			  ddp_sum(d, len));
		return 0;
	}
	return 1;
}

/* An AARP request from atf1 (0200:20) for net.node. */
static int is_request_for(const struct frame *f, unsigned int net,
			  unsigned int node)
{
	static const unsigned char zero[6];
	const unsigned char *a = payload(f);

	if (kind_of(f) == K_AARP && !memcmp(f->b, aarp_mcast, 6) &&
	    !memcmp(f->b + 6, tap_mac[1], 6) && get16(a) == 1 &&
	    get16(a + 2) == 0x809b && a[4] == 6 && a[5] == 4 &&
	    get16(a + 6) == 1 && !memcmp(a + 8, tap_mac[1], 6) && !a[14] &&
	    get16(a + 15) == NET_B && a[17] == NODE_B &&
	    !memcmp(a + 18, zero, 6) && !a[24] && get16(a + 25) == net &&
	    a[27] == node)
		return 1;
	diag_frame("not the AARP request", f);
	return 0;
}

/* -------------------------------------------------------------------- */
/* ioctls and /proc/net/atalk */

static int if_flags_up(const char *name)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	if (ioctl(ctl, SIOCGIFFLAGS, &ifr))
		return 0;
	ifr.ifr_flags |= IFF_UP;
	return !ioctl(ctl, SIOCSIFFLAGS, &ifr);
}

static struct sockaddr_at at_addr(unsigned int net, unsigned int node)
{
	struct sockaddr_at sa;

	memset(&sa, 0, sizeof(sa));
	sa.sat_family = AF_APPLETALK;
	sa.sat_addr.s_net = htons(net);
	sa.sat_addr.s_node = node;
	return sa;
}

/* SIOCSIFADDR: net.node on a phase 2 netrange of one network. */
static int if_set(int i, unsigned int net, unsigned int node)
{
	return atalk_set_ifaddr(ctl, tap_name[i], AF_APPLETALK, net, node,
				net, net);
}

static int if_get(int i, struct sockaddr_at *out)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", tap_name[i]);
	if (ioctl(ctl, SIOCGIFADDR, &ifr))
		return -1;
	memcpy(out, &ifr.ifr_addr, sizeof(*out));
	return 0;
}

static int route_ioctl(unsigned long cmd, unsigned int net,
		       unsigned int gnet, unsigned int gnode, int flags)
{
	struct sockaddr_at dst = at_addr(net, 0), gw = at_addr(gnet, gnode);
	struct rtentry rt;

	memset(&rt, 0, sizeof(rt));
	memcpy(&rt.rt_dst, &dst, sizeof(dst));
	memcpy(&rt.rt_gateway, &gw, sizeof(gw));
	rt.rt_flags = flags;
	return ioctl(ctl, cmd, &rt);
}

/*
 * The lines of /proc/net/atalk/NAME after its header, joined with '|' in
 * out, whitespace runs squeezed to one space; -1 if unreadable.
 */
static int proc_rows(const char *name, char *out, size_t size)
{
	char path[64], line[256];
	int rows = 0;
	size_t o = 0;
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/net/atalk/%s", name);
	fp = fopen(path, "r");
	if (!fp)
		return ktap_perror(path);
	out[0] = '\0';
	if (!fgets(line, sizeof(line), fp)) {
		fclose(fp);
		return ktap_perror(path);
	}
	while (fgets(line, sizeof(line), fp)) {
		char *w, *save = NULL;
		int first = 1;

		if (rows++ && o + 1 < size)
			out[o++] = '|';
		for (w = strtok_r(line, " \t\n", &save); w;
		     w = strtok_r(NULL, " \t\n", &save)) {
			o += snprintf(out + o, o < size ? size - o : 0, "%s%s",
				      first ? "" : " ", w);
			first = 0;
		}
	}
	fclose(fp);
	return o < size ? rows : -1;
}

/* /proc/net/atalk/NAME has exactly the rows want (proc_rows form). */
static int proc_is(const char *name, const char *want)
{
	char got[1024];
	int n = proc_rows(name, got, sizeof(got));

	if (n >= 0 && !strcmp(got, want))
		return 1;
	ktap_diag("/proc/net/atalk/%s: '%s', want '%s'", name, got, want);
	return 0;
}

/* -------------------------------------------------------------------- */
/* cases */

static struct frame first;	/* the frame of t_request, forwarded later */

static int t_taps(void)
{
	int i;

	ctl = socket(AF_APPLETALK, SOCK_DGRAM, 0);
	if (ctl < 0)
		return ktap_perror("socket(AF_APPLETALK)"), 0;
	for (i = 0; i < 2; i++) {
		struct ifreq ifr;

		tap[i] = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
		if (tap[i] < 0)
			return ktap_perror("/dev/net/tun"), 0;
		memset(&ifr, 0, sizeof(ifr));
		ifr.ifr_flags = IFF_TAP | IFF_NO_PI;
		snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s",
			 tap_name[i]);
		if (ioctl(tap[i], TUNSETIFF, &ifr))
			return ktap_perror("TUNSETIFF"), 0;
		if (strcmp(ifr.ifr_name, tap_name[i])) {
			ktap_diag("TUNSETIFF named it %.16s", ifr.ifr_name);
			return 0;
		}
		memset(&ifr, 0, sizeof(ifr));
		if (ioctl(tap[i], SIOCGIFHWADDR, &ifr) ||
		    ifr.ifr_hwaddr.sa_family != ARPHRD_ETHER)
			return ktap_perror("SIOCGIFHWADDR"), 0;
		memcpy(tap_mac[i], ifr.ifr_hwaddr.sa_data, 6);
		if (!if_flags_up(tap_name[i]))
			return ktap_perror(tap_name[i]), 0;
	}
	return 1;
}

static int t_addresses(void)
{
	static const unsigned int net[2] = { NET_A, NET_B };
	static const unsigned int node[2] = { NODE_A, NODE_B };
	int ok = 1, i, probes, others;
	char want[256];

	for (i = 0; i < 2; i++) {
		struct sockaddr_at got;

		if (if_set(i, net[i], node[i]))
			return ktap_perror("SIOCSIFADDR"), 0;
		probes = drain_probes(i, net[i], node[i], &others);
		if (probes != AARP_PROBES || others) {
			ktap_diag("%s: %d AARP probes for %04X:%02X, want %d; "
				  "%d other frames", tap_name[i], probes,
				  net[i], node[i], AARP_PROBES, others);
			ok = 0;
		}
		memset(&got, 0, sizeof(got));
		if (if_get(i, &got) || got.sat_family != AF_APPLETALK ||
		    ntohs(got.sat_addr.s_net) != net[i] ||
		    got.sat_addr.s_node != node[i]) {
			ktap_diag("SIOCGIFADDR %s: %04X:%02X", tap_name[i],
				  ntohs(got.sat_addr.s_net),
				  got.sat_addr.s_node);
			ok = 0;
		}
	}
	/* atalk_seq_interface_show; atif_add_device puts new ones first */
	snprintf(want, sizeof(want),
		 "atf1 %04X:%02X %04X-%04X 0|atf0 %04X:%02X %04X-%04X 0",
		 NET_B, NODE_B, NET_B, NET_B, NET_A, NODE_A, NET_A, NET_A);
	return proc_is("interface", want) && ok;
}

static int t_route(void)
{
	char want[256];

	if (route_ioctl(SIOCADDRT, NET_R, NET_B, GW_NODE,
			RTF_UP | RTF_GATEWAY))
		return ktap_perror("SIOCADDRT"), 0;
	/* atalk_seq_route_show: no default route on these netranges */
	snprintf(want, sizeof(want),
		 "%04X:00 %04X:%02X 3 atf1|%04X:00 %04X:%02X 1 atf1|"
		 "%04X:00 %04X:%02X 1 atf0", NET_R, NET_B, GW_NODE,
		 NET_B, NET_B, NODE_B, NET_A, NET_A, NODE_A);
	return proc_is("route", want);
}

static int t_request(void)
{
	struct frame f;

	ddp_frame(&first, 2, NET_R, NODE_R, "through the gateway");
	if (!tap_write(0, &first) || !first_frame(&f, K_AARP, 0))
		return 0;
	return is_request_for(&f, NET_B, GW_NODE);
}

static int t_forwarded(void)
{
	struct frame reply, f;

	aarp_frame(&reply, tap_mac[1], mac_gw, 2, NET_B, GW_NODE, tap_mac[1],
		   NET_B, NODE_B);
	return tap_write(1, &reply) && first_frame(&f, K_DDP, 1) &&
	       is_forwarded(&f, &first, mac_gw);
}

/* /proc/net/atalk/arp: one row, prefix want, the status last. */
static int arp_row_is(const char *want, const char *status)
{
	char got[1024], *tail = NULL;
	int n = proc_rows("arp", got, sizeof(got));

	if (n == 1)
		tail = strrchr(got, ' ');
	if (tail && !strncmp(got, want, strlen(want)) &&
	    !strcmp(tail + 1, status))
		return 1;
	ktap_diag("/proc/net/atalk/arp: '%s', want '%s ... %s'",
		  n >= 0 ? got : "", want, status);
	return 0;
}

static int t_resolved(void)
{
	struct frame sent, f;
	char want[128];

	/* aarp_seq_show: the expiry column between is not compared */
	snprintf(want, sizeof(want),
		 "%04X:%02X atf1 %02x:%02x:%02x:%02x:%02x:%02x", NET_B,
		 GW_NODE, mac_gw[0], mac_gw[1], mac_gw[2], mac_gw[3],
		 mac_gw[4], mac_gw[5]);
	if (!arp_row_is(want, "resolved"))
		return 0;
	ddp_frame(&sent, 0, NET_R, NODE_R, "resolved: no AARP this time");
	return tap_write(0, &sent) && first_frame(&f, K_DDP, 0) &&
	       is_forwarded(&f, &sent, mac_gw);
}

static int t_dropped(void)
{
	struct frame hop15, noroute, sent, f;

	ddp_frame(&hop15, 15, NET_R, NODE_R, "fifteen hops already");
	ddp_frame(&noroute, 1, NET_NOROUTE, NODE_R, "no route to 0400");
	ddp_frame(&sent, 3, NET_R, NODE_R, "after the two dropped ones");
	return tap_write(0, &hop15) && tap_write(0, &noroute) &&
	       tap_write(0, &sent) && first_frame(&f, K_DDP, 0) &&
	       is_forwarded(&f, &sent, mac_gw);
}

static int t_delrt_direct(void)
{
	struct frame gone, direct, f;
	char want[256];

	if (route_ioctl(SIOCDELRT, NET_R, 0, 0, 0))
		return ktap_perror("SIOCDELRT"), 0;
	snprintf(want, sizeof(want),
		 "%04X:00 %04X:%02X 1 atf1|%04X:00 %04X:%02X 1 atf0", NET_B,
		 NET_B, NODE_B, NET_A, NET_A, NODE_A);
	if (!proc_is("route", want))
		return 0;
	/* the gateway's AARP entry is still resolved: a forward would show */
	ddp_frame(&gone, 1, NET_R, NODE_R, "route deleted");
	ddp_frame(&direct, 1, NET_B, HOST_B, "to a host on atf1's cable");
	return tap_write(0, &gone) && tap_write(0, &direct) &&
	       first_frame(&f, K_AARP, 0) && is_request_for(&f, NET_B, HOST_B);
}

static int t_close(void)
{
	int status, ok, go[2];
	long long end;
	pid_t pid;

	if (pipe(go))
		return ktap_perror("pipe"), 0;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return ktap_perror("fork"), 0;
	if (!pid) {
		char c;

		/*
		 * The last close unregisters the taps and returns only when
		 * nothing holds a reference on them: make it the child's.
		 */
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(2);
		close(tap[0]);
		close(tap[1]);
		_exit(0);
	}
	close(go[0]);
	close(tap[0]);
	close(tap[1]);
	tap[0] = tap[1] = -1;
	if (write(go[1], "c", 1) != 1)
		ktap_perror("pipe write");
	close(go[1]);
	end = ktap_now_ms() + 10000;
	while (waitpid(pid, &status, WNOHANG) == 0) {
		if (ktap_now_ms() > end) {
			ktap_diag("closing the taps did not return within 10 s "
				  "(a device reference left?)");
			return 0;
		}
		poll(NULL, 0, 20);
	}
	ok = WIFEXITED(status) && !WEXITSTATUS(status);
	ok &= if_nametoindex(tap_name[0]) == 0 &&
	      if_nametoindex(tap_name[1]) == 0;
	if (!ok)
		ktap_diag("child status 0x%x; atf0 index %u, atf1 index %u",
			  status, if_nametoindex(tap_name[0]),
			  if_nametoindex(tap_name[1]));
	ok &= proc_is("interface", "");
	ok &= proc_is("route", "");
	ok &= proc_is("arp", "");
	close(ctl);
	return ok;
}

static const struct ktap_case cases[] = {
	{ "TAP interfaces atf0 and atf1 up", t_taps },
	{ "SIOCSIFADDR atf0 0100:10, atf1 0200:20, 10 AARP probes each",
	  t_addresses },
	{ "SIOCADDRT 0300 via 0200:30 goes through atf1", t_route },
	{ "a frame for 0300:07 into atf0: AARP request for 0200:30 on atf1",
	  t_request },
	{ "after the AARP reply it leaves atf1 for the gateway, hop count +1, rest unchanged",
	  t_forwarded },
	{ "AARP entry resolved; the next frame is forwarded at once",
	  t_resolved },
	{ "15 hops and no route are dropped, the frame after them forwarded",
	  t_dropped },
	{ "SIOCDELRT 0300 drops its frames; 0200:31 is asked for directly",
	  t_delrt_direct },
	{ "closing the taps returns and removes interfaces, routes, AARP entries",
	  t_close },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(cases),
	.devices = (const char *const[]){ "/dev/net/tun", NULL },
	.kconfig = (const char *const[]){ "CONFIG_ATALK", "CONFIG_TUN",
					  NULL },
	.timeout = 60,
	.upstream = "patches/drivers 0009 (atalk_route_packet)",
	.cases = cases,
};
