// SPDX-License-Identifier: GPL-2.0
/*
 * appletalk-ddp - AppleTalk DDP sockets over the loopback interface
 * (net/appletalk/ddp.c in 6.1, drivers/staging/appletalk/ddp.c after the
 * staging move; the code is the same).
 *
 * The guest has only lo. The test brings it up, gives it an AppleTalk
 * address with SIOCSIFADDR in the "routerless" netrange 0000-FFFE, which
 * makes atif_ioctl() create the interface, a host route NET.0 via our own
 * address and the default route, and then checks:
 *
 *   - before any interface: bind, sendto and getsockname fail with the
 *     errors of atalk_find_primary() returning NULL, SIOCGIFADDR with
 *     EADDRNOTAVAIL; socket types and the ignored protocol number;
 *   - SIOCSIFADDR error paths, then the interface, SIOCGIFADDR and
 *     SIOCGIFBRDADDR, and /proc/net/atalk/{interface,route,arp};
 *   - bind to a port and to ATADDR_ANYPORT (ports are picked from 128
 *     up), getsockname/getpeername, and the bind errors;
 *   - datagrams between two sockets: payload and source address exact,
 *     MSG_PEEK, truncation, DDP_MAXSZ and EMSGSIZE, empty datagrams,
 *     flags, bad destination addresses, broadcast with and without
 *     SO_BROADCAST, connect/send, TIOCINQ, /proc/net/atalk/socket;
 *   - SIOCADDRT/SIOCDELRT with valid and invalid input, SIOCATALKDIFADDR
 *     (then sending fails with ENETUNREACH) and adding the address back;
 *   - a bounded stress: senders, a binder and a receiver while another
 *     thread deletes and re-adds the interface address and a route;
 *   - the route lifetime in atalk_sendmsg(): a broadcast sendto() whose
 *     payload page must be read from a loop device sleeps in the page
 *     fault after the routes were looked up; the interface is deleted
 *     meanwhile (see test_sendmsg_route_window()).
 *
 * Every errno asserted here is the one the 6.1 source returns; the
 * function that returns it is named next to each check.
 */
#include <fcntl.h>
#include <linux/loop.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <net/route.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/atalk.h>

#include "ktap.h"
#include "atalk.h"

#ifndef AF_APPLETALK
#define AF_APPLETALK 5
#endif
#ifndef SOL_SOCKET
#define SOL_SOCKET 1
#endif

/* Our two addresses; the routerless netrange makes a default route. */
#define NET1 0x1234
#define NODE1 0x56
#define NET2 0x2345
#define NODE2 0x42
#define FIRSTNET 0x0000
#define LASTNET 0xfffe
/* A network reached through a gateway route we add. */
#define GWNET 0x0777
#define PORT_A 200
#define PORT_STRESS 220
#define PORT_WINDOW 230
#define RECV_MS 2000
#define STRESS_MS 3000

static int ctl = -1;		/* AppleTalk socket for the ioctls */
static unsigned int cur_net = NET1, cur_node = NODE1;

/* -------------------------------------------------------------------- */
/* helpers */

static struct sockaddr_at at_addr(unsigned int net, unsigned int node,
				  unsigned int port)
{
	struct sockaddr_at sa;

	memset(&sa, 0, sizeof(sa));
	sa.sat_family = AF_APPLETALK;
	sa.sat_port = port;
	sa.sat_addr.s_net = htons(net);
	sa.sat_addr.s_node = node;
	return sa;
}

static int at_socket(void)
{
	int fd = socket(AF_APPLETALK, SOCK_DGRAM, 0);

	if (fd < 0)
		ktap_perror("socket(AF_APPLETALK, SOCK_DGRAM)");
	return fd;
}

/* A socket bound to net.node:port (net 0: the primary address). */
static int at_bound(unsigned int net, unsigned int node, unsigned int port)
{
	struct sockaddr_at sa = at_addr(net, node, port);
	int fd = at_socket();

	if (fd >= 0 && bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		ktap_perror("bind");
		close(fd);
		return -1;
	}
	return fd;
}

static int set_bcast(int fd)
{
	int one = 1;

	return setsockopt(fd, SOL_SOCKET, SO_BROADCAST, &one, sizeof(one));
}

static const char *ename(int e)
{
	static char buf[8][32];
	static unsigned int n;
	char *b = buf[n++ % 8];

	snprintf(b, 32, "%s", strerrorname_np(e) ? strerrorname_np(e) : "?");
	return b;
}

/* ret must be -1 with errno want; else a diagnostic naming what. */
static int want_err(long ret, int want, const char *what)
{
	int e = errno;

	if (ret == -1 && e == want)
		return 1;
	if (ret == -1)
		ktap_diag("%s: errno %s, want %s", what, ename(e), ename(want));
	else
		ktap_diag("%s: returned %ld, want -1 %s", what, ret, ename(want));
	errno = 0;
	return 0;
}

static int want_ok(long ret, const char *what)
{
	if (ret >= 0)
		return 1;
	ktap_diag("%s: %s", what, ename(errno));
	errno = 0;
	return 0;
}

static int same_addr(const struct sockaddr_at *a, unsigned int net,
		     unsigned int node, unsigned int port, const char *what)
{
	if (a->sat_family == AF_APPLETALK && ntohs(a->sat_addr.s_net) == net &&
	    a->sat_addr.s_node == node && a->sat_port == port)
		return 1;
	ktap_diag("%s: family %u %04X:%02X port %u, want %u %04X:%02X port %u",
		  what, a->sat_family, ntohs(a->sat_addr.s_net),
		  a->sat_addr.s_node, a->sat_port, AF_APPLETALK, net, node,
		  port);
	return 0;
}

static void fill_ifreq(struct ifreq *ifr, const char *name,
		       const struct sockaddr_at *sa)
{
	memset(ifr, 0, sizeof(*ifr));
	snprintf(ifr->ifr_name, sizeof(ifr->ifr_name), "%s", name);
	if (sa)
		memcpy(&ifr->ifr_addr, sa, sizeof(*sa));
}

/* SIOCSIFADDR on dev with family, address and netrange (atif_ioctl). */
static int if_set_full(const char *dev, int family, unsigned int net,
		       unsigned int node, unsigned int first,
		       unsigned int last)
{
	return atalk_set_ifaddr(ctl, dev, family, net, node, first, last);
}

static int if_set(unsigned int net, unsigned int node)
{
	int r = if_set_full("lo", AF_APPLETALK, net, node, FIRSTNET, LASTNET);

	if (!r) {
		cur_net = net;
		cur_node = node;
	}
	return r;
}

static int if_del_family(int family)
{
	struct sockaddr_at sa = at_addr(0, 0, 0);
	struct ifreq ifr;

	sa.sat_family = family;
	fill_ifreq(&ifr, "lo", &sa);
	return ioctl(ctl, SIOCATALKDIFADDR, &ifr);
}

static int if_get(unsigned long cmd, struct sockaddr_at *out)
{
	struct ifreq ifr;
	int r;

	fill_ifreq(&ifr, "lo", NULL);
	r = ioctl(ctl, cmd, &ifr);
	memcpy(out, &ifr.ifr_addr, sizeof(*out));
	return r;
}

