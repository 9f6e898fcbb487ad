#!/usr/bin/env bash
# The README's start command as a new user runs it: `npm start` builds and serves, on the
# embedded store in a fresh data folder (settings through the environment: a free port on
# 127.0.0.1 and a temporary folder, instead of 8080 and ./data). Checks that the API and the web
# UI answer, then that SIGTERM to npm stops the whole tree and frees the port.
set -euo pipefail
cd "$(dirname "$0")/.."

data=$(mktemp -d /tmp/varsetd-npm-start.XXXXXX)
port=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
log="$data.log"
PORT=$port VARSETD_DATA_DIR=$data npm start >"$log" 2>&1 &
npm_pid=$!
cleanup() {
  kill "$npm_pid" 2>/dev/null || true
  rm -rf "$data" "$log"
}
trap cleanup EXIT
fail() {
  echo "npm-start-check: $1" >&2
  tail -n 40 "$log" >&2
  exit 1
}

for _ in $(seq 1 300); do
  curl -sf "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break
  kill -0 "$npm_pid" 2>/dev/null || fail "npm start exited before serving"
  sleep 1
done
curl -sf "http://127.0.0.1:$port/readyz" >/dev/null || fail "not ready after 300 s"
token=$(cat "$data/admin-token")
curl -sf -H "Authorization: Bearer $token" "http://127.0.0.1:$port/api/v2/organizations" | grep -q '"data"' || fail "the API did not answer the admin token"
curl -sf "http://127.0.0.1:$port/" | grep -qi '<!doctype html>' || fail "the web UI did not answer"
[ "$(stat -c %a "$data")" = 700 ] || fail "the data folder is not 0700"

kill -TERM "$npm_pid"
for _ in $(seq 1 30); do
  kill -0 "$npm_pid" 2>/dev/null || break
  sleep 1
done
kill -0 "$npm_pid" 2>/dev/null && fail "npm start still runs 30 s after SIGTERM"
if curl -s -o /dev/null "http://127.0.0.1:$port/readyz"; then fail "something still serves port $port after npm start stopped"; fi
echo "npm-start-check: npm start served on 127.0.0.1:$port and stopped on SIGTERM"
