#!/usr/bin/env bash
# Runs go-tfe's own integration tests for what varsetd serves (variable sets and their
# variables, run comments, organizations and their tokens, projects, workspaces and their
# variables, teams, team access, team tokens, configuration versions) against a freshly
# started varsetd: on SQLite, then on PostgreSQL when DATABASE_URL is set. The tests listed in
# excluded.txt, which need parts of HCP Terraform varsetd does not have, are skipped.
#
# Usage: conformance/go-tfe/run.sh [RUN_PATTERN [extra go test flags...]]
#   RUN_PATTERN replaces the default -run pattern, e.g. '^TestVariableSetsRead$'; the
#   exclusions still apply.
#   CONFORMANCE_HTTPS=sqlite, postgres or all serves those stores' runs over HTTPS, with
#   varsetd's own TLS and a throw-away certificate that go-tfe trusts through SSL_CERT_FILE.
set -euo pipefail

readonly GO_TFE_MODULE=github.com/hashicorp/go-tfe
readonly GO_TFE_VERSION=v1.109.0
readonly DEFAULT_RUN='^Test(VariableSets|VariableSetVariables|Comments|Organizations|OrganizationTokens|Projects|Workspaces|Variables|Teams|TeamAccesses|TeamProjectAccesses|TeamTokens|ConfigurationVersions)'
readonly EXCLUDED_FILE="$(dirname "${BASH_SOURCE[0]}")/excluded.txt"

run_pattern=${1:-$DEFAULT_RUN}

# The -skip pattern: every test named in excluded.txt (its first column; # starts a comment).
# A name may be a subtest's (`TestX/sub_test`): go test matches each level of a pattern split at
# "/" against one level of the name, so each level is escaped and anchored on its own, and the
# names are joined as alternatives.
excluded_tests() { sed -e 's/#.*//' "$EXCLUDED_FILE" | awk 'NF { print $1 }'; }
skip_pattern() {
  excluded_tests | awk '{
    n = split($0, levels, "/"); out = ""
    for (i = 1; i <= n; i++) {
      level = levels[i]; gsub(/[][\\.+*?(){}|^$]/, "\\\\&", level)
      out = out (i > 1 ? "/" : "") "^" level "$"
    }
    print out
  }' | paste -sd '|' -
}
[[ -r $EXCLUDED_FILE ]] || { printf 'error: %s is missing\n' "$EXCLUDED_FILE" >&2; exit 2; }
SKIP=$(skip_pattern)
readonly SKIP
https_stores=${CONFORMANCE_HTTPS:-}
case $https_stores in
  '' | sqlite | postgres) ;;
  all) https_stores='sqlite postgres' ;;
  *) printf 'error: CONFORMANCE_HTTPS must be sqlite, postgres or all, got %s\n' "$https_stores" >&2; exit 2 ;;
esac
extra_args=("${@:2}")

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

