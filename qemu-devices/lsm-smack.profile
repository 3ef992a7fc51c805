# Smack as the active LSM, no device: its policy filesystem smackfs
# (security/smack/smackfs.c, a seed path of the llseek patch), mounted on
# /sys/fs/smackfs, every file driven by the test as root with the floor
# label: rules, access queries, CIPSO, the single values, host labels.
# The lab kernels build Smack in but boot with DAC only
# (CONFIG_DEFAULT_SECURITY_DAC), so this boot names it on the command line.
description=Smack: smackfs rules, access queries, CIPSO, single values, host labels
kconfig=CONFIG_SECURITY=y
kconfig=CONFIG_SECURITY_SMACK=y
kconfig=CONFIG_DEFAULT_SECURITY_DAC=y
cmdline=lsm=smack
tests=security/smackfs
timeout=90
