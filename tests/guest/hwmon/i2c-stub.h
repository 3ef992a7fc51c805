/* SPDX-License-Identifier: GPL-2.0 */
/*
 * i2c-stub.h - finding the adapter of i2c-stub (CONFIG_I2C_STUB), the
 * software SMBus the hwmon tests put their chips on. Shared by
 * hwmon/pmbus-lseek, hwmon/i2c-chips and hwmon/i2c-watchdog-remove;
 * i2c_stub_delete() removes a chip with delete_device.
 */
#ifndef BKLFREE_I2C_STUB_H
#define BKLFREE_I2C_STUB_H

#include <glob.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "slurp.h"

#define STUB_NAME	"SMBus stub driver"

/* The stub's adapter number, from /sys/bus/i2c/devices/i2c-N/name; -1 if none. */
static inline int i2c_stub_bus(void)
{
	glob_t g;
	size_t i;
	int n = -1;

	if (glob("/sys/bus/i2c/devices/i2c-*/name", 0, NULL, &g))
		return -1;
	for (i = 0; i < g.gl_pathc && n < 0; i++) {
		char name[64] = "";
		FILE *f = fopen(g.gl_pathv[i], "r");

		if (!f)
			continue;
		if (fgets(name, sizeof(name), f) &&
		    !strncmp(name, STUB_NAME "\n", sizeof(STUB_NAME)))
			sscanf(g.gl_pathv[i], "/sys/bus/i2c/devices/i2c-%d", &n);
		fclose(f);
	}
	globfree(&g);
	return n;
}

/*
 * Remove the client at addr of adapter bus with delete_device: 1 when its
 * device is gone. i2c-stub keeps the chip's registers.
 */
static inline int i2c_stub_delete(int bus, int addr)
{
	char path[96], line[16];

	snprintf(path, sizeof(path), "/sys/bus/i2c/devices/i2c-%d/delete_device", bus);
	snprintf(line, sizeof(line), "0x%02x", addr);
	if (put_text(path, line))
		return 0;
	snprintf(path, sizeof(path), "/sys/bus/i2c/devices/%d-%04x", bus, addr);
	return access(path, F_OK) != 0;
}

#endif
