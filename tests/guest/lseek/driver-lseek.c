// SPDX-License-Identifier: GPL-2.0
/*
 * driver-lseek - the exact lseek behaviour of the lab's device files whose
 * llseek the core series touches (patches/core 0001-0065, the no_llseek
 * removal, and 0101-0199, the consistency fixes).
 *
 * Unchanged by the series, so the same on both kernels:
 * - /dev/input/mice (mousedev, 0106 drops its dead noop_llseek) and
 *   /dev/loop-control (0103 likewise): open calls stream_open() or
 *   nonseekable_open(), which clears FMODE_LSEEK, so lseek fails with
 *   ESPIPE whatever .llseek says, and pread too;
 * - /dev/input/event0 (evdev, 0023 drops .llseek = no_llseek, which is
 *   NULL): ESPIPE;
 * - /dev/hidraw0 keeps noop_llseek: lseek succeeds and moves nothing.
 *
 * Changed by 0112 ("PM: QoS: make lseek rewind /dev/cpu_dma_latency"):
 * the file reads the s32 latency constraint by position. With 6.1's
 * noop_llseek a rewind after the first read returns 4, not 0, and the
 * next read gives end of file; with generic_file_llseek the rewind
 * returns 0 and the value reads again. The two cases that fail on
 * baseline are recorded in patches/core/findings, so the baseline boot
 * must fail in exactly those and the patched boot must pass.
 *
 * The event and hidraw nodes exist only where USB HID devices are plugged
 * (the usb-hid profile, after usb/hidraw waited for them), and
 * /dev/cpu_dma_latency only with CONFIG_CPU_IDLE; without them those
 * cases are skipped, never passed. With 0112 applied and no
 * CONFIG_CPU_IDLE the baseline boot passes where the finding says it
 * fails, so make check flags the missing proof.
 */
#include <fcntl.h>
#include <stdint.h>

#include "ktap.h"

/* lseek that must fail with ESPIPE. */
static int espipe(const char *path, off_t off, int whence)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	int ok;

	if (fd < 0) {
		ktap_perror(path);
		return 0;
	}
	ok = ktap_seek_fails(fd, off, whence, ESPIPE);
	if (!ok)
		ktap_diag("%s", path);
	close(fd);
	errno = 0;
	return ok;
}

static int pread_espipe(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	char c;
	ssize_t r;
	int err;

	if (fd < 0) {
		ktap_perror(path);
		return 0;
	}
	errno = 0;
	r = pread(fd, &c, 1, 0);
	err = errno;
	close(fd);
	errno = 0;
	return r == -1 && err == ESPIPE;
}

static int mice_set(void)
{
	return espipe("/dev/input/mice", 0, SEEK_SET);
}

static int mice_end(void)
{
	return espipe("/dev/input/mice", 0, SEEK_END);
}

static int mice_pread(void)
{
	return pread_espipe("/dev/input/mice");
}

static int loopctl_set(void)
{
	return espipe("/dev/loop-control", 0, SEEK_SET);
}

static int loopctl_cur(void)
{
	return espipe("/dev/loop-control", 0, SEEK_CUR);
}

/*
 * /dev/cpu_dma_latency: opening adds a PM QoS request (the default
 * value, no constraint) that close() drops again.
 */
static int qos_fd = -1;
static int32_t qos_first;

static int qos_read(void)
{
	qos_fd = open("/dev/cpu_dma_latency", O_RDONLY | O_CLOEXEC);
	if (qos_fd < 0)
		return 0;
	return read(qos_fd, &qos_first, sizeof(qos_first)) ==
	       sizeof(qos_first) && qos_first >= 0;
}

static int qos_cur(void)
{
	off_t r = lseek(qos_fd, 0, SEEK_CUR);

	if (r != sizeof(int32_t))
		ktap_diag("lseek 0 SEEK_CUR returned %lld", (long long)r);
	return r == sizeof(int32_t);
}

static int qos_rewind(void)
{
	off_t r = lseek(qos_fd, 0, SEEK_SET);

	if (r != 0)
		ktap_diag("lseek 0 SEEK_SET returned %lld", (long long)r);
	return r == 0;
}

static int qos_reread(void)
{
	int32_t v = -1;
	ssize_t n = read(qos_fd, &v, sizeof(v));

	if (n != sizeof(v))
		ktap_diag("read after the rewind returned %zd", n);
	return n == sizeof(v) && v == qos_first;
}

static int qos_pread(void)
{
	int32_t v = -1;
	int ok = pread(qos_fd, &v, sizeof(v), 0) == sizeof(v) &&
		 v == qos_first;

	close(qos_fd);
	qos_fd = -1;
	return ok;
}

static int event_set(void)
{
	return espipe("/dev/input/event0", 0, SEEK_SET);
}

/* noop_llseek: succeeds and returns the unchanged position, 0. */
static int hidraw_noop(void)
{
	int fd = open("/dev/hidraw0", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	int ok;

	if (fd < 0)
		return 0;
	ok = lseek(fd, 4096, SEEK_SET) == 0 && lseek(fd, 0, SEEK_END) == 0 &&
	     lseek(fd, 0, SEEK_CUR) == 0;
	close(fd);
	return ok;
}

/*
 * Nodes only some boots have: the case is skipped, naming why, when its
 * node is absent. /dev/cpu_dma_latency needs CONFIG_CPU_IDLE.
 */
#define ANY NULL, NULL
#define QOS "/dev/cpu_dma_latency", "no /dev/cpu_dma_latency: CONFIG_CPU_IDLE"
#define HID(node) node, "no USB HID device"

static const struct tcase {
	const char *desc;
	int (*fn)(void);
	const char *node;
	const char *why;
} tcases[] = {
	{ "lseek /dev/input/mice 0 SEEK_SET: ESPIPE", mice_set, ANY },
	{ "lseek /dev/input/mice 0 SEEK_END: ESPIPE", mice_end, ANY },
	{ "pread /dev/input/mice: ESPIPE", mice_pread, ANY },
	{ "lseek /dev/loop-control 0 SEEK_SET: ESPIPE", loopctl_set, ANY },
	{ "lseek /dev/loop-control 0 SEEK_CUR: ESPIPE", loopctl_cur, ANY },
	{ "read /dev/cpu_dma_latency: 4 bytes", qos_read, QOS },
	{ "lseek /dev/cpu_dma_latency 0 SEEK_CUR then: 4", qos_cur, QOS },
	{ "lseek /dev/cpu_dma_latency 0 SEEK_SET: 0", qos_rewind, QOS },
	{ "read /dev/cpu_dma_latency then: the value", qos_reread, QOS },
	{ "pread /dev/cpu_dma_latency at 0: the value", qos_pread, QOS },
	{ "lseek /dev/input/event0 0 SEEK_SET: ESPIPE", event_set,
	  HID("/dev/input/event0") },
	{ "lseek /dev/hidraw0 4096 SEEK_SET and 0 SEEK_END: 0", hidraw_noop,
	  HID("/dev/hidraw0") },
};

static void run(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tcases); i++) {
		const struct tcase *t = &tcases[i];

		if (t->node && access(t->node, F_OK)) {
			ktap_skip(t->why, "%s", t->desc);
			continue;
		}
		errno = 0;
		if (!ktap_ok(t->fn(), "%s", t->desc) && errno)
			ktap_perror(t->desc);
	}
}

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(tcases),
	.devices = (const char *const[]){ "/dev/input/mice",
					  "/dev/loop-control", NULL },
	.timeout = 20,
	.upstream = "patches/core 0103 0106 0112",
	.run = run,
};
