// SPDX-License-Identifier: GPL-2.0
/*
 * verdict: judge one guest boot from its serial console log. It is the
 * lab's one reader of a boot's KTAP: the report, make check and the
 * findings read what it prints, never the console.
 *
 *   verdict [OPTION...] CONSOLE_LOG
 *
 *   --timed-out            the runner killed QEMU when the profile's
 *                          timeout expired
 *   --exit-status N        QEMU's exit status (0 to 255); anything but 0
 *                          fails the boot
 *   --qemu-stderr FILE     QEMU's own messages: with an empty console and
 *                          a non-zero status, QEMU never ran the guest, and
 *                          the first line of FILE is the reason
 *   --optional TEST        TEST (a top-level test name) may skip: its skip
 *                          makes the verdict skip, not fail (repeatable;
 *                          the profile's optional= lines)
 *   --hostcheck-passed     the profile's host checks all passed
 *   --hostcheck-failed CMD the host check CMD failed: fails the boot
 *   --cases                list every test and case instead of judging
 *                          (see "The listing" below)
 *
 * The console carries two streams. Kernel lines start with a printk
 * timestamp, "[    1.234567] ", and are scanned for splats: the reports of
 * WARN, BUG, oopses, lockdep, the hung task and lockup detectors, RCU
 * stalls, UBSAN, KASAN, kmemleak and panic (splat_patterns[] below). Every
 * other line is user space: the guest init prints "KTAP version 1" at the
 * top level, and each test program's own KTAP is nested under it, indented
 * by 4 spaces a level. Lines end in CRLF as QEMU captures them, or LF; NUL
 * bytes are dropped and a last line cut short is read as it is.
 *
 * A top-level result is one test (its description is the test's name,
 * "watchdog/i6300esb"); the results one level below it are its cases. A
 * test skips when its result is a SKIP, its plan is 1..0 or every one of
 * its cases is a SKIP; what it said is the reason of its 1..0 plan
 * ("/dev/watchdog0 absent"), else of its first skipped case, else of its
 * own SKIP directive. A skip is never a pass: it fails the boot unless the
 * test is --optional.
 *
 * The verdict is the first of these that applies:
 *
 *   error  the console is empty, the status is not 0 and the boot did not
 *          time out: QEMU never ran the guest
 *   panic  a "Kernel panic" line
 *   hang   --timed-out
 *   fail   a splat; QEMU's status is not 0; a "Bail out!" at any level; a
 *          top-level "not ok" without a SKIP, XFAIL or TODO directive, or
 *          any TIMEOUT; a top-level ok or SKIP over a failing subtest or
 *          an unmet subtest plan; no top-level KTAP; a top-level plan
 *          missing, 1..0 or not met; a test skipped that is not
 *          --optional; --hostcheck-failed
 *   skip   an --optional test skipped, and nothing else failed
 *   pass   otherwise
 *
 * The output is key=value lines. Always, in this order: verdict, ktap
 * (complete, incomplete or absent), tests (the top-level plan), passed,
 * failed, skipped, xfail and timeout (top-level results, each counted
 * once: TODO counts as xfail), subtests_passed (XFAIL and TODO included),
 * subtests_failed (TIMEOUT included) and subtests_skipped (every result
 * below the top level), splats, reason (one line) and first_splat_line (0
 * without a splat). Then, only when there is one: hostcheck (pass, or
 * "'CMD' failed"), v4l2_compliance (the totals a test printed as
 * "# v4l2-compliance: total=N succeeded=N failed=N warnings=N"),
 * v4l2_compliance_media (the same, printed as "# v4l2-compliance-media:
 * ..." for the tool's run over the media device), and one line per
 * failure and skip, in log order, with the test and what it says
 * separated by a tab (tabs in the log become spaces, so the tab is the
 * only one):
 *
 *   failed_case=TEST<TAB>DESCRIPTION  a failing case (not ok, TIMEOUT) of
 *                                     TEST, by its KTAP description
 *   failed_test=TEST<TAB>WHAT         TEST failed with no failing case: its
 *                                     Bail out! or its own directive
 *                                     ("exit status 1")
 *   skipped_test=TEST<TAB>WHAT        TEST skipped and is not optional
 *   optional_skip=TEST<TAB>WHAT       TEST skipped and is optional
 *
 * Last, when a case failed, the first one again (the first failed_case=
 * line) with the KTAP lines that show it, for a reader who has only the
 * verdict (make check prints them under a failing boot):
 *
 *   first_failed_case=TEST<TAB>DESCRIPTION
 *   first_failed_case_ktap=LINE       one per line, unindented: the
 *                                     nested diagnostics ("# ...") since
 *                                     the last other KTAP line (a result,
 *                                     plan, version, Bail out! or "#
 *                                     Subtest:" line), the first 11, then
 *                                     the case's own "not ok" line
 *
 * A test cut short by a panic, hang or the end of the log has no result
 * line to name it: its failing cases name it by the "# Subtest: NAME" line
 * the guest init prints above its KTAP, or "(unfinished test N)". The exit
 * status is 0 with a verdict, whatever it is, and 2 on a usage or I/O
 * error.
 *
 * The listing. With --cases, verdict prints no verdict but every result it
 * read, for the report's page of a boot: each test, then its cases, in log
 * order, one line each of five fields separated by tabs (print_text()
 * makes the tab the only one):
 *
 *   TEST NUMBER RESULT DESCRIPTION DIRECTIVE
 *
 * TEST names the test as the failed_case= lines do. NUMBER is "T" on the
 * test's own line (its number in the top-level plan) and "T.C" on the line
 * of its case C. RESULT is pass, fail, skip, xfail (XFAIL or TODO) or
 * timeout, the KTAP result as the line says it, not a judgement (a case
 * that fails under a test marked XFAIL stays fail); a test the log cut
 * short has no result line and the RESULT unfinished. DESCRIPTION is the
 * KTAP description (a test's is its name) and DIRECTIVE what follows
 * " # " ("SKIP /dev/video0 absent", "XFAIL ..."), empty when there is
 * none. Results nested deeper than a case are not listed. The other
 * options change nothing in the listing.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define USAGE \
	"usage: verdict [--timed-out] [--exit-status N] [--qemu-stderr FILE]\n" \
	"               [--optional TEST]... [--hostcheck-passed | " \
	"--hostcheck-failed CMD]\n" \
	"               CONSOLE_LOG\n" \
	"   or: verdict --cases CONSOLE_LOG"
#include "usage.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* KTAP levels followed; a line indented deeper is ignored. */
#define MAX_DEPTH 16
/* A line kept for a reason is cut to this; a reason is a little longer. */
#define TEXT_MAX 512
#define REASON_MAX (TEXT_MAX + 64)
/* Diagnostics kept to show a failing case, before its own line. */
#define SHOWN_DIAGS 11


