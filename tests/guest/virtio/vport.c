// SPDX-License-Identifier: GPL-2.0
/*
 * vport - data both ways through a pair of virtio-serial ports that QEMU
 * loops into each other: org.bklfree.a's chardev is a unix socket server
 * and org.bklfree.b's a client of it, in the same QEMU, so bytes the guest
 * writes to one port come back on the other (virtio.profile).
 *
 * The ports are found by name under /sys/class/virtio-ports. The control
 * queue adds them and names them asynchronously, and a name only comes
 * with a uevent the networkless lab kernel cannot deliver, so the scan is
 * retried, yielding the CPU, for up to 5 s (at boot they are usually there
 * at the first look). Each must poll
 * POLLOUT and not POLLHUP: the host side is connected. Then 8192 bytes go
 * from a to b and 4096 other bytes from b to a, written and read with
 * poll() and a 5 s bound, and compared byte for byte; afterwards neither
 * port holds a stray byte (O_NONBLOCK read gives EAGAIN). The port's
 * debugfs file must then say guest and host connected and count exactly
 * the bytes sent and received.
 *
 * port_fops (drivers/char/virtio_console.c) uses no_llseek, which upstream
 * cb787f4ac0c2 takes out tree-wide; the llseek series must keep the
 * port's open, poll, read and write paths as they are.
 */
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>

#include "ktap.h"

#define WAIT_MS 5000

static const struct port {
	const char *name;
	unsigned int seed;	/* of the bytes this port sends */
	size_t len;
} ports[] = {
	{ "org.bklfree.a", 3, 8192 },
	{ "org.bklfree.b", 101, 4096 },
};

static char node[2][64];
static int fds[2] = { -1, -1 };
static unsigned long before[2][2];	/* bytes_sent, bytes_received */

static unsigned char byte(unsigned int seed, size_t i)
{
	return (unsigned char)(i * 13 + seed + (i >> 8) * 7);
}

/* One pass over /sys/class/virtio-ports; returns how many ports it found. */
static int scan(void)
{
	DIR *d = opendir("/sys/class/virtio-ports");
	struct dirent *de;
	int found = 0;
	size_t i;

	while (d && (de = readdir(d))) {
		char path[512], name[64] = "";
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/class/virtio-ports/%s/name",
			 de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(name, sizeof(name), f))
			name[strcspn(name, "\n")] = '\0';
		fclose(f);
		for (i = 0; i < ARRAY_SIZE(ports); i++)
			if (!strcmp(name, ports[i].name))
				snprintf(node[i], sizeof(node[i]), "%.58s",
					 de->d_name);
	}
	if (d)
		closedir(d);
	for (i = 0; i < ARRAY_SIZE(ports); i++) {
		char dev[128];

		snprintf(dev, sizeof(dev), "/dev/%.63s", node[i]);
		found += node[i][0] && !access(dev, F_OK);
	}
	return found;
}

/* Reads bytes_sent and bytes_received of port i from debugfs. */
static int counters(size_t i, unsigned long *sent, unsigned long *received,
		    int *connected)
{
	char path[128], line[128];
	int got = 0, guest = 0, host = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/debug/virtio-ports/%s",
		 node[i]);
	f = fopen(path, "r");
	if (!f)
		return ktap_perror(path);
	while (fgets(line, sizeof(line), f)) {
		got += sscanf(line, "bytes_sent: %lu", sent);
		got += sscanf(line, "bytes_received: %lu", received);
		got += sscanf(line, "guest_connected: %d", &guest);
		got += sscanf(line, "host_connected: %d", &host);
	}
	fclose(f);
	*connected = guest == 1 && host == 1;
	return got == 4 ? 0 : -1;
}

static int found(void)
{
	long long deadline = ktap_now_ms() + WAIT_MS;
	unsigned int tries = 0;
	int n, connected;
	size_t i;

	while ((n = scan()) < (int)ARRAY_SIZE(ports) &&
	       ktap_now_ms() < deadline) {
		tries++;
		sched_yield();
	}
	ktap_diag("ports scanned %u times", tries + 1);
	for (i = 0; i < ARRAY_SIZE(ports); i++) {
		char path[128];

		ktap_diag("%s is /dev/%s", ports[i].name,
			  node[i][0] ? node[i] : "(none)");
		if (!node[i][0])
			continue;
		snprintf(path, sizeof(path), "/dev/%.63s", node[i]);
		fds[i] = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
		if (fds[i] < 0 ||
		    counters(i, &before[i][0], &before[i][1], &connected))
			return ktap_perror(path) + 1;
	}
	return n == (int)ARRAY_SIZE(ports);
}

