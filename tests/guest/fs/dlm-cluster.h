/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dlm-cluster.h - a one-node DLM cluster with no dlm_controld: the test
 * plays dlm_controld's part (shared by fs/dlm-lockspace and
 * fs/ocfs2-control).
 *
 * dlm_cluster_up() writes the cluster into configfs as dlm_controld does
 * (/sys/kernel/config/dlm/cluster/comms/1: nodeid 1, local 1, addr a
 * binary struct sockaddr_storage of 127.0.0.1) and brings lo up, where
 * fs/dlm/lowcomms.c listens once the first lockspace starts.
 *
 * dlm_handshake() runs an action that makes or removes a lockspace (the
 * write to /dev/dlm-control, a mkdir in ocfs2_dlmfs ...) in a thread,
 * because the kernel blocks it in do_uevent() (fs/dlm/lockspace.c), an
 * uninterruptible wait for userspace, while this thread answers the
 * uevent the way the kernel expects:
 *   - join ("online@/kernel/dlm/LS"): the lockspace's members in configfs
 *     (spaces/LS/nodes/1: nodeid 1, weight 1), its global id in
 *     /sys/kernel/dlm/LS/id, recovery started by writing 1 to control
 *     (dlm_ls_start), then event_done 0; new_lockspace() then waits for
 *     the recovery to complete. When any of those writes fails the answer
 *     is event_done -EIO instead, so the join fails and nothing waits on a
 *     recovery that never started;
 *   - leave ("offline@/kernel/dlm/LS"): control 0 (the lockspace stopped,
 *     as dlm_controld does), event_done 0, then the configfs space is
 *     removed.
 * Every wait is bounded: the uevent (on a NETLINK_KOBJECT_UEVENT socket
 * opened before the action starts) and the action's end. A lockspace's
 * sysfs directory without its uevent still gets its answer, so that a lost
 * uevent cannot leave the action blocked in the kernel.
 */
#ifndef BKLFREE_DLM_CLUSTER_H
#define BKLFREE_DLM_CLUSTER_H

#include <fcntl.h>
#include <linux/netlink.h>
#include <net/if.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "ktap.h"
#include "netif.h"

#define DLM_CFS "/sys/kernel/config"
#define DLM_CLUSTER DLM_CFS "/dlm/cluster"
#define DLM_SYSFS "/sys/kernel/dlm"
#define DLM_NODEID 1
#define DLM_UEVENT_MS 10000
#define DLM_ACTION_MS 30000

/* Writes len bytes of val to path in one write: 1, or 0 with a diagnostic. */
static inline int dlm_write_attr(const char *path, const void *val,
				 size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), err;
	ssize_t n;

	if (fd < 0) {
		ktap_perror(path);
		return 0;
	}
	n = write(fd, val, len);
	err = errno;
	close(fd);
	if (n != (ssize_t)len) {
		errno = n < 0 ? err : EIO;
		ktap_diag("write %s: %s", path, strerror(errno));
		return 0;
	}
	return 1;
}

static inline int dlm_write_str(const char *path, const char *val)
{
	return dlm_write_attr(path, val, strlen(val));
}

/* Reads path into buf (NUL-terminated): bytes read, or -1. */
static inline ssize_t dlm_read_attr(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return n;
}

static inline int dlm_mkdir(const char *path)
{
	if (mkdir(path, 0755) && errno != EEXIST) {
		ktap_perror(path);
		return 0;
	}
	return 1;
}

/* lo up: fs/dlm/lowcomms.c binds its listening socket to 127.0.0.1. */
static inline int dlm_lo_up(void)
{
	if (netif_up("lo"))
		return 1;
	return ktap_perror("lo up"), 0;
}

/*
 * The cluster of one node: configfs mounted (if it is not), the cluster
 * group, and node 1 as the local comm at 127.0.0.1. 1, or 0 with a
 * diagnostic.
 */
static inline int dlm_cluster_up(void)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *sin = (struct sockaddr_in *)&ss;
	char id[16];

	if (access(DLM_CFS "/dlm", F_OK) &&
	    mount("none", DLM_CFS, "configfs", 0, NULL)) {
		ktap_perror("mount configfs");
		return 0;
	}
	if (!dlm_lo_up() || !dlm_mkdir(DLM_CLUSTER) ||
	    !dlm_mkdir(DLM_CLUSTER "/comms/1"))
		return 0;
	snprintf(id, sizeof(id), "%d", DLM_NODEID);
	memset(&ss, 0, sizeof(ss));
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	/* nodeid first: the addr store files the address under it. */
	return dlm_write_str(DLM_CLUSTER "/comms/1/nodeid", id) &&
	       dlm_write_str(DLM_CLUSTER "/comms/1/local", "1") &&
	       dlm_write_attr(DLM_CLUSTER "/comms/1/addr", &ss, sizeof(ss));
}

