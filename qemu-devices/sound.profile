# Intel HD Audio controller with a duplex codec. The test drives the PCM
# ioctls directly (no alsa-lib): hw/sw params, playback and capture of a few
# periods against QEMU's silent audio backend.
description=intel-hda with hda-duplex: control, PCM playback and capture
qemu=-audiodev none,id=snd0
qemu=-device intel-hda
qemu=-device hda-duplex,audiodev=snd0
kconfig=CONFIG_SOUND=m
kconfig=CONFIG_SND=m
kconfig=CONFIG_SND_PCI=y
kconfig=CONFIG_SND_HDA_INTEL=m
kconfig=CONFIG_SND_HDA_GENERIC=m
module=snd-hda-codec-generic
module=snd-hda-intel
tests=sound/pcm
timeout=60
