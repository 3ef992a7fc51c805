// SPDX-License-Identifier: GPL-2.0
/*
 * kvm-stats - KVM's file operations (virt/kvm/kvm_main.c) in a guest whose
 * emulated CPU has SVM, so kvm_amd loads: /dev/kvm, a VM and a vCPU fd,
 * one vCPU run through real-mode code, the binary statistics fds of the
 * VM and the vCPU (KVM_GET_STATS_FD) and the VM's debugfs directory.
 *
 * The stats fds are read by position: kvm_stats_read() copies the header,
 * the id string, the descriptors and the data that lie at the file
 * position. read() goes on from where the last read stopped and pread()
 * reads anywhere, on both kernels. lseek is what patches/core 0113
 * changes: pristine 6.1 gives these fds noop_llseek, which returns the
 * current position and moves nothing, so each lseek case below fails
 * there (patches/core/findings); with generic_file_llseek SEEK_SET and
 * SEEK_CUR move the position, SEEK_END is relative to the anonymous
 * inode's size, 0, and a negative position is EINVAL. Each such case uses
 * a fresh stats fd whose header was read (position 24), so one case's
 * result does not depend on another's. "lseek 0 SEEK_CUR" returns the
 * position on both kernels.
 *
 * The VM's debugfs files (kvm/PID-FD/NAME, stat_fops_per_vm) are those
 * patches/core 0063 drops a .llseek = no_llseek from: no llseek either
 * way, and their open (simple_attr_open) ends in nonseekable_open(), so
 * lseek and pread are ESPIPE on both kernels; read() gives the value.
 *
 * The vCPU runs "mov al, 0x42; out 0x10, al; hlt" at 0x1000 in real mode:
 * KVM_RUN returns KVM_EXIT_IO with the byte, then KVM_EXIT_HLT (no
 * in-kernel irqchip, so hlt goes to userspace). Each KVM_RUN is bounded by
 * a timer signal, which makes it return EINTR.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <linux/kvm.h>

#include "ktap.h"

#define KVM_DEV		"/dev/kvm"
#define DEBUGFS_KVM	"/sys/kernel/debug/kvm"
#define MEM_SIZE	0x10000
#define CODE_ADDR	0x1000
#define OUT_PORT	0x10
#define OUT_BYTE	0x42
#define RUN_BOUND_MS	5000
#define HEADER_SIZE	((off_t)sizeof(struct kvm_stats_header))
/* KVM_STATS_NAME_SIZE of include/linux/kvm_host.h, not in the uapi */
#define STATS_NAME_SIZE	48

static int kvm = -1, vm = -1, vcpu = -1;
static struct kvm_run *run = MAP_FAILED;
static size_t run_size;
static unsigned char *mem = MAP_FAILED;
static int ran;			/* the vCPU exited through out and hlt */

/* One stats fd's layout, read once through read() and pread(). */
struct stats {
	const char *what;		/* "VM" or "vCPU" */
	int (*get_fd)(void);
	char id[STATS_NAME_SIZE];
	struct kvm_stats_header h;
	unsigned char *desc;		/* num_desc descriptors */
	size_t desc_size;		/* one descriptor with its name */
	uint64_t *data;
	size_t data_size;
	int fd;
};

static int fail(const char *what)
{
	ktap_perror(what);
	return 0;
}

static int vm_stats_fd(void)
{
	return ioctl(vm, KVM_GET_STATS_FD, 0);
}

static int vcpu_stats_fd(void)
{
	return ioctl(vcpu, KVM_GET_STATS_FD, 0);
}

static struct stats vm_stats = { .what = "VM", .get_fd = vm_stats_fd,
				 .fd = -1 };
static struct stats vcpu_stats = { .what = "vCPU", .get_fd = vcpu_stats_fd,
				   .fd = -1 };

static int api_version(void)
{
	int v;

	kvm = open(KVM_DEV, O_RDWR | O_CLOEXEC);
	if (kvm < 0)
		return fail(KVM_DEV);
	v = ioctl(kvm, KVM_GET_API_VERSION, 0);
	ktap_diag("KVM_GET_API_VERSION %d", v);
	return v == KVM_API_VERSION;
}

