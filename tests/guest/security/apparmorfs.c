// SPDX-License-Identifier: GPL-2.0
/*
 * apparmorfs - securityfs (security/inode.c) and AppArmor's files in it
 * (security/apparmor/apparmorfs.c), both seed paths of the llseek patch,
 * on a boot whose command line makes AppArmor the active LSM (lsm=apparmor;
 * the lab kernels default to DAC only).
 *
 *   - securityfs mounts on /sys/kernel/security (securityfs_get_tree); its
 *     "lsm" file (lsm_read, generic_file_llseek) names the active LSMs and
 *     seeks within them; SEEK_END is the inode's size, 0;
 *   - apparmor/'s entries, the namespace files .ns_name, .ns_level,
 *     .stacked, .ns_stacked (single_open), "profiles" empty before a load;
 *   - the features/ tree: every file reads one line (aa_sfs_seq_show),
 *     four of known value; a seq_file seek within one, SEEK_END EINVAL;
 *   - Debian's apparmor_parser (the profile's tool= line, from the host's
 *     /usr) compiles a small profile for the kernel's own features, once in
 *     enforce and once in complain mode, into the binary policy format;
 *   - the policy writes: .load from a position other than 0 is ESPIPE
 *     (aa_simple_write_to_buffer), garbage is EPROTONOSUPPORT (no
 *     header for verify_header), the
 *     profile loads, a second .load is EEXIST, .replace swaps in the
 *     complain one, .remove removes it and a second .remove is ENOENT; the
 *     revision file (ns_revision_read, _poll) turns readable after a load;
 *     "profiles" and the profile's policy/profiles/NAME.N/ directory
 *     (name, mode, attach) follow each step;
 *   - .access, the query file (multi_transaction_read, generic_file_llseek):
 *     nothing to read before a query, a file query's answer read on the
 *     same fd, read again after SEEK_SET, a second query on that fd ESPIPE
 *     until the fd is seeked back to 0, bad queries EINVAL and ENOENT;
 *   - policy/namespaces/: mkdir makes a namespace with its own files,
 *     rmdir removes it;
 *   - apparmor_parser -a and -R load and remove the profile through the
 *     same files, as a system would.
 *
 * Every value and errno is what the 6.1 source gives. The series does not
 * change these files (the seed patch's .llseek lines are already there in
 * 6.1), so both kernels give the same results. Cases run in order and later
 * ones use what earlier ones made.
 */
#include <dirent.h>
#include <sys/stat.h>

#include "run.h"
#include "security/lsmfs.h"

#define SECFS "/sys/kernel/security"
#define AA SECFS "/apparmor"
#define PARSER "/usr/sbin/apparmor_parser"
#define PROFILE_NAME "bklfree_test"
#define SRC "/tmp/bklfree_test.aa"
#define BIN_ENFORCE "/tmp/bklfree_test.enforce"
#define BIN_COMPLAIN "/tmp/bklfree_test.complain"
#define NS_DIR AA "/policy/namespaces/bklfree"
#define SECURITYFS_MAGIC 0x73636673
#define AA_CLASS_FILE 2
#define TOOL_SECS 60

/* A profile of one file rule; no abi or include, so no /etc is needed. */
static const char profile_src[] =
	"profile " PROFILE_NAME " {\n"
	"  /tmp/** rw,\n"
	"}\n";

static char enforce_bin[65536], complain_bin[65536];
static ssize_t enforce_len = -1, complain_len = -1;
static long revision_before = -1;
static int revision_fd = -1;

static int fail(const char *what)
{
	ktap_perror(what);
	return 0;
}

/* path holds exactly want. */
static int file_is(const char *path, const char *want)
{
	char buf[512];

	if (slurp(path, buf, sizeof(buf)) < 0)
		return 0;
	if (strcmp(buf, want)) {
		ktap_diag("%s: \"%s\", want \"%s\"", path, buf, want);
		return 0;
	}
	return 1;
}

/*
 * write(2) of len bytes to path opened for writing, after seeking to pos:
 * the result, errno kept.
 */
static ssize_t write_at(const char *path, off_t pos, const void *buf,
			size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), err;
	ssize_t n;

	if (fd < 0)
		return -1;
	if (pos && lseek(fd, pos, SEEK_SET) != pos) {
		err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	n = write(fd, buf, len);
	err = errno;
	close(fd);
	errno = err;
	return n;
}

