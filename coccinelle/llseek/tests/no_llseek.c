// no_llseek.cocci: every shape of a no_llseek initialiser the rule drops,
// and the #define body it cannot see (the generator removes that as text).

static const struct file_operations plain_fops = {
	.owner		= THIS_MODULE,
	.open		= plain_open,
	.llseek		= no_llseek,
	.read		= plain_read,
};

static const struct file_operations last_fops = {
	.open = last_open,
	.llseek = no_llseek
};

static const struct file_operations first_fops = {
	.llseek =	no_llseek,

	.open =		first_open,
};

static const struct file_operations one_line_fops = { .llseek = no_llseek, .open = one_open };

struct file_operations attr_fops __read_mostly = {
	.llseek = no_llseek,
	.read = attr_read,
};

static const struct file_operations ifdef_fops = {
	.open = ifdef_open,
#ifdef CONFIG_COMPAT
	.compat_ioctl = ifdef_ioctl,
#endif
	.llseek = no_llseek,
};

static const struct proc_ops plain_proc_ops = {
	.proc_open	= plain_proc_open,
	.proc_read	= seq_read,
	.proc_lseek	= no_llseek,
};

static const struct file_operations array_fops[2] = {
	{
		.open = array_open,
		.llseek = no_llseek,
	},
	{
		.open = array_open,
		.llseek = noop_llseek,
	},
};

static const struct file_operations kept_fops = {
	.open = kept_open,
	.llseek = noop_llseek,
};

#define MAKE_FOPS(name)					\
static const struct file_operations name##_fops = {	\
	.open	= name##_open,				\
	.llseek	= no_llseek,				\
}

MAKE_FOPS(macro);

static int use_no_llseek(struct file *file)
{
	return file->f_op->llseek == no_llseek;
}
