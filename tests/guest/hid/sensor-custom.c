// SPDX-License-Identifier: GPL-2.0
/*
 * sensor-custom - drivers/hid/hid-sensor-custom.c on a HID sensor hub made
 * through /dev/uhid (the hid-sensor profile).
 *
 * The report descriptor is a sensor hub: an application collection of
 * usage 0x200001 (HID_USAGE_SENSOR_COLLECTION) holding one physical
 * collection of usage 0x2000e1 (the custom sensor). A physical collection
 * on the sensor usage page makes hid-core give the device
 * HID_GROUP_SENSOR_HUB (hid_scan_collection), which hid-sensor-hub
 * matches; it adds one MFD platform device per physical or application
 * collection, "HID-SENSOR-<usage>", and hid_sensor_custom binds
 * HID-SENSOR-2000e1.N.auto. Its fields, all inside the physical one:
 *
 *   feature report 1: field 0 reporting state (a logical collection of
 *   0x200316 with the selectors NO_EVENTS 0x200840, ALL_EVENTS 0x200841),
 *   field 1 power state (0x200319: D0 0x200851, D4 0x200855), field 2
 *   report interval (0x20030e, 32 bits);
 *   input report 2: field 0 custom value 1 (0x200544, 32 bits).
 *
 * There is no manufacturer property (0x200305), so get_known_custom_
 * sensor_index() stops at sensor_hub_input_get_attribute_info() and the
 * probe sends no GET_REPORT: the sensor is a plain custom one. Every later
 * GET_REPORT and SET_REPORT (sysfs value files, enable_sensor) is answered
 * by a child process that plays the device: it keeps the feature report,
 * takes SET_REPORT data into it and counts the requests in shared memory.
 * Then the misc device /dev/HID-SENSOR-2000e1.N.auto: one opener, a sample
 * (header of struct hid_sensor_sample, then the raw input) after an input
 * report, lseek ESPIPE (stream_open; the dead .llseek is dropped by
 * patches/core 0105).
 */
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <linux/uhid.h>

#include "ktap.h"

#define FEAT_ID		1
#define INPUT_ID	2
#define FEAT_LEN	7	/* id, reporting, power, interval (4) */
#define INPUT_LEN	5	/* id, value (4) */
#define VALUE		0x1234
#define WAIT_MS		5000

static const unsigned char rdesc[] = {
	0x05, 0x20,			/* Usage Page (Sensor) */
	0x09, 0x01,			/* Usage (Sensor collection) */
	0xa1, 0x01,			/* Collection (Application) */
	0x09, 0xe1,			/*  Usage (Custom 0xe1) */
	0xa1, 0x00,			/*  Collection (Physical) */
	0x85, FEAT_ID,			/*   Report ID */
	0x0a, 0x16, 0x03,		/*   Usage (Reporting state) */
	0x15, 0x00, 0x25, 0x01,		/*   Logical 0..1 */
	0x75, 0x08, 0x95, 0x01,		/*   8 bits, 1 */
	0xa1, 0x02,			/*   Collection (Logical) */
	0x0a, 0x40, 0x08,		/*    No events */
	0x0a, 0x41, 0x08,		/*    All events */
	0xb1, 0x00,			/*    Feature (Data, Array, Abs) */
	0xc0,				/*   End Collection */
	0x0a, 0x19, 0x03,		/*   Usage (Power state) */
	0xa1, 0x02,			/*   Collection (Logical) */
	0x0a, 0x51, 0x08,		/*    D0 full power */
	0x0a, 0x55, 0x08,		/*    D4 power off */
	0xb1, 0x00,			/*    Feature (Data, Array, Abs) */
	0xc0,				/*   End Collection */
	0x0a, 0x0e, 0x03,		/*   Usage (Report interval) */
	0x15, 0x00,			/*   Logical minimum 0 */
	0x27, 0xff, 0xff, 0xff, 0x7f,	/*   Logical maximum 0x7fffffff */
	0x75, 0x20, 0x95, 0x01,		/*   32 bits, 1 */
	0xb1, 0x02,			/*   Feature (Data, Var, Abs) */
	0x85, INPUT_ID,			/*   Report ID */
	0x0a, 0x44, 0x05,		/*   Usage (Custom value 1) */
	0x81, 0x02,			/*   Input (Data, Var, Abs) */
	0xc0,				/*  End Collection */
	0xc0,				/* End Collection */
};