/* A write expected to fail with errno want. */
static int write_fails(const char *path, off_t pos, const void *buf,
		       size_t len, int want)
{
	ssize_t n = write_at(path, pos, buf, len);

	if (n >= 0 || errno != want) {
		ktap_diag("%s at %lld: %zd (%s), want %s", path, (long long)pos,
			  n, n < 0 ? strerror(errno) : "no error",
			  strerror(want));
		return 0;
	}
	return 1;
}

static int write_whole(const char *path, const void *buf, size_t len)
{
	ssize_t n = write_at(path, 0, buf, len);

	if (n != (ssize_t)len) {
		ktap_diag("%s: wrote %zd of %zu: %s", path, n, len,
			  n < 0 ? strerror(errno) : "short");
		return 0;
	}
	return 1;
}

static int t_mount(void)
{
	return lsmfs_mount("securityfs", SECFS, SECURITYFS_MAGIC);
}

static int t_lsm(void)
{
	return file_is(SECFS "/lsm", "capability,apparmor");
}

/* lsm_read's file keeps generic_file_llseek: a seek moves the read. */
static int t_lsm_lseek(void)
{
	char buf[64];
	int fd = open(SECFS "/lsm", O_RDONLY | O_CLOEXEC), ok = 1;
	ssize_t n;
	off_t end;

	if (fd < 0)
		return fail(SECFS "/lsm");
	if (lseek(fd, 11, SEEK_SET) != 11) {
		close(fd);
		return fail("lseek lsm 11");
	}
	n = read(fd, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	if (strcmp(buf, "apparmor")) {
		ktap_diag("read at 11: \"%s\"", buf);
		ok = 0;
	}
	/* securityfs files have no size: SEEK_END is 0 */
	end = lseek(fd, 0, SEEK_END);
	if (end != 0) {
		ktap_diag("SEEK_END %lld", (long long)end);
		ok = 0;
	}
	close(fd);
	return ok;
}

static int t_entries(void)
{
	static const char *const want[] = {
		".access", ".load", ".replace", ".remove", ".ns_level",
		".ns_name", ".stacked", ".ns_stacked", ".null", "profiles",
		"features", "revision", "policy",
	};
	struct stat st;
	char path[128];
	size_t i;
	int ok = 1;

	for (i = 0; i < ARRAY_SIZE(want); i++) {
		snprintf(path, sizeof(path), AA "/%s", want[i]);
		if (lstat(path, &st)) {
			ktap_perror(path);
			ok = 0;
		}
	}
	if (ok && lstat(AA "/policy", &st) == 0 && !S_ISLNK(st.st_mode)) {
		ktap_diag("policy is not a symbolic link");
		ok = 0;
	}
	return ok;
}

/* policy_readlink: "apparmorfs:[INO]"; following it reaches .load etc. */
static int t_policy_link(void)
{
	char buf[64];
	ssize_t n = readlink(AA "/policy", buf, sizeof(buf) - 1);
	struct stat st;

	if (n < 0)
		return fail("readlink policy");
	buf[n] = '\0';
	if (strncmp(buf, "apparmorfs:[", 12) || buf[n - 1] != ']') {
		ktap_diag("readlink policy: \"%s\"", buf);
		return 0;
	}
	if (stat(AA "/policy/.load", &st) || stat(AA "/policy/profiles", &st))
		return fail("stat through policy");
	return 1;
}

static int t_ns_files(void)
{
	return file_is(AA "/.ns_name", "root\n") &
	       file_is(AA "/.ns_level", "0\n") &
	       file_is(AA "/.stacked", "no\n") &
	       file_is(AA "/.ns_stacked", "no\n");
}

static int t_profiles_empty(void)
{
	return file_is(AA "/profiles", "");
}

/* Walks dir: every file one line ending in a newline. Counts them. */
static int walk_features(const char *dir, unsigned int *files)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	char path[512], buf[512];
	int ok = 1;

	if (!d)
		return fail(dir);
	while ((de = readdir(d))) {
		struct stat st;
		ssize_t n;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (stat(path, &st)) {
			ok = fail(path);
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			ok &= walk_features(path, files);
			continue;
		}
		n = slurp(path, buf, sizeof(buf));
		if (n <= 0 || buf[n - 1] != '\n' || strchr(buf, '\n') != buf + n - 1) {
			ktap_diag("%s: %zd bytes \"%s\"", path, n, n > 0 ? buf : "");
			ok = 0;
		}
		(*files)++;
	}
	closedir(d);
	return ok;
}

