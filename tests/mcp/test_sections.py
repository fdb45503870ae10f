"""read_paper by section: the outline and section reads in signed chunks, over the sample."""

from __future__ import annotations

import base64
import json
import secrets
from typing import Any

import pytest
from cryptography.hazmat.primitives import hashes, hmac
from fastmcp import Client

from pwc_core.transport import CatalogClient
from pwc_mcp.caching.cache import ChunkCache
from pwc_mcp.catalog import CatalogService
from pwc_mcp.cursors import CursorCodec, CursorState, SectionBound
from pwc_mcp.sample import RunningCatalog
from pwc_mcp.server import build_server
from tests.helpers.mcp import call, error_of, make_service
from tests.test_outline import LONG, RESULTS, markdown_of, run, stored

pytestmark = pytest.mark.anyio
READ = "research/papers/1706.03762/read"
APPENDIX = "appendix-extended-ablation-notes@1729"


async def read_section(
    client: Client, paper: str, section: str, then: str | None = None
) -> tuple[bytes, list[dict[str, Any]]]:
    """Follow next_cursor to the section's end: its bytes and every call's result."""
    structured, _ = await call(client, "read_paper", paper=paper, section=section)
    results = [structured]
    while structured.get("truncated"):
        structured, _ = await call(
            client,
            "read_paper",
            paper=then or paper,
            section=section,
            cursor=structured["next_cursor"],
        )
        results.append(structured)
    return b"".join(r["data"]["markdown"].encode() for r in results), results


def cli_data(sample: RunningCatalog, *argv: str) -> Any:
    code, out, err = run(sample, "paper", "read", *argv, "--json")
    assert code == 0, err
    return json.loads(out)["data"]


async def test_outline_then_the_results_section(client: Client, sample: RunningCatalog) -> None:
    """ "Show me the outline of Attention Is All You Need, then read its Results section."""
    structured, text = await call(
        client, "read_paper", paper="Attention Is All You Need", outline=True
    )
    outline = structured["data"]
    assert outline["complete"] is True and outline["paper"] == "1706.03762"
    assert {k: v for k, v in outline.items() if k != "content_version"} == cli_data(
        sample, "1706.03762", "--outline"
    )
    results = next(h for h in outline["outline"] if h["title"] == "4 Results")
    assert results["id"] == RESULTS and "- 4 Results (`4-results@1390`)" in text
    sample.stats.reset()
    structured, text = await call(client, "read_paper", paper="1706.03762", section=results["id"])
    assert sample.stats.requests == {READ: 1}, "a section read is one upstream read"
    assert "truncated" not in structured and "next_cursor" not in structured
    section = {"id": RESULTS, "level": 2, "title": "4 Results", "end": 1729}
    assert structured["data"]["section"] == section
    cli = cli_data(sample, "1706.03762", "--section", RESULTS)
    assert cli["section"] == {**section, "offset": 1390}
    markdown = structured["data"]["markdown"]
    assert markdown == cli["markdown"]
    assert text == markdown and markdown.startswith("## 4 Results\n")


async def test_a_section_longer_than_64_kib(client: Client, sample: RunningCatalog) -> None:
    whole = stored(sample, "1706.03762")
    sample.stats.reset()
    body, results = await read_section(client, "1706.03762", APPENDIX, then="48213")
    assert body == whole[1729:] and len(results) >= 4
    assert all(len(r["data"]["markdown"].encode()) <= 65_536 for r in results)
    assert sample.stats.requests.get(READ) == len(results), "one upstream read per call"
    assert results[-1]["data"]["section"] == {"id": APPENDIX, "level": 2, "end": len(whole)}
    assert [r["offset"] for r in results[1:]] == [
        r["offset"] + len(r["data"]["markdown"].encode()) for r in results[:-1]
    ]


async def test_built_long_markdown_agrees_with_the_cli(
    client: Client, sample: RunningCatalog
) -> None:
    """Fences across chunks, a line longer than a chunk, hostile `#` lines: the server's chunked
    reads give the CLI's outline and sections."""
    with markdown_of(sample, "2010.11929", LONG):
        structured, _ = await call(client, "read_paper", paper="2010.11929", outline=True)
        expected = cli_data(sample, "2010.11929", "--outline")
        assert structured["data"]["outline"] == expected["outline"]
        for heading in expected["outline"]:
            body, results = await read_section(client, "2010.11929", heading["id"])
            section = cli_data(sample, "2010.11929", "--section", heading["id"])
            assert body.decode() == section["markdown"], heading["title"][:20]
            assert results[-1]["data"]["section"]["end"] == section["section"]["end"]
        method = expected["outline"][1]["id"]
        assert len((await read_section(client, "2010.11929", method))[1]) >= 3


async def test_the_outline_stops_after_32_reads(sample: RunningCatalog) -> None:
    server = build_server(make_service(sample.url, cached=False, chunk_limit=512))
    sample.stats.reset()
    async with Client(server) as client:
        structured, text = await call(client, "read_paper", paper="1706.03762", outline=True)
    outline = structured["data"]
    assert sample.stats.requests[READ] == 32
    assert outline["complete"] is False and outline["bytes_read"] <= 32 * 512
    assert outline["stopped"] == f"only the first {outline['bytes_read']:,} bytes were read"
    assert all(h["offset"] < outline["bytes_read"] for h in outline["outline"])
    assert "[outline incomplete: only the first" in text


