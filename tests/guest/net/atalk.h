/* SPDX-License-Identifier: GPL-2.0 */
/*
 * atalk.h - SIOCSIFADDR for AppleTalk (atif_ioctl): the address and its
 * phase 2 netrange in one ifreq, for appletalk-ddp and appletalk-forward.
 */
#ifndef BKLFREE_NET_ATALK_H
#define BKLFREE_NET_ATALK_H

#include <arpa/inet.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/atalk.h>
#include <linux/sockios.h>

/*
 * Gives DEV the address NET.NODE with the netrange FIRST-LAST (host
 * order) through the AppleTalk socket CTL; FAMILY goes in sat_family, so
 * a test can send a wrong one. Returns what ioctl() returns.
 */
static inline int atalk_set_ifaddr(int ctl, const char *dev, int family,
				   unsigned int net, unsigned int node,
				   unsigned int first, unsigned int last)
{
	struct atalk_netrange nr;
	struct sockaddr_at sa;
	struct ifreq ifr;

	memset(&sa, 0, sizeof(sa));
	sa.sat_family = family;
	sa.sat_addr.s_net = htons(net);
	sa.sat_addr.s_node = node;
	memset(&nr, 0, sizeof(nr));
	nr.nr_phase = 2;
	nr.nr_firstnet = htons(first);
	nr.nr_lastnet = htons(last);
	memcpy(sa.sat_zero, &nr, sizeof(nr));
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", dev);
	memcpy(&ifr.ifr_addr, &sa, sizeof(sa));
	return ioctl(ctl, SIOCSIFADDR, &ifr);
}

#endif /* BKLFREE_NET_ATALK_H */
