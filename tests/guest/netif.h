/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netif.h - bring a network interface up with SIOCGIFFLAGS/SIOCSIFFLAGS,
 * for the tests whose daemons or kernel sockets talk over the loopback
 * (usbip, nfsd and sunrpc, the DLM's comms).
 */
#ifndef BKLFREE_NETIF_H
#define BKLFREE_NETIF_H

#include <net/if.h>
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

#endif /* BKLFREE_NETIF_H */
