/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracefs.h - a tracing instance of a test's own. The global buffer and
 * set_ftrace_filter belong to the boot's coverage profiler
 * (tests/guest/init), which a test must not change; an instance has its
 * own buffer, tracer and event switches.
 */
#ifndef BKLFREE_TRACEFS_H
#define BKLFREE_TRACEFS_H

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TRACEFS_INSTANCES "/sys/kernel/tracing/instances/"

/*
 * Write s to a tracefs file, truncating it. tracefs takes one filter word
 * per write(): write until all is taken. 1 on success.
 */
static inline int tracefs_write(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	size_t left = strlen(s);
	ssize_t n = 0;

	while (fd >= 0 && left && (n = write(fd, s, left)) > 0) {
		s += (size_t)n;
		left -= (size_t)n;
	}
	if (fd >= 0)
		close(fd);
	return fd >= 0 && !left;
}

/* Make the instance directory (a path under TRACEFS_INSTANCES). */
static inline int tracefs_instance(const char *dir)
{
	return !mkdir(dir, 0755) || errno == EEXIST;
}

#endif /* BKLFREE_TRACEFS_H */
