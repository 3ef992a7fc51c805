// SPDX-License-Identifier: GPL-2.0
/*
 * nfsd-sunrpc - the kernel NFS server's control files and the sunrpc
 * caches and pipes it drives, with no NFS client and no nfs-utils:
 *
 * - fs/nfsd/nfsctl.c: the nfsd filesystem on /proc/fs/nfsd, its
 *   transaction files (versions, threads, pool_threads, portlist,
 *   max_block_size, max_connections, unlock_ip, unlock_filesystem,
 *   filehandle; simple_transaction with default_llseek) and its seq files
 *   (exports, export_features, reply_cache_stats, filecache, pool_stats);
 * - net/sunrpc/cache.c: /proc/net/rpc/<cache>/{flush,content,channel} of
 *   auth.unix.ip, auth.unix.gid, nfsd.export and nfsd.fh: flush times,
 *   content, downcalls written to channel as mountd writes them, and
 *   upcalls read from channel when nfsd needs an entry;
 * - net/sunrpc/rpc_pipe.c: rpc_pipefs, its directories and the dummy gssd
 *   client (gssd/clntXX/info and the gssd pipe) it makes with no client.
 *
 * patches/core 0060 drops `.proc_lseek = no_llseek` from the channel and
 * flush proc_ops and `.llseek = no_llseek` from the pipefs cache files and
 * rpc_pipe_fops. no_llseek is NULL in 6.1, so lseek is ESPIPE on both
 * kernels (procfs and do_dentry_open clear FMODE_LSEEK for a NULL lseek)
 * and pread still works: this test asserts the same on both.
 *
 * The end: nfsd started for real. nfsd and lockd register with rpcbind,
 * over TCP to 127.0.0.1:111 here (the lab kernels have no AF_UNIX, so the
 * kernel's rpcbind client over /var/run/rpcbind.sock fails); a stand-in
 * in a child process answers those calls. An NFSv3 GETATTR sent over UDP to
 * 127.0.0.1:2049 makes nfsd ask auth.unix.ip (and auth.unix.gid) through
 * their channels; the test reads the upcalls, answers them, and gets the
 * attributes of the directory it exported through nfsd.export and nfsd.fh.
 *
 * The pipefs variants of the cache files (cache_file_operations_pipefs
 * ...) exist only for the NFS client's legacy DNS resolver
 * (CONFIG_NFS_USE_LEGACY_DNS): not reached here.
 */
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "ktap.h"
#include "netfs.h"

#define NFSD_FS		"/proc/fs/nfsd"
#define RPC		"/proc/net/rpc"
#define EXPORT		"/tmp/nfsexp"
#define PIPEFS		"/tmp/rpc_pipefs"
#define DOMAIN		"bklfree"
/* include/uapi/linux/nfsd/export.h */
#define NFSEXP_INSECURE_PORT	0x0002
#define NFSEXP_FSID		0x2000

static const char *const caches[] = {
	"auth.unix.ip", "auth.unix.gid", "nfsd.export", "nfsd.fh",
};

/* Each cache's content header (its cache_show with no entry). */
static const char *const headers[] = {
	"#class IP domain\n", "#uid cnt: gids...\n",
	"#path domain(flags)\n", "#domain fsidtype fsid [path]\n",
};

static pid_t rpcbind = -1;
static int nfsd_mounted, pipefs_mounted, export_mounted;


/*
 * One nfsctl transaction: write in (if any), read the reply from the same
 * file. Returns the reply's length, or -errno of the failing call.
 */
static ssize_t xact(const char *name, const char *in, char *out, size_t size)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), NFSD_FS "/%s", name);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (in && write(fd, in, strlen(in)) != (ssize_t)strlen(in)) {
		n = -errno;
		close(fd);
		return n;
	}
	n = read(fd, out, size - 1);
	if (n < 0)
		n = -errno;
	else
		out[n] = '\0';
	close(fd);
	return n;
}

/* A transaction whose reply must be want. */
static int xact_is(const char *name, const char *in, const char *want)
{
	char out[256];
	ssize_t n = xact(name, in, out, sizeof(out));

	if (n < 0 || strcmp(out, want)) {
		ktap_diag("%s <- %s: %zd \"%s\", want \"%s\"", name,
			  in ? in : "(read)", n, n < 0 ? strerror(-n) : out, want);
		return 0;
	}
	return 1;
}

/* A transaction write that must fail with err. */
static int xact_err(const char *name, const char *in, int err)
{
	char out[256];
	ssize_t n = xact(name, in, out, sizeof(out));

	if (n != -err) {
		ktap_diag("%s <- %s: %zd, want -%s", name, in, n, strerror(err));
		return 0;
	}
	return 1;
}

static void cache_path(char *buf, size_t size, const char *cache,
		       const char *file)
{
	snprintf(buf, size, RPC "/%s/%s", cache, file);
}

/* An expiry for a downcall: wall-clock seconds, an hour from now. */
static long long expiry(void)
{
	return (long long)time(NULL) + 3600;
}


