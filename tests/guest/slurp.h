/* SPDX-License-Identifier: GPL-2.0 */
/*
 * slurp.h - read a small file (sysfs, debugfs, procfs, a pseudo
 * filesystem's control file) whole into a buffer, for the tests that
 * compare such files' text; read_line() takes a one-line attribute,
 * put_text() writes one; task_state() reads a thread's scheduler state.
 */
#ifndef BKLFREE_SLURP_H
#define BKLFREE_SLURP_H

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ktap.h"

/*
 * The whole of path into buf, at most size - 1 bytes, NUL-terminated: its
 * length, or -1 with errno and a diagnostic naming path.
 */
static inline ssize_t slurp(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;
	size_t len = 0;
	ssize_t n = 0;

	if (fd >= 0) {
		while (len + 1 < size &&
		       (n = read(fd, buf + len, size - 1 - len)) > 0)
			len += (size_t)n;
		err = errno;
		close(fd);
		errno = err;
	}
	buf[len] = '\0';
	if (fd < 0 || n < 0) {
		err = errno;
		ktap_perror(path);
		errno = err;
		return -1;
	}
	return (ssize_t)len;
}

/*
 * The first line of path (a sysfs attribute) into buf, without its
 * newline: 1, or 0 when the file is absent or empty. Silent: an absent
 * attribute is an answer for its callers.
 */
static inline int read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");
	int ok = f && fgets(buf, (int)size, f);

	if (f)
		fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

/*
 * Write s to path (a sysfs, debugfs or procfs control file) in one
 * write(): 0, or -1 with errno (EIO for a short write). Silent: a refused
 * write is an answer some callers test for.
 */
static inline int put_text(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), err;
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	err = n < 0 ? errno : EIO;
	close(fd);
	if (n == (ssize_t)strlen(s))
		return 0;
	errno = err;
	return -1;
}

/*
 * The scheduler state of thread tid of this process, from
 * /proc/self/task/TID/stat ('R', 'S', 'D', ...), or 0 when it is gone.
 */
static inline char task_state(pid_t tid)
{
	char path[64], buf[512], *p;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	if (!read_line(path, buf, sizeof(buf)))
		return 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

#endif /* BKLFREE_SLURP_H */
