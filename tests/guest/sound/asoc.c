// SPDX-License-Identifier: GPL-2.0
/*
 * asoc - the ALSA SoC core without a sound card: sound/soc/soc-core.c and
 * sound/soc/soc-dapm.c, the two ASoC files of the seed llseek patch.
 *
 * snd-soc-core registers its dummy component at load (soc-utils.c:
 * "snd-soc-dummy" with the DAI "snd-soc-dummy-dai") and makes debugfs
 * asoc/components and asoc/dais (soc-core.c, DEFINE_SHOW_ATTRIBUTE: a
 * seq_file each, seq_lseek). Both list the dummy; a rewind reads the
 * same text again.
 *
 * No x86 machine driver makes a card without its hardware, so the cards
 * come from ASoC's own KUnit suite, snd_soc_tplg_test (soc-topology-test,
 * a module= line of the profile, which runs the suite when it loads): it
 * registers and removes a card per case, each with its DAPM context and
 * its debugfs directories (soc-dapm.c). Its cases and result come from
 * KUnit's debugfs kunit/snd_soc_tplg_test/results, one case of this test
 * each, with KUnit's names; KUnit's diagnostics stay diagnostics.
 */
#include <fcntl.h>

#include "ktap.h"
#include "slurp.h"

#define ASOC "/sys/kernel/debug/asoc/"
#define SUITE "snd_soc_tplg_test"
#define RESULTS "/sys/kernel/debug/kunit/" SUITE "/results"

static char results[1 << 16];

/* path lists name on a line of its own. */
static int lists(const char *path, const char *name)
{
	static char text[1 << 14];
	char *line, *save;

	if (slurp(path, text, sizeof(text)) < 0)
		return 0;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (!strcmp(line, name))
			return 1;
	ktap_diag("%s does not list %s", path, name);
	return 0;
}

/* seq_lseek: back to 0, the same text again. */
static int rewind_rereads(void)
{
	char a[4096], b[4096];
	int fd = open(ASOC "components", O_RDONLY | O_CLOEXEC);
	ssize_t n, m = -1;
	off_t at = -1;

	if (fd < 0)
		return 0;
	n = read(fd, a, sizeof(a));
	if (n > 0) {
		at = lseek(fd, 0, SEEK_SET);
		m = read(fd, b, sizeof(b));
	}
	close(fd);
	if (n <= 0 || at != 0 || m != n || memcmp(a, b, (size_t)n)) {
		ktap_diag("read %zd, lseek %lld, read again %zd", n,
			  (long long)at, m);
		return 0;
	}
	return 1;
}

/* The suite's case count, from its nested plan line "    1..N". */
static unsigned int kunit_cases(void)
{
	const char *p = strstr(results, "\n    1..");

	return p ? (unsigned int)strtoul(p + 8, NULL, 10) : 0;
}

static unsigned int plan(void)
{
	if (slurp(RESULTS, results, sizeof(results)) < 0)
		return 3;
	/* the three own cases, the suite's cases, the suite's result */
	return 3 + kunit_cases() + 1;
}

/*
 * KUnit's lines, passed on: "    ok N name" and "    not ok N name" are
 * the cases, "ok 1 SUITE" the suite's result, "# ..." diagnostics. A
 * count that does not match the plan fails the test (ktap.h's main).
 */
static void kunit_results(void)
{
	char *line, *save, name[128];
	unsigned int n;
	int suite_seen = 0;

	for (line = strtok_r(results, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *s = line + strspn(line, " ");
		int indent = (int)(s - line), bad = !strncmp(s, "not ", 4);

		if (bad)
			s += 4;
		if (sscanf(s, "ok %u %127s", &n, name) == 2) {
			if (indent == 4) {
				ktap_ok(!bad, "KUnit %s", name);
			} else if (indent == 0 && !strcmp(name, SUITE)) {
				ktap_ok(!bad, "KUnit suite %s", name);
				suite_seen = 1;
			}
		} else if (*s == '#' && strncmp(s, "# Subtest:", 10)) {
			ktap_diag("kunit: %s", s + 1 + (s[1] == ' '));
		}
	}
	if (!suite_seen)
		ktap_ok(0, "KUnit suite %s: no result line in %s", SUITE, RESULTS);
}

static void run(void)
{
	ktap_ok(lists(ASOC "components", "snd-soc-dummy"),
		"asoc/components lists the dummy component");
	ktap_ok(lists(ASOC "dais", "snd-soc-dummy-dai"),
		"asoc/dais lists the dummy DAI");
	ktap_ok(rewind_rereads(), "asoc/components reads the same after a rewind");
	kunit_results();
}

const struct ktap_test ktap_test = {
	.plan_fn = plan,
	.devices = (const char *const[]){ ASOC "components", RESULTS, NULL },
	.kconfig = (const char *const[]){ "CONFIG_SND_SOC",
		"CONFIG_SND_SOC_TOPOLOGY_KUNIT_TEST", "CONFIG_KUNIT_DEBUGFS",
		"CONFIG_KUNIT_DEFAULT_ENABLED", NULL },
	.run = run,
};
