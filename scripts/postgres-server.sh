#!/usr/bin/env bash
# Prints the folder of PostgreSQL's server programs (initdb, pg_ctl, postgres), installing the
# server with apt-get when none is found. with-postgres.sh runs its throw-away cluster with them,
# and the tests that start a cluster of their own (test/support/postgres-cluster.ts) need them.
set -euo pipefail

find_pg_bin() {
  local dir
  for dir in /usr/lib/postgresql/*/bin; do
    [ -x "$dir/initdb" ] && { echo "$dir"; return 0; }
  done
  command -v initdb >/dev/null 2>&1 && { dirname "$(command -v initdb)"; return 0; }
  return 1
}

if ! find_pg_bin; then
  echo "postgres-server: PostgreSQL server not found; installing it with apt-get" >&2
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq postgresql >/dev/null
  find_pg_bin
fi
