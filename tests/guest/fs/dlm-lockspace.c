// SPDX-License-Identifier: GPL-2.0
/*
 * dlm-lockspace - a DLM lockspace of one node made without dlm_controld
 * (fs/dlm-cluster.h plays its part), a lock taken in it through the
 * lockspace's misc device, and the lockspace's debugfs files
 * (fs/dlm/debug_fs.c) read and seeked while the lock is held.
 *
 *   - the cluster in configfs: comms/1 is the local node at 127.0.0.1;
 *     its attributes read back (addr_list "AF_INET 127.0.0.1"); comms/2
 *     is node 2 at 127.0.0.2, where the test listens on the DLM port;
 *   - /dev/dlm-control: DLM_USER_CREATE_LOCKSPACE blocks in the kernel
 *     until the join uevent is answered (members 1 and 2, id, control 1,
 *     event_done 0);
 *   - node 2: midcomms keeps no entry for the local node, so only a
 *     second member makes dlm/comms/N files (and rawmsg, the fops 0050
 *     changes). The join's recovery connects to node 2 and sends it
 *     RCOM_STATUS (read and checked: from node 1, this lockspace's id);
 *     node 2 never answers, so the recovery waits and resends while the
 *     test reads comms/2's state (ESTABLISHED), send_queue_count (0),
 *     version (0: nothing came from node 2) and flags, seeks them
 *     (seq_lseek), finds rawmsg without llseek (ESPIPE on both kernels)
 *     and refusing a write shorter than a header (EINVAL), and receives
 *     the raw message it writes there. Then it stops the recovery
 *     (control 0), removes node 2 from the members and starts it again:
 *     node 1 alone completes it, the create returns the misc minor of
 *     /dev/dlm_LS, and the lockspace's sysfs id reads back;
 *   - /dev/dlm_LS: an EX lock request (DLM_USER_LOCK) returns the lock id;
 *     poll says POLLIN and a read gives the completion (struct
 *     dlm_lock_result: the castaddr and castparam given, status 0);
 *   - debugfs dlm/: exactly LS, LS_locks, LS_all, LS_toss, LS_waiters and
 *     comms/2 (no comms/1). The rsb dump (format1) shows the resource
 *     and "LKID EX", LS_locks (format2) and LS_all
 *     (format3) the lock id and name, LS_toss not the resource (it is in
 *     use), LS_waiters nothing; a write to LS_waiters that does not parse
 *     is EINVAL, one naming no lock ENOENT; one to LS_locks that does not
 *     parse EINVAL;
 *   - lseek: the four seq_file dumps keep seq_lseek (SEEK_SET and
 *     SEEK_CUR re-read from the offset, SEEK_END EINVAL), LS_waiters keeps
 *     default_llseek (SEEK_END is its size 0, SEEK_SET 3 is 3). Our series
 *     changes neither (patches/core/0050 drops .llseek = no_llseek only
 *     from dlm_rawmsg_fops, comms/N/rawmsg), so both kernels give the same;
 *   - DLM_USER_UNLOCK: a completion with -DLM_EUNLOCK; the resource is now
 *     in LS_toss and LS_locks is empty (no rsb in use: not even its
 *     header line);
 *   - LS_locks takes a lock line: "7f01 NAME 0 2 2" reads back as a granted
 *     lock of node 2 with flags 0, and "7f02 NAME 1 0 2" (DLM_IFL_USER) is
 *     refused with EOPNOTSUPP (6.1 swaps the two: drivers 0412);
 *   - DLM_USER_REMOVE_LOCKSPACE answered through the leave uevent: the
 *     misc device, the sysfs directory and the debugfs files are gone;
 *   - the cluster removed from configfs; comms/2 went with the last
 *     lockspace (dlm_midcomms_shutdown).
 */
#include <dirent.h>
#include <linux/dlm.h>
#include <linux/dlm_device.h>

#include "fs/dlm-cluster.h"

#define LS "bkls"
#define RES "bklfree-res"
#define DBG "/sys/kernel/debug/dlm"
#define DEV "/dev/dlm_" LS
#define AST_MS 5000

