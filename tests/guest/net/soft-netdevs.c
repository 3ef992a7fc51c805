// SPDX-License-Identifier: GPL-2.0
/*
 * soft-netdevs - the simulated network devices of the net-soft profile,
 * each driven through the file the series touches:
 *
 *   - wwan_hwsim's AT ports (drivers/net/wwan/wwan_core.c, patches/core
 *     0108 drops the dead .llseek of the port fops): the simulator's AT
 *     parser answers "AT\r" with the echo and "\r\nOK\r\n", and echoes a
 *     line that does not start with AT without an OK; the stub terminal
 *     ioctls, FIONREAD, poll, and lseek/pread ESPIPE (stream_open);
 *   - netdevsim (drivers/net/netdevsim/fib.c, patches/core 0032 drops the
 *     no_llseek of nexthop_bucket_activity): a device made through
 *     /sys/bus/netdevsim/new_device, its FIB debugfs files, IPv4 routes
 *     added with rtnetlink that its FIB notifier marks RTM_F_TRAP (or
 *     RTM_F_OFFLOAD_FAILED with fail_route_offload), and a resilient
 *     nexthop group whose bucket activity the debugfs file accepts;
 *   - macvtap (drivers/net/tap.c, 0032 again: tap_fops): two macvtaps in
 *     bridge mode on dummy0 made with RTM_NEWLINK, the tap ioctls on
 *     /dev/tapN, an idle queue, a frame written on one tap read back on
 *     the other, and a queue whose link was deleted;
 *   - the ATM core's /proc/net/atm (net/atm/proc.c, a seed path): the
 *     four tables, empty without an ATM device, seq_file lseek, and a
 *     PF_ATMPVC socket's QoS and bind errors.
 *
 * Every value and errno is the one the 6.1 source gives; the function that
 * gives it is named next to each check. Waits (a netlink answer, a route
 * notification, a frame) are polls with a bound, never sleeps. Cases run in
 * order and later ones use what earlier ones made: a failure makes the
 * following cases of that device fail too, by name.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <fcntl.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <termios.h>
#include <linux/atm.h>
#include <linux/atmdev.h>
#include <linux/if_arp.h>
#include <linux/if_link.h>
#include <linux/if_tun.h>
#include <linux/netlink.h>
#include <linux/nexthop.h>
#include <linux/rtnetlink.h>

#include "ktap.h"
#include "slurp.h"

#define WWAN_PORT "/dev/wwan0at0"
#define NSIM_SYS "/sys/bus/netdevsim"
#define NSIM_DEV NSIM_SYS "/devices/netdevsim1"
#define NSIM_DBG "/sys/kernel/debug/netdevsim/netdevsim1"
#define NSIM_FIB NSIM_DBG "/fib"
#define ATM_PROC "/proc/net/atm"
#define WAIT_MS 3000

/* open PATH, or say why not and return -1. */
static int node(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC);

	if (fd < 0)
		ktap_diag("open %s: %s", path, strerror(errno));
	return fd;
}

