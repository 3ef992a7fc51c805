// SPDX-License-Identifier: GPL-2.0
/*
 * mkfs.affs: make an Amiga OFS or FFS volume in a regular file, empty or
 * filled from a host directory.
 *
 *   mkfs.affs [-t ofs|ffs] [-d] [-i] [-s SIZE] [-l LABEL] [-r HOSTDIR] IMAGE
 *
 *   -t ofs|ffs  old (data blocks with headers) or fast file system; ffs
 *   -d          directory cache (DOS\4, DOS\5); implies international hashing
 *   -i          international mode (DOS\2, DOS\3): Latin-1 letters fold case
 *   -s SIZE     bytes, with an optional K, M or G suffix (powers of 1024),
 *               880K to 1G and a multiple of 1K; 1M
 *   -l LABEL    volume name, at most 30 characters; "Empty"
 *   -r HOSTDIR  copy this directory's files, directories, symbolic links
 *               and hard links (a second name of a file) onto the volume
 *
 * The image is written to IMAGE.XXXXXX beside IMAGE and renamed over it
 * when complete, so a failed run leaves no image behind. Exit status: 0,
 * 1 on an error, 2 on a usage error.
 *
 * The on-disk format, and where its description comes from, is in the
 * header comment of tools/affs/affs.h.
 *
 * The volume dates are the current time, or SOURCE_DATE_EPOCH when set;
 * each entry gets its host modification time.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "affs.h"
#define USAGE "usage: mkfs.affs [-t ofs|ffs] [-d] [-i] " \
	"[-s SIZE] [-l LABEL] [-r HOSTDIR] IMAGE"
#include "usage.h"

#define LINK_MAX_AFFS 287	/* BSIZE - 224 bytes with the NUL */

/* Amiga epoch, 1978-01-01T00:00:00Z, in Unix seconds. */
#define AMIGA_EPOCH 252460800L

/* dos/dos.h FIBF bits: owner bits 0-3 set = denied; group and other set =
 * allowed (bits 8-11 group DEWR order D E W R, 12-15 other). */
#define FIBF_DELETE 1
#define FIBF_EXECUTE 2
#define FIBF_WRITE 4
#define FIBF_READ 8

static struct {
	int fd;
	char *tmp;		/* unlinked by die() */
	const char *hostdir;
	uint32_t blocks, root, next;
	unsigned char *used;	/* one byte a block */
	int ffs, intl, dircache;
	char label[NAME_MAX_AFFS + 1];
	time_t now;
} vol = { .fd = -1 };

/* A host file with more than one name: the first name met is the real
 * entry, each further one a link block chained from it. */
struct hardlink {
	dev_t dev;
	ino_t ino;
	uint32_t block;		/* the real entry's header */
	uint32_t chain;		/* its first link, the real entry's next_link */
	int written;		/* the header is on disk: patch it */
};

static struct hardlink *links;
static size_t nr_links;

struct entry {
	char *name;		/* as on the host and the volume */
	char *path;		/* host path */
	struct stat st;
	uint32_t block;		/* header block */
	uint32_t next_hash;
	uint32_t size;		/* bytes, files only */
	int32_t type;		/* secondary type */
};

static void cleanup(void)
{
	if (vol.tmp)
		unlink(vol.tmp);
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		die("out of memory");
	return p;
}

static char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		die("out of memory");
	return p;
}

static void write_block(uint32_t n, const unsigned char *b)
{
	if (pwrite(vol.fd, b, BSIZE, (off_t)n * BSIZE) != BSIZE)
		die("cannot write '%s': %s", vol.tmp, strerror(errno));
}

static void read_block(uint32_t n, unsigned char *b)
{
	if (pread(vol.fd, b, BSIZE, (off_t)n * BSIZE) != BSIZE)
		die("cannot read '%s': %s", vol.tmp, strerror(errno));
}

/* Next free block after the last one given, wrapping round to block 2. */
static uint32_t alloc_block(void)
{
	uint32_t i, n = vol.next;

	for (i = 2; i < vol.blocks; i++) {
		if (n >= vol.blocks)
			n = 2;
		if (!vol.used[n]) {
			vol.used[n] = 1;
			vol.next = n + 1;
			return n;
		}
		n++;
	}
	die("volume too small for '%s' (%lu bytes)", vol.hostdir,
	    (unsigned long)vol.blocks * BSIZE);
	return 0;
}

