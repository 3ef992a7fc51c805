// SPDX-License-Identifier: GPL-2.0
/*
 * affs-image: the affs profile's image maker. Writes the content of
 * tests/guest/affs/tree.h into a temporary host directory and runs
 * mkfs.affs on it.
 *
 *   affs-image IMAGE MIB FLAVOUR    FLAVOUR: ofs|ffs[,dircache][,intl]
 *   affs-image --tree DIR           only write the tree into DIR (new)
 *
 * mkfs.affs is the sibling binary: the directory of /proc/self/exe (or of
 * argv[0] without /proc). The volume is labelled AFFS_TREE_LABEL; every
 * entry and the volume get the date AFFS_TREE_MTIME (SOURCE_DATE_EPOCH,
 * when set, wins for the volume), so the same flavour gives the same
 * bytes every run. The temporary directory ($TMPDIR or /tmp,
 * affs-image.XXXXXX) is removed whatever happens. Exit status: 0, 1 on an
 * error, 2 on a usage error.
 *
 * Called by scripts/lab/boot.sh for the profile's "image=NAME MIB affs-image
 * FLAVOUR" lines, in the run directory.
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define USAGE "usage: affs-image IMAGE MIB ofs|ffs[,dircache][,intl]\n" \
	"   or: affs-image --tree DIR"
#include "usage.h"
#include "../../tests/guest/affs/tree.h"

static char tmpdir[PATH_MAX];

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP ? rmdir(path) : unlink(path))
		fprintf(stderr, "warning: cannot remove '%s': %s\n", path,
			strerror(errno));
	return 0;
}

static void cleanup(void)
{
	if (tmpdir[0])
		nftw(tmpdir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	tmpdir[0] = '\0';
}

static void write_file(const char *path, unsigned int size, unsigned int seed)
{
	unsigned char buf[8192];
	unsigned long off = 0;
	int fd;

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0)
		die("cannot create '%s': %s", path, strerror(errno));
	while (off < size) {
		size_t n = size - off < sizeof(buf) ? size - off : sizeof(buf);

		affs_tree_fill(buf, off, n, seed);
		if (write(fd, buf, n) != (ssize_t)n)
			die("cannot write '%s': %s", path, strerror(errno));
		off += n;
	}
	if (close(fd))
		die("cannot write '%s': %s", path, strerror(errno));
}

static void set_mtime(const char *path)
{
	struct timespec ts[2] = {
		{ .tv_sec = AFFS_TREE_MTIME }, { .tv_sec = AFFS_TREE_MTIME },
	};

	if (utimensat(AT_FDCWD, path, ts, AT_SYMLINK_NOFOLLOW))
		die("cannot set the time of '%s': %s", path, strerror(errno));
}

/* The whole tree of tree.h under dir, which must not exist yet. */
static void write_tree(const char *dir)
{
	char rel[64], path[PATH_MAX], target[PATH_MAX];
	struct affs_tree_entry e;
	unsigned int n;

	if (mkdir(dir, 0755) && errno != EEXIST)
		die("cannot create '%s': %s", dir, strerror(errno));
	for (n = 0; n < AFFS_TREE_COUNT; n++) {
		affs_tree_get(n, &e, rel, sizeof(rel));
		snprintf(path, sizeof(path), "%s/%s", dir, rel);
		switch (e.type) {
		case AT_DIR:
			if (mkdir(path, 0755))
				die("cannot create '%s': %s", path,
				    strerror(errno));
			break;
		case AT_FILE:
			write_file(path, e.size, e.seed);
			break;
		case AT_SOFT:
			if (symlink(e.target, path))
				die("cannot create '%s': %s", path,
				    strerror(errno));
			break;
		case AT_HARD:
			snprintf(target, sizeof(target), "%s/%s", dir,
				 e.target);
			if (link(target, path))
				die("cannot link '%s' to '%s': %s", path,
				    target, strerror(errno));
			break;
		}
	}
	for (n = 0; n < AFFS_TREE_COUNT; n++) {
		affs_tree_get(n, &e, rel, sizeof(rel));
		snprintf(path, sizeof(path), "%s/%s", dir, rel);
		set_mtime(path);
	}
	set_mtime(dir);
}

