// SPDX-License-Identifier: GPL-2.0
/*
 * drm-card - the DRM core's device and file operations on QEMU's
 * virtio-gpu-pci (the drm-virtio profile): drm_drv.c (the minors, the
 * stub open that finds a minor's driver fops), drm_file.c (drm_open and
 * the drm_file, drm_read, drm_poll, drm_release, the event queue) and the
 * ioctls behind them (drm_ioctl.c, drm_auth.c, the dumb buffer and GEM
 * mmap paths), driven from user space as a compositor would:
 *
 *   - DRM_IOCTL_VERSION: virtio_gpu 0.1.0, "virtio GPU", date "0"; a short
 *     name buffer gets the first bytes and the full length back;
 *   - GET_CAP (dumb buffers, monotonic timestamps; an unknown cap EINVAL),
 *     SET_CLIENT_CAP (universal planes, atomic; bad values EINVAL);
 *   - mastership: the first opener is master, a second opener's
 *     SET_MASTER is EBUSY and its SET_VERSION EACCES (DRM_MASTER); the
 *     master drops, the other takes it; GET_UNIQUE is empty until
 *     SET_VERSION 1.4 sets the bus id "pci:DDDD:BB:SS.F" of the card's
 *     PCI function;
 *   - MODE_GETRESOURCES: one CRTC, connector and encoder, no framebuffer,
 *     32..8192 pixels;
 *   - a dumb buffer: 64x64x32 gives pitch 256 and 16 KiB, other depths
 *     and empty sizes EINVAL; mapped with MAP_DUMB + mmap, written and
 *     read back; another drm_file's mmap of that offset is EACCES; after
 *     DESTROY_DUMB a second destroy is EINVAL and MAP_DUMB ENOENT;
 *   - events: with nothing queued a non-blocking read is EAGAIN and poll
 *     reports nothing; a mode set on the connector's first mode and a
 *     PAGE_FLIP with DRM_MODE_PAGE_FLIP_EVENT queue one flip-complete event
 *     (virtio-gpu sends it from its atomic flush): poll sees POLLIN within
 *     a bound, a read with room for less than the event returns 0 and
 *     leaves it queued, a full read returns the event with its user_data,
 *     and the queue is empty again;
 *   - lseek is noop_llseek (DEFINE_DRM_GEM_FOPS): the position stays 0;
 *   - /dev/dri/renderD128: VERSION and GET_CAP work, the ioctls without
 *     DRM_RENDER_ALLOW (GETRESOURCES, CREATE_DUMB, GET_UNIQUE,
 *     SET_MASTER) are EACCES;
 *   - debugfs dri/0/name ("virtio_gpu dev=... master=... unique=...") and
 *     dri/0/clients (one row per open file of this process, exactly one
 *     of them master).
 */
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "ktap.h"

#define CHECK(cond)							\
	((cond) ? 1 : (ktap_diag("%s:%d: %s failed, errno %d (%s)",	\
				 __func__, __LINE__, #cond, errno,	\
				 strerror(errno)), 0))
#define FAILS(call, e) ((call) < 0 && errno == (e))

#define CARD	"/dev/dri/card0"
#define RENDER	"/dev/dri/renderD128"
#define DEBUGFS	"/sys/kernel/debug/dri/0"
#define FLIP_WAIT_MS 10000	/* a modeset and a flip under TCG */

