// SPDX-License-Identifier: GPL-2.0
/*
 * vtpm-proxy - the TPM core's character devices without a TPM:
 * tpm_vtpm_proxy's /dev/vtpmx makes a TPM 2.0 chip whose other end is a
 * file descriptor this test answers as the TPM (a thread, "the server").
 *
 * VTPM_PROXY_IOC_NEW_DEV returns the server fd and queues the chip's
 * registration, which talks to the TPM before /dev/tpm0 exists
 * (tpm_chip_register -> tpm_chip_bootstrap): TPM2_CC_SET_LOCALITY (the
 * proxy's request_locality; once: with no relinquish_locality op the chip
 * keeps locality 0),
 * TPM2_SelfTest (tpm2_do_selftest; success means no TPM2_Startup),
 * TPM2_GetCapability of TPM_PT_TOTAL_COMMANDS and of TPM2_CAP_COMMANDS
 * (tpm2_get_cc_attrs_tbl: the resource manager's command table) and of
 * TPM2_CAP_PCRS (tpm2_get_pcr_allocation: one SHA-256 bank, so no
 * TPM2_PCR_Read and a pcr-sha256 sysfs group). The server answers each
 * with the smallest body those functions parse.
 *
 * Then /dev/tpm0 (tpm-dev.c: one opener, blocking and O_NONBLOCK writes
 * through tpm-dev-common.c) and /dev/tpmrm0 (tpmrm-dev.c: the resource
 * manager, which answers a command not in the table itself), and closing
 * the server fd unregisters the chip under open files.
 */
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <linux/vtpm_proxy.h>

#include "ktap.h"

/* include/linux/tpm.h of 6.1 (not uapi). */
#define TPM_HEADER_SIZE		10
#define TPM2_ST_NO_SESSIONS	0x8001
#define TPM2_RC_COMMAND_CODE	0x0143
#define TSS2_RESMGR_TPM_RC_LAYER (11 << 16)
#define TPM2_CC_SELF_TEST	0x0143
#define TPM2_CC_STARTUP		0x0144
#define TPM2_CC_SHUTDOWN	0x0145
#define TPM2_CC_CONTEXT_LOAD	0x0161
#define TPM2_CC_CONTEXT_SAVE	0x0162
#define TPM2_CC_FLUSH_CONTEXT	0x0165
#define TPM2_CC_GET_CAPABILITY	0x017A
#define TPM2_CC_GET_RANDOM	0x017B
#define TPM2_CC_PCR_READ	0x017E
#define TPM2_CAP_COMMANDS	2
#define TPM2_CAP_PCRS		5
#define TPM2_CAP_TPM_PROPERTIES	6
#define TPM_PT_TOTAL_COMMANDS	0x0129
#define TPM_ALG_SHA256		0x000B
#define TPM2_CC_ATTR_CHANDLES	25
#define TPM2_CC_ATTR_RHANDLE	28
/* tpm_chip_alloc(): the first chip is the misc TPM node 10:224. */
#define TPM0_MAJOR		10
#define TPM0_MINOR		224

/* The server's command table: what TPM2_CAP_COMMANDS answers. */
static const uint32_t cc_attrs[] = {
	TPM2_CC_SELF_TEST,
	TPM2_CC_GET_CAPABILITY,
	TPM2_CC_GET_RANDOM,
	TPM2_CC_CONTEXT_SAVE | 1u << TPM2_CC_ATTR_CHANDLES,
	TPM2_CC_CONTEXT_LOAD | 1u << TPM2_CC_ATTR_RHANDLE,
	TPM2_CC_FLUSH_CONTEXT | 1u << TPM2_CC_ATTR_CHANDLES,
};
#define NR_CC ARRAY_SIZE(cc_attrs)

/* What the server saw, by command. */
enum {
	SEEN_LOCALITY, SEEN_SELFTEST, SEEN_STARTUP, SEEN_CAP_PT, SEEN_CAP_CC,
	SEEN_CAP_PCRS, SEEN_RANDOM, SEEN_CONTEXT, SEEN_SHUTDOWN, SEEN_OTHER,
	SEEN_MAX
};
static const char *const seen_name[SEEN_MAX] = {
	"set-locality", "self-test", "startup", "cap-pt", "cap-commands",
	"cap-pcrs", "get-random", "context", "shutdown", "other",
};

