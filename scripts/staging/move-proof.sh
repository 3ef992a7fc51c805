#!/bin/sh
# move-proof.sh: prove that the staging-move series moved code without
# changing it. The proof tree, build/move-proof/src, is the pristine tree
# with only patches/staging-move applied (the core series and the driver
# fixes, which do change the moved files, stay out of it). For every
# "rename from/rename to" pair of those patches:
#   source  the file at its new place has the bytes of the file at its old
#           place in the pristine tree, or is edited only by a later,
#           non-move patch of the series, which is named (Kconfig);
#   object  for a .c file the baseline lab kernel builds, the object built
#           from the new place (single targets in build/move-proof/obj,
#           with the baseline kernel's .config) has the same executable
#           sections as the baseline object from the old place: the same
#           bytes and the same relocations (offset, type, symbol, addend).
#           A relocation into a merged string section may point elsewhere:
#           __FILE__ ("fs/affs/file.c" becomes
#           "drivers/staging/affs/file.c") is longer, and the compiler
#           places strings by length and alignment (.rodata.str1.1 or
#           .rodata.str1.8). Those are compared without their target and
#           counted in the output.
# move-proof.sh PAIRS checks the "OLD<TAB>NEW" lines of the file PAIRS
# instead (tests/host/t7002 proves with a wrong pair that it can fail).
# Prints one line per check, "ok ..." or "FAIL ...", with the reason, and a
# summary; exit 0 when nothing failed, 1 otherwise, 2 when the baseline
# kernel is not built.
. "$(dirname "$0")/../lab/lib.sh"
need_tree

base="$KTREES/baseline/obj"
[ -f "$base/vmlinux" ] || { echo "error: no kernel in '$base': run 'make build'" >&2; exit 2; }
work="$BUILD/move-proof"
new_src="$work/src"
new_obj="$work/obj"
rm -rf "$work/pairs" "$work/report" "$new_src"
mkdir -p "$work" "$new_obj"

# The proof tree: hard links to the pristine files; patch(1) replaces the
# files it changes, so the pristine tree stays untouched.
cp -al "$PRISTINE/." "$new_src" || die "cannot copy the pristine tree to '$new_src'"
series_patches staging-move | while read -r p; do
	patch -d "$new_src" -p1 -N -s --no-backup-if-mismatch -i "$TOP/patches/staging-move/$p" \
		>"$work/apply.log" 2>&1 || die "patches/staging-move/$p does not apply to the pristine tree; log: $work/apply.log"
done || exit 1

# kmake ARGS: the baseline's compiler and flags, from the baseline's config.
lab_kbuild_env "$BUILD"
kmake() { make -C "$new_src" O="$new_obj" CC="ccache gcc" "$@"; }
cmp -s "$base/.config" "$new_obj/.config" 2>/dev/null || cp "$base/.config" "$new_obj/.config"
kmake olddefconfig >"$work/build.log" 2>&1 &&
	kmake -j"$(nproc)" prepare >>"$work/build.log" 2>&1 ||
	die "cannot prepare the proof tree; log: $work/build.log"

# The executable sections of an object, with their bytes and relocations:
# one line per section "S NAME SHA256", then "R NAME OFFSET TYPE SYMBOL ADDEND".
sections() { # sections OBJECT OUT
	rm -f "$2"
	readelf -SW "$1" | awk '$1 ~ /^\[/ { sub(/^ *\[ *[0-9]+\] */, ""); if ($7 ~ /X/) print $1 }' |
	while read -r sec; do
		objcopy -O binary --only-section="$sec" "$1" "$work/sec.bin" ||
			{ echo "objcopy failed on $1" >&2; exit 1; }
		echo "S $sec $(sha256sum <"$work/sec.bin" | cut -d' ' -f1)"
		readelf -rW "$1" | awk -v want=".rela$sec" '
			/^Relocation section/ { gsub(/\047/, "", $3); on = ($3 == want); next }
			on && NF >= 5 && $1 ~ /^[0-9a-f]+$/ { print "R", want, $1, $3, $5, $(NF - 1) $NF }'
	done >"$2"
}

