"""Who may change things through the table service's API, from where, and how often.

Every state-changing request (a POST: create, join, moves, host controls, feedback)
passes :func:`check_request` before its body is read:

* its body is declared JSON (``Content-Type: application/json``): a page of another
  site can send only ``text/plain``, form or multipart bodies without asking the server
  first (a CORS preflight, which this server never grants), so it cannot send one;
* its ``Host`` names this server: a loopback address or ``localhost``, an address or
  name of this machine, or the host of an allowed origin (a page of another site whose
  name was pointed at this machine, "DNS rebinding", is refused);
* its ``Origin``, when a browser sent one, is the page's own server (the scheme and
  host the request was sent to) or one of the allowed origins. A request without
  ``Origin`` is no page's (a script, a dashboard kernel).

Allowed origins (Tornado setting :data:`ALLOW_ORIGINS`, ``playtest serve
--allow-origin``; under Jupyter Server its own ``allow_origin`` and ``allow_origin_pat``)
are for a deployment whose public address is not this machine's: a proxy that rewrites
``Host``, or a page of another site meant to use the lobby.

Table creation is also rate-limited per client (:class:`CreationLimit`).
"""
from __future__ import annotations

import functools
import ipaddress
import math
import re
import socket
import time
from urllib.parse import urlsplit

import psutil

from .service import ServiceError

ALLOW_ORIGINS = "playtest_allow_origins"
"""The Tornado setting holding the origins (``scheme://host[:port]``) allowed besides
the server's own, a list of str; ``["*"]`` allows every origin and host."""

CREATE_BURST = 10
"""Tables one client may create at once."""

CREATE_EVERY = 30.0
"""Seconds after which a client may create one more table, once its burst is used."""

CLIENTS_KEPT = 10_000
"""Clients whose creations are remembered at most (the oldest full buckets go first)."""


def _host_name(host: str) -> str:
    """``"Example.org:8866"`` -> ``"example.org"``, ``"[::1]:80"`` -> ``"::1"``."""
    found = re.fullmatch(r"\[?(.*?)\]?(:\d+)?", host.strip().lower())
    return found.group(1) if found else ""


@functools.cache
def machine_hosts() -> frozenset[str]:
    """The names and addresses of this machine (lower case, IPv6 without brackets or
    zone): ``localhost``, its host name and fully qualified name, and every address of
    every network interface (the LAN address a class opens the server by)."""
    names = {"localhost", socket.gethostname().lower(), socket.getfqdn().lower()}
    for addresses in psutil.net_if_addrs().values():
        names |= {a.address.split("%")[0].lower() for a in addresses if a.family in (socket.AF_INET, socket.AF_INET6)}
    return frozenset(names)


def _allowed(settings) -> list[str]:
    origins = [str(o).rstrip("/").lower() for o in settings.get(ALLOW_ORIGINS) or []]
    jupyter = settings.get("allow_origin")          # Jupyter Server's own setting
    return origins + ([jupyter.rstrip("/").lower()] if jupyter else [])


def host_allowed(host: str, settings) -> bool:
    """Whether a request's ``Host`` header names this server: a loopback address, a name
    or address of this machine (:func:`machine_hosts`), or the host of an allowed origin."""
    name = _host_name(host)
    allowed = _allowed(settings)
    if "*" in allowed or name in machine_hosts() or name in {_host_name(urlsplit(o).netloc) for o in allowed}:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def origin_allowed(origin: str | None, host: str, settings) -> bool:
    """Whether a request whose ``Origin`` header is ``origin`` (None: none sent) may act
    on this server: none sent, the page's own server (``host``, the request's ``Host``),
    an allowed origin, or one matching Jupyter Server's ``allow_origin_pat``."""
    if origin is None:
        return True
    origin = origin.rstrip("/").lower()
    allowed = _allowed(settings)
    if "*" in allowed or origin in allowed:
        return True
    if origin != "null" and urlsplit(origin).netloc == host.strip().lower():
        return True
    pattern = settings.get("allow_origin_pat")
    return bool(pattern) and re.fullmatch(pattern, origin) is not None


def check_request(request, settings) -> None:
    """Refuse a state-changing request that a page of another site could have sent.

    Args:
        request: the Tornado request. settings: the application's settings (see
            :data:`ALLOW_ORIGINS`).

    Raises:
        ServiceError: a body not declared JSON (415), or a ``Host`` or ``Origin`` that
            is not this server's nor allowed (403), each in a sentence saying what to do.
    """
    host = request.headers.get("Host", "")
    origin = request.headers.get("Origin")
    if not host_allowed(host, settings):
        raise ServiceError(f"this server does not answer to the address {_host_name(host)[:100]!r}: open it by "
                           "this machine's address or name, or list the address the server is reached by with "
                           "playtest serve --allow-origin", 403)
    if not origin_allowed(origin, host, settings):
        raise ServiceError(f"this request comes from a page of {origin[:100]!r}, another site: the table service "
                           "takes changes only from its own pages, scripts, and origins listed with playtest serve "
                           "--allow-origin", 403)
    kind = request.headers.get("Content-Type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise ServiceError(f"send the body as JSON with the header Content-Type: application/json (this request "
                           f"says {kind[:60] or 'nothing'!r})", 415)


class CreationLimit:
    """A token bucket per client: :data:`CREATE_BURST` tables at once, then one more
    every :data:`CREATE_EVERY` seconds.

    Args:
        burst: the bucket's size (tables). every: seconds per table refilled.
        clock: a monotonic clock in seconds (tests pass their own).
    """

    def __init__(self, burst: int = CREATE_BURST, every: float = CREATE_EVERY, clock=time.monotonic):
        self.burst, self.every, self.clock = burst, every, clock
        self._buckets: dict[str, tuple[float, float]] = {}     # client -> (tokens, when counted)

    def _tokens(self, client: str, now: float) -> float:
        tokens, then = self._buckets.get(client, (float(self.burst), now))
        return min(float(self.burst), tokens + (now - then) / self.every)

    def check(self, client: str) -> None:
        """Refuse a table ``client`` (its address or name) may not create now.

        Raises:
            ServiceError: the client's bucket is empty (429), saying the limit and in
                how many seconds it may create the next table (also its ``retry_after``).
        """
        tokens = self._tokens(client, self.clock())
        if tokens < 1:
            wait = math.ceil((1 - tokens) * self.every)
            raise ServiceError(f"this client has created {self.burst} tables in a short time: a client may create "
                               f"{self.burst} at once, then one every {self.every:g} s; try again in {wait} s", 429,
                               retry_after=wait)

    def count(self, client: str) -> None:
        """Count one table created by ``client`` (after :meth:`check` let it)."""
        now = self.clock()
        self._buckets[client] = (self._tokens(client, now) - 1, now)
        if len(self._buckets) > CLIENTS_KEPT:
            self._forget(now)

    def _forget(self, now: float) -> None:
        """Drop the clients whose bucket has filled up again (they are as new), and the
        oldest others while too many are kept."""
        full = [c for c, (tokens, then) in self._buckets.items() if tokens + (now - then) / self.every >= self.burst]
        for client in full:
            del self._buckets[client]
        for client in sorted(self._buckets, key=lambda c: self._buckets[c][1])[:len(self._buckets) - CLIENTS_KEPT]:
            del self._buckets[client]
