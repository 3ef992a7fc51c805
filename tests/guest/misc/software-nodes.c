// SPDX-License-Identifier: GPL-2.0
/*
 * software-nodes - the software character devices and /proc files of the
 * misc-devices profile, each driven through its own file operations
 * beyond open: the Bluetooth virtual HCI, the AoE control nodes, the
 * pktcdvd control device, the mISDN timer device, CAPI 2.0 (/dev/capi20
 * and /proc/capi), the cachefiles, coda, dlm (control and plock) and
 * ecryptfs daemon devices, the dummy STM device, the megaraid management
 * node, the three kfifo sample /proc files, the legacy /dev/mcelog and
 * serio_raw bound to a userio port. Each case pins what the 6.1 driver
 * answers with no hardware and no daemon behind it: a value it reports,
 * the errno it refuses with, a byte that makes the round trip. Every one
 * of these files is in the coverage map (touched by the llseek series or
 * a seed-patch path).
 *
 * A node that is missing fails its case: the profile loads every module.
 * Waits are bounded: poll with a timeout, devtmpfs and uevent events, and
 * one 100 ms timer signal that ends ecryptfs's read, which has no
 * non-blocking mode.
 */
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <dirent.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <asm/mce.h>
#include <linux/capi.h>
#include <linux/dlm_device.h>
#include <linux/dlm_plock.h>
#include <linux/netlink.h>
#include <linux/pktcdvd.h>
#include <linux/serio.h>
#include <linux/stm.h>
#include <linux/userio.h>

#include "ktap.h"

/*
 * A check that says which one failed: the function, the line, the
 * expression and errno. Descriptions never contain '#'.
 */
#define CHECK(cond)							\
	((cond) ? 1 : (ktap_diag("%s:%d: %s failed, errno %d (%s)",	\
				 __func__, __LINE__, #cond, errno,	\
				 strerror(errno)), 0))

/* A call that must fail with errno e. */
#define FAILS(call, e) ((call) < 0 && errno == (e))

/*
 * poll once for POLLIN or POLLOUT, for at most ms: the revents (only those
 * two, POLLERR and POLLHUP can show), or -1.
 */
static int poll_in(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN | POLLOUT };

	if (poll(&p, 1, ms) < 0)
		return -1;
	return p.revents;
}

/* The whole of a small file (sysfs, procfs), NUL-terminated. */
static ssize_t slurp(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, len - 1) : -1;

	if (fd < 0)
		ktap_diag("open %s: %s", path, strerror(errno));
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return n;
}

static ssize_t put(int fd, const char *s)
{
	return write(fd, s, strlen(s));
}

/* ---- drivers/bluetooth/hci_vhci.c ---- */

/* Wait at most ms for POLLIN alone: the revents, or -1. */
static int wait_in(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (poll(&p, 1, ms) < 0)
		return -1;
	return p.revents;
}

/*
 * The first write must be the vendor packet 0xff OPCODE: reserved bits
 * 2-5 set are EINVAL (and still cancel the 1 s open timeout that would
 * create a controller by itself); 0x00 makes a primary controller, whose
 * index comes back first as ff 00 idx_lo idx_hi. The core then powers it
 * on from a work item and sends HCI_Reset (01 03 0c 00), which is read
 * here and answered with a Command Complete of status 0x01, so the init
 * fails at once instead of waiting out the command timeout (a raw
 * controller, 0x80, would be closed again by that work, which purges
 * the queue, index event included, racing the read). A second create is
 * EBADFD. The answer is handled by a work item, and hci_unregister_dev()
 * (on close) cancels that work before it waits for the power-on: closing
 * at once would drop the answer and block for HCI_CMD_TIMEOUT (2 s, then
 * "Opcode 0x0c03 failed: -110"). So the test waits until the monitor
 * channel has seen the event: from then the rx work owns it.
 */
#define BT_PROTO_HCI 1
#define HCI_CHANNEL_MONITOR 2
#define HCI_MON_EVENT_PKT 3

struct sockaddr_hci_ {
	sa_family_t family;
	unsigned short dev, channel;
};

/* Wait at most ms for the monitor to show event ev (len bytes). */
static int monitor_saw(int mon, const unsigned char *ev, size_t len, int ms)
{
	long long deadline = ktap_now_ms() + ms;
	unsigned char m[1024];

	for (;;) {
		long long left = deadline - ktap_now_ms();
		ssize_t n;

		while ((n = recv(mon, m, sizeof(m), MSG_DONTWAIT)) > 0)
			if (n == (ssize_t)(6 + len) && (m[0] | m[1] << 8) == HCI_MON_EVENT_PKT &&
			    !memcmp(m + 6, ev, len))
				return 1;
		if (left <= 0 || wait_in(mon, (int)left) <= 0)
			return 0;
	}
}

