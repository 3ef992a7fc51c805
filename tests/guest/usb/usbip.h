/* SPDX-License-Identifier: GPL-2.0 */
/*
 * usbip.h - what the usbip tests share. usb/usbip-import and
 * usb/usbip-cycles: the usbip loopback of one guest. Debian's usbip
 * userland (the profile's tool= lines, run from the host's /usr) exports a
 * QEMU USB device through usbip-host (usbipd on 127.0.0.1:3240) and
 * imports it again through vhci-hcd (usbip attach), so the class driver
 * binds a second time, now behind the virtual host controller.
 * usb/usbip-export and usb/usbip-remote: the same between two guests, one
 * exporting and one importing (usbip-remote.profile and its peer).
 *
 * A device is known by its VID:PID on the local bus (its busid, "1-1")
 * and, once imported, by the vhci port that usbip attach took. The port
 * table is vhci-hcd's sysfs status file: one line per port, "hs  PORT STA
 * ...", STA 4 (VDEV_ST_NULL) for a free port; any other value after a
 * detach is a leaked port.
 */
#ifndef BKLFREE_USB_USBIP_H
#define BKLFREE_USB_USBIP_H

#include <dirent.h>
#include <limits.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "netif.h"
#include "run.h"
#include "slurp.h"

#define USBIP		"/usr/sbin/usbip"
#define USBIPD		"/usr/sbin/usbipd"
#define USBIP_PORT	3240
#define VHCI		"/sys/devices/platform/vhci_hcd.0"
#define USBIP_SECS	20
/* A port's status in VHCI/status: include/uapi/linux/usbip.h. */
#define VDEV_ST_NULL	4
#define VHCI_PORTS_MAX	64
/* Enumeration behind vhci-hcd, over TCP, under TCG: seconds, not ms. */
#define IMPORT_WAIT_MS	15000
#define PORT_FREE_MS	5000

/* The QEMU devices the profile exports (hw/usb/dev-storage.c, dev-hid.c). */
struct usbip_dev {
	const char *name;
	unsigned int vendor, product;
	char busid[NAME_MAX + 1];	/* on the local bus, once found */
	int port;		/* the vhci port while imported, else -1 */
};

/* The two QEMU devices of the usbip profile, by VID:PID. */
#define USBIP_QEMU_DISK	{ "usb-storage", 0x46f4, 0x0001, "", -1 }
#define USBIP_QEMU_KBD	{ "usb-kbd", 0x0627, 0x0001, "", -1 }

/* Brings the loopback interface up: usbipd and usbip talk over it. */
static inline int usbip_lo_up(void)
{
	return netif_up("lo");
}

/*
 * The two guests of usbip-remote.profile, joined by a QEMU socket netdev:
 * eth0 (virtio-net) of the exporting guest (its peer profile) and of the
 * importing one.
 */
#define USBIP_EXPORT_HOST	"10.0.9.1"
#define USBIP_EXPORT_ADDR	0x0a000901u
#define USBIP_IMPORT_ADDR	0x0a000902u
#define USBIP_NETMASK		0xffffff00u
/* The block usbip-remote writes over the network and the peer reads back. */
#define USBIP_REMOTE_LBA	1024
#define USBIP_REMOTE_SECTORS	8
#define USBIP_REMOTE_SEED	7

/* lo and eth0 up, eth0 with address addr (host order): 1, or 0. */
static inline int usbip_eth0_up(uint32_t addr)
{
	const char *what = "socket";
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), ok;

	ok = s >= 0 && netif_set_ipv4(s, "eth0", addr, USBIP_NETMASK, &what);
	if (ok)
		what = "eth0 up";
	ok = ok && netif_up("eth0");
	if (ok)
		what = "lo up";
	ok = ok && netif_up("lo");
	if (!ok)
		ktap_perror(what);
	if (s >= 0)
		close(s);
	return ok;
}

/* Does something accept on 127.0.0.1:3240? */
static inline int usbipd_listening(void)
{
	struct sockaddr_in a = {
		.sin_family = AF_INET,
		.sin_port = htons(USBIP_PORT),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), ok;

	if (s < 0)
		return 0;
	ok = !connect(s, (struct sockaddr *)&a, sizeof(a));
	close(s);
	return ok;
}

