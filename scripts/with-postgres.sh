#!/usr/bin/env bash
# Runs a command with a throw-away PostgreSQL cluster on 127.0.0.1 and a free port,
# exported as TEST_DATABASE_URL (and PG_ADMIN_URL). Installs PostgreSQL with apt-get
# when no server binaries are found. The cluster is stopped and removed afterwards.
#   usage: scripts/with-postgres.sh <command> [args…]
set -euo pipefail

pg_bin=$(bash "$(dirname "$0")/postgres-server.sh")

# initdb refuses to run as root: run the cluster as the postgres system user then.
run_as=()
if [ "$(id -u)" -eq 0 ]; then
  id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
  run_as=(runuser -u postgres --)
fi

cluster=$(mktemp -d /tmp/varsetd-pg.XXXXXX)
chmod 755 "$cluster"
[ ${#run_as[@]} -gt 0 ] && chown postgres "$cluster"
port=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')

stop_cluster() {
  "${run_as[@]}" "$pg_bin/pg_ctl" -D "$cluster/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$cluster"
}
trap stop_cluster EXIT

"${run_as[@]}" "$pg_bin/initdb" -D "$cluster/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
"${run_as[@]}" "$pg_bin/pg_ctl" -D "$cluster/data" -l "$cluster/server.log" -w \
  -o "-p $port -k $cluster -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off" start >/dev/null

export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"
export PG_ADMIN_URL="$TEST_DATABASE_URL"
echo "with-postgres: PostgreSQL $("$pg_bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port" >&2
"$@"
