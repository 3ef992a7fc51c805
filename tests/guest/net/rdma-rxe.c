// SPDX-License-Identifier: GPL-2.0
/*
 * rdma-rxe - the RDMA core's three user interfaces, each driven through
 * its own file operations on a Soft-RoCE device (rdma_rxe) over dummy0.
 * patches/core 0022 drops the no_llseek initialisers of all three files;
 * this test makes their open, write (command) paths, read, ioctl, poll,
 * mmap, fasync, release and lseek run in a boot, on both kernels:
 *
 *   - ucma (drivers/infiniband/core/ucma.c, /dev/infiniband/rdma_cm):
 *     CREATE_ID, BIND_IP to dummy0's address, QUERY, DESTROY_ID written
 *     as commands; RESOLVE_ADDR and RESOLVE_ROUTE of that address whose
 *     events arrive through poll and GET_EVENT; the command table's
 *     refusals; a bind with no RDMA device left once rxe0 is deleted;
 *   - user_mad (user_mad.c, /dev/infiniband/umadN and issmN): the agent
 *     ioctls (no QP0 on a RoCE port: EPROTONOSUPPORT), a PerfMgmt Get
 *     written on QP1 to the port's own GID and read back by the same
 *     agent, the idle read and poll, issm's IsSM capability bit, and a
 *     file held open while the device is deleted (EIO, POLLERR, EPIPE);
 *   - uverbs (uverbs_main.c, /dev/infiniband/uverbsN): Debian's
 *     ibv_devices and ibv_devinfo through libibverbs and its rxe provider
 *     (from the host's /usr; libibverbs 44 loads a provider only when a
 *     file in /etc/libibverbs.d names it), then the node directly:
 *     GET_CONTEXT, QUERY_DEVICE and CREATE_COMP_CHANNEL written as
 *     commands, QUERY_PORT and QUERY_GID_TABLE through RDMA_VERBS_IOCTL,
 *     mmap, the async event file's idle state and the PORT_ERR and
 *     PORT_ACTIVE events of dummy0 going down and up, the completion
 *     channel's poll, read and fasync.
 *
 * rxe0 is made and deleted with iproute2's rdma tool (a profile tool=
 * line, bounded). Every file of the three is a stream (stream_open or
 * nonseekable_open), so lseek is ESPIPE on both kernels: the records are
 * printed as "# lseek NAME ERRNO" diagnostics. Every value checked is the
 * one the 6.1 source gives; the function that gives it is named next to
 * each check. Waits are polls with a bound; the GID table, which has no
 * event before a verbs context exists, is read again until a deadline.
 * Cases run in order and later ones use what earlier ones made.
 */
#include <netinet/in.h>
#include <arpa/inet.h>
#include <dirent.h>
#include <limits.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/ib_user_mad.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/rdma_user_cm.h>
#include <rdma/rdma_user_ioctl_cmds.h>

#include "netif.h"
#include "run.h"

#define RDMA		"/usr/bin/rdma"
#define IBV_DEVICES	"/usr/bin/ibv_devices"
#define IBV_DEVINFO	"/usr/bin/ibv_devinfo"
#define RXE_PROVIDER	"/usr/lib/x86_64-linux-gnu/libibverbs/librxe-rdmav34.so"
#define IBV_CONF_DIR	"/etc/libibverbs.d"
#define UCMA_NODE	"/dev/infiniband/rdma_cm"
#define IBDEV		"rxe0"
#define IBDEV_SYS	"/sys/class/infiniband/" IBDEV
#define PORT_SYS	IBDEV_SYS "/ports/1"
#define NETDEV		"dummy0"
#define ADDR		0x0a0b0c01u	/* 10.11.12.1/24 */
#define TOOL_SECS	20
#define WAIT_MS		5000

/* Not in the UAPI headers: include/rdma/rdma_cm.h, ib_verbs.h, ib_mad.h. */
#define CM_EVENT_ADDR_RESOLVED	0
#define CM_EVENT_ROUTE_RESOLVED	2
#define IB_EVENT_PORT_ACTIVE	9
#define IB_EVENT_PORT_ERR	10
#define IB_PORT_DOWN		1
#define IB_PORT_ACTIVE		4
#define IB_LINK_LAYER_ETHERNET	2
#define IB_PORT_SM		(1u << 1)
#define MGMT_CLASS_PERF		0x04
#define MGMT_METHOD_GET		0x01
#define QP1_QKEY		0x80010000u
#define MAD_SIZE		256

/* ---- small helpers ---- */

/* The first line of a sysfs file, without its newline; 0 when absent. */
static int attr(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");
	int ok;

	buf[0] = '\0';
	if (!f)
		return 0;
	ok = fgets(buf, (int)size, f) != NULL;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

static int attr_is(const char *path, const char *want)
{
	char buf[128];

	if (!attr(path, buf, sizeof(buf)) || strcmp(buf, want)) {
		ktap_diag("%s: '%s', not '%s'", path, buf, want);
		return 0;
	}
	return 1;
}

static short revents(int fd, short events, int ms)
{
	struct pollfd p = { .fd = fd, .events = events };

	return poll(&p, 1, ms) > 0 ? p.revents : 0;
}

/* lseek to 0 on fd: must be ESPIPE (a stream); the record is printed. */
static int no_seek(int fd, const char *name)
{
	int ok;

	errno = 0;
	ok = lseek(fd, 0, SEEK_SET) < 0 && errno == ESPIPE;
	ktap_diag("lseek %s %s", name, errno ? strerrorname_np(errno) : "0");
	return ok;
}

/* A run of a tool= program: exit 0 and its output in out. */
static int tool(char *const argv[], char *out, size_t size)
{
	int rc = run_capture(argv, out, size, TOOL_SECS);

	if (rc) {
		ktap_diag("%s exited %d", argv[0], rc);
		run_diag_output(argv[0], out);
	}
	return rc == 0;
}

static int ifflags(int sock, const char *name, short set, short clear)
{
	struct ifreq ifr = { 0 };

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	if (ioctl(sock, SIOCGIFFLAGS, &ifr))
		return ktap_perror(name);
	ifr.ifr_flags = (short)((ifr.ifr_flags | set) & ~clear);
	return ioctl(sock, SIOCSIFFLAGS, &ifr) ? ktap_perror(name) : 0;
}

static int inet_sock = -1;

static int netdev_up(int up)
{
	return !ifflags(inet_sock, NETDEV, up ? IFF_UP : 0, up ? 0 : IFF_UP);
}

/*
 * modprobe dummy makes dummy0 (numdummies=1); when it is not there, make
 * it with RTM_NEWLINK, kind "dummy", and wait for the answer.
 */
static int make_dummy0(void)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	struct {
		struct nlmsghdr n;
		struct ifinfomsg i;
		char a[64];
	} __attribute__((aligned(8))) req = {
		.n.nlmsg_type = RTM_NEWLINK,
		.n.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE |
				 NLM_F_EXCL,
		.i.ifi_family = AF_UNSPEC,
	};
	char ans[512] __attribute__((aligned(8)));
	struct rtattr *name, *info, *kind;
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	int err = ETIMEDOUT;

	if (fd < 0)
		return ktap_perror("netlink socket"), 0;
	name = (struct rtattr *)req.a;
	name->rta_type = IFLA_IFNAME;
	name->rta_len = RTA_LENGTH(sizeof(NETDEV));
	memcpy(RTA_DATA(name), NETDEV, sizeof(NETDEV));
	info = (struct rtattr *)(req.a + RTA_ALIGN(name->rta_len));
	info->rta_type = IFLA_LINKINFO;
	kind = RTA_DATA(info);
	kind->rta_type = IFLA_INFO_KIND;
	kind->rta_len = RTA_LENGTH(sizeof("dummy"));
	memcpy(RTA_DATA(kind), "dummy", sizeof("dummy"));
	info->rta_len = RTA_LENGTH(RTA_ALIGN(kind->rta_len));
	req.n.nlmsg_len = NLMSG_LENGTH(sizeof(req.i)) +
			  RTA_ALIGN(name->rta_len) + info->rta_len;
	if (sendto(fd, &req, req.n.nlmsg_len, 0, (struct sockaddr *)&kernel,
		   sizeof(kernel)) > 0 && (revents(fd, POLLIN, WAIT_MS) & POLLIN)) {
		ssize_t len = recv(fd, ans, sizeof(ans), 0);
		struct nlmsghdr *h = (struct nlmsghdr *)ans;

		if (len >= (ssize_t)NLMSG_LENGTH(sizeof(struct nlmsgerr)) &&
		    h->nlmsg_type == NLMSG_ERROR)
			err = -((struct nlmsgerr *)NLMSG_DATA(h))->error;
	}
	close(fd);
	errno = err;
	return err ? ktap_perror("RTM_NEWLINK dummy0"), 0 : 1;
}

