// SPDX-License-Identifier: GPL-2.0
/*
 * sd-card - the mmc block driver and the mmc debugfs files on QEMU's SD
 * card behind its SDHCI PCI controller (the mmc-sd profile).
 *
 * The runner writes the card's image (16 MiB) with seed 0 of the lab
 * pattern (pattern.h); QEMU's sd-card gives it the RCA 0x4567 and the
 * kernel names the card mmc0:4567. Each case pins what 6.1 answers:
 *
 *   - drivers/mmc/core/block.c: /dev/mmcblk0 is the whole image (a 16 MiB
 *     SDSC card: byte addressing), reads the pattern, takes a write and
 *     reads it back (O_DIRECT); lseek on the node is blkdev_llseek (a
 *     fixed size: SEEK_END is the size, past it EINVAL). MMC_IOC_CMD, which
 *     mmc_blk_ioctl() sends through the block queue as a driver request:
 *     CMD13 SEND_STATUS with the card's RCA answers R1 "tran, ready for
 *     data" without error bits; CMD17 READ_SINGLE_BLOCK reads a sector of
 *     the pattern; ACMD13 SD_STATUS (is_acmd: CMD55 first) reports the
 *     4-bit bus; CMD13 with another RCA gets no answer from the card
 *     (-ETIMEDOUT). Its limits: blksz * blocks over MMC_IOC_MAX_BYTES is
 *     EOVERFLOW, MMC_IOC_MULTI_CMD with 0 commands does nothing, with more
 *     than MMC_IOC_MAX_CMDS is EINVAL, two CMD13 in one request both
 *     answer; an ioctl the driver does not know is EINVAL (mmc_blk_ioctl's
 *     default, not ENOTTY).
 *   - drivers/mmc/core/debugfs.c (/sys/kernel/debug/mmc0): ios, clock
 *     (half the clock set and shown by ios, above f_max EINVAL, the old
 *     value back), caps and caps2, the card's state, err_stats and
 *     err_state: a write to err_stats clears the counters, err_state reads
 *     0, and the bad-RCA CMD13 above counts one command timeout
 *     (sdhci_cmd_irq). block.c adds the card's "status" file (CMD13 sent
 *     as a driver request); "ext_csd" is for MMC cards only.
 *
 * lseek on err_stats is what patches/core 0125 changes (seq_lseek): the
 * lseek ABI walk records it on both kernels and
 * patches/core/expected-lseek-changes lists the patched record, so this
 * test reads the file with pread-free sequential reads only.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <linux/fs.h>
#include <linux/mmc/ioctl.h>

#include "ktap.h"
#include "pattern.h"
#include "slurp.h"

#define CHECK(cond)							\
	((cond) ? 1 : (ktap_diag("%s:%d: %s failed, errno %d (%s)",	\
				 __func__, __LINE__, #cond, errno,	\
				 strerror(errno)), 0))
#define FAILS(call, e) ((call) < 0 && errno == (e))

#define CARD		"/dev/mmcblk0"
#define CARD_BYTES	(16ULL << 20)	/* the profile's image=sd.img 16 */
#define DEBUGFS		"/sys/kernel/debug/mmc0"
#define CARD_WAIT_MS	10000		/* sdhci probes and the card
					 * initialises from a work item */
#define SCRATCH_SEED	77

/* include/linux/mmc/core.h and mmc.h (not uapi). */
#define MMC_RSP_PRESENT	(1 << 0)
#define MMC_RSP_CRC	(1 << 2)
#define MMC_RSP_OPCODE	(1 << 4)
#define MMC_CMD_AC	(0 << 5)
#define MMC_CMD_ADTC	(1 << 5)
#define MMC_RSP_SPI_S1	(1 << 7)
#define MMC_RSP_R1	(MMC_RSP_PRESENT | MMC_RSP_CRC | MMC_RSP_OPCODE)
#define R1_CURRENT_STATE(x) (((x) & 0x00001E00) >> 9)
#define R1_READY_FOR_DATA (1u << 8)
#define R1_STATE_TRAN	4
/* The R1 error bits block.c's CMD_ERRORS checks. */
#define R1_ERRORS	0xe4380000u
/* drivers/mmc/core/card.h */
#define MMC_STATE_PRESENT	(1u << 0)
#define MMC_STATE_READONLY	(1u << 1)
#define MMC_STATE_BLOCKADDR	(1u << 2)
#define MMC_CARD_REMOVED	(1u << 4)
#define MMC_STATE_SUSPENDED	(1u << 5)
/* include/linux/mmc/host.h */
#define MMC_CAP_4_BIT_DATA	(1u << 0)

