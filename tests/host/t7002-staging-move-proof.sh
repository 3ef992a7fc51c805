#!/bin/sh
# needs: kernels
# The staging moves change no code: each renamed file has its old bytes, and
# each moved object the baseline kernel builds has the same code sections
# and relocations from the new place (pristine + staging-move only, built
# with the baseline's config) as from the old one.
# scripts/staging/move-proof.sh does the comparing; every line it prints is a case.
. "$TOP/tests/host/ktap.sh"

[ -f "$BUILD/kernel/baseline/obj/vmlinux" ] ||
	ktap_bail "baseline kernel not built: run 'make build'"
out=$(BUILD="$BUILD" sh "$TOP/scripts/staging/move-proof.sh" 2>&1)
rc=$?
cases=$(printf '%s\n' "$out" | grep -c '^\(ok  \|FAIL\)')
objects=$(printf '%s\n' "$out" | grep -c '^ok   object')
ktap_plan $((cases + 3))
printf '%s\n' "$out" | grep '^\(ok  \|FAIL\)' >"$TMPDIR/cases"
while read -r word rest; do
	[ "$word" = ok ]
	ktap_ok $? "$(printf '%s' "$rest" | tr -d '#')"
done <"$TMPDIR/cases"
# The proof must have compared code, not only sources: both lab kernels
# build affs and appletalk (profiles affs, appletalk).
[ "$objects" -ge 2 ]
ktap_ok $? "at least two moved objects compared ($objects)" || ktap_diag "$(printf '%s\n' "$out" | grep '^note')"
[ "$rc" = 0 ]
ktap_ok $? "move-proof.sh exit status 0" || ktap_diag "$(printf '%s\n' "$out" | tail -n 1)"
# A wrong pair must fail both checks: the proof can tell code apart.
printf 'fs/affs/dir.c\tdrivers/staging/affs/file.c\n' >"$TMPDIR/wrong"
bad=$(BUILD="$BUILD" sh "$TOP/scripts/staging/move-proof.sh" "$TMPDIR/wrong" 2>&1)
[ "$(printf '%s\n' "$bad" | grep -c '^FAIL')" = 2 ]
ktap_ok $? "a wrong pair (dir.c moved to file.c) fails source and object checks" || ktap_diag "$bad"
ktap_done
