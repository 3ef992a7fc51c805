/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uvc-device.h - the smallest USB Video Class camera uvcvideo accepts,
 * played over raw_gadget on dummy_hcd (usb/raw-device.h): QEMU has no UVC
 * model. UVC 1.0, a VideoControl interface whose chain is a camera
 * terminal and a streaming output terminal, a VideoStreaming interface
 * with one bulk IN endpoint, one uncompressed YUY2 format of one 16x8
 * frame (256 bytes) at 30 fps.
 *
 * uvc_stream_control() answers the streaming interface's probe and commit
 * controls (GET_CUR, GET_MIN, GET_MAX, GET_DEF; SET_CUR is taken, its
 * sizes set by the device) and refuses everything else; uvc_fill() sends
 * each frame as one payload: a two-byte header (EOH, EOF, FID toggling per
 * frame) and the frame, whose bytes are its sequence number.
 * UVC_VC_DESCRIPTORS(CT0) is the VideoControl interface with the camera
 * terminal controls of bitmap CT0 (the first byte of its bmControls, 0 for
 * none); UVC_CAMERA(NAME, PID, VC, CONTROL) the device: NAME in the tests'
 * messages, its product id PID (uvcvideo binds by interface class, so each
 * test's camera can have its own), VC an array (its sizeof is taken) of
 * those descriptors, CONTROL answering its class requests. The emulator is
 * a forked child: a CONTROL hook may use the files the test opened before
 * plugging the camera in (rd_device.close_fds is 0). Shared by
 * usb/uvc-camera and usb/uvc-disconnect-race.
 */
#ifndef BKLFREE_USB_UVC_DEVICE_H
#define BKLFREE_USB_UVC_DEVICE_H

#include <stdint.h>
#include <string.h>
#include <linux/usb/video.h>

#include "usb/raw-device.h"

#define UVC_WIDTH		16
#define UVC_HEIGHT		8
#define UVC_FRAME		(UVC_WIDTH * UVC_HEIGHT * 2)	/* YUYV */
#define UVC_INTERVAL	333333			/* 100 ns units: 30 fps */
#define UVC_PROBE_SIZE	26			/* UVC 1.0 probe/commit */

/* Interface 0, VideoControl: a camera terminal (1) feeds output terminal 2. */
#define UVC_VC_DESCRIPTORS(ct0) {					\
	9, USB_DT_INTERFACE, 0, 0, 0, USB_CLASS_VIDEO, UVC_SC_VIDEOCONTROL, 0, 0, \
	/* VC header: UVC 1.0, wTotalLength 40, 48 MHz, interface 1 streams */ \
	13, USB_DT_CS_INTERFACE, UVC_VC_HEADER, 0x00, 0x01, 40, 0,	\
	0x00, 0x6c, 0xdc, 0x02, 1, 1,					\
	/* camera terminal: bControlSize 3, bmControls ct0 0 0 */	\
	18, USB_DT_CS_INTERFACE, UVC_VC_INPUT_TERMINAL, 1,		\
	UVC_ITT_CAMERA & 0xff, UVC_ITT_CAMERA >> 8, 0, 0,		\
	0, 0, 0, 0, 0, 0, 3, (ct0), 0, 0,				\
	/* output terminal, streaming, from terminal 1 */		\
	9, USB_DT_CS_INTERFACE, UVC_VC_OUTPUT_TERMINAL, 2,		\
	UVC_TT_STREAMING & 0xff, UVC_TT_STREAMING >> 8, 0, 1, 0,	\
}

