"""Signed continuation cursors: round trips, rotation, tampering, decode order (injected clock)."""

from __future__ import annotations

import base64
import dataclasses
import json
from typing import Any

import pytest

from pwc_mcp.cursors import (
    EXPIRED_MESSAGE,
    INVALID_MESSAGE,
    CursorCodec,
    CursorError,
    CursorState,
    key_id,
)

OLD, NEW, OTHER = b"o" * 32, b"n" * 32, b"x" * 32
VERSION = "ab" * 32
T0 = 1_000_000.0


class Clock:
    def __init__(self, now: float = T0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def state(codec: CursorCodec, **changes: Any) -> CursorState:
    base = CursorState("1706.03762", "1706.03762", VERSION, 65536, 65536, codec.new_expiry())
    return dataclasses.replace(base, **changes)


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def payload_of(token: str) -> dict[str, Any]:
    body = token.split(".")[0]
    return json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))


def reencoded(token: str, **changes: Any) -> str:
    """The same signature over a payload with changed fields."""
    payload = {**payload_of(token), **changes}
    body = b64(json.dumps(payload, sort_keys=True, separators=(",", ":")).encode())
    return f"{body}.{token.split('.')[1]}"


def invalid(codec: CursorCodec, token: Any, reference: str = "1706.03762") -> CursorError:
    with pytest.raises(CursorError) as info:
        codec.decode(token, reference)
    assert info.value.kind == "invalid" and str(info.value) == INVALID_MESSAGE
    assert info.value.state is None
    return info.value


def test_round_trip_and_payload_layout() -> None:
    codec = CursorCodec(NEW, clock=Clock())
    original = state(codec, reference="Attention Is All You Need")
    token = codec.encode(original)
    assert codec.decode(token, "  Attention Is All You Need ") == original
    assert set(token) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.")
    assert "=" not in token and token.count(".") == 1
    assert payload_of(token) == {
        "v": 1,
        "ref": "Attention Is All You Need",
        "paper": "1706.03762",
        "version": VERSION,
        "offset": 65536,
        "limit": 65536,
        "kid": key_id(NEW),
        "exp": int(T0) + 3600,
    }
    assert key_id(NEW) == codec.kid and len(codec.kid) == 16


def test_multi_step_offsets_keep_the_original_expiry() -> None:
    clock = Clock()
    codec = CursorCodec(NEW, clock=clock)
    current = state(codec, offset=5, limit=5)
    expiry = current.expires_at
    for step in range(1, 6):
        token = codec.encode(current)
        clock.now += 300
        decoded = codec.decode(token, "1706.03762")
        assert decoded.offset == 5 * step and decoded.expires_at == expiry
        current = dataclasses.replace(decoded, offset=decoded.offset + 5)


@pytest.mark.parametrize(
    ("paper", "reference"),
    [
        ("math.GT/0309136", "math.GT/0309136v2"),
        ("hep-th/9711200", "hep-th/9711200"),
        ("48213", "48213"),
        ("12345678901234567890", "Some Title"),
        ("2401.00001", "2401.00001"),
    ],
)
def test_legacy_arxiv_and_numeric_papers(paper: str, reference: str) -> None:
    codec = CursorCodec(NEW, clock=Clock())
    token = codec.encode(state(codec, paper=paper, reference=reference))
    assert codec.decode(token, reference).paper == paper


def test_key_rotation() -> None:
    clock = Clock()
    old = CursorCodec(OLD, clock=clock)
    token = old.encode(state(old))
    rotated = CursorCodec(NEW, OLD, clock=clock)
    clock.now += 100
    decoded = rotated.decode(token, "1706.03762")
    assert decoded.expires_at == int(T0) + 3600  # rotation does not extend the expiry
    assert payload_of(rotated.encode(decoded))["kid"] == key_id(NEW)  # new cursors: current key
    invalid(CursorCodec(NEW, clock=clock), token)  # old key retired
    invalid(CursorCodec(NEW, OTHER, clock=clock), token)  # unknown key id


