// SPDX-License-Identifier: GPL-2.0
/*
 * snapshot - /dev/snapshot, the userspace hibernation interface of
 * kernel/power/user.c (what uswsusp's s2disk drives), through a whole
 * image round trip that never writes a disk or powers off:
 * - the hibernating side (O_RDONLY): freeze user space, create the image
 *   (hibernation_snapshot(): devices frozen and thawed, memory copied),
 *   read it back; its first page is the image header (struct swsusp_info,
 *   kernel/power/power.h, filled by init_header() in snapshot.c). On x86
 *   (CONFIG_ARCH_HIBERNATION_HEADER) the header's utsname and version_code
 *   are not written: arch_hibernation_header_save() puts x86's struct
 *   restore_data_record (arch/x86/power/hibernate.c) at its start, and
 *   6.1 never sets cpus. So the header must hold that record (the magic,
 *   restore_registers' address, a page-aligned cr3), the guest's page
 *   count (get_num_physpages(), the sum of the zones' present pages) and
 *   the image's size; the pages after it are the metadata pages (the PFNs
 *   of the copied pages, rising) and the copies. The rest of the image is
 *   read in half pages, which a page-offset read must serve to the end of
 *   its page; then the image is freed and user space thawed;
 * - the resuming side (O_WRONLY): check_header() refuses a header when the
 *   next page is written, with EPERM whatever the reason, and prints the
 *   reason: a header with another page count ("Image mismatch: memory
 *   size", which check_header() only reaches once x86's record, its magic
 *   and e820 checksum, passed) and one without x86's magic
 *   ("Unrecognized hibernate image header format!", then "Image mismatch:
 *   architecture specific data"), read back from /dev/kmsg. Nothing goes
 *   past the header: the page written after it holds an invalid PFN, so
 *   a header wrongly accepted stops at the first metadata page (EFAULT),
 *   and nothing is ever restored (no SNAPSHOT_ATOMIC_RESTORE).
 * Plus the rules around them: O_RDWR is ENOSYS, one opener at a time
 * (EBUSY), no data before an image exists (ENODATA), no image without a
 * freeze (EPERM), and the file is not seekable: snapshot_open() calls
 * nonseekable_open(), so lseek and pread fail with ESPIPE on both kernels
 * (patches/core 0055 drops the file's .llseek = no_llseek and changes
 * nothing a caller sees).
 */
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <linux/suspend_ioctls.h>
#include <linux/utsname.h>

#include "ktap.h"

#define PAGE 4096
#define LONGS_PER_PAGE (PAGE / sizeof(unsigned long))

/* kernel/power/power.h: the image header, the image's first page. */
struct swsusp_info {
	struct new_utsname uts;
	uint32_t version_code;
	unsigned long num_physpages;
	int cpus;
	unsigned long image_pages;
	unsigned long pages;
	unsigned long size;
};

/*
 * arch/x86/power/hibernate.c: what arch_hibernation_header_save() writes
 * at the header's start, in place of uts and version_code
 * (MAX_ARCH_HEADER_SIZE in power.h).
 */
struct restore_data_record {
	unsigned long jump_address;	/* restore_registers */
	unsigned long jump_address_phys;
	unsigned long cr3;
	unsigned long magic;
	unsigned long e820_checksum;
};

#if defined(__x86_64__)
#define RESTORE_MAGIC 0x23456789ABCDEF02UL
#define OTHER_MAGIC 0x12345679UL	/* i386's */
#elif defined(__i386__)
#define RESTORE_MAGIC 0x12345679UL
#define OTHER_MAGIC 0x23456789UL
#else
#error "the image header checked here is x86's"
#endif

_Static_assert(sizeof(struct restore_data_record) <=
	       offsetof(struct swsusp_info, num_physpages),
	       "x86's record lies in the header's uts and version_code");

/* kernel/power/snapshot.c: memory_bm_next_pfn()'s end marker. */
#define BM_END_OF_MAP (~0UL)

static int fd = -1;
static char page[PAGE], page2[PAGE];
static char header_page[PAGE];
static unsigned long not_pfns[LONGS_PER_PAGE];
static struct swsusp_info header;
static struct restore_data_record rdr;

static int fails(long r, int err)
{
	return r < 0 && errno == err;
}

static int open_rdwr_enosys(void)
{
	int f = open("/dev/snapshot", O_RDWR | O_CLOEXEC);

	if (f >= 0)
		close(f);
	return f < 0 && errno == ENOSYS;
}

