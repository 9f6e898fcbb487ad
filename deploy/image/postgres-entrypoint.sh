#!/bin/sh
# The entrypoint of the varsetd-postgres image (deploy/image/postgres.Containerfile). On an empty
# PGDATA, the first time: initdb with the superuser POSTGRES_USER (postgres) and the password
# POSTGRES_PASSWORD (or the file POSTGRES_PASSWORD_FILE), password logins from any address, and
# the database POSTGRES_DB (the superuser's name) created. Then PostgreSQL in the foreground,
# listening on every address of the container; arguments are passed on (-c name=value).
set -eu
bin=/usr/lib/postgresql/15/bin
user=${POSTGRES_USER:-postgres}
database=${POSTGRES_DB:-$user}
: "${PGDATA:=/var/lib/postgresql/data}"

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  password=${POSTGRES_PASSWORD:-}
  if [ -n "${POSTGRES_PASSWORD_FILE:-}" ]; then password=$(cat "$POSTGRES_PASSWORD_FILE"); fi
  if [ -z "$password" ]; then
    echo "postgres-entrypoint: the cluster is new: set POSTGRES_PASSWORD (or POSTGRES_PASSWORD_FILE) for its superuser" >&2
    exit 2
  fi
  mkdir -p "$PGDATA"
  chmod 0700 "$PGDATA"
  pwfile=$(mktemp)
  printf '%s\n' "$password" >"$pwfile"
  "$bin/initdb" --pgdata="$PGDATA" --username="$user" --pwfile="$pwfile" --auth=scram-sha-256 \
    --encoding=UTF8 --locale=C >/dev/null
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  if [ "$database" != postgres ]; then
    echo "CREATE DATABASE \"$database\"" | "$bin/postgres" --single -D "$PGDATA" postgres >/dev/null
  fi
  echo "postgres-entrypoint: cluster made in $PGDATA, database $database, superuser $user" >&2
fi
exec "$bin/postgres" -D "$PGDATA" -c listen_addresses='*' -c unix_socket_directories=/tmp "$@"
