// SPDX-License-Identifier: GPL-2.0
/*
 * xt-recent - the "recent" match's address lists (net/netfilter/
 * xt_recent.c, a seed path of the llseek patch) through their
 * /proc/net/xt_recent/NAME files, with a rule made by Debian's
 * iptables-legacy (the profile's tool= line, from the host's /usr; its
 * extensions are found in /usr/lib/x86_64-linux-gnu/xtables there).
 *
 *   - lo is brought up; iptables-legacy appends "-i lo -p udp --dport 9 -m
 *     recent --name bklfree --set" to INPUT, and -S lists it back;
 *   - the rule's table appears as /proc/net/xt_recent/bklfree, empty;
 *   - recent_mt_proc_write: "+ADDR" adds an address (listed with ttl 0 and
 *     one packet), and moves the file position past what it took, so a
 *     second write on the fd is ESPIPE until SEEK_SET 0; "-ADDR" removes
 *     one, "/" flushes them all, an IPv6 address is taken too, anything
 *     else is EINVAL;
 *   - three UDP datagrams from 127.0.0.1 to 127.0.0.1:9, received by the
 *     test's own socket (so the INPUT hook has run), add 127.0.0.1 with the
 *     packets' ttl 64, three packets and three timestamps;
 *   - the seq_file seeks (seq_lseek): SEEK_SET into a line reads the rest
 *     of it, SEEK_CUR, SEEK_END EINVAL;
 *   - the rule is deleted with -D and the table's file goes with it.
 *
 * Every value and errno is what the 6.1 source gives; the series does not
 * change xt_recent.c (its proc_lseek is already seq_lseek in 6.1), so both
 * kernels give the same results. Cases run in order.
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "run.h"
#include "slurp.h"

#define IPTABLES "/usr/sbin/iptables-legacy"
#define TABLE "/proc/net/xt_recent/bklfree"
#define PORT 9
#define PACKETS 3
#define TOOL_SECS 30
#define WAIT_MS 3000

static char *rule_args[] = {
	"-i", "lo", "-p", "udp", "--dport", "9", "-m", "recent",
	"--name", "bklfree", "--set",
};

static int fail(const char *what)
{
	ktap_perror(what);
	return 0;
}

/* iptables-legacy ACTION INPUT with the rule's arguments. */
static int iptables_rule(const char *action)
{
	char *argv[4 + ARRAY_SIZE(rule_args)];
	size_t i;

	argv[0] = IPTABLES;
	argv[1] = (char *)action;
	argv[2] = "INPUT";
	for (i = 0; i < ARRAY_SIZE(rule_args); i++)
		argv[3 + i] = rule_args[i];
	argv[3 + i] = NULL;
	return run_diag(argv, TOOL_SECS) == 0;
}

static unsigned int lines(const char *s)
{
	unsigned int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* The table's line for src=ADDR, copied to out; 1 if there is one. */
static int entry(const char *addr, char *out, size_t size)
{
	char buf[4096], key[80], *p, *nl;

	if (slurp(TABLE, buf, sizeof(buf)) < 0)
		return 0;
	snprintf(key, sizeof(key), "src=%s ", addr);
	for (p = buf; (p = strstr(p, key)); p++)
		if (p == buf || p[-1] == '\n')
			break;
	if (!p)
		return 0;
	nl = strchr(p, '\n');
	snprintf(out, size, "%.*s", nl ? (int)(nl - p) : (int)strlen(p), p);
	return 1;
}

/* One write on a fresh fd: the result, errno kept. */
static ssize_t put(const char *s)
{
	int fd = open(TABLE, O_WRONLY | O_CLOEXEC), err;
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	err = errno;
	close(fd);
	errno = err;
	return n;
}

static int lo_up(void)
{
	struct ifreq ifr = { 0 };
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), ok;

	if (s < 0)
		return fail("socket");
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
	ok = !ioctl(s, SIOCGIFFLAGS, &ifr);
	ifr.ifr_flags |= IFF_UP;
	ok = ok && !ioctl(s, SIOCSIFFLAGS, &ifr) &&
	     !ioctl(s, SIOCGIFFLAGS, &ifr) && (ifr.ifr_flags & IFF_UP);
	if (!ok)
		ktap_perror("lo up");
	close(s);
	return ok;
}

