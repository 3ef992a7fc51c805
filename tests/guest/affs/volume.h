/* SPDX-License-Identifier: GPL-2.0 */
/*
 * volume.h - the affs profile's volumes in the guest, shared by
 * affs/readback and affs/modify (block/fio-verify finds and mounts its AFFS
 * targets with it too): which disk holds which flavour, finding
 * them by serial (disks.h), mounting, and a model of a volume's expected
 * content (tree.h, then what modify did) with a walk that compares the
 * mounted tree with it entry by entry.
 *
 * The volumes (qemu-devices/affs.profile):
 *   bklfree-ffs    virtio-blk   FFS                 read-write
 *   bklfree-ffsdc  virtio-blk   FFS dircache (intl) read-only: fs/affs
 *                               mounts DOS\4 and DOS\5 read-only
 *   bklfree-ofs    usb-storage  OFS international   read-write
 */
#ifndef BKLFREE_AFFS_VOLUME_H
#define BKLFREE_AFFS_VOLUME_H

#include <dirent.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "../disks.h"
#include "tree.h"

struct affs_volume {
	const char *serial;
	const char *name;	/* short, for case descriptions */
	int intl, dircache;
};

static const struct affs_volume affs_volumes[] = {
	{ "bklfree-ffs", "ffs", 0, 0 },
	{ "bklfree-ffsdc", "ffs-dircache", 1, 1 },
	{ "bklfree-ofs", "ofs-intl", 1, 0 },
};

#define AFFS_NR_VOLUMES ARRAY_SIZE(affs_volumes)

static const char *const affs_prefixes[] = { "sd", "vd", NULL };

static const struct disks_where affs_where = {
	.dir = "/sys/class/block",
	.devdir = "/dev",
	.prefixes = affs_prefixes,
	.by_kind = 1,
	.serial = disks_block_serial,
};

/*
 * Finds the disks of bklfree.disks= and sets node[i] for each volume of
 * affs_volumes ("" when absent). One KTAP case, every volume found;
 * returns how many volumes have a disk.
 */
static inline int affs_find(char node[][PATH_MAX])
{
	struct disk d[DISKS_MAX];
	int n = disks_expected(d, NULL), i, found = 0;
	size_t v;

	for (v = 0; v < AFFS_NR_VOLUMES; v++)
		node[v][0] = '\0';
	if (n > 0)
		disks_wait(d, n, &affs_where);
	for (v = 0; v < AFFS_NR_VOLUMES; v++)
		for (i = 0; i < n; i++)
			if (!strcmp(d[i].serial, affs_volumes[v].serial) &&
			    d[i].node[0]) {
				snprintf(node[v], PATH_MAX, "%s", d[i].node);
				found++;
			}
	ktap_ok(found == (int)AFFS_NR_VOLUMES, "%d of %d affs disks found",
		found, (int)AFFS_NR_VOLUMES);
	return found;
}

/*
 * affs_find(), then fn on each volume fs/affs mounts read-write (not the
 * dircache one, which it mounts read-only) that the tests write on.
 */
static inline void affs_each_writable(char node[][PATH_MAX],
				      void (*fn)(const struct affs_volume *,
						 const char *))
{
	size_t v;

	affs_find(node);
	for (v = 0; v < AFFS_NR_VOLUMES; v++)
		if (!affs_volumes[v].dircache)
			fn(&affs_volumes[v], node[v]);
}

/* Mounts node on /tmp/affs-NAME (made if missing); 1 on success. */
static inline int affs_mount(const char *node, const struct affs_volume *v,
			     unsigned long flags, char *dir, size_t size)
{
	snprintf(dir, size, "/tmp/affs-%s", v->name);
	if (mkdir(dir, 0755) && errno != EEXIST)
		return ktap_perror(dir) + 1;
	if (mount(node, dir, "affs", flags, NULL)) {
		ktap_diag("mount %s on %s: %s", node, dir, strerror(errno));
		return 0;
	}
	return 1;
}

/*
 * A volume's first case: mount node (read-only with MS_RDONLY in flags)
 * on /tmp/affs-NAME. 1 mounted, 0 not; when the volume has no disk, all
 * ncases cases of the volume fail here and the answer is -1.
 */
static inline int affs_mount_case(const struct affs_volume *v,
				  const char *node, unsigned long flags,
				  char *dir, size_t size, int ncases)
{
	int i, up;

	if (!node[0]) {
		for (i = 0; i < ncases; i++)
			ktap_ok(0, "%s: disk %s missing (case %d)", v->name,
				v->serial, i + 1);
		return -1;
	}
	up = affs_mount(node, v, flags, dir, size);
	ktap_ok(up, "%s: mount %s %s", v->name, node,
		flags & MS_RDONLY ? "read-only" : "read-write");
	return up;
}