static void put_date(unsigned char *b, unsigned int off, time_t t,
		     long nsec)
{
	long long s = (long long)t - AMIGA_EPOCH;

	if (s < 0)
		s = nsec = 0;
	put32(b, off, s / 86400);
	put32(b, off + 4, s % 86400 / 60);
	put32(b, off + 8, s % 60 * 50 + nsec / 20000000);
}

static int name_cmp(const char *a, const char *b)
{
	const unsigned char *p = (const unsigned char *)a;
	const unsigned char *q = (const unsigned char *)b;

	for (; *p && affs_upper(*p, vol.intl) == affs_upper(*q, vol.intl);
	     p++, q++)
		;
	return affs_upper(*p, vol.intl) - affs_upper(*q, vol.intl);
}

/* NULL when name may be an AFFS name, else what is wrong with it. */
static const char *bad_name(const char *name)
{
	const unsigned char *p = (const unsigned char *)name;

	if (!*p)
		return "empty";
	if (strlen(name) > NAME_MAX_AFFS)
		return "at most 30 characters";
	for (; *p; p++)
		if (*p == '/' || *p == ':' || *p < 0x20 || *p == 0x7f)
			return "no '/', ':' or control characters";
	return NULL;
}

static void put_name(unsigned char *b, const char *name)
{
	size_t len = strlen(name);

	b[O_NAME] = len;
	memcpy(b + O_NAME + 1, name, len);
}

/* FIBF protection bits from a host mode. */
static uint32_t protection(mode_t mode)
{
	uint32_t p = 0;

	if (!(mode & S_IRUSR))
		p |= FIBF_READ;
	if (!(mode & S_IWUSR))
		p |= FIBF_WRITE | FIBF_DELETE;
	if (!(mode & S_IXUSR) && !S_ISDIR(mode))
		p |= FIBF_EXECUTE;
	if (mode & S_IWGRP)
		p |= 1u << 8 | 1u << 10;
	if (mode & S_IXGRP)
		p |= 1u << 9;
	if (mode & S_IRGRP)
		p |= 1u << 11;
	if (mode & S_IWOTH)
		p |= 1u << 12 | 1u << 14;
	if (mode & S_IXOTH)
		p |= 1u << 13;
	if (mode & S_IROTH)
		p |= 1u << 15;
	return p;
}

static struct hardlink *find_link(const struct stat *st)
{
	size_t i;

	for (i = 0; i < nr_links; i++)
		if (links[i].dev == st->st_dev && links[i].ino == st->st_ino)
			return &links[i];
	return NULL;
}

/* The fields every header block of an entry shares. */
static void header_common(unsigned char *b, const struct entry *e,
			  uint32_t parent)
{
	put32(b, O_TYPE, T_HEADER);
	put32(b, O_KEY, e->block);
	put32(b, O_PROTECT, protection(e->st.st_mode));
	put_date(b, O_DATE, e->st.st_mtim.tv_sec, e->st.st_mtim.tv_nsec);
	put_name(b, e->name);
	put32(b, O_HASH_CHAIN, e->next_hash);
	put32(b, O_PARENT, parent);
	put32(b, O_SEC_TYPE, (uint32_t)e->type);
}

static uint32_t fill_dir(const char *hostdir, uint32_t self,
			 unsigned char *dir);

static void write_dir(struct entry *e, uint32_t parent)
{
	unsigned char b[BSIZE] = { 0 };
	uint32_t dirc;

	dirc = fill_dir(e->path, e->block, b);
	header_common(b, e, parent);
	put32(b, O_EXTENSION, dirc);
	affs_set_checksum(b, O_CHKSUM);
	write_block(e->block, b);
}

/*
 * Data block k of a file goes in slot 71 - k % 72 of the header (k < 72)
 * or of extension block k / 72; OFS data blocks chain to the next.
 */
