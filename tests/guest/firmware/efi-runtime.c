// SPDX-License-Identifier: GPL-2.0
/*
 * efi-runtime - OVMF's runtime services through the EFI test driver's
 * /dev/efi_test (drivers/firmware/efi/test/efi_test.c, module efi_test),
 * and the capsule loader /dev/efi_capsule_loader
 * (drivers/firmware/efi/capsule-loader.c, module capsule-loader) refusing
 * capsules; the efi-ovmf profile boots through Debian's OVMF.
 *
 * /dev/efi_test, each case pinning what 6.1 does:
 *   - EFI_RUNTIME_GET_SUPPORTED_MASK has every service used here (OVMF
 *     has no EFI_RT_PROPERTIES_TABLE: all of them);
 *   - GET_TIME: EFI_SUCCESS, a date within 2 min of the system time (both
 *     are the CMOS clock), a resolution of at least 1;
 *   - GET_NEXTVARIABLENAME walks the store from the empty name to
 *     EFI_NOT_FOUND (EINVAL), BootOrder of the EFI global GUID on the way;
 *     a name buffer of 2 bytes is EFI_BUFFER_TOO_SMALL with the size
 *     needed written back;
 *   - GET_VARIABLE BootOrder: NV|BS|RT and an even size; with a 1-byte
 *     buffer EFI_BUFFER_TOO_SMALL and the real size;
 *   - SET_VARIABLE of BklfreeRuntime (a GUID of our own) reads back with
 *     GET_VARIABLE, and SET_VARIABLE of no data deletes it (GET_VARIABLE:
 *     EFI_NOT_FOUND);
 *   - QUERY_VARIABLEINFO NV|BS|RT: sizes that fit in each other;
 *   - GET_NEXTHIGHMONOTONICCOUNT counts up by one a call;
 *   - QUERY_CAPSULECAPABILITIES for a GUID OVMF has no updater for:
 *     EFI_UNSUPPORTED (EINVAL);
 *   - an unknown command is ENOTTY, lseek is ESPIPE (6.1 has .llseek =
 *     no_llseek, patches/core 0014 drops it and a NULL .llseek clears
 *     FMODE_LSEEK at open: the same on both kernels).
 * /dev/efi_capsule_loader (a write starts with the capsule header,
 * efi_capsule_header_t; after an error every write is EIO until close):
 *   - part of a header is taken and waits for the rest; closed so, the
 *     upload is dropped ("capsule upload not complete");
 *   - a header of image size 0 is EINVAL ("invalid capsule size"), the
 *     next write EIO; a flag outside EFI_CAPSULE_SUPPORTED_FLAG_MASK is
 *     EINVAL;
 *   - a well-formed header of the unknown GUID is refused by the
 *     firmware's QueryCapsuleCapabilities: EINVAL (efi_status_to_err of
 *     EFI_UNSUPPORTED) with "capsule not supported" in the kernel log;
 *   - lseek is ESPIPE (also patches/core 0014, as above).
 */
#include <fcntl.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <time.h>

#include "ktap.h"

#define EFI_TEST "/dev/efi_test"
#define CAPSULE "/dev/efi_capsule_loader"

/*
 * The ioctl structures of drivers/firmware/efi/test/efi_test.h (not uapi):
 * packed, pointers to the caller's memory. efi_status_t is an unsigned
 * long, efi_char16_t a u16.
 */
typedef unsigned long efi_status_t;
typedef uint16_t efi_char16_t;
typedef struct { uint8_t b[16]; } __attribute__((aligned(4))) efi_guid_t;

typedef struct {
	uint16_t year;
	uint8_t month, day, hour, minute, second, pad1;
	uint32_t nanosecond;
	int16_t timezone;
	uint8_t daylight, pad2;
} efi_time_t;

typedef struct {
	uint32_t resolution;
	uint32_t accuracy;
	uint8_t sets_to_zero;
} efi_time_cap_t;

typedef struct {
	efi_guid_t guid;
	uint32_t headersize;
	uint32_t flags;
	uint32_t imagesize;
} efi_capsule_header_t;

struct efi_getvariable {
	efi_char16_t *variable_name;
	efi_guid_t *vendor_guid;
	uint32_t *attributes;
	unsigned long *data_size;
	void *data;
	efi_status_t *status;
} __attribute__((packed));