static int check_extension(void)
{
	int stats = ioctl(kvm, KVM_CHECK_EXTENSION, KVM_CAP_BINARY_STATS_FD);
	int bogus = ioctl(kvm, KVM_CHECK_EXTENSION, 100000);

	ktap_diag("KVM_CAP_BINARY_STATS_FD %d, capability 100000 %d", stats,
		  bogus);
	return stats == 1 && bogus == 0;
}

static int create_vm(void)
{
	struct kvm_userspace_memory_region r = { .slot = 0 };

	vm = ioctl(kvm, KVM_CREATE_VM, 0);
	if (vm < 0)
		return fail("KVM_CREATE_VM");
	/* guest memory at 0: the code page the vCPU runs */
	mem = mmap(NULL, MEM_SIZE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return fail("mmap guest memory");
	r.memory_size = MEM_SIZE;
	r.userspace_addr = (uintptr_t)mem;
	if (ioctl(vm, KVM_SET_USER_MEMORY_REGION, &r))
		return fail("KVM_SET_USER_MEMORY_REGION");
	return 1;
}

static int create_vcpu(void)
{
	int sz;

	vcpu = ioctl(vm, KVM_CREATE_VCPU, 0);
	if (vcpu < 0)
		return fail("KVM_CREATE_VCPU");
	/* a second vCPU with the same id is refused */
	errno = 0;
	if (ioctl(vm, KVM_CREATE_VCPU, 0) >= 0 || errno != EEXIST)
		return fail("KVM_CREATE_VCPU 0 again");
	sz = ioctl(kvm, KVM_GET_VCPU_MMAP_SIZE, 0);
	if (sz < (int)sizeof(*run))
		return fail("KVM_GET_VCPU_MMAP_SIZE");
	run_size = sz;
	run = mmap(NULL, run_size, PROT_READ | PROT_WRITE, MAP_SHARED, vcpu, 0);
	if (run == MAP_FAILED)
		return fail("mmap kvm_run");
	return 1;
}

static volatile sig_atomic_t run_timed_out;

static void on_run_timer(int sig)
{
	(void)sig;
	run_timed_out = 1;
}

/*
 * KVM_RUN bounded by a one-shot timer: its signal (no SA_RESTART) makes
 * KVM_RUN return EINTR. Returns the exit reason, or -1.
 */
static int bounded_run(void)
{
	struct sigevent sev = { .sigev_notify = SIGEV_SIGNAL,
				.sigev_signo = SIGUSR1 };
	struct itimerspec its = { .it_value = {
		.tv_sec = RUN_BOUND_MS / 1000,
		.tv_nsec = (RUN_BOUND_MS % 1000) * 1000000L } };
	struct sigaction sa = { .sa_handler = on_run_timer };
	long long t0 = ktap_now_ms();
	timer_t timer;
	int r, err;

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL) ||
	    timer_create(CLOCK_MONOTONIC, &sev, &timer))
		return ktap_perror("timer");
	run_timed_out = 0;
	timer_settime(timer, 0, &its, NULL);
	r = ioctl(vcpu, KVM_RUN, 0);
	err = errno;
	timer_delete(timer);
	ktap_diag("KVM_RUN %d (%s), exit reason %u, %lld ms", r,
		  r ? strerror(err) : "ok", run->exit_reason,
		  ktap_now_ms() - t0);
	if (r) {
		if (run_timed_out)
			ktap_diag("KVM_RUN did not exit within %d ms",
				  RUN_BOUND_MS);
		return -1;
	}
	return run->exit_reason;
}