/* Write a string to a sysfs or debugfs file; 0 or -1 with errno. */
static int put(const char *path, const char *s)
{
	int fd = node(path, O_WRONLY);
	ssize_t n = fd >= 0 ? write(fd, s, strlen(s)) : -1;
	int err = errno;

	close(fd);
	errno = err;
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

/* poll one descriptor for events, at most ms; the revents or 0. */
static short wait_for(int fd, short events, int ms)
{
	struct pollfd p = { .fd = fd, .events = events };

	return poll(&p, 1, ms) > 0 ? p.revents : 0;
}

static short poll_now(int fd)
{
	return wait_for(fd, POLLIN | POLLOUT, 0);
}

/* ---- rtnetlink, just what the cases need ---- */

static char nlbuf[2048] __attribute__((aligned(8)));

static struct nlmsghdr *nl_msg(int type, int flags, const void *body,
			       size_t len)
{
	struct nlmsghdr *n = (struct nlmsghdr *)nlbuf;

	memset(nlbuf, 0, sizeof(nlbuf));
	n->nlmsg_len = NLMSG_LENGTH(len);
	n->nlmsg_type = type;
	n->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	n->nlmsg_seq = 1;
	memcpy(NLMSG_DATA(n), body, len);
	return n;
}

static struct rtattr *nl_attr(struct nlmsghdr *n, int type, const void *data,
			      size_t len)
{
	struct rtattr *a = (struct rtattr *)(nlbuf + NLMSG_ALIGN(n->nlmsg_len));

	a->rta_type = type;
	a->rta_len = RTA_LENGTH(len);
	if (len)
		memcpy(RTA_DATA(a), data, len);
	n->nlmsg_len = NLMSG_ALIGN(n->nlmsg_len) + RTA_ALIGN(a->rta_len);
	return a;
}

static void nl_u32(struct nlmsghdr *n, int type, unsigned int v)
{
	nl_attr(n, type, &v, sizeof(v));
}

static void nl_str(struct nlmsghdr *n, int type, const char *s)
{
	nl_attr(n, type, s, strlen(s) + 1);
}

static void nl_nest_end(struct nlmsghdr *n, struct rtattr *a)
{
	a->rta_len = nlbuf + n->nlmsg_len - (char *)a;
}

/*
 * Send the message in nlbuf and wait (bounded) for its acknowledgement.
 * Returns 0, or -1 with errno set to the kernel's answer.
 */
static int nl_talk(struct nlmsghdr *n)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	char ans[4096] __attribute__((aligned(8)));
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	long long deadline = ktap_now_ms() + WAIT_MS;
	int ret = -1, err = ETIMEDOUT;

	if (fd < 0)
		return -1;
	if (sendto(fd, n, n->nlmsg_len, 0, (struct sockaddr *)&kernel,
		   sizeof(kernel)) < 0) {
		err = errno;
		goto out;
	}
	while (ktap_now_ms() < deadline) {
		struct nlmsghdr *h;
		ssize_t len;

		if (!(wait_for(fd, POLLIN, deadline - ktap_now_ms()) & POLLIN))
			break;
		len = recv(fd, ans, sizeof(ans), 0);
		if (len < 0) {
			err = errno;
			break;
		}
		for (h = (struct nlmsghdr *)ans; NLMSG_OK(h, len);
		     h = NLMSG_NEXT(h, len)) {
			struct nlmsgerr *e = NLMSG_DATA(h);

			if (h->nlmsg_type != NLMSG_ERROR)
				continue;
			err = -e->error;
			ret = e->error ? -1 : 0;
			goto out;
		}
	}
out:
	close(fd);
	errno = err;
	return ret;
}

static int link_set_up(int ifindex)
{
	struct ifinfomsg ifi = {
		.ifi_family = AF_UNSPEC,
		.ifi_index = ifindex,
		.ifi_flags = IFF_UP,
		.ifi_change = IFF_UP,
	};

	return nl_talk(nl_msg(RTM_NEWLINK, 0, &ifi, sizeof(ifi)));
}

static int link_del(int ifindex)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC, .ifi_index = ifindex };

	return nl_talk(nl_msg(RTM_DELLINK, 0, &ifi, sizeof(ifi)));
}

/* A link-scope IPv4 route A.B.C.0/24 via ifindex, in the main table. */
static int route(int type, unsigned int dst, int ifindex)
{
	struct rtmsg rtm = {
		.rtm_family = AF_INET,
		.rtm_dst_len = 24,
		.rtm_table = RT_TABLE_MAIN,
		.rtm_protocol = RTPROT_STATIC,
		.rtm_scope = RT_SCOPE_LINK,
		.rtm_type = RTN_UNICAST,
	};
	struct nlmsghdr *n;

	n = nl_msg(type, type == RTM_NEWROUTE ? NLM_F_CREATE | NLM_F_EXCL : 0,
		   &rtm, sizeof(rtm));
	nl_u32(n, RTA_DST, htonl(dst));
	nl_u32(n, RTA_OIF, ifindex);
	return nl_talk(n);
}

/*
 * A socket on the IPv4 route notifications, opened before the route is
 * added; route_flagged() reads it until an RTM_NEWROUTE for dst/24 carries
 * flag, at most WAIT_MS.
 */
static int route_listener(void)
{
	struct sockaddr_nl sa = {
		.nl_family = AF_NETLINK,
		.nl_groups = RTMGRP_IPV4_ROUTE,
	};
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK,
			NETLINK_ROUTE);

	if (fd >= 0 && bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		return -1;
	}
	return fd;
}

static int route_flagged(int fd, unsigned int dst, unsigned int flag,
			 unsigned int *seen)
{
	long long deadline = ktap_now_ms() + WAIT_MS;
	char ans[8192] __attribute__((aligned(8)));

	*seen = 0;
	while (ktap_now_ms() < deadline) {
		struct nlmsghdr *h;
		ssize_t len;

		if (!(wait_for(fd, POLLIN, deadline - ktap_now_ms()) & POLLIN))
			return 0;
		len = recv(fd, ans, sizeof(ans), 0);
		if (len < 0)
			continue;
		for (h = (struct nlmsghdr *)ans; NLMSG_OK(h, len);
		     h = NLMSG_NEXT(h, len)) {
			struct rtmsg *r = NLMSG_DATA(h);
			int alen = RTM_PAYLOAD(h);
			struct rtattr *a;

			if (h->nlmsg_type != RTM_NEWROUTE || r->rtm_dst_len != 24)
				continue;
			for (a = RTM_RTA(r); RTA_OK(a, alen); a = RTA_NEXT(a, alen)) {
				unsigned int d;

				if (a->rta_type != RTA_DST)
					continue;
				memcpy(&d, RTA_DATA(a), sizeof(d));
				if (d != htonl(dst))
					continue;
				*seen |= r->rtm_flags;
				if (r->rtm_flags & flag)
					return 1;
			}
		}
	}
	return 0;
}