struct efi_setvariable {
	efi_char16_t *variable_name;
	efi_guid_t *vendor_guid;
	uint32_t attributes;
	unsigned long data_size;
	void *data;
	efi_status_t *status;
} __attribute__((packed));

struct efi_getnextvariablename {
	unsigned long *variable_name_size;
	efi_char16_t *variable_name;
	efi_guid_t *vendor_guid;
	efi_status_t *status;
} __attribute__((packed));

struct efi_queryvariableinfo {
	uint32_t attributes;
	uint64_t *maximum_variable_storage_size;
	uint64_t *remaining_variable_storage_size;
	uint64_t *maximum_variable_size;
	efi_status_t *status;
} __attribute__((packed));

struct efi_gettime {
	efi_time_t *time;
	efi_time_cap_t *capabilities;
	efi_status_t *status;
} __attribute__((packed));

struct efi_getnexthighmonotoniccount {
	uint32_t *high_count;
	efi_status_t *status;
} __attribute__((packed));

struct efi_querycapsulecapabilities {
	efi_capsule_header_t **capsule_header_array;
	unsigned long capsule_count;
	uint64_t *maximum_capsule_size;
	int *reset_type;
	efi_status_t *status;
} __attribute__((packed));

#define EFI_RUNTIME_GET_VARIABLE _IOWR('p', 0x01, struct efi_getvariable)
#define EFI_RUNTIME_SET_VARIABLE _IOW('p', 0x02, struct efi_setvariable)
#define EFI_RUNTIME_GET_TIME _IOR('p', 0x03, struct efi_gettime)
#define EFI_RUNTIME_GET_NEXTVARIABLENAME \
	_IOWR('p', 0x07, struct efi_getnextvariablename)
#define EFI_RUNTIME_QUERY_VARIABLEINFO \
	_IOR('p', 0x08, struct efi_queryvariableinfo)
#define EFI_RUNTIME_GET_NEXTHIGHMONOTONICCOUNT \
	_IOR('p', 0x09, struct efi_getnexthighmonotoniccount)
#define EFI_RUNTIME_QUERY_CAPSULECAPABILITIES \
	_IOR('p', 0x0A, struct efi_querycapsulecapabilities)
#define EFI_RUNTIME_GET_SUPPORTED_MASK _IOR('p', 0x0C, unsigned int)

/* include/linux/efi.h */
#define EFI_SUCCESS 0UL
#define EFI_ERR(n) ((n) | (1UL << 63))
#define EFI_UNSUPPORTED EFI_ERR(3)
#define EFI_BUFFER_TOO_SMALL EFI_ERR(5)
#define EFI_NOT_FOUND EFI_ERR(14)
#define NV 0x1
#define BS 0x2
#define RT 0x4
#define RT_GET_TIME 0x0001
#define RT_GET_VARIABLE 0x0010
#define RT_GET_NEXT_VARIABLE_NAME 0x0020
#define RT_SET_VARIABLE 0x0040
#define RT_GET_NEXT_HIGH_MONO_COUNT 0x0200
#define RT_QUERY_CAPSULE_CAPABILITIES 0x1000
#define RT_QUERY_VARIABLE_INFO 0x2000

/* 8be4df61-93ca-11d2-aa0d-00e098032b8c, EFI_GLOBAL_VARIABLE_GUID. */
static const efi_guid_t global = { {
	0x61, 0xdf, 0xe4, 0x8b, 0xca, 0x93, 0xd2, 0x11,
	0xaa, 0x0d, 0x00, 0xe0, 0x98, 0x03, 0x2b, 0x8c } };
/* 6d0b1e54-2f7a-4c3e-9b81-b7f1c2a4d5e6: ours (efivarfs uses it too). */
static const efi_guid_t ours = { {
	0x54, 0x1e, 0x0b, 0x6d, 0x7a, 0x2f, 0x3e, 0x4c,
	0x9b, 0x81, 0xb7, 0xf1, 0xc2, 0xa4, 0xd5, 0xe6 } };

static int fd = -1;

/* name as UCS-2 in out (n characters with the NUL). */
static void ucs2(efi_char16_t *out, const char *name)
{
	do
		*out++ = (unsigned char)*name;
	while (*name++);
}

static int ucs2_eq(const efi_char16_t *a, const char *b)
{
	while (*a && *a == (unsigned char)*b) {
		a++;
		b++;
	}
	return !*a && !*b;
}

/* errno of a failed call, 0 when it succeeded. */
static int fails(long r)
{
	return r < 0 ? errno : 0;
}

