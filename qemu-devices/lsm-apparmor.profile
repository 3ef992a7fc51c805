description=DRAFT apparmor securityfs
kconfig=CONFIG_SECURITY=y
kconfig=CONFIG_SECURITYFS=y
kconfig=CONFIG_SECURITY_APPARMOR=y
kconfig=CONFIG_DEFAULT_SECURITY_DAC=y
cmdline=lsm=apparmor
tests=core/chardev
timeout=90
