/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gadgetfs.h - the device guest tests play through legacy gadgetfs
 * (drivers/usb/gadget/legacy/inode.c) on dummy_hcd's dummy_udc: the
 * descriptor blob written to the ep0 file (tag, full-speed and high-speed
 * configuration, device descriptor; one vendor interface with a bulk pair)
 * and the names of ep0's events. Little-endian x86 only, as the blob is
 * static data.
 */
#ifndef BKLFREE_USB_GADGETFS_H
#define BKLFREE_USB_GADGETFS_H

#include <linux/usb/ch9.h>
#include <linux/usb/functionfs.h>	/* usb_endpoint_descriptor_no_audio */
#include <linux/usb/gadgetfs.h>

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the gadgetfs descriptors are written little-endian"
#endif
#ifndef LE16
#define LE16(x)		(x)
#endif

#define GFS_VID		0x0525	/* NetChip: the gadgetfs example's IDs */
#define GFS_PID		0xa4a4

/* gadgetfs: tag, full-speed config, high-speed config, device. */
struct gfs_config {
	struct usb_config_descriptor config;
	struct usb_interface_descriptor intf;
	struct usb_endpoint_descriptor_no_audio in, out;
} __attribute__((packed));

#define GFS_CONFIG(mps) {						\
	.config = { .bLength = USB_DT_CONFIG_SIZE,			\
		    .bDescriptorType = USB_DT_CONFIG,			\
		    .wTotalLength = LE16(sizeof(struct gfs_config)),	\
		    .bNumInterfaces = 1,				\
		    .bConfigurationValue = 1,				\
		    .bmAttributes = USB_CONFIG_ATT_ONE |		\
				    USB_CONFIG_ATT_SELFPOWER,		\
		    .bMaxPower = 1 },					\
	.intf = { .bLength = USB_DT_INTERFACE_SIZE,			\
		  .bDescriptorType = USB_DT_INTERFACE,			\
		  .bNumEndpoints = 2,					\
		  .bInterfaceClass = USB_CLASS_VENDOR_SPEC },		\
	.in = { .bLength = USB_DT_ENDPOINT_SIZE,			\
		.bDescriptorType = USB_DT_ENDPOINT,			\
		.bEndpointAddress = 1 | USB_DIR_IN,			\
		.bmAttributes = USB_ENDPOINT_XFER_BULK,			\
		.wMaxPacketSize = LE16(mps) },			\
	.out = { .bLength = USB_DT_ENDPOINT_SIZE,			\
		 .bDescriptorType = USB_DT_ENDPOINT,			\
		 .bEndpointAddress = 2 | USB_DIR_OUT,			\
		 .bmAttributes = USB_ENDPOINT_XFER_BULK,		\
		 .wMaxPacketSize = LE16(mps) },			\
}

static const struct {
	__u32 tag;
	struct gfs_config fs, hs;
	struct usb_device_descriptor dev;
} __attribute__((packed)) gfs_descs = {
	.tag = 0,
	.fs = GFS_CONFIG(64),
	.hs = GFS_CONFIG(512),
	.dev = {
		.bLength = USB_DT_DEVICE_SIZE,
		.bDescriptorType = USB_DT_DEVICE,
		.bcdUSB = LE16(0x0200),
		.bDeviceClass = USB_CLASS_VENDOR_SPEC,
		.bMaxPacketSize0 = 64,
		.idVendor = LE16(GFS_VID),
		.idProduct = LE16(GFS_PID),
		.bcdDevice = LE16(0x0601),
		.bNumConfigurations = 1,
	},
};

/* The name of an ep0 event type, "?" for one this list lacks. */
static inline const char *gfs_event_name(unsigned int type)
{
	static const char *const names[] = {
		[GADGETFS_NOP] = "NOP", [GADGETFS_CONNECT] = "CONNECT",
		[GADGETFS_DISCONNECT] = "DISCONNECT",
		[GADGETFS_SETUP] = "SETUP", [GADGETFS_SUSPEND] = "SUSPEND",
	};

	return type < sizeof(names) / sizeof(names[0]) && names[type] ?
	       names[type] : "?";
}

#endif
