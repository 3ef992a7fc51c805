# An emulated BMC behind a KCS interface on the ISA bus. Without ACPI the
# kernel finds it through the SMBIOS type 38 record QEMU provides, as
# ipmi_si finds a real server's BMC from its firmware's tables, so no
# ipmi_si.type= or ipmi_si.ports= parameters: the test checks that ipmi0
# sits on dmi-ipmi-si.0 at KCS port 0xca2.
description=ipmi-bmc-sim on isa-ipmi-kcs: /dev/ipmi0 Get Device ID and Get Self Test
qemu=-device ipmi-bmc-sim,id=bmc0
qemu=-device isa-ipmi-kcs,bmc=bmc0
kconfig=CONFIG_IPMI_HANDLER=m
kconfig=CONFIG_IPMI_DEVICE_INTERFACE=m
kconfig=CONFIG_IPMI_SI=m
kconfig=CONFIG_DMI=y
kconfig=CONFIG_IPMI_WATCHDOG=m
module=ipmi_si
module=ipmi_devintf
module=ipmi_watchdog
tests=ipmi/devintf ipmi/watchdog
timeout=60
