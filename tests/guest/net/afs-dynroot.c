// SPDX-License-Identifier: GPL-2.0
/*
 * afs-dynroot - kafs's dynamic root and the automount of a cell's
 * directory (fs/afs/mntpt.c: afs_d_automount, afs_mntpt_do_automount,
 * afs_mntpt_set_params), with no AFS server and no DNS: a cell is added
 * through /proc/fs/afs/cells with its volume location server's address
 * (127.0.0.1, where nothing listens), /afs is mounted with -o dyn, and
 * walking into the cell's directory (and its ".cell" read-write twin)
 * makes kafs mount the cell's root.cell volume, which fails: the VL
 * server's port is unreachable. Each walk runs in a child bounded at
 * AUTOMOUNT_MS so a hang fails the case instead of the boot.
 *
 * Looking at the directory without following it (fstatat with
 * AT_NO_AUTOMOUNT, an O_PATH open) mounts nothing: it is afs_getattr
 * (fs/afs/inode.c), no mntpt.c code. afs_mntpt_open and afs_mntpt_lookup
 * (the seed patch's afs_mntpt_file_operations) serve mount points read
 * from a file server's directories: out of reach without a server.
 */
#include <dirent.h>
#include <fcntl.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "ktap.h"
#include "netfs.h"

#define CELLS		"/proc/fs/afs/cells"
#define CELL		"bklfree.test"
#define AFS		"/afs"
/* A refused UDP port fails the VL lookup at once; this is a generous bound. */
#define AUTOMOUNT_MS	30000


static int mounted;



/*
 * "add NAME ADDRESSES" makes a cell with a static VL server list: no DNS.
 * Other commands, or a name without anything after "add", are EINVAL.
 */
static int add_cell(void)
{
	char buf[1024];

	if (!lo_up())
		return FAIL("lo up: %s", strerror(errno));
	if (put(CELLS, "add " CELL " 127.0.0.1\n"))
		return FAIL("add: %s", strerror(errno));
	if (put(CELLS, "del " CELL "\n") != -EINVAL || put(CELLS, "add\n") != -EINVAL)
		return FAIL("bad commands not EINVAL");
	if (slurp(CELLS, buf, sizeof(buf)) < 0 ||
	    strncmp(buf, "USE ACT    TTL SV ST NAME\n", 26) ||
	    !strstr(buf, " " CELL "\n"))
		return FAIL("cells: \"%s\"", buf);
	if (slurp("/proc/fs/afs/" CELL "/vlservers", buf, sizeof(buf)) < 0 ||
	    !strstr(buf, "127.0.0.1"))
		return FAIL("vlservers: \"%s\"", buf);
	return 1;
}

/* The dynamic root lists the cell added before the mount. */
static int dyn_mount(void)
{
	struct dirent *d;
	DIR *dir;
	int seen = 0;

	if (mkdir(AFS, 0755) || mount("none", AFS, "afs", 0, "dyn"))
		return FAIL("mount -t afs -o dyn: %s", strerror(errno));
	mounted = 1;
	dir = opendir(AFS);
	if (!dir)
		return FAIL("opendir: %s", strerror(errno));
	while ((d = readdir(dir)))
		seen |= !strcmp(d->d_name, CELL);
	closedir(dir);
	return seen;
}

/*
 * Not following the cell's directory: a directory on the dynamic root's
 * device, nothing mounted on it.
 */
static int no_automount(void)
{
	struct stat root, st, ps;
	int fd, ok;

	if (stat(AFS, &root) ||
	    fstatat(AT_FDCWD, AFS "/" CELL, &st, AT_NO_AUTOMOUNT | AT_SYMLINK_NOFOLLOW))
		return FAIL("stat: %s", strerror(errno));
	fd = open(AFS "/" CELL, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return FAIL("O_PATH: %s", strerror(errno));
	ok = !fstat(fd, &ps) && S_ISDIR(st.st_mode) && st.st_dev == root.st_dev &&
	     ps.st_dev == root.st_dev && ps.st_ino == st.st_ino;
	close(fd);
	return ok;
}

/*
 * Walks into path in a child and returns the errno it got (0: it got in),
 * or -1 when the child did not finish within AUTOMOUNT_MS (it is killed).
 */
static int walk_into(const char *path, long long *ms)
{
	long long start = ktap_now_ms();
	int fds[2], err = -1;
	struct pollfd p = { .events = POLLIN };
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC))
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		int e = fd < 0 ? errno : 0;

		(void)!write(fds[1], &e, sizeof(e));
		_exit(0);
	}
	close(fds[1]);
	p.fd = fds[0];
	if (poll(&p, 1, AUTOMOUNT_MS) == 1 && read(fds[0], &err, sizeof(err)) != sizeof(err))
		err = -1;
	*ms = ktap_now_ms() - start;
	if (err < 0)
		kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(fds[0]);
	return err;
}

/*
 * The automount: afs_d_automount -> afs_mntpt_set_params (a pseudo
 * directory: the cell from its name, root.cell) -> fc_mount, whose volume
 * lookup finds no VL server on 127.0.0.1.
 */
static int automount(const char *path)
{
	long long ms = 0;
	int err = walk_into(path, &ms);

	ktap_diag("%s: %s after %lld ms", path, err < 0 ? "no answer" :
		  strerror(err), ms);
	return err == ECONNREFUSED;
}

static int automount_ro(void)
{
	return automount(AFS "/" CELL);
}

/* ".cell": the same cell, read-write volume (the '.' branch). */
static int automount_rw(void)
{
	return automount(AFS "/." CELL);
}

/* Nothing was left mounted on the cell's directory. */
static int not_mounted(void)
{
	char buf[4096];

	if (slurp("/proc/self/mounts", buf, sizeof(buf)) < 0)
		return 0;
	return !strstr(buf, AFS "/");
}

static int dyn_umount(void)
{
	if (umount(AFS) || rmdir(AFS))
		return FAIL("umount: %s", strerror(errno));
	mounted = 0;
	return 1;
}

static const struct ktap_case cases[] = {
	{ "cells: add " CELL " with VL server 127.0.0.1, bad commands EINVAL", add_cell },
	{ "mount -t afs -o dyn lists the cell", dyn_mount },
	{ "cell directory without following: no automount", no_automount },
	{ "automount of the cell's root.cell: ECONNREFUSED in bound", automount_ro },
	{ "automount of the cell's read-write root: ECONNREFUSED in bound", automount_rw },
	{ "nothing mounted under /afs", not_mounted },
	{ "dynamic root unmounted", dyn_umount },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(cases),
	.kconfig = (const char *const[]){ "CONFIG_AFS_FS", "CONFIG_AF_RXRPC_IPV6",
					  NULL },
	.timeout = 90,
	.upstream = "seed llseek patch: fs/afs/mntpt.c",
	.cases = cases,
};
