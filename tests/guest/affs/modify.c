// SPDX-License-Identifier: GPL-2.0
/*
 * modify - change the affs profile's read-write volumes through the VFS,
 * remount them and check the result exactly; the host then checks the
 * images block by block with tools/affs/fsck.affs (the profile's hostcheck=).
 *
 * Runs after affs/readback, on the FFS (virtio-blk) and the OFS
 * international (usb-storage) volume of volume.h, each from the tree.h
 * content affs-image made. In order, each step a case:
 *
 *   - mount read-write;
 *   - write new files of 100 bytes, exactly one FFS block and 60000 bytes
 *     (past 72 data blocks: an extension block), in writes of 7, 512 and
 *     1000 bytes, fsync each and read it back;
 *   - mkdir (nested), rmdir of a non-empty directory fails with ENOTEMPTY,
 *     then of the emptied one succeeds;
 *   - rename a file in its directory, a file and an empty directory across
 *     directories, and a file over an existing one;
 *   - unlink 50 files of a 100-entry directory, a file with two extension
 *     blocks, a soft link, a hard link (its real file stays); link(2) a new
 *     name to a file, unlink the real name, the link keeps the data;
 *   - truncate down (a 72-block file to 1000 bytes, dropping OFS extension
 *     blocks; 60000 to 40000 bytes, mid-block) and up (100 to 5000: zeros);
 *   - symlink "../../hello.txt" and "sub" and read them back unchanged;
 *   - a verify job in the manner of fio's verify=pattern, on the file
 *     layout this test knows (Debian's fio itself runs after it, in
 *     block/fio-verify, from the host's /usr): 64 chunks of 4 KiB
 *     written at offsets in a seeded random order (the file grows with
 *     holes filled), fsync, 200 unaligned rewrites of random ranges with
 *     the same bytes, fsync, drop the page cache, read every chunk back
 *     in another order and compare;
 *   - the whole volume equals the model (tree.h plus these changes):
 *     every entry by lstat, content and link, readdir complete;
 *   - umount, mount again, the whole volume equals the model again,
 *     umount: the image is left in this known state for the host check.
 *
 * Then the FFS volume with directory cache: fs/affs mounts DOS\4 and
 * DOS\5 read-only even when asked for read-write, so creating a file
 * fails with EROFS and the image stays as made.
 */
#include <sys/statvfs.h>

#include "affs/volume.h"

#define CASES_PER_VOLUME 13
#define VERIFY_CHUNK 4096
#define VERIFY_CHUNKS 64
#define VERIFY_SEED 300

static struct affs_model model;
static char root[64];

static const char *at(const char *rel)
{
	static char p[4][PATH_MAX];
	static unsigned int i;

	i = (i + 1) % 4;
	snprintf(p[i], sizeof(p[i]), "%s/%s", root, rel);
	return p[i];
}

static uint32_t lcg(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

/* A random order of n items from seed. */
static void shuffle(unsigned int *v, unsigned int n, uint32_t seed)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		v[i] = i;
	for (i = n - 1; i > 0; i--) {
		unsigned int j = lcg(&seed) % (i + 1), t = v[i];

		v[i] = v[j];
		v[j] = t;
	}
}

