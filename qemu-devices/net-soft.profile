# Simulated network devices the series touches, no hardware: wwan_hwsim
# (two WWAN devices of two AT ports each, /dev/wwan0at0 ...; the simulator
# has no MBIM port), netdevsim (created through its sysfs bus, with its FIB
# and debugfs files), macvtap on dummy's dummy0 (/dev/tapN; the test makes
# the links with rtnetlink itself) and the ATM core's /proc/net/atm.
description=wwan_hwsim ports, netdevsim, macvtap, ATM proc
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
tests=net/soft-netdevs
timeout=60
kconfig=CONFIG_NETFILTER=y
kconfig=CONFIG_NETFILTER_ADVANCED=y
kconfig=CONFIG_NETFILTER_XTABLES=m
kconfig=CONFIG_IP_NF_IPTABLES=m
kconfig=CONFIG_IP_NF_FILTER=m
kconfig=CONFIG_NETFILTER_XT_MATCH_RECENT=m
