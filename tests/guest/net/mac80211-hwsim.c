// SPDX-License-Identifier: GPL-2.0
/*
 * mac80211-hwsim - the wireless debugfs files of two mac80211_hwsim
 * radios (radios=2) joined in one IBSS, each file through its own file
 * operations:
 *
 *   - cfg80211 (net/wireless/debugfs.c, a seed path): ieee80211/phyN/
 *     rts_threshold, fragmentation_threshold, short_retry_limit,
 *     long_retry_limit (wiphy_new()'s defaults, then what Debian's iw set
 *     through nl80211) and ht40allow_map, with generic_file_llseek and
 *     default_llseek;
 *   - mac80211 (net/mac80211/debugfs.c, a seed path): the phy's
 *     rate_ctrl_alg, hwflags, queues, misc, total_ps_buffered, wep_iv,
 *     hw_conf, user_power and power (iw's fixed tx power), aql_pending,
 *     the statistics/ counters (hwsim has no get_stats: EOPNOTSUPP), and
 *     the writable force_tx_status, aql_enable, airtime_flags and
 *     aql_txq_limit, read back and refused bad input;
 *   - rate control (net/mac80211/rate.c, a seed path): rc/name, and the
 *     rate_control_tx_status() path minstrel counts unicast frames by;
 *   - minstrel_ht (net/mac80211/rc80211_minstrel_ht_debugfs.c, patches/core
 *     0058 drops `.llseek = no_llseek` from both of its fops): each IBSS
 *     peer's stations/<MAC>/rc_stats and rc_stats_csv, opened, read in
 *     pieces, lseek and pread ESPIPE, and a file held open while its
 *     station goes (the debugfs proxy's read EIO, its release still runs).
 *
 * lseek on rc_stats and rc_stats_csv: 6.1 defines no_llseek as NULL, so
 * `.llseek = no_llseek` (baseline) and no .llseek (patched) store the
 * same NULL; debugfs's full proxy copies ->llseek only when the real
 * fops has one (__full_proxy_fops_init()), do_dentry_open() clears
 * FMODE_LSEEK for a NULL ->llseek and vfs_llseek() returns ESPIPE; the
 * open itself ends in nonseekable_open(), which clears FMODE_PREAD too.
 * So both kernels give ESPIPE for lseek and pread: the same assertion on
 * both, printed as "# lseek NAME ERRNO" records.
 *
 * The stations exist only once the two radios hear each other: iw puts
 * both netdevs in IBSS mode, they go up with SIOCSIFFLAGS, and iw joins
 * both to one SSID on 2412 MHz with a fixed BSSID, so each creates the
 * IBSS at once (ieee80211_sta_find_ibss()) and adds the other as a
 * station on its first beacon (ieee80211_update_sta_info()). Waits are
 * inotify on debugfs (debugfs_create_dir() notifies) with a bound, or
 * bounded re-reads of a counter that has no event. Every value checked
 * is the one the 6.1 source gives; cases run in order and later ones use
 * what earlier ones made.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <net/if.h>
#include <net/if_arp.h>
#include <netinet/in.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "netif.h"
#include "run.h"
#include "slurp.h"

#define IW		"/usr/sbin/iw"
#define DBG		"/sys/kernel/debug/ieee80211"
#define SSID		"bklfree-hwsim"
#define FREQ		"2412"
#define BSSID		"02:bf:80:21:10:01"
#define ADDR		0x0a501501u	/* 10.80.21.1/24 on the first radio */
#define PEER_ADDR	0x0a501502u	/* a static neighbour: the second */
#define FRAMES		20
#define TOOL_SECS	20
#define STA_WAIT_MS	20000
#define RX_WAIT_MS	5000
#define UNSET_POWER	INT_MIN		/* IEEE80211_UNSET_POWER_LEVEL */
#define CONF_IDLE	(1u << 2)	/* IEEE80211_CONF_IDLE */

struct radio {
	char phy[16];			/* phyN */
	char dev[IFNAMSIZ];		/* its wlan netdev */
	char mac[18];			/* the netdev's address, lower case */
	char dbg[96];			/* DBG/phyN */
};

static struct radio radio[2];
static int nradios;

/* ---- small helpers ---- */

static int phy_file(const struct radio *r, const char *name, char *buf,
		    size_t size)
{
	char path[192];

	snprintf(path, sizeof(path), "%s/%s", r->dbg, name);
	return slurp(path, buf, size) >= 0;
}

/* A phy file that holds one decimal number and a newline. */
static int phy_long(const struct radio *r, const char *name, long *v)
{
	char buf[64], *end;

	if (!phy_file(r, name, buf, sizeof(buf)))
		return 0;
	errno = 0;
	*v = strtol(buf, &end, 10);
	if (errno || end == buf || strcmp(end, "\n")) {
		ktap_diag("%s/%s: '%s' is not a number", r->phy, name, buf);
		return 0;
	}
	return 1;
}

static int phy_is(const struct radio *r, const char *name, long want)
{
	long v;

	if (!phy_long(r, name, &v))
		return 0;
	if (v != want)
		ktap_diag("%s/%s: %ld, not %ld", r->phy, name, v, want);
	return v == want;
}