/*
 * The nfsd filesystem on its usual place, lo up (the GETATTR goes over
 * it) and a tmpfs to export: tmpfs has export operations, the initramfs's
 * rootfs has none.
 */
static int setup(void)
{
	struct stat st;

	if (!lo_up())
		return ktap_perror("lo up") + 1;
	if (mkdir(EXPORT, 0755) || mount("tmpfs", EXPORT, "tmpfs", 0, "size=1m"))
		return ktap_perror(EXPORT) + 1;
	export_mounted = 1;
	if (mount("nfsd", NFSD_FS, "nfsd", 0, NULL))
		return ktap_perror("mount -t nfsd") + 1;
	nfsd_mounted = 1;
	return !stat(NFSD_FS "/threads", &st) && S_ISREG(st.st_mode);
}

/*
 * Only NFSv3 is built (no CONFIG_NFSD_V2, no CONFIG_NFSD_V4): "+3". An
 * unknown version cannot be enabled (EINVAL) but may be disabled; turning
 * every version off turns them all back on.
 */
static int versions(void)
{
	return xact_is("versions", NULL, "+3\n") &&
	       xact_err("versions", "+5\n", EINVAL) &&
	       xact_is("versions", "-5\n", "+3\n") &&
	       xact_is("versions", "-3\n", "+3\n") &&
	       xact_err("versions", "+3", EINVAL);
}

/* No service yet: 0 threads, pool_threads 0, no pool_stats (ENODEV). */
static int threads_idle(void)
{
	int fd = open(NFSD_FS "/pool_stats", O_RDONLY | O_CLOEXEC);
	int enodev = fd < 0 && errno == ENODEV;

	if (fd >= 0)
		close(fd);
	return xact_is("threads", NULL, "0\n") &&
	       xact_err("threads", "-1\n", EINVAL) &&
	       xact_err("threads", "many\n", EINVAL) &&
	       xact_is("pool_threads", NULL, "0\n") &&
	       xact_is("portlist", NULL, "") && enodev;
}

/* max_block_size is clamped to 1024..1 MiB and rounded down to 1 KiB. */
static int limits(void)
{
	return xact_is("max_block_size", "100\n", "1024\n") &&
	       xact_is("max_block_size", "5000\n", "4096\n") &&
	       xact_is("max_block_size", "262144\n", "262144\n") &&
	       xact_is("max_block_size", NULL, "262144\n") &&
	       xact_is("max_connections", NULL, "0\n") &&
	       xact_is("max_connections", "16\n", "16\n") &&
	       xact_is("max_connections", "0\n", "0\n") &&
	       xact_err("max_connections", "x\n", EINVAL);
}

/* The seq files: their headers, with nothing exported yet. */
static int seq_files(void)
{
	static char buf[4096];
	unsigned int a, b;
	int ok = 1;

	if (slurp(NFSD_FS "/exports", buf, sizeof(buf)) < 0 ||
	    strcmp(buf, "# Version 1.1\n# Path Client(Flags) # IPs\n"))
		ok = FAIL("exports: \"%s\"", buf);
	if (slurp(NFSD_FS "/export_features", buf, sizeof(buf)) < 0 ||
	    sscanf(buf, "0x%x 0x%x\n", &a, &b) != 2 || !(a & NFSEXP_FSID))
		ok = FAIL("export_features: \"%s\"", buf);
	if (slurp(NFSD_FS "/reply_cache_stats", buf, sizeof(buf)) < 0 ||
	    strncmp(buf, "max entries:", 12))
		ok = FAIL("reply_cache_stats: \"%.60s\"", buf);
	if (slurp(NFSD_FS "/filecache", buf, sizeof(buf)) < 0 ||
	    strncmp(buf, "total inodes:  0\n", 17))
		ok = FAIL("filecache: \"%.60s\"", buf);
	return ok;
}

/*
 * unlock_ip takes an address (nothing is locked: 0), unlock_filesystem a
 * path; a line without its newline or a bad address is EINVAL.
 */
static int unlocks(void)
{
	return !put(NFSD_FS "/unlock_ip", "192.0.2.1\n") &&
	       put(NFSD_FS "/unlock_ip", "192.0.2.1") == -EINVAL &&
	       put(NFSD_FS "/unlock_ip", "not-an-address\n") == -EINVAL &&
	       !put(NFSD_FS "/unlock_filesystem", EXPORT "\n") &&
	       put(NFSD_FS "/unlock_filesystem", "/nonexistent\n") == -ENOENT;
}

/*
 * filehandle: a size below NFS_FHSIZE is EINVAL, a missing path EPERM, a
 * directory not exported ENOENT (no nfsd.export entry, and nothing is
 * asked for outside a request).
 */
static int filehandle_errors(void)
{
	return xact_err("filehandle", DOMAIN " " EXPORT " 8\n", EINVAL) &&
	       xact_err("filehandle", DOMAIN " /nonexistent 32\n", EPERM) &&
	       xact_err("filehandle", DOMAIN " " EXPORT " 32\n", ENOENT) &&
	       xact_err("filehandle", DOMAIN " " EXPORT " 32", EINVAL);
}

