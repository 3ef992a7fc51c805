// fops_llseek.cocci: one initialiser per class, in the order the rule
// tries them (no_llseek first: it wins over every other class).

static ssize_t pos_read(struct file *file, char __user *buf, size_t len,
			loff_t *ppos)
{
	return simple_read_from_buffer(buf, len, ppos, "x\n", 2);
}

static ssize_t nopos_read(struct file *file, char __user *buf, size_t len,
			  loff_t *ppos)
{
	return len;
}

static ssize_t nopos_write(struct file *file, const char __user *buf,
			   size_t len, loff_t *ppos)
{
	return len;
}

static int unseekable_open(struct inode *inode, struct file *file)
{
	return nonseekable_open(inode, file);
}

static int plain_open(struct inode *inode, struct file *file)
{
	file->private_data = inode->i_private;
	return 0;
}

static const struct file_operations no_llseek_fops = {
	.open = unseekable_open,
	.read = pos_read,
	.llseek = no_llseek,
};

static const struct file_operations nonseekable_fops = {
	.open = unseekable_open,
	.read = nopos_read,
	.llseek = noop_llseek,
};

static const struct file_operations seq_default_fops = {
	.open = plain_open,
	.read = seq_read,
	.llseek = default_llseek,
};

static const struct file_operations seq_unset_fops = {
	.open = plain_open,
	.read_iter = seq_read_iter,
};

static const struct file_operations noop_pos_fops = {
	.open = plain_open,
	.read = pos_read,
	.llseek = noop_llseek,
};

static const struct file_operations default_unused_fops = {
	.open = plain_open,
	.read = nopos_read,
	.write = nopos_write,
	.llseek = default_llseek,
};

static const struct file_operations default_used_fops = {
	.open = plain_open,
	.read = pos_read,
	.llseek = default_llseek,
};

static const struct file_operations seq_fops = {
	.open = plain_open,
	.read = seq_read,
	.llseek = seq_lseek,
};

static const struct file_operations unset_fops = {
	.open = plain_open,
	.read = pos_read,
};

static const struct file_operations null_fops = {
	.read = nopos_read,
	.llseek = NULL,
};

static const struct proc_ops seq_proc_ops = {
	.proc_open = plain_open,
	.proc_read = seq_read,
	.proc_lseek = seq_lseek,
};

static const struct proc_ops no_llseek_proc_ops = {
	.proc_read = nopos_read,
	.proc_lseek = no_llseek,
};