static int run_out(void)
{
	/* mov al, 0x42; out 0x10, al; hlt */
	static const unsigned char code[] = { 0xb0, OUT_BYTE, 0xe6, OUT_PORT,
					      0xf4 };
	struct kvm_sregs sregs;
	struct kvm_regs regs = { .rip = CODE_ADDR, .rflags = 0x2 };
	const unsigned char *data;

	memcpy(mem + CODE_ADDR, code, sizeof(code));
	if (ioctl(vcpu, KVM_GET_SREGS, &sregs))
		return fail("KVM_GET_SREGS");
	sregs.cs.base = 0;
	sregs.cs.selector = 0;
	if (ioctl(vcpu, KVM_SET_SREGS, &sregs))
		return fail("KVM_SET_SREGS");
	if (ioctl(vcpu, KVM_SET_REGS, &regs))
		return fail("KVM_SET_REGS");
	if (bounded_run() != KVM_EXIT_IO)
		return 0;
	data = (const unsigned char *)run + run->io.data_offset;
	ktap_diag("io: direction %u size %u port %#x count %u data %#x",
		  run->io.direction, run->io.size, run->io.port,
		  run->io.count, *data);
	return run->io.direction == KVM_EXIT_IO_OUT && run->io.size == 1 &&
	       run->io.port == OUT_PORT && run->io.count == 1 &&
	       *data == OUT_BYTE;
}

static int run_hlt(void)
{
	struct kvm_regs regs;

	if (bounded_run() != KVM_EXIT_HLT)
		return 0;
	if (ioctl(vcpu, KVM_GET_REGS, &regs))
		return fail("KVM_GET_REGS");
	ktap_diag("rip %#llx", (unsigned long long)regs.rip);
	/* hlt is the 5th byte: rip points past it */
	ran = regs.rip == CODE_ADDR + 5;
	return ran;
}

/* The stats fd: read-only, its header read with read(). */
static int stats_header(struct stats *s)
{
	ssize_t n;

	s->fd = s->get_fd();
	if (s->fd < 0)
		return fail("KVM_GET_STATS_FD");
	if ((fcntl(s->fd, F_GETFL) & O_ACCMODE) != O_RDONLY) {
		ktap_diag("the stats fd is not read-only");
		return 0;
	}
	n = read(s->fd, &s->h, sizeof(s->h));
	if (n != (ssize_t)sizeof(s->h))
		return fail("read header");
	ktap_diag("%s: flags %u name_size %u num_desc %u id %u desc %u data %u",
		  s->what, s->h.flags, s->h.name_size, s->h.num_desc,
		  s->h.id_offset, s->h.desc_offset, s->h.data_offset);
	s->desc_size = sizeof(struct kvm_stats_desc) + s->h.name_size;
	return s->h.flags == 0 && s->h.name_size == STATS_NAME_SIZE &&
	       s->h.num_desc > 0 && s->h.id_offset == HEADER_SIZE &&
	       s->h.desc_offset == s->h.id_offset + s->h.name_size &&
	       s->h.data_offset == s->h.desc_offset +
				   s->h.num_desc * s->desc_size;
}

/* read() goes on after the header: the id string. */
static int stats_id(struct stats *s)
{
	char want[STATS_NAME_SIZE];

	if (s->fd < 0 || s->h.name_size != STATS_NAME_SIZE)
		return 0;
	if (read(s->fd, s->id, sizeof(s->id)) != (ssize_t)sizeof(s->id))
		return fail("read id");
	s->id[sizeof(s->id) - 1] = '\0';
	if (s == &vm_stats)
		snprintf(want, sizeof(want), "kvm-%d", getpid());
	else
		snprintf(want, sizeof(want), "kvm-%d/vcpu-0", getpid());
	ktap_diag("%s id '%s'", s->what, s->id);
	return !strcmp(s->id, want);
}

static const struct kvm_stats_desc *desc_at(const struct stats *s,
					    unsigned int i)
{
	return (const void *)(s->desc + i * s->desc_size);
}

/* The value of the stat named name, or -1 when there is none. */
static long long stat_value(const struct stats *s, const char *name)
{
	unsigned int i;

	for (i = 0; s->desc && i < s->h.num_desc; i++) {
		const struct kvm_stats_desc *d = desc_at(s, i);

		if (!strcmp(d->name, name) &&
		    d->offset + 8 <= s->data_size)
			return (long long)s->data[d->offset / 8];
	}
	return -1;
}

