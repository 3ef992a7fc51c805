#!/bin/sh
# kselftests.sh: build the kernel selftests that tests/guest/kselftest/*.c
# run in the guests, each a static program from the extracted tree's
# tools/testing/selftests, as build/guest/tests/kselftest/NAME.ksft; the
# boot's initramfs carries it beside its test (lib.sh profile_initrd).
# tests/guest/kselftest/programs names each one's sources and libraries.
# The programs are the kernel's, built with their own warnings and without
# -Werror: a warning in them is upstream's, not ours to fail on.
. "$(dirname "$0")/lib.sh"
need_tree

list="$TOP/tests/guest/kselftest/programs"
src="$PRISTINE/tools/testing/selftests"
out="$BUILD/guest/tests/kselftest"
mkdir -p "$out" || exit 1
# Every runner has its program, and every program its runner.
for t in "$TOP"/tests/guest/kselftest/*.c; do
	t=${t##*/}
	grep -q "^${t%.c}	" "$list" ||
		die "$list: no line for tests/guest/kselftest/$t"
done
sed -e '/^#/d' -e '/^$/d' "$list" | while IFS="	" read -r name sources libs; do
	[ -f "$TOP/tests/guest/kselftest/$name.c" ] ||
		die "$list: no guest test tests/guest/kselftest/$name.c runs '$name'"
	set --
	stale=
	for s in $sources; do
		need_file "$src/$s" "$list: '$name' names a source the tree does not have"
		set -- "$@" "$src/$s"
		[ "$out/$name.ksft" -nt "$src/$s" ] || stale=1
	done
	[ -z "$stale" ] && [ "$out/$name.ksft" -nt "$list" ] && continue
	# -I the tree's top: selftests include uapi headers of test modules
	# by path (hmm-tests: <lib/test_hmm_uapi.h>).
	# shellcheck disable=SC2086 # LIBRARIES are words
	${CC:-cc} -std=gnu11 -O2 -static -s -I"$PRISTINE" \
		-o "$out/$name.ksft" "$@" $libs 2>"$out/$name.log" ||
		die "cannot build selftest '$name' (log: $out/$name.log)"
	echo "  kselftest $name"
done
