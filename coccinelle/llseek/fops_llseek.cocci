// SPDX-License-Identifier: GPL-2.0
/// Classify the llseek of every struct file_operations and struct proc_ops
/// initialiser: print one tab-separated row per initialiser (per element
/// for arrays) with its llseek, its open function and whether that open
/// makes the file unseekable, whether read, write, read_iter and write_iter
/// use the file position, whether it is a seq_file, a class and the action
/// the class proposes. scripts/llseek/llseek-report.sh adds the header, sorts the
/// rows and counts the classes; coccinelle/llseek/README.md lists the
/// columns and the classes.
///
/// Facts come from the file alone: an open "makes the file unseekable" when
/// it calls nonseekable_open() or stream_open(), directly or through a
/// function of the same file that does (as the nested_open rule of the
/// 2.6.37 "llseek: automatically add .llseek fop" semantic patch); a read or
/// write "uses the position" when its loff_t * parameter or some ->f_pos
/// appears in its body, a read_iter or write_iter when its kiocb's ->ki_pos
/// or some ->f_pos does.  A loff_t * or kiocb handed to a function of the
/// same file counts when that function uses its own position (the
/// parameter may be anywhere in either list), handed to any other function
/// it counts as used.  A struct file * handed to a function of the same
/// file counts when that function uses the position (a helper moving
/// file->f_pos); handed to any other function it does not.  A call
/// through a parameter (a function pointer) stands for the functions of
/// the file handed to that function as arguments.  Functions
/// defined elsewhere are "ext", except the few library functions of the
/// table in the initialize rule.
//
// Confidence: Moderate
//   The position facts are syntactic: a struct file * handed to a function
//   of another file, or reached as iocb->ki_filp, is not followed, and an
//   open that makes the file unseekable on one branch only counts as doing
//   it.  Every class but no_llseek is a proposal for review.
// Keywords: llseek, no_llseek, noop_llseek, default_llseek, seq_lseek,
//   nonseekable_open, stream_open
// Options: --no-includes --include-headers

virtual report

@initialize:python@
@@
# Library functions used directly as members, and whether they use the
# file position (everything else not defined in the file is "ext").
LIBRARY_POS = {
	"seq_read": "yes", "seq_read_iter": "yes",
	"simple_attr_read": "yes", "simple_attr_write": "yes",
	"debugfs_attr_read": "yes", "debugfs_attr_write": "yes",
	"simple_attr_write_signed": "yes", "debugfs_attr_write_signed": "yes",
	"generic_file_read_iter": "yes", "generic_file_write_iter": "yes",
	"generic_read_dir": "no",
}
UNSEEKABLE_OPEN = ("nonseekable_open", "stream_open")
NO_SEEK = ("unset", "NULL")
# Members that take the position from f_pos besides the four columns.
OTHER_POS = ("iterate", "iterate_shared", "splice_read", "splice_write")
# proc_ops members, as the file_operations member they stand for.
PROC = {"proc_lseek": "llseek", "proc_open": "open", "proc_read": "read",
	"proc_write": "write", "proc_read_iter": "read_iter"}

# Macros of 6.1's headers whose #define body holds a whole initialiser
# (Coccinelle does not read #define bodies): the definition, the kind and
# name of what a use defines, its members and whether its open makes the
# file unseekable, all read off the definition.  "{0}" is the macro's
# first argument.  A use gets a row of class "macro" whose action gives
# the class of the definition's initialiser: whatever it asks for is done
# once, in the header, not at each use.
#   DEFINE_SHOW_ATTRIBUTE, DEFINE_SEQ_ATTRIBUTE (include/linux/seq_file.h):
#     seq_read with seq_lseek, open single_open() / seq_open(): consistent.
#   DEFINE_PROC_SHOW_ATTRIBUTE (same header): the proc_ops form of it.
#   DEFINE_SIMPLE_ATTRIBUTE[_SIGNED] (include/linux/fs.h, through
#     DEFINE_SIMPLE_ATTRIBUTE_XSIGNED): open is simple_attr_open(), which
#     ends with nonseekable_open(), yet .llseek = generic_file_llseek:
#     nonseekable-but-llseek-set, dead code in the definition.
#   DEFINE_DEBUGFS_ATTRIBUTE[_SIGNED] (include/linux/debugfs.h, through
#     DEFINE_DEBUGFS_ATTRIBUTE_XSIGNED): simple_attr_open() too, and
#     .llseek = no_llseek, which the no_llseek removal drops from the
#     definition as text.
#   DEFINE_DRM_GEM_FOPS (include/drm/drm_gem.h, through DRM_GEM_FOPS) and
#     DEFINE_DRM_GEM_DMA_FOPS (include/drm/drm_gem_dma_helper.h): drm_open,
#     drm_read (an event queue, defined elsewhere) and noop_llseek.
def simple_attr(header, definition, llseek, read, write):
	return (header, definition, "file_operations", "{0}",
		{"open": "{0}_open", "read": read, "write": write,
		 "llseek": llseek}, "yes")
