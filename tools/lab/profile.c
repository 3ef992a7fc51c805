// SPDX-License-Identifier: GPL-2.0
/*
 * profile: read a qemu-devices/<name>.profile and print one key's values.
 *
 *   profile FILE          check the whole file, print nothing
 *   profile FILE KEY      check it, then print every value of KEY, one a
 *                         line ("tests" is split into one test a line)
 *
 * The format is flat data: "key=value" lines, "#" comments, blank lines.
 * Every error names file and line, so a broken profile is found at once and
 * never half-used by the runner. An optional= line must name one of the
 * profile's tests= and give the reason its skip is allowed.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define USAGE "usage: profile FILE [KEY]"
#include "usage.h"

struct key {
	const char *name;
	int repeatable;
	int required;
	int (*valid)(const char *value);
	const char *expect;
};

static int valid_any(const char *v)
{
	return *v != '\0';
}

static int valid_timeout(const char *v)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(v, &end, 10);
	return !errno && *end == '\0' && end != v && n >= 1 && n <= 3600;
}

static int valid_kconfig(const char *v)
{
	const char *p;

	if (strncmp(v, "CONFIG_", 7))
		return 0;
	for (p = v + 7; isupper((unsigned char)*p) || isdigit((unsigned char)*p) ||
	     *p == '_'; p++)
		;
	return p > v + 7 && *p == '=' && p[1] != '\0';
}

static int valid_name_char(int c)
{
	return isalnum(c) || c == '.' || c == '_' || c == '-';
}

/*
 * "NAME SIZE-MIB [MAKER ARG...]": an image the runner creates in the run
 * directory, a test pattern (tools/lab/mkpattern) unless a MAKER, a program
 * under tools/, is named; a maker may size the image itself (SIZE-MIB 0).
 */
static int valid_image(const char *v)
{
	const char *p = v, *maker;
	char *end;
	long mib;

	while (valid_name_char((unsigned char)*p))
		p++;
	if (p == v || *p != ' ' || v[0] == '.')
		return 0;
	errno = 0;
	mib = strtol(p + 1, &end, 10);
	if (errno || end == p + 1 || mib < 0 || mib > 4096)
		return 0;
	if (*end == '\0')
		return mib >= 1;
	if (*end != ' ')
		return 0;
	maker = end + 1;
	for (p = maker; valid_name_char((unsigned char)*p); p++)
		;
	return p != maker && maker[0] != '.' && (*p == '\0' || *p == ' ');
}

/* "PROGRAM ARG...": a program under tools/ run in the run directory after the boot. */
static int valid_hostcheck(const char *v)
{
	const char *p = v;

	while (valid_name_char((unsigned char)*p))
		p++;
	return p != v && v[0] != '.' && (*p == '\0' || *p == ' ');
}

/* "TAG MONITOR-COMMAND": sent when a guest test asks for TAG. */
static int valid_inject(const char *v)
{
	const char *p = v;

	while (valid_name_char((unsigned char)*p))
		p++;
	return p != v && *p == ' ' && p[1] != '\0' && p[1] != ' ';
}

/* An absolute path of a host program the guest runs from the host's /usr, shared read-only. */
static int valid_tool(const char *v)
{
	const char *p;

	if (v[0] != '/')
		return 0;
	for (p = v; *p; p++)
		if (!valid_name_char((unsigned char)*p) && *p != '/')
			return 0;
	return 1;
}

/* One AREA/NAME word at v; its length, or 0. */
static size_t test_word(const char *v)
{
	const char *p = v;
	int slash = 0;

	for (; *p && *p != ' '; p++) {
		if (*p == '/' && (p == v || p[-1] == '/'))
			return 0;
		if (*p == '/')
			slash++;
		else if (!valid_name_char((unsigned char)*p))
			return 0;
	}
	if (slash != 1 || p == v || p[-1] == '/')
		return 0;
	return p - v;
}

/* "TEST REASON": a test of tests= whose skip is allowed, and why. */
static int valid_optional(const char *v)
{
	size_t len = test_word(v);

	return len && v[len] == ' ' && v[len + 1] != '\0' &&
	       v[len + 1] != ' ';
}