static const uint32_t dlm_version[3] = { DLM_DEVICE_VERSION_MAJOR,
					 DLM_DEVICE_VERSION_MINOR,
					 DLM_DEVICE_VERSION_PATCH };

static int ls_minor = -1, ls_fd = -1;
static uint32_t lkid;
static struct dlm_lksb lksb;	/* only its address goes to the kernel */
static char cast_tag, ast_param;	/* addresses the kernel hands back */

static int fail(const char *what)
{
	ktap_perror(what);
	return 0;
}

static int cluster_up(void)
{
	char nodeid[16], local[16], addrs[128];

	if (!dlm_cluster_up())
		return 0;
	dlm_read_attr(DLM_CLUSTER "/comms/1/nodeid", nodeid, sizeof(nodeid));
	dlm_read_attr(DLM_CLUSTER "/comms/1/local", local, sizeof(local));
	dlm_read_attr(DLM_CLUSTER "/comms/1/addr_list", addrs, sizeof(addrs));
	return !strcmp(nodeid, "1\n") && !strcmp(local, "1\n") &&
	       !strcmp(addrs, "AF_INET\t127.0.0.1\n");
}

/* A request to a dlm device: header, then the command's part. */
static int dlm_request(int fd, unsigned char cmd, const void *part,
		       size_t size, const char *name)
{
	static char buf[sizeof(struct dlm_write_request) + 128];
	struct dlm_write_request *r = (void *)buf;
	size_t len = offsetof(struct dlm_write_request, i) + size;

	memset(buf, 0, sizeof(buf));
	memcpy(r->version, dlm_version, sizeof(dlm_version));
	r->cmd = cmd;
	r->is64bit = 1;
	memcpy(&r->i, part, size);
	if (name) {
		memcpy(buf + len, name, strlen(name));
		len += strlen(name) + 1;
	}
	if (len < sizeof(*r))
		len = sizeof(*r);
	return (int)write(fd, buf, len);
}

struct lspace_call {
	unsigned char cmd;
	uint32_t minor;
	int ret, err;
};

static void *lspace_action(void *p)
{
	struct lspace_call *c = p;
	struct dlm_lspace_params lp = { .minor = c->minor };
	int fd = open("/dev/dlm-control", O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		c->ret = -1;
		c->err = errno;
		return NULL;
	}
	if (c->cmd == DLM_USER_REMOVE_LOCKSPACE)
		lp.flags = DLM_USER_LSFLG_FORCEFREE;
	c->ret = dlm_request(fd, c->cmd, &lp, sizeof(lp),
			     c->cmd == DLM_USER_CREATE_LOCKSPACE ? LS : NULL);
	c->err = errno;
	close(fd);
	return NULL;
}

/* ---- node 2: a peer that never answers ---- */

/* fs/dlm/dlm_internal.h's wire header and recovery message. */
struct wire_header {
	uint32_t h_version;
	uint32_t h_lockspace;
	uint32_t h_nodeid;
	uint16_t h_length;
	uint8_t h_cmd;
	uint8_t h_pad;
};

struct wire_rcom {
	struct wire_header rc_header;
	uint32_t rc_type;
};

#define WIRE_VERSION_3_1 0x00030001
#define WIRE_RCOM 2
#define WIRE_RCOM_STATUS 1
#define PEER 2
#define PEER_ADDR 0x7f000002	/* 127.0.0.2 */
#define DLM_TCP_PORT 21064
#define COMMS DBG "/comms/2"
#define RAWMARK "bklfree-rawmsg-to-node-2"

static int peer_listen = -1, peer_conn = -1;
static unsigned char peer_buf[16384];
static size_t peer_used;

static int peer_up(void)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *sin = (struct sockaddr_in *)&ss;
	int one = 1;

	memset(&ss, 0, sizeof(ss));
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(PEER_ADDR);
	if (!dlm_mkdir(DLM_CLUSTER "/comms/2") ||
	    !dlm_write_str(DLM_CLUSTER "/comms/2/nodeid", "2") ||
	    !dlm_write_attr(DLM_CLUSTER "/comms/2/addr", &ss, sizeof(ss)))
		return 0;
	sin->sin_port = htons(DLM_TCP_PORT);
	peer_listen = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (peer_listen < 0 ||
	    setsockopt(peer_listen, SOL_SOCKET, SO_REUSEADDR, &one,
		       sizeof(one)) ||
	    bind(peer_listen, (struct sockaddr *)sin, sizeof(*sin)) ||
	    listen(peer_listen, 4))
		return fail("listen on 127.0.0.2:21064");
	return 1;
}

