/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lsmfs.h - what the two LSM filesystem tests share (security/apparmorfs
 * mounts securityfs, security/smackfs mounts smackfs): mounting a pseudo
 * filesystem on its fixed mount point, checked by its magic, and reading a
 * small file whole.
 */
#ifndef BKLFREE_LSMFS_H
#define BKLFREE_LSMFS_H

#include <fcntl.h>
#include <sys/mount.h>
#include <sys/vfs.h>

#include "ktap.h"

/* Mounts type on dir and checks statfs's f_type: 1, or 0 with a diagnostic. */
static inline int lsmfs_mount(const char *type, const char *dir,
			      unsigned long magic)
{
	struct statfs sfs;

	if (mount(type, dir, type, 0, NULL)) {
		ktap_diag("mount -t %s %s: %s", type, dir, strerror(errno));
		return 0;
	}
	if (statfs(dir, &sfs)) {
		ktap_diag("statfs %s: %s", dir, strerror(errno));
		return 0;
	}
	if ((unsigned long)sfs.f_type != magic) {
		ktap_diag("%s: f_type %#lx, want %#lx", dir,
			  (unsigned long)sfs.f_type, magic);
		return 0;
	}
	return 1;
}

/* The whole of a small file into buf, NUL-terminated: length, or -1. */
static inline ssize_t lsmfs_slurp(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t len = 0;
	ssize_t n = 0;

	if (fd < 0) {
		ktap_perror(path);
		return -1;
	}
	while (len < size - 1 && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = '\0';
	if (n < 0) {
		ktap_perror(path);
		return -1;
	}
	return len;
}

#endif /* BKLFREE_LSMFS_H */