static int write_seeded(const char *rel, unsigned int size, unsigned int seed,
			unsigned int chunk)
{
	static unsigned char buf[65536];
	struct affs_model_entry *e;
	unsigned int off = 0;
	int fd, ok = 1;

	fd = open(at(rel), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return ktap_perror(at(rel)) + 1;
	while (off < size && ok) {
		unsigned int n = size - off < chunk ? size - off : chunk;

		affs_tree_fill(buf, off, n, seed);
		if (write(fd, buf, n) != (ssize_t)n)
			ok = ktap_perror(at(rel)) + 1;
		off += n;
	}
	if (ok && fsync(fd))
		ok = ktap_perror("fsync") + 1;
	if (close(fd))
		ok = ktap_perror("close") + 1;
	e = affs_model_add(&model, rel, AT_FILE);
	e->size = e->seeded = size;
	e->seed = seed;
	return ok && affs_check_content(at(rel), e);
}

static int step_write(void)
{
	int ok = 1;

	if (mkdir(at("new"), 0755))
		return ktap_perror("mkdir new") + 1;
	affs_model_add(&model, "new", AT_DIR);
	ok &= write_seeded("new/small", 100, 201, 7);
	ok &= write_seeded("new/block", 512, 203, 512);
	ok &= write_seeded("new/ext", 60000, 202, 1000);
	return ok;
}

static int step_dirs(void)
{
	int ok = 1, fd;

	if (mkdir(at("keep"), 0755) || mkdir(at("keep/sub"), 0755) ||
	    mkdir(at("tmpdir"), 0755))
		return ktap_perror("mkdir") + 1;
	affs_model_add(&model, "keep", AT_DIR);
	affs_model_add(&model, "keep/sub", AT_DIR);
	fd = open(at("tmpdir/x"), O_WRONLY | O_CREAT, 0644);
	if (fd < 0 || close(fd))
		return ktap_perror("tmpdir/x") + 1;
	if (!rmdir(at("tmpdir")) || errno != ENOTEMPTY) {
		ktap_diag("rmdir of a non-empty directory: %s",
			  strerror(errno));
		ok = 0;
	}
	if (unlink(at("tmpdir/x")) || rmdir(at("tmpdir")))
		ok = ktap_perror("rmdir tmpdir") + 1;
	return ok;
}

static int do_rename(const char *from, const char *to)
{
	struct affs_model_entry *e = affs_model_find(&model, from), *o;
	size_t len = strlen(from);
	unsigned int i;
	char p[96];

	if (rename(at(from), at(to))) {
		ktap_diag("rename %s to %s: %s", from, to, strerror(errno));
		return 0;
	}
	o = affs_model_find(&model, to);
	if (o)
		o->gone = 1;
	for (i = 0; e && i < model.n; i++) {
		struct affs_model_entry *c = &model.e[i];

		if (c->gone || strncmp(c->path, from, len) ||
		    (c->path[len] && c->path[len] != '/'))
			continue;
		snprintf(p, sizeof(p), "%s%s", to, c->path + len);
		snprintf(c->path, sizeof(c->path), "%s", p);
	}
	return 1;
}

static int step_rename(void)
{
	int ok = 1;

	ok &= do_rename("docs/one-block", "docs/one-renamed");
	ok &= do_rename("docs/nested/mid.bin", "many/mid.bin");
	ok &= do_rename("empty-dir", "docs/moved-dir");
	ok &= do_rename("many/f099", "many/f098");
	return ok;
}

static int do_unlink(const char *rel)
{
	struct affs_model_entry *e = affs_model_find(&model, rel);

	if (unlink(at(rel))) {
		ktap_diag("unlink %s: %s", rel, strerror(errno));
		return 0;
	}
	if (e)
		e->gone = 1;
	return 1;
}

static int step_unlink(void)
{
	struct affs_model_entry *e;
	char rel[32];
	int ok = 1, i;

	for (i = 0; i < 50; i++) {
		snprintf(rel, sizeof(rel), "many/f%03d", i);
		ok &= do_unlink(rel);
	}
	ok &= do_unlink("docs/big.bin");
	ok &= do_unlink("soft");
	ok &= do_unlink("docs/hard");
	if (link(at("new/small"), at("keep/hl"))) {
		ktap_diag("link new/small keep/hl: %s", strerror(errno));
		return 0;
	}
	ok &= do_unlink("new/small");
	e = affs_model_add(&model, "keep/hl", AT_FILE);
	e->size = e->seeded = 100;
	e->seed = 201;
	return ok && affs_check_content(at("keep/hl"), e);
}

static int do_truncate(const char *rel, unsigned int size)
{
	struct affs_model_entry *e = affs_model_find(&model, rel);

	if (truncate(at(rel), size)) {
		ktap_diag("truncate %s: %s", rel, strerror(errno));
		return 0;
	}
	if (!e)
		return 0;
	e->size = size;
	if (e->seeded > size)
		e->seeded = size;
	return affs_check_content(at(rel), e);
}

static int step_truncate(void)
{
	int ok = 1;

	ok &= do_truncate("docs/nested/deeper/exactly72.bin", 1000);
	ok &= do_truncate("new/ext", 40000);
	ok &= do_truncate("abcdefghijklmnopqrstuvwxyz0123", 5000);
	return ok;
}

static int do_symlink(const char *target, const char *rel)
{
	struct affs_model_entry *e;
	char got[PATH_MAX];
	ssize_t n;

	if (symlink(target, at(rel))) {
		ktap_diag("symlink %s: %s", rel, strerror(errno));
		return 0;
	}
	e = affs_model_add(&model, rel, AT_SOFT);
	snprintf(e->target, sizeof(e->target), "%s", target);
	n = readlink(at(rel), got, sizeof(got) - 1);
	if (n < 0) {
		ktap_diag("readlink %s: %s", rel, strerror(errno));
		return 0;
	}
	got[n] = '\0';
	if (strcmp(got, target)) {
		ktap_diag("%s: symlink to '%s' reads back as '%s'", rel,
			  target, got);
		return 0;
	}
	return 1;
}

static int step_symlink(void)
{
	int ok = 1;

	ok &= do_symlink("../../hello.txt", "keep/sub/uplink");
	ok &= do_symlink("sub", "keep/same");
	return ok;
}

static int drop_caches(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
	int ok = fd >= 0 && write(fd, "3", 1) == 1;

	if (!ok)
		ktap_perror("/proc/sys/vm/drop_caches");
	if (fd >= 0)
		close(fd);
	return ok;
}

static int step_verify(void)
{
	static unsigned char buf[VERIFY_CHUNK], want[VERIFY_CHUNK];
	const unsigned int size = VERIFY_CHUNK * VERIFY_CHUNKS;
	unsigned int order[VERIFY_CHUNKS], i, bad = 0;
	struct affs_model_entry *e;
	uint32_t s = 77;
	int fd, ok = 1;

	fd = open(at("verify.bin"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return ktap_perror("verify.bin") + 1;
	shuffle(order, VERIFY_CHUNKS, 1);
	for (i = 0; i < VERIFY_CHUNKS && ok; i++) {
		off_t off = (off_t)order[i] * VERIFY_CHUNK;

		affs_tree_fill(buf, (unsigned long)off, VERIFY_CHUNK,
			       VERIFY_SEED);
		if (pwrite(fd, buf, VERIFY_CHUNK, off) != VERIFY_CHUNK)
			ok = ktap_perror("pwrite verify.bin") + 1;
	}
	if (ok && fsync(fd))
		ok = ktap_perror("fsync verify.bin") + 1;
	for (i = 0; i < 200 && ok; i++) {
		unsigned int len = 1 + lcg(&s) % 3000;
		unsigned int off = lcg(&s) % (size - len);

		affs_tree_fill(buf, off, len, VERIFY_SEED);
		if (pwrite(fd, buf, len, off) != (ssize_t)len)
			ok = ktap_perror("pwrite verify.bin") + 1;
	}
	if (ok && fsync(fd))
		ok = ktap_perror("fsync verify.bin") + 1;
	close(fd);
	ok &= drop_caches();
	fd = open(at("verify.bin"), O_RDONLY);
	if (fd < 0)
		return ktap_perror("verify.bin") + 1;
	shuffle(order, VERIFY_CHUNKS, 2);
	for (i = 0; i < VERIFY_CHUNKS; i++) {
		off_t off = (off_t)order[i] * VERIFY_CHUNK;

		affs_tree_fill(want, (unsigned long)off, VERIFY_CHUNK,
			       VERIFY_SEED);
		if (pread(fd, buf, VERIFY_CHUNK, off) != VERIFY_CHUNK ||
		    memcmp(buf, want, VERIFY_CHUNK)) {
			if (bad++ < 4)
				ktap_diag("verify.bin: chunk %u at %lld "
					  "differs", order[i], (long long)off);
		}
	}
	close(fd);
	if (bad)
		ktap_diag("verify.bin: %u of %u chunks differ", bad,
			  VERIFY_CHUNKS);
	e = affs_model_add(&model, "verify.bin", AT_FILE);
	e->size = e->seeded = size;
	e->seed = VERIFY_SEED;
	return ok && !bad;
}

static int same_as_model(const char *when)
{
	struct affs_diff d;

	affs_compare(root, &model, &d);
	if (!affs_diff_clean(&d))
		ktap_diag("%s: %u missing, %u type, %u size, %u content, "
			  "%u link, %u hard link, %u extra, %u errors", when,
			  d.missing, d.type, d.size, d.content, d.link, d.hard,
			  d.extra, d.errors);
	return affs_diff_clean(&d);
}

static void volume(const struct affs_volume *v, const char *node)
{
	static const struct {
		const char *what;
		int (*fn)(void);
	} steps[] = {
		{ "write new files, fsync, read back", step_write },
		{ "mkdir, rmdir (ENOTEMPTY, then empty)", step_dirs },
		{ "rename in and across directories, over a file",
		  step_rename },
		{ "unlink files, links; unlink a hard link's real name",
		  step_unlink },
		{ "truncate down and up", step_truncate },
		{ "symlink reads back its target", step_symlink },
		{ "verify job: random-order writes, drop caches, read back",
		  step_verify },
	};
	int up, i;

	affs_model_init(&model);
	up = affs_mount_case(v, node, 0, root, sizeof(root),
			     CASES_PER_VOLUME);
	if (up < 0)
		return;
	for (i = 0; i < (int)ARRAY_SIZE(steps); i++) {
		errno = 0;
		ktap_ok(up && steps[i].fn(), "%s: %s", v->name, steps[i].what);
	}
	ktap_ok(up && same_as_model("before umount"),
		"%s: the volume equals the model", v->name);
	ktap_ok(up && affs_umount(root), "%s: umount", v->name);
	up = affs_mount(node, v, 0, root, sizeof(root));
	ktap_ok(up, "%s: mount again", v->name);
	ktap_ok(up && same_as_model("after remount"),
		"%s: after remount the volume equals the model", v->name);
	ktap_ok(up && affs_umount(root), "%s: umount, left for fsck.affs",
		v->name);
}

static int dircache_readonly(const struct affs_volume *v, const char *node)
{
	struct statvfs sv;
	int fd, ok;

	if (!node[0] || !affs_mount(node, v, 0, root, sizeof(root)))
		return 0;
	ok = !statvfs(root, &sv) && (sv.f_flag & ST_RDONLY);
	if (!ok)
		ktap_diag("%s: mounted read-write", v->name);
	fd = open(at("new-file"), O_WRONLY | O_CREAT, 0644);
	if (fd >= 0 || errno != EROFS) {
		ktap_diag("%s: creat gave %s", v->name,
			  fd >= 0 ? "a file" : strerror(errno));
		ok = 0;
	}
	if (fd >= 0)
		close(fd);
	return affs_umount(root) && ok;
}

static void run(void)
{
	char node[AFFS_NR_VOLUMES][PATH_MAX];
	size_t v;

	affs_each_writable(node, volume);
	for (v = 0; v < AFFS_NR_VOLUMES; v++)
		if (affs_volumes[v].dircache)
			ktap_ok(dircache_readonly(&affs_volumes[v], node[v]),
				"%s: a read-write mount is read-only, creat "
				"fails with EROFS", affs_volumes[v].name);
}

const struct ktap_test ktap_test = {
	.plan = 1 + 2 * CASES_PER_VOLUME + 1,
	.kconfig = (const char *const[]){ "CONFIG_AFFS_FS", NULL },
	.timeout = 150,
	.run = run,
};
