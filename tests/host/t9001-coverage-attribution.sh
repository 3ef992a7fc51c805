#!/bin/sh
# t9001-coverage-attribution: scripts/coverage/coverage.sh on a stand-in
# lab, no kernel: a fake TOP with one series, two profiles and a seed list,
# objects compiled from tiny .c files with the host's cc, a thin vmlinux.a
# and a module's .mod list, and fake functions.tsv files. The map must be
# tests/host/fixtures/coverage/expected.tsv:
#   dir/a.c   exercised in p1 only: its own function, whose long name the
#             profiler prints cut to 30 characters; in p2 only a static
#             name dir/b.c defines too was seen, which cannot say which
#             file ran and counts for neither
#   dir/b.c   exercised in p2 only, a module (bmod) that only p2's
#             initramfs carries: b_fn seen in p1 is another module's
#             function of that name and does not count (on the baseline,
#             where b.o is built in, it would)
#   dir/i.c   exercised in p1: it has no object, dir/a.o #includes it
#             (a.o's .cmd file lists it), and i_fn, defined in i.c's
#             source, ran; a.o's other functions do not count for it
#   dir/m.c   built: a module (mmod) whose only function seen is its
#             init, which registering runs at every load: not counted
#   dir/c.c   compiled (not in a lab kernel, "ok" in compile-touched.txt)
#   dir/e.c   built: ran on patched in p1, not on baseline
#   dir/u.c   unreachable, with the reason of a pattern rule
#   new/d.c   built: its function was seen with 0 hits on patched (not a
#             call) and called on baseline, where its object is the one of
#             old/d.c, the path before the move
#   dir/s.c   a seed path only, reachable, not yet exercised: reason "-"
# and a file neither explained nor reachable makes coverage.sh fail.
. "$TOP/tests/host/ktap.sh"
ktap_plan 5

command -v cc >/dev/null || { ktap_skip "no host cc" "coverage attribution"; exit 0; }
w="$TMPDIR/t9001"
rm -rf "$w"
top="$w/top" build="$w/build" results="$w/results"
mkdir -p "$top/patches/fake" "$top/qemu-devices" "$top/docs" "$build/pristine/dir" \
	"$build/pristine/old" "$results"
ln -s "$TOP/scripts" "$top/scripts"
tab=$(printf '\t')

# The series: one patch changes a, b, e, u and creates c; one moves old/d.c.
printf '0001-change.patch\n0002-move.patch\n' >"$top/patches/fake/series"
for f in a b c e i m u; do printf '+++ b/dir/%s.c\n' "$f"; done >"$top/patches/fake/0001-change.patch"
printf 'diff --git a/old/d.c b/new/d.c\nsimilarity index 100%%\nrename from old/d.c\nrename to new/d.c\n' \
	>"$top/patches/fake/0002-move.patch"
: >"$top/qemu-devices/p1.profile"
: >"$top/qemu-devices/p2.profile"
printf '# seed\ndir/a.c\nold/d.c\ndir/s.c\ngone/x.c\n' >"$w/seed-paths"
printf 'dir/u*\tfixture: no model of the u device\n' >"$w/reasons.tsv"
printf 'dir/c.c\tsoftware: c\nnew/d.c\tqemu:d-dev\ndir/s.c\tcore\ndir/m.c\tsoftware: m\n' >"$w/reachable.tsv"
for f in dir/a.c dir/b.c dir/e.c dir/i.c dir/m.c dir/u.c dir/s.c old/d.c; do : >"$build/pristine/$f"; done
touch "$build/pristine/.bklfree-extracted"
printf 'ok        dir/c.c\n' >"$results/compile-touched.txt"

