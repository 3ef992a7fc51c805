// SPDX-License-Identifier: GPL-2.0
/*
 * chardev-fops - the software character devices of the chardev-misc
 * profile, each driven through its own file_operations beyond open:
 * uinput, uhid, userio, uleds, tun, device-mapper control, fuse and cuse,
 * rfkill, ublk control, pps (pps-ktimer), the gpiolib character device
 * (gpio-mockup), vhost-net and lirc (rc-loopback). Every one of these
 * files is touched by the llseek series (patches/core), so each case pins
 * a behaviour of the driver (a version, a registration, an answer of its
 * protocol) and, where the driver refuses seeking, that lseek still says
 * ESPIPE; the lseek ABI walk records every node before and after.
 *
 * A node that is missing fails its case: the profile loads every module.
 */
#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <net/if.h>
#include <linux/dm-ioctl.h>
#include <linux/fuse.h>
#include <linux/gpio.h>
#include <linux/if_tun.h>
#include <linux/lirc.h>
#include <linux/pps.h>
#include <linux/rfkill.h>
#include <linux/uinput.h>
#include <linux/uleds.h>
#include <linux/vhost.h>

#include "ktap.h"

/* open PATH, or say why not and return -1. */
static int node(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC);

	if (fd < 0)
		ktap_diag("open %s: %s", path, strerror(errno));
	return fd;
}

/* Nothing to read: a non-blocking read fails with EAGAIN. */
static int read_eagain(int fd)
{
	char buf[256];

	return read(fd, buf, sizeof(buf)) < 0 && errno == EAGAIN;
}

/* poll answers without error and without POLLIN. */
static int poll_not_readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) >= 0 && !(p.revents & (POLLIN | POLLERR | POLLNVAL));
}

static int uinput_version(void)
{
	int fd = node("/dev/uinput", O_WRONLY | O_NONBLOCK);
	unsigned int v = 0;
	int ok = fd >= 0 && !ioctl(fd, UI_GET_VERSION, &v) && v >= 5;

	if (fd >= 0)
		ktap_diag("uinput version %u", v);
	close(fd);
	return ok;
}

/* A node with nothing queued: read EAGAIN, poll not readable. */
static int idle(const char *path, int flags)
{
	int fd = node(path, flags | O_NONBLOCK);
	int ok = fd >= 0 && read_eagain(fd) && poll_not_readable(fd);

	close(fd);
	return ok;
}

static int uhid_idle(void)
{
	return idle("/dev/uhid", O_RDWR);
}

static int userio_idle(void)
{
	return idle("/dev/userio", O_RDWR);
}

/* Writing the setup registers an LED; closing removes it. */
static int uleds_register(void)
{
	struct uleds_user_dev dev = { .name = "bklfree::test", .max_brightness = 1 };
	struct stat st;
	int fd = node("/dev/uleds", O_RDWR);
	int ok = fd >= 0 && write(fd, &dev, sizeof(dev)) == sizeof(dev) &&
		 !stat("/sys/class/leds/bklfree::test", &st);

	close(fd);
	return ok && stat("/sys/class/leds/bklfree::test", &st) && errno == ENOENT;
}

/* TUNSETIFF makes an interface; with no packet a read is EAGAIN. */
static int tun_interface(void)
{
	struct ifreq ifr = { .ifr_flags = IFF_TUN | IFF_NO_PI };
	struct stat st;
	int fd = node("/dev/net/tun", O_RDWR | O_NONBLOCK);
	int ok;

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "bkltun0");
	ok = fd >= 0 && !ioctl(fd, TUNSETIFF, &ifr) &&
	     !stat("/sys/class/net/bkltun0", &st) && read_eagain(fd);
	close(fd);
	return ok;
}

static int dm_version(void)
{
	struct dm_ioctl io = {
		.version = { DM_VERSION_MAJOR, 0, 0 },
		.data_size = sizeof(io),
	};
	int fd = node("/dev/mapper/control", O_RDWR);
	int ok = fd >= 0 && !ioctl(fd, DM_VERSION, &io) &&
		 io.version[0] == DM_VERSION_MAJOR;

	close(fd);
	return ok;
}

/* /dev/fuse not yet given to a mount refuses to be read: EPERM. */
static int fuse_unmounted(void)
{
	char buf[FUSE_MIN_READ_BUFFER];
	int fd = node("/dev/fuse", O_RDWR | O_NONBLOCK);
	int ok = fd >= 0 && read(fd, buf, sizeof(buf)) < 0 && errno == EPERM;

	close(fd);
	return ok;
}

