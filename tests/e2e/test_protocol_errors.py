"""Protocol-level errors by the book (issue #16), over real HTTP against the real app.

A caller's mistake is -32602 in one line that never echoes the input, never -32603 with the
SDK's internals; transport mistakes get a JSON-RPC body from the guard layer before the SDK can
answer in its own words.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from mcp import Client as SDKClient
from mcp import MCPError

from pwc_mcp.edge.jsonrpc import STATELESS_PROTOCOLS, SUPPORTED_PROTOCOLS
from pwc_mcp.serving.localserver import Running
from tests.helpers.e2e import RPC_HEADERS, modern, rpc

INVALID_PARAMS, UNSUPPORTED = -32602, -32022
anyio = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def legacy(method: str, params: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    return rpc(method, params), RPC_HEADERS


def modern_named(method: str, params: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    return modern(method, params, name=params.get("name") or params.get("uri"))


ERAS = pytest.mark.parametrize("era", [legacy, modern_named], ids=["2025-11-25", "2026-07-28"])


def error_of(answer: httpx.Response) -> dict[str, Any]:
    assert answer.headers["content-type"].startswith("application/json")
    error = answer.json()["error"]
    assert "\n" not in error["message"] and "pydantic" not in answer.text
    return error


@ERAS
@pytest.mark.parametrize("size", [600, 100_000])
def test_an_over_long_prompt_argument_is_invalid_params_without_the_input(
    http: httpx.Client, era: Any, size: int
) -> None:
    body, headers = era("prompts/get", {"name": "find_papers", "arguments": {"topic": "x" * size}})
    answer = http.post("/mcp", json=body, headers=headers)
    error = error_of(answer)
    assert error["code"] == INVALID_PARAMS
    assert error["message"] == "invalid params: topic must be 1 to 500 characters of text"
    assert "xxxxxxxxxx" not in answer.text and len(answer.content) < 300


@ERAS
def test_a_blank_or_missing_prompt_argument_and_an_unknown_prompt_are_invalid_params(
    http: httpx.Client, era: Any
) -> None:
    secret = "unknown-prompt-" + "y" * 5000
    for params in (
        {"name": "survey_task", "arguments": {"task": "   "}},
        {"name": "compare_leaderboard", "arguments": {}},
        {"name": secret, "arguments": {}},
    ):
        body, headers = era("prompts/get", params)
        answer = http.post("/mcp", json=body, headers=headers)
        assert error_of(answer)["code"] == INVALID_PARAMS
        assert "yyyyy" not in answer.text and len(answer.content) < 300


@ERAS
def test_a_valid_prompt_still_renders(http: httpx.Client, era: Any) -> None:
    body, headers = era("prompts/get", {"name": "survey_task", "arguments": {"task": "x"}})
    answer = http.post("/mcp", json=body, headers=headers)
    assert "survey_task" not in answer.json().get("error", {}).get("message", "")
    assert "'x'" in answer.json()["result"]["messages"][0]["content"]["text"]


@ERAS
@pytest.mark.parametrize(
    "uri",
    ["pwc://tasks/no-such-task", "pwc://benchmarks/no-such-benchmark", "pwc://nothing/x"],
)
def test_reading_an_unknown_resource_is_resource_not_found(
    http: httpx.Client, era: Any, uri: str
) -> None:
    """The 2026-07-28 resource-not-found error: -32602 with data.uri (not -32603)."""
    body, headers = era("resources/read", {"uri": uri})
    error = error_of(http.post("/mcp", json=body, headers=headers))
    assert error["code"] == INVALID_PARAMS
    assert error["message"].startswith("resource not found: ")
    assert error["data"] == {"uri": uri}


@ERAS
def test_a_malformed_resource_reference_is_invalid_params(http: httpx.Client, era: Any) -> None:
    for uri in ("pwc://tasks/" + "a" * 600, "pwc://tasks/" + "a" * 5000):
        body, headers = era("resources/read", {"uri": uri})
        answer = http.post("/mcp", json=body, headers=headers)
        assert error_of(answer)["code"] == INVALID_PARAMS
        assert "a" * 100 not in json.dumps(answer.json()["error"]["message"])


@ERAS
def test_an_upstream_free_resource_still_reads(http: httpx.Client, era: Any) -> None:
    body, headers = era("resources/read", {"uri": "pwc://tasks/image-classification"})
    contents = http.post("/mcp", json=body, headers=headers).json()["result"]["contents"]
    assert json.loads(contents[0]["text"])["data"]["task"]["slug"] == "image-classification"


@pytest.mark.parametrize("version", ["1999-01-01", "2026-01-01", "garbage", "2025-11-25x"])
def test_an_unsupported_protocol_version_lists_the_supported_ones(
    http: httpx.Client, version: str
) -> None:
    answer = http.post(
        "/mcp", json=rpc("tools/list"), headers={**RPC_HEADERS, "MCP-Protocol-Version": version}
    )
    assert answer.status_code == 400
    error = error_of(answer)
    assert error["code"] == UNSUPPORTED and answer.json()["id"] == 1
    assert error["data"] == {"supported": list(STATELESS_PROTOCOLS), "requested": version}
    assert all(v in error["message"] for v in SUPPORTED_PROTOCOLS)


def test_the_supported_versions_agree_with_server_discover(http: httpx.Client) -> None:
    """The 2026-07-28 conformance suite requires data.supported to be discover's own list."""
    meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {},
    }
    modern = {**RPC_HEADERS, "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "server/discover"}
    discovered = http.post("/mcp", json=rpc("server/discover", {"_meta": meta}), headers=modern)
    refused = http.post(
        "/mcp", json=rpc("tools/list"), headers={**RPC_HEADERS, "MCP-Protocol-Version": "v9"}
    )
    supported = discovered.json()["result"]["supportedVersions"]
    assert error_of(refused)["data"]["supported"] == supported


@anyio
async def test_the_official_client_reads_the_unsupported_version_error(server: Running) -> None:
    """The SDK's own model of the 2026-07-28 error data parses what we send."""
    import mcp_types

    async with httpx.AsyncClient(base_url=server.origin) as http:
        answer = await http.post(
            "/mcp",
            json=rpc("tools/list"),
            headers={**RPC_HEADERS, "MCP-Protocol-Version": "2099-01-01"},
        )
    data = mcp_types.UnsupportedProtocolVersionErrorData.model_validate(
        answer.json()["error"]["data"]
    )
    assert data.requested == "2099-01-01" and "2026-07-28" in data.supported


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", None])
def test_a_wrong_content_type_gets_a_json_rpc_body(
    http: httpx.Client, content_type: str | None
) -> None:
    headers = {k: v for k, v in RPC_HEADERS.items() if k != "Content-Type"}
    if content_type is not None:
        headers["Content-Type"] = content_type
    answer = http.post("/mcp", content=json.dumps(rpc("tools/list")), headers=headers)
    assert answer.status_code == 415
    assert error_of(answer)["code"] == -32600


def test_json_with_a_charset_is_still_json(http: httpx.Client) -> None:
    headers = {**RPC_HEADERS, "Content-Type": "application/json; charset=utf-8"}
    answer = http.post("/mcp", content=json.dumps(rpc("tools/list")), headers=headers)
    assert answer.status_code == 200 and answer.json()["result"]["tools"]


@anyio
@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_official_client_sees_invalid_params_for_a_long_prompt_argument(
    server: Running, mode: str
) -> None:
    async with SDKClient(f"{server.origin}/mcp", mode=mode) as client:
        with pytest.raises(MCPError) as info:
            await client.get_prompt("find_papers", {"topic": "z" * 600})
    assert info.value.code == INVALID_PARAMS and "zzzz" not in info.value.message