/* ---- wwan_hwsim ---- */

static int wwan_fd = -1;

/* wwan_create_port(): "wwan0" + "at" + 0, attribute type "AT". */
static int wwan_port_type(void)
{
	char buf[64];

	return slurp("/sys/class/wwan/wwan0at0/type", buf, sizeof(buf)) > 0 &&
	       !strcmp(buf, "AT\n");
}

/*
 * wwan_port_fops_read(): nothing queued and O_NONBLOCK, EAGAIN;
 * wwan_port_fops_poll(): writable (TX on), not readable.
 */
static int wwan_idle(void)
{
	char buf[32];
	short ev;

	wwan_fd = node(WWAN_PORT, O_RDWR | O_NONBLOCK);
	if (wwan_fd < 0)
		return 0;
	ev = poll_now(wwan_fd);
	if (!(ev & POLLOUT) || (ev & POLLIN))
		ktap_diag("poll revents 0x%x", ev);
	return read(wwan_fd, buf, sizeof(buf)) < 0 && errno == EAGAIN &&
	       (ev & POLLOUT) && !(ev & POLLIN);
}

/* Write cmd, wait for the answer, check FIONREAD and the bytes. */
static int wwan_exchange(const char *cmd, const char *want)
{
	char buf[64];
	int queued = -1;
	ssize_t n;

	if (wwan_fd < 0 || write(wwan_fd, cmd, strlen(cmd)) != (ssize_t)strlen(cmd))
		return 0;
	if (!(wait_for(wwan_fd, POLLIN, WAIT_MS) & POLLIN))
		return 0;
	if (ioctl(wwan_fd, FIONREAD, &queued))
		return 0;
	n = read(wwan_fd, buf, sizeof(buf) - 1);
	if (n < 0)
		return 0;
	buf[n] = '\0';
	if (queued != (int)strlen(want) || strcmp(buf, want))
		ktap_diag("FIONREAD %d, read %zd bytes", queued, n);
	return queued == (int)strlen(want) && !strcmp(buf, want) &&
	       !(poll_now(wwan_fd) & POLLIN);
}

/* wwan_hwsim_port_tx(): echo of the command, then "\r\nOK\r\n". */
static int wwan_at_ok(void)
{
	return wwan_exchange("AT\r", "AT\r\r\nOK\r\n");
}

/* A line not starting with AT: AT_PARSER_SKIP_LINE, echoed, no result. */
static int wwan_not_at(void)
{
	return wwan_exchange("XY\r", "XY\r");
}

/* wwan_port_fops_at_ioctl(): the stub modem bits and termios. */
static int wwan_at_ioctls(void)
{
	int bits = TIOCM_DTR | TIOCM_RTS, got = 0;
	struct termios t;

	return wwan_fd >= 0 && !ioctl(wwan_fd, TIOCMSET, &bits) &&
	       !ioctl(wwan_fd, TIOCMGET, &got) && got == bits &&
	       !ioctl(wwan_fd, TCGETS, &t) &&
	       ioctl(wwan_fd, TIOCSERGETLSR, &got) < 0 && errno == ENOTTY;
}

/* stream_open() in wwan_port_fops_open(): no seek, no pread. */
static int wwan_no_seek(void)
{
	char c;
	int ok = wwan_fd >= 0 && lseek(wwan_fd, 0, SEEK_SET) < 0 &&
		 errno == ESPIPE && pread(wwan_fd, &c, 1, 0) < 0 &&
		 errno == ESPIPE;

	close(wwan_fd);
	wwan_fd = -1;
	return ok;
}

/* ---- netdevsim ---- */

static char nsim_port[IFNAMSIZ];
static int nsim_ifindex;

/* The single port's name, from the device's net/ directory. */
static int nsim_find_port(void)
{
	DIR *d = opendir(NSIM_DEV "/net");
	struct dirent *e;
	int ports = 0;

	if (!d)
		return ktap_perror("opendir " NSIM_DEV "/net"), 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		ports++;
		snprintf(nsim_port, sizeof(nsim_port), "%.15s", e->d_name);
	}
	closedir(d);
	nsim_ifindex = ports == 1 ? (int)if_nametoindex(nsim_port) : 0;
	return nsim_ifindex > 0;
}