/* Write s to a phy file: 1 when the whole string was taken, else errno. */
static int phy_put(const struct radio *r, const char *name, const char *s)
{
	char path[192];
	ssize_t n;
	int fd, err;

	snprintf(path, sizeof(path), "%s/%s", r->dbg, name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = write(fd, s, strlen(s));
	err = errno;
	close(fd);
	errno = err;
	return n == (ssize_t)strlen(s);
}

/* A write the file's parser must refuse with EINVAL. */
static int phy_refuses(const struct radio *r, const char *name, const char *s)
{
	if (phy_put(r, name, s) || errno != EINVAL) {
		ktap_diag("%s/%s: write '%s' not EINVAL (%s)", r->phy, name, s,
			  strerrorname_np(errno));
		return 0;
	}
	return 1;
}

static int phy_says(const struct radio *r, const char *name, const char *want)
{
	char buf[256];

	if (!phy_file(r, name, buf, sizeof(buf)))
		return 0;
	if (strcmp(buf, want)) {
		ktap_diag("%s/%s: '%s', not '%s'", r->phy, name, buf, want);
		return 0;
	}
	return 1;
}

/* iw with argv (after "iw"), bounded: 1 when it exited 0. */
static int iw(const char *const args[])
{
	char *argv[16], out[2048];
	unsigned int i;
	int rc;

	argv[0] = IW;
	for (i = 0; args[i] && i + 2 < ARRAY_SIZE(argv); i++)
		argv[i + 1] = (char *)args[i];
	argv[i + 1] = NULL;
	rc = run_capture(argv, out, sizeof(out), TOOL_SECS);
	if (rc) {
		ktap_diag("iw %s %s %s %s: exit %d", args[0], args[1],
			  args[2] ? args[2] : "", args[2] && args[3] ? args[3] : "",
			  rc);
		run_diag_output("iw", out);
	}
	return rc == 0;
}

/*
 * Waits at most ms for path to exist: inotify on its deepest existing
 * ancestor (debugfs notifies its creations), checked again after each
 * event. 1 when it exists.
 */
static int wait_path(const char *path, unsigned int ms)
{
	long long deadline = ktap_now_ms() + ms;
	int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	int there = 0;

	if (fd < 0)
		return ktap_perror("inotify_init1"), 0;
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		char dir[256], ev[4096] __attribute__((aligned(8)));
		long long left;
		char *slash;

		snprintf(dir, sizeof(dir), "%s", path);
		while ((slash = strrchr(dir, '/')) && slash != dir) {
			*slash = '\0';
			if (!access(dir, F_OK))
				break;
		}
		inotify_add_watch(fd, dir, IN_CREATE | IN_MOVED_TO);
		there = !access(path, F_OK);
		left = deadline - ktap_now_ms();
		if (there || left <= 0)
			break;
		if (poll(&p, 1, (int)left) > 0)
			while (read(fd, ev, sizeof(ev)) > 0)
				;
	}
	close(fd);
	return there;
}

/*
 * lseek on fd must give want (>= 0) or fail with errno want_err; an
 * expected failure is printed as a "# lseek NAME ERRNO" record.
 */
static int seek_gives(int fd, const char *name, off_t off, int whence,
		      off_t want, int want_err)
{
	off_t got;

	errno = 0;
	got = lseek(fd, off, whence);
	if (want_err) {
		ktap_diag("lseek %s %s", name,
			  got < 0 ? strerrorname_np(errno) : "0");
		return got < 0 && errno == want_err;
	}
	if (got != want)
		ktap_diag("%s: lseek(%lld, %d) gave %lld, not %lld", name,
			  (long long)off, whence, (long long)got,
			  (long long)want);
	return got == want;
}

/*
 * Reading from where fd is must give exactly want: with whole, want is
 * all that is left (one byte more is asked for); else just its length.
 */
static int read_is(int fd, const char *name, const char *want, int whole)
{
	char buf[256];
	size_t len = strlen(want) + (whole ? 1 : 0);
	ssize_t n = read(fd, buf, len < sizeof(buf) ? len : sizeof(buf) - 1);

	if (n < 0)
		return ktap_perror(name), 0;
	buf[n] = '\0';
	if (strcmp(buf, want)) {
		ktap_diag("%s: read '%s' at the offset, not '%s'", name, buf,
			  want);
		return 0;
	}
	return 1;
}

/* ---- the radios ---- */

static int by_phy(const void *a, const void *b)
{
	const struct radio *x = a, *y = b;

	return strlen(x->phy) != strlen(y->phy) ?
	       (int)strlen(x->phy) - (int)strlen(y->phy) :
	       strcmp(x->phy, y->phy);
}

/*
 * Each wlan netdev links to its wiphy (/sys/class/net/X/phy80211); hwsim's
 * own monitor netdev hwsim0 has none. radios=2 gives two phys with one
 * station netdev each, and two distinct addresses.
 */
static int find_radios(void)
{
	DIR *d = opendir("/sys/class/net");
	struct dirent *e;
	unsigned int phys = 0;

	if (!d)
		return ktap_perror("/sys/class/net"), 0;
	while ((e = readdir(d))) {
		char link[300], target[256], path[300], *base;
		struct radio *r;
		ssize_t n;

		if (e->d_name[0] == '.')
			continue;
		snprintf(link, sizeof(link), "/sys/class/net/%s/phy80211",
			 e->d_name);
		n = readlink(link, target, sizeof(target) - 1);
		if (n < 0)
			continue;
		target[n] = '\0';
		if (nradios++ >= (int)ARRAY_SIZE(radio)) {
			ktap_diag("one more wireless netdev: %s", e->d_name);
			continue;
		}
		r = &radio[nradios - 1];
		base = strrchr(target, '/');
		snprintf(r->phy, sizeof(r->phy), "%.15s", base ? base + 1 : target);
		snprintf(r->dev, sizeof(r->dev), "%.15s", e->d_name);
		snprintf(r->dbg, sizeof(r->dbg), DBG "/%.15s",
			 base ? base + 1 : target);
		snprintf(path, sizeof(path), "/sys/class/net/%s/address",
			 e->d_name);
		if (slurp(path, r->mac, sizeof(r->mac)) != 18 - 1) {
			ktap_diag("%s: address '%s'", r->dev, r->mac);
			closedir(d);
			return 0;
		}
		r->mac[17] = '\0';
	}
	closedir(d);
	d = opendir("/sys/class/ieee80211");
	while (d && (e = readdir(d)))
		phys += e->d_name[0] != '.';
	if (d)
		closedir(d);
	if (nradios != 2 || phys != 2) {
		ktap_diag("%d wireless netdevs, %u phys, not 2", nradios, phys);
		return 0;
	}
	qsort(radio, 2, sizeof(radio[0]), by_phy);
	for (int i = 0; i < 2; i++)
		ktap_diag("%s: %s %s", radio[i].phy, radio[i].dev, radio[i].mac);
	if (!strcmp(radio[0].mac, radio[1].mac))
		return 0;
	return !access(radio[0].dbg, F_OK) && !access(radio[1].dbg, F_OK);
}