static struct {
	int fd;			/* the server end */
	int stop;		/* eventfd: the thread returns */
	pthread_t thread;
	int running;
	atomic_uint seen[SEEN_MAX];
	atomic_int err;		/* errno of a failed read or write */
} srv = { .fd = -1, .stop = -1 };

static struct vtpm_proxy_new_dev newdev;
static int tpm_fd = -1, rm_fd = -1;
static char tpm_path[32], rm_path[32];

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static uint16_t get16(const uint8_t *p)
{
	return p[0] << 8 | p[1];
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

/* The GetRandom bytes the server hands out: byte i is 0xa5 ^ i. */
static uint8_t random_byte(unsigned int i)
{
	return 0xa5 ^ i;
}

/* The TPM: one response for one command; returns its length. */
static size_t answer(const uint8_t *cmd, size_t n, uint8_t *rsp)
{
	uint32_t cc = n >= TPM_HEADER_SIZE ? get32(cmd + 6) : 0;
	uint32_t rc = 0;
	size_t len = TPM_HEADER_SIZE, i;

	switch (cc) {
	case TPM2_CC_SET_LOCALITY:
		srv.seen[SEEN_LOCALITY]++;
		break;
	case TPM2_CC_SELF_TEST:
		srv.seen[SEEN_SELFTEST]++;
		break;
	case TPM2_CC_STARTUP:
		srv.seen[SEEN_STARTUP]++;
		break;
	case TPM2_CC_SHUTDOWN:
		srv.seen[SEEN_SHUTDOWN]++;
		break;
	case TPM2_CC_CONTEXT_SAVE:
	case TPM2_CC_CONTEXT_LOAD:
	case TPM2_CC_FLUSH_CONTEXT:
		/* not expected: the test keeps no object in a space */
		srv.seen[SEEN_CONTEXT]++;
		rc = TPM2_RC_COMMAND_CODE;
		break;
	case TPM2_CC_GET_CAPABILITY: {
		uint32_t cap = n >= 22 ? get32(cmd + 10) : 0;
		uint32_t prop = n >= 22 ? get32(cmd + 14) : 0;

		/* TPMS_CAPABILITY_DATA after moreData */
		rsp[10] = 0;
		put32(rsp + 11, cap);
		if (cap == TPM2_CAP_TPM_PROPERTIES &&
		    prop == TPM_PT_TOTAL_COMMANDS) {
			srv.seen[SEEN_CAP_PT]++;
			put32(rsp + 15, 1);
			put32(rsp + 19, prop);
			put32(rsp + 23, NR_CC);
			len = 27;
		} else if (cap == TPM2_CAP_COMMANDS) {
			srv.seen[SEEN_CAP_CC]++;
			put32(rsp + 15, NR_CC);
			for (i = 0; i < NR_CC; i++)
				put32(rsp + 19 + 4 * i, cc_attrs[i]);
			len = 19 + 4 * NR_CC;
		} else if (cap == TPM2_CAP_PCRS) {
			/* one TPMS_PCR_SELECTION: SHA-256, PCRs 0-23 */
			srv.seen[SEEN_CAP_PCRS]++;
			put32(rsp + 15, 1);
			put16(rsp + 19, TPM_ALG_SHA256);
			rsp[21] = 3;
			rsp[22] = rsp[23] = rsp[24] = 0xff;
			len = 25;
		} else {
			srv.seen[SEEN_OTHER]++;
			rc = TPM2_RC_COMMAND_CODE;
		}
		break;
	}
	case TPM2_CC_GET_RANDOM: {
		uint16_t want = n >= 12 ? get16(cmd + 10) : 0;

		srv.seen[SEEN_RANDOM]++;
		if (want > 32)
			want = 32;
		put16(rsp + 10, want);
		for (i = 0; i < want; i++)
			rsp[12 + i] = random_byte(i);
		len = 12 + want;
		break;
	}
	default:
		srv.seen[SEEN_OTHER]++;
		rc = TPM2_RC_COMMAND_CODE;
		break;
	}
	if (rc)
		len = TPM_HEADER_SIZE;
	put16(rsp, TPM2_ST_NO_SESSIONS);
	put32(rsp + 2, len);
	put32(rsp + 6, rc);
	return len;
}

/*
 * The server thread: answers every command until the stop eventfd fires
 * or the kernel closes its end (EPOLLHUP: registration failed, or the
 * chip went away). It never blocks in read(): a read in progress would
 * hold the file and keep close() from releasing it.
 */
static void *server(void *arg)
{
	static uint8_t cmd[4096], rsp[4096];

	(void)arg;
	for (;;) {
		struct pollfd p[2] = {
			{ .fd = srv.fd, .events = POLLIN },
			{ .fd = srv.stop, .events = POLLIN },
		};
		ssize_t n;
		size_t len;

		if (poll(p, 2, 30000) <= 0 || p[1].revents)
			break;
		if (p[0].revents & POLLHUP) {
			srv.err = EPIPE;
			break;
		}
		if (!(p[0].revents & POLLIN))
			continue;
		n = read(srv.fd, cmd, sizeof(cmd));
		if (n < 0) {
			srv.err = errno;
			break;
		}
		len = answer(cmd, n, rsp);
		if (write(srv.fd, rsp, len) != (ssize_t)len) {
			srv.err = errno;
			break;
		}
	}
	return NULL;
}

static void server_stop(void)
{
	uint64_t one = 1;

	if (!srv.running)
		return;
	if (write(srv.stop, &one, sizeof(one)) != sizeof(one))
		ktap_perror("eventfd write");
	pthread_join(srv.thread, NULL);
	srv.running = 0;
}

static void seen_diag(void)
{
	char line[256];
	size_t off = 0;
	int i;

	for (i = 0; i < SEEN_MAX; i++)
		off += snprintf(line + off, sizeof(line) - off, " %s=%u",
				seen_name[i], srv.seen[i]);
	ktap_diag("server saw:%s", line);
}

static int vtpmx_open(void)
{
	int fd = open("/dev/vtpmx", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		ktap_perror("open /dev/vtpmx");
	return fd;
}

/* A flag the proxy does not know: EOPNOTSUPP, before any chip exists. */
static int new_dev_bad_flag(void)
{
	struct vtpm_proxy_new_dev d = { .flags = VTPM_PROXY_FLAG_TPM2 << 1 };
	int fd = vtpmx_open();
	int ok = fd >= 0 && ioctl(fd, VTPM_PROXY_IOC_NEW_DEV, &d) < 0 &&
		 errno == EOPNOTSUPP;

	close(fd);
	return ok;
}

/* An ioctl /dev/vtpmx does not have: ENOTTY (-ENOIOCTLCMD). */
static int vtpmx_bad_ioctl(void)
{
	int fd = vtpmx_open();
	int ok = fd >= 0 && ioctl(fd, _IO(0xa1, 0x7f)) < 0 && errno == ENOTTY;

	close(fd);
	return ok;
}

static int new_dev_tpm2(void)
{
	int fd = vtpmx_open();
	int ok;

	newdev.flags = VTPM_PROXY_FLAG_TPM2;
	ok = fd >= 0 && !ioctl(fd, VTPM_PROXY_IOC_NEW_DEV, &newdev);
	close(fd);
	if (!ok)
		return 0;
	srv.fd = newdev.fd;
	ktap_diag("server fd %u, tpm%u, %u:%u", newdev.fd, newdev.tpm_num,
		  newdev.major, newdev.minor);
	snprintf(tpm_path, sizeof(tpm_path), "/dev/tpm%u", newdev.tpm_num);
	snprintf(rm_path, sizeof(rm_path), "/dev/tpmrm%u", newdev.tpm_num);
	srv.stop = eventfd(0, EFD_CLOEXEC);
	if (srv.stop < 0 || pthread_create(&srv.thread, NULL, server, NULL))
		return 0;
	srv.running = 1;
	return newdev.tpm_num == 0 && newdev.major == TPM0_MAJOR &&
	       newdev.minor == TPM0_MINOR;
}

static int both_nodes(void *arg)
{
	(void)arg;
	if (srv.err)
		return KTAP_READY;
	return access(tpm_path, F_OK) || access(rm_path, F_OK) ? KTAP_WAIT :
								 KTAP_READY;
}

/* The registration's commands answered: both nodes appear. */
static int registered(void)
{
	struct stat st;
	int ok;

	if (!srv.running)
		return 0;
	ktap_wait_dev(NULL, both_nodes, NULL, 10000);
	seen_diag();
	if (srv.err)
		ktap_diag("server: %s", strerror(srv.err));
	ok = !stat(tpm_path, &st) && S_ISCHR(st.st_mode) &&
	     major(st.st_rdev) == TPM0_MAJOR && minor(st.st_rdev) == TPM0_MINOR &&
	     !stat(rm_path, &st) && S_ISCHR(st.st_mode);
	return ok && srv.seen[SEEN_LOCALITY] >= 1 &&
	       srv.seen[SEEN_SELFTEST] == 1 && srv.seen[SEEN_STARTUP] == 0 &&
	       srv.seen[SEEN_CAP_PT] == 1 && srv.seen[SEEN_CAP_CC] == 1 &&
	       srv.seen[SEEN_CAP_PCRS] == 1 && srv.seen[SEEN_OTHER] == 0;
}

static int read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, size - 1) : -1;

	close(fd);
	if (n < 0)
		return ktap_perror(path);
	buf[n] = '\0';
	return 0;
}