/*
 * "NAME [PARAM=VALUE...]": a module of the lab kernel that the guest's init
 * loads with modprobe before the tests; it and what it depends on are packed
 * into this profile's initramfs.
 */
static int valid_module(const char *v)
{
	const char *p = v;

	/* Kbuild names a module after its object: mISDN_core has capitals. */
	while (isalnum((unsigned char)*p) ||
	       *p == '_' || *p == '-')
		p++;
	if (p == v || (*p != '\0' && *p != ' '))
		return 0;
	for (; *p; p++)
		if (!isgraph((unsigned char)*p) && *p != ' ')
			return 0;
	return 1;
}

/* Space separated AREA/NAME words, each a tests/guest/AREA/NAME.c program. */
static int valid_tests(const char *v)
{
	int slash = 0, len = 0;

	for (; ; v++) {
		if (*v == ' ' || *v == '\0') {
			if (len && slash != 1)
				return 0;
			if (*v == '\0')
				return 1;
			slash = len = 0;
		} else if (*v == '/') {
			if (!len)
				return 0;
			slash++;
		} else if (!valid_name_char((unsigned char)*v)) {
			return 0;
		} else {
			len++;
		}
	}
}

/*
 * The firmware QEMU boots the kernel with. Without the key the lab boots
 * vmlinux straight through its PVH entry (no firmware at all, the fastest);
 * "ovmf" boots the bzImage through Debian's OVMF (package ovmf), the UEFI
 * firmware, for the drivers of EFI runtime services and variables.
 */
static int valid_firmware(const char *v)
{
	return !strcmp(v, "ovmf");
}

/*
 * The second guest of a two-guest boot: the name of a profile under
 * qemu-devices/peers/ (lower-case letters, digits and "-"), booted on the
 * same kernel beside this one, the two joined by a QEMU datagram netdev.
 */
static int valid_peer(const char *v)
{
	const char *p;

	for (p = v; islower((unsigned char)*p) || isdigit((unsigned char)*p) ||
	     *p == '-'; p++)
		;
	return p != v && *p == '\0';
}

static const struct key keys[] = {
	{ "description", 0, 1, valid_any, "text" },
	{ "qemu", 1, 0, valid_any, "QEMU arguments" },
	{ "kconfig", 1, 0, valid_kconfig, "CONFIG_NAME=VALUE" },
	{ "cmdline", 1, 0, valid_any, "kernel parameter" },
	{ "tests", 0, 1, valid_tests, "AREA/NAME [AREA/NAME ...]" },
	{ "timeout", 0, 1, valid_timeout, "seconds, 1 to 3600" },
	{ "image", 1, 0, valid_image, "NAME SIZE-MIB [MAKER ARG...]" },
	{ "hostcheck", 1, 0, valid_hostcheck, "PROGRAM ARG..." },
	{ "inject", 1, 0, valid_inject, "TAG MONITOR-COMMAND" },
	{ "tool", 1, 0, valid_tool, "absolute path of a host program" },
	{ "optional", 1, 0, valid_optional, "TEST REASON" },
	{ "module", 1, 0, valid_module, "MODULE [PARAM=VALUE...]" },
	{ "firmware", 0, 0, valid_firmware, "ovmf" },
	{ "peer", 0, 0, valid_peer, "PROFILE of qemu-devices/peers" },
	/*
	 * Why the boot's tests need a core to themselves (a calibrated race,
	 * an injected key held for a time): the matrix boots such profiles
	 * first, one guest per core, and the rest more guests than cores.
	 */
	{ "timing", 0, 0, valid_any, "why the tests need a core of their own" },
};

#define NKEYS (sizeof(keys) / sizeof(keys[0]))

static const char *file;

static const struct key *find_key(const char *name)
{
	size_t i;

	for (i = 0; i < NKEYS; i++)
		if (!strcmp(keys[i].name, name))
			return &keys[i];
	return NULL;
}