/* ---- net/wireless/debugfs.c ---- */

/* wiphy_new_nm(): retry 7 and 4, frag and rts (u32)-1, printed "%d". */
static int cfg_defaults(void)
{
	int ok = 1;

	for (int i = 0; i < nradios; i++)
		ok &= phy_is(&radio[i], "rts_threshold", -1) &
		      phy_is(&radio[i], "fragmentation_threshold", -1) &
		      phy_is(&radio[i], "short_retry_limit", 7) &
		      phy_is(&radio[i], "long_retry_limit", 4);
	return ok;
}

/*
 * ht40allow_map: a line per channel of every band, "FREQ HT40 -+" or
 * "FREQ Disabled" (hwsim's S1G channels, 902-927 MHz, are all disabled). 2412 has no channel 20 MHz below it, so HT40- is off
 * (' '), and HT40+ is on: 2432 exists and the world regulatory domain's
 * 2402-2472 rule allows 40 MHz.
 */
static int cfg_ht40_map(void)
{
	static char buf[8192];
	unsigned int lines = 0, bad = 0;
	char *line, *save;

	if (!phy_file(&radio[0], "ht40allow_map", buf, sizeof(buf)))
		return 0;
	if (strncmp(buf, "2412 HT40  +\n", 13)) {
		ktap_diag("ht40allow_map starts '%.20s'", buf);
		return 0;
	}
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *rest;
		long freq = strtol(line, &rest, 10);

		lines++;
		if (freq > 0 && rest > line &&
		    (!strcmp(rest, " Disabled") ||
		     (!strncmp(rest, " HT40 ", 6) && strlen(rest) == 8 &&
		      strchr(" -", rest[6]) && strchr(" +", rest[7]))))
			continue;
		bad++;
		ktap_diag("ht40allow_map line '%s'", line);
	}
	ktap_diag("ht40allow_map: %u channels", lines);
	return lines >= 14 && !bad;
}

/* ---- net/mac80211/debugfs.c and rate.c: the phy's files ---- */

/*
 * rate_ctrl_alg names local->rate_ctrl's ops (minstrel_ht, the default of
 * CONFIG_MAC80211_RC_DEFAULT); rate.c's rc/name prints the same name
 * without a newline (rcname_read()).
 */
static int mac_rate_ctrl(void)
{
	int ok = 1;

	for (int i = 0; i < nradios; i++)
		ok &= phy_says(&radio[i], "rate_ctrl_alg", "minstrel_ht\n") &
		      phy_says(&radio[i], "rc/name", "minstrel_ht");
	return ok;
}

/*
 * hwflags: a line per set flag, in flag order; mac80211_hwsim_new_radio()
 * sets these for a radio without MLO, and not HAS_RATE_CONTROL, which is
 * why mac80211's minstrel_ht runs at all.
 */
static int mac_hwflags(void)
{
	static const char *const want[] = {
		"AMPDU_AGGREGATION\n", "SUPPORTS_PS\n", "PS_NULLFUNC_STACK\n",
		"MFP_CAPABLE\n", "WANT_MONITOR_VIF\n", "SUPPORT_FAST_XMIT\n",
		"REPORTS_TX_ACK_STATUS\n", "QUEUE_CONTROL\n", "SIGNAL_DBM\n",
		"HOST_BROADCAST_PS_BUFFERING\n", "SUPPORTS_HT_CCK_RATES\n",
		"CHANCTX_STA_CSA\n", "TDLS_WIDER_BW\n", "SUPPORTS_MULTI_BSSID\n",
	};
	char buf[2048];
	int ok;

	if (!phy_file(&radio[0], "hwflags", buf, sizeof(buf)))
		return 0;
	ok = strncmp(buf, "HAS_RATE_CONTROL\n", 17) &&
	     !strstr(buf, "\nHAS_RATE_CONTROL\n");
	for (size_t i = 0; i < ARRAY_SIZE(want); i++)
		if (!strstr(buf, want[i])) {
			ktap_diag("hwflags lacks %s", want[i]);
			ok = 0;
		}
	if (!ok)
		run_diag_output("hwflags", buf);
	return ok;
}

/*
 * queues: "QQ: 0xREASONS/PENDING" for each of hw->queues (5 for hwsim:
 * four ACs and the off-channel queue), misc: "pending:" and one "[i] n"
 * for each of IEEE80211_MAX_QUEUES (16), nothing pending on idle radios.
 */