/* ---- dummy0 and rxe0 ---- */

static int netdev_ifindex;
static char node_guid[32];	/* rxe0's, as sysfs prints it */

/* dummy0 (made if absent) with 10.11.12.1/24, up; lo up too. */
static int setup_netdev(void)
{
	const char *what;

	inet_sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (inet_sock < 0)
		return 0;
	if (!if_nametoindex(NETDEV)) {
		ktap_diag("%s absent after modprobe dummy: made with rtnetlink",
			  NETDEV);
		if (!make_dummy0())
			return 0;
	}
	netdev_ifindex = (int)if_nametoindex(NETDEV);
	if (!netif_set_ipv4(inet_sock, NETDEV, ADDR, 0xffffff00u, &what))
		return ktap_perror(what), 0;
	return !ifflags(inet_sock, "lo", IFF_UP, 0) && netdev_up(1) &&
	       netdev_ifindex > 0;
}

/*
 * libibverbs 44's load_drivers() only dlopens providers named by
 * "driver NAME" lines in /etc/libibverbs.d/ (the guest's / is the
 * initramfs, which has none); the provider itself is in the host's /usr.
 */
static int ibverbs_config(void)
{
	FILE *f;
	int ok;

	if (access(RXE_PROVIDER, R_OK))
		return ktap_perror(RXE_PROVIDER), 0;
	if (mkdir(IBV_CONF_DIR, 0755) && errno != EEXIST)
		return 0;
	f = fopen(IBV_CONF_DIR "/rxe.driver", "we");
	if (!f)
		return 0;
	ok = fputs("driver rxe\n", f) >= 0;
	return !fclose(f) && ok;
}

/* nldev_newlink() -> rxe_newlink(): rxe0 registered before it returns. */
static int link_add(void)
{
	char out[1024];

	return tool((char *const[]){ RDMA, "link", "add", IBDEV, "type", "rxe",
				     "netdev", NETDEV, NULL }, out, sizeof(out)) &&
	       !access(IBDEV_SYS, F_OK);
}

/*
 * rxe_set_port_state() at registration: dummy0 is running with its
 * carrier on (dummy never drops it), so the port is ACTIVE; the link
 * layer of a RoCE port is Ethernet (rxe_get_link_layer()).
 */
static int port_sysfs(void)
{
	attr(IBDEV_SYS "/node_guid", node_guid, sizeof(node_guid));
	ktap_diag("node_guid %s", node_guid);
	return node_guid[0] && attr_is(PORT_SYS "/state", "4: ACTIVE") &&
	       attr_is(PORT_SYS "/phys_state", "5: LinkUp") &&
	       attr_is(PORT_SYS "/link_layer", "Ethernet") &&
	       attr_is(IBDEV_SYS "/node_type", "1: CA");
}

static int link_show_lists(int want)
{
	char out[1024];

	if (!tool((char *const[]){ RDMA, "link", "show", NULL }, out,
		  sizeof(out)))
		return 0;
	if (!want)
		return !strstr(out, IBDEV "/");
	if (!strstr(out, IBDEV "/1") || !strstr(out, "state ACTIVE") ||
	    !strstr(out, "netdev " NETDEV)) {
		run_diag_output("rdma link show", out);
		return 0;
	}
	return 1;
}

static int link_show(void)
{
	return link_show_lists(1);
}

static int gid_index = -1;
static unsigned char gid_v4[16];	/* ::ffff:10.11.12.1 */

/*
 * roce_gid_mgmt adds the IPv4-mapped GID of dummy0's address (RoCE v2:
 * rxe's only GID type) from a work item: read the first table entries
 * again until it is there, at most WAIT_MS.
 */
static int gid_there(void)
{
	long long end = ktap_now_ms() + WAIT_MS;
	unsigned int tries = 0;
	char want[64], path[128], buf[64];
	int i;

	gid_v4[10] = gid_v4[11] = 0xff;
	gid_v4[12] = 10;
	gid_v4[13] = 11;
	gid_v4[14] = 12;
	gid_v4[15] = 1;
	snprintf(want, sizeof(want), "0000:0000:0000:0000:0000:ffff:0a0b:0c01");
	do {
		tries++;
		for (i = 0; i < 16 && gid_index < 0; i++) {
			snprintf(path, sizeof(path), PORT_SYS "/gids/%d", i);
			if (attr(path, buf, sizeof(buf)) && !strcmp(buf, want))
				gid_index = i;
		}
		if (gid_index < 0)
			usleep(10000);
	} while (gid_index < 0 && ktap_now_ms() < end);
	if (gid_index < 0)
		return 0;
	ktap_diag("GID ::ffff:10.11.12.1 at index %d (%u reads)", gid_index,
		  tries);
	snprintf(path, sizeof(path), PORT_SYS "/gid_attrs/types/%d", gid_index);
	if (!attr_is(path, "RoCE v2"))
		return 0;
	snprintf(path, sizeof(path), PORT_SYS "/gid_attrs/ndevs/%d", gid_index);
	return attr_is(path, NETDEV);
}

/* ---- ucma: /dev/infiniband/rdma_cm ---- */

static int cm_fd = -1;
static unsigned int cm_id, cm_id2;
static unsigned short cm_port;

