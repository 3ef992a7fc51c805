// SPDX-License-Identifier: GPL-2.0
/*
 * usbmon-capture - the USB monitor watching real traffic (issue 12, part
 * 3): one 4 KiB O_DIRECT write to the disk usb/usbip-import imported, and
 * what usbmon captures of it on both sides of the usbip loopback. On the
 * vhci-hcd bus usb-storage sends it; on the local xHCI bus usbip-host
 * replays it to QEMU's disk. On each bus the capture must hold the
 * Bulk-Only transport's three stages for exactly this write: the command
 * block wrapper with WRITE(10) at our LBA for 8 blocks, the 4096 data
 * bytes equal to what was written, and a good command status wrapper.
 *
 * Read through all of mon_bin's interfaces at once: /dev/usbmon0 (every
 * bus) with its ring mmap'ed and the events fetched with MON_IOCX_MFETCH,
 * its statistics (nothing dropped), and the debugfs text file of the vhci
 * bus ("NNu"), which must show the submission of the same command block.
 *
 * The monitor's ABI is in usb/mon-bin.h.
 */
#include <sys/mman.h>

#include "pattern.h"
#include "usb/mon-bin.h"
#include "usb/usbip.h"

#define BIN		MON_BIN
#define TEXT_DIR	MON_TEXT_DIR
#define LBA		2048u		/* 1 MiB into the 8 MiB disk */
#define BLOCKS		8u
#define LEN		(BLOCKS * PATTERN_SECTOR)
#define SEED		0x55b

/* What one bus showed of the write: the three Bulk-Only stages. */
struct seen {
	int cbw, data, csw;
};

enum { VHCI_BUS, LOCAL_BUS, NBUSES };
static const char *const bus_name[NBUSES] = { "vhci-hcd", "local xHCI" };
static unsigned int bus_num[NBUSES];
static struct seen seen[NBUSES];
static unsigned char wrote[LEN] __attribute__((aligned(4096)));
static unsigned int events;

/* The vhci-hcd bus the disk sits on and the local bus QEMU's disk is on. */
static int find_buses(const char *node)
{
	char path[PATH_MAX], real[PATH_MAX], *p;
	struct usbip_dev disk = USBIP_QEMU_DISK;

	snprintf(path, sizeof(path), "/sys/class/block/%s", node + 5);
	if (!realpath(path, real) || !(p = strstr(real, "/usb")))
		return 0;
	bus_num[VHCI_BUS] = (unsigned int)atoi(p + 4);
	if (!usbip_find_local(&disk))
		return 0;
	bus_num[LOCAL_BUS] = (unsigned int)atoi(disk.busid);
	ktap_diag("disk %s on vhci bus %u, exported from local bus %u (%s)",
		  node, bus_num[VHCI_BUS], bus_num[LOCAL_BUS], disk.busid);
	return bus_num[VHCI_BUS] && bus_num[LOCAL_BUS];
}

/* One bulk event: is it a stage of our write, and on which bus? */
static void classify(const struct mon_bin_hdr *h, const unsigned char *data)
{
	const unsigned char *cb = data + 15;
	int b;

	for (b = 0; b < NBUSES && bus_num[b] != h->busnum; b++)
		;
	if (b == NBUSES || h->xfer_type != MON_BULK || h->flag_data)
		return;
	if (h->type == 'S' && !(h->epnum & 0x80) && h->len_urb == 31 &&
	    h->len_cap == 31 && !memcmp(data, "USBC", 4) && cb[0] == 0x2a &&
	    (unsigned int)(cb[2] << 24 | cb[3] << 16 | cb[4] << 8 | cb[5]) ==
	    LBA && (cb[7] << 8 | cb[8]) == BLOCKS)
		seen[b].cbw = 1;
	else if (h->type == 'S' && !(h->epnum & 0x80) && seen[b].cbw &&
		 h->len_urb == LEN && h->len_cap == LEN &&
		 !memcmp(data, wrote, LEN))
		seen[b].data = 1;
	else if (h->type == 'C' && (h->epnum & 0x80) && seen[b].data &&
		 h->len_cap == 13 && !memcmp(data, "USBS", 4) && !data[12])
		seen[b].csw = 1;
}