enum {
	SPLAT_PANIC = 1,	/* the kernel stopped: verdict=panic */
	SPLAT_PART = 2,		/* may belong to the report a header opened */
	SPLAT_END = 4,		/* closes the open report */
};

struct splat_pattern {
	const char *text;	/* a substring of the message */
	const char *also;	/* a second one it needs, or NULL */
	const char *kind;	/* named in the reason; NULL: not a splat */
	unsigned int flags;
};

/*
 * The first entry whose text occurs in a kernel message decides, so the
 * lines that are no splat come first and the specific before the general.
 * Each report counts once, by its header line: a counted line opens a
 * report, a "---[ end" line closes it (lockdep, hung task and stall reports
 * print none and stay open), and a SPLAT_PART line counts only when no
 * report is open. It can change the count, never the verdict.
 */
static const struct splat_pattern splat_patterns[] = {
	/*
	 * print_oops_end_marker() (kernel/panic.c) after a WARN or an oops:
	 * "---[ end trace 0000000000000000 ]---"; panic() ends with
	 * "---[ end Kernel panic - not syncing: ... ]---", no second panic.
	 */
	{ "---[ end ", NULL, NULL, SPLAT_END },
	/*
	 * show_signal() (arch/x86/kernel/traps.c): a user program's fault,
	 * "traps: t[95] general protection fault ip:4011d6 sp:7ffd...",
	 * which its test reports.
	 */
	{ "general protection fault ip:", NULL, NULL, 0 },
	/*
	 * arch/x86/kernel/cpu/bugs.c at boot: notes on the host CPU's
	 * mitigations, seen under KVM: "RETBleed: WARNING: Spectre v2
	 * mitigation leaves CPU vulnerable to RETBleed attacks, data leaks
	 * possible!". These four prefixes are all its "WARNING:" lines.
	 */
	{ "RETBleed: WARNING:", NULL, NULL, 0 },
	{ "ITS: WARNING:", NULL, NULL, 0 },
	{ "Spectre V2 : WARNING:", NULL, NULL, 0 },
	{ "Speculative Return Stack Overflow: WARNING:", NULL, NULL, 0 },
	/* panic(): "Kernel panic - not syncing: Fatal exception" */
	{ "Kernel panic", NULL, "panic", SPLAT_PANIC },
	/*
	 * kernel/watchdog.c: "watchdog: BUG: soft lockup - CPU#0 stuck for
	 * 22s! [t:95]"
	 */
	{ "watchdog: BUG: soft lockup", NULL, "soft lockup", 0 },
	/*
	 * kernel/watchdog_hld.c: "NMI watchdog: Watchdog detected hard LOCKUP
	 * on cpu 0"
	 */
	{ "Watchdog detected hard LOCKUP", NULL, "hard lockup", 0 },
	/* BUG() and BUG_ON() (lib/bug.c): "kernel BUG at mm/slub.c:435!" */
	{ "kernel BUG at", NULL, "BUG", 0 },
	/*
	 * "BUG: unable to handle page fault for address: ...", "BUG: kernel
	 * NULL pointer dereference, address: ..." (arch/x86/mm/fault.c),
	 * "BUG: sleeping function called from invalid context at ...",
	 * "BUG: scheduling while atomic: ..." (kernel/sched/core.c),
	 * "BUG: KASAN: slab-use-after-free in ..." (mm/kasan/report.c),
	 * "BUG: workqueue lockup - ...", "BUG: Bad page state in process ..."
	 */
	{ "BUG:", NULL, "BUG", 0 },
	/*
	 * __die_header() (arch/x86/kernel/dumpstack.c): "Oops: 0002 [#1]
	 * PREEMPT SMP NOPTI", inside the page fault report a "BUG:" opened.
	 */
	{ "Oops:", NULL, "Oops", SPLAT_PART },
	/*
	 * exc_general_protection() (arch/x86/kernel/traps.c): "general
	 * protection fault, probably for non-canonical address 0x...: 0000
	 * [#1] PREEMPT SMP KASAN NOPTI"
	 */
	{ "general protection fault", NULL, "general protection fault", 0 },
	/*
	 * __warn() (kernel/panic.c): "WARNING: CPU: 0 PID: 1 at
	 * drivers/x.c:12 foo+0x1/0x2"; and lockdep (kernel/locking/lockdep.c):
	 * "WARNING: possible circular locking dependency detected",
	 * "WARNING: possible recursive locking detected", "WARNING:
	 * inconsistent lock state", "WARNING: suspicious RCU usage", ...
	 */
	{ "WARNING:", NULL, "WARNING", 0 },
	/*
	 * kernel/hung_task.c: "INFO: task t:95 blocked for more than 20
	 * seconds."
	 */
	{ "INFO: task ", "blocked for more than", "hung task", 0 },
	/*
	 * lockdep's assign_lock_key(): "INFO: trying to register non-static
	 * key."
	 */
	{ "INFO: trying to register non-static key", NULL, "lockdep", 0 },
	/*
	 * lockdep before "WARNING:" replaced "INFO:" in its headers: "INFO:
	 * possible recursive locking detected"
	 */
	{ "INFO: possible recursive locking", NULL, "lockdep", 0 },
	/*
	 * lockdep, debug_show_all_locks() and debug_show_held_locks(): "INFO:
	 * lockdep is turned off.", inside a hung task or sleeping function
	 * report once an earlier report turned lockdep off.
	 */
	{ "INFO: lockdep is turned off", NULL, "lockdep", SPLAT_PART },
	/*
	 * RCU stall warnings (kernel/rcu/tree_stall.h, tree_exp.h): "rcu:
	 * INFO: rcu_sched detected stalls on CPUs/tasks:", "rcu: INFO:
	 * rcu_sched self-detected stall on CPU", "rcu: INFO: rcu_sched
	 * detected expedited stalls on CPUs/tasks: {"
	 */
	{ "detected stalls", NULL, "RCU stall", 0 },
	{ "self-detected stall", NULL, "RCU stall", 0 },
	{ "detected expedited stalls", NULL, "RCU stall", 0 },
	/* lib/ubsan.c: "UBSAN: shift-out-of-bounds in lib/x.c:12:3" */
	{ "UBSAN:", NULL, "UBSAN", 0 },
	/*
	 * kasan_non_canonical_hook() (mm/kasan/report.c): "KASAN:
	 * null-ptr-deref in range [...]", inside a general protection fault
	 * report. Its own reports start "BUG: KASAN:", matched above.
	 */
	{ "KASAN:", NULL, "KASAN", SPLAT_PART },
	/*
	 * mm/kmemleak.c: with kmemleak.verbose=1, "kmemleak: unreferenced
	 * object 0xffff888003a1b2c0 (size 32):" for each leaked object, then
	 * "kmemleak: 2 new suspected memory leaks (see
	 * /sys/kernel/debug/kmemleak)": one report.
	 */
	{ "kmemleak: unreferenced object", NULL, "memory leak", SPLAT_PART },
	{ "suspected memory leak", NULL, "memory leak", SPLAT_PART },
};