static int mac_queues(void)
{
	char buf[1024], want[32], *p;
	int ok;

	if (!phy_file(&radio[0], "queues", buf, sizeof(buf)))
		return 0;
	ok = 1;
	p = buf;
	for (int q = 0; q < 5 && ok; q++) {
		char *nl = strchr(p, '\n');
		unsigned long reasons;
		int idx, pending;

		ok = nl && sscanf(p, "%d: %lx/%d", &idx, &reasons,
				  &pending) == 3 && idx == q && !pending;
		p = nl ? nl + 1 : p;
	}
	ok = ok && !*p;
	if (!ok)
		run_diag_output("queues", buf);
	if (!phy_file(&radio[0], "misc", buf, sizeof(buf)))
		return 0;
	p = buf;
	ok = ok && !strncmp(p, "pending:\n", 9);
	for (int q = 0; q < 16 && ok; q++) {
		p = strchr(p, '\n') + 1;
		snprintf(want, sizeof(want), "[%d] 0\n", q);
		ok = !strncmp(p, want, strlen(want));
	}
	ok = ok && !strchr(p, '\n')[1];
	if (!ok)
		run_diag_output("misc", buf);
	return ok;
}

/*
 * The read-only numbers before any interface is up: nothing PS-buffered,
 * no user tx power (IEEE80211_UNSET_POWER_LEVEL, INT_MIN), wep_iv a
 * 24-bit IV ("%#08x"), aql_pending's table of four ACs and a total, all 0.
 */
static int mac_numbers(void)
{
	static const char aql[] = "AC     AQL pending\nVO     0 us\nVI     0 us\n"
				  "BE     0 us\nBK     0 us\ntotal  0 us\n";
	char buf[64], *end;
	unsigned long iv;
	int ok = 1;

	for (int i = 0; i < nradios; i++)
		ok &= phy_is(&radio[i], "total_ps_buffered", 0) &
		      phy_is(&radio[i], "user_power", UNSET_POWER) &
		      phy_says(&radio[i], "aql_pending", aql);
	if (!phy_file(&radio[0], "wep_iv", buf, sizeof(buf)))
		return 0;
	iv = strtoul(buf, &end, 16);
	if (strcmp(end, "\n") || iv > 0xffffff || strlen(buf) < 9) {
		ktap_diag("wep_iv '%s'", buf);
		ok = 0;
	}
	if (!phy_file(&radio[0], "hw_conf", buf, sizeof(buf)))
		return 0;
	strtoul(buf, &end, 16);
	if (strcmp(end, "\n")) {
		ktap_diag("hw_conf '%s'", buf);
		ok = 0;
	}
	ktap_diag("%s: wep_iv %lx, hw_conf %.*s", radio[0].phy, iv,
		  (int)strcspn(buf, "\n"), buf);
	return ok;
}

/* format_devstat_counter(): drv_get_stats() is EOPNOTSUPP without .get_stats. */
static int mac_statistics(void)
{
	static const char *const names[] = {
		"dot11ACKFailureCount", "dot11RTSFailureCount",
		"dot11FCSErrorCount", "dot11RTSSuccessCount",
	};
	int ok = 1;

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		char path[192], buf[32];
		int fd;
		ssize_t n;

		snprintf(path, sizeof(path), "%s/statistics/%s", radio[0].dbg,
			 names[i]);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return ktap_perror(path), 0;
		n = read(fd, buf, sizeof(buf));
		if (n >= 0 || errno != EOPNOTSUPP) {
			ktap_diag("%s: read %zd %s", names[i], n,
				  n < 0 ? strerrorname_np(errno) : "");
			ok = 0;
		}
		close(fd);
	}
	return ok;
}

/*
 * The writable phy files, each set, read back, refused bad input (EINVAL)
 * and set back: force_tx_status 0/1, aql_enable (the aql_disable static
 * key), airtime_flags (AIRTIME_USE_TX | AIRTIME_USE_RX by default),
 * aql_txq_limit "AC LOW HIGH" (AC below IEEE80211_NUM_ACS).
 */
static int mac_writable(void)
{
	const struct radio *r = &radio[0];
	char old[400], buf[400], *be;
	unsigned int low, high;
	int ok;

	ok = phy_says(r, "force_tx_status", "0\n") &&
	     phy_put(r, "force_tx_status", "1\n") &&
	     phy_says(r, "force_tx_status", "1\n") &&
	     phy_refuses(r, "force_tx_status", "2\n") &&
	     phy_put(r, "force_tx_status", "0") &&
	     phy_says(r, "force_tx_status", "0\n");
	/* aql_enable_write() reads count bytes of a 3-byte buffer: "0\n". */
	ok = ok && phy_says(r, "aql_enable", "1\n") &&
	     phy_put(r, "aql_enable", "0\n") &&
	     phy_says(r, "aql_enable", "0\n") &&
	     phy_refuses(r, "aql_enable", "2\n") &&
	     phy_put(r, "aql_enable", "1\n") &&
	     phy_says(r, "aql_enable", "1\n");
	ok = ok && phy_says(r, "airtime_flags",
			    "AIRTIME_TX\t(1)\nAIRTIME_RX\t(2)\n") &&
	     phy_put(r, "airtime_flags", "1\n") &&
	     phy_says(r, "airtime_flags", "AIRTIME_TX\t(1)\n") &&
	     phy_refuses(r, "airtime_flags", "tx\n") &&
	     phy_put(r, "airtime_flags", "0x3") &&
	     phy_says(r, "airtime_flags", "AIRTIME_TX\t(1)\nAIRTIME_RX\t(2)\n");
	if (!ok || !phy_file(r, "aql_txq_limit", old, sizeof(old)))
		return 0;
	be = strstr(old, "\nBE\t");
	if (strncmp(old, "AC\tAQL limit low\tAQL limit high\n", 32) || !be ||
	    sscanf(be, "\nBE\t%u\t\t%u\n", &low, &high) != 2) {
		run_diag_output("aql_txq_limit", old);
		return 0;
	}
	ktap_diag("aql_txq_limit BE %u %u", low, high);
	ok = phy_put(r, "aql_txq_limit", "2 1234 5678\n") &&
	     phy_file(r, "aql_txq_limit", buf, sizeof(buf)) &&
	     strstr(buf, "\nBE\t1234\t\t5678\n") &&
	     phy_refuses(r, "aql_txq_limit", "4 1 2\n") &&
	     phy_refuses(r, "aql_txq_limit", "2 1\n");
	snprintf(buf, sizeof(buf), "2 %u %u\n", low, high);
	return phy_put(r, "aql_txq_limit", buf) && ok;
}

