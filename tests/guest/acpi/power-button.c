// SPDX-License-Identifier: GPL-2.0
/*
 * power-button - ACPI events over generic netlink (drivers/acpi/event.c):
 * the "acpi_event" family's "acpi_mc_group" multicast group, fed by the
 * button driver (module button) when QEMU presses the power button of
 * -M pc (the acpi-pc profile's inject= lines send system_powerdown, a
 * fixed-feature power button event through the SCI; nothing in the guest
 * acts on it, so the guest keeps running).
 *
 * Each case pins what 6.1 does:
 *   - CTRL_CMD_GETFAMILY "acpi_event" answers with version 1 and a
 *     multicast group "acpi_mc_group";
 *   - after NETLINK_ADD_MEMBERSHIP of that group, each press gives one
 *     ACPI_GENL_CMD_EVENT message within 10 s whose ACPI_GENL_ATTR_EVENT
 *     is struct acpi_genl_event { "button/power", "LNXPWRBN:00", type
 *     0x80 (ACPI_BUTTON_NOTIFY_STATUS), data the press count };
 *   - the second press counts 2, and nothing else comes for 500 ms.
 */
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <stdint.h>
#include <sys/socket.h>

#include "ktap.h"

#define FAMILY "acpi_event"
#define GROUP "acpi_mc_group"
/* From drivers/acpi/event.c (not uapi). */
#define ACPI_GENL_CMD_EVENT 1
#define ACPI_GENL_ATTR_EVENT 1
struct acpi_genl_event {
	char device_class[20];
	char bus_id[15];
	uint32_t type;
	uint32_t data;
};
#define EVENT_WAIT_MS 10000
#define QUIET_MS 500

static int sock = -1;
static uint16_t family_id;
static uint32_t group_id;
static uint32_t family_version;

struct msg {
	struct nlmsghdr n;
	struct genlmsghdr g;
	char buf[4096];
};

static struct nlattr *attr_next(struct nlattr *a, int *left)
{
	int len = NLA_ALIGN(a->nla_len);

	*left -= len;
	return (struct nlattr *)((char *)a + len);
}

static int attr_ok(const struct nlattr *a, int left)
{
	return left >= (int)sizeof(*a) && a->nla_len >= sizeof(*a) &&
	       a->nla_len <= left;
}

#define ATTR_DATA(a) ((void *)((char *)(a) + NLA_HDRLEN))
#define ATTR_LEN(a) ((int)(a)->nla_len - NLA_HDRLEN)

/* The multicast group named GROUP in a CTRL_ATTR_MCAST_GROUPS nest. */
static void find_group(struct nlattr *nest)
{
	int left = ATTR_LEN(nest), l2;
	struct nlattr *g, *a;

	for (g = ATTR_DATA(nest); attr_ok(g, left); g = attr_next(g, &left)) {
		uint32_t id = 0;
		const char *name = NULL;

		l2 = ATTR_LEN(g);
		for (a = ATTR_DATA(g); attr_ok(a, l2); a = attr_next(a, &l2)) {
			if (a->nla_type == CTRL_ATTR_MCAST_GRP_ID)
				memcpy(&id, ATTR_DATA(a), sizeof(id));
			else if (a->nla_type == CTRL_ATTR_MCAST_GRP_NAME)
				name = ATTR_DATA(a);
		}
		if (name && !strcmp(name, GROUP))
			group_id = id;
	}
}

