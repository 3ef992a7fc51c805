description=DRAFT smack
kconfig=CONFIG_SECURITY=y
kconfig=CONFIG_SECURITY_SMACK=y
kconfig=CONFIG_DEFAULT_SECURITY_DAC=y
cmdline=lsm=smack
tests=core/chardev
timeout=90
