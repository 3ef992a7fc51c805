// SPDX-License-Identifier: GPL-2.0
/*
 * hugetlbfs - files of huge pages (fs/hugetlbfs/inode.c): their mmap,
 * read_iter, llseek, setattr and fallocate, on a mount and through
 * memfd_create(MFD_HUGETLB).
 *
 * The profile boots with hugepages=4: /proc/meminfo must say
 * HugePages_Total 4, all free, of 2048 kB. On a hugetlbfs mount (statfs:
 * HUGETLBFS_MAGIC, a 2 MiB block) a file is truncated to one huge page (a
 * size that is not a multiple of it is EINVAL) and mapped MAP_SHARED: the
 * mapping reserves the page (HugePages_Rsvd 1), the first write faults it
 * in (HugePages_Free 3). The pattern written through the mapping reads
 * back through a second mapping, through read() and pread() at an offset
 * (hugetlbfs_read_iter), and after lseek: hugetlbfs keeps default_llseek,
 * so SEEK_END is the file size, SEEK_SET and SEEK_CUR move the position a
 * read then starts from, and a read at the end is 0. write() is EINVAL
 * (hugetlbfs has no write). fallocate(PUNCH_HOLE | KEEP_SIZE) of the page
 * frees it (HugePages_Free 4 again, the size kept); fallocate mode 0
 * allocates one again, and unlinking the file frees it. A
 * memfd_create(MFD_HUGETLB) file behaves the same: truncated, mapped,
 * written, read back with pread, its page freed on close.
 */
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include "core/pseudo-fs.h"

#define MNT "/tmp/hugetlbfs"
#define FILE_PATH MNT "/file"
#define HPAGE (2UL << 20)
#define HUGETLBFS_MAGIC 0x958458f6
#define NR_PAGES 4

static int fd = -1;
static unsigned char *map1, *map2;
static int mounted;

static int fail(const char *what)
{
	ktap_perror(what);
	return 0;
}

/* A HugePages_ counter of /proc/meminfo ("Total", "Free", "Rsvd"); -1. */
static long meminfo(const char *what)
{
	char line[256], key[64];
	FILE *f = fopen("/proc/meminfo", "r");
	long v = -1;

	if (!f)
		return -1;
	snprintf(key, sizeof(key), "HugePages_%s:", what);
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)))
			v = atol(line + strlen(key));
	fclose(f);
	return v;
}

static long hugepagesize_kb(void)
{
	char line[256];
	FILE *f = fopen("/proc/meminfo", "r");
	long v = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "Hugepagesize:", 13))
			v = atol(line + 13);
	fclose(f);
	return v;
}

static void show_counts(void)
{
	ktap_diag("HugePages_Total %ld Free %ld Rsvd %ld", meminfo("Total"),
		  meminfo("Free"), meminfo("Rsvd"));
}

static int boot_pages(void)
{
	show_counts();
	return meminfo("Total") == NR_PAGES && meminfo("Free") == NR_PAGES &&
	       meminfo("Rsvd") == 0 && hugepagesize_kb() == 2048;
}

static int do_mount(void)
{
	struct statfs sf;

	if (!pseudo_mount("hugetlbfs", MNT))
		return 0;
	mounted = 1;
	if (statfs(MNT, &sf))
		return fail("statfs");
	ktap_diag("f_type %#lx f_bsize %ld f_blocks %ld",
		  (unsigned long)sf.f_type, (long)sf.f_bsize,
		  (long)sf.f_blocks);
	return sf.f_type == HUGETLBFS_MAGIC && (unsigned long)sf.f_bsize == HPAGE;
}

static int create_truncate(void)
{
	struct stat st;
	int bad;

	fd = open(FILE_PATH, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0)
		return fail(FILE_PATH);
	errno = 0;
	bad = ftruncate(fd, HPAGE / 2) < 0 && errno == EINVAL;
	if (ftruncate(fd, HPAGE))
		return fail("ftruncate 2 MiB");
	return bad && !fstat(fd, &st) && (unsigned long)st.st_size == HPAGE;
}

static unsigned char pattern(size_t i)
{
	return (unsigned char)(i * 7 + i / 4096);
}

static int map_write(void)
{
	long rsvd, free_after;
	size_t i;

	map1 = mmap(NULL, HPAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map1 == MAP_FAILED) {
		map1 = NULL;
		return fail("mmap");
	}
	rsvd = meminfo("Rsvd");
	for (i = 0; i < HPAGE; i++)
		map1[i] = pattern(i);
	free_after = meminfo("Free");
	show_counts();
	return rsvd == 1 && free_after == NR_PAGES - 1 &&
	       meminfo("Rsvd") == 0;
}

static int check(const unsigned char *p, size_t off, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] != pattern(off + i)) {
			ktap_diag("byte %zu is %#x, not %#x", off + i, p[i],
				  pattern(off + i));
			return 0;
		}
	return 1;
}

static int second_map(void)
{
	map2 = mmap(NULL, HPAGE, PROT_READ, MAP_SHARED, fd, 0);
	if (map2 == MAP_FAILED) {
		map2 = NULL;
		return fail("mmap");
	}
	return map2 != map1 && check(map2, 0, HPAGE) &&
	       meminfo("Free") == NR_PAGES - 1;
}

