"""The table service on the web: Tornado handlers for the lobby API and a websocket per
connected page, under ``<base_url>playtest/api`` (the addresses and messages are in
:mod:`playtest.tables`).

Two servers mount them on their own port: ``playtest serve`` (standalone Voilà, through
:func:`table_handlers`) and Jupyter Server (Binder, JupyterLab) through the server
extension in :mod:`playtest.server.tables_extension`. Either calls :func:`publish` before any
kernel starts, so that dashboard kernels find the service (``$PLAYTEST_TABLES_URL``) and
may create tables (``$PLAYTEST_TABLES_KEY``), and :func:`shutdown` when it stops.
"""
from __future__ import annotations

import hmac
import json
import math
import os
import reprlib
import secrets
from typing import Any, Callable

import tornado.ioloop
import tornado.web
import tornado.websocket

from . import guard, pages
from ..engine import OptionError
from .live import StoreRefused
from .service import ServiceError, TableService

PREFIX = "playtest/api"
BODY_LIMIT = 64 * 1024          # bytes of a request body or websocket message
QUEUE_LIMIT = 1024 * 1024       # bytes queued for one page's connection, not yet taken by its client
BEHIND = 4000                   # the close code of a page dropped for falling too far behind
BEHIND_REASON = f"this page fell over {QUEUE_LIMIT // 1024} KiB behind the table; reconnect to get its state"
URL_VARIABLE, KEY_VARIABLE = "PLAYTEST_TABLES_URL", "PLAYTEST_TABLES_KEY"
CLIENT_HEADER = "X-Playtest-Client"
"""The header by which a dashboard kernel (sending the server key) names the address of
its page's browser, the client its table creations count for (:mod:`playtest.tables.guard`)."""

_service: TableService | None = None
_creations = guard.CreationLimit()
_awaited_watcher: Callable[[int], None] | None = None


def service() -> TableService:
    """The server's table service, created (and its tables restored) on first use."""
    global _service
    if _service is None:
        _service = TableService()
    return _service


def publish(ip: str, port: int, base_url: str = "/") -> None:
    """Put the service's loopback address and the server key in this process's
    environment, which every kernel started afterwards inherits.

    Args:
        ip: the address the server listens on ("", "0.0.0.0" or "::" mean every
            interface: kernels then use 127.0.0.1). port: its port. base_url: the
            server's base URL ("/" or e.g. "/user/x/").
    """
    host = "127.0.0.1" if ip in ("", "0.0.0.0", "::", "localhost", None) else ip
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    base = "/" + base_url.strip("/") + "/" if base_url.strip("/") else "/"
    os.environ[URL_VARIABLE] = f"http://{host}:{port}{base}{PREFIX}"
    os.environ.setdefault(KEY_VARIABLE, secrets.token_urlsafe(24))


def pages_without_browser(kernel_ids) -> None:
    """Tell the table service (if this server has made one) which kernels have no
    browser page connected now: see :meth:`TableService.pages_without_browser`. Called
    by the kernel reaper on each check (:mod:`playtest.server.reaper`); creates nothing.
    Also tells the watcher of awaited pages (they expire with time)."""
    if _service is not None:
        _service.pages_without_browser(kernel_ids)
        _awaited_changed()


def judge_table_page(query: str) -> pages.Refusal | None:
    """Judge a table page's address (its raw query string) before the page takes a
    kernel: None when it names one table of this server and every token it holds is one
    of that table's (a seat's, the spectator's or the host's); else the refusal to
    answer with (:mod:`playtest.tables.pages`: the table service's own words, 404 for no
    such table, 403 for a wrong token). Creates the service if this server has none yet
    (it restores the stored tables: a link opened after a restart is still good).

    A seat's token ends that seat's wait (:meth:`TableService.authenticate`), told to
    the watcher of awaited pages before the page takes a ready kernel, so that the pool
    is not refilled for it."""
    refusal = pages.malformed(query)
    if refusal is not None:
        return refusal
    (table_id,), tokens = pages.parse_query(query)
    seats = False
    try:
        for token in tokens:
            _table, role, _seat = service().authenticate(table_id, token)
            seats = seats or role == "seat"
    except ServiceError as exc:
        return pages.Refusal(exc.status, str(exc))
    finally:
        if seats:
            _awaited_changed()
    return None