static void write_file(struct entry *e, uint32_t parent)
{
	unsigned char hdr[BSIZE] = { 0 }, ext[BSIZE], data[BSIZE], prev[BSIZE];
	unsigned char *table = hdr;
	uint32_t dsize = vol.ffs ? BSIZE : OFS_DATA;
	uint32_t left = e->size, k, blk, prev_blk = 0, ext_blk = 0;
	FILE *f;

	f = fopen(e->path, "rb");
	if (!f)
		die("cannot open '%s': %s", e->path, strerror(errno));
	for (k = 0; left; k++) {
		uint32_t n = left < dsize ? left : dsize;

		if (k && k % HT_SIZE == 0) {
			uint32_t next = alloc_block();

			if (table == hdr) {
				put32(hdr, O_EXTENSION, next);
			} else {
				put32(ext, O_EXTENSION, next);
				affs_set_checksum(ext, O_CHKSUM);
				write_block(ext_blk, ext);
			}
			memset(ext, 0, BSIZE);
			put32(ext, O_TYPE, T_LIST);
			put32(ext, O_KEY, next);
			put32(ext, O_PARENT, e->block);
			put32(ext, O_SEC_TYPE, (uint32_t)ST_FILE);
			ext_blk = next;
			table = ext;
		}
		blk = alloc_block();
		put32(table, O_TABLE + 4 * (HT_SIZE - 1 - k % HT_SIZE), blk);
		put32(table, O_HIGH_SEQ, k % HT_SIZE + 1);
		if (!k)
			put32(hdr, O_FIRST_DATA, blk);

		memset(data, 0, BSIZE);
		if (fread(data + BSIZE - dsize, 1, n, f) != n)
			die("cannot read '%s': %s", e->path,
			    ferror(f) ? strerror(errno) : "file shrank");
		left -= n;
		if (!vol.ffs) {
			put32(data, O_TYPE, T_DATA);
			put32(data, O_KEY, e->block);
			put32(data, 8, k + 1);
			put32(data, 12, n);
			if (prev_blk) {
				put32(prev, 16, blk);
				affs_set_checksum(prev, O_CHKSUM);
				write_block(prev_blk, prev);
			}
			memcpy(prev, data, BSIZE);
			prev_blk = blk;
		} else {
			write_block(blk, data);
		}
	}
	fclose(f);
	if (prev_blk) {
		affs_set_checksum(prev, O_CHKSUM);
		write_block(prev_blk, prev);
	}
	if (table == ext) {
		affs_set_checksum(ext, O_CHKSUM);
		write_block(ext_blk, ext);
	}
	header_common(hdr, e, parent);
	put32(hdr, O_BYTE_SIZE, e->size);
	if (e->st.st_nlink > 1) {
		struct hardlink *l = find_link(&e->st);

		put32(hdr, O_NEXT_LINK, l->chain);
		l->written = 1;
	}
	affs_set_checksum(hdr, O_CHKSUM);
	write_block(e->block, hdr);
}

/*
 * A host target in Amiga syntax: "/x/y" is "LABEL:x/y", ".." an empty
 * path part ("../a" is "/a", "a/.." is "a//"), "." and empty parts go.
 */
static char *amiga_target(const char *target)
{
	char *out = xcalloc(strlen(target) + strlen(vol.label) + 3, 1);
	const char *p = target, *end;
	int parts = 0, last_parent = 0;

	if (*p == '/')
		sprintf(out, "%s:", vol.label);
	while (*p) {
		size_t len;

		while (*p == '/')
			p++;
		end = strchr(p, '/');
		len = end ? (size_t)(end - p) : strlen(p);
		if (!len)
			break;
		if (!(len == 1 && *p == '.')) {
			last_parent = len == 2 && !strncmp(p, "..", 2);
			if (parts++)
				strcat(out, "/");
			if (!last_parent)
				strncat(out, p, len);
		}
		p += len;
	}
	if (last_parent)
		strcat(out, "/");
	return out;
}

static void write_softlink(struct entry *e, uint32_t parent)
{
	unsigned char b[BSIZE] = { 0 };
	char target[4096], *amiga;
	ssize_t n;

	n = readlink(e->path, target, sizeof(target) - 1);
	if (n < 0)
		die("cannot read link '%s': %s", e->path, strerror(errno));
	target[n] = '\0';
	amiga = amiga_target(target);
	if (strlen(amiga) > LINK_MAX_AFFS)
		die("link target too long '%s' (at most %d characters)",
		    e->path, LINK_MAX_AFFS);
	strcpy((char *)b + O_TABLE, amiga);
	free(amiga);
	header_common(b, e, parent);
	affs_set_checksum(b, O_CHKSUM);
	write_block(e->block, b);
}