enum line_kind {
	LINE_OTHER,	/* user space, not KTAP */
	LINE_KERNEL,
	LINE_VERSION,	/* "KTAP version 1" */
	LINE_PLAN,	/* "1..N" */
	LINE_RESULT,	/* "ok N desc", "not ok N desc # DIRECTIVE reason" */
	LINE_BAIL,	/* "Bail out! reason" */
	LINE_DIAG,	/* "# text" */
};

enum result {
	RESULT_PASS,
	RESULT_FAIL,
	RESULT_SKIP,
	RESULT_XFAIL,	/* XFAIL or TODO */
	RESULT_TIMEOUT,
	NR_RESULTS
};

struct line {
	enum line_kind kind;
	unsigned int depth;	/* KTAP level: indentation / 4 */
	const char *text;	/* after the timestamp or the indentation */
	unsigned long number;	/* of a result; the count of a plan */
	enum result result;
};

struct splats {
	unsigned long count;
	unsigned long first_line;
	int open;		/* a counted report has not ended yet */
	char first[TEXT_MAX];	/* the reason for the first one */
	char panic[TEXT_MAX];	/* the reason for the first panic */
};

/* A failure below the top level, waiting for its parent's result. */
struct problem {
	unsigned long line;	/* 0: none */
	int fatal;		/* a Bail out!: even XFAIL does not excuse it */
	const char *what;
	char text[TEXT_MAX];
};

struct level {
	int planned;
	unsigned long plan, plan_line, results;
	struct problem problem;
};

/* What the output names, one line each, in log order. */
enum record_kind {
	FAILED_CASE,
	FAILED_TEST,
	SKIPPED_TEST,
	OPTIONAL_SKIP,
};

static const char *const record_keys[] = {
	[FAILED_CASE] = "failed_case",
	[FAILED_TEST] = "failed_test",
	[SKIPPED_TEST] = "skipped_test",
	[OPTIONAL_SKIP] = "optional_skip",
};

struct record {
	enum record_kind kind;
	char *test, *text;
};

struct records {
	struct record *r;
	size_t nr, alloc;
};

struct strings {
	char **s;
	size_t nr, alloc;
};

/* One line of the --cases listing. */
struct listed {
	char *test;		/* NULL for a case while its test runs */
	unsigned long test_nr;
	unsigned long case_nr;	/* 0 on the test's own line */
	enum result result;	/* NR_RESULTS: a test cut short */
	char *desc, *directive;
};

struct listing {
	struct listed *l;
	size_t nr, alloc;
};

static const char *const result_names[] = {
	[RESULT_PASS] = "pass",
	[RESULT_FAIL] = "fail",
	[RESULT_SKIP] = "skip",
	[RESULT_XFAIL] = "xfail",
	[RESULT_TIMEOUT] = "timeout",
	[NR_RESULTS] = "unfinished",
};

/* KTAP lines that show a failing case: diagnostics, then its own line. */
struct shown {
	size_t nr;
	char line[SHOWN_DIAGS + 1][TEXT_MAX];
};

/* The test running below the top level, until its top-level result. */
struct running {
	int seen;		/* a line of it was seen */
	char name[TEXT_MAX];	/* from "# Subtest: NAME", or empty */
	int none_planned;	/* its plan is 1..0 */
	unsigned long cases, skipped_cases;
	char skip[TEXT_MAX];	/* what its skip said */
	char bail[TEXT_MAX];	/* its first Bail out! */
	struct strings failed;	/* descriptions of its failing cases */
	struct shown shown;	/* its first failing case */
	struct listing listed;	/* its cases, with --cases */
};

/* Diagnostics a test prints for the host, copied to the output. */
struct diagnostic {
	const char *prefix;	/* of a nested "# ..." line */
	const char *key;	/* the output key */
};

static const struct diagnostic diagnostics[] = {
	/* tests/guest/media/v4l2-compliance.c: the tool's totals */
	{ "# v4l2-compliance: ", "v4l2_compliance" },
	/* the same test's run over /dev/media0 with streaming */
	{ "# v4l2-compliance-media: ", "v4l2_compliance_media" },
};

struct ktap {
	int started;		/* the top-level version line was seen */
	struct level level[MAX_DEPTH + 1];
	unsigned long top[NR_RESULTS], sub[NR_RESULTS];
	char last[TEXT_MAX];	/* the last KTAP line, for a hang */
	char failure[TEXT_MAX];	/* the first failure, in log order */
	struct running test;
	struct shown diags;	/* nested diagnostics since another line */
	struct records records;
	char *first_test, *first_case;	/* the first failed_case= line */
	struct shown first_shown;	/* and the lines that show it */
	unsigned long optional_skips;
	char optional_skip[TEXT_MAX];	/* the reason for the first one */
	char *diag[ARRAY_SIZE(diagnostics)];
	const char **optional;	/* --optional tests */
	size_t nr_optional;
	unsigned long lines;	/* in the log */
	int list;		/* --cases: keep every result */
	struct listing listing;
};

struct verdict {
	const char *name;
	char reason[REASON_MAX];
};