/* Interface 1, VideoStreaming: its class descriptors (71 bytes). */
static const uint8_t uvc_vs[] = {
	/* input header: one format, wTotalLength 71, bulk IN 0x81, to OT 2 */
	14, USB_DT_CS_INTERFACE, UVC_VS_INPUT_HEADER, 1, 71, 0, 0x81, 0,
	2, 0, 0, 0, 1, 0,
	/* uncompressed YUY2, one frame */
	27, USB_DT_CS_INTERFACE, UVC_VS_FORMAT_UNCOMPRESSED, 1, 1,
	'Y', 'U', 'Y', '2', 0x00, 0x00, 0x10, 0x00,
	0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71,
	16, 1, 0, 0, 0, 0,
	/* 16x8, bit rates, 256-byte buffer, 30 fps only */
	30, USB_DT_CS_INTERFACE, UVC_VS_FRAME_UNCOMPRESSED, 1, 0,
	UVC_WIDTH, 0, UVC_HEIGHT, 0,
	0x00, 0xf0, 0x00, 0x00, 0x00, 0xf0, 0x00, 0x00,	/* 61440 bit/s */
	UVC_FRAME & 0xff, UVC_FRAME >> 8, 0, 0,
	UVC_INTERVAL & 0xff, (UVC_INTERVAL >> 8) & 0xff, UVC_INTERVAL >> 16, 0,
	1, UVC_INTERVAL & 0xff, (UVC_INTERVAL >> 8) & 0xff, UVC_INTERVAL >> 16, 0,
};

static inline void uvc_put32(uint8_t *p, uint32_t v)
{
	p[0] = v & 0xff;
	p[1] = (v >> 8) & 0xff;
	p[2] = (v >> 16) & 0xff;
	p[3] = v >> 24;
}

/* In the emulator: the probe/commit state the host negotiates. */
static uint8_t uvc_probe[UVC_PROBE_SIZE];

/* Format 1, frame 1, 30 fps; one payload carries header and frame. */
static inline void uvc_probe_fix(uint8_t *c)
{
	c[2] = 1;				/* bFormatIndex */
	c[3] = 1;				/* bFrameIndex */
	uvc_put32(c + 4, UVC_INTERVAL);		/* dwFrameInterval */
	uvc_put32(c + 18, UVC_FRAME);		/* dwMaxVideoFrameSize */
	uvc_put32(c + 22, 2 + UVC_FRAME);		/* dwMaxPayloadTransferSize */
}

static inline int uvc_stream_control(struct rd_emu *e,
				     const struct usb_ctrlrequest *c,
				     const uint8_t *out, unsigned int outlen,
				     uint8_t *in)
{
	unsigned int cs = c->wValue >> 8, n = UVC_PROBE_SIZE;

	(void)e;
	if ((c->wIndex & 0xff) != 1 ||
	    (cs != UVC_VS_PROBE_CONTROL && cs != UVC_VS_COMMIT_CONTROL))
		return -1;
	if (!uvc_probe[2])
		uvc_probe_fix(uvc_probe);
	switch (c->bRequest) {
	case UVC_SET_CUR:
		memcpy(uvc_probe, out, outlen < n ? outlen : n);
		uvc_probe_fix(uvc_probe);
		return 0;
	case UVC_GET_CUR:
	case UVC_GET_MIN:
	case UVC_GET_MAX:
	case UVC_GET_DEF:
		if (n > c->wLength)
			n = c->wLength;
		memcpy(in, uvc_probe, n);
		return (int)n;
	}
	return -1;
}

/* Each frame one payload: header, then the frame's number in every byte. */
static inline int uvc_fill(struct rd_emu *e, unsigned int i, uint8_t *buf,
			   unsigned int max)
{
	static unsigned int frame;

	(void)e;
	(void)i;
	if (max < 2 + UVC_FRAME)
		return -1;
	buf[0] = 2;
	buf[1] = UVC_STREAM_EOH | UVC_STREAM_EOF | (frame & 1 ? UVC_STREAM_FID : 0);
	memset(buf + 2, frame & 0xff, UVC_FRAME);
	frame++;
	return 2 + UVC_FRAME;
}

#define UVC_CAMERA(test_name, product_id, vc, control_hook) {		\
	.name = (test_name),						\
	.vid = 0x1d6b, .pid = (product_id), .bcd = 0x0100, /* webcam gadget's vendor */ \
	.if_class = USB_CLASS_VIDEO, .if_subclass = UVC_SC_VIDEOSTREAMING, \
	.extra = uvc_vs, .extra_len = sizeof(uvc_vs),			\
	.pre = (vc), .pre_len = sizeof(vc), .pre_interfaces = 1,	\
	.manufacturer = "bklfree", .product = "UVC test camera",	\
	.nep = 1,							\
	.ep = { { 0x81, USB_ENDPOINT_XFER_BULK, 64, 0 } },		\
	.control = (control_hook),					\
	.fill = uvc_fill,						\
}

#endif /* BKLFREE_USB_UVC_DEVICE_H */