/* A further name of a file: put it at the head of the link chain. */
static void write_hardlink(struct entry *e, uint32_t parent,
			   struct hardlink *l)
{
	unsigned char b[BSIZE] = { 0 }, r[BSIZE];

	header_common(b, e, parent);
	put32(b, O_REAL_ENTRY, l->block);
	put32(b, O_NEXT_LINK, l->chain);
	affs_set_checksum(b, O_CHKSUM);
	write_block(e->block, b);
	l->chain = e->block;
	if (!l->written)
		return;
	read_block(l->block, r);
	put32(r, O_NEXT_LINK, l->chain);
	affs_set_checksum(r, O_CHKSUM);
	write_block(l->block, r);
}

static void remember_link(const struct entry *e)
{
	struct hardlink *l;

	l = realloc(links, (nr_links + 1) * sizeof(*links));
	if (!l)
		die("out of memory");
	links = l;
	links[nr_links].dev = e->st.st_dev;
	links[nr_links].ino = e->st.st_ino;
	links[nr_links].block = e->block;
	links[nr_links].chain = 0;
	links[nr_links++].written = 0;
}

/* Decide an entry's type: the first name of a file met is the real one. */
static void classify(struct entry *e)
{
	if (S_ISDIR(e->st.st_mode)) {
		e->type = ST_USERDIR;
	} else if (S_ISLNK(e->st.st_mode)) {
		e->type = ST_SOFTLINK;
	} else if (S_ISREG(e->st.st_mode)) {
		if (e->st.st_size > (off_t)vol.blocks * BSIZE)
			die("volume too small for '%s' (%lu bytes)",
			    vol.hostdir, (unsigned long)vol.blocks * BSIZE);
		e->size = e->st.st_size;
		e->type = ST_FILE;
		if (e->st.st_nlink > 1 && find_link(&e->st))
			e->type = ST_LINKFILE;
	} else {
		die("cannot store '%s': not a file, directory or symbolic link",
		    e->path);
	}
}

static void write_entry(struct entry *e, uint32_t parent)
{
	switch (e->type) {
	case ST_USERDIR:
		write_dir(e, parent);
		break;
	case ST_SOFTLINK:
		write_softlink(e, parent);
		break;
	case ST_LINKFILE:
		write_hardlink(e, parent, find_link(&e->st));
		break;
	default:
		write_file(e, parent);
	}
}

static int entry_cmp(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int c = name_cmp(x->name, y->name);

	return c ? c : strcmp(x->name, y->name);
}

/* The entries of hostdir, sorted by AFFS name; clashes are refused. */
static struct entry *read_entries(const char *hostdir, size_t *nr)
{
	struct entry *e = NULL;
	struct dirent *d;
	size_t n = 0, i;
	DIR *dir;

	dir = opendir(hostdir);
	if (!dir)
		die("cannot open '%s': %s", hostdir, strerror(errno));
	while ((errno = 0, d = readdir(dir))) {
		const char *why;
		struct entry *t;

		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		t = realloc(e, (n + 1) * sizeof(*e));
		if (!t)
			die("out of memory");
		e = t;
		memset(&e[n], 0, sizeof(*e));
		e[n].name = xstrdup(d->d_name);
		e[n].path = xcalloc(strlen(hostdir) + strlen(d->d_name) + 2, 1);
		sprintf(e[n].path, "%s/%s", hostdir, d->d_name);
		why = bad_name(d->d_name);
		if (why && strlen(d->d_name) > NAME_MAX_AFFS)
			die("name too long '%s' (%s)", e[n].path, why);
		if (why)
			die("bad name '%s' (%s)", e[n].path, why);
		if (lstat(e[n].path, &e[n].st))
			die("cannot stat '%s': %s", e[n].path, strerror(errno));
		n++;
	}
	if (errno)
		die("cannot read '%s': %s", hostdir, strerror(errno));
	closedir(dir);
	if (n)
		qsort(e, n, sizeof(*e), entry_cmp);
	for (i = 1; i < n; i++)
		if (!name_cmp(e[i - 1].name, e[i].name))
			die("names clash '%s' and '%s' (AFFS ignores case)",
			    e[i - 1].path, e[i].path);
	*nr = n;
	return e;
}

