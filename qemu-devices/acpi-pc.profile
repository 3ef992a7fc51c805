description=DRAFT acpi: hpet, erst, power button events
kconfig=CONFIG_ACPI=y
kconfig=CONFIG_ACPI_BUTTON=m
kconfig=CONFIG_HPET=y
kconfig=CONFIG_ACPI_APEI=y
kconfig=CONFIG_ACPI_APEI_ERST_DEBUG=m
cmdline=acpi=force
tests=core/chardev
timeout=90
