"""The CLI's configuration from the environment, checked before any request.

A bad value is the user's mistake, said as a usage error (exit 2) naming the variable; left to
the transport it would surface as a network failure (exit 3) in httpx's words, or not at all
until a request was made."""

from __future__ import annotations

import os
from collections.abc import Mapping
from urllib.parse import urlsplit

from pwc_core.errors import UsageError
from pwc_core.transport import DEFAULT_BASE_URL

API_URL = "PWC_API_URL"


def api_url(environ: Mapping[str, str] | None = None) -> str:
    """The catalog's base URL: $PWC_API_URL when set (an empty value counts as unset), else
    the default; an http(s) URL with a host and a valid port, or UsageError. The value is not
    repeated in the message: it may carry credentials (`https://user:token@host/...`)."""
    raw = (os.environ if environ is None else environ).get(API_URL, "").strip()
    if not raw:
        return DEFAULT_BASE_URL
    try:
        parts = urlsplit(raw)
        usable = parts.scheme.lower() in ("http", "https") and bool(parts.hostname)
        parts.port  # noqa: B018 (raises ValueError on a port out of range or not a number)
    except ValueError:  # an unclosed IPv6 bracket, a bad port
        usable = False
    if not usable:
        raise UsageError(
            f"{API_URL} must be an http:// or https:// URL with a host "
            f"(the catalog's base URL, e.g. {DEFAULT_BASE_URL})"
        )
    return raw
