/* SPDX-License-Identifier: GPL-2.0 */
/*
 * affs.h - the Amiga OFS/FFS on-disk format as mkfs.affs, fsck.affs and
 * affs-fuzz use it: block geometry, block types, header offsets, big-endian
 * word access, the block and boot block checksums and the name hash.
 *
 * The format follows the public description in "The .ADF (Amiga Disk
 * File) format FAQ" by Laurent Clevy (ADF FAQ below) and the AmigaOS
 * include file dos/filehandler.h / dos/dos.h for the DOS types and the
 * FIBF protection bits. The facts used:
 *
 * - 512-byte blocks of big-endian 32-bit words. Blocks 0 and 1 are the
 *   boot block: "DOS" and a flags byte (bit 0 FFS, bit 1 international,
 *   bit 2 directory cache), a checksum word and the root block number, then
 *   boot code. Its checksum is the one's complement of the sum of its 256
 *   words with the carry added back in (ADF FAQ 5.1).
 * - Every other block with a checksum has it at byte 20 (the bitmap: byte
 *   0) such that all 128 words sum to 0 modulo 2^32 (ADF FAQ 3.2).
 * - The root block sits in the middle, (2 + blocks - 1) / 2 (880 on a
 *   floppy). It holds the 72-slot hash table of the top directory, the
 *   bitmap block list (25 slots, then a chain of bitmap extension blocks
 *   of 127 slots and a next pointer), the volume name and three dates.
 * - A bitmap block covers 127 * 32 blocks starting at block 2; a set bit is
 *   a free block, least significant bit first in each word.
 * - Directories hash a name: h = length; for each c: h = (h * 13 +
 *   toupper(c)) & 0x7ff; slot = h % 72. toupper() is ASCII only, or in
 *   international mode also Latin-1 0xe0-0xfe except 0xf7 (ADF FAQ 4.3).
 *   Entries of one slot are chained through their hash_chain word.
 * - A file header holds 72 data block numbers, the first in the last slot;
 *   further ones go in file extension blocks (type 16) chained from its
 *   extension word. OFS data blocks (type 8) carry a 24-byte header: file
 *   header, sequence number from 1, bytes used, next data block.
 * - Soft links (secondary type 3) hold the target as a C string at byte
 *   24, in Amiga syntax: "VOLUME:a/b", "/" for the parent. Hard links
 *   (secondary type -4, or 4 for a directory) name the real entry at byte
 *   468; the real entry's next_link (byte 472) starts the chain of its
 *   links.
 * - Directory cache blocks (type 33, DOS\4 and DOS\5) list each directory's
 *   entries (header, size, protection, uid, gid, date, type, name,
 *   comment) in 488-byte record areas, from the directory's extension word.
 * - Dates are days since 1 January 1978, minutes since midnight and ticks
 *   (1/50 s) of the minute; written in UTC.
 */
#ifndef BKLFREE_AFFS_H
#define BKLFREE_AFFS_H

#include <stdint.h>

#define BSIZE 512
#define HT_SIZE 72		/* BSIZE / 4 - 56 */
#define NAME_MAX_AFFS 30
#define BM_WORDS 127		/* bitmap words per bitmap block */
#define BM_ROOT_SLOTS 25
#define BM_EXT_SLOTS 127
#define OFS_DATA 488		/* BSIZE - 24 */
#define DIRC_AREA 488

#define T_HEADER 2
#define T_DATA 8
#define T_LIST 16
#define T_DIRC 33
#define ST_ROOT 1
#define ST_USERDIR 2
#define ST_SOFTLINK 3
#define ST_LINKDIR 4
#define ST_FILE (-3)
#define ST_LINKFILE (-4)

/* Byte offsets in a header block (ADF FAQ 4, "BSIZE - n"). */
#define O_TYPE 0
#define O_KEY 4
#define O_HIGH_SEQ 8
#define O_HT_SIZE 12
#define O_FIRST_DATA 16
#define O_CHKSUM 20
#define O_TABLE 24
#define O_BM_FLAG (BSIZE - 200)
#define O_BM_PAGES (BSIZE - 196)
#define O_BM_EXT (BSIZE - 96)
#define O_PROTECT (BSIZE - 192)
#define O_BYTE_SIZE (BSIZE - 188)
#define O_COMMENT (BSIZE - 184)
#define O_DATE (BSIZE - 92)
#define O_NAME (BSIZE - 80)
#define O_V_DATE (BSIZE - 40)
#define O_C_DATE (BSIZE - 28)
#define O_REAL_ENTRY (BSIZE - 44)
#define O_NEXT_LINK (BSIZE - 40)
#define O_HASH_CHAIN (BSIZE - 16)
#define O_PARENT (BSIZE - 12)
#define O_EXTENSION (BSIZE - 8)
#define O_SEC_TYPE (BSIZE - 4)

static inline uint32_t get32(const unsigned char *b, unsigned int off)
{
	return (uint32_t)b[off] << 24 | (uint32_t)b[off + 1] << 16 |
		(uint32_t)b[off + 2] << 8 | b[off + 3];
}

static inline void put32(unsigned char *b, unsigned int off, uint32_t v)
{
	b[off] = v >> 24;
	b[off + 1] = v >> 16;
	b[off + 2] = v >> 8;
	b[off + 3] = v;
}

static inline void put16(unsigned char *b, unsigned int off, uint32_t v)
{
	b[off] = v >> 8;
	b[off + 1] = v;
}

/* The sum of a block's 128 words: 0 when its checksum is right. */
static inline uint32_t affs_block_sum(const unsigned char *b)
{
	uint32_t sum = 0;
	unsigned int i;

	for (i = 0; i < BSIZE; i += 4)
		sum += get32(b, i);
	return sum;
}

/* Make the block's 128 words sum to 0, adjusting the word at off. */
static inline void affs_set_checksum(unsigned char *b, unsigned int off)
{
	put32(b, off, 0);
	put32(b, off, -affs_block_sum(b));
}

/*
 * The checksum the boot block (blocks 0 and 1, at b) should hold at byte
 * 4: its 256 words, the checksum word taken as 0, summed with the carry
 * added back in, complemented.
 */
static inline uint32_t affs_boot_checksum(const unsigned char *b)
{
	uint32_t sum = 0, w;
	unsigned int i;

	for (i = 0; i < 2 * BSIZE; i += 4) {
		w = i == 4 ? 0 : get32(b, i);
		if (sum + w < sum)
			sum++;
		sum += w;
	}
	return ~sum;
}

/* toupper() of a name byte: ASCII, and Latin-1 in international mode. */
static inline int affs_upper(int c, int intl)
{
	if (c >= 'a' && c <= 'z')
		return c - 32;
	if (intl && c >= 0xe0 && c <= 0xfe && c != 0xf7)
		return c - 32;
	return c;
}

/* The hash table slot of a name of len bytes. */
static inline unsigned int affs_hash(const unsigned char *name,
				     unsigned int len, int intl)
{
	uint32_t h = len;
	unsigned int i;

	for (i = 0; i < len; i++)
		h = (h * 13 + affs_upper(name[i], intl)) & 0x7ff;
	return h % HT_SIZE;
}

#endif /* BKLFREE_AFFS_H */