def watch_awaited_pages(callback: Callable[[int], None]) -> None:
    """Call ``callback(count)`` now and whenever the number of seat pages on their way
    (:meth:`TableService.awaited_pages`) may have changed: a table created, a seat
    joined, a host action, and on each kernel reaper check. ``playtest serve`` keeps as
    many table pages ready. Creates the service now (restoring the stored tables, whose
    people come back after a restart)."""
    global _awaited_watcher
    _awaited_watcher = callback
    service()
    _awaited_changed()


def _awaited_changed() -> None:
    if _awaited_watcher is not None and _service is not None:
        _awaited_watcher(_service.awaited_pages())


def publish_scenarios_dir(dashboards: str | os.PathLike) -> None:
    """Make the scenarios folder of the dashboards in ``dashboards`` (its ``scenarios/``)
    the one this process and every kernel started afterwards read, unless
    ``$PLAYTEST_SCENARIOS_DIR`` already names one: a dashboard kernel runs in its
    notebook's folder, the server wherever it was started, and the lobby's list of your
    scenarios and the table service's ``"scenario": NAME`` must read the same folder."""
    from ..scenarios import SCENARIOS_DIR_ENV
    if not os.environ.get(SCENARIOS_DIR_ENV):
        os.environ[SCENARIOS_DIR_ENV] = os.path.join(os.path.abspath(dashboards), "scenarios")


def shutdown() -> None:
    """Stop the service's bot clocks and close its store."""
    global _service, _awaited_watcher, _creations
    _awaited_watcher = None
    _creations = guard.CreationLimit()
    if _service is not None:
        _service.close()
        _service = None


def _key_ok(handler: tornado.web.RequestHandler) -> bool:
    key = os.environ.get(KEY_VARIABLE, "")
    sent = handler.request.headers.get("X-Playtest-Key", "")
    return bool(key) and hmac.compare_digest(sent.encode(), key.encode())


@tornado.web.stream_request_body
class ApiHandler(tornado.web.RequestHandler):
    """Base of the API handlers: JSON bodies (at most :data:`BODY_LIMIT` bytes; a POST
    passes :func:`playtest.tables.guard.check_request` first), errors as ``{"error":
    sentence}`` with their status, and the token of ``Authorization: Bearer <token>``.

    A body is streamed in (``stream_request_body``), so that one announced larger than
    :data:`BODY_LIMIT` (its ``Content-Length``) is answered 413 with a sentence before a
    byte of it is read, and the connection closed; a chunked body is cut off (Tornado's
    bare 400) as soon as it passes the limit. Either way the server never holds more of a
    request than the limit.

    Handler kwargs: ``login``: None where the lobby is open (``playtest serve``), else a
    callable ``login(handler) -> bool`` saying whether the request carries the server's
    own login (Jupyter Server)."""

    def initialize(self, login: Callable | None = None):
        self.login = login
        self._chunks: list[bytes] = []

    def prepare(self):
        if self.request.method == "POST":     # a JSON body, from this server's own pages or none
            guard.check_request(self.request, self.settings)
        self.request.connection.set_max_body_size(BODY_LIMIT)
        length = self.request.headers.get("Content-Length", "0").strip()
        if not length.isdigit():
            raise ServiceError(f"the request's Content-Length {reprlib.repr(length)} is not a number of bytes")
        if int(length) > BODY_LIMIT:
            raise ServiceError(f"the request body ({int(length):,} bytes) is larger than {BODY_LIMIT // 1024} KiB, "
                               "the most the table service takes; none of it was read", 413)

    def data_received(self, chunk: bytes) -> None:
        self._chunks.append(chunk)

    def check_xsrf_cookie(self):
        """Jupyter's XSRF check (under Jupyter Server, whose settings turn it on) for a
        request that could come from a page: one carrying no credential in a header.
        A request with the server key (a dashboard kernel's), a table token
        (``Authorization: Bearer``) or the Jupyter token (``Authorization: token`` or
        ``?token=``) is a script's or a kernel's: no page of another site can send those,
        and kernels have no XSRF cookie."""
        if (_key_ok(self) or self.request.headers.get("Authorization") or self.get_query_argument("token", "")
                or self.settings.get("disable_check_xsrf")):
            return None
        try:
            super().check_xsrf_cookie()
        except tornado.web.HTTPError:
            raise ServiceError("this request carries no XSRF token: a page sends the _xsrf cookie's value as the "
                               "header X-XSRFToken, a script the login token (Authorization: token ...)", 403) from None

    def set_default_headers(self):
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.set_header("Cache-Control", "no-store")

    def write_error(self, status_code: int, **kwargs):
        error = kwargs.get("exc_info", (None, None))[1]
        if isinstance(error, ServiceError) and error.retry_after is not None:
            self.set_header("Retry-After", str(error.retry_after))
        message = str(error) if isinstance(error, ServiceError) else (
            getattr(error, "log_message", None) or self._reason)
        self.finish({"error": message})

    def send(self, data: Any, status: int = 200) -> None:
        self.set_status(status)
        self.finish(json.dumps(data))

    def body(self) -> Any:
        body = b"".join(self._chunks)            # at most BODY_LIMIT bytes (prepare)
        if not body.strip():
            return {}
        from ..engine import limits
        try:
            body = limits.load_json(body, "the request body")     # nesting, digits, ...
        except limits.LimitError as exc:
            raise ServiceError(_limit_sentence(exc)) from None
        except (ValueError, UnicodeDecodeError):
            raise ServiceError("the request body is not JSON") from None
        _check_values(body)
        return body

    def client(self) -> str:
        """Who the request counts for (table creation's rate limit and share): the
        address a dashboard kernel names (:data:`CLIENT_HEADER`, trusted only with the
        server key), else the request's remote address."""
        named = self.request.headers.get(CLIENT_HEADER, "").strip()
        return named[:100] if named and _key_ok(self) else self.request.remote_ip or ""

    def token(self) -> str:
        auth = self.request.headers.get("Authorization", "")
        return auth[7:].strip() if auth.lower().startswith("bearer ") else ""

    def lobby_allowed(self) -> None:
        """Raise 403 unless the lobby is open here, the server key was sent, or the
        request carries the server's login."""
        if self.login is None or _key_ok(self) or self.login(self):
            return
        raise ServiceError("this server's lobby needs its login: open it from the dashboards", 403)

    def _handle_request_exception(self, e):
        if isinstance(e, ServiceError):
            self.send_error(e.status, exc_info=(type(e), e, None))
        else:
            super()._handle_request_exception(e)