/* include/uapi/drm/drm.h and drm_mode.h (6.1). */
struct drm_version {
	int version_major, version_minor, version_patchlevel;
	size_t name_len;
	char *name;
	size_t date_len;
	char *date;
	size_t desc_len;
	char *desc;
};
struct drm_unique {
	size_t unique_len;
	char *unique;
};
struct drm_set_version {
	int drm_di_major, drm_di_minor, drm_dd_major, drm_dd_minor;
};
struct drm_get_cap {
	uint64_t capability, value;
};
struct drm_event {
	uint32_t type, length;
};
struct drm_event_vblank {
	struct drm_event base;
	uint64_t user_data;
	uint32_t tv_sec, tv_usec, sequence, crtc_id;
};
struct drm_mode_card_res {
	uint64_t fb_id_ptr, crtc_id_ptr, connector_id_ptr, encoder_id_ptr;
	uint32_t count_fbs, count_crtcs, count_connectors, count_encoders;
	uint32_t min_width, max_width, min_height, max_height;
};
struct drm_mode_modeinfo {
	uint32_t clock;
	uint16_t hdisplay, hsync_start, hsync_end, htotal, hskew;
	uint16_t vdisplay, vsync_start, vsync_end, vtotal, vscan;
	uint32_t vrefresh, flags, type;
	char name[32];
};
struct drm_mode_get_connector {
	uint64_t encoders_ptr, modes_ptr, props_ptr, prop_values_ptr;
	uint32_t count_modes, count_props, count_encoders;
	uint32_t encoder_id, connector_id, connector_type, connector_type_id;
	uint32_t connection, mm_width, mm_height, subpixel, pad;
};
struct drm_mode_fb_cmd {
	uint32_t fb_id, width, height, pitch, bpp, depth, handle;
};
struct drm_mode_crtc {
	uint64_t set_connectors_ptr;
	uint32_t count_connectors, crtc_id, fb_id, x, y, gamma_size, mode_valid;
	struct drm_mode_modeinfo mode;
};
struct drm_mode_crtc_page_flip {
	uint32_t crtc_id, fb_id, flags, reserved;
	uint64_t user_data;
};
struct drm_mode_create_dumb {
	uint32_t height, width, bpp, flags, handle, pitch;
	uint64_t size;
};
struct drm_mode_map_dumb {
	uint32_t handle, pad;
	uint64_t offset;
};
struct drm_mode_destroy_dumb {
	uint32_t handle;
};

#define DRM_IOCTL_BASE			'd'
#define DRM_IOCTL_VERSION		_IOWR('d', 0x00, struct drm_version)
#define DRM_IOCTL_GET_UNIQUE		_IOWR('d', 0x01, struct drm_unique)
#define DRM_IOCTL_SET_VERSION		_IOWR('d', 0x07, struct drm_set_version)
#define DRM_IOCTL_GET_CAP		_IOWR('d', 0x0c, struct drm_get_cap)
#define DRM_IOCTL_SET_CLIENT_CAP	_IOW('d', 0x0d, struct drm_get_cap)
#define DRM_IOCTL_SET_MASTER		_IO('d', 0x1e)
#define DRM_IOCTL_DROP_MASTER		_IO('d', 0x1f)
#define DRM_IOCTL_MODE_GETRESOURCES	_IOWR('d', 0xA0, struct drm_mode_card_res)
#define DRM_IOCTL_MODE_SETCRTC		_IOWR('d', 0xA2, struct drm_mode_crtc)
#define DRM_IOCTL_MODE_GETCONNECTOR	_IOWR('d', 0xA7, struct drm_mode_get_connector)
#define DRM_IOCTL_MODE_ADDFB		_IOWR('d', 0xAE, struct drm_mode_fb_cmd)
#define DRM_IOCTL_MODE_RMFB		_IOWR('d', 0xAF, unsigned int)
#define DRM_IOCTL_MODE_PAGE_FLIP	_IOWR('d', 0xB0, struct drm_mode_crtc_page_flip)
#define DRM_IOCTL_MODE_CREATE_DUMB	_IOWR('d', 0xB2, struct drm_mode_create_dumb)
#define DRM_IOCTL_MODE_MAP_DUMB		_IOWR('d', 0xB3, struct drm_mode_map_dumb)
#define DRM_IOCTL_MODE_DESTROY_DUMB	_IOWR('d', 0xB4, struct drm_mode_destroy_dumb)

#define DRM_CAP_DUMB_BUFFER		0x1
#define DRM_CAP_TIMESTAMP_MONOTONIC	0x6
#define DRM_CLIENT_CAP_UNIVERSAL_PLANES	2
#define DRM_CLIENT_CAP_ATOMIC		3
#define DRM_EVENT_FLIP_COMPLETE		0x02
#define DRM_MODE_PAGE_FLIP_EVENT	0x01
#define FLIP_USER_DATA			0xb1f1ee0000c0ffeeULL

static int master_fd = -1;	/* the first opener: master */
static char pci_name[64];	/* the card's PCI function, 0000:00:NN.F */

