"""A page kernel's side of the table service: its HTTP API (:class:`TableApi`) and one
websocket per token (:class:`TableLink`), with the addresses Voilà gives a page.

Everything here runs as asyncio tasks on the kernel's own event loop (see
:mod:`playtest.widgets.live`): widget click handlers run on that loop's thread too, so
a message from the table and a click never change widgets at the same time.
"""
from __future__ import annotations

import asyncio
import itertools
import json
import os
import re
import secrets
import sys
import time
from typing import Any, Awaitable, Callable, Mapping
from urllib.parse import quote

import tornado.httpclient
import tornado.iostream
import tornado.websocket

from ...engine import Move, PlaytestError
from ...tables.pages import parse_query

URL_VARIABLE, KEY_VARIABLE = "PLAYTEST_TABLES_URL", "PLAYTEST_TABLES_KEY"
"""The environment variables the server sets before any kernel starts (see
:mod:`playtest.tables`): the table service's loopback address and the server key."""

CLIENT_VARIABLE, CLIENT_HEADER = "HTTP_X_PLAYTEST_CLIENT", "X-Playtest-Client"
"""The page's browser address, which ``playtest serve`` hands to the page's kernel
(:data:`playtest.server.settings.CLIENT_ENV`), and the header that names it to the table
service with the server key: the table creations of a lobby page count for its browser."""

RETRY_DELAYS = (0.25, 0.5, 1.0, 2.0)
"""Seconds between reconnection attempts after a websocket drops; the last one repeats
(a restarted server is found within 2 s of it listening again)."""

RETRY_FOR = 600.0
"""Seconds a dropped link keeps trying before it gives up and says so."""


_KERNEL_FILE = re.compile(r"kernel-([0-9a-f-]{36})\.json")


def kernel_id() -> str | None:
    """The id of the Jupyter kernel this code runs in, as the server's kernel manager
    names it, or None outside a kernel (a script, a test).

    Jupyter's kernel manager (``MultiKernelManager.pre_start_kernel``, Voilà's too) gives
    each kernel the connection file ``kernel-<id>.json``, which ipykernel reports
    (``ipykernel.connect.get_connection_file``); Voilà also sets ``$VOILA_KERNEL_ID``
    once the page's notebook runs. The table service uses it to tell when this page's
    browser is gone (see :meth:`playtest.tables.live.LiveTable.browsers_gone`).
    """
    if "ipykernel.kernelapp" in sys.modules:        # never import a kernel into a script
        try:
            from ipykernel.connect import get_connection_file
            found = _KERNEL_FILE.fullmatch(os.path.basename(get_connection_file()))
        except Exception:  # noqa: BLE001 - not a running kernel app
            found = None
        if found:
            return found.group(1)
    voila = os.environ.get("VOILA_KERNEL_ID", "")
    return voila if re.fullmatch(r"[0-9a-f-]{36}", voila) else None


class ApiError(PlaytestError):
    """The table service refused a request, or could not be reached.

    Attributes:
        status: the HTTP status (599 when the service could not be reached).
    """

    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.status = status