def _check_values(value: Any) -> None:
    """Refuse what Python's JSON reader takes but JSON and the store do not: a lone
    surrogate (``"\\ud800"``, no character: it cannot be written as UTF-8) in a text or a
    key, and ``NaN`` or ``Infinity``. The body is at most 32 levels deep (the limits).

    Raises:
        ServiceError: one of those, in a sentence (400)."""
    if isinstance(value, float) and not math.isfinite(value):
        raise ServiceError("the request body has NaN or Infinity, which are not JSON numbers: send finite numbers")
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ServiceError("the request body has a text holding a lone surrogate (an escape such as \\ud800 "
                               "that is half of a character): send whole characters") from None
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_values(key)
            _check_values(item)
    elif isinstance(value, list):
        for item in value:
            _check_values(item)


def _limit_sentence(exc) -> str:
    """A :class:`~playtest.engine.limits.LimitError` about a request as one sentence
    whose subject is the request: "the request body has a number of 26 digits; numbers
    may have at most 40 digits" (its own message, "the request body: it has ...", is
    worded for a file, and other callers keep it)."""
    what = f"{exc.what} (line {exc.line})" if exc.line and exc.line > 1 else exc.what
    return f"{what}{exc.reason[2:]}" if exc.reason.startswith("it ") else str(exc)


def _json_safe(data):
    """Options and presets as JSON (pydantic defaults may be tuples or literals)."""
    return json.loads(json.dumps(data, default=str))


class GamesHandler(ApiHandler):
    def get(self):
        from ..engine import games
        from .live import PACES
        self.lobby_allowed()
        out = []
        for name, game in games().items():
            out.append({"name": name, "title": game.title, "min_seats": game.min_seats,
                        "max_seats": game.max_seats, "bots": list(game.BOTS),
                        "presets": _json_safe(dict(game.PRESETS)),
                        "options": _json_safe(game.validate_options({}).model_dump())})
        self.send({"games": out, "paces": list(PACES)})


