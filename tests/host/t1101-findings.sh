#!/bin/sh
# scripts/lab/failed-cases.sh and scripts/lab/findings.sh: the failing cases of a
# boot's KTAP are attributed to their top-level test, and a series'
# recorded finding counts only while its fixing patch is applied.
. "$TOP/tests/host/ktap.sh"
ktap_plan 6

w="$TMPDIR/t1101"
rm -rf "$w"
mkdir -p "$w/top/patches/drivers" "$w/build/kernel/patched"
cat >"$w/ktap.txt" <<'EOT'
KTAP version 1
1..3
    KTAP version 1
    1..2
    ok 1 first
    not ok 2 second
not ok 1 area/one # exit status 1
    KTAP version 1
    1..1
    ok 1 fine
ok 2 area/two
not ok 3 area/three # missing /tests/area/three in the initramfs
EOT
got=$(sh "$TOP/scripts/lab/failed-cases.sh" "$w/ktap.txt" | tr '\n' ' ')
[ "$got" = "area/one:2 area/three:- " ]
ktap_ok $? "failing cases are named by test and case number" || ktap_diag "got: $got"

printf 'p\tarea/one\t2,5\t0001-fix.patch\n' >"$w/top/patches/drivers/findings"
findings() {
	TOP="$w/top" BUILD="$w/build" sh "$TOP/scripts/lab/findings.sh" "$1" | tr '\n' ' '
}
echo drivers/0001-fix.patch >"$w/build/kernel/patched/applied"
[ "$(findings p)" = "area/one:2 area/one:5 " ]
ktap_ok $? "a finding lists its cases while its patch is applied"
[ -z "$(findings other)" ]
ktap_ok $? "other profiles have no findings"
: >"$w/build/kernel/patched/applied"
[ -z "$(findings p)" ]
ktap_ok $? "without its patch a finding does not count"
printf 'p\tarea/one\t3,splat\t0001-fix.patch\np\tarea/two\thostcheck\t0002-fix.patch\n' >"$w/top/patches/drivers/findings"
printf 'drivers/0001-fix.patch\ndrivers/0002-fix.patch\n' >"$w/build/kernel/patched/applied"
[ "$(findings p)" = "area/one:3 hostcheck splat " ]
ktap_ok $? "splat and hostcheck findings are listed as such" || ktap_diag "got: $(findings p)"
printf 'p\tarea/one\t3,oops\t0001-fix.patch\n' >"$w/top/patches/drivers/findings"
findings p >/dev/null 2>"$w/err"
grep -q "bad case 'oops'" "$w/err"
ktap_ok $? "an unknown word in the cases column is an error" || ktap_diag "$(cat "$w/err")"
ktap_done