static int node(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC);

	if (fd < 0)
		ktap_diag("open %s: %s", path, strerror(errno));
	return fd;
}

static ssize_t slurp(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n, got = 0;

	if (fd < 0)
		return ktap_perror(path);
	while ((size_t)got < len - 1 &&
	       (n = read(fd, buf + got, len - 1 - (size_t)got)) > 0)
		got += n;
	close(fd);
	buf[got] = '\0';
	return got;
}

static int version(void)
{
	char name[32] = "", date[32] = "", desc[64] = "", shortname[4] = "";
	struct drm_version v = {
		.name_len = sizeof(name) - 1, .name = name,
		.date_len = sizeof(date) - 1, .date = date,
		.desc_len = sizeof(desc) - 1, .desc = desc,
	};
	struct drm_version s = { .name_len = 3, .name = shortname };
	char path[PATH_MAX], real[PATH_MAX];
	int ok;

	master_fd = node(CARD, O_RDWR | O_NONBLOCK);
	ok = CHECK(master_fd >= 0) && CHECK(!ioctl(master_fd, DRM_IOCTL_VERSION, &v));
	ktap_diag("%s %d.%d.%d '%s' date '%s'", name, v.version_major,
		  v.version_minor, v.version_patchlevel, desc, date);
	ok = ok && CHECK(!strcmp(name, "virtio_gpu")) && CHECK(v.name_len == 10) &&
	     CHECK(!strcmp(desc, "virtio GPU")) && CHECK(!strcmp(date, "0")) &&
	     CHECK(v.version_major == 0 && v.version_minor == 1 &&
		   v.version_patchlevel == 0);
	/* drm_copy_field: a short buffer gets a prefix, the full length back. */
	ok = ok && CHECK(!ioctl(master_fd, DRM_IOCTL_VERSION, &s)) &&
	     CHECK(s.name_len == 10) && CHECK(!strcmp(shortname, "vir"));
	snprintf(path, sizeof(path), "/sys/class/drm/card0/device");
	if (realpath(path, real) && strrchr(real, '/'))
		snprintf(pci_name, sizeof(pci_name), "%s", strrchr(real, '/') + 1);
	ktap_diag("card0 is PCI function %s", pci_name);
	return ok && CHECK(pci_name[0]);
}

static int caps(void)
{
	struct drm_get_cap c = { .capability = DRM_CAP_DUMB_BUFFER };
	int fd = master_fd;
	int ok = CHECK(!ioctl(fd, DRM_IOCTL_GET_CAP, &c)) && CHECK(c.value == 1);

	c.capability = DRM_CAP_TIMESTAMP_MONOTONIC;
	ok = ok && CHECK(!ioctl(fd, DRM_IOCTL_GET_CAP, &c)) && CHECK(c.value == 1);
	c.capability = 0x99;
	ok = ok && CHECK(FAILS(ioctl(fd, DRM_IOCTL_GET_CAP, &c), EINVAL));
	c.capability = DRM_CLIENT_CAP_UNIVERSAL_PLANES;
	c.value = 1;
	ok = ok && CHECK(!ioctl(fd, DRM_IOCTL_SET_CLIENT_CAP, &c));
	c.value = 2;
	ok = ok && CHECK(FAILS(ioctl(fd, DRM_IOCTL_SET_CLIENT_CAP, &c), EINVAL));
	c.capability = DRM_CLIENT_CAP_ATOMIC;
	c.value = 3;
	ok = ok && CHECK(FAILS(ioctl(fd, DRM_IOCTL_SET_CLIENT_CAP, &c), EINVAL));
	c.capability = 0x99;
	c.value = 1;
	ok = ok && CHECK(FAILS(ioctl(fd, DRM_IOCTL_SET_CLIENT_CAP, &c), EINVAL));
	return ok;
}