class TablesHandler(ApiHandler):
    def get(self):
        self.lobby_allowed()
        self.send({"tables": service().listing(self.get_argument("status", "playing")), "store": service().status()})

    def post(self):
        self.lobby_allowed()
        client = self.client()
        _creations.check(client)
        made = service().create(self.body(), client)
        _creations.count(client)
        self.send(made, 201)
        _awaited_changed()


class OverviewHandler(ApiHandler):
    def get(self):
        """Every table in progress with its spectator link (the all-tables page): the
        lobby's audience may see it."""
        self.lobby_allowed()
        self.send({"tables": service().overview()})


class JoinHandler(ApiHandler):
    def post(self, table_id):
        self.lobby_allowed()
        body = self.body()
        seat = body.get("seat") if isinstance(body, dict) else None
        self.send(service().join(table_id, seat))


class StateHandler(ApiHandler):
    def get(self, table_id):
        table, role, seat = service().authenticate(table_id, self.token())
        if role == "seat":
            table.touch()
        self.send({"seat": seat, "role": role, **table.state_for(seat)})


class MovesHandler(ApiHandler):
    def post(self, table_id):
        table, role, seat = service().authenticate(table_id, self.token())
        if role != "seat":
            raise ServiceError("only a seat's token may move", 403)
        body = self.body()
        if not isinstance(body, dict) or not isinstance(body.get("move"), str):
            raise ServiceError('send {"move": "<move text>", "id": ..., "version": ...}')
        version = body.get("version")
        if version is not None and type(version) is not int:
            raise ServiceError("version must be a whole number (the number of moves of the position the move was "
                               "chosen on), or left out")
        table.touch()
        result = table.submit(seat, body["move"], body.get("id"), version)
        self.send(result.message(body.get("id")), 200 if result.ok else 503 if result.unsaved else 409)


class HostHandler(ApiHandler):
    def post(self, table_id):
        table, role, _ = service().authenticate(table_id, self.token())
        if role != "host":
            raise ServiceError("host controls need the host link's token", 403)
        host_action(table, self.body())
        self.send({"ok": True, **table.public_summary()})


def host_action(table, body: Any) -> None:
    """Apply one host control to a table (see :mod:`playtest.tables` for the body).
    ``bot`` seats ``"bot"`` at ``"seat"``: a bot's name, or ``"human"`` to hand a
    seat made for a person back to them (see :meth:`LiveTable.set_player`); ``timer``
    sets the turn timer to ``"seconds"`` per decision, or turns it off (null; see
    :meth:`LiveTable.set_turn_limit`).

    Raises:
        ServiceError: a missing or unknown action or field (400), saying what is
            allowed; ``bot`` naming the seat's own player, or a person for a seat made
            for a bot (400); ``bot`` on a seat whose person's page is connected, without
            ``"force": true`` (409). Nothing changed.
    """
    from ..engine import OptionError
    from .live import HUMAN, PACES, TURN_LIMITS, SeatConnected, StoreRefused
    actions = "pause, resume, pace, bot, timer, continue, end"
    if not isinstance(body, dict) or body.get("action") is None:
        raise ServiceError(f'the body needs an "action": one of {actions}')
    action = body.get("action")
    try:
        if action == "pause":
            table.set_paused(True)
        elif action == "resume":
            table.set_paused(False)
        elif action == "pace":
            if body.get("pace") is None:
                raise ServiceError(f'the body needs a "pace": one of {", ".join(PACES)}')
            table.set_pace(body.get("pace"))
        elif action == "bot":
            if body.get("seat") is None:
                raise ServiceError(f'the body needs a "seat": a whole number 0 to {len(table.players) - 1}')
            if body.get("bot") is None:
                raise ServiceError(f'the body needs a "bot": one of {", ".join(table.bot_names())}, or "{HUMAN}" to '
                                   "hand a person's seat back to them")
            table.set_player(body.get("seat"), body.get("bot"), force=body.get("force") is True)
        elif action == "timer":
            if "seconds" not in body:
                raise ServiceError(f'the body needs "seconds": a number from {TURN_LIMITS[0]} to {TURN_LIMITS[1]} '
                                   "(seconds a person has per decision), or null to turn the turn timer off")
            table.set_turn_limit(body["seconds"])
        elif action == "continue":
            table.press_continue(None)
        elif action == "end":
            table.end()
            for page in list(table.pages):
                page.leave("the host ended this table")
        else:
            raise ServiceError(f'unknown action {reprlib.repr(action)}; "action" is one of {actions}')
    except OptionError as exc:
        raise ServiceError(str(exc)) from None
    except SeatConnected as exc:
        raise ServiceError(str(exc), 409) from None
    except StoreRefused as exc:
        raise ServiceError(f"the server cannot save this now ({exc}); nothing changed, try again once it can",
                           503) from None
    _awaited_changed()          # a seat handed to a bot, a table ended: fewer pages to come


