// SPDX-License-Identifier: GPL-2.0
/*
 * usbip-cycles - usbip attach and detach in a loop with I/O in flight,
 * then usbipd killed while a device is imported (issue 12, part 2). Runs
 * after usb/usbip-import, which left usbipd running and QEMU's usb-kbd and
 * usb-storage bound to usbip-host.
 *
 * - KBD_CYCLES times: attach the keyboard, open its evdev node behind
 *   vhci-hcd, a reader blocked in read() (usbhid's interrupt URB is then in
 *   flight through usbip-host, TCP and vhci-hcd), detach: the reader must
 *   get ENODEV within READER_MS and the vhci port must be free again.
 * - DISK_CYCLES times the same with the disk and a reader doing O_DIRECT
 *   reads over the whole disk: it must end with an I/O error, or with end
 *   of file at offset 0 (del_gendisk() sets the capacity to 0 first, so a
 *   read issued after that finds an empty disk), not hang.
 * - usbipd killed (SIGKILL) while the keyboard is imported: the imported
 *   device stays (the connection belongs to the kernel once attached), a
 *   new attach is refused while no daemon listens, the detach frees the
 *   port, and after a restart the keyboard attaches again.
 * - usbip unbind: the local drivers take both devices back.
 * A splat or hung task on the way fails the boot (tools/lab/verdict).
 */
#include <signal.h>

#include "usb/usbip.h"

/* -DKBD_CYCLES=2 -DDISK_CYCLES=150 makes a stress run for a rare ending. */
#ifndef KBD_CYCLES
#define KBD_CYCLES	50
#endif
#ifndef DISK_CYCLES
#define DISK_CYCLES	10
#endif
#define READER_MS	10000
/* The reader's exit status when its disk shrank to nothing (not an errno). */
#define READER_EMPTY	250

static struct usbip_dev disk = USBIP_QEMU_DISK;
static struct usbip_dev kbd = USBIP_QEMU_KBD;

/* Detaches every imported device, whoever attached it. */
static int detach_all(void)
{
	int used[VHCI_PORTS_MAX], n = vhci_used_ports(used), i, ok = n >= 0;

	for (i = 0; i < n; i++) {
		struct usbip_dev d = { "imported", 0, 0, "", used[i] };

		ok &= usbip_detach(&d);
	}
	return ok && vhci_used_ports(used) == 0;
}

/*
 * A child that reads node until a read fails, and exits with that errno:
 * blocked in read() for an evdev node, reading on and on (O_DIRECT,
 * wrapping at the end) for a disk; READER_EMPTY when a read at offset 0
 * finds end of file. 0 means it could not start.
 */
static pid_t reader(const char *node, int is_disk)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int fd = open(node, O_RDONLY | (is_disk ? O_DIRECT : 0));
		void *buf;
		int rewound = 1;
		ssize_t n;

		alarm(0);
		if (fd < 0 || posix_memalign(&buf, 4096, 65536))
			_exit(0);
		for (;;) {
			n = read(fd, buf, is_disk ? 65536 : 24);
			if (n < 0)
				_exit(errno & 0xff);
			if (n > 0) {
				rewound = 0;
				continue;
			}
			if (rewound)
				_exit(READER_EMPTY);
			if (lseek(fd, 0, SEEK_SET) < 0)
				_exit(errno & 0xff);
			rewound = 1;
		}
	}
	return pid < 0 ? 0 : pid;
}

/* The reader's errno after the detach, or -1 when it did not end. */
static int reader_end(pid_t pid)
{
	int status;

	long long t0;

	if (run_reap(pid, READER_MS, &status))
		return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	run_diag_stuck(pid);
	t0 = ktap_now_ms();
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	ktap_diag("the reader ended %lld ms after SIGKILL", ktap_now_ms() - t0);
	return -1;
}

/* Where a cycle's time goes, in ms over all cycles: attach, node, detach. */
static long long spent[3];
/* How the readers ended over all cycles: ENODEV, EIO, ENXIO, empty disk. */
static unsigned int ends[4];

/*
 * One cycle on d: attach, wait for its node of w's class, start a reader,
 * let it get going, detach; the reader must end with one of the errnos a
 * vanished device gives. Returns 1 on success, with diagnostics otherwise.
 */
static int cycle(struct usbip_dev *d, struct usbip_node *w, int is_disk,
		 unsigned int n)
{
	long long t0 = ktap_now_ms(), t1;
	pid_t pid;
	int err;

	if (!usbip_attach(d)) {
		ktap_diag("cycle %u: attach of %s failed", n, d->name);
		return 0;
	}
	t1 = ktap_now_ms();
	spent[0] += t1 - t0;
	t0 = t1;
	if (!usbip_wait_node(w)) {
		ktap_diag("cycle %u: no %s node behind vhci-hcd", n, d->name);
		usbip_detach(d);
		return 0;
	}
	spent[1] += ktap_now_ms() - t0;
	pid = reader(w->node, is_disk);
	if (!pid) {
		usbip_detach(d);
		return 0;
	}
	/* Let the reader reach read(): a short, bounded wait, not a sync. */
	usleep(is_disk ? 50000 : 20000);
	t0 = ktap_now_ms();
	if (!usbip_detach(d)) {
		ktap_diag("cycle %u: detach of %s failed", n, d->name);
		reader_end(pid);
		return 0;
	}
	spent[2] += ktap_now_ms() - t0;
	err = reader_end(pid);
	ends[0] += err == ENODEV;
	ends[1] += err == EIO;
	ends[2] += err == ENXIO;
	ends[3] += is_disk && err == READER_EMPTY;
	if (err != ENODEV && err != EIO && err != ENXIO &&
	    !(is_disk && err == READER_EMPTY)) {
		ktap_diag("cycle %u: %s reader ended with %d (%s)", n,
			  w->node, err, err > 0 ? strerror(err) :
			  err == 0 ? "could not start" : "hung");
		return 0;
	}
	return 1;
}

