// SPDX-License-Identifier: GPL-2.0
/*
 * fio-verify - Debian's fio (run from the host's /usr, the profile's
 * tool=/usr/bin/fio line) writes and verifies data on the profile's block
 * devices and filesystems: random and sequential writes in several block
 * sizes, through psync and libaio, each block checked on read-back. A
 * verification error, a short job or a fio that dies fails its case; a
 * kernel splat meanwhile fails the boot (tools/lab/verdict).
 *
 * The profile names its targets on the kernel command line,
 *
 *	bklfree.fio=KIND:NAME:IO:KIB[,KIND:NAME:IO:KIB...]
 *
 *   KIND:NAME  blk:SERIAL   the whole disk SERIAL of bklfree.disks=
 *                           (disks.h): fio on its block device node
 *              loop:tmpfs   a loop device over a file of 3 * KIB in /tmp
 *                           (tmpfs), made here and detached after
 *              affs:SERIAL  a file per job in a fresh directory of the
 *                           AFFS volume on disk SERIAL (affs/volume.h),
 *                           mounted read-write; the files and the
 *                           directory are deleted and the volume unmounted
 *                           after, so the profile's hostcheck=fsck.affs
 *                           sees it clean
 *   IO         direct (O_DIRECT, --direct=1) or buffered: what the target
 *              allows (AFFS OFS has no direct_IO; fio still syncs and
 *              drops the page cache before it verifies)
 *   KIB        what each job writes and verifies, a multiple of 64; on a
 *              block device job J (0, 1, 2) works at offset J * KIB
 *
 * The jobs, each a case per target:
 *
 *   rand4k   randwrite, 4 KiB blocks, psync, verify=crc32c
 *   rand16k  randwrite, 16 KiB blocks, libaio at queue depth 8,
 *            verify=crc32c
 *   seq64k   sequential write, 64 KiB blocks, psync, verify=sha256
 *
 * Each job writes its whole range, then (fio's do_verify) syncs, drops the
 * page cache and reads every block back against the checksum in its
 * header. Starting fio costs about 3 s under TCG (its libraries come over
 * 9p) and the jobs a few hundred ms, so one fio run does every job of every
 * target, one after the other (--stonewall), with the jobs on its command
 * line (no job file) and --output-format=terse: a line per job with its
 * error and the KiB it wrote and read back. A job's case passes when fio
 * exited 0 and the job reports error 0 and exactly KIB written and
 * verified; a diagnostic line gives those numbers and fio's own write and
 * verify times, and any other line fio prints (a verify failure names the
 * offset and both checksums) is a diagnostic too. A fio run longer than
 * FIO_SECS is killed (an alarm armed before exec) and fails every job.
 *
 * Before the jobs, a case per target: blk, the disk was found; loop, the
 * loop device is attached; affs, the volume mounts read-write and the
 * directory is made. After them: loop, the device is detached and its
 * file removed; affs, the files and the directory are deleted (the free
 * blocks before the jobs and after a sync, as a diagnostic: the same
 * number unless blocks leaked), then the volume unmounts.
 *
 * fio keeps its job table in SysV shared memory (shmget): the kernel needs
 * CONFIG_SYSVIPC.
 */
#include <linux/loop.h>
#include <sys/statvfs.h>
#include <sys/wait.h>

#include "affs/volume.h"

#define TOOL "/usr/bin/fio"
#define FIO_SECS 30
#define TARGETS_MAX 8
#define LOOP_FILE "/tmp/fio-loop.img"

enum kind { BLK, LOOP, AFFS };

static const char *const kind_names[] = { "blk", "loop", "affs" };

static const struct job {
	const char *name, *rw, *bs, *engine, *verify;
	unsigned int iodepth;
} jobs[] = {
	{ "rand4k", "randwrite", "4k", "psync", "crc32c", 1 },
	{ "rand16k", "randwrite", "16k", "libaio", "crc32c", 8 },
	{ "seq64k", "write", "64k", "psync", "sha256", 1 },
};