static int vhci_create(void)
{
	static const unsigned char bad[] = { 0xff, 0x04 }, create[] = { 0xff, 0x00 };
	static const unsigned char reset[] = { 0x01, 0x03, 0x0c, 0x00 };
	static const unsigned char fail[] = { 0x04, 0x0e, 0x04, 0x01, 0x03, 0x0c, 0x01 };
	unsigned char ev[16];
	char path[64];
	struct stat st;
	struct sockaddr_hci_ sa = { AF_BLUETOOTH, 0xffff, HCI_CHANNEL_MONITOR };
	int mon = socket(AF_BLUETOOTH, SOCK_RAW | SOCK_CLOEXEC, BT_PROTO_HCI);
	int fd = ktap_open_dev("/dev/vhci", O_RDWR | O_NONBLOCK);
	int ok = fd >= 0, idx = -1;

	ok = ok && CHECK(mon >= 0 && !bind(mon, (struct sockaddr *)&sa, sizeof(sa)));
	ok = ok && CHECK(FAILS(write(fd, bad, sizeof(bad)), EINVAL));
	ok = ok && CHECK(FAILS(write(fd, bad, 1), EINVAL));
	ok = ok && CHECK(poll_in(fd, 0) == POLLOUT);
	ok = ok && CHECK(FAILS(read(fd, ev, sizeof(ev)), EAGAIN));
	ok = ok && CHECK(write(fd, create, sizeof(create)) == sizeof(create));
	ok = ok && CHECK(wait_in(fd, 2000) & POLLIN);
	ok = ok && CHECK(read(fd, ev, sizeof(ev)) == 4);
	ok = ok && CHECK(ev[0] == 0xff && ev[1] == 0x00);
	if (ok) {
		idx = ev[2] | ev[3] << 8;
		snprintf(path, sizeof(path), "/sys/class/bluetooth/hci%d", idx);
		ktap_diag("vhci: controller hci%d", idx);
		ok = CHECK(!stat(path, &st));
	}
	ok = ok && CHECK(wait_in(fd, 3000) & POLLIN);
	ok = ok && CHECK(read(fd, ev, sizeof(ev)) == sizeof(reset) &&
			 !memcmp(ev, reset, sizeof(reset)));
	ok = ok && CHECK(write(fd, fail, sizeof(fail)) == sizeof(fail));
	ok = ok && CHECK(monitor_saw(mon, fail + 1, sizeof(fail) - 1, 3000));
	ok = ok && CHECK(FAILS(write(fd, create, sizeof(create)), EBADFD));
	close(fd);
	if (mon >= 0)
		close(mon);
	return ok;
}

/* ---- drivers/block/aoe/aoechr.c ---- */

/*
 * err has no message: a non-blocking read is EAGAIN; only err reads
 * (discover: EFAULT). interfaces sets the aoe_iflist parameter (to a name
 * no interface has, so discover below sends nothing); a list of IFLISTSZ
 * (1024) bytes is EINVAL, as is revalidate of a device AoE never saw.
 */
static int aoe_control(void)
{
	static char big[1024];
	char buf[64];
	int err = ktap_open_dev("/dev/etherd/err", O_RDONLY | O_NONBLOCK);
	int ifs = ktap_open_dev("/dev/etherd/interfaces", O_WRONLY);
	int disc = ktap_open_dev("/dev/etherd/discover", O_RDWR);
	int reval = ktap_open_dev("/dev/etherd/revalidate", O_WRONLY);
	int flush = ktap_open_dev("/dev/etherd/flush", O_WRONLY);
	int ok = err >= 0 && ifs >= 0 && disc >= 0 && reval >= 0 && flush >= 0;

	memset(big, 'x', sizeof(big));
	ok = ok && CHECK(FAILS(read(err, buf, sizeof(buf)), EAGAIN));
	ok = ok && CHECK(put(ifs, "bklaoe0") == 7);
	ok = ok && CHECK(slurp("/sys/module/aoe/parameters/aoe_iflist", buf,
			       sizeof(buf)) > 0 && !strcmp(buf, "bklaoe0\n"));
	ok = ok && CHECK(FAILS(write(ifs, big, sizeof(big)), EINVAL));
	ok = ok && CHECK(put(disc, "1") == 1);
	ok = ok && CHECK(FAILS(read(disc, buf, sizeof(buf)), EFAULT));
	ok = ok && CHECK(FAILS(put(reval, "e9.9"), EINVAL));
	ok = ok && CHECK(put(flush, "all") == 3);
	close(err);
	close(ifs);
	close(disc);
	close(reval);
	close(flush);
	return ok;
}

/* ---- drivers/block/pktcdvd.c ---- */

/*
 * PACKET_CTRL_CMD: STATUS of writer 0 is no device and MAX_WRITERS (8);
 * TEARDOWN of a packet device never set up is ENXIO; an unknown command
 * and another ioctl are ENOTTY.
 */
static int pktcdvd_control(void)
{
	struct pkt_ctrl_command c = { .command = PKT_CTRL_CMD_STATUS,
				      .dev = 1, .pkt_dev = 1 };
	int fd = ktap_open_dev("/dev/pktcdvd/control", O_RDWR);
	int ok = fd >= 0;

	ok = ok && CHECK(!ioctl(fd, PACKET_CTRL_CMD, &c));
	ok = ok && CHECK(c.num_devices == 8 && !c.dev && !c.pkt_dev);
	c = (struct pkt_ctrl_command){ .command = PKT_CTRL_CMD_TEARDOWN,
				       .pkt_dev = makedev(254, 200) };
	ok = ok && CHECK(FAILS(ioctl(fd, PACKET_CTRL_CMD, &c), ENXIO));
	c.command = 9;
	ok = ok && CHECK(FAILS(ioctl(fd, PACKET_CTRL_CMD, &c), ENOTTY));
	ok = ok && CHECK(FAILS(ioctl(fd, _IO('X', 2)), ENOTTY));
	close(fd);
	return ok;
}

/* ---- drivers/isdn/mISDN/timerdev.c ---- */

/* include/linux/mISDNif.h, not exported to user space. */
#define IMADDTIMER _IOR('I', 64, int)
#define IMDELTIMER _IOR('I', 65, int)

/*
 * Timer ids count from 1 per open. A 20 ms timer expires: poll says
 * readable and read gives its id; a deleted timer gives its id back, an
 * unknown one 0; a 0 ms timer only wakes the reader (read returns 0).
 */
