/* SPDX-License-Identifier: GPL-2.0 */
/*
 * slurp.h - read a small file (sysfs, debugfs, procfs, a pseudo
 * filesystem's control file) whole into a buffer, for the tests that
 * compare such files' text.
 */
#ifndef BKLFREE_SLURP_H
#define BKLFREE_SLURP_H

#include <fcntl.h>
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

#endif /* BKLFREE_SLURP_H */
