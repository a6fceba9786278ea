"""The table service: every live table of one server, its tokens and its store.

It runs on the server's event loop (Tornado's asyncio loop), so every call is handled
one at a time; the web handlers (:mod:`playtest.tables.web`) only translate HTTP and
websocket messages into its calls. At start it restores every table that was still
being played from the store, at the move it had reached.
"""
from __future__ import annotations

import base64
import csv
import hmac
import io
import json
import reprlib
import secrets
import sqlite3
import statistics
import time
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Mapping

from ..engine import Match, OptionError, PlaytestError, Record, get_game, games
from ..engine.registry import other_game
from ..engine.counting import api_seat
from ..scenarios import find_scenario
from .live import (DEFAULT_PACE, HUMAN, STORE_RETRY, LiveTable, StoreRefused, check_pace, check_turn_limit,
                   timed_out_line)
from .store import DB_NAME, StoredTable, StoreInUse, StoreProblem, TableStore, data_dir, token_hash
from .thinking import Thinker, within_limits

MAX_TABLES = 200        # tables being played at once on one server
STATUSES = ("playing", "over", "ended")   # a table's status: being played, game over, ended by the host
TEXT_LIMIT = 2000       # characters of a feedback text
REACTION_LIMITS = (1, 600)   # seconds a reaction window's time limit may be (CR-7), least and most
TABLE_FIELDS = ("game", "seats", "players", "options", "preset", "scenario", "seed", "pace", "listed",
                "open_seats", "reaction_limit", "turn_limit")
"""Every field a new table's request may hold (:meth:`TableService.create` says what each means);
the API's refusals list them from here."""
TABLE_PAGE = "table.ipynb"   # the dashboard of a table's pages (seat, host, spectator), in the dashboards folder
CHOSEN_SEED_NOTE = ("A seed you choose deals the same cards every time it is played: anyone who knows it, or finds a "
                    "short one by trying seeds against the cards on the table, can rebuild every hand. Leave it "
                    "blank for a 128-bit seed nobody can guess.")
"""Said in the lobby beside the seed box, and in a create answer (``seed_note``) when the
table deals from a chosen seed: its own, or a scenario's (G-3)."""
AWAIT_WINDOW = 1800     # seconds after a table is created (or restored) during which its seat pages are awaited
UNOPENED_WINDOW = AWAIT_WINDOW   # seconds a new table waits for its first page or script; then it is ended
CLIENT_SHARE = MAX_TABLES // 10  # tables being played that one client may have created since the server started


class ServiceError(PlaytestError):
    """A request the service refuses; ``status`` is the HTTP status to answer with,
    ``retry_after`` the seconds after which it may be sent again (None: not said)."""

    def __init__(self, message: str, status: int = 400, retry_after: int | None = None):
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after


def _new_token() -> str:
    return secrets.token_urlsafe(16)      # 128 bits