/* One ucma command: header, then the command; write()'s result. */
static ssize_t cm_cmd(unsigned int cmd, const void *in, size_t in_len,
		      size_t out_len)
{
	char buf[512] __attribute__((aligned(8)));
	struct rdma_ucm_cmd_hdr hdr = {
		.cmd = cmd,
		.in = (unsigned short)in_len,
		.out = (unsigned short)out_len,
	};

	memcpy(buf, &hdr, sizeof(hdr));
	memcpy(buf + sizeof(hdr), in, in_len);
	return write(cm_fd, buf, sizeof(hdr) + in_len);
}

/* The command was taken whole; else errno says why (quiet: callers tell). */
static int cm_ok(unsigned int cmd, const void *in, size_t in_len,
		 size_t out_len)
{
	return cm_cmd(cmd, in, in_len, out_len) ==
	       (ssize_t)(sizeof(struct rdma_ucm_cmd_hdr) + in_len);
}

/* ucma_create_id(): a new context, its id in the response. */
static int cm_create(unsigned long long uid, unsigned int *id)
{
	struct rdma_ucm_create_id_resp resp = { .id = ~0u };
	struct rdma_ucm_create_id c = {
		.uid = uid,
		.response = (uintptr_t)&resp,
		.ps = RDMA_PS_TCP,
		.qp_type = 2,	/* IB_QPT_RC */
	};

	if (!cm_ok(RDMA_USER_CM_CMD_CREATE_ID, &c, sizeof(c), sizeof(resp)))
		return 0;
	*id = resp.id;
	return 1;
}

static int cm_bind(unsigned int id)
{
	struct rdma_ucm_bind_ip b = { .id = id };
	struct sockaddr_in *sin = (struct sockaddr_in *)&b.addr;

	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(ADDR);
	return cm_ok(RDMA_USER_CM_CMD_BIND_IP, &b, sizeof(b), 0);
}

/* ucma_destroy_id(): the number of events reported, or -1. */
static int cm_destroy(unsigned int id)
{
	struct rdma_ucm_destroy_id_resp resp = { .events_reported = ~0u };
	struct rdma_ucm_destroy_id d = {
		.response = (uintptr_t)&resp,
		.id = id,
	};

	if (!cm_ok(RDMA_USER_CM_CMD_DESTROY_ID, &d, sizeof(d), sizeof(resp)))
		return -1;
	return (int)resp.events_reported;
}

static int cm_query(unsigned int id, struct rdma_ucm_query_addr_resp *resp)
{
	struct rdma_ucm_query q = {
		.response = (uintptr_t)resp,
		.id = id,
		.option = RDMA_USER_CM_QUERY_ADDR,
	};

	memset(resp, 0, sizeof(*resp));
	return cm_ok(RDMA_USER_CM_CMD_QUERY, &q, sizeof(q), sizeof(*resp));
}

/* misc device rdma_cm, infiniband/rdma_cm; ucma_open(): stream_open. */
static int cm_open(void)
{
	if (!attr_is("/sys/class/misc/rdma_cm/abi_version", "4"))
		return 0;
	cm_fd = open(UCMA_NODE, O_RDWR | O_CLOEXEC);
	return cm_fd >= 0;
}

static int cm_create_id(void)
{
	int ok = cm_fd >= 0 && cm_create(0x1001, &cm_id);

	ktap_diag("rdma_cm id %u", cm_id);
	return ok;
}

/*
 * ucma_bind_ip() -> rdma_bind_addr(): dummy0's address maps to rxe0 by
 * its GID (cma_acquire_dev_by_src_ip()), a port is picked.
 */
static int cm_bind_ip(void)
{
	return cm_fd >= 0 && cm_bind(cm_id);
}

/* ucma_query_addr(): the bound address, rxe0's node GUID, port 1. */
static int cm_query_addr(void)
{
	struct rdma_ucm_query_addr_resp r;
	struct sockaddr_in *src = (struct sockaddr_in *)&r.src_addr;
	const unsigned char *g = (const unsigned char *)&r.node_guid;
	char guid[32];

	if (cm_fd < 0 || !cm_query(cm_id, &r))
		return 0;
	snprintf(guid, sizeof(guid), "%02x%02x:%02x%02x:%02x%02x:%02x%02x",
		 g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7]);
	cm_port = ntohs(src->sin_port);
	ktap_diag("src %s:%u (size %u), node_guid %s, port %u, ibdev_index %u",
		  inet_ntoa(src->sin_addr), cm_port, r.src_size, guid,
		  r.port_num, r.ibdev_index);
	return src->sin_family == AF_INET && r.src_size == sizeof(*src) &&
	       src->sin_addr.s_addr == htonl(ADDR) && cm_port &&
	       r.port_num == 1 && !strcmp(guid, node_guid);
}

/* ucma_poll() with an empty event list; ucma_get_event() O_NONBLOCK. */
static int cm_idle(void)
{
	struct rdma_ucm_event_resp ev;
	struct rdma_ucm_get_event g = { .response = (uintptr_t)&ev };
	int fl = fcntl(cm_fd, F_GETFL);
	short got = revents(cm_fd, POLLIN, 50);
	int ok;

	fcntl(cm_fd, F_SETFL, fl | O_NONBLOCK);
	ok = !got && cm_cmd(RDMA_USER_CM_CMD_GET_EVENT, &g, sizeof(g),
			    sizeof(ev)) < 0 && errno == EAGAIN;
	fcntl(cm_fd, F_SETFL, fl);
	if (got)
		ktap_diag("poll revents 0x%x", got);
	return ok;
}

/*
 * ucma_write(): a header alone shorter than itself EINVAL, a command past
 * the table EINVAL, GET_OPTION (a NULL entry) ENOSYS, a header whose in
 * size runs past the write EINVAL, a QUERY of an unknown option ENOSYS.
 */
static int cm_refusals(void)
{
	struct rdma_ucm_query q = { .id = cm_id, .option = 77 };
	struct rdma_ucm_query_addr_resp r;
	char zero[64] = { 0 };
	int ok = cm_fd >= 0;

	q.response = (uintptr_t)&r;
	ok = ok && write(cm_fd, zero, 4) < 0 && errno == EINVAL;
	ok = ok && cm_cmd(RDMA_USER_CM_CMD_JOIN_MCAST + 1, zero, 8, 0) < 0 &&
	     errno == EINVAL;
	ok = ok && cm_cmd(RDMA_USER_CM_CMD_GET_OPTION, zero, 8, 0) < 0 &&
	     errno == ENOSYS;
	if (ok) {
		struct rdma_ucm_cmd_hdr h = {
			.cmd = RDMA_USER_CM_CMD_QUERY, .in = 200,
		};

		ok = write(cm_fd, &h, sizeof(h)) < 0 && errno == EINVAL;
	}
	return ok && cm_cmd(RDMA_USER_CM_CMD_QUERY, &q, sizeof(q),
			    sizeof(r)) < 0 && errno == ENOSYS;
}

/* ucma_destroy_id(): nothing reported on it; then ENOENT for the id. */
static int cm_destroy_id(void)
{
	struct rdma_ucm_query_addr_resp r;
	int n = cm_fd >= 0 ? cm_destroy(cm_id) : -1;

	if (n)
		ktap_diag("events_reported %d", n);
	return n == 0 && !cm_query(cm_id, &r) && errno == ENOENT;
}