/* tpm2_dev_group and the one bank the server reported. */
static int sysfs_chip(void)
{
	char buf[16];
	struct stat st;

	return !read_file("/sys/class/tpm/tpm0/tpm_version_major", buf,
			  sizeof(buf)) && !strcmp(buf, "2\n") &&
	       !stat("/sys/class/tpm/tpm0/pcr-sha256", &st) &&
	       S_ISDIR(st.st_mode) &&
	       stat("/sys/class/tpm/tpm0/pcr-sha1", &st) && errno == ENOENT;
}

/*
 * The server end: nothing pending, so not readable; a response with no
 * command waiting is EIO; lseek is ESPIPE.
 */
static int server_idle(void)
{
	uint8_t rsp[TPM_HEADER_SIZE];
	struct pollfd p = { .fd = srv.fd, .events = POLLIN | POLLOUT };
	int pollout, eio, espipe;

	put16(rsp, TPM2_ST_NO_SESSIONS);
	put32(rsp + 2, sizeof(rsp));
	put32(rsp + 6, 0);
	pollout = poll(&p, 1, 0) == 1 && p.revents == POLLOUT;
	eio = write(srv.fd, rsp, sizeof(rsp)) < 0 && errno == EIO;
	espipe = lseek(srv.fd, 0, SEEK_SET) < 0 && errno == ESPIPE;
	if (!(pollout && eio && espipe))
		ktap_diag("revents 0x%x, EIO %d, ESPIPE %d", p.revents, eio,
			  espipe);
	return pollout && eio && espipe;
}