/*
 * pread of the descriptors: names NUL-terminated, offsets of whole values,
 * the names this test reads present. stats_data() checks that the data
 * block ends where the last value ends.
 */
static int stats_desc(struct stats *s, const char *const *names)
{
	size_t len = s->h.num_desc * s->desc_size;
	unsigned int i;

	if (s->fd < 0 || !len)
		return 0;
	s->desc = malloc(len);
	if (!s->desc || pread(s->fd, s->desc, len, s->h.desc_offset) !=
			(ssize_t)len)
		return fail("pread descriptors");
	/* the data block ends with the last value a descriptor names */
	s->data_size = 0;
	for (i = 0; i < s->h.num_desc; i++) {
		const struct kvm_stats_desc *d = desc_at(s, i);

		if (!memchr(d->name, '\0', s->h.name_size) || !d->size ||
		    d->offset % 8) {
			ktap_diag("descriptor %u is malformed", i);
			return 0;
		}
		if (d->offset + d->size * 8 > s->data_size)
			s->data_size = d->offset + d->size * 8;
	}
	for (; *names; names++) {
		for (i = 0; i < s->h.num_desc; i++)
			if (!strcmp(desc_at(s, i)->name, *names))
				break;
		if (i == s->h.num_desc) {
			ktap_diag("no stat %s", *names);
			return 0;
		}
	}
	ktap_diag("%s: %u stats, %zu bytes of data, first %s", s->what,
		  s->h.num_desc, s->data_size, desc_at(s, 0)->name);
	return 1;
}

/* pread of the data block; a pread at its end is end of file. */
static int stats_data(struct stats *s)
{
	unsigned char byte;

	if (s->fd < 0 || !s->data_size)
		return 0;
	s->data = malloc(s->data_size);
	if (!s->data || pread(s->fd, s->data, s->data_size,
			      s->h.data_offset) != (ssize_t)s->data_size)
		return fail("pread data");
	return pread(s->fd, &byte, 1, s->h.data_offset + s->data_size) == 0;
}

static off_t stats_end(const struct stats *s)
{
	return s->h.data_offset + s->data_size;
}

/* read() from the id string's end: the descriptors, the data, then EOF. */
static int stats_read_on(struct stats *s)
{
	size_t rest = stats_end(s) - s->h.desc_offset;
	unsigned char *buf;
	ssize_t n;
	int ok;

	if (s->fd < 0 || !s->data)
		return 0;
	buf = malloc(rest + 1);
	if (!buf)
		return fail("malloc");
	n = read(s->fd, buf, rest + 1);
	ok = n == (ssize_t)rest &&
	     !memcmp(buf, s->desc, s->h.num_desc * s->desc_size) &&
	     !memcmp(buf + (s->h.data_offset - s->h.desc_offset), s->data,
		     s->data_size) &&
	     read(s->fd, buf, 1) == 0;
	if (n != (ssize_t)rest)
		ktap_diag("read %zd of %zu bytes", n, rest);
	free(buf);
	return ok;
}

/* Same on both kernels: noop_llseek and generic_file_llseek alike. */
static int stats_seek_cur0(struct stats *s)
{
	off_t pos;

	if (s->fd < 0 || !s->data)
		return 0;
	pos = lseek(s->fd, 0, SEEK_CUR);
	ktap_diag("lseek 0 SEEK_CUR %lld, end %lld", (long long)pos,
		  (long long)stats_end(s));
	return pos == stats_end(s);
}

/* A fresh stats fd with its header read: position 24. */
static int fresh_fd(const struct stats *s)
{
	struct kvm_stats_header h;
	int fd = s->get_fd();

	if (fd < 0)
		return ktap_perror("KVM_GET_STATS_FD");
	if (read(fd, &h, sizeof(h)) != (ssize_t)sizeof(h)) {
		close(fd);
		return ktap_perror("read header");
	}
	return fd;
}