static unsigned int rca;	/* from the card's name, mmc0:RRRR */
static char card_name[32];

/* Each line of buf as a diagnostic. */
static void diag_lines(const char *what, char *buf)
{
	char *save, *line;

	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		ktap_diag("%s: %s", what, line);
}

/* A debugfs number (x32 "0x%08x" or "%llu"), or -1. */
static long long number(const char *path)
{
	char buf[64];

	if (slurp(path, buf, sizeof(buf)) <= 0)
		return -1;
	return strtoll(buf, NULL, 0);
}

static int card_open(void *arg)
{
	int fd = open(CARD, O_RDONLY | O_CLOEXEC);

	(void)arg;
	if (fd >= 0) {
		close(fd);
		return KTAP_READY;
	}
	return errno == ENXIO ? KTAP_BUSY : KTAP_WAIT;
}

/* Case 1: the card shows up and its name gives the RCA. */
static int card_found(void)
{
	long long start = ktap_now_ms();
	struct dirent *de;
	DIR *d;
	int ok;

	ktap_wait_dev(NULL, card_open, NULL, CARD_WAIT_MS);
	ok = CHECK(card_open(NULL) == KTAP_READY);
	ktap_diag(CARD " after %lld ms", ktap_now_ms() - start);
	d = opendir("/sys/bus/mmc/devices");
	while (d && (de = readdir(d)))
		if (sscanf(de->d_name, "mmc0:%4x", &rca) == 1)
			snprintf(card_name, sizeof(card_name), "%.31s", de->d_name);
	if (d)
		closedir(d);
	ktap_diag("card %s, rca 0x%04x", card_name[0] ? card_name : "none", rca);
	return ok && CHECK(card_name[0] && rca);
}

static int card_type(void)
{
	char path[128], buf[32];

	snprintf(path, sizeof(path), "/sys/bus/mmc/devices/%s/type", card_name);
	return CHECK(slurp(path, buf, sizeof(buf)) > 0) &&
	       CHECK(!strcmp(buf, "SD\n"));
}

static int size(void)
{
	uint64_t bytes = 0;
	int fd = open(CARD, O_RDONLY | O_CLOEXEC);
	int ssz = 0;
	int ok = CHECK(fd >= 0) && CHECK(!ioctl(fd, BLKGETSIZE64, &bytes)) &&
		 CHECK(!ioctl(fd, BLKSSZGET, &ssz));

	ktap_diag("%llu bytes, logical block %d", (unsigned long long)bytes, ssz);
	close(fd);
	return ok && CHECK(bytes == CARD_BYTES) && CHECK(ssz == 512);
}

/* count sectors at lba hold seed's pattern (O_DIRECT read). */
static int check_range(int fd, unsigned long long lba, unsigned int count,
		       unsigned int seed, unsigned char *buf)
{
	size_t len = (size_t)count * PATTERN_SECTOR;
	unsigned int i;

	if (pread(fd, buf, len, (off_t)(lba * PATTERN_SECTOR)) != (ssize_t)len)
		return ktap_perror("pread") + 1;
	for (i = 0; i < count; i++)
		if (!pattern_check(buf + (size_t)i * PATTERN_SECTOR, lba + i,
				   seed)) {
			ktap_diag("lba %llu is not seed %u: '%.20s'", lba + i,
				  seed, buf + (size_t)i * PATTERN_SECTOR);
			return 0;
		}
	return 1;
}

static unsigned char *iobuf(void)
{
	static unsigned char *buf;

	if (!buf && posix_memalign((void **)&buf, 4096, 64 * PATTERN_SECTOR))
		ktap_bail("no memory for the I/O buffer");
	return buf;
}