/* SIOCADDRT/SIOCDELRT (atrtr_ioctl); dev may be NULL. */
static int route_ioctl(unsigned long cmd, int dst_family, unsigned int net,
		       unsigned int node, int gw_family, unsigned int gnet,
		       unsigned int gnode, int flags, const char *dev)
{
	struct sockaddr_at dst = at_addr(net, node, 0);
	struct sockaddr_at gw = at_addr(gnet, gnode, 0);
	char devname[IFNAMSIZ] = "";
	struct rtentry rt;

	dst.sat_family = dst_family;
	gw.sat_family = gw_family;
	memset(&rt, 0, sizeof(rt));
	memcpy(&rt.rt_dst, &dst, sizeof(dst));
	memcpy(&rt.rt_gateway, &gw, sizeof(gw));
	rt.rt_flags = flags;
	if (dev) {
		snprintf(devname, sizeof(devname), "%s", dev);
		rt.rt_dev = devname;
	}
	return ioctl(ctl, cmd, &rt);
}

/* Wait up to ms for fd to be readable. */
static int readable(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, ms) == 1 && (p.revents & POLLIN);
}

/*
 * Receive one datagram on fd within RECV_MS and compare it with want
 * (len bytes) and its source with net.node:port.
 */
static int recv_exact(int fd, const void *want, size_t len, unsigned int net,
		      unsigned int node, unsigned int port, int flags)
{
	unsigned char buf[DDP_MAXSZ + 64];
	struct sockaddr_at from;
	socklen_t fl = sizeof(from);
	ssize_t n;

	if (!readable(fd, RECV_MS)) {
		ktap_diag("no datagram within %d ms", RECV_MS);
		return 0;
	}
	memset(&from, 0xa5, sizeof(from));
	n = recvfrom(fd, buf, sizeof(buf), flags, (struct sockaddr *)&from, &fl);
	if (n < 0)
		return want_ok(n, "recvfrom");
	if ((size_t)n != len || memcmp(buf, want, len)) {
		ktap_diag("received %zd bytes, want %zu (payload %s)", n, len,
			  (size_t)n == len ? "differs" : "-");
		return 0;
	}
	if (fl != sizeof(from)) {
		ktap_diag("source address length %u, want %zu", fl,
			  sizeof(from));
		return 0;
	}
	return same_addr(&from, net, node, port, "source address");
}

static ssize_t send_to(int fd, const void *buf, size_t len, unsigned int net,
		       unsigned int node, unsigned int port, int flags)
{
	struct sockaddr_at to = at_addr(net, node, port);

	return sendto(fd, buf, len, flags, (struct sockaddr *)&to, sizeof(to));
}

static int port_of(int fd)
{
	struct sockaddr_at sa;
	socklen_t l = sizeof(sa);

	if (getsockname(fd, (struct sockaddr *)&sa, &l))
		return -1;
	return sa.sat_port;
}

/* Nothing left to read on fd. */
static int drained(int fd)
{
	char c;

	return recv(fd, &c, 1, MSG_DONTWAIT) == -1 && errno == EAGAIN;
}

/* -------------------------------------------------------------------- */
/* /proc/net/atalk */

#define MAXROWS 64

struct pif { char dev[16]; unsigned int net, node, first, last; int status; };
struct prt { int dflt; unsigned int net, node, gnet, gnode; int flags; char dev[16]; };
struct psk { unsigned int type, net, node, port, rnet, rnode, rport, tx, rx, st, uid; };

static FILE *proc_open(const char *name, const char *header)
{
	char path[64], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/net/atalk/%s", name);
	f = fopen(path, "r");
	if (!f) {
		ktap_perror(path);
		return NULL;
	}
	if (!fgets(line, sizeof(line), f) || strcmp(line, header)) {
		ktap_diag("%s: header '%s'", path, f ? line : "");
		fclose(f);
		return NULL;
	}
	return f;
}

/* Rows of /proc/net/atalk/interface, or -1. */
static int proc_ifaces(struct pif *r)
{
	FILE *f = proc_open("interface",
			    "Interface        Address   Networks  Status\n");
	char line[256];
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f) && n < MAXROWS) {
		if (sscanf(line, "%15s %4X:%2X %4X-%4X %d", r[n].dev, &r[n].net,
			   &r[n].node, &r[n].first, &r[n].last,
			   &r[n].status) != 6) {
			ktap_diag("interface: unparsed line '%s'", line);
			n = -1;
			break;
		}
		n++;
	}
	fclose(f);
	return n;
}

static int proc_routes(struct prt *r)
{
	FILE *f = proc_open("route", "Target        Router  Flags Dev\n");
	char line[256];
	int n = 0, ok;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f) && n < MAXROWS) {
		memset(&r[n], 0, sizeof(r[n]));
		if (!strncmp(line, "Default", 7)) {
			r[n].dflt = 1;
			ok = sscanf(line, "Default %4X:%2X %d %15s", &r[n].gnet,
				    &r[n].gnode, &r[n].flags, r[n].dev) == 4;
		} else {
			ok = sscanf(line, "%4X:%2X %4X:%2X %d %15s", &r[n].net,
				    &r[n].node, &r[n].gnet, &r[n].gnode,
				    &r[n].flags, r[n].dev) == 6;
		}
		if (!ok) {
			ktap_diag("route: unparsed line '%s'", line);
			n = -1;
			break;
		}
		n++;
	}
	fclose(f);
	return n;
}

static int proc_sockets(struct psk *r)
{
	FILE *f = proc_open("socket", "Type Local_addr  Remote_addr Tx_queue "
				      "Rx_queue St UID\n");
	char line[256];
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f) && n < MAXROWS) {
		if (sscanf(line, "%2X %4X:%2X:%2X %4X:%2X:%2X %8X:%8X %2X %u",
			   &r[n].type, &r[n].net, &r[n].node, &r[n].port,
			   &r[n].rnet, &r[n].rnode, &r[n].rport, &r[n].tx,
			   &r[n].rx, &r[n].st, &r[n].uid) != 11) {
			ktap_diag("socket: unparsed line '%s'", line);
			n = -1;
			break;
		}
		n++;
	}
	fclose(f);
	return n;
}

static const struct psk *find_sock(const struct psk *r, int n,
				   unsigned int port)
{
	int i;

	for (i = 0; i < n; i++)
		if (r[i].net == cur_net && r[i].node == cur_node &&
		    r[i].port == port)
			return &r[i];
	return NULL;
}

/*
 * The route table a configured routerless lo has, plus (gwnet) one
 * gateway route: every row names lo, a "Default 0000:00 flags 1" row
 * precedes each route (atalk_seq_route_show prints it per row), the host
 * route NET.00 via our address has RTF_UP|RTF_HOST (5).
 */
static int routes_are(int gwnet)
{
	struct prt r[MAXROWS];
	int n = proc_routes(r), i, host = 0, gw = 0, dflt = 0, other = 0;

	if (n < 0)
		return 0;
	for (i = 0; i < n; i++) {
		if (strcmp(r[i].dev, "lo"))
			other++;
		else if (r[i].dflt && !r[i].gnet && !r[i].gnode &&
			 r[i].flags == RTF_UP)
			dflt++;
		else if (!r[i].dflt && r[i].net == cur_net && !r[i].node &&
			 r[i].gnet == cur_net && r[i].gnode == cur_node &&
			 r[i].flags == (RTF_UP | RTF_HOST))
			host++;
		else if (!r[i].dflt && gwnet && r[i].net == GWNET &&
			 !r[i].node && r[i].gnet == cur_net &&
			 r[i].gnode == cur_node &&
			 r[i].flags == (RTF_UP | RTF_GATEWAY))
			gw++;
		else
			other++;
	}
	if (host == 1 && gw == !!gwnet && dflt == 1 + !!gwnet && !other)
		return 1;
	ktap_diag("route: %d rows: %d host, %d gateway, %d default, %d other",
		  n, host, gw, dflt, other);
	return 0;
}

/* -------------------------------------------------------------------- */
/* before any interface exists */

