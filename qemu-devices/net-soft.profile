# Simulated network devices the series touches, no hardware: wwan_hwsim
# (two WWAN devices of two AT ports each, /dev/wwan0at0 ...; the simulator
# has no MBIM port), netdevsim (created through its sysfs bus, with its FIB
# and debugfs files), macvtap on dummy's dummy0 (/dev/tapN; the test makes
# the links with rtnetlink itself), the ATM core's /proc/net/atm, and
# netfilter's "recent" match (xt_recent) through its /proc/net/xt_recent
# file, with a rule that Debian's iptables-legacy (from the host's /usr,
# its extensions in /usr/lib/x86_64-linux-gnu/xtables) puts on INPUT.
description=wwan_hwsim ports, netdevsim, macvtap, ATM proc, xt_recent lists
kconfig=CONFIG_NETDEVICES=y
kconfig=CONFIG_NET_CORE=y
kconfig=CONFIG_WWAN=m
kconfig=CONFIG_WWAN_HWSIM=m
kconfig=CONFIG_NETDEVSIM=m
kconfig=CONFIG_DUMMY=m
kconfig=CONFIG_MACVLAN=m
kconfig=CONFIG_MACVTAP=m
kconfig=CONFIG_ATM=m
module=wwan_hwsim
module=netdevsim
module=dummy
module=macvtap
module=atm
kconfig=CONFIG_NETFILTER=y
kconfig=CONFIG_NETFILTER_ADVANCED=y
kconfig=CONFIG_NETFILTER_XTABLES=m
kconfig=CONFIG_IP_NF_IPTABLES=m
kconfig=CONFIG_IP_NF_FILTER=m
kconfig=CONFIG_NETFILTER_XT_MATCH_RECENT=m
# The recent rule matches UDP (xt_tcpudp, its own module) on the filter
# table's INPUT chain; iptables-legacy would ask the kernel to modprobe
# these, and the initramfs carries only module= lines' closure.
module=iptable_filter
module=xt_tcpudp
module=xt_recent
tool=/usr/sbin/iptables-legacy
tests=net/soft-netdevs net/xt-recent
timeout=90