enum hostcheck {
	HOSTCHECK_NONE,
	HOSTCHECK_PASSED,
	HOSTCHECK_FAILED,
};

struct options {
	int timed_out;
	int exit_status;
	const char *qemu_stderr;
	const char **optional;	/* names of tests that may skip */
	size_t nr_optional;
	enum hostcheck hostcheck;
	const char *hostcheck_failed;	/* the command that failed */
	int cases;		/* --cases: list, do not judge */
	const char *path;
};

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p)
		die("out of memory");
	return p;
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		die("out of memory");
	return d;
}

static void strings_add(struct strings *l, const char *s)
{
	if (l->nr == l->alloc) {
		l->alloc = l->alloc ? 2 * l->alloc : 8;
		l->s = xrealloc(l->s, l->alloc * sizeof(*l->s));
	}
	l->s[l->nr++] = xstrdup(s);
}

static void strings_clear(struct strings *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		free(l->s[i]);
	l->nr = 0;
}

static void record(struct ktap *k, enum record_kind kind, const char *test,
		   const char *text)
{
	struct records *r = &k->records;

	if (r->nr == r->alloc) {
		r->alloc = r->alloc ? 2 * r->alloc : 8;
		r->r = xrealloc(r->r, r->alloc * sizeof(*r->r));
	}
	r->r[r->nr].kind = kind;
	r->r[r->nr].test = xstrdup(test);
	r->r[r->nr].text = xstrdup(text);
	r->nr++;
}

static struct listed *listing_add(struct listing *l)
{
	if (l->nr == l->alloc) {
		l->alloc = l->alloc ? 2 * l->alloc : 16;
		l->l = xrealloc(l->l, l->alloc * sizeof(*l->l));
	}
	memset(&l->l[l->nr], 0, sizeof(*l->l));
	return &l->l[l->nr++];
}

static int parse_status(const char *s)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(s, &end, 10);
	if (!isdigit((unsigned char)*s) || *end || errno || n > 255)
		usage_error("bad exit status '%s' (expected 0 to 255)", s);
	return (int)n;
}

/*
 * "--name VALUE" or "--name=VALUE" at argv[*i]: the value (moving *i past
 * it), or NULL when argv[*i] is another option.
 */
static const char *option_value(int argc, char **argv, int *i,
				const char *name)
{
	const char *a = argv[*i];
	size_t len = strlen(name);

	if (strncmp(a, name, len))
		return NULL;
	if (a[len] == '=')
		return a + len + 1;
	if (a[len])
		return NULL;
	if (++*i == argc)
		usage_error("option '%s' needs a value", name);
	return argv[*i];
}

static void add_optional(struct options *o, const char *test)
{
	if (!*test)
		usage_error("option '--optional' needs a test name");
	o->optional = xrealloc(o->optional,
			       (o->nr_optional + 1) * sizeof(*o->optional));
	o->optional[o->nr_optional++] = test;
}

static void set_hostcheck(struct options *o, enum hostcheck h,
			  const char *cmd)
{
	if (o->hostcheck != HOSTCHECK_NONE)
		usage_error("more than one host check result");
	if (h == HOSTCHECK_FAILED && !*cmd)
		usage_error("option '--hostcheck-failed' needs a command");
	o->hostcheck = h;
	o->hostcheck_failed = cmd;
}

static void parse_options(int argc, char **argv, struct options *o)
{
	int i, options = 1;
	const char *v;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!options || a[0] != '-' || !a[1]) {
			if (o->path)
				usage_error("more than one console log: '%s'",
					    a);
			o->path = a;
		} else if (!strcmp(a, "--")) {
			options = 0;
		} else if (!strcmp(a, "--timed-out")) {
			o->timed_out = 1;
		} else if ((v = option_value(argc, argv, &i,
					     "--exit-status"))) {
			o->exit_status = parse_status(v);
		} else if ((v = option_value(argc, argv, &i,
					     "--qemu-stderr"))) {
			o->qemu_stderr = v;
		} else if ((v = option_value(argc, argv, &i, "--optional"))) {
			add_optional(o, v);
		} else if (!strcmp(a, "--cases")) {
			o->cases = 1;
		} else if (!strcmp(a, "--hostcheck-passed")) {
			set_hostcheck(o, HOSTCHECK_PASSED, NULL);
		} else if ((v = option_value(argc, argv, &i,
					     "--hostcheck-failed"))) {
			set_hostcheck(o, HOSTCHECK_FAILED, v);
		} else {
			usage_error("unknown option '%s'", a);
		}
	}
	if (!o->path)
		usage_error("no console log given");
}

/* printf into a TEXT_MAX buffer unless it already holds a text. */
static void __attribute__((format(printf, 2, 3)))
set_first(char *buf, const char *fmt, ...)
{
	va_list ap;

	if (buf[0])
		return;
	va_start(ap, fmt);
	vsnprintf(buf, TEXT_MAX, fmt, ap);
	va_end(ap);
}

static const char *skip_digits(const char *s)
{
	while (isdigit((unsigned char)*s))
		s++;
	return s;
}

/* "[    1.234567] text": the text, or NULL for a user-space line. */
static const char *kernel_text(const char *s)
{
	const char *p;

	if (*s++ != '[')
		return NULL;
	while (*s == ' ')
		s++;
	p = skip_digits(s);
	if (p == s || *p++ != '.')
		return NULL;
	s = skip_digits(p);
	if (s == p || *s++ != ']')
		return NULL;
	if (*s == ' ')
		return s + 1;
	return *s ? NULL : s;
}

/* A number at s followed by the end or a space, or NULL. */
static const char *number(const char *s, unsigned long *n)
{
	const char *end = skip_digits(s);

	if (end == s || (*end && *end != ' '))
		return NULL;
	*n = strtoul(s, NULL, 10);
	return end;
}

static int keyword(const char *s, const char *word)
{
	size_t len = strlen(word);

	return !strncasecmp(s, word, len) &&
	       (!s[len] || isspace((unsigned char)s[len]));
}

/* What follows " # " in a KTAP line, or "". */
static const char *directive(const char *text)
{
	const char *d = strstr(text, " # ");

	if (!d)
		return "";
	for (d += 3; *d == ' '; d++)
		;
	return d;
}

/* The reason of a line's SKIP directive, or "". */
static const char *skip_reason(const char *text)
{
	const char *d = directive(text);

	if (!keyword(d, "SKIP"))
		return "";
	for (d += 4; isspace((unsigned char)*d); d++)
		;
	return d;
}

