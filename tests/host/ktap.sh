# ktap.sh: KTAP output for shell tests, the shell twin of tests/guest/ktap.h
# (same names, same rules). Sourced, never run:
#
#	. "$TOP/tests/host/ktap.sh"
#	ktap_plan 2
#	cmp -s expected actual
#	ktap_ok $? "output matches"
#	ktap_skip "qemu-system-x86_64 absent" "boot"
#	ktap_done
#
# ktap_plan N         print "KTAP version 1" and the plan "1..N"; call first
# ktap_ok STATUS DESC print "ok N DESC" when STATUS is 0, else "not ok N DESC";
#                     returns 0 or 1 likewise, for "ktap_ok $? d || ktap_diag"
# ktap_skip REASON DESC
#                     print "ok N DESC # SKIP REASON"
# ktap_diag TEXT      print each line of TEXT as "# line"
# ktap_bail REASON    the test cannot go on: print "Bail out! REASON", exit 1
# ktap_done           exit 0 when every case passed and the plan was met,
#                     1 otherwise
# ktap_golden NAME EXPECTED ACTUAL
#                     the one golden-file compare (fstests NNN.out, git
#                     test_cmp): returns 0 when ACTUAL has EXPECTED's bytes;
#                     else keeps ACTUAL as $TMPDIR/NAME.bad, prints the diff
#                     head and the full-diff command, and returns 1. It
#                     prints no result line: "ktap_golden ...; ktap_ok $? DESC"
#
# A description never holds a '#'.

ktap_planned=
ktap_count=0
ktap_failed=0

ktap_plan() {
	ktap_planned=$1
	printf 'KTAP version 1\n1..%s\n' "$1"
}

ktap_ok() {
	ktap_count=$((ktap_count + 1))
	if [ "$1" = 0 ]; then
		printf 'ok %s %s\n' "$ktap_count" "$2"
		return 0
	fi
	ktap_failed=$((ktap_failed + 1))
	printf 'not ok %s %s\n' "$ktap_count" "$2"
	return 1
}

ktap_skip() {
	ktap_count=$((ktap_count + 1))
	printf 'ok %s %s # SKIP %s\n' "$ktap_count" "$2" "$1"
}

ktap_diag() {
	printf '%s\n' "$*" | sed 's/^/# /'
}

ktap_bail() {
	printf 'Bail out! %s\n' "$*"
	exit 1
}

ktap_golden() {
	cmp -s "$2" "$3" && return 0
	_kg_bad=${TMPDIR:-/tmp}/$1.bad
	[ "$3" = "$_kg_bad" ] || cp "$3" "$_kg_bad"
	ktap_diag "$(diff -u "$2" "$_kg_bad" | head -n 20)"
	ktap_diag "full diff: diff -u '$2' '$_kg_bad'"
	return 1
}

ktap_done() {
	if [ "$ktap_count" != "$ktap_planned" ]; then
		ktap_diag "planned ${ktap_planned:-no} cases, ran $ktap_count"
		exit 1
	fi
	[ "$ktap_failed" = 0 ] || exit 1
	exit 0
}
