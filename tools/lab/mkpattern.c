// SPDX-License-Identifier: GPL-2.0
/*
 * mkpattern: write a disk image of SIZE MiB whose sectors carry the lab's
 * pattern (tests/guest/pattern.h, seed 0), for the block and SCSI profiles.
 *
 *   mkpattern FILE SIZE-MIB
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../tests/guest/pattern.h"

int main(int argc, char **argv)
{
	unsigned char sector[PATTERN_SECTOR];
	unsigned long lba, sectors;
	char *end;
	FILE *f;

	if (argc != 3) {
		fprintf(stderr, "usage: mkpattern FILE SIZE-MIB\n");
		return 2;
	}
	sectors = strtoul(argv[2], &end, 10) * (1024 * 1024 / PATTERN_SECTOR);
	if (*end || !sectors) {
		fprintf(stderr, "error: bad size '%s'\n", argv[2]);
		return 2;
	}
	f = fopen(argv[1], "wb");
	if (!f) {
		fprintf(stderr, "error: cannot create '%s': %s\n", argv[1],
			strerror(errno));
		return 1;
	}
	for (lba = 0; lba < sectors; lba++) {
		pattern_fill(sector, lba, 0);
		if (fwrite(sector, sizeof(sector), 1, f) != 1)
			break;
	}
	if (fclose(f) || lba != sectors) {
		fprintf(stderr, "error: cannot write '%s': %s\n", argv[1],
			strerror(errno));
		return 1;
	}
	return 0;
}
