# What the local LAVA instance's scripts share (make lava-up, lava-down,
# lava-submit); sourced, never run. One instance per machine: Debian's
# lava-server and lava-dispatcher, every daemon bound to 127.0.0.1 and run
# by these scripts (this machine has no systemd to run Debian's units).
# docs/lava.md.
# shellcheck disable=SC2034 # the names below are read by the scripts that source this
. "$(dirname "$0")/../lab/lib.sh"

# Where the instance is reached, and its names.
: "${LAVA_HOST:=127.0.0.1}"
: "${LAVA_PORT:=8000}"
: "${LAVA_ART_PORT:=8002}"
LAVA_URL="http://$LAVA_HOST:$LAVA_PORT/"
LAVA_USER=bklfree
LAVA_WORKER=bklfree-worker
LAVA_DEVICE=bklfree-qemu
# State of the instance this checkout started: pid files, daemon logs, the
# worker's token, lavacli's identity (XDG_CONFIG_HOME/lavacli.yaml).
LAVA_STATE="$BUILD/lava"
LAVA_DEVICE_DICT=/etc/lava-server/dispatcher-config/devices/$LAVA_DEVICE.jinja2
# postgres listens on loopback only: this file in the cluster's conf.d.
LAVA_PG_CONF=/etc/postgresql/15/main/conf.d/bklfree-lava.conf
# The units Debian's packages enable; never started here, kept disabled so
# that a boot with systemd would not start them on every address.
LAVA_UNITS="lava-server-gunicorn lava-scheduler lava-publisher lava-celery-worker lava-worker lava-docker-worker lava-dispatcher-host.socket lava-dispatcher-host"
# Debian's interpreter, where Debian's LAVA is installed.
LAVA_PYTHON=/usr/bin/python3

# lavacli ARGS...: Debian's lavacli with this checkout's identity.
lavacli() {
	XDG_CONFIG_HOME="$LAVA_STATE" "$LAVA_PYTHON" /usr/bin/lavacli -i "$LAVA_USER" "$@"
}

manage() {
	lava-server manage "$@"
}

# daemon_running NAME: the daemon NAME started by daemon_start still runs.
daemon_running() {
	[ -f "$LAVA_STATE/run/$1.pid" ] && kill -0 "$(cat "$LAVA_STATE/run/$1.pid")" 2>/dev/null
}

# daemon_start NAME COMMAND...: COMMAND in a session of its own (so that
# daemon_stop ends it and its children together), output in
# $LAVA_STATE/log/NAME.log; nothing when it already runs.
daemon_start() {
	_n=$1
	shift
	daemon_running "$_n" && return 0
	mkdir -p "$LAVA_STATE/run" "$LAVA_STATE/log"
	setsid "$@" </dev/null >>"$LAVA_STATE/log/$_n.log" 2>&1 &
	echo $! >"$LAVA_STATE/run/$_n.pid"
}

# daemon_stop NAME: TERM to the daemon's session, KILL after 20 s.
daemon_stop() {
	[ -f "$LAVA_STATE/run/$1.pid" ] || return 0
	_pid=$(cat "$LAVA_STATE/run/$1.pid")
	kill -TERM "-$_pid" 2>/dev/null
	_i=0
	while kill -0 "-$_pid" 2>/dev/null && [ $_i -lt 20 ]; do
		sleep 1
		_i=$((_i + 1))
	done
	kill -KILL "-$_pid" 2>/dev/null
	rm -f "$LAVA_STATE/run/$1.pid"
}

# wait_http URL SECONDS: until URL answers, or fail.
wait_http() {
	_i=0
	until curl -fsS -o /dev/null "$1" 2>/dev/null; do
		_i=$((_i + 1))
		[ $_i -le "$2" ] || return 1
		sleep 1
	done
}
