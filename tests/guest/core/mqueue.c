// SPDX-License-Identifier: GPL-2.0
/*
 * mqueue - POSIX message queues (ipc/mqueue.c) through the syscalls and
 * through the mqueue filesystem that holds them.
 *
 * A queue of 8 messages of at most 64 bytes is made with mq_open(O_CREAT)
 * on a fresh mqueue mount; mq_getattr gives its attributes back. Three
 * messages sent with priorities 1, 5 and 3 come back highest priority
 * first, each with its priority, and mq_getattr counts them. The queue's
 * file in the mount is what tools read: one line of 80 bytes at most,
 * "QSIZE:%-10lu NOTIFY:%-5d SIGNO:%-5d NOTIFY_PID:%-6d" (mqueue_read_file),
 * QSIZE the bytes queued. Its file_operations keep default_llseek, which
 * the llseek series must not turn into ESPIPE: SEEK_END is the inode size
 * (FILENT_SIZE, 80), a read after SEEK_SET 6 is the line from its seventh
 * byte, and past the line a read is 0.
 *
 * mq_notify(SIGEV_SIGNAL) registers us (the file's NOTIFY_PID and SIGNO
 * show it, read with pread on the queue descriptor), the send that makes
 * the empty queue non-empty queues the signal before mq_send returns, and
 * the registration is gone after it fired once: a second send queues
 * nothing. Closing any other descriptor of the queue (an open and close of
 * its file) flushes it, and a flush by the registered process removes the
 * registration (mqueue_flush_file): NOTIFY_PID reads 0 and registering
 * again is allowed. Poll says POLLIN only with a
 * message queued. On an O_NONBLOCK descriptor an empty queue is EAGAIN
 * and a full one EAGAIN for mq_send; mq_timedreceive with a deadline
 * 50 ms ahead is ETIMEDOUT; a message longer than mq_msgsize is
 * EMSGSIZE, and so is a receive buffer shorter than it. mq_unlink removes
 * the file from the mount, and opening the name again is ENOENT.
 */
#include <fcntl.h>
#include <mqueue.h>
#include <sys/stat.h>

#include "core/pseudo-fs.h"

#define MNT "/tmp/mqueue"
#define NAME "/bklfree"
#define FILE_PATH MNT NAME
#define MAXMSG 8
#define MSGSIZE 64

static int mounted;
static mqd_t mq = (mqd_t)-1;

/* A failed call as a diagnostic; the case fails. */
static int fail(const char *what)
{
	ktap_perror(what);
	return 0;
}

static int do_mount(void)
{
	struct stat st;

	if (!pseudo_mount("mqueue", MNT))
		return 0;
	mounted = 1;
	return !stat(MNT, &st) && S_ISDIR(st.st_mode);
}

static int do_open(void)
{
	struct mq_attr attr = { .mq_maxmsg = MAXMSG, .mq_msgsize = MSGSIZE };
	struct mq_attr got;

	mq_unlink(NAME);
	mq = mq_open(NAME, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600, &attr);
	if (mq == (mqd_t)-1)
		return fail("mq_open");
	if (mq_getattr(mq, &got))
		return fail("mq_getattr");
	ktap_diag("maxmsg %ld msgsize %ld curmsgs %ld flags %#lx",
		  got.mq_maxmsg, got.mq_msgsize, got.mq_curmsgs, got.mq_flags);
	return got.mq_maxmsg == MAXMSG && got.mq_msgsize == MSGSIZE &&
	       got.mq_curmsgs == 0 && got.mq_flags == 0 &&
	       !access(FILE_PATH, F_OK);
}

