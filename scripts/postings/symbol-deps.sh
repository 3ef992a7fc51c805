#!/bin/sh
# symbol-deps.sh: the build dependencies between subsystems that git am
# cannot see, one "SUBSYS<TAB>NEEDS<TAB>WHY" line each, sorted: a patch
# that removes a macro (a "-#define NAME" line with no "+#define NAME")
# needs every patch of another subsystem that removes a use of NAME, and
# a patch that uses a macro another subsystem's patch adds needs that
# patch. patches/subsystem-deps.tsv must say the same (tests/host/t2003),
# and each posting's cover letter declares its lines.
. "$(dirname "$0")/../lab/lib.sh"
here=$(dirname "$0")
"$here/subsys.sh" all |
	PATCHES="$TOP/patches" awk -F'\t' '
	function name(l) { sub(/^[-+]#[ \t]*define[ \t]+/, "", l); sub(/[^A-Za-z0-9_].*/, "", l); return l }
	{ sub_of[$2] = $1; pat[++n] = $2; f = ENVIRON["PATCHES"] "/" $2
	  while ((getline l < f) > 0) {
		if (l ~ /^(---|\+\+\+) /) continue
		if (l ~ /^-#[ \t]*define[ \t]/) minus[$2, name(l)] = 1
		else if (l ~ /^\+#[ \t]*define[ \t]/) plus[$2, name(l)] = 1
		else if (l ~ /^[-+]/) body[$2] = body[$2] "\n" l
	  }
	  close(f) }
	END {
		for (k in minus) { split(k, a, SUBSEP); if (!((a[1], a[2]) in plus)) gone[a[2]] = a[1] }
		for (k in plus) { split(k, a, SUBSEP); if (!((a[1], a[2]) in minus)) added[a[2]] = a[1] }
		for (i = 1; i <= n; i++) {
			p = pat[i]; m = split(body[p], ls, "\n")
			for (j = 1; j <= m; j++) {
				for (sym in gone) if (sub_of[gone[sym]] != sub_of[p] && ls[j] ~ /^-/ && ls[j] ~ "(^|[^A-Za-z0-9_])" sym "([^A-Za-z0-9_]|$)")
					dep[sub_of[gone[sym]] "\t" sub_of[p] "\t" gone[sym] " removes " sym]
				for (sym in added) if (sub_of[added[sym]] != sub_of[p] && ls[j] ~ /^\+/ && ls[j] ~ "(^|[^A-Za-z0-9_])" sym "([^A-Za-z0-9_]|$)")
					dep[sub_of[p] "\t" sub_of[added[sym]] "\t" p " uses " sym]
			}
		}
		for (d in dep) print d
	}' | sort