static int misdn_timer(void)
{
	int fd = ktap_open_dev("/dev/mISDNtimer", O_RDWR | O_NONBLOCK);
	int ok = fd >= 0, t1 = 20, t2 = 60000, del, id = -1, zero = 0;
	char small[2];

	ok = ok && CHECK(FAILS(read(fd, small, sizeof(small)), ENOSPC));
	ok = ok && CHECK(FAILS(read(fd, &id, sizeof(id)), EAGAIN));
	ok = ok && CHECK(poll_in(fd, 0) == 0);
	ok = ok && CHECK(!ioctl(fd, IMADDTIMER, &t1) && t1 == 1);
	ok = ok && CHECK(!ioctl(fd, IMADDTIMER, &t2) && t2 == 2);
	del = 2;
	ok = ok && CHECK(!ioctl(fd, IMDELTIMER, &del) && del == 2);
	del = 99;
	ok = ok && CHECK(!ioctl(fd, IMDELTIMER, &del) && del == 0);
	ok = ok && CHECK(poll_in(fd, 2000) & POLLIN);
	ok = ok && CHECK(read(fd, &id, sizeof(id)) == sizeof(id) && id == 1);
	ok = ok && CHECK(!ioctl(fd, IMADDTIMER, &zero) && zero == 0);
	ok = ok && CHECK(poll_in(fd, 0) & POLLIN);
	ok = ok && CHECK(read(fd, &id, sizeof(id)) == 0);
	ok = ok && CHECK(FAILS(ioctl(fd, _IO('I', 66)), EINVAL));
	close(fd);
	return ok;
}

/* ---- drivers/isdn/capi/capi.c, kcapi_proc.c ---- */

#define CAPI_REGNOTINSTALLED 0x1009	/* include/linux/kernelcapi.h */

/*
 * No controller: CAPI_INSTALLED is ENXIO; controller 0 is the driver
 * itself (0 controllers, "AVM Berlin", version 2.0, serial 0004711);
 * controller 1 is EIO with CAPI_GET_ERRCODE 0x1009 (REGNOTINSTALLED).
 * Before CAPI_REGISTER read is ENODEV and poll POLLERR.
 */
static int capi_no_controller(void)
{
	capi_ioctl_struct d = { .contr = 0 };
	__u16 err = 0;
	char buf[64];
	int fd = ktap_open_dev("/dev/capi20", O_RDWR | O_NONBLOCK);
	int ok = fd >= 0;

	ok = ok && CHECK(FAILS(ioctl(fd, CAPI_INSTALLED), ENXIO));
	memset(&d, 0xff, sizeof(d));
	d.contr = 0;
	ok = ok && CHECK(!ioctl(fd, CAPI_GET_PROFILE, &d) &&
			 d.profile.ncontroller == 0);
	d.contr = 0;
	ok = ok && CHECK(!ioctl(fd, CAPI_GET_MANUFACTURER, &d) &&
			 !strcmp((char *)d.manufacturer, "AVM Berlin"));
	d.contr = 0;
	ok = ok && CHECK(!ioctl(fd, CAPI_GET_VERSION, &d) &&
			 d.version.majorversion == 2 && d.version.minorversion == 0);
	d.contr = 0;
	ok = ok && CHECK(!ioctl(fd, CAPI_GET_SERIAL, &d) &&
			 !strcmp((char *)d.serial, "0004711"));
	d.contr = 1;
	ok = ok && CHECK(FAILS(ioctl(fd, CAPI_GET_PROFILE, &d), EIO));
	d.contr = 1;
	ok = ok && CHECK(FAILS(ioctl(fd, CAPI_GET_MANUFACTURER, &d), EIO));
	ok = ok && CHECK(ioctl(fd, CAPI_GET_ERRCODE, &err) == CAPI_REGNOTINSTALLED &&
			 err == CAPI_REGNOTINSTALLED);
	ok = ok && CHECK(ioctl(fd, CAPI_GET_ERRCODE, &err) == 0);
	ok = ok && CHECK(FAILS(read(fd, buf, sizeof(buf)), ENODEV));
	ok = ok && CHECK(poll_in(fd, 0) == POLLERR);
	close(fd);
	return ok;
}

/* Does /proc/capi/NAME have a line starting with prefix? */
static int capi_proc_line(const char *name, const char *prefix)
{
	char path[64], buf[4096];

	snprintf(path, sizeof(path), "/proc/capi/%s", name);
	if (slurp(path, buf, sizeof(buf)) < 0)
		return 0;
	for (char *l = buf; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, prefix, strlen(prefix)))
			return 1;
	ktap_diag("/proc/capi/%s has no line '%s': '%s'", name, prefix, buf);
	return 0;
}

/*
 * CAPI_REGISTER works without a controller: the application id comes
 * back, /proc/capi/applications and applstats list it, /proc/capi/capi20
 * lists the open file; nothing to read (EAGAIN), poll is POLLOUT; a
 * second register is EEXIST, a message with no controller EIO
 * (REGNOTINSTALLED); a block length under 128 fails the register.
 */