/*
 * transaction_ops has default_llseek: the reply is re-read after a seek.
 * exports is a seq file: SEEK_SET works, SEEK_END is EINVAL.
 */
static int nfsctl_lseek(void)
{
	char a[16], b[16];
	int fd = open(NFSD_FS "/threads", O_RDWR | O_CLOEXEC);
	int ok, ex;

	if (fd < 0)
		return ktap_perror("open threads") + 1;
	ok = read(fd, a, sizeof(a)) == 2 && lseek(fd, 1, SEEK_SET) == 1 &&
	     read(fd, b, sizeof(b)) == 1 && b[0] == '\n' &&
	     lseek(fd, -2, SEEK_CUR) == 0 && read(fd, b, sizeof(b)) == 2 &&
	     !memcmp(a, b, 2) && lseek(fd, -1, SEEK_SET) < 0 && errno == EINVAL;
	close(fd);
	ex = open(NFSD_FS "/exports", O_RDONLY | O_CLOEXEC);
	if (ex < 0)
		return ktap_perror("open exports") + 1;
	ok = ok && read(ex, a, 8) == 8 && lseek(ex, 2, SEEK_SET) == 2 &&
	     read(ex, b, 7) == 7 && !memcmp(b, "Version", 7) &&
	     lseek(ex, 0, SEEK_END) < 0 && errno == EINVAL;
	close(ex);
	return ok;
}

/* The four caches nfsd and sunrpc register, each with its three files. */
static int cache_dirs(void)
{
	static const char *const files[] = { "channel", "content", "flush" };
	char path[96];
	struct stat st;
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(caches); i++)
		for (j = 0; j < ARRAY_SIZE(files); j++) {
			cache_path(path, sizeof(path), caches[i], files[j]);
			if (stat(path, &st) || !S_ISREG(st.st_mode))
				return ktap_perror(path) + 1;
		}
	return 1;
}

/*
 * flush: any number flushes the cache and moves its flush time to now
 * (or one second past it, when it is already there); read back it is
 * wall-clock seconds. A second write through the same file (offset not 0)
 * and a non-number are EINVAL. lseek is ESPIPE (no .proc_lseek, before
 * and after 0060); open_flush is nonseekable_open, so pread is ESPIPE too.
 */
static int flush_one(const char *cache)
{
	char path[96], buf[32];
	long long before, after, now = time(NULL);
	int fd, ok;

	cache_path(path, sizeof(path), cache, "flush");
	if (put(path, "1\n") || slurp(path, buf, sizeof(buf)) < 0)
		return ktap_perror(path) + 1;
	before = atoll(buf);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return ktap_perror(path) + 1;
	ok = write(fd, "0\n", 2) == 2 && write(fd, "0\n", 2) < 0 &&
	     errno == EINVAL;
	ok = ok && lseek(fd, 0, SEEK_SET) < 0 && errno == ESPIPE &&
	     lseek(fd, 0, SEEK_CUR) < 0 && errno == ESPIPE &&
	     pread(fd, buf, sizeof(buf) - 1, 0) < 0 && errno == ESPIPE;
	close(fd);
	if (slurp(path, buf, sizeof(buf)) < 0)
		return ktap_perror(path) + 1;
	after = atoll(buf);
	if (!ok || before < now - 5 || before > now + 5 || after <= before) {
		ktap_diag("%s: flush %lld then %lld, now %lld", cache, before,
			  after, now);
		return 0;
	}
	return put(path, "soon\n") == -EINVAL && put(path, "1x\n") == -EINVAL;
}

static int flushes(void)
{
	size_t i;
	int ok = 1;

	for (i = 0; i < ARRAY_SIZE(caches); i++)
		if (!flush_one(caches[i]))
			ok = FAIL("%s/flush failed", caches[i]);
	return ok;
}

/*
 * Every entry a flush left is expired: shown after "# " (cache_clean
 * removes it later). 0: a line of content is a live entry.
 */
static int all_expired(const char *content, const char *header)
{
	const char *l;

	if (strncmp(content, header, strlen(header)))
		return 0;
	for (l = content + strlen(header); *l; l = strchr(l, '\n') + 1)
		if (strncmp(l, "# ", 2) || !strchr(l, '\n'))
			return 0;
	return 1;
}

/*
 * content: after the flushes, the header and only expired entries (the
 * filehandle case left a pending nfsd.export entry); seq_lseek: SET
 * works, END is EINVAL.
 */
