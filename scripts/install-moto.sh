#!/usr/bin/env bash
# Installs the AWS side of the workload identity tests, pinned, into a virtual environment in
# .cache/moto (git-ignored): moto's server, whose STS exchanges a web identity token for a
# role's credentials, and boto3, whose own credential chain reads AWS_WEB_IDENTITY_TOKEN_FILE.
# Prints the environment's bin folder.
set -euo pipefail
cd "$(dirname "$0")/.."

VENV=.cache/moto
PACKAGES=("moto[server]==5.2.5" "boto3==1.44.8")

if ! "$VENV/bin/python" -c 'import moto.server, boto3' 2>/dev/null; then
  rm -rf "$VENV"
  python3 -m venv "$VENV" >&2
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "${PACKAGES[@]}" >&2
  "$VENV/bin/python" -c 'import moto.server, boto3' || { echo "install-moto.sh: ${PACKAGES[*]} did not install into $VENV" >&2; exit 1; }
fi
echo "$(pwd)/$VENV/bin"