/* The description of a result line: after its number, up to " # ". */
static void result_desc(const char *text, char *buf, size_t size)
{
	const char *p = text + (strncmp(text, "not ok ", 7) ? 3 : 7);
	const char *end;
	size_t len;

	p = skip_digits(p);
	while (*p == ' ')
		p++;
	end = strstr(p, " # ");
	len = end ? (size_t)(end - p) : strlen(p);
	while (len && p[len - 1] == ' ')
		len--;
	if (len >= size)
		len = size - 1;
	memcpy(buf, p, len);
	buf[len] = '\0';
}

/* rest: what follows the test number, " desc # DIRECTIVE reason". */
static enum result classify_result(int ok, const char *rest)
{
	const char *d = strstr(rest, " # ");

	if (d) {
		for (d += 3; *d == ' '; d++)
			;
		if (keyword(d, "SKIP"))
			return RESULT_SKIP;
		if (keyword(d, "XFAIL") || keyword(d, "TODO"))
			return RESULT_XFAIL;
		if (keyword(d, "TIMEOUT"))
			return RESULT_TIMEOUT;
	}
	return ok ? RESULT_PASS : RESULT_FAIL;
}

static enum line_kind classify_ktap(const char *t, struct line *l)
{
	int ok = !strncmp(t, "ok ", 3);

	if (!strncmp(t, "KTAP version ", 13) || !strncmp(t, "TAP version ", 12))
		return LINE_VERSION;
	if (!strncmp(t, "1..", 3) && number(t + 3, &l->number))
		return LINE_PLAN;
	if (ok || !strncmp(t, "not ok ", 7)) {
		const char *rest = number(t + (ok ? 3 : 7), &l->number);

		if (!rest)
			return LINE_OTHER;
		l->result = classify_result(ok, rest);
		return LINE_RESULT;
	}
	if (!strncmp(t, "Bail out!", 9))
		return LINE_BAIL;
	if (t[0] == '#')
		return LINE_DIAG;
	return LINE_OTHER;
}

/* Classify one console line, without its line end. */
static void classify_line(const char *s, struct line *l)
{
	size_t indent = strspn(s, " ");

	memset(l, 0, sizeof(*l));
	l->text = kernel_text(s);
	if (l->text) {
		l->kind = LINE_KERNEL;
		return;
	}
	l->text = s + indent;
	if (indent % 4 || indent / 4 >= MAX_DEPTH)
		return;
	l->depth = indent / 4;
	l->kind = classify_ktap(l->text, l);
}

static const struct splat_pattern *match_splat(const char *text)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(splat_patterns); i++) {
		const struct splat_pattern *p = &splat_patterns[i];

		if (!strstr(text, p->text))
			continue;
		if (!p->also || strstr(text, p->also))
			return p;
	}
	return NULL;
}

/* Scan one kernel message for a splat. */
static void scan_splat(struct splats *s, const char *text,
		       unsigned long lineno)
{
	const struct splat_pattern *p = match_splat(text);

	if (!p)
		return;
	if (p->flags & SPLAT_END)
		s->open = 0;
	if (!p->kind || ((p->flags & SPLAT_PART) && s->open))
		return;
	s->open = 1;
	if (!s->count++) {
		s->first_line = lineno;
		set_first(s->first, "kernel %s at line %lu: %s", p->kind,
			  lineno, text);
	}
	if (p->flags & SPLAT_PANIC)
		set_first(s->panic, "kernel %s at line %lu: %s", p->kind,
			  lineno, text);
}

static void note_problem(struct level *lv, unsigned long lineno,
			 const char *what, int fatal, const char *text)
{
	struct problem *p = &lv->problem;

	if (p->line)
		return;
	p->line = lineno;
	p->what = what;
	p->fatal = fatal;
	snprintf(p->text, sizeof(p->text), "%s", text);
}

/* The KTAP document at a nested level ends: check its plan. */
static void end_document(struct level *lv)
{
	if (lv->planned && lv->results != lv->plan) {
		char text[64];

		snprintf(text, sizeof(text), "1..%lu with %lu results",
			 lv->plan, lv->results);
		note_problem(lv, lv->plan_line, "unmet subtest plan", 0, text);
	}
	lv->planned = 0;
	lv->results = 0;
}

/* Hand level d's problem to level d - 1, with no result line to judge it. */
static void pass_up(struct ktap *k, unsigned int d)
{
	struct problem *p = &k->level[d].problem;

	if (p->line && !k->level[d - 1].problem.line)
		k->level[d - 1].problem = *p;
	memset(p, 0, sizeof(*p));
}

/* End the documents deeper than depth, passing their problems up. */
static void unwind(struct ktap *k, unsigned int depth)
{
	unsigned int d;

	for (d = MAX_DEPTH; d > depth; d--) {
		end_document(&k->level[d]);
		if (d > depth + 1)
			pass_up(k, d);
	}
}

static void ktap_version(struct ktap *k, const struct line *l,
			 unsigned long lineno)
{
	if (l->depth) {
		unwind(k, l->depth);
		pass_up(k, l->depth + 1);
		end_document(&k->level[l->depth]);
	} else if (k->started) {
		set_first(k->failure, "KTAP restarted at line %lu: %s", lineno,
			  l->text);
	}
	k->started = 1;
}

static void ktap_plan(struct ktap *k, const struct line *l,
		      unsigned long lineno)
{
	struct level *lv = &k->level[l->depth];

	if (!lv->planned) {
		lv->planned = 1;
		lv->plan = l->number;
		lv->plan_line = lineno;
	} else if (l->depth) {
		note_problem(lv, lineno, "second subtest plan", 0, l->text);
	} else {
		set_first(k->failure, "second top-level plan at line %lu: %s",
			  lineno, l->text);
	}
}

static void ktap_bail(struct ktap *k, const struct line *l,
		      unsigned long lineno)
{
	if (l->depth)
		note_problem(&k->level[l->depth], lineno, "subtest bail out", 1,
			     l->text);
	else
		set_first(k->failure, "bail out at line %lu: %s", lineno,
			  l->text);
}

/*
 * A result judges the subtests just before it: a failing result explains
 * them, XFAIL or TODO excuses them (a Bail out! excepted), and ok or SKIP
 * contradicts them, which fails the top level.
 */
