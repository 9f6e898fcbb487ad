#!/usr/bin/env bash
# Installs the Prometheus text-format parser the metrics tests read /metrics with
# (scripts/parse-metrics.py): the Prometheus project's Python client.
set -euo pipefail
python3 -c 'import prometheus_client.parser' 2>/dev/null && exit 0
python3 -m pip install --quiet --disable-pip-version-check 'prometheus-client>=0.20,<1'
