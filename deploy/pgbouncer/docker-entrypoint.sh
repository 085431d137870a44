#!/bin/sh
# Compose's PgBouncer: writes the userlist (pgbouncer.ini's auth_file) from the database
# account's settings, owner-only, then runs PgBouncer in the foreground with the ini.
set -eu
: "${POSTGRES_USER:=arbiter}"
: "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD in deploy/.env}"
umask 077
printf '"%s" "%s"\n' "$POSTGRES_USER" "$POSTGRES_PASSWORD" >/etc/pgbouncer/userlist.txt
exec pgbouncer /etc/pgbouncer/pgbouncer.ini