/*
 * Reads what the kernel sends node 2 (accepting its connection first)
 * until want is in it, or with want NULL until len bytes came; at most ms.
 */
static int peer_wait(const void *want, size_t len, int ms)
{
	long long deadline = ktap_now_ms() + ms;
	struct pollfd p = { .events = POLLIN };

	for (;;) {
		long long left = deadline - ktap_now_ms();
		ssize_t n;

		if (want ? peer_used >= len &&
			   memmem(peer_buf, peer_used, want, len) :
			   peer_used >= len)
			return 1;
		p.fd = peer_conn >= 0 ? peer_conn : peer_listen;
		if (left <= 0 || poll(&p, 1, (int)left) != 1)
			return 0;
		if (peer_conn < 0) {
			peer_conn = accept4(peer_listen, NULL, NULL,
					    SOCK_CLOEXEC);
			if (peer_conn < 0)
				return fail("accept from the kernel");
			continue;
		}
		if (peer_used == sizeof(peer_buf))
			peer_used = 0;	/* the recovery resends its ping */
		n = read(peer_conn, peer_buf + peer_used,
			 sizeof(peer_buf) - peer_used);
		if (n <= 0)
			return fail("read from the kernel");
		peer_used += n;
	}
}

/* The first message node 2 got: node 1's RCOM_STATUS for this lockspace. */
static int peer_status(void)
{
	struct wire_rcom rc;

	if (!peer_wait(NULL, sizeof(rc), AST_MS * 2)) {
		ktap_diag("node 2 got %zu bytes", peer_used);
		return 0;
	}
	memcpy(&rc, peer_buf, sizeof(rc));
	ktap_diag("node 2 got %zu bytes: version %#x lockspace %#x nodeid %u cmd %u type %u",
		  peer_used, rc.rc_header.h_version, rc.rc_header.h_lockspace,
		  rc.rc_header.h_nodeid, rc.rc_header.h_cmd, rc.rc_type);
	return rc.rc_header.h_nodeid == DLM_NODEID &&
	       rc.rc_header.h_lockspace == dlm_global_id(LS) &&
	       rc.rc_header.h_cmd == WIRE_RCOM &&
	       rc.rc_type == WIRE_RCOM_STATUS;
}

/* A DEFINE_SHOW_ATTRIBUTE file: seq_lseek, SEEK_SET 1 then SEEK_END. */
static int show_seek(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ok;
	char c;

	if (fd < 0)
		return fail(path);
	ok = lseek(fd, 1, SEEK_SET) == 1 && read(fd, &c, 1) == 1;
	errno = 0;
	ok = ok && lseek(fd, 0, SEEK_END) == -1 && errno == EINVAL;
	if (!ok)
		ktap_perror(path);
	close(fd);
	return ok;
}

static int comms_files(void)
{
	char state[32], flags[32], queue[32], version[32];
	int ok;

	dlm_read_attr(COMMS "/state", state, sizeof(state));
	dlm_read_attr(COMMS "/flags", flags, sizeof(flags));
	dlm_read_attr(COMMS "/send_queue_count", queue, sizeof(queue));
	dlm_read_attr(COMMS "/version", version, sizeof(version));
	ktap_diag(COMMS ": state %.*s flags %.*s send_queue_count %.*s version %.*s",
		  (int)strcspn(state, "\n"), state,
		  (int)strcspn(flags, "\n"), flags,
		  (int)strcspn(queue, "\n"), queue,
		  (int)strcspn(version, "\n"), version);
	/* Nothing came from node 2: its version is not known yet (0). */
	ok = !strcmp(state, "ESTABLISHED\n") && !strcmp(queue, "0\n") &&
	     !strcmp(version, "0x00000000\n") && flags[0] >= '0' &&
	     flags[0] <= '9';
	ok = show_seek(COMMS "/state") && ok;
	ok = show_seek(COMMS "/flags") && ok;
	ok = show_seek(COMMS "/send_queue_count") && ok;
	return show_seek(COMMS "/version") && ok;
}

