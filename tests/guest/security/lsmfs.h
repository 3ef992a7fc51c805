/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lsmfs.h - what the two LSM filesystem tests share (security/apparmorfs
 * mounts securityfs, security/smackfs mounts smackfs): mounting a pseudo
 * filesystem on its fixed mount point, checked by its magic.
 */
#ifndef BKLFREE_LSMFS_H
#define BKLFREE_LSMFS_H

#include <sys/mount.h>
#include <sys/vfs.h>

#include "ktap.h"
#include "slurp.h"

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

#endif /* BKLFREE_LSMFS_H */