class RecordHandler(ApiHandler):
    def get(self, table_id):
        if table_id in service().damaged:       # no token opens it now: the lobby's kernel (server key) may
            if not (_key_ok(self) or (self.login is not None and self.login(self))):
                raise ServiceError("a damaged table's record needs the server key (the lobby has it) or the login",
                                   403)
            self.send(service().damaged_record(table_id))
            return
        table, role, _ = service().authenticate(table_id, self.token())
        if role != "host":
            raise ServiceError("the record is for the host (the host link's token)", 403)
        self.send(service().record(table_id))


class FeedbackHandler(ApiHandler):
    def post(self, table_id):
        table, role, seat = service().authenticate(table_id, self.token())
        if role != "seat":
            raise ServiceError("feedback comes from a seat's page", 403)
        service().feedback(table_id, seat, self.body())
        self.send({"ok": True})


class ExportHandler(ApiHandler):
    def get(self):
        if not (_key_ok(self) or (self.login is not None and self.login(self))):
            raise ServiceError("the export needs the server key (the lobby dashboard has it) or the login", 403)
        if self.get_argument("format", "json") == "csv":
            self.set_header("Content-Type", "text/csv; charset=utf-8")
            self.finish(service().export_csv())
        else:
            self.send({"tables": service().export()})


