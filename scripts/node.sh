#!/usr/bin/env bash
# Usage: scripts/node.sh VERSION (e.g. 26.10.0)
# Prints the bin folder of Node.js VERSION for this machine (Linux, x64 or arm64), fetched once
# into .cache/node/VERSION (git-ignored) and reused after. The binary and its C++ headers come
# from the npm registry's node-linux-<arch> package: npm pack checks the tarball against the
# registry's integrity, and the unpacked node must report VERSION. The folder above bin/ holds
# include/node, so a native addon compiles against it offline with npm_config_nodedir set to it.
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION=${1:?usage: scripts/node.sh VERSION (e.g. 26.10.0)}
VERSION=${VERSION#v}
[[ "$VERSION" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "node.sh: $VERSION is not an exact version such as 26.10.0" >&2; exit 2; }
case "$(uname -m)" in
  x86_64) ARCH=x64 ;;
  aarch64) ARCH=arm64 ;;
  *) echo "node.sh: no node-linux package for $(uname -m)" >&2; exit 1 ;;
esac
PACKAGE="node-linux-$ARCH@$VERSION"
CACHE=.cache/node
TARGET="$CACHE/$VERSION"

is_ready() { [ -x "$1/bin/node" ] && [ "$("$1/bin/node" --version 2>/dev/null)" = "v$VERSION" ] && [ -f "$1/include/node/node_api.h" ]; }

if ! is_ready "$TARGET"; then
  mkdir -p "$CACHE"
  download=$(mktemp -d "$(pwd)/$CACHE/.download.XXXXXX")
  trap 'rm -rf "$download"' EXIT
  (cd "$download" && npm pack --silent "$PACKAGE" >/dev/null) || { echo "node.sh: npm pack $PACKAGE failed (no such version?)" >&2; exit 1; }
  # npm pack has checked the tarball against the registry's integrity; checked here again, by hand.
  packed="sha512-$(openssl dgst -sha512 -binary "$download"/node-linux-*.tgz | base64 -w0)"
  expected=$(npm view --silent "$PACKAGE" dist.integrity)
  [ -n "$expected" ] && [ "$packed" = "$expected" ] || { echo "node.sh: $PACKAGE's integrity $packed is not the registry's $expected" >&2; exit 1; }
  tar -xzf "$download"/node-linux-*.tgz -C "$download"
  is_ready "$download/package" || { echo "node.sh: $PACKAGE does not hold a working node $VERSION with its headers" >&2; exit 1; }
  rm -rf "$TARGET"
  # mv -T refuses a folder another run has just put there; theirs is as good.
  mv -T "$download/package" "$TARGET" 2>/dev/null || is_ready "$TARGET"
  echo "node.sh: Node.js $VERSION fetched into $TARGET (integrity $packed)" >&2
fi
echo "$(pwd)/$TARGET/bin"
