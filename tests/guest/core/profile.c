// SPDX-License-Identifier: GPL-2.0
/*
 * profile - /proc/profile, the boot-time profiler's hit buffer
 * (kernel/profile.c), there only when the kernel boots with profile=N
 * (the profile's cmdline=profile=2).
 *
 * What 6.1's read_profile() gives: a first word that is the sample step,
 * 1 << shift (not the shift: profile=2 reads 4), then one unsigned int of
 * hits per 1 << shift bytes of kernel text, prof_len = (_etext - _stext)
 * >> shift of them. create_proc_profile() sets the file's size to
 * (1 + prof_len) * sizeof(atomic_t), which stat and SEEK_END report and
 * a whole read returns; _stext and _etext come from /proc/kallsyms (root
 * sees the addresses). A read may start anywhere: from offset 1 it gives
 * the last three bytes of the step, then the first bucket. The file keeps
 * default_llseek (.proc_lseek), which the llseek series must not turn into
 * ESPIPE: SEEK_SET, SEEK_CUR and SEEK_END move the position a read starts
 * from, a negative one is EINVAL, at the end a read is 0.
 *
 * A write resets the buckets (write_profile: any count but sizeof(int) on
 * SMP, where four bytes are a timer multiplier; the lab kernel is UP): the
 * hits counted since boot (kernel work is done until some show, bounded)
 * drop to what the reads after the reset collect. The file is 0644 root:
 * nobody may read it but not open it for writing (EACCES).
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "ktap.h"

#define PATH "/proc/profile"

static int fd = -1;
static unsigned int shift;	/* from profile= on the command line */
static unsigned long long text_bytes;	/* _etext - _stext */
static off_t size;

static int fail(const char *what)
{
	ktap_perror(what);
	return 0;
}

static int cmdline_shift(void)
{
	char line[4096], *p;
	FILE *f = fopen("/proc/cmdline", "r");
	int ok = 0;

	if (!f)
		return 0;
	if (fgets(line, sizeof(line), f)) {
		for (p = strstr(line, "profile="); p;
		     p = strstr(p + 1, "profile="))
			if (p == line || p[-1] == ' ')
				ok = sscanf(p, "profile=%u", &shift) == 1;
	}
	fclose(f);
	return ok;
}

static int kallsyms_text(void)
{
	unsigned long long addr, stext = 0, etext = 0;
	char line[512], type, name[256];
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		if (!strcmp(name, "_stext"))
			stext = addr;
		else if (!strcmp(name, "_etext"))
			etext = addr;
	}
	fclose(f);
	ktap_diag("_stext %#llx _etext %#llx", stext, etext);
	if (!stext || etext <= stext)
		return 0;
	text_bytes = etext - stext;
	return 1;
}