static int capi_register(void)
{
	capi_register_params rp = { .level3cnt = 2, .datablkcnt = 7,
				    .datablklen = 2048 };
	/* LISTEN_REQ to controller 1: length 12, command 0x05, REQ 0x80. */
	unsigned char msg[12] = { 12, 0, 0, 0, 0x05, 0x80, 1, 0, 1, 0, 0, 0 };
	char line[64], buf[64];
	int fd = ktap_open_dev("/dev/capi20", O_RDWR | O_NONBLOCK);
	int small = ktap_open_dev("/dev/capi20", O_RDWR | O_NONBLOCK);
	int ok = fd >= 0 && small >= 0, id = -1;
	__u16 err = 0;

	ok = ok && CHECK((id = ioctl(fd, CAPI_REGISTER, &rp)) > 0);
	if (ok)
		ktap_diag("capi: application id %d", id);
	snprintf(line, sizeof(line), "%d 2 7 2048", id);
	ok = ok && CHECK(capi_proc_line("applications", line));
	snprintf(line, sizeof(line), "%d 0 0 0 0", id);
	ok = ok && CHECK(capi_proc_line("applstats", line));
	snprintf(line, sizeof(line), "0 %d 0 0 0 0", id);
	ok = ok && CHECK(capi_proc_line("capi20", line));
	ok = ok && CHECK(FAILS(read(fd, buf, sizeof(buf)), EAGAIN));
	ok = ok && CHECK(poll_in(fd, 0) == POLLOUT);
	ok = ok && CHECK(FAILS(ioctl(fd, CAPI_REGISTER, &rp), EEXIST));
	ok = ok && CHECK(FAILS(write(fd, msg, 4), EINVAL));
	ok = ok && CHECK(FAILS(write(fd, msg, sizeof(msg)), EIO));
	ok = ok && CHECK(ioctl(fd, CAPI_GET_ERRCODE, &err) == CAPI_REGNOTINSTALLED);
	rp.datablklen = 64;
	ok = ok && CHECK(FAILS(ioctl(small, CAPI_REGISTER, &rp), EIO));
	close(small);
	close(fd);
	return ok;
}

/* No controller: the controller files and the driver file are empty. */
static int capi_proc_empty(void)
{
	static const char *const names[] = {
		"/proc/capi/controller", "/proc/capi/contrstats",
		"/proc/capi/driver", "/proc/capi/capi20ncci",
	};
	char buf[256];
	int ok = 1;

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		ok = CHECK(slurp(names[i], buf, sizeof(buf)) == 0) && ok;
	return ok;
}

/* ---- fs/cachefiles/daemon.c ---- */

/*
 * The daemon device opens once; unbound, a read is 0 and poll is quiet.
 * Commands: unknown EOPNOTSUPP, an empty line EINVAL, limits checked
 * against each other (frun 200% and fcull above frun EINVAL), bind
 * without a dir EINVAL and on tmpfs (no sync_fs, no xattrs) EOPNOTSUPP.
 */
static int cachefiles_daemon(void)
{
	char buf[512];
	int fd = ktap_open_dev("/dev/cachefiles", O_RDWR);
	int again = fd >= 0 ? open("/dev/cachefiles", O_RDWR | O_CLOEXEC) : -1;
	int ok = fd >= 0;

	ok = ok && CHECK(again < 0 && errno == EBUSY);
	ok = ok && CHECK(read(fd, buf, sizeof(buf)) == 0);
	ok = ok && CHECK(poll_in(fd, 0) == 0);
	ok = ok && CHECK(FAILS(put(fd, "bklfree"), EOPNOTSUPP));
	ok = ok && CHECK(FAILS(put(fd, "\n"), EINVAL));
	ok = ok && CHECK(FAILS(put(fd, "frun 200%"), EINVAL));
	ok = ok && CHECK(put(fd, "frun 50%") == 8);
	ok = ok && CHECK(FAILS(put(fd, "fcull 60%"), EINVAL));
	ok = ok && CHECK(FAILS(put(fd, "bind"), EINVAL));
	ok = ok && CHECK(put(fd, "dir /tmp") == 8);
	ok = ok && CHECK(FAILS(put(fd, "bind"), EOPNOTSUPP));
	ok = ok && CHECK(read(fd, buf, sizeof(buf)) == 0);
	if (again >= 0)
		close(again);
	close(fd);
	return ok;
}

/* ---- fs/coda/psdev.c ---- */

/*
 * From include/uapi/linux/coda.h of 6.1, which user space cannot include
 * (it pulls in <linux/time.h> after glibc's <time.h>).
 */
#define CIOC_KERNEL_VERSION _IOWR('c', 10, size_t)
#define CODA_KERNEL_VERSION 5

/*
 * Venus's device, with no mount: one opener (EBUSY), nothing queued
 * (non-blocking read EAGAIN, a 0-byte read 0, poll POLLOUT only), its
 * kernel version by CIOC_KERNEL_VERSION, other ioctls ENOTTY, a write
 * shorter than opcode and unique EINVAL, a reply to nothing ESRCH.
 */
static int coda_psdev(void)
{
	/* opcode 2 (not a downcall), unique 42 */
	struct { uint32_t opcode, unique, result; } reply = { 2, 42, 0 };
	char buf[64];
	int fd = ktap_open_dev("/dev/cfs0", O_RDWR | O_NONBLOCK);
	int again = fd >= 0 ? open("/dev/cfs0", O_RDWR | O_CLOEXEC) : -1;
	int ok = fd >= 0, ver = 0;

	ok = ok && CHECK(again < 0 && errno == EBUSY);
	ok = ok && CHECK(FAILS(read(fd, buf, sizeof(buf)), EAGAIN));
	ok = ok && CHECK(read(fd, buf, 0) == 0);
	ok = ok && CHECK(poll_in(fd, 0) == POLLOUT);
	ok = ok && CHECK(!ioctl(fd, CIOC_KERNEL_VERSION, &ver) &&
			 ver == CODA_KERNEL_VERSION);
	ok = ok && CHECK(FAILS(ioctl(fd, _IO('c', 11)), ENOTTY));
	ok = ok && CHECK(FAILS(write(fd, &reply, 4), EINVAL));
	ok = ok && CHECK(FAILS(write(fd, &reply, sizeof(reply)), ESRCH));
	if (again >= 0)
		close(again);
	close(fd);
	return ok;
}

/* ---- fs/dlm/user.c ---- */

static int dlm_req(int fd, const uint32_t ver[3], unsigned char cmd,
		   const char *name)
{
	static char buf[sizeof(struct dlm_write_request) + 16];
	struct dlm_write_request *r = (void *)buf;

	memset(buf, 0, sizeof(buf));
	memcpy(r->version, ver, sizeof(r->version));
	r->cmd = cmd;
	r->is64bit = 1;
	if (name)
		snprintf(r->i.lspace.name, 16, "%s", name);
	return write(fd, buf, sizeof(buf));
}

