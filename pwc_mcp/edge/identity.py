"""Rate-limit client identity: who a request is counted against, and how that is stored.

Rules (docs/decisions.md#client-identity; the reference's left-most-XFF trust is spoofable):

* The identity is the direct TCP peer, except:
* from a peer inside ``trusted_proxy_cidrs``: walk ``X-Forwarded-For`` from the right, skipping
  hops that are themselves trusted proxies; the first other hop is the client. Everything left
  of it was written by the client and is never read. ``X-PwC-MCP-Client`` is never honoured.
* from an exact loopback peer (127.0.0.0/8, ::1; nginx on the same host): the right-most hop.
* a loopback peer without ``X-Forwarded-For`` may name itself with ``X-PwC-MCP-Client``
  (1-128 characters of ``[A-Za-z0-9._:-]``, starting alphanumeric).
* a hop that is not an IP address makes the walk stop: the identity falls back to the peer.
* IPv6 clients are grouped by /64, so one host cannot mint identities by rotating through
  its own prefix; each /64 also counts against its /48 (what one site is routinely given, 65,536
  /64s), whose aggregate budgets stop a site from multiplying the per-client limits. IPv4 has no
  aggregate: one address already costs an attacker money, while a /24 often holds unrelated users
  (carrier NAT pools, cloud tenants), who would then throttle each other.

Identities are hashed (keyed BLAKE2b) before anything stores them, so raw addresses never
sit in limiter tables, Redis or logs.
"""

from __future__ import annotations

import functools
import hashlib
import ipaddress
import re
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

CLIENT_HEADER = b"x-pwc-mcp-client"
XFF_HEADER = b"x-forwarded-for"
CLIENT_TAG = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,127}")
UNKNOWN = "unknown"
IPV6_GROUP_PREFIX = 64
IPV6_SITE_PREFIX = 48
KNOWN_ENTRIES = 4096  # requests' identifying inputs remembered (KnownClients)
KNOWN_CHARS = 256  # inputs longer than this (long forwarding chains) are identified afresh


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


def identity_group(identity: str) -> str | None:
    """The aggregate an identity also counts against: its IPv6 /48; None for anything else."""
    if not identity.startswith("ip6:"):
        return None
    network = ipaddress.IPv6Network(identity[4:]).supernet(new_prefix=IPV6_SITE_PREFIX)
    return f"ip6site:{network}"


HEADERS_KEY = "pwc_headers"  # scope: the request's header table, built once per request
PEER_KEY = "pwc_peer"  # scope: the peer's address, parsed once per request


def header_values(scope: Mapping[str, Any], name: bytes) -> list[str]:
    """Every value of header `name` (lowercase), in order; the caller must not change the list.

    Several layers read several headers of one request, so the table is built in one pass and
    kept in the scope beside the header list it was built from (a layer that replaces the list
    gets a new table)."""
    raw = scope.get("headers") or ()
    kept = scope.get(HEADERS_KEY)
    if kept is not None and kept[0] is raw and kept[1] == len(raw):
        return kept[2].get(name, [])
    table: dict[bytes, list[str]] = {}
    for key, value in raw:
        table.setdefault(key.lower(), []).append(value.decode("latin-1"))
    if isinstance(scope, dict):
        scope[HEADERS_KEY] = (raw, len(raw), table)
    return table.get(name, [])


def _xff_hops(scope: Mapping[str, Any]) -> list[str]:
    # Several XFF headers are one list in order (RFC 9110 field combination).
    hops: list[str] = []
    for value in header_values(scope, XFF_HEADER):
        hops.extend(hop.strip() for hop in value.split(","))
    return [hop for hop in hops if hop]


def _in(address: IPAddress, networks: Iterable[IPNetwork]) -> bool:
    return any(address.version == net.version and address in net for net in networks)


def _peer(scope: Mapping[str, Any]) -> IPAddress | None:
    client = scope.get("client")
    kept = scope.get(PEER_KEY)
    if kept is not None and kept[0] is client:
        return kept[1]
    peer = _peer_address(str(client[0])) if client else None
    if isinstance(scope, dict):
        scope[PEER_KEY] = (client, peer)
    return peer


@functools.lru_cache(maxsize=1024)
def _peer_address(host: str) -> IPAddress | None:
    """A socket peer's address, parsed once per distinct peer (the kernel's text: short, so the
    cache stays small; forwarded hops, which a client writes, are never cached)."""
    return parse_ip(host)