/* One directory cache record (ADF FAQ 4.5); its size, even. */
static unsigned int dirc_record(unsigned char *r, const struct entry *e)
{
	size_t len = strlen(e->name);
	long long s = (long long)e->st.st_mtim.tv_sec - AMIGA_EPOCH;
	long nsec = e->st.st_mtim.tv_nsec;

	if (s < 0)
		s = nsec = 0;
	put32(r, 0, e->block);
	put32(r, 4, e->size);
	put32(r, 8, protection(e->st.st_mode));
	put16(r, 12, 0);			/* uid */
	put16(r, 14, 0);			/* gid */
	put16(r, 16, s / 86400);
	put16(r, 18, s % 86400 / 60);
	put16(r, 20, s % 60 * 50 + nsec / 20000000);
	r[22] = (uint32_t)e->type & 0xff;
	r[23] = len;
	memcpy(r + 24, e->name, len);
	r[24 + len] = 0;			/* no comment */
	r[25 + len] = 0;			/* the pad to an even length */
	return (25 + len + 1) & ~1u;
}

static void write_dirc(uint32_t blk, uint32_t dir, uint32_t next,
		       unsigned char *b, unsigned int records)
{
	put32(b, O_TYPE, T_DIRC);
	put32(b, O_KEY, blk);
	put32(b, 8, dir);
	put32(b, 12, records);
	put32(b, 16, next);
	affs_set_checksum(b, O_CHKSUM);
	write_block(blk, b);
}

/* The directory cache of dir: at least one block; its first block. */
static uint32_t write_dircache(uint32_t dir, const struct entry *e,
			       size_t n)
{
	unsigned char b[BSIZE] = { 0 }, rec[64];
	uint32_t first, blk;
	unsigned int used = 0, records = 0, len;
	size_t i;

	first = blk = alloc_block();
	for (i = 0; i < n; i++) {
		len = dirc_record(rec, &e[i]);
		if (used + len > DIRC_AREA) {
			uint32_t next = alloc_block();

			write_dirc(blk, dir, next, b, records);
			memset(b, 0, BSIZE);
			blk = next;
			used = records = 0;
		}
		memcpy(b + O_TABLE + used, rec, len);
		used += len;
		records++;
	}
	write_dirc(blk, dir, 0, b, records);
	return first;
}

/*
 * Write the entries of hostdir under directory block self, whose hash
 * table is filled in dir. Headers are allocated first, so each knows the
 * next entry of its hash chain when it is written. Returns the first
 * directory cache block, or 0.
 */
static uint32_t fill_dir(const char *hostdir, uint32_t self,
			 unsigned char *dir)
{
	struct entry *tail[HT_SIZE] = { NULL };
	struct entry *e;
	uint32_t dirc = 0;
	size_t n, i;

	e = read_entries(hostdir, &n);
	for (i = 0; i < n; i++) {
		unsigned int h = affs_hash((const unsigned char *)e[i].name,
					   strlen(e[i].name), vol.intl);

		classify(&e[i]);
		e[i].block = alloc_block();
		if (e[i].type == ST_FILE && e[i].st.st_nlink > 1)
			remember_link(&e[i]);
		if (tail[h])
			tail[h]->next_hash = e[i].block;
		else
			put32(dir, O_TABLE + 4 * h, e[i].block);
		tail[h] = &e[i];
	}
	for (i = 0; i < n; i++)
		write_entry(&e[i], self);
	if (vol.dircache)
		dirc = write_dircache(self, e, n);
	for (i = 0; i < n; i++) {
		free(e[i].name);
		free(e[i].path);
	}
	free(e);
	return dirc;
}

/*
 * The boot block: DOS type, checksum, root block, and boot code that
 * hands AmigaDOS to the boot strap like a formatted floppy's (written for
 * this tool from exec.library's documented interface):
 *
 *	lea	dosname(pc),a1		43fa 0018
 *	jsr	-96(a6)			4eae ffa0	FindResident
 *	tst.l	d0			4a80
 *	beq.s	fail			670a
 *	movea.l	d0,a0			2040
 *	movea.l	22(a0),a0		2068 0016	rt_Init
 *	moveq	#0,d0			7000
 *	rts				4e75
 * fail:
 *	moveq	#-1,d0			70ff
 *	rts				4e75
 * dosname: "dos.library"
 */