static int t_features(void)
{
	unsigned int files = 0;
	int ok = walk_features(AA "/features", &files);

	ktap_diag("features/: %u files", files);
	ok &= file_is(AA "/features/domain/version", "1.2\n");
	ok &= file_is(AA "/features/policy/versions/v8", "yes\n");
	ok &= file_is(AA "/features/file/mask",
		      "create read write exec append mmap_exec link lock\n");
	ok &= file_is(AA "/features/query/label/perms",
		      "allow deny audit quiet\n");
	/*
	 * aa_sfs_entry_features: policy 7 (versions v5-v9, set_load,
	 * outofband), domain 10, file 1, network_v8 2, mount 1, namespaces 2,
	 * capability 1, rlimit 1, caps 1, ptrace 1, signal 1, query 3
	 */
	return ok && files == 31;
}

/* A single_open file keeps seq_lseek: SEEK_SET, SEEK_CUR; SEEK_END EINVAL. */
static int t_features_lseek(void)
{
	int fd = open(AA "/features/file/mask", O_RDONLY | O_CLOEXEC), ok = 1;
	char buf[128];
	ssize_t n;
	off_t r;

	if (fd < 0)
		return fail("features/file/mask");
	if (lseek(fd, 7, SEEK_SET) != 7)
		ok = fail("SEEK_SET 7");
	n = read(fd, buf, 5);
	buf[n > 0 ? n : 0] = '\0';
	if (strcmp(buf, "read ")) {
		ktap_diag("5 bytes at 7: \"%s\"", buf);
		ok = 0;
	}
	r = lseek(fd, 0, SEEK_CUR);
	if (r != 12) {
		ktap_diag("SEEK_CUR 0: %lld, want 12", (long long)r);
		ok = 0;
	}
	if (!ktap_seek_fails(fd, 0, SEEK_END, EINVAL))
		ok = 0;
	close(fd);
	return ok;
}

static ssize_t compile(const char *out, int complain, char *bin, size_t size)
{
	char *argv[] = { PARSER, "-Q", "-K", "-o", (char *)out, SRC, NULL,
			 NULL };

	if (complain) {
		argv[5] = "-C";
		argv[6] = SRC;
	}
	unlink(out);
	if (run_diag(argv, TOOL_SECS))
		return -1;
	return slurp(out, bin, size);
}

static int t_compile(void)
{
	int fd = open(SRC, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0 || write(fd, profile_src, strlen(profile_src)) !=
		      (ssize_t)strlen(profile_src))
		return fail(SRC);
	close(fd);
	enforce_len = compile(BIN_ENFORCE, 0, enforce_bin, sizeof(enforce_bin));
	complain_len = compile(BIN_COMPLAIN, 1, complain_bin,
			       sizeof(complain_bin));
	ktap_diag("policy: %zd bytes enforce, %zd complain", enforce_len,
		  complain_len);
	/* the binary format starts with the "version" element */
	return enforce_len > 64 && complain_len > 64 &&
	       !memcmp(enforce_bin, "\x04\x08\x00version", 10) &&
	       memcmp(enforce_bin, complain_bin, enforce_len) != 0;
}

/*
 * ns_revision_read gives the namespace's revision once per change (none
 * at all while it is still 0, as nothing was loaded yet), then EAGAIN on
 * an O_NONBLOCK fd; poll is not readable.
 */
