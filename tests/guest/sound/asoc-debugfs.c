// SPDX-License-Identifier: GPL-2.0
/*
 * asoc-debugfs - the ALSA SoC core without a sound card: sound/soc/soc-core.c,
 * one of the two ASoC files of the seed llseek patch.
 *
 * snd-soc-core registers its dummy component at load (soc-utils.c:
 * "snd-soc-dummy" with the DAI "snd-soc-dummy-dai") and makes debugfs
 * asoc/components and asoc/dais (soc-core.c, DEFINE_SHOW_ATTRIBUTE: a
 * seq_file each, seq_lseek). Both list the dummy; a rewind reads the
 * same text again. The cards (and soc-dapm.c) are sound/asoc-kunit's.
 */
#include <fcntl.h>

#include "ktap.h"
#include "slurp.h"

#define ASOC "/sys/kernel/debug/asoc/"

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

static void run(void)
{
	ktap_ok(lists(ASOC "components", "snd-soc-dummy"),
		"asoc/components lists the dummy component");
	ktap_ok(lists(ASOC "dais", "snd-soc-dummy-dai"),
		"asoc/dais lists the dummy DAI");
	ktap_ok(rewind_rereads(), "asoc/components reads the same after a rewind");
}

const struct ktap_test ktap_test = {
	.plan = 3,
	.devices = (const char *const[]){ ASOC "components", NULL },
	.kconfig = (const char *const[]){ "CONFIG_SND_SOC", NULL },
	.run = run,
};
