#!/bin/sh
# t1001-verdict-errors: verdict refuses a bad command line or an unreadable
# log with exit status 2, nothing on stdout and a message on stderr, first
# line "error: ...", usage errors followed by the usage line.
#
# Needs TOP (the repository) and TOOLS (the built host tools).
if [ -z "${TOP:-}" ] || [ -z "${TOOLS:-}" ]; then
	echo "error: TOP and TOOLS must be set (repository, host tools)" >&2
	exit 1
fi
. "$TOP/tests/host/ktap.sh"

tmp=${TMPDIR:-/tmp}/bklfree-t1001
mkdir -p "$tmp" || exit 1
log=$TOP/tests/host/fixtures/verdict/clean.log

# expect_error DESC MESSAGE ARGS...: verdict ARGS exits 2, prints nothing on
# stdout, and the first line of its stderr starts with MESSAGE.
expect_error() {
	desc=$1 message=$2
	shift 2
	"$TOOLS/verdict" "$@" >"$tmp/out" 2>"$tmp/err"
	status=$?
	first=$(head -n 1 "$tmp/err")
	case $first in
	"$message"*) matched=0 ;;
	*) matched=1 ;;
	esac
	[ "$status" = 2 ] && [ ! -s "$tmp/out" ] && [ "$matched" = 0 ]
	ktap_ok $? "$desc" && return
	ktap_diag "exit status $status, expected 2; stderr:"
	ktap_diag "$(cat "$tmp/err")"
}

ktap_plan 15
expect_error "missing log" "error: cannot open '$tmp/missing.log': " \
	"$tmp/missing.log"
expect_error "directory as log" "error: cannot read '$tmp': " "$tmp"
expect_error "unknown option" "error: unknown option '--bogus'" \
	--bogus "$log"
sed -n 2p "$tmp/err" | grep -q '^usage: verdict \[--timed-out\]'
ktap_ok $? "usage after a usage error" ||
	ktap_diag "stderr: $(cat "$tmp/err")"
expect_error "no log" "error: no console log given"
expect_error "two logs" "error: more than one console log: " "$log" "$log"
expect_error "exit status without value" \
	"error: option '--exit-status' needs a value" "$log" --exit-status
expect_error "exit status not a number" "error: bad exit status 'x'" \
	--exit-status x "$log"
expect_error "exit status too large" "error: bad exit status '256'" \
	--exit-status=256 "$log"
expect_error "optional without a test" \
	"error: option '--optional' needs a value" "$log" --optional
expect_error "optional with an empty test" \
	"error: option '--optional' needs a test name" --optional= "$log"
expect_error "host check failed without a command" \
	"error: option '--hostcheck-failed' needs a command" \
	--hostcheck-failed "" "$log"
expect_error "two host check results" \
	"error: more than one host check result" \
	--hostcheck-passed --hostcheck-failed x "$log"
expect_error "qemu-stderr without a file" \
	"error: option '--qemu-stderr' needs a value" "$log" --qemu-stderr
: >"$tmp/empty.log"
expect_error "unreadable qemu stderr of a boot QEMU never ran" \
	"error: cannot open '$tmp/missing.stderr': " --exit-status 1 \
	--qemu-stderr "$tmp/missing.stderr" "$tmp/empty.log"
ktap_done
