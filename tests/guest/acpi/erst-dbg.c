// SPDX-License-Identifier: GPL-2.0
/*
 * erst-dbg - /dev/erst_dbg (drivers/acpi/apei/erst-dbg.c, module
 * erst-dbg), the debug node of the APEI Error Record Serialization Table,
 * on QEMU's acpi-erst device (the acpi-pc profile: -device acpi-erst over
 * a 64 KiB memory-backend-file made fresh in the run directory each boot,
 * so the store starts empty).
 *
 * The node writes one whole CPER record a write() (record_length must be
 * the write's size, the signature "CPER": erst_write), returns the next
 * record of the store a read() (from the position of this open file; a
 * buffer too small for the record is EINVAL and skips it), and has two
 * ioctls, APEI_ERST_GET_RECORD_COUNT and APEI_ERST_CLEAR_RECORD.
 *
 * Each case pins what 6.1 does:
 *   - the store is empty: count 0, read gives 0 (EOF);
 *   - a record whose length field is not the write's size, or whose
 *     signature is not "CPER", is EINVAL;
 *   - two records written (192 and 256 bytes, ids ERST_ID1 and ERST_ID2)
 *     make the count 2;
 *   - on a fresh open, a 64-byte read is EINVAL; on another, reads give
 *     both records back byte for byte (but persistence_information, where
 *     erst_write stamps "ER"), then 0;
 *   - APEI_ERST_CLEAR_RECORD of the first: count 1, clearing it again is
 *     ENOENT (QEMU: record not found), reads give only the second;
 *   - an unknown ioctl is ENOTTY;
 *   - lseek and pread are ESPIPE: erst_dbg_open calls nonseekable_open,
 *     so patches/core 0006 (dropping .llseek = no_llseek) changes nothing
 *     either kernel shows;
 *   - the second cleared, the count is 0 again.
 */
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/ioctl.h>

#include "ktap.h"

#define ERST "/dev/erst_dbg"

/* include/acpi/apei.h (not uapi). */
#define APEI_ERST_CLEAR_RECORD _IOW('E', 1, uint64_t)
#define APEI_ERST_GET_RECORD_COUNT _IOR('E', 2, uint32_t)

/* struct cper_record_header of include/linux/cper.h (not uapi), packed. */
struct cper_record_header {
	char signature[4];
	uint16_t revision;
	uint32_t signature_end;
	uint16_t section_count;
	uint32_t error_severity;
	uint32_t validation_bits;
	uint32_t record_length;
	uint64_t timestamp;
	uint8_t platform_id[16];
	uint8_t partition_id[16];
	uint8_t creator_id[16];
	uint8_t notification_type[16];
	uint64_t record_id;
	uint32_t flags;
	uint64_t persistence_information;
	uint8_t reserved[12];
} __attribute__((packed));

_Static_assert(sizeof(struct cper_record_header) == 128, "CPER header");

#define ERST_ID1 0x424b4c4652454531ULL
#define ERST_ID2 0x424b4c4652454532ULL
#define LEN1 192
#define LEN2 256
/* erst-dbg's own limit, ERST_DBG_RECORD_LEN_MAX. */
#define READ_MAX 0x4000

static int fd = -1;
static unsigned char rec1[LEN1], rec2[LEN2];

/* errno of a failed call, 0 when it succeeded. */
static int fails(long r)
{
	return r < 0 ? errno : 0;
}

/* A record of len bytes: a valid header, then a pattern of its id. */
static void make_record(unsigned char *buf, size_t len, uint64_t id)
{
	struct cper_record_header h = {
		.signature = "CPER",
		.revision = 0x0100,
		.signature_end = 0xffffffff,
		.error_severity = 3,	/* CPER_SEV_INFORMATIONAL */
		.record_length = (uint32_t)len,
		.timestamp = 0,
		.record_id = id,
	};
	size_t i;

	memcpy(h.creator_id, "bklfree erst-dbg", 16);
	memcpy(buf, &h, sizeof(h));
	for (i = sizeof(h); i < len; i++)
		buf[i] = (unsigned char)(id + i * 7);
}

static long count(void)
{
	uint32_t n = 0xffffffff;

	if (ioctl(fd, APEI_ERST_GET_RECORD_COUNT, &n))
		return -1;
	ktap_diag("record count %u", n);
	return n;
}