/* The cluster removed again: the local comm gone, no daemon "available". */
static inline int dlm_cluster_down(void)
{
	if (rmdir(DLM_CLUSTER "/comms/1") || rmdir(DLM_CLUSTER)) {
		ktap_perror("rmdir " DLM_CLUSTER);
		return 0;
	}
	return 1;
}

/* A uevent socket, open before the action so that no event is missed. */
static inline int dlm_uevent_open(void)
{
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
			NETLINK_KOBJECT_UEVENT);

	if (fd < 0)
		return ktap_perror("NETLINK_KOBJECT_UEVENT");
	if (bind(fd, (struct sockaddr *)&nl, sizeof(nl))) {
		close(fd);
		return ktap_perror("bind uevent socket");
	}
	return fd;
}

/*
 * Waits at most ms for the uevent "ACTION@/kernel/dlm/LS". 1 when seen;
 * 0 when the time is up.
 */
static inline int dlm_uevent_wait(int fd, const char *action, const char *ls,
				  int ms)
{
	long long deadline = ktap_now_ms() + ms;
	char want[128], msg[4096];
	struct pollfd p = { .fd = fd, .events = POLLIN };

	snprintf(want, sizeof(want), "%s@/kernel/dlm/%s", action, ls);
	for (;;) {
		long long left = deadline - ktap_now_ms();
		ssize_t n;

		if (left <= 0 || poll(&p, 1, (int)left) <= 0)
			return 0;
		while ((n = recv(fd, msg, sizeof(msg) - 1, 0)) > 0) {
			msg[n] = '\0';
			if (!strcmp(msg, want))
				return 1;
		}
	}
}

struct dlm_action {
	void *(*fn)(void *);	/* makes or removes the lockspace */
	void *arg;
	pthread_mutex_t lock;
	pthread_cond_t done_cond;
	int done;
};

static void *dlm_action_run(void *p)
{
	struct dlm_action *a = p;

	a->fn(a->arg);
	pthread_mutex_lock(&a->lock);
	a->done = 1;
	pthread_cond_signal(&a->done_cond);
	pthread_mutex_unlock(&a->lock);
	return NULL;
}

/* The lockspace id written to sysfs: any number; a hash of the name. */
static inline unsigned int dlm_global_id(const char *ls)
{
	unsigned int gid = 0x6b6c6600;
	const char *c;

	for (c = ls; *c; c++)
		gid = gid * 31 + (unsigned char)*c;
	return gid;
}

/* Node nodeid made a member of ls in configfs: 1, or 0. */
static inline int dlm_member_add(const char *ls, int nodeid)
{
	char path[320], node[256], id[16];
	int ok;

	snprintf(node, sizeof(node), DLM_CLUSTER "/spaces/%s", ls);
	ok = dlm_mkdir(node);
	snprintf(node, sizeof(node), DLM_CLUSTER "/spaces/%s/nodes/%d", ls,
		 nodeid);
	ok = ok && dlm_mkdir(node);
	snprintf(path, sizeof(path), "%s/nodeid", node);
	snprintf(id, sizeof(id), "%d", nodeid);
	ok = ok && dlm_write_str(path, id);
	snprintf(path, sizeof(path), "%s/weight", node);
	return ok && dlm_write_str(path, "1");
}

/*
 * A second member the next join answer adds (0: none): a node that never
 * answers, so that the recovery that follows waits for it (fs/dlm-lockspace).
 */
static int dlm_join_peer;

/* The join answer: members, id, start; event_done last. */
static inline int dlm_answer_join(const char *ls)
{
	char path[320], id[16];
	int ok;

	ok = dlm_member_add(ls, DLM_NODEID);
	if (dlm_join_peer)
		ok = ok && dlm_member_add(ls, dlm_join_peer);
	snprintf(path, sizeof(path), DLM_SYSFS "/%s/id", ls);
	snprintf(id, sizeof(id), "%u", dlm_global_id(ls));
	ok = ok && dlm_write_str(path, id);
	snprintf(path, sizeof(path), DLM_SYSFS "/%s/control", ls);
	ok = ok && dlm_write_str(path, "1");
	snprintf(path, sizeof(path), DLM_SYSFS "/%s/event_done", ls);
	/* -5: -EIO, the join fails instead of waiting for a recovery. */
	if (!dlm_write_str(path, ok ? "0" : "-5"))
		ok = 0;
	return ok;
}