static int tpm_open_busy(void)
{
	int fd2;

	tpm_fd = open(tpm_path, O_RDWR | O_CLOEXEC);
	if (tpm_fd < 0)
		return ktap_perror(tpm_path) + 1;
	fd2 = open(tpm_path, O_RDWR | O_CLOEXEC);
	if (fd2 >= 0) {
		close(fd2);
		return 0;
	}
	return errno == EBUSY;
}

static size_t get_random_cmd(uint8_t *cmd, uint16_t bytes)
{
	put16(cmd, TPM2_ST_NO_SESSIONS);
	put32(cmd + 2, 12);
	put32(cmd + 6, TPM2_CC_GET_RANDOM);
	put16(cmd + 10, bytes);
	return 12;
}

/* A TPM2_GetRandom response of the server for 8 bytes. */
static int random_response(const uint8_t *rsp, ssize_t n)
{
	unsigned int i;

	if (n != 20 || get16(rsp) != TPM2_ST_NO_SESSIONS ||
	    get32(rsp + 2) != 20 || get32(rsp + 6) != 0 ||
	    get16(rsp + 10) != 8) {
		ktap_diag("response: %zd bytes, rc 0x%x", n,
			  n >= 10 ? get32(rsp + 6) : 0);
		return 0;
	}
	for (i = 0; i < 8; i++)
		if (rsp[12 + i] != random_byte(i))
			return 0;
	return 1;
}

static int revents(int fd)
{
	struct pollfd p = {
		.fd = fd,
		.events = POLLIN | POLLRDNORM | POLLOUT | POLLWRNORM,
	};

	return poll(&p, 1, 0) < 0 ? -1 : p.revents;
}