#define NJOBS ((unsigned int)ARRAY_SIZE(jobs))

/* What fio reported for one job. */
struct fio_result {
	int seen;		/* its terse line */
	long err;
	unsigned long long read_kib, write_kib;
	unsigned long long read_ms, write_ms;	/* fio's runtimes */
};

struct target {
	enum kind kind;
	char name[64];		/* serial, or "tmpfs" */
	int direct;
	unsigned int kib;
	int ready;		/* set up: the jobs run */
	int loop_fd;
	char node[PATH_MAX];	/* the block device */
	char dir[PATH_MAX];	/* affs: the mount point */
	char fiodir[PATH_MAX];	/* affs: the fresh directory */
	unsigned long long free_before;
	struct fio_result res[NJOBS];
};

static struct target targets[TARGETS_MAX];
static int ntargets = -1;	/* -1: bklfree.fio= missing or bad */

/* The cases of a target besides its jobs: before and after them. */
static unsigned int extra_cases(enum kind k)
{
	return k == BLK ? 1 : k == LOOP ? 2 : 3;
}

static int parse_item(char *item, struct target *t)
{
	char kind[8], io[16];
	unsigned int i;

	memset(t, 0, sizeof(*t));
	t->loop_fd = -1;
	if (sscanf(item, "%7[^:]:%63[^:]:%15[^:]:%u", kind, t->name, io,
		   &t->kib) != 4 || !t->kib || t->kib % 64 ||
	    (strcmp(io, "direct") && strcmp(io, "buffered")))
		return -1;
	t->direct = !strcmp(io, "direct");
	for (i = 0; i < ARRAY_SIZE(kind_names); i++)
		if (!strcmp(kind, kind_names[i])) {
			t->kind = (enum kind)i;
			return 0;
		}
	return -1;
}

