# The sound core without sound hardware: snd-dummy is a card with PCM and
# mixer and no device behind it, snd-virmidi a card of virtual rawmidi
# ports on the sequencer. Over them the OSS emulation (/dev/dsp,
# /dev/mixer), the ALSA sequencer (/dev/snd/seq), the OSS sequencer
# (/dev/sequencer) and rawmidi (/dev/snd/midiC*D*): sound/core files the
# llseek series touches that the intel-hda profile never opens.
# The kconfig lines below the sound core's are for the ALSA SoC core
# (sound/soc/soc-core.c, soc-dapm.c) and ASoC's topology KUnit suite,
# whose cards sound/asoc reads. KUnit is a module here, and kunit.ko runs
# a module's suites only when enabled (CONFIG_KUNIT_DEFAULT_ENABLED, or
# kunit.enable=1; an allnoconfig base leaves it off, which is why an
# earlier trial found no kunit/snd_soc_tplg_test in debugfs).
description=snd-dummy and snd-virmidi: OSS PCM and mixer, sequencer, OSS sequencer, rawmidi; the ASoC core and its topology KUnit suite
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
kconfig=CONFIG_KUNIT=m
kconfig=CONFIG_KUNIT_DEBUGFS=y
kconfig=CONFIG_KUNIT_DEFAULT_ENABLED=y
kconfig=CONFIG_SND_SOC_TOPOLOGY_KUNIT_TEST=m
# The topology KUnit suite needs CONFIG_SND_SOC_TOPOLOGY, which only a
# DSP platform driver selects; Intel's AVS driver is the x86 one with the
# fewest objects (modules only; it needs the common clock framework, and
# never binds here: QEMU has no Intel DSP).
kconfig=CONFIG_COMMON_CLK=y
kconfig=CONFIG_SND_SOC_INTEL_SST_TOPLEVEL=y
kconfig=CONFIG_SND_SOC_INTEL_AVS=m
module=snd-dummy
module=snd-virmidi
module=snd-pcm-oss
module=snd-mixer-oss
module=snd-seq
module=snd-seq-oss
module=soc-topology-test
tests=sound/oss-seq-midi sound/asoc
# The ASoC cards' debugfs and tracefs files lengthen the lseek walk.
timeout=150
