// SPDX-License-Identifier: GPL-2.0
/*
 * lp - print through /dev/lp0 to QEMU's isa-parallel and check what the
 * port's lines hold afterwards.
 *
 * QEMU's software parallel port (a file chardev behind it) acts as a
 * printer that is always ready: each strobe edge with Select In and
 * nInit high sends the data latch to the file (parallel.out in the run
 * directory) and a status read walks busy and ack through one handshake.
 * The guest cannot read that file, so each write is checked from inside
 * the guest:
 *
 *   - write() accepts the whole buffer, including one larger than the
 *     driver's one-page bounce buffer, so the copy loop runs twice;
 *   - the data lines then hold the buffer's last byte: once lp0 is
 *     closed the port is claimed through ppdev (/dev/parport0) and
 *     PPRDATA reads the data latch, which only lp's last strobe set;
 *   - lp keeps the port claimed after a write while the file is open: a
 *     ppdev claimant sleeps until lp0 is closed, then gets the port;
 *   - LPRESET pulses nInit, which QEMU answers with the idle status
 *     0xd8 (not busy, no ack pulse, selected, no fault), read back by
 *     LPGETSTATUS.
 *
 * This guards the lp character device (drivers/char/lp.c: its write loop,
 * ioctls and port claiming) through any rework of file_operations. lp's
 * names noop_llseek, the method the 2.6.37 llseek work (upstream
 * 6038f373a3dc) spread to drivers that ignore the file position.
 */
#include <fcntl.h>
#include <linux/lp.h>
#include <linux/ppdev.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/wait.h>

#include "ktap.h"

#define LP "/dev/lp0"
#define PARPORT "/dev/parport0"
/* QEMU after an nInit pulse: busy# and ack# high, select, error# high. */
#define LP_STATUS_IDLE 0xd8
#define BIG 5000		/* more than one 4096-byte lp buffer */

static char big[BIG];

static const struct tcase {
	const char *name;
	const char *buf;	/* NULL: the BIG pattern */
} tcases[] = {
	{ "one byte", "!" },
	{ "a line", "bklfree lp test: hello, printer\n" },
	{ "5000 bytes", NULL },
};

/* Cases outside the table: see run(). */
#define OTHER_CASES 4

#define HELD_MS 200
#define GRANT_MS 2000

/* The data latch, read through ppdev; -1 on error. */
static int data_latch(void)
{
	unsigned char v;
	int fd = open(PARPORT, O_RDWR);
	int r = -1;

	if (fd < 0)
		return -1;
	if (!ioctl(fd, PPCLAIM) && !ioctl(fd, PPRDATA, &v))
		r = v;
	ioctl(fd, PPRELEASE);
	close(fd);
	return r;
}

static int lp_open(void)
{
	int fd = open(LP, O_WRONLY);

	if (fd < 0)
		ktap_bail("open %s: %s", LP, strerror(errno));
	return fd;
}

static int lp_print(int fd, const char *buf, size_t len)
{
	ssize_t n = write(fd, buf, len);

	if (n != (ssize_t)len)
		ktap_diag("write returned %zd: %s", n,
			  n < 0 ? strerror(errno) : "short");
	return n == (ssize_t)len;
}

/* lp closes before the latch is read: it keeps the port while open. */
static void write_case(const struct tcase *tc)
{
	const char *buf = tc->buf ? tc->buf : big;
	size_t len = tc->buf ? strlen(tc->buf) : sizeof(big);
	unsigned char last = buf[len - 1];
	int fd = lp_open(), latch;

	ktap_ok(lp_print(fd, buf, len), "write %s, %zu bytes accepted",
		tc->name, len);
	close(fd);
	latch = data_latch();
	if (!ktap_ok(latch == last,
		     "data lines hold the last byte 0x%02x of %s", last,
		     tc->name))
		ktap_diag("data latch %d", latch);
}

/* Wait up to ms for one byte on fd; the byte, or -1 on timeout. */
static int pipe_byte(int fd, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	unsigned char c;

	if (poll(&pfd, 1, ms) != 1 || read(fd, &c, 1) != 1)
		return -1;
	return c;
}

/*
 * After a write lp keeps the port claimed until the file is closed (or
 * its next write, if someone asked for the port meanwhile): a ppdev
 * claimant in a child sleeps until then, and reads the latch once it
 * gets the port. The child never prints.
 */
static void test_held(void)
{
	static const char msg[] = "held by lp0\n";
	int fd = lp_open(), p[2], got;
	pid_t pid;

	if (!lp_print(fd, msg, strlen(msg)))
		ktap_diag("write to %s failed", LP);
	if (pipe(p))
		ktap_bail("pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		ktap_bail("fork: %s", strerror(errno));
	if (!pid) {
		int latch;
		unsigned char c;

		close(STDOUT_FILENO);
		close(STDERR_FILENO);
		close(p[0]);
		close(fd);
		latch = data_latch();
		c = latch;
		_exit(latch < 0 || write(p[1], &c, 1) != 1);
	}
	close(p[1]);
	ktap_ok(pipe_byte(p[0], HELD_MS) == -1,
		"a ppdev claim sleeps while %s is open after a write", LP);
	close(fd);
	got = pipe_byte(p[0], GRANT_MS);
	if (got < 0)
		kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(p[0]);
	if (!ktap_ok(got == '\n',
		     "closing %s grants the claim, the latch holds 0x0a", LP))
		ktap_diag("child read %d", got);
}

static void run(void)
{
	size_t i;
	int fd, status = -1;

	for (i = 0; i < sizeof(big); i++)
		big[i] = 'A' + i % 26;
	big[sizeof(big) - 1] = '\n';

	for (i = 0; i < ARRAY_SIZE(tcases); i++)
		write_case(&tcases[i]);
	test_held();

	fd = lp_open();
	ktap_ok(!ioctl(fd, LPRESET), "LPRESET");
	if (ioctl(fd, LPGETSTATUS, &status))
		ktap_perror("LPGETSTATUS");
	ktap_ok(status == LP_STATUS_IDLE,
		"LPGETSTATUS after reset reads 0x%02x", LP_STATUS_IDLE);
	if (status != LP_STATUS_IDLE)
		ktap_diag("status 0x%02x", status);
	close(fd);
}

const struct ktap_test ktap_test = {
	.plan = 2 * ARRAY_SIZE(tcases) + OTHER_CASES,
	.devices = (const char *const[]){ LP, PARPORT, NULL },
	.kconfig = (const char *const[]){ "CONFIG_PRINTER", "CONFIG_PPDEV",
		NULL },
	.timeout = 30,
	.upstream = "6038f373a3dc",
	.run = run,
};
