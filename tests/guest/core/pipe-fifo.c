// SPDX-License-Identifier: GPL-2.0
/*
 * pipe-fifo - pipes and FIFOs (fs/pipe.c, fs/fifo via fs/pipe.c): data
 * order, non-blocking EAGAIN, EPIPE with no reader, pipe size control,
 * ESPIPE from lseek (pipes are opened with stream_open semantics; the
 * llseek series must keep that), and a FIFO in tmpfs passing data and
 * reporting POLLHUP once its writer is gone.
 */
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>

#include "ktap.h"

static int fds[2] = { -1, -1 };

static void close_pipe(void)
{
	close(fds[0]);
	close(fds[1]);
	fds[0] = fds[1] = -1;
}

static int order(void)
{
	char buf[8];
	int ok = !pipe(fds) && write(fds[1], "abc", 3) == 3 &&
		 write(fds[1], "def", 3) == 3 && read(fds[0], buf, 8) == 6 &&
		 !memcmp(buf, "abcdef", 6);

	close_pipe();
	return ok;
}

static int empty_nonblock(void)
{
	char c;
	int ok = !pipe2(fds, O_NONBLOCK) && read(fds[0], &c, 1) < 0 &&
		 errno == EAGAIN;

	close_pipe();
	return ok;
}

static int no_reader(void)
{
	int ok;

	signal(SIGPIPE, SIG_IGN);
	ok = !pipe(fds);
	close(fds[0]);
	fds[0] = -1;
	ok = ok && write(fds[1], "x", 1) < 0 && errno == EPIPE;
	close_pipe();
	return ok;
}

static int pipe_size(void)
{
	int ok = !pipe(fds) && fcntl(fds[1], F_SETPIPE_SZ, 65536 * 2) >= 0 &&
		 fcntl(fds[1], F_GETPIPE_SZ) == 65536 * 2;

	close_pipe();
	return ok;
}

static int pipe_lseek(void)
{
	int ok = !pipe(fds) && lseek(fds[0], 0, SEEK_CUR) < 0 &&
		 errno == ESPIPE;

	close_pipe();
	return ok;
}

static int fifo_data(void)
{
	static const char *path = "/tmp/core-fifo";
	struct pollfd p = { .events = POLLIN };
	char buf[16];
	int w, ok;

	unlink(path);
	if (mkfifo(path, 0600))
		return 0;
	p.fd = open(path, O_RDONLY | O_NONBLOCK);
	w = open(path, O_WRONLY | O_NONBLOCK);
	ok = p.fd >= 0 && w >= 0 && write(w, "fifo", 4) == 4 &&
	     poll(&p, 1, 2000) == 1 && (p.revents & POLLIN) &&
	     read(p.fd, buf, sizeof(buf)) == 4 && !memcmp(buf, "fifo", 4);
	close(w);
	ok = ok && poll(&p, 1, 2000) == 1 && (p.revents & POLLHUP);
	close(p.fd);
	unlink(path);
	return ok;
}

static int fifo_no_reader(void)
{
	static const char *path = "/tmp/core-fifo-nr";
	int fd, ok;

	unlink(path);
	if (mkfifo(path, 0600))
		return 0;
	fd = open(path, O_WRONLY | O_NONBLOCK);
	ok = fd < 0 && errno == ENXIO;
	close(fd);
	unlink(path);
	return ok;
}

static const struct ktap_case tcases[] = {
	{ "pipe keeps byte order across writes", order },
	{ "pipe empty nonblocking read is EAGAIN", empty_nonblock },
	{ "pipe write without reader is EPIPE", no_reader },
	{ "pipe F_SETPIPE_SZ round trip", pipe_size },
	{ "pipe lseek is ESPIPE", pipe_lseek },
	{ "fifo passes data and reports POLLHUP", fifo_data },
	{ "fifo nonblocking open for write without reader is ENXIO", fifo_no_reader },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(tcases),
	.timeout = 20,
	.cases = tcases,
};
