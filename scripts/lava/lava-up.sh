#!/bin/sh
# lava-up.sh: a LAVA instance on this machine (make lava-up): Debian's
# lava-server and lava-dispatcher, postgres, the web service, the scheduler
# and one worker, all on 127.0.0.1; a qemu device (amd64, no KVM) on that
# worker, and a user with a token that lavacli uses. Running it again
# changes nothing that is already up. lava-down.sh undoes it. docs/lava.md.
. "$(dirname "$0")/lava-lib.sh"

[ "$(id -u)" = 0 ] || die "make lava-up runs as root (it installs packages and starts daemons)"
mkdir -p "$LAVA_STATE"
chmod 700 "$LAVA_STATE"

# Without recommends: they would bring apache2 and lava-coordinator, which
# listen on every address, and tftp/NFS servers a qemu device never uses.
pkgs="lava-server lava-dispatcher lavacli postgresql curl"
missing=
for p in $pkgs; do
	dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
	progress lava-up "apt-get install$missing (build/lava/apt.log)"
	{ apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing; } \
		>"$LAVA_STATE/apt.log" 2>&1 || die "apt-get install$missing failed: $LAVA_STATE/apt.log"
fi
# shellcheck disable=SC2086 # words
systemctl disable $LAVA_UNITS >/dev/null 2>&1 || true

# postgres on loopback only; stopped again by lava-down when started here.
printf "# bklfree: make lava-up; removed by make lava-down\nlisten_addresses = '127.0.0.1'\n" >"$LAVA_PG_CONF"
if pg_lsclusters -h 15 main | grep -q ' online'; then
	la=$(su postgres -c "psql -Atc 'show listen_addresses'")
	[ "$la" = 127.0.0.1 ] ||
		die "postgres already runs with listen_addresses='$la'; stop it (pg_ctlcluster 15 main stop) and run make lava-up again"
else
	pg_ctlcluster 15 main start || die "postgres did not start"
	touch "$LAVA_STATE/pg-started"
fi

# LAVA's own setup (what its Debian postinst runs): settings, database and
# its user, migrations. Idempotent.
"$LAVA_PYTHON" /usr/share/lava-server/postinst.py --config --db --fixup \
	>"$LAVA_STATE/postinst.log" 2>&1 || die "lava-server's setup failed: $LAVA_STATE/postinst.log"

# The daemons drop to lavaserver before they open their logs.
for f in gunicorn.log lava-scheduler.log; do
	touch "/var/log/lava-server/$f" && chown lavaserver:adm "/var/log/lava-server/$f"
done
# The web service (XML-RPC for lavacli and the worker's API), as Debian's
# lava-server-gunicorn unit runs it, bound to loopback; 2 workers for 2 cores.
daemon_start gunicorn /usr/bin/gunicorn3 lava_server.wsgi --log-level INFO \
	--log-file /var/log/lava-server/gunicorn.log -u lavaserver -g lavaserver \
	--worker-class eventlet --workers 2 --bind "$LAVA_HOST:$LAVA_PORT"
# No lava-publisher: event notification is off, the worker polls instead.
daemon_start scheduler lava-server manage lava-scheduler --level INFO \
	--log-file /var/log/lava-server/lava-scheduler.log --event-url "tcp://$LAVA_HOST:5500"
wait_http "${LAVA_URL}api/v0.2/system/version/" 60 ||
	die "lava-server does not answer on $LAVA_URL: /var/log/lava-server/gunicorn.log"

# The device type, the worker, its device and the device dictionary.
manage device-types list | grep '^\* qemu ' >/dev/null || manage device-types add qemu ||
	die "cannot add the qemu device type"
if ! manage workers list | grep "^\* $LAVA_WORKER " >/dev/null; then
	manage workers add "$LAVA_WORKER" --description "bklfree: make lava-up" >/dev/null ||
		die "cannot add worker $LAVA_WORKER"
fi
manage workers details "$LAVA_WORKER" | sed -n 's/^token *: //p' >"$LAVA_STATE/worker.token"
[ -s "$LAVA_STATE/worker.token" ] || die "no token for worker $LAVA_WORKER"
# The dictionary sets what the job may not: the architecture and TCG (the
# KVM probe hangs on this machine).
cat >"$LAVA_DEVICE_DICT" <<'EOF'
{# bklfree: make lava-up; removed by make lava-down #}
{% extends 'qemu.jinja2' %}
{% set arch = 'amd64' %}
{% set no_kvm = True %}
{% set mac_addr = '52:54:00:12:34:59' %}
EOF
chown lavaserver:lavaserver "$LAVA_DEVICE_DICT"
if ! manage devices list -a | grep "^\* $LAVA_DEVICE " >/dev/null; then
	manage devices add --device-type qemu --worker "$LAVA_WORKER" \
		--description "bklfree: make lava-up" "$LAVA_DEVICE" ||
		die "cannot add device $LAVA_DEVICE"
fi

# The user lavacli submits as, its token and lavacli's identity.
manage users list | grep "^\* $LAVA_USER\b" >/dev/null ||
	manage users add "$LAVA_USER" --staff --superuser >/dev/null ||
	die "cannot add user $LAVA_USER"
if ! { [ -f "$LAVA_STATE/lavacli.yaml" ] && lavacli system version >/dev/null 2>&1; }; then
	token=$(manage tokens add --user "$LAVA_USER" --description "bklfree lavacli") ||
		die "cannot make a token for $LAVA_USER"
	XDG_CONFIG_HOME="$LAVA_STATE" "$LAVA_PYTHON" /usr/bin/lavacli identities add \
		--uri "${LAVA_URL}RPC2" --username "$LAVA_USER" --token "$token" "$LAVA_USER" ||
		die "cannot write lavacli's identity"
	chmod 600 "$LAVA_STATE/lavacli.yaml"
fi

# The dispatcher's worker; it asks the server for jobs every 5 s.
daemon_start worker lava-worker --level INFO --log-file /var/log/lava-dispatcher/lava-worker.log \
	--url "$LAVA_URL" --name "$LAVA_WORKER" --token-file "$LAVA_STATE/worker.token" \
	--ping-interval 5
i=0
until lavacli workers show "$LAVA_WORKER" 2>/dev/null | grep -q 'state *: Online'; do
	i=$((i + 1))
	[ $i -le 60 ] || die "worker $LAVA_WORKER is not online after 60 s: /var/log/lava-dispatcher/lava-worker.log"
	sleep 1
done
progress lava-up "LAVA $(lavacli system version) at $LAVA_URL: worker $LAVA_WORKER online, device $LAVA_DEVICE ($(lavacli devices show "$LAVA_DEVICE" | sed -n 's/^health *: //p')), lavacli identity in $LAVA_STATE/lavacli.yaml"