/*
 * The control device: a read of exactly a struct dlm_device_version gives
 * 6.0.2, any other read EINVAL; a short write EINVAL, another major
 * version EBADE, DLM_USER_QUERY and a lock request EINVAL (neither is a
 * control command), a new lockspace ENOTCONN (no dlm_controld gave the
 * cluster a local address, so its comms cannot start), removing one that
 * is not there ENOENT.
 */
static int dlm_control(void)
{
	static const uint32_t ours[3] = { DLM_DEVICE_VERSION_MAJOR,
					  DLM_DEVICE_VERSION_MINOR,
					  DLM_DEVICE_VERSION_PATCH };
	static const uint32_t old[3] = { 5, 0, 0 };
	struct dlm_device_version v = { { 0 } };
	char buf[64];
	int fd = ktap_open_dev("/dev/dlm-control", O_RDWR);
	int ok = fd >= 0;

	ok = ok && CHECK(read(fd, &v, sizeof(v)) == sizeof(v));
	ok = ok && CHECK(v.version[0] == 6 && v.version[1] == 0 && v.version[2] == 2);
	ok = ok && CHECK(FAILS(read(fd, buf, sizeof(buf)), EINVAL));
	ok = ok && CHECK(FAILS(write(fd, buf, 4), EINVAL));
	ok = ok && CHECK(FAILS(dlm_req(fd, old, DLM_USER_QUERY, NULL), EBADE));
	ok = ok && CHECK(FAILS(dlm_req(fd, ours, DLM_USER_QUERY, NULL), EINVAL));
	ok = ok && CHECK(FAILS(dlm_req(fd, ours, DLM_USER_LOCK, NULL), EINVAL));
	ok = ok && CHECK(FAILS(dlm_req(fd, ours, DLM_USER_CREATE_LOCKSPACE,
				       "bklfree"), ENOTCONN));
	ok = ok && CHECK(FAILS(dlm_req(fd, ours, DLM_USER_REMOVE_LOCKSPACE,
				       NULL), ENOENT));
	close(fd);
	return ok;
}

/* ---- fs/dlm/plock.c ---- */

/*
 * The plock device with no cluster filesystem: nothing to send (a read
 * of a whole dlm_plock_info EAGAIN, shorter EINVAL; poll quiet); a result
 * of another major version EINVAL, a result for no request is taken.
 */
static int dlm_plock(void)
{
	struct dlm_plock_info info = {
		.version = { DLM_PLOCK_VERSION_MAJOR, DLM_PLOCK_VERSION_MINOR,
			     DLM_PLOCK_VERSION_PATCH },
		.fsid = 0xb1f,
	};
	int fd = ktap_open_dev("/dev/dlm_plock", O_RDWR);
	int ok = fd >= 0;

	ok = ok && CHECK(FAILS(read(fd, &info, sizeof(info) - 1), EINVAL));
	ok = ok && CHECK(FAILS(read(fd, &info, sizeof(info)), EAGAIN));
	ok = ok && CHECK(poll_in(fd, 0) == 0);
	ok = ok && CHECK(FAILS(write(fd, &info, sizeof(info) - 1), EINVAL));
	info.version[0] = DLM_PLOCK_VERSION_MAJOR + 1;
	ok = ok && CHECK(FAILS(write(fd, &info, sizeof(info)), EINVAL));
	info.version[0] = DLM_PLOCK_VERSION_MAJOR;
	ok = ok && CHECK(write(fd, &info, sizeof(info)) == sizeof(info));
	close(fd);
	return ok;
}

/* ---- fs/ecryptfs/miscdev.c ---- */

static void on_usr1(int sig)
{
	(void)sig;
}

/*
 * Opening makes this euid's daemon (a second open EINVAL). Nothing queued:
 * poll is quiet, and read, which has no non-blocking mode, sleeps until a
 * signal and returns 0. Writes: 0 bytes 0, HELO (5 bytes, type 100)
 * taken, a 5-byte unknown type and a 3-byte packet EINVAL.
 */
static int ecryptfs_daemon(void)
{
	static const unsigned char helo[5] = { 100 }, bogus[5] = { 7 };
	struct sigaction sa = { .sa_handler = on_usr1 };	/* no SA_RESTART */
	struct sigevent sev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR1 };
	struct itimerspec its = { .it_value = { .tv_nsec = 100000000 } };
	timer_t t;
	char buf[64];
	long long start;
	int fd = ktap_open_dev("/dev/ecryptfs", O_RDWR);
	int again = fd >= 0 ? open("/dev/ecryptfs", O_RDWR | O_CLOEXEC) : -1;
	int ok = fd >= 0;

	ok = ok && CHECK(again < 0 && errno == EINVAL);
	ok = ok && CHECK(poll_in(fd, 0) == 0);
	ok = ok && CHECK(write(fd, helo, 0) == 0);
	ok = ok && CHECK(write(fd, helo, sizeof(helo)) == sizeof(helo));
	ok = ok && CHECK(FAILS(write(fd, bogus, sizeof(bogus)), EINVAL));
	ok = ok && CHECK(FAILS(write(fd, helo, 3), EINVAL));
	ok = ok && CHECK(!sigaction(SIGUSR1, &sa, NULL) &&
			 !timer_create(CLOCK_MONOTONIC, &sev, &t));
	if (ok) {
		start = ktap_now_ms();
		ok = CHECK(!timer_settime(t, 0, &its, NULL)) &&
		     CHECK(read(fd, buf, sizeof(buf)) == 0) &&
		     CHECK(ktap_now_ms() - start >= 90);
		timer_delete(t);
	}
	if (again >= 0)
		close(again);
	close(fd);
	return ok;
}