static int seek_rewind(struct stats *s)
{
	struct kvm_stats_header h;
	int fd = fresh_fd(s);
	off_t pos;
	int ok;

	if (fd < 0)
		return 0;
	pos = lseek(fd, 0, SEEK_SET);
	ok = read(fd, &h, sizeof(h)) == (ssize_t)sizeof(h) &&
	     !memcmp(&h, &s->h, sizeof(h));
	ktap_diag("lseek 0 SEEK_SET %lld, the header %s", (long long)pos,
		  ok ? "read again" : "not read");
	close(fd);
	return pos == 0 && ok;
}

static int seek_data(struct stats *s)
{
	int fd = fresh_fd(s);
	uint64_t *buf;
	off_t pos;
	ssize_t n;
	int ok;

	if (fd < 0 || !s->data)
		return 0;
	buf = malloc(s->data_size);
	if (!buf)
		return fail("malloc");
	pos = lseek(fd, s->h.data_offset, SEEK_SET);
	n = read(fd, buf, s->data_size);
	ok = n == (ssize_t)s->data_size && !memcmp(buf, s->data, s->data_size);
	ktap_diag("lseek %u SEEK_SET %lld, read %zd bytes%s", s->h.data_offset,
		  (long long)pos, n, ok ? ", the data block" : "");
	free(buf);
	close(fd);
	return pos == s->h.data_offset && ok;
}

static int seek_cur_back(struct stats *s)
{
	off_t want = stats_end(s) - 8;
	int fd = fresh_fd(s);
	uint64_t v = 0;
	off_t pos;
	ssize_t n;

	if (fd < 0 || !s->data)
		return 0;
	pos = lseek(fd, want - HEADER_SIZE, SEEK_CUR);
	n = read(fd, &v, sizeof(v));
	ktap_diag("lseek +%lld SEEK_CUR %lld (want %lld), read %zd: %llu",
		  (long long)(want - HEADER_SIZE), (long long)pos,
		  (long long)want, n, (unsigned long long)v);
	close(fd);
	return pos == want && n == 8 && v == s->data[s->data_size / 8 - 1];
}

static int seek_end(struct stats *s)
{
	int fd = fresh_fd(s);
	off_t pos;

	if (fd < 0)
		return 0;
	pos = lseek(fd, 0, SEEK_END);
	ktap_diag("lseek 0 SEEK_END %lld", (long long)pos);
	close(fd);
	return pos == 0;
}

static int seek_negative(struct stats *s)
{
	int fd = fresh_fd(s);
	off_t pos, cur;
	int err;

	if (fd < 0)
		return 0;
	errno = 0;
	pos = lseek(fd, -1, SEEK_SET);
	err = errno;
	cur = lseek(fd, 0, SEEK_CUR);
	ktap_diag("lseek -1 SEEK_SET %lld (%s), position then %lld",
		  (long long)pos, strerror(err), (long long)cur);
	close(fd);
	return pos == -1 && err == EINVAL && cur == HEADER_SIZE;
}

static void stats_cases(struct stats *s, const char *const *names)
{
	ktap_ok(stats_header(s),
		"%s stats fd: read-only, read() of the header: flags 0, names of 48 bytes, id, descriptors and data in order",
		s->what);
	ktap_ok(stats_id(s), "%s stats fd: read() goes on with the id string",
		s->what);
	ktap_ok(stats_desc(s, names),
		"%s stats fd: pread of the descriptors, the stats this test reads among them",
		s->what);
	ktap_ok(stats_data(s),
		"%s stats fd: pread of the data block, end of file after it",
		s->what);
	ktap_ok(stats_read_on(s),
		"%s stats fd: read() goes on through descriptors and data to end of file",
		s->what);
	ktap_ok(stats_seek_cur0(s),
		"%s stats fd: lseek 0 SEEK_CUR returns where read() stopped",
		s->what);
	/* patches/core 0113: each fails on pristine 6.1 (noop_llseek) */
	ktap_ok(seek_rewind(s),
		"%s stats fd: lseek 0 SEEK_SET returns 0 and read gives the header again",
		s->what);
	ktap_ok(seek_data(s),
		"%s stats fd: lseek to data_offset SEEK_SET returns it and read gives the data block",
		s->what);
	ktap_ok(seek_cur_back(s),
		"%s stats fd: lseek SEEK_CUR to the last value returns its offset and read gives it",
		s->what);
	ktap_ok(seek_end(s),
		"%s stats fd: lseek 0 SEEK_END returns 0, the anonymous inode's size",
		s->what);
	ktap_ok(seek_negative(s),
		"%s stats fd: lseek to -1 SEEK_SET fails with EINVAL, the position kept",
		s->what);
}

