#!/usr/bin/env bash
# Usage: scripts/image-check.sh
# Checks the container images with podman, no daemon (scripts/podman.sh): builds them
# (scripts/build-image.sh) and reports their sizes; then varsetd's image alone on SQLite, started
# with a volume and an environment file on a read-only root with its port published on 127.0.0.1
# only: readiness, its health check, its user, a variable set created through the port, then the
# container stopped (cleanly, exit code 0) and started again and the set read back; last the compose
# file (deploy/compose.yaml, by podman-compose) with the PostgreSQL image: a set created, everything
# taken down and brought up again from its volumes, the set read back. Removes what it made.
# Without podman, runc or podman-compose it says SKIPPED and exits 0, unless
# VARSETD_IMAGE_CHECK_REQUIRED=1 (.ci/run sets it), which makes that a failure.
set -euo pipefail
cd "$(dirname "$0")/.."

started=$SECONDS
missing=()
for tool in podman runc podman-compose; do command -v "$tool" >/dev/null 2>&1 || missing+=("$tool"); done
if [ ${#missing[@]} -gt 0 ]; then
  reason="${missing[*]} not found (Debian and Ubuntu: apt-get install podman runc podman-compose)"
  if [ "${VARSETD_IMAGE_CHECK_REQUIRED:-}" = 1 ]; then
    echo "image-check: FAILED: $reason" >&2
    exit 1
  fi
  echo "image-check: SKIPPED, the images were neither built nor run: $reason" >&2
  exit 0
fi

# Podman sets a systemd timer for the image's health check, and says so at every start and stop
# where no systemd runs: those lines are left out (the check is run by hand below).
podman() { bash scripts/podman.sh "$@" 2> >(grep -v 'unable to get systemd connection' >&2); }
version=$(node -p 'require("./package.json").version')
name="varsetd-check-$$"
work=$(mktemp -d "${TMPDIR:-/tmp}/varsetd-image-check.XXXXXX")
compose_env=()
compose() { env "${compose_env[@]}" bash scripts/podman.sh compose --project-name "$name" --file deploy/compose.yaml "$@"; }
cleanup() {
  podman rm --force --time 0 "$name" >/dev/null 2>&1 || true
  podman volume rm --force "$name-data" >/dev/null 2>&1 || true
  [ ${#compose_env[@]} -gt 0 ] && compose down --volumes >/dev/null 2>&1 || true
  # podman-compose down leaves the project's network.
  podman network rm --force "${name}_default" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
log() { echo "image-check: $*" >&2; }
fail() {
  log "FAILED: $*"
  [ -n "${container:-}" ] && { echo "--- the output of $container:" >&2; podman logs "$container" 2>&1 | tail -n 40 >&2; }
  exit 1
}
free_port() { node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
field() { node -e 'let t="";process.stdin.on("data",(d)=>t+=d).on("end",()=>console.log(new Function("j","return j."+process.argv[1])(JSON.parse(t))))' "$1"; }

log "building the images"
bash scripts/build-image.sh
log "images built in $((SECONDS - started)) s"
podman image ls --format '{{.Repository}}:{{.Tag}} {{.Size}}' | grep -E '^localhost/varsetd(-postgres)?:' | sed 's/^/image-check: size of /' >&2

# A request to varsetd with the admin token; prints the answer's body, fails unless the status is $1.
token=$(node -p 'require("crypto").randomBytes(24).toString("hex")')
api() {
  local expected=$1 status
  shift
  status=$(curl -sS -o "$work/body" -w '%{http_code}' -H "Authorization: Bearer $token" -H 'Content-Type: application/vnd.api+json' "$@") ||
    fail "curl $* failed"
  [ "$status" = "$expected" ] || fail "${*: -1} answered $status, not $expected: $(cat "$work/body")"
  cat "$work/body"
}
wait_ready() {
  local url=$1 container=$2
  for _ in $(seq 1 240); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "$url/readyz")" = 200 ] && return 0
    [ "$(podman inspect --format '{{.State.Running}}' "$container" 2>/dev/null)" = true ] || fail "$container stopped before it was ready"
    sleep 0.25
  done
  fail "$url/readyz did not answer 200 within a minute"
}
# Creates the organization $2 and in it a set of two variables; prints the set's id.
create_set() {
  local url=$1 org=$2
  api 201 -d "{\"data\":{\"type\":\"organizations\",\"attributes\":{\"name\":\"$org\",\"email\":\"ops@$org.test\"}}}" "$url/api/v2/organizations" >/dev/null
  api 200 -d '{"data":{"type":"varsets","attributes":{"name":"defaults","global":true},"relationships":{"vars":{"data":[{"type":"vars","attributes":{"key":"region","value":"eu-west-1","category":"terraform"}},{"type":"vars","attributes":{"key":"API_KEY","value":"s3cret","category":"env","sensitive":true}}]}}}}' \
    "$url/api/v2/organizations/$org/varsets" | field data.id
}
# Reads the set back: its name and its two variables, the sensitive one's value hidden.
check_set() {
  local url=$1 id=$2 vars
  [ "$(api 200 "$url/api/v2/varsets/$id" | field data.attributes.name)" = defaults ] || fail "the set $id read back is not the one created"
  vars=$(api 200 "$url/api/v2/varsets/$id/relationships/vars" |
    field 'data.map((v) => v.attributes.key + "=" + v.attributes.value + (v.attributes.sensitive ? " (sensitive)" : "")).sort().join(", ")')
  [ "$vars" = "API_KEY=null (sensitive), region=eu-west-1" ] || fail "the set's variables read back are $vars"
}

log "varsetd's image on SQLite, with a volume and an environment file"
port=$(free_port)
url="http://127.0.0.1:$port"
printf 'VARSETD_ADMIN_TOKEN=%s\nVARSETD_WORKERS=2\nLOG_LEVEL=info\n' "$token" >"$work/varsetd.env"
container=$name
step=$SECONDS
podman run --detach --name "$container" --read-only --env-file "$work/varsetd.env" \
  --volume "$name-data:/var/lib/varsetd" --publish "127.0.0.1:$port:8080" "localhost/varsetd:$version" >/dev/null
wait_ready "$url" "$container"
log "ready in $((SECONDS - step)) s on $url"
podman healthcheck run "$container" >/dev/null || fail "the image's health check failed on a ready varsetd"
uid=$(podman exec "$container" /usr/local/bin/node -p 'process.getuid() + ":" + process.getgid()')
[ "$uid" = 10001:10001 ] || fail "varsetd runs as $uid, not 10001:10001"
podman exec "$container" /usr/local/bin/node -e 'try { require("fs").writeFileSync("/app/written", "") } catch (e) { process.exit(e.code === "EROFS" ? 0 : 1) } process.exit(1)' ||
  fail "the root file system is writable"
id=$(create_set "$url" image-check)
check_set "$url" "$id"
step=$SECONDS
podman stop --time 90 "$container" >/dev/null
code=$(podman inspect --format '{{.State.ExitCode}}' "$container")
[ "$code" = 0 ] || fail "varsetd exited with $code on podman stop, not 0"
log "stopped (exit code 0) in $((SECONDS - step)) s"
podman start "$container" >/dev/null
wait_ready "$url" "$container"
check_set "$url" "$id"
files=$(podman exec "$container" /usr/local/bin/node -p 'require("fs").readdirSync("/var/lib/varsetd").sort().join(" ")')
for file in encryption-key varsetd.sqlite; do [[ " $files " == *" $file "* ]] || fail "the volume holds no $file: $files"; done
log "the set read back after the restart, from the volume ($files)"
podman rm --force --time 0 "$container" >/dev/null
podman volume rm "$name-data" >/dev/null
container=

log "the compose file: varsetd on the PostgreSQL image"
port=$(free_port)
url="http://127.0.0.1:$port"
compose_env=(POSTGRES_PASSWORD="$(node -p 'require("crypto").randomBytes(12).toString("hex")')" VARSETD_PUBLISH="127.0.0.1:$port"
  VARSETD_ENV_FILE="$work/varsetd.env" VARSETD_IMAGE="localhost/varsetd:$version")
step=$SECONDS
compose up --detach >"$work/compose.log" 2>&1 || { cat "$work/compose.log" >&2; fail "podman-compose up failed"; }
container="${name}_varsetd_1"
wait_ready "$url" "$container"
log "ready in $((SECONDS - step)) s on $url"
id=$(create_set "$url" compose-check)
check_set "$url" "$id"
# The start-up summary, logged once every worker listens, names the store.
for _ in $(seq 1 120); do
  summary=$(podman logs "$container" 2>&1 | grep '"msg":"varsetd .* started"' || true)
  [ -n "$summary" ] && break
  sleep 0.25
done
[[ "$summary" == *'"store":{"type":"postgres","host":"postgres:5432"'* ]] || fail "varsetd's start-up summary names no PostgreSQL at postgres: $summary"
step=$SECONDS
compose down >>"$work/compose.log" 2>&1 || { cat "$work/compose.log" >&2; fail "podman-compose down failed"; }
compose up --detach >>"$work/compose.log" 2>&1 || { cat "$work/compose.log" >&2; fail "podman-compose up failed the second time"; }
wait_ready "$url" "$container"
check_set "$url" "$id"
log "down and up again in $((SECONDS - step)) s: the set read back from PostgreSQL's volume"
compose down --volumes >>"$work/compose.log" 2>&1
podman network rm --force "${name}_default" >/dev/null 2>&1 || true
compose_env=()
container=
log "passed in $((SECONDS - started)) s"
