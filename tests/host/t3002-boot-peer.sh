#!/bin/sh
# needs: kernels
# A two-guest boot (peer=) end to end with the real baseline kernel: the
# watchdog profile booted with a copy of itself as its peer passes, and
# both guests' consoles and verdicts are kept; with a peer that lost its
# QEMU device (its test skips, so its verdict fails) the boot fails as a
# host check naming the peer, and hostcheck.log gives the peer's reason;
# a peer that outlives its boot by PEER_GRACE seconds is killed and
# judged a hang. A peer profile booted alone, and a peer= naming no peer
# profile, are refused before anything boots.
. "$TOP/tests/host/ktap.sh"
. "$TOP/tests/host/standin-boot.sh"
ktap_plan 9

standin_lab t3002
src="$TOP/qemu-devices/watchdog.profile"
grep -qx 'qemu=-device i6300esb' "$src" ||
	ktap_bail "qemu-devices/watchdog.profile no longer has a '-device i6300esb' line"
# A peer has no kconfig= lines (its partner's set what it needs).
grep -v '^kconfig=' "$src" >"$w/top/qemu-devices/peers/twin.profile"
grep -v '^kconfig=' "$src" | grep -vx 'qemu=-device i6300esb' >"$w/top/qemu-devices/peers/nodev.profile"
{ cat "$src"; echo "peer=twin"; } >"$w/top/qemu-devices/pair.profile"
{ cat "$src"; echo "peer=nodev"; } >"$w/top/qemu-devices/pair-nodev.profile"
{ cat "$src"; echo "peer=gone"; } >"$w/top/qemu-devices/pair-gone.profile"
{ grep -v '^timeout=\|^kconfig=' "$src"; echo "qemu=-S"; echo "timeout=120"; } >"$w/top/qemu-devices/peers/paused.profile"
{ cat "$src"; echo "peer=paused"; } >"$w/top/qemu-devices/pair-paused.profile"

boot() {
	standin_boot "$w" "$1"
}

boot pair
r="$w/results/baseline/pair"
[ "$(verdict_kv "$r/verdict" verdict)" = pass ] && [ "$(verdict_kv "$r/peer/verdict" verdict)" = pass ]
ktap_ok $? "a profile and its peer both pass" ||
	ktap_diag "$(cat "$w/pair.out" "$r/hostcheck.log" 2>&1)"
grep -q '^ok .* watchdog/i6300esb' "$r/peer/console.log" &&
	grep -q '^ok .* watchdog/i6300esb' "$r/console.log"
ktap_ok $? "each guest ran its own test, each console kept in its folder"
[ -s "$r/peer/verdict" ] && [ -e "$r/peer/qemu.stderr" ] && [ ! -e "$r/peer/qemu.pid" ]
ktap_ok $? "the peer's verdict and QEMU messages are in peer/, its pid file gone with it"

boot pair-nodev
r="$w/results/baseline/pair-nodev"
[ "$(verdict_kv "$r/verdict" verdict)" = fail ] &&
	[ "$(verdict_kv "$r/verdict" reason)" = "host check 'peer guest nodev' failed, see hostcheck.log" ]
ktap_ok $? "a failing peer fails the boot as a host check naming it" ||
	ktap_diag "verdict: $(cat "$r/verdict")"
grep -q "^peer guest nodev .*: verdict fail: test 'watchdog/i6300esb' skipped" "$r/hostcheck.log"
ktap_ok $? "hostcheck.log gives the peer's verdict and reason" ||
	ktap_diag "$(cat "$r/hostcheck.log")"

# A peer that never runs (QEMU started paused) outlives its boot: killed
# PEER_GRACE seconds after it, and the boot fails.
PEER_GRACE=3 boot pair-paused
r="$w/results/baseline/pair-paused"
[ "$(verdict_kv "$r/verdict" reason)" = "host check 'peer guest paused' failed, see hostcheck.log" ] &&
	[ "$(verdict_kv "$r/peer/verdict" verdict)" = hang ] &&
	grep -q '^peer guest paused .*: verdict hang: .*(killed 3 s after this boot ended)$' "$r/hostcheck.log"
ktap_ok $? "a peer still running PEER_GRACE s after its boot is killed, judged a hang, and the boot fails" ||
	ktap_diag "$(cat "$w/pair-paused.out" "$r/verdict" "$r/peer/verdict" "$r/hostcheck.log")"

mkdir -p "$w/peers"
boot peers/twin
rc=$?
[ "$rc" != 0 ] && grep -q "^error: 'peers/twin' is not a profile of qemu-devices/" "$w/peers/twin.out"
ktap_ok $? "a peer profile is not booted alone" || ktap_diag "$(cat "$w/peers/twin.out")"

boot pair-gone
rc=$?
[ "$rc" != 0 ] && grep -qx "error: profile 'pair-gone' names peer 'gone': no qemu-devices/peers/gone.profile" "$w/pair-gone.out"
ktap_ok $? "a peer= naming no peer profile is refused, named" || ktap_diag "$(cat "$w/pair-gone.out")"
[ ! -e "$w/results/baseline/pair-gone" ]
ktap_ok $? "nothing booted for it"
ktap_done
