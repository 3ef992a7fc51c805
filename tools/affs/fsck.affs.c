// SPDX-License-Identifier: GPL-2.0
/*
 * fsck.affs: check an Amiga OFS/FFS volume (512-byte blocks, DOS\0 to
 * DOS\5) block by block, for what a reader like unadf never looks at.
 *
 *   fsck.affs [-q] IMAGE
 *
 * Prints one line per problem, "block N: what", then a summary line
 * "IMAGE: FLAVOUR, B blocks, U used, F files, D directories, L links: clean"
 * (or "N problem(s)"). -q prints only the summary. Exit status: 0 clean,
 * 1 inconsistent, 2 on a usage or I/O error. At most MAX_REPORTS problem
 * lines are printed; the count in the summary is complete.
 *
 * Checked (format facts as in tools/affs/affs.h's header comment):
 *  - boot block: "DOS", flags 0-5, its carry-add checksum, the root block
 *    number (unused by Linux; a mismatch is reported);
 *  - every other block met: its checksum (bitmap: word 0, others: word 5);
 *  - root: type 2, secondary type 1, hash table size 72, zero key fields,
 *    name length 1-30, bitmap valid flag, bitmap page list and extension
 *    chain; the directory cache block list when the flavour has one;
 *  - directories: every hash slot's chain - each entry in range, a header
 *    block (type 2) with its own number as key, a known secondary type,
 *    the directory as parent, a name of 1-30 characters without '/' or
 *    ':' whose hash (international or not, from the DOS type) is the slot,
 *    no two names equal but for case; a block met twice is reported once
 *    and not followed again, so loops end;
 *  - files: block count (header and extension blocks) against the byte
 *    size, every data pointer in range and unused slots zero, first_data,
 *    extension blocks (type 16, key, parent, secondary type -3), no
 *    extension past the last data block; OFS data blocks: type 8, header
 *    key, sequence number, bytes used, next pointer;
 *  - hard links: the real entry is a header of the right kind reached from
 *    the root, its link chain holds every link naming it and nothing else;
 *  - soft links: a NUL-terminated string of printable characters in the
 *    288-byte area;
 *  - directory caches (DOS\4, DOS\5): type 33, key, parent, chained blocks,
 *    records inside the block and together naming exactly the entries of
 *    the directory with their sizes;
 *  - bitmap: every block reachable from the root (boot, root, bitmap,
 *    headers, extension, data and cache blocks) is marked used, no other
 *    block is (leaked), no block is used twice.
 * Every walk is bounded by the number of blocks, every pointer is range
 * checked before it is read, so garbage gives problems, not a crash.
 *
 * The checking is all in fsck_affs() below, which needs only the image in
 * memory; define FSCK_AFFS_NO_MAIN to use it from another tool.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "affs.h"
#ifndef FSCK_AFFS_NO_MAIN
#define USAGE "usage: fsck.affs [-q] IMAGE"
#endif
#include "usage.h"

#define SYMLINK_AREA 288	/* bytes 24 to BSIZE - 200 */
#define MAX_REPORTS 200

/* What a block is used for, once the walk reached it. */
enum use {
	U_FREE, U_BOOT, U_ROOT, U_BITMAP, U_BMEXT, U_DIR, U_FILE, U_SOFT,
	U_HARDFILE, U_HARDDIR, U_EXT, U_DATA, U_DIRC,
};

static const char *const use_name[] = {
	"free", "boot block", "root block", "bitmap block",
	"bitmap extension block", "directory header", "file header",
	"soft link header", "hard link header", "hard link header",
	"file extension block", "data block", "directory cache block",
};

struct fsck {
	const unsigned char *img;
	uint32_t blocks, root;
	int ffs, intl, dircache;
	unsigned char *use;	/* enum use per block */
	uint32_t *owner;	/* the header a block belongs to, or 0 */
	unsigned char *mark;	/* scratch marks for bounded walks */
	uint32_t *stack;	/* directories still to walk */
	size_t nstack;
	unsigned long problems, files, dirs, links, used;
	FILE *out;
	int quiet;
};

static const unsigned char *blk(const struct fsck *f, uint32_t n)
{
	return f->img + (size_t)n * BSIZE;
}

static uint32_t word(const struct fsck *f, uint32_t n, unsigned int off)
{
	return get32(blk(f, n), off);
}

