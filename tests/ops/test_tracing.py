"""OpenTelemetry export: off and free without an endpoint (the SDK is never imported), on with
one; and every span that leaves, FastMCP's MCP spans and the upstream requests, carries no
argument, resource URI, name of the client's or address: every tool's, resource template's and
prompt's examples called over real HTTP on loopback, the spans read by the in-memory exporter
behind the same `Redactor` the OTLP exporter is given."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from pwc_mcp.app import create_app
from pwc_mcp.observability import tracing
from pwc_mcp.sample import RunningCatalog
from pwc_mcp.serving.localserver import serve_in_thread
from pwc_mcp.site.examples import PROMPT_EXAMPLES, RESOURCE_EXAMPLES, TOOL_EXAMPLES
from tests.helpers.e2e import RPC_HEADERS, rpc, settings_for, tool_call

ODD_TOOL = "drop_tables_9c2e1f"
FORWARDED = "203.0.113.77"
START = """
import sys
from opentelemetry import trace
from pwc_mcp.app import create_app
from pwc_mcp.config import Settings
create_app(Settings(api_url="http://127.0.0.1:9"), startup_grace=0)
print("opentelemetry.sdk" in sys.modules, type(trace.get_tracer_provider()).__name__)
"""


def started(**env: str) -> str:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
    done = subprocess.run(
        [sys.executable, "-c", START], env={**clean, **env}, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_off_and_free_without_an_endpoint() -> None:
    assert started() == "False ProxyTracerProvider"


def test_on_with_an_endpoint() -> None:  # nothing is sent: no span ends before the exit
    assert started(OTEL_EXPORTER_OTLP_ENDPOINT="http://127.0.0.1:9") == "True TracerProvider"


@pytest.fixture(scope="module")
def exported() -> Iterator[tuple[InMemorySpanExporter, InMemorySpanExporter]]:
    """(what leaves through the Redactor, what the SDK recorded before it)."""
    out, raw = InMemorySpanExporter(), InMemorySpanExporter()
    redacted = SimpleSpanProcessor(tracing.Redactor(out, tracing.vocabulary()))  # type: ignore[arg-type]
    unredacted = SimpleSpanProcessor(raw)
    tracing.install(redacted)
    tracing.install(unredacted)
    yield out, raw
    redacted.shutdown()  # the exporters drop whatever later tests record
    unredacted.shutdown()


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings(item)


def texts(spans: tuple[ReadableSpan, ...]) -> list[str]:
    """Every text a span carries: name, attribute values, events, links, status."""
    found: list[str] = []
    for span in spans:
        found += [span.name, span.status.description or ""]
        found += [str(v) for v in (span.attributes or {}).values()]
        for event in span.events:
            found += [event.name, *(str(v) for v in (event.attributes or {}).values())]
        for link in span.links:
            found += [str(v) for v in (link.attributes or {}).values()]
    return found


def test_no_span_carries_what_a_client_sent(
    sample: RunningCatalog, exported: tuple[InMemorySpanExporter, InMemorySpanExporter]
) -> None:
    out, raw = exported
    out.clear()
    raw.clear()
    forwarded = {**RPC_HEADERS, "X-Forwarded-For": FORWARDED}
    with (
        serve_in_thread(create_app(settings_for(sample)), name="pwc-mcp-traced") as server,
        httpx.Client(base_url=server.origin, timeout=60) as http,
    ):
        for tool, examples in TOOL_EXAMPLES.items():
            for index, arguments in enumerate(examples):
                tool_call(http, tool, arguments, index)
        for uri in RESOURCE_EXAMPLES.values():
            assert "result" in http.post("/mcp", json=rpc("resources/read", {"uri": uri})).json()
        for prompt, arguments in PROMPT_EXAMPLES.items():
            got = http.post(
                "/mcp", json=rpc("prompts/get", {"name": prompt, "arguments": arguments})
            )
            assert "result" in got.json()
        odd = rpc("tools/call", {"name": ODD_TOOL, "arguments": {"q": "x"}})
        assert http.post("/mcp", json=odd, headers=forwarded).json()["result"]["isError"]
        missing = rpc("resources/read", {"uri": "pwc://papers/2401.99999v9-secretpaper"})
        assert "error" in http.post("/mcp", json=missing, headers=forwarded).json()
    spans = out.get_finished_spans()
    names = {span.name for span in spans}
    assert {f"tools/call {tool}" for tool in TOOL_EXAMPLES} <= names
    assert {f"prompts/get {prompt}" for prompt in PROMPT_EXAMPLES} <= names
    assert "resources/read" in " ".join(names) and "tools/call other" in names
    upstream = [s for s in spans if s.name == "GET upstream"]
    assert upstream and all(s.attributes and s.attributes["pwc.upstream.route"] for s in upstream)
    assert any(s.parent is not None for s in upstream)  # inside the call that made them

    # every argument value (strings of 3 characters or more: a count identifies nothing)
    values = [v for a in TOOL_EXAMPLES.values() for x in a for v in x.values()]
    values += [v for a in PROMPT_EXAMPLES.values() for v in a.values()]
    secrets = {s for v in values for s in strings(v) if len(s) > 2}
    secrets |= {*RESOURCE_EXAMPLES.values(), "2401.99999v9-secretpaper", ODD_TOOL, FORWARDED}
    secrets |= {"127.0.0.1", str(httpx.URL(server.origin).port), sample.url}
    leaked = {s for s in secrets for text in texts(spans) if s.lower() in text.lower()}
    assert not leaked
    # the test can fail: before the Redactor, the spans carry what it removes
    assert {s for s in secrets for text in texts(raw.get_finished_spans()) if s in text}