static int contents(void)
{
	char path[96], buf[256];
	size_t i;
	int ok = 1, fd;

	for (i = 0; i < ARRAY_SIZE(caches); i++) {
		cache_path(path, sizeof(path), caches[i], "content");
		if (slurp(path, buf, sizeof(buf)) < 0 || !all_expired(buf, headers[i]))
			ok = FAIL("%s: \"%s\"", path, buf);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || read(fd, buf, 4) != 4 ||
		    lseek(fd, 1, SEEK_SET) != 1 || read(fd, buf, 1) != 1 ||
		    buf[0] != headers[i][1] || lseek(fd, 0, SEEK_END) >= 0 ||
		    errno != EINVAL)
			ok = FAIL("%s: read and lseek", path);
		close(fd);
	}
	return ok;
}

/*
 * channel with nothing asked: writable, not readable (poll), read 0, lseek
 * ESPIPE (before and after 0060), pread ESPIPE (cache_open is
 * nonseekable_open). FIONREAD is 0 from the VFS: on a regular file
 * do_vfs_ioctl answers it (i_size - f_pos) and cache_ioctl never sees it.
 */
static int channels_idle(void)
{
	char path[96], buf[64];
	size_t i;
	int ok = 1;

	for (i = 0; i < ARRAY_SIZE(caches); i++) {
		struct pollfd p = { .events = POLLIN | POLLOUT };
		int n = -1, fd;

		cache_path(path, sizeof(path), caches[i], "channel");
		fd = open(path, O_RDWR | O_CLOEXEC);
		p.fd = fd;
		if (fd < 0 || poll(&p, 1, 0) != 1 || p.revents != POLLOUT ||
		    ioctl(fd, FIONREAD, &n) || n != 0 ||
		    read(fd, buf, sizeof(buf)) != 0 ||
		    lseek(fd, 0, SEEK_SET) >= 0 || errno != ESPIPE ||
		    pread(fd, buf, sizeof(buf), 0) >= 0 || errno != ESPIPE)
			ok = FAIL("%s: revents %#x FIONREAD %d: %s", path,
				  p.revents, n, strerror(errno));
		close(fd);
	}
	return ok;
}

/*
 * auth.unix.ip downcalls as mountd writes them ("class address expiry
 * [domain]", ip_map_parse): one mapping to the bklfree domain (made by
 * it), one negative (no domain: shown with "# " and -no-domain-). A line
 * without its newline, a bad address, no expiry: EINVAL.
 */
static int ip_downcalls(void)
{
	char path[96], line[128], buf[512];
	int ok;

	cache_path(path, sizeof(path), "auth.unix.ip", "channel");
	snprintf(line, sizeof(line), "nfsd 192.0.2.1 %lld " DOMAIN "\n", expiry());
	ok = !put(path, line);
	snprintf(line, sizeof(line), "nfsd 192.0.2.2 %lld\n", expiry());
	ok = ok && !put(path, line);
	ok = ok && put(path, "nfsd 192.0.2.3 2000000000 x") == -EINVAL &&
	     put(path, "nfsd 192.0.2.300 2000000000 x\n") == -EINVAL &&
	     put(path, "nfsd 192.0.2.3\n") == -EINVAL;
	cache_path(path, sizeof(path), "auth.unix.ip", "content");
	if (!ok || slurp(path, buf, sizeof(buf)) < 0)
		return 0;
	if (!strstr(buf, "\nnfsd 192.0.2.1 " DOMAIN "\n") ||
	    !strstr(buf, "\n# nfsd 192.0.2.2 -no-domain-\n") ||
	    strstr(buf, "192.0.2.3")) {
		ktap_diag("auth.unix.ip content: \"%s\"", buf);
		return 0;
	}
	return 1;
}

/* A flush expires every entry made before it. */
static int ip_flush(void)
{
	char path[96], buf[512];

	cache_path(path, sizeof(path), "auth.unix.ip", "flush");
	if (put(path, "1\n"))
		return 0;
	cache_path(path, sizeof(path), "auth.unix.ip", "content");
	if (slurp(path, buf, sizeof(buf)) < 0 || !all_expired(buf, headers[0])) {
		ktap_diag("after flush: \"%s\"", buf);
		return 0;
	}
	return 1;
}

/*
 * EXPORT exported to bklfree as mountd would: nfsd.export "domain path
 * expiry flags anonuid anongid fsid" (tmpfs needs NFSEXP_FSID) and
 * nfsd.fh "domain fsidtype fsid expiry path" for FSID_NUM (type 1, the
 * fsid as 4 host-order bytes). A domain nobody made is ENOENT, a negative
 * export (no flags) is shown without flags.
 */
