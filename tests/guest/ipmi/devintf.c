// SPDX-License-Identifier: GPL-2.0
/*
 * devintf - talk to QEMU's simulated BMC (ipmi-bmc-sim behind isa-ipmi-kcs)
 * through /dev/ipmi0.
 *
 * The kernel finds the KCS interface the way it finds a real server's
 * BMC without ACPI: from the SMBIOS type 38 record the firmware (here
 * SeaBIOS, fed by QEMU) publishes. The test checks that ipmi0 hangs off
 * the dmi-ipmi-si platform device at KCS port 0xca2, then sends requests
 * to the system interface address with IPMICTL_SEND_COMMAND, waits for
 * each response with poll() (bounded) and takes it with
 * IPMICTL_RECEIVE_MSG_TRUNC. Every response must carry our msgid, the
 * response netfn, the command and the system interface address, and its
 * data must match what ipmi-bmc-sim answers with its default properties:
 *
 *   - Get Device ID: device 0x20, revision 0, firmware 0.0, IPMI 2.0,
 *     sensor, SDR repository and SEL support (0x07), manufacturer and
 *     product 0, the same device id the kernel parsed into ipmi_bmc.0;
 *   - Get Chassis Status: power on, restore policy unknown (0x61);
 *   - Set then Get ACPI Power State round trips S1/D3, then S0/D0;
 *   - completion codes: a short Set ACPI Power State gets 0xc7 (request
 *     data length invalid); Get Self Test Results, which ipmi-bmc-sim
 *     does not implement, an unassigned App command and an unregistered
 *     OEM netfn get 0xc1 (invalid command).
 *
 * And the receive ABI: IPMICTL_RECEIVE_MSG into a too-small buffer fails
 * with EMSGSIZE and leaves the message queued; IPMICTL_RECEIVE_MSG_TRUNC
 * then returns it truncated (EMSGSIZE, data_len cut) and dequeues it; an
 * empty queue gives EAGAIN; Get Message, whose sequence numbers the
 * message handler owns, is refused at send with EINVAL.
 *
 * This guards the IPMI device interface (drivers/char/ipmi/ipmi_devintf.c),
 * whose file operations ran under the BKL until Arnd Bergmann's scripted
 * conversion to private mutexes (upstream 609146fdb319, "ipmi:
 * autoconvert trivial BKL users to private mutex").
 */
#include <fcntl.h>
#include <linux/ipmi.h>
#include <poll.h>
#include <sys/ioctl.h>

#include "ktap.h"

#define IPMI_DEV "/dev/ipmi0"
#define IPMI_CLASS_DEVICE "/sys/class/ipmi/ipmi0/device"
#define SI_DEVICE "dmi-ipmi-si.0"
#define SI_PARAMS "kcs,i/o,0xca2,"
#define BMC_DEVICE_ID "/sys/bus/platform/devices/ipmi_bmc.0/device_id"
#define RSP_WAIT_MS 3000

#define NETFN_CHASSIS 0x00
#define NETFN_APP 0x06
#define NETFN_OEM 0x30

#define CC_OK 0x00
#define CC_INVALID_CMD 0xc1
#define CC_LENGTH_INVALID 0xc7

#define MAX_DATA 16

static const struct tcase {
	const char *name;
	unsigned char netfn, cmd;
	unsigned char req[2];
	unsigned short req_len;
	unsigned char rsp[MAX_DATA];	/* completion code first */
	unsigned short rsp_len;
} tcases[] = {
	{ "Get Device ID", NETFN_APP, 0x01, { 0 }, 0,
	  { CC_OK, 0x20, 0x00, 0x00, 0x00, 0x02, 0x07, 0, 0, 0, 0, 0 }, 12 },
	{ "Get Chassis Status", NETFN_CHASSIS, 0x01, { 0 }, 0,
	  { CC_OK, 0x61, 0x00, 0x00, 0x00 }, 5 },
	{ "Set ACPI Power State S1 D3", NETFN_APP, 0x06, { 0x81, 0x83 }, 2,
	  { CC_OK }, 1 },
	{ "Get ACPI Power State", NETFN_APP, 0x07, { 0 }, 0,
	  { CC_OK, 0x81, 0x83 }, 3 },
	{ "Set ACPI Power State S0 D0", NETFN_APP, 0x06, { 0x80, 0x80 }, 2,
	  { CC_OK }, 1 },
	{ "Set ACPI Power State without its second byte", NETFN_APP, 0x06,
	  { 0x81 }, 1, { CC_LENGTH_INVALID }, 1 },
	{ "Get Self Test Results, not in ipmi-bmc-sim", NETFN_APP, 0x04,
	  { 0 }, 0, { CC_INVALID_CMD }, 1 },
	{ "unassigned App command 0x5f", NETFN_APP, 0x5f, { 0 }, 0,
	  { CC_INVALID_CMD }, 1 },
	{ "OEM netfn 0x30 command 0x01", NETFN_OEM, 0x01, { 0 }, 0,
	  { CC_INVALID_CMD }, 1 },
};