/* The directory of this program, for its sibling mkfs.affs. */
static void sibling(char *out, size_t size, const char *argv0,
		    const char *name)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (n > 0) {
		self[n] = '\0';
	} else {
		snprintf(self, sizeof(self), "%s", argv0);
	}
	slash = strrchr(self, '/');
	if (slash)
		*slash = '\0';
	else
		strcpy(self, ".");
	if ((size_t)snprintf(out, size, "%s/%s", self, name) >= size)
		die("path too long for '%s'", name);
}

int main(int argc, char **argv)
{
	char mkfs[PATH_MAX], size[32], *end, *opt, *save, flav[64];
	const char *base, *args[16];
	int ffs = -1, dircache = 0, intl = 0, nargs = 0, status;
	unsigned long mib;
	pid_t pid;

	die_cleanup = cleanup;

	if (argc == 3 && !strcmp(argv[1], "--tree")) {
		write_tree(argv[2]);
		return 0;
	}
	if (argc != 4)
		usage_error("expected 3 arguments, got %d", argc - 1);
	errno = 0;
	mib = strtoul(argv[2], &end, 10);
	if (end == argv[2] || *end || errno || mib < 1 || mib > 1024)
		usage_error("bad size '%s' (MiB, 1 to 1024)", argv[2]);
	if (snprintf(flav, sizeof(flav), "%s", argv[3]) >= (int)sizeof(flav))
		usage_error("bad flavour '%s'", argv[3]);
	for (opt = strtok_r(flav, ",", &save); opt;
	     opt = strtok_r(NULL, ",", &save)) {
		if (ffs < 0 && (!strcmp(opt, "ofs") || !strcmp(opt, "ffs")))
			ffs = !strcmp(opt, "ffs");
		else if (ffs >= 0 && !strcmp(opt, "dircache") && !dircache)
			dircache = 1;
		else if (ffs >= 0 && !strcmp(opt, "intl") && !intl)
			intl = 1;
		else
			usage_error("bad flavour '%s' (expected "
				    "ofs|ffs[,dircache][,intl])", argv[3]);
	}
	if (ffs < 0)
		usage_error("bad flavour '%s' (expected "
			    "ofs|ffs[,dircache][,intl])", argv[3]);

	sibling(mkfs, sizeof(mkfs), argv[0], "mkfs.affs");
	if (access(mkfs, X_OK))
		die("cannot run '%s': %s", mkfs, strerror(errno));
	base = getenv("TMPDIR");
	if (!base || !*base)
		base = "/tmp";
	snprintf(tmpdir, sizeof(tmpdir), "%s/affs-image.XXXXXX", base);
	if (!mkdtemp(tmpdir)) {
		int err = errno;

		tmpdir[0] = '\0';
		die("cannot create a directory in '%s': %s", base,
		    strerror(err));
	}
	write_tree(tmpdir);

	snprintf(size, sizeof(size), "%luM", mib);
	args[nargs++] = mkfs;
	args[nargs++] = "-t";
	args[nargs++] = ffs ? "ffs" : "ofs";
	if (dircache)
		args[nargs++] = "-d";
	if (intl)
		args[nargs++] = "-i";
	args[nargs++] = "-s";
	args[nargs++] = size;
	args[nargs++] = "-l";
	args[nargs++] = AFFS_TREE_LABEL;
	args[nargs++] = "-r";
	args[nargs++] = tmpdir;
	args[nargs++] = argv[1];
	args[nargs] = NULL;
	if (!getenv("SOURCE_DATE_EPOCH"))
		setenv("SOURCE_DATE_EPOCH", "1577968496", 1);

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		die("cannot fork: %s", strerror(errno));
	if (!pid) {
		execv(mkfs, (char *const *)args);
		fprintf(stderr, "error: cannot run '%s': %s\n", mkfs,
			strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die("cannot wait for '%s': %s", mkfs, strerror(errno));
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		die("'%s' failed making '%s' (%s %d)", mkfs, argv[1],
		    WIFEXITED(status) ? "exit status" : "signal",
		    WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	cleanup();
	return 0;
}