static int t_revision_idle(void)
{
	struct pollfd p = { .events = POLLIN };
	char buf[32];
	unsigned int i;
	ssize_t n = 0;

	revision_fd = open(AA "/revision", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (revision_fd < 0)
		return fail(AA "/revision");
	revision_before = 0;
	for (i = 0; i < 3; i++) {
		n = read(revision_fd, buf, sizeof(buf) - 1);
		if (n <= 0)
			break;
		buf[n] = '\0';
		revision_before = strtol(buf, NULL, 10);
	}
	if (n != -1 || errno != EAGAIN) {
		ktap_diag("read %u: %zd (%s), want EAGAIN", i, n,
			  n < 0 ? strerror(errno) : "data");
		return 0;
	}
	p.fd = revision_fd;
	if (poll(&p, 1, 0) != 0) {
		ktap_diag("poll revision: revents %#x before a load", p.revents);
		return 0;
	}
	ktap_diag("revision %ld", revision_before);
	return i <= 1;
}

/* aa_simple_write_to_buffer takes only whole writes from position 0. */
static int t_load_pos(void)
{
	return enforce_len > 0 &&
	       write_fails(AA "/.load", 1, enforce_bin, enforce_len, ESPIPE);
}

static int t_load_garbage(void)
{
	static const char junk[] = "this is not a policy";

	/* verify_header: no "version" element */
	return write_fails(AA "/.load", 0, junk, sizeof(junk) - 1,
			   EPROTONOSUPPORT);
}

static int t_load(void)
{
	return enforce_len > 0 &&
	       write_whole(AA "/.load", enforce_bin, enforce_len);
}

/* The load bumped the revision: poll readable, a larger number. */
static int t_revision_bumped(void)
{
	struct pollfd p = { .fd = revision_fd, .events = POLLIN };
	char buf[32];
	ssize_t n;
	long now;

	if (revision_fd < 0)
		return 0;
	if (poll(&p, 1, 1000) != 1 || !(p.revents & POLLIN)) {
		ktap_diag("poll revision: revents %#x after a load", p.revents);
		return 0;
	}
	n = read(revision_fd, buf, sizeof(buf) - 1);
	if (n <= 0)
		return fail("read revision");
	buf[n] = '\0';
	now = strtol(buf, NULL, 10);
	ktap_diag("revision %ld -> %ld", revision_before, now);
	close(revision_fd);
	revision_fd = -1;
	return now > revision_before;
}

static int t_profiles_enforce(void)
{
	return file_is(AA "/profiles", PROFILE_NAME " (enforce)\n");
}

static int t_load_again(void)
{
	return enforce_len > 0 &&
	       write_fails(AA "/.load", 0, enforce_bin, enforce_len, EEXIST);
}

/* policy/profiles/NAME.N, N the namespace's counter: its path, or "". */
static int profile_dir(char *out, size_t size)
{
	struct dirent *de;
	DIR *d = opendir(AA "/policy/profiles");
	int found = 0;

	out[0] = '\0';
	if (!d)
		return fail(AA "/policy/profiles");
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, PROFILE_NAME ".",
			     strlen(PROFILE_NAME) + 1)) {
			snprintf(out, size, AA "/policy/profiles/%.64s",
				 de->d_name);
			found++;
		}
	closedir(d);
	return found;
}

static int profile_files(const char *mode)
{
	char dir[320], path[360];
	int ok;

	if (profile_dir(dir, sizeof(dir)) != 1) {
		ktap_diag("policy/profiles/" PROFILE_NAME ".N: not one");
		return 0;
	}
	ktap_diag("%s", dir);
	snprintf(path, sizeof(path), "%s/name", dir);
	ok = file_is(path, PROFILE_NAME "\n");
	snprintf(path, sizeof(path), "%s/mode", dir);
	ok &= file_is(path, mode);
	/* no attachment: attach shows the name */
	snprintf(path, sizeof(path), "%s/attach", dir);
	ok &= file_is(path, PROFILE_NAME "\n");
	return ok;
}

static int t_profile_dir(void)
{
	return profile_files("enforce\n");
}

/* A query: "label\0NAME\0" then the class byte and the path. */
static size_t file_query(char *q, size_t size, const char *label,
			 const char *path)
{
	int n = snprintf(q, size, "label%c%s%c%c%s", 0, label, 0,
			 AA_CLASS_FILE, path);

	return n > 0 ? (size_t)n : 0;
}

/* One query on fd; its answer's allow mask, or -1. */
static long long ask(int fd, const char *label, const char *path)
{
	char q[256], a[256], *allow;
	size_t len = file_query(q, sizeof(q), label, path);
	ssize_t n;

	if (write(fd, q, len) != (ssize_t)len) {
		ktap_perror("write .access");
		return -1;
	}
	n = read(fd, a, sizeof(a) - 1);
	if (n <= 0) {
		ktap_perror("read .access");
		return -1;
	}
	a[n] = '\0';
	allow = strstr(a, "allow 0x");
	if (allow != a || !strstr(a, "\ndeny 0x") || !strstr(a, "\nquiet 0x")) {
		ktap_diag(".access answered \"%s\"", a);
		return -1;
	}
	return strtoll(allow + 6, NULL, 16);
}

/* multi_transaction_read: nothing before a query. */
static int t_access_empty(void)
{
	int fd = open(AA "/.access", O_RDWR | O_CLOEXEC);
	char buf[16];
	ssize_t n;

	if (fd < 0)
		return fail(AA "/.access");
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n != 0) {
		ktap_diag("read before a query: %zd", n);
		return 0;
	}
	return 1;
}