async def test_the_outline_reads_through_the_chunk_cache(sample: RunningCatalog) -> None:
    async with Client(build_server(make_service(sample.url))) as client:
        sample.stats.reset()
        first, _ = await call(client, "read_paper", paper="1706.03762", outline=True)
        chunks = sample.stats.requests[READ]
        second, _ = await call(client, "read_paper", paper="48213", outline=True)
    assert chunks == 4 and sample.stats.requests[READ] == chunks + 1, "only the first chunk again"
    assert first == second


def _with_payload(cursor: str, change: dict[str, Any]) -> str:
    body, tag = cursor.split(".")
    payload = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    payload.update(change)
    text = json.dumps(payload, sort_keys=True, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(text).rstrip(b"=").decode() + "." + tag


def _signed(key: bytes, cursor: str, change: dict[str, Any]) -> str:
    """A payload changed and signed with the server's own key (what no client can do)."""
    body = _with_payload(cursor, change).split(".")[0]
    mac = hmac.HMAC(key, hashes.SHA256())
    mac.update(body.encode("ascii"))
    return body + "." + base64.urlsafe_b64encode(mac.finalize()).rstrip(b"=").decode()


async def test_forged_and_reused_cursors(sample: RunningCatalog) -> None:
    key = secrets.token_bytes(32)
    codec = CursorCodec(key)
    service = CatalogService(CatalogClient(sample.url), codec, ChunkCache())
    async with Client(build_server(service)) as client:
        first, _ = await call(client, "read_paper", paper="1706.03762", section=APPENDIX)
        cursor = first["next_cursor"]
        sec = {"id": APPENDIX, "level": 2, "fence": "", "mid": False}
        for change in ({"sec": {**sec, "level": 1}}, {"offset": 239_000}, {"sec": None}):
            text = await error_of(
                client,
                "read_paper",
                paper="1706.03762",
                section=APPENDIX,
                cursor=_with_payload(cursor, change),
            )
            assert text.startswith("invalid_argument: invalid continuation cursor"), change
        text = await error_of(
            client, "read_paper", paper="1706.03762", section=RESULTS, cursor=cursor
        )
        assert text.startswith(f"invalid_argument: this cursor continues section '{APPENDIX}'")
        text = await error_of(client, "read_paper", paper="1706.03762", cursor=cursor)
        assert text.startswith("invalid_argument: this cursor continues a section")
        plain, _ = await call(client, "read_paper", paper="1706.03762")
        text = await error_of(
            client, "read_paper", paper="1706.03762", section=APPENDIX, cursor=plain["next_cursor"]
        )
        assert text.startswith("invalid_argument: this cursor continues a whole-paper read")
        again = [
            await call(client, "read_paper", paper="1706.03762", section=APPENDIX, cursor=cursor)
            for _ in range(2)
        ]
        assert again[0] == again[1], "a reused cursor reads the same chunk again"

        # Even a cursor only the server could sign stops at the section's end: the end is the
        # bound rule (level 2 under this content version), not anything the client sends.
        whole = stored(sample, "1706.03762")
        last_line = whole.index(b"Training the big model")
        signed = codec.encode(
            CursorState(
                reference="1706.03762",
                paper="1706.03762",
                content_version=first["content_version"],
                offset=last_line,
                limit=65_536,
                expires_at=codec.new_expiry(),
                section=SectionBound(RESULTS, 2),
            )
        )
        tail, _ = await call(
            client, "read_paper", paper="1706.03762", section=RESULTS, cursor=signed
        )
        assert tail["data"]["markdown"].encode() == whole[last_line:1729]
        assert "Appendix" not in tail["data"]["markdown"] and 1500 < last_line < 1729
        assert "truncated" not in tail and tail["data"]["section"]["end"] == 1729
        for sec_change in ({"fence": "zz"}, {"level": 7}, {"id": "no-offset"}, {"mid": 0}):
            forged = _signed(key, cursor, {"sec": {**sec, **sec_change}})
            text = await error_of(
                client, "read_paper", paper="1706.03762", section=APPENDIX, cursor=forged
            )
            assert text.startswith("invalid_argument: invalid continuation cursor"), sec_change


async def test_refusals(client: Client, sample: RunningCatalog) -> None:
    paper = "1706.03762"
    inside_a_character = stored(sample, paper).index("—".encode()) + 3  # the byte before: 0x94
    text = await error_of(client, "read_paper", paper=paper, section="4-result@1390")
    assert text.startswith("not_found: section '4-result@1390' is not in this paper")
    assert text.endswith("list the sections again with outline: true")
    for section in ("x@1391", "x@99999999", "4-results@1391", f"x@{inside_a_character}"):
        text = await error_of(client, "read_paper", paper=paper, section=section)
        assert text.startswith(f"not_found: section '{section}' is not in this paper"), text
    text = await error_of(client, "read_paper", paper=paper, section="Results")
    assert text.startswith(
        "invalid_argument: section must be SLUG@OFFSET as listed by outline: true"
    )
    text = await error_of(client, "read_paper", paper=paper, outline=True, section=RESULTS)
    assert text == "invalid_argument: outline and section cannot be combined"
    text = await error_of(client, "read_paper", paper=paper, outline=True, cursor="x.y")
    assert text.startswith("invalid_argument: an outline is one call; omit cursor")
    text = await error_of(client, "read_paper", paper=paper, section="a" * 61 + "@1")
    assert "section" in text and "60" in text
