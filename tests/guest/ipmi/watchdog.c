// SPDX-License-Identifier: GPL-2.0
/*
 * watchdog - the IPMI watchdog (drivers/char/ipmi/ipmi_watchdog.c, touched
 * by the series) as /dev/watchdog on QEMU's simulated BMC, checked from
 * both ends: the driver's file operations, and the BMC's own view of its
 * watchdog timer through /dev/ipmi0 (Get Watchdog Timer, netfn App 0x25).
 *
 * - WDIOC_GETSUPPORT names "IPMI"; SETTIMEOUT/GETTIMEOUT and
 *   SETPRETIMEOUT/GETPRETIMEOUT round trip;
 * - the first keepalive starts the BMC's timer (the driver starts it on
 *   the first heartbeat, not at open): the BMC says running, with our
 *   30 s as its initial countdown (in 100 ms units);
 * - no pretimeout has fired: a non-blocking read gives EAGAIN, poll
 *   reports nothing; lseek is refused (ESPIPE);
 * - the magic 'V' and close() disarm it: the BMC's timer stops or keeps
 *   counting with no action (the driver sets "don't stop on set");
 * - a read() blocked waiting for a pretimeout returns EINTR when the
 *   reader gets a signal. ipmi_read() sleeps in an open-coded loop that
 *   only leaves when data arrives, and tests signal_pending() after it:
 *   on 6.1 the signalled reader spins in the kernel for good, even
 *   SIGKILL cannot end it (patches/drivers 0305). The reader is a child
 *   with its own open of the node, after the first file's magic close, so
 *   the timer is stopped before and the child never starts it.
 */
#include <fcntl.h>
#include <linux/ipmi.h>
#include <linux/watchdog.h>
#include <sys/ioctl.h>

#include "run.h"
#include "watchdog/magic-close.h"

#define WDT_DEV "/dev/watchdog"
#define IPMI_DEV "/dev/ipmi0"
#define TIMEOUT_S 30
#define PRETIMEOUT_S 10
#define RSP_WAIT_MS 3000
#define SIGNAL_WAIT_MS 3000

/*
 * Get Watchdog Timer (IPMI v2.0, 27.7): byte 1 bit 6 "timer running",
 * byte 2 bits 0-2 the timeout action (0 none, 1 hard reset), bytes 5-6
 * the initial countdown in 100 ms units.
 */
struct bmc_wdt {
	int ok, running;
	unsigned int action, initial;
};

static struct bmc_wdt bmc_watchdog(void)
{
	struct ipmi_system_interface_addr si = {
		.addr_type = IPMI_SYSTEM_INTERFACE_ADDR_TYPE,
		.channel = IPMI_BMC_CHANNEL,
	}, rsi;
	struct ipmi_req req = {
		.addr = (unsigned char *)&si,
		.addr_len = sizeof(si),
		.msgid = 7,
		.msg = { .netfn = 0x06, .cmd = 0x25 },
	};
	unsigned char data[16];
	struct ipmi_recv recv = {
		.addr = (unsigned char *)&rsi,
		.addr_len = sizeof(rsi),
		.msg = { .data = data, .data_len = sizeof(data) },
	};
	struct bmc_wdt w = { 0 };
	int fd = open(IPMI_DEV, O_RDWR | O_CLOEXEC);
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (fd < 0)
		return w;
	if (!ioctl(fd, IPMICTL_SEND_COMMAND, &req) &&
	    poll(&p, 1, RSP_WAIT_MS) == 1 &&
	    !ioctl(fd, IPMICTL_RECEIVE_MSG_TRUNC, &recv) &&
	    recv.msgid == 7 && recv.msg.data_len >= 9 && data[0] == 0) {
		w.ok = 1;
		w.running = !!(data[1] & 0x40);
		w.action = data[2] & 0x07;
		w.initial = data[5] | data[6] << 8;
	}
	if (!w.ok)
		ktap_diag("Get Watchdog Timer failed: %s", strerror(errno));
	close(fd);
	return w;
}

static void on_usr1(int sig)
{
	(void)sig;
}

/*
 * A child opens the watchdog and blocks in read(); SIGUSR1 must end the
 * read with EINTR. Returns 1 when the child reported EINTR in time.
 */