/*
 * new_device_store() "ID PORTS": nsim_drv_probe() runs before the write
 * returns, nsim_fib_create() makes the fib/ debugfs directory with its
 * four bools off (nsim_fib_debugfs_init()).
 */
static int nsim_new_device(void)
{
	static const char *const bools[] = {
		"fail_route_offload", "fail_res_nexthop_group_replace",
		"fail_nexthop_bucket_replace", "fail_route_delete",
	};
	char path[128], buf[16];
	size_t i;

	if (put(NSIM_SYS "/new_device", "1 1") || !nsim_find_port())
		return 0;
	ktap_diag("netdevsim1 port %s, ifindex %d", nsim_port, nsim_ifindex);
	for (i = 0; i < ARRAY_SIZE(bools); i++) {
		snprintf(path, sizeof(path), NSIM_FIB "/%s", bools[i]);
		if (slurp(path, buf, sizeof(buf)) < 0 || strcmp(buf, "N\n"))
			return 0;
	}
	return 1;
}

/*
 * nexthop_bucket_activity (nsim_nexthop_bucket_activity_fops, no llseek):
 * lseek ESPIPE; a write naming no nexthop is EINVAL, as is one at a
 * position other than 0 (pwrite still works: only FMODE_LSEEK is gone).
 */
static int nsim_activity_errors(void)
{
	int fd = node(NSIM_FIB "/nexthop_bucket_activity", O_WRONLY);
	int ok = fd >= 0 && lseek(fd, 0, SEEK_SET) < 0 && errno == ESPIPE &&
		 write(fd, "77 0", 4) < 0 && errno == EINVAL &&
		 pwrite(fd, "77 0", 4, 1) < 0 && errno == EINVAL &&
		 write(fd, "junk", 4) < 0 && errno == EINVAL;

	close(fd);
	return ok;
}

static int nsim_port_up(void)
{
	return nsim_ifindex > 0 && !link_set_up(nsim_ifindex) &&
	       !put("/proc/sys/net/ipv4/fib_notify_on_flag_change", "1");
}

#define NET_TRAP 0xc6336400u	/* 198.51.100.0/24 (TEST-NET-2) */
#define NET_FAIL 0xcb007100u	/* 203.0.113.0/24 (TEST-NET-3) */

/*
 * nsim_fib_event_nb() queues the route, nsim_fib4_rt_add() "programs" it
 * and marks it trap (fib_alias_hw_flags_set()); with
 * fib_notify_on_flag_change=1 that is an RTM_NEWROUTE with RTM_F_TRAP.
 */
static int nsim_route_trap(void)
{
	int fd = route_listener();
	unsigned int seen;
	int ok = fd >= 0 && nsim_ifindex > 0 &&
		 !route(RTM_NEWROUTE, NET_TRAP, nsim_ifindex) &&
		 route_flagged(fd, NET_TRAP, RTM_F_TRAP, &seen);

	if (!ok)
		ktap_diag("route flags seen 0x%x", seen);
	close(fd);
	return ok;
}

/* fail_route_offload: nsim_fib4_rt_offload_failed_flag_set(). */
static int nsim_route_offload_failed(void)
{
	int fd = route_listener();
	unsigned int seen;
	int ok = fd >= 0 && nsim_ifindex > 0 &&
		 !put(NSIM_FIB "/fail_route_offload", "Y") &&
		 !route(RTM_NEWROUTE, NET_FAIL, nsim_ifindex) &&
		 route_flagged(fd, NET_FAIL, RTM_F_OFFLOAD_FAILED, &seen);

	if (!ok)
		ktap_diag("route flags seen 0x%x", seen);
	close(fd);
	return !put(NSIM_FIB "/fail_route_offload", "N") && ok;
}

/*
 * A nexthop on the port and a resilient group of 8 buckets over it:
 * nsim_nexthop_create() records the group (is_resilient, occ 8), so the
 * debugfs write "ID BUCKET" of a bucket below 8 is taken whole (it
 * reports activity with nexthop_res_grp_activity_update()) and bucket 8
 * is EINVAL.
 */
