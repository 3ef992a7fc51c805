# The media character devices vivid's capture profile does not open: the
# CEC adapter vivid emulates on its HDMI input (/dev/cec0, cec-api.c), the
# DVB demux of vidtv, the virtual DVB driver (/dev/dvb/adapter0/demux0,
# dvb-core's dmxdev.c), and vivid's other paced streams (SDR capture,
# video output, touch capture) whose sequence numbers patches/drivers/0201
# keeps rising.
description=vivid CEC adapter, vidtv DVB demux, vivid SDR/output/touch streams
kconfig=CONFIG_MEDIA_SUPPORT=m
kconfig=CONFIG_MEDIA_TEST_SUPPORT=y
kconfig=CONFIG_VIDEO_DEV=m
kconfig=CONFIG_V4L_TEST_DRIVERS=y
kconfig=CONFIG_FB=m
kconfig=CONFIG_VIDEO_VIVID=m
kconfig=CONFIG_VIDEO_VIVID_CEC=y
kconfig=CONFIG_MEDIA_DIGITAL_TV_SUPPORT=y
kconfig=CONFIG_DVB_CORE=m
kconfig=CONFIG_DVB_TEST_DRIVERS=y
kconfig=CONFIG_I2C=m
kconfig=CONFIG_DVB_VIDTV=m
# One vivid instance with a video capture and a video output node
# (node_types bits 0 and 8): the default inputs and outputs keep one HDMI
# input and one HDMI output, so two CEC adapters, cec0 and cec1; and an SDR
# capture and a touch capture node (bits 5 and 19).
module=vivid n_devs=1 node_types=0x80121
# The bridge asks for its demod and tuner with request_module() and binds
# them over its own I2C adapter; loading them first makes that a no-op.
module=dvb_vidtv_tuner
module=dvb_vidtv_demod
module=dvb_vidtv_bridge
tests=media/cec-dvb media/vivid-thread-sequence
timeout=60