/* GET_UNIQUE: empty until SET_VERSION 1.4 sets the PCI bus id. */
static int unique(void)
{
	char buf[64] = "", want[80];
	struct drm_unique u = { .unique_len = sizeof(buf) - 1, .unique = buf };
	struct drm_set_version sv = { 1, 4, -1, -1 };
	int ok = CHECK(!ioctl(master_fd, DRM_IOCTL_GET_UNIQUE, &u)) &&
		 CHECK(u.unique_len == 0);

	ok = ok && CHECK(!ioctl(master_fd, DRM_IOCTL_SET_VERSION, &sv)) &&
	     CHECK(sv.drm_di_major == 1 && sv.drm_di_minor == 4 &&
		   sv.drm_dd_major == 0 && sv.drm_dd_minor == 1);
	u.unique_len = sizeof(buf) - 1;
	ok = ok && CHECK(!ioctl(master_fd, DRM_IOCTL_GET_UNIQUE, &u));
	buf[u.unique_len < sizeof(buf) ? u.unique_len : sizeof(buf) - 1] = '\0';
	snprintf(want, sizeof(want), "pci:%s", pci_name);
	ktap_diag("unique '%s', %zu bytes", buf, u.unique_len);
	/* Interface 2.0 does not exist. */
	sv = (struct drm_set_version){ 2, 0, -1, -1 };
	ok = ok && CHECK(FAILS(ioctl(master_fd, DRM_IOCTL_SET_VERSION, &sv), EINVAL));
	return ok && CHECK(!strcmp(buf, want)) && CHECK(u.unique_len == strlen(want));
}

/* Mastership moves from the first opener to a second one and back. */
static int master(void)
{
	struct drm_set_version sv = { -1, -1, -1, -1 };
	int b = node(CARD, O_RDWR);
	int ok = CHECK(b >= 0);

	ok = ok && CHECK(FAILS(ioctl(b, DRM_IOCTL_SET_VERSION, &sv), EACCES)) &&
	     CHECK(FAILS(ioctl(b, DRM_IOCTL_SET_MASTER), EBUSY)) &&
	     CHECK(FAILS(ioctl(b, DRM_IOCTL_DROP_MASTER), EINVAL));
	ok = ok && CHECK(!ioctl(master_fd, DRM_IOCTL_SET_MASTER)) &&
	     CHECK(!ioctl(master_fd, DRM_IOCTL_DROP_MASTER)) &&
	     CHECK(FAILS(ioctl(master_fd, DRM_IOCTL_DROP_MASTER), EINVAL)) &&
	     CHECK(FAILS(ioctl(master_fd, DRM_IOCTL_SET_VERSION, &sv), EACCES));
	ok = ok && CHECK(!ioctl(b, DRM_IOCTL_SET_MASTER)) &&
	     CHECK(!ioctl(b, DRM_IOCTL_SET_VERSION, &sv)) &&
	     CHECK(FAILS(ioctl(master_fd, DRM_IOCTL_SET_MASTER), EBUSY));
	/* Closing the master's file ends its mastership: take it back. */
	close(b);
	ok = ok && CHECK(!ioctl(master_fd, DRM_IOCTL_SET_MASTER));
	return ok;
}

static struct drm_mode_card_res res;
static uint32_t crtc_id, connector_id, encoder_id;

static int resources(void)
{
	struct drm_mode_card_res r = { 0 };
	int ok = CHECK(!ioctl(master_fd, DRM_IOCTL_MODE_GETRESOURCES, &r));

	ktap_diag("%u fbs, %u crtcs, %u connectors, %u encoders, %ux%u to %ux%u",
		  r.count_fbs, r.count_crtcs, r.count_connectors,
		  r.count_encoders, r.min_width, r.min_height, r.max_width,
		  r.max_height);
	ok = ok && CHECK(r.count_fbs == 0 && r.count_crtcs == 1 &&
			 r.count_connectors == 1 && r.count_encoders == 1) &&
	     CHECK(r.min_width == 32 && r.min_height == 32 &&
		   r.max_width == 8192 && r.max_height == 8192);
	res = r;
	res.crtc_id_ptr = (uintptr_t)&crtc_id;
	res.connector_id_ptr = (uintptr_t)&connector_id;
	res.encoder_id_ptr = (uintptr_t)&encoder_id;
	ok = ok && CHECK(!ioctl(master_fd, DRM_IOCTL_MODE_GETRESOURCES, &res)) &&
	     CHECK(crtc_id && connector_id && encoder_id);
	return ok;
}