static int t_rule(void)
{
	char out[4096];
	char *list[] = { IPTABLES, "-S", "INPUT", NULL };
	int rc;

	/* iptables-legacy locks /run/xtables.lock; the guest has no /run */
	setenv("XTABLES_LOCKFILE", "/tmp/xtables.lock", 1);
	if (!lo_up() || !iptables_rule("-A"))
		return 0;
	rc = run_capture(list, out, sizeof(out), TOOL_SECS);
	if (rc || !strstr(out, "-A INPUT -i lo -p udp") ||
	    !strstr(out, "-m recent --set") || !strstr(out, "--name bklfree")) {
		ktap_diag("iptables -S INPUT: exit %d: %s", rc, out);
		return 0;
	}
	return 1;
}

static int t_table_empty(void)
{
	char buf[256];
	struct stat st;

	if (stat(TABLE, &st))
		return fail(TABLE);
	/* ip_list_perms: 0644 */
	if ((st.st_mode & 0777) != 0644) {
		ktap_diag("mode %o", st.st_mode & 0777);
		return 0;
	}
	return slurp(TABLE, buf, sizeof(buf)) == 0;
}

static int t_add(void)
{
	char line[256];

	if (put("+127.1.2.3") != 10)
		return fail("+127.1.2.3");
	if (!entry("127.1.2.3", line, sizeof(line))) {
		ktap_diag("127.1.2.3 not listed");
		return 0;
	}
	ktap_diag("%s", line);
	/* recent_entry_init with ttl 0; one packet, one timestamp */
	return !strncmp(line, "src=127.1.2.3 ttl: 0 last_seen: ", 32) &&
	       strstr(line, " oldest_pkt: 1 ") != NULL;
}

/*
 * recent_mt_proc_write moves *loff past what it took and takes writes only
 * at position 0: a second write on the fd is ESPIPE, SEEK_SET 0 (seq_lseek)
 * lets the next one in.
 */
static int t_write_pos(void)
{
	int fd = open(TABLE, O_WRONLY | O_CLOEXEC), ok = 1;
	off_t pos;
	char line[256];

	if (fd < 0)
		return fail(TABLE);
	if (write(fd, "+127.1.2.4\n", 11) != 11)
		ok = fail("+127.1.2.4");
	pos = lseek(fd, 0, SEEK_CUR);
	if (pos != 11) {
		ktap_diag("position after the write %lld, want 11",
			  (long long)pos);
		ok = 0;
	}
	errno = 0;
	if (write(fd, "+127.1.2.5", 10) != -1 || errno != ESPIPE) {
		ktap_diag("second write: %s, want ESPIPE", strerror(errno));
		ok = 0;
	}
	if (lseek(fd, 0, SEEK_SET) != 0 || write(fd, "+127.1.2.5", 10) != 10)
		ok = fail("write after SEEK_SET 0");
	close(fd);
	return ok && entry("127.1.2.4", line, sizeof(line)) &&
	       entry("127.1.2.5", line, sizeof(line));
}

static int t_remove(void)
{
	char buf[4096], line[256];

	if (put("-127.1.2.3") != 10)
		return fail("-127.1.2.3");
	if (entry("127.1.2.3", line, sizeof(line))) {
		ktap_diag("127.1.2.3 still listed");
		return 0;
	}
	return slurp(TABLE, buf, sizeof(buf)) > 0 && lines(buf) == 2;
}

static int t_ipv6(void)
{
	char line[256];

	if (put("+::1") != 4)
		return fail("+::1");
	return entry("0000:0000:0000:0000:0000:0000:0000:0001", line,
		     sizeof(line));
}

static int t_bad(void)
{
	static const char *const bad[] = { "127.1.2.3", "+300.1.2.3", "+",
					   "*127.0.0.1" };
	size_t i;
	int ok = 1;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		errno = 0;
		if (put(bad[i]) != -1 || errno != EINVAL) {
			ktap_diag("\"%s\": %s, want EINVAL", bad[i],
				  strerror(errno));
			ok = 0;
		}
	}
	return ok;
}

static int t_flush(void)
{
	char buf[256];

	if (put("/") != 1)
		return fail("/");
	return slurp(TABLE, buf, sizeof(buf)) == 0;
}