/* The pid of a running usbipd (its /proc/PID/comm), or 0. */
static inline pid_t usbipd_pid(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	pid_t pid = 0;

	while (d && (e = readdir(d)) && !pid) {
		char path[PATH_MAX], comm[32] = "";
		FILE *f;

		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && !strcmp(comm, "usbipd\n"))
			pid = atoi(e->d_name);
		fclose(f);
	}
	if (d)
		closedir(d);
	return pid;
}

/*
 * Starts usbipd (IPv4 only: the lab kernel has no IPv6) and waits until it
 * accepts connections. Returns its pid, or 0.
 */
static inline pid_t usbipd_start(void)
{
	char *const argv[] = { USBIPD, "-4", NULL };
	long long end = ktap_now_ms() + 5000;
	pid_t pid = run_daemon(argv);

	if (pid < 0)
		return 0;
	while (ktap_now_ms() < end) {
		if (usbipd_listening())
			return pid;
		if (waitpid(pid, NULL, WNOHANG) == pid) {
			ktap_diag("usbipd exited at once");
			return 0;
		}
		usleep(20000);
	}
	ktap_diag("usbipd does not listen on port %d", USBIP_PORT);
	return 0;
}

/* One usbip command, bounded: its exit status, output as diagnostics. */
#define usbip(...) run_diag((char *const[]){ USBIP, __VA_ARGS__, NULL }, \
			    USBIP_SECS)

/* Finds d's busid on the local (non-vhci) buses; 1 when found. */
static inline int usbip_find_local(struct usbip_dev *d)
{
	DIR *dir = opendir("/sys/bus/usb/devices");
	struct dirent *e;
	int found = 0;

	while (dir && (e = readdir(dir)) && !found) {
		char path[PATH_MAX], real[PATH_MAX], v[16], p[16];

		if (strchr(e->d_name, ':') || !strchr(e->d_name, '-'))
			continue;
		snprintf(path, sizeof(path), "/sys/bus/usb/devices/%s",
			 e->d_name);
		if (!realpath(path, real) || strstr(real, "vhci_hcd"))
			continue;
		snprintf(path, sizeof(path),
			 "/sys/bus/usb/devices/%s/idVendor", e->d_name);
		if (!read_line(path, v, sizeof(v)))
			continue;
		snprintf(path, sizeof(path),
			 "/sys/bus/usb/devices/%s/idProduct", e->d_name);
		if (!read_line(path, p, sizeof(p)))
			continue;
		if (strtoul(v, NULL, 16) == d->vendor &&
		    strtoul(p, NULL, 16) == d->product) {
			snprintf(d->busid, sizeof(d->busid), "%s", e->d_name);
			found = 1;
		}
	}
	if (dir)
		closedir(dir);
	return found;
}

/*
 * The driver bound to USB device or interface NAME ("1-1", "1-1:1.0") as
 * the last part of its driver link, in drv (size bytes); "" when unbound.
 */
static inline const char *usbip_driver_of(const char *name, char *drv,
					  size_t size)
{
	char path[PATH_MAX];
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/bus/usb/devices/%s/driver", name);
	n = readlink(path, drv, size - 1);
	if (n < 0)
		return "";
	drv[n] = '\0';
	return strrchr(drv, '/') ? strrchr(drv, '/') + 1 : drv;
}

/* The driver bound to the local device d ("usbip-host"...), or "". */
static inline const char *usbip_driver(const struct usbip_dev *d)
{
	static char drv[PATH_MAX];

	return usbip_driver_of(d->busid, drv, sizeof(drv));
}

/*
 * Reads vhci-hcd's port table: fills used[] with the ports not free and
 * returns how many, or -1 when the table cannot be read.
 */
static inline int vhci_used_ports(int used[VHCI_PORTS_MAX])
{
	FILE *f = fopen(VHCI "/status", "r");
	char line[256];
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char hub[4];
		unsigned int port, sta;

		if (sscanf(line, "%3s %u %u", hub, &port, &sta) != 3)
			continue;
		if (sta != VDEV_ST_NULL && n < VHCI_PORTS_MAX)
			used[n++] = (int)port;
	}
	fclose(f);
	return n;
}