static void print_value(const char *key, const char *value)
{
	const char *p;

	if (strcmp(key, "tests")) {
		puts(value);
		return;
	}
	for (p = value; *p; p++) {
		if (*p != ' ')
			putchar(*p);
		else if (p[1] != ' ' && p[1] != '\0' && p != value)
			putchar('\n');
	}
	putchar('\n');
}

/* The optional= lines, checked against tests= once the file is read. */
struct optional {
	char *test;
	unsigned int lineno;
};

static struct optional *optionals;
static size_t nr_optionals;

static void add_optional(const char *value, unsigned int lineno)
{
	size_t len = strcspn(value, " ");
	struct optional *o;

	optionals = realloc(optionals, (nr_optionals + 1) * sizeof(*o));
	if (!optionals)
		die("out of memory");
	o = &optionals[nr_optionals++];
	o->test = strndup(value, len);
	if (!o->test)
		die("out of memory");
	o->lineno = lineno;
}

/* Is test one of the space separated words of tests? */
static int in_tests(const char *tests, const char *test)
{
	size_t len = strlen(test);
	const char *p;

	for (p = tests; *p; p += strcspn(p, " ")) {
		p += strspn(p, " ");
		if (!strncmp(p, test, len) && (p[len] == ' ' || !p[len]))
			return 1;
	}
	return 0;
}

static void check_optionals(const char *tests)
{
	size_t i, j;

	for (i = 0; i < nr_optionals; i++) {
		const struct optional *o = &optionals[i];

		if (!in_tests(tests ? tests : "", o->test))
			die("cannot parse '%s' line %u: optional test '%s' is "
			    "not in tests=", file, o->lineno, o->test);
		for (j = 0; j < i; j++)
			if (!strcmp(optionals[j].test, o->test))
				die("cannot parse '%s' line %u: optional test "
				    "'%s' given twice", file, o->lineno,
				    o->test);
	}
}

/* One pass over the file: check every line, print KEY's values if asked. */
static void scan(FILE *f, const char *want)
{
	unsigned int seen[NKEYS] = { 0 };
	char *line = NULL, *tests = NULL;
	size_t cap = 0, i;
	ssize_t len;
	unsigned int lineno = 0;

	while ((len = getline(&line, &cap, f)) >= 0) {
		const struct key *k;
		char *eq, *value;

		lineno++;
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (len == 0 || line[0] == '#')
			continue;
		eq = strchr(line, '=');
		if (!eq)
			die("cannot parse '%s' line %u: expected key=value", file,
			    lineno);
		*eq = '\0';
		value = eq + 1;
		k = find_key(line);
		if (!k)
			die("cannot parse '%s' line %u: unknown key '%s'", file,
			    lineno, line);
		if (seen[k - keys]++ && !k->repeatable)
			die("cannot parse '%s' line %u: key '%s' given twice", file,
			    lineno, k->name);
		if (!k->valid(value))
			die("cannot parse '%s' line %u: bad %s '%s' (expected %s)",
			    file, lineno, k->name, value, k->expect);
		if (!want && !strcmp(k->name, "tests")) {
			tests = strdup(value);
			if (!tests)
				die("out of memory");
		}
		if (!want && !strcmp(k->name, "optional"))
			add_optional(value, lineno);
		if (want && !strcmp(want, k->name))
			print_value(k->name, value);
	}
	if (ferror(f))
		die("cannot read '%s': %s", file, strerror(errno));
	free(line);
	for (i = 0; i < NKEYS; i++)
		if (keys[i].required && !seen[i])
			die("cannot parse '%s': missing key '%s'", file,
			    keys[i].name);
	if (!want)
		check_optionals(tests);
	free(tests);
}

int main(int argc, char **argv)
{
	const char *want = argc == 3 ? argv[2] : NULL;
	FILE *f;

	if (argc != 2 && argc != 3)
		die("usage: profile FILE [KEY]");
	file = argv[1];
	if (want && !find_key(want))
		die("unknown profile key '%s'", want);
	f = fopen(file, "r");
	if (!f)
		die("cannot open '%s': %s", file, strerror(errno));
	/* Check the whole file before printing anything from it. */
	scan(f, NULL);
	if (want) {
		rewind(f);
		scan(f, want);
	}
	fclose(f);
	return 0;
}