/* Datagrams to our own socket on 127.0.0.1:9 through the rule. */
static int t_traffic(void)
{
	struct sockaddr_in a = {
		.sin_family = AF_INET,
		.sin_port = htons(PORT),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	struct pollfd p = { .events = POLLIN };
	int rx = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	int tx = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	long long deadline = ktap_now_ms() + WAIT_MS;
	unsigned int got = 0, i, stamps = 0;
	char line[512], *c;
	int ok = 1;

	if (rx < 0 || tx < 0 || bind(rx, (struct sockaddr *)&a, sizeof(a)))
		return fail("udp socket on 127.0.0.1:9");
	for (i = 0; i < PACKETS; i++)
		if (sendto(tx, "bklfree", 7, 0, (struct sockaddr *)&a,
			   sizeof(a)) != 7)
			ok = fail("sendto 127.0.0.1:9");
	p.fd = rx;
	while (got < PACKETS && ktap_now_ms() < deadline) {
		char buf[16];

		if (poll(&p, 1, (int)(deadline - ktap_now_ms())) <= 0)
			continue;
		if (recv(rx, buf, sizeof(buf), MSG_DONTWAIT) == 7)
			got++;
	}
	close(rx);
	close(tx);
	if (got != PACKETS) {
		ktap_diag("received %u of %u datagrams", got, PACKETS);
		return 0;
	}
	if (!entry("127.0.0.1", line, sizeof(line))) {
		ktap_diag("127.0.0.1 not listed");
		return 0;
	}
	ktap_diag("%s", line);
	/* the timestamps follow the oldest_pkt count, comma separated */
	c = strstr(line, " oldest_pkt: 3 ");
	for (; c && *c; c++)
		stamps += *c == ',';
	return ok && !strncmp(line, "src=127.0.0.1 ttl: 64 last_seen: ", 33) &&
	       strstr(line, " oldest_pkt: 3 ") && stamps == PACKETS - 1;
}

static int t_lseek(void)
{
	char whole[4096], part[4096];
	ssize_t len = slurp(TABLE, whole, sizeof(whole)), n;
	int fd = open(TABLE, O_RDONLY | O_CLOEXEC), ok = 1;
	off_t r;

	if (fd < 0 || len < 20) {
		ktap_diag("table: %zd bytes", len);
		if (fd >= 0)
			close(fd);
		return 0;
	}
	if (lseek(fd, 4, SEEK_SET) != 4)
		ok = fail("SEEK_SET 4");
	n = read(fd, part, sizeof(part));
	if (n != len - 4 || memcmp(part, whole + 4, n)) {
		ktap_diag("%zd bytes at 4, want %zd", n, len - 4);
		ok = 0;
	}
	r = lseek(fd, -(len - 4), SEEK_CUR);
	if (r != 4) {
		ktap_diag("SEEK_CUR back: %lld, want 4", (long long)r);
		ok = 0;
	}
	n = read(fd, part, 9);
	if (n != 9 || memcmp(part, "127.0.0.1", 9)) {
		ktap_diag("9 bytes at 4: %zd", n);
		ok = 0;
	}
	if (!ktap_seek_fails(fd, 0, SEEK_END, EINVAL))
		ok = 0;
	close(fd);
	return ok;
}

static int t_delete(void)
{
	struct stat st;

	if (!iptables_rule("-D"))
		return 0;
	/* recent_mt_destroy drops the table with its last rule */
	if (!stat(TABLE, &st) || errno != ENOENT) {
		ktap_diag(TABLE " after -D: %s", strerror(errno));
		return 0;
	}
	return 1;
}

static const struct ktap_case cases[] = {
	{ "iptables-legacy appends the recent rule to INPUT", t_rule },
	{ "the table's file is there, mode 0644, empty", t_table_empty },
	{ "+ADDR adds an address with ttl 0 and one packet", t_add },
	{ "a second write on the fd is ESPIPE until SEEK_SET 0", t_write_pos },
	{ "-ADDR removes an address", t_remove },
	{ "+ADDR takes an IPv6 address", t_ipv6 },
	{ "a line without + - or / and bad addresses are EINVAL", t_bad },
	{ "/ flushes the table", t_flush },
	{ "UDP over lo adds 127.0.0.1 with ttl 64 and three packets", t_traffic },
	{ "seq_file: SEEK_SET, SEEK_CUR, SEEK_END EINVAL", t_lseek },
	{ "iptables-legacy deletes the rule, the file goes", t_delete },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(cases),
	.kconfig = (const char *const[]){ "CONFIG_IP_NF_IPTABLES",
					  "CONFIG_IP_NF_FILTER",
					  "CONFIG_NETFILTER_XT_MATCH_RECENT",
					  NULL },
	.timeout = 120,
	.cases = cases,
};
