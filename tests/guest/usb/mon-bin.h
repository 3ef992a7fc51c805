/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mon-bin.h - the binary USB monitor's ABI (/dev/usbmonN), shared by
 * usb/usbmon and usb/usbmon-capture. The ioctl numbers and structures are
 * not in the uapi headers; they are those of drivers/usb/mon/mon_bin.c
 * (documented in Documentation/usb/usbmon.rst).
 */
#ifndef BKLFREE_USB_MON_BIN_H
#define BKLFREE_USB_MON_BIN_H

#include <sys/ioctl.h>

#define MON_BIN			"/dev/usbmon0"	/* every bus */
#define MON_TEXT_DIR		"/sys/kernel/debug/usb/usbmon/"

#define MON_IOC_MAGIC		0x92
#define MON_IOCG_STATS		_IOR(MON_IOC_MAGIC, 3, struct mon_bin_stats)
#define MON_IOCQ_RING_SIZE	_IO(MON_IOC_MAGIC, 5)
#define MON_IOCX_MFETCH		_IOWR(MON_IOC_MAGIC, 7, struct mon_bin_mfetch)
#define MON_PKT_SIZE		64
#define MON_BULK		3

struct mon_bin_stats {
	unsigned int queued;
	unsigned int dropped;
};

struct mon_bin_mfetch {
	unsigned int *offvec;
	unsigned int nfetch;
	unsigned int nflush;
};

struct mon_bin_hdr {
	unsigned long long id;
	unsigned char type;		/* 'S'ubmission, 'C'allback, 'E'rror */
	unsigned char xfer_type;	/* 0 iso, 1 intr, 2 control, 3 bulk */
	unsigned char epnum;		/* 0x80 for IN */
	unsigned char devnum;
	unsigned short busnum;
	char flag_setup;
	char flag_data;			/* 0: data captured */
	long long ts_sec;
	int ts_usec;
	int status;
	unsigned int len_urb;
	unsigned int len_cap;
	unsigned char setup[8];
	int interval;
	int start_frame;
	unsigned int xfer_flags;
	unsigned int ndesc;
};

_Static_assert(sizeof(struct mon_bin_hdr) == MON_PKT_SIZE,
	       "mon_bin_hdr is mon_bin.c's 64-byte packet header");

#endif /* BKLFREE_USB_MON_BIN_H */
