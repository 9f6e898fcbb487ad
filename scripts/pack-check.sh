#!/usr/bin/env bash
# Checks the package a user installs: `npm pack` (a clean build), then, in an empty folder outside
# the repository, `npm install ./varsetd-VERSION.tgz && npx varsetd serve` on a free port with a
# fresh data folder, then the ping, the web UI (its page and a script it loads), the API reference,
# readiness, the metrics' build info, and the API with
# the generated admin token (an organization created and read back), and last SIGTERM sent to npx
# alone, which must stop every process and free the port. Runs with the node on PATH;
# a node fetched by scripts/node.sh also gives its headers, should anything compile.
set -euo pipefail
cd "$(dirname "$0")/.."

started=$SECONDS
work=$(mktemp -d "${TMPDIR:-/tmp}/varsetd-pack-check.XXXXXX")
server=
cleanup() {
  if [ -n "$server" ]; then kill -TERM -- "-$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "pack-check: $*" >&2
  [ -f "$work/serve.log" ] && { echo "--- varsetd's output:" >&2; cat "$work/serve.log" >&2; }
  exit 1
}

node_home=$(dirname "$(dirname "$(command -v node)")")
[ -f "$node_home/include/node/node_api.h" ] && export npm_config_nodedir="$node_home"
version=$(node -p 'require("./package.json").version')
# What the packed build reports: the version alone for a release, with the commit otherwise (src/build-info.ts).
build_version=$(node --import tsx --input-type=module -e 'const { VERSION } = await import("./src/version.ts"); console.log(VERSION)')
echo "pack-check: varsetd $version on Node.js $(node --version)"

npm pack --silent --pack-destination "$work" >/dev/null
tarball="$work/varsetd-$version.tgz"
[ -f "$tarball" ] || fail "npm pack made no $tarball"
# Listed once into a file: `grep -q` on a pipe from tar can end tar with SIGPIPE, failing the pipeline.
tar -tzf "$tarball" >"$work/contents"
if grep -E '^package/(src|test|ui|bench|conformance|scripts|node_modules)/|\.map$|\.ts$' "$work/contents"; then
  fail "the package holds sources, tests or source maps (listed above)"
fi
grep -qx 'package/dist/build-info.json' "$work/contents" || fail "the package holds no dist/build-info.json"
echo "pack-check: packed $(du -k "$tarball" | cut -f1) KiB in $((SECONDS - started)) s"

mkdir "$work/app"
(cd "$work/app" && npm install --silent --no-audit --no-fund "$tarball") || fail "npm install of the tarball failed"
echo "pack-check: installed into an empty folder in $((SECONDS - started)) s"

# PORT=0 takes a free port; off a terminal the start-up summary is a JSON line that names it.
(cd "$work/app" && exec setsid env -u DATABASE_URL VARSETD_DATA_DIR="$work/data" PORT=0 HOST=127.0.0.1 VARSETD_WORKERS=2 \
  npx --no-install varsetd serve >"$work/serve.log" 2>&1) &
server=$!
url=
for _ in $(seq 1 600); do
  url=$(node -e '
    for (const line of require("fs").readFileSync(process.argv[1], "utf8").split("\n")) {
      try { const entry = JSON.parse(line); if (entry.url && entry.version) { console.log(entry.version + " " + entry.url); break; } } catch {}
    }' "$work/serve.log")
  [ -n "$url" ] && break
  kill -0 "$server" 2>/dev/null || fail "varsetd serve exited before it listened"
  sleep 0.1
done
[ -n "$url" ] || fail "varsetd serve did not start within a minute"
[ "${url%% *}" = "$build_version" ] || fail "the start-up summary names version ${url%% *}, not $build_version"
url=${url#* }
echo "pack-check: varsetd serve listening on $url in $((SECONDS - started)) s"

status() { curl -sS -o "$work/body" -w '%{http_code}' "$@"; }
[ "$(status "$url/api/v2/ping")" = 204 ] || fail "GET /api/v2/ping did not answer 204"
[ "$(status "$url/")" = 200 ] || fail "GET / did not answer 200"
grep -qi '<!doctype html>' "$work/body" || fail "GET / did not answer the web UI's page"
script=$(grep -o 'src="/assets/[^"]*\.js"' "$work/body" | head -n 1 | cut -d'"' -f2)
[ -n "$script" ] || fail "the web UI's page loads no script from /assets/"
[ "$(status "$url$script")" = 200 ] || fail "GET $script did not answer 200"
[ "$(status "$url/api/docs")" = 200 ] || fail "GET /api/docs did not answer 200"
reference=$(grep -o 'src="/api/docs/assets/[^"]*\.js"' "$work/body" | head -n 1 | cut -d'"' -f2)
[ -n "$reference" ] && [ "$(status "$url$reference")" = 200 ] || fail "the API reference's script did not answer 200"
[ "$(status "$url/readyz")" = 200 ] || fail "GET /readyz did not answer 200: $(cat "$work/body")"
[ "$(status "$url/metrics")" = 200 ] && grep -qF "version=\"$build_version\"" "$work/body" && grep -q '^varsetd_build_info{' "$work/body" ||
  fail "GET /metrics did not answer 200 with build info of version $build_version"

token=$(cat "$work/data/admin-token")
api() { status -H "Authorization: Bearer $token" -H 'Content-Type: application/vnd.api+json' "$@"; }
[ "$(api -d '{"data":{"type":"organizations","attributes":{"name":"pack-check","email":"ops@pack-check.test"}}}' "$url/api/v2/organizations")" = 201 ] ||
  fail "creating an organization with the admin token did not answer 201: $(cat "$work/body")"
[ "$(api "$url/api/v2/organizations/pack-check")" = 200 ] || fail "reading the organization back did not answer 200"
grep -q '"name":"pack-check"' "$work/body" || fail "the organization read back is not the one created: $(cat "$work/body")"
[ "$(status "$url/api/v2/organizations/pack-check")" = 401 ] || fail "an unauthenticated read did not answer 401"

# SIGTERM to npx alone, as a supervisor stopping it sends: npm passes it to the shell it runs the bin
# through, which passes nothing on; varsetd must notice and stop, workers and all, freeing the port,
# after the drain delay (5 s by default, as a load balancer needs) and its drain.
port=${url##*:}
kill -TERM "$server"
wait "$server" 2>/dev/null || true
for _ in $(seq 1 150); do
  kill -0 -- "-$server" 2>/dev/null || break
  sleep 0.1
done
if kill -0 -- "-$server" 2>/dev/null; then
  fail "processes outlived npx 15 s after its SIGTERM: $(ps -o pid=,args= -g "$server" | tr '\n' ';')"
fi
server=
node -e 'const s = require("net").createServer().once("error", () => process.exit(1)); s.listen(Number(process.argv[1]), "127.0.0.1", () => s.close())' "$port" ||
  fail "port $port is still taken after npx stopped"

echo "pack-check: ping, web UI, API reference, readiness, metrics and API answered as they should, and SIGTERM to npx stopped everything; $((SECONDS - started)) s in all"
