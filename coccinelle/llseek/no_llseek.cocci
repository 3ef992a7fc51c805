// SPDX-License-Identifier: GPL-2.0
/// Drop the .llseek = no_llseek and .proc_lseek = no_llseek initialisers.
///
/// no_llseek has been "#define no_llseek NULL" since 868941b14441 (6.0),
/// and a member left out of an initialiser is NULL too, so the line can go
/// without any change in behaviour: do_dentry_open() clears FMODE_LSEEK for
/// a NULL ->llseek and vfs_llseek() then fails with ESPIPE, exactly as
/// before.  This is the rule scripts/llseek/llseek-regen.sh applies to make the
/// patches/core removal series.  Initialisers inside a #define body are out
/// of Coccinelle's reach; the generator removes those lines by text and
/// says so.
//
// Confidence: High
// Keywords: no_llseek, llseek, proc_lseek
// Options: --no-includes --include-headers

virtual patch
virtual report

@drop depends on patch@
identifier fops;
symbol no_llseek;
@@
struct file_operations fops = {
-	.llseek = no_llseek,
};

@drop_proc depends on patch@
identifier fops;
symbol no_llseek;
@@
struct proc_ops fops = {
-	.proc_lseek = no_llseek,
};

@drop_elem depends on patch@
identifier fops;
symbol no_llseek;
@@
struct file_operations fops[...] = { ..., {
-	.llseek = no_llseek,
}, ...};

@found depends on report@
identifier fops;
position p;
symbol no_llseek;
@@
(
struct file_operations fops = { .llseek = no_llseek@p, };
|
struct proc_ops fops = { .proc_lseek = no_llseek@p, };
|
struct file_operations fops[...] = { ..., { .llseek = no_llseek@p, }, ...};
)

@script:python depends on report@
p << found.p;
@@
coccilib.report.print_report(p[0], "no_llseek is NULL: drop the initialiser")