static int open_mask(void)
{
	const unsigned int need = RT_GET_TIME | RT_GET_VARIABLE |
		RT_GET_NEXT_VARIABLE_NAME | RT_SET_VARIABLE |
		RT_GET_NEXT_HIGH_MONO_COUNT | RT_QUERY_CAPSULE_CAPABILITIES |
		RT_QUERY_VARIABLE_INFO;
	unsigned int mask = 0;

	fd = open(EFI_TEST, O_RDWR | O_CLOEXEC);
	if (fd < 0 || ioctl(fd, EFI_RUNTIME_GET_SUPPORTED_MASK, &mask))
		return 0;
	ktap_diag("runtime supported mask 0x%x", mask);
	return (mask & need) == need;
}

static int get_time(void)
{
	efi_time_t t;
	efi_time_cap_t cap = { 0 };
	efi_status_t st = 1;
	struct efi_gettime g = { &t, &cap, &st };
	struct tm tm = { 0 };
	long long diff;

	memset(&t, 0, sizeof(t));
	if (ioctl(fd, EFI_RUNTIME_GET_TIME, &g))
		return 0;
	ktap_diag("GetTime %04u-%02u-%02u %02u:%02u:%02u tz %d, resolution %u accuracy %u",
		  t.year, t.month, t.day, t.hour, t.minute, t.second,
		  t.timezone, cap.resolution, cap.accuracy);
	tm.tm_year = t.year - 1900;
	tm.tm_mon = t.month - 1;
	tm.tm_mday = t.day;
	tm.tm_hour = t.hour;
	tm.tm_min = t.minute;
	tm.tm_sec = t.second;
	diff = (long long)timegm(&tm) - (long long)time(NULL);
	ktap_diag("EFI minus system time: %lld s", diff);
	return st == EFI_SUCCESS && t.year >= 2020 && t.year < 2100 &&
	       diff > -120 && diff < 120 && cap.resolution >= 1;
}

static int next_names(void)
{
	efi_char16_t name[512] = { 0 };
	efi_guid_t guid = { { 0 } };
	unsigned long size;
	efi_status_t st = 0;
	struct efi_getnextvariablename g = { &size, name, &guid, &st };
	int n = 0, boot_order = 0, r = 0;

	while (n < 1000) {
		size = sizeof(name);
		r = fails(ioctl(fd, EFI_RUNTIME_GET_NEXTVARIABLENAME, &g));
		if (r)
			break;
		n++;
		if (ucs2_eq(name, "BootOrder") &&
		    !memcmp(&guid, &global, sizeof(guid)))
			boot_order++;
	}
	ktap_diag("%d names, then errno %d status 0x%lx", n, r, st);
	errno = 0;
	return r == EINVAL && st == EFI_NOT_FOUND && n >= 3 && boot_order == 1;
}

static int next_name_small(void)
{
	efi_char16_t name[512] = { 0 };
	efi_guid_t guid = { { 0 } };
	unsigned long size = 2;
	efi_status_t st = 0;
	struct efi_getnextvariablename g = { &size, name, &guid, &st };
	int r = fails(ioctl(fd, EFI_RUNTIME_GET_NEXTVARIABLENAME, &g));

	ktap_diag("errno %d status 0x%lx size %lu", r, st, size);
	errno = 0;
	return r == EINVAL && st == EFI_BUFFER_TOO_SMALL && size > 2;
}

/* GetVariable: the errno of the ioctl; *st, *attr, *size as it left them. */
static int get_var(const char *name, const efi_guid_t *guid, uint32_t *attr,
		   void *data, unsigned long *size, efi_status_t *st)
{
	efi_char16_t n[64];
	efi_guid_t g = *guid;
	struct efi_getvariable gv = { n, &g, attr, size, data, st };

	ucs2(n, name);
	*st = 1;
	return fails(ioctl(fd, EFI_RUNTIME_GET_VARIABLE, &gv));
}

static int get_boot_order(void)
{
	uint8_t data[256];
	unsigned long size = sizeof(data);
	uint32_t attr = 0;
	efi_status_t st;
	int r = get_var("BootOrder", &global, &attr, data, &size, &st);

	ktap_diag("BootOrder errno %d status 0x%lx attributes 0x%x size %lu",
		  r, st, attr, size);
	return !r && st == EFI_SUCCESS && attr == (NV | BS | RT) &&
	       size >= 2 && size % 2 == 0;
}

