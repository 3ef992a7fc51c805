// SPDX-License-Identifier: GPL-2.0
/*
 * thp - transparent huge pages (mm/huge_memory.c): the sysfs switches
 * under /sys/kernel/mm/transparent_hugepage, anonymous huge page faults,
 * and the debugfs file split_huge_pages that splits them again.
 *
 * The lab kernels have CONFIG_TRANSPARENT_HUGEPAGE with the defaults
 * "always" and defrag "madvise", but hugepage_init() turns both to "never"
 * on a machine of less than 512 MiB, which the lab guest (256 MiB) is.
 * The test switches enabled to madvise and defrag to madvise: a
 * 2 MiB-aligned anonymous region with MADV_HUGEPAGE faults in one huge
 * page when written (AnonHugePages 2048 kB in /proc/self/smaps,
 * thp_fault_alloc + 1 in /proc/vmstat) and a region without it none; with
 * "never" even a madvised region gets none. Writing "PID,0xSTART,0xEND" to
 * split_huge_pages splits the first region's page (AnonHugePages 0,
 * thp_split_pmd and thp_split_page + 1, the data kept); "never" is set by
 * then so that khugepaged does not collapse it again. The "/PATH,0xOFF,
 * 0xEND" form splits the huge page of a file on a tmpfs mounted
 * huge=always (ShmemHugePages 2048 kB to 0). Bad input is EINVAL, an
 * unknown pid ESRCH. Both switches are set back to their boot values.
 *
 * patches/core 0056 drops split_huge_pages' .llseek = no_llseek: no
 * llseek either way, so lseek is ESPIPE on both kernels; it has no read
 * (EINVAL).
 *
 * Guest RAM is 256 MiB and the profile keeps 4 hugetlb pages: the test
 * maps at most 8 MiB and makes 4 huge pages in all, one at a time.
 */
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "core/pseudo-fs.h"

#define THP_DIR		"/sys/kernel/mm/transparent_hugepage"
#define ENABLED		THP_DIR "/enabled"
#define DEFRAG		THP_DIR "/defrag"
#define PMD_SIZE_FILE	THP_DIR "/hpage_pmd_size"
#define SPLIT		"/sys/kernel/debug/split_huge_pages"
#define TMPFS		"/tmp/thp-tmpfs"
#define TMPFS_FILE	TMPFS "/file"
#define HPAGE		(2UL << 20)
#define NO_SUCH_PID	999999	/* above pid_max (32768 by default) */

static int fail(const char *what)
{
	ktap_perror(what);
	return 0;
}

/* A sysfs file's text without its newline; "" when unreadable. */
static const char *read_text(const char *path)
{
	static char buf[256];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	buf[0] = '\0';
	if (fd < 0) {
		ktap_perror(path);
		return buf;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		n = 0;
	buf[n] = '\0';
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return buf;
}

/* write(2) of text to path: 0, or the errno. */
static int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int err;

	if (fd < 0)
		return errno;
	n = write(fd, text, strlen(text));
	err = n < 0 ? errno : n == (ssize_t)strlen(text) ? 0 : EIO;
	close(fd);
	return err;
}

/* Writes word to a switch and reads back the bracketed choice. */
static int set_switch(const char *path, const char *word, const char *want)
{
	int err = write_text(path, word);
	const char *now = read_text(path);

	if (err)
		ktap_diag("write %s to %s: %s", word, path, strerror(err));
	if (strcmp(now, want))
		ktap_diag("%s reads '%s', not '%s'", path, now, want);
	return !err && !strcmp(now, want);
}

/*
 * The number after "NAME" and sep on a line of file (/proc/vmstat: a
 * space, /proc/meminfo: a colon, in kB); -1 when missing.
 */
static long long proc_field(const char *file, const char *name, char sep)
{
	char line[256];
	size_t len = strlen(name);
	long long v = -1;
	FILE *f = fopen(file, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, name, len) && line[len] == sep)
			v = atoll(line + len + 1);
	fclose(f);
	return v;
}

static long long vmstat(const char *name)
{
	return proc_field("/proc/vmstat", name, ' ');
}

static long meminfo(const char *name)
{
	return proc_field("/proc/meminfo", name, ':');
}

/*
 * A field of the /proc/self/smaps entry of the mapping that holds addr
 * ("AnonHugePages" in kB, "THPeligible"); -1 when missing.
 */
static long smaps(const void *addr, const char *field)
{
	unsigned long a = (unsigned long)addr, start, end;
	size_t len = strlen(field);
	char line[512];
	int in = 0;
	long v = -1;
	FILE *f = fopen("/proc/self/smaps", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &start, &end) == 2 &&
		    strchr(line, '-') < strchr(line, ' ')) {
			in = a >= start && a < end;
			continue;
		}
		if (in && !strncmp(line, field, len) && line[len] == ':')
			v = atol(line + len + 1);
	}
	fclose(f);
	return v;
}