static int resolve_family(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct msg req = { 0 }, ans;
	struct nlattr *a;
	int left;
	ssize_t n;

	sock = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (sock < 0 || bind(sock, (struct sockaddr *)&sa, sizeof(sa)))
		return 0;
	req.n.nlmsg_type = GENL_ID_CTRL;
	req.n.nlmsg_flags = NLM_F_REQUEST;
	req.n.nlmsg_seq = 1;
	req.g.cmd = CTRL_CMD_GETFAMILY;
	req.g.version = 1;
	a = (struct nlattr *)req.buf;
	a->nla_type = CTRL_ATTR_FAMILY_NAME;
	a->nla_len = NLA_HDRLEN + sizeof(FAMILY);
	memcpy(ATTR_DATA(a), FAMILY, sizeof(FAMILY));
	req.n.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN + NLA_ALIGN(a->nla_len));
	if (send(sock, &req, req.n.nlmsg_len, 0) < 0)
		return 0;
	n = recv(sock, &ans, sizeof(ans), 0);
	if (n < (ssize_t)NLMSG_LENGTH(GENL_HDRLEN) ||
	    ans.n.nlmsg_type != GENL_ID_CTRL) {
		if (n > 0 && ans.n.nlmsg_type == NLMSG_ERROR)
			ktap_diag("GETFAMILY error %d",
				  ((struct nlmsgerr *)NLMSG_DATA(&ans.n))->error);
		return 0;
	}
	left = (int)ans.n.nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
	for (a = (struct nlattr *)ans.buf; attr_ok(a, left);
	     a = attr_next(a, &left)) {
		if (a->nla_type == CTRL_ATTR_FAMILY_ID)
			memcpy(&family_id, ATTR_DATA(a), sizeof(family_id));
		else if (a->nla_type == CTRL_ATTR_VERSION)
			memcpy(&family_version, ATTR_DATA(a),
			       sizeof(family_version));
		else if (a->nla_type == (CTRL_ATTR_MCAST_GROUPS | NLA_F_NESTED) ||
			 a->nla_type == CTRL_ATTR_MCAST_GROUPS)
			find_group(a);
	}
	ktap_diag("family %s id %u version %u, group %s id %u", FAMILY,
		  family_id, family_version, GROUP, group_id);
	return family_id && family_version == 1 && group_id;
}

static int join(void)
{
	return !setsockopt(sock, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP,
			   &group_id, sizeof(group_id));
}

/* The next ACPI event within ms: 1 and *ev, or 0. */
static int next_event(struct acpi_genl_event *ev, int ms)
{
	struct pollfd p = { .fd = sock, .events = POLLIN };
	long long t0 = ktap_now_ms();
	struct msg m;
	struct nlattr *a;
	int left, r;
	ssize_t n;

	r = poll(&p, 1, ms);
	if (r != 1)
		return 0;
	n = recv(sock, &m, sizeof(m), MSG_DONTWAIT);
	ktap_diag("%zd bytes after %lld ms", n, ktap_now_ms() - t0);
	if (n < (ssize_t)NLMSG_LENGTH(GENL_HDRLEN) ||
	    m.n.nlmsg_type != family_id || m.g.cmd != ACPI_GENL_CMD_EVENT)
		return 0;
	left = (int)m.n.nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
	for (a = (struct nlattr *)m.buf; attr_ok(a, left); a = attr_next(a, &left)) {
		if (a->nla_type != ACPI_GENL_ATTR_EVENT ||
		    ATTR_LEN(a) != sizeof(*ev))
			continue;
		memcpy(ev, ATTR_DATA(a), sizeof(*ev));
		ev->device_class[sizeof(ev->device_class) - 1] = '\0';
		ev->bus_id[sizeof(ev->bus_id) - 1] = '\0';
		ktap_diag("event %s %s type 0x%x data %u", ev->device_class,
			  ev->bus_id, ev->type, ev->data);
		return 1;
	}
	return 0;
}

static int press(const char *tag, uint32_t nth)
{
	struct acpi_genl_event ev;

	ktap_diag("bklfree-inject: %s", tag);
	return next_event(&ev, EVENT_WAIT_MS) &&
	       !strcmp(ev.device_class, "button/power") &&
	       !strcmp(ev.bus_id, "LNXPWRBN:00") && ev.type == 0x80 &&
	       ev.data == nth;
}

static int press1(void)
{
	return press("acpi-power-1", 1);
}

static int press2(void)
{
	struct acpi_genl_event ev;

	return press("acpi-power-2", 2) && !next_event(&ev, QUIET_MS) &&
	       !close(sock);
}

static const struct ktap_case cases[] = {
	{ "CTRL_CMD_GETFAMILY " FAMILY ": version 1, group " GROUP, resolve_family },
	{ "join the " GROUP " multicast group", join },
	{ "power button: button/power LNXPWRBN:00 type 0x80 data 1 within 10 s", press1 },
	{ "again: data 2, then nothing for 500 ms", press2 },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(cases),
	.kconfig = (const char *const[]){ "CONFIG_ACPI", "CONFIG_ACPI_BUTTON",
		NULL },
	.timeout = 30,
	.upstream = "drivers/acpi/event.c (seed path)",
	.cases = cases,
};