@pytest.mark.parametrize(
    "changes",
    [
        {"v": 2},
        {"ref": "1706.03763"},
        {"paper": "1706.03763"},
        {"version": "cd" * 32},
        {"offset": 65537},
        {"limit": 65535},
        {"kid": key_id(OLD)},
        {"kid": "0" * 16},
        {"exp": int(T0) + 3599},
        {"extra": 1},
    ],
)
def test_tampering_any_bound_field_is_invalid(changes: dict[str, Any]) -> None:
    codec = CursorCodec(NEW, OLD, clock=Clock())
    token = codec.encode(state(codec))
    invalid(codec, reencoded(token, **changes), str(changes.get("ref", "1706.03762")))


def test_malformed_tokens_are_invalid() -> None:
    codec = CursorCodec(NEW, clock=Clock())
    token = codec.encode(state(codec))
    flipped = token[:-1] + ("A" if token[-1] != "A" else "B")  # also catches non-canonical bits
    body, tag = token.split(".")
    for bad in [
        flipped,
        token[:-1],
        token[: len(token) // 2],
        body,
        f"{body}.{tag}.x",
        f"{body}.{tag}=",
        "%%%private%%%",
        "",
        "." * 10,
        "a" * 2049,
        "a" * 4096,
        f"{b64(b'[1, 2]')}.{tag}",
        f"{b64(bytes([255]))}.{tag}",
        None,
        42,
    ]:
        invalid(codec, bad)
    invalid(codec, f"{b64(b'[' * 1500)}.{tag}")  # deep nesting before the signature check
    unsigned = codec.encode(state(codec)).split(".")[0] + "."
    invalid(codec, unsigned)


def test_expiry_is_checked_before_the_reference() -> None:
    clock = Clock()
    codec = CursorCodec(NEW, clock=clock)
    token = codec.encode(state(codec))
    clock.now += 3599
    assert codec.decode(token, "1706.03762").offset == 65536
    clock.now += 1  # exp <= now
    for reference in ("1706.03762", "a different paper"):
        with pytest.raises(CursorError) as info:
            codec.decode(token, reference)
        assert info.value.kind == "expired" and str(info.value) == EXPIRED_MESSAGE
    invalid(codec, token[:-2] + "AA")  # tampering is still invalid after expiry


def test_reference_mismatch_carries_the_state() -> None:
    codec = CursorCodec(NEW, clock=Clock())
    original = state(codec, reference="Attention Is All You Need", paper="1706.03762")
    token = codec.encode(original)
    for other in ("755", "attention is all you need"):  # exact, case-sensitive after trimming
        with pytest.raises(CursorError) as info:
            codec.decode(token, other)
        assert info.value.kind == "mismatch" and info.value.state == original
        assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    "changes",
    [
        {"content_version": "AB" * 32},
        {"content_version": "ab" * 31},
        {"offset": 0},
        {"offset": -1},
        {"offset": True},
        {"limit": 70000},
        {"limit": 0},
        {"paper": "not a paper"},
        {"paper": "1" * 21},
        {"paper": "../etc/passwd"},
        {"reference": ""},
        {"reference": " padded "},
        {"reference": "x" * 501},
    ],
)
def test_encode_refuses_a_bad_state(changes: dict[str, Any]) -> None:
    codec = CursorCodec(NEW, clock=Clock())
    with pytest.raises(CursorError) as info:
        codec.encode(state(codec, **changes))
    assert info.value.kind == "invalid"


@pytest.mark.parametrize("delta", [0, -1, 3601, 86400])
def test_encode_refuses_an_expiry_outside_the_lifetime(delta: int) -> None:
    codec = CursorCodec(NEW, clock=Clock())
    with pytest.raises(CursorError):
        codec.encode(state(codec, expires_at=int(T0) + delta))
    assert codec.encode(state(codec, expires_at=int(T0) + 3600))


def test_codec_requires_a_current_key_and_bounds_tokens() -> None:
    with pytest.raises(ValueError, match="current cursor secret is required"):
        CursorCodec(b"")
    codec = CursorCodec(NEW, clock=Clock())
    longest_ascii = codec.encode(state(codec, reference="r" * 500))
    assert len(longest_ascii) <= 2048
    with pytest.raises(CursorError):  # would exceed the 2048-character decode bound
        codec.encode(state(codec, reference="\U0001f600" * 500))
