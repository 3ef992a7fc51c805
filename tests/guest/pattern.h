/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pattern.h - the disk image pattern, shared by the host tool that writes
 * the images (tools/lab/mkpattern.c) and the guest tests that read them back.
 * Sector N starts with the tag "bklfree lba N\n" and is filled with bytes
 * that depend on N, so a misplaced, short or stale read is seen at once.
 */
#ifndef BKLFREE_PATTERN_H
#define BKLFREE_PATTERN_H

#include <stdio.h>
#include <string.h>

#define PATTERN_SECTOR 512

/* Fill one sector's worth of buf with the pattern for lba; seed varies it. */
static inline void pattern_fill(unsigned char *buf, unsigned long lba,
				unsigned int seed)
{
	int n = snprintf((char *)buf, PATTERN_SECTOR, "bklfree lba %lu seed %u\n",
			 lba, seed);
	unsigned int i;

	for (i = (unsigned int)n; i < PATTERN_SECTOR; i++)
		buf[i] = (unsigned char)(lba * 31 + i * 7 + seed);
}

/* 1 when buf holds exactly the pattern for lba and seed. */
static inline int pattern_check(const unsigned char *buf, unsigned long lba,
				unsigned int seed)
{
	unsigned char want[PATTERN_SECTOR];

	pattern_fill(want, lba, seed);
	return !memcmp(buf, want, PATTERN_SECTOR);
}

#endif /* BKLFREE_PATTERN_H */