static int open_empty(void)
{
	char buf[256];
	ssize_t r;

	fd = open(ERST, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return 0;
	r = read(fd, buf, sizeof(buf));
	return count() == 0 && r == 0;
}

static int bad_records(void)
{
	unsigned char buf[LEN1];
	int len_err, sig_err;

	make_record(buf, LEN1, ERST_ID1);
	len_err = fails(write(fd, buf, LEN1 - 8));
	memcpy(buf, "XPER", 4);
	sig_err = fails(write(fd, buf, LEN1));
	ktap_diag("short write errno %d, bad signature errno %d", len_err,
		  sig_err);
	errno = 0;
	return len_err == EINVAL && sig_err == EINVAL && count() == 0;
}

static int write_two(void)
{
	make_record(rec1, LEN1, ERST_ID1);
	make_record(rec2, LEN2, ERST_ID2);
	return write(fd, rec1, LEN1) == LEN1 && write(fd, rec2, LEN2) == LEN2 &&
	       count() == 2;
}

static int small_read(void)
{
	char buf[64];
	int fd2 = open(ERST, O_RDONLY | O_CLOEXEC);
	int err;

	if (fd2 < 0)
		return 0;
	err = fails(read(fd2, buf, sizeof(buf)));
	close(fd2);
	errno = 0;
	return err == EINVAL;
}

/* Same bytes but persistence_information, which erst_write sets. */
static int same_record(const unsigned char *got, ssize_t n,
		       const unsigned char *want, size_t len)
{
	size_t skip = offsetof(struct cper_record_header,
			       persistence_information);

	return n == (ssize_t)len && !memcmp(got, want, skip) &&
	       !memcmp(got + skip + 8, want + skip + 8, len - skip - 8);
}

/* Reads every record from a fresh open: 1 when they are want1, want2. */
static int read_back(const unsigned char *want1, size_t len1,
		     const unsigned char *want2, size_t len2)
{
	static unsigned char buf[READ_MAX];
	const unsigned char *want[2] = { want1, want2 };
	size_t len[2] = { len1, len2 };
	int fd2 = open(ERST, O_RDONLY | O_CLOEXEC);
	int found[2] = { 0, 0 }, records = 0, i;
	ssize_t n;

	if (fd2 < 0)
		return 0;
	while ((n = read(fd2, buf, sizeof(buf))) > 0 && records < 8) {
		const struct cper_record_header *h = (const void *)buf;

		records++;
		ktap_diag("read %zd bytes, record id 0x%llx", n,
			  n >= 128 ? (unsigned long long)h->record_id : 0ULL);
		for (i = 0; i < 2; i++)
			if (want[i] && same_record(buf, n, want[i], len[i]))
				found[i]++;
	}
	close(fd2);
	return n == 0 && records == !!want1 + !!want2 &&
	       found[0] == !!want1 && found[1] == !!want2;
}

static int read_both(void)
{
	return read_back(rec1, LEN1, rec2, LEN2);
}

static int clear_first(void)
{
	uint64_t id = ERST_ID1;
	int again;

	if (ioctl(fd, APEI_ERST_CLEAR_RECORD, &id) || count() != 1)
		return 0;
	again = fails(ioctl(fd, APEI_ERST_CLEAR_RECORD, &id));
	errno = 0;
	return again == ENOENT && read_back(NULL, 0, rec2, LEN2);
}

static int unknown_ioctl(void)
{
	uint32_t n;

	return fails(ioctl(fd, _IOR('E', 0x7f, uint32_t), &n)) == ENOTTY;
}

static int seek_espipe(void)
{
	char buf[8];
	int l = fails(lseek(fd, 0, SEEK_SET));
	int p = fails(pread(fd, buf, sizeof(buf), 0));

	errno = 0;
	return l == ESPIPE && p == ESPIPE;
}

static int clear_second(void)
{
	uint64_t id = ERST_ID2;

	return !ioctl(fd, APEI_ERST_CLEAR_RECORD, &id) && count() == 0 &&
	       read_back(NULL, 0, NULL, 0) && !close(fd);
}

static const struct ktap_case cases[] = {
	{ "open " ERST ": the store is empty, count 0, read 0", open_empty },
	{ "a record whose length is not the write's, or without CPER, is EINVAL", bad_records },
	{ "write records of 192 and 256 bytes: count 2", write_two },
	{ "a fresh open's read into 64 bytes is EINVAL", small_read },
	{ "reads on a fresh open give both records back, then 0", read_both },
	{ "APEI_ERST_CLEAR_RECORD: count 1, again ENOENT, reads give the other", clear_first },
	{ "an unknown ioctl is ENOTTY", unknown_ioctl },
	{ "lseek and pread are ESPIPE", seek_espipe },
	{ "the second cleared: count 0, reads give nothing", clear_second },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(cases),
	.devices = (const char *const[]){ ERST, NULL },
	.kconfig = (const char *const[]){ "CONFIG_ACPI_APEI",
		"CONFIG_ACPI_APEI_ERST_DEBUG", NULL },
	.timeout = 20,
	.upstream = "patches/core 0006 (drivers/acpi: drop no_llseek)",
	.cases = cases,
};