class TableService:
    """All live tables of a server.

    Args:
        folder: the data folder holding the database (default :func:`data_dir`).
        thinker: where the tables' bots decide (default: a :class:`Thinker` with its
            worker processes, stopped by :meth:`close`).
        store_retry: seconds before a table's bots try again after the store refused a
            move (default :data:`~playtest.tables.live.STORE_RETRY`, 5).

    Attributes:
        problem: "" or why live tables are off (the store cannot be used: damaged,
            not playtest's, a read-only folder, a full disk), one sentence saying what
            to do; every call about tables then answers it (503) and the server's other
            pages work. notice: "" or one sentence about the store (emptied or
            replaced, a full disk; see :attr:`TableStore.notice`). damaged: id -> the
            stored table that cannot be replayed, kept with ``damage`` saying why.

    Raises:
        ServiceError: another server holds the folder's tables (503, saying which
            process and how to give this one its own folder).
    """

    def __init__(self, folder: str | Path | None = None, thinker: Thinker | None = None,
                 store_retry: float = STORE_RETRY):
        self.folder = Path(folder) if folder is not None else data_dir()
        self.store_retry = store_retry
        self.problem = self.notice = ""
        self.store: TableStore | None = None
        self.thinker = thinker or Thinker()
        try:
            self.store = TableStore(self.folder / DB_NAME)
        except StoreInUse as exc:
            raise ServiceError(str(exc), 503) from None
        except StoreProblem as exc:
            self.problem = f"Live tables are off: {exc}."
        self.damaged: dict[str, StoredTable] = {}
        self.tables: dict[str, LiveTable] = {}
        self._hashes: dict[str, tuple[str, dict[int, str], str]] = {}   # id -> host, seats, spectator
        self._claimed: dict[str, set[int]] = {}
        self._listed: dict[str, bool] = {}
        self._created: dict[str, float] = {}
        self._awaited: dict[str, tuple[float, set[int]]] = {}   # id -> (since, seats no page has joined)
        self._opened: set[str] = set()        # ids of the tables a page or script has used a token of
        self._clients: dict[str, str] = {}    # id -> the client that created it (this server's run only)
        if self.store is None:
            return
        self.notice = f"{self.store.notice[:1].upper()}{self.store.notice[1:]}." if self.store.notice else ""
        installed = set(games())
        for stored in self.store.tables():
            try:
                if stored.damage:
                    raise PlaytestError(stored.damage)
                if stored.game not in installed:     # kept as it is: playable again once installed
                    raise PlaytestError(not_installed(stored.game))
                self._restore(stored)
            except Exception as exc:  # noqa: BLE001 - one damaged table must not stop the server
                stored.damage = stored.damage or str(exc)
                self.damaged[stored.id] = stored
        self.end_unopened()

    def close(self) -> None:
        """Stop every bot clock and the bots' worker processes, and close the store
        (server shutdown)."""
        for table in self.tables.values():
            table.cancel()
        self.thinker.close()
        if self.store is not None:
            self.store.close()

    def status(self) -> dict:
        """The store's state for the lobby: ``{"available": bool, "problem": sentence
        or None, "damaged": [{"id", "game", "seats", "moves", "created", "reason", "installed"}]}``
        (``problem``: why live tables are off, or the store's notice; ``damaged``: the
        stored tables that cannot be replayed, oldest first, kept in the store;
        ``installed`` is false for a table whose game is not installed on this server,
        which is not damaged: it plays on once its game's package is installed and the
        server restarted)."""
        installed = set(games())
        damaged = [{"id": t.id, "game": t.game, "seats": t.seats, "moves": len(t.moves), "created": t.created,
                    "reason": t.damage, "installed": t.game in installed} for t in self.damaged.values()]
        return {"available": self.store is not None, "problem": self.problem or self.notice or None,
                "damaged": damaged}

    def _usable(self) -> None:
        """Raise the reason live tables are off (503), if they are."""
        if self.store is None:
            raise ServiceError(self.problem, 503)

    @contextmanager
    def _saving(self, what: str):
        """Turn the store's refusal into a 503 sentence naming ``what`` (nothing was saved)."""
        try:
            with _store_refusals():
                yield
        except StoreRefused as exc:
            raise ServiceError(f"the server cannot save {what} now ({exc}); nothing changed, try again once it "
                               "can", 503) from None

    # --- tables ---------------------------------------------------------------------
    @staticmethod
    def _replay(stored: StoredTable) -> Match:
        """The stored table's match, replayed to its stored moves.

        Raises:
            PlaytestError: a stored move cannot be played (the sentence names it)."""
        match = Match(stored.game, stored.seats, stored.options, stored.seed, setup=stored.setup,
                      stream=stored.stream)
        for number, (text, seat, _bot) in enumerate(stored.moves, 1):
            try:
                match.play(text)
            except PlaytestError as exc:
                raise PlaytestError(f"its stored move {number} ({reprlib.repr(text)}) cannot be played: {exc}") \
                    from None
            if number in stored.timed_out:        # the log's word that the table played it for them
                match.note(timed_out_line(seat, stored.names.get(seat, "")))
        return match

    def _load(self, table_id: str) -> Match:
        """A resting table's match, replayed from the store (:meth:`LiveTable.rest`)."""
        return self._replay(next(self.store.tables(table_id=table_id)))

    def rest_past(self) -> int:
        """Let every table that is over or ended, with no page for
        :data:`~playtest.tables.live.PAST_REST` seconds, drop its match from memory
        (it wakes from the store when used). Returns how many rested now."""
        return sum(table.rest() for table in self.tables.values())

    def _restore(self, stored: StoredTable) -> None:
        match = self._replay(stored)
        # a search budget over today's limit (stored by an older server) is cut to the limit
        players = [p if p == HUMAN else within_limits(match.game, p) for p in stored.players]
        table = self._live(stored.id, match, players, stored.pace, stored.paused, stored.status,
                           stored.reaction_limit, stored.turn_limit)
        if players != stored.players:
            try:
                self._store_change(table, players=players)
            except StoreRefused:
                pass            # a full disk: the budget is cut again at the next start
        table.by_bot = [bot for _t, _s, bot in stored.moves]
        table.timed_out = set(stored.timed_out)
        table.last_move_at = max(self.store.move_times(stored.id), default=None)
        table.person_seats = set(stored.seat_hashes)      # made for a person, whoever plays them now
        for seat, name in stored.names.items():
            table.names[seat] = name
        self._hashes[stored.id] = (stored.host_hash, dict(stored.seat_hashes), stored.spectator_hash)
        self._claimed[stored.id] = set(stored.claimed)
        self._listed[stored.id] = stored.listed
        self._created[stored.id] = stored.created
        self._awaited[stored.id] = (time.monotonic(), set(table.humans))     # everyone reloads after a restart
        if stored.opened:
            self._opened.add(stored.id)
        table.rest(idle=0)            # a past table: replayed to check it, then out of memory until used

    def _live(self, id: str, match: Match, players, pace, paused, status, reaction_limit=None,
              turn_limit=None) -> LiveTable:
        table = LiveTable(id, match, players, pace, paused, on_move=self._store_move, status=status,
                          on_change=self._store_change, reaction_limit=reaction_limit, thinker=self.thinker,
                          loader=lambda: self._load(id),
                          store_retry=self.store_retry, turn_limit=turn_limit)
        self.tables[id] = table
        return table

    def _store_move(self, table: LiveTable, number: int, text: str, seat: int, by_bot: bool,
                    timed_out: bool = False) -> None:
        with _store_refusals():
            self.store.add_move(table.id, number, text, seat, by_bot, timed_out=timed_out)

    def _store_change(self, table: LiveTable, **fields) -> None:
        with _store_refusals():
            if "name" in fields:
                self.store.set_name(table.id, *fields.pop("name"))
            if fields:
                self.store.update(table.id, **fields)

    def create(self, spec: Mapping[str, Any], client: str | None = None) -> dict:
        """Create a table. At :data:`MAX_TABLES` tables being played, the oldest one that
        nobody has opened yet is ended to make room (:meth:`end_unopened`).

        Args:
            spec: ``game`` (a registry name), ``seats`` (int), ``players`` (list, per
                seat "human" or a bot name; default seat 0 human, the game's first bot
                elsewhere), ``options`` (dict), ``preset`` (a name of the game's
                PRESETS, under ``options``), ``seed`` (a whole number of at most 40 digits,
                or None: a 128-bit seed drawn from ``secrets``; see :data:`CHOSEN_SEED_NOTE`),
                ``pace`` (a name of :data:`~playtest.tables.live.PACES`), ``listed``
                (bool: the lobby lists it and offers its open seats), ``open_seats`` (human
                seats that get no link now: a lobby join hands them out, default none),
                ``scenario`` (the name of a shipped scenario example or of ``NAME.toml`` in
                the scenarios folder: the table starts where it stops, with its setup;
                ``game``, ``seats``, ``options`` and ``seed`` then come from it: ``game`` and
                ``seats`` may be left out, and when sent must be the scenario's; ``options``,
                ``preset`` and ``seed`` are refused), ``reaction_limit``
                (seconds a person's reaction window stays open, :data:`REACTION_LIMITS`, CR-7; default
                none: a window waits for its answer), ``turn_limit`` (the turn timer: seconds a
                person has per decision, :data:`~playtest.tables.live.TURN_LIMITS`; default none:
                no timer; see :meth:`LiveTable.set_turn_limit`).
            client: who asks (an address), None for nobody in particular: a client may
                have created at most :data:`CLIENT_SHARE` of the tables being played.

        Returns:
            A token and a page path for every human seat (tokens are shown only here),
            as ``{"id", "host_token", "spectator_token", "seats": [{"seat", "player",
            "token"?, "path"?}], "host_path", "spectator_path", "seed_note"?}``;
            ``seed_note`` (:data:`CHOSEN_SEED_NOTE`) when the deal comes from a chosen seed.

        Raises:
            ServiceError: anything wrong in ``spec``, said in one sentence (400); the
                client's share used (429); :data:`MAX_TABLES` tables, each opened, live
                tables off or the store unable to save the table (503).
        """
        self._usable()
        if not isinstance(spec, Mapping):
            raise ServiceError(f"send a JSON object with some of the fields {', '.join(TABLE_FIELDS)}")
        unknown = set(spec) - set(TABLE_FIELDS)
        if unknown:
            raise ServiceError(f"unknown field(s) {', '.join(sorted(map(str, unknown)))}; a table takes "
                               f"{', '.join(TABLE_FIELDS)}")
        scenario = None
        if spec.get("scenario") is not None:
            try:
                scenario = find_scenario(str(spec["scenario"])[:200])
            except PlaytestError as exc:
                raise ServiceError(str(exc)) from None
            _check_scenario_fields(spec, scenario)
            spec = {**spec, "game": scenario.game, "seats": scenario.seats}
        game = _game(spec.get("game"))
        seats = spec.get("seats", game.min_seats)
        if type(seats) is not int:
            raise ServiceError(f"seats must be a whole number ({game.title}: {game.min_seats} to {game.max_seats})")
        bots = list(game.BOTS)
        players = spec.get("players")
        if players is None:
            players = [HUMAN] + ["heuristic" if "heuristic" in bots else bots[0]] * (seats - 1)
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise ServiceError(f"players must be a list of 'human' or a bot name ({', '.join(bots)}), one per seat")
        if len(players) != seats:
            where = f"the scenario {spec['scenario']!r} has" if scenario is not None else "the table has"
            raise ServiceError(f"{where} {seats} seats, but players names {len(players)}: name one per seat")
        open_seats = spec.get("open_seats") or []
        if not isinstance(open_seats, list) or not all(type(s) is int and 0 <= s < seats and players[s] == HUMAN
                                                       for s in open_seats):
            raise ServiceError("open_seats must list human seats (numbers) left for the lobby to hand out")
        options = spec.get("options") or {}
        preset = spec.get("preset")
        if not isinstance(options, Mapping):
            raise ServiceError("options must be an object of option name -> value")
        if preset is not None:
            if not isinstance(preset, str) or preset not in game.PRESETS:
                raise ServiceError(f"unknown preset {reprlib.repr(preset)}; presets: "
                                   f"{', '.join(game.PRESETS) or 'none'}")
            options = {**game.PRESETS[preset], **options}
        seed = spec.get("seed")
        pace = spec.get("pace", DEFAULT_PACE)
        try:
            check_pace(pace)
        except OptionError as exc:
            raise ServiceError(str(exc)) from None
        limit = spec.get("reaction_limit")
        low, high = REACTION_LIMITS
        if limit is not None and (type(limit) not in (int, float) or not low <= limit <= high):
            raise ServiceError(f"reaction_limit is a number of seconds from {low} to {high}, or null for no limit")
        try:
            turn_limit = check_turn_limit(spec.get("turn_limit"))
        except OptionError as exc:
            raise ServiceError(f"turn_limit: {exc}") from None
        listed = spec.get("listed", True)
        if not isinstance(listed, bool):
            raise ServiceError("listed must be true or false")
        try:
            match = scenario.to_match() if scenario is not None else Match(game, seats, dict(options), seed)
            table_id = secrets.token_hex(4)
            while table_id in self.tables or table_id in self.damaged:
                table_id = secrets.token_hex(4)
            table = LiveTable(table_id, match, players, pace, on_move=self._store_move,
                              on_change=self._store_change, reaction_limit=limit, thinker=self.thinker,
                              loader=lambda: self._load(table_id),
                              store_retry=self.store_retry, turn_limit=turn_limit)
        except (OptionError, ValueError, TypeError) as exc:
            raise ServiceError(str(exc)) from None
        self._make_room(client)         # a good body: now the client's share and the cap
        host, spectator = _new_token(), _new_token()
        # a seat left open gets its token from a lobby join; every other human seat gets its
        # link now (so a join can never take a seat whose link the host has sent)
        seat_tokens = {s: _new_token() for s in table.humans if s not in open_seats}
        stored = StoredTable(table_id, game.name, seats, match.options_dict(), match.seed, match.setup, players,
                             pace, listed, False, "playing", token_hash(host), token_hash(spectator), time.time(),
                             reaction_limit=limit, turn_limit=turn_limit, stream=match.stream,
                             seat_hashes={s: token_hash(seat_tokens[s]) if s in seat_tokens else ""
                                          for s in table.humans})
        stored.claimed = {s for s in table.humans if s not in open_seats}
        with self._saving("a new table"):
            self.store.add_table(stored)
            for number, move in enumerate(match.moves, 1):      # a scenario's moves: the table starts after them
                self.store.add_move(table_id, number, str(move), move.seat, False, at=stored.created)
        table.by_bot = [False] * len(match.moves)
        self.tables[table_id] = table
        self._hashes[table_id] = (stored.host_hash, dict(stored.seat_hashes), stored.spectator_hash)
        self._claimed[table_id] = {s for s in table.humans if s not in open_seats}
        self._listed[table_id] = listed
        self._created[table_id] = stored.created
        self._awaited[table_id] = (time.monotonic(), set(table.humans))
        if client is not None:
            self._clients[table_id] = client
        return {
            "id": table_id, "host_token": host, "spectator_token": spectator,
            "host_path": page_path(table_id, host), "spectator_path": page_path(table_id, spectator),
            "seats": [{"seat": s, "player": p, **({"token": seat_tokens[s], "path": page_path(table_id, seat_tokens[s])}
                                                  if s in seat_tokens else {})} for s, p in enumerate(players)],
            **({"seed_note": CHOSEN_SEED_NOTE} if seed is not None or scenario is not None else {}),
        }

    def _make_room(self, client: str | None) -> None:
        """Refuse a new table past the client's share; at :data:`MAX_TABLES` tables being
        played, end the oldest table nobody has opened to make room, or refuse.

        Raises:
            ServiceError: the client's share used (429), or every table opened (503)."""
        self.end_unopened()
        playing = [tid for tid, t in self.tables.items() if t.status == "playing"]
        if client is not None and sum(self._clients.get(tid) == client for tid in playing) >= CLIENT_SHARE:
            raise ServiceError(f"this client already has {CLIENT_SHARE} tables being played on this server, the "
                               "most one client may have: end some with their host links first", 429)
        if len(playing) < MAX_TABLES:
            return
        unopened = sorted((tid for tid in playing if tid not in self._opened), key=self._created.__getitem__)
        if not unopened:
            raise ServiceError(f"this server already runs {MAX_TABLES} tables, the most it holds, and people play "
                               "at every one; end some first", 503)
        self._end(unopened[0])

    def end_unopened(self) -> list[str]:
        """End every table still being played that no page or script has opened (used
        one of its tokens) within :data:`UNOPENED_WINDOW` seconds of its creation, by
        the wall clock: also those created before a restart. Its place is free again;
        its record stays. Called before each creation and on each kernel reaper check.

        Returns:
            the ids of the tables ended (one the store cannot save as ended, on a full
            disk, stays as it is until a later call).
        """
        now = time.time()
        stale = [tid for tid, t in self.tables.items() if t.status == "playing" and tid not in self._opened
                 and now - self._created[tid] >= UNOPENED_WINDOW]
        ended = []
        for table_id in stale:
            try:
                self._end(table_id)
            except StoreRefused:
                continue
            ended.append(table_id)
        return ended

    def _end(self, table_id: str) -> None:
        """End a table nobody has opened (no page is connected to tell)."""
        self.tables[table_id].end()
        self._awaited.pop(table_id, None)

    def listing(self, status: str = "playing") -> list[dict]:
        """The tables for the lobby, newest first: id, game, seats, players, moves,
        status, connected seats and free seats (listed tables only: human seats not yet
        handed out by a join; unlisted tables show none), ``date`` (created, ISO 8601),
        ``cards`` (the card variant, "" for the game's own), ``to_act`` (the seats to act),
        ``last_move_at`` (epoch seconds or None); a finished or ended table also
        ``winners``, ``scores`` (whole where whole) and ``feedback`` (how many seats gave
        some). No token, no card.

        Args:
            status: which tables: ``"playing"`` (the default: only tables still being
                played, so a long-running server's lobby is not buried under old ones),
                ``"over"`` (the game ended), ``"ended"`` (the host ended the table),
                several of these comma-separated (``"over,ended"``), or ``"all"``.

        Raises:
            ServiceError: an unknown status (400).
        """
        wanted = set(STATUSES) if status == "all" else set(str(status).split(","))
        if not wanted <= set(STATUSES):
            raise ServiceError(f"unknown status {str(status)[:40]!r}; use {', '.join(STATUSES)} (comma-separated "
                               "for several) or all")
        rows = []
        for table_id, table in self.tables.items():
            if table.status not in wanted:
                continue
            row = {"id": table_id, **table.public_summary(), "listed": self._listed[table_id],
                   "created": self._created[table_id]}
            row["free"] = ([s for s in table.humans if s not in self._claimed[table_id]]
                           if self._listed[table_id] and table.status == "playing" else [])
            row["date"] = iso_time(self._created[table_id])
            if table.status != "playing":
                outcome = table.outcome()
                row.update(winners=list(outcome.winners) if outcome else [],
                           scores=whole_scores(outcome.scores) if outcome else [],
                           feedback=len(self.store.feedback(table_id)))
            rows.append(row)
        return sorted(rows, key=lambda r: -r["created"])

    def watch_token(self, table_id: str) -> str:
        """The overview's spectator token of a table: a second spectator token, made from
        the store's own key (HMAC-SHA256 of the id, 128 bits), so that the page of every
        table in progress (:meth:`overview`) can link each spectator view without keeping
        the token handed out at creation (stored as a hash only)."""
        digest = hmac.new(self.store.watch_key.encode(), table_id.encode(), "sha256").digest()[:16]
        return base64.urlsafe_b64encode(digest).decode().rstrip("=")

    def overview(self) -> list[dict]:
        """Every table being played, for the all-tables page (the lobby's audience: no
        seat or host token, no card), oldest first: ``id``, ``game``, ``title``,
        ``seats``, ``players`` (per seat "human" or a bot name), ``to_act`` (the seats to
        act), ``connected`` (people's seats with a page open), ``moves``, ``cards`` (the
        card variant, "" for the game's own), ``idle_s`` (seconds since the last move, or
        since the table was made; rounded down) and ``watch_path`` (its spectator view's
        page path, :meth:`watch_token`).

        Raises:
            ServiceError: live tables are off (503)."""
        self._usable()
        now = time.time()
        rows = []
        for table_id, table in self.tables.items():
            if table.status != "playing":
                continue
            summary = table.public_summary()
            since = summary.pop("last_move_at") or self._created[table_id]
            rows.append({"id": table_id, **summary, "idle_s": int(max(0.0, now - since)),
                         "watch_path": page_path(table_id, self.watch_token(table_id))})
        return sorted(rows, key=lambda r: self._created[r["id"]])

    def pages_without_browser(self, kernel_ids) -> None:
        """The kernel reaper's word, every few seconds: these kernels have no browser page
        connected now (their person closed the page). Every table counts their pages as
        away, and every other page as back (:meth:`LiveTable.browsers_gone`).

        Args:
            kernel_ids: the ids (str) of the watched kernels that had a browser page and
                have none now; a kernel not named is counted as having its page.
        """
        gone = set(kernel_ids)
        for table in self.tables.values():
            table.browsers_gone(gone)
        self.end_unopened()
        self.rest_past()

    def table(self, table_id: str) -> LiveTable:
        """The table with this id.

        Raises:
            ServiceError: no such table (404), a table the store holds but cannot
                replay (409: :attr:`damaged`), or live tables are off (503).
        """
        self._usable()
        table = self.tables.get(table_id) if isinstance(table_id, str) else None
        if table is None and table_id in self.damaged:
            stored = self.damaged[table_id]
            if stored.game not in games():
                raise ServiceError(f"this table cannot be played here: {stored.damage}", 409)
            raise ServiceError(f"this table is damaged in the store and cannot be played ({stored.damage}); "
                               "its record can be downloaded from the lobby", 409)
        if table is None:
            raise ServiceError("there is no table with this id on this server (it may have been ended "
                               "long ago, or the link was cut short)", 404)
        return table

    def join(self, table_id: str, seat: int | None = None) -> dict:
        """Hand out an open seat of a listed table (the lobby's Join): a seat left open at
        creation (``open_seats``) that nobody has taken yet; a seat whose link the host
        was given is never free.

        Args:
            seat: the seat wanted; None takes the first free one.

        Returns:
            ``{"seat", "token", "path"}``.

        Raises:
            ServiceError: no such table (404), an unlisted or finished table (403), no
                such human seat (400), the seat already taken (409), the store unable
                to save the seat (503).
        """
        table = self.table(table_id)
        if not self._listed[table_id]:
            raise ServiceError("this table is not open to the lobby: ask its host for a seat link", 403)
        if table.status != "playing":
            raise ServiceError("this table's game is over", 403)
        free = [s for s in table.humans if s not in self._claimed[table_id]]
        if seat is None:
            if not free:
                raise ServiceError("every seat at this table is taken", 409)
            seat = free[0]
        if type(seat) is not int or seat not in table.humans:
            raise ServiceError(f"seat {reprlib.repr(seat)} is not a person's seat of this table; its people's "
                               f"seats are {_seat_list(table.humans)}")
        token = _new_token()
        with self._saving("a seat"):
            if seat not in free or not self.store.claim_seat(table_id, seat, token_hash(token)):
                raise ServiceError(f"{api_seat(seat)} is taken; free \"seat\" values: {_seat_list(free)}", 409)
        self._claimed[table_id].add(seat)
        self._hashes[table_id][1][seat] = token_hash(token)
        return {"seat": seat, "token": token, "path": page_path(table_id, token)}

    def authenticate(self, table_id: str, token: Any) -> tuple[LiveTable, str, int | None]:
        """Who ``token`` is at a table: ``(table, role, seat)``, role "seat" (with its
        seat), "spectator" or "host" (seat None). Compared in constant time. A seat's
        token also ends that seat's wait (:meth:`awaited_pages`): its person is here, by
        a page or a script. Any of its tokens marks the table opened, for good: it no
        longer expires (:meth:`end_unopened`).

        Raises:
            ServiceError: no such table (404) or a token that is none of its tokens (403).
        """
        table = self.table(table_id)
        if not isinstance(token, str) or not token or len(token) > 100:
            raise ServiceError("this link has no valid table token: ask the table's host for your seat link", 403)
        digest = token_hash(token)
        host, seats, spectator = self._hashes[table_id]
        found = None
        if hmac.compare_digest(digest, host):
            found = table, "host", None
        elif hmac.compare_digest(digest, spectator) or hmac.compare_digest(token.encode(), self.watch_token(table_id).encode()):
            found = table, "spectator", None
        for seat, h in seats.items():
            if found is None and hmac.compare_digest(digest, h):
                self._awaited.get(table_id, (0, set()))[1].discard(seat)
                found = table, "seat", seat
        if found is not None:
            if table_id not in self._opened:
                self._opened.add(table_id)
                self.store.update(table_id, opened=True)
            return found
        raise ServiceError("this link's token is not valid for this table: ask the table's host for your "
                           "seat link", 403)

    def awaited_pages(self) -> int:
        """How many seat pages are on their way: the human seats of tables still playing,
        created (or restored by a server start) in the last :data:`AWAIT_WINDOW`
        seconds, that no page or script has joined since. ``playtest serve`` keeps as
        many table pages ready (preheated kernels), so that the people of a new table
        opening their links at once, or coming back after a restart, skip the kernel
        starts."""
        now = time.monotonic()
        for table_id, (since, _seats) in list(self._awaited.items()):
            if now - since >= AWAIT_WINDOW or self.tables[table_id].status != "playing":
                del self._awaited[table_id]      # awaited no more: links never opened, or over
        return sum(len(seats.intersection(self.tables[table_id].humans)) for table_id, (_since, seats)
                   in self._awaited.items())

    def feedback(self, table_id: str, seat: int, body: Any) -> None:
        """Store a seat's feedback once its game is over.

        Args:
            body: ``{"rating": 1..5 or null, "confused": text, "notes": text}``.

        Raises:
            ServiceError: the game is still on (409), a bad field (400), or the store
                unable to save it (503).
        """
        table = self.table(table_id)
        if table.status == "playing":
            raise ServiceError("feedback opens when the game is over", 409)
        if not isinstance(body, Mapping) or set(body) - {"rating", "confused", "notes"}:
            raise ServiceError("feedback takes rating (1..5), confused (text) and notes (text)")
        rating = body.get("rating")
        if rating is not None and (type(rating) is not int or not 1 <= rating <= 5):
            raise ServiceError("rating must be a whole number 1..5 (or left out)")
        texts = [body.get(k, "") for k in ("confused", "notes")]
        if not all(isinstance(t, str) and len(t) <= TEXT_LIMIT for t in texts):
            raise ServiceError(f"confused and notes must be texts of at most {TEXT_LIMIT} characters")
        with self._saving("feedback"):
            self.store.add_feedback(table_id, seat, rating, *texts)

    def record(self, table_id: str) -> dict:
        """A table's record (plain data, as :meth:`Match.record`), once it is over or
        ended (LS-11: no record while the game runs).

        Raises:
            ServiceError: the game is still on (409).
        """
        table = self.table(table_id)
        if table.status == "playing":
            raise ServiceError("the record is handed out once the game is over or the host ended the table", 409)
        return self._record(table)

    def _record(self, table: LiveTable) -> dict:
        """A table's record with ``times`` (when each move was played, ISO 8601 UTC),
        ``holders`` (who played each seat over time, with the person's name: the players
        at the start, then each hand-over) and ``timed_out`` (the moves the table played
        for a person whose turn timer ran out), see :class:`~playtest.engine.Record`."""
        times = self.store.move_times(table.id)
        holders = [{k: h[k] for k in ("seat", "player", "name", "after")} for h in self._holders(table)]
        record = {**table.match.record().model_dump(), "holders": holders, "timed_out": sorted(table.timed_out)}
        if len(times) == len(record["moves"]):
            record["times"] = [iso_time(t) for t in times]
        return Record.model_validate(record).model_dump()       # checked as a record is when read

    def _holders(self, table: LiveTable) -> list[dict]:
        """Who played each seat of a table over time: ``{"seat", "player", "name",
        "after", "time"}`` rows (:meth:`TableStore.holders`, with the name of a seat's
        person; the last holders from the table's creation for a table stored before
        hand-overs were kept)."""
        rows = self.store.holders(table.id) or [{"seat": s, "player": p, "after": 0, "time": self._created[table.id]}
                                                for s, p in enumerate(table.players)]
        return [{**h, "name": table.names[h["seat"]] if h["player"] == HUMAN else ""} for h in rows]

    def damaged_record(self, table_id: str) -> dict:
        """The record of a table that cannot be replayed (:attr:`damaged`), as stored:
        its game, seats, options, seed, setup and every stored move (the one that cannot
        be played too), for the lobby's download with the server key (whoever holds it can
        read the store itself). A damaged table's game is over for good; one whose game is
        not installed here may play on elsewhere, so its record, hidden cards included,
        is for the server's owner.

        Raises:
            ServiceError: no damaged table of this id (404)."""
        stored = self.damaged.get(table_id) if isinstance(table_id, str) else None
        if stored is None:
            raise ServiceError("there is no damaged table with this id in this server's store", 404)
        return {"format": "playtest.record", "version": 2, "game": stored.game, "seats": stored.seats,
                "options": stored.options, "seed": stored.seed, "setup": stored.setup,
                "moves": [text for text, _seat, _bot in stored.moves], "damage": stored.damage}

    # --- export ---------------------------------------------------------------------
    def export(self) -> list[dict]:
        """Every finished or ended table: its record (with ``times``), who sat where
        (people and bots) and who held each seat over time, how it ended, the seats'
        think times and its feedback. The shape :func:`playtest.lab.read_tables` reads.

        Each table: ``table`` (id), ``game``, ``created`` (ISO 8601 UTC), ``status``,
        ``players`` (the last holder of each seat), ``holders`` (``{"seat", "player",
        "name" (a person's), "after" (moves played before it took the seat), "time"
        (ISO)}`` rows: the players at the start, then every hand-over between a person and
        a bot), ``think`` (:func:`think_times`), ``timed_out`` (the numbers, from 1, of the
        moves the table played for a person whose turn timer ran out; also in the record),
        ``finished``, ``winners``, ``scores`` (whole numbers where the game's scores are),
        ``moves``, ``turns``, ``feedback`` (times ISO), ``record``.

        Raises:
            ServiceError: live tables are off (503, :attr:`problem`)."""
        self._usable()
        rows = []
        for table_id, table in self.tables.items():
            if table.status == "playing":
                continue
            resting = table.resting           # woken for its record, then back to rest
            outcome = table.outcome()
            created = self._created[table_id]
            times = self.store.move_times(table_id)
            holders = self._holders(table)
            moves = [(m.seat, bot and number not in table.timed_out, t)
                     for number, (m, bot, t) in enumerate(zip(table.match.moves, table.by_bot, times), 1)]
            rows.append({
                "table": table_id, "game": table.game.name, "created": iso_time(created),
                "status": table.status, "players": list(table.players), "names": list(table.names),
                "holders": [{**h, "time": iso_time(h["time"])} for h in holders],
                "think": think_times(moves, created), "timed_out": sorted(table.timed_out),
                "record": self._record(table),
                "finished": bool(outcome and outcome.finished),
                "winners": list(outcome.winners) if outcome else [],
                "scores": whole_scores(outcome.scores) if outcome else [],
                "moves": table.moves_played(), "turns": table.turns_played(),
                "feedback": [{**f, "time": iso_time(f["time"])} for f in self.store.feedback(table_id)],
            })
            if resting:
                table.rest(idle=0)
        return rows

    def export_csv(self) -> str:
        """:meth:`export` as CSV text: one row per table, lists and objects as JSON."""
        rows = self.export()
        columns = ["table", "game", "created", "status", "players", "names", "holders", "think", "timed_out",
                   "finished", "winners", "scores", "moves", "turns", "feedback", "record"]
        out = io.StringIO()
        writer = csv.DictWriter(out, columns)
        writer.writeheader()
        for row in rows:
            writer.writerow({k: json.dumps(v) if isinstance(v, (list, dict)) else v for k, v in row.items()})
        return out.getvalue()