#define STATS_CASES 11

/* The exits the run counted, in the vCPU's binary stats. */
static int vcpu_counted(void)
{
	long long exits = stat_value(&vcpu_stats, "exits");
	long long io = stat_value(&vcpu_stats, "io_exits");
	long long halt = stat_value(&vcpu_stats, "halt_exits");

	unsigned int i;

	ktap_diag("exits %lld io_exits %lld halt_exits %lld", exits, io, halt);
	/* the rest that moved, to tell how a run went */
	for (i = 0; vcpu_stats.desc && i < vcpu_stats.h.num_desc; i++) {
		const struct kvm_stats_desc *d = desc_at(&vcpu_stats, i);

		if (d->size == 1 && vcpu_stats.data[d->offset / 8])
			ktap_diag("%s %llu", d->name, (unsigned long long)
				  vcpu_stats.data[d->offset / 8]);
	}
	return ran && exits >= 2 && io == 1 && halt == 1;
}

static char vm_dir[128];

static int debugfs_dir(void)
{
	char path[192];
	struct stat st;

	snprintf(vm_dir, sizeof(vm_dir), DEBUGFS_KVM "/%d-%d", getpid(), vm);
	snprintf(path, sizeof(path), "%s/vcpu0", vm_dir);
	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return fail(path);
	snprintf(path, sizeof(path), "%s/remote_tlb_flush", vm_dir);
	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return fail(path);
	snprintf(path, sizeof(path), "%s/exits", vm_dir);
	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return fail(path);
	/* cumulative stats can be cleared: 0644 */
	return (st.st_mode & 0777) == 0644;
}

/* A debugfs counter file's value, read as text. */
static long long debugfs_value(const char *name)
{
	char path[192], buf[32];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", vm_dir, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ktap_perror(path);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 1 || buf[n - 1] != '\n')
		return ktap_perror(path);
	buf[n] = '\0';
	return strtoll(buf, NULL, 10);
}

static int debugfs_exits(void)
{
	long long v = debugfs_value("exits");

	ktap_diag("%s/exits: read %lld, stats fd %lld", vm_dir, v,
		  stat_value(&vcpu_stats, "exits"));
	return v > 0 && v == stat_value(&vcpu_stats, "exits");
}

static int debugfs_pid(void)
{
	long long pid = debugfs_value("vcpu0/pid");

	ktap_diag("vcpu0/pid %lld", pid);
	return ran && pid == getpid();
}

/*
 * patches/core 0063: no llseek before or after, and a nonseekable open:
 * lseek and pread are ESPIPE on both kernels.
 */