/*
 * lseek on the phy files, by their fops' llseek (all through debugfs's
 * full proxy): generic_file_llseek (the DEBUGFS_READONLY_FILE ones of
 * mac80211 and cfg80211), default_llseek (mac80211's writable ones,
 * cfg80211's ht40allow_map, rate.c's rc/name). Both move f_pos and the
 * next read starts there; SEEK_END is relative to the debugfs inode's
 * size, 0; a negative offset is EINVAL.
 */
static int seek_read(const char *name, off_t off, const char *rest,
		     int whole)
{
	off_t last = off + (off_t)strlen(rest) - 1;
	char path[192];
	int fd, ok;

	snprintf(path, sizeof(path), "%s/%s", radio[0].dbg, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ktap_perror(path), 0;
	ok = seek_gives(fd, name, off, SEEK_SET, off, 0) &&
	     read_is(fd, name, rest, whole) &&
	     seek_gives(fd, name, -1, SEEK_CUR, last, 0) &&
	     read_is(fd, name, rest + strlen(rest) - 1, whole) &&
	     seek_gives(fd, name, 0, SEEK_END, 0, 0) &&
	     seek_gives(fd, name, -1, SEEK_SET, 0, EINVAL);
	close(fd);
	return ok;
}

static int phy_seek(void)
{
	return seek_read("rate_ctrl_alg", 4, "trel_ht\n", 1) &&
	       seek_read("short_retry_limit", 1, "\n", 1) &&
	       seek_read("force_tx_status", 1, "\n", 1) &&
	       seek_read("rc/name", 8, "_ht", 1) &&
	       seek_read("ht40allow_map", 5, "HT40  +\n", 0);
}

/* ---- the IBSS ---- */

static int inet_sock = -1;

static int ifflags(const char *name, short set)
{
	struct ifreq ifr = { 0 };

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	if (ioctl(inet_sock, SIOCGIFFLAGS, &ifr))
		return ktap_perror(name), 0;
	ifr.ifr_flags = (short)(ifr.ifr_flags | set);
	return ioctl(inet_sock, SIOCSIFFLAGS, &ifr) ? ktap_perror(name), 0 : 1;
}

/*
 * iw dev X set type ibss (the netdev is still down), up, then iw dev X
 * ibss join with a fixed frequency and BSSID: ieee80211_sta_find_ibss()
 * creates the IBSS at once instead of scanning. The radio is no longer
 * idle (hw_conf's IEEE80211_CONF_IDLE clear). NOHT: in an HT IBSS
 * minstrel_ht starts a block-ack session on the first QoS data frames
 * (minstrel_aggr_check()), hwsim reports the frames of that session
 * without A-MPDU status and minstrel_ht_tx_status() ignores them, so only
 * a legacy IBSS has minstrel count every frame the test sends.
 */
static int ibss_join(void)
{
	inet_sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (inet_sock < 0)
		return ktap_perror("socket"), 0;
	for (int i = 0; i < nradios; i++) {
		const char *dev = radio[i].dev;
		char buf[32];

		if (!iw((const char *const[]){ "dev", dev, "set", "type",
					       "ibss", NULL }) ||
		    !ifflags(dev, IFF_UP) ||
		    !iw((const char *const[]){ "dev", dev, "ibss", "join", SSID,
					       FREQ, "NOHT", "fixed-freq",
					       BSSID, NULL }) ||
		    !phy_file(&radio[i], "hw_conf", buf, sizeof(buf)))
			return 0;
		if (strtoul(buf, NULL, 16) & CONF_IDLE) {
			ktap_diag("%s: hw_conf %s after the join: idle", dev,
				  buf);
			return 0;
		}
	}
	return 1;
}

/*
 * iw phy X set txpower fixed 1500 (mBm): ieee80211_set_tx_power() keeps
 * 15 dBm as the phy's user power, and the joined vif's power, the lower
 * of that and the 2412 channel's 20 dBm, is the hardware's (hw_conf's
 * power_level). The other radio keeps no user power.
 */
static int txpower(void)
{
	return iw((const char *const[]){ "phy", radio[0].phy, "set",
					 "txpower", "fixed", "1500", NULL }) &&
	       phy_is(&radio[0], "user_power", 15) &&
	       phy_is(&radio[0], "power", 15) &&
	       phy_is(&radio[1], "user_power", UNSET_POWER);
}

/*
 * iw phy X set rts/frag/retry go through nl80211_set_wiphy() into the
 * wiphy, which cfg80211's debugfs files print: an odd fragmentation
 * threshold loses its low bit, "off" is (u32)-1 again. The second phy
 * keeps its defaults.
 */
static int cfg_set(void)
{
	const char *phy = radio[0].phy;

	return iw((const char *const[]){ "phy", phy, "set", "rts", "500",
					 NULL }) &&
	       iw((const char *const[]){ "phy", phy, "set", "frag", "1001",
					 NULL }) &&
	       iw((const char *const[]){ "phy", phy, "set", "retry", "short",
					 "5", "long", "3", NULL }) &&
	       phy_is(&radio[0], "rts_threshold", 500) &&
	       phy_is(&radio[0], "fragmentation_threshold", 1000) &&
	       phy_is(&radio[0], "short_retry_limit", 5) &&
	       phy_is(&radio[0], "long_retry_limit", 3) &&
	       iw((const char *const[]){ "phy", phy, "set", "frag", "off",
					 NULL }) &&
	       phy_is(&radio[0], "fragmentation_threshold", -1) &&
	       phy_is(&radio[1], "rts_threshold", -1) &&
	       phy_is(&radio[1], "short_retry_limit", 7) &&
	       seek_read("rts_threshold", 1, "00\n", 1);
}

/* DBG/phyN/netdev:DEV/stations/<peer's MAC>[/name] of radio i. */
static void sta_path(char *buf, size_t size, int i, const char *name)
{
	snprintf(buf, size, "%.95s/netdev:%.15s/stations/%.17s%s%.15s",
		 radio[i].dbg,
		 radio[i].dev, radio[!i].mac, name ? "/" : "",
		 name ? name : "");
}

/*
 * Each radio adds the other as an IBSS station on its first beacon
 * (ieee80211_ibss_add_sta()); sta_info_insert() makes its debugfs
 * directory, named by the peer's MAC, and minstrel_ht's rc_stats and
 * rc_stats_csv in it (rate_control_add_sta_debugfs()). The stations/
 * directory holds that peer only.
 */
static int stations(void)
{
	long long t0 = ktap_now_ms();
	int ok = 1;

	for (int i = 0; i < nradios; i++) {
		char path[256];
		DIR *d;
		struct dirent *e;
		unsigned int n = 0;

		sta_path(path, sizeof(path), i, "rc_stats_csv");
		if (!wait_path(path, STA_WAIT_MS)) {
			ktap_diag("%s: no %s after %lld ms", radio[i].dev, path,
				  ktap_now_ms() - t0);
			return 0;
		}
		ktap_diag("%s: station %s after %lld ms", radio[i].dev,
			  radio[!i].mac, ktap_now_ms() - t0);
		snprintf(path, sizeof(path), "%s/netdev:%s/stations",
			 radio[i].dbg, radio[i].dev);
		d = opendir(path);
		while (d && (e = readdir(d)))
			if (e->d_name[0] != '.') {
				n++;
				ok &= !strcmp(e->d_name, radio[!i].mac);
			}
		if (d)
			closedir(d);
		ok &= n == 1;
	}
	return ok;
}

static char stats_buf[32768], csv_buf[32768];

static long rx_packets(int i)
{
	char path[128], buf[32];

	snprintf(path, sizeof(path), "/sys/class/net/%s/statistics/rx_packets",
		 radio[i].dev);
	return slurp(path, buf, sizeof(buf)) > 0 ? strtol(buf, NULL, 10) : -1;
}

/*
 * FRAMES unicast data frames from the first radio to the second: UDP to
 * 10.80.21.2, which a permanent ARP entry on the first netdev maps to
 * the second radio's MAC (no AF_PACKET in the lab kernels). mac80211
 * transmits them to the station (rate_control_get_rate()), hwsim hands
 * them to the other radio and reports them acked, and the second netdev
 * counts them received; the IP layer there then drops them (not its
 * address), which is fine.
 */
static int unicast(void)
{
	struct sockaddr_in *sin;
	const char *what;
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(9),
				  .sin_addr.s_addr = htonl(PEER_ADDR) };
	struct arpreq arp = { .arp_flags = ATF_COM | ATF_PERM };
	long before = rx_packets(1), now = before;
	long long deadline;
	char payload[64] = "bklfree mac80211-hwsim";
	int fd, sent = 0;

	if (!netif_set_ipv4(inet_sock, radio[0].dev, ADDR, 0xffffff00u, &what))
		return ktap_perror(what), 0;
	sin = (struct sockaddr_in *)&arp.arp_pa;
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(PEER_ADDR);
	arp.arp_ha.sa_family = ARPHRD_ETHER;
	if (sscanf(radio[1].mac, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx",
		   (unsigned char *)&arp.arp_ha.sa_data[0],
		   (unsigned char *)&arp.arp_ha.sa_data[1],
		   (unsigned char *)&arp.arp_ha.sa_data[2],
		   (unsigned char *)&arp.arp_ha.sa_data[3],
		   (unsigned char *)&arp.arp_ha.sa_data[4],
		   (unsigned char *)&arp.arp_ha.sa_data[5]) != 6)
		return 0;
	snprintf(arp.arp_dev, sizeof(arp.arp_dev), "%s", radio[0].dev);
	if (ioctl(inet_sock, SIOCSARP, &arp))
		return ktap_perror("SIOCSARP"), 0;
	fd = before < 0 ? -1 : socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return 0;
	for (int i = 0; i < FRAMES; i++)
		sent += sendto(fd, payload, sizeof(payload), 0,
			       (struct sockaddr *)&to, sizeof(to)) ==
			sizeof(payload);
	close(fd);
	/* rx counters have no event: re-read them until the deadline. */
	deadline = ktap_now_ms() + RX_WAIT_MS;
	while ((now = rx_packets(1)) < before + FRAMES &&
	       ktap_now_ms() < deadline)
		poll(NULL, 0, 20);
	ktap_diag("%d frames sent, %s rx_packets %ld -> %ld", sent,
		  radio[1].dev, before, now);
	return sent == FRAMES && now >= before + FRAMES;
}