/* The next event, at most WAIT_MS: poll, then GET_EVENT. */
static int cm_event(unsigned int *event, int *status, unsigned long long *uid)
{
	struct rdma_ucm_event_resp ev = { .event = ~0u };
	struct rdma_ucm_get_event g = { .response = (uintptr_t)&ev };

	if (!(revents(cm_fd, POLLIN, WAIT_MS) & POLLIN)) {
		ktap_diag("no rdma_cm event within %d ms", WAIT_MS);
		return 0;
	}
	if (!cm_ok(RDMA_USER_CM_CMD_GET_EVENT, &g, sizeof(g), sizeof(ev)))
		return 0;
	*event = ev.event;
	*status = (int)ev.status;
	*uid = ev.uid;
	ktap_diag("rdma_cm event %u status %d id %u", ev.event, *status, ev.id);
	return ev.id == cm_id2;
}

/*
 * ucma_resolve_addr() -> rdma_resolve_ip(): the route to the local
 * address goes through lo, which addr_resolve() maps back to dummy0;
 * addr_handler() queues RDMA_CM_EVENT_ADDR_RESOLVED for ucma_poll().
 */
static int cm_resolve_addr(void)
{
	struct rdma_ucm_resolve_addr a = { .timeout_ms = 2000 };
	struct sockaddr_in *src = (struct sockaddr_in *)&a.src_addr;
	struct sockaddr_in *dst = (struct sockaddr_in *)&a.dst_addr;
	unsigned long long uid = 0;
	unsigned int ev;
	int status;

	if (cm_fd < 0 || !cm_create(0x2002, &cm_id2))
		return 0;
	a.id = cm_id2;
	src->sin_family = dst->sin_family = AF_INET;
	src->sin_addr.s_addr = dst->sin_addr.s_addr = htonl(ADDR);
	a.src_size = a.dst_size = sizeof(*src);
	return cm_ok(RDMA_USER_CM_CMD_RESOLVE_ADDR, &a, sizeof(a), 0) &&
	       cm_event(&ev, &status, &uid) && ev == CM_EVENT_ADDR_RESOLVED &&
	       !status && uid == 0x2002;
}

/*
 * ucma_resolve_route() -> cma_resolve_iboe_route(): a RoCE path record
 * from dummy0, RDMA_CM_EVENT_ROUTE_RESOLVED; the id reported 2 events.
 */
static int cm_resolve_route(void)
{
	struct rdma_ucm_resolve_route r = { .id = cm_id2, .timeout_ms = 2000 };
	unsigned long long uid = 0;
	unsigned int ev;
	int status, n;

	if (cm_fd < 0 || !cm_ok(RDMA_USER_CM_CMD_RESOLVE_ROUTE, &r, sizeof(r), 0) ||
	    !cm_event(&ev, &status, &uid) || ev != CM_EVENT_ROUTE_RESOLVED ||
	    status)
		return 0;
	n = cm_destroy(cm_id2);
	if (n != 2)
		ktap_diag("events_reported %d", n);
	return n == 2;
}

static int cm_no_seek(void)
{
	char c;

	return cm_fd >= 0 && no_seek(cm_fd, "rdma_cm") &&
	       pread(cm_fd, &c, 1, 0) < 0 && errno == ESPIPE;
}

/* ---- user_mad: /dev/infiniband/umadN, issmN ---- */

static char umad_node[64], issm_node[64];
static int mad_fd = -1, held_fd = -1;
static unsigned int agent_id = ~0u;

/* The class device of prefix (umad, uverbs) in class whose ibdev is rxe0. */
static int find_node(const char *class, const char *prefix, int want_port,
		     char *node, size_t size, int *num)
{
	char dir[64], path[PATH_MAX], buf[64];
	struct dirent *e;
	DIR *d;

	snprintf(dir, sizeof(dir), "/sys/class/%s", class);
	d = opendir(dir);
	node[0] = '\0';
	while (d && (e = readdir(d)) && !node[0]) {
		if (strncmp(e->d_name, prefix, strlen(prefix)))
			continue;
		snprintf(path, sizeof(path), "%s/%s/ibdev", dir, e->d_name);
		if (!attr(path, buf, sizeof(buf)) || strcmp(buf, IBDEV))
			continue;
		snprintf(path, sizeof(path), "%s/%s/port", dir, e->d_name);
		if (want_port && (!attr(path, buf, sizeof(buf)) ||
				  atoi(buf) != want_port))
			continue;
		*num = atoi(e->d_name + strlen(prefix));
		snprintf(node, size, "/dev/infiniband/%.32s", e->d_name);
	}
	if (d)
		closedir(d);
	return node[0] && ktap_dev_present(node);
}

/*
 * ib_umad_add_one(): a umad and an issm node per port with IB MADs, which
 * RoCE has (rdma_cap_ib_mad()); ib_umad_open(): stream_open.
 */