@contextmanager
def _store_refusals():
    """Raise the store's failure to save (a full disk, a read-only folder, a damaged
    file) as :class:`StoreRefused`, whose message says why as a clause for pages ("its
    disk is full"). An IntegrityError (a move number stored twice) is a bug: it passes."""
    try:
        yield
    except sqlite3.IntegrityError:
        raise
    except sqlite3.DatabaseError as exc:
        text = str(exc)
        why = ("its disk is full" if "full" in text else "its data folder has become read-only"
               if "readonly" in text or "read-only" in text else f"its table store failed: {text[:200]}")
        raise StoreRefused(why) from None


def _game(name: Any):
    """The game a create body names (``"game"``).

    Raises:
        ServiceError: no ``"game"``, or no game of that name (400), saying which are."""
    if name is None:
        raise ServiceError(f'the body needs a "game": one of {", ".join(games())}')
    try:
        return get_game(name)
    except Exception:  # noqa: BLE001 - any unknown name, or not a string
        raise ServiceError(f"unknown game {reprlib.repr(name)}; games: {', '.join(games())}") from None


def not_installed(game: str) -> str:
    """Why a stored table of ``game`` (a name no installed game has) is not played on:
    the sentence the lobby shows and the API answers."""
    return (f"its game {reprlib.repr(game)} is not installed on this server; install the game's package "
            "and restart the server to play on")


