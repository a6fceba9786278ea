"""A match: one game in progress, its record (the source of truth) and time travel.

The record is (game, seats, options, seed, moves). Replaying it always rebuilds the same
state, byte for byte (G-3), so rewind, branch, save and load are all built on replay.
"""
from __future__ import annotations

import contextlib
import json
import os
import reprlib
import secrets
import tempfile
from functools import cache
from pathlib import Path
from typing import Any, Literal, Mapping

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_serializer, model_validator

from . import limits
from .errors import IllegalMove, OptionError, PlaytestError, RecordError
from .game import ALL_CARDS, Event, Game, Outcome, Pinnable, fingerprint
from .moves import Move
from .registry import get_game
from .rng import OLD_STREAM, STREAMS, Stream, new_stream, side_seed

RECORD_FORMAT = "playtest.record"
RECORD_VERSION = 3
READ_VERSIONS = (1, 2, 3)  # version 1 had no pinned setup, 2 no stream (the old one: "mt")
SEED_BITS = 128
"""Bits of a drawn seed (from ``secrets``, the OS's secure source): too many to search."""
MAX_SEED = 10 ** limits.MAX_DIGITS - 1
"""The largest seed: any whole number of at most :data:`limits.MAX_DIGITS` digits (more
than 128 bits)."""