static int export_downcalls(void)
{
	char path[96], line[256], buf[512];
	long long e = expiry();
	int ok;

	cache_path(path, sizeof(path), "nfsd.export", "channel");
	snprintf(line, sizeof(line), DOMAIN " " EXPORT " %lld %d 65534 65534 1\n",
		 e, NFSEXP_FSID | NFSEXP_INSECURE_PORT);
	ok = !put(path, line);
	snprintf(line, sizeof(line), "nobody.example " EXPORT " %lld 0 0 0 0\n", e);
	ok = ok && put(path, line) == -ENOENT;
	snprintf(line, sizeof(line), DOMAIN " /tmp %lld\n", e);
	ok = ok && !put(path, line);
	cache_path(path, sizeof(path), "nfsd.fh", "channel");
	snprintf(line, sizeof(line), DOMAIN " 1 \\x01000000 %lld " EXPORT "\n", e);
	ok = ok && !put(path, line);
	snprintf(line, sizeof(line), DOMAIN " 1 \\x0100 %lld " EXPORT "\n", e);
	ok = ok && put(path, line) == -EINVAL;
	if (!ok)
		return 0;
	cache_path(path, sizeof(path), "nfsd.export", "content");
	if (slurp(path, buf, sizeof(buf)) < 0 ||
	    !strstr(buf, "\n" EXPORT "\t" DOMAIN "(") ||
	    !strstr(buf, "fsid=1") || !strstr(buf, "# /tmp\t" DOMAIN "()\n")) {
		ktap_diag("nfsd.export content: \"%s\"", buf);
		return 0;
	}
	cache_path(path, sizeof(path), "nfsd.fh", "content");
	if (slurp(path, buf, sizeof(buf)) < 0 ||
	    !strstr(buf, "\n" DOMAIN " 1 0x00000001 " EXPORT "\n")) {
		ktap_diag("nfsd.fh content: \"%s\"", buf);
		return 0;
	}
	return 1;
}

static unsigned char fh[64];
static size_t fh_len;

/*
 * filehandle now composes EXPORT's root handle: hex, "\x" then version
 * 1, auth 0, fsid type 1 (FSID_NUM), fileid type 0 (the export root),
 * and the fsid. exports lists the export.
 */
static int filehandle(void)
{
	char out[256], buf[1024];
	ssize_t n = xact("filehandle", DOMAIN " " EXPORT " 64\n", out, sizeof(out));
	size_t i;

	if (n < 4 || strncmp(out, "\\x", 2)) {
		ktap_diag("filehandle: %zd \"%s\"", n, n < 0 ? strerror(-n) : out);
		return 0;
	}
	for (i = 0; i < sizeof(fh) && isxdigit((unsigned char)out[2 + 2 * i]); i++)
		sscanf(out + 2 + 2 * i, "%2hhx", &fh[i]);
	fh_len = i;
	out[strcspn(out, "\n")] = '\0';
	ktap_diag("filehandle %s", out);
	if (fh_len != 8 || memcmp(fh, "\x01\x00\x01\x00\x01\x00\x00\x00", 8))
		return 0;
	if (slurp(NFSD_FS "/exports", buf, sizeof(buf)) < 0 ||
	    !strstr(buf, EXPORT "\t" DOMAIN "(")) {
		ktap_diag("exports: \"%s\"", buf);
		return 0;
	}
	return 1;
}

/* rpc_pipefs: the directories rpc_fill_super makes, and gssd's dummy. */
static int pipefs_mount(void)
{
	static const char *const dirs[] = {
		"lockd", "mount", "nfs", "portmap", "statd", "nfsd4_cb",
		"cache", "gssd", "gssd/clntXX",
	};
	char path[64];
	struct stat st;
	size_t i;

	if (mkdir(PIPEFS, 0755) || mount("rpc_pipefs", PIPEFS, "rpc_pipefs", 0, NULL))
		return ktap_perror("mount -t rpc_pipefs") + 1;
	pipefs_mounted = 1;
	for (i = 0; i < ARRAY_SIZE(dirs); i++) {
		snprintf(path, sizeof(path), PIPEFS "/%s", dirs[i]);
		if (stat(path, &st) || !S_ISDIR(st.st_mode))
			return ktap_perror(path) + 1;
	}
	return mkdir(PIPEFS "/nfs/x", 0755) < 0 && errno == EPERM;
}