/*
 * affs_find(), then a one-volume test's first case: mount the volume
 * called name read-write on /tmp/affs-NAME. Sets *vp (NULL when no volume
 * has that name) and node (its device, "" when missing); 1 mounted.
 */
static inline int affs_mount_named(const char *name,
				   const struct affs_volume **vp,
				   char node[PATH_MAX], char *dir, size_t size)
{
	char all[AFFS_NR_VOLUMES][PATH_MAX];
	size_t v;
	int up;

	affs_find(all);
	*vp = NULL;
	node[0] = '\0';
	for (v = 0; v < AFFS_NR_VOLUMES; v++)
		if (!strcmp(affs_volumes[v].name, name)) {
			*vp = &affs_volumes[v];
			snprintf(node, PATH_MAX, "%s", all[v]);
		}
	up = *vp && node[0] && affs_mount(node, *vp, 0, dir, size);
	ktap_ok(up, "%s: mount %s read-write", name, node);
	return up;
}

static inline int affs_umount(const char *dir)
{
	if (umount(dir)) {
		ktap_diag("umount %s: %s", dir, strerror(errno));
		return 0;
	}
	return 1;
}

/* One expected entry: a tree.h entry as it is now. */
struct affs_model_entry {
	char path[96];
	enum affs_tree_type type;
	unsigned int size;	/* files: bytes */
	unsigned int seed;	/* content: seeded bytes ... */
	unsigned int seeded;	/* ... up to here, zeros after */
	char target[96];	/* soft: readlink; hard: the other name */
	int gone;
	int seen;		/* scratch of the walk */
};

#define AFFS_MODEL_MAX 256

struct affs_model {
	struct affs_model_entry e[AFFS_MODEL_MAX];
	unsigned int n;
};

static inline struct affs_model_entry *affs_model_add(struct affs_model *m,
						      const char *path,
						      enum affs_tree_type type)
{
	struct affs_model_entry *e;

	if (m->n == AFFS_MODEL_MAX)
		ktap_bail("affs model full at '%s'", path);
	e = &m->e[m->n++];
	memset(e, 0, sizeof(*e));
	snprintf(e->path, sizeof(e->path), "%s", path);
	e->type = type;
	return e;
}

/* The model of a volume just made by affs-image. */
static inline void affs_model_init(struct affs_model *m)
{
	struct affs_tree_entry t;
	char path[96];
	unsigned int i;

	m->n = 0;
	for (i = 0; i < AFFS_TREE_COUNT; i++) {
		struct affs_model_entry *e;

		affs_tree_get(i, &t, path, sizeof(path));
		e = affs_model_add(m, path, t.type);
		e->size = e->seeded = t.size;
		e->seed = t.seed;
		if (t.type == AT_SOFT)
			snprintf(e->target, sizeof(e->target), "%s",
				 t.guest_target);
		if (t.type == AT_HARD)
			snprintf(e->target, sizeof(e->target), "%s",
				 t.target);
	}
}

static inline struct affs_model_entry *affs_model_find(struct affs_model *m,
						       const char *path)
{
	unsigned int i;

	for (i = 0; i < m->n; i++)
		if (!m->e[i].gone && !strcmp(m->e[i].path, path))
			return &m->e[i];
	return NULL;
}

/* What a walk found wrong, by kind; each also printed as a diagnostic. */
struct affs_diff {
	unsigned int missing, type, size, content, link, hard, extra, errors;
	unsigned int entries;
};

/* Content of file p against e: 1 when equal. */
static inline int affs_check_content(const char *p,
				     const struct affs_model_entry *e)
{
	static unsigned char got[65536], want[65536];
	unsigned long off = 0;
	uint32_t hg = 2166136261u, hw = 2166136261u;
	int fd = open(p, O_RDONLY), ok = 1;
	ssize_t n;

	if (fd < 0)
		return ktap_perror(p) + 1;
	while ((n = read(fd, got, sizeof(got))) > 0) {
		size_t i;

		memset(want, 0, (size_t)n);
		if (off < e->seeded)
			affs_tree_fill(want, off,
				       e->seeded - off < (unsigned long)n ?
				       e->seeded - off : (size_t)n, e->seed);
		for (i = 0; ok && i < (size_t)n; i++)
			if (got[i] != want[i]) {
				ktap_diag("%s: byte %lu is 0x%02x, expected "
					  "0x%02x", p, off + i, got[i],
					  want[i]);
				ok = 0;
			}
		hg = affs_tree_fnv(hg, got, (size_t)n);
		hw = affs_tree_fnv(hw, want, (size_t)n);
		off += (unsigned long)n;
	}
	if (n < 0)
		ok = ktap_perror(p) + 1;
	close(fd);
	if (off != e->size) {
		ktap_diag("%s: read %lu bytes, expected %u", p, off, e->size);
		ok = 0;
	}
	if (!ok)
		ktap_diag("%s: fnv1a 0x%08x, expected 0x%08x", p, hg, hw);
	return ok;
}

