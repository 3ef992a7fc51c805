# The sound core without sound hardware: snd-dummy is a card with PCM and
# mixer and no device behind it, snd-virmidi a card of virtual rawmidi
# ports on the sequencer. Over them the OSS emulation (/dev/dsp,
# /dev/mixer), the ALSA sequencer (/dev/snd/seq), the OSS sequencer
# (/dev/sequencer) and rawmidi (/dev/snd/midiC*D*): sound/core files the
# llseek series touches that the intel-hda profile never opens. And the
# ALSA SoC core with no card (sound/soc/soc-core.c): snd-soc-core's dummy
# component and DAI in debugfs asoc/ (its cards: the sound-asoc profile).
description=snd-dummy and snd-virmidi: OSS PCM and mixer, sequencer, OSS sequencer, rawmidi; the ASoC core's debugfs
kconfig=CONFIG_SOUND=m
kconfig=CONFIG_SND=m
kconfig=CONFIG_SND_DRIVERS=y
kconfig=CONFIG_SND_DUMMY=m
kconfig=CONFIG_SND_OSSEMUL=y
kconfig=CONFIG_SND_MIXER_OSS=m
kconfig=CONFIG_SND_PCM_OSS=m
kconfig=CONFIG_SND_SEQUENCER=m
kconfig=CONFIG_SND_SEQUENCER_OSS=m
kconfig=CONFIG_SND_VIRMIDI=m
kconfig=CONFIG_SND_SOC=m
module=snd-dummy
module=snd-virmidi
module=snd-pcm-oss
module=snd-mixer-oss
module=snd-seq
module=snd-seq-oss
module=snd-soc-core
tests=sound/oss-seq-midi sound/asoc-debugfs
timeout=60
