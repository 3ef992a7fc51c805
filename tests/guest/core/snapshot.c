// SPDX-License-Identifier: GPL-2.0
/*
 * snapshot - /dev/snapshot, the userspace hibernation interface of
 * kernel/power/user.c (what uswsusp's s2disk drives), through a whole
 * image round trip that never writes a disk or powers off:
 * - the hibernating side (O_RDONLY): freeze user space, create the image
 *   (hibernation_snapshot(): devices frozen and thawed, memory copied),
 *   read it back page by page; the first page is the image header
 *   (struct swsusp_info, kernel/power/power.h), which must name this
 *   kernel (utsname, LINUX_VERSION_CODE) and hold as many pages as the
 *   image size says; then free the image and thaw;
 * - the resuming side (O_WRONLY): an image header from another kernel
 *   release is refused with EPERM when the next page is written
 *   (check_header()), and nothing is restored.
 * Plus the rules around them: O_RDWR is ENOSYS, one opener at a time
 * (EBUSY), no data before an image exists (ENODATA), no image without a
 * freeze (EPERM), a page-offset read serves the rest of the page, and the
 * file is not seekable: snapshot_open() calls nonseekable_open(), so
 * lseek and pread fail with ESPIPE on both kernels (patches/core 0055
 * drops the file's .llseek = no_llseek and changes nothing a caller sees).
 */
#include <fcntl.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/utsname.h>
#include <linux/suspend_ioctls.h>

#include "ktap.h"

#define PAGE 4096

/* kernel/power/power.h: the image header, the image's first page. */
struct swsusp_info {
	struct utsname uts;	/* struct new_utsname: 6 x 65 bytes */
	uint32_t version_code;
	unsigned long num_physpages;
	int cpus;
	unsigned long image_pages;
	unsigned long pages;
	unsigned long size;
};

static int fd = -1;
static char page[PAGE], page2[PAGE];
static struct swsusp_info header;

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

static int header_names_this_kernel(void)
{
	struct utsname u;
	ssize_t n;

	if (ioctl(fd, SNAPSHOT_GET_IMAGE_SIZE, &image_size) || uname(&u))
		return 0;
	n = read(fd, page, PAGE);
	if (n != PAGE)
		return 0;
	memcpy(&header, page, sizeof(header));
	ktap_diag("image %lld bytes; header: %s %s, %lu of %lu pages, %d cpus",
		  (long long)image_size, header.uts.sysname,
		  header.uts.release, header.pages, header.num_physpages,
		  header.cpus);
	return image_size > 0 && image_size % PAGE == 0 &&
	       !strcmp(header.uts.sysname, u.sysname) &&
	       !strcmp(header.uts.release, u.release) &&
	       !strcmp(header.uts.machine, u.machine) &&
	       header.pages == (unsigned long)(image_size / PAGE) &&
	       header.size == (unsigned long)image_size &&
	       header.image_pages > 0 && header.image_pages < header.pages &&
	       header.cpus >= 1;
}

/* The rest of the image, read in halves: a page-offset read ends the page. */
static int read_whole_image(void)
{
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
		pages++;
		bytes += a + b;
	}
	if (bytes != image_size)
		ktap_diag("read %lld bytes of %lld", bytes,
			  (long long)image_size);
	return bytes == image_size && pages == (long long)header.pages;
}

static int free_and_thaw(void)
{
	int64_t size;

	return ioctl(fd, SNAPSHOT_FREE) == 0 &&
	       fails(ioctl(fd, SNAPSHOT_GET_IMAGE_SIZE, &size), ENODATA) &&
	       ioctl(fd, SNAPSHOT_UNFREEZE) == 0 && close(fd) == 0;
}

/* A header of another release is refused once the next page comes. */
static int resume_refuses_foreign_header(void)
{
	struct swsusp_info h = header;
	int f = open("/dev/snapshot", O_WRONLY | O_CLOEXEC);
	ssize_t first, second;
	int err;

	if (f < 0)
		return 0;
	snprintf(h.uts.release, sizeof(h.uts.release), "0.0.0-not-this");
	memset(page, 0, PAGE);
	memcpy(page, &h, sizeof(h));
	first = write(f, page, PAGE);
	second = write(f, page, PAGE);
	err = errno;
	close(f);
	if (first != PAGE || second != -1 || err != EPERM)
		ktap_diag("writes: %zd, %zd (%s)", first, second,
			  strerror(err));
	return first == PAGE && second == -1 && err == EPERM;
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
	{ "the image header names this kernel and the image's size",
	  header_names_this_kernel },
	{ "the whole image reads back, page by page", read_whole_image },
	{ "FREE drops the image, UNFREEZE thaws", free_and_thaw },
	{ "O_WRONLY (resuming side) refuses a header of another release with EPERM",
	  resume_refuses_foreign_header },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(cases),
	.devices = (const char *const[]){ "/dev/snapshot", NULL },
	.kconfig = (const char *const[]){ "CONFIG_HIBERNATION", NULL },
	.timeout = 120,
	.cases = cases,
};