static int pattern(void)
{
	unsigned long long last = CARD_BYTES / PATTERN_SECTOR - 1;
	int fd = open(CARD, O_RDONLY | O_DIRECT | O_CLOEXEC);
	int ok = CHECK(fd >= 0) && check_range(fd, 0, 8, 0, iobuf()) &&
		 check_range(fd, last / 2, 64, 0, iobuf()) &&
		 check_range(fd, last, 1, 0, iobuf()) &&
		 CHECK(pread(fd, iobuf(), PATTERN_SECTOR, CARD_BYTES) == 0);

	close(fd);
	return ok;
}

/* 32 sectors at a quarter: written with another seed, fsync, read back. */
static int scratch(void)
{
	unsigned long long lba = CARD_BYTES / PATTERN_SECTOR / 4;
	int fd = open(CARD, O_RDWR | O_DIRECT | O_CLOEXEC);
	unsigned char *buf = iobuf();
	unsigned int i;
	int ok;

	for (i = 0; i < 32; i++)
		pattern_fill(buf + i * PATTERN_SECTOR, lba + i, SCRATCH_SEED);
	ok = CHECK(fd >= 0) &&
	     CHECK(pwrite(fd, buf, 32 * PATTERN_SECTOR,
			  (off_t)(lba * PATTERN_SECTOR)) == 32 * PATTERN_SECTOR) &&
	     CHECK(!fsync(fd)) && check_range(fd, lba, 32, SCRATCH_SEED, buf) &&
	     check_range(fd, lba - 1, 1, 0, buf) &&
	     check_range(fd, lba + 32, 1, 0, buf);
	close(fd);
	return ok;
}

/*
 * blkdev_llseek: fixed_size_llseek() over the disk's size, which takes
 * SEEK_SET, SEEK_CUR and SEEK_END only (SEEK_DATA and SEEK_HOLE: EINVAL).
 */
static int seek(void)
{
	int fd = open(CARD, O_RDONLY | O_CLOEXEC);
	int ok = CHECK(fd >= 0) &&
		 CHECK(lseek(fd, 0, SEEK_END) == (off_t)CARD_BYTES) &&
		 CHECK(lseek(fd, 4096, SEEK_SET) == 4096) &&
		 CHECK(lseek(fd, 512, SEEK_CUR) == 4608) &&
		 CHECK(FAILS(lseek(fd, CARD_BYTES + 1, SEEK_SET), EINVAL)) &&
		 CHECK(FAILS(lseek(fd, -1, SEEK_SET), EINVAL)) &&
		 CHECK(FAILS(lseek(fd, 0, SEEK_DATA), EINVAL)) &&
		 CHECK(FAILS(lseek(fd, 0, SEEK_HOLE), EINVAL));

	close(fd);
	return ok;
}

/* One MMC_IOC_CMD; returns the ioctl's result, errno as it left it. */
static int mmc_cmd(int fd, struct mmc_ioc_cmd *c)
{
	return ioctl(fd, MMC_IOC_CMD, c);
}

static void send_status(struct mmc_ioc_cmd *c, unsigned int to)
{
	memset(c, 0, sizeof(*c));
	c->opcode = 13;			/* MMC_SEND_STATUS */
	c->arg = to << 16;
	c->flags = MMC_RSP_SPI_S1 | MMC_RSP_R1 | MMC_CMD_AC;
}

static int tran(unsigned int status)
{
	return R1_CURRENT_STATE(status) == R1_STATE_TRAN &&
	       (status & R1_READY_FOR_DATA) && !(status & R1_ERRORS);
}

static int cmd13(void)
{
	struct mmc_ioc_cmd c;
	int fd = open(CARD, O_RDWR | O_CLOEXEC);
	int ok;

	send_status(&c, rca);
	ok = CHECK(fd >= 0) && CHECK(!mmc_cmd(fd, &c));
	ktap_diag("CMD13 rca 0x%04x: R1 0x%08x (state %u)", rca, c.response[0],
		  R1_CURRENT_STATE(c.response[0]));
	close(fd);
	return ok && CHECK(tran(c.response[0]));
}