static int dumb(void)
{
	struct drm_mode_create_dumb c = { .width = 64, .height = 64, .bpp = 32 };
	struct drm_mode_create_dumb bad = { .width = 64, .height = 64, .bpp = 16 };
	struct drm_mode_create_dumb empty = { .width = 0, .height = 64, .bpp = 32 };
	struct drm_mode_map_dumb m = { 0 };
	struct drm_mode_destroy_dumb d = { 0 };
	uint32_t *px = MAP_FAILED;
	unsigned int i;
	int b = node(CARD, O_RDWR);
	int ok = CHECK(b >= 0);

	ok = ok && CHECK(!ioctl(master_fd, DRM_IOCTL_MODE_CREATE_DUMB, &c)) &&
	     CHECK(c.pitch == 256 && c.size == 16384 && c.handle);
	ok = ok && CHECK(FAILS(ioctl(master_fd, DRM_IOCTL_MODE_CREATE_DUMB, &bad), EINVAL)) &&
	     CHECK(FAILS(ioctl(master_fd, DRM_IOCTL_MODE_CREATE_DUMB, &empty), EINVAL));
	m.handle = c.handle;
	ok = ok && CHECK(!ioctl(master_fd, DRM_IOCTL_MODE_MAP_DUMB, &m)) && CHECK(m.offset);
	if (ok)
		px = mmap(NULL, c.size, PROT_READ | PROT_WRITE, MAP_SHARED,
			  master_fd, (off_t)m.offset);
	ok = ok && CHECK(px != MAP_FAILED);
	for (i = 0; ok && i < c.size / 4; i++)
		px[i] = 0xff000000u | i;
	for (i = 0; ok && i < c.size / 4; i++)
		if (px[i] != (0xff000000u | i))
			ok = CHECK(px[i] == (0xff000000u | i));
	if (px != MAP_FAILED)
		munmap(px, c.size);
	/* The offset belongs to the creating drm_file only. */
	ok = ok && CHECK(mmap(NULL, c.size, PROT_READ, MAP_SHARED, b,
			      (off_t)m.offset) == MAP_FAILED && errno == EACCES);
	ok = ok && CHECK(mmap(NULL, 4096, PROT_READ, MAP_SHARED, master_fd,
			      (off_t)m.offset + (1 << 24)) == MAP_FAILED &&
			 errno == EINVAL);
	d.handle = c.handle;
	ok = ok && CHECK(!ioctl(master_fd, DRM_IOCTL_MODE_DESTROY_DUMB, &d)) &&
	     CHECK(FAILS(ioctl(master_fd, DRM_IOCTL_MODE_DESTROY_DUMB, &d), EINVAL)) &&
	     CHECK(FAILS(ioctl(master_fd, DRM_IOCTL_MODE_MAP_DUMB, &m), ENOENT));
	if (b >= 0)
		close(b);
	return ok;
}

static int read_eagain(int fd)
{
	char buf[256];

	return read(fd, buf, sizeof(buf)) < 0 && errno == EAGAIN;
}

static int no_events(void)
{
	struct pollfd p = { .fd = master_fd, .events = POLLIN | POLLOUT };

	return CHECK(read_eagain(master_fd)) &&
	       CHECK(poll(&p, 1, 0) == 0 && p.revents == 0);
}

