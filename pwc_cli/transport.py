"""HTTP transport for the catalog API v1: one reusable, thread-safe httpx client.

Every request is a GET; parameters are encoded the way the upstream expects (None omitted,
booleans lowercase, lists as repeated keys) and every body is bounded at 2 MiB, whether or
not the server announces its length.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import httpx

from pwc_cli import __version__
from pwc_cli.errors import HTTPStatusError, ResponseError, TransportError, UpstreamTimeout

DEFAULT_BASE_URL = "https://paperswithcode.co/api/v1"
CLI_TIMEOUT = 30.0
MAX_RESPONSE_BYTES = 2 * 1024 * 1024
ERROR_DETAIL_BYTES = 4096
ACCEPT = "application/json, text/plain;q=0.9"

Params = Mapping[str, Any] | None
EncodedParams = tuple[tuple[str, str], ...]


def encode_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


def encode_params(params: Params) -> EncodedParams:
    """Canonical query: None omitted, bools lowercase, lists as repeated keys, order kept."""
    pairs: list[tuple[str, str]] = []
    for key, value in (params or {}).items():
        if value is None:
            continue
        if isinstance(value, list | tuple):
            pairs.extend((key, encode_value(item)) for item in value if item is not None)
        else:
            pairs.append((key, encode_value(value)))
    return tuple(pairs)


def paper_segment(reference: str) -> str:
    """Paper references keep `.` but encode everything else, `/` included."""
    return quote(reference, safe=".")


def entity_segment(identifier: str) -> str:
    """Task, method, conference, organization and dataset identifiers encode everything."""
    return quote(str(identifier), safe="")


@dataclass(frozen=True)
class Reply:
    """A successful answer: status, lower-cased headers and the bounded body."""

    status: int
    headers: Mapping[str, str]
    body: bytes

    def json(self) -> Any:
        try:
            return json.loads(self.body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise ResponseError("API returned invalid JSON") from exc

    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")


class CatalogClient:
    """Catalog API client, safe to share across calls and threads (httpx pools connections)."""

    def __init__(
        self,
        base_url: str | None = None,
        *,
        timeout: float = CLI_TIMEOUT,
        max_bytes: int = MAX_RESPONSE_BYTES,
        credential: str | None = None,
        http: httpx.Client | None = None,
        max_connections: int = 20,
    ) -> None:
        base = base_url or os.environ.get("PWC_API_URL") or DEFAULT_BASE_URL
        self.base_url = base.rstrip("/")
        self.timeout = timeout
        self.max_bytes = max_bytes
        headers = {"Accept": ACCEPT, "User-Agent": f"pwc-cli/{__version__}"}
        if credential:
            headers["Authorization"] = f"Bearer {credential}"
        self._http = http or httpx.Client(
            timeout=httpx.Timeout(timeout),
            limits=httpx.Limits(
                max_connections=max_connections, max_keepalive_connections=max_connections
            ),
            follow_redirects=False,
        )
        self._headers = headers

    def url(self, path: str) -> str:
        return f"{self.base_url}/{path.lstrip('/')}"

    def get(self, path: str, params: Params = None) -> Reply:
        """One GET; raises TransportError/HTTPStatusError/ResponseError, never httpx errors."""
        try:
            with self._http.stream(
                "GET", self.url(path), params=encode_params(params), headers=self._headers
            ) as response:
                if not response.is_success:
                    raise HTTPStatusError(response.status_code, self._error_detail(response))
                body = self._read_bounded(response)
                headers = {k.lower(): v for k, v in response.headers.items()}
                return Reply(response.status_code, headers, body)
        except httpx.TimeoutException as exc:
            raise UpstreamTimeout() from exc
        except httpx.HTTPError as exc:
            raise TransportError(_reason(exc)) from exc

    def get_json(self, path: str, params: Params = None) -> Any:
        return self.get(path, params).json()

    def close(self) -> None:
        self._http.close()

    def _read_bounded(self, response: httpx.Response) -> bytes:
        announced = response.headers.get("content-length")
        if announced is not None and announced.isdigit() and int(announced) > self.max_bytes:
            raise ResponseError("API response exceeded the client byte limit")
        chunks: list[bytes] = []
        size = 0
        for chunk in response.iter_bytes():
            size += len(chunk)
            if size > self.max_bytes:
                raise ResponseError("API response exceeded the client byte limit")
            chunks.append(chunk)
        return b"".join(chunks)

    @staticmethod
    def _error_detail(response: httpx.Response) -> str:
        collected = bytearray()
        for chunk in response.iter_bytes():
            collected.extend(chunk)
            if len(collected) >= ERROR_DETAIL_BYTES:
                break
        return bytes(collected[:ERROR_DETAIL_BYTES]).decode("utf-8", errors="replace")


def _reason(exc: httpx.HTTPError) -> str:
    text = str(exc).strip()
    return text or type(exc).__name__


def canonical_request(path: str, pairs: Iterable[tuple[str, str]]) -> str:
    """The cache key of a request: its path plus its sorted, encoded parameters."""
    return path.strip("/") + "?" + "&".join(f"{k}={v}" for k, v in sorted(pairs))