static int debugfs_lseek(void)
{
	char path[192], c;
	ssize_t n;
	off_t pos;
	int fd, err, pread_err;

	snprintf(path, sizeof(path), "%s/exits", vm_dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(path);
	errno = 0;
	pos = lseek(fd, 0, SEEK_SET);
	err = errno;
	errno = 0;
	n = pread(fd, &c, 1, 0);
	pread_err = errno;
	close(fd);
	ktap_diag("lseek 0 SEEK_SET %lld (%s), pread %zd (%s)", (long long)pos,
		  strerror(err), n, strerror(pread_err));
	return pos == -1 && err == ESPIPE && n == -1 && pread_err == ESPIPE;
}

/* Writing 0 clears the counter, which the stats fd then reads too. */
static int debugfs_clear(void)
{
	char path[192];
	uint64_t v = ~0ULL;
	long long text;
	int fd, refused;

	snprintf(path, sizeof(path), "%s/io_exits", vm_dir);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(path);
	errno = 0;
	refused = write(fd, "1\n", 2) < 0 && errno == EINVAL;
	if (write(fd, "0\n", 2) != 2) {
		close(fd);
		return fail("write 0");
	}
	close(fd);
	text = debugfs_value("io_exits");
	if (vcpu_stats.fd >= 0) {
		off_t off = 0;
		unsigned int i;

		for (i = 0; i < vcpu_stats.h.num_desc; i++)
			if (!strcmp(desc_at(&vcpu_stats, i)->name, "io_exits"))
				off = vcpu_stats.h.data_offset +
				      desc_at(&vcpu_stats, i)->offset;
		if (!off || pread(vcpu_stats.fd, &v, 8, off) != 8)
			return fail("pread io_exits");
	}
	ktap_diag("writing 1 %s; io_exits then %lld, stats fd %llu",
		  refused ? "refused" : "accepted", text,
		  (unsigned long long)v);
	return refused && text == 0 && v == 0;
}

static int vm_gone(void)
{
	struct stat st;

	munmap(run, run_size);
	run = MAP_FAILED;
	close(vcpu_stats.fd);
	close(vm_stats.fd);
	vcpu_stats.fd = vm_stats.fd = -1;
	close(vcpu);
	close(vm);
	vcpu = vm = -1;
	/* the last reference is gone: the debugfs directory with it */
	errno = 0;
	return stat(vm_dir, &st) < 0 && errno == ENOENT;
}

static void run_cases(void)
{
	static const char *const vm_names[] = { "remote_tlb_flush", NULL };
	static const char *const vcpu_names[] = { "exits", "io_exits",
						  "halt_exits", NULL };

	ktap_ok(api_version(), "/dev/kvm: KVM_GET_API_VERSION is 12");
	ktap_ok(check_extension(),
		"KVM_CHECK_EXTENSION: KVM_CAP_BINARY_STATS_FD 1, an unknown capability 0");
	ktap_ok(create_vm(), "KVM_CREATE_VM and a memory slot at 0");
	ktap_ok(create_vcpu(),
		"KVM_CREATE_VCPU 0 (again: EEXIST) and its kvm_run mapping");
	ktap_ok(vcpu >= 0 && run != MAP_FAILED && run_out(),
		"KVM_RUN: real-mode out 0x42 to port 0x10 exits KVM_EXIT_IO with it");
	ktap_ok(vcpu >= 0 && run != MAP_FAILED && run_hlt(),
		"KVM_RUN again: hlt exits KVM_EXIT_HLT past the hlt");
	stats_cases(&vm_stats, vm_names);
	stats_cases(&vcpu_stats, vcpu_names);
	ktap_ok(vcpu_counted(),
		"vCPU stats: exits, one io_exit and one halt_exit counted");
	ktap_ok(debugfs_dir(),
		"debugfs kvm/PID-FD: the VM's directory, its stat files and vcpu0/");
	ktap_ok(debugfs_exits(),
		"debugfs kvm/PID-FD/exits: read() gives what the vCPU stats fd says");
	ktap_ok(debugfs_pid(),
		"debugfs kvm/PID-FD/vcpu0/pid: the pid that ran the vCPU");
	ktap_ok(debugfs_lseek(),
		"debugfs kvm/PID-FD/exits: lseek and pread fail with ESPIPE (no llseek, nonseekable)");
	ktap_ok(debugfs_clear(),
		"debugfs kvm/PID-FD/io_exits: writing 1 is EINVAL, 0 clears it, the stats fd too");
	ktap_ok(vm_gone(),
		"closing the VM and vCPU fds removes the debugfs directory");
}

const struct ktap_test ktap_test = {
	.plan = 6 + 2 * STATS_CASES + 7,
	.devices = (const char *const[]){ KVM_DEV, NULL },
	.kconfig = (const char *const[]){ "CONFIG_KVM", "CONFIG_KVM_AMD",
					  NULL },
	.timeout = 60,
	.run = run_cases,
};
