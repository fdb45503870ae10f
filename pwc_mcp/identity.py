"""Rate-limit client identity: who a request is counted against, and how that is stored.

Rules (see SPEC "Safety and operations"; the reference's left-most-XFF trust is spoofable):

* The identity is the direct TCP peer, except:
* from a peer inside ``trusted_proxy_cidrs``: walk ``X-Forwarded-For`` from the right, skipping
  hops that are themselves trusted proxies; the first other hop is the client. Everything left
  of it was written by the client and is never read. ``X-PwC-MCP-Client`` is never honoured.
* from an exact loopback peer (127.0.0.0/8, ::1; nginx on the same host): the right-most hop.
* a loopback peer without ``X-Forwarded-For`` may name itself with ``X-PwC-MCP-Client``
  (1-128 characters of ``[A-Za-z0-9._:-]``, starting alphanumeric).
* a hop that is not an IP address makes the walk stop: the identity falls back to the peer.
* IPv6 clients are grouped by /64, the unit an end site gets, so one host cannot mint
  identities by rotating through its own prefix.

Identities are hashed (keyed BLAKE2b) before anything stores them, so raw addresses never
sit in limiter tables, Redis or logs.
"""

from __future__ import annotations

import hashlib
import ipaddress
import math
import re
import secrets
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

CLIENT_HEADER = b"x-pwc-mcp-client"
XFF_HEADER = b"x-forwarded-for"
CLIENT_TAG = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,127}")
UNKNOWN = "unknown"
IPV6_GROUP_PREFIX = 64


def parse_ip(value: str) -> IPAddress | None:
    """An address from a peer or XFF hop (``1.2.3.4``, ``1.2.3.4:80``, ``[::1]:80``), or None."""
    text = value.strip()
    if text.startswith("["):
        end = text.find("]")
        if end < 0 or (text[end + 1 :] and not text[end + 1 :].startswith(":")):
            return None
        text = text[1:end]
    elif text.count(":") == 1:  # IPv4 with a port; a bare IPv6 has at least two colons
        text = text.split(":", 1)[0]
    if "%" in text:  # zone ids are host-local and never a client identity
        return None
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped  # dual-stack sockets report IPv4 peers as ::ffff:a.b.c.d
    return address


def address_identity(address: IPAddress) -> str:
    if isinstance(address, ipaddress.IPv6Address):
        network = ipaddress.IPv6Network((address, IPV6_GROUP_PREFIX), strict=False)
        return f"ip6:{network}"
    return f"ip:{address}"


def _header_values(scope: Mapping[str, Any], name: bytes) -> list[str]:
    return [v.decode("latin-1") for k, v in scope.get("headers") or () if k.lower() == name]


def _xff_hops(scope: Mapping[str, Any]) -> list[str]:
    # Several XFF headers are one list in order (RFC 9110 field combination).
    hops: list[str] = []
    for value in _header_values(scope, XFF_HEADER):
        hops.extend(hop.strip() for hop in value.split(","))
    return [hop for hop in hops if hop]


def _in(address: IPAddress, networks: Iterable[IPNetwork]) -> bool:
    return any(address.version == net.version and address in net for net in networks)


def _peer(scope: Mapping[str, Any]) -> IPAddress | None:
    client = scope.get("client")
    return parse_ip(str(client[0])) if client else None


def direct_loopback(scope: Mapping[str, Any]) -> bool:
    """A loopback peer that did not come through a proxy (no X-Forwarded-For)."""
    peer = _peer(scope)
    return peer is not None and peer.is_loopback and not _header_values(scope, XFF_HEADER)


def from_proxy(scope: Mapping[str, Any], trusted_proxies: Iterable[IPNetwork] = ()) -> bool:
    """A peer whose forwarding headers are trusted: loopback, or a trusted proxy network."""
    peer = _peer(scope)
    return peer is not None and (peer.is_loopback or _in(peer, tuple(trusted_proxies)))