class TableSocket(tornado.websocket.WebSocketHandler):
    """One connected page of a table: the first message joins with a token (a seat's may
    carry ``"name"``, its person's name, also sent alone later as a ``name`` message),
    then moves and Continue presses come in, and the full state, then updates, go out (see
    :mod:`playtest.tables`).

    What is queued for the page is bounded: once more than :data:`QUEUE_LIMIT` bytes
    written to it have not been taken by its client (a client that does not read, or
    reads too slowly), the page is dropped: the connection is closed with code
    :data:`BEHIND` and :data:`BEHIND_REASON` (after what was queued, so a client reading
    again within Tornado's 5 s close wait reads it; otherwise the connection is cut) and
    the table forgets the page at once. Its client reconnects and joins again: a full
    resync.
    """

    seat: int | None = None
    role = ""
    table = None
    kernel: str | None = None   # the id of the page's kernel, from the join (None: not a kernel's)
    away = False                # its browser page is gone (LiveTable.browsers_gone)
    dropped = False             # fell too far behind: nothing more is sent

    def initialize(self, login=None):
        self.queued = 0         # bytes written and not yet taken by the client

    @property
    def max_message_size(self):
        return BODY_LIMIT

    def check_origin(self, origin: str) -> bool:
        # a browser's connection (kernels send no Origin): the lobby API's own rules
        host = self.request.headers.get("Host", "")
        return guard.host_allowed(host, self.settings) and guard.origin_allowed(origin, host, self.settings)

    def open(self, table_id):
        self.table_id = table_id

    def on_message(self, data):
        if self.dropped:            # the table has forgotten this page; its client will join again
            return
        try:
            message = json.loads(data)
        except (ValueError, UnicodeDecodeError):
            message = None
        if not isinstance(message, dict):
            self.send({"type": "error", "error": "messages are JSON objects"})
            return
        kind = message.get("type")
        if self.table is None:
            if kind != "join":
                self.close_with("send {\"type\": \"join\", \"token\": ...} first")
                return
            try:
                table, self.role, self.seat = service().authenticate(self.table_id, message.get("token"))
            except ServiceError as exc:
                self.close_with(str(exc))
                return
            self.table = table
            _awaited_changed()
            kernel = message.get("kernel")
            self.kernel = kernel if isinstance(kernel, str) and 0 < len(kernel) <= 100 else None
            game = table.match.game
            self.send({"type": "welcome", "table": self.table_id, "game": game.name, "title": game.title,
                       "seats": game.seats, "seat": self.seat, "role": self.role, "cards": table.card_variant})
            if table.status == "ended":
                self.send(table.state_for(self.seat))
                self.close_with("the host ended this table")
                return
            name = message.get("name")
            if name is not None and self.role == "seat":
                try:
                    table.set_name(self.seat, name)
                except (OptionError, StoreRefused) as exc:
                    self.send({"type": "error", "error": f"your name was not kept: {exc}"})
            table.attach(self)
        elif kind == "move" and self.role == "seat":
            version = message.get("version")
            text = message.get("move")
            if not isinstance(text, str):
                self.send({"type": "result", "id": message.get("id"), "ok": False, "error": "no move text"})
                return
            result = self.table.submit(self.seat, text, message.get("id"), version if type(version) is int else None)
            self.send(result.message(message.get("id")))
        elif kind == "name" and self.role == "seat":
            try:
                self.table.set_name(self.seat, message.get("name"))
            except (OptionError, StoreRefused) as exc:
                self.send({"type": "error", "error": f"your name was not kept: {exc}"})
        elif kind == "continue" and self.role == "seat":
            self.table.press_continue(self.seat)
        elif kind == "resync":
            self.table.resync(self)
        elif kind == "host" and self.role == "host":
            try:
                host_action(self.table, message)
            except ServiceError as exc:
                self.send({"type": "error", "error": str(exc)})
        else:
            self.send({"type": "error", "error": f"unknown message {str(kind)[:40]!r} for a {self.role} page"})

    def send(self, message: dict) -> None:
        """Send one message; a page that is gone is skipped quietly, and one with more
        than :data:`QUEUE_LIMIT` bytes still queued is dropped (see the class)."""
        if self.dropped:
            return
        if self.queued > QUEUE_LIMIT:
            self.dropped = True
            self.close(BEHIND, BEHIND_REASON)
            if self.table is not None:     # at once, not when the close wait ends
                tornado.ioloop.IOLoop.current().add_callback(self.table.detach, self)
            return
        data = json.dumps(message)          # ASCII: its length is its size in bytes
        try:
            written = self.write_message(data)
        except tornado.websocket.WebSocketClosedError:
            return
        self.queued += len(data)
        written.add_done_callback(lambda done: self._written(done, len(data)))

    def _written(self, done, size: int) -> None:
        """A message left for the client (or the connection closed with it still queued)."""
        self.queued -= size
        if not done.cancelled():
            done.exception()        # a closed connection: nothing to tell (and nothing logged)

    def close_with(self, reason: str) -> None:
        """Say why, then close the connection."""
        self.send({"type": "closed", "reason": reason})
        self.close(1000, reason[:120])

    def leave(self, reason: str) -> None:
        """The table sends this page away (a newer page of the seat, the table ended)."""
        self.close_with(reason)

    def on_close(self):
        if self.table is not None:
            self.table.detach(self)



def table_handlers(base_url: str = "/", login: Callable | None = None) -> list[tuple]:
    """The Tornado handlers of the table service, for ``Application.add_handlers``.

    Args:
        base_url: the server's base URL. login: see :class:`ApiHandler` (None: the lobby
            is open, as under ``playtest serve``).

    Returns:
        ``[(pattern, handler class, kwargs), ...]``.
    """
    root = "/" + "/".join(p for p in (base_url.strip("/"), PREFIX) if p)
    tid = r"([^/]{1,100})"         # any id: the service says in JSON that a table does not exist
    kwargs = {"login": login}
    return [(root + path, handler, kwargs) for path, handler in [
        (r"/games", GamesHandler), (r"/tables", TablesHandler), (r"/overview", OverviewHandler),
        (rf"/tables/{tid}/join", JoinHandler),
        (rf"/tables/{tid}/state", StateHandler), (rf"/tables/{tid}/moves", MovesHandler),
        (rf"/tables/{tid}/host", HostHandler), (rf"/tables/{tid}/record", RecordHandler),
        (rf"/tables/{tid}/feedback", FeedbackHandler), (r"/export", ExportHandler),
        (rf"/tables/{tid}/ws", TableSocket)]]