#define NH_ID 101
#define NH_GRP_ID 102
static int nsim_nexthop_activity(void)
{
	struct nhmsg nhm = { .nh_family = AF_INET };
	struct nexthop_grp grp = { .id = NH_ID };
	unsigned short type = NEXTHOP_GRP_TYPE_RES, buckets = 8;
	struct nlmsghdr *n;
	struct rtattr *res;
	char ok8[16];
	int fd, ok;

	n = nl_msg(RTM_NEWNEXTHOP, NLM_F_CREATE | NLM_F_EXCL, &nhm, sizeof(nhm));
	nl_u32(n, NHA_ID, NH_ID);
	nl_u32(n, NHA_OIF, nsim_ifindex);
	if (nl_talk(n))
		return ktap_perror("RTM_NEWNEXTHOP"), 0;
	nhm.nh_family = AF_UNSPEC;
	n = nl_msg(RTM_NEWNEXTHOP, NLM_F_CREATE | NLM_F_EXCL, &nhm, sizeof(nhm));
	nl_u32(n, NHA_ID, NH_GRP_ID);
	nl_attr(n, NHA_GROUP, &grp, sizeof(grp));
	nl_attr(n, NHA_GROUP_TYPE, &type, sizeof(type));
	res = nl_attr(n, NHA_RES_GROUP | NLA_F_NESTED, NULL, 0);
	nl_attr(n, NHA_RES_GROUP_BUCKETS, &buckets, sizeof(buckets));
	nl_nest_end(n, res);
	if (nl_talk(n))
		return ktap_perror("RTM_NEWNEXTHOP group"), 0;
	snprintf(ok8, sizeof(ok8), "%d 7", NH_GRP_ID);
	fd = node(NSIM_FIB "/nexthop_bucket_activity", O_WRONLY);
	ok = fd >= 0 && write(fd, ok8, strlen(ok8)) == (ssize_t)strlen(ok8);
	if (fd >= 0 && !ok)
		ktap_perror("write bucket 7");
	close(fd);
	snprintf(ok8, sizeof(ok8), "%d 8", NH_GRP_ID);
	fd = node(NSIM_FIB "/nexthop_bucket_activity", O_WRONLY);
	ok = ok && fd >= 0 && write(fd, ok8, strlen(ok8)) < 0 && errno == EINVAL;
	close(fd);
	return ok;
}

/*
 * The routes and nexthops go, del_device_store() "ID" removes the device:
 * its sysfs and debugfs directories are gone when the write returns.
 */
static int nsim_del_device(void)
{
	struct nhmsg nhm = { .nh_family = AF_UNSPEC };
	struct stat st;
	int ok = 1, id;

	if (route(RTM_DELROUTE, NET_TRAP, nsim_ifindex) ||
	    route(RTM_DELROUTE, NET_FAIL, nsim_ifindex))
		ok = ktap_perror("RTM_DELROUTE") > 0;
	for (id = NH_GRP_ID; id >= NH_ID; id--) {
		struct nlmsghdr *n = nl_msg(RTM_DELNEXTHOP, 0, &nhm, sizeof(nhm));

		nl_u32(n, NHA_ID, id);
		if (nl_talk(n))
			ok = ktap_perror("RTM_DELNEXTHOP") > 0;
	}
	put("/proc/sys/net/ipv4/fib_notify_on_flag_change", "0");
	if (put(NSIM_SYS "/del_device", "1"))
		return ktap_perror("del_device"), 0;
	return ok && stat(NSIM_DEV, &st) && errno == ENOENT &&
	       stat(NSIM_DBG, &st) && errno == ENOENT &&
	       !if_nametoindex(nsim_port);
}

/* ---- macvtap on dummy0 ---- */

static int mvt_index[2];
static int tap_fd[2] = { -1, -1 };
static unsigned char mvt_mac[2][6];

static int macvtap_new(const char *name, int lower)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	struct rtattr *info, *data;
	struct nlmsghdr *n;

	n = nl_msg(RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL, &ifi, sizeof(ifi));
	nl_str(n, IFLA_IFNAME, name);
	nl_u32(n, IFLA_LINK, lower);
	info = nl_attr(n, IFLA_LINKINFO, NULL, 0);
	nl_str(n, IFLA_INFO_KIND, "macvtap");
	data = nl_attr(n, IFLA_INFO_DATA, NULL, 0);
	nl_u32(n, IFLA_MACVLAN_MODE, MACVLAN_MODE_BRIDGE);
	nl_nest_end(n, data);
	nl_nest_end(n, info);
	return nl_talk(n);
}

/*
 * macvtap_newlink() on dummy0, then up: macvtap_device_event() makes
 * /dev/tap<ifindex> (devtmpfs, waited for), tap_open() attaches a queue.
 */
