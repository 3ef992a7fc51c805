# AppArmor as the active LSM, no device: securityfs (security/inode.c) and
# AppArmor's policy files in it (security/apparmor/apparmorfs.c), both seed
# paths of the llseek patch. The lab kernels build AppArmor in but boot
# with DAC only (CONFIG_DEFAULT_SECURITY_DAC), so this boot names it on the
# command line. Debian's apparmor_parser, from the host's /usr, compiles
# the test's profile in the guest for the guest kernel's own features/
# (no /etc/apparmor: the profile has no abi or include), then the test
# writes the binary policy to .load, .replace and .remove itself, and lets
# the parser load and remove it once more as a system would.
description=AppArmor: securityfs, features/, policy load, replace, remove, .access queries, namespaces
kconfig=CONFIG_SECURITY=y
kconfig=CONFIG_SECURITYFS=y
kconfig=CONFIG_SECURITY_APPARMOR=y
kconfig=CONFIG_DEFAULT_SECURITY_DAC=y
cmdline=lsm=apparmor
tool=/usr/sbin/apparmor_parser
tests=security/apparmorfs
timeout=120
