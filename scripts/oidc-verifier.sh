#!/usr/bin/env bash
# Builds the OpenID Connect relying party of the workload identity tests
# (test/fixtures/oidc-verifier: github.com/coreos/go-oidc/v3 from the Go module proxy) into
# .cache/oidc-verifier (git-ignored), again only when its sources changed; prints its path.
set -euo pipefail
cd "$(dirname "$0")/.."

src=test/fixtures/oidc-verifier
out=.cache/oidc-verifier
stamp=$(cat "$src"/*.go "$src/go.mod" "$src/go.sum" | sha256sum | cut -c1-16)
if [[ ! -x $out/verifier-$stamp ]]; then
  command -v go >/dev/null 2>&1 || { echo "oidc-verifier.sh: Go is needed to build the verifier, and go is not on PATH" >&2; exit 1; }
  mkdir -p "$out"
  echo "oidc-verifier.sh: building the OpenID Connect verifier (once; kept in $out)" >&2
  (cd "$src" && go build -mod=readonly -o "../../../$out/verifier-$stamp.partial" .)
  mv "$out/verifier-$stamp.partial" "$out/verifier-$stamp"
fi
echo "$(pwd)/$out/verifier-$stamp"