class TableApi:
    """The table service's HTTP API, as a kernel calls it.

    Args:
        url: the service's address (``.../playtest/api``); None reads
            ``$PLAYTEST_TABLES_URL``. key: the server key sent as ``X-Playtest-Key`` to
            the lobby's calls; None reads ``$PLAYTEST_TABLES_KEY``.

    Attributes:
        url: the address without a trailing slash ("" when the server set none).
    """

    def __init__(self, url: str | None = None, key: str | None = None):
        self.url = (os.environ.get(URL_VARIABLE, "") if url is None else url).rstrip("/")
        self.key = os.environ.get(KEY_VARIABLE, "") if key is None else key

    @property
    def available(self) -> bool:
        """Whether the server told this kernel where its table service is."""
        return bool(self.url)

    def ws_url(self, table_id: str) -> str:
        """The websocket address of a table (``ws://.../tables/<id>/ws``)."""
        return "ws" + self.url[len("http"):] + f"/tables/{quote(table_id, safe='')}/ws"

    async def call(self, method: str, path: str, body: Any = None, token: str | None = None,
                   key: bool = False, timeout: float = 20.0) -> Any:
        """One request; the answer's JSON (or its text, for a CSV export).

        Args:
            method: "GET" or "POST". path: under the API, e.g. ``"tables/ab12cd34/join"``.
            body: sent as JSON (POST). token: a table token, sent as ``Authorization:
                Bearer``. key: send the server key (lobby, create, join, export), and
                the page's browser address where the server gave one.

        Raises:
            ApiError: a 4xx/5xx answer (its ``error`` sentence), or no service reachable.
        """
        if not self.available:
            raise ApiError(f"this page was not opened from a playtest server (no ${URL_VARIABLE}): "
                           "start one with `playtest serve`", 599)
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if key and self.key:
            headers["X-Playtest-Key"] = self.key
            if os.environ.get(CLIENT_VARIABLE):
                headers[CLIENT_HEADER] = os.environ[CLIENT_VARIABLE]
        client = tornado.httpclient.AsyncHTTPClient()
        try:
            response = await client.fetch(f"{self.url}/{path}", method=method, headers=headers,
                                          body=json.dumps(body if body is not None else {}) if method == "POST" else None,
                                          raise_error=False, request_timeout=timeout)
        except OSError as exc:
            raise ApiError(f"the table service is not answering ({exc.strerror or exc})", 599) from None
        text = response.body.decode("utf-8", "replace") if response.body else ""
        if response.code == 599:
            raise ApiError(f"the table service is not answering ({response.error})", 599)
        if response.headers.get("Content-Type", "").startswith("application/json") or text[:1] in "{[":
            try:
                data = json.loads(text) if text else None
            except ValueError:
                data = text
        else:
            data = text
        if response.code >= 400:
            message = data.get("error") if isinstance(data, dict) else None
            raise ApiError(message or f"the table service answered {response.code} {response.reason}",
                           response.code)
        return data


def spawn(coro: Awaitable, report: Callable[[Exception], None] | None = None) -> asyncio.Task:
    """Run ``coro`` as a task on the running loop (the kernel's), keeping a reference
    until it ends (asyncio keeps only weak ones); an exception goes to ``report`` (e.g.
    ``ErrorBanner.show``), never only to a log Voilà hides.

    Raises:
        RuntimeError: no event loop is running in this thread (not a kernel, nor inside
            an asyncio program).
    """
    task = asyncio.get_running_loop().create_task(coro)
    _TASKS.add(task)

    def done(t: asyncio.Task) -> None:
        _TASKS.discard(t)
        if not t.cancelled() and t.exception() is not None and report is not None:
            report(t.exception())
    task.add_done_callback(done)
    return task


_TASKS: set[asyncio.Task] = set()