static int get_small(void)
{
	uint8_t data[256];
	unsigned long size = 1;
	uint32_t attr = 0;
	efi_status_t st;
	int r = get_var("BootOrder", &global, &attr, data, &size, &st);

	ktap_diag("errno %d status 0x%lx size %lu", r, st, size);
	errno = 0;
	return r == EINVAL && st == EFI_BUFFER_TOO_SMALL && size >= 2;
}

static int set_var(const char *name, uint32_t attr, const char *data,
		   efi_status_t *st)
{
	efi_char16_t n[64];
	efi_guid_t g = ours;
	struct efi_setvariable sv = { n, &g, attr, strlen(data),
		(void *)data, st };

	ucs2(n, name);
	*st = 1;
	return fails(ioctl(fd, EFI_RUNTIME_SET_VARIABLE, &sv));
}

static int set_get_delete(void)
{
	static const char data[] = "bklfree efi_test";
	char got[64] = { 0 };
	unsigned long size = sizeof(got);
	uint32_t attr = 0;
	efi_status_t st, st2, st3;
	int set, get, del, gone;

	set = set_var("BklfreeRuntime", NV | BS | RT, data, &st);
	get = get_var("BklfreeRuntime", &ours, &attr, got, &size, &st2);
	ktap_diag("set errno %d status 0x%lx; get errno %d status 0x%lx size %lu",
		  set, st, get, st2, size);
	if (set || get || st2 != EFI_SUCCESS || attr != (NV | BS | RT) ||
	    size != strlen(data) || memcmp(got, data, size))
		return 0;
	del = set_var("BklfreeRuntime", NV | BS | RT, "", &st);
	size = sizeof(got);
	gone = get_var("BklfreeRuntime", &ours, &attr, got, &size, &st3);
	ktap_diag("delete errno %d status 0x%lx; get errno %d status 0x%lx",
		  del, st, gone, st3);
	errno = 0;
	return !del && st == EFI_SUCCESS && gone == EINVAL &&
	       st3 == EFI_NOT_FOUND;
}

static int query_info(void)
{
	uint64_t max = 0, left = 0, var = 0;
	efi_status_t st = 1;
	struct efi_queryvariableinfo q = { NV | BS | RT, &max, &left, &var, &st };

	if (ioctl(fd, EFI_RUNTIME_QUERY_VARIABLEINFO, &q))
		return 0;
	ktap_diag("storage %llu, remaining %llu, largest variable %llu",
		  (unsigned long long)max, (unsigned long long)left,
		  (unsigned long long)var);
	return st == EFI_SUCCESS && max > 0 && left > 0 && left <= max &&
	       var > 0 && var <= max;
}

static int mono_count(void)
{
	uint32_t c1 = 0, c2 = 0;
	efi_status_t st1 = 1, st2 = 1;
	struct efi_getnexthighmonotoniccount g1 = { &c1, &st1 }, g2 = { &c2, &st2 };

	if (ioctl(fd, EFI_RUNTIME_GET_NEXTHIGHMONOTONICCOUNT, &g1) ||
	    ioctl(fd, EFI_RUNTIME_GET_NEXTHIGHMONOTONICCOUNT, &g2))
		return 0;
	ktap_diag("high counts %u, %u", c1, c2);
	return st1 == EFI_SUCCESS && st2 == EFI_SUCCESS && c2 == c1 + 1;
}

static const efi_capsule_header_t unknown_capsule = {
	.guid = ours,
	.headersize = sizeof(efi_capsule_header_t),
	.flags = 0,
	.imagesize = 4096,
};

static int capsule_caps(void)
{
	efi_capsule_header_t h = unknown_capsule, *list[1] = { &h };
	uint64_t max = 0;
	int reset = -1, r;
	efi_status_t st = 1;
	struct efi_querycapsulecapabilities q = { list, 1, &max, &reset, &st };

	r = fails(ioctl(fd, EFI_RUNTIME_QUERY_CAPSULECAPABILITIES, &q));
	ktap_diag("errno %d status 0x%lx", r, st);
	errno = 0;
	return r == EINVAL && st == EFI_UNSUPPORTED;
}

static int test_unknown_lseek(void)
{
	int unknown = fails(ioctl(fd, _IOR('p', 0x7f, unsigned int), NULL));
	int l = fails(lseek(fd, 0, SEEK_SET));

	errno = 0;
	return unknown == ENOTTY && l == ESPIPE && !close(fd);
}

