// SPDX-License-Identifier: GPL-2.0
/*
 * smackfs - Smack's policy filesystem (security/smack/smackfs.c, a seed
 * path of the llseek patch) on a boot whose command line makes Smack the
 * active LSM (lsm=smack; the lab kernels default to DAC only). The test
 * runs as root with the floor label "_" and CAP_MAC_ADMIN, so every file
 * takes its writes; each value it changes is put back.
 *
 *   - smackfs mounts on /sys/fs/smackfs (smk_get_tree, simple_fill_super);
 *     /proc/self/attr/current is "_";
 *   - rules: load2 and load-self2 (the long format), load and load-self
 *     (the fixed 24-byte label format), change-rule and revoke-subject,
 *     each read back through its seq_file (smk_rule_show); a malformed rule
 *     and a write after a read (position not 0) are EINVAL;
 *   - access2 and access, the query files (simple_transaction_read,
 *     generic_file_llseek): write a rule, read "1" or "0" on the same fd,
 *     read again after SEEK_SET, a second query on the fd is EBUSY;
 *   - cipso2 and cipso: a label's level and categories, read back;
 *   - the single values: doi, direct, mapped, ambient, logging, ptrace,
 *     syslog, with their range errors; onlycap and relabel-self lists;
 *   - netlabel: a host label for a loopback subnet, a bad mask EINVAL;
 *   - lseek: seq_file files seek within their text and refuse SEEK_END
 *     (EINVAL); the default_llseek files (doi ...) give 0 for a read past
 *     position 0 and SEEK_END 0 (simple_fill_super's inodes have no size).
 *
 * Every value and errno is what the 6.1 source gives. The series does not
 * change smackfs (its .llseek lines are already there in 6.1), so both
 * kernels give the same results. Cases run in order.
 */
#include <sys/stat.h>

#include "security/lsmfs.h"

#define SMACKFS "/sys/fs/smackfs"
#define SMACK_MAGIC 0x43415d53
#define LABELLEN 24		/* SMK_LABELLEN */
#define LOADLEN (2 * LABELLEN + 6)	/* SMK_LOADLEN */

static int fail(const char *what)
{
	ktap_perror(what);
	return 0;
}

/* The whole of a small smackfs file into buf, NUL-terminated. */
static ssize_t smack_read(const char *name, char *buf, size_t size)
{
	char path[128];

	snprintf(path, sizeof(path), SMACKFS "/%s", name);
	return slurp(path, buf, size);
}

/* name holds exactly len bytes of want (want may hold a NUL). */
static int file_is_n(const char *name, const char *want, size_t len)
{
	char buf[4096];
	ssize_t n = smack_read(name, buf, sizeof(buf));

	if (n < 0)
		return 0;
	if ((size_t)n != len || memcmp(buf, want, len)) {
		ktap_diag("%s: %zd bytes \"%s\", want %zu \"%s\"", name, n, buf,
			  len, want);
		return 0;
	}
	return 1;
}

static int file_is(const char *name, const char *want)
{
	return file_is_n(name, want, strlen(want));
}

/* name's text holds line (a whole line). */
static int has_line(const char *name, const char *line)
{
	char buf[4096], *p;
	size_t len = strlen(line);

	if (smack_read(name, buf, sizeof(buf)) < 0)
		return 0;
	for (p = buf; (p = strstr(p, line)); p += len)
		if ((p == buf || p[-1] == '\n') && p[len] == '\n')
			return 1;
	return 0;
}

