// SPDX-License-Identifier: GPL-2.0
/*
 * hwrng - entropy from QEMU's virtio-rng through the hw_random core:
 * /sys/class/misc/hw_random names a virtio_rng.N device as available and
 * current, and /dev/hwrng delivers its bytes.
 *
 * Two 4 KiB samples are read with blocking reads, which wait in virtio_read
 * for the device's used-buffer interrupt. That wait is killable only, so a
 * SIGALRM would not end it: each read runs in a child that writes the bytes
 * to a pipe, the parent polls the pipe with a 5 s bound and kills the child
 * if the device never answers. The samples must not be one repeated byte
 * (so not all zero), must differ from each other, and their 65536 bits must
 * hold a number of ones within 6 standard deviations (768) of half: a crude
 * monobit check that catches a stuck or constant source, not a weak one.
 * A non-blocking read, the path with no wait, must return bytes or EAGAIN
 * and nothing else; /dev/hwrng has no poll method, so it is retried until
 * 64 bytes arrive or 2 s pass.
 *
 * rng_chrdev_ops (drivers/char/hw_random/core.c) is a noop_llseek file the
 * llseek series classifies; reading it must not change.
 */
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>

#include "ktap.h"

#define SAMPLE 4096
#define READ_MS 5000
#define NONBLOCK_MS 2000

static unsigned char sample[2][SAMPLE];
static int have[2];

/* Reads one attribute of /sys/class/misc/hw_random, newline stripped. */
static int attr(const char *name, char *buf, size_t len)
{
	char path[128];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "/sys/class/misc/hw_random/%s", name);
	f = fopen(path, "r");
	if (!f)
		return 0;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	ktap_diag("%s: %s", name, ok ? buf : "(empty)");
	return ok;
}

static int available(void)
{
	char buf[256];

	return attr("rng_available", buf, sizeof(buf)) &&
	       strstr(buf, "virtio_rng.") != NULL;
}

static int current(void)
{
	char buf[256];

	return attr("rng_current", buf, sizeof(buf)) &&
	       !strncmp(buf, "virtio_rng.", 11);
}

/* One blocking read of SAMPLE bytes in a child, bounded by READ_MS. */
static int read_sample(unsigned char *out)
{
	long long deadline = ktap_now_ms() + READ_MS;
	struct pollfd p = { .events = POLLIN };
	int fds[2], status;
	size_t got = 0;
	pid_t pid;

	if (pipe(fds))
		return ktap_perror("pipe") + 1;
	pid = fork();
	if (pid < 0)
		return ktap_perror("fork") + 1;
	if (!pid) {
		int fd = open("/dev/hwrng", O_RDONLY | O_CLOEXEC);
		unsigned char buf[SAMPLE];

		close(fds[0]);
		if (fd < 0 || read(fd, buf, SAMPLE) != SAMPLE ||
		    write(fds[1], buf, SAMPLE) != SAMPLE)
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	p.fd = fds[0];
	while (got < SAMPLE) {
		long long left = deadline - ktap_now_ms();
		ssize_t r;

		if (left <= 0 || poll(&p, 1, (int)left) != 1)
			break;
		r = read(fds[0], out + got, SAMPLE - got);
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	if (got < SAMPLE) {
		ktap_diag("/dev/hwrng gave %zu of %d bytes in %d ms", got,
			  SAMPLE, READ_MS);
		kill(pid, SIGKILL);
	}
	close(fds[0]);
	waitpid(pid, &status, 0);
	return got == SAMPLE && WIFEXITED(status) && !WEXITSTATUS(status);
}

static int first(void)
{
	return have[0] = read_sample(sample[0]);
}

static int second(void)
{
	have[1] = read_sample(sample[1]);
	return have[0] && have[1] && memcmp(sample[0], sample[1], SAMPLE);
}

static int varied(void)
{
	unsigned int i, n;

	for (n = 0; n < 2; n++) {
		for (i = 1; i < SAMPLE && sample[n][i] == sample[n][0]; i++)
			;
		if (!have[n] || i == SAMPLE)
			return 0;
	}
	return 1;
}

static int monobit(void)
{
	unsigned int i, n, ones = 0;

	for (n = 0; n < 2; n++)
		for (i = 0; i < SAMPLE; i++)
			ones += (unsigned int)__builtin_popcount(sample[n][i]);
	ktap_diag("monobit: %u ones in %u bits", ones, 2 * SAMPLE * 8);
	return have[0] && have[1] && ones > 32768 - 768 && ones < 32768 + 768;
}

static int nonblocking(void)
{
	long long deadline = ktap_now_ms() + NONBLOCK_MS;
	unsigned char buf[64];
	unsigned int eagain = 0;
	size_t got = 0;
	int fd = open("/dev/hwrng", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return 0;
	while (got < sizeof(buf) && ktap_now_ms() < deadline) {
		ssize_t r = read(fd, buf + got, sizeof(buf) - got);

		if (r > 0) {
			got += (size_t)r;
		} else if (r < 0 && errno == EAGAIN) {
			eagain++;
			sched_yield();
		} else {
			ktap_diag("non-blocking read returned %zd", r);
			break;
		}
	}
	close(fd);
	ktap_diag("non-blocking: %zu bytes, %u EAGAIN", got, eagain);
	return got == sizeof(buf);
}

static const struct ktap_case tcases[] = {
	{ "rng_available lists virtio_rng", available },
	{ "rng_current is virtio_rng", current },
	{ "blocking read of 4096 bytes within 5 s", first },
	{ "a second 4096-byte read differs from the first", second },
	{ "neither sample is one repeated byte", varied },
	{ "monobit: ones within 768 of half of 65536 bits", monobit },
	{ "O_NONBLOCK reads give 64 bytes or EAGAIN within 2 s", nonblocking },
};

static void run(void)
{
	ktap_run_cases(tcases, ARRAY_SIZE(tcases));
}

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(tcases),
	.devices = (const char *const[]){ "/dev/hwrng", NULL },
	.kconfig = (const char *const[]){ "CONFIG_HW_RANDOM_VIRTIO", NULL },
	.timeout = 30,
	.run = run,
};