/* The profile allows read and write (MAY_READ 4, MAY_WRITE 2) of /tmp/x,
 * not exec (1), and nothing on /etc/x; unconfined allows everything.
 */
static int t_access_query(void)
{
	long long tmp, etc, unconf;
	int fd;

	fd = open(AA "/.access", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return fail(AA "/.access");
	tmp = ask(fd, PROFILE_NAME, "/tmp/x");
	close(fd);
	fd = open(AA "/.access", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return fail(AA "/.access");
	etc = ask(fd, PROFILE_NAME, "/etc/x");
	close(fd);
	fd = open(AA "/.access", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return fail(AA "/.access");
	unconf = ask(fd, "unconfined", "/etc/x");
	close(fd);
	ktap_diag("allow: /tmp/x %#llx, /etc/x %#llx, unconfined %#llx", tmp,
		  etc, unconf);
	return tmp >= 0 && (tmp & 6) == 6 && !(tmp & 1) && etc == 0 &&
	       unconf == 0xffffffffLL;
}

/*
 * The answer stays on the fd: SEEK_SET 0 reads it again, SEEK_SET 6 reads
 * from its seventh byte. aa_write_access wants position 0: a second query
 * after a read is ESPIPE, and goes through once the fd is back at 0.
 */
static int t_access_lseek(void)
{
	char first[256], again[256], q[256];
	int fd = open(AA "/.access", O_RDWR | O_CLOEXEC), ok = 1;
	ssize_t n1, n2;
	size_t len;

	if (fd < 0)
		return fail(AA "/.access");
	if (ask(fd, PROFILE_NAME, "/tmp/x") < 0) {
		close(fd);
		return 0;
	}
	if (lseek(fd, 0, SEEK_SET) != 0)
		ok = fail("SEEK_SET 0");
	n1 = read(fd, first, sizeof(first) - 1);
	if (lseek(fd, 6, SEEK_SET) != 6)
		ok = fail("SEEK_SET 6");
	n2 = read(fd, again, sizeof(again) - 1);
	if (n1 <= 6 || n2 != n1 - 6 || memcmp(first + 6, again, n2)) {
		ktap_diag("reads after seeks: %zd, %zd bytes", n1, n2);
		ok = 0;
	}
	len = file_query(q, sizeof(q), PROFILE_NAME, "/etc/x");
	errno = 0;
	if (write(fd, q, len) != -1 || errno != ESPIPE) {
		ktap_diag("query at %lld: %s, want ESPIPE",
			  (long long)lseek(fd, 0, SEEK_CUR), strerror(errno));
		ok = 0;
	}
	if (lseek(fd, 0, SEEK_SET) != 0 || write(fd, q, len) != (ssize_t)len)
		ok = fail("query after SEEK_SET 0");
	if (lseek(fd, 0, SEEK_SET) != 0)
		ok = fail("SEEK_SET 0");
	n1 = read(fd, first, sizeof(first) - 1);
	first[n1 > 0 ? n1 : 0] = '\0';
	if (strncmp(first, "allow 0x00000000\n", 17)) {
		ktap_diag("second answer \"%s\"", first);
		ok = 0;
	}
	close(fd);
	return ok;
}

static int t_access_errors(void)
{
	static const char bogus[] = "bogus\0query";
	char q[256];
	size_t len = file_query(q, sizeof(q), "no_such_profile", "/tmp/x");
	int fd = open(AA "/.access", O_RDWR | O_CLOEXEC), ok = 1;

	if (fd < 0)
		return fail(AA "/.access");
	errno = 0;
	if (write(fd, bogus, sizeof(bogus)) != -1 || errno != EINVAL) {
		ktap_diag("unknown command: %s, want EINVAL", strerror(errno));
		ok = 0;
	}
	errno = 0;
	if (write(fd, q, len) != -1 || errno != ENOENT) {
		ktap_diag("unknown label: %s, want ENOENT", strerror(errno));
		ok = 0;
	}
	close(fd);
	return ok;
}

static int t_replace(void)
{
	return complain_len > 0 &&
	       write_whole(AA "/.replace", complain_bin, complain_len) &&
	       file_is(AA "/profiles", PROFILE_NAME " (complain)\n") &&
	       profile_files("complain\n");
}

static int t_remove_pos(void)
{
	return write_fails(AA "/.remove", 1, PROFILE_NAME,
			   strlen(PROFILE_NAME), ESPIPE);
}

static int t_remove(void)
{
	char dir[320];

	if (!write_whole(AA "/.remove", PROFILE_NAME, strlen(PROFILE_NAME)))
		return 0;
	return file_is(AA "/profiles", "") && profile_dir(dir, sizeof(dir)) == 0;
}

static int t_remove_again(void)
{
	return write_fails(AA "/.remove", 0, PROFILE_NAME,
			   strlen(PROFILE_NAME), ENOENT);
}

/* ns_mkdir_op makes a namespace with the files of __aafs_ns_mkdir_entries. */
static int t_namespace(void)
{
	static const char *const want[] = {
		"profiles", "raw_data", "revision", ".load", ".replace",
		".remove", "namespaces",
	};
	char path[256];
	struct stat st;
	size_t i;
	int ok = 1;

	if (mkdir(NS_DIR, 0755))
		return fail("mkdir " NS_DIR);
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		snprintf(path, sizeof(path), NS_DIR "/%s", want[i]);
		if (stat(path, &st))
			ok = fail(path);
	}
	if (rmdir(NS_DIR))
		return fail("rmdir " NS_DIR);
	if (!stat(NS_DIR, &st)) {
		ktap_diag(NS_DIR " still there");
		ok = 0;
	}
	return ok;
}

static int t_parser_load_remove(void)
{
	char *add[] = { PARSER, "-a", "-K", SRC, NULL };
	char *rm[] = { PARSER, "-R", "-K", SRC, NULL };

	if (run_diag(add, TOOL_SECS) ||
	    !file_is(AA "/profiles", PROFILE_NAME " (enforce)\n"))
		return 0;
	return !run_diag(rm, TOOL_SECS) && file_is(AA "/profiles", "");
}

static int t_umount(void)
{
	if (umount(SECFS))
		return fail("umount " SECFS);
	return 1;
}

static const struct ktap_case cases[] = {
	{ "securityfs mounts on " SECFS, t_mount },
	{ "lsm names capability,apparmor", t_lsm },
	{ "lsm: SEEK_SET 11 reads apparmor, SEEK_END is 0", t_lsm_lseek },
	{ "apparmor/ holds its files and the policy link", t_entries },
	{ "policy links to apparmorfs:[INO] with the namespace's files", t_policy_link },
	{ ".ns_name .ns_level .stacked .ns_stacked of the root namespace", t_ns_files },
	{ "profiles is empty before a load", t_profiles_empty },
	{ "features/ files read one line each, four of known value", t_features },
	{ "features file: SEEK_SET and SEEK_CUR, SEEK_END EINVAL", t_features_lseek },
	{ "apparmor_parser compiles enforce and complain policy", t_compile },
	{ "revision: at most one read, then EAGAIN, poll not readable", t_revision_idle },
	{ ".load at position 1 is ESPIPE", t_load_pos },
	{ ".load of garbage is EPROTONOSUPPORT", t_load_garbage },
	{ ".load of the profile takes it whole", t_load },
	{ "revision turns readable with a larger number", t_revision_bumped },
	{ "profiles lists the profile in enforce mode", t_profiles_enforce },
	{ ".load of the same profile again is EEXIST", t_load_again },
	{ "policy/profiles/NAME.N name, mode enforce, attach", t_profile_dir },
	{ ".access reads nothing before a query", t_access_empty },
	{ ".access answers file queries for the profile and unconfined", t_access_query },
	{ ".access: answer reread after SEEK_SET, a query needs position 0", t_access_lseek },
	{ ".access: unknown command EINVAL, unknown label ENOENT", t_access_errors },
	{ ".replace swaps in the complain profile", t_replace },
	{ ".remove at position 1 is ESPIPE", t_remove_pos },
	{ ".remove removes the profile and its directory", t_remove },
	{ ".remove of a removed profile is ENOENT", t_remove_again },
	{ "policy/namespaces: mkdir makes a namespace, rmdir removes it", t_namespace },
	{ "apparmor_parser -a loads and -R removes the profile", t_parser_load_remove },
	{ "securityfs unmounts", t_umount },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(cases),
	.kconfig = (const char *const[]){ "CONFIG_SECURITYFS",
					  "CONFIG_SECURITY_APPARMOR", NULL },
	.timeout = 240,
	.cases = cases,
};
