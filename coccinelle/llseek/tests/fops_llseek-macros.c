// fops_llseek.cocci: initialisers that a macro of 6.1's headers defines
// (the MACROS table of the rule).  Each use gets a row of class "macro"
// named as the macro names its initialiser, with the members of the
// definition; the action gives the class of the definition's initialiser,
// to be dealt with once, in the header:
//   DEFINE_SHOW_ATTRIBUTE, DEFINE_SEQ_ATTRIBUTE, DEFINE_PROC_SHOW_ATTRIBUTE:
//     seq_read with seq_lseek: consistent;
//   DEFINE_SIMPLE_ATTRIBUTE[_SIGNED]: generic_file_llseek behind an open
//     that calls nonseekable_open(): nonseekable-but-llseek-set;
//   DEFINE_DEBUGFS_ATTRIBUTE[_SIGNED]: no_llseek (the removal drops it
//     from the definition);
//   DEFINE_DRM_GEM_FOPS, DEFINE_DRM_GEM_DMA_FOPS: noop_llseek, drm_read
//     defined elsewhere: consistent.

static int stats_show(struct seq_file *m, void *v)
{
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(stats);

static const struct seq_operations ring_sops = {
	.start = ring_start,
	.next = ring_next,
	.stop = ring_stop,
	.show = ring_show,
};
DEFINE_SEQ_ATTRIBUTE(ring);

static int version_show(struct seq_file *m, void *v)
{
	return 0;
}
DEFINE_PROC_SHOW_ATTRIBUTE(version);

static int level_get(void *data, u64 *val)
{
	*val = 1;
	return 0;
}

static int level_set(void *data, u64 val)
{
	return 0;
}

DEFINE_SIMPLE_ATTRIBUTE(level_fops, level_get, level_set, "%llu\n");
DEFINE_SIMPLE_ATTRIBUTE_SIGNED(offset_fops, level_get, level_set, "%lld\n");
DEFINE_DEBUGFS_ATTRIBUTE(dbg_level_fops, level_get, NULL, "%llu\n");
DEFINE_DEBUGFS_ATTRIBUTE_SIGNED(dbg_offset_fops, NULL, level_set, "%lld\n");

#ifdef CONFIG_DRM
DEFINE_DRM_GEM_FOPS(gem_fops);
#endif
DEFINE_DRM_GEM_DMA_FOPS(dma_fops);

/* Another declarer: no row. */
static DEFINE_MUTEX(stats_lock);

/* Inside a #define body: Coccinelle does not read it, no row. */
#define LOCAL_ATTR(name) DEFINE_SHOW_ATTRIBUTE(name)

/* Beside a plain initialiser, which keeps its own row. */
static const struct file_operations plain_fops = {
	.open = stats_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};