/*
 * comms/2/rawmsg (dlm_rawmsg_fops, the fops patches/core/0050 changes):
 * no llseek on either kernel (ESPIPE), a write shorter than a header
 * EINVAL, a whole message reaches node 2 as written (a 3.1 header is sent
 * unchanged).
 */
static int rawmsg(void)
{
	static unsigned char msg[sizeof(struct wire_header) + sizeof(RAWMARK)];
	struct wire_header *h = (void *)msg;
	int fd = open(COMMS "/rawmsg", O_WRONLY | O_CLOEXEC), ok = 1;
	off_t off;

	if (fd < 0)
		return fail(COMMS "/rawmsg");
	errno = 0;
	off = lseek(fd, 0, SEEK_SET);
	if (off != -1 || errno != ESPIPE) {
		ktap_diag("rawmsg lseek: %lld (%s)", (long long)off,
			  strerror(errno));
		ok = 0;
	}
	errno = 0;
	if (write(fd, msg, 8) != -1 || errno != EINVAL) {
		ktap_diag("rawmsg 8-byte write: %s", strerror(errno));
		ok = 0;
	}
	h->h_version = WIRE_VERSION_3_1;
	h->h_lockspace = dlm_global_id(LS);
	h->h_nodeid = DLM_NODEID;
	h->h_length = sizeof(msg);
	h->h_cmd = 1;
	memcpy(msg + sizeof(*h), RAWMARK, sizeof(RAWMARK));
	if (write(fd, msg, sizeof(msg)) != (ssize_t)sizeof(msg)) {
		ktap_perror("rawmsg write");
		ok = 0;
	}
	close(fd);
	if (ok && !peer_wait(RAWMARK, sizeof(RAWMARK), AST_MS)) {
		ktap_diag("node 2 did not get the raw message");
		ok = 0;
	}
	return ok;
}

/*
 * The join hook: node 1 and node 2 are members, the recovery pings node 2
 * and waits; node 2's comms files are checked, then the recovery is
 * stopped (control 0), node 2 leaves the members and the recovery starts
 * again with node 1 alone, which lets the join complete.
 */
static int peer_results[3];

static int two_node_hook(const char *ls)
{
	char path[256];
	int ok;

	peer_results[0] = peer_status();
	peer_results[1] = peer_results[0] && comms_files();
	peer_results[2] = peer_results[0] && rawmsg();
	snprintf(path, sizeof(path), DLM_SYSFS "/%s/control", ls);
	ok = dlm_write_str(path, "0");
	snprintf(path, sizeof(path), DLM_CLUSTER "/spaces/%s/nodes/%d", ls,
		 PEER);
	if (rmdir(path))
		ok = fail(path);
	snprintf(path, sizeof(path), DLM_SYSFS "/%s/control", ls);
	return dlm_write_str(path, "1") && ok;
}

static int ls_create(void)
{
	struct lspace_call c = { .cmd = DLM_USER_CREATE_LOCKSPACE };
	char id[32];

	if (!peer_up())
		return 0;
	dlm_join_peer = PEER;
	if (!dlm_handshake(LS, 1, 1, lspace_action, &c, two_node_hook))
		return 0;
	ktap_diag("DLM_USER_CREATE_LOCKSPACE " LS ": %d (%s)", c.ret,
		  c.ret < 0 ? strerror(c.err) : "misc minor");
	if (c.ret < 0)
		return 0;
	ls_minor = c.ret;
	dlm_read_attr(DLM_SYSFS "/" LS "/id", id, sizeof(id));
	ktap_diag(DLM_SYSFS "/" LS "/id: %s", id);
	return id[0] >= '1' && id[0] <= '9';
}