static int t_config(void)
{
	struct stat st;
	int fd;

	if (!ktap_kconfig_set("CONFIG_ATALK")) {
		ktap_diag("CONFIG_ATALK=y not in /proc/config.gz");
		return 0;
	}
	if (stat("/proc/net/atalk", &st) || !S_ISDIR(st.st_mode)) {
		ktap_diag("/proc/net/atalk missing");
		return 0;
	}
	fd = socket(AF_APPLETALK, SOCK_DGRAM, 0);
	if (fd < 0)
		return want_ok(fd, "socket(AF_APPLETALK, SOCK_DGRAM, 0)");
	ctl = fd;
	return 1;
}

static int t_socket_types(void)
{
	int ok = 1, fd;

	/* atalk_create: SOCK_RAW is allowed with CAP_NET_RAW (we are root) */
	fd = socket(AF_APPLETALK, SOCK_RAW, 0);
	ok &= want_ok(fd, "socket(SOCK_RAW)");
	close(fd);
	/* the protocol number is ignored */
	fd = socket(AF_APPLETALK, SOCK_DGRAM, 99);
	ok &= want_ok(fd, "socket(SOCK_DGRAM, protocol 99)");
	close(fd);
	/* anything but DGRAM and RAW: ESOCKTNOSUPPORT */
	ok &= want_err(socket(AF_APPLETALK, SOCK_STREAM, 0), ESOCKTNOSUPPORT,
		       "socket(SOCK_STREAM)");
	ok &= want_err(socket(AF_APPLETALK, SOCK_SEQPACKET, 0),
		       ESOCKTNOSUPPORT, "socket(SOCK_SEQPACKET)");
	/* a type >= SOCK_MAX never reaches the family: EINVAL */
	ok &= want_err(socket(AF_APPLETALK, 15, 0), EINVAL, "socket(type 15)");
	return ok;
}

static int t_no_interface(void)
{
	struct sockaddr_at sa = at_addr(0, 0, 0), got;
	socklen_t l = sizeof(got);
	int fd = at_socket(), ok = fd >= 0, n;
	struct pif pi[MAXROWS];
	char c = 0;

	if (!ok)
		return 0;
	/* atalk_bind: ANYNET and no primary address */
	ok &= want_err(bind(fd, (struct sockaddr *)&sa, sizeof(sa)),
		       EADDRNOTAVAIL, "bind ANYNET without interface");
	/* atalk_sendmsg: autobind fails -> EBUSY */
	ok &= want_err(send_to(fd, &c, 1, NET1, NODE1, PORT_A, 0), EBUSY,
		       "sendto unbound without interface");
	/* atalk_getname: autobind fails -> ENOBUFS */
	ok &= want_err(getsockname(fd, (struct sockaddr *)&got, &l), ENOBUFS,
		       "getsockname without interface");
	/* atif_ioctl: no atif */
	ok &= want_err(if_get(SIOCGIFADDR, &got), EADDRNOTAVAIL,
		       "SIOCGIFADDR without interface");
	n = proc_ifaces(pi);
	if (n != 0) {
		ktap_diag("/proc/net/atalk/interface has %d rows, want 0", n);
		ok = 0;
	}
	close(fd);
	return ok;
}

static int t_lo_up(void)
{
	struct ifreq ifr;

	fill_ifreq(&ifr, "lo", NULL);
	if (ioctl(ctl, SIOCGIFFLAGS, &ifr))
		return want_ok(-1, "SIOCGIFFLAGS lo");
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(ctl, SIOCSIFFLAGS, &ifr))
		return want_ok(-1, "SIOCSIFFLAGS lo up");
	fill_ifreq(&ifr, "lo", NULL);
	if (ioctl(ctl, SIOCGIFFLAGS, &ifr))
		return want_ok(-1, "SIOCGIFFLAGS lo");
	if ((ifr.ifr_flags & (IFF_UP | IFF_LOOPBACK)) !=
	    (IFF_UP | IFF_LOOPBACK)) {
		ktap_diag("lo flags 0x%x", ifr.ifr_flags);
		return 0;
	}
	return 1;
}

static int t_ifaddr_errors(void)
{
	struct pif pi[MAXROWS];
	int ok = 1, n;

	/* __dev_get_by_name fails before anything else */
	ok &= want_err(if_set_full("nosuch0", AF_APPLETALK, NET1, NODE1,
				   FIRSTNET, LASTNET), ENODEV,
		       "SIOCSIFADDR nosuch0");
	ok &= want_err(if_set_full("lo", AF_INET, NET1, NODE1, FIRSTNET,
				   LASTNET), EINVAL,
		       "SIOCSIFADDR sat_family AF_INET");
	ok &= want_err(if_set_full("lo", AF_APPLETALK, NET1, ATADDR_BCAST,
				   FIRSTNET, LASTNET), EINVAL,
		       "SIOCSIFADDR node 255");
	ok &= want_err(if_set_full("lo", AF_APPLETALK, NET1, 254, FIRSTNET,
				   LASTNET), EINVAL, "SIOCSIFADDR node 254");
	ok &= want_err(if_del_family(AF_INET), EINVAL,
		       "SIOCATALKDIFADDR sat_family AF_INET");
	n = proc_ifaces(pi);
	if (n != 0) {
		ktap_diag("the failed SIOCSIFADDRs left %d interfaces", n);
		ok = 0;
	}
	return ok;
}

/* -------------------------------------------------------------------- */
/* the interface */

static int t_ifaddr(void)
{
	struct sockaddr_at got;
	int ok;

	if (if_set(NET1, NODE1))
		return want_ok(-1, "SIOCSIFADDR lo");
	memset(&got, 0, sizeof(got));
	ok = want_ok(if_get(SIOCGIFADDR, &got), "SIOCGIFADDR") &&
	     same_addr(&got, NET1, NODE1, 0, "SIOCGIFADDR");
	memset(&got, 0, sizeof(got));
	ok &= want_ok(if_get(SIOCGIFBRDADDR, &got), "SIOCGIFBRDADDR") &&
	      same_addr(&got, NET1, ATADDR_BCAST, 0, "SIOCGIFBRDADDR");
	return ok;
}

static int ifaces_are(unsigned int net, unsigned int node)
{
	struct pif pi[MAXROWS];
	int n = proc_ifaces(pi);

	if (n == 1 && !strcmp(pi[0].dev, "lo") && pi[0].net == net &&
	    pi[0].node == node && pi[0].first == FIRSTNET &&
	    pi[0].last == LASTNET && pi[0].status == 0)
		return 1;
	if (n >= 1)
		ktap_diag("interface: %d rows, first %s %04X:%02X %04X-%04X %d",
			  n, pi[0].dev, pi[0].net, pi[0].node, pi[0].first,
			  pi[0].last, pi[0].status);
	else
		ktap_diag("interface: %d rows", n);
	return 0;
}

static int t_proc_interface(void)
{
	return ifaces_are(NET1, NODE1);
}

static int t_proc_route(void)
{
	return routes_are(0);
}

static int t_proc_arp(void)
{
	FILE *f = proc_open("arp", "Address  Interface   Hardware Address"
				   "   Expires LastSend  Retry Status\n");
	char line[256];
	int rows = 0;

	if (!f)
		return 0;
	/* loopback never resolves through AARP: no entries */
	while (fgets(line, sizeof(line), f))
		if (rows++ < 3)
			ktap_diag("arp: '%s'", line);
	fclose(f);
	return rows == 0;
}

/* -------------------------------------------------------------------- */
/* bind and names */

static int sock_a = -1;		/* bound to NET1.NODE1:PORT_A */
static int sock_b = -1;		/* bound to NET1.NODE1:ANYPORT (128) */

