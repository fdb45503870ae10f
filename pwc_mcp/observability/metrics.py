"""/metrics in the Prometheus text format: one registry per app (README, "Metrics and tracing").

Two histograms are observed as requests end, every label from a closed set:

* ``mcp_server_operation_duration_seconds`` (the name OpenTelemetry's MCP conventions give
  ``mcp.server.operation.duration``), one observation per request to /mcp, by method, tool (a
  declared one, "other" for any other name, "" when the method is not ``tools/call``), outcome
  (pwc_mcp.edge.telemetry.OUTCOMES) and protocol version; from the operations log's own labels.
* ``pwc_upstream_request_duration_seconds``, one per catalog request made, by declared route and
  status class (pwc_mcp.caching.upstream).

Everything else is read at scrape time from the same stats dict `/metrics.json` shows
(`StatsCollector`), so a counter added there is exported without code here: each number becomes
a sample named by its path (``pwc_cache_families_hits_total``), and the keys of the maps in
`MAPS` become label values (the route, the cache, the status code, the reason, the kind), all
closed vocabularies of the server's own making; no text a client sent reaches a label.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from prometheus_client import CollectorRegistry, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from pwc_mcp.edge.telemetry import UNKNOWN

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
PREFIX = "pwc"
# A dict under one of these keys maps label values to numbers or to more of the same shape.
MAPS = {
    "families": "route",
    "caches": "cache",
    "status": "status",
    "refused": "reason",
    "refusals": "kind",
}
# Numbers that go up and down (or are settings); every other number only grows: a counter.
GAUGES = frozenset(
    {"ready", "ttl", "entries", "bytes", "max_entries", "max_bytes", "memory_keys"}
    | {"shared", "degraded", "held", "format"}
    | {"grace", "stale_entries", "slots"}  # the last good answers kept, refresh-ahead slots
)
_NAME = re.compile(r"[^a-zA-Z0-9_]+")
Snapshot = Callable[[], Mapping[str, Any]]


class StatsCollector(Collector):
    """The stats dict, read when scraped, as Prometheus samples (see the module's docstring)."""

    def __init__(self, snapshot: Snapshot) -> None:
        self.snapshot = snapshot

    def collect(self) -> Iterator[Metric]:
        families: dict[str, GaugeMetricFamily | CounterMetricFamily] = {}
        for path, labels, value in _leaves(self.snapshot(), (), ()):
            name = _NAME.sub("_", "_".join((PREFIX, *path)))
            family = families.get(name)
            if family is None:
                kind = GaugeMetricFamily if path[-1] in GAUGES else CounterMetricFamily
                family = kind(
                    name, f"{'.'.join(path)} in /metrics.json", labels=[k for k, _ in labels]
                )
                families[name] = family
            family.add_metric([v for _, v in labels], value)
        yield from families.values()


def _leaves(
    node: Mapping[str, Any], path: tuple[str, ...], labels: tuple[tuple[str, str], ...]
) -> Iterator[tuple[tuple[str, ...], tuple[tuple[str, str], ...], float]]:
    for key, value in node.items():
        if isinstance(value, bool | int | float):
            yield (*path, key), labels, float(value)
        elif isinstance(value, Mapping) and key in MAPS:
            for item, inner in value.items():
                here = (*labels, (MAPS[key], str(item)))
                if isinstance(inner, Mapping):
                    yield from _leaves(inner, (*path, key), here)
                elif isinstance(inner, bool | int | float):
                    yield (*path, key), here, float(inner)
        elif isinstance(value, Mapping):
            yield from _leaves(value, (*path, key), labels)


class Metrics:
    """One app's registry: the two histograms and, once `read_stats` is called, the stats."""

    def __init__(self, tool_names: frozenset[str]) -> None:
        self.tool_names = tool_names
        self.registry = CollectorRegistry(auto_describe=False)
        self.operations = Histogram(
            "mcp_server_operation_duration_seconds",
            "MCP requests to /mcp by method, tool, outcome and protocol version",
            ["mcp_method_name", "gen_ai_tool_name", "outcome", "mcp_protocol_version"],
            registry=self.registry,
        )
        self.upstream = Histogram(
            "pwc_upstream_request_duration_seconds",
            "Catalog requests made, by declared route and status class",
            ["route", "status_class"],
            registry=self.registry,
        )
        # label values -> the histogram's child: labels() validates and locks on every call;
        # the keys are closed sets, so this stays small
        self._children: dict[tuple[str, ...], Any] = {}

    def read_stats(self, snapshot: Snapshot) -> None:
        self.registry.register(StatsCollector(snapshot))

    def observe_operation(
        self, method: str, tool: str, outcome: str, protocol: str, seconds: float
    ) -> None:
        """pwc_mcp.edge.telemetry.Observe: the ops line's labels, the tool named as OTel does."""
        if method != "tools/call":
            tool = ""
        elif tool == UNKNOWN or tool not in self.tool_names:
            tool = "other"
        key = (method, tool, outcome, protocol)
        child = self._children.get(key)
        if child is None:
            child = self._children[key] = self.operations.labels(*key)
        child.observe(seconds)

    def observe_upstream(self, route: str, status_class: str, seconds: float) -> None:
        """pwc_mcp.caching.upstream.Observe."""
        self.upstream.labels(route, status_class).observe(seconds)

    def exposition(self) -> bytes:
        return generate_latest(self.registry)
