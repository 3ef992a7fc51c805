// SPDX-License-Identifier: GPL-2.0
/*
 * kcidb-json: write a KCIDB I/O document from a stream of flat records, so
 * that the shell that gathers the facts never writes JSON syntax itself
 * (scripts/kcidb/kcidb.sh; docs/kcidb.md).
 *
 *   kcidb-json < RECORDS > DOCUMENT
 *
 * RECORDS, one a line, fields separated by a tab (the value is the rest of
 * the line, tabs and all):
 *
 *   version<TAB>MAJOR<TAB>MINOR   first, once: the schema version
 *   checkout | build | test       starts the next object of that list; the
 *                                 lists come in this order, each at most
 *                                 once
 *   s<TAB>KEY<TAB>TEXT            a string field of the open object
 *   n<TAB>KEY<TAB>NUMBER          a number (JSON's grammar)
 *   b<TAB>KEY<TAB>true|false      a boolean
 *
 * A KEY is a name ([A-Za-z0-9_]), or two joined by a dot: "misc.change"
 * is the field "change" of the object's "misc" object. A key may not
 * repeat in an object. Blank lines are ignored.
 *
 * Strings are escaped here and only here: quotes, backslashes and control
 * characters; a byte that is not part of valid UTF-8 becomes U+FFFD, so
 * the document is valid JSON whatever a guest printed. A NUL byte is bad
 * input (KCIDB forbids it in strings, and no shell value holds one). The output is the version object and the
 * checkouts, builds and tests lists, one object a line. Bad input stops
 * with "error: line N: ..." and exit status 1; nothing is a document then.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define USAGE "usage: kcidb-json < RECORDS > DOCUMENT"
#include "usage.h"

#define MAX_FIELDS 64

struct field {
	char type;	/* 's', 'n' or 'b' */
	char *key;	/* "name" or "group.name" */
	char *value;
	bool done;	/* written (a group writes its fields at once) */
};

static const char *const lists[] = { "checkout", "build", "test" };
static const char *const list_keys[] = { "checkouts", "builds", "tests" };

static struct field fields[MAX_FIELDS];
static size_t n_fields;
static unsigned long lineno;