/*
 * usbip attach of d's busid from host; d->port is the vhci port it took
 * (the one used now and not before), -1 when the attach failed. usbip
 * records its connections under /var/run/vhci_hcd.
 */
static inline int usbip_attach_from(struct usbip_dev *d, const char *host)
{
	char remote[64];
	int before[VHCI_PORTS_MAX], after[VHCI_PORTS_MAX], nb, na, i, j;

	d->port = -1;
	mkdir("/var", 0755);
	mkdir("/var/run", 0755);
	nb = vhci_used_ports(before);
	snprintf(remote, sizeof(remote), "%s", host);
	if (nb < 0 || usbip("attach", "-r", remote, "-b", d->busid))
		return 0;
	na = vhci_used_ports(after);
	for (i = 0; i < na && d->port < 0; i++) {
		for (j = 0; j < nb && before[j] != after[i]; j++)
			;
		if (j == nb)
			d->port = after[i];
	}
	return d->port >= 0;
}

/* The loopback import of the usbip profile. */
static inline int usbip_attach(struct usbip_dev *d)
{
	return usbip_attach_from(d, "127.0.0.1");
}

/*
 * usbip detach of d's port; then that port must be free again, at most
 * PORT_FREE_MS later.
 */
static inline int usbip_detach(struct usbip_dev *d)
{
	long long end = ktap_now_ms() + PORT_FREE_MS;
	int used[VHCI_PORTS_MAX], n, i;
	char port[16];

	if (d->port < 0)
		return 0;
	snprintf(port, sizeof(port), "%d", d->port);
	if (usbip("detach", "-p", port))
		return 0;
	/* vhci-hcd frees the port from its event thread, after the write. */
	for (;;) {
		n = vhci_used_ports(used);
		for (i = 0; i < n && used[i] != d->port; i++)
			;
		if (n < 0 || i == n)
			break;
		if (ktap_now_ms() > end) {
			ktap_diag("vhci port %d still in use %d ms after detach",
				  d->port, PORT_FREE_MS);
			return 0;
		}
		usleep(5000);
	}
	d->port = -1;
	return n >= 0;
}

/*
 * The first node of class (/sys/class/CLASS/PREFIX*) whose device sits
 * below vhci-hcd (or, when below is set, below the sysfs path part it
 * names) and opens, "/dev/NAME" in node; for ktap_wait_dev().
 */
struct usbip_node {
	const char *class, *prefix;
	char node[NAME_MAX + 16];
	const char *below;
};

static inline int usbip_node_scan(void *arg)
{
	struct usbip_node *w = arg;
	char dir[64], path[PATH_MAX], real[PATH_MAX];
	DIR *d;
	struct dirent *e;
	int fd;

	snprintf(dir, sizeof(dir), "/sys/class/%s", w->class);
	d = opendir(dir);
	w->node[0] = '\0';
	while (d && (e = readdir(d)) && !w->node[0]) {
		if (strncmp(e->d_name, w->prefix, strlen(w->prefix)))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (!realpath(path, real) ||
		    !strstr(real, w->below ? w->below : "vhci_hcd"))
			continue;
		snprintf(w->node, sizeof(w->node), "/dev/%s%s",
			 strcmp(w->class, "input") ? "" : "input/",
			 e->d_name);
		if (access(w->node, F_OK))
			w->node[0] = '\0';
	}
	if (d)
		closedir(d);
	if (!w->node[0])
		return KTAP_WAIT;
	/* A new disk's node exists a moment before it opens (ENXIO). */
	fd = open(w->node, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 && (errno == ENXIO || errno == ENODEV)) {
		w->node[0] = '\0';
		return KTAP_BUSY;
	}
	if (fd >= 0)
		close(fd);
	return KTAP_READY;
}

/* Waits for an imported device's node; 1 when w->node names it. */
static inline int usbip_wait_node(struct usbip_node *w)
{
	ktap_wait_dev(strcmp(w->class, "input") ? NULL : "/dev/input",
		      usbip_node_scan, w, IMPORT_WAIT_MS);
	return w->node[0] != '\0';
}

#endif /* BKLFREE_USB_USBIP_H */
