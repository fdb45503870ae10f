"""The hosted contract over real HTTP: both protocol eras, cache hints, routes and refusals."""

from __future__ import annotations

import httpx
import pytest
from fastmcp import Client as FastMCPClient
from fastmcp.client.transports import StreamableHttpTransport
from mcp import Client as SDKClient

from pwc_mcp import __version__
from pwc_mcp.params import TOOLS
from pwc_mcp.serving.localserver import Running
from pwc_mcp.site.examples import PROMPT_EXAMPLES, RESOURCE_EXAMPLES, first_examples
from tests.helpers.e2e import RPC_HEADERS, modern, rpc
from tests.helpers.mcp import RPC_ENVELOPE, TOOLS_LIST_BUDGET

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_official_sdk_client(server: Running, mode: str) -> None:
    async with SDKClient(f"{server.origin}/mcp", mode=mode) as client:
        tools = await client.list_tools()
        assert sorted(t.name for t in tools.tools) == sorted(TOOLS)
        result = await client.call_tool("search_papers", {"query": "transformer", "limit": 3})
        assert not result.is_error
        assert result.structured_content["schema_version"] == "v2"
        assert result.structured_content["data"]["results"]
        templates = await client.list_resource_templates()
        assert len(templates.resource_templates) == 4
        prompts = await client.list_prompts()
        assert {p.name for p in prompts.prompts} == {
            "find_papers",
            "compare_leaderboard",
            "survey_task",
        }


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_fastmcp_client(server: Running, mode: str) -> None:
    transport = StreamableHttpTransport(f"{server.origin}/mcp")
    async with FastMCPClient(transport, mode=mode) as client:
        assert client.protocol_version == ("2025-11-25" if mode == "legacy" else "2026-07-28")
        result = await client.call_tool("get_benchmark", {"benchmark": "imagenet", "limit": 2})
        assert result.structured_content["data"]["benchmark"]["slug"] == "imagenet"
        assert len(result.structured_content["evaluations"]) == 2


def test_initialize_negotiates_2025_11_25(http: httpx.Client) -> None:
    body = rpc(
        "initialize",
        {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        },
    )
    answer = http.post("/mcp", json=body, headers=RPC_HEADERS)
    assert answer.status_code == 200 and "mcp-session-id" not in answer.headers
    result = answer.json()["result"]
    assert result["protocolVersion"] == "2025-11-25"
    assert (
        result["serverInfo"]["name"] == "pwc"
        and result["serverInfo"]["title"] == "Papers With Code"
    )
    assert "official implementation" in result["instructions"].lower()
    for capability in ("timeline=true", "against_sota=true", "outline/section", "cite"):
        assert capability in result["instructions"], capability


def test_discover_with_public_cache_hints(http: httpx.Client) -> None:
    body, headers = modern("server/discover")
    answer = http.post("/mcp", json=body, headers=headers)
    assert answer.status_code == 200, answer.text
    result = answer.json()["result"]
    assert result["supportedVersions"] == ["2026-07-28"]
    assert (result["ttlMs"], result["cacheScope"]) == (3_600_000, "public")
    body, headers = modern("tools/list")
    listed = http.post("/mcp", json=body, headers=headers).json()["result"]
    assert (listed["ttlMs"], listed["cacheScope"]) == (3_600_000, "public")
    body, headers = modern(
        "resources/read",
        {"uri": "pwc://tasks/image-classification"},
        name="pwc://tasks/image-classification",
    )
    read = http.post("/mcp", json=body, headers=headers).json()["result"]
    assert (read["ttlMs"], read["cacheScope"]) == (300_000, "public")


def test_tools_list_wire_size(http: httpx.Client) -> None:
    answer = http.post("/mcp", json=rpc("tools/list"), headers=RPC_HEADERS)
    assert answer.status_code == 200
    budget = TOOLS_LIST_BUDGET + RPC_ENVELOPE
    assert len(answer.content) <= budget, len(answer.content)


