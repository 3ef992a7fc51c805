/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pseudo-fs.h - a pseudo filesystem (mqueue, hugetlbfs) mounted on a
 * fresh directory of /tmp for one test, and unmounted with the directory
 * removed after; shared by core/mqueue and core/hugetlbfs.
 */
#ifndef BKLFREE_PSEUDO_FS_H
#define BKLFREE_PSEUDO_FS_H

#include <sys/mount.h>
#include <sys/stat.h>

#include "ktap.h"

/* Mounts type on dir, made if missing: 1, or 0 with a diagnostic. */
static inline int pseudo_mount(const char *type, const char *dir)
{
	if (mkdir(dir, 0755) && errno != EEXIST) {
		ktap_diag("mkdir %s: %s", dir, strerror(errno));
		return 0;
	}
	if (mount(type, dir, type, 0, NULL)) {
		ktap_diag("mount -t %s %s: %s", type, dir, strerror(errno));
		return 0;
	}
	return 1;
}

/* Unmounts dir and removes it: 1, or 0 with a diagnostic. */
static inline int pseudo_umount(const char *dir)
{
	if (umount(dir)) {
		ktap_diag("umount %s: %s", dir, strerror(errno));
		return 0;
	}
	if (rmdir(dir)) {
		ktap_diag("rmdir %s: %s", dir, strerror(errno));
		return 0;
	}
	return 1;
}

#endif /* BKLFREE_PSEUDO_FS_H */
