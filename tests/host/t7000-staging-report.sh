#!/bin/sh
# scripts/staging/staging-report.sh on a small fake tree: lines of code, the facts
# file (since, upstream fate, a recorded driver no longer in the tree), TODO
# items, the profile that enables a driver's symbol and its last verdict,
# in the text report and in results/staging-report.json.
. "$TOP/tests/host/ktap.sh"
ktap_plan 4

w="$TMPDIR/t7000"
rm -rf "$w"
s="$w/build/kernel/patched/src/drivers/staging"
mkdir -p "$w/top/patches/staging-move" "$w/top/qemu-devices" \
	"$s/foo/sub" "$s/bar" "$w/results/patched/p"
printf 'a\nb\n' >"$s/foo/foo.c"
printf 'c\n' >"$s/foo/sub/foo.h"
printf 'not code\n' >"$s/foo/README"
printf 'config FOO\n\ttristate "foo"\n' >"$s/foo/Kconfig"
printf 'menuconfig BAR_CORE\n\tbool "bar"\n' >"$s/bar/Kconfig"
printf 'x\n' >"$s/bar/bar.c"
cat >"$s/foo/TODO" <<'EOT'
TODO:
=====
- first item
  continued
* second item
- third item
- fourth item
EOT
printf 'Just prose,\nno list.\n' >"$s/bar/TODO"
t=$(printf '\t')
cat >"$w/top/patches/staging-move/staging-drivers" <<EOT
# comment
foo${t}this series${t}in staging${t}test
gone${t}4.16 (1bb8155080c6)${t}removed upstream${t}test
EOT
cat >"$w/top/qemu-devices/p.profile" <<'EOT'
description=fake
kconfig=CONFIG_FOO=y
tests=none/none
timeout=10
EOT
cat >"$w/top/qemu-devices/q.profile" <<'EOT'
description=fake, not run
kconfig=CONFIG_FOO=m
kconfig=CONFIG_FOO_EXTRA=y
tests=none/none
timeout=10
EOT
printf 'verdict=fail\nreason=x\n' >"$w/results/patched/p/verdict"

TOP="$w/top" BUILD="$w/build" KTREES="$w/build/kernel" RESULTS="$w/results" TOOLS="$TOOLS" \
	sh "$TOP/scripts/staging/staging-report.sh" >"$w/out" 2>"$w/err"
ktap_ok $? "the report runs" || ktap_diag "$(cat "$w/err")"

cat >"$w/expected" <<'EOT'
staging report: drivers/staging of the patched tree (build/kernel/patched/src/drivers/staging)

driver             loc  since                lab (verdict)                                upstream fate
bar                  1  unknown              -                                            unknown
    todo: Just prose,
    todo: no list.
foo                  3  this series          p fail, q not run                            in staging
    todo: first item
    todo: second item
    todo: third item
gone                 -  4.16 (1bb8155080c6)  not in tree                                  removed upstream

3 drivers, 1 exercised by the lab, 1 recorded but no longer in the tree
EOT
ktap_golden staging-report.txt "$w/expected" "$w/out"
ktap_ok $? "text report matches the golden output"
cmp -s "$w/out" "$w/results/staging-report.txt"
ktap_ok $? "results/staging-report.txt holds the same text"

if command -v python3 >/dev/null 2>&1; then
	python3 - "$w/results/staging-report.json" >"$w/json.err" 2>&1 <<'EOT'
import json, sys
r = json.load(open(sys.argv[1]))
d = {x["driver"]: x for x in r["drivers"]}
assert sorted(d) == ["bar", "foo", "gone"], sorted(d)
assert d["foo"]["loc"] == 3 and d["foo"]["in_tree"] is True
assert d["foo"]["todo"] == ["first item", "second item", "third item"]
assert d["foo"]["lab"] == [{"profile": "p", "verdict": "fail"},
                           {"profile": "q", "verdict": "not run"}]
assert d["bar"]["since"] == "unknown" and d["bar"]["lab"] == []
assert d["gone"]["in_tree"] is False and d["gone"]["loc"] is None
assert d["gone"]["upstream_fate"] == "removed upstream"
assert (r["drivers_total"], r["exercised"], r["not_in_tree"]) == (3, 1, 1)
EOT
	ktap_ok $? "JSON report parses and holds the same facts" ||
		ktap_diag "$(cat "$w/json.err")"
else
	ktap_skip "python3 absent" "JSON report parses and holds the same facts"
fi
ktap_done