def _check_scenario_fields(spec: Mapping[str, Any], scenario) -> None:
    """Refuse a create body whose ``"game"`` or ``"seats"`` disagrees with its
    scenario's (a scenario brings its own: they may be left out, or sent as they are),
    in the words the dashboards use for a scenario of another game, or that sends
    ``"options"``, ``"preset"`` or ``"seed"`` (the scenario's own are played: they would
    be ignored without a word).

    Raises:
        ServiceError: the game or the seat count is not the scenario's, or options, a
            preset or a seed are sent with it (400)."""
    sent = [f'"{key}"' for key in ("options", "preset", "seed") if spec.get(key) not in (None, {})]
    if sent:
        raise ServiceError(f"a scenario brings its own options and seed: leave {_and(sent)} out (the scenario "
                           f"{spec['scenario']!r} plays seed {scenario.seed} with options "
                           f"{json.dumps(scenario.options, ensure_ascii=False)})")
    game, seats = spec.get("game"), spec.get("seats")
    if game is not None and game != scenario.game:
        _game(game)                 # an unknown game is refused as such
        raise ServiceError(f'{other_game(scenario.game, game, "scenario")}; leave "game" out or send '
                           f'"game": "{scenario.game}"')
    if seats is not None and (type(seats) is not int or seats != scenario.seats):
        raise ServiceError(f"the scenario {spec['scenario']!r} has {scenario.seats} seats, not "
                           f'{reprlib.repr(seats)}; leave "seats" out or send "seats": {scenario.seats}')