class TableLink:
    """One token's websocket to a table: joins, hands every message to the app,
    reconnects after a drop.

    Args:
        api: the service. table_id: the table's id. token: a seat, spectator or host token.
        on_message: called as ``on_message(link, message)`` for ``welcome``,
            ``state``, ``result`` and ``error`` messages; an ``update`` is applied to
            :attr:`state` first and handed on as the ``state`` it makes.
        on_change: called as ``on_change(link)`` when :attr:`status` changes.
        delays: see :data:`RETRY_DELAYS`. give_up: see :data:`RETRY_FOR`.
        report: where an exception raised by ``on_message`` or ``on_change`` goes (e.g.
            ``ErrorBanner.show``); the link carries on either way.

    Attributes:
        status: "connecting", "open", "reconnecting" or "closed" (for good: the server
            closed it with a reason, or refused it, or the link gave up).
        reason: why it is closed ("" otherwise). welcomed: whether the server ever
            accepted the token. role: "seat", "spectator" or "host" (from the welcome).
        seat: the seat (None for spectator and host). welcome: the welcome message.
        state: the table's latest state for this token, as a ``state`` message: the
            full state of the join (or of a resync), replaced whole on every one, with
            each ``update`` since applied (its log lines appended, its view fields
            set, every other field replaced). An update whose ``log_from`` is not the
            length of this log (a gap), or a message of a type it does not know, makes
            the link ask for a resync (``{"type": "resync"}``) and skip updates until
            the full state comes.
        pending: client id -> the ``move`` message sent and not yet answered.
        resynced: the moves that were pending when the link dropped and were dropped
            because the table had moved on meanwhile (the app says so).
        name: the person's name, sent with every join of a seat link ("": none); set
            it with :meth:`set_name`.

    A ``result`` handed to ``on_message`` carries ``sent``, the text of the move it
    answers, when this link sent that move.

    A dropped connection (the server closed it, e.g. this link fell too far behind,
    or a restart) is joined again: a full resync, never a merge. A move pending when the
    link drops is sent again after the reconnection only if the table is still at the
    version it was chosen on (so it was not played; a resend carries the same id, which
    the service answers without playing twice). If the table moved on, it is dropped:
    after a server restart the service no longer knows its id, and the person chooses
    again on the new position.
    """

    def __init__(self, api: TableApi, table_id: str, token: str,
                 on_message: Callable[["TableLink", dict], None], on_change: Callable[["TableLink"], None],
                 delays: tuple[float, ...] | None = None, give_up: float | None = None,
                 report: Callable[[Exception], None] | None = None):
        self.api, self.table_id, self.token = api, table_id, token
        self.on_message, self.on_change, self.report = on_message, on_change, report
        self.delays = RETRY_DELAYS if delays is None else delays
        self.give_up = RETRY_FOR if give_up is None else give_up
        self.status = "connecting"
        self.reason = ""
        self.welcomed = False
        self.role = ""
        self.seat: int | None = None
        self.welcome: dict = {}
        self.state: dict | None = None
        self.pending: dict[str, dict] = {}
        self.resynced: list[str] = []
        self.name = ""
        self._ids = itertools.count(1)
        self._prefix = secrets.token_hex(3)
        self._ws: tornado.websocket.WebSocketClientConnection | None = None
        self._task: asyncio.Task | None = None
        self._resend: list[dict] = []
        self._resyncing = False         # asked for the full state, skipping updates until it comes

    # --- control --------------------------------------------------------------------
    def start(self) -> None:
        """Connect (a task on the running loop).

        Raises:
            RuntimeError: no event loop is running.
        """
        self._task = spawn(self._run())

    def stop(self) -> None:
        """Close the websocket and stop reconnecting."""
        if self._task is not None:
            self._task.cancel()
        if self._ws is not None:
            self._ws.close()
        self._set("closed", self.reason or "this page left the table")

    @property
    def open(self) -> bool:
        """Whether moves can be sent now."""
        return self.status == "open" and self._ws is not None

    def send(self, message: Mapping) -> None:
        """Send one message.

        Raises:
            ApiError: not connected now.
        """
        if not self.open:
            raise ApiError("not connected to the table right now: reconnecting, try again in a moment"
                           if self.status != "closed" else f"this page is no longer at the table: {self.reason}", 599)
        _write(self._ws, message)

    def set_name(self, name: str) -> None:
        """Keep the person's ``name`` for every join, and tell the table now if connected
        (it answers a name it refuses with an ``error`` message)."""
        self.name = name
        if self.open and self.role == "seat":
            self.send({"type": "name", "name": name})

    def send_move(self, move: Move | str) -> str:
        """Send a move chosen on the latest state's position; returns its client id.

        Raises:
            ApiError: not connected now.
        """
        version = self.state["version"] if self.state else None
        client_id = f"{self._prefix}-{next(self._ids)}"
        message = {"type": "move", "id": client_id, "move": str(move), "version": version}
        self.send(message)
        self.pending[client_id] = message
        return client_id

    # --- the connection ------------------------------------------------------------
    def _set(self, status: str, reason: str = "") -> None:
        if status != self.status or reason != self.reason:
            self.status, self.reason = status, reason
            self._tell(self.on_change, self)

    def _tell(self, callback: Callable, *args) -> None:
        """Call the app; its error goes to the page, and the link keeps running."""
        try:
            callback(*args)
        except Exception as exc:  # noqa: BLE001 - a drawing error must not end the connection
            if self.report is None:
                raise
            self.report(exc)

    async def _run(self) -> None:
        attempt, since = 0, time.monotonic()
        while True:
            try:
                self._ws = await tornado.websocket.websocket_connect(self.api.ws_url(self.table_id),
                                                                     connect_timeout=10)
            except tornado.httpclient.HTTPClientError as exc:
                if 400 <= exc.code < 500:     # no such table (address) or refused: for good
                    self._set("closed", "there is no table at this address (the link may be cut short)"
                              if exc.code == 404 else f"the table service refused this page ({exc.code})")
                    return
                self._ws = None
            except (OSError, tornado.iostream.StreamClosedError, asyncio.TimeoutError):
                self._ws = None     # not listening (a restart): try again
            if self._ws is not None:
                if await self._session():
                    return                     # closed for good
                attempt, since = 0, time.monotonic()
            if time.monotonic() - since > self.give_up:
                self._set("closed", "the table service stopped answering; reload the page to try again")
                return
            self._set("reconnecting" if self.welcomed else "connecting")
            await asyncio.sleep(self.delays[min(attempt, len(self.delays) - 1)])
            attempt += 1

    async def _session(self) -> bool:
        """One connection, from the join to its end; True when closed for good."""
        ws = self._ws
        join = {"type": "join", "token": self.token, **({"name": self.name} if self.name else {})}
        kernel = kernel_id()
        if kernel is not None:
            join["kernel"] = kernel
        _write(ws, join)
        self._resend = list(self.pending.values())      # sent before the drop, unanswered
        self.pending.clear()
        self._resyncing = True                          # the join's full state comes next
        while True:
            raw = await ws.read_message()
            if raw is None:
                self._ws = None
                if self.status == "closed":
                    return True
                self._set("reconnecting")
                return False
            try:
                message = json.loads(raw)
            except (TypeError, ValueError):
                continue
            if not isinstance(message, dict):
                continue
            kind = message.get("type")
            if kind == "closed":
                self._set("closed", str(message.get("reason") or "the table closed this page"))
                ws.close()
                self._ws = None
                return True
            if kind == "welcome":
                self.welcomed, self.welcome = True, message
                self.role, self.seat = message.get("role", ""), message.get("seat")
                self._set("open")
            elif kind == "state":
                self.state, self._resyncing = message, False
                if self._resend:
                    self._resync(message)
            elif kind == "update":
                if self._resyncing:
                    continue
                message = self._apply(message)
                if message is None:
                    self._ask_resync(ws)
                    continue
            elif kind == "result":
                sent = self.pending.pop(message.get("id"), None)
                if sent is not None:
                    message = {**message, "sent": sent["move"]}
            elif kind != "error":
                self._ask_resync(ws)        # a message this client does not know: start again from the state
                continue
            self._tell(self.on_message, self, message)

    def _apply(self, update: dict) -> dict | None:
        """:attr:`state` with ``update`` applied (its log lines appended to the log, its
        view fields set and its ``view_gone`` fields removed, every other field replaced),
        or None when the update does not follow on this log."""
        state, lines, fields = self.state, update.get("log"), update.get("view")
        if state is None or type(update.get("log_from")) is not int or not isinstance(lines, list) \
                or not isinstance(fields, dict) or update["log_from"] != len(state["log"]):
            return None
        log = state["log"]
        log.extend(lines)               # in place: the log is never copied whole again
        view = {**state["view"], **fields}
        for name in update.get("view_gone") or ():
            view.pop(name, None)
        self.state = {key: value for key, value in update.items() if key not in ("log_from", "view_gone")}
        self.state.update(type="state", log=log, view=view)
        return self.state

    def _ask_resync(self, ws) -> None:
        if not self._resyncing:
            self._resyncing = True
            try:
                ws.write_message(json.dumps({"type": "resync"}))
            except tornado.websocket.WebSocketClosedError:
                pass                    # the read that follows ends the session: a rejoin resyncs

    def _resync(self, state: dict) -> None:
        """The first state after a reconnection: send again the moves still unanswered
        that were chosen on this very version (they were not played); drop the others."""
        again, self._resend = self._resend, []
        for message in again:
            if message["version"] == state["version"]:
                self.pending[message["id"]] = message
                _write(self._ws, message)
            else:
                self.resynced.append(message["move"])


def _write(ws: tornado.websocket.WebSocketClientConnection, message: Mapping) -> None:
    """Send one message on a websocket. A connection cut meanwhile is found by the read
    loop (:meth:`TableLink._session`), which reconnects and resends what is pending: the
    failed write's error is taken here (asyncio would log its traceback otherwise)."""
    try:
        sent = ws.write_message(json.dumps(dict(message)))
    except tornado.websocket.WebSocketClosedError:
        return
    sent.add_done_callback(lambda done: done.cancelled() or done.exception())


def parse_table_query(query: str) -> tuple[str, list[str]]:
    """``table=ID&token=T1,T2`` -> ``("ID", ["T1", "T2"])`` ("" and [] where missing;
    tokens may also repeat: ``token=T1&token=T2``)."""
    tables, tokens = parse_query(query)        # as playtest serve's page handler reads it
    return (tables[0] if tables else ""), tokens
