/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loop.h - a free loop device bound to a file with LOOP_CONFIGURE, and
 * cleared again; shared by block/romfs-squashfs and block/blktrace-relay.
 * (block/fio-verify binds its loop device with the older LOOP_SET_FD.)
 */
#ifndef BKLFREE_LOOP_H
#define BKLFREE_LOOP_H

#include <fcntl.h>
#include <linux/loop.h>
#include <sys/ioctl.h>

#include "ktap.h"

/*
 * Binds a free loop device to the file at path (LO_FLAGS_READ_ONLY when read_only),
 * its name in node ("/dev/loopN"). Returns the device's descriptor, open
 * read-write, or -1 with a diagnostic.
 */
static inline int loop_bind(const char *path, int read_only, char *node,
			    size_t size)
{
	struct loop_config cfg = { .block_size = 0 };
	int ctl, nr, file, fd = -1, err;

	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	nr = ctl < 0 ? -1 : ioctl(ctl, LOOP_CTL_GET_FREE);
	if (ctl >= 0)
		close(ctl);
	if (nr < 0)
		return ktap_perror("/dev/loop-control LOOP_CTL_GET_FREE");
	snprintf(node, size, "/dev/loop%d", nr);
	file = open(path, (read_only ? O_RDONLY : O_RDWR) | O_CLOEXEC);
	if (file < 0)
		return ktap_perror(path);
	if (ktap_dev_present(node))
		fd = open(node, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		close(file);
		errno = err;
		return ktap_perror(node);
	}
	cfg.fd = file;
	cfg.info.lo_flags = read_only ? LO_FLAGS_READ_ONLY : 0;
	snprintf((char *)cfg.info.lo_file_name, LO_NAME_SIZE, "%s", path);
	if (ioctl(fd, LOOP_CONFIGURE, &cfg)) {
		ktap_perror("LOOP_CONFIGURE");
		close(fd);
		fd = -1;
	}
	close(file);
	return fd;
}

/*
 * Clears the loop device fd (of node) and closes it; unbound, the device
 * answers LOOP_GET_STATUS64 with ENXIO. Returns 1 when it is cleared.
 */
static inline int loop_clear(int fd, const char *node)
{
	struct loop_info64 info = { .lo_flags = 0 };
	int ok = 1, again;

	if (ioctl(fd, LOOP_CLR_FD)) {
		ktap_perror("LOOP_CLR_FD");
		ok = 0;
	}
	close(fd);
	again = open(node, O_RDONLY | O_CLOEXEC);
	if (again < 0) {
		ktap_perror(node);
		return 0;
	}
	errno = 0;
	if (!ioctl(again, LOOP_GET_STATUS64, &info) || errno != ENXIO) {
		ktap_diag("%s still bound to %s", node,
			  (char *)info.lo_file_name);
		ok = 0;
	}
	close(again);
	return ok;
}

#endif /* BKLFREE_LOOP_H */