/* bklfree.fio= of /proc/cmdline into targets[]; -1 when missing or bad. */
static int parse_cmdline(void)
{
	char line[4096], *word, *save, *item, *isave;
	FILE *f = fopen("/proc/cmdline", "r");
	int n = -1;

	if (!f || !fgets(line, sizeof(line), f)) {
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	for (word = strtok_r(line, " \n", &save); word;
	     word = strtok_r(NULL, " \n", &save)) {
		if (strncmp(word, "bklfree.fio=", 12))
			continue;
		n = 0;
		for (item = strtok_r(word + 12, ",", &isave); item;
		     item = strtok_r(NULL, ",", &isave)) {
			if (n == TARGETS_MAX || parse_item(item, &targets[n]))
				return -1;
			n++;
		}
	}
	return n > 0 ? n : -1;
}

static unsigned int plan(void)
{
	unsigned int p = 0;
	int i;

	ntargets = parse_cmdline();
	if (ntargets < 0)
		return 1;
	for (i = 0; i < ntargets; i++)
		p += extra_cases(targets[i].kind) + NJOBS;
	return p;
}

static struct disk disks[DISKS_MAX];
static int ndisks = -1;

/* The node of disk serial, looking the disks up once; NULL if absent. */
static const char *disk_node(const char *serial)
{
	int i;

	if (ndisks < 0) {
		ndisks = disks_expected(disks, NULL);
		if (ndisks > 0)
			disks_wait(disks, ndisks, &affs_where);
	}
	for (i = 0; i < ndisks; i++)
		if (!strcmp(disks[i].serial, serial) && disks[i].node[0])
			return disks[i].node;
	return NULL;
}

/* The file or device job j of t works on. */
static void job_path(const struct target *t, unsigned int j, char *out,
		     size_t size)
{
	if (t->kind == AFFS)
		snprintf(out, size, "%.200s/%s", t->fiodir, jobs[j].name);
	else
		snprintf(out, size, "%s", t->node);
}

static void setup_blk(struct target *t)
{
	const char *node = disk_node(t->name);

	if (node)
		snprintf(t->node, sizeof(t->node), "%s", node);
	t->ready = node != NULL;
	ktap_ok(t->ready, "fio blk %s: disk found", t->name);
}

/* A free loop device bound to LOOP_FILE; its fd, or -1. */
static int loop_attach(struct target *t)
{
	int ctl, nr, fd = -1, file;

	file = open(LOOP_FILE, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (file < 0)
		return ktap_perror(LOOP_FILE);
	if (ftruncate(file, (off_t)t->kib * NJOBS * 1024)) {
		ktap_perror("ftruncate " LOOP_FILE);
		close(file);
		return -1;
	}
	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0) {
		ktap_perror("/dev/loop-control");
		close(file);
		return -1;
	}
	nr = ioctl(ctl, LOOP_CTL_GET_FREE);
	close(ctl);
	if (nr < 0) {
		ktap_perror("LOOP_CTL_GET_FREE");
		close(file);
		return -1;
	}
	snprintf(t->node, sizeof(t->node), "/dev/loop%d", nr);
	if (ktap_dev_present(t->node))
		fd = open(t->node, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		ktap_perror(t->node);
	} else if (ioctl(fd, LOOP_SET_FD, file)) {
		ktap_perror("LOOP_SET_FD");
		close(fd);
		fd = -1;
	}
	close(file);
	return fd;
}

static void setup_loop(struct target *t)
{
	t->loop_fd = loop_attach(t);
	t->ready = t->loop_fd >= 0;
	if (t->ready)
		ktap_diag("%s over %s", t->node, LOOP_FILE);
	ktap_ok(t->ready, "fio loop %s: loop device over a %u KiB file attached",
		t->name, t->kib * NJOBS);
}

/* Detaches the loop device and removes its file: 1 when both went. */
static int loop_detach(struct target *t)
{
	struct loop_info64 info;
	int ok = 1, fd;

	if (ioctl(t->loop_fd, LOOP_CLR_FD)) {
		ktap_perror("LOOP_CLR_FD");
		ok = 0;
	}
	close(t->loop_fd);
	t->loop_fd = -1;
	/* Unbound, LOOP_GET_STATUS64 fails (ENXIO). */
	fd = open(t->node, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (!ioctl(fd, LOOP_GET_STATUS64, &info)) {
			ktap_diag("%s still bound to %s", t->node,
				  (char *)info.lo_file_name);
			ok = 0;
		}
		close(fd);
	}
	if (unlink(LOOP_FILE)) {
		ktap_perror(LOOP_FILE);
		ok = 0;
	}
	return ok;
}

static void cleanup_loop(struct target *t)
{
	ktap_ok(t->ready && loop_detach(t),
		"fio loop %s: loop device detached and its file removed",
		t->name);
}

static unsigned long long free_blocks(const char *dir)
{
	struct statvfs s;

	return statvfs(dir, &s) ? 0 : (unsigned long long)s.f_bfree;
}

static const struct affs_volume *affs_volume_of(const char *serial)
{
	size_t i;

	for (i = 0; i < AFFS_NR_VOLUMES; i++)
		if (!strcmp(affs_volumes[i].serial, serial))
			return &affs_volumes[i];
	return NULL;
}

static void setup_affs(struct target *t)
{
	const struct affs_volume *v = affs_volume_of(t->name);
	const char *node = disk_node(t->name);
	int mounted = 0;

	if (!v)
		ktap_diag("%s is not an affs volume of affs/volume.h", t->name);
	if (v && node)
		mounted = affs_mount(node, v, 0, t->dir, sizeof(t->dir));
	if (mounted) {
		t->free_before = free_blocks(t->dir);
		snprintf(t->fiodir, sizeof(t->fiodir), "%.200s/fio", t->dir);
		t->ready = !mkdir(t->fiodir, 0755);
		if (!t->ready) {
			ktap_perror(t->fiodir);
			affs_umount(t->dir);
		}
	}
	ktap_ok(t->ready,
		"fio affs %s: mounted read-write, fresh directory made",
		t->name);
}

static void cleanup_affs(struct target *t)
{
	char file[PATH_MAX];
	int clean = t->ready;
	unsigned int j;

	if (t->ready) {
		for (j = 0; j < NJOBS; j++) {
			job_path(t, j, file, sizeof(file));
			if (unlink(file) && errno != ENOENT) {
				ktap_perror(file);
				clean = 0;
			}
		}
		if (rmdir(t->fiodir)) {
			ktap_perror(t->fiodir);
			clean = 0;
		}
		/* Without the sync a few blocks may still be counted used. */
		sync();
		ktap_diag("%s: %llu free blocks before the jobs, %llu after the cleanup",
			  t->name, t->free_before, free_blocks(t->dir));
	}
	ktap_ok(clean, "fio affs %s: files and directory deleted", t->name);
	ktap_ok(t->ready && affs_umount(t->dir), "fio affs %s: unmounted",
		t->name);
}

/* Field i (0-based) of a terse line, or NULL. */
static const char *terse_field(const char *line, unsigned int i)
{
	while (i--) {
		line = strchr(line, ';');
		if (!line)
			return NULL;
		line++;
	}
	return line;
}

/*
 * A terse version 3 line: version;fio version;jobname;groupid;error;read
 * KiB;read bandwidth;read IOPS;read runtime ms;... with 41 fields of read
 * status from field 5, so write KiB is field 46 and write runtime field 49.
 * Job names are "tT.NAME": target T, job NAME.
 */
static void parse_terse(const char *line)
{
	const char *name = terse_field(line, 2), *err = terse_field(line, 4),
		   *rd = terse_field(line, 5), *wr = terse_field(line, 46),
		   *rms = terse_field(line, 8), *wms = terse_field(line, 49);
	struct fio_result *r;
	unsigned int j;
	int t, len;

	if (!name || !err || !rd || !wr || !rms || !wms ||
	    sscanf(name, "t%d.%n", &t, &len) != 1 || t < 0 || t >= ntargets)
		return;
	for (j = 0; j < NJOBS; j++)
		if (!strncmp(name + len, jobs[j].name, strlen(jobs[j].name)) &&
		    name[len + strlen(jobs[j].name)] == ';')
			break;
	if (j == NJOBS)
		return;
	r = &targets[t].res[j];
	r->seen = 1;
	r->err = strtol(err, NULL, 10);
	r->read_kib = strtoull(rd, NULL, 10);
	r->write_kib = strtoull(wr, NULL, 10);
	r->read_ms = strtoull(rms, NULL, 10);
	r->write_ms = strtoull(wms, NULL, 10);
}

#define ARGS_MAX (8 + TARGETS_MAX * NJOBS * 12)

/*
 * Runs fio once with a job per ready target and job, each after the one
 * before (--stonewall); the terse lines go to the targets' results, any
 * other output is a diagnostic. Returns waitpid's status (-1: not run).
 */
static int run_fio(void)
{
	static char arg[ARGS_MAX][PATH_MAX + 16];
	static char line[16384];
	char *argv[ARGS_MAX + 1];
	unsigned int n = 0, j;
	long long start = ktap_now_ms();
	int status = -1, fds[2], i;
	pid_t pid;
	FILE *out;

#define ARG(...) snprintf(arg[n], sizeof(arg[n]), __VA_ARGS__), \
		 argv[n] = arg[n], n++
	ARG("%s", TOOL);
	ARG("--output-format=terse");
	ARG("--terse-version=3");
	ARG("--eta=never");
	for (i = 0; i < ntargets; i++) {
		const struct target *t = &targets[i];

		if (!t->ready)
			continue;
		for (j = 0; j < NJOBS; j++) {
			const struct job *jb = &jobs[j];
			char path[PATH_MAX];

			job_path(t, j, path, sizeof(path));
			ARG("--name=t%d.%s", i, jb->name);
			ARG("--filename=%s", path);
			ARG("--rw=%s", jb->rw);
			ARG("--bs=%s", jb->bs);
			ARG("--ioengine=%s", jb->engine);
			ARG("--iodepth=%u", jb->iodepth);
			ARG("--direct=%d", t->direct);
			ARG("--size=%uk", t->kib);
			ARG("--offset=%lluk", t->kind == AFFS ? 0ULL :
			    (unsigned long long)j * t->kib);
			ARG("--verify=%s", jb->verify);
			ARG("--do_verify=1");
			ARG("--stonewall");
		}
	}
#undef ARG
	if (n == 4)
		return -1;
	argv[n] = NULL;

	if (pipe(fds))
		ktap_bail("pipe: %s", strerror(errno));
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		ktap_bail("fork: %s", strerror(errno));
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		close(fds[0]);
		close(fds[1]);
		signal(SIGALRM, SIG_DFL);
		/* Kept across exec: fio does not catch SIGALRM. */
		alarm(FIO_SECS);
		execv(TOOL, argv);
		_exit(127);
	}
	close(fds[1]);
	out = fdopen(fds[0], "r");
	while (out && fgets(line, sizeof(line), out)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "3;", 2))
			parse_terse(line);
		else if (line[0])
			ktap_diag("fio: %s", line);
	}
	if (out)
		fclose(out);
	else
		close(fds[0]);
	waitpid(pid, &status, 0);
	if (WIFSIGNALED(status))
		ktap_diag("fio killed by signal %d after %lld ms",
			  WTERMSIG(status), ktap_now_ms() - start);
	else if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		ktap_diag("cannot run %s", TOOL);
	else
		ktap_diag("fio ran %u jobs in %lld ms, exit status %d",
			  (n - 4) / 12, ktap_now_ms() - start,
			  WEXITSTATUS(status));
	return status;
}

