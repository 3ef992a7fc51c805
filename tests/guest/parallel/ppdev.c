// SPDX-License-Identifier: GPL-2.0
/*
 * ppdev - drive the data, control and status lines of QEMU's isa-parallel
 * port from userspace through /dev/parport0.
 *
 * QEMU's software port (a file chardev behind it) latches the data lines,
 * keeps the control lines, and plays an always-ready printer on the status
 * lines: nInit low resets it to the idle status 0xd8 (busy# and ack#
 * high, select, error# high); a strobe with Select In and nInit high prints the
 * data latch to the file and drops busy# (0x58); once strobe is released,
 * each status read steps the acknowledge: 0x58, then 0x18 (ack# low),
 * then 0xd8 again. With the data direction reversed nothing drives the
 * lines and the data register reads 0xff. The test checks:
 *
 *   - PPCLAIM claims the port, and PPGETMODES reports exactly PCSPP and
 *     SAFEININT (without CONFIG_PARPORT_1284 parport_pc probes no other
 *     mode, and it keeps the direction bit writable);
 *   - PPWDATA/PPRDATA round trips of several bytes;
 *   - PPDATADIR reverse reads 0xff, and forward again reads the latch;
 *   - PPWCONTROL/PPRCONTROL round trips of the four control lines;
 *   - PPWCONTROL steps of one printer handshake, each followed by the
 *     PPRSTATUS values QEMU's printer model gives;
 *   - a second opener's PPCLAIM sleeps while the port is claimed; a
 *     PPRELEASE of the first claim then completes and the sleeping
 *     PPCLAIM returns;
 *   - after PPRELEASE, PPRDATA fails with EINVAL (claim the port first).
 *
 * This guards ppdev's ioctl locking (drivers/char/ppdev.c). pp_ioctl
 * used to run under the BKL, which a task drops while it sleeps; the
 * private pp_do_mutex that replaced it (Arnd Bergmann's 2010
 * autoconversion of trivial BKL users, upstream 613655fa39ff) is held
 * across a sleeping PPCLAIM, so no other ppdev ioctl, including the
 * PPRELEASE that would wake it, can run meanwhile. The claim cases show
 * whether a kernel still does that; see test_second_claim().
 */
#include <fcntl.h>
#include <linux/parport.h>
#include <linux/ppdev.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/wait.h>

#include "ktap.h"

#define PARPORT "/dev/parport0"
/* What parport_pc reports without CONFIG_PARPORT_1284: no mode probing. */
#define MODES (PARPORT_MODE_PCSPP | PARPORT_MODE_SAFEININT)
#define BLOCKED_MS 200
#define GRANT_MS 2000

static const unsigned char data[] = { 0x00, 0xff, 0x55, 0xaa, 0x3c };

/* Strobe 0x01, AutoFeed 0x02, nInit 0x04, Select In 0x08. */
static const unsigned char controls[] = { 0x00, 0x05, 0x0a, 0x0b, 0x0c };

#define MAX_READS 3

static const struct hcase {
	const char *step;
	unsigned char control;
	unsigned char status[MAX_READS];	/* 0 ends the list */
} handshake[] = {
	{ "nInit low resets the printer", 0x08, { 0xd8 } },
	{ "nInit high, selected, idle", 0x0c, { 0xd8, 0xd8 } },
	{ "strobe prints the latch, busy", 0x0d, { 0x58, 0x58 } },
	{ "strobe released, ack pulse", 0x0c, { 0x58, 0x18, 0xd8 } },
};

#define HANDSHAKE_DATA 'Z'

/* Cases outside the tables: see run(). */
#define OTHER_CASES 8

static int fd = -1;

static int rdata(void)
{
	unsigned char v;

	if (ioctl(fd, PPRDATA, &v))
		return ktap_perror("PPRDATA");
	return v;
}

static int wdata(unsigned char v)
{
	if (ioctl(fd, PPWDATA, &v))
		return ktap_perror("PPWDATA");
	return 0;
}

static int datadir(int reverse)
{
	if (ioctl(fd, PPDATADIR, &reverse))
		return ktap_perror("PPDATADIR");
	return 0;
}

static void test_data(void)
{
	size_t i;
	int got;

	for (i = 0; i < ARRAY_SIZE(data); i++) {
		got = wdata(data[i]) ? -1 : rdata();
		if (!ktap_ok(got == data[i], "PPWDATA 0x%02x PPRDATA reads it",
			     data[i]))
			ktap_diag("read %d", got);
	}

	got = datadir(1) || wdata(0x3c) ? -1 : rdata();
	ktap_ok(got == 0xff, "reverse direction PPRDATA reads 0xff");
	if (got != 0xff)
		ktap_diag("read %d", got);
	got = datadir(0) ? -1 : rdata();
	ktap_ok(got == 0x3c, "forward direction PPRDATA reads the latch 0x3c");
	if (got != 0x3c)
		ktap_diag("read %d", got);
}

static void test_control(void)
{
	unsigned char got;
	size_t i;
	int r;

	for (i = 0; i < ARRAY_SIZE(controls); i++) {
		got = 0xee;
		r = ioctl(fd, PPWCONTROL, &controls[i]) ||
		    ioctl(fd, PPRCONTROL, &got);
		if (!ktap_ok(!r && got == controls[i],
			     "PPWCONTROL 0x%02x PPRCONTROL reads it",
			     controls[i]))
			ktap_diag("read 0x%02x", got);
	}
}

