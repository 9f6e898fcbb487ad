#!/usr/bin/env bash
# Installs the Prometheus text-format parser the metrics tests read /metrics with
# (scripts/parse-metrics.py): the Prometheus project's Python client, pinned, into
# .cache/python/ (git-ignored; test/support/metrics.ts puts it on PYTHONPATH), so that nothing is
# installed into the machine's Python and a Python that refuses system-wide installs still works.
set -euo pipefail
cd "$(dirname "$0")/.."

TARGET=.cache/python
PACKAGE=prometheus-client==0.26.0

PYTHONPATH=$TARGET python3 -c 'import prometheus_client.parser' 2>/dev/null && exit 0
python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --no-deps --upgrade --target "$TARGET" "$PACKAGE" >&2
PYTHONPATH=$TARGET python3 -c 'import prometheus_client.parser' || { echo "install-metrics-parser.sh: $PACKAGE did not install into $TARGET" >&2; exit 1; }