/* u8_len: bytes of the valid UTF-8 sequence at s, 0 when it is invalid. */
static size_t u8_len(const unsigned char *s)
{
	unsigned long cp;
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;	/* also stops at the terminating NUL */
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, UTF-16 surrogates, beyond U+10FFFF */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

/* put_string: the len bytes at s as a JSON string literal. */
static void put_string(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	const unsigned char *end = p + len;
	size_t n;

	putchar('"');
	while (p < end) {
		if (*p == '"' || *p == '\\') {
			printf("\\%c", *p++);
		} else if (*p == '\n') {
			fputs("\\n", stdout), p++;
		} else if (*p == '\t') {
			fputs("\\t", stdout), p++;
		} else if (*p < 0x20) {
			printf("\\u%04x", *p++);
		} else if ((n = u8_len(p)) == 0 || p + n > end) {
			fputs("\\ufffd", stdout), p++;
		} else {
			fwrite(p, 1, n, stdout);
			p += n;
		}
	}
	putchar('"');
}

/* is_number: s follows JSON's number grammar exactly. */
static bool is_number(const char *s)
{
	if (*s == '-')
		s++;
	if (*s == '0')
		s++;
	else if (*s >= '1' && *s <= '9')
		while (*s >= '0' && *s <= '9')
			s++;
	else
		return false;
	if (*s == '.') {
		if (!(*++s >= '0' && *s <= '9'))
			return false;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	if (*s == 'e' || *s == 'E') {
		if (*++s == '+' || *s == '-')
			s++;
		if (!(*s >= '0' && *s <= '9'))
			return false;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	return *s == '\0';
}

/* check_key: a name, or two joined by one dot; dies otherwise. */
static void check_key(const char *key)
{
	const char *p;
	int dots = 0;

	for (p = key; *p; p++) {
		if (*p == '.') {
			if (++dots > 1 || p == key || !p[1] || p[-1] == '.')
				break;
		} else if (!(*p == '_' || (*p >= 'a' && *p <= 'z') ||
			     (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9'))) {
			break;
		}
	}
	if (*p || p == key)
		die("line %lu: bad key '%s': a name of [A-Za-z0-9_], or two joined by a dot",
		    lineno, key);
}

static void put_value(const struct field *f)
{
	if (f->type == 's')
		put_string(f->value, strlen(f->value));
	else
		fputs(f->value, stdout);
}

/* flush_object: the buffered fields as one object; a group at its first field. */
static void flush_object(bool first)
{
	const char *sep = "";
	size_t i, j, glen;

	fputs(first ? "    {" : ",\n    {", stdout);
	for (i = 0; i < n_fields; i++) {
		const char *dot = strchr(fields[i].key, '.');
		const char *gsep = "";

		if (fields[i].done)
			continue;
		printf("%s", sep);
		sep = ", ";
		if (!dot) {
			put_string(fields[i].key, strlen(fields[i].key));
			fputs(": ", stdout);
			put_value(&fields[i]);
			continue;
		}
		glen = (size_t)(dot - fields[i].key) + 1;
		put_string(fields[i].key, glen - 1);
		fputs(": {", stdout);
		for (j = i; j < n_fields; j++) {
			if (strncmp(fields[j].key, fields[i].key, glen))
				continue;
			printf("%s", gsep);
			gsep = ", ";
			put_string(fields[j].key + glen, strlen(fields[j].key + glen));
			fputs(": ", stdout);
			put_value(&fields[j]);
			fields[j].done = true;
		}
		putchar('}');
	}
	putchar('}');
	for (i = 0; i < n_fields; i++) {
		free(fields[i].key);
		free(fields[i].value);
	}
	n_fields = 0;
}

/* start_list: closes list from (-1: none), writes the empty ones up to to. */
static void start_list(int from, int to)
{
	int i;

	if (from >= 0)
		fputs("\n  ]", stdout);
	for (i = from + 1; i < to; i++)
		printf(",\n  \"%s\": []", list_keys[i]);
	printf(",\n  \"%s\": [\n", list_keys[to]);
}

static void add_field(char type, char *key, char *value)
{
	size_t i, klen = strlen(key);

	check_key(key);
	for (i = 0; i < n_fields; i++) {
		const char *k = fields[i].key;
		size_t n = strlen(k);

		/* "misc" and "misc.x" would be two values for one name */
		if (!strcmp(k, key) ||
		    (n < klen && key[n] == '.' && !strncmp(k, key, n)) ||
		    (klen < n && k[klen] == '.' && !strncmp(k, key, klen)))
			die("line %lu: key '%s' given twice in one object", lineno, key);
	}
	if (type == 'n' && !is_number(value))
		die("line %lu: '%s' is not a JSON number (key '%s')", lineno, value, key);
	if (type == 'b' && strcmp(value, "true") && strcmp(value, "false"))
		die("line %lu: '%s' is not true or false (key '%s')", lineno, value, key);
	if (n_fields == MAX_FIELDS)
		die("line %lu: more than %d fields in one object", lineno, MAX_FIELDS);
	fields[n_fields].type = type;
	fields[n_fields].key = strdup(key);
	fields[n_fields].value = strdup(value);
	fields[n_fields].done = false;
	if (!fields[n_fields].key || !fields[n_fields].value)
		die("out of memory");
	n_fields++;
}

int main(int argc, char **argv)
{
	int list = -1;		/* the list being written, -1 before any */
	bool open = false;	/* an object is being gathered */
	bool first = true;	/* no object written yet in this list */
	bool have_version = false;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int i;

	(void)argv;
	if (argc != 1)
		usage_error("no arguments: records come on stdin");
	while ((len = getline(&line, &cap, stdin)) >= 0) {
		char *key, *value, *tab;
		int next = -1;

		lineno++;
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if ((size_t)len != strlen(line))
			die("line %lu: a NUL byte", lineno);
		if (!*line)
			continue;
		if (!have_version) {
			char major[16], minor[16], rest;

			if (sscanf(line, "version\t%15[0-9]\t%15[0-9]%c", major, minor, &rest) != 2)
				die("line %lu: expected 'version<TAB>MAJOR<TAB>MINOR' first", lineno);
			printf("{\n  \"version\": {\"major\": %d, \"minor\": %d}",
			       atoi(major), atoi(minor));
			have_version = true;
			continue;
		}
		for (i = 0; i < 3; i++)
			if (!strcmp(line, lists[i]))
				next = i;
		if (next >= 0) {
			if (open)
				flush_object(first), first = false;
			if (next != list) {
				if (next < list)
					die("line %lu: a %s after the %s list: the lists come in the order checkout, build, test",
					    lineno, lists[next], list_keys[list]);
				start_list(list, next);
				list = next;
				first = true;
			}
			open = true;
			continue;
		}
		if (!(line[0] == 's' || line[0] == 'n' || line[0] == 'b') || line[1] != '\t')
			die("line %lu: expected 'checkout', 'build', 'test' or 's|n|b<TAB>KEY<TAB>VALUE', got '%.40s'",
			    lineno, line);
		if (!open)
			die("line %lu: a field before any object", lineno);
		key = line + 2;
		tab = strchr(key, '\t');
		if (!tab)
			die("line %lu: no tab between key and value", lineno);
		*tab = '\0';
		value = tab + 1;
		add_field(line[0], key, value);
	}
	if (ferror(stdin))
		die("cannot read the records");
	if (!have_version)
		die("no records: expected 'version<TAB>MAJOR<TAB>MINOR' first");
	if (open)
		flush_object(first);
	if (list >= 0)
		fputs("\n  ]", stdout);
	for (i = list + 1; i < 3; i++)
		printf(",\n  \"%s\": []", list_keys[i]);
	fputs("\n}\n", stdout);
	free(line);
	if (fflush(stdout) || ferror(stdout))
		die("cannot write the document");
	return 0;
}