def write_atomically(path: str | os.PathLike, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` through a temporary file in the same folder and
    an atomic rename, so a crash mid-write never leaves half a file in place of a good
    one. The file is readable by its owner only (records hold the seed). Returns the path.

    When the write or the rename fails (a full disk, a read-only folder), the temporary
    file is removed again and ``path`` is left as it was.

    Raises:
        OSError: the folder does not exist or cannot be written.
    """
    path = Path(path)
    handle, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with open(handle, "w", encoding="utf-8") as file:
            file.write(text)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return path


@cache
def _default_options(game: type[Game]):
    """``game``'s options with every default: validated once per game class, not for every
    new match (option models are frozen, so one instance serves every match)."""
    return game.validate_options({})


class Holder(BaseModel):
    """Who played a seat of a live table from some point on (a :class:`Record`'s
    ``holders`` row): ``seat`` (from 0), ``player`` ("human" or a bot name), ``name``
    (the person's name at that seat, "" for none or a bot), ``after`` (the moves played
    before it took the seat)."""

    model_config = ConfigDict(extra="forbid")

    seat: int
    player: str = Field(max_length=100)
    name: str = Field(default="", max_length=100)
    after: int = 0


class Record(BaseModel):
    """A saved match, as versioned JSON.

    Fields: ``format`` (always ``"playtest.record"``), ``version`` (3; 1 and 2 are read
    too), ``game`` (registry name), ``seats`` (int), ``options`` (name -> value), ``seed``
    (int 0..:data:`MAX_SEED`, the G-3 stream's seed: it rebuilds every hand), ``stream``
    (``"keyed"`` or ``"mt"``, see :mod:`playtest.engine.rng`; a record without one, as
    every record before version 3, uses ``"mt"``), ``setup`` (the pinned setup, key ->
    value, see :meth:`~playtest.engine.game.Pinnable.pin`; empty for a plain deal), ``moves`` (move text forms, in
    order), ``times`` (optional: the server time each move was played at a live table,
    ISO 8601 UTC text, parallel to ``moves``; empty when not known), ``holders``
    (optional: who played each seat of a live table over time, :class:`Holder` rows, the
    players at the start first, then each hand-over), ``timed_out`` (optional: the numbers,
    from 1, of the moves a live table played for a person whose turn timer ran out).
    Replay ignores ``times``, ``holders`` and ``timed_out``; a record without them replays
    the same.
    """

    model_config = ConfigDict(extra="forbid")

    format: Literal["playtest.record"] = RECORD_FORMAT
    version: Literal[1, 2, 3] = RECORD_VERSION
    game: str
    seats: int = Field(ge=1)
    options: dict[str, Any] = {}
    seed: int
    stream: Stream = OLD_STREAM
    setup: dict[str, Any] = {}
    moves: list[str] = []
    times: list[str] = []
    holders: list[Holder] = []
    timed_out: list[int] = []

    @model_validator(mode="after")
    def _in_range(self) -> "Record":
        """Holders name seats of the game and move counts of the record; timed-out moves
        are moves of the record."""
        for row in self.holders:
            if not 0 <= row.seat < self.seats or not 0 <= row.after <= len(self.moves):
                raise ValueError(f"holders: seat {row.seat} after {row.after} moves is not a seat (0 to "
                                 f"{self.seats - 1}) after a move count (0 to {len(self.moves)}) of this record")
        wrong = [n for n in self.timed_out if not 1 <= n <= len(self.moves)]
        if wrong:
            raise ValueError(f"timed_out: {reprlib.repr(wrong)} are not move numbers of this record (1 to "
                             f"{len(self.moves)})")
        return self

    @model_serializer(mode="wrap")
    def _without_empty_extras(self, handler) -> dict[str, Any]:
        """Written without ``times``, ``holders`` or ``timed_out`` when there are none: a
        saved game reads in kits that predate the fields."""
        data = handler(self)
        for name, value in (("times", self.times), ("holders", self.holders), ("timed_out", self.timed_out)):
            if not value:
                data.pop(name, None)
        return data


class Match:
    """One game being played, with its record and a cursor for time travel.

    Args:
        game: a registry name (``"lazy_sunday"``) or a Game class.
        seats: number of seats (the game's range).
        options: option name -> value; missing ones take their RULINGS defaults.
        seed: the seed of the game's random stream (G-3), 0..:data:`MAX_SEED`; None
            draws a fresh one of :data:`SEED_BITS` bits from ``secrets``, kept in the record.
        stream: ``"keyed"`` or ``"mt"`` (see :mod:`playtest.engine.rng`); None: ``"keyed"``
            for a drawn seed, ``"mt"`` for a given one (a seed written down before deals
            the same cards as before).
        keep_log: False keeps no log, and lets the game skip building the event text
            (simulations; see ``Game.keep_log``).
        setup: a pinned setup (key -> value, see :meth:`~playtest.engine.game.Pinnable.pin` and ``Game.SETUP``)
            applied over the seeded deal; None or empty for a plain deal.

    Raises:
        OptionError: unknown game, seat count out of range, a bad option, seed, stream or
            pinned setup.
    """

    def __init__(self, game: str | type[Game], seats: int, options: Mapping[str, Any] | None = None,
                 seed: int | None = None, keep_log: bool = True, setup: Mapping[str, Any] | None = None,
                 stream: Stream | None = None):
        game = get_game(game)
        self.game: Game = game(seats, options if options else _default_options(game))
        self.game.keep_log = keep_log  # without a log, the game may skip building event text
        if seed is None:
            seed, stream = secrets.randbits(SEED_BITS), stream or "keyed"
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
            raise OptionError(f"the seed must be a whole number 0 or more of at most {limits.MAX_DIGITS} digits "
                              f"(below 10**{limits.MAX_DIGITS}), not {reprlib.repr(seed)}")
        if stream not in (None, *STREAMS):
            raise OptionError(f"unknown stream {reprlib.repr(stream)}: the streams are {', '.join(map(repr, STREAMS))}")
        self.seed = seed
        self.stream: Stream = stream or OLD_STREAM
        self.setup: dict[str, Any] = dict(setup or {})
        self.keep_log = keep_log
        self.moves: list[Move] = []      # the whole record line, even when rewound
        self._restart()

    # --- reading ------------------------------------------------------------------
    @property
    def cursor(self) -> int:
        """How many moves of the record the current state has applied."""
        return self._applied

    @property
    def at_end(self) -> bool:
        """True unless the match has been rewound (see :meth:`goto`)."""
        return self._applied == len(self.moves)

    def to_act(self) -> tuple[int, ...]:
        """Seats with a pending decision now (see :meth:`Game.to_act`)."""
        return self.game.to_act(self.state)

    def _seat(self, seat, spectator_ok: bool = False) -> None:
        if seat is None and spectator_ok:
            return
        if type(seat) is not int or not 0 <= seat < self.game.seats:
            who = "a seat number or None (spectator)" if spectator_ok else "a seat number"
            raise IndexError(f"{seat!r} is not a seat of this {self.game.seats}-seat game: "
                             f"use {who}, 0..{self.game.seats - 1} (G-1)")

    def legal_moves(self, seat: int) -> list[Move]:
        """Every move ``seat`` may make now (empty when rewound: branch first).

        Raises:
            IndexError: ``seat`` is not a seat of this game (G-1).
        """
        self._seat(seat)
        if not self.at_end:
            return []
        legal = self._legal.get(seat)
        if legal is None:
            legal = self._legal[seat] = self.game.legal_moves(self.state, seat)
        return legal

    def decision_moves(self, seat: int) -> list[Move]:
        """The legal moves of ``seat`` that answer its pending decision, open moves left
        out (see :meth:`Game.decision_moves`); empty when it has none, or when rewound.

        Raises:
            IndexError: ``seat`` is not a seat of this game (G-1).
        """
        if type(seat) is not int or not 0 <= seat < self.game.seats:
            self._seat(seat)  # raises, naming the seats (inlined: once per move)
        legal = self._decision.get(seat)
        if legal is None:
            if self._applied != len(self.moves):  # rewound (at_end, inlined: once per move)
                return []
            legal = self._decision[seat] = self.game.decision_moves(self.state, seat)
        return legal

    def open_moves(self, seat: int) -> list[Move]:
        """The open moves ``seat`` may make now (see ``Game.OPEN_MOVES``); empty when
        rewound.

        Raises:
            IndexError: ``seat`` is not a seat of this game (G-1).
        """
        self._seat(seat)
        if not self.at_end or not self.game.OPEN_MOVES:
            return []
        moves = self._open.get(seat)
        if moves is None:
            moves = self._open[seat] = self.game.open_moves(self.state, seat)
        return moves

    def view(self, seat: int | None) -> dict:
        """What ``seat`` may know (None: the public spectator view).

        Raises:
            IndexError: ``seat`` is neither None nor a seat of this game (G-1).
        """
        self._seat(seat, spectator_ok=True)
        return self.game.view(self.state, seat)

    def all_cards_view(self) -> dict:
        """Every card of the position face up (see :meth:`Game.all_cards_view`): for
        debugging a scenario alone, never for a seat, a bot or a live table."""
        return self.game.all_cards_view(self.state)

    def bot_view(self, seat: int) -> dict:
        """What a bot at ``seat`` decides from: its view and its memory.

        Raises:
            IndexError: ``seat`` is not a seat of this game (G-1).
        """
        self._seat(seat)
        return self.game.bot_view(self.state, seat)

    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on."""
        return self.game.outcome(self.state)

    def fingerprint(self) -> str:
        """The state's canonical text; equal fingerprints mean identical positions."""
        return fingerprint(self.state)

    def log_for(self, seat: int | None | Literal["all"], start: int = 0) -> list[tuple[int, str]]:
        """The log up to the cursor as ``(move number, text)`` pairs, worded for
        ``seat`` (never naming a card it did not see). Move number 0 is the setup.
        ``ALL_CARDS`` (``"all"``, debugging alone, as :meth:`all_cards_view`): each line
        as everyone reads it plus what each seat read instead (:meth:`Event.for_all`).
        ``start``: the index of the first line wanted (0: the whole log; a live table
        sends a page only the lines it has not had)."""
        lines = self.log[start:]
        if seat == ALL_CARDS:
            return [(n, event.for_all()) for n, event in lines]
        return [(n, event.for_seat(seat)) for n, event in lines]

    def note(self, text: str) -> None:
        """Add a public line to the log, numbered with the last move played, that no move
        wrote: a live table's word about the game (a person's turn timer ran out). It is
        not part of the record: a replay of the record does not have it.

        Raises:
            PlaytestError: the match is rewound (branch first)."""
        if not self.at_end:
            raise PlaytestError("this match is rewound: branch() first to add to its log")
        self.log.append((self._applied, Event(text)))

    # --- playing ------------------------------------------------------------------
    def play(self, move: Move | str) -> list[Event]:
        """Check and apply one move; append it to the record.

        Args:
            move: a Move or its text form, e.g. ``"0 keep 3"``.

        Returns:
            The log events of the move (with ``keep_log=False``, the game may leave them out).

        Raises:
            MoveSyntaxError: unreadable text.
            IllegalMove: the move breaks a rule (the error names the ruling and the legal
                alternatives), or the match is rewound (branch first). Either way the
                state is left exactly as it was.
        """
        if not isinstance(move, Move):
            move = Move.parse(move)
        # a move among the seat's decision moves, or its open moves, listed for this very
        # position is legal (both are legal moves by the contract; both lists are empty
        # when rewound, and cached only for real seats); anything else goes through the
        # full check of :meth:`refusal`
        seat = move[0]                          # move.seat, read by position (hot path)
        legal = self._decision.get(seat) if type(seat) is int else None
        if legal is None or move not in legal:
            listed = type(seat) is int and 0 <= seat < self.game.seats and (
                move in self.decision_moves(seat) or move in self._open.get(seat, ()))
            if not listed:
                problem = self.refusal(move)
                if problem is not None:
                    raise problem
        self.moves.append(move)
        return self._apply(move)

    def refusal(self, move: Move | str) -> IllegalMove | None:
        """Why :meth:`play` would refuse ``move`` now, or None if it would play it.
        Changes nothing: the "why not?" question of the debugger and of scenario checks.

        Args:
            move: a Move or its text form, e.g. ``"1 claim 0 2 3"``.

        Returns:
            The :class:`IllegalMove` (ruling id, reason, legal alternatives) that ``play``
            would raise, or None.

        Raises:
            MoveSyntaxError: unreadable text.
        """
        if not isinstance(move, Move):
            move = Move.parse(move)
        if self._applied != len(self.moves):
            return IllegalMove(move, "", f"the match is rewound to move {self._applied} of "
                               f"{len(self.moves)}; go to the end, or branch from here first")
        seat = move.seat
        if type(seat) is not int or not 0 <= seat < self.game.seats:
            return IllegalMove(move, "G-1", f"seats are numbered 0..{self.game.seats - 1}")
        try:
            self.game.check(self.state, move, self.legal_moves(seat))
        except IllegalMove as exc:
            return exc
        return None

    def _apply(self, move: Move) -> list[Event]:
        events = self.game.apply(self.state, move)
        self._applied += 1
        self._legal, self._decision, self._open = {}, {}, {}   # lists of the new position
        if self.keep_log:
            self.log.extend((self._applied, e) for e in events)
        return events

    def _restart(self) -> None:
        self.state = self.game.new_state(new_stream(self.seed, self.stream))
        if self.setup:
            if not isinstance(self.game, Pinnable):
                raise OptionError(f"{self.game.title} cannot pin its setup (got {', '.join(map(str, self.setup))})")
            self.game.pin(self.state, self.setup)
        self._applied = 0
        self._legal: dict[int, list[Move]] = {}     # seat -> legal moves, until the next move
        self._decision: dict[int, list[Move]] = {}  # seat -> decision moves, likewise
        self._open: dict[int, list[Move]] = {}      # seat -> open moves, likewise
        self.log: list[tuple[int, Event]] = []
        if self.keep_log:
            self.log.extend((0, e) for e in getattr(self.state, "setup_events", ()))

    def side_seed(self, label: str) -> str:
        """The seed of a stream beside the game's, e.g. a bot's (``label``: its seat); one
        that does not give the game's seed back with the keyed stream (see
        :func:`playtest.engine.rng.side_seed`)."""
        return side_seed(self.seed, self.stream, label)

    # --- time travel ----------------------------------------------------------------
    def goto(self, n: int) -> None:
        """Show the state after the first ``n`` moves of the record, keeping the later
        moves (so ``goto(len(moves))`` returns to the live game).

        Raises:
            IndexError: ``n`` is outside 0..len(moves).
        """
        if type(n) is not int or not 0 <= n <= len(self.moves):
            raise IndexError(f"move {n!r} is not in the record: use a whole number 0..{len(self.moves)}")
        if n < self._applied:
            self._restart()
        while self._applied < n:
            self._apply(self.moves[self._applied])

    def branch(self, n: int | None = None) -> "Match":
        """A new match that shares the first ``n`` moves (default: the cursor) and goes
        on from there. This match is left untouched."""
        n = self._applied if n is None else n
        other = Match(type(self.game), self.game.seats, self.options_dict(), self.seed, self.keep_log, self.setup,
                      self.stream)
        other.moves = list(self.moves[:n])
        other.goto(n)
        return other

    # --- saving ---------------------------------------------------------------------
    def options_dict(self) -> dict[str, Any]:
        """The options in force, every one of them, as plain data."""
        return self.game.options.model_dump()

    def record(self) -> Record:
        """The record of the whole line (all moves, even past a rewound cursor)."""
        return Record(game=self.game.name, seats=self.game.seats, options=self.options_dict(),
                      seed=self.seed, stream=self.stream, setup=self.setup, moves=[str(m) for m in self.moves])

    def to_json(self) -> str:
        """The record as versioned JSON text."""
        return self.record().model_dump_json(indent=1)

    def save(self, path: str | os.PathLike) -> Path:
        """Write the record to ``path`` atomically: a crash mid-write never leaves a
        half-written save in place of a good one."""
        return write_atomically(path, self.to_json())

    @classmethod
    def from_record(cls, record: Record | Mapping[str, Any], keep_log: bool = True) -> "Match":
        """Rebuild a match by replaying a record.

        Raises:
            RecordError: wrong format or version, unknown game, bad options, or a move
                that is unreadable or illegal at its point (named by number). Nothing is
                returned half-loaded.
        """
        if isinstance(record, Mapping) and record.get("format") == RECORD_FORMAT and record.get("version") not in (
                None, *READ_VERSIONS):
            raise RecordError(f"this record is format version {record.get('version')!r}; this kit reads "
                              f"versions {', '.join(map(str, READ_VERSIONS))}")
        try:
            record = record if isinstance(record, Record) else Record.model_validate(record)
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'record'}: {e['msg']}" for e in exc.errors())
            raise RecordError(f"not a playtest record (format {RECORD_FORMAT!r} version {RECORD_VERSION}): "
                              f"{problems}") from None
        try:
            match = cls(record.game, record.seats, record.options, record.seed, keep_log, record.setup, record.stream)
        except OptionError as exc:
            raise RecordError(f"record cannot be set up: {exc}") from None
        for number, text in enumerate(record.moves, 1):
            try:
                match.play(text)
            except PlaytestError as exc:
                raise RecordError(f"move {number} of {len(record.moves)} ({reprlib.repr(text)}): {exc}") from None
        return match

    @classmethod
    def from_json(cls, text: str | bytes, keep_log: bool = True, what: str = "the record") -> "Match":
        """Load a match from record JSON text (see :meth:`from_record`). The text must
        keep the input limits (:mod:`playtest.engine.limits`: at most 1 MiB, nested at
        most 32 deep, numbers of at most 40 digits, ...); they are checked before it is
        parsed.

        Args:
            text: the record's JSON (str, or UTF-8 bytes). what: how messages name it.

        Raises:
            LimitError: (a RecordError) the text is over a limit, or bytes that are
                not UTF-8; the message names the limit and what is allowed.
            RecordError: the text is not JSON, or see :meth:`from_record`.
        """
        limits.check_size(text, what)
        if not text.strip():
            raise RecordError("not a playtest record: the file is empty")
        try:
            data = limits.load_json(text, what)
        except json.JSONDecodeError as exc:
            raise RecordError(f"not a playtest record: the file is not valid JSON ({exc})") from None
        return cls.from_record(data, keep_log)

    @classmethod
    def load(cls, path: str | os.PathLike, keep_log: bool = True) -> "Match":
        """Load a match saved with :meth:`save` (at most 1 MiB is read, see
        :func:`playtest.engine.limits.read_text`).

        Raises:
            RecordError: the file cannot be read as text (missing, a folder, binary, over
                a limit), or see :meth:`from_json`.
        """
        try:
            text = limits.read_text(path, f"the record {str(path)!r}")
        except limits.LimitError as exc:
            raise RecordError(f"cannot read the record {str(path)!r}: {exc.reason}") from None
        except OSError as exc:
            raise RecordError(f"cannot read the record {str(path)!r}: {exc.strerror or 'it cannot be read'}") from None
        return cls.from_json(text, keep_log, f"the record {str(path)!r}")
