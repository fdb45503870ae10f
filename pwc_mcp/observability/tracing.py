"""OpenTelemetry export, off unless configured (README, "Metrics and tracing").

With the `otel` extra installed and ``OTEL_EXPORTER_OTLP_ENDPOINT`` (or the traces-only
``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT``) set, `start` installs the SDK: FastMCP's native MCP
spans (``tools/call get_method``, ``resources/read``, ``prompts/get find_papers``, ...) and one
span per catalog request (`upstream_observer`) go to the OTLP exporter the standard
``OTEL_*`` variables configure. Without the variable nothing here imports the SDK, and the API
FastMCP calls stays the no-op it is by default.

Every span passes `Redactor` on its way out, an allowlist: a span keeps the attributes in
`KEPT` only, and a kept string only when it is a word of the server's own vocabulary (methods,
protocol versions, tool and prompt names, route labels, a few fixed words) or an exception's
class name; anything else becomes ``other``, as does any word of a span's name outside it.
Events keep their name and exception type only; links and status descriptions are dropped.
So no query, paper or benchmark name, resource URI (``mcp.resource.uri`` is dropped), argument,
request id or address leaves the process.
"""

from __future__ import annotations

import logging
import os
import re
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from opentelemetry import trace

from pwc_mcp.caching.cache_routes import ROUTES
from pwc_mcp.caching.upstream import Observe
from pwc_mcp.edge.telemetry import KNOWN_METHODS, KNOWN_VERSIONS, OUTCOMES
from pwc_mcp.params import TOOLS
from pwc_mcp.tools.prompts import PROMPTS

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
    from opentelemetry.sdk.trace.export import SpanExporter, SpanExportResult

log = logging.getLogger("pwc_mcp")
ENDPOINTS = ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
OTHER = "other"
KEPT = frozenset(
    {
        "mcp.method.name",
        "mcp.protocol.version",
        "gen_ai.tool.name",
        "gen_ai.prompt.name",
        "gen_ai.operation.name",
        "error.type",
        "rpc.response.status_code",
        "fastmcp.server.name",
        "fastmcp.component.type",
        "fastmcp.span.seam",
        "http.request.method",
        "http.response.status_code",
        "pwc.upstream.route",
        "pwc.upstream.status_class",
    }
)
FIXED_WORDS = frozenset(
    {"pwc", "tool", "resource", "resource_template", "prompt", "execute_tool", "GET", "upstream"}
    | {"2xx", "3xx", "4xx", "5xx", "timeout", "error", *OUTCOMES}
)
EXCEPTION_TYPE = re.compile(r"[A-Za-z_][A-Za-z0-9_.]{0,79}|-?[0-9]{1,6}")  # a class, or a code
_provider: TracerProvider | None = None
_exporting = False  # `start` installed the OTLP exporter (once per process)


def vocabulary() -> frozenset[str]:
    """The words a span may carry: the names of the tools and prompts, and every label."""
    names = {*TOOLS, *(prompt.name for prompt in PROMPTS)}
    routes = {*ROUTES, *(f"{label.split('/')[0]}/*" for label in ROUTES)}
    return frozenset(names | routes) | KNOWN_METHODS | KNOWN_VERSIONS | FIXED_WORDS | {OTHER}


class Redactor:
    """A SpanExporter that hands `inner` each span with only content-free fields (see above)."""

    def __init__(self, inner: SpanExporter, words: frozenset[str]) -> None:
        self.inner = inner
        self.words = words | {"exception"}

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        return self.inner.export([self.redacted(span) for span in spans])

    def shutdown(self) -> None:
        self.inner.shutdown()

    def force_flush(self, timeout_millis: int = 30_000) -> bool:
        return self.inner.force_flush(timeout_millis)

    def name(self, text: str) -> str:
        return " ".join(w if w in self.words else OTHER for w in text.split(" "))

    def value(self, key: str, value: Any) -> Any:
        if isinstance(value, bool | int | float):
            return value
        if isinstance(value, str) and (
            value in self.words or (key == "error.type" and EXCEPTION_TYPE.fullmatch(value))
        ):
            return value
        return OTHER

    def attributes(self, attributes: Any) -> dict[str, Any]:
        return {k: self.value(k, v) for k, v in (attributes or {}).items() if k in KEPT}

    def redacted(self, span: ReadableSpan) -> ReadableSpan:
        from opentelemetry.sdk.trace import Event, ReadableSpan
        from opentelemetry.trace import Status

        events = []
        for event in span.events:
            kind = (event.attributes or {}).get("exception.type")
            kept = {} if kind is None else {"exception.type": self.value("error.type", kind)}
            name = event.name if event.name in self.words else OTHER
            events.append(Event(name, kept, event.timestamp))
        return ReadableSpan(
            name=self.name(span.name),
            context=span.context,
            parent=span.parent,
            resource=span.resource,
            attributes=self.attributes(span.attributes),
            events=events,
            links=(),
            kind=span.kind,
            status=Status(span.status.status_code),
            start_time=span.start_time,
            end_time=span.end_time,
            instrumentation_scope=span.instrumentation_scope,
        )


def configured() -> bool:
    return any(os.environ.get(name) for name in ENDPOINTS)


def start() -> bool:
    """Export spans when an OTLP endpoint is configured; True when they are."""
    global _exporting
    if _exporting or not configured():
        return _exporting
    try:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
        from opentelemetry.sdk.trace.export import BatchSpanProcessor
    except ImportError:
        log.warning("OTEL_EXPORTER_OTLP_ENDPOINT is set but the otel extra is not installed")
        return False
    redactor = Redactor(OTLPSpanExporter(), vocabulary())
    install(BatchSpanProcessor(cast("SpanExporter", redactor)))
    _exporting = True
    return True


def install(processor: Any) -> TracerProvider:
    """Add `processor` (its exporter wrapped in a `Redactor`) to this process's one provider,
    made and set globally the first time (OpenTelemetry allows one per process)."""
    global _provider
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider

    if _provider is None:
        _provider = TracerProvider(resource=Resource.create({"service.name": "pwc-mcp"}))
        trace.set_tracer_provider(_provider)
    _provider.add_span_processor(processor)
    return _provider


def upstream_observer(observe: Observe) -> Observe:
    """`observe`, plus a span per catalog request while spans are recorded (a provider is
    installed): drawn once the request ended, from its measured seconds, as a child of the
    call that made it; `observe` itself when off."""
    if _provider is None:
        return observe
    tracer = trace.get_tracer("pwc_mcp.upstream")

    def traced(route: str, status_class: str, seconds: float) -> None:
        observe(route, status_class, seconds)
        end = time.time_ns()
        span = tracer.start_span(
            "GET upstream",
            kind=trace.SpanKind.CLIENT,
            start_time=end - int(seconds * 1e9),
            attributes={
                "http.request.method": "GET",
                "pwc.upstream.route": route,
                "pwc.upstream.status_class": status_class,
            },
        )
        span.end(end_time=end)

    return traced
