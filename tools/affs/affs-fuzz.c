// SPDX-License-Identifier: GPL-2.0
/*
 * affs-fuzz: corrupted AFFS volumes for the affs-fuzz profile.
 *
 *   affs-fuzz IMAGE MIB COUNT SEED
 *   affs-fuzz IMAGE MIB --recipes RECIPES
 *   affs-fuzz --extract IMAGE N OUT
 *
 * The first form makes six small populated base volumes with the sibling
 * mkfs.affs (the program next to argv[0]) from a temporary host tree:
 * nested directories, an empty file, files spanning two and more file
 * extension blocks, names sharing a hash slot, soft links and hard links;
 * one volume per flavour, OFS and FFS, each plain, international (-i)
 * and with directory cache (-d). Image i is a copy of flavour i % 6 with
 * one to four mutations, all drawn from a generator seeded with SEED and
 * i, so the same SEED gives the same bytes:
 *
 *   flip       bits flipped in a metadata block
 *   raw        bits flipped anywhere in the volume (checksum left bad)
 *   bm-free    a used block marked free in the bitmap
 *   bm-use     a free block marked used
 *   bm-ptr     a bitmap pointer of the root (or its extension) anywhere
 *   bm-flag    the root's bitmap-valid flag changed
 *   ht-size    the hash table size of the root or a directory
 *   ht-slot    a hash table slot pointing anywhere
 *   chain      a hash chain to itself, out of range, to a block of the
 *              wrong type, or a cycle of two or three entries
 *   fh-size    a file's byte size against its block count
 *   high-seq   the block count of a file header or extension block
 *   first-data the first data block of a file
 *   fh-table   a data block pointer of a file header or extension block
 *   ext        an extension chain looping, out of range, with a wrong
 *              parent or type
 *   ofs-seq, ofs-size, ofs-next
 *              an OFS data block's sequence number, bytes used (over 488)
 *              or next pointer (loops, out of range)
 *   link       a hard link's real entry or a link chain (loops)
 *   softlink   a soft link target without its NUL or full of '/' and ':'
 *   name       the length byte of a name
 *   sec-type   the secondary type of an entry
 *   parent     the parent pointer of an entry
 *   key        the own-key word of a block
 *   dos-type   the DOS type of the boot block (OFS read as FFS and so on)
 *
 * After a targeted mutation the block's checksum is recomputed in most
 * cases (so the kernel gets past its checksum checks); the index says
 * "nosum" where it was left bad.
 *
 * IMAGE is a header region and then COUNT volumes at a fixed stride:
 *
 *   byte 0       "BKLFUZZ1 count=C stride=S size=Z offset=O seed=E\n"
 *                then one line per image, "N FLAVOUR MUTATION...\n",
 *                then NUL bytes up to O
 *   O + N * S    image N, Z bytes (the volume; the stride is Z)
 *
 * O is a multiple of 1 MiB. Blocks of zeros are left as holes, so the file
 * is sparse. MIB is the volume size in MiB, 1 to 16; 0 means 1. The
 * environment variable AFFS_FUZZ_COUNT, when set, replaces COUNT (that is
 * how 'make fuzz-affs' asks for 1000 and more), and AFFS_FUZZ_SEED replaces
 * SEED (make fuzz-affs FUZZ_SEED=N). COUNT is 1 to 100000.
 * Nothing is printed on stdout; IMAGE.index gets a "# ..." line with the
 * header values and then the same line per image as the header region,
 * so a crash in image N can be mapped to its mutations; --extract writes
 * image N alone to OUT (a volume mkfs.affs could have made, but for the
 * mutations), for a regression test.
 *
 * The second form writes exactly the images a RECIPES file names, in its
 * order (tests/data/affs-crash/recipes, the affs-crash profile): one
 * recipe a line, "NAME SEED N FLAVOUR MUTATION...", '#' starting a
 * comment; image i of IMAGE is then byte for byte image N of
 * "affs-fuzz X MIB COUNT SEED" (any COUNT > N: an image depends only on
 * SEED and N), so --extract gives it back alone. FLAVOUR and the
 * MUTATION words must be what the generator writes for that image (a word
 * ending in "..." stands for any word it begins), or the run fails: a
 * recipe names the image it was written for. The header says seed=0 and
 * " recipes" after it; each description line ends in "(NAME: seed SEED
 * image N)". AFFS_FUZZ_COUNT and AFFS_FUZZ_SEED do not apply. A relative RECIPES is looked
 * up in the current directory, then under $TOP, then under the directory
 * two levels above the program (build/tools/../../, the repository), as
 * the boot runner calls the maker in the boot's results directory.
 *
 * A recipe "NAME crafted FLAVOUR MUTATION" instead names one of the
 * crafted mutations below, applied alone to FLAVOUR's base volume with
 * every checksum redone and no generator involved: link-off-chain (the
 * first link of a hard-linked file cut out of its directory's hash
 * chain), link-hash-self (that link chained to itself in its directory),
 * link-hash-lost (its hash slot pointing at a header chained to itself,
 * so the link is off a chain that never ends) and ext-self (the
 * extension block of other/one-ext.bin its own extension). Their
 * description line ends in "(NAME: crafted)" and holds an "unlink=PATH"
 * word and, for the two hash chain loops, a "create=PATH" word (a name in
 * the looping slot): what tests/guest/affs/loop-walks.c does with the
 * image (tests/data/affs-crash/recipes-loops and recipes-link-leak).
 *
 * IMAGE and IMAGE.index are written beside themselves as IMAGE.XXXXXX and
 * renamed when complete. Exit status: 0, 1 on an error (a failing
 * mkfs.affs included: its own message is on stderr), 2 on a usage error.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "affs.h"
#define USAGE "usage: affs-fuzz IMAGE MIB COUNT SEED\n" \
	"       affs-fuzz IMAGE MIB --recipes RECIPES\n" \
	"       affs-fuzz --extract IMAGE N OUT"
#include "usage.h"

#define MAX_COUNT 100000
#define FLAVOURS 6
#define MAX_LIST 4096
#define FUZZ_EPOCH 1577968496L	/* 2020-01-02 12:34:56 UTC */
#define MIB (1u << 20)
#define NAME_MAX_LEN 64		/* of a recipe */
#define LINE_MAX_LEN 384	/* of an image's description line */

static const struct {
	const char *name;
	const char *opts[3];
} flavours[FLAVOURS] = {
	{ "ofs", { "-t", "ofs", NULL } },
	{ "ffs", { "-t", "ffs", NULL } },
	{ "ofs-i", { "-t", "ofs", "-i" } },
	{ "ffs-i", { "-t", "ffs", "-i" } },
	{ "ofs-d", { "-t", "ofs", "-d" } },
	{ "ffs-d", { "-t", "ffs", "-d" } },
};

static char *tmpdir;		/* removed by die() */
static char *tmp_image, *tmp_index;

static void cleanup(void)
{
	if (tmp_image)
		unlink(tmp_image);
	if (tmp_index)
		unlink(tmp_index);
	if (tmpdir) {
		char cmd[PATH_MAX + 32];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
		if (system(cmd))
			fprintf(stderr, "error: cannot remove '%s'\n", tmpdir);
		free(tmpdir);
		tmpdir = NULL;
	}
}

static void *xmalloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);

	if (!p)
		die("out of memory");
	return p;
}

/* ---- the generator: splitmix64, seeded per image ---- */

static uint64_t rng_state;