static __attribute__((format(printf, 3, 4)))
void problem(struct fsck *f, uint32_t n, const char *fmt, ...)
{
	va_list ap;

	if (f->problems++ >= MAX_REPORTS || f->quiet)
		return;
	fprintf(f->out, "block %lu: ", (unsigned long)n);
	va_start(ap, fmt);
	vfprintf(f->out, fmt, ap);
	va_end(ap);
	fputc('\n', f->out);
}

static int in_range(const struct fsck *f, uint32_t n)
{
	return n >= 2 && n < f->blocks;
}

/* 1 when the 128 words of block n sum to 0 (checksum at word off). */
static int checksum_ok(struct fsck *f, uint32_t n, unsigned int off,
		       const char *what)
{
	uint32_t sum = affs_block_sum(blk(f, n));

	if (!sum)
		return 1;
	problem(f, n, "bad checksum of %s (stored 0x%08x, want 0x%08x)", what,
		word(f, n, off), word(f, n, off) - sum);
	return 0;
}

/*
 * Claim block n for use u of header owner. 0 when it was claimed before
 * (reported, unless the earlier claim is the same), else 1.
 */
static int claim(struct fsck *f, uint32_t n, enum use u, uint32_t owner,
		 uint32_t from)
{
	if (f->use[n] != U_FREE) {
		problem(f, n, "used twice: %s of %lu and %s of %lu",
			use_name[f->use[n]], (unsigned long)f->owner[n],
			use_name[u], (unsigned long)from);
		return 0;
	}
	f->use[n] = (unsigned char)u;
	f->owner[n] = owner;
	f->used++;
	return 1;
}

static int same_name(const struct fsck *f, uint32_t a, uint32_t b)
{
	const unsigned char *x = blk(f, a) + O_NAME, *y = blk(f, b) + O_NAME;
	unsigned int i;

	if (x[0] != y[0])
		return 0;
	for (i = 1; i <= x[0]; i++)
		if (affs_upper(x[i], f->intl) != affs_upper(y[i], f->intl))
			return 0;
	return 1;
}

/* "name" of header n, printable, for messages. */
static const char *show_name(const struct fsck *f, uint32_t n)
{
	static char buf[4 * NAME_MAX_AFFS + 3];
	const unsigned char *p = blk(f, n) + O_NAME;
	unsigned int len = p[0] > NAME_MAX_AFFS ? NAME_MAX_AFFS : p[0], i;
	char *o = buf;

	*o++ = '"';
	for (i = 1; i <= len; i++) {
		if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '"' && p[i] != '\\')
			*o++ = (char)p[i];
		else
			o += sprintf(o, "\\%03o", p[i]);
	}
	*o++ = '"';
	*o = '\0';
	return buf;
}

/* Name of header n: 1-30 characters, no '/' or ':'. 1 when good. */
static int check_name(struct fsck *f, uint32_t n, const char *what)
{
	const unsigned char *p = blk(f, n) + O_NAME;
	unsigned int i;

	if (p[0] < 1 || p[0] > NAME_MAX_AFFS) {
		problem(f, n, "%s name length %u (expected 1 to %d)", what,
			p[0], NAME_MAX_AFFS);
		return 0;
	}
	for (i = 1; i <= p[0]; i++) {
		if (p[i] == '/' || p[i] == ':' || p[i] < 0x20 ||
		    p[i] == 0x7f) {
			problem(f, n, "%s name %s has a '/', ':' or control "
				"character", what, show_name(f, n));
			return 0;
		}
	}
	return 1;
}

/* The OFS data block b, sequence k + 1 of file hdr, holding want bytes. */
static void check_ofs_data(struct fsck *f, uint32_t hdr, uint32_t b,
			   uint32_t k, uint32_t want, uint32_t next)
{
	if (!checksum_ok(f, b, O_CHKSUM, "OFS data block"))
		return;
	if (word(f, b, O_TYPE) != T_DATA)
		problem(f, b, "OFS data block %lu of file %lu has type %lu "
			"(expected %d)", (unsigned long)k + 1,
			(unsigned long)hdr, (unsigned long)word(f, b, O_TYPE),
			T_DATA);
	if (word(f, b, 4) != hdr)
		problem(f, b, "OFS data block header key %lu (expected file "
			"header %lu)", (unsigned long)word(f, b, 4),
			(unsigned long)hdr);
	if (word(f, b, 8) != k + 1)
		problem(f, b, "OFS data block sequence number %lu (expected "
			"%lu) in file %lu", (unsigned long)word(f, b, 8),
			(unsigned long)k + 1, (unsigned long)hdr);
	if (word(f, b, 12) != want)
		problem(f, b, "OFS data block byte count %lu (expected %lu) "
			"in file %lu", (unsigned long)word(f, b, 12),
			(unsigned long)want, (unsigned long)hdr);
	if (word(f, b, 16) != next)
		problem(f, b, "OFS data block next pointer %lu (expected %lu) "
			"in file %lu", (unsigned long)word(f, b, 16),
			(unsigned long)next, (unsigned long)hdr);
}