def seq_show(definition, kind, name):
	return ("include/linux/seq_file.h", definition, kind, name,
		{"open": "{0}_open", "read": "seq_read", "llseek": "seq_lseek"},
		"no")
def drm_gem(header, definition):
	return (header, definition, "file_operations", "{0}",
		{"open": "drm_open", "read": "drm_read", "llseek": "noop_llseek"},
		"ext")
MACROS = {
	"DEFINE_SHOW_ATTRIBUTE": seq_show("DEFINE_SHOW_ATTRIBUTE",
		"file_operations", "{0}_fops"),
	"DEFINE_SEQ_ATTRIBUTE": seq_show("DEFINE_SEQ_ATTRIBUTE",
		"file_operations", "{0}_fops"),
	"DEFINE_PROC_SHOW_ATTRIBUTE": seq_show("DEFINE_PROC_SHOW_ATTRIBUTE",
		"proc_ops", "{0}_proc_ops"),
	"DEFINE_SIMPLE_ATTRIBUTE": simple_attr("include/linux/fs.h",
		"DEFINE_SIMPLE_ATTRIBUTE_XSIGNED", "generic_file_llseek",
		"simple_attr_read", "simple_attr_write"),
	"DEFINE_SIMPLE_ATTRIBUTE_SIGNED": simple_attr("include/linux/fs.h",
		"DEFINE_SIMPLE_ATTRIBUTE_XSIGNED", "generic_file_llseek",
		"simple_attr_read", "simple_attr_write_signed"),
	"DEFINE_DEBUGFS_ATTRIBUTE": simple_attr("include/linux/debugfs.h",
		"DEFINE_DEBUGFS_ATTRIBUTE_XSIGNED", "no_llseek",
		"debugfs_attr_read", "debugfs_attr_write"),
	"DEFINE_DEBUGFS_ATTRIBUTE_SIGNED": simple_attr("include/linux/debugfs.h",
		"DEFINE_DEBUGFS_ATTRIBUTE_XSIGNED", "no_llseek",
		"debugfs_attr_read", "debugfs_attr_write_signed"),
	"DEFINE_DRM_GEM_FOPS": drm_gem("include/drm/drm_gem.h",
		"DRM_GEM_FOPS"),
	"DEFINE_DRM_GEM_DMA_FOPS": drm_gem("include/drm/drm_gem_dma_helper.h",
		"DEFINE_DRM_GEM_DMA_FOPS"),
}

defined = set()		# (file, function) of every function defined here
params = {}		# (file, function) -> names of its position parameters
files = {}		# (file, function) -> names of its struct file * parameters
formals = {}		# (file, function) -> names of all its parameters
handed = {}		# (file, function) -> functions of the file handed to it
occurrences = {}	# (file, function, parameter or "->f_pos") -> (line, column)s
arguments = set()	# (file, line, column) of a parameter handed to a call
passes = {}		# (file, function, parameter) -> functions it is handed to
calls = {}		# file -> set of (caller, callee)
members = {}		# (file, line) -> {member: set of values}
closed = {}		# file -> functions that make the file unseekable

def add_member(key, fld, value):
	fld = PROC.get(fld, fld)
	members.setdefault(key, {}).setdefault(fld, set()).add(value)

def add_occurrence(q, name):
	key = (q[0].file, q[0].current_element, name)
	occurrences.setdefault(key, set()).add((q[0].line, q[0].column))