/* ---- drivers/hwtracing/stm/core.c ---- */

#define CONFIGFS "/sys/kernel/config"

/*
 * A new writer has no channels: STP_POLICY_ID_GET is all zero,
 * STP_SET_OPTIONS ENOTTY (dummy_stm has no set_options); with no policy
 * STP_POLICY_ID_SET and write find no node (EINVAL). A policy directory
 * needs a protocol driver: without CONFIG_STM_PROTO_BASIC its mkdir is
 * ENODEV, so no write can go through here.
 */
static int stm_dummy(void)
{
	struct {
		struct stp_policy_id id;
		char name[8];
	} p = { .id = { .size = sizeof(p), .width = 1 }, .name = "default" };
	struct stp_policy_id got;
	unsigned long long opts = 0;
	int fd = ktap_open_dev("/dev/dummy_stm.0", O_RDWR);
	int ok = fd >= 0;

	memset(&got, 0xff, sizeof(got));
	ok = ok && CHECK(!ioctl(fd, STP_POLICY_ID_GET, &got));
	ok = ok && CHECK(got.size == sizeof(got) && !got.master && !got.channel &&
			 !got.width);
	ok = ok && CHECK(FAILS(ioctl(fd, STP_SET_OPTIONS, &opts), ENOTTY));
	ok = ok && CHECK(FAILS(ioctl(fd, _IO('%', 3)), ENOTTY));
	ok = ok && CHECK(FAILS(ioctl(fd, STP_POLICY_ID_SET, &p), EINVAL));
	ok = ok && CHECK(FAILS(put(fd, "bklfree"), EINVAL));
	ok = ok && CHECK(!mount("configfs", CONFIGFS, "configfs", 0, NULL) ||
			 errno == EBUSY);
	ok = ok && CHECK(FAILS(mkdir(CONFIGFS "/stp-policy/dummy_stm.0.bkl", 0755),
			       ENODEV));
	if (ok)
		ktap_diag("stm: no protocol driver (CONFIG_STM_PROTO_BASIC), "
			  "so no policy and no write that reaches dummy_stm");
	umount(CONFIGFS);
	close(fd);
	return ok;
}

/* ---- drivers/scsi/megaraid/megaraid_mm.c ---- */

/* drivers/scsi/megaraid/megaraid_mm.h and mbox_defs.h (x86_64 layout). */
struct mimd {
	uint32_t inlen, outlen;
	union {
		uint8_t fca[16];
		struct {
			uint8_t opcode, subopcode;
			uint16_t adapno;
			uint64_t buffer;
			uint32_t length;
		} __attribute__((packed)) fcs;
	} __attribute__((packed)) ui;
	uint8_t mbox[18];
	uint8_t pthru[60];
	uint64_t data;
} __attribute__((packed));

#define MEGAIOCCMD _IOWR('m', 0, struct mimd)

/*
 * No adapter: only 'm' ioctls (and USCSICMD) are taken (EINVAL); the
 * driver commands (opcode 0x82) answer the version 0x02200207 and 0
 * adapters; a command for adapter 0 is ENODEV; the new packet format
 * (its signature) is EINVAL.
 */
static int megaraid_mm(void)
{
	struct mimd m = { 0 };
	uint32_t val = 0xdeadbeef;
	int fd = ktap_open_dev("/dev/megadev0", O_RDWR);
	int ok = fd >= 0;

	ok = ok && CHECK(sizeof(m) == 110);
	ok = ok && CHECK(FAILS(ioctl(fd, _IOWR('x', 0, struct mimd), &m), EINVAL));
	m.ui.fcs.opcode = 0x82;
	m.ui.fcs.subopcode = 'e';
	m.data = (uintptr_t)&val;
	ok = ok && CHECK(ioctl(fd, MEGAIOCCMD, &m) == 0 && val == 0x02200207);
	m.ui.fcs.subopcode = 'm';
	ok = ok && CHECK(ioctl(fd, MEGAIOCCMD, &m) == 0 && val == 0);
	m.ui.fcs.opcode = 0x80;
	m.ui.fcs.adapno = 'm' << 8;
	ok = ok && CHECK(FAILS(ioctl(fd, MEGAIOCCMD, &m), ENODEV));
	memcpy(&m, "$$_EXTD_IOCTL_$$", 16);
	ok = ok && CHECK(FAILS(ioctl(fd, MEGAIOCCMD, &m), EINVAL));
	close(fd);
	return ok;
}

/* ---- samples/kfifo ---- */

/* Each sample's init empties its fifo after its self-test. */

/* 32 bytes: a 40-byte write keeps 32, read back in order, then empty. */
static int kfifo_bytestream(void)
{
	char in[40], out[64];
	int fd = ktap_open_dev("/proc/bytestream-fifo", O_RDWR);
	int ok = fd >= 0;

	for (size_t i = 0; i < sizeof(in); i++)
		in[i] = 'a' + i % 26;
	ok = ok && CHECK(read(fd, out, sizeof(out)) == 0);
	ok = ok && CHECK(write(fd, in, sizeof(in)) == 32);
	ok = ok && CHECK(write(fd, in, 1) == 0);
	ok = ok && CHECK(read(fd, out, sizeof(out)) == 32 && !memcmp(in, out, 32));
	ok = ok && CHECK(read(fd, out, sizeof(out)) == 0);
	close(fd);
	return ok;
}