/*
 * The data blocks of file header hdr: the header's table, then extension
 * blocks chained from its extension word, 72 pointers each, last slot
 * first.
 */
static void check_file(struct fsck *f, uint32_t hdr)
{
	uint32_t size = word(f, hdr, O_BYTE_SIZE);
	uint32_t dsize = f->ffs ? BSIZE : OFS_DATA;
	uint32_t nblocks = size / dsize + !!(size % dsize);
	uint32_t table = hdr, k = 0, prev = 0, prev_k = 0, ext;
	uint32_t max = f->blocks;
	unsigned int i;

	if (nblocks > f->blocks) {
		problem(f, hdr, "file %s size %lu is larger than the volume",
			show_name(f, hdr), (unsigned long)size);
		nblocks = f->blocks;
	}
	if (nblocks && word(f, hdr, O_FIRST_DATA) !=
	    word(f, hdr, O_TABLE + 4 * (HT_SIZE - 1)))
		problem(f, hdr, "file %s first_data %lu is not the first data "
			"block %lu", show_name(f, hdr),
			(unsigned long)word(f, hdr, O_FIRST_DATA),
			(unsigned long)word(f, hdr, O_TABLE + 4 * (HT_SIZE - 1)));
	for (;;) {
		uint32_t here = nblocks - k < HT_SIZE ? nblocks - k : HT_SIZE;

		if (word(f, table, O_HIGH_SEQ) != here)
			problem(f, table, "%s of file %lu counts %lu data "
				"blocks (expected %lu for %lu bytes)",
				table == hdr ? "header" : "extension block",
				(unsigned long)hdr,
				(unsigned long)word(f, table, O_HIGH_SEQ),
				(unsigned long)here, (unsigned long)size);
		for (i = 0; i < HT_SIZE; i++) {
			uint32_t b = word(f, table, O_TABLE +
					  4 * (HT_SIZE - 1 - i));

			if (i >= here) {
				if (b)
					problem(f, table, "data pointer %u of "
						"file %lu is %lu past the end "
						"of the file", i,
						(unsigned long)hdr,
						(unsigned long)b);
				continue;
			}
			/* An OFS block is checked once its successor is known. */
			if (prev)
				check_ofs_data(f, hdr, prev, prev_k, dsize, b);
			prev = 0;
			if (!in_range(f, b)) {
				problem(f, table, "data block %lu of file %lu "
					"is %lu, outside the volume",
					(unsigned long)k + i + 1,
					(unsigned long)hdr, (unsigned long)b);
				continue;
			}
			if (claim(f, b, U_DATA, hdr, table) && !f->ffs) {
				prev = b;
				prev_k = k + i;
			}
		}
		k += here;
		ext = word(f, table, O_EXTENSION);
		if (k >= nblocks || !max--)
			break;
		if (!ext) {
			problem(f, table, "file %lu has %lu data blocks but "
				"its extension chain ends after %lu",
				(unsigned long)hdr, (unsigned long)nblocks,
				(unsigned long)k);
			break;
		}
		if (!in_range(f, ext)) {
			problem(f, table, "extension pointer %lu of file %lu is "
				"outside the volume", (unsigned long)ext,
				(unsigned long)hdr);
			break;
		}
		if (!claim(f, ext, U_EXT, hdr, table) ||
		    !checksum_ok(f, ext, O_CHKSUM, "file extension block"))
			break;
		if (word(f, ext, O_TYPE) != T_LIST ||
		    word(f, ext, O_KEY) != ext ||
		    word(f, ext, O_PARENT) != hdr ||
		    word(f, ext, O_SEC_TYPE) != (uint32_t)ST_FILE) {
			problem(f, ext, "extension block of file %lu: type %ld "
				"key %lu parent %lu secondary type %ld "
				"(expected %d %lu %lu %d)", (unsigned long)hdr,
				(long)(int32_t)word(f, ext, O_TYPE),
				(unsigned long)word(f, ext, O_KEY),
				(unsigned long)word(f, ext, O_PARENT),
				(long)(int32_t)word(f, ext, O_SEC_TYPE),
				T_LIST, (unsigned long)ext,
				(unsigned long)hdr, ST_FILE);
			break;
		}
		table = ext;
	}
	if (prev)
		check_ofs_data(f, hdr, prev, prev_k,
			       size - prev_k * dsize, 0);
	if (k >= nblocks && ext)
		problem(f, table, "file %lu has an extension block %lu past "
			"its last data block", (unsigned long)hdr,
			(unsigned long)ext);
}

