// SPDX-License-Identifier: GPL-2.0
/*
 * file-locks - the file locking the 2.6.37 BKL work could not free until
 * fs/locks.c got its own spinlock (upstream 72f98e72551f, "locks: turn
 * lock_flocks into a spinlock"; lockd's conversion followed). It runs in
 * every lab boot, with lockdep on, so the core series is shown not to
 * disturb locking: POSIX record locks conflict across processes, not
 * within one, and die with any close of the file; deadlock between two
 * processes is refused with EDEADLK; OFD locks belong to the open file
 * description, so they conflict between descriptors of one process and
 * between threads; flock conflicts and ends on the last close; a write
 * lease is broken by another process's open, signalled to the holder and
 * released.
 */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <time.h>

#include "ktap.h"

#define FILE_PATH "/tmp/file-locks"

static int lock(int fd, int cmd, short type, off_t start, off_t len)
{
	struct flock fl = {
		.l_type = type, .l_whence = SEEK_SET, .l_start = start, .l_len = len,
	};

	return fcntl(fd, cmd, &fl);
}

static int open_file(void)
{
	return open(FILE_PATH, O_RDWR | O_CREAT, 0600);
}

/* Run fn in a child process; its return value is the child's verdict. */
static int in_child(int (*fn)(void *), void *arg)
{
	int status;
	pid_t pid = fork();

	if (pid == 0)
		_exit(fn(arg) ? 0 : 1);
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 0;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static int child_lock_is(void *want)
{
	int fd = open_file();
	int r = lock(fd, F_SETLK, F_WRLCK, 0, 10);

	return want ? r == 0 : r < 0 && (errno == EAGAIN || errno == EACCES);
}

static int child_getlk_names(void *pid)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_len = 10 };
	int fd = open_file();

	return !fcntl(fd, F_GETLK, &fl) && fl.l_type == F_WRLCK &&
	       fl.l_pid == *(pid_t *)pid;
}

static int posix_conflict(void)
{
	pid_t me = getpid();
	int fd = open_file();
	int ok = !lock(fd, F_SETLK, F_WRLCK, 0, 10) &&
		 in_child(child_lock_is, NULL) && in_child(child_getlk_names, &me);

	close(fd);
	return ok && in_child(child_lock_is, "free");
}

static int posix_same_process(void)
{
	int a = open_file(), b = open_file();
	int ok = !lock(a, F_SETLK, F_WRLCK, 0, 10) &&
		 !lock(b, F_SETLK, F_WRLCK, 0, 10);

	close(a);
	close(b);
	return ok;
}

static int posix_any_close(void)
{
	int a = open_file(), b = open_file();
	int ok = !lock(a, F_SETLK, F_WRLCK, 0, 10) && in_child(child_lock_is, NULL);

	/* Closing another descriptor of the file drops the process's locks. */
	close(b);
	ok = ok && in_child(child_lock_is, "free");
	close(a);
	return ok;
}

/* Wait (bounded) until /proc/locks shows a blocked waiter ("->" line). */
static int waiter_blocked(void)
{
	struct timespec ts = { .tv_nsec = 10 * 1000 * 1000 };
	char buf[4096];
	int tries;

	for (tries = 0; tries < 500; tries++) {
		int fd = open("/proc/locks", O_RDONLY);
		ssize_t n = read(fd, buf, sizeof(buf) - 1);

		close(fd);
		buf[n > 0 ? n : 0] = '\0';
		if (strstr(buf, "->"))
			return 1;
		nanosleep(&ts, NULL);
	}
	return 0;
}

static int deadlock(void)
{
	int fd = open_file(), up[2], down[2], status, ok;
	pid_t pid;
	char c;

	/* up: child tells the parent it holds byte 1; down: the reverse. */
	if (pipe(up) || pipe(down))
		return 0;
	pid = fork();
	if (pid == 0) {
		/* Child holds byte 1, then waits for byte 0 held by the parent. */
		int cfd = open_file();

		if (lock(cfd, F_SETLK, F_WRLCK, 1, 1) || write(up[1], "x", 1) != 1 ||
		    read(down[0], &c, 1) != 1)
			_exit(2);
		_exit(lock(cfd, F_SETLKW, F_WRLCK, 0, 1) ? 3 : 0);
	}
	ok = pid > 0 && !lock(fd, F_SETLK, F_WRLCK, 0, 1);
	ok = ok && read(up[0], &c, 1) == 1 && write(down[1], "y", 1) == 1 &&
	     waiter_blocked();
	/* Waiting for byte 1 now would close the cycle. */
	ok = ok && lock(fd, F_SETLKW, F_WRLCK, 1, 1) < 0 && errno == EDEADLK;
	close(fd);	/* frees byte 0: the child's wait succeeds */
	if (pid > 0 && !ok)
		kill(pid, SIGKILL);
	ok = ok && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	     WEXITSTATUS(status) == 0;
	close(up[0]);
	close(up[1]);
	close(down[0]);
	close(down[1]);
	return ok;
}