/* CMD17 READ_SINGLE_BLOCK: SDSC cards take a byte address. */
static int cmd17(void)
{
	unsigned long long lba = 12345;
	struct mmc_ioc_cmd c = {
		.opcode = 17,
		.arg = (uint32_t)(lba * PATTERN_SECTOR),
		.flags = MMC_RSP_SPI_S1 | MMC_RSP_R1 | MMC_CMD_ADTC,
		.blksz = PATTERN_SECTOR,
		.blocks = 1,
	};
	unsigned char buf[PATTERN_SECTOR] = { 0 };
	int fd = open(CARD, O_RDWR | O_CLOEXEC);
	int ok;

	mmc_ioc_cmd_set_data(c, buf);
	ok = CHECK(fd >= 0) && CHECK(!mmc_cmd(fd, &c));
	ktap_diag("CMD17 lba %llu: R1 0x%08x, '%.16s'", lba, c.response[0], buf);
	close(fd);
	return ok && CHECK(!(c.response[0] & R1_ERRORS)) &&
	       CHECK(pattern_check(buf, lba, 0));
}

/* ACMD13 SD_STATUS: 64 bytes, DAT_BUS_WIDTH (bits 511:510) 10b, 4 bits. */
static int acmd13(void)
{
	unsigned char st[64] = { 0 };
	struct mmc_ioc_cmd c = {
		.is_acmd = 1,
		.opcode = 13,
		.flags = MMC_RSP_SPI_S1 | MMC_RSP_R1 | MMC_CMD_ADTC,
		.blksz = sizeof(st),
		.blocks = 1,
	};
	int fd = open(CARD, O_RDWR | O_CLOEXEC);
	int ok;

	mmc_ioc_cmd_set_data(c, st);
	ok = CHECK(fd >= 0) && CHECK(!mmc_cmd(fd, &c));
	ktap_diag("ACMD13: R1 0x%08x, SD status %02x %02x %02x %02x",
		  c.response[0], st[0], st[1], st[2], st[3]);
	close(fd);
	return ok && CHECK(!(c.response[0] & R1_ERRORS)) &&
	       CHECK(st[0] >> 6 == 2);
}

/* Two CMD13 in one MMC_IOC_MULTI_CMD; 0 commands; too many. */
static int multi(void)
{
	struct {
		struct mmc_ioc_multi_cmd m;
		struct mmc_ioc_cmd c[2];
	} req;
	int fd = open(CARD, O_RDWR | O_CLOEXEC);
	int ok = CHECK(fd >= 0);

	memset(&req, 0, sizeof(req));
	req.m.num_of_cmds = 2;
	send_status(&req.c[0], rca);
	send_status(&req.c[1], rca);
	ok = ok && CHECK(!ioctl(fd, MMC_IOC_MULTI_CMD, &req));
	ktap_diag("multi: R1 0x%08x, 0x%08x", req.c[0].response[0],
		  req.c[1].response[0]);
	ok = ok && CHECK(tran(req.c[0].response[0])) &&
	     CHECK(tran(req.c[1].response[0]));
	req.m.num_of_cmds = 0;
	ok = ok && CHECK(!ioctl(fd, MMC_IOC_MULTI_CMD, &req));
	req.m.num_of_cmds = MMC_IOC_MAX_CMDS + 1;
	ok = ok && CHECK(FAILS(ioctl(fd, MMC_IOC_MULTI_CMD, &req), EINVAL));
	close(fd);
	return ok;
}

/* Over MMC_IOC_MAX_BYTES: EOVERFLOW; an unknown ioctl: EINVAL. */
static int limits(void)
{
	struct mmc_ioc_cmd c;
	int fd = open(CARD, O_RDWR | O_CLOEXEC);
	int ok = CHECK(fd >= 0);

	send_status(&c, rca);
	c.blksz = 512;
	c.blocks = MMC_IOC_MAX_BYTES / 512 + 1;
	ok = ok && CHECK(FAILS(mmc_cmd(fd, &c), EOVERFLOW));
	ok = ok && CHECK(FAILS(ioctl(fd, _IOWR(MMC_BLOCK_MAJOR, 7,
					       struct mmc_ioc_cmd), &c),
			       EINVAL));
	close(fd);
	return ok;
}

