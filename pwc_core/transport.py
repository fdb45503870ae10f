"""HTTP transport for the catalog API v1: one reusable, thread-safe httpx client.

Every request is a GET; parameters are encoded the way the upstream expects (None omitted,
booleans lowercase, lists as repeated keys); every body is bounded at 2 MiB as received and as
decoded, whether or not the server announces its length; every request ends at its deadline
(connect, headers and whole body), or earlier when an enclosing budget (a tool call) ends first.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, unquote

import httpx

from pwc_core import __version__, deadline
from pwc_core.decoding import ACCEPT_ENCODING, OVER_LIMIT, read_decoded
from pwc_core.errors import (
    CatalogUnreachable,
    HTTPStatusError,
    ResponseTooLarge,
    TransportError,
    UpstreamShapeError,
    UpstreamTimeout,
    UsageError,
)

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
    return quote(_one_segment(reference), safe=".")


def entity_segment(identifier: str) -> str:
    """Task, method, conference, organization and dataset identifiers encode everything."""
    return quote(_one_segment(str(identifier)), safe="")


def _one_segment(value: str) -> str:
    """Refuse values that cannot stay one path segment whatever the servers on the way decode.

    `.` and `..` cannot be percent-encoded away (`%2E` is the same character to a URL
    normalizer), and servers that decode `%2F` and `%2E` before resolving dot segments (nginx
    does) would resolve `../x` or `%2e%2e` too; so a value whose fully decoded form has a `.`
    or `..` component, or that is empty, is refused rather than sent.
    """
    decoded = value
    while (once := unquote(decoded)) != decoded:  # each round is shorter: it terminates
        decoded = once
    if not value or any(part in (".", "..") for part in decoded.split("/")):
        raise UsageError("a name cannot be empty, '.' or '..' (nor contain them as a path part)")
    return value


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
            raise UpstreamShapeError("API returned invalid JSON") from exc

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
        clock: deadline.Clock = time.monotonic,
    ) -> None:
        base = base_url or os.environ.get("PWC_API_URL") or DEFAULT_BASE_URL
        self.base_url = base.rstrip("/")
        self.timeout = timeout
        self.max_bytes = max_bytes
        self.clock = clock
        headers = {
            "Accept": ACCEPT,
            "Accept-Encoding": ACCEPT_ENCODING,
            "User-Agent": f"pwc-cli/{__version__}",
        }
        if credential:
            headers["Authorization"] = f"Bearer {credential}"
        self._http = http or deadline.enforce(
            httpx.Client(
                timeout=httpx.Timeout(timeout),
                limits=httpx.Limits(
                    max_connections=max_connections, max_keepalive_connections=max_connections
                ),
                follow_redirects=False,
            )
        )
        self._headers = headers

    def url(self, path: str) -> str:
        return f"{self.base_url}/{path.lstrip('/')}"

    def get(self, path: str, params: Params = None) -> Reply:
        """One GET within `timeout` in all (or the enclosing budget, if shorter); raises
        TransportError/UpstreamTimeout/HTTPStatusError/ResponseError, never httpx errors."""
        with deadline.within(self.timeout, self.clock) as budget:
            budget.check()
            try:
                with self._http.stream(
                    "GET",
                    self.url(path),
                    params=encode_params(params),
                    headers=self._headers,
                    timeout=httpx.Timeout(budget.remaining()),
                ) as response:
                    if not response.is_success:
                        detail = self._error_detail(response, budget.check)
                        raise HTTPStatusError(response.status_code, detail)
                    body = self._read_bounded(response, budget.check)
                    headers = {k.lower(): v for k, v in response.headers.items()}
                    return Reply(response.status_code, headers, body)
            except httpx.TimeoutException as exc:
                raise UpstreamTimeout() from exc
            except httpx.ConnectError as exc:  # never connected: say which catalog, and the way out
                raise CatalogUnreachable(_reason(exc), self.base_url) from exc
            except httpx.HTTPError as exc:
                raise TransportError(_reason(exc)) from exc

    def get_json(self, path: str, params: Params = None) -> Any:
        return self.get(path, params).json()

    def close(self) -> None:
        self._http.close()

    def _read_bounded(self, response: httpx.Response, check: Callable[[], None]) -> bytes:
        announced = response.headers.get("content-length")
        if announced is not None and announced.isdigit() and int(announced) > self.max_bytes:
            raise ResponseTooLarge(OVER_LIMIT)
        return read_decoded(*_raw(response), self.max_bytes, check=check)

    def _error_detail(self, response: httpx.Response, check: Callable[[], None]) -> str:
        detail = read_decoded(
            *_raw(response),
            ERROR_DETAIL_BYTES,
            raw_limit=self.max_bytes,
            truncate=True,
            check=check,
        )
        return detail.decode("utf-8", errors="replace")


def _raw(response: httpx.Response) -> tuple[Iterable[bytes], str | None]:
    """The body as received and its content coding, for `read_decoded` to decode under the
    bound: httpx's iter_bytes and read() would inflate each chunk whole before any check."""
    if response.is_stream_consumed:  # built in memory (a test double): httpx decoded it already
        return [response.content], None
    return response.iter_raw(), response.headers.get("content-encoding")


def _reason(exc: httpx.HTTPError) -> str:
    text = str(exc).strip()
    return text or type(exc).__name__


def canonical_request(path: str, pairs: Iterable[tuple[str, str]]) -> str:
    """The cache key of a request: the path as `CatalogClient.url` joins it and the encoded
    parameters in the order they are sent, as one JSON array. JSON escapes its own
    delimiters, so no value can forge another parameter (`q="x&start_date=..."`): the key
    is injective, and two requests share an entry only when they are the same request."""
    return json.dumps(
        [path.lstrip("/"), [[key, value] for key, value in pairs]],
        ensure_ascii=False,
        separators=(",", ":"),
    )