/* Fetches and classifies every event in the mapped ring, flushing them. */
static int drain(int fd, const unsigned char *ring)
{
	unsigned int off[64], flush = 0;

	for (;;) {
		struct mon_bin_mfetch mf = { off, 64, flush };
		unsigned int i;

		if (ioctl(fd, MON_IOCX_MFETCH, &mf) < 0)
			return errno == EAGAIN;
		for (i = 0; i < mf.nfetch; i++) {
			const struct mon_bin_hdr *h = (const void *)(ring + off[i]);

			if (h->type == '@')	/* the ring's filler */
				continue;
			events++;
			classify(h, ring + off[i] + MON_PKT_SIZE);
		}
		flush = mf.nfetch;
	}
}

/* The vhci bus's text file shows our command block's submission. */
static int text_shows_cbw(int fd)
{
	static char buf[65536];
	char want[32], *line, *save;
	size_t used = 0;
	ssize_t n;

	snprintf(want, sizeof(want), "S Bo:%u:", bus_num[VHCI_BUS]);
	while (used + 1 < sizeof(buf) &&
	       (n = read(fd, buf + used, sizeof(buf) - 1 - used)) > 0)
		used += (size_t)n;
	buf[used] = '\0';
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (strstr(line, want) && strstr(line, " 31 = 55534243"))
			return 1;
	ktap_diag("no \"%s ... 31 = 55534243\" line in %zu bytes of text",
		  want, used);
	return 0;
}

static void run(void)
{
	struct usbip_node sd = { "block", "sd", "", NULL };
	struct mon_bin_stats st = { 0 };
	unsigned char *ring = MAP_FAILED;
	char text[64];
	int bin = -1, txt = -1, disk = -1, size = 0, wrote_ok = 0, ok, b;
	unsigned int i;

	ktap_ok(usbip_wait_node(&sd) && find_buses(sd.node),
		"the imported disk and its two buses");
	bin = open(BIN, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (bin >= 0)
		size = ioctl(bin, MON_IOCQ_RING_SIZE);
	if (size > 0)
		ring = mmap(NULL, (size_t)size, PROT_READ, MAP_SHARED, bin, 0);
	ktap_ok(ring != MAP_FAILED, "%s: ring of %d bytes mapped", BIN, size);
	snprintf(text, sizeof(text), TEXT_DIR "%uu", bus_num[VHCI_BUS]);
	txt = open(text, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (txt < 0)
		ktap_perror(text);

	if (ring != MAP_FAILED)
		drain(bin, ring);	/* what came before the write */
	for (i = 0; i < BLOCKS; i++)
		pattern_fill(wrote + i * PATTERN_SECTOR, LBA + i, SEED);
	if (sd.node[0])
		disk = open(sd.node, O_RDWR | O_DIRECT | O_CLOEXEC);
	if (disk >= 0) {
		wrote_ok = pwrite(disk, wrote, LEN, (off_t)LBA * PATTERN_SECTOR)
			   == LEN && !fsync(disk);
		close(disk);
	}
	ktap_ok(wrote_ok, "4 KiB O_DIRECT write at LBA %u of %s", LBA,
		sd.node);
	events = 0;
	ok = ring != MAP_FAILED && drain(bin, ring);
	ktap_ok(ok, "MON_IOCX_MFETCH: %u events after the write", events);
	for (b = 0; b < NBUSES; b++) {
		ktap_ok(seen[b].cbw, "%s bus: WRITE(10) LBA %u, %u blocks", bus_name[b],
			LBA, BLOCKS);
		ktap_ok(seen[b].data, "%s bus: the %u data bytes as written",
			bus_name[b], LEN);
		ktap_ok(seen[b].csw, "%s bus: command status good", bus_name[b]);
	}
	ktap_ok(bin >= 0 && !ioctl(bin, MON_IOCG_STATS, &st) && !st.dropped,
		"MON_IOCG_STATS: %u queued, %u dropped", st.queued,
		st.dropped);
	ktap_ok(txt >= 0 && text_shows_cbw(txt),
		"%s shows the command block's submission", text);
	if (ring != MAP_FAILED)
		munmap(ring, (size_t)size);
	if (bin >= 0)
		close(bin);
	if (txt >= 0)
		close(txt);
}

const struct ktap_test ktap_test = {
	.plan = 12,
	.devices = (const char *const[]){ BIN, VHCI, NULL },
	.kconfig = (const char *const[]){ "CONFIG_USB_MON", NULL },
	.run = run,
};
