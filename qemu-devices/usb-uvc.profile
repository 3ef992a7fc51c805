# A USB Video Class camera, which QEMU has no model for, played by
# usb/uvc-camera over raw_gadget on dummy_hcd (as usb-roccat's mouse is):
# uvcvideo binds its VideoControl interface, streams from its bulk
# VideoStreaming interface and makes the per-stream statistics file of
# drivers/media/usb/uvc/uvc_debugfs.c. A profile of its own: the media
# core and uvcvideo are modules only this boot loads.
description=dummy_hcd + raw_gadget: a UVC camera (uvcvideo), mmap streaming and the debugfs stats file
kconfig=CONFIG_USB_SUPPORT=y
kconfig=CONFIG_USB=m
kconfig=CONFIG_USB_GADGET=m
kconfig=CONFIG_USB_DUMMY_HCD=m
kconfig=CONFIG_USB_RAW_GADGET=m
kconfig=CONFIG_MEDIA_SUPPORT=m
kconfig=CONFIG_MEDIA_CAMERA_SUPPORT=y
kconfig=CONFIG_MEDIA_USB_SUPPORT=y
kconfig=CONFIG_VIDEO_DEV=m
kconfig=CONFIG_USB_VIDEO_CLASS=m
module=dummy_hcd
module=raw_gadget
module=uvcvideo
# Leaks of what the unplug under open files leaves: kmemleak scans last.
cmdline=kmemleak=on
# usb/uvc-disconnect-race plugs a second camera, with one control whose
# GET_CUR its emulator holds, to open the window of core 0502's late
# V4L2_EVENT_DISCONNECT subscription on this one-CPU kernel.
tests=usb/uvc-camera usb/uvc-disconnect-race debug/kmemleak
tool=/usr/bin/v4l2-compliance
# usb/uvc-camera bounds itself at 120 s and usb/uvc-disconnect-race at
# 60 s; a boot takes about 15 s (the two tests about 5 s, the lseek walk
# and the two kmemleak scans, 5 s apart, the rest)
timeout=240