/* Waits (bounded) for one result on ls_fd and reads it. */
static int read_result(struct dlm_lock_result *res)
{
	static char rbuf[sizeof(struct dlm_lock_result) + DLM_USER_LVB_LEN];
	struct pollfd p = { .fd = ls_fd, .events = POLLIN };
	ssize_t n;
	int r;

	r = poll(&p, 1, AST_MS);
	if (r != 1 || !(p.revents & POLLIN)) {
		ktap_diag("poll " DEV ": %d, revents %#x", r, p.revents);
		return 0;
	}
	n = read(ls_fd, rbuf, sizeof(rbuf));
	if (n < (ssize_t)sizeof(*res))
		return fail("read " DEV);
	memcpy(res, rbuf, sizeof(*res));
	ktap_diag("result: length %u status %d lkid %x astaddr %s",
		  res->length, res->lksb.sb_status, res->lksb.sb_lkid,
		  res->user_astaddr == &cast_tag ? "ours" : "other");
	return res->version[0] == DLM_DEVICE_VERSION_MAJOR &&
	       res->user_astaddr == &cast_tag &&
	       res->user_astparam == &ast_param && res->user_lksb == &lksb;
}

static int lock_ex(void)
{
	struct dlm_lock_params lp = {
		.mode = DLM_LOCK_EX,
		.namelen = sizeof(RES) - 1,
		.castparam = &ast_param,
		.castaddr = &cast_tag,
		.lksb = &lksb,
	};
	struct dlm_lock_result res;
	int r;

	if (!ktap_dev_present(DEV))
		return fail(DEV);
	ls_fd = open(DEV, O_RDWR | O_CLOEXEC);
	if (ls_fd < 0)
		return fail(DEV);
	r = dlm_request(ls_fd, DLM_USER_LOCK, &lp, sizeof(lp), RES);
	if (r <= 0)
		return fail("DLM_USER_LOCK");
	lkid = (uint32_t)r;
	return read_result(&res) && res.lksb.sb_status == 0 &&
	       res.lksb.sb_lkid == lkid;
}

/* The whole of a debugfs file, read in 100-byte steps. */
static char text[16384];

static ssize_t slurp(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t used = 0;
	ssize_t n;

	if (fd < 0)
		return ktap_perror(path);
	while (used < sizeof(text) - 101 &&
	       (n = read(fd, text + used, 100)) > 0)
		used += n;
	close(fd);
	text[used] = '\0';
	return (ssize_t)used;
}

/* The first lines of text, each a diagnostic. */
static void diag_text(int lines)
{
	const char *p = text, *nl;

	while (*p && lines-- > 0) {
		nl = strchr(p, '\n');
		ktap_diag("  %.*s", nl ? (int)(nl - p) : (int)strlen(p), p);
		p = nl ? nl + 1 : p + strlen(p);
	}
}

static int node2_status(void)
{
	return peer_results[0];
}

static int node2_comms(void)
{
	return peer_results[1];
}

static int node2_rawmsg(void)
{
	return peer_results[2];
}

static int debugfs_names(void)
{
	static const char *const want[] = { LS, LS "_locks", LS "_all",
					    LS "_toss", LS "_waiters",
					    "comms", NULL };
	const char *const *w;
	DIR *d = opendir(DBG);
	struct dirent *e;
	int found = 0, others = 0, comms = 0;

	if (!d)
		return fail(DBG);
	while ((e = readdir(d))) {
		int known = 0;

		if (e->d_name[0] == '.')
			continue;
		for (w = want; *w; w++)
			known |= !strcmp(e->d_name, *w);
		found += known;
		if (!known) {
			ktap_diag("unexpected " DBG "/%s", e->d_name);
			others++;
		}
	}
	closedir(d);
	d = opendir(DBG "/comms");
	if (!d)
		return fail(DBG "/comms");
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			if (strcmp(e->d_name, "2"))
				ktap_diag("unexpected " DBG "/comms/%s",
					  e->d_name);
			comms += strcmp(e->d_name, "2") ? 2 : 1;
		}
	closedir(d);
	/* Node 1 never has an entry: midcomms keeps none for itself. */
	return found == (int)ARRAY_SIZE(want) - 1 && !others && comms == 1;
}

