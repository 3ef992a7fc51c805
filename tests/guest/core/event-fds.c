// SPDX-License-Identifier: GPL-2.0
/*
 * event-fds - the anonymous-inode file types (fs/eventfd.c, fs/timerfd.c,
 * fs/eventpoll.c, fs/notify/inotify): eventfd counter and semaphore
 * semantics, a timerfd expiring within its bound, epoll reporting exactly
 * the ready descriptor, and inotify seeing a file created in tmpfs. Their
 * llseek methods are noop_llseek or none; the llseek series must keep
 * what these files do.
 */
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/timerfd.h>

#include "ktap.h"

static int counter(void)
{
	uint64_t v = 3, got = 0;
	int fd = eventfd(0, EFD_NONBLOCK);
	int ok = fd >= 0 && write(fd, &v, 8) == 8 && (v = 4, write(fd, &v, 8)) == 8 &&
		 read(fd, &got, 8) == 8 && got == 7 &&
		 read(fd, &got, 8) < 0 && errno == EAGAIN;

	close(fd);
	return ok;
}

static int semaphore(void)
{
	uint64_t v = 2, got = 0;
	int fd = eventfd(0, EFD_NONBLOCK | EFD_SEMAPHORE);
	int ok = fd >= 0 && write(fd, &v, 8) == 8 &&
		 read(fd, &got, 8) == 8 && got == 1 &&
		 read(fd, &got, 8) == 8 && got == 1 &&
		 read(fd, &got, 8) < 0 && errno == EAGAIN;

	close(fd);
	return ok;
}

static int timer(void)
{
	struct itimerspec its = { .it_value = { .tv_nsec = 20 * 1000 * 1000 } };
	struct pollfd p = { .events = POLLIN };
	uint64_t n = 0;
	int ok;

	p.fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
	ok = p.fd >= 0 && !timerfd_settime(p.fd, 0, &its, NULL) &&
	     poll(&p, 1, 5000) == 1 && read(p.fd, &n, 8) == 8 && n == 1;
	close(p.fd);
	return ok;
}

static int epoll(void)
{
	struct epoll_event ev = { .events = EPOLLIN }, out[4];
	int ep = epoll_create1(0), efd = eventfd(0, 0), fds[2] = { -1, -1 };
	uint64_t one = 1;
	int ok = ep >= 0 && efd >= 0 && !pipe(fds);

	ev.data.fd = efd;
	ok = ok && !epoll_ctl(ep, EPOLL_CTL_ADD, efd, &ev);
	ev.data.fd = fds[0];
	ok = ok && !epoll_ctl(ep, EPOLL_CTL_ADD, fds[0], &ev);
	ok = ok && epoll_wait(ep, out, 4, 0) == 0;
	ok = ok && write(efd, &one, 8) == 8 && epoll_wait(ep, out, 4, 2000) == 1 &&
	     out[0].data.fd == efd;
	close(ep);
	close(efd);
	close(fds[0]);
	close(fds[1]);
	return ok;
}

static int inotify(void)
{
	char buf[512] __attribute__((aligned(8)));
	struct pollfd p = { .events = POLLIN };
	struct inotify_event *e = (struct inotify_event *)buf;
	int fd, ok;

	p.fd = inotify_init1(IN_NONBLOCK);
	ok = p.fd >= 0 && inotify_add_watch(p.fd, "/tmp", IN_CREATE) >= 0;
	unlink("/tmp/core-inotify");
	fd = open("/tmp/core-inotify", O_CREAT | O_WRONLY, 0600);
	ok = ok && fd >= 0 && poll(&p, 1, 2000) == 1 &&
	     read(p.fd, buf, sizeof(buf)) >= (ssize_t)sizeof(*e) &&
	     (e->mask & IN_CREATE) && !strcmp(e->name, "core-inotify");
	close(fd);
	close(p.fd);
	unlink("/tmp/core-inotify");
	return ok;
}

static const struct ktap_case tcases[] = {
	{ "eventfd adds writes and reads then EAGAIN", counter },
	{ "eventfd semaphore reads one at a time", semaphore },
	{ "timerfd expires once within 5 s", timer },
	{ "epoll reports only the ready eventfd", epoll },
	{ "inotify sees IN_CREATE in tmpfs", inotify },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(tcases),
	.timeout = 20,
	.cases = tcases,
};