/* A 2 MiB-aligned 2 MiB anonymous region; NULL on failure. */
static unsigned char *aligned_region(int advice)
{
	unsigned char *p = mmap(NULL, 2 * HPAGE, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned char *r;

	if (p == MAP_FAILED) {
		ktap_perror("mmap");
		return NULL;
	}
	r = (unsigned char *)(((unsigned long)p + HPAGE - 1) & ~(HPAGE - 1));
	/* the unaligned head and tail would be small pages anyway */
	if (r > p)
		munmap(p, r - p);
	munmap(r + HPAGE, p + 2 * HPAGE - (r + HPAGE));
	if (advice >= 0 && madvise(r, HPAGE, advice)) {
		ktap_perror("madvise");
		munmap(r, HPAGE);
		return NULL;
	}
	return r;
}

static unsigned char pattern(size_t i)
{
	return (unsigned char)(i * 13 + i / 4096);
}

/* Writes the pattern to every byte: the first write faults. */
static void fill(unsigned char *r)
{
	size_t i;

	for (i = 0; i < HPAGE; i++)
		r[i] = pattern(i);
}

static unsigned char *huge;	/* the madvised region with its THP */

/* The boot's switches, as read and as the word that selects them. */
static char boot_enabled[64], boot_defrag[64];
static const char *boot_enabled_word, *boot_defrag_word;

static int defaults(void)
{
	/* hugepage_init(): no THP by default under 512 MiB of RAM */
	int small = meminfo("MemTotal") < 512 * 1024;

	snprintf(boot_enabled, sizeof(boot_enabled), "%s", read_text(ENABLED));
	snprintf(boot_defrag, sizeof(boot_defrag), "%s", read_text(DEFRAG));
	ktap_diag("MemTotal %ld kB; enabled: %s; defrag: %s",
		  meminfo("MemTotal"), boot_enabled, boot_defrag);
	boot_enabled_word = small ? "never" : "always";
	boot_defrag_word = small ? "never" : "madvise";
	return !strcmp(boot_enabled, small ? "always madvise [never]" :
					     "[always] madvise never") &&
	       !strcmp(boot_defrag,
		       small ? "always defer defer+madvise madvise [never]" :
			       "always defer defer+madvise [madvise] never") &&
	       atol(read_text(PMD_SIZE_FILE)) == (long)HPAGE;
}

static int enabled_switch(void)
{
	int bogus = write_text(ENABLED, "sometimes");

	return bogus == EINVAL && !strcmp(read_text(ENABLED), boot_enabled) &&
	       set_switch(ENABLED, "madvise", "always [madvise] never");
}

static int defrag_switch(void)
{
	int bogus = write_text(DEFRAG, "sometimes");

	return bogus == EINVAL &&
	       set_switch(DEFRAG, "defer",
			  "always [defer] defer+madvise madvise never") &&
	       set_switch(DEFRAG, "madvise",
			  "always defer defer+madvise [madvise] never");
}

/*
 * Maps a region with advice (-1: none) and writes it: one huge page
 * (AnonHugePages 2048 kB, THPeligible 1, thp_fault_alloc + 1) when
 * want_huge, else none and no count. The region is left in *region.
 */
static int fault_region(int advice, int want_huge, unsigned char **region)
{
	long long before = vmstat("thp_fault_alloc"), after;
	unsigned char *r = aligned_region(advice);
	long kb, eligible;

	*region = r;
	if (!r)
		return 0;
	fill(r);
	after = vmstat("thp_fault_alloc");
	kb = smaps(r, "AnonHugePages");
	eligible = smaps(r, "THPeligible");
	ktap_diag("AnonHugePages %ld kB, THPeligible %ld, thp_fault_alloc %lld -> %lld",
		  kb, eligible, before, after);
	return kb == (want_huge ? 2048 : 0) && eligible == want_huge &&
	       before >= 0 && after == before + want_huge;
}

static int madvised_fault(void)
{
	return fault_region(MADV_HUGEPAGE, 1, &huge);
}

/* A region that gets no huge page, in madvise mode or with "never". */
static int no_thp(int advice)
{
	unsigned char *r;
	int ok = fault_region(advice, 0, &r);

	if (r)
		munmap(r, HPAGE);
	return ok;
}

static int plain_region(void)
{
	return no_thp(-1);
}

static int never(void)
{
	return set_switch(ENABLED, "never", "always madvise [never]") &&
	       no_thp(MADV_HUGEPAGE);
}

static int split_anon(void)
{
	long long pmd = vmstat("thp_split_pmd"), page = vmstat("thp_split_page");
	char cmd[96];
	size_t i;
	long kb;
	int err;

	if (!huge)
		return 0;
	snprintf(cmd, sizeof(cmd), "%d,0x%lx,0x%lx", getpid(),
		 (unsigned long)huge, (unsigned long)huge + HPAGE);
	err = write_text(SPLIT, cmd);
	kb = smaps(huge, "AnonHugePages");
	ktap_diag("write %s: %s; AnonHugePages %ld kB, thp_split_pmd %lld -> %lld, thp_split_page %lld -> %lld",
		  cmd, strerror(err), kb, pmd, vmstat("thp_split_pmd"), page,
		  vmstat("thp_split_page"));
	for (i = 0; i < HPAGE; i++)
		if (huge[i] != pattern(i)) {
			ktap_diag("byte %zu is %#x after the split", i, huge[i]);
			return 0;
		}
	return !err && kb == 0 && vmstat("thp_split_pmd") == pmd + 1 &&
	       vmstat("thp_split_page") == page + 1;
}

static int split_bad_input(void)
{
	char cmd[64];
	int bogus, nopid, nofile;

	bogus = write_text(SPLIT, "bogus");
	snprintf(cmd, sizeof(cmd), "%d,0x0,0x1000", NO_SUCH_PID);
	nopid = write_text(SPLIT, cmd);
	nofile = write_text(SPLIT, "/no/such/file,0x0,0x200");
	ktap_diag("bogus: %s; pid %d: %s; /no/such/file: %s", strerror(bogus),
		  NO_SUCH_PID, strerror(nopid), strerror(nofile));
	return bogus == EINVAL && nopid == ESRCH && nofile == EINVAL;
}

/* A tmpfs huge=always file's page cache THP, split by path. */
static int split_file(void)
{
	static unsigned char buf[HPAGE];
	char cmd[96];
	long before, after;
	size_t i;
	int fd, err, ok = 1;

	if (mkdir(TMPFS, 0755) && errno != EEXIST)
		return fail("mkdir " TMPFS);
	if (mount("tmpfs", TMPFS, "tmpfs", 0, "huge=always,size=8m"))
		return fail("mount tmpfs huge=always");
	fd = open(TMPFS_FILE, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0) {
		pseudo_umount(TMPFS);
		return fail(TMPFS_FILE);
	}
	for (i = 0; i < HPAGE; i++)
		buf[i] = pattern(i);
	if (write(fd, buf, HPAGE) != (ssize_t)HPAGE)
		ok = fail("write");
	before = meminfo("ShmemHugePages");
	snprintf(cmd, sizeof(cmd), "%s,0x0,0x%lx", TMPFS_FILE, HPAGE / 4096);
	err = write_text(SPLIT, cmd);
	after = meminfo("ShmemHugePages");
	memset(buf, 0, HPAGE);
	ok &= pread(fd, buf, HPAGE, 0) == (ssize_t)HPAGE;
	for (i = 0; ok && i < HPAGE; i++)
		ok = buf[i] == pattern(i);
	close(fd);
	ktap_diag("write %s: %s; ShmemHugePages %ld -> %ld kB, data %s", cmd,
		  strerror(err), before, after, ok ? "kept" : "lost");
	ok &= pseudo_umount(TMPFS);
	return ok && !err && before == 2048 && after == 0;
}

/* patches/core 0056: no llseek before or after, so ESPIPE on both. */
static int split_lseek(void)
{
	char c;
	off_t pos;
	int fd = open(SPLIT, O_RDWR | O_CLOEXEC), seek_err, read_err;
	ssize_t n;

	if (fd < 0)
		return fail(SPLIT);
	errno = 0;
	pos = lseek(fd, 0, SEEK_SET);
	seek_err = errno;
	errno = 0;
	n = read(fd, &c, 1);
	read_err = errno;
	close(fd);
	ktap_diag("lseek 0 SEEK_SET %lld (%s), read %zd (%s)", (long long)pos,
		  strerror(seek_err), n, strerror(read_err));
	return pos == -1 && seek_err == ESPIPE && n == -1 &&
	       read_err == EINVAL;
}

static int restore(void)
{
	if (huge)
		munmap(huge, HPAGE);
	huge = NULL;
	return boot_enabled_word &&
	       set_switch(ENABLED, boot_enabled_word, boot_enabled) &&
	       set_switch(DEFRAG, boot_defrag_word, boot_defrag);
}

static const struct ktap_case tcases[] = {
	{ "sysfs: enabled and defrag never under 512 MiB of RAM, hpage_pmd_size 2 MiB",
	  defaults },
	{ "enabled: an unknown word is EINVAL, madvise is selected",
	  enabled_switch },
	{ "defrag: an unknown word is EINVAL, defer and madvise are selected",
	  defrag_switch },
	{ "MADV_HUGEPAGE region written: AnonHugePages 2048 kB, thp_fault_alloc + 1",
	  madvised_fault },
	{ "in madvise mode a region without MADV_HUGEPAGE gets no huge page",
	  plain_region },
	{ "enabled never: a MADV_HUGEPAGE region gets no huge page",
	  never },
	{ "split_huge_pages PID,START,END splits it: AnonHugePages 0, thp_split_pmd and thp_split_page + 1, data kept",
	  split_anon },
	{ "split_huge_pages: bad input EINVAL, unknown pid ESRCH, missing file EINVAL",
	  split_bad_input },
	{ "split_huge_pages PATH,0x0,0x200 splits a tmpfs huge=always file's huge page, data kept",
	  split_file },
	{ "split_huge_pages: lseek fails with ESPIPE, read with EINVAL",
	  split_lseek },
	{ "enabled and defrag set back to their boot values", restore },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(tcases),
	.kconfig = (const char *const[]){ "CONFIG_TRANSPARENT_HUGEPAGE",
					  "CONFIG_DEBUG_FS", NULL },
	.timeout = 60,
	.cases = tcases,
};
