#!/usr/bin/env bash
# Builds the Go program at the root of MODULE@VERSION, taken from the Go module proxy, into
# OUTPUT, unless OUTPUT is already there; prints OUTPUT's absolute path. Used for the tfe
# provider end-to-end test, whose binaries are kept under .cache/ (git-ignored) so that re-runs
# and CI's second store do not build them again.
#   usage: scripts/go-program.sh MODULE VERSION OUTPUT
set -euo pipefail

[[ $# -eq 3 ]] || { echo "usage: $0 MODULE VERSION OUTPUT" >&2; exit 2; }
module=$1 version=$2 output=$3
case $output in /*) ;; *) output="$(pwd)/$output" ;; esac

if [[ ! -x $output ]]; then
  command -v go >/dev/null 2>&1 || { echo "go-program.sh: Go is needed to build $module@$version, and go is not on PATH" >&2; exit 1; }
  scratch=$(mktemp -d "${TMPDIR:-/tmp}/varsetd-go-program.XXXXXX")
  trap 'chmod -R u+w "$scratch" 2>/dev/null; rm -rf "$scratch"' EXIT
  # Outside any module, `go mod download` fetches the module itself.
  info=$(cd "$scratch" && go mod download -json "$module@$version") || { echo "$info" >&2; exit 1; }
  dir=$(sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p' <<<"$info")
  [[ -n $dir && -d $dir ]] || { echo "go-program.sh: go mod download gave no folder for $module@$version:" >&2; echo "$info" >&2; exit 1; }
  # The module cache is read-only, and a build honours the module's own go.mod (its replace
  # directives included) only from its root: build in a writable copy.
  cp -R "$dir" "$scratch/src"
  chmod -R u+w "$scratch/src"
  echo "go-program.sh: building $module@$version (once; kept as $output)" >&2
  mkdir -p "$(dirname "$output")"
  (cd "$scratch/src" && go build -o "$output.partial" .)
  mv "$output.partial" "$output"
fi
echo "$output"