static int read_interrupted(void)
{
	long long end;
	int status, ready[2];
	char c;
	pid_t pid;

	if (pipe(ready))
		return 0;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct sigaction sa = { .sa_handler = on_usr1 };
		int fd;

		alarm(0);
		sigaction(SIGUSR1, &sa, NULL);	/* no SA_RESTART */
		/*
		 * Off the KTAP pipe: on 6.1 this child never ends, and init
		 * reads the pipe until every writer is gone.
		 */
		fd = open("/dev/null", O_WRONLY);
		if (fd >= 0) {
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
			close(fd);
		}
		fd = open(WDT_DEV, O_RDONLY);
		c = fd >= 0;
		if (write(ready[1], &c, 1) != 1 || fd < 0)
			_exit(2);
		if (read(fd, &c, 1) < 0 && errno == EINTR)
			_exit(0);
		_exit(1);
	}
	close(ready[1]);
	if (pid < 0 || read(ready[0], &c, 1) != 1 || !c) {
		close(ready[0]);
		return 0;
	}
	close(ready[0]);
	/* Until the child sleeps (or spins) in read(), then signal it. */
	for (end = ktap_now_ms() + SIGNAL_WAIT_MS; ktap_now_ms() < end;) {
		char path[64], stat[256] = "";
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%d/wchan", pid);
		f = fopen(path, "r");
		if (f && fgets(stat, sizeof(stat), f) && strcmp(stat, "0"))
			end = 0;
		if (f)
			fclose(f);
		usleep(10000);
	}
	kill(pid, SIGUSR1);
	if (run_reap(pid, SIGNAL_WAIT_MS, &status))
		return WIFEXITED(status) && !WEXITSTATUS(status);
	/* Still in read(): it may not even die (6.1); leave it. */
	kill(pid, SIGKILL);
	ktap_diag("the signalled reader is still in read() %d ms later",
		  SIGNAL_WAIT_MS);
	return 0;
}

static void run(void)
{
	struct watchdog_info wi = { 0 };
	struct pollfd p;
	struct bmc_wdt w;
	int fd, v, t = -1, ok;
	char c;

	signal(SIGALRM, on_alarm);
	fd = wdt_fd = open(WDT_DEV, O_RDWR | O_CLOEXEC);
	ktap_ok(fd >= 0 && !ioctl(fd, WDIOC_GETSUPPORT, &wi) &&
		!strcmp((char *)wi.identity, "IPMI"),
		"open, WDIOC_GETSUPPORT names IPMI");
	v = TIMEOUT_S;
	ok = !ioctl(fd, WDIOC_SETTIMEOUT, &v) && !ioctl(fd, WDIOC_GETTIMEOUT, &t);
	ktap_ok(ok && t == TIMEOUT_S, "WDIOC_SETTIMEOUT %d, GETTIMEOUT %d",
		TIMEOUT_S, t);
	v = PRETIMEOUT_S;
	t = -1;
	ok = !ioctl(fd, WDIOC_SETPRETIMEOUT, &v) &&
	     !ioctl(fd, WDIOC_GETPRETIMEOUT, &t);
	ktap_ok(ok && t == PRETIMEOUT_S,
		"WDIOC_SETPRETIMEOUT %d, GETPRETIMEOUT %d", PRETIMEOUT_S, t);
	w = bmc_watchdog();
	ktap_ok(w.ok && (!w.running || !w.action),
		"before the first keepalive the BMC's timer does nothing (running %d, action %u)",
		w.running, w.action);
	ok = !ioctl(fd, WDIOC_KEEPALIVE, 0);
	w = bmc_watchdog();
	ktap_ok(ok && w.ok && w.running && w.action == 1 &&
		w.initial == TIMEOUT_S * 10,
		"WDIOC_KEEPALIVE starts it: running, action %u (reset), initial countdown %u (x 100 ms)",
		w.action, w.initial);
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	p = (struct pollfd){ .fd = fd, .events = POLLIN };
	errno = 0;
	ktap_ok(read(fd, &c, 1) < 0 && errno == EAGAIN && poll(&p, 1, 0) == 0,
		"no pretimeout: read EAGAIN, poll nothing");
	errno = 0;
	ktap_ok(lseek(fd, 0, SEEK_SET) < 0 && errno == ESPIPE, "lseek ESPIPE");
	ok = write(fd, "V", 1) == 1;
	wdt_fd = -1;
	ok = !close(fd) && ok;
	w = bmc_watchdog();
	ktap_ok(ok && w.ok && (!w.running || !w.action),
		"the magic 'V' and close() disarm the BMC's timer (running %d, action %u)",
		w.running, w.action);
	ktap_ok(read_interrupted(),
		"a read() blocked for a pretimeout returns EINTR on a signal");
}

const struct ktap_test ktap_test = {
	.plan = 9,
	.devices = (const char *const[]){ WDT_DEV, IPMI_DEV, NULL },
	.kconfig = (const char *const[]){ "CONFIG_IPMI_WATCHDOG", NULL },
	.timeout = 60,
	.run = run,
};
