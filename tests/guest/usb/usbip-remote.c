// SPDX-License-Identifier: GPL-2.0
/*
 * usbip-remote - usbip between two guests, the importing side
 * (usbip-remote.profile): the other guest (its peer profile, test
 * usb/usbip-export) exports QEMU's usb-storage disk with Debian's usbipd
 * on 10.0.9.1; this one, 10.0.9.2 on eth0 (virtio-net, joined to the
 * other by a QEMU datagram netdev over two unix sockets of the host), finds
 * it with "usbip list -r", imports it through vhci-hcd, reads the lab
 * pattern the host wrote into the disk image and writes and reads back a
 * block of another pattern (O_DIRECT, so both go over the network), then
 * detaches it, which the other guest sees; that guest then reads the
 * block back from its local disk.
 */
#include <fcntl.h>

#include "pattern.h"
#include "usb/usbip.h"

/* The other guest boots at the same time: a whole TCG boot, or more. */
#define PEER_WAIT_MS	120000
#define READ_SECTORS	64
#define WRITE_LBA	USBIP_REMOTE_LBA
#define WRITE_SECTORS	USBIP_REMOTE_SECTORS
#define WRITE_SEED	USBIP_REMOTE_SEED

static struct usbip_dev disk = USBIP_QEMU_DISK;

/*
 * "usbip list -r 10.0.9.1" until it lists a device of disk's VID:PID (a
 * line "  BUSID: ... (46f4:0001)"): its busid into disk.busid; 1 when
 * found in time.
 */
static int peer_lists(void)
{
	char *const argv[] = { USBIP, "list", "-r", USBIP_EXPORT_HOST, NULL };
	long long end = ktap_now_ms() + PEER_WAIT_MS;
	char out[4096], want[16];
	int rc = -1;

	snprintf(want, sizeof(want), "(%04x:%04x)", disk.vendor, disk.product);
	while (ktap_now_ms() < end) {
		const char *hit, *line;
		size_t len;

		rc = run_capture(argv, out, sizeof(out), USBIP_SECS);
		hit = rc ? NULL : strstr(out, want);
		if (hit) {
			for (line = hit; line > out && line[-1] != '\n'; line--)
				;
			line += strspn(line, " \t");
			len = strcspn(line, ":");
			if (len && len < sizeof(disk.busid)) {
				memcpy(disk.busid, line, len);
				disk.busid[len] = '\0';
				return 1;
			}
		}
		sleep(1);
	}
	ktap_diag("usbip list -r " USBIP_EXPORT_HOST " exited %d", rc);
	run_diag_output("usbip list -r", out);
	return 0;
}

/* The image's pattern read back, then a written block read back. */
static int pattern_io(const char *node)
{
	size_t size = READ_SECTORS * PATTERN_SECTOR;
	unsigned char *buf;
	int fd = open(node, O_RDWR | O_DIRECT | O_CLOEXEC), ok = 1, i;

	if (fd < 0)
		return ktap_perror(node), 0;
	if (posix_memalign((void **)&buf, 4096, size)) {
		close(fd);
		return 0;
	}
	if (pread(fd, buf, size, 0) != (ssize_t)size) {
		ktap_perror("pread of the pattern");
		ok = 0;
	}
	for (i = 0; ok && i < READ_SECTORS; i++)
		if (!pattern_check(buf + i * PATTERN_SECTOR, i, 0)) {
			ktap_diag("sector %d is not the lab pattern", i);
			ok = 0;
		}
	for (i = 0; i < WRITE_SECTORS; i++)
		pattern_fill(buf + i * PATTERN_SECTOR, WRITE_LBA + i, WRITE_SEED);
	size = WRITE_SECTORS * PATTERN_SECTOR;
	if (ok && pwrite(fd, buf, size, WRITE_LBA * PATTERN_SECTOR) != (ssize_t)size) {
		ktap_perror("pwrite");
		ok = 0;
	}
	memset(buf, 0, size);
	if (ok && pread(fd, buf, size, WRITE_LBA * PATTERN_SECTOR) != (ssize_t)size) {
		ktap_perror("pread of the written block");
		ok = 0;
	}
	for (i = 0; ok && i < WRITE_SECTORS; i++)
		if (!pattern_check(buf + i * PATTERN_SECTOR, WRITE_LBA + i,
				   WRITE_SEED)) {
			ktap_diag("written sector %d reads back wrong", WRITE_LBA + i);
			ok = 0;
		}
	free(buf);
	close(fd);
	return ok;
}

static void run(void)
{
	struct usbip_node sd = { "block", "sd", "", NULL };
	int ok;

	ktap_ok(usbip_eth0_up(USBIP_IMPORT_ADDR), "eth0 up as 10.0.9.2");
	ok = peer_lists();
	ktap_ok(ok, "usbip list -r " USBIP_EXPORT_HOST ": the other guest exports its disk %s",
		disk.busid);
	ok = ok && usbip_attach_from(&disk, USBIP_EXPORT_HOST);
	ktap_ok(ok, "usbip attach -r " USBIP_EXPORT_HOST ": vhci port %d", disk.port);
	ok = ok && usbip_wait_node(&sd);
	ktap_ok(ok, "usb-storage binds behind vhci-hcd: %s", sd.node);
	ktap_ok(ok && pattern_io(sd.node),
		"the imported disk reads the lab pattern, a written block reads back");
	ktap_ok(disk.port >= 0 && usbip_detach(&disk),
		"usbip detach: the vhci port is free again");
}

const struct ktap_test ktap_test = {
	.plan = 6,
	.devices = (const char *const[]){ "/sys/class/net/eth0", VHCI, USBIP,
					  NULL },
	.kconfig = (const char *const[]){ "CONFIG_USBIP_VHCI_HCD",
					  "CONFIG_VIRTIO_NET", NULL },
	.timeout = 200,
	.run = run,
};
