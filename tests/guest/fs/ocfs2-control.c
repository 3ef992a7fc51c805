// SPDX-License-Identifier: GPL-2.0
/*
 * ocfs2-control - OCFS2's userspace cluster stack without a cluster
 * daemon: the control device of ocfs2_stack_user (fs/ocfs2/stack_user.c)
 * and the DLM filesystem ocfs2_dlmfs (fs/ocfs2/dlmfs/dlmfs.c), first with
 * no cluster, then on the one-node DLM cluster of fs/dlm-cluster.h.
 *
 * /dev/ocfs2_control speaks the T01 text protocol described at the top of
 * stack_user.c:
 *   - a write before the protocol list was read to its end is EINVAL; the
 *     read gives "T01\n" then EOF; poll gives the default mask (the device
 *     has no .poll); default_llseek: SEEK_SET 2 re-reads "1\n", SEEK_END
 *     is 0 (the node's size);
 *   - "T02\n" and a 3-byte "T01" are EINVAL, "T01\n" is taken;
 *   - malformed messages, each answered with its own error: DOWN before
 *     the handshake is done, a bad hex digit, a node number over INT_MAX
 *     (ERANGE), a wrong separator, a short or long message, an unknown
 *     op, a version of major 0 (ERANGE), of the wrong major or a minor
 *     above /sys/fs/ocfs2/max_locking_protocol (1.0);
 *   - "SETN 00000001\n" and "SETV 01 00\n" make the handshake valid: a
 *     DOWN message for a UUID no one has is taken (47 bytes), one with a
 *     bad node number is EINVAL;
 *   - a second opener claiming node 2 is EINVAL; as node 1 it completes;
 *   - after the last valid close the node number is free again.
 * The device stays open and valid while a dlmfs domain lives: closing it
 * while an OCFS2 cluster connection lives restarts the machine
 * (ocfs2_control_release), so it is closed only once the domain is gone.
 *
 * ocfs2_dlmfs: mounted (DLMFS_MAGIC), an empty root where a regular file
 * cannot be made (EACCES: the root has no create) and a domain name of 64
 * characters is EINVAL. Without a cluster a domain mkdir fails: ENOENT
 * with the default stack o2cb (the lab kernels have no
 * CONFIG_OCFS2_FS_O2CB), ENOTCONN once /sys/fs/ocfs2/cluster_stack names a
 * user stack ("bklf"): dlm_new_lockspace() starts the DLM's comms before
 * anything else, and they find no local address. With the one-node cluster the mkdir makes a DLM
 * lockspace (the join answered as dlm_controld would): a lock file made in
 * the domain opened for writing takes an EX lock and its write sets the
 * lock value block (ENOSPC past its 64 bytes); chmod changes its mode, its
 * size is the LVB's; opened read-only (PR) it reads back, default_llseek
 * (SEEK_SET 8, SEEK_END is the LVB's 64 bytes), poll quiet (nothing
 * blocked); the domain's DLM debugfs dump shows the resource with its
 * lock still EX (userdlm keeps the level it got until another node's
 * blocking AST asks for less, so the PR open needs no DLM call); unlink, rmdir of the domain (the leave answered).
 * Then, with the control device closed, a domain mkdir joins a lockspace
 * and fails with ESRCH (no ocfs2_controld): the lockspace must be gone
 * again (pristine 6.1 keeps it; drivers 0413); umount.
 */
#include <dirent.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include "fs/dlm-cluster.h"

#define CTL "/dev/ocfs2_control"
#define OCFS2_SYS "/sys/fs/ocfs2"
#define MNT "/tmp/dlmfs"
#define DOMAIN "bkdom"
#define LOCKF MNT "/" DOMAIN "/lockA"
#define DLMFS_MAGIC 0x76a9f425
#define LVB_LEN 64
#define UUID "632A924FDD844190BDA93C0DF6B94899"

static int ctl = -1;