/* Cases outside the table: see run(). */
#define OTHER_CASES 8

static int fd = -1;
static long next_msgid = 100;
static int device_id = -1;	/* from our Get Device ID */

static int send_req(unsigned char netfn, unsigned char cmd,
		    const unsigned char *data, unsigned short len, long msgid)
{
	struct ipmi_system_interface_addr si = {
		.addr_type = IPMI_SYSTEM_INTERFACE_ADDR_TYPE,
		.channel = IPMI_BMC_CHANNEL,
		.lun = 0,
	};
	struct ipmi_req req = {
		.addr = (unsigned char *)&si,
		.addr_len = sizeof(si),
		.msgid = msgid,
		.msg = {
			.netfn = netfn,
			.cmd = cmd,
			.data = (unsigned char *)data,
			.data_len = len,
		},
	};

	return ioctl(fd, IPMICTL_SEND_COMMAND, &req);
}

static int wait_rsp(int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	return poll(&pfd, 1, ms) == 1 && (pfd.revents & POLLIN);
}

struct rsp {
	struct ipmi_system_interface_addr si;
	struct ipmi_recv recv;
	unsigned char data[MAX_DATA];
};

static int recv_rsp(unsigned long cmd, struct rsp *r, unsigned short room)
{
	memset(r, 0, sizeof(*r));
	r->recv.addr = (unsigned char *)&r->si;
	r->recv.addr_len = sizeof(r->si);
	r->recv.msg.data = r->data;
	r->recv.msg.data_len = room;
	return ioctl(fd, cmd, &r->recv);
}

/* The response's envelope: ours, a response, from the BMC. */
static int envelope_ok(const struct rsp *r, unsigned char netfn,
		       unsigned char cmd, long msgid)
{
	int ok = r->recv.recv_type == IPMI_RESPONSE_RECV_TYPE &&
		 r->recv.msgid == msgid && r->recv.msg.netfn == (netfn | 1) &&
		 r->recv.msg.cmd == cmd &&
		 r->si.addr_type == IPMI_SYSTEM_INTERFACE_ADDR_TYPE &&
		 r->si.channel == IPMI_BMC_CHANNEL;

	if (!ok)
		ktap_diag("recv_type %d msgid %ld netfn 0x%02x cmd 0x%02x "
			  "addr_type 0x%x channel 0x%x", r->recv.recv_type, r->recv.msgid, r->recv.msg.netfn,
			  r->recv.msg.cmd, r->si.addr_type, r->si.channel);
	return ok;
}

static void diag_data(const char *what, const unsigned char *d, int len)
{
	char hex[3 * MAX_DATA + 1] = "";
	int i;

	for (i = 0; i < len && i < MAX_DATA; i++)
		snprintf(hex + 3 * i, sizeof(hex) - 3 * i, " %02x", d[i]);
	ktap_diag("%s:%s", what, hex);
}

static void exchange(const struct tcase *tc)
{
	long msgid = next_msgid++;
	struct rsp r;
	int ok;

	ok = !send_req(tc->netfn, tc->cmd, tc->req, tc->req_len, msgid);
	if (!ok)
		ktap_perror("IPMICTL_SEND_COMMAND");
	ok = ok && wait_rsp(RSP_WAIT_MS);
	ok = ok && !recv_rsp(IPMICTL_RECEIVE_MSG_TRUNC, &r, MAX_DATA);
	ok = ok && envelope_ok(&r, tc->netfn, tc->cmd, msgid);
	ok = ok && r.recv.msg.data_len == tc->rsp_len &&
	     !memcmp(r.data, tc->rsp, tc->rsp_len);
	if (!ktap_ok(ok,
		     "%s: completion code 0x%02x, %u data bytes as expected",
		     tc->name, tc->rsp[0], tc->rsp_len - 1)) {
		diag_data("expected", tc->rsp, tc->rsp_len);
		diag_data("received", r.data, r.recv.msg.data_len);
	}
	if (tc->netfn == NETFN_APP && tc->cmd == 0x01 && ok)
		device_id = r.data[1];
}

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return ktap_perror(path) + 1;
	ok = fgets(buf, len, f) != NULL;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

