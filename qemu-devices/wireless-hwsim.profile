description=DRAFT mac80211_hwsim
kconfig=CONFIG_WLAN=y
kconfig=CONFIG_CFG80211=m
kconfig=CONFIG_CFG80211_DEBUGFS=y
kconfig=CONFIG_MAC80211=m
kconfig=CONFIG_MAC80211_RC_MINSTREL=y
kconfig=CONFIG_MAC80211_DEBUGFS=y
kconfig=CONFIG_MAC80211_HWSIM=m
tests=core/chardev
timeout=90
