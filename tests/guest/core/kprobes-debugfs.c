// SPDX-License-Identifier: GPL-2.0
/*
 * kprobes-debugfs - the kprobes files of debugfs (kernel/kprobes.c,
 * debugfs_kprobe_init): kprobes/list (0400, a seq_file of the registered
 * probes), kprobes/enabled (0600, fops_kp: read_enabled_file_bool,
 * write_enabled_file_bool and default_llseek) and kprobes/blacklist (0400,
 * a seq_file of the functions kprobes refuses).
 *
 * enabled reads "1\n" at boot; writing 0 disarms every kprobe and reads
 * back "0\n", writing 1 arms them again; a word kstrtobool does not know
 * is EINVAL. Its llseek is default_llseek, which the llseek series must
 * keep: a read after SEEK_SET 1 is the "\n". The blacklist is not empty,
 * each line "0xSTART-0xEND<TAB>symbol" with START below END (root sees the
 * addresses), and it names functions 6.1 marks NOKPROBE_SYMBOL in
 * kernel/kprobes.c itself (aggr_pre_handler, kprobe_exceptions_notify).
 * The list reads, every line of it well formed.
 *
 * With CONFIG_KPROBE_EVENTS (tracefs kprobe_events) a real probe is made:
 * "p:bklfree do_sys_openat2" shows as p:kprobes/bklfree in kprobe_events
 * and as "ADDR  k  do_sys_openat2+0x0" marked [DISABLED] in kprobes/list
 * (the event is not on yet, so trace_kprobe registers it disabled).
 * Enabled through events/kprobes/bklfree/enable, it fires on every open
 * (its hits in kprobe_profile grow, [DISABLED] is gone); kprobes/enabled 0
 * disarms it (opens add no hits), 1 arms it again (they do). Disabled and
 * removed ("-:bklfree"), it is gone from kprobes/list. Without the option
 * those four cases are skipped, naming it.
 */
#include <fcntl.h>
#include <sys/stat.h>

#include "ktap.h"

#define KP "/sys/kernel/debug/kprobes/"
#define TR "/sys/kernel/tracing/"
#define EVENT_ENABLE TR "events/kprobes/bklfree/enable"
#define PROBE "p:bklfree do_sys_openat2"
#define SYMBOL "do_sys_openat2+0x0"

static char buf[1 << 20];

static int fail(const char *what)
{
	ktap_perror(what);
	return 0;
}

/* The whole file into buf; its length, or -1. */
static ssize_t slurp(const char *path)
{
	size_t used = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return ktap_perror(path);
	while ((n = read(fd, buf + used, sizeof(buf) - 1 - used)) > 0)
		used += n;
	close(fd);
	if (n < 0)
		return ktap_perror(path);
	buf[used] = '\0';
	return used;
}

static int put(const char *path, const char *s, int flags)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | flags);
	ssize_t n;

	if (fd < 0)
		return ktap_perror(path);
	n = write(fd, s, strlen(s));
	if (n < 0)
		ktap_perror(path);
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

static int modes(void)
{
	static const struct {
		const char *name;
		mode_t mode;
	} files[] = {
		{ KP "list", 0400 },
		{ KP "enabled", 0600 },
		{ KP "blacklist", 0400 },
	};
	struct stat st;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		if (stat(files[i].name, &st))
			return fail(files[i].name);
		if (!S_ISREG(st.st_mode) ||
		    (st.st_mode & 07777) != files[i].mode) {
			ktap_diag("%s: mode %o", files[i].name,
				  st.st_mode & 07777);
			return 0;
		}
	}
	return 1;
}

static int enabled_is(const char *want)
{
	return slurp(KP "enabled") == 2 && !strcmp(buf, want);
}

static int enabled_one(void)
{
	return enabled_is("1\n");
}

static int toggle(void)
{
	int off = !put(KP "enabled", "0", 0) && enabled_is("0\n");
	int on = !put(KP "enabled", "1", 0) && enabled_is("1\n");

	ktap_diag("after 0: %s, after 1: %s", off ? "0" : "?", on ? "1" : "?");
	return off && on;
}

static int bad_word(void)
{
	int fd = open(KP "enabled", O_WRONLY | O_CLOEXEC);
	int ok;

	if (fd < 0)
		return fail(KP "enabled");
	errno = 0;
	ok = write(fd, "maybe", 5) < 0 && errno == EINVAL;
	close(fd);
	return ok && enabled_is("1\n");
}

static int enabled_seek(void)
{
	char c[4];
	int fd = open(KP "enabled", O_RDONLY | O_CLOEXEC);
	int ok;

	if (fd < 0)
		return fail(KP "enabled");
	ok = lseek(fd, 1, SEEK_SET) == 1 && read(fd, c, sizeof(c)) == 1 &&
	     c[0] == '\n' && lseek(fd, 0, SEEK_CUR) == 2 &&
	     lseek(fd, 0, SEEK_SET) == 0 && read(fd, c, sizeof(c)) == 2 &&
	     c[0] == '1' && read(fd, c, sizeof(c)) == 0;
	close(fd);
	return ok;
}

/* "0xSTART-0xEND\tsymbol" lines, START < END; count them. */
static int blacklist(void)
{
	unsigned long long start, end;
	unsigned int lines = 0, bad = 0;
	char sym[256], *line, *save;
	int aggr = 0, notify = 0;

	if (slurp(KP "blacklist") <= 0)
		return 0;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		lines++;
		if (sscanf(line, "0x%llx-0x%llx\t%255s", &start, &end, sym) != 3 ||
		    !start || start >= end) {
			if (!bad++)
				ktap_diag("bad line: %s", line);
			continue;
		}
		aggr |= !strcmp(sym, "aggr_pre_handler");
		notify |= !strcmp(sym, "kprobe_exceptions_notify");
	}
	ktap_diag("blacklist: %u lines, %u malformed", lines, bad);
	return lines > 0 && !bad && aggr && notify;
}