def direct_loopback(scope: Mapping[str, Any]) -> bool:
    """A loopback peer that did not come through a proxy (no X-Forwarded-For)."""
    peer = _peer(scope)
    return peer is not None and peer.is_loopback and not header_values(scope, XFF_HEADER)


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
        if not header_values(scope, XFF_HEADER):
            tags = header_values(scope, CLIENT_HEADER)
            if len(tags) == 1 and CLIENT_TAG.fullmatch(tags[0]):
                return f"client:{tags[0]}"
    return address_identity(peer)


class IdentityHasher:
    """Keyed BLAKE2b of identities; the key never leaves the process.

    Replicas that share a Redis limit store must hash alike, so they pass a key derived from a
    secret they share (see ``rate_limits.identity_key``); otherwise the key is random per process.
    """

    def __init__(self, key: bytes | None = None) -> None:
        self._key = key if key is not None else secrets.token_bytes(32)
        if not 16 <= len(self._key) <= 64:
            raise ValueError("identity key must be 16-64 bytes")

    def __call__(self, identity: str) -> str:
        return hashlib.blake2b(identity.encode(), key=self._key, digest_size=16).hexdigest()


class Client(NamedTuple):
    """Whom a request is counted against; only hashes, never a raw address."""

    key: str  # the hashed identity
    group: str | None  # the hashed IPv6 /48 sharing aggregate budgets, or None
    exempt: bool  # a direct loopback peer (the proxy's health checks): housekeeping is free


class KnownClients:
    """The Client of each request's identifying inputs (its peer's address, its
    X-Forwarded-For and X-PwC-MCP-Client values: everything `identify` reads), remembered,
    because parsing addresses and hashing them cost a tenth of a cached call's server time.

    Bounded in entries and in each key's size; the oldest entry leaves first. A client that
    rotates its forwarding headers only churns this table: a forgotten entry is recomputed,
    never confused with another (the key is the inputs themselves)."""

    def __init__(
        self, identify: Callable[[Mapping[str, Any]], Client], max_entries: int = KNOWN_ENTRIES
    ) -> None:
        self.identify = identify
        self.max_entries = max_entries
        self._known: dict[tuple[str | None, tuple[str, ...], tuple[str, ...]], Client] = {}

    def __len__(self) -> int:
        return len(self._known)

    def __call__(self, scope: Mapping[str, Any]) -> Client:
        peer = scope.get("client")
        host = str(peer[0]) if peer else None
        hops, tags = header_values(scope, XFF_HEADER), header_values(scope, CLIENT_HEADER)
        if len(host or "") + sum(map(len, hops)) + sum(map(len, tags)) > KNOWN_CHARS:
            return self.identify(scope)
        key = (host, tuple(hops), tuple(tags))
        found = self._known.get(key)
        if found is None:
            found = self.identify(scope)
            if len(self._known) >= self.max_entries:
                # the event loop's table; pop, not del, in case another thread evicted it first
                self._known.pop(next(iter(self._known)), None)
            self._known[key] = found
        return found


class InFlight:
    """Requests in flight per key (a hashed identity or its /48 group).

    A key is present only while it has requests in flight: the lease that needs it adds it and
    the release that empties it removes it. So nothing lingers for a flood of newcomers to fill,
    no request "refreshes" a slot, nobody is evicted while busy (which would let the evicted
    identity exceed its concurrency limit), and the size never exceeds the keys per request times
    the global concurrency limit. ``max_size`` is a backstop only. Only the event-loop thread
    touches it, so check-and-increment needs no lock.
    """

    def __init__(self, max_size: int = 10_000) -> None:
        self.max_size = max_size
        self._active: dict[str, int] = {}

    def __len__(self) -> int:
        return len(self._active)

    def active(self, key: str) -> int:
        return self._active.get(key, 0)

    def acquire(self, limits: Sequence[tuple[str, int]]) -> str | None:
        """Count one request against every (key, limit); None on success, else the reason:
        ``"busy"`` (a key is at its limit) or ``"full"`` (the backstop)."""
        if any(self._active.get(key, 0) >= limit for key, limit in limits):
            return "busy"
        if len(self._active) + sum(key not in self._active for key, _ in limits) > self.max_size:
            return "full"
        for key, _ in limits:
            self._active[key] = self._active.get(key, 0) + 1
        return None

    def release(self, keys: Iterable[str]) -> None:
        for key in keys:
            left = self._active[key] - 1
            if left:
                self._active[key] = left
            else:
                del self._active[key]