/*
 * The leave answer: the lockspace stopped (control 0: dlm_ls_stop(), which
 * also frees the recovery's slot array) and then event_done, in the order
 * dlm_controld answers a leave.
 */
static inline int dlm_answer_leave(const char *ls)
{
	char path[256];
	int ok;

	snprintf(path, sizeof(path), DLM_SYSFS "/%s/control", ls);
	ok = dlm_write_str(path, "0");
	snprintf(path, sizeof(path), DLM_SYSFS "/%s/event_done", ls);
	if (!dlm_write_str(path, "0"))
		ok = 0;
	return ok;
}

/* The configfs space of ls removed, after a leave or a failed join. */
static inline int dlm_space_remove(const char *ls)
{
	char path[256];

	snprintf(path, sizeof(path), DLM_CLUSTER "/spaces/%s/nodes/%d", ls,
		 DLM_NODEID);
	if (rmdir(path) && errno != ENOENT)
		return ktap_perror(path), 0;
	if (dlm_join_peer) {
		snprintf(path, sizeof(path), DLM_CLUSTER "/spaces/%s/nodes/%d",
			 ls, dlm_join_peer);
		if (rmdir(path) && errno != ENOENT)
			return ktap_perror(path), 0;
	}
	snprintf(path, sizeof(path), DLM_CLUSTER "/spaces/%s", ls);
	if (rmdir(path) && errno != ENOENT)
		return ktap_perror(path), 0;
	return 1;
}

/* dlm_handshake()'s uevent socket while it runs, for its hook: -1 else. */
static int dlm_handshake_fd = -1;

/*
 * Runs fn(arg) in a thread and answers the join (join != 0) or leave
 * uevent of lockspace ls that it causes, then calls hook(ls) (if not NULL)
 * while fn may still be waiting in the kernel (the hook can wait for a
 * further uevent on dlm_handshake_fd). Returns 1 when the uevent
 * came, was answered, hook returned 1 and fn returned in time; 0 with
 * diagnostics. With no
 * uevent but a sysfs directory for ls, the answer is still given.
 * expect_event == 0: fn is expected to fail before any uevent (no
 * cluster): only fn's end is waited for.
 */
static inline int dlm_handshake(const char *ls, int join, int expect_event,
				void *(*fn)(void *), void *arg,
				int (*hook)(const char *ls))
{
	struct dlm_action a = { .fn = fn, .arg = arg,
				.lock = PTHREAD_MUTEX_INITIALIZER,
				.done_cond = PTHREAD_COND_INITIALIZER };
	int fd = dlm_uevent_open(), seen = 0, ok = 1, done;
	char dir[256];
	struct timespec ts;
	pthread_t t;

	if (fd < 0)
		return 0;
	if (pthread_create(&t, NULL, dlm_action_run, &a)) {
		close(fd);
		return ktap_perror("pthread_create"), 0;
	}
	if (expect_event) {
		seen = dlm_uevent_wait(fd, join ? "online" : "offline", ls,
				       DLM_UEVENT_MS);
		snprintf(dir, sizeof(dir), DLM_SYSFS "/%s", ls);
		if (!seen)
			ktap_diag("no %s uevent for lockspace %s in %d ms%s",
				  join ? "online" : "offline", ls,
				  DLM_UEVENT_MS,
				  access(dir, F_OK) ? "" : "; answering anyway");
		if (seen || !access(dir, F_OK))
			ok = join ? dlm_answer_join(ls) : dlm_answer_leave(ls);
		ok = ok && seen;
		/* While the action waits in the kernel: */
		dlm_handshake_fd = fd;
		if (ok && hook)
			ok = hook(ls);
		dlm_handshake_fd = -1;
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += DLM_ACTION_MS / 1000;
	pthread_mutex_lock(&a.lock);
	while (!a.done &&
	       pthread_cond_timedwait(&a.done_cond, &a.lock, &ts) == 0)
		;
	done = a.done;
	pthread_mutex_unlock(&a.lock);
	close(fd);
	if (!done) {
		/* Stuck in the kernel: it cannot be joined or cancelled. */
		ktap_diag("lockspace %s: the action did not return in %d ms",
			  ls, DLM_ACTION_MS);
		pthread_detach(t);
		return 0;
	}
	pthread_join(t, NULL);
	if (!join || !ok)
		dlm_space_remove(ls);
	return ok;
}

#endif /* BKLFREE_DLM_CLUSTER_H */