static void job_case(const struct target *t, unsigned int j, int fio_ok)
{
	const struct fio_result *r = &t->res[j];
	const struct job *jb = &jobs[j];
	char path[PATH_MAX];

	job_path(t, j, path, sizeof(path));
	if (r->seen)
		ktap_diag("fio %s on %s: wrote %llu KiB in %llu ms, verified %llu KiB in %llu ms, error %ld",
			  jb->name, path, r->write_kib, r->write_ms,
			  r->read_kib, r->read_ms, r->err);
	else if (t->ready)
		ktap_diag("fio %s on %s: no result line", jb->name, path);
	ktap_ok(t->ready && fio_ok && r->seen && !r->err &&
		r->write_kib == t->kib && r->read_kib == t->kib,
		"fio %s %s: %s %s %s %s verify=%s", kind_names[t->kind],
		t->name, jb->rw, jb->bs, jb->engine,
		t->direct ? "direct" : "buffered", jb->verify);
}

static void run(void)
{
	int i, status, fio_ok;
	unsigned int j;

	if (ntargets < 0) {
		ktap_ok(0, "bklfree.fio= names the targets");
		ktap_diag("expected bklfree.fio=KIND:NAME:IO:KIB[,...] on the kernel command line");
		return;
	}
	for (i = 0; i < ntargets; i++) {
		struct target *t = &targets[i];

		ktap_diag("target %d: %s:%s, %s, %u KiB a job", i,
			  kind_names[t->kind], t->name,
			  t->direct ? "direct" : "buffered", t->kib);
		if (t->kind == BLK)
			setup_blk(t);
		else if (t->kind == LOOP)
			setup_loop(t);
		else
			setup_affs(t);
	}
	status = run_fio();
	fio_ok = status != -1 && WIFEXITED(status) && !WEXITSTATUS(status);
	for (i = 0; i < ntargets; i++)
		for (j = 0; j < NJOBS; j++)
			job_case(&targets[i], j, fio_ok);
	for (i = 0; i < ntargets; i++) {
		if (targets[i].kind == LOOP)
			cleanup_loop(&targets[i]);
		else if (targets[i].kind == AFFS)
			cleanup_affs(&targets[i]);
	}
}

const struct ktap_test ktap_test = {
	.plan_fn = plan,
	.devices = (const char *const[]){ TOOL, NULL },
	.kconfig = (const char *const[]){ "CONFIG_SYSVIPC", NULL },
	.timeout = 45,
	.run = run,
};