static int open_rdonly(void)
{
	fd = open("/dev/snapshot", O_RDONLY | O_CLOEXEC);
	return fd >= 0;
}

static int second_open_ebusy(void)
{
	int f = open("/dev/snapshot", O_WRONLY | O_CLOEXEC);

	if (f >= 0)
		close(f);
	return f < 0 && errno == EBUSY;
}

static int not_seekable(void)
{
	return fails(lseek(fd, 0, SEEK_SET), ESPIPE) &&
	       fails(lseek(fd, PAGE, SEEK_CUR), ESPIPE) &&
	       fails(pread(fd, page, PAGE, 0), ESPIPE);
}

static int no_data_before_image(void)
{
	int64_t size;

	return fails(ioctl(fd, SNAPSHOT_GET_IMAGE_SIZE, &size), ENODATA) &&
	       fails(read(fd, page, PAGE), ENODATA);
}

static int create_needs_freeze(void)
{
	int in_suspend = -1;

	return fails(ioctl(fd, SNAPSHOT_CREATE_IMAGE, &in_suspend), EPERM);
}

/* SNAPSHOT_PREF_IMAGE_SIZE is what /sys/power/image_size shows. */
static int pref_image_size(void)
{
	unsigned long want = 64UL << 20, got = 0;
	FILE *f;

	if (ioctl(fd, SNAPSHOT_PREF_IMAGE_SIZE, want))
		return 0;
	f = fopen("/sys/power/image_size", "r");
	if (!f || fscanf(f, "%lu", &got) != 1)
		got = 0;
	if (f)
		fclose(f);
	if (got != want)
		ktap_diag("/sys/power/image_size %lu, asked %lu", got, want);
	return got == want;
}

static int freeze(void)
{
	return ioctl(fd, SNAPSHOT_FREEZE) == 0;
}

static int create_image(void)
{
	int in_suspend = -1;
	long long t = ktap_now_ms();
	int r = ioctl(fd, SNAPSHOT_CREATE_IMAGE, &in_suspend);

	ktap_diag("SNAPSHOT_CREATE_IMAGE: %d, in_suspend %d, %lld ms", r,
		  in_suspend, ktap_now_ms() - t);
	/* 1: we are the side that made the image, not a resumed one. */
	return r == 0 && in_suspend == 1;
}

static int64_t image_size;

/* get_num_physpages(): the present pages of every zone, /proc/zoneinfo. */
static unsigned long present_pages(void)
{
	FILE *f = fopen("/proc/zoneinfo", "r");
	char line[256];
	unsigned long n, sum = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, " present %lu", &n) == 1)
			sum += n;
	fclose(f);
	return sum;
}

/* A text symbol's address from /proc/kallsyms (root sees it), or 0. */
static unsigned long kallsyms(const char *name)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512], sym[256], type;
	unsigned long addr, found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx %c %255s", &addr, &type, sym) == 3 &&
		    !strcmp(sym, name))
			found = addr;
	fclose(f);
	return found;
}

/*
 * The first page read: init_header()'s struct swsusp_info, its start x86's
 * restore_data_record.
 */
static int header_is_this_machines(void)
{
	unsigned long physpages = present_pages();
	unsigned long restore = kallsyms("restore_registers");
	unsigned long meta;
	ssize_t n;
	int ok;

	if (ioctl(fd, SNAPSHOT_GET_IMAGE_SIZE, &image_size))
		return 0;
	n = read(fd, header_page, PAGE);
	if (n != PAGE) {
		ktap_diag("header read: %zd", n);
		return 0;
	}
	memcpy(&header, header_page, sizeof(header));
	memcpy(&rdr, header_page, sizeof(rdr));
	meta = (header.image_pages * sizeof(unsigned long) + PAGE - 1) / PAGE;
	ktap_diag("image %lld bytes; header: magic %#lx, jump %#lx (restore_registers %#lx), phys %#lx, cr3 %#lx, e820 crc %#lx",
		  (long long)image_size, rdr.magic, rdr.jump_address, restore,
		  rdr.jump_address_phys, rdr.cr3, rdr.e820_checksum);
	ktap_diag("header: %lu physpages (zones: %lu present), %lu pages, %lu copied, %lu bytes, version_code %u, cpus %d",
		  header.num_physpages, physpages, header.pages,
		  header.image_pages, header.size, header.version_code,
		  header.cpus);
	ok = image_size > 0 && image_size % PAGE == 0 &&
	     rdr.magic == RESTORE_MAGIC &&
	     restore != 0 && rdr.jump_address == restore &&
	     rdr.jump_address_phys != 0 &&
	     rdr.jump_address_phys % PAGE == rdr.jump_address % PAGE &&
	     rdr.cr3 != 0 && rdr.cr3 % PAGE == 0 &&
	     physpages != 0 && header.num_physpages == physpages &&
	     header.pages == (unsigned long)(image_size / PAGE) &&
	     header.size == (unsigned long)image_size &&
	     header.image_pages > 0 && header.image_pages < header.pages &&
	     header.pages == 1 + meta + header.image_pages &&
	     header.version_code == 0 && header.cpus == 0;
	return ok;
}