/* One write of len bytes to a fresh fd of name: the result, errno kept. */
static ssize_t put_n(const char *name, const void *buf, size_t len)
{
	char path[128];
	ssize_t n;
	int fd, err;

	snprintf(path, sizeof(path), SMACKFS "/%s", name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = write(fd, buf, len);
	err = errno;
	close(fd);
	errno = err;
	return n;
}

/* A write taken whole. */
static int put(const char *name, const char *s)
{
	ssize_t n = put_n(name, s, strlen(s));

	if (n != (ssize_t)strlen(s)) {
		ktap_diag("write \"%s\" to %s: %zd (%s)", s, name, n,
			  n < 0 ? strerror(errno) : "short");
		return 0;
	}
	return 1;
}

/* A write refused with errno want. */
static int refused(const char *name, const char *s, int want)
{
	ssize_t n = put_n(name, s, strlen(s));

	if (n >= 0 || errno != want) {
		ktap_diag("write \"%s\" to %s: %zd (%s), want %s", s, name, n,
			  n < 0 ? strerror(errno) : "taken", strerror(want));
		return 0;
	}
	return 1;
}

/* A fixed-format rule: two labels padded to 24 bytes, then access. */
static void fixed_rule(char *out, const char *subj, const char *obj,
		       const char *access)
{
	snprintf(out, LOADLEN + 1, "%-*s%-*s%-6s", LABELLEN, subj, LABELLEN,
		 obj, access);
}

static int t_mount(void)
{
	return lsmfs_mount("smackfs", SMACKFS, SMACK_MAGIC);
}

static int t_label(void)
{
	char buf[64];
	int fd = open("/proc/self/attr/current", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return fail("/proc/self/attr/current");
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return fail("read /proc/self/attr/current");
	buf[n] = '\0';
	if (strcmp(buf, "_")) {
		ktap_diag("label \"%s\"", buf);
		return 0;
	}
	return 1;
}

static int t_load2(void)
{
	return put("load2", "bklA bklB rw") &&
	       has_line("load2", "bklA bklB rw") &&
	       has_line("load", "bklA bklB rw");
}

/* smk_write_rules_list: one token short is EINVAL; so is a write after a
 * read moved the position.
 */
static int t_load2_errors(void)
{
	char buf[256];
	int fd, ok;
	ssize_t n;

	ok = refused("load2", "bklA bklB", EINVAL);
	fd = open(SMACKFS "/load2", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return fail("load2");
	n = read(fd, buf, sizeof(buf));
	if (n <= 0) {
		close(fd);
		return fail("read load2");
	}
	errno = 0;
	if (write(fd, "bklA bklB r", 11) != -1 || errno != EINVAL) {
		ktap_diag("write at %zd: %s, want EINVAL", n, strerror(errno));
		ok = 0;
	}
	close(fd);
	return ok;
}

static int t_load_fixed(void)
{
	char rule[LOADLEN + 1];
	ssize_t n;

	fixed_rule(rule, "bklC", "bklD", "r");
	n = put_n("load", rule, LOADLEN);
	if (n != LOADLEN) {
		ktap_diag("load: %zd (%s)", n, n < 0 ? strerror(errno) : "");
		return 0;
	}
	/* fewer than SMK_OLOADLEN (52) bytes is EINVAL */
	n = put_n("load", rule, 40);
	if (n != -1 || errno != EINVAL) {
		ktap_diag("load of 40 bytes: %zd, want EINVAL", n);
		return 0;
	}
	return has_line("load", "bklC bklD r") && has_line("load2", "bklC bklD r");
}

/* change-rule: "subject object add remove". */
static int t_change_rule(void)
{
	return put("change-rule", "bklA bklB x w") &&
	       has_line("load2", "bklA bklB rx") &&
	       refused("change-rule", "bklA bklB x", EINVAL);
}

/* One access query on a fresh fd of name; its answer "1" or "0", or "". */
static const char *ask(const char *name, const char *q, size_t len)
{
	static char ans[8];
	char path[128];
	int fd;
	ssize_t n;

	ans[0] = '\0';
	snprintf(path, sizeof(path), SMACKFS "/%s", name);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		ktap_perror(path);
		return ans;
	}
	n = write(fd, q, len);
	if (n < 0)
		ktap_perror("write query");
	n = n < 0 ? -1 : read(fd, ans, sizeof(ans) - 1);
	close(fd);
	/* simple_transaction_set(file, 2): the digit and a NUL */
	if (n != 2 || ans[1] != '\0') {
		ktap_diag("%s \"%.*s\": answer of %zd bytes", name, (int)len, q, n);
		ans[0] = '\0';
	}
	return ans;
}

static int answer_is(const char *name, const char *q, const char *want)
{
	const char *a = ask(name, q, strlen(q));

	if (strcmp(a, want)) {
		ktap_diag("%s \"%s\": \"%s\", want \"%s\"", name, q, a, want);
		return 0;
	}
	return 1;
}

static int t_access2(void)
{
	int ok = answer_is("access2", "bklA bklB r", "1");

	ok &= answer_is("access2", "bklA bklB x", "1");
	ok &= answer_is("access2", "bklA bklB w", "0");
	ok &= answer_is("access2", "bklB bklA r", "0");
	/* an unknown label is not an error: the answer is 0 */
	ok &= answer_is("access2", "bklZ bklB r", "0");
	/* the floor label "_" may be read by anyone */
	ok &= answer_is("access2", "bklA _ r", "1");
	return ok;
}

static int t_access_fixed(void)
{
	char q[LOADLEN + 1];
	const char *a;
	ssize_t n;
	int ok = 1;

	fixed_rule(q, "bklC", "bklD", "r");
	a = ask("access", q, LOADLEN);
	if (strcmp(a, "1")) {
		ktap_diag("access bklC bklD r: \"%s\"", a);
		ok = 0;
	}
	fixed_rule(q, "bklC", "bklD", "w");
	a = ask("access", q, LOADLEN);
	if (strcmp(a, "0")) {
		ktap_diag("access bklC bklD w: \"%s\"", a);
		ok = 0;
	}
	n = put_n("access", q, 30);
	if (n != -1 || errno != EINVAL) {
		ktap_diag("access of 30 bytes: %zd, want EINVAL", n);
		ok = 0;
	}
	return ok;
}

/*
 * access2 keeps generic_file_llseek: nothing to read before a query; the
 * answer reads again after SEEK_SET 0, from its second byte after SEEK_SET
 * 1; SEEK_END is the inode size, 0; a second query on the fd is EBUSY
 * (simple_transaction_get: one write per open).
 */
static int t_access2_lseek(void)
{
	int fd = open(SMACKFS "/access2", O_RDWR | O_CLOEXEC), ok = 1;
	char buf[8];
	ssize_t n;
	off_t r;

	if (fd < 0)
		return fail("access2");
	n = read(fd, buf, sizeof(buf));
	if (n != 0) {
		ktap_diag("read before a query: %zd", n);
		ok = 0;
	}
	if (write(fd, "bklA bklB r", 11) != 11)
		ok = fail("query");
	n = read(fd, buf, sizeof(buf));
	if (n != 2 || memcmp(buf, "1", 2)) {
		ktap_diag("answer: %zd bytes", n);
		ok = 0;
	}
	n = read(fd, buf, sizeof(buf));
	if (n != 0) {
		ktap_diag("read past the answer: %zd", n);
		ok = 0;
	}
	if (lseek(fd, 0, SEEK_SET) != 0 || read(fd, buf, sizeof(buf)) != 2 ||
	    buf[0] != '1')
		ok = fail("reread after SEEK_SET 0");
	if (lseek(fd, 1, SEEK_SET) != 1 || read(fd, buf, sizeof(buf)) != 1 ||
	    buf[0] != '\0')
		ok = fail("read after SEEK_SET 1");
	r = lseek(fd, 0, SEEK_END);
	if (r != 0) {
		ktap_diag("SEEK_END: %lld", (long long)r);
		ok = 0;
	}
	errno = 0;
	if (lseek(fd, 0, SEEK_SET) != 0 || write(fd, "bklA bklB w", 11) != -1 ||
	    errno != EBUSY) {
		ktap_diag("second query: %s, want EBUSY", strerror(errno));
		ok = 0;
	}
	close(fd);
	return ok;
}

static int t_load_self(void)
{
	char rule[LOADLEN + 1];

	fixed_rule(rule, "bklC", "bklA", "w");
	if (!put("load-self2", "bklA bklD ra") ||
	    put_n("load-self", rule, LOADLEN) != LOADLEN)
		return fail("load-self");
	return has_line("load-self2", "bklA bklD ra") &&
	       has_line("load-self", "bklC bklA w") &&
	       !has_line("load2", "bklA bklD ra");
}

/* revoke-subject: every rule of bklA loses its access and is not shown. */
static int t_revoke(void)
{
	return put("revoke-subject", "bklA") &&
	       !has_line("load2", "bklA bklB rx") &&
	       has_line("load2", "bklC bklD r") &&
	       answer_is("access2", "bklA bklB r", "0");
}

/* cipso2: "label level catcount cat..." in 4-byte fields after the label. */
static int t_cipso2(void)
{
	return put("cipso2", "bklA 3   2   5   7   ") &&
	       has_line("cipso2", "bklA   3/5,7") &&
	       has_line("cipso", "bklA   3/5,7");
}

static int t_cipso_fixed(void)
{
	char rule[64];

	snprintf(rule, sizeof(rule), "%-*s%-4s%-4s%-4s", LABELLEN, "bklC",
		 "2", "1", "9");
	return put("cipso", rule) && has_line("cipso", "bklC   2/9") &&
	       refused("cipso", "bklC", EINVAL);
}

static int t_doi(void)
{
	int ok = file_is("doi", "3");

	ok &= put("doi", "5") && file_is("doi", "5");
	/* CIPSO_V4_DOI_UNKNOWN */
	ok &= refused("doi", "0", EINVAL);
	ok &= refused("doi", "x", EINVAL);
	ok &= put("doi", "3") && file_is("doi", "3");
	return ok;
}

static int t_direct_mapped(void)
{
	int ok = file_is("direct", "250") & file_is("mapped", "251");

	ok &= put("direct", "200") && file_is("direct", "200");
	ok &= refused("direct", "256", ERANGE);
	ok &= put("direct", "250") && file_is("direct", "250");
	return ok;
}

/* ambient reads its label with the NUL; a buffer shorter is EINVAL. */
static int t_ambient(void)
{
	char buf[1];
	int fd, ok;
	ssize_t n;

	ok = file_is_n("ambient", "_", 2);
	fd = open(SMACKFS "/ambient", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail("ambient");
	n = read(fd, buf, 1);
	close(fd);
	if (n != -1 || errno != EINVAL) {
		ktap_diag("read of 1 byte: %zd, want EINVAL", n);
		ok = 0;
	}
	ok &= put("ambient", "bklA") && file_is_n("ambient", "bklA", 5);
	ok &= put("ambient", "_") && file_is_n("ambient", "_", 2);
	return ok;
}

/* onlycap: our own label only, then cleared by a label that is invalid. */
static int t_onlycap(void)
{
	int ok = file_is("onlycap", "");

	ok &= put("onlycap", "_") && file_is("onlycap", "_ ");
	/* still privileged: "_" is ours */
	ok &= put("logging", "1");
	ok &= put("onlycap", "-") && file_is("onlycap", "");
	return ok;
}

static int t_logging_ptrace(void)
{
	int ok = file_is("logging", "1\n");

	ok &= put("logging", "3") && file_is("logging", "3\n");
	ok &= refused("logging", "4", EINVAL);
	ok &= put("logging", "1") && file_is("logging", "1\n");
	ok &= file_is("ptrace", "0\n");
	ok &= put("ptrace", "2") && file_is("ptrace", "2\n");
	ok &= refused("ptrace", "3", EINVAL);
	ok &= put("ptrace", "0") && file_is("ptrace", "0\n");
	return ok;
}

/* syslog reads "*" with the NUL until set; root keeps CAP_MAC_OVERRIDE. */
static int t_syslog(void)
{
	int ok = file_is_n("syslog", "*", 2);

	ok &= put("syslog", "bklA") && file_is_n("syslog", "bklA", 5);
	ok &= put("syslog", "*") && file_is_n("syslog", "*", 2);
	return ok;
}

static int t_relabel_self(void)
{
	int ok = file_is("relabel-self", "");

	/* smk_parse_label_list adds each label at the head */
	ok &= put("relabel-self", "bklA bklB") &&
	      file_is("relabel-self", "bklB bklA ");
	ok &= put("relabel-self", "-") && file_is("relabel-self", "");
	return ok;
}

/* netlabel: a loopback subnet gets a label; no traffic is involved. */
static int t_netlabel(void)
{
	return put("netlabel", "127.77.0.0/16 bklC") &&
	       has_line("netlabel", "127.77.0.0/16 bklC") &&
	       put("netlabel", "127.78.1.1 -CIPSO") &&
	       has_line("netlabel", "127.78.1.1/32 -CIPSO") &&
	       refused("netlabel", "127.77.0.0/33 bklC", EINVAL) &&
	       refused("netlabel", "127.77.0.0/16 -NOPE", EINVAL);
}

/* seq_file files: SEEK_SET within the text, SEEK_CUR, SEEK_END EINVAL. */
static int t_seq_lseek(void)
{
	static const char *const files[] = {
		"load2", "load", "cipso2", "cipso", "netlabel", "load-self2",
	};
	char whole[4096], part[4096];
	size_t i;
	int ok = 1;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		char path[128];
		ssize_t len = smack_read(files[i], whole, sizeof(whole)), n;
		off_t r;
		int fd;

		snprintf(path, sizeof(path), SMACKFS "/%s", files[i]);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || len < 8) {
			ktap_diag("%s: %zd bytes", files[i], len);
			ok = 0;
			if (fd >= 0)
				close(fd);
			continue;
		}
		if (lseek(fd, 5, SEEK_SET) != 5)
			ok = fail(path);
		n = read(fd, part, sizeof(part));
		if (n != len - 5 || memcmp(part, whole + 5, n)) {
			ktap_diag("%s: %zd bytes at 5, want %zd", files[i], n,
				  len - 5);
			ok = 0;
		}
		r = lseek(fd, -3, SEEK_CUR);
		if (r != len - 3) {
			ktap_diag("%s: SEEK_CUR -3 %lld", files[i], (long long)r);
			ok = 0;
		}
		errno = 0;
		r = lseek(fd, 0, SEEK_END);
		if (r != -1 || errno != EINVAL) {
			ktap_diag("%s: SEEK_END %lld (%s)", files[i],
				  (long long)r, strerror(errno));
			ok = 0;
		}
		close(fd);
	}
	return ok;
}

/*
 * The single-value files keep default_llseek: a read from a position
 * other than 0 is 0 bytes (smk_read_doi & co.), SEEK_SET 0 reads the
 * value again, SEEK_END is 0.
 */
static int t_value_lseek(void)
{
	static const char *const files[] = {
		"doi", "direct", "mapped", "ambient", "logging", "ptrace",
		"syslog",
	};
	char a[64], b[64];
	size_t i;
	int ok = 1;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		char path[128];
		ssize_t n1, n2, n3;
		off_t end;
		int fd;

		snprintf(path, sizeof(path), SMACKFS "/%s", files[i]);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			ok = fail(path);
			continue;
		}
		n1 = read(fd, a, sizeof(a));
		n2 = read(fd, b, sizeof(b));
		lseek(fd, 1, SEEK_SET);
		n3 = read(fd, b, sizeof(b));
		if (n1 <= 0 || n2 != 0 || n3 != 0) {
			ktap_diag("%s: reads %zd, %zd, at 1 %zd", files[i], n1,
				  n2, n3);
			ok = 0;
		}
		if (lseek(fd, 0, SEEK_SET) != 0 ||
		    read(fd, b, sizeof(b)) != n1 || memcmp(a, b, n1)) {
			ktap_diag("%s: no reread after SEEK_SET 0", files[i]);
			ok = 0;
		}
		end = lseek(fd, 0, SEEK_END);
		if (end != 0) {
			ktap_diag("%s: SEEK_END %lld", files[i], (long long)end);
			ok = 0;
		}
		close(fd);
	}
	return ok;
}