static int t_bind_port(void)
{
	struct sockaddr_at got;
	socklen_t l = sizeof(got);
	static const char zero[8];

	sock_a = at_bound(NET1, NODE1, PORT_A);
	if (sock_a < 0)
		return 0;
	memset(&got, 0xa5, sizeof(got));
	if (getsockname(sock_a, (struct sockaddr *)&got, &l))
		return want_ok(-1, "getsockname");
	if (l != sizeof(got) || memcmp(got.sat_zero, zero, sizeof(zero))) {
		ktap_diag("getsockname length %u or sat_zero not zero", l);
		return 0;
	}
	return same_addr(&got, NET1, NODE1, PORT_A, "getsockname");
}

static int t_bind_anyport(void)
{
	struct sockaddr_at got;
	socklen_t l = sizeof(got);
	int fd2, p2, ok;

	/* ANYNET takes the primary address; ports are picked from 128 */
	sock_b = at_bound(0, 0, ATADDR_ANYPORT);
	if (sock_b < 0)
		return 0;
	if (getsockname(sock_b, (struct sockaddr *)&got, &l))
		return want_ok(-1, "getsockname");
	ok = same_addr(&got, NET1, NODE1, ATPORT_RESERVED, "ANYPORT bind");
	fd2 = at_bound(NET1, NODE1, ATADDR_ANYPORT);
	p2 = fd2 >= 0 ? port_of(fd2) : -1;
	if (p2 != ATPORT_RESERVED + 1) {
		ktap_diag("second ANYPORT bind got port %d, want %d", p2,
			  ATPORT_RESERVED + 1);
		ok = 0;
	}
	close(fd2);
	return ok;
}

static int t_bind_errors(void)
{
	struct sockaddr_at sa = at_addr(NET1, NODE1, PORT_A + 1);
	int fd = at_socket(), ok = fd >= 0;

	if (!ok)
		return 0;
	/* atalk_bind: a bound socket is no longer SOCK_ZAPPED */
	ok &= want_err(bind(sock_a, (struct sockaddr *)&sa, sizeof(sa)),
		       EINVAL, "second bind");
	ok &= want_err(bind(fd, (struct sockaddr *)&sa, sizeof(sa) - 1),
		       EINVAL, "bind with addrlen 15");
	ok &= want_err(bind(fd, (struct sockaddr *)&sa, sizeof(sa) + 1),
		       EINVAL, "bind with addrlen 17");
	sa.sat_family = AF_INET;
	ok &= want_err(bind(fd, (struct sockaddr *)&sa, sizeof(sa)),
		       EAFNOSUPPORT, "bind sat_family AF_INET");
	sa = at_addr(NET1, NODE1, PORT_A);
	ok &= want_err(bind(fd, (struct sockaddr *)&sa, sizeof(sa)),
		       EADDRINUSE, "bind to the port of another socket");
	sa = at_addr(NET1, 0x99, PORT_A + 1);
	ok &= want_err(bind(fd, (struct sockaddr *)&sa, sizeof(sa)),
		       EADDRNOTAVAIL, "bind to a node that is not ours");
	sa = at_addr(NET2, NODE1, PORT_A + 1);
	ok &= want_err(bind(fd, (struct sockaddr *)&sa, sizeof(sa)),
		       EADDRNOTAVAIL, "bind to a net that is not ours");
	/* after the failures it still binds */
	sa = at_addr(NET1, NODE1, PORT_A + 1);
	ok &= want_ok(bind(fd, (struct sockaddr *)&sa, sizeof(sa)),
		      "bind after the failures");
	close(fd);
	return ok;
}

static int t_getname_autobind(void)
{
	struct sockaddr_at got;
	socklen_t l = sizeof(got);
	int fd = at_socket(), ok, p;

	if (fd < 0)
		return 0;
	/* atalk_getname autobinds an unbound socket to the next port */
	p = port_of(fd);
	ok = p >= ATPORT_RESERVED && p < ATPORT_LAST;
	if (!ok)
		ktap_diag("autobound port %d", p);
	if (getsockname(fd, (struct sockaddr *)&got, &l))
		ok = want_ok(-1, "getsockname");
	else
		ok &= same_addr(&got, NET1, NODE1, p, "autobound name");
	ok &= want_err(getpeername(fd, (struct sockaddr *)&got, &l), ENOTCONN,
		       "getpeername unconnected");
	close(fd);
	return ok;
}

/* -------------------------------------------------------------------- */
/* datagrams */

static int t_sendrecv(void)
{
	static const char msg[] = "bklfree DDP datagram over lo";
	ssize_t n = send_to(sock_b, msg, sizeof(msg), NET1, NODE1, PORT_A, 0);

	if (n != sizeof(msg)) {
		ktap_diag("sendto returned %zd (%s)", n, ename(errno));
		return 0;
	}
	return recv_exact(sock_a, msg, sizeof(msg), NET1, NODE1,
			  ATPORT_RESERVED, 0) && drained(sock_a);
}

static int t_peek(void)
{
	static const char msg[] = "peek at me";
	int ok;

	if (send_to(sock_b, msg, sizeof(msg), NET1, NODE1, PORT_A, 0) !=
	    sizeof(msg))
		return want_ok(-1, "sendto");
	ok = recv_exact(sock_a, msg, sizeof(msg), NET1, NODE1,
			ATPORT_RESERVED, MSG_PEEK);
	ok &= recv_exact(sock_a, msg, sizeof(msg), NET1, NODE1,
			 ATPORT_RESERVED, 0);
	if (!drained(sock_a)) {
		ktap_diag("a datagram is left after the real read");
		ok = 0;
	}
	return ok;
}

static int t_inq(void)
{
	static const char msg[] = "twenty-one bytes here";
	int inq = -1, ok;

	if (send_to(sock_b, msg, 21, NET1, NODE1, PORT_A, 0) != 21)
		return want_ok(-1, "sendto");
	if (!readable(sock_a, RECV_MS))
		return 0;
	/* atalk_ioctl TIOCINQ: the first datagram's payload */
	if (ioctl(sock_a, TIOCINQ, &inq))
		return want_ok(-1, "TIOCINQ");
	ok = inq == 21;
	if (!ok)
		ktap_diag("TIOCINQ %d, want 21", inq);
	ok &= recv_exact(sock_a, msg, 21, NET1, NODE1, ATPORT_RESERVED, 0);
	inq = -1;
	if (ioctl(sock_a, TIOCINQ, &inq) || inq != 0) {
		ktap_diag("TIOCINQ on an empty queue %d, want 0", inq);
		ok = 0;
	}
	return ok;
}