/* What the device child shares with the test. */
struct dev_state {
	int starts, opens, closes, gets, sets, bad;
	unsigned char feat[FEAT_LEN];
	unsigned char input[INPUT_LEN];
};

static struct dev_state *st;
static int uhid = -1, stop_pipe[2] = { -1, -1 };
static pid_t child = -1;
static char sysdir[320], devnode[300];

static int uhid_write(const struct uhid_event *ev)
{
	ssize_t n = write(uhid, ev, sizeof(*ev));

	if (n != sizeof(*ev))
		ktap_diag("uhid write type %u: %zd, %s", ev->type, n,
			  strerror(errno));
	return n == sizeof(*ev);
}

/* The device: answers until the test writes to (or closes) stop_pipe. */
static void device_loop(void)
{
	struct pollfd p[2] = { { .fd = uhid, .events = POLLIN },
			       { .fd = stop_pipe[0], .events = POLLIN } };
	static struct uhid_event ev, re;

	for (;;) {
		if (poll(p, 2, -1) < 0 || p[1].revents)
			_exit(0);
		if (read(uhid, &ev, sizeof(ev)) <= 0)
			continue;
		memset(&re, 0, sizeof(re));
		switch (ev.type) {
		case UHID_START:
			__atomic_add_fetch(&st->starts, 1, __ATOMIC_SEQ_CST);
			break;
		case UHID_OPEN:
			__atomic_add_fetch(&st->opens, 1, __ATOMIC_SEQ_CST);
			break;
		case UHID_CLOSE:
			__atomic_add_fetch(&st->closes, 1, __ATOMIC_SEQ_CST);
			break;
		case UHID_GET_REPORT:
			re.type = UHID_GET_REPORT_REPLY;
			re.u.get_report_reply.id = ev.u.get_report.id;
			if (ev.u.get_report.rnum == FEAT_ID &&
			    ev.u.get_report.rtype == UHID_FEATURE_REPORT) {
				re.u.get_report_reply.size = FEAT_LEN;
				memcpy(re.u.get_report_reply.data, st->feat,
				       FEAT_LEN);
			} else if (ev.u.get_report.rnum == INPUT_ID &&
				   ev.u.get_report.rtype == UHID_INPUT_REPORT) {
				re.u.get_report_reply.size = INPUT_LEN;
				memcpy(re.u.get_report_reply.data, st->input,
				       INPUT_LEN);
			} else {
				re.u.get_report_reply.err = EIO;
				st->bad++;
			}
			__atomic_add_fetch(&st->gets, 1, __ATOMIC_SEQ_CST);
			uhid_write(&re);
			break;
		case UHID_SET_REPORT:
			re.type = UHID_SET_REPORT_REPLY;
			re.u.set_report_reply.id = ev.u.set_report.id;
			if (ev.u.set_report.rnum == FEAT_ID &&
			    ev.u.set_report.size == FEAT_LEN)
				memcpy(st->feat, ev.u.set_report.data, FEAT_LEN);
			else {
				re.u.set_report_reply.err = EIO;
				st->bad++;
			}
			__atomic_add_fetch(&st->sets, 1, __ATOMIC_SEQ_CST);
			uhid_write(&re);
			break;
		default:
			break;
		}
	}
}