static void write_bootblock(void)
{
	static const unsigned char code[] = {
		0x43, 0xfa, 0x00, 0x18, 0x4e, 0xae, 0xff, 0xa0, 0x4a, 0x80,
		0x67, 0x0a, 0x20, 0x40, 0x20, 0x68, 0x00, 0x16, 0x70, 0x00,
		0x4e, 0x75, 0x70, 0xff, 0x4e, 0x75,
		'd', 'o', 's', '.', 'l', 'i', 'b', 'r', 'a', 'r', 'y', 0,
	};
	unsigned char b[2 * BSIZE] = { 'D', 'O', 'S' };

	b[3] = vol.ffs | (vol.intl && !vol.dircache) << 1 | vol.dircache << 2;
	put32(b, 8, vol.root);
	memcpy(b + 12, code, sizeof(code));
	put32(b, 4, affs_boot_checksum(b));
	write_block(0, b);
	write_block(1, b + BSIZE);
}

/*
 * Bitmap blocks after the root, then their extension blocks; written by
 * write_bitmap() once every block is allocated.
 */
static uint32_t *alloc_bitmap(uint32_t *nr, uint32_t *next, uint32_t *nr_ext)
{
	uint32_t *bm, i;

	*nr = (vol.blocks - 2 + BM_WORDS * 32 - 1) / (BM_WORDS * 32);
	*nr_ext = *nr > BM_ROOT_SLOTS ?
		(*nr - BM_ROOT_SLOTS + BM_EXT_SLOTS - 1) / BM_EXT_SLOTS : 0;
	bm = xcalloc(*nr + *nr_ext, sizeof(*bm));
	for (i = 0; i < *nr + *nr_ext; i++)
		bm[i] = alloc_block();
	*next = vol.next;
	return bm;
}

static void write_bitmap(unsigned char *root, const uint32_t *bm,
			 uint32_t nr, uint32_t nr_ext)
{
	unsigned char b[BSIZE];
	uint32_t i, k, blk;

	for (i = 0; i < nr; i++) {
		memset(b, 0, BSIZE);
		for (k = 0; k < BM_WORDS * 32; k++) {
			blk = 2 + i * BM_WORDS * 32 + k;
			if (blk < vol.blocks && !vol.used[blk])
				b[4 + k / 32 * 4 + 3 - k % 32 / 8] |=
					1u << (k % 8);
		}
		affs_set_checksum(b, 0);
		write_block(bm[i], b);
		if (i < BM_ROOT_SLOTS)
			put32(root, O_BM_PAGES + 4 * i, bm[i]);
	}
	for (k = 0; k < nr_ext; k++) {
		memset(b, 0, BSIZE);
		for (i = 0; i < BM_EXT_SLOTS; i++) {
			uint32_t n = BM_ROOT_SLOTS + k * BM_EXT_SLOTS + i;

			if (n < nr)
				put32(b, 4 * i, bm[n]);
		}
		if (k + 1 < nr_ext)
			put32(b, BSIZE - 4, bm[nr + k + 1]);
		write_block(bm[nr + k], b);
	}
	if (nr_ext)
		put32(root, O_BM_EXT, bm[nr]);
}

static void make_volume(void)
{
	unsigned char root[BSIZE] = { 0 };
	uint32_t nr, nr_ext, *bm, dirc = 0;

	vol.used = xcalloc(vol.blocks, 1);
	vol.used[0] = vol.used[1] = 1;
	vol.root = (2 + vol.blocks - 1) / 2;
	vol.used[vol.root] = 1;
	vol.next = vol.root + 1;
	bm = alloc_bitmap(&nr, &vol.next, &nr_ext);

	write_bootblock();
	if (vol.hostdir)
		dirc = fill_dir(vol.hostdir, vol.root, root);
	else if (vol.dircache)
		dirc = write_dircache(vol.root, NULL, 0);

	put32(root, O_TYPE, T_HEADER);
	put32(root, O_HT_SIZE, HT_SIZE);
	put32(root, O_BM_FLAG, 0xffffffff);
	put_date(root, O_DATE, vol.now, 0);
	put_name(root, vol.label);
	put_date(root, O_V_DATE, vol.now, 0);
	put_date(root, O_C_DATE, vol.now, 0);
	put32(root, O_EXTENSION, dirc);
	put32(root, O_SEC_TYPE, ST_ROOT);
	write_bitmap(root, bm, nr, nr_ext);
	affs_set_checksum(root, O_CHKSUM);
	write_block(vol.root, root);
	free(bm);
}