static void judge(struct ktap *k, const struct line *l, unsigned long lineno)
{
	struct problem *child = &k->level[l->depth + 1].problem;
	struct level *lv = &k->level[l->depth];
	int failing = l->result == RESULT_FAIL || l->result == RESULT_TIMEOUT;
	int excused = l->result == RESULT_XFAIL && !child->fatal;

	if (failing && l->depth)
		note_problem(lv, lineno, "failed subtest", 0, l->text);
	else if (failing)
		set_first(k->failure, "%s", l->text);
	else if (child->line && !excused && l->depth)
		note_problem(lv, child->line, child->what, child->fatal,
			     child->text);
	else if (child->line && !excused)
		set_first(k->failure, "'%s' contradicts %s at line %lu: %s",
			  l->text, child->what, child->line, child->text);
	memset(child, 0, sizeof(*child));
}

static int is_failing(enum result r)
{
	return r == RESULT_FAIL || r == RESULT_TIMEOUT;
}

/*
 * The nested diagnostics since the last other KTAP line, the first
 * SHOWN_DIAGS of them: what a test printed before its next case.
 */
static void keep_diag(struct ktap *k, const struct line *l)
{
	struct shown *d = &k->diags;

	if (l->kind != LINE_DIAG || !strncmp(l->text, "# Subtest: ", 11))
		d->nr = 0;
	else if (l->depth && d->nr < SHOWN_DIAGS)
		snprintf(d->line[d->nr++], TEXT_MAX, "%s", l->text);
}

/* The running test's first failing case: the lines that show it. */
static void show_case(struct ktap *k, const struct line *l)
{
	struct shown *s = &k->test.shown;

	*s = k->diags;
	snprintf(s->line[s->nr++], TEXT_MAX, "%s", l->text);
}

/* Note what a line below the top level tells about the running test. */
static void follow_test(struct ktap *k, const struct line *l)
{
	struct running *t = &k->test;
	char desc[TEXT_MAX];
	size_t i;

	t->seen = 1;
	switch (l->kind) {
	case LINE_PLAN:
		if (l->depth == 1 && !l->number) {
			t->none_planned = 1;
			set_first(t->skip, "%s", skip_reason(l->text));
		}
		break;
	case LINE_RESULT:
		if (l->depth != 1)
			break;
		t->cases++;
		if (k->list) {
			struct listed *c = listing_add(&t->listed);

			c->case_nr = l->number;
			c->result = l->result;
			result_desc(l->text, desc, sizeof(desc));
			c->desc = xstrdup(desc);
			c->directive = xstrdup(directive(l->text));
		}
		if (l->result == RESULT_SKIP) {
			t->skipped_cases++;
			set_first(t->skip, "%s", skip_reason(l->text));
		} else if (is_failing(l->result)) {
			if (!t->failed.nr)
				show_case(k, l);
			result_desc(l->text, desc, sizeof(desc));
			strings_add(&t->failed, desc);
		}
		break;
	case LINE_BAIL:
		set_first(t->bail, "%s", l->text);
		break;
	case LINE_DIAG:
		if (l->depth == 1 && !strncmp(l->text, "# Subtest: ", 11))
			snprintf(t->name, sizeof(t->name), "%s", l->text + 11);
		for (i = 0; i < ARRAY_SIZE(diagnostics); i++) {
			size_t len = strlen(diagnostics[i].prefix);

			if (!k->diag[i] &&
			    !strncmp(l->text, diagnostics[i].prefix, len))
				k->diag[i] = xstrdup(l->text + len);
		}
		break;
	default:
		break;
	}
}

static int is_optional(const struct ktap *k, const char *test)
{
	size_t i;

	for (i = 0; i < k->nr_optional; i++)
		if (!strcmp(k->optional[i], test))
			return 1;
	return 0;
}

/* A test skipped: allowed if optional, else a failure. */
static void test_skipped(struct ktap *k, const char *test, const char *what)
{
	if (is_optional(k, test)) {
		record(k, OPTIONAL_SKIP, test, what);
		if (!k->optional_skips++)
			set_first(k->optional_skip,
				  "optional test '%s' skipped: %s", test, what);
		return;
	}
	record(k, SKIPPED_TEST, test, what);
	set_first(k->failure, "test '%s' skipped: %s", test, what);
}

/* A SKIP result, a 1..0 plan or every case a SKIP. */
static int is_skipped(const struct running *t, const struct line *l)
{
	return l->result == RESULT_SKIP || t->none_planned ||
	       (t->cases && t->skipped_cases == t->cases);
}

static void reset_test(struct running *t)
{
	struct strings failed = t->failed;
	struct listing listed = t->listed;

	strings_clear(&failed);
	listed.nr = 0;
	memset(t, 0, sizeof(*t));
	t->failed = failed;
	t->listed = listed;
}

/* --cases: the test's own line, then its cases, now that it has a name. */
static void list_test(struct ktap *k, const char *name, unsigned long nr,
		      enum result result, const char *dir)
{
	struct listing *cases = &k->test.listed;
	struct listed *e = listing_add(&k->listing);
	size_t i;

	e->test = xstrdup(name);
	e->test_nr = nr;
	e->result = result;
	e->desc = xstrdup(name);
	e->directive = xstrdup(dir);
	for (i = 0; i < cases->nr; i++) {
		e = listing_add(&k->listing);
		*e = cases->l[i];
		e->test = xstrdup(name);
		e->test_nr = nr;
	}
	cases->nr = 0;
}

/* The name of a test the log cut short. */
static const char *unfinished_name(const struct ktap *k, char *buf,
				   size_t size)
{
	if (k->test.name[0])
		return k->test.name;
	snprintf(buf, size, "(unfinished test %lu)", k->level[0].results + 1);
	return buf;
}

/* Name the failing cases of the test that ended; keep the first one shown. */
static void record_cases(struct ktap *k, const char *name)
{
	struct running *t = &k->test;
	size_t i;

	if (t->failed.nr && !k->first_test) {
		k->first_test = xstrdup(name);
		k->first_case = xstrdup(t->failed.s[0]);
		k->first_shown = t->shown;
	}
	for (i = 0; i < t->failed.nr; i++)
		record(k, FAILED_CASE, name, t->failed.s[i]);
}