static void test_handshake(void)
{
	char want[32], seen[32];
	size_t i, j, n;
	int ok;

	wdata(HANDSHAKE_DATA);
	for (i = 0; i < ARRAY_SIZE(handshake); i++) {
		const struct hcase *h = &handshake[i];

		ok = !ioctl(fd, PPWCONTROL, &h->control);
		want[0] = seen[0] = '\0';
		for (j = 0; j < MAX_READS && h->status[j]; j++) {
			unsigned char st = 0;

			if (ioctl(fd, PPRSTATUS, &st))
				ok = 0;
			ok = ok && st == h->status[j];
			n = strlen(want);
			snprintf(want + n, sizeof(want) - n, " 0x%02x",
				 h->status[j]);
			n = strlen(seen);
			snprintf(seen + n, sizeof(seen) - n, " 0x%02x", st);
		}
		if (!ktap_ok(ok, "PPWCONTROL 0x%02x %s: PPRSTATUS%s",
			     h->control, h->step, want))
			ktap_diag("read%s", seen);
	}
}

/* Wait up to ms for one byte on fd; the byte, or -1 on timeout. */
static int pipe_byte(int fd, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char c;

	if (poll(&pfd, 1, ms) != 1 || read(fd, &c, 1) != 1)
		return -1;
	return c;
}

/*
 * Fork a child that runs one step on the port and then writes tag to a
 * pipe. The child never prints: it closes stdout and stderr first, so a
 * child stuck in the kernel cannot hold the runner's KTAP pipe open.
 */
static pid_t child(int step, char tag, int *rfd)
{
	int p[2];
	pid_t pid;

	if (pipe(p))
		ktap_bail("pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		ktap_bail("fork: %s", strerror(errno));
	if (!pid) {
		int fd2 = -1;

		close(STDOUT_FILENO);
		close(STDERR_FILENO);
		close(p[0]);
		if (step == PPCLAIM) {
			fd2 = open(PARPORT, O_RDWR);
			if (fd2 < 0 || ioctl(fd2, PPCLAIM))
				_exit(1);
		} else if (ioctl(fd, PPRELEASE)) {
			_exit(1);
		}
		if (write(p[1], &tag, 1) != 1)
			_exit(1);
		if (fd2 >= 0)
			ioctl(fd2, PPRELEASE);
		_exit(0);
	}
	close(p[1]);
	*rfd = p[0];
	return pid;
}

/*
 * A second opener's PPCLAIM sleeps while we hold the port; our PPRELEASE,
 * issued from a child sharing our open file, must then get through and
 * wake it. Every ppdev ioctl runs under the one pp_do_mutex, which a
 * sleeping PPCLAIM keeps holding, so on kernels where that is so the
 * release waits for the claim that waits for the release. The test then
 * reports the failure and breaks the cycle by killing the claimant, so
 * the boot goes on.
 */
static void test_second_claim(void)
{
	int claim_fd, release_fd, released, granted;
	pid_t claimant, releaser;

	claimant = child(PPCLAIM, 'c', &claim_fd);
	ktap_ok(pipe_byte(claim_fd, BLOCKED_MS) == -1,
		"a second opener's PPCLAIM sleeps while the port is claimed");

	releaser = child(PPRELEASE, 'r', &release_fd);
	released = pipe_byte(release_fd, GRANT_MS) == 'r';
	ktap_ok(released,
		"PPRELEASE completes while the second opener sleeps in PPCLAIM");
	if (!released) {
		ktap_diag("PPRELEASE stuck behind the sleeping PPCLAIM, "
			  "killing the claimant");
		kill(claimant, SIGKILL);
		if (pipe_byte(release_fd, GRANT_MS) != 'r')
			ktap_bail("PPRELEASE stuck after the claimant died");
	}
	granted = pipe_byte(claim_fd, GRANT_MS) == 'c';
	ktap_ok(granted,
		"the second opener's PPCLAIM completes after PPRELEASE");
	if (!granted)
		kill(claimant, SIGKILL);
	waitpid(claimant, NULL, 0);
	waitpid(releaser, NULL, 0);
	close(claim_fd);
	close(release_fd);
}

static void run(void)
{
	unsigned char v;
	unsigned int modes = 0;

	fd = open(PARPORT, O_RDWR);
	if (fd < 0)
		ktap_bail("open %s: %s", PARPORT, strerror(errno));
	if (!ktap_ok(!ioctl(fd, PPCLAIM), "PPCLAIM"))
		ktap_bail("cannot claim %s", PARPORT);
	if (ioctl(fd, PPGETMODES, &modes))
		ktap_perror("PPGETMODES");
	ktap_diag("modes 0x%x", modes);
	ktap_ok(modes == MODES, "PPGETMODES reads PCSPP and SAFEININT, 0x%x",
		MODES);

	test_data();
	test_control();
	test_handshake();
	test_second_claim();

	errno = 0;
	ktap_ok(ioctl(fd, PPRDATA, &v) == -1 && errno == EINVAL,
		"PPRDATA after PPRELEASE fails with EINVAL");
	close(fd);
}

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(data) + ARRAY_SIZE(controls) +
		ARRAY_SIZE(handshake) + OTHER_CASES,
	.devices = (const char *const[]){ PARPORT, NULL },
	.kconfig = (const char *const[]){ "CONFIG_PPDEV", "CONFIG_PARPORT_PC",
		NULL },
	.timeout = 20,
	.upstream = "613655fa39ff",
	.run = run,
};
