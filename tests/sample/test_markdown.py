"""research/papers/{ref}/read: whole documents, byte-exact 64 KiB chunks, versions and errors."""

from __future__ import annotations

import hashlib

import httpx
import pytest

from pwc_mcp.sample import RunningCatalog

CHUNK = 65536
# The long paper's bytes are generated deterministically at load time; pin them so they stay stable.
LONG_PAPER_SHA256 = "07fbb011264f9b1933fcaea422919a481154f24b990f6f8e8a9373a6b11c4ae4"


def read(api: httpx.Client, ref: str, **params: object) -> httpx.Response:
    return api.get(f"research/papers/{ref}/read", params=params or None)


def test_whole_markdown(api: httpx.Client) -> None:
    response = read(api, "1810.04805")
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/markdown; charset=utf-8"
    assert response.text.startswith("# BERT: Pre-training")
    assert response.headers["x-pwc-content-version"] == hashlib.sha256(response.content).hexdigest()
    assert "x-pwc-next-offset" not in response.headers


@pytest.mark.parametrize(
    ("ref", "title"),
    [
        ("48213", "# Attention"),
        ("904512", "# Gradient-Based"),
        ("hep-th%2F9711200", "# The Large N"),
        ("2010.11929v2", "# An Image"),
    ],
)
def test_every_reference_form_reads(api: httpx.Client, ref: str, title: str) -> None:
    response = read(api, ref)
    assert response.status_code == 200 and response.text.startswith(title)


def test_long_paper_reassembles_byte_exact_in_chunks(api: httpx.Client) -> None:
    whole = read(api, "1706.03762").content
    assert len(whole) > 200 * 1024 and hashlib.sha256(whole).hexdigest() == LONG_PAPER_SHA256
    assert whole.decode("utf-8").count("🚀") > 100 and "∑" in whole.decode("utf-8")
    parts: list[bytes] = []
    offset, version, cut_back = 0, None, 0
    while True:
        params: dict[str, object] = {"offset": offset, "limit": CHUNK}
        if version:
            params["content_version"] = version
        response = read(api, "1706.03762", **params)
        assert response.status_code == 200, response.text
        headers = response.headers
        version = version or headers["x-pwc-content-version"]
        assert headers["x-pwc-content-version"] == version == LONG_PAPER_SHA256
        body = response.content
        body.decode("utf-8")  # every chunk is valid UTF-8 on its own
        assert 0 < len(body) <= CHUNK
        parts.append(body)
        if headers["x-pwc-truncated"] == "0":
            assert "x-pwc-next-offset" not in headers
            break
        assert headers["x-pwc-truncated"] == "1"
        assert int(headers["x-pwc-next-offset"]) == offset + len(body)
        cut_back += len(body) < CHUNK
        offset += len(body)
    assert b"".join(parts) == whole
    assert len(parts) >= 4 and cut_back >= 1  # at least one boundary fell inside a character


def test_chunk_errors(api: httpx.Client) -> None:
    whole = read(api, "1706.03762").content
    inside = next(i for i, byte in enumerate(whole) if byte & 0xC0 == 0x80)
    assert read(api, "1706.03762", offset=inside, limit=CHUNK).status_code == 422
    assert read(api, "1706.03762", offset=len(whole) + 1, limit=CHUNK).status_code == 422
    assert (
        read(api, "1706.03762", offset=inside - 1, limit=1).status_code == 422
    )  # one byte cannot hold it
    assert read(api, "1706.03762", offset=0, limit=0).status_code == 422
    assert read(api, "1706.03762", offset=0, content_version="not-a-version").status_code == 422
    end = read(api, "1706.03762", offset=len(whole), limit=CHUNK)
    assert end.status_code == 200 and end.content == b"" and end.headers["x-pwc-truncated"] == "0"


def test_stale_content_version_is_409(api: httpx.Client, catalog: RunningCatalog) -> None:
    first = read(api, "1512.03385", offset=0, limit=100)
    old_version = first.headers["x-pwc-content-version"]
    original = read(api, "1512.03385").text
    catalog.store.set_markdown("1512.03385", original + "\nErratum — a corrected table. ✅\n")
    try:
        stale = read(api, "1512.03385", offset=100, limit=100, content_version=old_version)
        assert stale.status_code == 409 and isinstance(stale.json()["detail"], str)
        fresh = read(api, "1512.03385", offset=0, limit=100)
        assert fresh.headers["x-pwc-content-version"] != old_version
    finally:
        catalog.store.set_markdown("1512.03385", original)
    assert (
        read(api, "1512.03385", offset=0, limit=100, content_version=old_version).status_code == 200
    )


def test_missing_markdown_is_404(api: httpx.Client) -> None:
    assert api.get("papers/1412.6980").status_code == 200
    for ref in ("1412.6980", "0000.00000", "905870"):
        response = read(api, ref)
        assert response.status_code == 404 and isinstance(response.json()["detail"], str)