/* The clock line of ios, as mmc_ios_show() prints it. */
static int ios_clock(char *buf, size_t len, long long hz)
{
	char want[64];

	snprintf(want, sizeof(want), "clock:\t\t%lld Hz\n", hz);
	return slurp(DEBUGFS "/ios", buf, len) > 0 &&
	       !strncmp(buf, want, strlen(want));
}

static int ios(void)
{
	char buf[1024];
	long long clock = number(DEBUGFS "/clock");
	int ok = CHECK(clock > 0) && CHECK(ios_clock(buf, sizeof(buf), clock)) &&
		 CHECK(strstr(buf, "power mode:\t2 (on)\n")) &&
		 CHECK(strstr(buf, "bus width:\t2 (4 bits)\n")) &&
		 CHECK(strstr(buf, "timing spec:\t2 (sd high-speed)\n")) &&
		 CHECK(strstr(buf, "signal voltage:\t0 (3.30 V)\n"));

	diag_lines("ios", buf);
	return ok;
}

/*
 * mmc_clock_opt_set(): 0 or f_min..f_max. Half the clock is set (ios
 * follows), above f_max is EINVAL and leaves it, the old value goes
 * back and the card still reads.
 */
static int clock_file(void)
{
	long long before = number(DEBUGFS "/clock");
	char val[32], buf[1024];
	int ok = CHECK(before > 0);

	snprintf(val, sizeof(val), "%lld\n", before / 2);
	ok = ok && CHECK(!put_text(DEBUGFS "/clock", val)) &&
	     CHECK(number(DEBUGFS "/clock") == before / 2) &&
	     CHECK(ios_clock(buf, sizeof(buf), before / 2));
	ok = ok && CHECK(FAILS(put_text(DEBUGFS "/clock", "4000000000\n"), EINVAL)) &&
	     CHECK(number(DEBUGFS "/clock") == before / 2);
	snprintf(val, sizeof(val), "%lld\n", before);
	ok = ok && CHECK(!put_text(DEBUGFS "/clock", val)) &&
	     CHECK(number(DEBUGFS "/clock") == before);
	ktap_diag("clock %lld Hz, %lld Hz for a while", before, before / 2);
	{
		int fd = open(CARD, O_RDONLY | O_DIRECT | O_CLOEXEC);

		ok = ok && CHECK(fd >= 0) && check_range(fd, 100, 8, 0, iobuf());
		close(fd);
	}
	return ok;
}

static int caps(void)
{
	char buf[32];
	long long c = number(DEBUGFS "/caps");
	int ok = CHECK(slurp(DEBUGFS "/caps2", buf, sizeof(buf)) == 11) &&
		 CHECK(!strncmp(buf, "0x", 2));

	ktap_diag("caps 0x%08llx, caps2 %.10s", c, buf);
	return ok && CHECK(c > 0 && (c & MMC_CAP_4_BIT_DATA));
}

static int state(void)
{
	char path[128];
	long long s;

	snprintf(path, sizeof(path), DEBUGFS "/%s/state", card_name);
	s = number(path);
	ktap_diag("%s state 0x%llx", card_name, s);
	return CHECK(s >= 0) && CHECK(s & MMC_STATE_PRESENT) &&
	       CHECK(!(s & (MMC_STATE_READONLY | MMC_STATE_BLOCKADDR |
			    MMC_CARD_REMOVED | MMC_STATE_SUSPENDED)));
}

/*
 * block.c's card "status" file: MMC_DRV_OP_GET_CARD_STATUS through the
 * block queue (CMD13), printed "%08llx": tran, ready for data.
 */