/* 32 ints: writes and reads are in whole ints (13 bytes keep 12). */
static int kfifo_inttype(void)
{
	int in[40], out[64];
	int fd = ktap_open_dev("/proc/int-fifo", O_RDWR);
	int ok = fd >= 0;

	for (int i = 0; i < 40; i++)
		in[i] = 1000 + i;
	ok = ok && CHECK(write(fd, in, 13) == 12);
	ok = ok && CHECK(write(fd, in + 3, sizeof(in) - 12) == 29 * 4);
	ok = ok && CHECK(read(fd, out, 7) == 4 && out[0] == 1000);
	ok = ok && CHECK(read(fd, out, sizeof(out)) == 31 * 4 &&
			 !memcmp(out, in + 1, 31 * 4));
	ok = ok && CHECK(read(fd, out, sizeof(out)) == 0);
	close(fd);
	return ok;
}

/* 128 bytes of records with a 1-byte length: one record per read. */
static int kfifo_record(void)
{
	static char big[200];
	char out[100];
	int fd = ktap_open_dev("/proc/record-fifo", O_RDWR);
	int ok = fd >= 0;

	ok = ok && CHECK(write(fd, "hello", 5) == 5);
	ok = ok && CHECK(write(fd, "bklfree!", 8) == 8);
	ok = ok && CHECK(write(fd, big, sizeof(big)) == 0);
	ok = ok && CHECK(read(fd, out, sizeof(out)) == 5 && !memcmp(out, "hello", 5));
	ok = ok && CHECK(read(fd, out, 3) == 3 && !memcmp(out, "bkl", 3));
	ok = ok && CHECK(read(fd, out, sizeof(out)) == 0);
	close(fd);
	return ok;
}

/* ---- arch/x86/kernel/cpu/mce/dev-mcelog.c ---- */

/*
 * Record and log length (32 at least), flags; a read shorter than one
 * record is EINVAL, a whole-log read is empty; poll quiet; an O_EXCL open
 * while open EBUSY; other ioctls ENOTTY.
 */
static int mcelog(void)
{
	static struct mce log[256];
	int fd = ktap_open_dev("/dev/mcelog", O_RDONLY);
	int excl = fd >= 0 ? open("/dev/mcelog", O_RDONLY | O_EXCL | O_CLOEXEC) : -1;
	int ok = fd >= 0, rec = 0, len = 0, flags = -1;

	ok = ok && CHECK(excl < 0 && errno == EBUSY);
	ok = ok && CHECK(!ioctl(fd, MCE_GET_RECORD_LEN, &rec) &&
			 rec == sizeof(struct mce));
	ok = ok && CHECK(!ioctl(fd, MCE_GET_LOG_LEN, &len) && len >= 32 &&
			 len <= (int)ARRAY_SIZE(log));
	ok = ok && CHECK(!ioctl(fd, MCE_GETCLEAR_FLAGS, &flags) && flags >= 0);
	ok = ok && CHECK(FAILS(read(fd, log, sizeof(struct mce) - 1), EINVAL));
	ok = ok && CHECK(read(fd, log, len * sizeof(struct mce)) == 0);
	ok = ok && CHECK(poll_in(fd, 0) == 0);
	ok = ok && CHECK(FAILS(ioctl(fd, _IOR('M', 4, int), &len), ENOTTY));
	if (fd >= 0)
		ktap_diag("mcelog: record %d bytes, log %d records, flags %#x",
			  rec, len, flags);
	if (excl >= 0)
		close(excl);
	close(fd);
	return ok;
}

/* ---- drivers/input/serio/serio_raw.c (on a userio port) ---- */

static int userio_cmd(int fd, unsigned char type, unsigned char data)
{
	struct userio_cmd c = { .type = type, .data = data };

	return write(fd, &c, sizeof(c)) == sizeof(c);
}

/* The serio port of type 01 with no driver: its sysfs directory. */
static int find_port(char *dir, size_t len)
{
	DIR *d = opendir("/sys/bus/serio/devices");
	struct dirent *e;
	char path[320], buf[16];
	struct stat st;
	int found = 0;

	while (d && !found && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/bus/serio/devices/%s/id/type",
			 e->d_name);
		if (slurp(path, buf, sizeof(buf)) <= 0 || strcmp(buf, "01\n"))
			continue;
		snprintf(path, sizeof(path), "/sys/bus/serio/devices/%s/driver",
			 e->d_name);
		if (!lstat(path, &st))
			continue;
		snprintf(dir, len, "/sys/bus/serio/devices/%s", e->d_name);
		found = 1;
	}
	if (d)
		closedir(d);
	return found;
}

/*
 * The port registers from a work item: wait for it on the kernel's uevent
 * socket (events, not time), at most 3 s.
 */
static int wait_port(int nl, char *dir, size_t len)
{
	long long deadline = ktap_now_ms() + 3000;
	char ev[4096];

	while (!find_port(dir, len)) {
		long long left = deadline - ktap_now_ms();
		struct pollfd p = { .fd = nl, .events = POLLIN };

		if (left <= 0 || poll(&p, 1, (int)left) <= 0)
			return find_port(dir, len);
		while (recv(nl, ev, sizeof(ev), MSG_DONTWAIT) > 0)
			;
	}
	return 1;
}

/*
 * userio makes an 8042-type serio port; serio_raw binds to it on request
 * (drvctl, serio_raw binds manually) and makes /dev/serio_raw0. A byte the
 * port "receives" (USERIO_CMD_SEND_INTERRUPT) is read from serio_raw; bytes
 * written to serio_raw reach the port (read from /dev/userio). Nothing
 * else queued: EAGAIN. Closing the port removes the node's device.
 */