/* The dummy client's info: rpc_dummy_info_show, a seq file. */
static int pipefs_info(void)
{
	char buf[512], want[128], node[65] = "";
	int fd;

	gethostname(node, sizeof(node) - 1);
	snprintf(want, sizeof(want), "RPC server: %s\nservice: foo (1) version 0\n"
		 "address: 127.0.0.1\nprotocol: tcp\nport: 0\n", node);
	if (slurp(PIPEFS "/gssd/clntXX/info", buf, sizeof(buf)) < 0 ||
	    strcmp(buf, want)) {
		ktap_diag("info: \"%s\"", buf);
		return 0;
	}
	fd = open(PIPEFS "/gssd/clntXX/info", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	memset(buf, 0, sizeof(buf));
	if (lseek(fd, 4, SEEK_SET) != 4 || read(fd, buf, 6) != 6 ||
	    strcmp(buf, "server")) {
		close(fd);
		return 0;
	}
	close(fd);
	return 1;
}

/*
 * The gssd pipe (rpc_pipe_fops on a FIFO inode, so FIONREAD reaches
 * rpc_pipe_ioctl) with nothing queued: writable only, FIONREAD 0, read 0,
 * a downcall EINVAL (dummy_downcall), another ioctl EINVAL, lseek ESPIPE
 * (before and after 0060), pread reads (0: rpc_pipe_open is seekable).
 */
static int pipefs_pipe(void)
{
	int fd = open(PIPEFS "/gssd/clntXX/gssd", O_RDWR | O_CLOEXEC);
	struct pollfd p = { .fd = fd, .events = POLLIN | POLLOUT };
	int n = -1, ok;
	char buf[32];

	if (fd < 0)
		return ktap_perror("open gssd pipe") + 1;
	ok = poll(&p, 1, 0) == 1 && p.revents == POLLOUT &&
	     !ioctl(fd, FIONREAD, &n) && n == 0 &&
	     read(fd, buf, sizeof(buf)) == 0 &&
	     write(fd, "x", 1) < 0 && errno == EINVAL &&
	     ioctl(fd, _IO('X', 0x7f)) < 0 && errno == EINVAL &&
	     lseek(fd, 0, SEEK_SET) < 0 && errno == ESPIPE &&
	     pread(fd, buf, sizeof(buf), 0) == 0;
	if (!ok)
		ktap_diag("gssd pipe: revents %#x FIONREAD %d: %s", p.revents, n,
			  strerror(errno));
	close(fd);
	return ok;
}

/*
 * The rpcbind stand-in: each RPC call on the stream socket (record
 * marking, one fragment) gets an accepted, successful reply; NULL (proc 0)
 * has no result, SET and UNSET (v2, v3, v4) return TRUE.
 */
static int read_full(int fd, void *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		n = read(fd, (char *)buf + got, len - got);
		if (n <= 0)
			return -1;
		got += n;
	}
	return 0;
}

static void rpcbind_serve(int conn)
{
	uint32_t call[256], reply[8];
	uint32_t mark, len;

	while (!read_full(conn, &mark, 4)) {
		len = ntohl(mark) & 0x7fffffff;
		if (len < 24 || len > sizeof(call) || read_full(conn, call, len))
			return;
		reply[1] = call[0];		/* xid */
		reply[2] = htonl(1);		/* REPLY */
		reply[3] = htonl(0);		/* MSG_ACCEPTED */
		reply[4] = htonl(0);		/* verifier AUTH_NONE */
		reply[5] = htonl(0);
		reply[6] = htonl(0);		/* SUCCESS */
		reply[7] = htonl(1);		/* TRUE */
		len = ntohl(call[5]) == 0 ? 24 : 28;
		reply[0] = htonl(0x80000000 | len);
		if (write(conn, reply, 4 + len) != (ssize_t)(4 + len))
			return;
	}
}

static int rpcbind_start(void)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(111),
				   .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int one = 1, s;

	s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0 || setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(s, (struct sockaddr *)&sin, sizeof(sin)) || listen(s, 8))
		return ktap_perror("rpcbind socket");
	fflush(stdout);
	rpcbind = fork();
	if (rpcbind < 0)
		return ktap_perror("fork");
	if (!rpcbind) {
		/* not on the KTAP pipe, and gone with the test */
		int nul = open("/dev/null", O_RDWR);

		dup2(nul, 1);
		dup2(nul, 2);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (;;) {
			int c = accept(s, NULL, NULL);

			if (c < 0)
				_exit(1);
			rpcbind_serve(c);
			close(c);
		}
	}
	close(s);
	return 0;
}

/*
 * nfsd started: a UDP listener on 2049 through portlist (anonymous: not
 * registered), then one thread; nfsd and lockd register their other
 * programs with the stand-in. max_block_size cannot change now (EBUSY);
 * pool_stats has a line for the one pool.
 */
static int nfsd_start(void)
{
	char buf[512];
	int ok;

	if (rpcbind_start())
		return 0;
	ok = xact_err("portlist", "bogus\n", EINVAL) &&
	     xact_err("portlist", "udp 0\n", EINVAL) &&
	     xact_is("portlist", "udp 2049\n", "") &&
	     xact_is("portlist", NULL, "udp 2049\n") &&
	     xact_is("threads", "1\n", "1\n") &&
	     xact_is("threads", NULL, "1\n") &&
	     xact_is("pool_threads", NULL, "1\n") &&
	     xact_err("max_block_size", "8192\n", EBUSY) &&
	     xact_err("versions", "+3\n", EBUSY);
	if (!ok)
		return 0;
	if (slurp(NFSD_FS "/pool_stats", buf, sizeof(buf)) < 0 ||
	    strncmp(buf, "# pool packets-arrived", 22) || !strstr(buf, "\n0 ")) {
		ktap_diag("pool_stats: \"%s\"", buf);
		return 0;
	}
	return 1;
}

