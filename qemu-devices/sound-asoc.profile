# ALSA SoC cards with no hardware (sound/soc/soc-dapm.c and soc-core.c's
# card code, seed patch paths): ASoC's own topology KUnit suite registers
# and removes cards with their DAPM contexts; sound/asoc-kunit passes its
# results on case by case from debugfs kunit/. (The ASoC core's debugfs
# without a card: sound-soft, which boots on both kernels.)
# The suite needs CONFIG_SND_SOC_TOPOLOGY, which only a DSP platform
# driver selects; Intel's AVS driver is the x86 one with the fewest
# objects (modules only; it needs the common clock framework, and never
# binds here: QEMU has no Intel DSP). KUnit is a module, and kunit.ko runs
# a loaded module's suites only when enabled (CONFIG_KUNIT_DEFAULT_ENABLED,
# which an allnoconfig base leaves off).
# On 6.1 kunit.ko runs a module's suites while the module is still coming
# (before its sysfs directory exists): the suite's init oopses in
# root_device_register(); drivers 0408 runs them once the module is live.
# oops=panic ends such a boot at once instead of leaving modprobe to
# wait out every case's timeout.
description=ASoC's topology KUnit suite: cards with DAPM, no hardware
kconfig=CONFIG_SOUND=m
kconfig=CONFIG_SND=m
kconfig=CONFIG_SND_SOC=m
kconfig=CONFIG_KUNIT=m
kconfig=CONFIG_KUNIT_DEBUGFS=y
kconfig=CONFIG_KUNIT_DEFAULT_ENABLED=y
kconfig=CONFIG_SND_SOC_TOPOLOGY_KUNIT_TEST=m
kconfig=CONFIG_COMMON_CLK=y
kconfig=CONFIG_SND_SOC_INTEL_SST_TOPLEVEL=y
kconfig=CONFIG_SND_SOC_INTEL_AVS=m
cmdline=oops=panic
module=snd-soc-core
module=soc-topology-test
tests=sound/asoc-kunit
# The cards' debugfs and tracefs files lengthen the lseek walk.
timeout=120
