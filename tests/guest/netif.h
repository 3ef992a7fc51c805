/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netif.h - bring a network interface up with SIOCGIFFLAGS/SIOCSIFFLAGS,
 * for the tests whose daemons or kernel sockets talk over the loopback
 * (usbip, nfsd and sunrpc, the DLM's comms), and give one an IPv4
 * address (Soft-RoCE's dummy0, a mac80211_hwsim radio).
 */
#ifndef BKLFREE_NETIF_H
#define BKLFREE_NETIF_H

#include <net/if.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

/* Sets IFF_UP on interface NAME: 1, or 0 with errno. */
static inline int netif_up(const char *name)
{
	struct ifreq ifr = { 0 };
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), ok;

	if (s < 0)
		return 0;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	ok = !ioctl(s, SIOCGIFFLAGS, &ifr);
	ifr.ifr_flags |= IFF_UP;
	ok = ok && !ioctl(s, SIOCSIFFLAGS, &ifr);
	close(s);
	return ok;
}

/*
 * Gives interface NAME the IPv4 address ADDR with netmask MASK (both in
 * host order) through socket S, an AF_INET one: 1, or 0 with errno and
 * the failing ioctl in *what.
 */
static inline int netif_set_ipv4(int s, const char *name, uint32_t addr,
				 uint32_t mask, const char **what)
{
	struct ifreq ifr = { 0 };
	struct sockaddr_in *sin = (struct sockaddr_in *)&ifr.ifr_addr;

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(addr);
	*what = "SIOCSIFADDR";
	if (ioctl(s, SIOCSIFADDR, &ifr))
		return 0;
	sin->sin_addr.s_addr = htonl(mask);
	*what = "SIOCSIFNETMASK";
	return !ioctl(s, SIOCSIFNETMASK, &ifr);
}

#endif /* BKLFREE_NETIF_H */
