#!/bin/sh
# scripts/lab/matrix.sh's two passes, with a stand-in boot.sh that only
# records when each boot ran: the profiles with timing= or peer= boot
# first, never more of them at once than MATRIX_CORES; the rest after
# them, up to MATRIX_LANES at once; every boot once; bad counts refused.
. "$TOP/tests/host/ktap.sh"
ktap_plan 6

w="$TMPDIR/t3003"
rm -rf "$w"
mkdir -p "$w/top/qemu-devices/peers" "$w/top/scripts/lab" "$w/results" || exit 1
lab="$w/top/scripts/lab"
ln -s "$TOP/scripts/lab/lib.sh" "$TOP/scripts/lab/profiles.sh" "$lab/" || exit 1
printf '#!/bin/sh\nexit 0\n' >"$lab/accel.sh"
# The stand-in boot: "start KERNEL PROFILE RUNNING" and "end ..." lines in
# the log, RUNNING the boots under way counting this one (a folder each).
cat >"$lab/boot.sh" <<'EOT'
#!/bin/sh
mkdir "$W/running/$1-$2"
echo "start $1 $2 $(ls "$W/running" | wc -l)" >>"$W/log"
sleep 1
echo "end $1 $2" >>"$W/log"
rmdir "$W/running/$1-$2"
EOT
chmod +x "$lab/accel.sh" "$lab/boot.sh"
mkdir "$w/running"
d="$w/top/qemu-devices"
printf 'description=x\ntests=core/chardev\ntimeout=5\n' >"$d/peers/twin.profile"
for p in race1 race2 race3 pair plain1 plain2 plain3 plain4 plain5; do
	printf 'description=x\ntests=core/chardev\ntimeout=5\n' >"$d/$p.profile"
done
for p in race1 race2 race3; do
	echo "timing=the test calibrates a race" >>"$d/$p.profile"
done
echo "peer=twin" >>"$d/pair.profile"

matrix() {
	W="$w" TOP="$w/top" RESULTS="$w/results" KERNELS=baseline PROFILES= SUBSYS= \
		sh "$TOP/scripts/lab/matrix.sh" >"$w/out" 2>&1
}

MATRIX_CORES=2 MATRIX_LANES=4 matrix
ktap_ok $? "the matrix of stand-in boots runs" || ktap_diag "$(cat "$w/out")"

[ "$(grep -c '^start' "$w/log")" -eq 9 ] &&
	[ "$(grep '^start' "$w/log" | sort -u -k2,3 | wc -l)" -eq 9 ]
ktap_ok $? "each of the 9 profiles booted once" || ktap_diag "$(cat "$w/log")"

# The log up to the last start of a pass-1 profile holds no other start.
last=$(grep -n '^start baseline \(race\|pair\)' "$w/log" | tail -n 1 | cut -d: -f1)
[ -n "$last" ] && [ "$(head -n "$last" "$w/log" | grep -c '^start baseline plain')" -eq 0 ]
ktap_ok $? "the timing= and peer= profiles boot before the rest" ||
	ktap_diag "$(cat "$w/log")"

[ "$(grep '^start baseline \(race\|pair\)' "$w/log" | cut -d' ' -f4 | sort -n | tail -n 1)" -eq 2 ]
ktap_ok $? "they boot MATRIX_CORES (2) at a time, no more" || ktap_diag "$(cat "$w/log")"

# Five boots of a second each, four lanes: four start together.
[ "$(grep '^start baseline plain' "$w/log" | cut -d' ' -f4 | sort -n | tail -n 1)" -eq 4 ]
ktap_ok $? "the rest boot MATRIX_LANES (4) at a time" || ktap_diag "$(cat "$w/log")"

: >"$w/log"
MATRIX_LANES=4 MATRIX_CORES=two matrix
[ $? -ne 0 ] && grep -q "^error: MATRIX_CORES must be a number of guests, 1 or more (got 'two')" "$w/out" &&
	[ ! -s "$w/log" ]
ktap_ok $? "a MATRIX_CORES that is not a count is refused before any boot" ||
	ktap_diag "$(cat "$w/out")"
ktap_done
