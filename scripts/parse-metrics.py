"""Reads Prometheus' text exposition format on stdin with the Prometheus project's own parser
(prometheus_client, `pip install prometheus-client`) and prints every family as JSON:
[{"name", "type", "samples": [{"name", "labels", "value"}]}]. A text it cannot parse exits 1."""
import json
import math
import sys

from prometheus_client.parser import text_string_to_metric_families


def number(value):
    return None if math.isnan(value) else value if math.isfinite(value) else str(value)


families = [
    {
        "name": family.name,
        "type": family.type,
        "samples": [{"name": s.name, "labels": s.labels, "value": number(s.value)} for s in family.samples],
    }
    for family in text_string_to_metric_families(sys.stdin.read())
]
json.dump(families, sys.stdout)