static int macvtap_create(void)
{
	static const char *const names[] = { "mvt0", "mvt1" };
	int lower = if_nametoindex("dummy0");
	char path[32];
	int i;

	if (!lower || link_set_up(lower))
		return ktap_perror("dummy0 up"), 0;
	for (i = 0; i < 2; i++) {
		if (macvtap_new(names[i], lower))
			return ktap_perror(names[i]), 0;
		mvt_index[i] = if_nametoindex(names[i]);
		if (!mvt_index[i] || link_set_up(mvt_index[i]))
			return ktap_perror(names[i]), 0;
		snprintf(path, sizeof(path), "/dev/tap%d", mvt_index[i]);
		tap_fd[i] = ktap_open_dev(path, O_RDWR | O_NONBLOCK);
		if (tap_fd[i] < 0)
			return 0;
	}
	return 1;
}

/* TUNGETFEATURES: IFF_TAP | IFF_NO_PI | TAP_IFFEATURES. */
static int tap_features(void)
{
	unsigned int f = 0;
	unsigned int want = IFF_TAP | IFF_NO_PI | IFF_VNET_HDR | IFF_MULTI_QUEUE;

	if (tap_fd[0] < 0 || ioctl(tap_fd[0], TUNGETFEATURES, &f))
		return 0;
	if (f != want)
		ktap_diag("features 0x%x, want 0x%x", f, want);
	return f == want;
}

/*
 * TUNGETIFF: the macvtap's name and tap_open()'s queue flags; a 10-byte
 * virtio_net_hdr; SIOCGIFHWADDR the link's Ethernet address.
 */
static int tap_getiff(void)
{
	struct ifreq ifr[2];
	int i, sz = 0;

	for (i = 0; i < 2; i++) {
		memset(&ifr[i], 0, sizeof(ifr[i]));
		if (tap_fd[i] < 0 || ioctl(tap_fd[i], SIOCGIFHWADDR, &ifr[i]) ||
		    ifr[i].ifr_hwaddr.sa_family != ARPHRD_ETHER)
			return 0;
		memcpy(mvt_mac[i], ifr[i].ifr_hwaddr.sa_data, 6);
	}
	memset(&ifr[0], 0, sizeof(ifr[0]));
	if (ioctl(tap_fd[0], TUNGETIFF, &ifr[0]) ||
	    ioctl(tap_fd[0], TUNGETVNETHDRSZ, &sz))
		return 0;
	if (ifr[0].ifr_flags != (IFF_TAP | IFF_NO_PI | IFF_VNET_HDR))
		ktap_diag("TUNGETIFF %.16s flags 0x%x", ifr[0].ifr_name,
			  ifr[0].ifr_flags);
	return !strcmp(ifr[0].ifr_name, "mvt0") &&
	       ifr[0].ifr_flags == (IFF_TAP | IFF_NO_PI | IFF_VNET_HDR) &&
	       sz == 10;
}

/*
 * TUNSETOFFLOAD takes the TUN_F_ bits it knows and refuses others with
 * EINVAL ("let the user check for future flags"); TUNSETIFF wants
 * IFF_TAP | IFF_NO_PI; an ioctl tap_ioctl() does not know is EINVAL.
 */
static int tap_offload(void)
{
	struct ifreq ifr = { .ifr_flags = IFF_TUN | IFF_NO_PI };
	int fd = tap_fd[0];

	return fd >= 0 && !ioctl(fd, TUNSETOFFLOAD, (unsigned long)TUN_F_CSUM) &&
	       ioctl(fd, TUNSETOFFLOAD, 0x80UL) < 0 && errno == EINVAL &&
	       !ioctl(fd, TUNSETOFFLOAD, 0UL) &&
	       ioctl(fd, TUNSETIFF, &ifr) < 0 && errno == EINVAL &&
	       ioctl(fd, TUNSETPERSIST, 1UL) < 0 && errno == EINVAL;
}

/* tap_do_read(): empty ring, O_NONBLOCK: EAGAIN; tap_poll(); no llseek. */
static int tap_idle(void)
{
	char buf[128];
	short ev = tap_fd[1] >= 0 ? poll_now(tap_fd[1]) : 0;

	if (!(ev & POLLOUT) || (ev & POLLIN))
		ktap_diag("poll revents 0x%x", ev);
	return tap_fd[1] >= 0 && read(tap_fd[1], buf, sizeof(buf)) < 0 &&
	       errno == EAGAIN && (ev & POLLOUT) && !(ev & POLLIN) &&
	       lseek(tap_fd[1], 0, SEEK_SET) < 0 && errno == ESPIPE;
}

/*
 * tap_get_user() sends the frame out of mvt0; macvlan in bridge mode hands
 * a frame for another bridge-mode macvlan to the lower device's receive
 * path (dev_forward_skb()), macvlan_handle_frame() gives it to mvt1 and
 * tap_handle_frame() queues it: mvt1's tap reads the virtio_net_hdr (all
 * zero) and the frame, byte for byte.
 */