static int t_truncate(void)
{
	static const char msg[] = "0123456789abcdef";
	struct sockaddr_at from;
	char buf[8];
	struct iovec iov = { .iov_base = buf, .iov_len = sizeof(buf) };
	struct msghdr mh = { .msg_name = &from, .msg_namelen = sizeof(from),
			     .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t n;

	if (send_to(sock_b, msg, 16, NET1, NODE1, PORT_A, 0) != 16)
		return want_ok(-1, "sendto");
	if (!readable(sock_a, RECV_MS))
		return 0;
	n = recvmsg(sock_a, &mh, 0);
	if (n != 8 || !(mh.msg_flags & MSG_TRUNC) || memcmp(buf, msg, 8)) {
		ktap_diag("recvmsg into 8 bytes: %zd, flags 0x%x", n,
			  mh.msg_flags);
		return 0;
	}
	return drained(sock_a);
}

static int t_maxsize(void)
{
	static unsigned char big[DDP_MAXSZ + 1];
	size_t i;
	int ok;

	for (i = 0; i < sizeof(big); i++)
		big[i] = i * 7 + 3;
	/* atalk_sendmsg: len > DDP_MAXSZ before anything else */
	ok = want_err(send_to(sock_b, big, DDP_MAXSZ + 1, NET1, NODE1, PORT_A,
			      0), EMSGSIZE, "sendto 588 bytes");
	if (send_to(sock_b, big, DDP_MAXSZ, NET1, NODE1, PORT_A, 0) !=
	    DDP_MAXSZ)
		return want_ok(-1, "sendto DDP_MAXSZ bytes");
	ok &= recv_exact(sock_a, big, DDP_MAXSZ, NET1, NODE1, ATPORT_RESERVED,
			 0);
	return ok;
}

static int t_empty(void)
{
	if (send_to(sock_b, "", 0, NET1, NODE1, PORT_A, 0) != 0)
		return want_ok(-1, "sendto 0 bytes");
	return recv_exact(sock_a, "", 0, NET1, NODE1, ATPORT_RESERVED, 0);
}

static int t_send_flags(void)
{
	int ok;

	/* only MSG_DONTWAIT (and MSG_CMSG_COMPAT) are accepted */
	ok = want_err(send_to(sock_b, "x", 1, NET1, NODE1, PORT_A, MSG_OOB),
		      EINVAL, "sendto MSG_OOB");
	ok &= want_err(send_to(sock_b, "x", 1, NET1, NODE1, PORT_A,
			       MSG_NOSIGNAL), EINVAL, "sendto MSG_NOSIGNAL");
	if (send_to(sock_b, "y", 1, NET1, NODE1, PORT_A, MSG_DONTWAIT) != 1)
		return want_ok(-1, "sendto MSG_DONTWAIT");
	ok &= recv_exact(sock_a, "y", 1, NET1, NODE1, ATPORT_RESERVED, 0);
	return ok;
}

static int t_bad_dest(void)
{
	struct sockaddr_at to = at_addr(NET1, NODE1, PORT_A);
	int ok;

	ok = want_err(sendto(sock_b, "x", 1, 0, (struct sockaddr *)&to,
			     sizeof(to) - 1), EINVAL,
		      "sendto with addrlen 15");
	to.sat_family = AF_INET;
	ok &= want_err(sendto(sock_b, "x", 1, 0, (struct sockaddr *)&to,
			      sizeof(to)), EINVAL,
		       "sendto sat_family AF_INET");
	/* unconnected send without an address */
	ok &= want_err(send(sock_b, "x", 1, 0), ENOTCONN,
		       "send on an unconnected socket");
	ok &= drained(sock_a);
	return ok;
}

static int t_broadcast(void)
{
	static const char msg[] = "to every node";
	int ok;

	/* atalk_sendmsg: broadcast node without SO_BROADCAST */
	ok = want_err(send_to(sock_b, msg, sizeof(msg), NET1, ATADDR_BCAST,
			      PORT_A, 0), EPERM,
		      "broadcast sendto without SO_BROADCAST");
	if (set_bcast(sock_b))
		return want_ok(-1, "SO_BROADCAST");
	if (send_to(sock_b, msg, sizeof(msg), NET1, ATADDR_BCAST, PORT_A, 0) !=
	    sizeof(msg))
		return want_ok(-1, "broadcast sendto with SO_BROADCAST");
	ok &= recv_exact(sock_a, msg, sizeof(msg), NET1, NODE1,
			 ATPORT_RESERVED, 0);
	return ok && drained(sock_a);
}

static int t_connect(void)
{
	static const char msg[] = "connected";
	struct sockaddr_at to = at_addr(NET1, NODE1, PORT_A), got;
	socklen_t l = sizeof(got);
	int fd = at_socket(), ok, p;

	if (fd < 0)
		return 0;
	ok = want_err(connect(fd, (struct sockaddr *)&to, sizeof(to) - 1),
		      EINVAL, "connect addrlen 15");
	to.sat_family = AF_INET;
	ok &= want_err(connect(fd, (struct sockaddr *)&to, sizeof(to)),
		       EAFNOSUPPORT, "connect sat_family AF_INET");
	to.sat_family = AF_APPLETALK;
	if (connect(fd, (struct sockaddr *)&to, sizeof(to))) {
		close(fd);
		return want_ok(-1, "connect");
	}
	p = port_of(fd);
	if (getpeername(fd, (struct sockaddr *)&got, &l))
		ok = want_ok(-1, "getpeername");
	else
		ok &= same_addr(&got, NET1, NODE1, PORT_A, "getpeername");
	if (send(fd, msg, sizeof(msg), 0) != sizeof(msg))
		ok = want_ok(-1, "send on the connected socket");
	else
		ok &= recv_exact(sock_a, msg, sizeof(msg), NET1, NODE1, p, 0);
	close(fd);
	return ok;
}

static int t_proc_socket(void)
{
	struct psk r[MAXROWS];
	const struct psk *a, *b, *c;
	int fd, n, ok = 1, p;
	struct sockaddr_at to = at_addr(NET1, NODE1, PORT_A);

	/* a datagram waiting on A shows in its Rx_queue */
	if (send_to(sock_b, "queued", 6, NET1, NODE1, PORT_A, 0) != 6 ||
	    !readable(sock_a, RECV_MS))
		return want_ok(-1, "sendto");
	fd = at_socket();
	if (fd < 0 || connect(fd, (struct sockaddr *)&to, sizeof(to))) {
		close(fd);
		return want_ok(-1, "connect");
	}
	p = port_of(fd);
	n = proc_sockets(r);
	a = find_sock(r, n, PORT_A);
	b = find_sock(r, n, ATPORT_RESERVED);
	c = find_sock(r, n, p);
	if (!a || a->type != SOCK_DGRAM || a->rnet || a->rnode || a->rport ||
	    a->rx == 0 || a->st != 7 /* TCP_CLOSE */ || a->uid != 0) {
		ktap_diag("socket A %04X:%02X:%02X: %s", NET1, NODE1, PORT_A,
			  a ? "wrong row" : "missing");
		ok = 0;
	}
	if (!b || b->rx != 0 || b->st != 7) {
		ktap_diag("socket B: %s", b ? "wrong row" : "missing");
		ok = 0;
	}
	if (!c || c->rnet != NET1 || c->rnode != NODE1 || c->rport != PORT_A ||
	    c->st != 1 /* TCP_ESTABLISHED */) {
		ktap_diag("connected socket port %d: %s", p,
			  c ? "wrong row" : "missing");
		ok = 0;
	}
	close(fd);
	ok &= recv_exact(sock_a, "queued", 6, NET1, NODE1, ATPORT_RESERVED, 0);
	n = proc_sockets(r);
	if (find_sock(r, n, p)) {
		ktap_diag("closed socket still listed");
		ok = 0;
	}
	return ok;
}

/* -------------------------------------------------------------------- */
/* routes and interface removal */

static int t_routes(void)
{
	int ok = 1;

	/* atrtr_create: rt_dst must be AppleTalk */
	ok &= want_err(route_ioctl(SIOCADDRT, AF_INET, GWNET, 0, AF_APPLETALK,
				   NET1, NODE1, RTF_UP | RTF_GATEWAY, NULL),
		       EINVAL, "SIOCADDRT dst AF_INET");
	/* without a device the gateway must be AppleTalk too */
	ok &= want_err(route_ioctl(SIOCADDRT, AF_APPLETALK, GWNET, 0, AF_INET,
				   NET1, NODE1, RTF_UP | RTF_GATEWAY, NULL),
		       EINVAL, "SIOCADDRT gateway AF_INET");
	/* atrtr_ioctl_addrt: unknown device */
	ok &= want_err(route_ioctl(SIOCADDRT, AF_APPLETALK, GWNET, 0,
				   AF_APPLETALK, NET1, NODE1,
				   RTF_UP | RTF_GATEWAY, "nosuch0"),
		       ENODEV, "SIOCADDRT dev nosuch0");
	/* a gateway outside every interface's netrange (0000-FFFE) */
	ok &= want_err(route_ioctl(SIOCADDRT, AF_APPLETALK, GWNET, 0,
				   AF_APPLETALK, 0xffff, 1,
				   RTF_UP | RTF_GATEWAY, NULL),
		       ENETUNREACH, "SIOCADDRT gateway FFFF:01");
	/* atrtr_delete: no such route; atrtr_ioctl: dst not AppleTalk */
	ok &= want_err(route_ioctl(SIOCDELRT, AF_APPLETALK, GWNET, 0, 0, 0, 0,
				   0, NULL), ENOENT, "SIOCDELRT absent route");
	ok &= want_err(route_ioctl(SIOCDELRT, AF_INET, GWNET, 0, 0, 0, 0, 0,
				   NULL), EINVAL, "SIOCDELRT dst AF_INET");
	ok &= routes_are(0);
	/* a gateway route via our own address, found by its netrange */
	ok &= want_ok(route_ioctl(SIOCADDRT, AF_APPLETALK, GWNET, 0,
				  AF_APPLETALK, NET1, NODE1,
				  RTF_UP | RTF_GATEWAY, NULL),
		      "SIOCADDRT 0777 via own address");
	ok &= routes_are(1);
	ok &= want_ok(route_ioctl(SIOCDELRT, AF_APPLETALK, GWNET, 0, 0, 0, 0,
				  0, NULL), "SIOCDELRT 0777");
	ok &= want_err(route_ioctl(SIOCDELRT, AF_APPLETALK, GWNET, 0, 0, 0, 0,
				   0, NULL), ENOENT, "second SIOCDELRT 0777");
	/* and once more, naming the device */
	ok &= want_ok(route_ioctl(SIOCADDRT, AF_APPLETALK, GWNET, 0,
				  AF_APPLETALK, NET1, NODE1,
				  RTF_UP | RTF_GATEWAY, "lo"),
		      "SIOCADDRT 0777 dev lo");
	ok &= routes_are(1);
	ok &= want_ok(route_ioctl(SIOCDELRT, AF_APPLETALK, GWNET, 0, 0, 0, 0,
				  0, NULL), "SIOCDELRT 0777");
	ok &= routes_are(0);
	return ok;
}

static int t_difaddr(void)
{
	struct sockaddr_at got, sa = at_addr(0, 0, 0);
	struct prt rt[MAXROWS];
	struct pif pi[MAXROWS];
	int fd, ok, n;

	if (if_del_family(AF_APPLETALK))
		return want_ok(-1, "SIOCATALKDIFADDR lo");
	ok = want_err(if_get(SIOCGIFADDR, &got), EADDRNOTAVAIL,
		      "SIOCGIFADDR after SIOCATALKDIFADDR");
	n = proc_ifaces(pi);
	if (n != 0) {
		ktap_diag("interface rows after delete: %d", n);
		ok = 0;
	}
	n = proc_routes(rt);
	if (n != 0) {
		ktap_diag("route rows after delete: %d", n);
		ok = 0;
	}
	/* atalk_sendmsg: atrtr_find finds nothing */
	ok &= want_err(send_to(sock_b, "x", 1, NET1, NODE1, PORT_A, 0),
		       ENETUNREACH, "sendto after SIOCATALKDIFADDR");
	ok &= want_err(send_to(sock_b, "x", 1, NET1, ATADDR_BCAST, PORT_A, 0),
		       ENETUNREACH, "broadcast after SIOCATALKDIFADDR");
	fd = at_socket();
	ok &= want_err(bind(fd, (struct sockaddr *)&sa, sizeof(sa)),
		       EADDRNOTAVAIL, "bind ANYNET after SIOCATALKDIFADDR");
	close(fd);
	/* deleting again is not an error: atalk_dev_down finds nothing */
	ok &= want_ok(if_del_family(AF_APPLETALK), "second SIOCATALKDIFADDR");
	return ok;
}

static int t_readd(void)
{
	static const char msg[] = "on the new address";
	struct sockaddr_at got;
	int r, s, ok;

	/* a new address, then readdressing the existing interface */
	if (if_set(NET2, NODE2))
		return want_ok(-1, "SIOCSIFADDR NET2");
	ok = ifaces_are(NET2, NODE2) && routes_are(0);
	if (if_set(NET1, NODE1))
		return want_ok(-1, "SIOCSIFADDR NET1 on the existing interface");
	ok &= ifaces_are(NET1, NODE1) && routes_are(0);
	memset(&got, 0, sizeof(got));
	ok &= want_ok(if_get(SIOCGIFADDR, &got), "SIOCGIFADDR") &&
	      same_addr(&got, NET1, NODE1, 0, "SIOCGIFADDR");
	/* the old sockets work again */
	if (send_to(sock_b, msg, sizeof(msg), NET1, NODE1, PORT_A, 0) !=
	    sizeof(msg))
		return want_ok(-1, "sendto after re-adding");
	ok &= recv_exact(sock_a, msg, sizeof(msg), NET1, NODE1,
			 ATPORT_RESERVED, 0);
	/* and new ones bind and talk */
	r = at_bound(0, 0, PORT_A + 2);
	s = at_bound(0, 0, ATADDR_ANYPORT);
	if (r < 0 || s < 0 ||
	    send_to(s, msg, sizeof(msg), NET1, NODE1, PORT_A + 2, 0) !=
	    sizeof(msg))
		ok = want_ok(-1, "new sockets");
	else
		ok &= recv_exact(r, msg, sizeof(msg), NET1, NODE1,
				 port_of(s), 0);
	close(r);
	close(s);
	return ok;
}

/* -------------------------------------------------------------------- */
/* stress: traffic while the interface and a route come and go */

static atomic_int stop;

struct counts {
	atomic_long ok, unreach, notavail, other, last_errno;
};

static struct counts c_send, c_bind, c_tog, c_recv;

static void count(struct counts *c, long r, int accept)
{
	if (r >= 0)
		atomic_fetch_add(&c->ok, 1);
	else if (errno == ENETUNREACH && (accept & 1))
		atomic_fetch_add(&c->unreach, 1);
	else if (errno == EADDRNOTAVAIL && (accept & 2))
		atomic_fetch_add(&c->notavail, 1);
	else {
		atomic_fetch_add(&c->other, 1);
		atomic_store(&c->last_errno, errno);
	}
}

/* arg: a bound socket; with SO_BROADCAST it sends to node 255 */
static void *stress_sender(void *arg)
{
	int fd = *(int *)arg, bcast = 0;
	socklen_t l = sizeof(bcast);
	char msg[64] = "stress";

	getsockopt(fd, SOL_SOCKET, SO_BROADCAST, &bcast, &l);
	while (!atomic_load(&stop))
		count(&c_send, send_to(fd, msg, sizeof(msg), NET1,
				       bcast ? ATADDR_BCAST : NODE1,
				       PORT_STRESS, MSG_DONTWAIT), 1);
	return NULL;
}

static void *stress_receiver(void *arg)
{
	int fd = *(int *)arg;
	char buf[128];

	while (!atomic_load(&stop))
		if (readable(fd, 10))
			while (recv(fd, buf, sizeof(buf), MSG_DONTWAIT) > 0)
				atomic_fetch_add(&c_recv.ok, 1);
	return NULL;
}

/* bind to the primary address and autobind while it comes and goes */
static void *stress_binder(void *arg)
{
	struct sockaddr_at sa = at_addr(0, 0, 0), got;
	socklen_t l;
	int fd, r;

	(void)arg;
	while (!atomic_load(&stop)) {
		fd = socket(AF_APPLETALK, SOCK_DGRAM, 0);
		count(&c_bind, bind(fd, (struct sockaddr *)&sa, sizeof(sa)),
		      2);
		close(fd);
		fd = socket(AF_APPLETALK, SOCK_DGRAM, 0);
		l = sizeof(got);
		/* atalk_getname: a failed autobind is ENOBUFS */
		r = getsockname(fd, (struct sockaddr *)&got, &l);
		if (r && errno == ENOBUFS)
			errno = EADDRNOTAVAIL;
		count(&c_bind, r, 2);
		close(fd);
	}
	return NULL;
}

static void *stress_toggler(void *arg)
{
	char buf[4096];
	int fd;

	(void)arg;
	while (!atomic_load(&stop)) {
		count(&c_tog, if_del_family(AF_APPLETALK), 0);
		sched_yield();
		count(&c_tog, if_set(NET1, NODE1), 0);
		count(&c_tog, route_ioctl(SIOCADDRT, AF_APPLETALK, GWNET, 0,
					  AF_APPLETALK, NET1, NODE1,
					  RTF_UP | RTF_GATEWAY, NULL), 0);
		fd = open("/proc/net/atalk/route", O_RDONLY);
		while (fd >= 0 && read(fd, buf, sizeof(buf)) > 0)
			;
		close(fd);
		sched_yield();
		count(&c_tog, route_ioctl(SIOCDELRT, AF_APPLETALK, GWNET, 0, 0,
					  0, 0, 0, NULL), 0);
	}
	return NULL;
}

static void diag_counts(const char *what, struct counts *c)
{
	ktap_diag("%s: %ld ok, %ld ENETUNREACH, %ld EADDRNOTAVAIL, %ld other"
		  " (last %s)", what, atomic_load(&c->ok),
		  atomic_load(&c->unreach), atomic_load(&c->notavail),
		  atomic_load(&c->other),
		  ename(atomic_load(&c->last_errno)));
}

static int t_stress(void)
{
	pthread_t th[5];
	int rfd = at_bound(NET1, NODE1, PORT_STRESS), i, n = 0, ok;
	int ufd = at_bound(NET1, NODE1, ATADDR_ANYPORT);
	int bfd = at_bound(NET1, NODE1, ATADDR_ANYPORT);
	long long end;

	if (rfd < 0 || ufd < 0 || bfd < 0 || set_bcast(bfd))
		return want_ok(-1, "stress sockets");
	if (pthread_create(&th[n++], NULL, stress_receiver, &rfd) ||
	    pthread_create(&th[n++], NULL, stress_sender, &ufd) ||
	    pthread_create(&th[n++], NULL, stress_sender, &bfd) ||
	    pthread_create(&th[n++], NULL, stress_binder, NULL) ||
	    pthread_create(&th[n++], NULL, stress_toggler, NULL)) {
		ktap_diag("pthread_create failed");
		atomic_store(&stop, 1);
		n--;
	}
	end = ktap_now_ms() + STRESS_MS;
	while (ktap_now_ms() < end)
		usleep(50000);
	atomic_store(&stop, 1);
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	close(rfd);
	close(ufd);
	close(bfd);
	diag_counts("sendto", &c_send);
	diag_counts("bind/autobind", &c_bind);
	diag_counts("ioctls", &c_tog);
	diag_counts("received", &c_recv);
	ok = n == 5 && !atomic_load(&c_send.other) &&
	     !atomic_load(&c_bind.other) && !atomic_load(&c_tog.other) &&
	     atomic_load(&c_send.ok) > 0 && atomic_load(&c_tog.ok) >= 4 &&
	     atomic_load(&c_recv.ok) > 0;
	/* the toggler ends each round with the interface up, no 0777 */
	return ok && ifaces_are(NET1, NODE1) && routes_are(0);
}

/* -------------------------------------------------------------------- */
/*
 * The route lifetime in atalk_sendmsg(). It looks the routes up with
 * atrtr_find(), which drops atalk_routes_lock and returns a pointer into
 * the table (or to atrtr_default), then may sleep in
 * sock_alloc_send_skb() and in memcpy_from_msg(), and only then uses the
 * routes: for a broadcast over loopback it sends through rt_lo->dev. The
 * lab kernel is uniprocessor without preemption, so a sleep is the only
 * way another task gets in; the test makes one happen. The payload lives
 * in a page of a loop device that is not in the page cache, so copying it
 * sleeps in the page fault until the loop worker has read it. Sender and
 * test run SCHED_FIFO at the same priority, so the (SCHED_OTHER) loop
 * worker cannot run while the test is runnable: the test sees the sender
 * blocked in sendto (/proc/PID/syscall), deletes the interface address
 * with SIOCATALKDIFADDR (which frees the routes and sets
 * atrtr_default.dev to NULL), and only then lets the I/O complete.
 * A correct kernel sends (to a now unrouted address: the datagram is
 * dropped) or fails with ENETUNREACH; the sender must return either way.
 */

#define WINDOW_LEN 64
#define WINDOW_FILE "/tmp/appletalk-window.img"

static int loop_fd = -1;
static char loop_dev[32];

static int loop_setup(void)
{
	char page[4096];
	int ctlfd, file, n;

	memset(page, 'W', sizeof(page));
	file = open(WINDOW_FILE, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (file < 0)
		return ktap_perror(WINDOW_FILE);
	for (n = 0; n < 64; n++)
		if (write(file, page, sizeof(page)) != sizeof(page))
			return ktap_perror("write " WINDOW_FILE);
	ctlfd = open("/dev/loop-control", O_RDWR);
	n = ctlfd < 0 ? -1 : ioctl(ctlfd, LOOP_CTL_GET_FREE);
	close(ctlfd);
	if (n < 0)
		return ktap_perror("LOOP_CTL_GET_FREE");
	snprintf(loop_dev, sizeof(loop_dev), "/dev/loop%d", n);
	loop_fd = open(loop_dev, O_RDWR);
	if (loop_fd < 0 || ioctl(loop_fd, LOOP_SET_FD, file)) {
		close(file);
		return ktap_perror(loop_dev);
	}
	close(file);
	return 0;
}

static void loop_teardown(void)
{
	if (loop_fd >= 0) {
		ioctl(loop_fd, LOOP_CLR_FD);
		close(loop_fd);
	}
	unlink(WINDOW_FILE);
}

/* Drop the loop device's page cache; 1 when page 0 is not resident. */
static int loop_evict(void)
{
	unsigned char vec = 1;
	void *p;

	if (ioctl(loop_fd, BLKFLSBUF, 0))
		ktap_perror("BLKFLSBUF");
	posix_fadvise(loop_fd, 0, 0, POSIX_FADV_DONTNEED);
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, loop_fd, 0);
	if (p == MAP_FAILED)
		return ktap_perror("mmap loop device") + 1;
	if (mincore(p, 4096, &vec))
		ktap_perror("mincore");
	munmap(p, 4096);
	return !(vec & 1);
}

/* What the sender found blocked: 1 in sendto, 0 not yet, -1 gone. */
static int blocked_in_sendto(pid_t pid)
{
	char path[64], line[128] = "";
	int fd, n;
	long nr;

	snprintf(path, sizeof(path), "/proc/%d/syscall", pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, line, sizeof(line) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	line[n] = '\0';
	return sscanf(line, "%ld ", &nr) == 1 && nr == SYS_sendto;
}

static int set_fifo(int on)
{
	struct sched_param sp = { .sched_priority = on ? 10 : 0 };

	return sched_setscheduler(0, on ? SCHED_FIFO : SCHED_OTHER, &sp);
}

struct wres {
	long ret;
	int err;
};

static int test_sendmsg_route_window(void)
{
	int pfd[2], sock, status, blocked = 0, ok = 0;
	pid_t sender, holder;
	long long deadline;
	struct wres res;

	if (loop_setup())
		return 0;
	if (!loop_evict()) {
		ktap_diag("page 0 of %s stays in the page cache", loop_dev);
		return 0;
	}
	sock = at_bound(NET1, NODE1, ATADDR_ANYPORT);
	if (sock < 0 || set_bcast(sock) || pipe(pfd))
		return want_ok(-1, "sender socket");
	/*
	 * A second holder of the socket: if the sender dies in the kernel
	 * with the socket locked, the last close would wait for that lock
	 * forever; the holder keeps the socket open instead.
	 */
	holder = fork();
	if (!holder) {
		close(STDOUT_FILENO);
		close(STDERR_FILENO);
		for (;;)
			pause();
	}
	if (set_fifo(1)) {
		ktap_perror("SCHED_FIFO");
		kill(holder, SIGKILL);
		return 0;
	}
	sender = fork();
	if (!sender) {
		struct sockaddr_at to = at_addr(NET1, ATADDR_BCAST,
						PORT_WINDOW);
		void *p;

		close(STDOUT_FILENO);
		close(STDERR_FILENO);
		close(pfd[0]);
		p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, loop_fd, 0);
		res.ret = p == MAP_FAILED ? -2 :
			  sendto(sock, p, WINDOW_LEN, 0,
				 (struct sockaddr *)&to, sizeof(to));
		res.err = errno;
		if (write(pfd[1], &res, sizeof(res)) != sizeof(res))
			_exit(2);
		_exit(0);
	}
	close(pfd[1]);
	/* same priority: yielding runs the sender until it sleeps */
	deadline = ktap_now_ms() + 3000;
	while (!blocked && ktap_now_ms() < deadline) {
		sched_yield();
		blocked = blocked_in_sendto(sender);
		if (blocked < 0)
			break;
	}
	if (blocked == 1 && if_del_family(AF_APPLETALK))
		ktap_perror("SIOCATALKDIFADDR while the sender sleeps");
	set_fifo(0);
	if (blocked != 1)
		ktap_diag("the sender was never seen sleeping in sendto");

	if (!readable(pfd[0], 5000) ||
	    read(pfd[0], &res, sizeof(res)) != sizeof(res)) {
		ktap_diag("the sender did not return from sendto");
		if (waitpid(sender, &status, WNOHANG) == sender &&
		    WIFSIGNALED(status))
			ktap_diag("sender killed by signal %d: a kernel oops "
				  "in atalk_sendmsg", WTERMSIG(status));
		/* the holder keeps the (possibly locked) socket */
	} else {
		ok = blocked == 1 &&
		     (res.ret == WINDOW_LEN ||
		      (res.ret == -1 && res.err == ENETUNREACH));
		ktap_diag("sendto during SIOCATALKDIFADDR returned %ld (%s)",
			  res.ret, res.ret < 0 ? ename(res.err) : "sent");
		waitpid(sender, &status, 0);
		kill(holder, SIGKILL);
		waitpid(holder, &status, 0);
	}
	close(pfd[0]);
	close(sock);
	loop_teardown();
	if (if_set(NET1, NODE1)) {
		ktap_perror("SIOCSIFADDR after the window");
		ok = 0;
	}
	return ok;
}

/* After everything: the interface, routes and a datagram are fine. */
static int t_still_works(void)
{
	static const char msg[] = "still here";
	int r = at_bound(0, 0, PORT_A + 3), s = at_bound(0, 0, ATADDR_ANYPORT);
	int ok = r >= 0 && s >= 0;

	if (ok && send_to(s, msg, sizeof(msg), NET1, NODE1, PORT_A + 3, 0) !=
	    sizeof(msg))
		ok = want_ok(-1, "sendto");
	else if (ok)
		ok = recv_exact(r, msg, sizeof(msg), NET1, NODE1, port_of(s),
				0);
	close(r);
	close(s);
	return ok && ifaces_are(NET1, NODE1) && routes_are(0);
}

static const struct ktap_case tcases[] = {
	{ "CONFIG_ATALK=y, /proc/net/atalk, socket(AF_APPLETALK, SOCK_DGRAM)",
	  t_config },
	{ "socket types: RAW ok, STREAM/SEQPACKET ESOCKTNOSUPPORT, protocol ignored",
	  t_socket_types },
	{ "no interface: bind EADDRNOTAVAIL, sendto EBUSY, getsockname ENOBUFS",
	  t_no_interface },
	{ "SIOCSIFFLAGS brings lo up", t_lo_up },
	{ "SIOCSIFADDR errors: ENODEV, EINVAL for family and nodes 254/255",
	  t_ifaddr_errors },
	{ "SIOCSIFADDR lo 1234:56, SIOCGIFADDR and SIOCGIFBRDADDR read it",
	  t_ifaddr },
	{ "/proc/net/atalk/interface lists lo 1234:56 0000-FFFE",
	  t_proc_interface },
	{ "/proc/net/atalk/route lists the host and default routes",
	  t_proc_route },
	{ "/proc/net/atalk/arp has no entries for loopback", t_proc_arp },
	{ "bind to port 200, getsockname returns it", t_bind_port },
	{ "bind ATADDR_ANYPORT picks 128, then 129", t_bind_anyport },
	{ "bind errors: EINVAL, EAFNOSUPPORT, EADDRINUSE, EADDRNOTAVAIL",
	  t_bind_errors },
	{ "getsockname autobinds, getpeername ENOTCONN", t_getname_autobind },
	{ "sendto/recvfrom: payload and source address exact", t_sendrecv },
	{ "MSG_PEEK leaves the datagram queued", t_peek },
	{ "TIOCINQ reports the queued payload", t_inq },
	{ "a short read truncates with MSG_TRUNC", t_truncate },
	{ "DDP_MAXSZ bytes pass, one more is EMSGSIZE", t_maxsize },
	{ "an empty datagram", t_empty },
	{ "send flags: MSG_OOB and MSG_NOSIGNAL EINVAL, MSG_DONTWAIT ok",
	  t_send_flags },
	{ "bad destinations: short addrlen, wrong family, ENOTCONN",
	  t_bad_dest },
	{ "broadcast: EPERM without SO_BROADCAST, delivered with it",
	  t_broadcast },
	{ "connect, getpeername, send", t_connect },
	{ "/proc/net/atalk/socket lists bound and connected sockets",
	  t_proc_socket },
	{ "SIOCADDRT/SIOCDELRT valid and invalid", t_routes },
	{ "SIOCATALKDIFADDR removes interface and routes, sendto ENETUNREACH",
	  t_difaddr },
	{ "SIOCSIFADDR adds the address back, readdressing works", t_readd },
	{ "3 s of traffic while the address and a route come and go",
	  t_stress },
	{ "atalk_sendmsg sleeping after its route lookup survives SIOCATALKDIFADDR",
	  test_sendmsg_route_window },
	{ "DDP still works afterwards", t_still_works },
};

static void run(void)
{
	errno = 0;
	if (!ktap_ok(t_config(), "%s", tcases[0].desc)) {
		if (errno)
			ktap_perror(tcases[0].desc);
		ktap_bail("no AppleTalk in this kernel");
	}
	ktap_run_cases(tcases + 1, ARRAY_SIZE(tcases) - 1);
}

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(tcases),
	.timeout = 60,
	.run = run,
};