@pytest.mark.parametrize("method", ["GET", "DELETE"])
def test_only_post_on_mcp(http: httpx.Client, method: str) -> None:
    answer = http.request(method, "/mcp", headers=RPC_HEADERS)
    assert answer.status_code == 405 and answer.headers["allow"] == "POST"


def test_batch_is_refused_briefly(http: httpx.Client) -> None:
    answer = http.post(
        "/mcp", json=[rpc("tools/list"), rpc("tools/list", rpc_id=2)], headers=RPC_HEADERS
    )
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == -32600 and len(error["message"]) < 120
    assert "Traceback" not in answer.text and "pydantic" not in answer.text


def test_unsupported_protocol_version(http: httpx.Client) -> None:
    answer = http.post(
        "/mcp",
        json=rpc("tools/list"),
        headers={**RPC_HEADERS, "MCP-Protocol-Version": "1999-01-01"},
    )
    assert answer.status_code == 400


def test_modern_header_mismatch_and_unknown_method(http: httpx.Client) -> None:
    body, headers = modern("tools/list")
    answer = http.post("/mcp", json=body, headers={**headers, "Mcp-Method": "prompts/list"})
    assert answer.status_code == 400 and answer.json()["error"]["code"] == -32020
    body, headers = modern("no/such/method")
    assert http.post("/mcp", json=body, headers=headers).status_code == 404


def test_health_answers_from_cached_readiness(http: httpx.Client) -> None:
    answer = http.get("/health")
    assert answer.status_code == 200
    assert answer.json() == {
        "status": "ok",
        "service": "pwc-mcp",
        "version": __version__,
        "protocol": "2025-11-25",
    }


def test_well_known_uses_the_request_origin(http: httpx.Client, server: Running) -> None:
    doc = http.get("/.well-known/mcp").json()
    assert doc["transport"] == {"type": "streamable-http", "url": f"{server.origin}/mcp"}
    assert doc["documentation_url"] == f"{server.origin}/docs"
    assert doc["supported_protocol_versions"][:2] == ["2026-07-28", "2025-11-25"]
    other = http.get("/.well-known/mcp", headers={"Host": "localhost:7860"}).json()
    assert other["transport"]["url"] == "http://localhost:7860/mcp"
    # Behind the local TLS proxy (a loopback peer), the proxy's scheme is the public one.
    proxied = http.get(
        "/.well-known/mcp", headers={"Host": "localhost", "X-Forwarded-Proto": "https"}
    ).json()
    assert proxied["transport"]["url"] == "https://localhost/mcp"
    assert proxied["documentation_url"] == "https://localhost/docs"
    bogus = http.get("/.well-known/mcp", headers={"X-Forwarded-Proto": "gopher"}).json()
    assert bogus["transport"]["url"].startswith("http://")


def test_docs_lists_every_tool_template_and_prompt(http: httpx.Client) -> None:
    answer = http.get("/docs")
    assert answer.status_code == 200 and "max-age=3600" in answer.headers["cache-control"]
    docs = answer.json()
    assert len(docs["tools"]) == len(TOOLS) and all(
        t["inputSchema"] and t["outputSchema"] for t in docs["tools"]
    )
    assert len(docs["resourceTemplates"]) == len(RESOURCE_EXAMPLES)
    assert len(docs["prompts"]) == len(PROMPT_EXAMPLES)


def test_every_tool_over_http(http: httpx.Client) -> None:
    for index, (tool, arguments) in enumerate(first_examples().items()):
        answer = http.post(
            "/mcp",
            json=rpc("tools/call", {"name": tool, "arguments": arguments}, rpc_id=index),
            headers=RPC_HEADERS,
        )
        result = answer.json()["result"]
        assert not result.get("isError"), (tool, result["content"][0]["text"])
        assert result["structuredContent"]["data"] is not None