static int rsb_dump(void)
{
	char lock[32];

	if (slurp(DBG "/" LS) <= 0)
		return 0;
	snprintf(lock, sizeof(lock), "%08x EX\n", lkid);
	if (!strstr(text, "\"" RES "\"\nMaster Copy\n") ||
	    !strstr(text, lock)) {
		ktap_diag(DBG "/" LS " has no \"%s\" or %s:", RES, lock);
		diag_text(12);
		return 0;
	}
	return 1;
}

/* LS_locks: a header line, then "lkid nodeid ... \"name\"". */
static int locks_dump(void)
{
	char head[32];
	char *line;

	if (slurp(DBG "/" LS "_locks") <= 0)
		return 0;
	snprintf(head, sizeof(head), "\n%x 0 ", lkid);
	line = strstr(text, head);
	if (!line || !strstr(line, " \"" RES "\"\n")) {
		ktap_diag(DBG "/" LS "_locks has no line of lock %x:", lkid);
		diag_text(12);
		return 0;
	}
	return 1;
}

static int all_dump(void)
{
	char lkb[32];

	if (slurp(DBG "/" LS "_all") <= 0)
		return 0;
	snprintf(lkb, sizeof(lkb), "lkb %x ", lkid);
	if (!strstr(text, RES) || !strstr(text, lkb)) {
		ktap_diag(DBG "/" LS "_all has no %s or %s:", RES, lkb);
		diag_text(12);
		return 0;
	}
	return 1;
}

static int toss_waiters(void)
{
	ssize_t n;
	int ok;

	if (slurp(DBG "/" LS "_toss") < 0)
		return 0;
	if (strstr(text, RES)) {
		ktap_diag(DBG "/" LS "_toss lists the locked resource");
		return 0;
	}
	n = slurp(DBG "/" LS "_waiters");
	if (n != 0) {
		ktap_diag(DBG "/" LS "_waiters: %zd bytes:", n);
		diag_text(6);
		return 0;
	}
	errno = 0;
	ok = !dlm_write_str(DBG "/" LS "_waiters", "nothing") &&
	     errno == EINVAL;
	errno = 0;
	ok = !dlm_write_str(DBG "/" LS "_waiters", "0 1 1") &&
	     errno == ENOENT && ok;
	/* LS_locks takes a debug lock line too (table_write2): not this. */
	errno = 0;
	ok = !dlm_write_str(DBG "/" LS "_locks", "nothing") &&
	     errno == EINVAL && ok;
	return ok;
}

/* seq_lseek on one dump: SEEK_SET, SEEK_CUR re-read; SEEK_END EINVAL. */
static int seq_seek(const char *path)
{
	static char whole[16384];
	char part[32];
	ssize_t len = slurp(path), n;
	int fd, ok;

	if (len < 20) {
		ktap_diag("%s: %zd bytes", path, len);
		return 0;
	}
	memcpy(whole, text, len + 1);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(path);
	ok = lseek(fd, 10, SEEK_SET) == 10 &&
	     (n = read(fd, part, 8)) == 8 && !memcmp(part, whole + 10, 8) &&
	     lseek(fd, 2, SEEK_CUR) == 20 &&
	     read(fd, part, 1) == 1 && part[0] == whole[20] &&
	     lseek(fd, 0, SEEK_SET) == 0 &&
	     read(fd, part, 4) == 4 && !memcmp(part, whole, 4);
	if (!ok)
		ktap_diag("%s: seek and re-read differ", path);
	errno = 0;
	if (lseek(fd, 0, SEEK_END) != -1 || errno != EINVAL) {
		ktap_diag("%s: SEEK_END: %s", path, strerror(errno));
		ok = 0;
	}
	close(fd);
	return ok;
}

static int seeks_seq(void)
{
	int ok = seq_seek(DBG "/" LS);

	ok = seq_seek(DBG "/" LS "_locks") && ok;
	ok = seq_seek(DBG "/" LS "_all") && ok;
	/* LS_toss is empty: a seek past the end of nothing. */
	return ok;
}