static void check_softlink(struct fsck *f, uint32_t n)
{
	const unsigned char *s = blk(f, n) + O_TABLE;
	unsigned int i;

	for (i = 0; i < SYMLINK_AREA && s[i]; i++) {
		if (s[i] < 0x20 || s[i] == 0x7f) {
			problem(f, n, "soft link %s target has control "
				"character 0x%02x", show_name(f, n), s[i]);
			return;
		}
	}
	if (i == SYMLINK_AREA)
		problem(f, n, "soft link %s target is not NUL-terminated",
			show_name(f, n));
	else if (!i)
		problem(f, n, "soft link %s target is empty", show_name(f, n));
}

/* One entry of directory dir met in hash slot slot. */
static void check_entry(struct fsck *f, uint32_t dir, unsigned int slot,
			uint32_t n)
{
	int32_t st = (int32_t)word(f, n, O_SEC_TYPE);
	const unsigned char *name = blk(f, n) + O_NAME;
	unsigned int len = name[0];

	if (word(f, n, O_PARENT) != dir)
		problem(f, n, "entry %s parent %lu (expected %lu)",
			show_name(f, n), (unsigned long)word(f, n, O_PARENT),
			(unsigned long)dir);
	if (check_name(f, n, "entry") &&
	    affs_hash(name + 1, len, f->intl) != slot)
		problem(f, n, "entry %s in hash slot %u of %lu hashes to %u%s",
			show_name(f, n), slot, (unsigned long)dir,
			affs_hash(name + 1, len, f->intl),
			f->intl ? " (international)" : "");
	if (blk(f, n)[O_COMMENT] > 79)
		problem(f, n, "entry %s comment length %u (at most 79)",
			show_name(f, n), blk(f, n)[O_COMMENT]);
	switch (st) {
	case ST_USERDIR:
		f->dirs++;
		f->stack[f->nstack++] = n;
		break;
	case ST_FILE:
		f->files++;
		check_file(f, n);
		break;
	case ST_SOFTLINK:
		f->links++;
		check_softlink(f, n);
		break;
	case ST_LINKFILE:
	case ST_LINKDIR:
		f->links++;
		break;
	}
}

/* The hash table of directory (or root) header dir. */
static void check_dir(struct fsck *f, uint32_t dir)
{
	unsigned int slot;

	for (slot = 0; slot < HT_SIZE; slot++) {
		uint32_t n = word(f, dir, O_TABLE + 4 * slot);
		uint32_t from = dir, first = n, steps = 0;

		while (n && steps++ < f->blocks) {
			uint32_t m;
			int32_t st;
			enum use u;

			if (!in_range(f, n)) {
				problem(f, from, "hash chain of slot %u of "
					"directory %lu points outside the "
					"volume (%lu)", slot,
					(unsigned long)dir, (unsigned long)n);
				break;
			}
			if (f->use[n] != U_FREE && f->owner[n] == dir &&
			    f->use[n] >= U_DIR && f->use[n] <= U_HARDDIR) {
				problem(f, from, "hash chain of slot %u of "
					"directory %lu loops back to %lu",
					slot, (unsigned long)dir,
					(unsigned long)n);
				break;
			}
			if (!checksum_ok(f, n, O_CHKSUM, "entry header"))
				break;
			st = (int32_t)word(f, n, O_SEC_TYPE);
			if (word(f, n, O_TYPE) != T_HEADER ||
			    word(f, n, O_KEY) != n) {
				problem(f, n, "entry of directory %lu has type "
					"%ld key %lu (expected %d %lu)",
					(unsigned long)dir,
					(long)(int32_t)word(f, n, O_TYPE),
					(unsigned long)word(f, n, O_KEY),
					T_HEADER, (unsigned long)n);
				break;
			}
			switch (st) {
			case ST_USERDIR: u = U_DIR; break;
			case ST_FILE: u = U_FILE; break;
			case ST_SOFTLINK: u = U_SOFT; break;
			case ST_LINKFILE: u = U_HARDFILE; break;
			case ST_LINKDIR: u = U_HARDDIR; break;
			default:
				problem(f, n, "entry of directory %lu has "
					"secondary type %ld", (unsigned long)dir,
					(long)st);
				u = U_FREE;
			}
			if (u == U_FREE || !claim(f, n, u, dir, dir))
				break;
			/* Same name earlier in this chain? */
			for (m = first; m && m != n && in_range(f, m) &&
			     f->owner[m] == dir;
			     m = word(f, m, O_HASH_CHAIN))
				if (same_name(f, m, n)) {
					problem(f, n, "entry %s of directory "
						"%lu: the name is also block "
						"%lu's", show_name(f, n),
						(unsigned long)dir,
						(unsigned long)m);
					break;
				}
			check_entry(f, dir, slot, n);
			from = n;
			n = word(f, n, O_HASH_CHAIN);
		}
	}
}

