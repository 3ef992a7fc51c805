// fops_llseek.cocci: how the facts are found.  Open helpers are followed
// through the file, a position handed to a function of the file is
// followed too, anything defined elsewhere is "ext".

static int grab_stream(struct file *file)
{
	return stream_open(file->f_inode, file);
}

static int setup(struct inode *inode, struct file *file)
{
	return grab_stream(file);
}

static int chained_open(struct inode *inode, struct file *file)
{
	return setup(inode, file);
}

static ssize_t ignore_pos(struct file *file, char __user *buf, size_t len,
			  loff_t *off)
{
	return len;
}

static ssize_t handed_read(struct file *file, char __user *buf, size_t len,
			   loff_t *ppos)
{
	return ignore_pos(file, buf, len, ppos);
}

static ssize_t f_pos_read(struct file *file, char __user *buf, size_t len,
			  loff_t *ppos)
{
	file->f_pos += len;
	return len;
}

static ssize_t ki_pos_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	iocb->ki_pos += iov_iter_count(to);
	return 0;
}

static ssize_t passed_write_iter(struct kiocb *iocb, struct iov_iter *from)
{
	return elsewhere_write_iter(iocb, from);
}

static ssize_t filp_only_write_iter(struct kiocb *iocb, struct iov_iter *from)
{
	struct file *file = iocb->ki_filp;

	return file ? iov_iter_count(from) : 0;
}

static int list_dir(struct file *file, struct dir_context *ctx)
{
	return 0;
}

static const struct file_operations chained_fops = {
	.open = chained_open,
	.read = handed_read,
	.llseek = default_llseek,
};

static const struct file_operations direct_fops = {
	.open = nonseekable_open,
	.read = f_pos_read,
};

static const struct file_operations external_fops = {
	.open = elsewhere_open,
	.read = elsewhere_read,
	.read_iter = ki_pos_read_iter,
	.write_iter = passed_write_iter,
	.llseek = noop_llseek,
};

static const struct file_operations filp_only_fops = {
	.write_iter = filp_only_write_iter,
	.llseek = default_llseek,
};

static const struct file_operations dir_fops = {
	.iterate_shared = list_dir,
	.read = generic_read_dir,
	.llseek = default_llseek,
};

/* Coccinelle reads the first branch of an #ifdef/#else only. */
static const struct file_operations __maybe_unused ifdef_fops = {
	.read = handed_read,
#ifdef CONFIG_SEEK
	.llseek = default_llseek,
#else
	.llseek = noop_llseek,
#endif
};

static const struct file_operations table_fops[] = {
	{
		.open = chained_open,
		.llseek = noop_llseek,
	},
	{
		.read = f_pos_read,
		.llseek = default_llseek,
	},
	{ },
};

#if 0
static const struct file_operations dead_fops = {
	.read = f_pos_read,
};
#endif
