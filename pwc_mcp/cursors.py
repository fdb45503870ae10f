"""Signed opaque continuation cursors for `read_paper` (HMAC-SHA256, current + previous key).

Token: base64url(compact sorted JSON payload) "." base64url(HMAC-SHA256 over the encoded
payload text), both without padding and canonical (no stray bits). The payload binds `v`,
`ref` (the caller's original reference), `paper` (canonical), `version` (64 lowercase hex),
`offset`, `limit`, `kid` (first 16 hex of sha256(key)) and `exp` (epoch seconds, fixed at
the first read); a section read's cursor also binds `sec` (`SectionBound`). The payload is readable, never secret; its integrity is what is protected.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, hmac

from pwc_core.outline import FENCE, parse_id

VERSION = 1
LIFETIME = 3600
MAX_TOKEN_CHARS = 2048
MAX_REFERENCE_CHARS = 500
MAX_LIMIT = 65536
MAX_OFFSET = 2**63 - 1

INVALID_MESSAGE = (
    "invalid continuation cursor; pass the next_cursor value from the previous read_paper "
    "result, or omit cursor to start from the beginning"
)
EXPIRED_MESSAGE = "expired continuation cursor; omit cursor to start reading from the beginning"
MISMATCH_MESSAGE = (
    "continuation cursor was issued for a different paper reference; omit cursor to start "
    "reading this paper from the beginning"
)
DIFFERENT_PAPER_MESSAGE = (
    "continuation cursor belongs to a different paper; omit cursor to start reading this "
    "paper from the beginning"
)
ENCODE_MESSAGE = "cannot sign an invalid continuation cursor state"

_MODERN = re.compile(r"\d{4}\.\d{4,5}(?:v\d+)?")
_LEGACY = re.compile(
    r"[A-Za-z][A-Za-z0-9.\-]{0,31}/\d{7}(?:v\d+)?"
)  # math.GT/0309136, hep-th/9711200
_NUMERIC = re.compile(r"\d{1,20}")
CONTENT_VERSION = re.compile(r"[0-9a-f]{64}")  # a paper's Markdown version: SHA-256 hex (fullmatch)
_B64 = re.compile(r"[A-Za-z0-9_-]+")
_FIELDS = frozenset({"v", "ref", "paper", "version", "offset", "limit", "kid", "exp"})

Kind = Literal["invalid", "expired", "mismatch"]
_MESSAGES = {"invalid": INVALID_MESSAGE, "expired": EXPIRED_MESSAGE, "mismatch": MISMATCH_MESSAGE}


@dataclass(frozen=True)
class SectionBound:
    """A section read's end, as the rule that fixes it under the bound content version: the
    section (its ID), its level (it ends at the next heading of this level or higher) and the
    scanner's state at the cursor's offset (pwc_core/outline.py). Payload key `sec`."""

    id: str
    level: int
    fence: str = ""
    midline: bool = False


@dataclass(frozen=True)
class CursorState:
    reference: str
    paper: str
    content_version: str
    offset: int
    limit: int
    expires_at: int
    section: SectionBound | None = None


class CursorError(ValueError):
    """A cursor that cannot be used; `kind` says why, `state` is set only on a mismatch."""

    def __init__(
        self,
        kind: Kind = "invalid",
        *,
        state: CursorState | None = None,
        message: str | None = None,
    ) -> None:
        super().__init__(message or _MESSAGES[kind])
        self.kind: Kind = kind
        self.state = state


def key_id(key: bytes) -> str:
    return hashlib.sha256(key).hexdigest()[:16]


def derived_key(cursor_key: bytes, purpose: bytes) -> bytes:
    """A key for another use (`purpose`), derived from the cursor key the replicas share, so
    each use has its own key and the cursor key itself never leaves the process."""
    return hashlib.blake2b(cursor_key, digest_size=32, person=purpose).digest()


def valid_paper(paper: Any) -> bool:
    """Modern arXiv, legacy arXiv (`archive[.SC]/YYMMNNN`) or a catalog ID of up to 20 digits."""
    return isinstance(paper, str) and any(p.fullmatch(paper) for p in (_MODERN, _LEGACY, _NUMERIC))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def valid_state(state: CursorState) -> bool:
    ref, version = state.reference, state.content_version
    return (
        isinstance(ref, str)
        and 1 <= len(ref) <= MAX_REFERENCE_CHARS
        and ref == ref.strip()
        and valid_paper(state.paper)
        and isinstance(version, str)
        and CONTENT_VERSION.fullmatch(version) is not None
        and all(_is_int(n) for n in (state.offset, state.limit, state.expires_at))
        and 1 <= state.offset <= MAX_OFFSET
        and 1 <= state.limit <= MAX_LIMIT
        and (state.section is None or valid_section(state.section))
    )


def valid_section(section: Any) -> bool:
    if not isinstance(section, SectionBound) or not isinstance(section.id, str):
        return False
    try:
        parse_id(section.id)
    except ValueError:
        return False
    return (
        section.id == section.id.strip()
        and _is_int(section.level)
        and 1 <= section.level <= 6
        and isinstance(section.fence, str)
        and FENCE.fullmatch(section.fence) is not None
        and isinstance(section.midline, bool)
    )


def _section_of(sec: Any) -> SectionBound | None:
    """The `sec` payload object (already under a verified signature), or None if malformed."""
    if not isinstance(sec, dict) or set(sec) != {"id", "level", "fence", "mid"}:
        return None
    return SectionBound(id=sec["id"], level=sec["level"], fence=sec["fence"], midline=sec["mid"])


def _b64encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _b64decode(text: str) -> bytes:
    """Strict: only the alphabet, and only the one canonical spelling of the bytes."""
    if not _B64.fullmatch(text):
        raise ValueError("not base64url")
    data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    if _b64encode(data) != text:
        raise ValueError("non-canonical base64url")
    return data


class CursorCodec:
    """Signs with the current key; verifies with the current or the previous key."""

    def __init__(
        self,
        current_key: bytes,
        previous_key: bytes | None = None,
        *,
        clock: Callable[[], float] = time.time,
        lifetime: int = LIFETIME,
    ) -> None:
        if not current_key:
            raise ValueError("current cursor secret is required")
        if lifetime < 1:
            raise ValueError("cursor lifetime must be positive")
        self._current = (key_id(current_key), current_key)
        self._keys = {key_id(current_key): current_key}
        if previous_key:
            self._keys.setdefault(key_id(previous_key), previous_key)
        self._clock = clock
        self.lifetime = lifetime

    @property
    def kid(self) -> str:
        return self._current[0]

    def new_expiry(self) -> int:
        """The expiry of a new reading session: fixed at the first read, never extended."""
        return int(self._clock()) + self.lifetime

    def encode(self, state: CursorState) -> str:
        now = self._clock()
        if not valid_state(state) or not now < state.expires_at <= now + self.lifetime:
            raise CursorError("invalid", message=ENCODE_MESSAGE)
        kid, key = self._current
        payload = {
            "v": VERSION,
            "ref": state.reference,
            "paper": state.paper,
            "version": state.content_version,
            "offset": state.offset,
            "limit": state.limit,
            "kid": kid,
            "exp": state.expires_at,
        }
        if state.section is not None:
            section = state.section
            payload["sec"] = {
                "id": section.id,
                "level": section.level,
                "fence": section.fence,
                "mid": section.midline,
            }
        text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        body = _b64encode(text.encode("utf-8"))
        token = f"{body}.{_b64encode(_mac(key, body).finalize())}"
        if len(token) > MAX_TOKEN_CHARS:  # only a very long non-ASCII reference gets here
            raise CursorError("invalid", message=ENCODE_MESSAGE)
        return token

    def decode(self, token: str, reference: str) -> CursorState:
        """Verified state; raises CursorError (invalid → expired → mismatch, in that order)."""
        if not isinstance(token, str) or not token or len(token) > MAX_TOKEN_CHARS:
            raise CursorError("invalid")
        parts = token.split(".")
        if len(parts) != 2:
            raise CursorError("invalid")
        body, tag = parts
        try:
            signature = _b64decode(tag)
            payload = json.loads(_b64decode(body).decode("utf-8"))
        except (ValueError, binascii.Error, UnicodeDecodeError, RecursionError):
            raise CursorError("invalid") from None
        if not isinstance(payload, dict):
            raise CursorError("invalid")
        kid = payload.get("kid")
        key = self._keys.get(kid) if isinstance(kid, str) else None
        if key is None:
            raise CursorError("invalid")
        try:
            _mac(key, body).verify(signature)  # constant-time
        except InvalidSignature:
            raise CursorError("invalid") from None
        fields = set(payload) - {"sec"}
        if fields != _FIELDS or payload["v"] != VERSION or not _is_int(payload["v"]):
            raise CursorError("invalid")
        section = _section_of(payload["sec"]) if "sec" in payload else None
        if "sec" in payload and section is None:
            raise CursorError("invalid")
        state = CursorState(
            reference=payload["ref"],
            paper=payload["paper"],
            content_version=payload["version"],
            offset=payload["offset"],
            limit=payload["limit"],
            expires_at=payload["exp"],
            section=section,
        )
        if not valid_state(state):
            raise CursorError("invalid")
        if state.expires_at <= self._clock():
            raise CursorError("expired")
        if not isinstance(reference, str) or reference.strip() != state.reference:
            raise CursorError("mismatch", state=state)
        return state


def _mac(key: bytes, body: str) -> hmac.HMAC:
    mac = hmac.HMAC(key, hashes.SHA256())
    mac.update(body.encode("ascii"))
    return mac