/* Compares the entry at root/e->path with e. */
static inline void affs_check_entry(const char *root,
				    const struct affs_model_entry *e,
				    struct affs_diff *d)
{
	char p[PATH_MAX], q[PATH_MAX], link[PATH_MAX];
	struct stat st, st2;
	ssize_t n;

	snprintf(p, sizeof(p), "%.200s/%s", root, e->path);
	if (lstat(p, &st)) {
		ktap_diag("%s: %s", p, strerror(errno));
		d->missing++;
		return;
	}
	switch (e->type) {
	case AT_DIR:
		if (!S_ISDIR(st.st_mode)) {
			ktap_diag("%s: mode 0%o, expected a directory", p,
				  st.st_mode);
			d->type++;
		}
		break;
	case AT_FILE:
	case AT_HARD:
		if (!S_ISREG(st.st_mode)) {
			ktap_diag("%s: mode 0%o, expected a file", p,
				  st.st_mode);
			d->type++;
			break;
		}
		if (e->type == AT_HARD) {
			snprintf(q, sizeof(q), "%.200s/%s", root, e->target);
			if (stat(q, &st2) || st2.st_ino != st.st_ino ||
			    st2.st_size != st.st_size) {
				ktap_diag("%s: not the same file as %s", p, q);
				d->hard++;
			}
			break;
		}
		if ((unsigned long long)st.st_size != e->size) {
			ktap_diag("%s: %lld bytes, expected %u", p,
				  (long long)st.st_size, e->size);
			d->size++;
		}
		if (!affs_check_content(p, e))
			d->content++;
		break;
	case AT_SOFT:
		if (!S_ISLNK(st.st_mode)) {
			ktap_diag("%s: mode 0%o, expected a soft link", p,
				  st.st_mode);
			d->type++;
			break;
		}
		n = readlink(p, link, sizeof(link) - 1);
		if (n < 0) {
			ktap_diag("readlink %s: %s", p, strerror(errno));
			d->link++;
			break;
		}
		link[n] = '\0';
		if (strcmp(link, e->target)) {
			ktap_diag("%s: links to '%s', expected '%s'", p, link,
				  e->target);
			d->link++;
		}
		break;
	}
}

/* readdir of root/rel, recursively: every name is a model entry, once. */
static inline void affs_walk_dir(const char *root, const char *rel,
				 struct affs_model *m, struct affs_diff *d,
				 int depth)
{
	char p[PATH_MAX], sub[PATH_MAX];
	struct dirent *de;
	DIR *dir;

	snprintf(p, sizeof(p), "%.200s%s%.1000s", root, *rel ? "/" : "", rel);
	dir = opendir(p);
	if (!dir) {
		ktap_diag("opendir %s: %s", p, strerror(errno));
		d->errors++;
		return;
	}
	while ((errno = 0, de = readdir(dir))) {
		struct affs_model_entry *e;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(sub, sizeof(sub), "%.1000s%s%s", rel,
			 *rel ? "/" : "", de->d_name);
		d->entries++;
		e = affs_model_find(m, sub);
		if (!e) {
			ktap_diag("readdir %s: unexpected '%s'", p, de->d_name);
			d->extra++;
			continue;
		}
		if (e->seen++) {
			ktap_diag("readdir %s: '%s' listed twice", p,
				  de->d_name);
			d->extra++;
		}
		if (e->type == AT_DIR && depth < 8)
			affs_walk_dir(root, sub, m, d, depth + 1);
	}
	if (errno) {
		ktap_diag("readdir %s: %s", p, strerror(errno));
		d->errors++;
	}
	closedir(dir);
}

/*
 * Compares the volume mounted on root with the model: every entry by
 * path (lstat, content, links), then readdir of the whole tree (no name
 * missing, extra or listed twice).
 */
static inline void affs_compare(const char *root, struct affs_model *m,
				struct affs_diff *d)
{
	unsigned int i;

	memset(d, 0, sizeof(*d));
	for (i = 0; i < m->n; i++) {
		m->e[i].seen = 0;
		if (!m->e[i].gone)
			affs_check_entry(root, &m->e[i], d);
	}
	affs_walk_dir(root, "", m, d, 0);
	for (i = 0; i < m->n; i++)
		if (!m->e[i].gone && !m->e[i].seen) {
			ktap_diag("readdir: '%s' not listed", m->e[i].path);
			d->missing++;
		}
}

static inline int affs_diff_clean(const struct affs_diff *d)
{
	return !(d->missing | d->type | d->size | d->content | d->link |
		 d->hard | d->extra | d->errors);
}

#endif /* BKLFREE_AFFS_VOLUME_H */