static unsigned char buf[1 << 16];

static int read_pread(void)
{
	size_t done = 0;
	ssize_t n;

	if (lseek(fd, 0, SEEK_SET))
		return 0;
	while (done < HPAGE) {
		n = read(fd, buf, sizeof(buf));
		if (n <= 0)
			return fail("read");
		if (!check(buf, done, n))
			return 0;
		done += n;
	}
	if (read(fd, buf, sizeof(buf)) != 0)
		return 0;
	n = pread(fd, buf, 1000, HPAGE - 5000);
	return n == 1000 && check(buf, HPAGE - 5000, 1000) &&
	       pread(fd, buf, 1000, HPAGE - 10) == 10 &&
	       check(buf, HPAGE - 10, 10);
}

static int seek_read(void)
{
	off_t end = lseek(fd, 0, SEEK_END);
	off_t set = lseek(fd, 12345, SEEK_SET);
	off_t cur = lseek(fd, 100, SEEK_CUR);
	ssize_t n = read(fd, buf, 64);
	int ok = n == 64 && check(buf, 12445, 64) &&
		 lseek(fd, 0, SEEK_CUR) == 12509;

	ktap_diag("SEEK_END %lld, SEEK_SET 12345 %lld, SEEK_CUR +100 %lld",
		  (long long)end, (long long)set, (long long)cur);
	return ok && (unsigned long)end == HPAGE && set == 12345 &&
	       cur == 12445 && lseek(fd, 0, SEEK_END) == end &&
	       read(fd, buf, 64) == 0;
}

static int no_write(void)
{
	errno = 0;
	return pwrite(fd, "x", 1, 0) < 0 && errno == EINVAL &&
	       map1[0] == pattern(0);
}

static int punch_hole(void)
{
	struct stat st;

	munmap(map1, HPAGE);
	munmap(map2, HPAGE);
	map1 = map2 = NULL;
	if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, HPAGE))
		return fail("fallocate PUNCH_HOLE");
	show_counts();
	return meminfo("Free") == NR_PAGES && !fstat(fd, &st) &&
	       (unsigned long)st.st_size == HPAGE &&
	       pread(fd, buf, 16, 0) == 16 && !buf[0] && !buf[15];
}

static int allocate_unlink(void)
{
	long allocated;

	if (fallocate(fd, 0, 0, HPAGE))
		return fail("fallocate");
	allocated = meminfo("Free");
	close(fd);
	fd = -1;
	if (unlink(FILE_PATH))
		return fail("unlink");
	ktap_diag("HugePages_Free %ld after fallocate, %ld after unlink",
		  allocated, meminfo("Free"));
	return allocated == NR_PAGES - 1 && meminfo("Free") == NR_PAGES &&
	       access(FILE_PATH, F_OK) < 0;
}

static int memfd(void)
{
	int m = memfd_create("bklfree-huge", MFD_HUGETLB | MFD_CLOEXEC);
	unsigned char *p;
	long used;
	int ok;

	if (m < 0)
		return fail("memfd_create MFD_HUGETLB");
	if (ftruncate(m, HPAGE)) {
		close(m);
		return fail("ftruncate");
	}
	p = mmap(NULL, HPAGE, PROT_READ | PROT_WRITE, MAP_SHARED, m, 0);
	if (p == MAP_FAILED) {
		close(m);
		return fail("mmap");
	}
	memset(p + HPAGE - 4096, 0x5a, 4096);
	used = meminfo("Free");
	ok = pread(m, buf, 4096, HPAGE - 4096) == 4096 && buf[0] == 0x5a &&
	     buf[4095] == 0x5a && pread(m, buf, 16, 0) == 16 && !buf[0] &&
	     lseek(m, 0, SEEK_END) == (off_t)HPAGE;
	munmap(p, HPAGE);
	close(m);
	ktap_diag("HugePages_Free %ld in use, %ld after close", used,
		  meminfo("Free"));
	return ok && used == NR_PAGES - 1 && meminfo("Free") == NR_PAGES;
}

static int do_umount(void)
{
	return mounted && pseudo_umount(MNT);
}

static const struct ktap_case tcases[] = {
	{ "meminfo: HugePages_Total 4, all free, 2048 kB pages", boot_pages },
	{ "mount -t hugetlbfs: HUGETLBFS_MAGIC, 2 MiB blocks", do_mount },
	{ "create, ftruncate 1 MiB EINVAL, ftruncate 2 MiB", create_truncate },
	{ "mmap MAP_SHARED reserves, writing faults one page in", map_write },
	{ "a second mapping reads the pattern", second_map },
	{ "read() and pread() read the pattern, EOF at 2 MiB", read_pread },
	{ "lseek SEEK_END SEEK_SET SEEK_CUR, read from there", seek_read },
	{ "write() is EINVAL", no_write },
	{ "fallocate PUNCH_HOLE frees the page, size kept, zeros", punch_hole },
	{ "fallocate allocates a page, unlink frees it", allocate_unlink },
	{ "memfd_create MFD_HUGETLB: mmap, pread, freed on close", memfd },
	{ "umount the hugetlbfs mount", do_umount },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(tcases),
	.kconfig = (const char *const[]){ "CONFIG_HUGETLBFS", NULL },
	.timeout = 30,
	.cases = tcases,
};