log() { printf '==> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# --- prerequisites ---------------------------------------------------------------------

require_go() {
  local version minor
  if command -v go >/dev/null 2>&1; then
    version=$(go env GOVERSION 2>/dev/null || true) # e.g. go1.22.5
    minor=$(sed -n 's/^go1\.\([0-9][0-9]*\).*/\1/p' <<<"$version")
    if [[ -n $minor && $minor -ge 22 ]]; then
      return 0
    fi
  fi
  cat >&2 <<'EOF'
error: Go 1.22 or newer is needed to run go-tfe's tests, and `go` was not found on PATH
(or is older). Install it from https://go.dev/dl or with the distribution package
`golang` (for example `apt-get install golang` or `dnf install golang`), then run again.
EOF
  exit 1
}

require_go
command -v node >/dev/null 2>&1 || die "node (Node.js 22.14 or later, 24 or 26) is needed to build and run varsetd"
command -v npm >/dev/null 2>&1 || die "npm is needed to build varsetd"
command -v curl >/dev/null 2>&1 || die "curl is needed to wait for varsetd to start"
if [[ -n $https_stores ]] && ! command -v openssl >/dev/null 2>&1; then
  die "CONFORMANCE_HTTPS is set but openssl, which makes the certificate, is missing"
fi
if [[ -n ${DATABASE_URL:-} ]] && ! command -v psql >/dev/null 2>&1; then
  die "DATABASE_URL is set but psql is missing: install the PostgreSQL client (package postgresql-client)"
fi

# --- state and cleanup -----------------------------------------------------------------

work=$(mktemp -d "${TMPDIR:-/tmp}/varsetd-go-tfe.XXXXXX")
logs="$work/logs"
mkdir -p "$logs"

server_pid=""
pg_admin_url=""
pg_database=""

stop_server() {
  [[ -n $server_pid ]] || return 0
  if kill -0 "$server_pid" 2>/dev/null; then
    kill "$server_pid" 2>/dev/null || true
    for _ in $(seq 1 50); do
      kill -0 "$server_pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL "$server_pid" 2>/dev/null || true
  fi
  wait "$server_pid" 2>/dev/null || true
  server_pid=""
}

drop_pg_database() {
  [[ -n $pg_database ]] || return 0
  psql "$pg_admin_url" -v ON_ERROR_STOP=1 -qc "DROP DATABASE IF EXISTS \"$pg_database\" WITH (FORCE)" >/dev/null 2>&1 ||
    psql "$pg_admin_url" -qc "DROP DATABASE IF EXISTS \"$pg_database\"" >/dev/null 2>&1 ||
    printf 'warning: could not drop database %s\n' "$pg_database" >&2
  pg_database=""
}

cleanup() {
  stop_server
  drop_pg_database
  # Keep the logs; drop the go-tfe copy and the data folders.
  rm -rf "$work/go-tfe" "$work"/data-* "$work"/tls-*
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

random_hex() { node -e 'process.stdout.write(require("crypto").randomBytes(+process.argv[1]).toString("hex"))' "$1"; }

free_port() {
  node -e '
    const server = require("net").createServer();
    server.listen(0, "127.0.0.1", () => { process.stdout.write(String(server.address().port)); server.close(); });'
}

# --- go-tfe ----------------------------------------------------------------------------

prepare_go_tfe() {
  local info dir
  log "fetching $GO_TFE_MODULE@$GO_TFE_VERSION"
  # Run outside any module so `go mod download` fetches the module itself.
  info=$(cd "$work" && go mod download -json "$GO_TFE_MODULE@$GO_TFE_VERSION") ||
    die "go mod download failed:"$'\n'"$info"
  dir=$(sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p' <<<"$info")
  [[ -n $dir && -d $dir ]] || die "go mod download gave no module folder:"$'\n'"$info"

  # The module cache is read-only; the tests run from a writable copy.
  cp -R "$dir" "$work/go-tfe"
  chmod -R u+w "$work/go-tfe"

  log "downloading go-tfe's dependencies and compiling its tests"
  (cd "$work/go-tfe" && go mod download) || die "could not download go-tfe's dependencies"
  (cd "$work/go-tfe" && go test -count=1 -run '^$' . >"$logs/go-tfe-build.log" 2>&1) || {
    cat "$logs/go-tfe-build.log" >&2
    die "go-tfe's tests do not compile"
  }
}

# --- varsetd ---------------------------------------------------------------------------

build_varsetd() {
  log "building varsetd"
  if [[ ! -d $repo_root/node_modules ]]; then
    (cd "$repo_root" && npm ci) || die "npm ci failed"
  fi
  (cd "$repo_root" && npm run build) || die "npm run build failed"
}

serves_https() { [[ " $https_stores " == *" $1 "* ]]; }

# start_server STORE DATABASE_URL_OR_EMPTY: sets server_pid, base_url, token, and for HTTPS
# ca_file (the certificate authority clients must trust).
start_server() {
  local store=$1 database_url=$2 data_dir="$work/data-$1" code="" tls_dir="$work/tls-$1"
  local port curl_tls=()
  port=$(free_port)
  token="conformance-$(random_hex 24)"
  mkdir -p "$data_dir"
  ca_file=""
  if serves_https "$store"; then
    bash "$repo_root/scripts/make-test-certificate.sh" "$tls_dir" >"$logs/certificate-$store.log" 2>&1 || {
      cat "$logs/certificate-$store.log" >&2
      die "could not make a certificate for the HTTPS run"
    }
    ca_file="$tls_dir/ca.pem"
    curl_tls=(--cacert "$ca_file")
    base_url="https://127.0.0.1:$port"
  else
    base_url="http://127.0.0.1:$port"
  fi

  log "starting varsetd ($store) at $base_url"
  (
    cd "$repo_root"
    unset DATABASE_URL VARSETD_TLS_CERT VARSETD_TLS_KEY
    if [[ -n $database_url ]]; then export DATABASE_URL=$database_url; fi
    if [[ -n $ca_file ]]; then export VARSETD_TLS_CERT="$tls_dir/cert.pem" VARSETD_TLS_KEY="$tls_dir/key.pem"; fi
    HOST=127.0.0.1 PORT=$port VARSETD_DATA_DIR=$data_dir VARSETD_ADMIN_TOKEN=$token \
      exec node dist/main.js serve
  ) >"$logs/server-$store.log" 2>&1 &
  server_pid=$!

  for _ in $(seq 1 300); do
    if ! kill -0 "$server_pid" 2>/dev/null; then
      tail -n 50 "$logs/server-$store.log" >&2 || true
      server_pid=""
      die "varsetd ($store) exited during start-up; log: $logs/server-$store.log"
    fi
    code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "${curl_tls[@]}" \
      -H "Authorization: Bearer $token" "$base_url/api/v2/ping" || true)
    [[ $code == 204 ]] && return 0
    sleep 0.2
  done
  tail -n 50 "$logs/server-$store.log" >&2 || true
  die "varsetd ($store) did not answer GET /api/v2/ping with 204 within 60 s (last status: ${code:-none})"
}

# --- PostgreSQL ------------------------------------------------------------------------

# Creates a fresh database on the server DATABASE_URL points at; prints its URL.
create_pg_database() {
  pg_admin_url=$DATABASE_URL
  pg_database="varsetd_conformance_$(random_hex 6)"
  psql "$pg_admin_url" -v ON_ERROR_STOP=1 -qc "CREATE DATABASE \"$pg_database\"" >/dev/null ||
    die "could not create database $pg_database through DATABASE_URL"
  pg_url=$(node -e '
    const url = new URL(process.argv[1]);
    url.pathname = "/" + process.argv[2];
    process.stdout.write(url.toString());' "$pg_admin_url" "$pg_database")
}

# --- one run ---------------------------------------------------------------------------

total_passed=0
total_failed=0
total_skipped=0
overall_status=0

# count KIND LOG: top-level results only (subtests are indented).
count() { grep -c -E "^--- $1: " "$2" || true; }

run_suite() {
  local store=$1 database_url=$2 log_file="$logs/go-test-$1.log" status passed failed skipped label
  start_server "$store" "$database_url"
  label="$store, ${base_url%%:*}"

  log "running go-tfe's tests ($label): -run '$run_pattern'"
  set +e
  (
    cd "$work/go-tfe"
    # Go reads the trusted authorities from SSL_CERT_FILE in place of the system's.
    if [[ -n $ca_file ]]; then export SSL_CERT_FILE=$ca_file; fi
    TFE_ADDRESS=$base_url TFE_TOKEN=$token ENABLE_BETA=1 \
      go test -count=1 -v -timeout 20m -run "$run_pattern" -skip "$SKIP" "${extra_args[@]}" .
  ) 2>&1 | tee "$log_file"
  status=${PIPESTATUS[0]}
  set -e

  stop_server

  passed=$(count PASS "$log_file")
  failed=$(count FAIL "$log_file")
  skipped=$(count SKIP "$log_file")
  total_passed=$((total_passed + passed))
  total_failed=$((total_failed + failed))
  total_skipped=$((total_skipped + skipped))

  echo "go-tfe conformance ($label): $passed passed, $failed failed, $skipped skipped"
  echo "  test log: $log_file"
  echo "  server log: $logs/server-$store.log"
  if ((status != 0)); then
    echo "  go test exited with status $status"
    overall_status=1
  fi
  if ((failed > 0)); then
    overall_status=1
  fi
  if ((passed + failed + skipped == 0)); then
    echo "  no test matched -run '$run_pattern'"
    overall_status=1
  fi
}

# --- main ------------------------------------------------------------------------------

prepare_go_tfe
build_varsetd

run_suite sqlite ""

if [[ -n ${DATABASE_URL:-} ]]; then
  create_pg_database
  run_suite postgres "$pg_url"
  drop_pg_database
else
  log "DATABASE_URL is not set: skipping the PostgreSQL run"
fi

echo "go-tfe conformance: $total_passed passed, $total_failed failed, $total_skipped skipped"
exit "$overall_status"
