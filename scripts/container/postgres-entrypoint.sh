#!/bin/bash
# The official image's first-start behaviour, for the variables compose.scale.yaml sets.
set -euo pipefail
if [ "${1:-}" = postgres ]; then
  if [ "$(id -u)" = 0 ]; then
    mkdir -p "$PGDATA" /var/run/postgresql
    chown -R postgres:postgres "$PGDATA" /var/run/postgresql
    chmod 700 "$PGDATA"
    exec setpriv --reuid postgres --regid postgres --init-groups "$0" "$@"
  fi
  if [ ! -s "$PGDATA/PG_VERSION" ]; then
    : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD must be set}"
    user="${POSTGRES_USER:-postgres}" db="${POSTGRES_DB:-${POSTGRES_USER:-postgres}}"
    pwfile="$(mktemp)"; printf '%s' "$POSTGRES_PASSWORD" > "$pwfile"
    initdb -D "$PGDATA" --username="$user" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 >/dev/null
    rm -f "$pwfile"
    echo 'host all all all scram-sha-256' >> "$PGDATA/pg_hba.conf"
    echo "listen_addresses = '*'" >> "$PGDATA/postgresql.conf"
    if [ "$db" != postgres ]; then
      pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
      psql -v ON_ERROR_STOP=1 --username "$user" --dbname postgres -c "CREATE DATABASE \"$db\"" >/dev/null
      pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
    fi
    echo "postgres stand-in: initialised $PGDATA (user $user, database $db)"
  fi
fi
exec "$@"
