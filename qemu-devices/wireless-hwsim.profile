# Wi-Fi with no hardware: mac80211_hwsim simulates two radios on one
# medium, so cfg80211's and mac80211's phy debugfs files
# (net/wireless/debugfs.c, net/mac80211/debugfs.c and rate.c's rc/name,
# seed paths) and minstrel_ht's per-station rc_stats and rc_stats_csv
# (net/mac80211/rc80211_minstrel_ht_debugfs.c, patches/core 0058) run in
# a guest. Stations, and with them minstrel's files, exist only once the
# two radios hear each other: Debian's iw (from the host's /usr) puts both
# in one IBSS, and the test sends unicast frames from one to the other.
description=mac80211_hwsim, two radios in one IBSS: cfg80211, mac80211 and minstrel_ht debugfs; Debian's iw
kconfig=CONFIG_WLAN=y
kconfig=CONFIG_CFG80211=m
kconfig=CONFIG_CFG80211_DEBUGFS=y
kconfig=CONFIG_MAC80211=m
kconfig=CONFIG_MAC80211_RC_MINSTREL=y
kconfig=CONFIG_MAC80211_DEBUGFS=y
kconfig=CONFIG_MAC80211_HWSIM=m
# Two radios (also the module's default, named so the test's count of
# phys has a reason here): one to transmit, one to be its IBSS peer.
module=mac80211_hwsim radios=2
tool=/usr/sbin/iw
tests=net/mac80211-hwsim
# A boot takes about 7 s under TCG on an idle host, 26 s with other
# boots running; the test's own alarm is 60 s (its longest bounded wait,
# for the stations, is 20 s).
timeout=90