/* Hard link L names its real entry; the real entry's chain names L. */
static void check_hardlinks(struct fsck *f)
{
	uint32_t n, l, steps;

	for (n = 2; n < f->blocks; n++) {
		uint32_t real;
		int dir;

		if (f->use[n] != U_HARDFILE && f->use[n] != U_HARDDIR)
			continue;
		dir = f->use[n] == U_HARDDIR;
		real = word(f, n, O_REAL_ENTRY);
		if (!in_range(f, real) ||
		    f->use[real] != (dir ? U_DIR : U_FILE)) {
			problem(f, n, "hard link %s names %lu, which is not a "
				"%s reached from the root", show_name(f, n),
				(unsigned long)real,
				dir ? "directory" : "file");
			continue;
		}
		memset(f->mark, 0, f->blocks);
		for (l = word(f, real, O_NEXT_LINK), steps = 0;
		     l && l != n && in_range(f, l) && !f->mark[l] &&
		     steps < f->blocks; steps++) {
			f->mark[l] = 1;
			l = word(f, l, O_NEXT_LINK);
		}
		if (l != n)
			problem(f, n, "hard link %s is not in the link chain "
				"of %lu", show_name(f, n), (unsigned long)real);
	}
	/* Every link of every chain is a link to that entry. */
	for (n = 2; n < f->blocks; n++) {
		if (f->use[n] != U_FILE && f->use[n] != U_DIR)
			continue;
		memset(f->mark, 0, f->blocks);
		for (l = word(f, n, O_NEXT_LINK), steps = 0; l;
		     l = word(f, l, O_NEXT_LINK), steps++) {
			if (!in_range(f, l) || f->mark[l] ||
			    steps >= f->blocks) {
				problem(f, n, "link chain of %s is broken or "
					"loops at %lu", show_name(f, n),
					(unsigned long)l);
				break;
			}
			f->mark[l] = 1;
			if ((f->use[l] != U_HARDFILE &&
			     f->use[l] != U_HARDDIR) ||
			    word(f, l, O_REAL_ENTRY) != n) {
				problem(f, n, "link chain of %s holds %lu, "
					"which is not a hard link to it",
					show_name(f, n), (unsigned long)l);
				break;
			}
		}
	}
}

