#!/usr/bin/env bash
# The rolling upgrade of docs/deployment.md, proved: builds the previous release from git
# history and this tree, then runs scripts/rolling-upgrade/main.ts on a throw-away PostgreSQL
# (scripts/with-postgres.sh) with HAProxy (Debian's haproxy package): three hosts of the previous
# release behind HAProxy, clients reading and writing through it, the hosts upgraded to this
# build one at a time, then restarted one at a time. Prints one result line and exits non-zero
# on any failed request, lost acknowledged write, set whose versions have a gap, or host taken
# out of rotation when it should not have been. Everything listens on 127.0.0.1 and is stopped
# and removed afterwards.
#   usage: scripts/rolling-upgrade.sh   (CI: a step of .ci/run)
set -euo pipefail
cd "$(dirname "$0")/.."

# The previous release: cutting a release moves these to its commit and version.
PREVIOUS_COMMIT=bb15a6c
PREVIOUS_VERSION=0.3.0

started=$SECONDS
fail() {
  echo "rolling-upgrade: $*" >&2
  exit 1
}

git rev-parse --git-dir >/dev/null 2>&1 || fail "not in a git clone: the previous release is built from git history"
git cat-file -e "$PREVIOUS_COMMIT^{commit}" 2>/dev/null ||
  fail "commit $PREVIOUS_COMMIT (release $PREVIOUS_VERSION) is not in this clone (a shallow clone?): fetch the full history (git fetch --unshallow) and run again"
release_version=$(git show "$PREVIOUS_COMMIT:package.json" | node -p 'JSON.parse(require("fs").readFileSync(0, "utf8")).version')
[ "$release_version" = "$PREVIOUS_VERSION" ] ||
  fail "commit $PREVIOUS_COMMIT is version $release_version, not $PREVIOUS_VERSION"

haproxy=$(command -v haproxy || true)
[ -z "$haproxy" ] && [ -x /usr/sbin/haproxy ] && haproxy=/usr/sbin/haproxy
[ -n "$haproxy" ] || fail "haproxy is not installed (Debian: apt-get install haproxy)"

work=$(mktemp -d /tmp/varsetd-previous.XXXXXX)
trap 'rm -rf "$work"' EXIT

echo "== building $PREVIOUS_VERSION ($PREVIOUS_COMMIT) from git history"
git archive "$PREVIOUS_COMMIT" | tar -x -C "$work"
if cmp -s "$work/package-lock.json" package-lock.json && [ -d node_modules ]; then
  # The same lock file installs the same packages: this tree's node_modules serve the release too.
  echo "(its package-lock.json is this tree's: using this tree's node_modules)"
  ln -s "$PWD/node_modules" "$work/node_modules"
else
  (cd "$work" && npm ci --no-audit --no-fund --loglevel=error)
fi
(cd "$work" && npm run --silent build >/dev/null)
echo "built: $(cd "$work" && node dist/main.js --version)"

echo "== building this tree"
npm run --silent build >/dev/null
echo "built: $(node dist/main.js --version)"

echo "== the rolling upgrade, with $("$haproxy" -v | head -1)"
bash scripts/with-postgres.sh node --import tsx scripts/rolling-upgrade/main.ts "$work" "$PREVIOUS_VERSION" "$PWD" "$haproxy"
echo "== rolling upgrade checked in $((SECONDS - started)) s, builds included"
