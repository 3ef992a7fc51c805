// SPDX-License-Identifier: GPL-2.0
/*
 * chardev - the memory character devices every system relies on
 * (drivers/char/mem.c and drivers/char/random.c): /dev/null swallows and
 * reads EOF, /dev/zero and /dev/full read zeros, /dev/full refuses writes
 * with ENOSPC, /dev/urandom and /dev/random return fresh bytes, /dev/mem
 * reads the BIOS area and /dev/kmsg takes a record. These files' llseek
 * methods are among the ones the llseek series classifies, so their read
 * and write behaviour is pinned here as well as their seek behaviour.
 */
#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/random.h>

#include "ktap.h"

static int all_zero(const unsigned char *b, size_t n)
{
	while (n--)
		if (*b++)
			return 0;
	return 1;
}

static int null_write(void)
{
	char buf[512] = { 1 };
	int fd = open("/dev/null", O_RDWR);
	int ok = fd >= 0 && write(fd, buf, sizeof(buf)) == sizeof(buf) &&
		 read(fd, buf, sizeof(buf)) == 0;

	close(fd);
	return ok;
}

static int zero_read(void)
{
	unsigned char buf[4096];
	int fd = open("/dev/zero", O_RDONLY);
	int ok;

	memset(buf, 0xa5, sizeof(buf));
	ok = fd >= 0 && read(fd, buf, sizeof(buf)) == sizeof(buf) &&
	     all_zero(buf, sizeof(buf));
	close(fd);
	return ok;
}

static int zero_mmap(void)
{
	int fd = open("/dev/zero", O_RDWR);
	unsigned char *p;
	int ok;

	if (fd < 0)
		return 0;
	p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return 0;
	ok = all_zero(p, 8192);
	p[4096] = 1;
	ok = ok && p[4096] == 1 && !p[4095];
	munmap(p, 8192);
	return ok;
}

static int full_write(void)
{
	char buf[16] = { 0 };
	int fd = open("/dev/full", O_WRONLY);
	int ok = fd >= 0 && write(fd, buf, sizeof(buf)) < 0 && errno == ENOSPC;

	close(fd);
	return ok;
}

static int fresh_bytes(const char *dev)
{
	unsigned char a[64], b[64];
	int fd = open(dev, O_RDONLY);
	int ok = fd >= 0 && read(fd, a, sizeof(a)) == sizeof(a) &&
		 read(fd, b, sizeof(b)) == sizeof(b) &&
		 memcmp(a, b, sizeof(a)) && !all_zero(a, sizeof(a));

	close(fd);
	return ok;
}

static int urandom_read(void)
{
	return fresh_bytes("/dev/urandom");
}

static int random_read(void)
{
	struct pollfd p = { .events = POLLIN };
	int ok;

	p.fd = open("/dev/random", O_RDONLY);
	ok = p.fd >= 0 && poll(&p, 1, 5000) == 1 && (p.revents & POLLIN);
	close(p.fd);
	return ok && fresh_bytes("/dev/random");
}

static int getrandom_call(void)
{
	unsigned char a[32], b[32];

	return getrandom(a, sizeof(a), 0) == sizeof(a) &&
	       getrandom(b, sizeof(b), GRND_NONBLOCK) == sizeof(b) &&
	       memcmp(a, b, sizeof(a));
}

/* SeaBIOS leaves its "_32_" or "_SM_" and "_MP_"-style tables in 0xf0000. */
static int mem_read(void)
{
	unsigned char buf[256];
	int fd = open("/dev/mem", O_RDONLY);
	int ok = fd >= 0 && pread(fd, buf, sizeof(buf), 0xf0000) == sizeof(buf) &&
		 !all_zero(buf, sizeof(buf));

	close(fd);
	return ok;
}

static int kmsg_record(void)
{
	static const char msg[] = "bklfree: chardev kmsg record\n";
	char line[512];
	int found = 0;
	int fd = open("/dev/kmsg", O_RDWR | O_NONBLOCK);
	ssize_t n;

	if (fd < 0 || write(fd, msg, sizeof(msg) - 1) != sizeof(msg) - 1) {
		close(fd);
		return 0;
	}
	/* Read every record from the start; each read returns one record. */
	lseek(fd, 0, SEEK_SET);
	while ((n = read(fd, line, sizeof(line) - 1)) > 0 || (n < 0 && errno == EPIPE)) {
		if (n > 0) {
			line[n] = '\0';
			if (strstr(line, "bklfree: chardev kmsg record"))
				found = 1;
		}
	}
	close(fd);
	return found;
}

static const struct ktap_case tcases[] = {
	{ "/dev/null write swallows and read gives EOF", null_write },
	{ "/dev/zero read gives zeros", zero_read },
	{ "/dev/zero private mmap gives zero pages", zero_mmap },
	{ "/dev/full write fails with ENOSPC", full_write },
	{ "/dev/urandom reads differ", urandom_read },
	{ "/dev/random polls readable and reads differ", random_read },
	{ "getrandom blocking and nonblocking", getrandom_call },
	{ "/dev/mem reads the BIOS area", mem_read },
	{ "/dev/kmsg write is read back", kmsg_record },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(tcases),
	.devices = (const char *const[]){ "/dev/null", "/dev/zero", "/dev/full",
					  "/dev/random", "/dev/urandom",
					  "/dev/mem", "/dev/kmsg", NULL },
	.timeout = 20,
	.cases = tcases,
};