def iso_time(seconds: float) -> str:
    """A time in seconds since the epoch as ISO 8601 UTC text, to the millisecond
    ("2026-12-05T13:40:01.250Z")."""
    moment = datetime.fromtimestamp(seconds, timezone.utc)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def whole_scores(scores) -> list:
    """Scores as the export gives them: whole numbers as ints (10.0 -> 10), others as they are."""
    return [int(s) if isinstance(s, float) and s.is_integer() else s for s in scores]


def think_times(moves: list[tuple[int, bool, float]], start: float) -> list[dict]:
    """Each seat's think time per decision, people's moves apart from bots'.

    A move's think time is the time from when its seat could act, taken as the move
    before it (any seat's) or the table's start, to the move. A move the table played for
    a person whose turn timer ran out counts as the person's (pass ``by_bot`` False). Moves stored at the start
    (a scenario's, played before the table opened) are not decisions and are left out.
    A table restored after a server restart counts the downtime in the next move's time.

    Args:
        moves: ``(seat, by_bot, time)`` per move in order; times in seconds since the
            epoch. start: the table's creation time, same unit.

    Returns:
        ``{"seat", "player": "human" | "bot", "decisions", "median_s", "p90_s"}`` rows
        (seconds, to the millisecond), by seat then player; a seat and kind with no
        decision has no row.
    """
    waits: dict[tuple[int, str], list[float]] = {}
    before = start
    for seat, by_bot, at in moves:
        if at > start:
            waits.setdefault((seat, "bot" if by_bot else HUMAN), []).append(max(0.0, at - before))
        before = max(before, at)
    rows = []
    for (seat, player), values in sorted(waits.items()):
        p90 = statistics.quantiles(values, n=10, method="inclusive")[-1] if len(values) > 1 else values[0]
        rows.append({"seat": seat, "player": player, "decisions": len(values),
                     "median_s": round(statistics.median(values), 3), "p90_s": round(p90, 3)})
    return rows


def page_path(table_id: str, token: str) -> str:
    """A table page's address relative to the dashboards' folder address."""
    return f"{TABLE_PAGE}?table={table_id}&token={token}"


def _and(words: list[str]) -> str:
    """Words joined as in a sentence: "a, b and c", "a", or "none"."""
    return "none" if not words else words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _seat_list(seats: list[int]) -> str:
    """Seats in words: "0, 2 and 3", "1", or "none"."""
    return _and([str(s) for s in seats])