/* The directory cache of dir, from its extension word. */
static void check_dircache(struct fsck *f, uint32_t dir)
{
	uint32_t b = word(f, dir, O_EXTENSION), steps = 0, records = 0;
	uint32_t entries = 0, slot, n;

	if (!f->dircache) {
		if (dir != f->root && b)
			problem(f, dir, "directory %s has extension %lu on a "
				"volume without directory cache",
				show_name(f, dir), (unsigned long)b);
		return;
	}
	if (!b) {
		problem(f, dir, "directory %lu has no directory cache",
			(unsigned long)dir);
		return;
	}
	memset(f->mark, 0, f->blocks);
	while (b && steps++ < f->blocks) {
		const unsigned char *p = blk(f, b);
		unsigned int off = 0, r, nr;

		if (!in_range(f, b)) {
			problem(f, dir, "directory cache pointer %lu is "
				"outside the volume", (unsigned long)b);
			return;
		}
		if (!claim(f, b, U_DIRC, dir, dir) ||
		    !checksum_ok(f, b, O_CHKSUM, "directory cache block"))
			return;
		if (word(f, b, O_TYPE) != T_DIRC || word(f, b, O_KEY) != b ||
		    word(f, b, 8) != dir) {
			problem(f, b, "directory cache block of %lu: type %lu "
				"key %lu parent %lu (expected %d %lu %lu)",
				(unsigned long)dir,
				(unsigned long)word(f, b, O_TYPE),
				(unsigned long)word(f, b, O_KEY),
				(unsigned long)word(f, b, 8), T_DIRC,
				(unsigned long)b, (unsigned long)dir);
			return;
		}
		nr = word(f, b, 12);
		for (r = 0; r < nr; r++) {
			const unsigned char *rec = p + O_TABLE + off;
			uint32_t hdr, len;

			if (off + 25 > DIRC_AREA ||
			    off + 25 + rec[23] > DIRC_AREA ||
			    off + 25 + rec[23] + rec[24 + rec[23]] >
			    DIRC_AREA) {
				problem(f, b, "directory cache record %u of %u "
					"runs past the block", r, nr);
				break;
			}
			len = 25 + rec[23] + rec[24 + rec[23]];
			off += (len + 1) & ~1u;
			hdr = get32(rec, 0);
			records++;
			if (!in_range(f, hdr) || f->owner[hdr] != dir ||
			    f->use[hdr] < U_DIR || f->use[hdr] > U_HARDDIR) {
				problem(f, b, "directory cache record %u names "
					"%lu, not an entry of %lu", r,
					(unsigned long)hdr, (unsigned long)dir);
				continue;
			}
			if (f->mark[hdr]++) {
				problem(f, b, "directory cache names %lu twice",
					(unsigned long)hdr);
				continue;
			}
			if (rec[23] != blk(f, hdr)[O_NAME] ||
			    memcmp(rec + 24, blk(f, hdr) + O_NAME + 1,
				   rec[23]))
				problem(f, b, "directory cache record %u name "
					"differs from header %lu's %s", r,
					(unsigned long)hdr, show_name(f, hdr));
			if (f->use[hdr] == U_FILE &&
			    get32(rec, 4) != word(f, hdr, O_BYTE_SIZE))
				problem(f, b, "directory cache record %u size "
					"%lu, header %lu says %lu", r,
					(unsigned long)get32(rec, 4),
					(unsigned long)hdr,
					(unsigned long)word(f, hdr,
							    O_BYTE_SIZE));
		}
		b = word(f, b, 16);
	}
	/* Every entry has a record. */
	for (slot = 0; slot < HT_SIZE; slot++) {
		uint32_t steps2 = 0;

		for (n = word(f, dir, O_TABLE + 4 * slot);
		     in_range(f, n) && f->owner[n] == dir &&
		     steps2++ < f->blocks; n = word(f, n, O_HASH_CHAIN)) {
			entries++;
			if (!f->mark[n]) {
				problem(f, dir, "entry %lu %s has no directory "
					"cache record", (unsigned long)n,
					show_name(f, n));
				f->mark[n] = 1;
			}
		}
	}
	(void)records;
	(void)entries;
}

/* Free bit of block n (n >= 2) in bitmap block bm. */
static int bit_free(const struct fsck *f, uint32_t bm, uint32_t n)
{
	uint32_t k = (n - 2) % (BM_WORDS * 32);

	return word(f, bm, 4 + k / 32 * 4) >> (k % 32) & 1;
}