/* A mode set and a page flip with an event, then the event read back. */
static int flip_event(void)
{
	static struct drm_mode_modeinfo modes[64];
	struct drm_mode_get_connector conn = { .connector_id = connector_id };
	struct drm_mode_create_dumb c = { .bpp = 32 };
	struct drm_mode_fb_cmd fb = { .bpp = 32, .depth = 24 };
	struct drm_mode_crtc set = { .crtc_id = crtc_id, .count_connectors = 1,
				     .mode_valid = 1 };
	struct drm_mode_crtc_page_flip flip = {
		.crtc_id = crtc_id, .flags = DRM_MODE_PAGE_FLIP_EVENT,
		.user_data = FLIP_USER_DATA,
	};
	struct drm_mode_destroy_dumb d = { 0 };
	struct drm_event_vblank ev;
	struct pollfd p = { .fd = master_fd, .events = POLLIN };
	long long start;
	char small[4];
	int ok;

	ok = CHECK(!ioctl(master_fd, DRM_IOCTL_MODE_GETCONNECTOR, &conn));
	conn.count_modes = conn.count_modes > 64 ? 64 : conn.count_modes;
	conn.modes_ptr = (uintptr_t)modes;
	conn.count_props = conn.count_encoders = 0;
	ok = ok && CHECK(conn.count_modes > 0) &&
	     CHECK(!ioctl(master_fd, DRM_IOCTL_MODE_GETCONNECTOR, &conn));
	if (!ok)
		return 0;
	ktap_diag("connector %u: connection %u, %u modes, first %s %ux%u",
		  connector_id, conn.connection, conn.count_modes, modes[0].name,
		  modes[0].hdisplay, modes[0].vdisplay);
	c.width = modes[0].hdisplay;
	c.height = modes[0].vdisplay;
	ok = CHECK(!ioctl(master_fd, DRM_IOCTL_MODE_CREATE_DUMB, &c));
	fb.width = c.width;
	fb.height = c.height;
	fb.pitch = c.pitch;
	fb.handle = c.handle;
	ok = ok && CHECK(!ioctl(master_fd, DRM_IOCTL_MODE_ADDFB, &fb));
	set.fb_id = fb.fb_id;
	set.set_connectors_ptr = (uintptr_t)&connector_id;
	set.mode = modes[0];
	ok = ok && CHECK(!ioctl(master_fd, DRM_IOCTL_MODE_SETCRTC, &set));
	/* A mode set sends no event. */
	ok = ok && CHECK(read_eagain(master_fd));
	flip.fb_id = fb.fb_id;
	ok = ok && CHECK(!ioctl(master_fd, DRM_IOCTL_MODE_PAGE_FLIP, &flip));
	start = ktap_now_ms();
	ok = ok && CHECK(poll(&p, 1, FLIP_WAIT_MS) == 1 && (p.revents & POLLIN));
	ktap_diag("flip event after %lld ms", ktap_now_ms() - start);
	/* drm_read: an event that does not fit stays queued, 0 bytes read. */
	ok = ok && CHECK(read(master_fd, small, sizeof(small)) == 0) &&
	     CHECK(poll(&p, 1, 0) == 1 && (p.revents & POLLIN));
	memset(&ev, 0, sizeof(ev));
	ok = ok && CHECK(read(master_fd, &ev, sizeof(ev)) == (ssize_t)sizeof(ev));
	ktap_diag("event type %u length %u user_data 0x%llx crtc %u",
		  ev.base.type, ev.base.length, (unsigned long long)ev.user_data,
		  ev.crtc_id);
	ok = ok && CHECK(ev.base.type == DRM_EVENT_FLIP_COMPLETE) &&
	     CHECK(ev.base.length == sizeof(ev)) &&
	     CHECK(ev.user_data == FLIP_USER_DATA) && CHECK(ev.crtc_id == crtc_id);
	ok = ok && CHECK(read_eagain(master_fd));
	/* Switch the CRTC off before the framebuffer goes. */
	memset(&set, 0, sizeof(set));
	set.crtc_id = crtc_id;
	ok = ok && CHECK(!ioctl(master_fd, DRM_IOCTL_MODE_SETCRTC, &set));
	ok = ok && CHECK(!ioctl(master_fd, DRM_IOCTL_MODE_RMFB, &fb.fb_id));
	d.handle = c.handle;
	ok = ok && CHECK(!ioctl(master_fd, DRM_IOCTL_MODE_DESTROY_DUMB, &d));
	return ok;
}

/* noop_llseek: every lseek answers the unchanged position, 0. */
static int seek(void)
{
	return CHECK(lseek(master_fd, 4096, SEEK_SET) == 0) &&
	       CHECK(lseek(master_fd, 0, SEEK_END) == 0) &&
	       CHECK(lseek(master_fd, 10, SEEK_CUR) == 0);
}