def add_pass(q, name, g):
	arguments.add((q[0].file, q[0].line, q[0].column))
	key = (q[0].file, q[0].current_element, name)
	passes.setdefault(key, set()).add(g)

def used_directly(file, f, name):
	return any((file, line, column) not in arguments
		   for (line, column) in occurrences.get((file, f, name), ()))

# uses_pos(FILE, F): F, defined in FILE, uses the file position: itself
# (some ->f_pos, its loff_t * or its kiocb's ->ki_pos), by handing a
# position parameter to a function defined elsewhere (unless LIBRARY_POS
# says no), or by handing a position parameter or its struct file * to a
# function of FILE that uses the position.  A struct file * handed to a
# function defined elsewhere does not count: nearly every one takes it.
# A call through a parameter of F (a function pointer, as gpiolib-cdev's
# call_read_locked(..., func)) stands for every function of FILE handed
# to F in FILE; with none, a position handed that way counts as used.
# A search over the calls of FILE, each function visited once.
def uses_pos(file, f):
	todo, seen = [f], {f}
	while todo:
		f = todo.pop()
		if used_directly(file, f, "->f_pos"):
			return True
		helpers = set()
		pointers = formals.get((file, f), set())
		for name in params.get((file, f), ()):
			if used_directly(file, f, name):
				return True
			for g in passes.get((file, f, name), ()):
				if (file, g) in defined:
					helpers.add(g)
				elif g in pointers and handed.get((file, f)):
					helpers |= handed[(file, f)]
				elif LIBRARY_POS.get(g) != "no":
					return True
		for name in files.get((file, f), ()):
			for g in passes.get((file, f, name), ()):
				if (file, g) in defined:
					helpers.add(g)
				elif g in pointers:
					helpers |= handed.get((file, f), set())
		todo += [g for g in helpers if g not in seen]
		seen |= helpers
	return False

def value(m, fld):
	v = m.get(fld)
	return "|".join(sorted(v)) if v else "unset"

# worst(set of "yes"/"ext"/"no"): "yes" wins over "ext" over "no".
def worst(res):
	for r in ("yes", "ext", "no"):
		if r in res:
			return r
	return "ext"

def pos_of(file, f):
	if f in NO_SEEK:
		return "-"
	res = set()
	for one in f.split("|"):
		if (file, one) not in defined:
			res.add(LIBRARY_POS.get(one, "ext"))
			continue
		res.add("yes" if uses_pos(file, one) else "no")
	return worst(res)

# The functions of FILE that call nonseekable_open() or stream_open(),
# directly or through other functions of FILE.
def unseekable_in(file):
	if file not in closed:
		found = set(UNSEEKABLE_OPEN)
		edges = calls.get(file, set())
		grown = True
		while grown:
			new = set(c for (c, g) in edges
				  if g in found and (file, c) in defined)
			grown = not new <= found
			found |= new
		closed[file] = found
	return closed[file]

def unseekable_of(file, f):
	if f == "unset":
		return "-"
	res = set()
	for one in f.split("|"):
		if one in unseekable_in(file):
			res.add("yes")
		elif (file, one) in defined:
			res.add("no")
		else:
			res.add("ext")
	return worst(res)

def classify(ll, nso, rw, seq, other):
	if ll == "no_llseek":
		return ("no_llseek", "drop the initialiser line (no_llseek is NULL)")
	if nso == "yes" and ll not in NO_SEEK:
		return ("nonseekable-but-llseek-set",
			"review: drop .llseek, open already makes the file unseekable")
	if seq == "yes" and ll != "seq_lseek" and nso != "yes":
		return ("seq-read-without-seq-lseek",
			"review: seq_lseek, or say why the file must not seek")
	if ll == "noop_llseek" and "yes" in rw:
		return ("noop-but-uses-pos",
			"review: default_llseek or a real llseek, or stop using the position")
	if ll == "default_llseek" and not other and \
	   all(r in ("-", "no") for r in rw):
		return ("default-llseek-unused-pos",
			"candidate: noop_llseek or no seek, drops inode_lock from lseek")
	if ll in NO_SEEK:
		return ("unset", "none: lseek fails with ESPIPE")
	return ("consistent", "none")