static int tap_frame(void)
{
	unsigned char out[10 + 60] = { 0 }, in[256];
	unsigned char *eth = out + 10;
	long long deadline = ktap_now_ms() + WAIT_MS;
	ssize_t n = -1;
	size_t i;

	if (tap_fd[0] < 0 || tap_fd[1] < 0)
		return 0;
	memcpy(eth, mvt_mac[1], 6);
	memcpy(eth + 6, mvt_mac[0], 6);
	eth[12] = 0x88;		/* 0x88b5: local experimental EtherType */
	eth[13] = 0xb5;
	for (i = 14; i < 60; i++)
		eth[i] = i;
	if (write(tap_fd[0], out, sizeof(out)) != sizeof(out))
		return ktap_perror("write mvt0"), 0;
	while (ktap_now_ms() < deadline) {
		if (!(wait_for(tap_fd[1], POLLIN, deadline - ktap_now_ms()) & POLLIN))
			break;
		n = read(tap_fd[1], in, sizeof(in));
		if (n == sizeof(out) && !memcmp(in, out, sizeof(out)))
			return !(poll_now(tap_fd[1]) & POLLIN);
		ktap_diag("mvt1 read %zd bytes, not the frame", n);
	}
	return 0;
}

/*
 * RTM_DELLINK of mvt0 while its tap is open: tap_del_queues() detaches the
 * queue, so TUNGETIFF is ENOLINK (tap_get_tap_dev() is NULL) and its node
 * is gone; mvt1 goes the same way.
 */
static int tap_link_deleted(void)
{
	struct ifreq ifr;
	struct stat st;
	char path[32];
	int ok;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(path, sizeof(path), "/dev/tap%d", mvt_index[0]);
	ok = tap_fd[0] >= 0 && !link_del(mvt_index[0]) &&
	     ioctl(tap_fd[0], TUNGETIFF, &ifr) < 0 && errno == ENOLINK &&
	     stat(path, &st) && errno == ENOENT;
	close(tap_fd[0]);
	close(tap_fd[1]);
	tap_fd[0] = tap_fd[1] = -1;
	return !link_del(mvt_index[1]) && ok;
}

/* ---- ATM ---- */

static const struct {
	const char *name;
	const char *header;
} atm_tables[] = {
	/* atm_dev_seq_show(), pvc_seq_show(), svc_seq_show(), vcc_seq_show() */
	{ "devices", "Itf Type    ESI/\"MAC\"addr AAL(TX,err,RX,err,drop) ...               [refcnt]\n" },
	{ "pvc", "Itf VPI VCI   AAL RX(PCR,Class) TX(PCR,Class)\n" },
	{ "svc", "Itf VPI VCI           State      Remote\n" },
	{ "vc", "Address         Itf VPI VCI   Fam Flags Reply Send buffer     Recv buffer      [refcnt]\n" },
};

/* No ATM device, no bound VCC: each table is its header line alone. */
static int atm_proc_tables(void)
{
	char path[64], buf[512];
	size_t i;
	int ok = 1;

	for (i = 0; i < ARRAY_SIZE(atm_tables); i++) {
		snprintf(path, sizeof(path), ATM_PROC "/%s", atm_tables[i].name);
		if (slurp(path, buf, sizeof(buf)) < 0 ||
		    strcmp(buf, atm_tables[i].header)) {
			ktap_diag("%s: \"%.80s\"", path, buf);
			ok = 0;
		}
	}
	return ok;
}

/*
 * seq_lseek(): SEEK_SET back to 0 reads the header again, SEEK_END is
 * EINVAL.
 */
static int atm_proc_seek(void)
{
	const char *want = atm_tables[1].header;
	char a[128], b[128];
	int fd = node(ATM_PROC "/pvc", O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, a, sizeof(a)) : -1;
	ssize_t m = n > 0 && lseek(fd, 0, SEEK_SET) == 0 ?
		    read(fd, b, sizeof(b)) : -1;
	int ok = n == (ssize_t)strlen(want) && m == n && !memcmp(a, b, n) &&
		 read(fd, b, sizeof(b)) == 0 &&
		 lseek(fd, 0, SEEK_END) < 0 && errno == EINVAL;

	close(fd);
	return ok;
}

/*
 * A PF_ATMPVC socket: no QoS yet, so getsockopt(SO_ATMQOS) is EINVAL and
 * bind EBADFD (pvc_bind()); ATM_GETNAMES lists no interface; with an
 * AAL5 UBR QoS, bind to any interface is ENODEV (vcc_connect(): no ATM
 * device).
 */