static int render(void)
{
	char name[32] = "";
	struct drm_version v = { .name_len = sizeof(name) - 1, .name = name };
	struct drm_get_cap c = { .capability = DRM_CAP_DUMB_BUFFER };
	struct drm_mode_card_res r = { 0 };
	struct drm_mode_create_dumb dumb = { .width = 64, .height = 64, .bpp = 32 };
	char buf[64];
	struct drm_unique u = { .unique_len = sizeof(buf), .unique = buf };
	int fd = node(RENDER, O_RDWR | O_NONBLOCK);
	int ok = CHECK(fd >= 0) && CHECK(!ioctl(fd, DRM_IOCTL_VERSION, &v)) &&
		 CHECK(!strcmp(name, "virtio_gpu")) &&
		 CHECK(!ioctl(fd, DRM_IOCTL_GET_CAP, &c));

	ok = ok && CHECK(FAILS(ioctl(fd, DRM_IOCTL_MODE_GETRESOURCES, &r), EACCES)) &&
	     CHECK(FAILS(ioctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &dumb), EACCES)) &&
	     CHECK(FAILS(ioctl(fd, DRM_IOCTL_GET_UNIQUE, &u), EACCES)) &&
	     CHECK(FAILS(ioctl(fd, DRM_IOCTL_SET_MASTER), EACCES)) &&
	     CHECK(read_eagain(fd));
	if (fd >= 0)
		close(fd);
	return ok;
}

static int debugfs_name(void)
{
	char buf[256], want[256];
	int ok = CHECK(slurp(DEBUGFS "/name", buf, sizeof(buf)) > 0);

	ktap_diag("name: %.*s", (int)strcspn(buf, "\n"), buf);
	snprintf(want, sizeof(want), "virtio_gpu dev=%s master=pci:%s unique=%s\n",
		 pci_name, pci_name, pci_name);
	return ok && CHECK(!strcmp(buf, want));
}

/* One row per open drm_file of this process: card0 twice, one master. */
static int debugfs_clients(void)
{
	char buf[2048], *save, *line;
	int b = node(CARD, O_RDWR);
	int ok = CHECK(b >= 0) && CHECK(slurp(DEBUGFS "/clients", buf, sizeof(buf)) > 0);
	int rows = 0, masters = 0, header = 0;

	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char comm[32], m, a;
		int pid, dev, uid;
		unsigned int magic;

		ktap_diag("clients: %s", line);
		if (sscanf(line, "%31s %d %d %c %c %d %u", comm, &pid, &dev, &m,
			   &a, &uid, &magic) != 7) {
			header += !!strstr(line, "command");
			continue;
		}
		if (pid != getpid())
			continue;
		rows++;
		masters += m == 'y';
		ok = ok && CHECK(dev == 0 && uid == 0 && a == 'y');
	}
	if (b >= 0)
		close(b);
	return ok && CHECK(header == 1) && CHECK(rows == 2) && CHECK(masters == 1);
}

static const struct ktap_case cases[] = {
	{ "card0 VERSION: virtio_gpu 0.1.0, a short buffer gets the full length", version },
	{ "GET_CAP dumb buffer and monotonic, SET_CLIENT_CAP, bad caps and values EINVAL", caps },
	{ "GET_UNIQUE empty until SET_VERSION 1.4 sets pci:BUSID, 2.0 EINVAL", unique },
	{ "mastership: second opener EBUSY and EACCES, drop and take, back on close", master },
	{ "MODE_GETRESOURCES: 1 crtc, connector, encoder, no fb, 32 to 8192", resources },
	{ "dumb 64x64x32: pitch 256, 16 KiB, mmap round trip, other file EACCES, destroy", dumb },
	{ "no events: non-blocking read EAGAIN, poll quiet", no_events },
	{ "SETCRTC and PAGE_FLIP with an event: poll, short read 0, the event, EAGAIN", flip_event },
	{ "lseek is noop_llseek: the position stays 0", seek },
	{ "renderD128: VERSION and GET_CAP, non-render ioctls EACCES, read EAGAIN", render },
	{ "debugfs dri/0/name: driver, dev, master and unique", debugfs_name },
	{ "debugfs dri/0/clients: this process twice, one master", debugfs_clients },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(cases),
	.devices = (const char *const[]){ CARD, RENDER, NULL },
	.kconfig = (const char *const[]){ "CONFIG_DRM_VIRTIO_GPU", "CONFIG_DEBUG_FS", NULL },
	.timeout = 60,
	.upstream = "patches/core 0017 (drivers/gpu no_llseek); drm_drv.c seed path",
	.cases = cases,
};