/*
 * The metadata pages, pages 1 to meta of the image: pack_pfns() writes the
 * PFNs of the image_pages copied pages, rising, then BM_END_OF_MAP when a
 * page has room left.
 */
static unsigned long pfns_seen, last_pfn;
static int pfns_ok = 1;

static void check_meta_page(const unsigned long *w, long long index)
{
	unsigned long i;

	for (i = 0; i < LONGS_PER_PAGE && pfns_ok; i++) {
		if (pfns_seen == header.image_pages) {
			if (w[i] != BM_END_OF_MAP) {
				ktap_diag("page %lld: %#lx after the last PFN",
					  index, w[i]);
				pfns_ok = 0;
			}
			return;
		}
		if (w[i] == BM_END_OF_MAP ||
		    (pfns_seen && w[i] <= last_pfn)) {
			ktap_diag("page %lld: PFN %lu is %#lx after %#lx",
				  index, pfns_seen, w[i], last_pfn);
			pfns_ok = 0;
			return;
		}
		last_pfn = w[i];
		pfns_seen++;
	}
}

/* The rest of the image, read in halves: a page-offset read ends the page. */
static int read_whole_image(void)
{
	unsigned long meta = header.pages - 1 - header.image_pages;
	unsigned long words[LONGS_PER_PAGE];
	long long pages = 1, bytes = PAGE;
	ssize_t a, b;

	for (;;) {
		a = read(fd, page, PAGE / 2);
		if (a == 0)
			break;
		/* Asks for more than is left: the page ends the read. */
		b = read(fd, page2, PAGE);
		if (a != PAGE / 2 || b != PAGE / 2) {
			ktap_diag("page %lld: read %zd then %zd", pages, a, b);
			return 0;
		}
		if ((unsigned long)pages <= meta) {
			memcpy(words, page, PAGE / 2);
			memcpy((char *)words + PAGE / 2, page2, PAGE / 2);
			check_meta_page(words, pages);
		}
		pages++;
		bytes += a + b;
	}
	if (bytes != image_size)
		ktap_diag("read %lld bytes of %lld", bytes,
			  (long long)image_size);
	if (pfns_seen != header.image_pages)
		ktap_diag("%lu PFNs in the metadata pages, %lu copied pages",
			  pfns_seen, header.image_pages);
	return bytes == image_size && pages == (long long)header.pages &&
	       pfns_ok && pfns_seen == header.image_pages;
}

static int free_and_thaw(void)
{
	int64_t size;

	return ioctl(fd, SNAPSHOT_FREE) == 0 &&
	       fails(ioctl(fd, SNAPSHOT_GET_IMAGE_SIZE, &size), ENODATA) &&
	       ioctl(fd, SNAPSHOT_UNFREEZE) == 0 && close(fd) == 0;
}

/*
 * The kernel log from now on: /dev/kmsg at its end. Records are read with
 * O_NONBLOCK until EAGAIN, at most KMSG_MAX of them.
 */
#define KMSG_MAX 4096

static int kmsg_open(void)
{
	int k = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (k >= 0 && lseek(k, 0, SEEK_END) < 0) {
		close(k);
		k = -1;
	}
	if (k < 0)
		ktap_perror("/dev/kmsg");
	return k;
}