/* Port i polls POLLOUT without POLLHUP: writable, host side connected. */
static int writable(size_t i)
{
	long long deadline = ktap_now_ms() + WAIT_MS;
	struct pollfd p = { .fd = fds[i], .events = POLLOUT };
	unsigned int tries = 0;

	if (fds[i] < 0)
		return 0;
	/*
	 * An unconnected host side reports POLLHUP at once; until the
	 * PORT_OPEN control message arrives there is nothing to wait on.
	 */
	while (poll(&p, 1, WAIT_MS) == 1 && !(p.revents & POLLOUT) &&
	       ktap_now_ms() < deadline) {
		tries++;
		sched_yield();
	}
	ktap_diag("%s: revents 0x%x after %u retries", ports[i].name,
		  p.revents, tries);
	return p.revents == POLLOUT;
}

static int writable_a(void)
{
	return writable(0);
}

static int writable_b(void)
{
	return writable(1);
}

/* Sends ports[from].len bytes from port from and reads them on the other. */
static int transfer(size_t from)
{
	const struct port *s = &ports[from];
	long long deadline = ktap_now_ms() + WAIT_MS;
	struct pollfd p[2] = {
		{ .fd = fds[from], .events = POLLOUT },
		{ .fd = fds[!from], .events = POLLIN },
	};
	unsigned char out[8192], in[8192];
	size_t sent = 0, got = 0, i;

	if (fds[0] < 0 || fds[1] < 0)
		return 0;
	for (i = 0; i < s->len; i++)
		out[i] = byte(s->seed, i);
	memset(in, 0, sizeof(in));
	while (got < s->len) {
		long long left = deadline - ktap_now_ms();
		ssize_t r;

		p[0].fd = sent < s->len ? fds[from] : -1;
		if (left <= 0 || poll(p, 2, (int)left) <= 0)
			break;
		if (p[0].revents & POLLOUT) {
			r = write(fds[from], out + sent, s->len - sent);
			if (r < 0 && errno != EAGAIN)
				return ktap_perror("write") + 1;
			sent += r > 0 ? (size_t)r : 0;
		}
		if (p[1].revents & POLLIN) {
			r = read(fds[!from], in + got, sizeof(in) - got);
			if (r < 0 && errno != EAGAIN)
				return ktap_perror("read") + 1;
			got += r > 0 ? (size_t)r : 0;
		}
		if ((p[0].revents | p[1].revents) & (POLLHUP | POLLERR)) {
			ktap_diag("revents 0x%x 0x%x", p[0].revents,
				  p[1].revents);
			break;
		}
	}
	ktap_diag("%s to %s: sent %zu, received %zu of %zu", s->name,
		  ports[!from].name, sent, got, s->len);
	return sent == s->len && got == s->len && !memcmp(in, out, s->len);
}

static int a_to_b(void)
{
	return transfer(0);
}

static int b_to_a(void)
{
	return transfer(1);
}

static int drained(void)
{
	unsigned char c;
	size_t i;
	int ok = 1;

	for (i = 0; i < ARRAY_SIZE(ports); i++) {
		ssize_t r = fds[i] < 0 ? 0 : read(fds[i], &c, 1);

		if (r != -1 || errno != EAGAIN) {
			ktap_diag("%s: read gave %zd, want EAGAIN",
				  ports[i].name, r);
			ok = 0;
		}
	}
	return ok;
}

static int debugfs(void)
{
	unsigned long sent, received;
	int connected, ok = 1;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ports); i++) {
		if (fds[i] < 0 || counters(i, &sent, &received, &connected))
			return 0;
		sent -= before[i][0];
		received -= before[i][1];
		ktap_diag("%s: connected %d, sent %lu, received %lu",
			  ports[i].name, connected, sent, received);
		ok &= connected && sent == ports[i].len &&
		      received == ports[!i].len;
	}
	return ok;
}

static const struct ktap_case tcases[] = {
	{ "ports org.bklfree.a and org.bklfree.b found", found },
	{ "org.bklfree.a polls POLLOUT, host connected", writable_a },
	{ "org.bklfree.b polls POLLOUT, host connected", writable_b },
	{ "8192 bytes from a arrive intact on b within 5 s", a_to_b },
	{ "4096 bytes from b arrive intact on a within 5 s", b_to_a },
	{ "no stray byte on either port", drained },
	{ "debugfs counts the bytes and shows both sides connected", debugfs },
};

static void run(void)
{
	ktap_run_cases(tcases, ARRAY_SIZE(tcases));
}

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(tcases),
	.kconfig = (const char *const[]){ "CONFIG_VIRTIO_CONSOLE", NULL },
	.timeout = 30,
	.upstream = "cb787f4ac0c2",
	.run = run,
};
