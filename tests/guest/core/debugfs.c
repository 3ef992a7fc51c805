// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs - debugfs and tracefs, the two pseudo filesystems whose files
 * the llseek series touches most (fs/debugfs, kernel/trace): both are
 * mounted with the right magic, tracefs lists the nop tracer, a line
 * written to trace_marker comes back from the trace file, and tracing_on
 * toggles. The trace file is a seq_file: reading it twice from offset 0
 * gives the same text.
 *
 * debugfs's x86/ directory is made at boot by arch/x86/kernel/kdebugfs.c
 * (arch_kdebugfs_init, __init); x86/tlb_single_page_flush_ceiling
 * (arch/x86/mm/tlb.c) in it reads 6.1's default, 33. kdebugfs.c's only
 * code that runs after boot is the setup_data "data" reader, which needs
 * CONFIG_DEBUG_BOOT_PARAMS (off in the lab kernel, so there is no
 * x86/boot_params/) and a boot loader that passes setup_data (PVH does
 * not): docs/coverage.md, scripts/coverage/reasons.tsv.
 */
#include <fcntl.h>
#include <sys/vfs.h>

#include "ktap.h"
#include "slurp.h"

#define DEBUGFS_MAGIC 0x64626720
#define TRACEFS_MAGIC 0x74726163
#define TRACING "/sys/kernel/tracing/"

static char buf[65536];

static int magic(const char *path, long want)
{
	struct statfs s;

	return !statfs(path, &s) && s.f_type == want;
}

static int debugfs_magic(void)
{
	return magic("/sys/kernel/debug", DEBUGFS_MAGIC);
}

static int tracefs_magic(void)
{
	return magic("/sys/kernel/tracing", TRACEFS_MAGIC);
}

static ssize_t read_at0(int fd)
{
	ssize_t n;

	if (lseek(fd, 0, SEEK_SET))
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	return n;
}

static int read_file(const char *path)
{
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read_at0(fd);

	close(fd);
	return n > 0;
}

static int tracers(void)
{
	return read_file(TRACING "available_tracers") && strstr(buf, "nop");
}

static int marker(void)
{
	static const char mark[] = "bklfree-debugfs-marker";
	char first[sizeof(buf)];
	int fd, ok;

	if (put_text(TRACING "trace", "") ||
	    put_text(TRACING "trace_marker", mark))
		return 0;
	fd = open(TRACING "trace", O_RDONLY);
	ok = fd >= 0 && read_at0(fd) > 0 && strstr(buf, mark);
	memcpy(first, buf, sizeof(buf));
	ok = ok && read_at0(fd) > 0 && !strcmp(first, buf);
	close(fd);
	return ok;
}

static int tracing_on(void)
{
	int ok = !put_text(TRACING "tracing_on", "0") &&
		 read_file(TRACING "tracing_on") && buf[0] == '0' &&
		 !put_text(TRACING "tracing_on", "1") &&
		 read_file(TRACING "tracing_on") && buf[0] == '1';

	return ok;
}

static int x86_dir(void)
{
	return read_file("/sys/kernel/debug/x86/tlb_single_page_flush_ceiling") &&
	       !strcmp(buf, "33\n");
}

static const struct ktap_case tcases[] = {
	{ "debugfs is mounted with DEBUGFS_MAGIC", debugfs_magic },
	{ "tracefs is mounted with TRACEFS_MAGIC", tracefs_magic },
	{ "tracefs lists the nop tracer", tracers },
	{ "trace_marker text comes back from trace twice", marker },
	{ "tracing_on toggles off and on", tracing_on },
	{ "debugfs x86/tlb_single_page_flush_ceiling reads 33", x86_dir },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(tcases),
	.timeout = 20,
	.cases = tcases,
};