static int t_umount(void)
{
	if (umount(SMACKFS))
		return fail("umount " SMACKFS);
	return 1;
}

static const struct ktap_case cases[] = {
	{ "smackfs mounts on " SMACKFS, t_mount },
	{ "the test runs with the floor label _", t_label },
	{ "load2 takes a rule, load2 and load show it", t_load2 },
	{ "load2: a short rule and a write after a read are EINVAL", t_load2_errors },
	{ "load takes a fixed-format rule, a short one is EINVAL", t_load_fixed },
	{ "change-rule adds x and removes w", t_change_rule },
	{ "access2 answers 1 and 0 for the rules", t_access2 },
	{ "access answers fixed-format queries", t_access_fixed },
	{ "access2: read, SEEK_SET, SEEK_END 0, a second query EBUSY", t_access2_lseek },
	{ "load-self2 and load-self hold the task's own rules", t_load_self },
	{ "revoke-subject clears a subject's rules", t_revoke },
	{ "cipso2 sets a level and categories", t_cipso2 },
	{ "cipso takes the fixed format", t_cipso_fixed },
	{ "doi reads 3, takes 5, refuses 0 and x", t_doi },
	{ "direct and mapped read 250 and 251, 256 is ERANGE", t_direct_mapped },
	{ "ambient reads _ with its NUL, takes a label", t_ambient },
	{ "onlycap takes our own label and is cleared", t_onlycap },
	{ "logging and ptrace take their range, refuse past it", t_logging_ptrace },
	{ "syslog reads * and takes a label", t_syslog },
	{ "relabel-self takes a list and is cleared", t_relabel_self },
	{ "netlabel takes host labels, refuses a bad mask and option", t_netlabel },
	{ "seq_file files: SEEK_SET, SEEK_CUR, SEEK_END EINVAL", t_seq_lseek },
	{ "value files: reads past 0 are empty, SEEK_SET 0 rereads, SEEK_END 0", t_value_lseek },
	{ "smackfs unmounts", t_umount },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(cases),
	.kconfig = (const char *const[]){ "CONFIG_SECURITY_SMACK", NULL },
	.timeout = 60,
	.cases = cases,
};