/*
 * A blocking write returns when the server has answered; poll then says
 * POLLIN; the read gives the server's bytes; poll says POLLOUT again.
 */
static int tpm_get_random(void)
{
	uint8_t cmd[12], rsp[64];
	unsigned int before = srv.seen[SEEN_RANDOM];
	size_t len = get_random_cmd(cmd, 8);
	int pin, pout;
	ssize_t n;

	if (tpm_fd < 0 || write(tpm_fd, cmd, len) != (ssize_t)len)
		return 0;
	pin = revents(tpm_fd);
	n = read(tpm_fd, rsp, sizeof(rsp));
	pout = revents(tpm_fd);
	if (pin != (POLLIN | POLLRDNORM) || pout != (POLLOUT | POLLWRNORM))
		ktap_diag("poll: 0x%x with a response, 0x%x after", pin, pout);
	return random_response(rsp, n) && srv.seen[SEEN_RANDOM] == before + 1 &&
	       pin == (POLLIN | POLLRDNORM) && pout == (POLLOUT | POLLWRNORM);
}

/*
 * O_NONBLOCK: the write queues the command (tpm_dev_async_work) and
 * returns its size; a second write before the response is read is EBUSY;
 * poll wakes when the response is there.
 */
static int tpm_nonblock(void)
{
	uint8_t cmd[12], rsp[64];
	size_t len = get_random_cmd(cmd, 8);
	struct pollfd p = { .fd = tpm_fd, .events = POLLIN };
	long long deadline = ktap_now_ms() + 5000;
	int ok, busy;
	ssize_t n;

	if (tpm_fd < 0 || fcntl(tpm_fd, F_SETFL, O_NONBLOCK))
		return 0;
	ok = write(tpm_fd, cmd, len) == (ssize_t)len;
	busy = write(tpm_fd, cmd, len) < 0 && errno == EBUSY;
	while (ok && !(p.revents & POLLIN) && ktap_now_ms() < deadline)
		if (poll(&p, 1, (int)(deadline - ktap_now_ms())) < 0)
			ok = 0;
	n = read(tpm_fd, rsp, sizeof(rsp));
	fcntl(tpm_fd, F_SETFL, 0);
	if (!busy)
		ktap_diag("second write: %s", strerror(errno));
	return ok && busy && random_response(rsp, n);
}

/* tpm_common_write(): shorter than the header says, or than 6 bytes. */
static int tpm_short_write(void)
{
	uint8_t cmd[12];

	get_random_cmd(cmd, 8);
	return tpm_fd >= 0 && write(tpm_fd, cmd, 10) < 0 && errno == EINVAL &&
	       write(tpm_fd, cmd, 5) < 0 && errno == EINVAL;
}

static int tpm_lseek(void)
{
	return tpm_fd >= 0 && lseek(tpm_fd, 0, SEEK_SET) < 0 && errno == ESPIPE;
}

/* The resource manager passes a listed command on; no context commands. */
static int tpmrm_get_random(void)
{
	uint8_t cmd[12], rsp[64];
	size_t len = get_random_cmd(cmd, 8);
	unsigned int before = srv.seen[SEEN_RANDOM];
	ssize_t n;

	rm_fd = open(rm_path, O_RDWR | O_CLOEXEC);
	if (rm_fd < 0)
		return ktap_perror(rm_path) + 1;
	if (write(rm_fd, cmd, len) != (ssize_t)len)
		return 0;
	n = read(rm_fd, rsp, sizeof(rsp));
	return random_response(rsp, n) && srv.seen[SEEN_RANDOM] == before + 1 &&
	       srv.seen[SEEN_CONTEXT] == 0;
}

/*
 * A command the TPM did not list (TPM2_PCR_Read): tpm_dev_transmit()
 * answers TPM2_RC_COMMAND_CODE in the resource manager's layer itself,
 * and the server never sees it.
 */