static int serio_raw_userio(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	char dir[300], path[320];
	unsigned char b[8];
	int nl = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);
	int uio = ktap_open_dev("/dev/userio", O_RDWR | O_NONBLOCK);
	int raw = -1, ctl = -1;
	int ok = uio >= 0;

	ok = ok && CHECK(nl >= 0 && !bind(nl, (struct sockaddr *)&sa, sizeof(sa)));
	ok = ok && CHECK(FAILS(write(uio, b, 1), EINVAL));
	ok = ok && CHECK(!userio_cmd(uio, USERIO_CMD_SEND_INTERRUPT, 0) &&
			 errno == ENODEV);
	ok = ok && CHECK(userio_cmd(uio, USERIO_CMD_SET_PORT_TYPE, SERIO_8042));
	ok = ok && CHECK(userio_cmd(uio, USERIO_CMD_REGISTER, 0));
	ok = ok && CHECK(wait_port(nl, dir, sizeof(dir)));
	if (ok) {
		ktap_diag("serio_raw: userio port %s", dir);
		snprintf(path, sizeof(path), "%s/drvctl", dir);
		ctl = open(path, O_WRONLY | O_CLOEXEC);
		ok = CHECK(ctl >= 0 && put(ctl, "serio_raw") == 9);
		close(ctl);
	}
	ok = ok && CHECK((raw = ktap_open_dev("/dev/serio_raw0", O_RDWR | O_NONBLOCK)) >= 0);
	ok = ok && CHECK(FAILS(read(raw, b, sizeof(b)), EAGAIN));
	ok = ok && CHECK(poll_in(raw, 0) == POLLOUT);
	ok = ok && CHECK(userio_cmd(uio, USERIO_CMD_SEND_INTERRUPT, 0xab));
	ok = ok && CHECK(userio_cmd(uio, USERIO_CMD_SEND_INTERRUPT, 0x5a));
	ok = ok && CHECK(poll_in(raw, 0) & POLLIN);
	ok = ok && CHECK(read(raw, b, sizeof(b)) == 2 && b[0] == 0xab && b[1] == 0x5a);
	ok = ok && CHECK(write(raw, "\xf4\xff", 2) == 2);
	ok = ok && CHECK(poll_in(uio, 0) & POLLIN);
	ok = ok && CHECK(read(uio, b, sizeof(b)) == 2 && b[0] == 0xf4 && b[1] == 0xff);
	ok = ok && CHECK(FAILS(read(uio, b, sizeof(b)), EAGAIN));
	if (raw >= 0)
		close(raw);
	close(uio);
	if (nl >= 0)
		close(nl);
	return ok;
}

static const struct ktap_case cases[] = {
	{ "vhci: reserved opcode bits EINVAL, a controller made, its index and HCI_Reset read back and answered, a second create EBADFD", vhci_create },
	{ "aoe: err read EAGAIN, interfaces sets aoe_iflist, discover, revalidate EINVAL, flush", aoe_control },
	{ "pktcdvd control: STATUS 8 writers and none set up, TEARDOWN ENXIO, other commands ENOTTY", pktcdvd_control },
	{ "mISDN timer: ids from 1, a 20 ms timer expires and reads back, delete, a 0 ms wakeup", misdn_timer },
	{ "capi20: no controller, INSTALLED ENXIO, controller 0 info, controller 1 EIO with errcode 0x1009", capi_no_controller },
	{ "capi20: CAPI_REGISTER listed in /proc/capi, read EAGAIN, second register EEXIST, a message EIO", capi_register },
	{ "/proc/capi: controller, contrstats, driver and capi20ncci empty", capi_proc_empty },
	{ "cachefiles: one opener, unbound read 0, commands parsed and limits checked, bind on tmpfs EOPNOTSUPP", cachefiles_daemon },
	{ "coda psdev: one opener, read EAGAIN, poll, CIOC_KERNEL_VERSION, a reply to nothing ESRCH", coda_psdev },
	{ "dlm-control: version 6.0.2 read, bad version EBADE, QUERY EINVAL, new lockspace ENOTCONN", dlm_control },
	{ "dlm_plock: nothing to read EAGAIN, poll quiet, bad version EINVAL, a stray result taken", dlm_plock },
	{ "ecryptfs: daemon open once, poll quiet, HELO taken, bad packets EINVAL, read ends at a signal", ecryptfs_daemon },
	{ "stm dummy_stm.0: POLICY_ID_GET zero, SET_OPTIONS ENOTTY, no policy so POLICY_ID_SET and write EINVAL", stm_dummy },
	{ "megaraid_mm: driver version 0x02200207, 0 adapters, adapter 0 ENODEV, new format EINVAL", megaraid_mm },
	{ "kfifo bytestream-fifo: 32 bytes written and read back", kfifo_bytestream },
	{ "kfifo int-fifo: whole ints written and read back", kfifo_inttype },
	{ "kfifo record-fifo: one record per read, a short read truncates, a record too big refused", kfifo_record },
	{ "mcelog: record and log length, short read EINVAL, empty log, O_EXCL EBUSY", mcelog },
	{ "serio_raw on a userio 8042 port: bound by drvctl, bytes both ways", serio_raw_userio },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(cases),
	.kconfig = (const char *const[]){
		"CONFIG_BT_HCIVHCI", "CONFIG_ATA_OVER_ETH", "CONFIG_CDROM_PKTCDVD",
		"CONFIG_MISDN", "CONFIG_BT_CMTP", "CONFIG_CACHEFILES",
		"CONFIG_CODA_FS", "CONFIG_DLM", "CONFIG_ECRYPT_FS_MESSAGING",
		"CONFIG_STM_DUMMY", "CONFIG_MEGARAID_MM", "CONFIG_SAMPLE_KFIFO",
		"CONFIG_X86_MCELOG_LEGACY", "CONFIG_USERIO", "CONFIG_SERIO_RAW",
		NULL },
	.timeout = 40,
	.upstream = "patches/core llseek series and the seed patch's paths",
	.cases = cases,
};