/* ---- net/mac80211/rc80211_minstrel_ht_debugfs.c ---- */

/*
 * A minstrel file read through one descriptor in pieces of 100 bytes:
 * minstrel_ht_stats_open() made the whole text, minstrel_stats_read()
 * hands it out from f_pos (simple_read_from_buffer()).
 */
static ssize_t read_pieces(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t len = 0;
	ssize_t n;

	if (fd < 0)
		return ktap_perror(path);
	while (len + 100 < size && (n = read(fd, buf + len, 100)) > 0)
		len += (size_t)n;
	close(fd);
	buf[len] = '\0';
	return (ssize_t)len;
}

/* The first word of each rate row, in order, and how many rows. */
struct rows {
	char mode[64][8];
	unsigned int n;
};

static char stats_buf[32768], csv_buf[32768];
static struct rows stats_rows[2];
static long total_packets[2];

/*
 * rc_stats: a blank line, the two header lines of minstrel_ht's table,
 * a row per supported rate (the CCK group first), a blank line and
 * "Total packet count::    ideal N      lookaround M".
 */
static int parse_stats(int i)
{
	static const char head[] =
		"\n              best    ____________rate__________    "
		"____statistics___    _____last____    ______sum-of________\n"
		"mode guard #  rate   [name   idx airtime  max_tp]  "
		"[avg(tp) avg(prob)]  [retry|suc|att]  [#success | #attempts]\n";
	struct rows *r = &stats_rows[i];
	char path[256], *p, *nl;
	long ideal, look;

	sta_path(path, sizeof(path), i, "rc_stats");
	if (read_pieces(path, stats_buf, sizeof(stats_buf)) <= 0)
		return 0;
	if (strncmp(stats_buf, head, sizeof(head) - 1)) {
		run_diag_output("rc_stats", stats_buf);
		return 0;
	}
	r->n = 0;
	for (p = stats_buf + sizeof(head) - 1; *p && *p != '\n'; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl || r->n == ARRAY_SIZE(r->mode) ||
		    sscanf(p, "%7s", r->mode[r->n]) != 1)
			break;
		r->n++;
	}
	p = strstr(stats_buf, "\nTotal packet count::    ideal ");
	if (!r->n || !p || *(nl ? nl : p) != '\n' ||
	    sscanf(p, "\nTotal packet count::    ideal %ld      lookaround %ld",
		   &ideal, &look) != 2) {
		run_diag_output("rc_stats", stats_buf);
		return 0;
	}
	total_packets[i] = ideal + look;
	ktap_diag("%s's station %s: %u rates, first %s, last %s, %ld packets",
		  radio[i].dev, radio[!i].mac, r->n, r->mode[0],
		  r->mode[r->n - 1], total_packets[i]);
	return 1;
}