static int fail(const char *what)
{
	ktap_perror(what);
	return 0;
}

/* One write of s; 1 when the result is want (a length, or -errno). */
static int put(int fd, const char *s, int want)
{
	ssize_t n;

	errno = 0;
	n = write(fd, s, strlen(s));
	if (n < 0)
		n = -errno;
	if (n != want) {
		ktap_diag("write \"%.*s\": %zd (%s), want %d",
			  (int)strcspn(s, "\n"), s, n,
			  n < 0 ? strerror((int)-n) : "bytes", want);
		return 0;
	}
	return 1;
}

static int open_ctl(void)
{
	int fd = open(CTL, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		ktap_perror(CTL);
	return fd;
}

/* Reads the protocol list to EOF: 1 when it is exactly "T01\n". */
static int read_list(int fd)
{
	char b[16];
	ssize_t n = read(fd, b, sizeof(b)), end = read(fd, b + 8, 4);

	return n == 4 && !memcmp(b, "T01\n", 4) && end == 0;
}

static int before_read(void)
{
	ctl = open_ctl();
	return ctl >= 0 && put(ctl, "T01\n", -EINVAL);
}

static int list_poll_seek(void)
{
	struct pollfd p = { .fd = ctl, .events = POLLIN | POLLOUT |
						  POLLRDNORM | POLLWRNORM };
	char b[8];
	int ok;

	ok = read_list(ctl);
	if (!ok)
		ktap_diag("the protocol list is not T01 then EOF");
	/* No .poll: vfs_poll gives DEFAULT_POLLMASK. */
	if (poll(&p, 1, 0) != 1 ||
	    p.revents != (POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM)) {
		ktap_diag("poll: revents %#x", p.revents);
		ok = 0;
	}
	if (lseek(ctl, 2, SEEK_SET) != 2 || read(ctl, b, sizeof(b)) != 2 ||
	    memcmp(b, "1\n", 2) || lseek(ctl, 0, SEEK_END) != 0) {
		ktap_perror("lseek and re-read");
		ok = 0;
	}
	/* The re-read reached the end again: the list counts as read. */
	return ok;
}

static int protocol(void)
{
	return put(ctl, "T02\n", -EINVAL) & put(ctl, "T01", -EINVAL) &
	       put(ctl, "T01\n", 4);
}

static int malformed(void)
{
	static const struct {
		const char *msg;
		int err;
	} bad[] = {
		{ "DOWN " UUID " 00000001\n", EINVAL },	/* not valid yet */
		{ "SETN 0000000g\n", EINVAL },
		{ "SETN ffffffff\n", ERANGE },
		{ "SETN-00000001\n", EINVAL },
		{ "SETN 00000001", EINVAL },
		{ "SETN 00000001\n\n", EINVAL },
		{ "SETX 00000001\n", EINVAL },
		{ "SETV 00 00\n", ERANGE },
		{ "SETV 02 00\n", EINVAL },
		{ "SETV 01 01\n", EINVAL },
		{ "SETV 01 zz\n", EINVAL },
		{ "SETV 01-00\n", EINVAL },
	};
	size_t i;
	int ok = 1;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		ok &= put(ctl, bad[i].msg, -bad[i].err);
	return ok;
}

static int sysfs(void)
{
	char max[32], plugins[64], stack[32];

	dlm_read_attr(OCFS2_SYS "/max_locking_protocol", max, sizeof(max));
	dlm_read_attr(OCFS2_SYS "/loaded_cluster_plugins", plugins,
		      sizeof(plugins));
	dlm_read_attr(OCFS2_SYS "/cluster_stack", stack, sizeof(stack));
	ktap_diag("max_locking_protocol %.*s, loaded_cluster_plugins %.*s, cluster_stack %.*s",
		  (int)strcspn(max, "\n"), max,
		  (int)strcspn(plugins, "\n"), plugins,
		  (int)strcspn(stack, "\n"), stack);
	return !strcmp(max, "1.0\n") && strstr(plugins, "user") &&
	       !strcmp(stack, "o2cb\n");
}

static int handshake(void)
{
	return put(ctl, "SETN 00000001\n", 14) &
	       put(ctl, "SETV 01 00\n", 11) &
	       put(ctl, "DOWN " UUID " 00000001\n", 47) &
	       put(ctl, "DOWN " UUID " 0000000x\n", -EINVAL);
}

static int second_opener(void)
{
	int fd = open_ctl(), ok;

	if (fd < 0)
		return 0;
	ok = read_list(fd) && put(fd, "T01\n", 4) &&
	     put(fd, "SETN 00000002\n", -EINVAL) &&
	     put(fd, "SETN 00000001\n", 14) && put(fd, "SETV 01 00\n", 11);
	close(fd);
	return ok;
}

/* ---- ocfs2_dlmfs ---- */

static int dlmfs_mount(void)
{
	char name[80];
	struct statfs sf;
	DIR *d;
	struct dirent *e;
	int entries = 0, fd, ok;

	if (!dlm_mkdir(MNT) || mount("none", MNT, "ocfs2_dlmfs", 0, NULL))
		return fail("mount -t ocfs2_dlmfs");
	if (statfs(MNT, &sf))
		return fail("statfs");
	d = opendir(MNT);
	if (!d)
		return fail(MNT);
	while ((e = readdir(d)))
		entries += e->d_name[0] != '.';
	closedir(d);
	errno = 0;
	fd = open(MNT "/file", O_CREAT | O_RDWR | O_CLOEXEC, 0644);
	ok = fd < 0 && errno == EACCES;
	if (fd >= 0)
		close(fd);
	if (!ok)
		ktap_perror("a file in the dlmfs root");
	/* GROUP_NAME_MAX is 64: a name must be shorter. */
	snprintf(name, sizeof(name), MNT "/%s",
		 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
	errno = 0;
	if (!mkdir(name, 0755) || errno != EINVAL) {
		ktap_diag("mkdir of a 64-character domain: %s", strerror(errno));
		ok = 0;
	}
	return ok && sf.f_type == DLMFS_MAGIC && entries == 0;
}

static int mkdir_err(const char *what, int err)
{
	errno = 0;
	if (!mkdir(MNT "/" DOMAIN, 0755)) {
		ktap_diag("%s: the domain was made", what);
		rmdir(MNT "/" DOMAIN);
		return 0;
	}
	if (errno != err) {
		ktap_diag("%s: mkdir %s, want %s", what, strerror(errno),
			  strerror(err));
		return 0;
	}
	return 1;
}

static int domain_no_cluster(void)
{
	char stack[16];
	int ok = mkdir_err("stack o2cb", ENOENT);

	if (!dlm_write_str(OCFS2_SYS "/cluster_stack", "bklf\n"))
		return 0;
	dlm_read_attr(OCFS2_SYS "/cluster_stack", stack, sizeof(stack));
	return mkdir_err("stack bklf", ENOTCONN) && ok &&
	       !strcmp(stack, "bklf\n");
}

struct mkdir_call {
	int ret, err;
	int rm;
	const char *dir;	/* NULL: MNT/DOMAIN */
};

static void *domain_action(void *p)
{
	struct mkdir_call *c = p;
	const char *dir = c->dir ? c->dir : MNT "/" DOMAIN;

	c->ret = c->rm ? rmdir(dir) : mkdir(dir, 0755);
	c->err = errno;
	return NULL;
}

static int domain_mkdir(void)
{
	struct mkdir_call c = { .rm = 0 };

	if (!dlm_cluster_up())
		return 0;
	if (!dlm_handshake(DOMAIN, 1, 1, domain_action, &c, NULL))
		return 0;
	if (c.ret) {
		errno = c.err;
		return fail("mkdir " MNT "/" DOMAIN);
	}
	return !access(DLM_SYSFS "/" DOMAIN, F_OK);
}

static int lvb_write(void)
{
	int fd = open(LOCKF, O_CREAT | O_RDWR | O_CLOEXEC, 0644);
	struct stat st;
	int ok;

	if (fd < 0)
		return fail("open " LOCKF " for writing (EX)");
	ok = write(fd, "bklfree-lvb", 11) == 11;
	errno = 0;
	ok = ok && lseek(fd, LVB_LEN, SEEK_SET) == LVB_LEN &&
	     write(fd, "x", 1) < 0 && errno == ENOSPC;
	if (!ok)
		ktap_perror("LVB write");
	close(fd);
	/* A lock file's attributes change like any (dlmfs_file_setattr). */
	if (chmod(LOCKF, 0600) || stat(LOCKF, &st) ||
	    (st.st_mode & 07777) != 0600 || st.st_size != LVB_LEN) {
		ktap_perror("chmod " LOCKF);
		ok = 0;
	}
	return ok;
}

static char dump[8192];

static int lvb_read(void)
{
	struct pollfd p = { .events = POLLIN };
	char b[LVB_LEN + 8];
	int fd = open(LOCKF, O_RDONLY | O_CLOEXEC), ok, n = -1, dfd;
	ssize_t dn = -1;

	if (fd < 0)
		return fail("open " LOCKF " read-only (PR)");
	ok = read(fd, b, sizeof(b)) == LVB_LEN && !memcmp(b, "bklfree-lvb", 11) &&
	     lseek(fd, 8, SEEK_SET) == 8 && read(fd, b, 3) == 3 &&
	     !memcmp(b, "lvb", 3) && lseek(fd, 0, SEEK_END) == LVB_LEN;
	if (!ok)
		ktap_perror("LVB read and lseek");
	p.fd = fd;
	n = poll(&p, 1, 0);
	if (n != 0) {
		ktap_diag("poll: %d, revents %#x", n, p.revents);
		ok = 0;
	}
	/* The resource of the open lock in the domain's DLM rsb dump. */
	dfd = open("/sys/kernel/debug/dlm/" DOMAIN, O_RDONLY | O_CLOEXEC);
	if (dfd >= 0) {
		dn = read(dfd, dump, sizeof(dump) - 1);
		close(dfd);
	}
	dump[dn > 0 ? dn : 0] = '\0';
	if (!strstr(dump, "\"lockA\"") || !strstr(dump, " EX\n")) {
		ktap_diag("debugfs dlm/" DOMAIN ": no EX lock on \"lockA\"");
		ok = 0;
	}
	close(fd);
	return ok;
}

static int domain_rmdir(void)
{
	struct mkdir_call c = { .rm = 1 };
	int ok;

	if (unlink(LOCKF))
		return fail("unlink " LOCKF);
	ok = dlm_handshake(DOMAIN, 0, 1, domain_action, &c, NULL);
	if (c.ret) {
		errno = c.err;
		return fail("rmdir " MNT "/" DOMAIN);
	}
	return ok && access(DLM_SYSFS "/" DOMAIN, F_OK);
}

/*
 * ocfs2 releases a lockspace that the join made when the connection
 * fails after it (drivers 0413): the mkdir waits in that release for its
 * leave, answered here. Pristine 6.1 sends none: the wait runs out.
 */
static int leave_if_any(const char *ls)
{
	if (dlm_uevent_wait(dlm_handshake_fd, "offline", ls, DLM_UEVENT_MS))
		return dlm_answer_leave(ls);
	return 1;
}

/*
 * A domain mkdir with no valid control device open. The lab's cluster
 * has no recover_callbacks, so the user stack wants ocfs2_controld:
 * the lockspace is made (the join answered), then
 * ocfs2_live_connection_attach() finds no daemon and the mkdir fails
 * with ESRCH. 6.1 leaves that lockspace joined, with its sysfs directory,
 * and the name can never join again (EEXIST); it must be gone.
 */
#define GONE_DOMAIN "bkgone"

static int domain_no_daemon(void)
{
	struct mkdir_call c = { .dir = MNT "/" GONE_DOMAIN };
	int ok;

	/* Closed with a connection alive, the device restarts the machine. */
	if (!access(MNT "/" DOMAIN, F_OK) || !access(DLM_SYSFS "/" DOMAIN, F_OK)) {
		ktap_diag(DOMAIN " is still there: the control device stays open");
		return 0;
	}
	close(ctl);
	ctl = -1;
	ok = dlm_handshake(GONE_DOMAIN, 1, 1, domain_action, &c, leave_if_any);
	if (!c.ret || c.err != ESRCH) {
		ktap_diag("mkdir " GONE_DOMAIN ": %s, want %s",
			  c.ret ? strerror(c.err) : "made", strerror(ESRCH));
		if (!c.ret)
			rmdir(MNT "/" GONE_DOMAIN);
		ok = 0;
	}
	if (!access(DLM_SYSFS "/" GONE_DOMAIN, F_OK)) {
		ktap_diag(DLM_SYSFS "/" GONE_DOMAIN ": the lockspace stayed");
		ok = 0;
	}
	return dlm_space_remove(GONE_DOMAIN) && ok;
}

static int dlmfs_umount(void)
{
	int ok = !umount(MNT);

	if (!ok)
		ktap_perror("umount " MNT);
	return dlm_cluster_down() && ok;
}

static int last_close(void)
{
	int fd, ok;

	if (ctl >= 0)
		close(ctl);
	ctl = -1;
	fd = open_ctl();
	if (fd < 0)
		return 0;
	ok = read_list(fd) && put(fd, "T01\n", 4) &&
	     put(fd, "SETN 00000002\n", 14);
	close(fd);
	return ok;
}

static const struct ktap_case cases[] = {
	{ "ocfs2_control: a write before the list is read is EINVAL", before_read },
	{ "ocfs2_control: the list T01 and EOF, poll, lseek", list_poll_seek },
	{ "ocfs2_control: T02 and a short T01 EINVAL, T01 taken", protocol },
	{ "ocfs2_control: malformed messages EINVAL or ERANGE", malformed },
	{ "sysfs fs/ocfs2: locking protocol 1.0, user plugin, stack o2cb", sysfs },
	{ "ocfs2_control: SETN and SETV make it valid, DOWN taken", handshake },
	{ "ocfs2_control: a second opener as node 2 EINVAL, as node 1 valid", second_opener },
	{ "dlmfs: mount, empty root, no files, long domain EINVAL", dlmfs_mount },
	{ "dlmfs: no cluster: domain mkdir ENOENT (o2cb), ENOTCONN (user)", domain_no_cluster },
	{ "dlmfs: with the one-node DLM cluster the domain mkdir joins", domain_mkdir },
	{ "dlmfs: a lock file opened EX sets the LVB, ENOSPC past it, chmod", lvb_write },
	{ "dlmfs: opened PR it reads the LVB, lseek, poll, the DLM dump", lvb_read },
	{ "dlmfs: unlink, the domain rmdir leaves the lockspace", domain_rmdir },
	{ "dlmfs: with no control daemon a domain mkdir fails ESRCH, no lockspace stays", domain_no_daemon },
	{ "dlmfs: umount, cluster removed", dlmfs_umount },
	{ "ocfs2_control: after the last valid close node 2 is taken", last_close },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(cases),
	.devices = (const char *const[]){ CTL, "/dev/dlm-control", NULL },
	.kconfig = (const char *const[]){ "CONFIG_OCFS2_FS",
					  "CONFIG_OCFS2_FS_USERSPACE_CLUSTER",
					  "CONFIG_DLM", "CONFIG_CONFIGFS_FS",
					  NULL },
	.timeout = 60,
	.cases = cases,
};