static int seeks_toss_waiters(void)
{
	int t = open(DBG "/" LS "_toss", O_RDONLY | O_CLOEXEC);
	int w = open(DBG "/" LS "_waiters", O_RDONLY | O_CLOEXEC);
	off_t set_t, end_t = 0, set_w, end_w;
	int end_t_err;

	if (t < 0 || w < 0) {
		ktap_perror("open toss, waiters");
		if (t >= 0)
			close(t);
		if (w >= 0)
			close(w);
		return 0;
	}
	set_t = lseek(t, 0, SEEK_SET);
	errno = 0;
	end_t = lseek(t, 0, SEEK_END);
	end_t_err = errno;
	set_w = lseek(w, 3, SEEK_SET);
	end_w = lseek(w, 0, SEEK_END);
	close(t);
	close(w);
	ktap_diag("_toss: SEEK_SET 0 %lld, SEEK_END %lld (%s); _waiters: SEEK_SET 3 %lld, SEEK_END %lld",
		  (long long)set_t, (long long)end_t, strerror(end_t_err),
		  (long long)set_w, (long long)end_w);
	return set_t == 0 && end_t == -1 && end_t_err == EINVAL &&
	       set_w == 3 && end_w == 0;
}

static int unlock(void)
{
	struct dlm_lock_params lp = {
		.lkid = lkid,
		.castparam = &ast_param,
		.castaddr = &cast_tag,
		.lksb = &lksb,
	};
	struct dlm_lock_result res;
	if (dlm_request(ls_fd, DLM_USER_UNLOCK, &lp, sizeof(lp), NULL) < 0)
		return fail("DLM_USER_UNLOCK");
	if (!read_result(&res) || res.lksb.sb_status != -DLM_EUNLOCK)
		return 0;
	close(ls_fd);
	ls_fd = -1;
	/* Tossed rsbs stay for toss_secs (10 s) before dlm_scand frees them. */
	if (slurp(DBG "/" LS "_toss") <= 0 || !strstr(text, RES)) {
		ktap_diag(DBG "/" LS "_toss: no %s:", RES);
		diag_text(6);
		return 0;
	}
	/* With no rsb in use the dump is empty, header included. */
	if (slurp(DBG "/" LS "_locks") != 0) {
		ktap_diag(DBG "/" LS "_locks after the unlock:");
		diag_text(6);
		return 0;
	}
	return 1;
}

/*
 * LS_locks also takes a line "ID NAME FLAGS NODEID STATUS" and adds such a
 * lock (table_write2(), for testing with rawmsg). 6.1 hands FLAGS and
 * NODEID to dlm_debug_add_lkb() swapped: the granted lock of node 2
 * written here reads back as a lock of node 0 with flags 2
 * (DLM_IFL_ORPHAN), and the line with DLM_IFL_USER (1), which
 * dlm_debug_add_lkb() refuses, is taken as a lock of node 1. The locks
 * stay until the lockspace is removed with DLM_USER_LSFLG_FORCEFREE.
 */
#define DEBUG_LKID 0x7f01
#define DEBUG_RES "bklfree-dbg"

static int debug_lock(void)
{
	unsigned int id, remid, pid, exflags, flags;
	unsigned long long xid;
	int nodeid, status, ok;
	char head[16], cmd[64];
	const char *line;

	/* ID NAME FLAGS NODEID STATUS: flags 0, node 2, DLM_LKSTS_GRANTED */
	snprintf(cmd, sizeof(cmd), "%x %s 0 2 2", DEBUG_LKID, DEBUG_RES);
	if (!dlm_write_str(DBG "/" LS "_locks", cmd))
		return fail(LS "_locks: write of a granted lock of node 2");
	if (slurp(DBG "/" LS "_locks") <= 0)
		return 0;
	snprintf(head, sizeof(head), "\n%x ", DEBUG_LKID);
	line = strstr(text, head);
	if (!line || sscanf(line + 1, "%x %d %x %u %llu %x %x %d", &id, &nodeid,
			    &remid, &pid, &xid, &exflags, &flags, &status) != 8) {
		ktap_diag(DBG "/" LS "_locks has no line of lock %x:", DEBUG_LKID);
		diag_text(6);
		return 0;
	}
	ktap_diag("lock %x: nodeid %d flags %#x status %d", id, nodeid, flags,
		  status);
	ok = nodeid == 2 && flags == 0 && status == 2;
	/* flags DLM_IFL_USER, node 0 */
	snprintf(cmd, sizeof(cmd), "%x %s 1 0 2", DEBUG_LKID + 1, DEBUG_RES);
	errno = 0;
	if (dlm_write_str(DBG "/" LS "_locks", cmd) ||
	    errno != EOPNOTSUPP) {
		ktap_diag("a lock line with DLM_IFL_USER: %s, not EOPNOTSUPP",
			  errno ? strerror(errno) : "taken");
		ok = 0;
	}
	return ok;
}