static uint32_t parse_size(const char *arg)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (end != arg && !errno) {
		if (*end == 'K' || *end == 'k')
			v <<= 10, end++;
		else if (*end == 'M' || *end == 'm')
			v <<= 20, end++;
		else if (*end == 'G' || *end == 'g')
			v <<= 30, end++;
	}
	if (end == arg || *end || errno || v < 880 << 10 || v > 1ULL << 30 ||
	    v % 1024)
		die("bad size '%s' (expected 880K to 1G, a multiple of 1K)",
		    arg);
	return v / BSIZE;
}

static void parse_options(int argc, char **argv, const char **image)
{
	const char *label = "Empty", *why;
	int c;

	vol.ffs = 1;
	vol.blocks = (1 << 20) / BSIZE;
	opterr = 0;
	while ((c = getopt(argc, argv, ":t:dis:l:r:")) != -1) {
		switch (c) {
		case 't':
			if (strcmp(optarg, "ofs") && strcmp(optarg, "ffs"))
				usage_error("bad type '%s' (expected ofs or ffs)",
					    optarg);
			vol.ffs = !strcmp(optarg, "ffs");
			break;
		case 'd':
			vol.dircache = vol.intl = 1;
			break;
		case 'i':
			vol.intl = 1;
			break;
		case 's':
			vol.blocks = parse_size(optarg);
			break;
		case 'l':
			label = optarg;
			break;
		case 'r':
			vol.hostdir = optarg;
			break;
		case ':':
			usage_error("option '-%c' needs a value", optopt);
			break;
		default:
			usage_error("unknown option '-%c'", optopt);
		}
	}
	if (optind == argc)
		usage_error("no image given");
	if (optind + 1 < argc)
		usage_error("more than one image: '%s'", argv[optind + 1]);
	*image = argv[optind];
	why = bad_name(label);
	if (why)
		die("bad label '%s' (%s)", label, why);
	strcpy(vol.label, label);
}

static void volume_time(void)
{
	const char *env = getenv("SOURCE_DATE_EPOCH");
	char *end;

	vol.now = time(NULL);
	if (env && *env) {
		errno = 0;
		vol.now = strtoll(env, &end, 10);
		if (*end || errno)
			die("bad SOURCE_DATE_EPOCH '%s'", env);
	}
}

int main(int argc, char **argv)
{
	const char *image;
	struct stat st;
	mode_t mask;

	die_cleanup = cleanup;

	parse_options(argc, argv, &image);
	volume_time();
	errno = 0;
	if (vol.hostdir && (stat(vol.hostdir, &st) || !S_ISDIR(st.st_mode)))
		die("cannot use '%s': %s", vol.hostdir,
		    errno ? strerror(errno) : "not a directory");

	vol.tmp = xcalloc(strlen(image) + 8, 1);
	sprintf(vol.tmp, "%s.XXXXXX", image);
	vol.fd = mkstemp(vol.tmp);
	if (vol.fd < 0) {
		int err = errno;

		free(vol.tmp);
		vol.tmp = NULL;
		die("cannot create '%s': %s", image, strerror(err));
	}
	mask = umask(0);
	umask(mask);
	if (fchmod(vol.fd, 0666 & ~mask) ||
	    ftruncate(vol.fd, (off_t)vol.blocks * BSIZE))
		die("cannot write '%s': %s", vol.tmp, strerror(errno));

	make_volume();

	if (fsync(vol.fd) || close(vol.fd))
		die("cannot write '%s': %s", vol.tmp, strerror(errno));
	if (rename(vol.tmp, image))
		die("cannot rename '%s' to '%s': %s", vol.tmp, image,
		    strerror(errno));
	return 0;
}
