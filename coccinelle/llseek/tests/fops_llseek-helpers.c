// fops_llseek.cocci: the position reaches a helper of the same file.  The
// loff_t * or the struct kiocb * may be any parameter of the helper, not
// only the last or the first one, and a read may hand its struct file * to
// a helper that moves file->f_pos.  Each fops here but the last two sets
// default_llseek or noop_llseek, so a missed use shows as the class
// default-llseek-unused-pos (or consistent for noop_llseek) instead of
// consistent (or noop-but-uses-pos).

/* The loff_t * in the middle, as wlcore's wl1271_format_buffer(). */
static ssize_t format_buffer(char __user *buf, size_t count, loff_t *ppos,
			     char *fmt, ...)
{
	return simple_read_from_buffer(buf, count, ppos, fmt, 2);
}

static ssize_t middle_read(struct file *file, char __user *buf, size_t count,
			   loff_t *ppos)
{
	return format_buffer(buf, count, ppos, "%d\n", 1);
}

static const struct file_operations middle_fops = {
	.read = middle_read,
	.llseek = default_llseek,
};

/* The loff_t * first. */
static ssize_t first_check(loff_t *pos, size_t count)
{
	return *pos ? -EINVAL : count;
}

static ssize_t first_write(struct file *file, const char __user *buf,
			   size_t count, loff_t *ppos)
{
	return first_check(ppos, count);
}

static const struct file_operations first_fops = {
	.write = first_write,
	.llseek = default_llseek,
};

/*
 * Two helpers deep, the outer one with the loff_t * before another
 * parameter, as apparmor's policy_update() and amdgpu's
 * amdgpu_ras_debugfs_ctrl_parse_data(); noop_llseek here, so the class
 * is noop-but-uses-pos once the use is seen.
 */
static ssize_t copy_in(const char __user *buf, size_t count, loff_t *pos)
{
	if (*pos)
		return -ESPIPE;
	*pos = count;
	return count;
}

static ssize_t update(u32 mask, const char __user *buf, size_t count,
		      loff_t *pos, void *ns)
{
	return copy_in(buf, count, pos);
}

static ssize_t nested_write(struct file *file, const char __user *buf,
			    size_t count, loff_t *ppos)
{
	return update(0, buf, count, ppos, file->private_data);
}

static const struct file_operations nested_fops = {
	.write = nested_write,
	.llseek = noop_llseek,
};

/* The struct kiocb * second. */
static ssize_t iter_helper(struct file *file, struct kiocb *iocb,
			   struct iov_iter *to)
{
	iocb->ki_pos += iov_iter_count(to);
	return 0;
}

static ssize_t second_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	return iter_helper(iocb->ki_filp, iocb, to);
}

static const struct file_operations second_fops = {
	.read_iter = second_read_iter,
	.llseek = default_llseek,
};

/* The struct file * handed to a helper that moves file->f_pos. */
static void advance(struct file *file, size_t count)
{
	file->f_pos += count;
}

static ssize_t filp_read(struct file *file, char __user *buf, size_t count,
			 loff_t *ppos)
{
	advance(file, count);
	return count;
}

static const struct file_operations filp_fops = {
	.read = filp_read,
	.llseek = default_llseek,
};

/* Two levels of struct file * helpers, the file not the first argument. */
static ssize_t rewind_filp(size_t count, struct file *filp)
{
	advance(filp, count);
	return 0;
}

static ssize_t deep_write(struct file *file, const char __user *buf,
			  size_t count, loff_t *ppos)
{
	return rewind_filp(count, file);
}

static const struct file_operations deep_fops = {
	.write = deep_write,
	.llseek = default_llseek,
};

/*
 * Left alone: the struct file * handed to a helper of the file that does
 * not touch f_pos, and to a function defined elsewhere (which is not
 * assumed to use the position: nearly every function takes the file).
 */
static int check_owner(struct file *file)
{
	return file->private_data ? 0 : -ENODEV;
}

static ssize_t owner_write(struct file *file, const char __user *buf,
			   size_t count, loff_t *ppos)
{
	int ret = check_owner(file);

	return ret ? ret : elsewhere_touch(file, count);
}

static const struct file_operations owner_fops = {
	.write = owner_write,
	.llseek = default_llseek,
};

/* Left alone: a loff_t * in the middle of a helper that ignores it. */
static ssize_t ignore_middle(const char __user *buf, loff_t *pos, size_t n)
{
	return n;
}

static ssize_t ignoring_write(struct file *file, const char __user *buf,
			      size_t count, loff_t *ppos)
{
	return ignore_middle(buf, ppos, count);
}

static const struct file_operations ignoring_fops = {
	.write = ignoring_write,
	.llseek = default_llseek,
};

/*
 * The position handed through a function pointer parameter, as
 * gpiolib-cdev's call_read_locked(): the call stands for the functions of
 * the file handed to the wrapper.  Here they ignore the position, so
 * noop_llseek is consistent...
 */
typedef ssize_t (*read_fn)(struct file *, char __user *, size_t, loff_t *);

static ssize_t call_locked(struct file *file, char __user *buf, size_t count,
			   loff_t *ppos, struct mutex *lock, read_fn func)
{
	ssize_t ret;

	mutex_lock(lock);
	ret = func(file, buf, count, ppos);
	mutex_unlock(lock);
	return ret;
}

static ssize_t queue_read_unlocked(struct file *file, char __user *buf,
				   size_t count, loff_t *ppos)
{
	return count;
}

static ssize_t queue_read(struct file *file, char __user *buf, size_t count,
			  loff_t *ppos)
{
	return call_locked(file, buf, count, ppos, file->private_data,
			   queue_read_unlocked);
}

static const struct file_operations queue_fops = {
	.read = queue_read,
	.llseek = noop_llseek,
};

/* ...and when one of them uses it, the wrapper does. */
static ssize_t text_read_unlocked(struct file *file, char __user *buf,
				  size_t count, loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, "text\n", 5);
}

static ssize_t call_raw(struct file *file, loff_t *ppos,
			ssize_t (*func)(struct file *, char __user *, size_t,
					loff_t *))
{
	return func(file, NULL, 0, ppos);
}

static ssize_t text_read(struct file *file, char __user *buf, size_t count,
			 loff_t *ppos)
{
	return call_raw(file, ppos, text_read_unlocked);
}

static const struct file_operations text_fops = {
	.read = text_read,
	.llseek = noop_llseek,
};