/*
 * Name what the test that just ended failed in: its failing cases (unless
 * XFAIL excuses them), else itself, with its Bail out! or its directive;
 * or what it said when it skipped.
 */
static void finish_test(struct ktap *k, const struct line *l)
{
	struct running *t = &k->test;
	char name[TEXT_MAX];
	const char *what;

	result_desc(l->text, name, sizeof(name));
	if (k->list)
		list_test(k, name, l->number, l->result, directive(l->text));
	if (l->result != RESULT_XFAIL)
		record_cases(k, name);
	if (!t->failed.nr && (is_failing(l->result) || t->bail[0])) {
		what = t->bail[0] ? t->bail : directive(l->text);
		record(k, FAILED_TEST, name, *what ? what : "not ok");
	} else if (!t->failed.nr && is_skipped(t, l)) {
		what = t->skip[0] ? t->skip : skip_reason(l->text);
		test_skipped(k, name, *what ? what : "no reason given");
	}
	reset_test(t);
}

/* The log ended inside a test: name what failed so far. */
static void finish_unfinished(struct ktap *k)
{
	struct running *t = &k->test;
	char buf[64];
	const char *name;

	if (!t->seen)
		return;
	name = unfinished_name(k, buf, sizeof(buf));
	if (k->list)
		list_test(k, name, k->level[0].results + 1, NR_RESULTS, "");
	if (!t->failed.nr && !t->bail[0])
		return;
	record_cases(k, name);
	if (!t->failed.nr)
		record(k, FAILED_TEST, name, t->bail);
	reset_test(t);
}

static void ktap_result(struct ktap *k, const struct line *l,
			unsigned long lineno)
{
	struct level *lv = &k->level[l->depth];

	unwind(k, l->depth);
	judge(k, l, lineno);
	lv->results++;
	if (l->depth) {
		k->sub[l->result]++;
		return;
	}
	k->top[l->result]++;
	finish_test(k, l);
	if (l->number != lv->results)
		set_first(k->failure,
			  "result out of order at line %lu (expected %lu): %s",
			  lineno, lv->results, l->text);
}

/* Follow the KTAP structure, one user-space line at a time. */
static void ktap_line(struct ktap *k, const struct line *l,
		      unsigned long lineno)
{
	if (l->kind == LINE_OTHER ||
	    (!k->started && (l->depth || l->kind != LINE_VERSION)))
		return;
	snprintf(k->last, sizeof(k->last), "%s", l->text);
	if (l->depth)
		follow_test(k, l);
	keep_diag(k, l);
	switch (l->kind) {
	case LINE_VERSION:
		ktap_version(k, l, lineno);
		break;
	case LINE_PLAN:
		ktap_plan(k, l, lineno);
		break;
	case LINE_RESULT:
		ktap_result(k, l, lineno);
		break;
	case LINE_BAIL:
		ktap_bail(k, l, lineno);
		break;
	default:
		break;
	}
}

/* The log ended: what is still open is a failure. */
static void ktap_end(struct ktap *k)
{
	const struct level *top = &k->level[0];
	const struct problem *p = &k->level[1].problem;
	unsigned int d;

	if (!k->started) {
		set_first(k->failure, "no top-level KTAP version line");
		return;
	}
	finish_unfinished(k);
	/* An unfinished test: its plan cannot be judged, its failures can. */
	for (d = MAX_DEPTH; d > 1; d--)
		pass_up(k, d);
	if (p->line)
		set_first(k->failure, "%s at line %lu: %s", p->what, p->line,
			  p->text);
	if (!top->planned)
		set_first(k->failure, "no top-level KTAP plan");
	else if (top->results < top->plan)
		set_first(k->failure,
			  "KTAP ends after %lu of %lu planned results",
			  top->results, top->plan);
	else if (top->results > top->plan)
		set_first(k->failure, "%lu results for plan 1..%lu",
			  top->results, top->plan);
}

/* Drop NUL bytes (line noise on a serial port) and the line end. */
static void clean_line(char *s, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++)
		if (s[i])
			s[n++] = s[i];
	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		n--;
	s[n] = '\0';
}

/*
 * The kernel writes its console lines straight to the UART while
 * user-space output waits in the tty layer, so a kernel message can start
 * in the middle of a user-space line. Returns where, or NULL.
 */
static char *embedded_kernel(char *s)
{
	char *p;

	for (p = *s ? strchr(s + 1, '[') : NULL; p; p = strchr(p + 1, '['))
		if (kernel_text(p))
			return p;
	return NULL;
}

static void read_log(FILE *f, const char *path, struct splats *s,
		     struct ktap *k)
{
	char *buf = NULL, *mid;
	size_t cap = 0;
	ssize_t len;
	unsigned long lineno = 0;
	struct line l;

	while ((len = getline(&buf, &cap, f)) >= 0) {
		lineno++;
		clean_line(buf, len);
		classify_line(buf, &l);
		if (l.kind == LINE_KERNEL) {
			scan_splat(s, l.text, lineno);
			continue;
		}
		mid = embedded_kernel(buf);
		if (mid) {
			scan_splat(s, kernel_text(mid), lineno);
			*mid = '\0';
			classify_line(buf, &l);
		}
		ktap_line(k, &l, lineno);
	}
	if (ferror(f))
		die("cannot read '%s': %s", path, strerror(errno));
	free(buf);
	k->lines = lineno;
	ktap_end(k);
}

static void __attribute__((format(printf, 3, 4)))
say(struct verdict *v, const char *name, const char *fmt, ...)
{
	va_list ap;

	v->name = name;
	va_start(ap, fmt);
	vsnprintf(v->reason, sizeof(v->reason), fmt, ap);
	va_end(ap);
}

/* The first line of QEMU's stderr, for a boot QEMU never ran. */
static void qemu_error(const struct options *o, char *buf, size_t size)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *f;

	buf[0] = '\0';
	if (!o->qemu_stderr)
		return;
	f = fopen(o->qemu_stderr, "r");
	if (!f)
		die("cannot open '%s': %s", o->qemu_stderr, strerror(errno));
	len = getline(&line, &cap, f);
	if (ferror(f))
		die("cannot read '%s': %s", o->qemu_stderr, strerror(errno));
	if (len > 0) {
		clean_line(line, len);
		snprintf(buf, size, ": %s", line);
	}
	free(line);
	fclose(f);
}

