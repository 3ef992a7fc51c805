/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netfs.h - what net/nfsd-sunrpc and net/afs-dynroot share: lo brought up
 * (both talk to 127.0.0.1), a line written to a control file, a failing
 * check's diagnostic; slurp.h reads their small files whole.
 */
#ifndef BKLFREE_NETFS_H
#define BKLFREE_NETFS_H

#include <fcntl.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "ktap.h"
#include "netif.h"
#include "slurp.h"

/* A failed check's diagnostic; 0 for the case. */
#define FAIL(...) (ktap_diag(__VA_ARGS__), 0)

/* Brings the loopback interface up: 1, or 0 with errno. */
static inline int lo_up(void)
{
	return netif_up("lo");
}

/* Writes a whole line to path with one write(): 0 or -errno. */
static inline int put(const char *path, const char *line)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, line, strlen(line));
	if (n < 0)
		n = -errno;
	close(fd);
	return n == (ssize_t)strlen(line) ? 0 : n < 0 ? (int)n : -EIO;
}

#endif /* BKLFREE_NETFS_H */