def emit(file, line, name, kind, m, macro=None):
	ll = value(m, "llseek")
	op = value(m, "open")
	nso = macro[5] if macro else unseekable_of(file, op)
	cols = [file, str(line), name, kind, ll, op, nso]
	rw = []
	for fld in ("read", "write", "read_iter", "write_iter"):
		f = value(m, fld)
		rw.append(pos_of(file, f))
		cols += [f, rw[-1]]
	seq = "yes" if value(m, "read") == "seq_read" or \
		value(m, "read_iter") == "seq_read_iter" else "no"
	other = [o for o in OTHER_POS if o in m]
	cls, action = classify(ll, nso, rw, seq, other)
	if macro:
		action = "none at the use; %s of %s is %s: %s" % (
			macro[1], macro[0], cls, action)
		cls = "macro"
	cols += [seq, ",".join(other) or "-", cls, action]
	print("\t".join(cols), flush=True)

# emit_macro(FILE, LINE, MACRO, ARG): the row of a use of MACRO of MACROS.
def emit_macro(file, line, macro, arg):
	d = MACROS[macro]
	m = dict((fld, set([v.format(arg)])) for (fld, v) in d[4].items())
	emit(file, line, d[3].format(arg), d[2], m, d)

// Every function defined here, and its position parameters: the columns
// tell "no" (defined here) from "ext" (defined elsewhere).  The uses are
// matched as plain expressions anywhere and given to their function by
// current_element: matching them inside the function body, along its
// control flow, takes minutes on files such as fs/ceph/file.c.
@defs depends on report@
identifier f;
position p;
@@
f@p(...) { ... }

@script:python depends on report@
f << defs.f;
p << defs.p;
@@
defined.add((p[0].file, f))

@ppos_param depends on report@
identifier f, ppos;
type T;
position p;
typedef loff_t;
@@
T f@p(..., loff_t *ppos, ...) { ... }

@script:python depends on report@
f << ppos_param.f;
ppos << ppos_param.ppos;
p << ppos_param.p;
@@
params.setdefault((p[0].file, f), set()).add(ppos)

@iocb_param depends on report@
identifier f, iocb;
type T;
position p;
@@
T f@p(..., struct kiocb *iocb, ...) { ... }

@script:python depends on report@
f << iocb_param.f;
iocb << iocb_param.iocb;
p << iocb_param.p;
@@
params.setdefault((p[0].file, f), set()).add(iocb)

// A struct file * parameter: handed to a function of the same file that
// uses the position (a helper moving file->f_pos), it counts as a use.
@file_param depends on report@
identifier f, filp;
type T;
position p;
@@
T f@p(..., struct file *filp, ...) { ... }

@script:python depends on report@
f << file_param.f;
filp << file_param.filp;
p << file_param.p;
@@
files.setdefault((p[0].file, f), set()).add(filp)

// Every parameter, and every function of the file handed to a function as
// an argument: a call through a parameter is a call of those.
@formal depends on report@
identifier f, x;
type T, T2;
position p;
@@
T f@p(..., T2 x, ...) { ... }

@script:python depends on report@
f << formal.f;
x << formal.x;
p << formal.p;
@@
formals.setdefault((p[0].file, f), set()).add(x)

@fn_arg depends on report@
identifier g, h;
position q;
@@
g(..., h@q, ...)

@script:python depends on report@
g << fn_arg.g;
h << fn_arg.h;
q << fn_arg.q;
@@
if (q[0].file, h) in defined:
	handed.setdefault((q[0].file, g), set()).add(h)

// Uses of a position parameter: the loff_t * itself, the kiocb's ->ki_pos,
// and some ->f_pos.  A parameter handed to a function defined in this file
// is used when that function uses its own; handed to any other function it
// is used (LIBRARY_POS can say otherwise).
@ppos_use depends on report@
identifier ppos_param.ppos;
position q;
@@
ppos@q

@script:python depends on report@
ppos << ppos_param.ppos;
q << ppos_use.q;
@@
add_occurrence(q, ppos)

@ppos_pass depends on report@
identifier ppos_param.ppos;
identifier g;
position q;
@@
g(..., ppos@q, ...)

@script:python depends on report@
ppos << ppos_param.ppos;
g << ppos_pass.g;
q << ppos_pass.q;
@@
add_pass(q, ppos, g)