/*
 * Both stations' tables: the IBSS is NOHT, so a station has the legacy
 * rates of 2412 MHz only: CCK rows (dumped first), then OFDM rows, no
 * MCS. The first radio's station counted at least the FRAMES acked frames
 * sent to it (minstrel_ht_tx_status() through rate_control_tx_status()).
 */
static int rc_stats(void)
{
	long long deadline = ktap_now_ms() + RX_WAIT_MS;
	int ok;

	/* Tx status comes from a tasklet after the peer's rx: re-read. */
	while ((ok = parse_stats(0)) && total_packets[0] < FRAMES &&
	       ktap_now_ms() < deadline)
		poll(NULL, 0, 20);
	ok = ok && parse_stats(1);
	for (int i = 0; ok && i < nradios; i++) {
		const struct rows *r = &stats_rows[i];

		ok = !strcmp(r->mode[0], "CCK") &&
		     !strcmp(r->mode[r->n - 1], "OFDM");
		for (unsigned int k = 0; ok && k < r->n; k++)
			ok = !strcmp(r->mode[k], "CCK") ||
			     !strcmp(r->mode[k], "OFDM");
	}
	if (ok && total_packets[0] < FRAMES)
		ktap_diag("%ld packets counted, %d sent", total_packets[0],
			  FRAMES);
	return ok && total_packets[0] >= FRAMES;
}

/*
 * rc_stats_csv: the same rows in the same order (the same dump loops),
 * each 18 comma-separated fields, the first the row's mode, the three
 * last the packet totals and the A-MPDU length.
 */
static int rc_stats_csv(void)
{
	int ok = 1;

	for (int i = 0; i < nradios && ok; i++) {
		char path[256], *line, *save;
		unsigned int n = 0;

		sta_path(path, sizeof(path), i, "rc_stats_csv");
		if (read_pieces(path, csv_buf, sizeof(csv_buf)) <= 0)
			return 0;
		for (line = strtok_r(csv_buf, "\n", &save); line && ok;
		     line = strtok_r(NULL, "\n", &save), n++) {
			size_t len = strcspn(line, ",");
			unsigned int commas = 0;

			for (char *c = line; *c; c++)
				commas += *c == ',';
			ok = n < stats_rows[i].n && commas == 17 &&
			     len == strlen(stats_rows[i].mode[n]) &&
			     !strncmp(line, stats_rows[i].mode[n], len);
			if (!ok)
				ktap_diag("%s rc_stats_csv row %u: '%s'",
					  radio[i].dev, n, line);
		}
		ok = ok && n == stats_rows[i].n;
	}
	return ok;
}

/*
 * lseek (SEEK_SET, SEEK_CUR, SEEK_END) and pread on both minstrel files:
 * ESPIPE on both kernels (see the top of this file), and the read that
 * follows still gives the second byte (rc_stats: the header's blank,
 * rc_stats_csv: the first row's mode).
 */
