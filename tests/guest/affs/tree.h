/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tree.h - the content of the affs profile's volumes, shared by the host
 * tool that makes them (tools/affs/affs-image.c, through tools/affs/mkfs.affs -r) and
 * the guest tests that read them back (tests/guest/affs/readback.c,
 * modify.c). No data is shipped: a file's bytes come from its seed.
 *
 * Byte i of a file with seed s is byte i % 512 of the pattern.h sector
 * i / 512 for seed s ("bklfree lba N seed S\n" then bytes that depend on N
 * and S), so a misplaced, short or stale block reads back wrong at once.
 *
 * What the table covers (sizes in data blocks: OFS 488 bytes, FFS 512):
 * nested directories three deep, an empty directory, a 30-character name
 * (the AFFS limit), an empty file, a Latin-1 name ("caf\351": folds to
 * "CAF\311" only on an international volume), a one-block file, a file of
 * exactly 72 FFS blocks (no extension block on FFS, one on OFS), one of 73
 * OFS blocks, a 100000-byte file (196 FFS / 205 OFS blocks: two extension
 * blocks), 100 small files in one directory (more entries than the 72 hash
 * slots: chains; dircache spans several blocks), soft links in the same
 * directory, two levels up and absolute, and a hard link. About 290 KB in
 * all, so the 4 MiB OFS volume keeps room for modify's writes.
 *
 * Soft links carry two strings: the host target that mkfs.affs turns into
 * Amiga syntax ("../../x" is "//x", "/x" is "LABEL:x"), and what readlink(2)
 * must return in the guest (fs/affs/symlink.c: "LABEL:x" reads "/LABEL/x",
 * each empty path part "..").
 */
#ifndef BKLFREE_AFFS_TREE_H
#define BKLFREE_AFFS_TREE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../pattern.h"

#define AFFS_TREE_LABEL "bklfree"
/* 2020-01-02 12:34:56 UTC: the mtime of every host entry, the volume date. */
#define AFFS_TREE_MTIME 1577968496L
#define AFFS_TREE_MANY 100

enum affs_tree_type { AT_DIR, AT_FILE, AT_SOFT, AT_HARD };

struct affs_tree_entry {
	const char *path;		/* relative to the volume root */
	enum affs_tree_type type;
	unsigned int size;		/* AT_FILE */
	unsigned int seed;		/* AT_FILE */
	const char *target;		/* AT_SOFT host target, AT_HARD real path */
	const char *guest_target;	/* AT_SOFT: readlink in the guest */
};

/*
 * Parents come before their children. mkfs.affs takes the first name of
 * a hard-linked file it meets as the real entry; it looks at all of a
 * directory's entries before going into its subdirectories, so that is
 * "hello.txt" and "docs/hard" is the link.
 */
static const struct affs_tree_entry affs_tree[] = {
	{ "docs", AT_DIR, 0, 0, NULL, NULL },
	{ "docs/nested", AT_DIR, 0, 0, NULL, NULL },
	{ "docs/nested/deeper", AT_DIR, 0, 0, NULL, NULL },
	{ "empty-dir", AT_DIR, 0, 0, NULL, NULL },
	{ "many", AT_DIR, 0, 0, NULL, NULL },
	{ "hello.txt", AT_FILE, 13, 1, NULL, NULL },
	{ "empty", AT_FILE, 0, 2, NULL, NULL },
	{ "abcdefghijklmnopqrstuvwxyz0123", AT_FILE, 100, 3, NULL, NULL },
	{ "caf\351", AT_FILE, 50, 4, NULL, NULL },
	{ "docs/one-block", AT_FILE, 488, 5, NULL, NULL },
	{ "docs/big.bin", AT_FILE, 100000, 6, NULL, NULL },
	{ "docs/nested/mid.bin", AT_FILE, 488 * 73, 7, NULL, NULL },
	{ "docs/nested/deeper/exactly72.bin", AT_FILE, 512 * 72, 8, NULL,
	  NULL },
	{ "soft", AT_SOFT, 0, 0, "hello.txt", "hello.txt" },
	{ "docs/nested/up", AT_SOFT, 0, 0, "../../hello.txt",
	  "../../hello.txt" },
	{ "docs/abs", AT_SOFT, 0, 0, "/docs/big.bin",
	  "/" AFFS_TREE_LABEL "/docs/big.bin" },
	{ "docs/hard", AT_HARD, 0, 0, "hello.txt", NULL },
};

/* Entry i of "many": "many/fNNN", (i * 37) % 700 bytes, seed 100 + i. */
static inline void affs_tree_many(unsigned int i, char *path, size_t size,
				  unsigned int *bytes, unsigned int *seed)
{
	snprintf(path, size, "many/f%03u", i);
	*bytes = i * 37 % 700;
	*seed = 100 + i;
}

/* The entries of the table plus the AFFS_TREE_MANY files of "many". */
#define AFFS_TREE_COUNT (ARRAY_SIZE_TREE + AFFS_TREE_MANY)
#define ARRAY_SIZE_TREE (sizeof(affs_tree) / sizeof(affs_tree[0]))

/* Entry n of the whole tree, 0 <= n < AFFS_TREE_COUNT, into e and path. */
static inline void affs_tree_get(unsigned int n, struct affs_tree_entry *e,
				 char *path, size_t size)
{
	if (n < ARRAY_SIZE_TREE) {
		*e = affs_tree[n];
		snprintf(path, size, "%s", e->path);
	} else {
		memset(e, 0, sizeof(*e));
		e->type = AT_FILE;
		affs_tree_many(n - ARRAY_SIZE_TREE, path, size, &e->size,
			       &e->seed);
	}
	e->path = path;
}

/* len bytes of the content with seed, from offset off, into buf. */
static inline void affs_tree_fill(unsigned char *buf, unsigned long off,
				  size_t len, unsigned int seed)
{
	unsigned char sector[PATTERN_SECTOR];
	unsigned long lba = ~0UL;

	while (len) {
		size_t in = off % PATTERN_SECTOR;
		size_t n = PATTERN_SECTOR - in;

		if (n > len)
			n = len;
		if (lba != off / PATTERN_SECTOR) {
			lba = off / PATTERN_SECTOR;
			pattern_fill(sector, lba, seed);
		}
		memcpy(buf, sector + in, n);
		buf += n;
		off += n;
		len -= n;
	}
}

/* FNV-1a of a buffer, chained through h (start with 2166136261). */
static inline uint32_t affs_tree_fnv(uint32_t h, const unsigned char *p,
				     size_t n)
{
	while (n--)
		h = (h ^ *p++) * 16777619u;
	return h;
}

/* The FNV-1a of the first size bytes of seed's content. */
static inline uint32_t affs_tree_sum(unsigned int size, unsigned int seed)
{
	unsigned char buf[4096];
	uint32_t h = 2166136261u;
	unsigned long off = 0;

	while (off < size) {
		size_t n = size - off < sizeof(buf) ? size - off : sizeof(buf);

		affs_tree_fill(buf, off, n, seed);
		h = affs_tree_fnv(h, buf, n);
		off += n;
	}
	return h;
}

#endif /* BKLFREE_AFFS_TREE_H */