fail() { echo "FAIL $*"; }
# The relocations with their targets in merged string sections made
# anonymous: the compiler places a string by its length and alignment, so a
# longer __FILE__ moves it and its neighbours between .rodata.str1.1 and
# .rodata.str1.8. The code bytes and every other relocation must still match.
strings_blind() {
	awk '$1 == "R" && $5 ~ /^\.rodata\.str/ { $5 = "STRING"; $6 = "" } { print }' "$1"
}

if [ $# -gt 0 ]; then
	cp "$1" "$work/pairs" || die "cannot read '$1'"
else
	for patch in "$TOP"/patches/staging-move/*.patch; do
		sed -n 's/^rename from //p; s/^rename to //p' "$patch" | paste - -
	done >"$work/pairs"
fi
[ -s "$work/pairs" ] || { echo "FAIL no renames found in patches/staging-move"; exit 1; }

# The new-place objects of the .c files the baseline built.
targets=$(while IFS='	' read -r old new; do
	case $old in *.c) [ -f "$base/${old%.c}.o" ] && echo "${new%.c}.o" ;; esac
done <"$work/pairs")
for t in $targets; do rm -f "$new_obj/$t"; done
# shellcheck disable=SC2086 # targets are words
[ -z "$targets" ] || kmake -k -j"$(nproc)" $targets >>"$work/build.log" 2>&1

while IFS='	' read -r old new; do
	# Which later patches of the series edit the file at its new place.
	later=$(grep -l "^+++ b/$new\$" "$TOP"/patches/staging-move/*.patch | xargs -r -n1 basename | paste -sd' ' -)
	if cmp -s "$PRISTINE/$old" "$new_src/$new"; then
		echo "ok   source $new: same bytes as $old"
	elif [ -n "$later" ]; then
		echo "ok   source $new: moved unchanged, then edited by $later (not a pure-move patch)"
	else
		fail "source $new differs from pristine $old and no later patch edits it"
	fi
	case $old in *.c) ;; *) continue ;; esac
	o_old="$base/${old%.c}.o" o_new="$new_obj/${new%.c}.o"
	if [ ! -f "$o_old" ] || [ ! -f "$o_new" ]; then
		# Not every file is built in the lab config (e.g. a Kconfig
		# sub-option that is off); say so rather than pass.
		echo "note object ${new%.c}.o: not built by the baseline kernel (or from the new place: $work/build.log)"
		continue
	fi
	sections "$o_old" "$work/a"
	sections "$o_new" "$work/b"
	if [ ! -s "$work/a" ]; then
		fail "object ${old%.c}.o has no executable section"
	elif cmp -s "$work/a" "$work/b"; then
		echo "ok   object ${new%.c}.o: $(grep -c '^S' "$work/a") code section(s), $(grep -c '^R' "$work/a") relocations identical"
	elif strings_blind "$work/a" >"$work/a.cut" &&
		strings_blind "$work/b" >"$work/b.cut" &&
		cmp -s "$work/a.cut" "$work/b.cut"; then
		n=$(diff "$work/a" "$work/b" | grep -c '^>')
		echo "ok   object ${new%.c}.o: same code bytes and relocations; $n relocation(s) into string sections moved (__FILE__ is longer at the new place)"
	else
		fail "object ${new%.c}.o: code differs from ${old%.c}.o"
		diff "$work/a" "$work/b" | head -n 5 | sed 's/^/     /'
	fi
done <"$work/pairs" >"$work/report"

cat "$work/report"
nfail=$(grep -c '^FAIL' "$work/report")
echo "move proof: $(wc -l <"$work/pairs") renamed file(s), $(grep -c '^ok   object' "$work/report") object(s) compared, $nfail failure(s)"
[ "$nfail" = 0 ]