/* The bitmap blocks from the root and the extension chain. */
static uint32_t *read_bitmap_list(struct fsck *f, uint32_t *nr)
{
	uint32_t want = (f->blocks - 2 + BM_WORDS * 32 - 1) / (BM_WORDS * 32);
	uint32_t *bm = calloc(want ? want : 1, sizeof(*bm));
	uint32_t i, b, ext, steps = 0;

	if (!bm)
		return NULL;
	*nr = want;
	for (i = 0; i < BM_ROOT_SLOTS; i++) {
		b = word(f, f->root, O_BM_PAGES + 4 * i);
		if (i < want)
			bm[i] = b;
		else if (b)
			problem(f, f->root, "bitmap page %u is %lu (only %lu "
				"needed)", i, (unsigned long)b,
				(unsigned long)want);
	}
	ext = word(f, f->root, O_BM_EXT);
	while (ext && steps < f->blocks) {
		if (!in_range(f, ext)) {
			problem(f, f->root, "bitmap extension pointer %lu is "
				"outside the volume", (unsigned long)ext);
			break;
		}
		if (!claim(f, ext, U_BMEXT, f->root, f->root))
			break;
		for (i = 0; i < BM_EXT_SLOTS; i++) {
			uint32_t at = BM_ROOT_SLOTS + steps * BM_EXT_SLOTS + i;

			b = word(f, ext, 4 * i);
			if (at < want)
				bm[at] = b;
			else if (b)
				problem(f, ext, "bitmap page %lu is %lu (only "
					"%lu needed)", (unsigned long)at,
					(unsigned long)b, (unsigned long)want);
		}
		steps++;
		ext = word(f, ext, BSIZE - 4);
	}
	for (i = 0; i < want; i++) {
		if (!in_range(f, bm[i])) {
			problem(f, f->root, "bitmap page %lu is %lu, outside "
				"the volume", (unsigned long)i,
				(unsigned long)bm[i]);
			bm[i] = 0;
		} else if (!claim(f, bm[i], U_BITMAP, f->root, f->root) ||
			   !checksum_ok(f, bm[i], 0, "bitmap block")) {
			bm[i] = 0;
		}
	}
	return bm;
}

static void check_bitmap(struct fsck *f, const uint32_t *bm, uint32_t nr)
{
	unsigned long leaked = 0, freed = 0;
	uint32_t n;

	for (n = 2; n < f->blocks; n++) {
		uint32_t i = (n - 2) / (BM_WORDS * 32);
		int is_free;

		if (i >= nr || !bm[i])
			continue;
		is_free = bit_free(f, bm[i], n);
		if (is_free && f->use[n] != U_FREE) {
			freed++;
			problem(f, n, "%s of %lu is marked free in the bitmap",
				use_name[f->use[n]], (unsigned long)f->owner[n]);
		} else if (!is_free && f->use[n] == U_FREE) {
			leaked++;
			problem(f, n, "marked used in the bitmap but not "
				"reachable from the root (leaked)");
		}
	}
	(void)leaked;
	(void)freed;
}

static void check_bootblock(struct fsck *f)
{
	const unsigned char *b = f->img;
	uint32_t stored = get32(b, 4), want = affs_boot_checksum(b);

	if (memcmp(b, "DOS", 3) || b[3] > 5)
		problem(f, 0, "not an AFFS boot block (DOS type %02x %02x %02x "
			"%02x, expected DOS\\0 to DOS\\5)", b[0], b[1], b[2],
			b[3]);
	/* A boot block without boot code may have no checksum. */
	if (stored != want && (stored || get32(b, 12)))
		problem(f, 0, "bad boot block checksum (stored 0x%08x, want "
			"0x%08x)", stored, want);
	if (get32(b, 8) != f->root)
		problem(f, 0, "boot block names root block %lu (expected %lu)",
			(unsigned long)get32(b, 8), (unsigned long)f->root);
}

static int check_root(struct fsck *f)
{
	uint32_t r = f->root;

	checksum_ok(f, r, O_CHKSUM, "root block");
	if (word(f, r, O_TYPE) != T_HEADER ||
	    word(f, r, O_SEC_TYPE) != ST_ROOT) {
		problem(f, r, "root block has type %ld secondary type %ld "
			"(expected %d %d)", (long)(int32_t)word(f, r, O_TYPE),
			(long)(int32_t)word(f, r, O_SEC_TYPE), T_HEADER,
			ST_ROOT);
		return 0;
	}
	if (word(f, r, O_HT_SIZE) != HT_SIZE)
		problem(f, r, "root hash table size %lu (expected %d)",
			(unsigned long)word(f, r, O_HT_SIZE), HT_SIZE);
	if (word(f, r, O_KEY) || word(f, r, O_HIGH_SEQ) ||
	    word(f, r, O_FIRST_DATA))
		problem(f, r, "root key fields %lu %lu %lu (expected 0)",
			(unsigned long)word(f, r, O_KEY),
			(unsigned long)word(f, r, O_HIGH_SEQ),
			(unsigned long)word(f, r, O_FIRST_DATA));
	if (word(f, r, O_PARENT) || word(f, r, O_HASH_CHAIN))
		problem(f, r, "root parent %lu hash chain %lu (expected 0)",
			(unsigned long)word(f, r, O_PARENT),
			(unsigned long)word(f, r, O_HASH_CHAIN));
	check_name(f, r, "volume");
	if (!word(f, r, O_BM_FLAG))
		problem(f, r, "bitmap flag is 0: the bitmap is marked invalid");
	return 1;
}

