// SPDX-License-Identifier: GPL-2.0
/*
 * lseek-abi - record how lseek behaves on every file a boot can reach.
 *
 * Walks /dev and /sys/kernel/debug and /sys/kernel/tracing recursively,
 * and the top level of /proc and /proc/self. Each regular file and
 * character device is opened read-only and non-blocking and gets
 * SEEK_SET 0, SEEK_CUR 0, SEEK_END 0 and SEEK_SET 4096, in that order on
 * one descriptor. Every record is printed as a diagnostic line
 *
 *	# lseek: PATH<TAB>TYPE<TAB>SET0<TAB>CUR<TAB>END<TAB>SET4096
 *
 * sorted by path, with results as numbers or errno names and a positive
 * SEEK_END as "size" (a file's length is not its seek behaviour). Under
 * tracing/events only the first event of each subsystem is walked: every
 * event directory holds the same files with the same file_operations, and
 * the thousands of copies would only slow every boot. The
 * runner collects these lines into lseek.tsv and the report compares the
 * baseline and patched kernels, so a tree-wide llseek rewrite that changes
 * what any file does is seen (the 2.6.37 llseek work, upstream 6e8b704df584,
 * and the no_llseek removal, cb787f4ac0c2).
 */
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "ktap.h"

/*
 * The deny list: files whose open does something. They are listed, not
 * probed, so the record still shows they exist.
 */
static const struct {
	const char *prefix;
	const char *why;
} deny[] = {
	{ "/dev/watchdog", "opening arms the watchdog" },
	{ "/dev/cpu_dma_latency", "opening adds a PM QoS request" },
	{ "/proc/kmsg", "opening starts a syslog reader" },
	{ "/sys/kernel/debug/tracing", "the same tracefs as /sys/kernel/tracing" },
};

static const struct {
	const char *root;
	int recurse;
} roots[] = {
	{ "/dev", 1 },
	{ "/proc", 0 },
	{ "/proc/self", 0 },
	{ "/sys/kernel/debug", 1 },
	{ "/sys/kernel/tracing", 1 },
};

#define MAX_FILES 20000

static char *paths[MAX_FILES];
static unsigned int npaths, overflow;

static const char *denied(const char *path)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(deny); i++)
		if (!strncmp(path, deny[i].prefix, strlen(deny[i].prefix)))
			return deny[i].why;
	return NULL;
}

/* In tracing/events/SUBSYSTEM, the one event directory to walk. */
static void first_event(const char *dir, char *name, size_t len)
{
	const char *events = "/sys/kernel/tracing/events/";
	struct dirent *de;
	struct stat st;
	char path[4096];
	DIR *d;

	name[0] = '\0';
	if (strncmp(dir, events, strlen(events)) ||
	    strchr(dir + strlen(events), '/'))
		return;
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (de->d_name[0] == '.' || lstat(path, &st) ||
		    !S_ISDIR(st.st_mode))
			continue;
		if (!name[0] || strcmp(de->d_name, name) < 0)
			snprintf(name, len, "%s", de->d_name);
	}
	closedir(d);
}

static int walk(const char *dir, int recurse)
{
	struct dirent *de;
	char only[256];
	DIR *d = opendir(dir);

	if (!d)
		return ktap_perror(dir);
	first_event(dir, only, sizeof(only));
	while ((de = readdir(d))) {
		char path[4096];
		struct stat st;

		if (de->d_name[0] == '.' &&
		    (!de->d_name[1] || !strcmp(de->d_name, "..")))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (lstat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			if (recurse && !denied(path) &&
			    (!only[0] || !strcmp(only, de->d_name)))
				walk(path, 1);
			continue;
		}
		if (!S_ISREG(st.st_mode) && !S_ISCHR(st.st_mode))
			continue;
		if (npaths == MAX_FILES) {
			overflow++;
			continue;
		}
		paths[npaths++] = strdup(path);
	}
	closedir(d);
	return 0;
}

static void result(char *buf, size_t len, off_t r, int err, int end)
{
	if (r < 0)
		snprintf(buf, len, "%s", strerrorname_np(err) ?
			 strerrorname_np(err) : "E?");
	else if (end && r > 0)
		snprintf(buf, len, "size");
	else
		snprintf(buf, len, "%lld", (long long)r);
}

static void probe(const char *path)
{
	static const struct {
		off_t off;
		int whence;
	} seeks[] = {
		{ 0, SEEK_SET }, { 0, SEEK_CUR }, { 0, SEEK_END }, { 4096, SEEK_SET },
	};
	char res[ARRAY_SIZE(seeks)][32];
	const char *why = denied(path);
	struct stat st;
	size_t i;
	int fd;

	if (lstat(path, &st))
		return;
	if (why) {
		printf("# lseek: %s\t%s\tdenied\t-\t-\t-\n", path,
		       S_ISCHR(st.st_mode) ? "chr" : "reg");
		return;
	}
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		printf("# lseek: %s\t%s\topen:%s\t-\t-\t-\n", path,
		       S_ISCHR(st.st_mode) ? "chr" : "reg",
		       strerrorname_np(errno) ? strerrorname_np(errno) : "E?");
		return;
	}
	for (i = 0; i < ARRAY_SIZE(seeks); i++) {
		off_t r;

		errno = 0;
		r = lseek(fd, seeks[i].off, seeks[i].whence);
		result(res[i], sizeof(res[i]), r, errno,
		       seeks[i].whence == SEEK_END);
	}
	close(fd);
	printf("# lseek: %s\t%s\t%s\t%s\t%s\t%s\n", path,
	       S_ISCHR(st.st_mode) ? "chr" : "reg", res[0], res[1], res[2],
	       res[3]);
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void run(void)
{
	size_t i;
	unsigned int j;

	for (i = 0; i < ARRAY_SIZE(roots); i++) {
		unsigned int first = npaths;
		int ok = walk(roots[i].root, roots[i].recurse) == 0;

		qsort(paths + first, npaths - first, sizeof(*paths), cmp);
		for (j = first; j < npaths; j++)
			probe(paths[j]);
		ktap_ok(ok && npaths > first && !overflow,
			"lseek walk %s %u files", roots[i].root,
			npaths - first);
	}
}

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(roots),
	.timeout = 60,
	.upstream = "cb787f4ac0c2",
	.run = run,
};