/* Opening /dev/cuse queues CUSE_INIT, the first request a server reads. */
static int cuse_init(void)
{
	static char buf[FUSE_MIN_READ_BUFFER];
	struct fuse_in_header *h = (void *)buf;
	int fd = node("/dev/cuse", O_RDWR | O_NONBLOCK);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf)) : -1;
	int ok = n >= (ssize_t)sizeof(*h) && h->opcode == CUSE_INIT;

	if (n >= (ssize_t)sizeof(*h))
		ktap_diag("cuse: first request opcode %u, %zd bytes", h->opcode, n);
	close(fd);
	return ok;
}

/* No rfkill switch in the guest: nothing to read. */
static int rfkill_idle(void)
{
	return idle("/dev/rfkill", O_RDONLY);
}

/* The ublk control device is not seekable (patches/core 0103). */
static int ublk_control(void)
{
	int fd = node("/dev/ublk-control", O_RDWR);
	int ok = fd >= 0 && lseek(fd, 0, SEEK_SET) < 0 && errno == ESPIPE;

	close(fd);
	return ok;
}

static int pps_ktimer(void)
{
	int fd = node("/dev/pps0", O_RDWR);
	int caps = 0;
	struct pps_kparams p;
	int ok = fd >= 0 && !ioctl(fd, PPS_GETCAP, &caps) &&
		 (caps & PPS_CAPTUREASSERT) && !ioctl(fd, PPS_GETPARAMS, &p);

	close(fd);
	return ok;
}

/* gpio-mockup makes one chip of 8 lines (its module parameters). */
static int gpio_chipinfo(void)
{
	struct gpiochip_info info = { 0 };
	int fd = node("/dev/gpiochip0", O_RDWR);
	int ok = fd >= 0 && !ioctl(fd, GPIO_GET_CHIPINFO_IOCTL, &info) &&
		 info.lines == 8;

	if (fd >= 0)
		ktap_diag("gpiochip0: %s, %u lines", info.label, info.lines);
	close(fd);
	return ok;
}

static int vhost_net_owner(void)
{
	unsigned long long features = 0;
	int fd = node("/dev/vhost-net", O_RDWR);
	int ok = fd >= 0 && !ioctl(fd, VHOST_GET_FEATURES, &features) &&
		 features && !ioctl(fd, VHOST_SET_OWNER);

	close(fd);
	return ok;
}

/* rc-loopback sends pulses: its lirc node says so. */
static int lirc_features(void)
{
	unsigned int features = 0;
	int fd = node("/dev/lirc0", O_RDWR | O_NONBLOCK);
	int ok = fd >= 0 && !ioctl(fd, LIRC_GET_FEATURES, &features) &&
		 (features & LIRC_CAN_SEND_PULSE);

	close(fd);
	return ok;
}

static const struct ktap_case cases[] = {
	{ "uinput: UI_GET_VERSION is 5 or more", uinput_version },
	{ "uhid: idle, read EAGAIN and poll not readable", uhid_idle },
	{ "userio: idle, read EAGAIN and poll not readable", userio_idle },
	{ "uleds: the setup write registers the LED, close removes it", uleds_register },
	{ "tun: TUNSETIFF makes bkltun0, read EAGAIN", tun_interface },
	{ "device-mapper control: DM_VERSION", dm_version },
	{ "fuse: read before a mount is EPERM", fuse_unmounted },
	{ "cuse: the first read is CUSE_INIT", cuse_init },
	{ "rfkill: no switch, read EAGAIN and poll not readable", rfkill_idle },
	{ "ublk control: lseek is ESPIPE", ublk_control },
	{ "pps-ktimer: PPS_GETCAP assert capture, PPS_GETPARAMS", pps_ktimer },
	{ "gpio-mockup: GPIO_GET_CHIPINFO_IOCTL gives 8 lines", gpio_chipinfo },
	{ "vhost-net: VHOST_GET_FEATURES, VHOST_SET_OWNER", vhost_net_owner },
	{ "lirc (rc-loopback): LIRC_GET_FEATURES can send pulses", lirc_features },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(cases),
	.timeout = 30,
	.upstream = "patches/core llseek series (no_llseek removal, 0103)",
	.cases = cases,
};