static int ofd_same_process(void)
{
	int a = open_file(), b = open_file();
	int ok = !lock(a, F_OFD_SETLK, F_WRLCK, 0, 10) &&
		 lock(b, F_OFD_SETLK, F_WRLCK, 0, 10) < 0 && errno == EAGAIN;

	close(a);
	ok = ok && !lock(b, F_OFD_SETLK, F_WRLCK, 0, 10);
	close(b);
	return ok;
}

static int ofd_survives_other_close(void)
{
	int a = open_file(), b = open_file(), c;
	int ok = !lock(a, F_OFD_SETLK, F_WRLCK, 0, 10);

	close(b);
	c = open_file();
	ok = ok && lock(c, F_OFD_SETLK, F_RDLCK, 0, 10) < 0 && errno == EAGAIN;
	close(a);
	close(c);
	return ok;
}

static void *thread_ofd(void *arg)
{
	int fd = open_file();
	long r = lock(fd, F_OFD_SETLK, F_WRLCK, 0, 10) < 0 && errno == EAGAIN;

	(void)arg;
	close(fd);
	return (void *)r;
}

static int ofd_threads(void)
{
	int fd = open_file();
	pthread_t t;
	void *res = NULL;
	int ok = !lock(fd, F_OFD_SETLK, F_WRLCK, 0, 10) &&
		 !pthread_create(&t, NULL, thread_ofd, NULL) &&
		 !pthread_join(t, &res) && res;

	close(fd);
	return ok;
}

static int child_flock_busy(void *arg)
{
	int fd = open_file();

	(void)arg;
	return flock(fd, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK;
}

static int child_flock_free(void *arg)
{
	int fd = open_file();

	(void)arg;
	return !flock(fd, LOCK_EX | LOCK_NB);
}

static int flock_conflict(void)
{
	int fd = open_file(), dup_fd;
	int ok = !flock(fd, LOCK_EX) && in_child(child_flock_busy, NULL);

	/* flock belongs to the open file: it lasts until the last close. */
	dup_fd = dup(fd);
	close(fd);
	ok = ok && in_child(child_flock_busy, NULL);
	close(dup_fd);
	return ok && in_child(child_flock_free, NULL);
}

static int child_open_breaks(void *arg)
{
	int fd = open(FILE_PATH, O_RDONLY | O_NONBLOCK);

	(void)arg;
	return fd < 0 && errno == EWOULDBLOCK;
}

static int lease_break(void)
{
	struct timespec bound = { .tv_sec = 5 };
	siginfo_t si;
	sigset_t set;
	int fd, ok;

	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN);
	sigprocmask(SIG_BLOCK, &set, NULL);
	fd = open(FILE_PATH, O_RDONLY);
	ok = fd >= 0 && !fcntl(fd, F_SETSIG, SIGRTMIN) &&
	     !fcntl(fd, F_SETLEASE, F_RDLCK) && fcntl(fd, F_GETLEASE) == F_RDLCK;
	close(fd);
	/* A write lease needs no other open descriptor of the file. */
	fd = open(FILE_PATH, O_RDONLY);
	ok = ok && fd >= 0 && !fcntl(fd, F_SETSIG, SIGRTMIN) &&
	     !fcntl(fd, F_SETLEASE, F_WRLCK) && in_child(child_open_breaks, NULL) &&
	     sigtimedwait(&set, &si, &bound) == SIGRTMIN && si.si_fd == fd &&
	     !fcntl(fd, F_SETLEASE, F_UNLCK) && fcntl(fd, F_GETLEASE) == F_UNLCK;
	close(fd);
	return ok;
}

static const struct ktap_case tcases[] = {
	{ "posix lock conflicts across processes and F_GETLK names the holder", posix_conflict },
	{ "posix locks of one process do not conflict", posix_same_process },
	{ "posix locks end when any descriptor of the file closes", posix_any_close },
	{ "posix F_SETLKW closing a wait cycle fails with EDEADLK", deadlock },
	{ "ofd locks conflict between descriptors of one process", ofd_same_process },
	{ "ofd lock survives closing another descriptor", ofd_survives_other_close },
	{ "ofd locks conflict between threads", ofd_threads },
	{ "flock conflicts across processes until the last close", flock_conflict },
	{ "read and write leases; an open breaks the write lease", lease_break },
};

static void run(void)
{
	int fd = open_file();

	if (fd < 0 || write(fd, "0123456789abcdef", 16) != 16)
		ktap_bail("cannot create " FILE_PATH ": %s", strerror(errno));
	close(fd);
	ktap_run_cases(tcases, ARRAY_SIZE(tcases));
	unlink(FILE_PATH);
}

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(tcases),
	.kconfig = (const char *const[]){ "CONFIG_FILE_LOCKING", NULL },
	.timeout = 30,
	.upstream = "72f98e72551f",
	.run = run,
};