# obj KERNEL PATH FUNCTION...: PATH.o defining the functions, static
# when named s_*.
obj() {
	_k=$1 _p=$2
	shift 2
	mkdir -p "$build/kernel/$_k/obj/$(dirname "$_p")"
	for fn in "$@"; do
		case $fn in init_*) printf '__attribute__((section(".init.text"))) int %s(void) { return 0; }\n' "$fn" ;;
		s_*) printf 'static int %s(void) { return 1; }\nint call_%s_%s(void) { return %s(); }\n' \
			"$fn" "$fn" "$(basename "$_p")" "$fn" ;;
		*) printf 'int %s(void) { return 0; }\n' "$fn" ;;
		esac
	done >"$w/src.c"
	cc -O0 -c -o "$build/kernel/$_k/obj/$_p.o" "$w/src.c"
}
for k in baseline patched; do
	obj "$k" dir/a a_function_whose_name_is_longer_than_30 s_shared i_fn
	# dir/i.c is #included by a.c: kbuild's .cmd lists it among a.o's deps.
	mkdir -p "$build/kernel/$k/src/dir"
	printf 'int i_fn(void)\n{\n\treturn 0;\n}\n' >"$build/kernel/$k/src/dir/i.c"
	printf 'source_dir/a.o := ../src/dir/a.c\n\ndeps_dir/a.o := \\\n  ../src/dir/i.c \\\n\n' \
		>"$build/kernel/$k/obj/dir/.a.o.cmd"
	obj "$k" dir/b b_fn s_shared
	obj "$k" dir/e e_fn
	obj "$k" dir/m init_m m_read
done
obj patched new/d d_fn
obj baseline old/d d_fn
(cd "$build/kernel/patched/obj" && ar rcT vmlinux.a dir/a.o dir/e.o new/d.o &&
	printf 'dir/bmod.ko\ndir/mmod.ko\n' >modules.order && echo dir/b.o >dir/bmod.mod &&
	echo dir/m.o >dir/mmod.mod)
(cd "$build/kernel/baseline/obj" && ar rcT vmlinux.a dir/a.o dir/b.o dir/e.o old/d.o &&
	echo dir/mmod.ko >modules.order && echo dir/m.o >dir/mmod.mod)

fn() { mkdir -p "$results/$1/$2"; printf "%s\t%s\n" "$3" "$4" >>"$results/$1/$2/functions.tsv"; }
fn patched p1 a_function_whose_name_is_longe 3
fn patched p1 e_fn 1
fn patched p1 i_fn 2
fn patched p2 s_shared 1
fn patched p2 d_fn 0
fn patched p1 b_fn 2
fn baseline p1 b_fn 1
fn patched p2 b_fn 1
fn baseline p2 b_fn 3
printf 'bmod\n' >"$results/patched/p2/initrd.cpio.traced-modules"
fn patched p1 init_m 1
fn baseline p1 init_m 1
printf 'mmod\n' >"$results/patched/p1/initrd.cpio.traced-modules"
printf 'mmod\n' >"$results/baseline/p1/initrd.cpio.traced-modules"
fn baseline p1 a_function_whose_name_is_longe 1
fn baseline p1 i_fn 1
fn baseline p2 s_shared 2
fn baseline p2 d_fn 4

run() {
	TOP="$top" BUILD="$build" RESULTS="$results" REASONS="$w/reasons.tsv" \
		REACHABLE="$w/reachable.tsv" SEED_PATHS="$w/seed-paths" \
		sh "$top/scripts/coverage/coverage.sh" fake >"$w/out" 2>"$w/err"
}
run
ktap_ok $? "coverage.sh makes the map of the stand-in lab" || ktap_diag "$(cat "$w/err")"

ktap_golden t9001-map "$TOP/tests/host/fixtures/coverage/expected.tsv" "$results/coverage.tsv"
ktap_ok $? "exercised, built, compiled and unreachable as the objects and functions.tsv say"

grep -qx 'seed patch paths: 4 in all, 3 still in 6.1, 2 of those reachable, 1 exercised' "$w/out" &&
	grep -qx 'reachable, not yet exercised:         3 (1 core, 2 software, 0 qemu)' "$w/out"
ktap_ok $? "the summary counts the seed paths and the reachable gaps" || ktap_diag "$(cat "$w/out")"

UPDATE_DOCS=1 run && cmp -s "$results/coverage.tsv" "$top/docs/coverage.tsv"
ktap_ok $? "UPDATE_DOCS=1 copies the map to docs/coverage.tsv" || ktap_diag "$(cat "$w/err")"

printf 'dir/c.c\tsoftware: c\ndir/m.c\tsoftware: m\n' >"$w/reachable.tsv"
! run && grep -q "^error: 1 file(s) not exercised have neither a reason" "$w/err" &&
	grep -qx '  dir/s.c' "$w/err"
ktap_ok $? "a file neither explained nor reachable fails the map, named" || ktap_diag "$(cat "$w/err")"

ktap_done