static int minstrel_no_seek(void)
{
	static const char *const names[] = { "rc_stats", "rc_stats_csv" };
	int ok = 1;

	for (int i = 0; i < nradios; i++)
		for (size_t k = 0; k < ARRAY_SIZE(names); k++) {
			char path[256], rec[300], buf[16];
			int fd;

			sta_path(path, sizeof(path), i, names[k]);
			snprintf(rec, sizeof(rec), "%s:%s", radio[i].dev,
				 names[k]);
			fd = open(path, O_RDONLY | O_CLOEXEC);
			if (fd < 0)
				return ktap_perror(path), 0;
			ok &= read(fd, buf, 1) == 1 &&
			      seek_gives(fd, rec, 0, SEEK_SET, 0, ESPIPE) &&
			      seek_gives(fd, rec, 0, SEEK_CUR, 0, ESPIPE) &&
			      seek_gives(fd, rec, 0, SEEK_END, 0, ESPIPE);
			errno = 0;
			ok &= pread(fd, buf, sizeof(buf), 0) < 0 &&
			      errno == ESPIPE;
			ktap_diag("pread %s %s", rec, strerrorname_np(errno));
			ok &= read(fd, buf, 1) == 1 &&
			      buf[0] == (k ? stats_rows[i].mode[0][1] : ' ');
			close(fd);
		}
	return ok;
}

/*
 * iw dev X ibss leave on the second radio with its rc_stats open:
 * ieee80211_ibss_disconnect() flushes the station, whose debugfs
 * directory goes before iw returns; the open file's read is then EIO
 * (debugfs_file_get() on a removed file, the full proxy's read) and its
 * close still runs minstrel_stats_release(). The first radio's files are
 * unchanged.
 */
static int leave_held_open(void)
{
	char path[256], buf[64];
	ssize_t n;
	int fd, ok;

	sta_path(path, sizeof(path), 1, "rc_stats");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ktap_perror(path), 0;
	ok = iw((const char *const[]){ "dev", radio[1].dev, "ibss", "leave",
				       NULL });
	sta_path(path, sizeof(path), 1, NULL);
	ok = ok && access(path, F_OK) && errno == ENOENT;
	n = read(fd, buf, sizeof(buf));
	ktap_diag("read after the station went: %zd %s", n,
		  n < 0 ? strerrorname_np(errno) : "");
	ok = ok && n < 0 && errno == EIO;
	ok = !close(fd) && ok;
	sta_path(path, sizeof(path), 0, "rc_stats");
	return ok && read_pieces(path, stats_buf, sizeof(stats_buf)) > 0;
}

static const struct ktap_case cases[] = {
	{ "mac80211_hwsim radios=2: two phys, a wlan netdev each, two addresses", find_radios },
	{ "cfg80211 debugfs: rts and frag -1, retry short 7 long 4 on both phys", cfg_defaults },
	{ "cfg80211 debugfs: ht40allow_map, 2412 HT40+ only, every line well formed", cfg_ht40_map },
	{ "mac80211 debugfs: rate_ctrl_alg and rc/name say minstrel_ht", mac_rate_ctrl },
	{ "mac80211 debugfs: hwflags lists hwsim's flags, no HAS_RATE_CONTROL", mac_hwflags },
	{ "mac80211 debugfs: queues has 5 hw queues, misc 16 pending counts, all 0", mac_queues },
	{ "mac80211 debugfs: total_ps_buffered 0, user_power unset, aql_pending 0, wep_iv 24 bits, hw_conf hex", mac_numbers },
	{ "mac80211 debugfs: statistics/dot11* read EOPNOTSUPP (no get_stats)", mac_statistics },
	{ "mac80211 debugfs: force_tx_status, aql_enable, airtime_flags, aql_txq_limit written, read back, bad input EINVAL", mac_writable },
	{ "phy debugfs lseek: generic_file_llseek and default_llseek move f_pos, SEEK_END 0, negative EINVAL", phy_seek },
	{ "iw: both netdevs IBSS, up, joined " SSID " on " FREQ " NOHT with a fixed BSSID, not idle", ibss_join },
	{ "iw phy set txpower fixed 1500: user_power and power 15 on that phy only", txpower },
	{ "iw phy set rts 500, frag 1001 then off, retry 5/3: read back from cfg80211 debugfs, lseek", cfg_set },
	{ "each radio's stations/ holds the other radio's MAC with rc_stats and rc_stats_csv", stations },
	{ "unicast UDP to the second radio's MAC: its rx_packets grow by the frames sent", unicast },
	{ "minstrel_ht rc_stats: table header, CCK then OFDM rows, the frames sent counted", rc_stats },
	{ "minstrel_ht rc_stats_csv: the same rows, 18 fields each", rc_stats_csv },
	{ "minstrel_ht rc_stats and rc_stats_csv: lseek and pread ESPIPE, reading goes on", minstrel_no_seek },
	{ "iw ibss leave with rc_stats open: station dir gone, read EIO, close; the peer's files stay", leave_held_open },
};

/* Without the two radios no other case has anything to work on. */
static void run(void)
{
	ktap_run_cases(cases, 1);
	if (nradios != (int)ARRAY_SIZE(radio))
		ktap_bail("mac80211_hwsim made %d wireless netdevs, not 2",
			  nradios);
	ktap_run_cases(cases + 1, ARRAY_SIZE(cases) - 1);
}

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(cases),
	.devices = (const char *const[]){ IW, DBG, NULL },
	.kconfig = (const char *const[]){
		"CONFIG_CFG80211", "CONFIG_CFG80211_DEBUGFS", "CONFIG_MAC80211",
		"CONFIG_MAC80211_RC_MINSTREL", "CONFIG_MAC80211_DEBUGFS",
		"CONFIG_MAC80211_HWSIM", NULL },
	.timeout = 60,
	.upstream = "patches/core 0058 (net/mac80211 no_llseek)",
	.run = run,
};