/* "ADDR  k  SYM+0xOFF  MOD [FLAGS]" lines; *with is set when SYMBOL is. */
static int list_lines(int *with, char *flags, size_t size)
{
	char *line, *save;
	unsigned int lines = 0;
	ssize_t n = slurp(KP "list");

	*with = 0;
	if (n < 0)
		return 0;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		unsigned long long addr;
		char type, sym[256];

		lines++;
		ktap_diag("list: %s", line);
		if (sscanf(line, "%llx %c %255s", &addr, &type, sym) != 3 ||
		    (type != 'k' && type != 'r'))
			return 0;
		if (!strcmp(sym, SYMBOL)) {
			const char *f = strchr(line, '[');

			*with = 1;
			snprintf(flags, size, "%s", f ? f : "");
		}
	}
	return 1;
}

static int list(void)
{
	char flags[128];
	int with;

	return list_lines(&with, flags, sizeof(flags)) && !with;
}

static int have_events;

static unsigned long hits(void)
{
	char *p;

	if (slurp(TR "kprobe_profile") <= 0)
		return 0;
	p = strstr(buf, " bklfree ");
	return p ? strtoul(p + 9, NULL, 10) : 0;
}

/* Opens a file a few times: do_sys_openat2 runs each time. */
static void opens(void)
{
	int i, fd;

	for (i = 0; i < 5; i++) {
		fd = open("/proc/version", O_RDONLY | O_CLOEXEC);
		if (fd >= 0)
			close(fd);
	}
}

static int add_probe(void)
{
	char flags[128] = "";
	int listed, with;

	if (put(TR "kprobe_events", PROBE, O_APPEND))
		return 0;
	listed = slurp(TR "kprobe_events") > 0 &&
		 strstr(buf, "p:kprobes/bklfree do_sys_openat2");
	if (!listed)
		ktap_diag("kprobe_events: %s", buf);
	if (!list_lines(&with, flags, sizeof(flags)))
		return 0;
	return listed && with && strstr(flags, "[DISABLED]") &&
	       !access(EVENT_ENABLE, F_OK);
}

static int probe_fires(void)
{
	unsigned long before, after;
	char flags[128] = "";
	int with;

	if (put(EVENT_ENABLE, "1", 0))
		return 0;
	before = hits();
	opens();
	after = hits();
	ktap_diag("hits %lu before 5 opens, %lu after", before, after);
	return after >= before + 5 && list_lines(&with, flags, sizeof(flags)) &&
	       with && !strstr(flags, "[DISABLED]");
}

static int disarm_arm(void)
{
	unsigned long a, b, c;

	if (put(KP "enabled", "0", 0))
		return 0;
	a = hits();
	opens();
	b = hits();
	if (put(KP "enabled", "1", 0))
		return 0;
	opens();
	c = hits();
	ktap_diag("hits %lu, %lu after 5 opens disarmed, %lu after 5 armed",
		  a, b, c);
	return b == a && c >= b + 5 && enabled_is("1\n");
}

static int remove_probe(void)
{
	char flags[128];
	int with = 1;

	if (put(EVENT_ENABLE, "0", 0) ||
	    put(TR "kprobe_events", "-:bklfree", O_APPEND))
		return 0;
	return list_lines(&with, flags, sizeof(flags)) && !with &&
	       access(EVENT_ENABLE, F_OK) < 0 &&
	       slurp(TR "kprobe_events") >= 0 && !strstr(buf, "bklfree");
}

static const struct ktap_case tcases[] = {
	{ "kprobes/list 0400, enabled 0600, blacklist 0400", modes },
	{ "enabled reads 1", enabled_one },
	{ "enabled: write 0 reads 0, write 1 reads 1", toggle },
	{ "enabled: an unknown word is EINVAL, still 1", bad_word },
	{ "enabled: read after SEEK_SET 1 is the newline", enabled_seek },
	{ "blacklist: well formed, names aggr_pre_handler and kprobe_exceptions_notify", blacklist },
	{ "list reads, well formed, no do_sys_openat2 probe yet", list },
};

static const struct ktap_case event_cases[] = {
	{ "kprobe_events: " PROBE " in kprobe_events and kprobes/list, DISABLED", add_probe },
	{ "event enabled: the probe fires on open, not DISABLED", probe_fires },
	{ "enabled 0 disarms the probe, 1 arms it again", disarm_arm },
	{ "event disabled and removed: gone from kprobes/list", remove_probe },
};

static void run(void)
{
	size_t i;

	ktap_run_cases(tcases, ARRAY_SIZE(tcases));
	have_events = ktap_kconfig_set("CONFIG_KPROBE_EVENTS");
	if (have_events && access(TR "kprobe_events", F_OK)) {
		ktap_diag("CONFIG_KPROBE_EVENTS is set, but no %skprobe_events",
			  TR);
		have_events = 0;
		for (i = 0; i < ARRAY_SIZE(event_cases); i++)
			ktap_ok(0, "%s", event_cases[i].desc);
		return;
	}
	if (have_events) {
		ktap_run_cases(event_cases, ARRAY_SIZE(event_cases));
		return;
	}
	for (i = 0; i < ARRAY_SIZE(event_cases); i++)
		ktap_skip("CONFIG_KPROBE_EVENTS not set", "%s",
			  event_cases[i].desc);
}

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(tcases) + ARRAY_SIZE(event_cases),
	.kconfig = (const char *const[]){ "CONFIG_KPROBES", NULL },
	.timeout = 30,
	.run = run,
};