static int cycles(struct usbip_dev *d, struct usbip_node *w, int is_disk,
		  unsigned int count)
{
	long long start = ktap_now_ms();
	unsigned int i, ok = 0;

	memset(spent, 0, sizeof(spent));
	memset(ends, 0, sizeof(ends));
	for (i = 0; i < count; i++) {
		if (!cycle(d, w, is_disk, i))
			break;
		ok++;
	}
	ktap_diag("%s: %u of %u attach/read/detach cycles in %lld ms: attach %lld, node %lld, detach %lld",
		  d->name, ok, count, ktap_now_ms() - start, spent[0],
		  spent[1], spent[2]);
	ktap_diag("%s: readers ended with ENODEV %u, EIO %u, ENXIO %u, end of file at offset 0 %u",
		  d->name, ends[0], ends[1], ends[2], ends[3]);
	return ok == count;
}

/* usbipd killed while the keyboard is imported; then restarted. */
static void daemon_killed(void)
{
	struct usbip_node ev = { "input", "event", "", NULL };
	pid_t pid = usbipd_pid();
	int used[VHCI_PORTS_MAX], ok, status;

	ok = pid > 0 && usbip_attach(&kbd) && usbip_wait_node(&ev);
	ok = ok && !kill(pid, SIGKILL);
	if (ok && waitpid(pid, &status, 0) < 0) {
		/* Not our child (usbip-import started it): wait it out. */
		long long end = ktap_now_ms() + 5000;

		while (!kill(pid, 0) && ktap_now_ms() < end)
			usleep(10000);
	}
	ktap_ok(ok && !usbipd_listening() && usbip_node_scan(&ev) ==
		KTAP_READY, "usbipd killed: the imported keyboard stays");
	disk.port = -1;
	ktap_ok(vhci_used_ports(used) == 1 &&
		run_capture((char *const[]){ USBIP, "attach", "-r",
					     "127.0.0.1", "-b", disk.busid,
					     NULL },
			    (char[1024]){ 0 }, 1024, USBIP_SECS) != 0 &&
		vhci_used_ports(used) == 1,
		"no daemon: usbip attach fails, no vhci port taken");
	ktap_ok(usbip_detach(&kbd), "detach after the daemon died frees the port");
	ktap_ok(usbipd_start() > 0 && cycle(&kbd, &ev, 0, 0),
		"usbipd restarted: the keyboard attaches and detaches again");
}

static int unbound(struct usbip_dev *d, const char *driver)
{
	const char *drv;

	if (usbip("unbind", "-b", d->busid))
		return 0;
	drv = usbip_driver(d);
	ktap_diag("%s %s: driver %s", d->name, d->busid, drv);
	return !strcmp(drv, driver);
}

static void run(void)
{
	struct usbip_node sd = { "block", "sd", "", NULL };
	struct usbip_node ev = { "input", "event", "", NULL };
	int found;

	found = usbip_find_local(&disk) && usbip_find_local(&kbd);
	ktap_ok(found && !strcmp(usbip_driver(&disk), "usbip-host") &&
		!strcmp(usbip_driver(&kbd), "usbip-host") && usbipd_pid() > 0,
		"usbipd runs, usbip-host holds both devices");
	ktap_ok(detach_all(), "detach of everything imported: every vhci port free");
	ktap_ok(found && cycles(&kbd, &ev, 0, KBD_CYCLES),
		"%d keyboard cycles, reader blocked in read(): ENODEV, port freed",
		KBD_CYCLES);
	ktap_ok(found && cycles(&disk, &sd, 1, DISK_CYCLES),
		"%d disk cycles, O_DIRECT reads in flight: I/O error or empty disk, port freed",
		DISK_CYCLES);
	daemon_killed();
	ktap_ok(found && unbound(&kbd, "usb"), "usbip unbind: the keyboard is local again");
	ktap_ok(found && unbound(&disk, "usb"), "usbip unbind: the disk is local again");
	ktap_ok(detach_all(), "no vhci port left in use");
}

const struct ktap_test ktap_test = {
	.plan = 11,
	.devices = (const char *const[]){ VHCI, USBIP, USBIPD, NULL },
	.kconfig = (const char *const[]){ "CONFIG_USBIP_HOST",
					  "CONFIG_USBIP_VHCI_HCD", NULL },
	.timeout = 240,
	.run = run,
};