static void test_discovery(void)
{
	char target[256] = "", params[256] = "", path[300];
	ssize_t n = readlink(IPMI_CLASS_DEVICE, target, sizeof(target) - 1);
	const char *base;

	if (n > 0)
		target[n] = '\0';
	base = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
	snprintf(path, sizeof(path), "%s/params", IPMI_CLASS_DEVICE);
	read_line(path, params, sizeof(params));
	ktap_diag("ipmi0 on %s, params %s", base, params);
	ktap_ok(!strcmp(base, SI_DEVICE) &&
		!strncmp(params, SI_PARAMS, strlen(SI_PARAMS)),
		"ipmi0 found through SMBIOS type 38 as %s, KCS at 0xca2",
		SI_DEVICE);
}

static void test_receive_abi(void)
{
	static const unsigned char none[1];
	long msgid = next_msgid++;
	struct rsp r;
	int r1, e1, queued, r2, e2;

	if (send_req(NETFN_APP, 0x01, none, 0, msgid) || !wait_rsp(RSP_WAIT_MS))
		ktap_perror("Get Device ID for the receive checks");
	errno = 0;
	r1 = recv_rsp(IPMICTL_RECEIVE_MSG, &r, 4);
	e1 = errno;
	queued = wait_rsp(0);
	ktap_ok(r1 == -1 && e1 == EMSGSIZE && queued,
		"IPMICTL_RECEIVE_MSG into 4 bytes fails with EMSGSIZE, message stays queued");

	errno = 0;
	r2 = recv_rsp(IPMICTL_RECEIVE_MSG_TRUNC, &r, 4);
	e2 = errno;
	ktap_ok(r2 == -1 && e2 == EMSGSIZE && r.recv.msg.data_len == 4 &&
		envelope_ok(&r, NETFN_APP, 0x01, msgid) && r.data[0] == CC_OK &&
		r.data[1] == 0x20,
		"IPMICTL_RECEIVE_MSG_TRUNC into 4 bytes returns the head with EMSGSIZE");
	ktap_ok(!wait_rsp(0), "the truncated message left the queue");

	errno = 0;
	ktap_ok(recv_rsp(IPMICTL_RECEIVE_MSG_TRUNC, &r, MAX_DATA) == -1 &&
		errno == EAGAIN, "receive on an empty queue fails with EAGAIN");

	errno = 0;
	ktap_ok(send_req(NETFN_APP, 0x33, none, 0, next_msgid++) == -1 &&
		errno == EINVAL, "Get Message is refused at send with EINVAL");
}

static void run(void)
{
	char sysfs_id[32] = "";
	size_t i;

	test_discovery();
	fd = open(IPMI_DEV, O_RDWR);
	if (fd < 0)
		ktap_bail("open %s: %s", IPMI_DEV, strerror(errno));

	for (i = 0; i < ARRAY_SIZE(tcases); i++)
		exchange(&tcases[i]);

	read_line(BMC_DEVICE_ID, sysfs_id, sizeof(sysfs_id));
	ktap_ok(device_id >= 0 && atoi(sysfs_id) == device_id,
		"the kernel's ipmi_bmc.0 device_id %s matches the response",
		sysfs_id);
	ktap_ok(!wait_rsp(0), "no message left queued after the exchanges");

	test_receive_abi();
	close(fd);
}

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(tcases) + OTHER_CASES,
	.devices = (const char *const[]){ IPMI_DEV, NULL },
	.kconfig = (const char *const[]){ "CONFIG_IPMI_DEVICE_INTERFACE",
		"CONFIG_IPMI_SI", NULL },
	.timeout = 30,
	.upstream = "609146fdb319",
	.run = run,
};