static int umad_open(void)
{
	int n = -1;

	if (!attr_is("/sys/class/infiniband_mad/abi_version", "5") ||
	    !find_node("infiniband_mad", "umad", 1, umad_node,
		       sizeof(umad_node), &n))
		return 0;
	snprintf(issm_node, sizeof(issm_node), "/dev/infiniband/issm%d", n);
	ktap_diag("%s, %s", umad_node, issm_node);
	mad_fd = open(umad_node, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	return mad_fd >= 0 && !access(issm_node, F_OK);
}

/* ib_umad_enable_pkey(): allowed until an agent is registered. */
static int umad_enable_pkey(void)
{
	return mad_fd >= 0 && !ioctl(mad_fd, IB_USER_MAD_ENABLE_PKEY);
}

/* ib_register_mad_agent(): QP0 needs rdma_cap_ib_smi(), not on RoCE. */
static int umad_no_smi(void)
{
	struct ib_user_mad_reg_req r = { .qpn = 0 };

	return mad_fd >= 0 && ioctl(mad_fd, IB_USER_MAD_REGISTER_AGENT, &r) < 0 &&
	       errno == EPROTONOSUPPORT;
}

/*
 * ib_umad_reg_agent2(): an unknown flag is EINVAL and the supported flags
 * (IB_USER_MAD_REG_FLAGS_CAP) are written back in its place.
 */
static int umad_bad_flags(void)
{
	struct ib_user_mad_reg_req2 r = { .qpn = 1, .flags = 0x80 };

	return mad_fd >= 0 && ioctl(mad_fd, IB_USER_MAD_REGISTER_AGENT2, &r) < 0 &&
	       errno == EINVAL && r.flags == IB_USER_MAD_REG_FLAGS_CAP;
}

static int umad_register(int fd, unsigned int *id)
{
	struct ib_user_mad_reg_req2 r = {
		.id = ~0u,
		.qpn = 1,
		.mgmt_class = MGMT_CLASS_PERF,
		.mgmt_class_version = 1,
	};

	r.method_mask[0] = 1ull << MGMT_METHOD_GET;
	if (ioctl(fd, IB_USER_MAD_REGISTER_AGENT2, &r))
		return ktap_perror("IB_USER_MAD_REGISTER_AGENT2"), 0;
	*id = r.id;
	return 1;
}

/*
 * A GSI agent for PerfMgmt Get (no kernel agent serves that class on
 * rxe); the file is used now, so ENABLE_PKEY is EINVAL.
 */
static int umad_agent(void)
{
	int ok = mad_fd >= 0 && umad_register(mad_fd, &agent_id);

	ktap_diag("agent id %u", agent_id);
	return ok && agent_id == 0 && ioctl(mad_fd, IB_USER_MAD_ENABLE_PKEY) < 0 &&
	       errno == EINVAL;
}

/*
 * ib_umad_poll(): always writable, nothing to read; ib_umad_read():
 * EAGAIN on O_NONBLOCK, EINVAL below the header size.
 */
static int umad_idle(void)
{
	char buf[sizeof(struct ib_user_mad_hdr) + MAD_SIZE];
	short ev = revents(mad_fd, POLLIN | POLLOUT, 0);

	if (ev != POLLOUT)
		ktap_diag("poll revents 0x%x", ev);
	return mad_fd >= 0 && ev == POLLOUT &&
	       read(mad_fd, buf, sizeof(buf)) < 0 && errno == EAGAIN &&
	       read(mad_fd, buf, 8) < 0 && errno == EINVAL;
}

/*
 * ib_umad_write(): a PerfMgmt Get (ClassPortInfo) on QP1 to the port's
 * own IPv4-mapped GID. rxe sends it over UDP to 10.11.12.1, loops it back,
 * the MAD layer hands the request to this agent (method Get), and
 * recv_handler() queues it for ib_umad_read(): the same MAD, from QP1,
 * with a GRH, the transaction id's low half kept.
 */
static int umad_loop(void)
{
	char buf[sizeof(struct ib_user_mad_hdr) + MAD_SIZE]
		__attribute__((aligned(8))) = { 0 };
	struct ib_user_mad_hdr *h = (struct ib_user_mad_hdr *)buf;
	unsigned char *mad = (unsigned char *)(h + 1);
	ssize_t n;

	if (mad_fd < 0 || gid_index < 0)
		return 0;
	h->id = agent_id;
	h->qpn = htonl(1);
	h->qkey = htonl(QP1_QKEY);
	h->grh_present = 1;
	h->gid_index = (unsigned char)gid_index;
	h->hop_limit = 64;
	memcpy(h->gid, gid_v4, sizeof(gid_v4));
	mad[0] = 1;			/* base version */
	mad[1] = MGMT_CLASS_PERF;
	mad[2] = 1;			/* class version */
	mad[3] = MGMT_METHOD_GET;
	mad[12] = 0xc0;			/* transaction id, low half */
	mad[13] = 0xff;
	mad[14] = 0xee;
	mad[15] = 0x01;
	mad[17] = 0x01;			/* attribute ClassPortInfo */
	n = write(mad_fd, buf, sizeof(buf));
	if (n != (ssize_t)sizeof(buf))
		return ktap_perror("umad write"), 0;
	if (!(revents(mad_fd, POLLIN, WAIT_MS) & POLLIN)) {
		ktap_diag("no MAD back within %d ms", WAIT_MS);
		return 0;
	}
	memset(buf, 0, sizeof(buf));
	n = read(mad_fd, buf, sizeof(buf));
	if (n < 0)
		return ktap_perror("umad read"), 0;
	ktap_diag("read %zd: id %u status %u qpn %u grh %u class 0x%02x method 0x%02x tid ..%02x%02x%02x%02x",
		  n, h->id, h->status, ntohl(h->qpn), h->grh_present, mad[1],
		  mad[3], mad[12], mad[13], mad[14], mad[15]);
	return n == (ssize_t)sizeof(buf) && h->id == agent_id && !h->status &&
	       ntohl(h->qpn) == 1 && h->grh_present && mad[1] == MGMT_CLASS_PERF &&
	       mad[3] == MGMT_METHOD_GET && mad[12] == 0xc0 && mad[15] == 0x01 &&
	       mad[17] == 0x01 && !(revents(mad_fd, POLLIN, 0) & POLLIN);
}

/* ib_umad_unreg_agent(): once, then EINVAL; the file stays a stream. */
static int umad_unregister(void)
{
	unsigned int id = agent_id;
	int ok = mad_fd >= 0 && !ioctl(mad_fd, IB_USER_MAD_UNREGISTER_AGENT, &id) &&
		 ioctl(mad_fd, IB_USER_MAD_UNREGISTER_AGENT, &id) < 0 &&
		 errno == EINVAL && no_seek(mad_fd, "umad");

	ok = !close(mad_fd) && ok;
	mad_fd = -1;
	return ok;
}

static int port_cap_sm(void)
{
	char buf[32];

	if (!attr(PORT_SYS "/cap_mask", buf, sizeof(buf)))
		return -1;
	return !!(strtoul(buf, NULL, 16) & IB_PORT_SM);
}

/*
 * ib_umad_sm_open(): one opener (O_NONBLOCK: EAGAIN while held), and
 * ib_modify_port() sets IsSM, which rxe_modify_port() takes into the
 * port's capability mask; ib_umad_sm_close() clears it.
 */
static int issm_cycle(void)
{
	int fd, again, sm_open, sm_closed;

	if (!issm_node[0] || port_cap_sm())
		return 0;
	fd = open(issm_node, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return ktap_perror(issm_node), 0;
	sm_open = port_cap_sm();
	again = open(issm_node, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (again >= 0)
		close(again);
	again = again < 0 && errno == EAGAIN;
	if (!no_seek(fd, "issm") || close(fd))
		return 0;
	sm_closed = port_cap_sm();
	ktap_diag("IsSM open %d, second open EAGAIN %d, IsSM after close %d",
		  sm_open, again, sm_closed);
	return sm_open == 1 && again && sm_closed == 0;
}

/* ---- uverbs: libibverbs, then /dev/infiniband/uverbsN ---- */

/* ibv_devices: rxe0 and its node GUID (sysfs's without the colons). */
static int ibv_devices(void)
{
	char out[2048], guid[32];
	size_t i, j;

	for (i = j = 0; node_guid[i] && j < sizeof(guid) - 1; i++)
		if (node_guid[i] != ':')
			guid[j++] = node_guid[i];
	guid[j] = '\0';
	if (!tool((char *const[]){ IBV_DEVICES, NULL }, out, sizeof(out)))
		return 0;
	if (!strstr(out, IBDEV) || !j || !strstr(out, guid)) {
		run_diag_output("ibv_devices", out);
		return 0;
	}
	return 1;
}

/* ibv_devinfo: rxe_query_port() through the provider. */
static int ibv_devinfo(void)
{
	char out[4096];
	const char *state;

	if (!tool((char *const[]){ IBV_DEVINFO, "-d", IBDEV, NULL }, out,
		  sizeof(out)))
		return 0;
	state = strstr(out, "state:");
	if (!state || strncmp(state + strspn(state + 6, "\t ") + 6,
			      "PORT_ACTIVE (4)", 15) ||
	    !strstr(out, "link_layer:") || !strstr(out, "Ethernet") ||
	    !strstr(out, "phys_port_cnt:")) {
		run_diag_output("ibv_devinfo", out);
		return 0;
	}
	return 1;
}

static int verbs_fd = -1, async_fd = -1;

/*
 * One uverbs write command: header, then the command (response first);
 * 1 when taken whole, else 0 with errno (quiet: callers tell).
 */
static int verbs_write(unsigned int cmd, const void *in, size_t in_len,
		       size_t out_len)
{
	char buf[128] __attribute__((aligned(8)));
	struct ib_uverbs_cmd_hdr hdr = {
		.command = cmd,
		.in_words = (unsigned short)((sizeof(hdr) + in_len) / 4),
		.out_words = (unsigned short)(out_len / 4),
	};
	ssize_t n;

	memcpy(buf, &hdr, sizeof(hdr));
	memcpy(buf + sizeof(hdr), in, in_len);
	n = write(verbs_fd, buf, sizeof(hdr) + in_len);
	return n == (ssize_t)(sizeof(hdr) + in_len);
}

/* One RDMA_VERBS_IOCTL method of the device object; 0 or -1 (errno). */
static int verbs_ioctl(unsigned int method, const struct ib_uverbs_attr *a,
		       unsigned int n, unsigned int driver_id)
{
	unsigned long long buf[(sizeof(struct ib_uverbs_ioctl_hdr) +
				4 * sizeof(struct ib_uverbs_attr)) / 8];
	struct ib_uverbs_ioctl_hdr *h = (struct ib_uverbs_ioctl_hdr *)buf;

	memset(buf, 0, sizeof(buf));
	h->length = (unsigned short)(sizeof(*h) + n * sizeof(*a));
	h->object_id = UVERBS_OBJECT_DEVICE;
	h->method_id = (unsigned short)method;
	h->num_attrs = (unsigned short)n;
	h->driver_id = driver_id;
	memcpy(h->attrs, a, n * sizeof(*a));
	return ioctl(verbs_fd, RDMA_VERBS_IOCTL, h);
}

/*
 * ib_uverbs_add_one(): uverbs_mmap_fops (rxe has mmap); ib_uverbs_open():
 * stream_open. ib_uverbs_mmap() without a context EINVAL, an ioctl other
 * than RDMA_VERBS_IOCTL ENOTTY (ENOIOCTLCMD).
 */
static int verbs_open(void)
{
	char node[64];
	void *p;
	int n = -1, ok;

	if (!attr_is("/sys/class/infiniband_verbs/abi_version", "6") ||
	    !find_node("infiniband_verbs", "uverbs", 0, node, sizeof(node), &n))
		return 0;
	ktap_diag("%s", node);
	verbs_fd = open(node, O_RDWR | O_CLOEXEC);
	if (verbs_fd < 0)
		return ktap_perror(node), 0;
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, verbs_fd, 0);
	ok = p == MAP_FAILED && errno == EINVAL;
	if (p != MAP_FAILED)
		munmap(p, 4096);
	return ok && ioctl(verbs_fd, TCGETS, &n) < 0 && errno == ENOTTY &&
	       no_seek(verbs_fd, "uverbs");
}

/*
 * ib_uverbs_write() -> ib_uverbs_get_context(): a ucontext and its async
 * event file (uverbs_async_event_fops); a second one EINVAL
 * (ib_init_ucontext()).
 */
static int verbs_get_context(void)
{
	struct ib_uverbs_get_context_resp resp = { .async_fd = ~0u };
	struct ib_uverbs_get_context c = { .response = (uintptr_t)&resp };
	int ok;

	if (verbs_fd < 0 || !verbs_write(IB_USER_VERBS_CMD_GET_CONTEXT, &c,
					 sizeof(c), sizeof(resp)))
		return 0;
	async_fd = (int)resp.async_fd;
	ktap_diag("async fd %d, %u completion vectors", async_fd,
		  resp.num_comp_vectors);
	ok = async_fd >= 0 && fcntl(async_fd, F_GETFD) >= 0;
	return !verbs_write(IB_USER_VERBS_CMD_GET_CONTEXT, &c, sizeof(c),
			    sizeof(resp)) && errno == EINVAL && ok;
}

/* ib_uverbs_query_device(): rxe0's node GUID, one port. */
static int verbs_query_device(void)
{
	struct ib_uverbs_query_device_resp r;
	struct ib_uverbs_query_device q = { .response = (uintptr_t)&r };
	const unsigned char *g = (const unsigned char *)&r.node_guid;
	char guid[32];

	_Static_assert(sizeof(r) % 4 == 0, "whole words");
	memset(&r, 0, sizeof(r));
	if (verbs_fd < 0 || !verbs_write(IB_USER_VERBS_CMD_QUERY_DEVICE, &q,
					 sizeof(q), sizeof(r)))
		return 0;
	snprintf(guid, sizeof(guid), "%02x%02x:%02x%02x:%02x%02x:%02x%02x",
		 g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7]);
	ktap_diag("node_guid %s, vendor 0x%x, ports %u", guid, r.vendor_id,
		  r.phys_port_cnt);
	return !strcmp(guid, node_guid) && r.phys_port_cnt == 1;
}

/* UVERBS_METHOD_QUERY_PORT on port 1: its state, Ethernet. */
static int query_port(struct ib_uverbs_query_port_resp_ex *r)
{
	struct ib_uverbs_attr a[2] = {
		{ .attr_id = UVERBS_ATTR_QUERY_PORT_PORT_NUM, .len = 8,
		  .flags = UVERBS_ATTR_F_MANDATORY, .data = 1 },
		{ .attr_id = UVERBS_ATTR_QUERY_PORT_RESP, .len = sizeof(*r),
		  .flags = UVERBS_ATTR_F_MANDATORY, .data = (uintptr_t)r },
	};

	memset(r, 0, sizeof(*r));
	if (verbs_ioctl(UVERBS_METHOD_QUERY_PORT, a, 2, RDMA_DRIVER_RXE))
		return ktap_perror("QUERY_PORT"), -1;
	return r->legacy_resp.state;
}

/*
 * RDMA_VERBS_IOCTL: QUERY_PORT ACTIVE with link layer Ethernet; the
 * header's driver_id must be the device's (ib_uverbs_cmd_verbs()).
 */
static int verbs_query_port(void)
{
	struct ib_uverbs_query_port_resp_ex r;
	struct ib_uverbs_attr a = {
		.attr_id = UVERBS_ATTR_QUERY_PORT_PORT_NUM, .len = 8, .data = 1,
	};

	if (verbs_fd < 0 || query_port(&r) != IB_PORT_ACTIVE) {
		ktap_diag("port state %u", r.legacy_resp.state);
		return 0;
	}
	ktap_diag("gid_tbl_len %u, active_mtu %u, link_layer %u",
		  r.legacy_resp.gid_tbl_len, r.legacy_resp.active_mtu,
		  r.legacy_resp.link_layer);
	return r.legacy_resp.link_layer == IB_LINK_LAYER_ETHERNET &&
	       verbs_ioctl(UVERBS_METHOD_QUERY_PORT, &a, 1,
			   RDMA_DRIVER_RXE + 1) < 0 && errno == EINVAL;
}

/* UVERBS_METHOD_QUERY_GID_TABLE: the IPv4-mapped GID, RoCE v2, dummy0. */
static int verbs_gid_table(void)
{
	struct ib_uverbs_gid_entry e[64];
	unsigned long long count = 0;
	struct ib_uverbs_attr a[3] = {
		{ .attr_id = UVERBS_ATTR_QUERY_GID_TABLE_ENTRY_SIZE, .len = 8,
		  .flags = UVERBS_ATTR_F_MANDATORY, .data = sizeof(e[0]) },
		{ .attr_id = UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES,
		  .len = sizeof(e), .flags = UVERBS_ATTR_F_MANDATORY,
		  .data = (uintptr_t)e },
		{ .attr_id = UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES,
		  .len = sizeof(count), .flags = UVERBS_ATTR_F_MANDATORY,
		  .data = (uintptr_t)&count },
	};
	unsigned long long i;
	int found = 0;

	memset(e, 0, sizeof(e));
	if (verbs_fd < 0 || verbs_ioctl(UVERBS_METHOD_QUERY_GID_TABLE, a, 3,
					RDMA_DRIVER_RXE))
		return ktap_perror("QUERY_GID_TABLE"), 0;
	for (i = 0; i < count && i < ARRAY_SIZE(e); i++) {
		if (memcmp(e[i].gid, gid_v4, sizeof(gid_v4)))
			continue;
		ktap_diag("entry %llu of %llu: index %u port %u type %u ifindex %u",
			  i, count, e[i].gid_index, e[i].port_num,
			  e[i].gid_type, e[i].netdev_ifindex);
		found = (int)e[i].gid_index == gid_index && e[i].port_num == 1 &&
			e[i].gid_type == IB_UVERBS_GID_TYPE_ROCE_V2 &&
			(int)e[i].netdev_ifindex == netdev_ifindex;
	}
	return found;
}

/*
 * ib_uverbs_async_event_poll() and _read() with an empty queue: no
 * events, EAGAIN; an anonymous file without llseek: ESPIPE.
 */
static int async_idle(void)
{
	struct ib_uverbs_async_event_desc d;
	short ev;

	if (async_fd < 0 || fcntl(async_fd, F_SETFL, O_NONBLOCK))
		return 0;
	ev = revents(async_fd, POLLIN, 0);
	if (ev)
		ktap_diag("poll revents 0x%x", ev);
	return !ev && read(async_fd, &d, sizeof(d)) < 0 && errno == EAGAIN &&
	       no_seek(async_fd, "uverbs-async");
}

/*
 * The async events of port 1 until want arrives (at most WAIT_MS): the
 * event handler of the ucontext queues every port event of rxe0.
 */
static int async_wait(unsigned int want)
{
	long long end = ktap_now_ms() + WAIT_MS;
	struct ib_uverbs_async_event_desc d;

	while (ktap_now_ms() < end) {
		if (!(revents(async_fd, POLLIN, (int)(end - ktap_now_ms())) &
		      POLLIN))
			break;
		if (read(async_fd, &d, sizeof(d)) != sizeof(d))
			return ktap_perror("async read"), 0;
		ktap_diag("async event %u element %llu", d.event_type,
			  (unsigned long long)d.element);
		if (d.event_type == want && d.element == 1)
			return 1;
	}
	ktap_diag("no async event %u within %d ms", want, WAIT_MS);
	return 0;
}

/* rxe_notify(NETDEV_DOWN) -> rxe_port_down(): IB_EVENT_PORT_ERR. */
static int port_down_event(void)
{
	struct ib_uverbs_query_port_resp_ex r;

	return async_fd >= 0 && netdev_up(0) && async_wait(IB_EVENT_PORT_ERR) &&
	       query_port(&r) == IB_PORT_DOWN;
}

/* rxe_notify(NETDEV_UP) -> rxe_port_up(): IB_EVENT_PORT_ACTIVE. */
static int port_up_event(void)
{
	struct ib_uverbs_query_port_resp_ex r;

	return async_fd >= 0 && netdev_up(1) &&
	       async_wait(IB_EVENT_PORT_ACTIVE) && query_port(&r) == IB_PORT_ACTIVE;
}

/*
 * ib_uverbs_create_comp_channel(): a uverbs_event_fops file; idle poll,
 * EAGAIN, O_ASYNC through ib_uverbs_comp_event_fasync(), ESPIPE, release.
 */
static int comp_channel(void)
{
	struct ib_uverbs_create_comp_channel_resp resp = { .fd = ~0u };
	struct ib_uverbs_create_comp_channel c = { .response = (uintptr_t)&resp };
	struct ib_uverbs_comp_event_desc d;
	int fd, ok;

	if (verbs_fd < 0 || !verbs_write(IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL,
					 &c, sizeof(c), sizeof(resp)))
		return 0;
	fd = (int)resp.fd;
	if (fd < 0 || fcntl(fd, F_SETFL, O_NONBLOCK))
		return 0;
	ok = !revents(fd, POLLIN, 0) && read(fd, &d, sizeof(d)) < 0 &&
	     errno == EAGAIN && !fcntl(fd, F_SETFL, O_NONBLOCK | O_ASYNC) &&
	     (fcntl(fd, F_GETFL) & O_ASYNC) && no_seek(fd, "uverbs-comp");
	return !close(fd) && ok;
}

/*
 * uverbs_async_event_release() and ib_uverbs_close(): closed before the
 * delete, since rxe has no disassociate_ucontext and
 * ib_uverbs_remove_one() would wait for this file.
 */
static int verbs_close(void)
{
	int ok = async_fd >= 0 && !close(async_fd);

	async_fd = -1;
	ok = verbs_fd >= 0 && !close(verbs_fd) && ok;
	verbs_fd = -1;
	return ok;
}

/* ---- rdma link delete ---- */

/* A second umad file with a GSI agent, kept open across the delete. */
static int umad_hold(void)
{
	unsigned int id;

	held_fd = umad_node[0] ? open(umad_node, O_RDWR | O_NONBLOCK |
				      O_CLOEXEC) : -1;
	return held_fd >= 0 && umad_register(held_fd, &id) && id == 0;
}

/*
 * nldev_dellink() (IBK_ALLOW_USER_UNREG) -> ib_unregister_device(): the
 * class devices and their nodes are gone when the command returns.
 */
static int link_delete(void)
{
	char out[1024];
	int ok = tool((char *const[]){ RDMA, "link", "delete", IBDEV, NULL },
		      out, sizeof(out));

	if (!access(IBDEV_SYS, F_OK) || !access(umad_node, F_OK) ||
	    !access(issm_node, F_OK)) {
		ktap_diag("%s, %s or %s still there", IBDEV_SYS, umad_node,
			  issm_node);
		return 0;
	}
	return ok;
}

static int link_show_gone(void)
{
	return link_show_lists(0);
}

/*
 * ib_umad_kill_port(): the held file's agents are dead: read EIO, poll
 * EPOLLERR, a new agent EPIPE (no ib_dev); ib_umad_close() still works.
 */
static int umad_held_dead(void)
{
	char buf[sizeof(struct ib_user_mad_hdr) + MAD_SIZE];
	short ev = revents(held_fd, POLLIN | POLLOUT, 0);
	struct ib_user_mad_reg_req2 r = { .qpn = 1 };
	int ok;

	ktap_diag("poll revents 0x%x", ev);
	ok = held_fd >= 0 && ev == POLLERR &&
	     read(held_fd, buf, sizeof(buf)) < 0 && errno == EIO &&
	     ioctl(held_fd, IB_USER_MAD_REGISTER_AGENT2, &r) < 0 &&
	     errno == EPIPE;
	return !close(held_fd) && ok;
}

/*
 * With rxe0 gone no RDMA device owns 10.11.12.1: BIND_IP ENODEV
 * (cma_acquire_dev_by_src_ip()); the id and then ucma_close().
 */
static int cm_after_delete(void)
{
	unsigned int id;
	int ok = cm_fd >= 0 && cm_create(0x3003, &id) && !cm_bind(id) &&
		 errno == ENODEV;

	ok = ok && cm_destroy(id) == 0;
	return !close(cm_fd) && ok;
}

static const struct ktap_case cases[] = {
	{ "dummy0 up with 10.11.12.1/24, lo up", setup_netdev },
	{ "libibverbs: /etc/libibverbs.d/rxe.driver names the host's rxe provider", ibverbs_config },
	{ "rdma link add rxe0 type rxe netdev dummy0: /sys/class/infiniband/rxe0", link_add },
	{ "rxe0 port 1: state 4 ACTIVE, LinkUp, link layer Ethernet, node type CA", port_sysfs },
	{ "rdma link show: rxe0/1 state ACTIVE netdev dummy0", link_show },
	{ "port 1 GID table: ::ffff:10.11.12.1, RoCE v2 on dummy0", gid_there },
	{ "rdma_cm: abi_version 4, the node opens", cm_open },
	{ "rdma_cm: CREATE_ID (RDMA_PS_TCP, RC) returns an id", cm_create_id },
	{ "rdma_cm: BIND_IP to 10.11.12.1 binds to rxe0", cm_bind_ip },
	{ "rdma_cm: QUERY ADDR: 10.11.12.1 with a port, rxe0's node GUID, port 1", cm_query_addr },
	{ "rdma_cm: no event: poll times out, GET_EVENT O_NONBLOCK EAGAIN", cm_idle },
	{ "rdma_cm: short write, command past the table, GET_OPTION, oversized in, QUERY option refused", cm_refusals },
	{ "rdma_cm: DESTROY_ID reports 0 events, the id is then ENOENT", cm_destroy_id },
	{ "rdma_cm: RESOLVE_ADDR of 10.11.12.1: ADDR_RESOLVED through poll and GET_EVENT", cm_resolve_addr },
	{ "rdma_cm: RESOLVE_ROUTE: ROUTE_RESOLVED, DESTROY_ID reports 2 events", cm_resolve_route },
	{ "rdma_cm: lseek and pread ESPIPE", cm_no_seek },
	{ "umad: abi_version 5, the umad node of rxe0 port 1 opens, issm node there", umad_open },
	{ "umad: IB_USER_MAD_ENABLE_PKEY before any agent", umad_enable_pkey },
	{ "umad: REGISTER_AGENT on QP0 EPROTONOSUPPORT (no SMI on RoCE)", umad_no_smi },
	{ "umad: REGISTER_AGENT2 with an unknown flag EINVAL, the capability mask written back", umad_bad_flags },
	{ "umad: REGISTER_AGENT2 PerfMgmt on QP1 is agent 0, ENABLE_PKEY then EINVAL", umad_agent },
	{ "umad: idle: poll POLLOUT only, read EAGAIN, short read EINVAL", umad_idle },
	{ "umad: a PerfMgmt Get written to the port's own GID comes back through read", umad_loop },
	{ "umad: UNREGISTER_AGENT, then EINVAL; lseek ESPIPE; close", umad_unregister },
	{ "issm: open sets IsSM, a second open EAGAIN, lseek ESPIPE, close clears IsSM", issm_cycle },
	{ "ibv_devices lists rxe0 with its node GUID", ibv_devices },
	{ "ibv_devinfo -d rxe0: port 1 PORT_ACTIVE (4), link layer Ethernet", ibv_devinfo },
	{ "uverbs: abi_version 6, rxe0's node opens; mmap EINVAL, TCGETS ENOTTY, lseek ESPIPE", verbs_open },
	{ "uverbs: GET_CONTEXT gives an async event fd, a second one EINVAL", verbs_get_context },
	{ "uverbs: QUERY_DEVICE: rxe0's node GUID, 1 port", verbs_query_device },
	{ "uverbs: RDMA_VERBS_IOCTL QUERY_PORT ACTIVE Ethernet, a wrong driver_id EINVAL", verbs_query_port },
	{ "uverbs: RDMA_VERBS_IOCTL QUERY_GID_TABLE: ::ffff:10.11.12.1 RoCE v2 on dummy0", verbs_gid_table },
	{ "uverbs: async event fd idle: poll, read EAGAIN, lseek ESPIPE", async_idle },
	{ "uverbs: dummy0 down: IB_EVENT_PORT_ERR on the async fd, port DOWN", port_down_event },
	{ "uverbs: dummy0 up: IB_EVENT_PORT_ACTIVE on the async fd, port ACTIVE", port_up_event },
	{ "uverbs: CREATE_COMP_CHANNEL fd: idle poll, read EAGAIN, O_ASYNC, lseek ESPIPE, close", comp_channel },
	{ "uverbs: the async event fd and the node close", verbs_close },
	{ "umad: a second file with a QP1 agent held open", umad_hold },
	{ "rdma link delete rxe0: rxe0 and its umad and issm nodes gone", link_delete },
	{ "rdma link show no longer lists rxe0", link_show_gone },
	{ "umad: the held file: poll POLLERR, read EIO, REGISTER_AGENT2 EPIPE, close", umad_held_dead },
	{ "rdma_cm: BIND_IP to 10.11.12.1 ENODEV without rxe0; close", cm_after_delete },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(cases),
	.devices = (const char *const[]){ UCMA_NODE, RDMA, IBV_DEVICES,
					  IBV_DEVINFO, NULL },
	.kconfig = (const char *const[]){
		"CONFIG_INFINIBAND", "CONFIG_INFINIBAND_USER_MAD",
		"CONFIG_INFINIBAND_USER_ACCESS", "CONFIG_INFINIBAND_ADDR_TRANS",
		"CONFIG_RDMA_RXE", "CONFIG_DUMMY", NULL },
	.timeout = 75,
	.upstream = "patches/core 0022 (drivers/infiniband no_llseek)",
	.cases = cases,
};