static int atm_pvc_socket(void)
{
	struct sockaddr_atmpvc addr = {
		.sap_family = AF_ATMPVC,
		.sap_addr = { .itf = ATM_ITF_ANY, .vpi = 0, .vci = 32 },
	};
	struct atm_qos qos = { .aal = ATM_AAL5 }, got;
	socklen_t len = sizeof(got);
	int names[4], fd;
	struct atm_iobuf iob = { .length = sizeof(names), .buffer = names };
	int ok;

	qos.txtp.traffic_class = qos.rxtp.traffic_class = ATM_UBR;
	qos.txtp.max_sdu = qos.rxtp.max_sdu = 1500;
	fd = socket(PF_ATMPVC, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return ktap_perror("socket PF_ATMPVC"), 0;
	ok = getsockopt(fd, SOL_ATM, SO_ATMQOS, &got, &len) < 0 &&
	     errno == EINVAL &&
	     bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0 &&
	     errno == EBADFD &&
	     !ioctl(fd, ATM_GETNAMES, &iob) && iob.length == 0 &&
	     !setsockopt(fd, SOL_ATM, SO_ATMQOS, &qos, sizeof(qos)) &&
	     !getsockopt(fd, SOL_ATM, SO_ATMQOS, &got, &len) &&
	     got.aal == ATM_AAL5 && got.txtp.max_sdu == 1500 &&
	     bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0 &&
	     errno == ENODEV;
	close(fd);
	return ok;
}

static const struct ktap_case cases[] = {
	{ "wwan: wwan_hwsim port wwan0at0 is of type AT", wwan_port_type },
	{ "wwan: idle port, read EAGAIN, poll writable not readable", wwan_idle },
	{ "wwan: AT answered with the echo and OK, FIONREAD 9", wwan_at_ok },
	{ "wwan: a line without AT is echoed with no result code", wwan_not_at },
	{ "wwan: TIOCMSET/TIOCMGET, TCGETS, another tty ioctl ENOTTY", wwan_at_ioctls },
	{ "wwan: lseek and pread are ESPIPE (stream_open)", wwan_no_seek },
	{ "netdevsim: new_device 1 1 makes one port and the fib debugfs bools", nsim_new_device },
	{ "netdevsim fib: nexthop_bucket_activity lseek ESPIPE, bad writes EINVAL", nsim_activity_errors },
	{ "netdevsim: the port goes up (RTM_NEWLINK)", nsim_port_up },
	{ "netdevsim fib: an IPv4 route on the port is marked RTM_F_TRAP", nsim_route_trap },
	{ "netdevsim fib: with fail_route_offload a route is RTM_F_OFFLOAD_FAILED", nsim_route_offload_failed },
	{ "netdevsim fib: bucket activity of a resilient group, bucket 8 of 8 EINVAL", nsim_nexthop_activity },
	{ "netdevsim: routes, nexthops and the device deleted", nsim_del_device },
	{ "macvtap: mvt0 and mvt1 (bridge) on dummy0, their /dev/tapN open", macvtap_create },
	{ "macvtap: TUNGETFEATURES", tap_features },
	{ "macvtap: SIOCGIFHWADDR, TUNGETIFF mvt0, TUNGETVNETHDRSZ 10", tap_getiff },
	{ "macvtap: TUNSETOFFLOAD known and unknown bits, TUNSETIFF and an unknown ioctl EINVAL", tap_offload },
	{ "macvtap: idle queue, read EAGAIN, poll writable, lseek ESPIPE", tap_idle },
	{ "macvtap: a frame written on mvt0 is read on mvt1", tap_frame },
	{ "macvtap: after RTM_DELLINK TUNGETIFF is ENOLINK, the node is gone", tap_link_deleted },
	{ "atm: /proc/net/atm devices, pvc, svc, vc are their headers alone", atm_proc_tables },
	{ "atm: /proc/net/atm/pvc seeks back to 0, SEEK_END EINVAL", atm_proc_seek },
	{ "atm: PF_ATMPVC socket QoS, ATM_GETNAMES, bind EBADFD then ENODEV", atm_pvc_socket },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(cases),
	.devices = (const char *const[]){ WWAN_PORT, NULL },
	.kconfig = (const char *const[]){
		"CONFIG_WWAN_HWSIM", "CONFIG_NETDEVSIM", "CONFIG_DUMMY",
		"CONFIG_MACVTAP", "CONFIG_ATM", NULL },
	.timeout = 40,
	.upstream = "patches/core 0032 (drivers/net no_llseek), 0108 (wwan ports)",
	.cases = cases,
};