static uint64_t rnd64(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* 0 to n - 1; n > 0. */
static uint32_t rnd(uint32_t n)
{
	return (uint32_t)(rnd64() % n);
}

static int chance(unsigned int percent)
{
	return rnd(100) < percent;
}

/* ---- the host tree and the base volumes ---- */

/* Every entry of the tree gets this date, so the volumes never change. */
static const struct timespec ts[2] = { { FUZZ_EPOCH, 0 }, { FUZZ_EPOCH, 0 } };

static void put_file(const char *rel, size_t size, unsigned int salt)
{
	char path[PATH_MAX];
	size_t i;
	FILE *f;

	snprintf(path, sizeof(path), "%s/tree/%s", tmpdir, rel);
	f = fopen(path, "wb");
	if (!f)
		die("cannot create '%s': %s", path, strerror(errno));
	for (i = 0; i < size; i++)
		fputc(i % 61 == 60 ? '\n' : 'a' + (i * 7 + salt + i / 61) % 26,
		      f);
	if (fclose(f) || utimensat(AT_FDCWD, path, ts, 0))
		die("cannot write '%s': %s", path, strerror(errno));
}

static void tree_op(int failed, const char *what, const char *rel)
{
	if (failed)
		die("cannot %s '%s/tree/%s': %s", what, tmpdir, rel,
		    strerror(errno));
}

/* The hash slot of an ASCII name, as mkfs.affs and the kernel compute it. */
static unsigned int hash_name(const char *name)
{
	return affs_hash((const unsigned char *)name, strlen(name), 0);
}

static const char *const tree_dirs[] = {
	"dir", "dir/sub", "dir/sub/deeper", "dir/sub/deeper/deepest",
	"empty-dir", "other",
};

static void make_tree(void)
{
	char path[PATH_MAX], name[32];
	unsigned int i, n, slot;

	snprintf(path, sizeof(path), "%s/tree", tmpdir);
	tree_op(mkdir(path, 0755), "make", "");
	for (i = 0; i < sizeof(tree_dirs) / sizeof(tree_dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/tree/%s", tmpdir, tree_dirs[i]);
		tree_op(mkdir(path, 0755), "make", tree_dirs[i]);
	}
	put_file("small.txt", 100, 1);
	put_file("empty", 0, 0);
	put_file("mid.bin", 3000, 2);
	/* 157 FFS blocks, 164 OFS blocks: two extension blocks. */
	put_file("dir/big.bin", 80000, 3);
	put_file("dir/sub/deeper/deepest/nested.txt", 700, 4);
	put_file("other/one-ext.bin", 40000, 5);
	/* Four names in the hash slot of "chain0", so chains have length. */
	slot = hash_name("chain0");
	put_file("chain0", 50, 6);
	for (i = 1, n = 1; n < 4; i++) {
		snprintf(name, sizeof(name), "chain%u", i);
		if (hash_name(name) != slot)
			continue;
		put_file(name, 20 + n, 7 + n);
		n++;
	}
	snprintf(path, sizeof(path), "%s/tree/lnk", tmpdir);
	tree_op(symlink("small.txt", path), "link", "lnk");
	snprintf(path, sizeof(path), "%s/tree/dir/sub/up", tmpdir);
	tree_op(symlink("../../small.txt", path), "link", "dir/sub/up");
	snprintf(path, sizeof(path), "%s/tree/other/abs", tmpdir);
	tree_op(symlink("/dir/sub", path), "link", "other/abs");
	{
		char from[PATH_MAX];

		snprintf(from, sizeof(from), "%s/tree/small.txt", tmpdir);
		snprintf(path, sizeof(path), "%s/tree/dir/hard", tmpdir);
		tree_op(link(from, path), "link", "dir/hard");
		snprintf(path, sizeof(path), "%s/tree/other/hard2", tmpdir);
		tree_op(link(from, path), "link", "other/hard2");
		snprintf(from, sizeof(from), "%s/tree/dir/big.bin", tmpdir);
		snprintf(path, sizeof(path), "%s/tree/big-hard", tmpdir);
		tree_op(link(from, path), "link", "big-hard");
	}
	/* The soft links' own dates (the files got theirs in put_file). */
	{
		static const char *const all[] = {
			"lnk", "dir/sub/up", "other/abs",
		};

		for (i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
			snprintf(path, sizeof(path), "%s/tree/%s", tmpdir,
				 all[i]);
			tree_op(utimensat(AT_FDCWD, path, ts,
					  AT_SYMLINK_NOFOLLOW), "date", all[i]);
		}
	}
}

/* Every directory and the top: the fixed date, once they are filled. */
static void date_tree(void)
{
	char path[PATH_MAX];
	int n;

	for (n = (int)(sizeof(tree_dirs) / sizeof(tree_dirs[0])) - 1; n >= 0;
	     n--) {
		snprintf(path, sizeof(path), "%s/tree/%s", tmpdir, tree_dirs[n]);
		tree_op(utimensat(AT_FDCWD, path, ts, 0), "date", tree_dirs[n]);
	}
	snprintf(path, sizeof(path), "%s/tree", tmpdir);
	tree_op(utimensat(AT_FDCWD, path, ts, 0), "date", "");
}

/* Runs DIR/mkfs.affs for flavour f into OUT; dies when it fails. */
static void run_mkfs(const char *self, int f, uint32_t size, const char *out)
{
	char mkfs[PATH_MAX], sz[32], tree[PATH_MAX], *slash;
	const char *argv[16];
	int argc = 0, status, i;
	pid_t pid;

	snprintf(mkfs, sizeof(mkfs), "%s", self);
	slash = strrchr(mkfs, '/');
	if (slash)
		strcpy(slash + 1, "mkfs.affs");
	else
		snprintf(mkfs, sizeof(mkfs), "./mkfs.affs");
	snprintf(sz, sizeof(sz), "%uK", size / 1024);
	snprintf(tree, sizeof(tree), "%s/tree", tmpdir);
	argv[argc++] = mkfs;
	for (i = 0; i < 3 && flavours[f].opts[i]; i++)
		argv[argc++] = flavours[f].opts[i];
	argv[argc++] = "-s";
	argv[argc++] = sz;
	argv[argc++] = "-l";
	argv[argc++] = "Fuzz";
	argv[argc++] = "-r";
	argv[argc++] = tree;
	argv[argc++] = out;
	argv[argc] = NULL;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		die("cannot fork: %s", strerror(errno));
	if (!pid) {
		setenv("SOURCE_DATE_EPOCH", "1577968496", 1);
		setenv("TZ", "UTC", 1);
		execv(mkfs, (char *const *)argv);
		fprintf(stderr, "error: cannot run '%s': %s\n", mkfs,
			strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		die("cannot wait for '%s': %s", mkfs, strerror(errno));
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		die("'%s' failed for flavour %s (status %d)", mkfs,
		    flavours[f].name,
		    WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
}

/* ---- what a base volume holds ---- */

enum kind {
	K_DIR, K_FILE, K_SOFT, K_HARD, K_EXT, K_DATA, K_BITMAP, K_DIRC,
	K_FREE, K_KINDS
};

struct list {
	uint32_t n;
	uint32_t b[MAX_LIST];
};

struct base {
	unsigned char *v;		/* the volume */
	uint32_t blocks, root;
	int ofs;
	struct list k[K_KINDS];
	struct list entries;		/* every header but the root */
};

static struct base bases[FLAVOURS];

static unsigned char *blk(unsigned char *v, uint32_t n)
{
	return v + (size_t)n * BSIZE;
}

static void add(struct list *l, uint32_t b)
{
	if (l->n < MAX_LIST)
		l->b[l->n++] = b;
}

static void scan_file(struct base *s, uint32_t hdr)
{
	uint32_t t = hdr, steps = 0, i, p;

	while (t && t < s->blocks && steps++ < 64) {
		unsigned char *b = blk(s->v, t);

		if (t != hdr)
			add(&s->k[K_EXT], t);
		for (i = 0; i < HT_SIZE; i++) {
			p = get32(b, O_TABLE + 4 * i);
			if (p && p < s->blocks)
				add(&s->k[K_DATA], p);
		}
		t = get32(b, O_EXTENSION);
	}
}

static void scan_dir(struct base *s, uint32_t dir, int depth)
{
	unsigned char *d = blk(s->v, dir);
	uint32_t i, key, steps, c;

	if (depth > 16)
		return;
	for (c = get32(d, O_EXTENSION), steps = 0;
	     c && c < s->blocks && steps < 64; steps++) {
		add(&s->k[K_DIRC], c);
		c = get32(blk(s->v, c), 16);
	}
	for (i = 0; i < HT_SIZE; i++) {
		for (key = get32(d, O_TABLE + 4 * i), steps = 0;
		     key && key < s->blocks && steps < 256; steps++) {
			unsigned char *b = blk(s->v, key);
			int32_t st = (int32_t)get32(b, O_SEC_TYPE);

			add(&s->entries, key);
			if (st == ST_USERDIR) {
				add(&s->k[K_DIR], key);
				scan_dir(s, key, depth + 1);
			} else if (st == ST_FILE) {
				add(&s->k[K_FILE], key);
				scan_file(s, key);
			} else if (st == ST_SOFTLINK) {
				add(&s->k[K_SOFT], key);
			} else {
				add(&s->k[K_HARD], key);
			}
			key = get32(b, O_HASH_CHAIN);
		}
	}
}

/*
 * mkfs.affs leaves the pad byte after a directory cache record as its
 * stack held it: zero it (and redo the checksum) so runs are repeatable.
 */
static void zero_dirc_pads(struct base *s)
{
	uint32_t i, r, n, p, len;
	unsigned char *b;

	for (i = 0; i < s->k[K_DIRC].n; i++) {
		b = blk(s->v, s->k[K_DIRC].b[i]);
		n = get32(b, 12);
		for (r = 0, p = O_TABLE; r < n && p + 26 <= BSIZE; r++) {
			len = b[p + 23];
			if (p + 26 + len > BSIZE)
				break;
			if (len % 2 == 0)
				b[p + 25 + len] = 0;
			p += (26 + len) & ~1u;
		}
		affs_set_checksum(b, O_CHKSUM);
	}
}

static void load_base(struct base *s, int f, const char *path, uint32_t size)
{
	uint32_t i, j, bm;
	FILE *fp = fopen(path, "rb");

	s->blocks = size / BSIZE;
	s->v = xmalloc(size);
	if (!fp || fread(s->v, 1, size, fp) != size)
		die("cannot read '%s': %s", path,
		    fp && !ferror(fp) ? "short file" : strerror(errno));
	fclose(fp);
	s->root = (2 + s->blocks - 1) / 2;
	s->ofs = f % 2 == 0;
	scan_dir(s, s->root, 0);
	zero_dirc_pads(s);
	for (i = 0; i < 25; i++) {
		bm = get32(blk(s->v, s->root), O_BM_PAGES + 4 * i);
		if (bm && bm < s->blocks)
			add(&s->k[K_BITMAP], bm);
	}
	/* Free blocks from the first bitmap block: bit set = free. */
	if (s->k[K_BITMAP].n) {
		unsigned char *b = blk(s->v, s->k[K_BITMAP].b[0]);

		for (i = 0; i < 127 * 32 && i + 2 < s->blocks; i += 97) {
			j = i / 32;
			if (b[4 + 4 * j + 3 - i % 32 / 8] & 1u << (i % 8))
				add(&s->k[K_FREE], i + 2);
		}
	}
	if (!s->k[K_FILE].n || !s->k[K_DIR].n || !s->k[K_EXT].n ||
	    !s->k[K_SOFT].n || !s->k[K_HARD].n || !s->k[K_BITMAP].n)
		die("base volume '%s' lacks the expected blocks", path);
}

/* ---- mutations ---- */

struct mut {
	struct base *s;
	unsigned char *v;		/* the copy being mutated */
	char *desc;			/* the index line being built */
	size_t len, size;
	int always_sum;			/* crafted: never leave a sum bad */
};

static void say(struct mut *m, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(m->desc + m->len, m->size - m->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		m->len += (size_t)n < m->size - m->len ? (size_t)n :
			m->size - m->len - 1;
}

static uint32_t pick(struct mut *m, enum kind k)
{
	const struct list *l = &m->s->k[k];

	return l->n ? l->b[rnd(l->n)] : m->s->root;
}

static uint32_t pick_entry(struct mut *m)
{
	return m->s->entries.b[rnd(m->s->entries.n)];
}

/* A block pointer a corrupted volume might hold, self being the block. */
static uint32_t bad_ptr(struct mut *m, uint32_t self)
{
	uint32_t n = m->s->blocks;

	switch (rnd(14)) {
	case 0: return 0;
	case 1: return self;
	case 2: return m->s->root;
	case 3: return n;
	case 4: return n + rnd(1000);
	case 5: return 0xffffffff;
	case 6: return 0x80000000u + rnd(16);
	case 7: return 1;
	case 8: return pick(m, K_BITMAP);
	case 9: return pick(m, K_DATA);
	case 10: return pick(m, K_EXT);
	case 11: return pick_entry(m);
	case 12: return pick(m, K_FREE);
	default: return rnd(n);
	}
}

/* Bitmap blocks keep their checksum at 0, headers at 20. */
static void checksum(struct mut *m, uint32_t b, int is_bitmap)
{
	unsigned char *p = blk(m->v, b);
	unsigned int off = is_bitmap ? 0 : O_CHKSUM;

	if (b >= m->s->blocks)
		return;
	if (!m->always_sum && !chance(85)) {
		say(m, ",nosum");
		return;
	}
	affs_set_checksum(p, off);
}

static void set_word(struct mut *m, uint32_t b, unsigned int off,
		     uint32_t val, const char *what)
{
	say(m, " %s:%u@%u=%#x", what, b, off, val);
	put32(blk(m->v, b), off, val);
	checksum(m, b, 0);
}

static uint32_t odd_size(uint32_t old)
{
	switch (rnd(8)) {
	case 0: return 0;
	case 1: return old + 1;
	case 2: return old ? old - 1 : 1;
	case 3: return 0xffffffff;
	case 4: return 0x7fffffff;
	case 5: return old * 2 + 100000;
	case 6: return 0x80000000u;
	default: return rnd64();
	}
}

static void m_flip(struct mut *m)
{
	static const enum kind ks[] = { K_DIR, K_FILE, K_SOFT, K_HARD, K_EXT,
					K_DATA, K_BITMAP };
	enum kind k = ks[rnd(sizeof(ks) / sizeof(ks[0]))];
	uint32_t b = chance(15) ? m->s->root : pick(m, k);
	unsigned int i, n = 1 + rnd(4);

	if (k == K_DATA && !m->s->ofs)
		k = K_FILE, b = pick(m, K_FILE);
	say(m, " flip:%u", b);
	for (i = 0; i < n; i++) {
		unsigned int bit = rnd(BSIZE * 8);

		blk(m->v, b)[bit / 8] ^= 1u << (bit % 8);
		say(m, ",%u", bit);
	}
	checksum(m, b, k == K_BITMAP);
}

static void m_raw(struct mut *m)
{
	unsigned int i, n = 1 + rnd(16);

	say(m, " raw");
	for (i = 0; i < n; i++) {
		uint32_t b = rnd(4) ? pick_entry(m) : rnd(m->s->blocks);
		unsigned int bit = rnd(BSIZE * 8);

		blk(m->v, b)[bit / 8] ^= 1u << (bit % 8);
		say(m, ",%u.%u", b, bit);
	}
}

/* Bit of block n in the first bitmap block; 1 = free. */
static void bm_set(struct mut *m, uint32_t n, int free_it)
{
	uint32_t bm = m->s->k[K_BITMAP].b[0], i = n - 2;
	unsigned char *p = blk(m->v, bm) + 4 + i / 32 * 4 + 3 - i % 32 / 8;

	if (n < 2 || i >= 127 * 32)
		return;
	if (free_it)
		*p |= 1u << (i % 8);
	else
		*p &= ~(1u << (i % 8));
}

static void m_bm_free(struct mut *m)
{
	static const enum kind ks[] = { K_DIR, K_FILE, K_EXT, K_DATA,
					K_HARD, K_SOFT, K_BITMAP };
	uint32_t b = chance(10) ? m->s->root : pick(m, ks[rnd(7)]);

	say(m, " bm-free:%u", b);
	bm_set(m, b, 1);
	checksum(m, m->s->k[K_BITMAP].b[0], 1);
}

static void m_bm_use(struct mut *m)
{
	unsigned int i, n = 1 + rnd(chance(20) ? 2000 : 3);

	say(m, " bm-use:%u", n);
	for (i = 0; i < n; i++)
		bm_set(m, 2 + rnd(m->s->blocks - 2), 0);
	checksum(m, m->s->k[K_BITMAP].b[0], 1);
}

static void m_bm_ptr(struct mut *m)
{
	uint32_t r = m->s->root;

	if (chance(25)) {
		set_word(m, r, O_BM_EXT, bad_ptr(m, r), "bm-ext");
		return;
	}
	set_word(m, r, O_BM_PAGES + 4 * rnd(chance(50) ? 1 : 25),
		 bad_ptr(m, r), "bm-ptr");
}

static void m_bm_flag(struct mut *m)
{
	static const uint32_t v[] = { 0, 1, 0x7fffffff, 0x80000000u };

	set_word(m, m->s->root, O_BM_FLAG, v[rnd(4)], "bm-flag");
}

static void m_ht_size(struct mut *m)
{
	static const uint32_t v[] = { 0, 1, 71, 73, 128, 0xffffffff };
	uint32_t b = chance(50) ? m->s->root : pick(m, K_DIR);

	set_word(m, b, O_HT_SIZE, v[rnd(6)], "ht-size");
}

static void m_ht_slot(struct mut *m)
{
	uint32_t d = chance(50) ? m->s->root : pick(m, K_DIR);
	unsigned int slot = rnd(HT_SIZE);

	set_word(m, d, O_TABLE + 4 * slot, bad_ptr(m, d), "ht-slot");
}

static void m_chain(struct mut *m)
{
	uint32_t a = pick_entry(m), b = pick_entry(m), c = pick_entry(m);

	switch (rnd(5)) {
	case 0:
		set_word(m, a, O_HASH_CHAIN, a, "chain-self");
		break;
	case 1:
		set_word(m, a, O_HASH_CHAIN, b, "chain-cycle2");
		set_word(m, b, O_HASH_CHAIN, a, "chain-cycle2");
		break;
	case 2:
		set_word(m, a, O_HASH_CHAIN, b, "chain-cycle3");
		set_word(m, b, O_HASH_CHAIN, c, "chain-cycle3");
		set_word(m, c, O_HASH_CHAIN, a, "chain-cycle3");
		break;
	default:
		set_word(m, a, O_HASH_CHAIN, bad_ptr(m, a), "chain");
	}
}

static void m_fh_size(struct mut *m)
{
	uint32_t f = pick(m, K_FILE);

	set_word(m, f, O_BYTE_SIZE, odd_size(get32(blk(m->v, f), O_BYTE_SIZE)),
		 "fh-size");
}

static void m_high_seq(struct mut *m)
{
	uint32_t f = chance(70) ? pick(m, K_FILE) : pick(m, K_EXT);

	set_word(m, f, O_HIGH_SEQ, odd_size(get32(blk(m->v, f), O_HIGH_SEQ)),
		 "high-seq");
}

static void m_first_data(struct mut *m)
{
	uint32_t f = pick(m, K_FILE);

	set_word(m, f, O_FIRST_DATA, bad_ptr(m, f), "first-data");
}

static void m_fh_table(struct mut *m)
{
	uint32_t f = chance(60) ? pick(m, K_FILE) : pick(m, K_EXT);

	set_word(m, f, O_TABLE + 4 * (HT_SIZE - 1 - rnd(chance(50) ? 3 : 72)),
		 bad_ptr(m, f), "fh-table");
}

static void m_ext(struct mut *m)
{
	uint32_t e = pick(m, K_EXT), f = get32(blk(m->v, e), O_PARENT);

	switch (rnd(6)) {
	case 0:
		set_word(m, e, O_EXTENSION, e, "ext-self");
		break;
	case 1:
		/* Back to the header's first extension block. */
		set_word(m, e, O_EXTENSION,
			 f < m->s->blocks ? get32(blk(m->v, f), O_EXTENSION) : e,
			 "ext-loop");
		break;
	case 2:
		set_word(m, e, O_PARENT, bad_ptr(m, e), "ext-parent");
		break;
	case 3:
		set_word(m, e, O_TYPE, chance(50) ? T_HEADER : rnd(64),
			 "ext-type");
		break;
	case 4:
		if (f < m->s->blocks)
			set_word(m, f, O_EXTENSION, bad_ptr(m, f), "fh-ext");
		break;
	default:
		set_word(m, e, O_EXTENSION, bad_ptr(m, e), "ext");
	}
}

static void m_ofs(struct mut *m)
{
	uint32_t d;

	if (!m->s->ofs) {
		/* An FFS file header's data pointer to another file's. */
		d = pick(m, K_FILE);
		set_word(m, d, O_TABLE + 4 * (HT_SIZE - 1),
			 pick(m, chance(50) ? K_DATA : K_EXT), "ffs-data");
		return;
	}
	d = pick(m, K_DATA);
	switch (rnd(3)) {
	case 0:
		set_word(m, d, 8, odd_size(get32(blk(m->v, d), 8)), "ofs-seq");
		break;
	case 1:
		set_word(m, d, 12, chance(50) ? 489 + rnd(100) :
			 odd_size(488), "ofs-size");
		break;
	default:
		set_word(m, d, 16, bad_ptr(m, d), "ofs-next");
	}
	if (chance(20))
		set_word(m, d, O_KEY, bad_ptr(m, d), "ofs-hdr");
}

static void m_link(struct mut *m)
{
	uint32_t h = pick(m, K_HARD), r = get32(blk(m->v, h), O_REAL_ENTRY);

	switch (rnd(4)) {
	case 0:
		set_word(m, h, O_REAL_ENTRY, bad_ptr(m, h), "link-real");
		break;
	case 1:
		set_word(m, h, O_NEXT_LINK, h, "link-self");
		break;
	case 2:
		if (r < m->s->blocks)
			set_word(m, r, O_NEXT_LINK, bad_ptr(m, r), "link-chain");
		break;
	default:
		set_word(m, h, O_REAL_ENTRY, pick(m, K_DIR), "link-dir");
	}
}

static void m_softlink(struct mut *m)
{
	uint32_t s = pick(m, K_SOFT);
	unsigned char *p = blk(m->v, s);
	unsigned int i;

	switch (rnd(3)) {
	case 0:
		say(m, " softlink-nonul:%u", s);
		memset(p + O_TABLE, 'A', BSIZE - 224 + 24);
		break;
	case 1:
		say(m, " softlink-slashes:%u", s);
		for (i = 0; i < BSIZE - 225; i++)
			p[O_TABLE + i] = "/:"[rnd(2)];
		p[O_TABLE + i] = 0;
		break;
	default:
		say(m, " softlink-empty:%u", s);
		p[O_TABLE] = 0;
	}
	checksum(m, s, 0);
}

static void m_name(struct mut *m)
{
	uint32_t e = pick_entry(m);
	unsigned int len = chance(30) ? 0 : 31 + rnd(225);

	say(m, " name:%u=%u", e, len);
	blk(m->v, e)[O_NAME] = len;
	checksum(m, e, 0);
}

static void m_sec_type(struct mut *m)
{
	static const int32_t v[] = { ST_ROOT, ST_USERDIR, ST_SOFTLINK,
				     ST_LINKDIR, ST_FILE, ST_LINKFILE, 0, 7 };
	uint32_t e = pick_entry(m);

	set_word(m, e, O_SEC_TYPE, (uint32_t)v[rnd(8)], "sec-type");
	if (chance(15))
		set_word(m, e, O_TYPE, rnd(40), "type");
}

static void m_parent(struct mut *m)
{
	uint32_t e = pick_entry(m);

	set_word(m, e, O_PARENT, bad_ptr(m, e), "parent");
}

static void m_key(struct mut *m)
{
	uint32_t e = chance(70) ? pick_entry(m) : pick(m, K_EXT);

	set_word(m, e, O_KEY, bad_ptr(m, e), "key");
}

static void m_dos_type(struct mut *m)
{
	unsigned char *b = m->v;

	b[3] = rnd(8);
	say(m, " dos-type:%u", b[3]);
}

static const struct {
	void (*fn)(struct mut *m);
	unsigned int weight;
} mutations[] = {
	{ m_flip, 12 }, { m_raw, 3 }, { m_bm_free, 6 }, { m_bm_use, 4 },
	{ m_bm_ptr, 4 }, { m_bm_flag, 2 }, { m_ht_size, 2 },
	{ m_ht_slot, 6 }, { m_chain, 10 }, { m_fh_size, 6 },
	{ m_high_seq, 5 }, { m_first_data, 3 }, { m_fh_table, 6 },
	{ m_ext, 8 }, { m_ofs, 6 }, { m_link, 6 }, { m_softlink, 3 },
	{ m_name, 3 }, { m_sec_type, 5 }, { m_parent, 3 }, { m_key, 3 },
	{ m_dos_type, 2 },
};

static void mutate(struct base *s, unsigned char *v, uint64_t seed,
		   uint32_t index, char *desc, size_t size)
{
	struct mut m = { .s = s, .v = v, .desc = desc, .size = size };
	unsigned int total = 0, i, n, r;

	rng_state = seed * 0x2545f4914f6cdd1dULL ^ (uint64_t)index << 20 ^
		0x6166667366757a7aULL;
	rnd64();
	for (i = 0; i < sizeof(mutations) / sizeof(mutations[0]); i++)
		total += mutations[i].weight;
	n = 1 + (chance(60) ? 0 : rnd(4));
	while (n--) {
		r = rnd(total);
		for (i = 0; r >= mutations[i].weight; i++)
			r -= mutations[i].weight;
		mutations[i].fn(&m);
	}
}

/* ---- crafted mutations: one named corruption, no generator ---- */

/* The path of entry e from the root, "" when the parents do not lead there. */
static void entry_path(const struct base *s, uint32_t e, char *buf, size_t size)
{
	char tmp[PATH_MAX];
	unsigned int depth = 0, len;
	const unsigned char *b;

	buf[0] = 0;
	while (e != s->root) {
		if (!e || e >= s->blocks || ++depth > 16) {
			buf[0] = 0;
			return;
		}
		b = blk(s->v, e);
		len = b[O_NAME] < 30 ? b[O_NAME] : 30;
		snprintf(tmp, sizeof(tmp), "%.*s%s%s", (int)len,
			 (const char *)b + O_NAME + 1, buf[0] ? "/" : "", buf);
		snprintf(buf, size, "%s", tmp);
		e = get32(b, O_PARENT);
	}
}

/* The hash slot of the name of header block e. */
static unsigned int entry_slot(const struct base *s, uint32_t e, int intl)
{
	const unsigned char *b = blk(s->v, e);

	return affs_hash(b + O_NAME + 1, b[O_NAME] < 30 ? b[O_NAME] : 30, intl);
}

/*
 * The first link of a hard-linked file (its real entry's next_link) whose
 * directory is not the real entry's, so the unlink of the real entry
 * walks the link's directory only through affs_remove_link().
 */
static uint32_t first_link(const struct base *s, uint32_t *real)
{
	uint32_t i, h, r, l;

	for (i = 0; i < s->k[K_HARD].n; i++) {
		h = s->k[K_HARD].b[i];
		r = get32(blk(s->v, h), O_REAL_ENTRY);
		if (!r || r >= s->blocks ||
		    (int32_t)get32(blk(s->v, r), O_SEC_TYPE) != ST_FILE)
			continue;
		l = get32(blk(s->v, r), O_NEXT_LINK);
		if (!l || l >= s->blocks ||
		    get32(blk(s->v, l), O_PARENT) ==
		    get32(blk(s->v, r), O_PARENT))
			continue;
		*real = r;
		return l;
	}
	die("crafted: no hard-linked file with its first link in another "
	    "directory");
	return 0;
}

/* A name of the form fzN that hashes to slot, for a create there. */
static void name_in_slot(unsigned int slot, int intl, char *buf, size_t size)
{
	unsigned int i;

	for (i = 0; i < 100000; i++) {
		snprintf(buf, size, "fz%u", i);
		if (affs_hash((const unsigned char *)buf, strlen(buf), intl) ==
		    slot)
			return;
	}
	die("crafted: no name for hash slot %u", slot);
}

/*
 * link-off-chain: the first link L of a hard-linked file is cut out of
 * its directory's hash chain (the slot or its predecessor skips it), as if
 * the directory had lost it. Unlinking the real entry makes
 * affs_remove_link() look for L there and fail with -ENOENT.
 */
static void c_link_off_chain(struct mut *m, int intl)
{
	uint32_t r, l = first_link(m->s, &r), d = get32(blk(m->v, l), O_PARENT);
	unsigned int off = O_TABLE + 4 * entry_slot(m->s, l, intl);
	uint32_t b = d, steps = 0;
	char path[PATH_MAX];

	while (get32(blk(m->v, b), off) != l) {
		b = get32(blk(m->v, b), off);
		off = O_HASH_CHAIN;
		if (!b || b >= m->s->blocks || ++steps > 64)
			die("crafted: link %u is not on its chain", l);
	}
	set_word(m, b, off, get32(blk(m->v, l), O_HASH_CHAIN),
		 "link-off-chain");
	entry_path(m->s, r, path, sizeof(path));
	say(m, " unlink=%s", path);
}

/*
 * link-hash-self: the first link L of a hard-linked file chains to
 * itself in its directory D. Unlinking the real entry makes
 * affs_remove_link() take L out of D (found at once) and put the real
 * header into D in its place: affs_insert_hash() walks L's chain, which
 * never ends. The words unlink= and create= name what the guest does.
 */
static void c_link_hash_self(struct mut *m, int intl)
{
	uint32_t r, l = first_link(m->s, &r), d = get32(blk(m->v, l), O_PARENT);
	char path[PATH_MAX], dpath[PATH_MAX], name[32];

	if (entry_slot(m->s, r, intl) == entry_slot(m->s, l, intl) &&
	    get32(blk(m->v, r), O_PARENT) == d)
		die("crafted: link and real entry share a chain");
	set_word(m, l, O_HASH_CHAIN, l, "link-hash-self");
	entry_path(m->s, r, path, sizeof(path));
	entry_path(m->s, d, dpath, sizeof(dpath));
	name_in_slot(entry_slot(m->s, l, intl), intl, name, sizeof(name));
	say(m, " unlink=%s create=%s%s%s", path, dpath, dpath[0] ? "/" : "",
	    name);
}

/*
 * link-hash-lost: the slot of the first link L in its directory D points
 * at a free block made a header chained to itself, so L is no longer on
 * its chain and the chain never ends: affs_remove_hash() of L, when the
 * real entry is unlinked, walks it for ever.
 */
static void c_link_hash_lost(struct mut *m, int intl)
{
	uint32_t r, l = first_link(m->s, &r), d = get32(blk(m->v, l), O_PARENT);
	unsigned int slot = entry_slot(m->s, l, intl);
	char path[PATH_MAX], dpath[PATH_MAX], name[32];
	uint32_t f = 0, i;
	unsigned char *b;

	for (i = 0; i < m->s->k[K_FREE].n && !f; i++)
		if (m->s->k[K_FREE].b[i] > m->s->root)
			f = m->s->k[K_FREE].b[i];
	if (!f)
		die("crafted: no free block for link-hash-lost");
	b = blk(m->v, f);
	memset(b, 0, BSIZE);
	put32(b, O_TYPE, T_HEADER);
	put32(b, O_KEY, f);
	put32(b, O_SEC_TYPE, (uint32_t)ST_FILE);
	put32(b, O_PARENT, d);
	b[O_NAME] = 4;
	memcpy(b + O_NAME + 1, "lost", 4);
	bm_set(m, f, 0);
	affs_set_checksum(blk(m->v, m->s->k[K_BITMAP].b[0]), 0);
	set_word(m, f, O_HASH_CHAIN, f, "link-hash-lost");
	set_word(m, d, O_TABLE + 4 * slot, f, "link-hash-lost");
	entry_path(m->s, r, path, sizeof(path));
	entry_path(m->s, d, dpath, sizeof(dpath));
	name_in_slot(slot, intl, name, sizeof(name));
	say(m, " unlink=%s create=%s%s%s", path, dpath, dpath[0] ? "/" : "",
	    name);
}

/*
 * ext-self: the one extension block of other/one-ext.bin has itself as
 * its extension. Unlinking the file truncates it to nothing and
 * affs_truncate() walks the extension chain, freeing the block each time
 * round: for ever, or, with the walk capped at the volume's block count,
 * one "already free" warning per block of the volume.
 */
static void c_ext_self(struct mut *m, int intl)
{
	uint32_t i, f, e = 0;
	char path[PATH_MAX];

	(void)intl;
	for (i = 0; i < m->s->k[K_FILE].n && !e; i++) {
		f = m->s->k[K_FILE].b[i];
		entry_path(m->s, f, path, sizeof(path));
		if (!strcmp(path, "other/one-ext.bin"))
			e = get32(blk(m->v, f), O_EXTENSION);
	}
	if (!e || e >= m->s->blocks ||
	    get32(blk(m->v, e), O_EXTENSION) != 0)
		die("crafted: other/one-ext.bin has not exactly one extension "
		    "block");
	set_word(m, e, O_EXTENSION, e, "ext-self");
	say(m, " unlink=other/one-ext.bin");
}

static const struct {
	const char *name;
	void (*fn)(struct mut *m, int intl);
} crafted[] = {
	{ "link-off-chain", c_link_off_chain },
	{ "link-hash-self", c_link_hash_self },
	{ "link-hash-lost", c_link_hash_lost },
	{ "ext-self", c_ext_self },
};

static int crafted_index(const char *name)
{
	unsigned int i;

	for (i = 0; i < sizeof(crafted) / sizeof(crafted[0]); i++)
		if (!strcmp(crafted[i].name, name))
			return (int)i;
	return -1;
}

/* Crafted mutation c on a copy of base s; checksums always redone. */
static void craft(struct base *s, unsigned char *v, int f, int c, char *desc,
		  size_t size)
{
	struct mut m = { .s = s, .v = v, .desc = desc, .size = size,
			 .always_sum = 1 };

	crafted[c].fn(&m, f == 2 || f == 3);
}

/* ---- writing and reading the fuzz image ---- */

static void pwrite_all(int fd, const void *buf, size_t len, off_t off,
		       const char *path)
{
	const char *p = buf;

	while (len) {
		ssize_t n = pwrite(fd, p, len, off);

		if (n <= 0)
			die("cannot write '%s': %s", path,
			    n < 0 ? strerror(errno) : "short write");
		p += n, len -= n, off += n;
	}
}

/* Writes len bytes at off, leaving 4 KiB runs of zeros as holes. */
static void write_sparse(int fd, const unsigned char *buf, size_t len,
			 off_t off, const char *path)
{
	static const unsigned char zero[4096];
	size_t i, n;

	for (i = 0; i < len; i += n) {
		n = len - i < 4096 ? len - i : 4096;
		if (memcmp(buf + i, zero, n))
			pwrite_all(fd, buf + i, n, off + (off_t)i, path);
	}
}

static unsigned long long parse_num(const char *arg, const char *what,
				    unsigned long long max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (!*arg || *end || errno || *arg == '-' || v > max)
		usage_error("bad %s '%s' (expected 0 to %llu)", what, arg, max);
	return v;
}

static char *tmp_beside(const char *path, int *fd)
{
	char *t = xmalloc(strlen(path) + 8);

	sprintf(t, "%s.XXXXXX", path);
	*fd = mkstemp(t);
	if (*fd < 0) {
		int err = errno;

		free(t);
		die("cannot create '%s': %s", path, strerror(err));
	}
	return t;
}

/* What image i of IMAGE is: image n of seed, and from which recipe. */
struct job {
	unsigned long long seed;
	uint32_t n;
	unsigned int line;		/* of the recipe, or 0 */
	char *name;			/* of the recipe, or NULL */
	char *want;			/* its FLAVOUR MUTATION... words */
	int crafted;			/* index in crafted[], or -1 */
	int flavour;			/* of a crafted recipe */
};

static const char *recipes_path;	/* as resolved, for messages */

/*
 * Whether the generated "FLAVOUR MUTATION..." description matches a
 * recipe's words; a recipe word ending in "..." matches any word that
 * begins with what precedes the dots.
 */
static int desc_matches(const char *got, const char *want)
{
	size_t g, w;

	for (;;) {
		got += strspn(got, " \t");
		want += strspn(want, " \t");
		if (!*got || !*want)
			return !*got && !*want;
		g = strcspn(got, " \t");
		w = strcspn(want, " \t");
		if (w >= 3 && !strncmp(want + w - 3, "...", 3)) {
			if (g < w - 3 || strncmp(got, want, w - 3))
				return 0;
		} else if (g != w || strncmp(got, want, w)) {
			return 0;
		}
		got += g;
		want += w;
	}
}

/* Image j into work (a copy of its base), its description into line. */
static int make_one(const struct job *j, unsigned char *work, uint32_t size,
		    char *line, size_t lsize)
{
	int f = j->crafted >= 0 ? j->flavour : (int)(j->n % FLAVOURS);

	memcpy(work, bases[f].v, size);
	line[0] = 0;
	if (j->crafted >= 0)
		craft(&bases[f], work, f, j->crafted, line, lsize);
	else
		mutate(&bases[f], work, j->seed, j->n, line, lsize);
	return f;
}

static void make_fuzz(const char *self, const char *image, uint32_t size,
		      uint32_t count, const struct job *jobs)
{
	const char *tmp = getenv("TMPDIR");
	char path[PATH_MAX], *header, line[256], *index_path;
	size_t hlen;
	uint64_t offset;
	uint32_t i;
	int fd, xfd, f;
	FILE *idx;
	mode_t mask;

	snprintf(path, sizeof(path), "%s/affs-fuzz.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(path))
		die("cannot make a directory '%s': %s", path, strerror(errno));
	tmpdir = strdup(path);
	if (!tmpdir)
		die("out of memory");
	make_tree();
	date_tree();
	for (f = 0; f < FLAVOURS; f++) {
		snprintf(path, sizeof(path), "%s/%s.adf", tmpdir,
			 flavours[f].name);
		run_mkfs(self, f, size, path);
		load_base(&bases[f], f, path, size);
	}

	/* Descriptions first (they decide the header region's size). */
	{
		char *descs = xmalloc((size_t)count * LINE_MAX_LEN);
		size_t dlen = 0;
		unsigned char *work = xmalloc(size);

		index_path = xmalloc(strlen(image) + 8);
		sprintf(index_path, "%s.index", image);
		for (i = 0; i < count; i++) {
			const struct job *j = &jobs[i];
			char got[256];

			f = make_one(j, work, size, line, 200);
			if (!j->name) {
				dlen += (size_t)snprintf(descs + dlen,
							 LINE_MAX_LEN,
							 "%u %s%s\n", i,
							 flavours[f].name, line);
				continue;
			}
			snprintf(got, sizeof(got), "%s%s", flavours[f].name,
				 line);
			if (j->crafted >= 0) {
				dlen += (size_t)snprintf(descs + dlen,
							 LINE_MAX_LEN,
							 "%u %s (%s: crafted)\n",
							 i, got, j->name);
				continue;
			}
			if (!desc_matches(got, j->want))
				die("'%s' line %u: recipe '%s' is image %u of "
				    "seed %llu, which is '%s', not '%s'",
				    recipes_path, j->line, j->name, j->n,
				    j->seed, got, j->want);
			dlen += (size_t)snprintf(descs + dlen, LINE_MAX_LEN,
						 "%u %s (%s: seed %llu image "
						 "%u)\n", i, got, j->name,
						 j->seed, j->n);
		}
		offset = ((uint64_t)dlen + 128 + MIB - 1) / MIB * MIB;
		header = xmalloc(offset);
		hlen = (size_t)snprintf(header, 128,
			"BKLFUZZ1 count=%u stride=%u size=%u offset=%llu "
			"seed=%llu%s\n", count, size, size,
			(unsigned long long)offset,
			jobs[0].name ? 0 : jobs[0].seed,
			jobs[0].name ? " recipes" : "");
		memcpy(header + hlen, descs, dlen);

		fd = -1;
		tmp_image = tmp_beside(image, &fd);
		mask = umask(0);
		umask(mask);
		if (fchmod(fd, 0666 & ~mask) ||
		    ftruncate(fd, (off_t)(offset + (uint64_t)count * size)))
			die("cannot write '%s': %s", tmp_image, strerror(errno));
		write_sparse(fd, (unsigned char *)header, offset, 0, tmp_image);
		for (i = 0; i < count; i++) {
			make_one(&jobs[i], work, size, line, 200);
			write_sparse(fd, work, size,
				     (off_t)(offset + (uint64_t)i * size),
				     tmp_image);
		}
		if (fsync(fd) || close(fd))
			die("cannot write '%s': %s", tmp_image, strerror(errno));

		tmp_index = tmp_beside(index_path, &xfd);
		idx = fdopen(xfd, "w");
		if (!idx || fchmod(xfd, 0666 & ~mask))
			die("cannot write '%s': %s", tmp_index, strerror(errno));
		fprintf(idx, "# %.*s", (int)hlen, header);
		fwrite(descs, 1, dlen, idx);
		if (fclose(idx))
			die("cannot write '%s': %s", tmp_index, strerror(errno));
		if (rename(tmp_image, image))
			die("cannot rename '%s' to '%s': %s", tmp_image, image,
			    strerror(errno));
		free(tmp_image);
		tmp_image = NULL;
		if (rename(tmp_index, index_path))
			die("cannot rename '%s' to '%s': %s", tmp_index,
			    index_path, strerror(errno));
		free(tmp_index);
		tmp_index = NULL;
		free(descs);
		free(work);
		free(index_path);
	}
	free(header);
	for (f = 0; f < FLAVOURS; f++)
		free(bases[f].v);
	cleanup();
}

static void extract(const char *image, const char *nstr, const char *out)
{
	unsigned long long offset, seed, n;
	unsigned int count, stride, size;
	char head[129] = { 0 };
	unsigned char *buf;
	int fd, ofd;
	char *tmp;

	n = parse_num(nstr, "image number", MAX_COUNT - 1);
	fd = open(image, O_RDONLY);
	if (fd < 0)
		die("cannot open '%s': %s", image, strerror(errno));
	if (pread(fd, head, 128, 0) < 0)
		die("cannot read '%s': %s", image, strerror(errno));
	if (sscanf(head, "BKLFUZZ1 count=%u stride=%u size=%u offset=%llu "
		   "seed=%llu\n", &count, &stride, &size, &offset, &seed) != 5 ||
	    !size || size > stride || stride > 16 * MIB)
		die("'%s' is not an affs-fuzz image (no BKLFUZZ1 header)",
		    image);
	if (n >= count)
		die("no image %llu in '%s' (it holds %u)", n, image, count);
	buf = xmalloc(size);
	if (pread(fd, buf, size, (off_t)(offset + n * stride)) != (ssize_t)size)
		die("cannot read image %llu of '%s': %s", n, image,
		    errno ? strerror(errno) : "short file");
	close(fd);
	tmp = tmp_beside(out, &ofd);
	tmp_image = tmp;
	pwrite_all(ofd, buf, size, 0, tmp);
	if (fchmod(ofd, 0644) || close(ofd))
		die("cannot write '%s': %s", tmp, strerror(errno));
	if (rename(tmp, out))
		die("cannot rename '%s' to '%s': %s", tmp, out, strerror(errno));
	tmp_image = NULL;
	free(tmp);
	free(buf);
}

/*
 * Opens RECIPES: as given when absolute or present from the current
 * directory, else under $TOP, else under the program's directory's
 * grandparent (build/tools/../../).
 */
static FILE *open_recipes(const char *self, const char *path)
{
	char buf[PATH_MAX], *slash;
	const char *top = getenv("TOP");
	FILE *f;

	recipes_path = path;
	f = fopen(path, "r");
	if (f || path[0] == '/' || errno != ENOENT)
		goto out;
	if (top && *top) {
		snprintf(buf, sizeof(buf), "%s/%s", top, path);
		f = fopen(buf, "r");
		if (f)
			goto found;
	}
	snprintf(buf, sizeof(buf), "%s", self);
	slash = strrchr(buf, '/');
	if (slash) {
		snprintf(slash + 1, sizeof(buf) - (size_t)(slash + 1 - buf),
			 "../../%s", path);
		f = fopen(buf, "r");
		if (f)
			goto found;
	}
	die("cannot open recipes '%s': no such file here%s%s or in the "
	    "repository above '%s'", path, top && *top ? ", under " : "",
	    top && *top ? top : "", self);
found:
	recipes_path = strdup(buf);
	if (!recipes_path)
		die("out of memory");
out:
	if (!f)
		die("cannot open recipes '%s': %s", path, strerror(errno));
	return f;
}

static unsigned long long recipe_num(const char *word, unsigned int line,
				     const char *what, unsigned long long max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(word, &end, 10);
	if (!*word || *end || errno || *word == '-' || v > max)
		die("'%s' line %u: bad %s '%s' (expected 0 to %llu)",
		    recipes_path, line, what, word, max);
	return v;
}

/* The recipes of the file, one job each; *count gets how many. */
static struct job *read_recipes(const char *self, const char *path,
				uint32_t *count)
{
	FILE *f = open_recipes(self, path);
	struct job *jobs = NULL;
	char *buf = NULL, *p, *w[3];
	size_t cap = 0;
	unsigned int line = 0, n = 0, i, k;

	while (getline(&buf, &cap, f) > 0) {
		line++;
		p = strchr(buf, '#');
		if (p)
			*p = 0;
		p = buf;
		for (k = 0; k < 3; k++) {
			p += strspn(p, " \t\r\n");
			if (!*p)
				break;
			w[k] = p;
			p += strcspn(p, " \t\r\n");
			if (*p)
				*p++ = 0;
		}
		if (!k)
			continue;
		p += strspn(p, " \t\r\n");
		p[strcspn(p, "\r\n")] = 0;
		if (k < 3 || !*p)
			die("'%s' line %u: expected NAME SEED N FLAVOUR "
			    "MUTATION...", recipes_path, line);
		if (strlen(w[0]) > NAME_MAX_LEN)
			die("'%s' line %u: recipe name longer than %d "
			    "characters", recipes_path, line, NAME_MAX_LEN);
		if (strlen(p) > 200)
			die("'%s' line %u: description longer than 200 "
			    "characters", recipes_path, line);
		for (i = 0; i < n; i++)
			if (!strcmp(jobs[i].name, w[0]))
				die("'%s' line %u: recipe '%s' again (first "
				    "on line %u)", recipes_path, line, w[0],
				    jobs[i].line);
		if (n == MAX_COUNT)
			die("'%s': more than %d recipes", recipes_path,
			    MAX_COUNT);
		jobs = realloc(jobs, (n + 1) * sizeof(*jobs));
		if (!jobs)
			die("out of memory");
		jobs[n].crafted = -1;
		jobs[n].flavour = 0;
		if (!strcmp(w[1], "crafted")) {
			/* NAME crafted FLAVOUR MUTATION */
			for (i = 0; i < FLAVOURS; i++)
				if (!strcmp(flavours[i].name, w[2]))
					break;
			if (i == FLAVOURS)
				die("'%s' line %u: unknown flavour '%s'",
				    recipes_path, line, w[2]);
			jobs[n].crafted = crafted_index(p);
			if (jobs[n].crafted < 0)
				die("'%s' line %u: unknown crafted mutation "
				    "'%s'", recipes_path, line, p);
			jobs[n].flavour = (int)i;
			jobs[n].seed = 0;
			jobs[n].n = 0;
		} else {
			jobs[n].seed = recipe_num(w[1], line, "seed",
						  ULLONG_MAX);
			jobs[n].n = (uint32_t)recipe_num(w[2], line,
							 "image number",
							 MAX_COUNT - 1);
		}
		jobs[n].line = line;
		jobs[n].name = strdup(w[0]);
		jobs[n].want = strdup(p);
		if (!jobs[n].name || !jobs[n].want)
			die("out of memory");
		n++;
	}
	if (ferror(f))
		die("cannot read '%s': %s", recipes_path, strerror(errno));
	fclose(f);
	free(buf);
	if (!n)
		die("'%s' holds no recipe", recipes_path);
	*count = n;
	return jobs;
}

int main(int argc, char **argv)
{
	unsigned long long mib, count, seed;
	struct job *jobs;
	uint32_t i, n;
	const char *env;

	die_cleanup = cleanup;

	if (argc > 1 && !strcmp(argv[1], "--extract")) {
		if (argc != 5)
			usage_error("--extract takes IMAGE N OUT");
		extract(argv[2], argv[3], argv[4]);
		return 0;
	}
	if (argc > 1 && argv[1][0] == '-' && argv[1][1])
		usage_error("unknown option '%s'", argv[1]);
	if (argc > 3 && !strcmp(argv[3], "--recipes")) {
		if (argc != 5)
			usage_error("--recipes takes IMAGE MIB --recipes "
				    "RECIPES");
		mib = parse_num(argv[2], "size in MiB", 16);
		jobs = read_recipes(argv[0], argv[4], &n);
		make_fuzz(argv[0], argv[1], (uint32_t)(mib ? mib : 1) * MIB,
			  n, jobs);
		return 0;
	}
	if (argc != 5)
		usage_error("expected IMAGE MIB COUNT SEED, got %d argument%s",
			    argc - 1, argc == 2 ? "" : "s");
	mib = parse_num(argv[2], "size in MiB", 16);
	count = parse_num(argv[3], "count", MAX_COUNT);
	seed = parse_num(argv[4], "seed", ULLONG_MAX);
	env = getenv("AFFS_FUZZ_COUNT");
	if (env && *env)
		count = parse_num(env, "AFFS_FUZZ_COUNT", MAX_COUNT);
	env = getenv("AFFS_FUZZ_SEED");
	if (env && *env)
		seed = parse_num(env, "AFFS_FUZZ_SEED", ULLONG_MAX);
	if (!count)
		usage_error("bad count '0' (expected 1 to %d)", MAX_COUNT);
	jobs = xmalloc((size_t)count * sizeof(*jobs));
	for (i = 0; i < count; i++) {
		jobs[i].seed = seed;
		jobs[i].n = i;
		jobs[i].crafted = -1;
	}
	make_fuzz(argv[0], argv[1], (uint32_t)(mib ? mib : 1) * MIB,
		  (uint32_t)count, jobs);
	return 0;
}
