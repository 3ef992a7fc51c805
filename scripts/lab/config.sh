#!/bin/sh
# config.sh VARIANT: make build/kernel/VARIANT/obj/.config.
# Fragments are merged in one declared order, last wins: kconfig/base.config,
# kconfig/debug.config, then every profile's kconfig= lines (the union kernel
# boots every profile). allnoconfig with the merged fragment as
# KCONFIG_ALLCONFIG resolves every symbol (an olddefconfig after it wrote
# the same bytes, 5 s a run); then every requested option must have its
# value, and a dropped one is an error naming the option and its origin.
. "$(dirname "$0")/lib.sh"

variant=${1:?usage: config.sh VARIANT}
src="$KTREES/$variant/src"
obj="$KTREES/$variant/obj"
frags="$KTREES/$variant/kconfig"
need_file "$src/Makefile" "run 'make apply' first"

rm -rf "$frags"
mkdir -p "$frags" "$obj"
# origins: one "fragment<TAB>where it came from" line per fragment, in order.
: >"$frags/origins"
n=0
for f in "$TOP/kconfig/base.config" "$TOP/kconfig/debug.config"; do
	n=$((n + 1))
	cp "$f" "$frags/$n.config"
	printf '%s\t%s\n' "$frags/$n.config" "kconfig/${f##*/}" >>"$frags/origins"
done
for p in $(all_profiles); do
	n=$((n + 1))
	profile_get "$p" kconfig >"$frags/$n.config" || exit 1
	printf '%s\t%s\n' "$frags/$n.config" "qemu-devices/$p.profile" >>"$frags/origins"
done

inputs=$(cat "$frags"/*.config | cksum)
stamp="$obj/.bklfree-config"
if [ -f "$obj/.config" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$inputs" ]; then
	exit 0
fi

log="$KTREES/$variant/config.log"
start=$(now)
rm -f "$stamp"
{
	KCONFIG_CONFIG="$obj/bklfree.fragment" \
		sh "$src/scripts/kconfig/merge_config.sh" -m \
		$(cut -f1 "$frags/origins") &&
	make -C "$src" O="$obj" KCONFIG_ALLCONFIG="$obj/bklfree.fragment" \
		allnoconfig
} >"$log" 2>&1 || die "kconfig failed for '$variant'; log: $log"

# Verify: the last fragment to name an option decides what it must be.
bad=$(while IFS="$(printf '\t')" read -r frag origin; do
	sed -n 's/^\(CONFIG_[A-Za-z0-9_]*\)=\(.*\)$/\1 \2/p' "$frag" |
		while read -r opt val; do
			printf '%s\t%s\t%s\n' "$opt" "$val" "$origin"
		done
done <"$frags/origins" | awk -F '\t' -v cfg="$obj/.config" '
	{ want[$1] = $2; from[$1] = $3; if (!($1 in seen)) order[n++] = $1; seen[$1] = 1 }
	END {
		while ((getline line < cfg) > 0) {
			if (line ~ /^CONFIG_/) {
				i = index(line, "="); have[substr(line, 1, i - 1)] = substr(line, i + 1)
			}
		}
		for (i = 0; i < n; i++) {
			o = order[i]; w = want[o]; h = (o in have) ? have[o] : "n"
			if (w != h)
				printf "%s=%s from %s is %s after allnoconfig (unmet dependency?)\n",
					o, w, from[o], (o in have) ? "=" h : "not set"
		}
	}')
if [ -n "$bad" ]; then
	echo "$bad" | sed 's/^/error: /' >&2
	die "kconfig dropped $(echo "$bad" | wc -l) requested option(s) for '$variant'; log: $log"
fi
echo "$inputs" >"$stamp"
progress config "$variant: $(grep -c '=y' "$obj/.config") options set, all requested options kept ($(elapsed "$start") s)"
