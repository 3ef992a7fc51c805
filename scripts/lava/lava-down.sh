#!/bin/sh
# lava-down.sh: undoes lava-up.sh (make lava-down): stops the worker, the
# scheduler and the web service (and any job they run), drops LAVA's
# databases and their roles (with them the device, worker, user, token and
# every job), removes the device dictionary, the database settings, the job
# outputs, lavacli's identity and the worker's token, keeps Debian's units
# disabled, and stops postgres when lava-up started it. Debian's packages
# stay installed. docs/lava.md.
. "$(dirname "$0")/lava-lib.sh"

[ "$(id -u)" = 0 ] || die "make lava-down runs as root"
for d in worker scheduler gunicorn; do
	daemon_stop "$d"
done
# shellcheck disable=SC2086 # words
systemctl disable $LAVA_UNITS >/dev/null 2>&1 || true

if pg_lsclusters -h 15 main 2>/dev/null | grep -q ' online'; then
	for db in lavaserver devel; do
		su postgres -c "psql -q -c 'DROP DATABASE IF EXISTS \"$db\" WITH (FORCE)' -c 'DROP ROLE IF EXISTS \"$db\"'" ||
			die "cannot drop database $db"
	done
fi
rm -f "$LAVA_DEVICE_DICT" /etc/lava-server/settings.d/00-database.yaml
rm -rf /var/lib/lava-server/default/media/job-output/* /var/lib/lava/dispatcher/worker
if [ -f "$LAVA_STATE/pg-started" ]; then
	pg_ctlcluster 15 main stop || die "postgres did not stop"
fi
rm -f "$LAVA_PG_CONF"
rm -rf "$LAVA_STATE"
progress lava-down "LAVA stopped; its databases, device, worker, user, token and lavacli identity removed; Debian's packages kept"