/* Which of the texts the records logged since kmsg_open() hold: a bit each. */
static unsigned int kmsg_seen(int k, const char *const *texts)
{
	char rec[1024];
	unsigned int seen = 0, i, records;
	ssize_t n;

	for (records = 0; records < KMSG_MAX; records++) {
		n = read(k, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten: the next one */
		if (n <= 0)
			break;
		rec[n] = '\0';
		for (i = 0; texts[i]; i++)
			if (strstr(rec, texts[i]))
				seen |= 1U << i;
	}
	return seen;
}

#define MEMORY_SIZE "Image mismatch: memory size"
#define ARCH_DATA "Image mismatch: architecture specific data"
#define NO_MAGIC "Unrecognized hibernate image header format!"
#define E820 "Hibernate inconsistent memory map detected!"

static const char *const refusals[] = { MEMORY_SIZE, ARCH_DATA, NO_MAGIC,
					E820, NULL };

/*
 * Opens the resuming side, writes header_page as altered by alter(), then
 * a page that is no PFN list (if the header were accepted, its first entry,
 * an invalid PFN, would make unpack_orig_pfns() stop with EFAULT). The
 * second write must fail with EPERM and the log must hold exactly the
 * refusals in want (bits of refusals[]).
 */
static int resume_refuses(void (*alter)(struct swsusp_info *,
					struct restore_data_record *),
			  unsigned int want)
{
	struct swsusp_info h;
	struct restore_data_record r;
	ssize_t first, second;
	unsigned int seen, i;
	int f, k, err;

	k = kmsg_open();
	if (k < 0)
		return 0;
	f = open("/dev/snapshot", O_WRONLY | O_CLOEXEC);
	if (f < 0) {
		ktap_perror("O_WRONLY open");
		close(k);
		return 0;
	}
	memcpy(page, header_page, PAGE);
	memcpy(&h, page, sizeof(h));
	memcpy(&r, page, sizeof(r));
	alter(&h, &r);
	memcpy(page, &h, sizeof(h));
	memcpy(page, &r, sizeof(r));
	for (i = 0; i < LONGS_PER_PAGE; i++)
		not_pfns[i] = BM_END_OF_MAP - 1;
	first = write(f, page, PAGE);
	errno = 0;
	second = write(f, not_pfns, PAGE);
	err = errno;
	close(f);
	seen = kmsg_seen(k, refusals);
	close(k);
	if (first != PAGE || second != -1 || err != EPERM || seen != want) {
		ktap_diag("writes: %zd, %zd (%s)", first, second,
			  strerror(err));
		for (i = 0; refusals[i]; i++)
			if ((seen ^ want) & (1U << i))
				ktap_diag("\"%s\" %s", refusals[i],
					  seen & (1U << i) ? "logged" :
					  "not logged");
	}
	return first == PAGE && second == -1 && err == EPERM && seen == want;
}

static void other_memory_size(struct swsusp_info *h,
			      struct restore_data_record *r)
{
	(void)r;
	h->num_physpages++;
}

static void other_magic(struct swsusp_info *h, struct restore_data_record *r)
{
	(void)h;
	r->magic = OTHER_MAGIC;
}

/* x86's record passes (magic, e820 checksum): the page count is refused. */
static int resume_refuses_memory_size(void)
{
	return resume_refuses(other_memory_size, 1U << 0);
}

static int resume_refuses_magic(void)
{
	return resume_refuses(other_magic, 1U << 1 | 1U << 2);
}

static const struct ktap_case cases[] = {
	{ "O_RDWR open fails with ENOSYS", open_rdwr_enosys },
	{ "O_RDONLY open (hibernating side)", open_rdonly },
	{ "a second open fails with EBUSY", second_open_ebusy },
	{ "lseek and pread fail with ESPIPE", not_seekable },
	{ "no image yet: GET_IMAGE_SIZE and read fail with ENODATA",
	  no_data_before_image },
	{ "CREATE_IMAGE before FREEZE fails with EPERM", create_needs_freeze },
	{ "PREF_IMAGE_SIZE sets /sys/power/image_size", pref_image_size },
	{ "FREEZE freezes user space", freeze },
	{ "CREATE_IMAGE makes an image, in_suspend 1", create_image },
	{ "the image header holds x86's restore record of this kernel, the guest's page count and the image's size",
	  header_is_this_machines },
	{ "the whole image reads back, page by page", read_whole_image },
	{ "FREE drops the image, UNFREEZE thaws", free_and_thaw },
	{ "O_WRONLY (resuming side) refuses a header with another page count: EPERM, Image mismatch: memory size",
	  resume_refuses_memory_size },
	{ "O_WRONLY (resuming side) refuses a header without x86's restore magic: EPERM, Unrecognized hibernate image header format",
	  resume_refuses_magic },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(cases),
	.devices = (const char *const[]){ "/dev/snapshot", NULL },
	.kconfig = (const char *const[]){ "CONFIG_HIBERNATION", NULL },
	.timeout = 120,
	.cases = cases,
};