/* The first that applies, as listed at the top of this file. */
static void decide(const struct options *o, const struct splats *s,
		   const struct ktap *k, struct verdict *v)
{
	const unsigned long *top = k->top;
	unsigned long results = k->level[0].results;
	char err[TEXT_MAX];

	if (!k->lines && !o->timed_out && o->exit_status) {
		qemu_error(o, err, sizeof(err));
		say(v, "error", "qemu exited with status %d%s", o->exit_status,
		    err);
	} else if (s->panic[0])
		say(v, "panic", "%s", s->panic);
	else if (o->timed_out && k->last[0])
		say(v, "hang", "timed out after KTAP line '%s'", k->last);
	else if (o->timed_out)
		say(v, "hang", "timed out before any KTAP output");
	else if (s->count)
		say(v, "fail", "%s", s->first);
	else if (o->exit_status)
		say(v, "fail", "qemu exited with status %d", o->exit_status);
	else if (k->failure[0])
		say(v, "fail", "%s", k->failure);
	else if (!results)
		say(v, "fail", "no tests planned");
	else if (o->hostcheck == HOSTCHECK_FAILED)
		say(v, "fail", "host check '%s' failed, see hostcheck.log",
		    o->hostcheck_failed);
	else if (k->optional_skips > 1)
		say(v, "skip", "%s (and %lu more)", k->optional_skip,
		    k->optional_skips - 1);
	else if (k->optional_skips)
		say(v, "skip", "%s", k->optional_skip);
	else if (top[RESULT_PASS] == results)
		say(v, "pass", "all tests passed");
	else
		say(v, "pass",
		    "no test failed (%lu passed, %lu skipped, %lu xfail)",
		    top[RESULT_PASS], top[RESULT_SKIP], top[RESULT_XFAIL]);
}

static const char *ktap_state(const struct ktap *k)
{
	const struct level *top = &k->level[0];

	if (!k->started)
		return "absent";
	if (!top->planned || top->results < top->plan)
		return "incomplete";
	return "complete";
}

/* One line, whatever the log held: tabs become spaces, controls '?'. */
static void print_text(const char *s)
{
	for (; *s; s++) {
		if (*s == '\t')
			putchar(' ');
		else if (iscntrl((unsigned char)*s))
			putchar('?');
		else
			putchar(*s);
	}
}

/* The lines after first_splat_line, only when there is something to say. */
static void print_extra(const struct options *o, const struct ktap *k)
{
	size_t i;

	if (o->hostcheck == HOSTCHECK_PASSED)
		puts("hostcheck=pass");
	if (o->hostcheck == HOSTCHECK_FAILED) {
		fputs("hostcheck='", stdout);
		print_text(o->hostcheck_failed);
		puts("' failed");
	}
	for (i = 0; i < ARRAY_SIZE(diagnostics); i++) {
		if (!k->diag[i])
			continue;
		printf("%s=", diagnostics[i].key);
		print_text(k->diag[i]);
		putchar('\n');
	}
	for (i = 0; i < k->records.nr; i++) {
		const struct record *r = &k->records.r[i];

		printf("%s=", record_keys[r->kind]);
		print_text(r->test);
		putchar('\t');
		print_text(r->text);
		putchar('\n');
	}
	if (!k->first_test)
		return;
	fputs("first_failed_case=", stdout);
	print_text(k->first_test);
	putchar('\t');
	print_text(k->first_case);
	putchar('\n');
	for (i = 0; i < k->first_shown.nr; i++) {
		fputs("first_failed_case_ktap=", stdout);
		print_text(k->first_shown.line[i]);
		putchar('\n');
	}
}

/* --cases: the listing described at the top of this file. */
static void print_listing(const struct ktap *k)
{
	size_t i;

	for (i = 0; i < k->listing.nr; i++) {
		const struct listed *e = &k->listing.l[i];

		print_text(e->test);
		printf("\t%lu", e->test_nr);
		if (e->case_nr)
			printf(".%lu", e->case_nr);
		printf("\t%s\t", result_names[e->result]);
		print_text(e->desc);
		putchar('\t');
		print_text(e->directive);
		putchar('\n');
	}
}

static void print_verdict(const struct options *o, const struct verdict *v,
			  const struct splats *s, const struct ktap *k)
{
	const unsigned long *top = k->top, *sub = k->sub;
	const struct level *lv = &k->level[0];

	printf("verdict=%s\n", v->name);
	printf("ktap=%s\n", ktap_state(k));
	printf("tests=%lu\n", lv->planned ? lv->plan : 0);
	printf("passed=%lu\n", top[RESULT_PASS]);
	printf("failed=%lu\n", top[RESULT_FAIL]);
	printf("skipped=%lu\n", top[RESULT_SKIP]);
	printf("xfail=%lu\n", top[RESULT_XFAIL]);
	printf("timeout=%lu\n", top[RESULT_TIMEOUT]);
	printf("subtests_passed=%lu\n", sub[RESULT_PASS] + sub[RESULT_XFAIL]);
	printf("subtests_failed=%lu\n", sub[RESULT_FAIL] + sub[RESULT_TIMEOUT]);
	printf("subtests_skipped=%lu\n", sub[RESULT_SKIP]);
	printf("splats=%lu\n", s->count);
	fputs("reason=", stdout);
	print_text(v->reason);
	putchar('\n');
	printf("first_splat_line=%lu\n", s->first_line);
	print_extra(o, k);
}

int main(int argc, char **argv)
{
	static struct splats splats;
	static struct ktap ktap;
	static struct options o;
	static struct verdict verdict;
	FILE *f;

	/* 2 on a usage or I/O error: 0 and 1 are the verdict's own. */
	die_status = 2;
	parse_options(argc, argv, &o);
	ktap.optional = o.optional;
	ktap.nr_optional = o.nr_optional;
	ktap.list = o.cases;
	f = fopen(o.path, "r");
	if (!f)
		die("cannot open '%s': %s", o.path, strerror(errno));
	read_log(f, o.path, &splats, &ktap);
	fclose(f);
	if (o.cases) {
		print_listing(&ktap);
	} else {
		decide(&o, &splats, &ktap, &verdict);
		print_verdict(&o, &verdict, &splats, &ktap);
	}
	if (fflush(stdout) || ferror(stdout))
		die("cannot write the verdict: %s", strerror(errno));
	return 0;
}