/* The queue's file in the mount, read whole from offset 0. */
static int read_file(char *buf, size_t size)
{
	int fd = open(FILE_PATH, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return fail(FILE_PATH);
	n = read(fd, buf, size - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return 1;
}

/*
 * The queue's line read through the queue descriptor itself, with pread:
 * opening and closing the file in the mount would flush it, and a flush by
 * the registered process removes its mq_notify registration
 * (mqueue_flush_file).
 */
static int file_fields(unsigned long *qsize, int *notify, int *signo,
		       int *pid)
{
	char buf[128];
	ssize_t n = pread((int)mq, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return fail("pread of the queue descriptor");
	buf[n] = '\0';
	return sscanf(buf, "QSIZE:%lu NOTIFY:%d SIGNO:%d NOTIFY_PID:%d",
		      qsize, notify, signo, pid) == 4;
}

static const struct {
	const char *text;
	unsigned int prio;
} msgs[] = {
	{ "low priority", 1 },
	{ "high priority, longer", 5 },
	{ "middle", 3 },
};

static size_t msgs_bytes(void)
{
	size_t i, n = 0;

	for (i = 0; i < ARRAY_SIZE(msgs); i++)
		n += strlen(msgs[i].text);
	return n;
}

static int send_three(void)
{
	struct mq_attr got;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(msgs); i++)
		if (mq_send(mq, msgs[i].text, strlen(msgs[i].text),
			    msgs[i].prio))
			return fail("mq_send");
	return !mq_getattr(mq, &got) && got.mq_curmsgs == ARRAY_SIZE(msgs);
}

static int qsize_line(void)
{
	unsigned long qsize;
	int notify, signo, pid;
	char buf[128];

	if (!read_file(buf, sizeof(buf)))
		return 0;
	buf[strcspn(buf, "\n")] = '\0';
	ktap_diag("%s: %s", FILE_PATH, buf);
	return file_fields(&qsize, &notify, &signo, &pid) &&
	       qsize == msgs_bytes() && notify == 0 && signo == 0 && pid == 0;
}

/* SEEK_END is FILENT_SIZE; SEEK_SET 6 reads from the 7th byte; past EOF 0. */
static int file_lseek(void)
{
	char whole[128], part[128];
	int fd = open(FILE_PATH, O_RDONLY | O_CLOEXEC);
	ssize_t n, m;
	off_t end;
	int ok;

	if (fd < 0)
		return 0;
	n = read(fd, whole, sizeof(whole) - 1);
	end = lseek(fd, 0, SEEK_END);
	ok = n > 6 && end == 80 && lseek(fd, 6, SEEK_SET) == 6;
	m = ok ? read(fd, part, sizeof(part) - 1) : -1;
	ok = ok && m == n - 6 && !memcmp(part, whole + 6, m) &&
	     lseek(fd, 0, SEEK_CUR) == n &&
	     lseek(fd, 200, SEEK_SET) == 200 && read(fd, part, 16) == 0;
	ktap_diag("read %zd bytes, SEEK_END %lld, after SEEK_SET 6 %zd", n,
		  (long long)end, m);
	close(fd);
	return ok;
}

static int receive_order(void)
{
	static const unsigned int want[] = { 5, 3, 1 };
	struct mq_attr got;
	char buf[MSGSIZE + 1];
	unsigned int prio, i;
	ssize_t n;

	for (i = 0; i < ARRAY_SIZE(want); i++) {
		size_t j;

		n = mq_receive(mq, buf, sizeof(buf), &prio);
		if (n < 0)
			return fail("mq_receive");
		for (j = 0; j < ARRAY_SIZE(msgs); j++)
			if (msgs[j].prio == want[i])
				break;
		if (prio != want[i] || (size_t)n != strlen(msgs[j].text) ||
		    memcmp(buf, msgs[j].text, n)) {
			ktap_diag("message %u: priority %u, %zd bytes", i,
				  prio, n);
			return 0;
		}
	}
	return !mq_getattr(mq, &got) && got.mq_curmsgs == 0;
}

static int poll_in(void)
{
	struct pollfd p = { .fd = (int)mq, .events = POLLIN };
	int empty = poll(&p, 1, 0) == 0;
	int full = !mq_send(mq, "x", 1, 0) && poll(&p, 1, 0) == 1 &&
		   (p.revents & POLLIN);
	char buf[MSGSIZE];

	return empty && full && mq_receive(mq, buf, sizeof(buf), NULL) == 1;
}

static int sigusr1_pending(void)
{
	sigset_t set;

	return !sigpending(&set) && sigismember(&set, SIGUSR1);
}

/* Registered: the file shows us; the first send queues SIGUSR1, once. */
static int notify_once(void)
{
	struct sigevent sev = {
		.sigev_notify = SIGEV_SIGNAL,
		.sigev_signo = SIGUSR1,
	};
	struct timespec zero = { 0, 0 };
	unsigned long qsize;
	int notify, signo, pid, shown, fired, again, gone;
	sigset_t set;
	siginfo_t si;
	char buf[MSGSIZE];

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (mq_notify(mq, &sev))
		return fail("mq_notify");
	shown = file_fields(&qsize, &notify, &signo, &pid) &&
		notify == SIGEV_SIGNAL && signo == SIGUSR1 && pid == getpid();
	if (mq_send(mq, "first", 5, 0))
		return fail("mq_send");
	fired = sigtimedwait(&set, &si, &zero) == SIGUSR1 &&
		si.si_code == SI_MESGQ && si.si_pid == getpid();
	gone = file_fields(&qsize, &notify, &signo, &pid) && pid == 0 &&
	       qsize == 5;
	/* Empty the queue, fill it again: no registration, no signal. */
	again = mq_receive(mq, buf, sizeof(buf), NULL) == 5 &&
		!mq_send(mq, "second", 6, 0) && !sigusr1_pending() &&
		mq_receive(mq, buf, sizeof(buf), NULL) == 6;
	ktap_diag("shown %d fired %d unregistered %d no second signal %d",
		  shown, fired, gone, again);
	return shown && fired && gone && again;
}

/*
 * Closing any descriptor of the queue flushes it: a flush by the
 * registered process removes its registration, so another may register.
 */
static int flush_unregisters(void)
{
	struct sigevent sev = {
		.sigev_notify = SIGEV_SIGNAL,
		.sigev_signo = SIGUSR1,
	};
	unsigned long qsize;
	int notify, signo, pid, before, after, fd;

	if (mq_notify(mq, &sev))
		return fail("mq_notify");
	before = file_fields(&qsize, &notify, &signo, &pid) &&
		 pid == getpid();
	fd = open(FILE_PATH, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(FILE_PATH);
	close(fd);
	after = file_fields(&qsize, &notify, &signo, &pid) && pid == 0 &&
		signo == 0;
	/* Unregistered: registering again works, and NULL removes it. */
	return before && after && !mq_notify(mq, &sev) && !mq_notify(mq, NULL) &&
	       file_fields(&qsize, &notify, &signo, &pid) && pid == 0;
}

static int nonblock_eagain(void)
{
	struct mq_attr nb = { .mq_flags = O_NONBLOCK }, old, got;
	char buf[MSGSIZE];
	int empty, full, i;

	if (mq_setattr(mq, &nb, &old) || mq_getattr(mq, &got) ||
	    !(got.mq_flags & O_NONBLOCK))
		return 0;
	errno = 0;
	empty = mq_receive(mq, buf, sizeof(buf), NULL) < 0 && errno == EAGAIN;
	for (i = 0; i < MAXMSG; i++)
		if (mq_send(mq, "f", 1, 0))
			return fail("mq_send");
	errno = 0;
	full = mq_send(mq, "f", 1, 0) < 0 && errno == EAGAIN;
	for (i = 0; i < MAXMSG; i++)
		if (mq_receive(mq, buf, sizeof(buf), NULL) != 1)
			return 0;
	nb.mq_flags = 0;
	return empty && full && !mq_setattr(mq, &nb, NULL) &&
	       !mq_getattr(mq, &got) && !(got.mq_flags & O_NONBLOCK);
}

static int timed_receive(void)
{
	struct timespec ts;
	long long start = ktap_now_ms();
	char buf[MSGSIZE];
	long long took;
	int ok;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += 50 * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	errno = 0;
	ok = mq_timedreceive(mq, buf, sizeof(buf), NULL, &ts) < 0 &&
	     errno == ETIMEDOUT;
	took = ktap_now_ms() - start;
	ktap_diag("mq_timedreceive returned after %lld ms", took);
	return ok && took >= 40;
}

static int msgsize_errors(void)
{
	char big[MSGSIZE + 1], small[MSGSIZE - 1];
	int too_long, too_short;

	memset(big, 'b', sizeof(big));
	errno = 0;
	too_long = mq_send(mq, big, sizeof(big), 0) < 0 && errno == EMSGSIZE;
	if (mq_send(mq, big, MSGSIZE, 0))
		return 0;
	errno = 0;
	too_short = mq_receive(mq, small, sizeof(small), NULL) < 0 &&
		    errno == EMSGSIZE;
	return too_long && too_short &&
	       mq_receive(mq, big, sizeof(big), NULL) == MSGSIZE;
}

static int unlink_queue(void)
{
	mqd_t again;
	int gone;

	if (mq_close(mq))
		return fail("mq_close");
	mq = (mqd_t)-1;
	if (mq_unlink(NAME))
		return fail("mq_unlink");
	gone = access(FILE_PATH, F_OK) < 0 && errno == ENOENT;
	errno = 0;
	again = mq_open(NAME, O_RDWR);
	if (again != (mqd_t)-1) {
		mq_close(again);
		return 0;
	}
	return gone && errno == ENOENT;
}

static int do_umount(void)
{
	return mounted && pseudo_umount(MNT);
}

static const struct ktap_case tcases[] = {
	{ "mount -t mqueue on " MNT, do_mount },
	{ "mq_open O_CREAT with maxmsg 8 msgsize 64, mq_getattr agrees", do_open },
	{ "mq_send priorities 1 5 3, mq_getattr counts 3", send_three },
	{ "queue file: QSIZE is the bytes queued, no notification", qsize_line },
	{ "queue file: SEEK_END 80, read after SEEK_SET 6, EOF past it", file_lseek },
	{ "mq_receive returns priority 5 3 1 with the right bodies", receive_order },
	{ "poll: POLLIN only with a message queued", poll_in },
	{ "mq_notify SIGEV_SIGNAL: shown in the file, fires once", notify_once },
	{ "closing another descriptor of the queue unregisters us", flush_unregisters },
	{ "O_NONBLOCK: empty receive and full send are EAGAIN", nonblock_eagain },
	{ "mq_timedreceive on an empty queue is ETIMEDOUT", timed_receive },
	{ "EMSGSIZE for a long message and a short receive buffer", msgsize_errors },
	{ "mq_unlink removes the file, opening again is ENOENT", unlink_queue },
	{ "umount the mqueue mount", do_umount },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(tcases),
	.kconfig = (const char *const[]){ "CONFIG_POSIX_MQUEUE", NULL },
	.timeout = 20,
	.cases = tcases,
};