static int status_file(void)
{
	char path[128], buf[32];
	unsigned long st;
	ssize_t n;

	snprintf(path, sizeof(path), DEBUGFS "/%s/status", card_name);
	n = slurp(path, buf, sizeof(buf));
	st = strtoul(buf, NULL, 16);
	ktap_diag("%s status %.8s", card_name, buf);
	return CHECK(n == 9) && CHECK(tran((unsigned int)st));
}

/* The "# Command Timeout Occurred:\t N" line of err_stats, or -1. */
static int cmd_timeouts(void)
{
	const char *key = "# Command Timeout Occurred:\t ";
	char buf[2048];
	char *p;

	if (slurp(DEBUGFS "/err_stats", buf, sizeof(buf)) <= 0)
		return -1;
	p = strstr(buf, key);
	return p ? atoi(p + strlen(key)) : -1;
}

/*
 * err_stats cleared by a write; then CMD13 to an RCA the card does not
 * have: QEMU's card stays silent, sdhci reports a command timeout, the
 * ioctl fails with ETIMEDOUT and err_stats and err_state count it.
 */
static int bad_rca(void)
{
	struct mmc_ioc_cmd c;
	int fd = open(CARD, O_RDWR | O_CLOEXEC);
	int ok = CHECK(fd >= 0);
	int before = cmd_timeouts();

	ktap_diag("command timeouts before the reset: %d", before);
	ok = ok && CHECK(!put_text(DEBUGFS "/err_stats", "0\n")) &&
	     CHECK(cmd_timeouts() == 0) && CHECK(number(DEBUGFS "/err_state") == 0);
	send_status(&c, rca ^ 0x0101);
	ok = ok && CHECK(FAILS(mmc_cmd(fd, &c), ETIMEDOUT));
	ok = ok && CHECK(cmd_timeouts() == 1) &&
	     CHECK(number(DEBUGFS "/err_state") == 1);
	/* The card is still there: its own RCA answers. */
	send_status(&c, rca);
	ok = ok && CHECK(!mmc_cmd(fd, &c)) && CHECK(tran(c.response[0]));
	close(fd);
	return ok;
}

static const struct ktap_case cases[] = {
	{ CARD " appears, the card mmc0:RRRR gives the RCA", card_found },
	{ "the card's sysfs type is SD", card_type },
	{ "BLKGETSIZE64 is the 16 MiB image, BLKSSZGET 512", size },
	{ "seed 0 pattern at the start, middle and end, 0 bytes past the end", pattern },
	{ "O_DIRECT write of 32 sectors, fsync, read back, neighbours kept", scratch },
	{ "lseek: SEEK_END is the size, past it EINVAL, SEEK_DATA and SEEK_HOLE EINVAL", seek },
	{ "MMC_IOC_CMD CMD13 with the RCA: R1 tran, ready for data, no error", cmd13 },
	{ "MMC_IOC_CMD CMD17 reads the pattern of lba 12345", cmd17 },
	{ "MMC_IOC_CMD ACMD13 SD status: 4-bit bus", acmd13 },
	{ "MMC_IOC_MULTI_CMD: two CMD13 answer, 0 commands ok, 256 EINVAL", multi },
	{ "MMC_IOC_CMD over MMC_IOC_MAX_BYTES EOVERFLOW, unknown ioctl EINVAL", limits },
	{ "debugfs ios: clock as the clock file, power on, 4 bits, sd high-speed, 3.30 V", ios },
	{ "debugfs clock: half set and in ios, above f_max EINVAL, restored, card reads", clock_file },
	{ "debugfs caps has MMC_CAP_4_BIT_DATA, caps2 reads", caps },
	{ "debugfs card state: present, not read-only, byte addressed", state },
	{ "debugfs card status (block.c): CMD13 through the queue, tran", status_file },
	{ "err_stats reset; CMD13 to another RCA ETIMEDOUT counts one command timeout", bad_rca },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(cases),
	.kconfig = (const char *const[]){ "CONFIG_MMC_BLOCK",
		"CONFIG_MMC_SDHCI_PCI", "CONFIG_DEBUG_FS", NULL },
	.timeout = 40,
	.upstream = "patches/core 0030 (mmc no_llseek) and 0125 (err_stats seq_lseek)",
	.cases = cases,
};