/* The kernel log from now on: /dev/kmsg at its end. */
static int kmsg_open(void)
{
	int k = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (k >= 0)
		lseek(k, 0, SEEK_END);
	return k;
}

/* Did a record since kmsg_open() contain what? Closes k. */
static int kmsg_has(int k, const char *what)
{
	char rec[1024];
	ssize_t n;
	int found = 0;

	while ((n = read(k, rec, sizeof(rec) - 1)) > 0) {
		rec[n] = '\0';
		if (strstr(rec, what))
			found = 1;
	}
	close(k);
	return found;
}

static int partial_header(void)
{
	int c = open(CAPSULE, O_WRONLY | O_CLOEXEC), k = kmsg_open();
	ssize_t n;

	if (c < 0)
		return 0;
	n = write(c, &unknown_capsule, 10);
	return n == 10 && !close(c) &&
	       kmsg_has(k, "capsule upload not complete");
}

static int size_zero(void)
{
	efi_capsule_header_t h = unknown_capsule;
	int c = open(CAPSULE, O_WRONLY | O_CLOEXEC), k = kmsg_open(), e1, e2;

	if (c < 0)
		return 0;
	h.imagesize = 0;
	e1 = fails(write(c, &h, sizeof(h)));
	e2 = fails(write(c, &h, sizeof(h)));
	ktap_diag("errno %d, then %d", e1, e2);
	errno = 0;
	return e1 == EINVAL && e2 == EIO && kmsg_has(k, "invalid capsule size") &&
	       !close(c);
}

static int bad_flag(void)
{
	efi_capsule_header_t h = unknown_capsule;
	int c = open(CAPSULE, O_WRONLY | O_CLOEXEC), e;

	if (c < 0)
		return 0;
	h.flags = 0x1;
	e = fails(write(c, &h, sizeof(h)));
	errno = 0;
	return e == EINVAL && !close(c);
}

static int unsupported(void)
{
	int c = open(CAPSULE, O_WRONLY | O_CLOEXEC), k = kmsg_open(), e, l;

	if (c < 0)
		return 0;
	e = fails(write(c, &unknown_capsule, sizeof(unknown_capsule)));
	l = fails(lseek(c, 0, SEEK_SET));
	ktap_diag("write errno %d, lseek errno %d", e, l);
	errno = 0;
	return e == EINVAL && l == ESPIPE &&
	       kmsg_has(k, "capsule not supported") && !close(c);
}

static const struct ktap_case cases[] = {
	{ "open " EFI_TEST ": GET_SUPPORTED_MASK has every service used", open_mask },
	{ "GET_TIME: success, within 2 min of the system time", get_time },
	{ "GET_NEXTVARIABLENAME walks to EFI_NOT_FOUND past BootOrder", next_names },
	{ "GET_NEXTVARIABLENAME into 2 bytes: EFI_BUFFER_TOO_SMALL, size", next_name_small },
	{ "GET_VARIABLE BootOrder: NV|BS|RT, even size", get_boot_order },
	{ "GET_VARIABLE into 1 byte: EFI_BUFFER_TOO_SMALL, the size", get_small },
	{ "SET_VARIABLE reads back; without data it deletes: EFI_NOT_FOUND", set_get_delete },
	{ "QUERY_VARIABLEINFO NV|BS|RT: sizes that fit", query_info },
	{ "GET_NEXTHIGHMONOTONICCOUNT counts up by one", mono_count },
	{ "QUERY_CAPSULECAPABILITIES of an unknown GUID: EFI_UNSUPPORTED", capsule_caps },
	{ "an unknown command is ENOTTY, lseek ESPIPE", test_unknown_lseek },
	{ CAPSULE ": 10 bytes of a header taken, dropped at close", partial_header },
	{ "image size 0: EINVAL, invalid capsule size, then EIO", size_zero },
	{ "a flag outside the supported mask: EINVAL", bad_flag },
	{ "unknown GUID: capsule not supported, EINVAL; lseek ESPIPE", unsupported },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(cases),
	.devices = (const char *const[]){ EFI_TEST, CAPSULE, NULL },
	.kconfig = (const char *const[]){ "CONFIG_EFI_TEST",
		"CONFIG_EFI_CAPSULE_LOADER", NULL },
	.timeout = 30,
	.upstream = "patches/core 0014 (drivers/firmware: drop no_llseek)",
	.cases = cases,
};