static int tpmrm_unlisted(void)
{
	uint8_t cmd[14] = { 0 }, rsp[64];
	unsigned int before = srv.seen[SEEN_OTHER];
	ssize_t n;

	put16(cmd, TPM2_ST_NO_SESSIONS);
	put32(cmd + 2, sizeof(cmd));
	put32(cmd + 6, TPM2_CC_PCR_READ);
	if (rm_fd < 0 || write(rm_fd, cmd, sizeof(cmd)) != sizeof(cmd))
		return 0;
	n = read(rm_fd, rsp, sizeof(rsp));
	if (n >= TPM_HEADER_SIZE)
		ktap_diag("tpmrm: PCR_Read answered rc 0x%08x", get32(rsp + 6));
	return n == TPM_HEADER_SIZE && get32(rsp + 2) == TPM_HEADER_SIZE &&
	       get32(rsp + 6) == (TPM2_RC_COMMAND_CODE | TSS2_RESMGR_TPM_RC_LAYER) &&
	       srv.seen[SEEN_OTHER] == before;
}

/* tpmrm0 has no one-opener rule: a second open works; lseek ESPIPE. */
static int tpmrm_second_open(void)
{
	int fd2 = open(rm_path, O_RDWR | O_CLOEXEC);
	int ok = fd2 >= 0 && rm_fd >= 0 && lseek(rm_fd, 0, SEEK_SET) < 0 &&
		 errno == ESPIPE;

	close(fd2);
	return ok;
}

/*
 * Closing the server end unregisters the chip (vtpm_proxy_delete_device):
 * the nodes go away at once, and the files still open fail writes with
 * EPIPE (tpm_try_get_ops finds no ops).
 */
static int server_close(void)
{
	uint8_t cmd[12];
	size_t len = get_random_cmd(cmd, 8);
	int tpm_err, rm_err, ok;

	if (srv.fd < 0)
		return 0;
	server_stop();
	close(srv.fd);
	srv.fd = -1;
	ok = access(tpm_path, F_OK) && errno == ENOENT &&
	     access(rm_path, F_OK) && errno == ENOENT &&
	     access("/sys/class/tpm/tpm0", F_OK) && errno == ENOENT;
	if (!ok)
		ktap_diag("a node or the sysfs directory is still there");
	tpm_err = tpm_fd >= 0 && write(tpm_fd, cmd, len) < 0 ? errno : 0;
	rm_err = rm_fd >= 0 && write(rm_fd, cmd, len) < 0 ? errno : 0;
	ktap_diag("after close: write tpm0 %s, tpmrm0 %s", strerror(tpm_err),
		  strerror(rm_err));
	seen_diag();
	close(tpm_fd);
	close(rm_fd);
	tpm_fd = rm_fd = -1;
	return ok && tpm_err == EPIPE && rm_err == EPIPE;
}

static const struct ktap_case cases[] = {
	{ "vtpmx: NEW_DEV with an unknown flag is EOPNOTSUPP", new_dev_bad_flag },
	{ "vtpmx: an unknown ioctl is ENOTTY", vtpmx_bad_ioctl },
	{ "vtpmx: NEW_DEV TPM2 gives a server fd and tpm0 as 10:224", new_dev_tpm2 },
	{ "registration: startup commands answered, tpm0 and tpmrm0 appear", registered },
	{ "sysfs: tpm_version_major 2, pcr-sha256 only", sysfs_chip },
	{ "server fd: idle poll POLLOUT, stray response EIO, lseek ESPIPE", server_idle },
	{ "tpm0: open, a second open is EBUSY", tpm_open_busy },
	{ "tpm0: GetRandom answered by the server, poll POLLIN then POLLOUT", tpm_get_random },
	{ "tpm0: O_NONBLOCK write queued, second write EBUSY, poll wakes", tpm_nonblock },
	{ "tpm0: a write shorter than its header is EINVAL", tpm_short_write },
	{ "tpm0: lseek is ESPIPE", tpm_lseek },
	{ "tpmrm0: GetRandom through the resource manager, no context commands", tpmrm_get_random },
	{ "tpmrm0: an unlisted command is answered 0x000b0143 by the kernel", tpmrm_unlisted },
	{ "tpmrm0: a second open works, lseek is ESPIPE", tpmrm_second_open },
	{ "server close: nodes gone, writes on open files EPIPE", server_close },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(cases),
	.devices = (const char *const[]){ "/dev/vtpmx", NULL },
	.kconfig = (const char *const[]){ "CONFIG_TCG_TPM",
					  "CONFIG_TCG_VTPM_PROXY", NULL },
	.timeout = 45,
	.upstream = "patches/core 0011 (no_llseek in tpm-dev, tpmrm-dev, tpm_vtpm_proxy)",
	.cases = cases,
};