/* ktap_wait_dev()'s ready(): the custom sensor's misc node is there. */
static int sensor_node(void *arg)
{
	struct dirent *d;
	DIR *dir = opendir("/dev");
	int found = 0;

	(void)arg;
	if (!dir)
		return KTAP_WAIT;
	while (!found && (d = readdir(dir)))
		if (!strncmp(d->d_name, "HID-SENSOR-2000e1.", 18)) {
			snprintf(devnode, sizeof(devnode), "/dev/%s", d->d_name);
			snprintf(sysdir, sizeof(sysdir),
				 "/sys/bus/platform/devices/%s", d->d_name);
			found = 1;
		}
	closedir(dir);
	return found ? KTAP_READY : KTAP_WAIT;
}

/* UHID_CREATE2 of the hub; the device child starts answering. */
static int create(void)
{
	static struct uhid_event ev = { .type = UHID_CREATE2 };

	st = mmap(NULL, sizeof(*st), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (st == MAP_FAILED)
		return 0;
	memcpy(st->feat, (unsigned char[FEAT_LEN]){ FEAT_ID, 0, 1, 100 },
	       FEAT_LEN);
	memcpy(st->input, (unsigned char[INPUT_LEN]){ INPUT_ID, VALUE & 0xff,
						       VALUE >> 8 }, INPUT_LEN);
	uhid = open("/dev/uhid", O_RDWR | O_CLOEXEC);
	if (uhid < 0 || pipe(stop_pipe))
		return 0;
	snprintf((char *)ev.u.create2.name, sizeof(ev.u.create2.name),
		 "bklfree sensor hub");
	ev.u.create2.rd_size = sizeof(rdesc);
	ev.u.create2.bus = BUS_VIRTUAL;
	ev.u.create2.vendor = 0x1d6b;
	ev.u.create2.product = 0x0104;
	memcpy(ev.u.create2.rd_data, rdesc, sizeof(rdesc));
	child = fork();
	if (child < 0)
		return 0;
	if (child == 0) {
		close(stop_pipe[1]);
		device_loop();
	}
	close(stop_pipe[0]);
	return uhid_write(&ev);
}

/* The MFD cell is bound by hid_sensor_custom and its misc node appears. */
static int bound(void)
{
	char link[512], target[256];
	ssize_t n;

	ktap_wait_dev(NULL, sensor_node, NULL, WAIT_MS);
	if (!devnode[0]) {
		ktap_diag("no /dev/HID-SENSOR-2000e1.*");
		return 0;
	}
	ktap_diag("%s", devnode);
	snprintf(link, sizeof(link), "%s/driver", sysdir);
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return 0;
	target[n] = '\0';
	return !strcmp(strrchr(target, '/') + 1, "hid_sensor_custom");
}

/* SYSDIR/GROUP/GROUP-ATTR holds WANT. */
static int attr_is(const char *group, const char *attr, const char *want)
{
	char path[512], buf[128];
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s/%s-%s", sysdir, group, group, attr);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ktap_perror(path) + 1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return ktap_perror(path) + 1;
	buf[n] = '\0';
	if (strcmp(buf, want))
		ktap_diag("%s-%s: \"%.*s\", expected \"%.*s\"", group, attr,
			  (int)strcspn(buf, "\n"), buf,
			  (int)strcspn(want, "\n"), want);
	return !strcmp(buf, want);
}

static int attr_write(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int err;

	if (fd < 0)
		return ktap_perror(path);
	n = write(fd, val, strlen(val));
	err = errno;
	close(fd);
	errno = err;
	return n == (ssize_t)strlen(val) ? 0 : -1;
}

/* The names come from hid_custom_usage_desc_table, sizes from the fields. */
static int descriptions(void)
{
	return attr_is("feature-0-200316", "name", "property-reporting-state\n") &
	       attr_is("feature-1-200319", "name", "property-power-state\n") &
	       attr_is("feature-2-20030e", "name", "property-report-interval\n") &
	       attr_is("feature-2-20030e", "size", "4\n") &
	       attr_is("feature-2-20030e", "maximum", "2147483647\n") &
	       attr_is("input-0-200544", "name", "data-field-custom-value_1\n") &
	       attr_is("input-0-200544", "size", "4\n") &
	       attr_is("input-0-200544", "minimum", "0\n");
}

/* A feature value read is a GET_REPORT: "100 " from the device. */
static int feature_read(void)
{
	int gets = st->gets;

	return attr_is("feature-2-20030e", "value", "100 \n") &&
	       attr_is("feature-0-200316", "value", "0 \n") &&
	       attr_is("feature-1-200319", "value", "1 \n") &&
	       st->gets == gets + 3 && !st->bad;
}

/* A feature value write is a SET_REPORT of the whole report 1. */
static int feature_write(void)
{
	char path[512];
	int sets = st->sets;

	snprintf(path, sizeof(path),
		 "%s/feature-2-20030e/feature-2-20030e-value", sysdir);
	if (attr_write(path, "250"))
		return 0;
	return st->sets == sets + 1 && st->feat[3] == 250 &&
	       attr_is("feature-2-20030e", "value", "250 \n");
}

/*
 * store_value: not a number is EINVAL, and so is any write to an input
 * value (its file is writable, like every "value", but store_value only
 * parses feature names).
 */
static int value_errors(void)
{
	char path[512];
	int ok;

	snprintf(path, sizeof(path),
		 "%s/feature-2-20030e/feature-2-20030e-value", sysdir);
	ok = attr_write(path, "fast") < 0 && errno == EINVAL;
	snprintf(path, sizeof(path),
		 "%s/input-0-200544/input-0-200544-value", sysdir);
	return ok && attr_write(path, "1") < 0 && errno == EINVAL;
}

/*
 * An input value read is a synchronous GET_REPORT of report 2: the answer
 * goes through sensor_hub_raw_event() to the pending request.
 */
static int input_read(void)
{
	return attr_is("input-0-200544", "value", "4660\n");
}

/* SYSDIR/enable_sensor holds WANT. */
static int enable_is(const char *want)
{
	char path[512], buf[16];
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/enable_sensor", sysdir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	close(fd);
	if (n < 0)
		return ktap_perror(path) + 1;
	buf[n] = '\0';
	if (strcmp(buf, want))
		ktap_diag("enable_sensor: \"%.*s\"", (int)strcspn(buf, "\n"), buf);
	return !strcmp(buf, want);
}

/*
 * enable_sensor 1: the hub opens the HID device (UHID_OPEN) and
 * set_power_report_state() sets D0 (selector index 0) and ALL_EVENTS
 * (index 1); 0 sets D4 and NO_EVENTS and closes it.
 */
static int enable(void)
{
	char path[512];
	int sets = st->sets, ok;

	snprintf(path, sizeof(path), "%s/enable_sensor", sysdir);
	if (attr_write(path, "1"))
		return 0;
	ok = st->opens == 1 && st->sets == sets + 2 && st->feat[1] == 1 &&
	     st->feat[2] == 0;
	if (!ok)
		ktap_diag("opens %d, sets %d, reporting %u, power %u",
			  st->opens, st->sets - sets, st->feat[1], st->feat[2]);
	return ok && enable_is("1\n") && attr_write(path, "x") < 0 &&
	       errno == EINVAL;
}

/* The misc node: one opener (EBUSY), lseek ESPIPE, short read EINVAL. */
static int misc_node(void)
{
	char buf[8];
	int fd = open(devnode, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	int fd2 = open(devnode, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	int busy = fd2 < 0 && errno == EBUSY;
	int ok = fd >= 0 && busy && lseek(fd, 0, SEEK_SET) < 0 &&
		 errno == ESPIPE && read(fd, buf, sizeof(buf)) < 0 &&
		 errno == EINVAL;

	close(fd2);
	close(fd);
	return ok;
}

/*
 * Opened, nothing queued: read EAGAIN; an input report through uhid makes
 * it readable within WAIT_MS, and the sample is the header (usage 0x2000e1,
 * raw_len 4) and the value.
 */
static int sample(void)
{
	static struct uhid_event ev = { .type = UHID_INPUT2 };
	unsigned char buf[64];
	struct pollfd p = { .events = POLLIN };
	uint32_t usage, raw_len, value;
	ssize_t n;
	int ok;

	p.fd = open(devnode, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	ok = p.fd >= 0 && read(p.fd, buf, sizeof(buf)) < 0 && errno == EAGAIN;
	ev.u.input2.size = INPUT_LEN;
	memcpy(ev.u.input2.data, (unsigned char[INPUT_LEN]){ INPUT_ID, 0x78,
							     0x56, 0x34, 0x12 },
	       INPUT_LEN);
	ok = ok && uhid_write(&ev) && poll(&p, 1, WAIT_MS) == 1 &&
	     (p.revents & POLLIN);
	n = ok ? read(p.fd, buf, sizeof(buf)) : -1;
	close(p.fd);
	if (n != 20) {
		ktap_diag("sample: %zd bytes, expected 16 + 4", n);
		return 0;
	}
	memcpy(&usage, buf, 4);
	memcpy(&raw_len, buf + 12, 4);
	memcpy(&value, buf + 16, 4);
	ktap_diag("sample: usage %#x, raw_len %u, value %#x", usage, raw_len,
		  value);
	return usage == 0x2000e1 && raw_len == 4 && value == 0x12345678;
}

/*
 * enable_sensor 0 sets D4, NO_EVENTS and closes the HID device. UHID_CLOSE
 * is queued without a reply: the feature reads after it are answered only
 * once the device has taken it.
 */
static int disable(void)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/enable_sensor", sysdir);
	if (attr_write(path, "0"))
		return 0;
	return enable_is("0\n") &
	       attr_is("feature-0-200316", "value", "0 \n") &
	       attr_is("feature-1-200319", "value", "1 \n") &&
	       st->closes == 1;
}

/* UHID_DESTROY: the platform devices and the misc node go. */
static int destroy(void)
{
	static struct uhid_event ev = { .type = UHID_DESTROY };
	struct stat s;
	int ok = uhid_write(&ev);

	ok = ok && stat(devnode, &s) < 0 && errno == ENOENT &&
	     stat(sysdir, &s) < 0 && errno == ENOENT;
	if (stop_pipe[1] >= 0)
		close(stop_pipe[1]);
	if (child > 0)
		waitpid(child, NULL, 0);
	close(uhid);
	return ok;
}

static const struct ktap_case cases[] = {
	{ "uhid: UHID_CREATE2 of a sensor hub with a custom sensor", create },
	{ "HID-SENSOR-2000e1 is bound by hid_sensor_custom, misc node made", bound },
	{ "sysfs: field names, sizes and limits", descriptions },
	{ "sysfs: feature values read through GET_REPORT", feature_read },
	{ "sysfs: a feature value write is a SET_REPORT", feature_write },
	{ "sysfs: a bad feature value and any input value write are EINVAL", value_errors },
	{ "sysfs: the input value read through a synchronous GET_REPORT", input_read },
	{ "enable_sensor 1: UHID_OPEN, D0 and all events set", enable },
	{ "misc node: one opener, lseek ESPIPE, short read EINVAL", misc_node },
	{ "misc node: an input report is read as a sample after poll", sample },
	{ "enable_sensor 0: D4, no events, UHID_CLOSE", disable },
	{ "uhid: UHID_DESTROY removes the sensor and its node", destroy },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(cases),
	.devices = (const char *const[]){ "/dev/uhid", NULL },
	.kconfig = (const char *const[]){ "CONFIG_UHID", "CONFIG_HID_SENSOR_HUB",
					  "CONFIG_HID_SENSOR_CUSTOM_SENSOR", NULL },
	.timeout = 50,
	.upstream = "patches/core 0105 (hid-sensor-custom: drop the dead .llseek)",
	.cases = cases,
};
