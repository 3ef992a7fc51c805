#!/bin/sh
# apply.sh [all | SERIES... | --subsys NAME]: make the two source trees the
# kernels build from.
#   build/kernel/baseline/src  hard-link copy of the pristine tree
#   build/kernel/patched/src   the same plus the selection: the named series
#                              (all: every one) in the order core,
#                              staging-move, drivers, or one subsystem's
#                              patches of all three (patches/subsystems.tsv)
# With no argument the selection recorded in build/kernel/patched/selection
# by the last apply is kept (so make build after make apply SERIES=core
# builds core alone), and every series when none is recorded.
# Each patch is dry-run first; one that does not apply stops everything with
# one line naming series, patch, file and hunk, and the old trees are kept.
. "$(dirname "$0")/lib.sh"
need_tree

order="core staging-move drivers"
out="$KTREES/patched"
recorded=
if [ $# -eq 0 ] && [ -s "$out/selection" ]; then
	set -- $(cat "$out/selection")
	recorded=" (recorded by the last 'make apply'; 'make apply SERIES=all' takes every series)"
fi
[ $# -gt 0 ] && [ "$1" != all ] || set -- $order
if [ "$1" = --subsys ]; then
	[ $# -eq 2 ] || die "usage: apply.sh --subsys NAME (one subsystem)"
	subsys=$2
	sel="--subsys $subsys"
	what="subsystem $subsys"
	only=$("$TOP/scripts/postings/subsys.sh" patches "$subsys") || exit 1
	set -- $order
else
	for s in "$@"; do
		case " $order " in
		*" $s "*) ;;
		*) die "unknown series '$s' (known: $order; or all, or --subsys NAME)" ;;
		esac
	done
	subsys= only=
	sel="$*"
	what="series $*"
fi

# selected SERIES: the patch lines of SERIES this selection takes.
selected() {
	series_patches "$1" | while read -r _p _opt; do
		[ -z "$subsys" ] || printf '%s\n' "$only" | grep -qFx "$1/$_p" || continue
		echo "$_p${_opt:+ $_opt}"
	done
}

base="$KTREES/baseline/src"
if [ ! -f "$base/Makefile" ]; then
	mkdir -p "$KTREES/baseline"
	rm -rf "$base"
	cp -al "$PRISTINE/." "$base" || die "cannot copy the pristine tree"
fi

# The fingerprint names exactly what the patched tree holds.
fingerprint=$(for s in $order; do
	case " $* " in *" $s "*) ;; *) continue ;; esac
	echo "series $s${subsys:+ subsystem $subsys}"
	selected "$s" | while read -r p _; do
		cksum <"$TOP/patches/$s/$p" 2>/dev/null || echo "missing $p"
	done
done)
if [ -f "$out/src/Makefile" ] && [ -f "$out/fingerprint" ] &&
	[ "$fingerprint" = "$(cat "$out/fingerprint")" ]; then
	echo "$sel" >"$out/selection"
	progress apply "patched tree up to date: $what$recorded"
	exit 0
fi

start=$(now)
logdir="$BUILD/logs"
mkdir -p "$logdir" "$out"
new="$out/src.new"
rm -rf "$new"
# "$PRISTINE/." copies the tree even when build/pristine is a symbolic
# link to another checkout's tree; "$PRISTINE" would copy the link, and the
# patches would then be applied to that tree itself.
cp -al "$PRISTINE/." "$new" || die "cannot copy the pristine tree"
: >"$out/applied.new"
: >"$out/touched.new"
for s in $order; do
	case " $* " in *" $s "*) ;; *) continue ;; esac
	selected "$s" >"$out/series.tmp" ||
		die "cannot read 'patches/$s/series'"
	while read -r p opt; do
		file="$TOP/patches/$s/$p"
		[ -f "$file" ] ||
			die "series '$s' lists 'patches/$s/$p', which does not exist"
		strip=${opt:--p1}
		log="$logdir/apply-$s-$(basename "$p" .patch).log"
		if ! patch -d "$new" $strip -N --dry-run -i "$file" >"$log" 2>&1; then
			where=$(awk '
				/^checking file |^patching file / { f = $3 }
				/FAILED|malformed|Only garbage|can.t find file|Reversed|already exists/ {
					print "file " f ": " $0; exit }' "$log")
			rm -rf "$new"
			die "series '$s': patch 'patches/$s/$p' does not apply: ${where:-see log}; log: $log"
		fi
		patch -d "$new" $strip -N -s --no-backup-if-mismatch -i "$file" \
			>"$log" 2>&1 || die "series '$s': 'patches/$s/$p' failed after a clean dry run; log: $log"
		echo "$s/$p" >>"$out/applied.new"
		awk '/^(\+\+\+|---) / && $2 != "/dev/null" { sub(/^[ab]\//, "", $2); print $2 }
		     /^rename (from|to) / { print $3 }' "$file" >>"$out/touched.new"
	done <"$out/series.tmp"
done
rm -f "$out/series.tmp"

# Files changed by the previous or the new patch set get a fresh inode and
# mtime, so the incremental build recompiles them in both directions; one
# whose bytes are those of the previous patched tree keeps that tree's
# mtime, so a one-file change does not rebuild what includes the others
# (0065 changes include/linux/fs.h, which nearly every object includes).
cat "$out/touched.new" "$out/touched" 2>/dev/null | sort -u |
	while read -r f; do
		[ -f "$new/$f" ] || continue
		cp "$new/$f" "$new/$f.bklfree" && mv "$new/$f.bklfree" "$new/$f"
		if [ -f "$out/src/$f" ] && cmp -s "$out/src/$f" "$new/$f"; then
			touch -r "$out/src/$f" "$new/$f"
		fi
	done
rm -rf "$out/src"
mv "$new" "$out/src"
mv "$out/applied.new" "$out/applied"
mv "$out/touched.new" "$out/touched"
echo "$fingerprint" >"$out/fingerprint"
echo "$sel" >"$out/selection"
n=$(wc -l <"$out/applied")
if [ "$n" -eq 0 ]; then
	progress apply "no patches in $what: patched tree == baseline$recorded"
else
	progress apply "$n patches of $what applied in $(elapsed "$start") s$recorded"
fi