/*
 * Check the volume of bytes bytes at img. Problems go to out (one line
 * each, unless quiet); the summary too unless name is NULL. Returns the
 * number of problems, or -1 when out of memory.
 */
long fsck_affs(const unsigned char *img, uint64_t bytes, const char *name,
	       FILE *out, int quiet)
{
	struct fsck f = { .img = img, .out = out, .quiet = quiet };
	uint32_t *bm = NULL, nr = 0;
	long ret = -1;

	if (bytes % BSIZE)
		problem(&f, (uint32_t)(bytes / BSIZE), "the image is not a "
			"whole number of 512-byte blocks (%llu bytes)",
			(unsigned long long)bytes);
	if (bytes / BSIZE > 0xffffffffull) {
		problem(&f, 0, "the image is too large for AFFS");
		goto summary;
	}
	f.blocks = (uint32_t)(bytes / BSIZE);
	if (f.blocks < 8) {
		problem(&f, 0, "the image has %lu blocks, too few for a volume",
			(unsigned long)f.blocks);
		goto summary;
	}
	f.root = (f.blocks + 1) / 2;
	f.ffs = img[3] & 1;
	f.intl = (img[3] & 6) != 0;
	f.dircache = (img[3] & 4) != 0;
	f.use = calloc(f.blocks, 1);
	f.owner = calloc(f.blocks, sizeof(*f.owner));
	f.mark = calloc(f.blocks, 1);
	f.stack = calloc(f.blocks, sizeof(*f.stack));
	if (!f.use || !f.owner || !f.mark || !f.stack)
		goto out;

	check_bootblock(&f);
	claim(&f, 0, U_BOOT, 0, 0);
	claim(&f, 1, U_BOOT, 0, 0);
	claim(&f, f.root, U_ROOT, 0, 0);
	if (check_root(&f)) {
		bm = read_bitmap_list(&f, &nr);
		if (!bm)
			goto out;
		f.stack[f.nstack++] = f.root;
		while (f.nstack) {
			uint32_t d = f.stack[--f.nstack];

			check_dir(&f, d);
			check_dircache(&f, d);
		}
		check_hardlinks(&f);
		check_bitmap(&f, bm, nr);
	}
summary:
	if (name) {
		if (f.problems > MAX_REPORTS && !quiet)
			fprintf(out, "... %lu more problem(s) not shown\n",
				f.problems - MAX_REPORTS);
		fprintf(out, "%s: %s%s%s, %lu blocks, %lu used, %lu files, "
			"%lu directories, %lu links: ", name,
			f.ffs ? "FFS" : "OFS", f.intl ? " intl" : "",
			f.dircache ? " dircache" : "", (unsigned long)f.blocks,
			f.used, f.files, f.dirs, f.links);
		if (f.problems)
			fprintf(out, "%lu problem(s)\n", f.problems);
		else
			fprintf(out, "clean\n");
	}
	ret = (long)f.problems;
out:
	free(bm);
	free(f.use);
	free(f.owner);
	free(f.mark);
	free(f.stack);
	return ret;
}

#ifndef FSCK_AFFS_NO_MAIN
int main(int argc, char **argv)
{
	unsigned char *img;
	const char *path;
	struct stat st;
	size_t done = 0;
	int quiet = 0, fd;
	long problems;

	die_status = 2;

	if (argc > 1 && !strcmp(argv[1], "-q")) {
		quiet = 1;
		argv++;
		argc--;
	}
	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "%s\n", USAGE);
		return 2;
	}
	path = argv[1];
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		die("cannot open '%s': %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode))
		die("cannot check '%s': not a regular file", path);
	if ((uint64_t)st.st_size > (64ull << 30))
		die("cannot check '%s': larger than 64 GiB", path);
	img = malloc(st.st_size ? (size_t)st.st_size : 1);
	if (!img)
		die("out of memory for '%s'", path);
	while (done < (size_t)st.st_size) {
		ssize_t n = read(fd, img + done, (size_t)st.st_size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			die("cannot read '%s': %s", path,
			    n ? strerror(errno) : "file shrank");
		done += (size_t)n;
	}
	close(fd);
	problems = fsck_affs(img, done, path, stdout, quiet);
	free(img);
	if (problems < 0)
		die("out of memory checking '%s'", path);
	return problems ? 1 : 0;
}
#endif