/* An NFSv3 GETATTR call with AUTH_UNIX root credentials. */
static size_t getattr_call(uint32_t *w, uint32_t xid)
{
	size_t i = 0, fhw = (fh_len + 3) / 4;

	w[i++] = htonl(xid);
	w[i++] = htonl(0);		/* CALL */
	w[i++] = htonl(2);		/* RPC version */
	w[i++] = htonl(100003);		/* NFS */
	w[i++] = htonl(3);
	w[i++] = htonl(1);		/* GETATTR */
	w[i++] = htonl(1);		/* AUTH_UNIX */
	w[i++] = htonl(20);		/* stamp, name "bkl", uid, gid, 0 gids */
	w[i++] = htonl(0);
	w[i++] = htonl(3);
	memcpy(&w[i++], "bkl", 4);
	w[i++] = htonl(0);
	w[i++] = htonl(0);
	w[i++] = htonl(0);
	w[i++] = htonl(0);		/* verifier AUTH_NONE */
	w[i++] = htonl(0);
	w[i++] = htonl(fh_len);
	memset(&w[i], 0, fhw * 4);
	memcpy(&w[i], fh, fh_len);
	return (i + fhw) * 4;
}

/*
 * Answers one upcall read from a channel: "nfsd 127.0.0.1" gets the
 * bklfree domain, a uid gets no supplementary groups.
 */
static int answer_upcall(int fd, const char *cache, unsigned int *asked)
{
	char req[128], line[160];
	int n = -1;
	ssize_t len;

	/* the VFS's FIONREAD of a regular file, not the request's length */
	if (ioctl(fd, FIONREAD, &n) || n != 0) {
		ktap_diag("%s: FIONREAD %d", cache, n);
		return 0;
	}
	len = read(fd, req, sizeof(req) - 1);
	if (len < 2 || req[len - 1] != '\n') {
		ktap_diag("%s: read %zd", cache, len);
		return 0;
	}
	req[len - 1] = '\0';
	ktap_diag("%s upcall: %s", cache, req);
	if (!strcmp(cache, "auth.unix.ip") && !strcmp(req, "nfsd 127.0.0.1")) {
		snprintf(line, sizeof(line), "%s %lld " DOMAIN "\n", req, expiry());
		*asked |= 1;
	} else if (!strcmp(cache, "auth.unix.gid") && !strcmp(req, "0")) {
		snprintf(line, sizeof(line), "0 %lld 0\n", expiry());
		*asked |= 2;
	} else {
		return 0;
	}
	return write(fd, line, strlen(line)) == (ssize_t)strlen(line);
}

/*
 * The GETATTR: nfsd asks auth.unix.ip who 127.0.0.1 is (the channel turns
 * readable and reads one request line), then auth.unix.gid root's
 * groups; both answered, the call goes on (the nfsd thread waits for an
 * answer up to 5 s, then defers the request and replays it when the
 * answer comes) and the reply is NFS3_OK with a directory's attributes.
 * Bounded at 20 s.
 */