static int ls_remove(void)
{
	struct lspace_call c = { .cmd = DLM_USER_REMOVE_LOCKSPACE };

	if (ls_minor < 0)
		return 0;
	c.minor = ls_minor;
	if (ls_fd >= 0)
		close(ls_fd);	/* an open device holds the lockspace */
	ls_fd = -1;
	if (!dlm_handshake(LS, 0, 1, lspace_action, &c, NULL))
		return 0;
	ktap_diag("DLM_USER_REMOVE_LOCKSPACE: %d (%s)", c.ret,
		  c.ret < 0 ? strerror(c.err) : "ok");
	return c.ret >= 0 && access(DEV, F_OK) && access(DLM_SYSFS "/" LS, F_OK) &&
	       access(DBG "/" LS "_locks", F_OK);
}

static int cluster_down(void)
{
	int gone = access(COMMS, F_OK) != 0;

	if (!gone)
		ktap_diag(COMMS " outlived the last lockspace");
	if (peer_conn >= 0)
		close(peer_conn);
	if (peer_listen >= 0)
		close(peer_listen);
	if (rmdir(DLM_CLUSTER "/comms/2"))
		return fail("rmdir comms/2");
	return dlm_cluster_down() && gone;
}

static const struct ktap_case cases[] = {
	{ "configfs: a one-node cluster, node 1 local at 127.0.0.1", cluster_up },
	{ "dlm-control: DLM_USER_CREATE_LOCKSPACE " LS " answered as dlm_controld", ls_create },
	{ "node 2: the join's recovery sends it RCOM_STATUS", node2_status },
	{ "debugfs dlm/comms/2: state, flags, send_queue_count, version; seq_lseek", node2_comms },
	{ "debugfs dlm/comms/2/rawmsg: lseek ESPIPE, short write EINVAL, a message reaches node 2", node2_rawmsg },
	{ "/dev/dlm_" LS ": DLM_USER_LOCK EX, completion through poll and read", lock_ex },
	{ "debugfs dlm: the lockspace's five files, comms/2 only", debugfs_names },
	{ "debugfs dlm/" LS ": the resource and its EX lock", rsb_dump },
	{ "debugfs dlm/" LS "_locks: the lock's line", locks_dump },
	{ "debugfs dlm/" LS "_all: the resource and lkb", all_dump },
	{ "debugfs dlm/" LS "_toss empty, _waiters empty, writes EINVAL and ENOENT", toss_waiters },
	{ "lseek: seq_lseek SEEK_SET, SEEK_CUR re-read, SEEK_END EINVAL", seeks_seq },
	{ "lseek: _toss SEEK_END EINVAL, _waiters default_llseek", seeks_toss_waiters },
	{ "/dev/dlm_" LS ": DLM_USER_UNLOCK, -DLM_EUNLOCK, the resource tossed", unlock },
	{ "debugfs dlm/" LS "_locks: a written lock line keeps its flags and nodeid", debug_lock },
	{ "dlm-control: DLM_USER_REMOVE_LOCKSPACE answered, files gone", ls_remove },
	{ "configfs: the cluster removed, comms/2 gone with the lockspace", cluster_down },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(cases),
	.devices = (const char *const[]){ "/dev/dlm-control", NULL },
	.kconfig = (const char *const[]){ "CONFIG_DLM", "CONFIG_DLM_DEBUG",
					  "CONFIG_CONFIGFS_FS", NULL },
	.timeout = 60,
	.cases = cases,
};
