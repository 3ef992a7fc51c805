#!/bin/sh
# compile-touched.sh [SERIES...]: compile every .c file the series touch, in
# an allmodconfig build of the patched tree (build/kernel/allmod/obj), one
# object at a time as kbuild single targets. The lab kernels build only
# what the profiles need; this catches a patch that breaks a driver no
# profile enables.
#
# A touched file is reported as one of
#   ok          compiled without error or warning (allmodconfig has
#               CONFIG_WERROR=y, so a warning is an error)
#   FAIL        does not compile after the series, but compiles in the
#               same way from the pristine tree: the series broke it
#   not-built   does not compile on its own from the pristine tree either:
#               code for another architecture (arch/<not x86>, or a driver
#               that needs another architecture's headers), an option
#               allmodconfig leaves off (a stub header then clashes), or an
#               object kbuild builds only from its parent directory. The
#               pristine error is shown.
# Exit 0 when nothing failed. Results: results/compile-touched.txt; logs
# under build/kernel/allmod/.
. "$(dirname "$0")/lib.sh"

[ $# -gt 0 ] || set -- core staging-move drivers
src="$KTREES/patched/src"
obj="$KTREES/allmod/obj"
need_file "$src/Makefile" "run 'make apply' first"
out="$RESULTS/compile-touched.txt"
mkdir -p "$obj" "$RESULTS"

# The .c files the series create, change or move, at their place after
# the series (touched.sh, the list coverage/coverage.sh maps too).
files=$("$TOP/scripts/lab/touched.sh" "$@") || exit 1
[ -n "$files" ] || die "the series '$*' touch no .c file"

lab_kbuild_env "$KTREES"
kmake() { make -C "$src" O="$obj" CC="ccache gcc" "$@"; }

# allmod_objects SRC OBJ LOG FILE...: prepare an allmodconfig build of SRC
# in OBJ and build FILE's objects as single targets; -k goes on past a
# failure and the objects that exist afterwards are the ones that built.
allmod_objects() {
	src=$1 obj=$2 log=$3
	shift 3
	mkdir -p "$obj"
	if [ ! -f "$obj/.config" ]; then
		kmake allmodconfig >"$log.prepare" 2>&1 || die "allmodconfig failed in '$obj'; log: $log.prepare"
	fi
	kmake -j"$(nproc)" prepare >>"$log.prepare" 2>&1 || die "'make prepare' failed in '$obj'; log: $log.prepare"
	targets=
	for f in "$@"; do
		rm -f "$obj/${f%.c}.o"
		targets="$targets ${f%.c}.o"
	done
	# shellcheck disable=SC2086 # targets are words
	kmake -k -j"$(nproc)" $targets >"$log" 2>&1
}
kmake() { make -C "$src" O="$obj" CC="ccache gcc" "$@"; }

start=$(now)
: >"$out"
x86=
for f in $files; do
	case $f in
	arch/x86/*) x86="$x86 $f" ;;
	arch/*) printf 'not-built %s (code for another architecture)\n' "$f" >>"$out" ;;
	*) x86="$x86 $f" ;;
	esac
done
# The allmodconfig config follows the patched tree's Kconfig: redo it when
# the series change.
[ "$KTREES/patched/fingerprint" -nt "$obj/.config" ] && rm -f "$obj/.config"
# shellcheck disable=SC2086 # x86 holds words
allmod_objects "$src" "$obj" "$KTREES/allmod/objects.log" $x86 &
pid=$!
compiled() {
	echo "allmodconfig: $(cat "$KTREES/allmod/objects.log.prepare" "$KTREES/allmod/objects.log" 2>/dev/null |
		grep -c '^  CC') objects compiled for $(echo $x86 | wc -w) touched files"
}
every_30s compile "$pid" compiled >&2 &
ticker=$!
wait "$pid"
rc=$?
kill "$ticker" 2>/dev/null
# 1 is die() in allmod_objects (its message is out); make -k's 2 only means
# some objects failed, which is sorted out below.
[ "$rc" != 1 ] || exit 1

failed=
for f in $x86; do
	if [ -f "$obj/${f%.c}.o" ]; then
		printf 'ok        %s\n' "$f" >>"$out"
	else
		failed="$failed $f"
	fi
done
if [ -n "$failed" ]; then
	# The same objects from the pristine tree tell a broken patch from a
	# file that cannot be built on its own here. A file the series
	# creates has no pristine twin and so counts as broken.
	pobj="$KTREES/allmod-pristine/obj"
	# shellcheck disable=SC2086 # failed holds words
	(src=$PRISTINE obj=$pobj; allmod_objects "$src" "$obj" "$KTREES/allmod/pristine.log" $(for f in $failed; do [ -f "$PRISTINE/$f" ] && echo "$f"; done))
	for f in $failed; do
		if [ -f "$PRISTINE/$f" ] && [ ! -f "$pobj/${f%.c}.o" ]; then
			why=$(grep -m1 "$f:[0-9]*:[0-9]*: .*error" "$KTREES/allmod/pristine.log" | sed 's/.*error: //')
			printf 'not-built %s (pristine too: %s)\n' "$f" "${why:-no object}" >>"$out"
		else
			printf 'FAIL      %s\n' "$f" >>"$out"
			grep "$f:[0-9]*:[0-9]*: " "$KTREES/allmod/objects.log" | head -n 3 | sed 's/^/          /' >>"$out"
		fi
	done
fi

cat "$out"
nok=$(grep -c '^ok' "$out") nfail=$(grep -c '^FAIL' "$out") nskip=$(grep -c '^not-built' "$out")
progress compile "$nok touched file(s) compiled, $nfail broken by the series, $nskip not buildable on their own on x86_64 ($(elapsed "$start") s; logs in $KTREES/allmod)"
[ "$nfail" = 0 ]