static int getattr(void)
{
	struct sockaddr_in to = { .sin_family = AF_INET,
				  .sin_port = htons(2049),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	uint32_t call[64], reply[64];
	struct pollfd p[3];
	char path[96];
	unsigned int asked = 0;
	long long deadline = ktap_now_ms() + 20000;
	ssize_t n = -1;
	size_t len = getattr_call(call, 0xb4100001);
	int ok = 0, i;

	cache_path(path, sizeof(path), "auth.unix.ip", "channel");
	p[0].fd = open(path, O_RDWR | O_CLOEXEC);
	cache_path(path, sizeof(path), "auth.unix.gid", "channel");
	p[1].fd = open(path, O_RDWR | O_CLOEXEC);
	p[2].fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	for (i = 0; i < 3; i++)
		p[i].events = POLLIN;
	if (p[0].fd < 0 || p[1].fd < 0 || p[2].fd < 0 ||
	    sendto(p[2].fd, call, len, 0, (struct sockaddr *)&to, sizeof(to)) < 0) {
		ktap_perror("GETATTR set-up");
		goto out;
	}
	while (ktap_now_ms() < deadline) {
		if (poll(p, 3, deadline - ktap_now_ms()) <= 0)
			break;
		for (i = 0; i < 2; i++)
			if ((p[i].revents & POLLIN) &&
			    !answer_upcall(p[i].fd, i ? "auth.unix.gid" : "auth.unix.ip",
					   &asked))
				goto out;
		if (p[2].revents & POLLIN) {
			n = recv(p[2].fd, reply, sizeof(reply), 0);
			break;
		}
	}
	/* xid, REPLY, accepted, AUTH_NONE verifier, SUCCESS, NFS3_OK, NF3DIR */
	ok = n >= 32 && reply[0] == call[0] && reply[1] == htonl(1) &&
	     reply[2] == 0 && reply[3] == 0 && reply[4] == 0 && reply[5] == 0 &&
	     reply[6] == 0 && reply[7] == htonl(2) && asked == 3;
	if (!ok)
		ktap_diag("GETATTR: reply %zd bytes, status %u, type %u, upcalls %#x",
			  n, n >= 32 ? ntohl(reply[6]) : ~0u,
			  n >= 32 ? ntohl(reply[7]) : ~0u, asked);
out:
	for (i = 0; i < 3; i++)
		if (p[i].fd >= 0)
			close(p[i].fd);
	return ok;
}

/* The answers are cached: content shows 127.0.0.1 in bklfree. */
static int upcall_content(void)
{
	char path[96], buf[512];

	cache_path(path, sizeof(path), "auth.unix.ip", "content");
	if (slurp(path, buf, sizeof(buf)) < 0 ||
	    !strstr(buf, "\nnfsd 127.0.0.1 " DOMAIN "\n")) {
		ktap_diag("auth.unix.ip content: \"%s\"", buf);
		return 0;
	}
	cache_path(path, sizeof(path), "auth.unix.gid", "content");
	if (slurp(path, buf, sizeof(buf)) < 0 || !strstr(buf, "\n0 0:\n")) {
		ktap_diag("auth.unix.gid content: \"%s\"", buf);
		return 0;
	}
	return 1;
}

/* threads 0 stops nfsd: the service and its listeners go. */
static int nfsd_stop(void)
{
	return xact_is("threads", "0\n", "0\n") &&
	       xact_is("threads", NULL, "0\n") &&
	       xact_is("portlist", NULL, "");
}

static int teardown(void)
{
	int ok = 1;

	if (rpcbind > 0) {
		kill(rpcbind, SIGKILL);
		waitpid(rpcbind, NULL, 0);
		rpcbind = -1;
	}
	if (pipefs_mounted && (umount(PIPEFS) || rmdir(PIPEFS)))
		ok = FAIL("umount " PIPEFS ": %s", strerror(errno));
	pipefs_mounted = 0;
	if (nfsd_mounted && umount(NFSD_FS))
		ok = FAIL("umount " NFSD_FS ": %s", strerror(errno));
	nfsd_mounted = 0;
	/*
	 * The nfsd.export and nfsd.fh entries hold the export's path until
	 * the cache cleaner drops them: detach it, it goes with them.
	 */
	if (export_mounted && (umount2(EXPORT, MNT_DETACH) || rmdir(EXPORT)))
		ok = FAIL("umount " EXPORT ": %s", strerror(errno));
	export_mounted = 0;
	return ok;
}

static const struct ktap_case cases[] = {
	{ "lo up, tmpfs to export, nfsd filesystem on /proc/fs/nfsd", setup },
	{ "nfsd versions: +3 only, +5 EINVAL, -5 ignored, all off resets", versions },
	{ "nfsd threads and pool_threads 0, bad counts EINVAL, pool_stats ENODEV", threads_idle },
	{ "nfsd max_block_size clamped and rounded, max_connections", limits },
	{ "nfsd exports, export_features, reply_cache_stats, filecache", seq_files },
	{ "nfsd unlock_ip and unlock_filesystem, bad input refused", unlocks },
	{ "nfsd filehandle: short size EINVAL, no path EPERM, unexported ENOENT", filehandle_errors },
	{ "nfsd transaction file and exports: lseek and read again", nfsctl_lseek },
	{ "rpc caches: auth.unix.ip, auth.unix.gid, nfsd.export, nfsd.fh", cache_dirs },
	{ "rpc cache flush: time read back, EINVAL, lseek ESPIPE, pread", flushes },
	{ "rpc cache content: headers, seq lseek", contents },
	{ "rpc cache channel idle: POLLOUT only, FIONREAD 0, read 0, lseek ESPIPE", channels_idle },
	{ "auth.unix.ip downcalls: a mapping and a negative entry, bad lines EINVAL", ip_downcalls },
	{ "auth.unix.ip flush expires both entries", ip_flush },
	{ "nfsd.export and nfsd.fh downcalls export the tmpfs with fsid 1", export_downcalls },
	{ "nfsd filehandle of the export: FSID_NUM root handle, exports lists it", filehandle },
	{ "rpc_pipefs mounted: its directories and the dummy gssd client", pipefs_mount },
	{ "rpc_pipefs gssd/clntXX/info: dummy client info, seq lseek", pipefs_info },
	{ "rpc_pipefs gssd pipe: POLLOUT only, FIONREAD 0, write EINVAL, lseek ESPIPE", pipefs_pipe },
	{ "nfsd started: portlist udp 2049, one thread, rpcbind stand-in", nfsd_start },
	{ "NFSv3 GETATTR over UDP: channel upcalls answered, NFS3_OK directory", getattr },
	{ "auth.unix.ip and auth.unix.gid content hold the answers", upcall_content },
	{ "nfsd stopped: threads 0, no listeners", nfsd_stop },
	{ "rpc_pipefs, nfsd filesystem and export unmounted", teardown },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(cases),
	/* CONFIG_NFSD selects SUNRPC, LOCKD and EXPORTFS */
	.kconfig = (const char *const[]){ "CONFIG_NFSD", "CONFIG_TMPFS", NULL },
	.timeout = 90,
	.upstream = "patches/core 0060 (net/sunrpc: drop no_llseek initialisers)",
	.cases = cases,
};