def client_identity(scope: Mapping[str, Any], trusted_proxies: Iterable[IPNetwork] = ()) -> str:
    """The raw (unhashed) identity of an ASGI HTTP request; see the module docstring."""
    trusted = tuple(trusted_proxies)
    peer = _peer(scope)
    if peer is None:  # unix socket or a server that gives no peer: trust nothing
        return UNKNOWN
    hops = _xff_hops(scope)
    if _in(peer, trusted):
        for hop in reversed(hops):
            address = parse_ip(hop)
            if address is None:
                break  # an unparseable hop: nothing left of it can be trusted
            if not _in(address, trusted):
                return address_identity(address)
        else:
            if hops:  # every hop is a trusted proxy: the left-most one is the client
                address = parse_ip(hops[0])
                if address is not None:
                    return address_identity(address)
        return address_identity(peer)
    if peer.is_loopback:
        if hops:
            address = parse_ip(hops[-1])
            return address_identity(address if address is not None else peer)
        if not _header_values(scope, XFF_HEADER):
            tags = _header_values(scope, CLIENT_HEADER)
            if len(tags) == 1 and CLIENT_TAG.fullmatch(tags[0]):
                return f"client:{tags[0]}"
    return address_identity(peer)


class IdentityHasher:
    """Keyed BLAKE2b of identities; the key never leaves the process.

    Replicas that share a Redis limit store must hash alike, so they pass a key derived from a
    secret they share (see ``limits.identity_key``); otherwise the key is random per process.
    """

    def __init__(self, key: bytes | None = None) -> None:
        self._key = key if key is not None else secrets.token_bytes(32)
        if not 16 <= len(self._key) <= 64:
            raise ValueError("identity key must be 16-64 bytes")

    def __call__(self, identity: str) -> str:
        return hashlib.blake2b(identity.encode(), key=self._key, digest_size=16).hexdigest()


class Slot:
    """Per-identity bookkeeping: in-flight requests and when the identity was last seen."""

    __slots__ = ("active", "last_seen")

    def __init__(self, now: float) -> None:
        self.active = 0
        self.last_seen = now


class IdentityTable:
    """A bounded map of hashed identity -> Slot.

    Bounded so that a flood of distinct identities cannot grow memory without limit. When a new
    identity arrives at a full table, idle entries unseen for ``stale_after`` seconds (one rate
    window) are purged, at most once per ``purge_interval``; if it is still full the caller refuses.
    Only the event-loop thread touches it, so it needs no lock.
    """

    def __init__(
        self,
        max_size: int = 10_000,
        *,
        stale_after: float = 60.0,
        purge_interval: float = 5.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.max_size = max_size
        self.stale_after = stale_after
        self.purge_interval = purge_interval
        self.clock = clock
        self._slots: dict[str, Slot] = {}
        self._last_purge = -math.inf

    def __len__(self) -> int:
        return len(self._slots)

    def get(self, key: str) -> Slot | None:
        """The slot for ``key``, adding it if there is room; None when the table is full."""
        now = self.clock()
        slot = self._slots.get(key)
        if slot is None:
            if len(self._slots) >= self.max_size and now - self._last_purge >= self.purge_interval:
                self._last_purge = now
                self.purge(now)
            if len(self._slots) >= self.max_size:
                return None
            slot = self._slots[key] = Slot(now)
        slot.last_seen = now
        return slot

    def purge(self, now: float | None = None) -> int:
        now = self.clock() if now is None else now
        stale = [
            key
            for key, slot in self._slots.items()
            if slot.active == 0 and now - slot.last_seen >= self.stale_after
        ]
        for key in stale:
            del self._slots[key]
        return len(stale)

    def seconds_until_room(self) -> int:
        """When the next purge could free a slot (for Retry-After on a full table)."""
        now = self.clock()
        idle = [s.last_seen for s in self._slots.values() if s.active == 0]
        stale_at = min(idle) + self.stale_after if idle else now + self.stale_after
        return max(1, math.ceil(max(stale_at, self._last_purge + self.purge_interval) - now))