@iocb_use depends on report@
identifier iocb_param.iocb;
position q;
@@
iocb@q->ki_pos

@script:python depends on report@
iocb << iocb_param.iocb;
q << iocb_use.q;
@@
add_occurrence(q, iocb)

@iocb_pass depends on report@
identifier iocb_param.iocb;
identifier g;
position q;
@@
g(..., iocb@q, ...)

@script:python depends on report@
iocb << iocb_param.iocb;
g << iocb_pass.g;
q << iocb_pass.q;
@@
add_pass(q, iocb, g)

@file_pass depends on report@
identifier file_param.filp;
identifier g;
position q;
@@
g(..., filp@q, ...)

@script:python depends on report@
filp << file_param.filp;
g << file_pass.g;
q << file_pass.q;
@@
key = (q[0].file, q[0].current_element, filp)
passes.setdefault(key, set()).add(g)

@f_pos_use depends on report@
expression E;
position q;
@@
E->f_pos@q

@script:python depends on report@
q << f_pos_use.q;
@@
add_occurrence(q, "->f_pos")

// Calls, for open functions that make the file unseekable through helpers
// of the same file (transitively).  Only a file that calls
// nonseekable_open() or stream_open() has such a chain: the others skip
// the rule (a Python call for every call of every file was a third of
// the report's time).
@unseekable_call depends on report@
identifier g = {nonseekable_open, stream_open};
@@
g(...)

@call depends on report && unseekable_call@
identifier g;
position q;
@@
g@q(...)

@script:python depends on report@
g << call.g;
q << call.q;
@@
calls.setdefault(q[0].file, set()).add((q[0].current_element, g))

// The initialisers and their members.
@fops depends on report@
identifier fn;
position p;
@@
struct file_operations fn@p = { ... };

@fops_member depends on report@
identifier fops.fn;
position fops.p;
identifier fld;
expression E;
@@
struct file_operations fn@p = { .fld = E, };

@script:python depends on report@
p << fops.p;
fld << fops_member.fld;
E << fops_member.E;
@@
add_member((p[0].file, p[0].line), fld, E)

@pops depends on report@
identifier fn;
position p;
@@
struct proc_ops fn@p = { ... };

@pops_member depends on report@
identifier pops.fn;
position pops.p;
identifier fld;
expression E;
@@
struct proc_ops fn@p = { .fld = E, };

@script:python depends on report@
p << pops.p;
fld << pops_member.fld;
E << pops_member.E;
@@
add_member((p[0].file, p[0].line), fld, E)

// Arrays: one row per element written as a literal { ... } with members;
// an element and its members meet on the line of its closing brace.
@fops_elem depends on report@
identifier fn;
initializer I;
position p;
@@
struct file_operations fn[...] = { ..., I@p, ... };

@fops_elem_member depends on report@
identifier fn;
identifier fld;
expression E;
position p;
@@
struct file_operations fn[...] = { ..., { .fld = E, }@p, ... };

@script:python depends on report@
fn << fops_elem_member.fn;
p << fops_elem_member.p;
fld << fops_elem_member.fld;
E << fops_elem_member.E;
@@
add_member((p[0].file, fn, p[0].line), fld, E)

// The rows, once every fact of the file is known.
@script:python depends on report@
fn << fops.fn;
p << fops.p;
@@
emit(p[0].file, p[0].line, fn, "file_operations",
     members.get((p[0].file, p[0].line), {}))

@script:python depends on report@
fn << pops.fn;
p << pops.p;
@@
emit(p[0].file, p[0].line, fn, "proc_ops",
     members.get((p[0].file, p[0].line), {}))

@script:python depends on report@
fn << fops_elem.fn;
p << fops_elem.p;
@@
key = (p[0].file, fn, p[0].line_end)
if key in members:
	emit(p[0].file, p[0].line, fn + "[]", "file_operations", members[key])

// Uses of the macros of MACROS, as declarations at the top level.
@macro_use depends on report@
declarer d;
identifier x;
expression list es;
position p;
@@
d@p(x, es);

@script:python depends on report@
d << macro_use.d;
x << macro_use.x;
p << macro_use.p;
@@
if d in MACROS:
	emit_macro(p[0].file, p[0].line, d, x)
