// SPDX-License-Identifier: GPL-2.0
/*
 * asoc-kunit - ALSA SoC cards without hardware: sound/soc/soc-dapm.c (and
 * soc-core.c's card code), seed llseek patch paths, through ASoC's own
 * KUnit suite snd_soc_tplg_test (soc-topology-test, a module= line of the
 * profile; kunit.ko runs the suite when the module loads): it registers and
 * removes a card per case, each with its DAPM context and its debugfs
 * directories. The cases and the suite's result come from KUnit's debugfs
 * kunit/snd_soc_tplg_test/results, one case of this test each, with
 * KUnit's names; KUnit's diagnostics stay diagnostics.
 */
#include "ktap.h"
#include "slurp.h"

#define SUITE "snd_soc_tplg_test"
#define RESULTS "/sys/kernel/debug/kunit/" SUITE "/results"

static char results[1 << 16];

/* The suite's case count, from its nested plan line "    1..N". */
static unsigned int kunit_cases(void)
{
	const char *p = strstr(results, "\n    1..");

	return p ? (unsigned int)strtoul(p + 8, NULL, 10) : 0;
}

static unsigned int plan(void)
{
	if (slurp(RESULTS, results, sizeof(results)) < 0)
		return 1;
	/* the suite's cases and its result */
	return kunit_cases() + 1;
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

const struct ktap_test ktap_test = {
	.plan_fn = plan,
	.devices = (const char *const[]){ RESULTS, NULL },
	.kconfig = (const char *const[]){ "CONFIG_SND_SOC_TOPOLOGY_KUNIT_TEST",
		"CONFIG_KUNIT_DEBUGFS", "CONFIG_KUNIT_DEFAULT_ENABLED", NULL },
	.run = kunit_results,
};
