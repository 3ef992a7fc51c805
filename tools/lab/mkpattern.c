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
#define USAGE "usage: mkpattern FILE SIZE-MIB"
#include "usage.h"

int main(int argc, char **argv)
{
	unsigned char sector[PATTERN_SECTOR];
	unsigned long lba, sectors;
	char *end;
	FILE *f;

	if (argc != 3)
		usage_error("expected FILE and SIZE-MIB");
	sectors = strtoul(argv[2], &end, 10) * (1024 * 1024 / PATTERN_SECTOR);
	if (*end || !sectors)
		usage_error("bad size '%s'", argv[2]);
	f = fopen(argv[1], "wb");
	if (!f)
		die("cannot create '%s': %s", argv[1], strerror(errno));
	for (lba = 0; lba < sectors; lba++) {
		pattern_fill(sector, lba, 0);
		if (fwrite(sector, sizeof(sector), 1, f) != 1)
			break;
	}
	if (fclose(f) || lba != sectors)
		die("cannot write '%s': %s", argv[1], strerror(errno));
	return 0;
}