static int exists(void)
{
	struct stat st;

	if (!cmdline_shift())
		ktap_diag("no profile= on the kernel command line");
	fd = open(PATH, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return fail(PATH);
	if (fstat(fd, &st))
		return fail("fstat");
	size = st.st_size;
	ktap_diag("profile=%u, size %lld, mode %o", shift, (long long)size,
		  st.st_mode & 07777);
	return S_ISREG(st.st_mode) && (st.st_mode & 07777) == 0644 &&
	       size > 4 && size % 4 == 0;
}

static int first_word(void)
{
	unsigned int step = 0;

	return pread(fd, &step, sizeof(step), 0) == sizeof(step) &&
	       step == 1U << shift && shift == 2;
}

static int size_from_text(void)
{
	unsigned long long want;

	if (!kallsyms_text())
		return 0;
	want = ((text_bytes >> shift) + 1) * sizeof(unsigned int);
	ktap_diag("text %llu bytes: expected size %llu", text_bytes, want);
	return (unsigned long long)size == want;
}

static unsigned int *whole;

/* Reads the whole file from offset 0 into whole; the sum of the hits. */
static unsigned long long read_whole(ssize_t *total)
{
	unsigned long long sum = 0;
	ssize_t n;
	off_t i;

	*total = 0;
	if (lseek(fd, 0, SEEK_SET))
		return 0;
	while (*total < size) {
		n = read(fd, (char *)whole + *total, size - *total);
		if (n <= 0)
			break;
		*total += n;
	}
	if (*total == size && read(fd, whole, 4) != 0)
		*total = -1;
	for (i = 1; i < size / 4; i++)
		sum += whole[i];
	return sum;
}

static unsigned long long hits_before;

/* A whole read is the size; hits show within 5 s of kernel work. */
static int read_all(void)
{
	long long deadline = ktap_now_ms() + 5000;
	ssize_t total;
	unsigned int reads = 0;

	whole = calloc(size / 4 + 1, 4);
	if (!whole)
		return fail("calloc");
	do {
		hits_before = read_whole(&total);
		reads++;
	} while (!hits_before && total == size && ktap_now_ms() < deadline);
	ktap_diag("read %zd bytes %u times, %llu hits, step %u", total,
		  reads, hits_before, whole[0]);
	return total == size && hits_before > 0 && whole[0] == 1U << shift;
}

/* From offset 1: bytes 1-3 of the step, then the first bucket's byte 0. */
static int read_offset(void)
{
	unsigned char b[4] = { 0xff, 0xff, 0xff, 0xff };
	unsigned int step = 1U << shift;
	unsigned char last[8];

	return pread(fd, b, 3, 1) == 3 &&
	       !memcmp(b, (unsigned char *)&step + 1, 3) &&
	       pread(fd, last, sizeof(last), size - 4) == 4 &&
	       pread(fd, last, sizeof(last), size) == 0;
}

static int seek(void)
{
	unsigned int step = 0;
	off_t end = lseek(fd, 0, SEEK_END);
	int at_end = read(fd, &step, 4) == 0;
	off_t set = lseek(fd, 0, SEEK_SET);
	int first = read(fd, &step, 4) == 4 && step == 1U << shift;
	off_t cur = lseek(fd, 4, SEEK_CUR);
	off_t neg;

	errno = 0;
	neg = lseek(fd, -8, SEEK_SET);
	ktap_diag("SEEK_END %lld, SEEK_CUR +4 after a word %lld, SEEK_SET -8 %lld (%s)",
		  (long long)end, (long long)cur, (long long)neg,
		  strerror(errno));
	return end == size && at_end && set == 0 && first && cur == 8 &&
	       neg < 0 && errno == EINVAL && lseek(fd, 0, SEEK_CUR) == 8;
}

static int reset(void)
{
	unsigned long long after;
	ssize_t total;

	if (pwrite(fd, "\n", 1, 0) != 1)
		return fail("write " PATH);
	after = read_whole(&total);
	ktap_diag("%llu hits before the reset, %llu after", hits_before,
		  after);
	return total == size && after < hits_before;
}

static int nobody(void)
{
	pid_t pid;
	int status;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return fail("fork");
	if (pid == 0) {
		int r, w;

		if (setgid(65534) || setuid(65534))
			_exit(2);
		r = open(PATH, O_RDONLY);
		errno = 0;
		w = open(PATH, O_WRONLY);
		_exit(r >= 0 && w < 0 && errno == EACCES ? 0 : 1);
	}
	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	       WEXITSTATUS(status) == 0;
}

static const struct ktap_case tcases[] = {
	{ PATH " exists, 0644, a whole number of words", exists },
	{ "first word is the step, 1 << 2 for profile=2", first_word },
	{ "size is ((_etext - _stext) >> 2) + 1 words", size_from_text },
	{ "a whole read returns the size, hits counted", read_all },
	{ "pread from offset 1 and at the last word, 0 at the end", read_offset },
	{ "lseek SEEK_END SEEK_SET SEEK_CUR, negative EINVAL", seek },
	{ "a write resets the hits", reset },
	{ "nobody reads but cannot open for writing", nobody },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(tcases),
	.kconfig = (const char *const[]){ "CONFIG_PROFILING", NULL },
	.timeout = 30,
	.cases = tcases,
};
