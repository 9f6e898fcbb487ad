#!/usr/bin/env bash
# Everything the tests need beyond node_modules, set up once and reused after: Terraform 1.0.3
# for the `varsetd exec` tests (linux-x64 only; elsewhere those tests say why they skip),
# Chromium for the web UI's browser tests, the Prometheus parser of the metrics tests, and the
# relying parties of the workload identity tests (a go-oidc verifier built with Go, moto and
# boto3 from PyPI; without Go or Python those tests say why they skip), and PostgreSQL's server
# programs for the tests that start a cluster of their own (apt-get, when not installed).
# `npm test` runs it first (the pretest:files script), so the README's test command needs nothing else.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(uname -s)-$(uname -m)" = Linux-x86_64 ]; then
  echo "test tools: Terraform $(bash scripts/terraform.sh)"
fi
echo "test tools: Chromium $(bash scripts/chromium.sh)"
bash scripts/install-metrics-parser.sh
echo "test tools: the Prometheus parser in .cache/python"
if command -v go >/dev/null 2>&1; then
  echo "test tools: the OpenID Connect verifier $(bash scripts/oidc-verifier.sh)"
fi
echo "test tools: moto and boto3 in $(bash scripts/install-moto.sh)"
echo "test tools: the PostgreSQL server in $(bash scripts/postgres-server.sh)"
