"""Scenario files: one exact game situation, written down so it can be rebuilt, stepped
through and kept as a regression test.

A scenario is TOML. Python reads TOML with the standard library (``tomllib``) and writes
it with ``tomli_w``; unlike JSON it allows comments (say *why* a move is there), and
unlike YAML it has no indentation traps and no values that silently change type
(``no`` stays a string). A scenario names the game, seats, options and seed, optionally
a pinned setup (``setup``: the keys of the game's ``Game.SETUP``, e.g. each seat's cards,
the top of the deck, VP, Patience, the Shift or the round: a late-game position in a few
lines), then the moves in their text form, then ``[[expect]]`` entries: what must hold
after a given move. ``stream = "keyed"`` (written by :meth:`Scenario.from_match` for a
game whose seed was drawn) deals from the keyed stream; without it the seed deals as it
always has (see :mod:`playtest.engine.rng`)::

    title = "Stale claim"
    game = "lazy_sunday"
    seats = 3
    seed = 7
    moves = ["0 peek 0 1", "0 done"]

    [setup]
    done = ["Nap"]

    [[expect]]
    after = 2                        # 0 = right after the setup
    to_act = [1]
    legal = ["1 peek 0 1"]
    illegal = [{ move = "0 draw", ruling = "LS-3" }]

    [expect.view]                    # dotted paths into a view -> value
    "done.top.name" = "Nap"

Besides equality, an ``[[expect]]`` entry says what a tester means (see
:class:`Expectation`): ``none`` / ``absent`` (TOML has no null), ``length``,
``contains``, ``unordered``, ``change`` and ``unchanged`` relative to the previous
position or to an earlier one (``since``: a move number, or the ``name`` of an earlier
entry), a seat's memory (paths ``memory.*`` with ``seat``), the log a seat reads
(``log``, ``log_hides``), and illegal moves in one line (``illegal = ["1 excuse"]``),
each tried and required to leave the state exactly as it was::

    [[expect]]
    after = 4
    name = "before the attack"
    seat = 1
    length = { "hand" = 6 }
    contains = { "hand" = ["Excuse"] }           # a card name matches a card
    none = ["pending"]
    illegal = ["1 excuse", { move = "0 end", ruling = "CR-7" }]

    [[expect]]
    after = 7
    since = "before the attack"
    change = { "hand_sizes.1" = -2, "vp.0" = 4 }   # a number's difference, a list's length's
    log = ["Excuse"]                               # text in a line of moves 5..7
    log_hides = ["Done"]

Loading checks everything, down to replaying every move and reading every path of every
expectation where it is checked: a mistake in the file (an unknown path, with "did you
mean", a seat the game lacks, in ``seat`` or a path such as ``lists.7.0`` at 3 seats
(:func:`seat_mistake`, G-1), a value of the wrong type) is a :class:`ScenarioError` naming the file, the line
and the reason, never a failed expectation; nothing is half-loaded.
"""
from __future__ import annotations

import hashlib
import itertools
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Callable

import tomli_w
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from playtest.engine import (Game, IllegalMove, Match, Move, MoveSyntaxError, OptionError, RecordError, get_game,
                             ruling_lines)
from playtest.engine import limits
from playtest.engine.game import RULING_ID
from playtest.engine.match import write_atomically
from playtest.engine.rng import OLD_STREAM, Stream
from playtest.engine.errors import SHOWN_MOVES, nearest_first, requirements, suggest

from playtest.engine.errors import short_repr

from .lines import line_of

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib


class ScenarioError(RecordError):
    """A scenario that cannot be loaded or replayed.

    Attributes:
        source: where the scenario came from (a path, or e.g. ``"<scenario>"``).
        line: the 1-based line of the offending key, move or expectation, or None.
        reason: what is wrong and what is allowed.
    """

    def __init__(self, source: str, line: int | None, reason: str):
        self.source, self.line, self.reason = source, line, reason
        where = f"{source}, line {line}" if line else source
        super().__init__(f"{where}: {reason}")


class ScenarioMoveError(ScenarioError):
    """A move of the scenario is unreadable or illegal at its point.

    Attributes:
        number: the move's number (1-based); ``move``: its text; ``ruling``: the
            RULINGS id it breaks ("" when unreadable or simply not on offer);
            ``legal``: the moves its seat could make instead (the message names the
            legal moves of every seat nearest to it, see :func:`nearest_moves`);
            ``scenario``: the scenario as written (its moves before ``number`` replay
            fine); ``mistake``: True when the move could be no move of the game in
            any position (unreadable, a seat or kind the game lacks: a typo in the
            file, ``playtest replay`` exits 2), False for a rules result (exit 1).
    """

    def __init__(self, source, line, reason, number: int, move: str, ruling: str = "", legal=(),
                 scenario: "Scenario | None" = None, mistake: bool = False):
        super().__init__(source, line, reason)
        self.number, self.move, self.ruling, self.legal, self.scenario = number, move, ruling, list(legal), scenario
        self.mistake = mistake


# --- the format -------------------------------------------------------------------------
class Refusal(BaseModel):
    """An ``illegal`` expectation: ``move`` (text form) must be refused, with ``ruling``
    (a RULINGS id such as ``"LS-7"``; left out, any refusal will do), and trying it must
    leave the state exactly as it was. In a file, a plain string is a Refusal without a
    ruling: ``illegal = ["1 excuse"]``."""

    model_config = ConfigDict(extra="forbid")
    move: str
    ruling: str | None = None


class OutcomeExpectation(BaseModel):
    """An ``outcome`` expectation: ``finished`` (False: still going or stopped by G-4),
    and when given, the ``winners`` (seats)."""

    model_config = ConfigDict(extra="forbid")
    finished: bool = Field(strict=True)
    winners: list[Annotated[int, Field(strict=True)]] | None = None


Count = Annotated[int, Field(strict=True, ge=0)]
Number = Annotated[int, Field(strict=True)] | Annotated[float, Field(strict=True)]
Position = Annotated[int, Field(strict=True, ge=0)]
PATH_CHECKS = ("view", "none", "absent", "length", "contains", "unordered", "change", "unchanged")
"""The fields of :class:`Expectation` that read paths of a view (and a seat's memory)."""


class Expectation(BaseModel):
    """One ``[[expect]]`` entry: what must hold after move ``after`` (0: right after the
    setup). Every field left out is not checked.

    Attributes:
        after: the move number (int 0+).
        name: (str) names this position for a later entry's ``since``.
        seat: whose view the paths read (int; left out: the spectator's); also whose
            memory (``memory.*`` paths, LS-11: a Lazy Sunday seat's bot memory, per list
            and position the card name it remembers, None for none) and whose log.
        to_act: the seats with a decision, in order (list of int).
        view: dotted path -> value: equal (list items by index, e.g.
            ``"lists.0.1.face_up"``; ``-1`` is the last).
        none: paths whose value is None (TOML has no null).
        absent: paths that lead nowhere now: a list position past its end (or under a
            None), e.g. ``"lists.0.5"`` once that list has 5 cards.
        length: path -> the length (int 0+) of the list, table or text there.
        contains: path -> an item or a list of items the list there holds (each as
            often as named); an item that is a card name matches a card (a table with
            that ``name``); on a text, each item is a piece of it.
        unordered: path -> a list equal to the list there in any order (card names
            match cards, as for ``contains``).
        since: the earlier position ``change``, ``unchanged`` and the log read from: a
            move number below ``after``, or the ``name`` of an entry checked earlier;
            left out, the position right before (``after - 1``).
        change: path -> the difference from ``since`` (int or float): of the number
            there, or of the length of the list there ("the hand grew by 2").
        unchanged: paths whose value equals the one at ``since``.
        log: texts that each appear in a line of the log of moves ``since+1..after``
            (move ``after`` alone by default; the setup's lines for ``after = 0``), as
            ``seat`` reads it (the spectator's when left out).
        log_hides: texts that no such line holds (e.g. a card's name kept secret).
        legal: move texts that must be legal.
        illegal: :class:`Refusal` entries (or plain move texts); each is also tried,
            and must leave the state exactly as it was.
        outcome: :class:`OutcomeExpectation` (``{finished = false}`` also matches a
            game still going).
        fingerprint: sha256 hex of :meth:`Match.fingerprint`: the exact state.

    A path or value the view cannot have (an unknown key, a position that is not a
    number, a length of a number, a ``since`` that names nothing) is a mistake in the
    file: :meth:`Scenario.from_toml` refuses it with its line and, for a misspelt key,
    the nearest one ("did you mean"); :meth:`Scenario.verify` raises
    :class:`ScenarioError` for it.
    """

    model_config = ConfigDict(extra="forbid")
    after: int = Field(ge=0, strict=True)
    name: str | None = Field(None, min_length=1)
    seat: int | None = Field(None, strict=True)
    to_act: list[Annotated[int, Field(strict=True)]] | None = None
    view: dict[str, Any] | None = None
    none: list[str] = []
    absent: list[str] = []
    length: dict[str, Count] = {}
    contains: dict[str, Any] = {}
    unordered: dict[str, list] = {}
    since: Position | str | None = None
    change: dict[str, Number] = {}
    unchanged: list[str] = []
    log: list[str] = []
    log_hides: list[str] = []
    legal: list[str] = []
    illegal: list[Refusal] = []
    outcome: OutcomeExpectation | None = None
    fingerprint: str | None = Field(None, pattern=r"^[0-9a-f]{64}$")

    @field_validator("illegal", mode="before")
    @classmethod
    def _plain_moves(cls, value):
        """``"1 excuse"`` is ``{move = "1 excuse"}``."""
        if isinstance(value, list):
            return [{"move": item} if isinstance(item, str) else item for item in value]
        return value

    def count(self) -> int:
        """How many checks this entry makes (each path, move, text and field)."""
        sized = (self.view or {}, self.none, self.absent, self.length, self.contains, self.unordered, self.change,
                 self.unchanged, self.log, self.log_hides, self.legal, self.illegal)
        return (sum(map(len, sized)) + (self.to_act is not None) + (self.outcome is not None)
                + (self.fingerprint is not None))


@dataclass(frozen=True)
class Failure:
    """An expectation that did not hold.

    Attributes:
        entry: which ``[[expect]]`` entry (1-based, in file order).
        after: the move number it is checked after; ``move``: that move's text ("" for 0).
        expectation: what was checked, e.g. ``"view (spectator) 'done.top.name'"``.
        expected, found: the expected value and what the game showed instead.
        detail: where they differ, in words, never cut (e.g. ``"lists.0.3.name:
            expected 'Nap', found 'Make the Bed'"``); "" when the values say it all.
        name: the entry's ``name`` ("" when it has none), shown beside its number.
    """

    entry: int
    after: int
    move: str
    expectation: str
    expected: Any
    found: Any
    detail: str = ""
    name: str = ""              # the entry's name, if it has one

    def __str__(self) -> str:
        when = f"after move {self.after} ({self.move})" if self.after else "after the setup (move 0)"
        detail = f" ({self.detail})" if self.detail else ""
        entry = f"[[expect]] #{self.entry}" + (f" ({self.name!r})" if self.name else "")
        return (f"{entry}, {when}: {self.expectation}: expected {shown(self.expected)}, "
                f"found {shown(self.found)}{detail}")


@dataclass(frozen=True)
class Report:
    """What :meth:`Scenario.report` checked.

    Attributes:
        failures: the expectations that failed (list of :class:`Failure`), in order.
        entries: how many ``[[expect]]`` entries were checked (those reached).
        checks: how many single checks they made (see :meth:`Expectation.count`).
        unreached: entries after the last move replayed (``upto``), not checked.
    """

    failures: list[Failure]
    entries: int
    checks: int
    unreached: int


def state_hash(match: Match) -> str:
    """sha256 hex of ``match.fingerprint()``: the exact position, random stream included."""
    return hashlib.sha256(match.fingerprint().encode()).hexdigest()


class PathMistake(Exception):
    """A view path that no position of the game can have (an unknown key, a position
    that is not a number, a part under a number or a text): a mistake in the file.
    ``args[0]`` says which part, what is there and the nearest key."""


@dataclass(frozen=True)
class Nowhere:
    """What a path finds where it leads nowhere *in this position*: a list position past
    its end, or a part under a None. ``reason`` says which. Two Nowheres are equal."""

    reason: str

    def __eq__(self, other) -> bool:
        return isinstance(other, Nowhere)

    def __hash__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return f"nothing ({self.reason})"


def lookup(view: Any, path: str) -> Any:
    """The value at a dotted ``path`` in ``view`` (``"done.top.name"``, ``"lists.0.-1"``).

    Returns:
        The value, or a :class:`Nowhere` when the path leads nowhere in this position (a
        list position past its end, a part under a None).

    Raises:
        PathMistake: a key the table there does not have (the message names the nearest
            one and all of them), a list position that is not a whole number, a part
            under a number, text or true/false, or an empty part.
    """
    parts = path.split(".")
    here = view
    for depth, part in enumerate(parts):
        where = ".".join(parts[:depth]) or "the view"
        if part == "":
            raise PathMistake(f"{path!r} has an empty part: write keys and positions with one dot between, "
                              f"e.g. 'lists.0.1'")
        if isinstance(here, dict):
            if part not in here:
                keys = ", ".join(map(str, here)) or "nothing"
                raise PathMistake(f"{where} has no {part!r}{suggest(part, [str(k) for k in here]) or '.'} "
                                  f"It has: {keys}")
            here = here[part]
        elif isinstance(here, list):
            if not (part.lstrip("-").isdigit() and part.count("-") <= 1):
                raise PathMistake(f"{where} is a list: use a position 0, 1, 2, ... (-1 for the last), not {part!r}")
            if not -len(here) <= int(part) < len(here):
                return Nowhere(f"{where} has {len(here)} entries, no position {part}")
            here = here[int(part)]
        elif here is None:
            return Nowhere(f"{where} is None")
        else:
            raise PathMistake(f"{where} is {short_repr(here)}, which has no {part!r}")
    return here


def view_value(view: dict, path: str) -> Any:
    """The value at a dotted ``path`` in a view (``"done.top.name"``, ``"lists.0.1"``).

    Raises:
        KeyError: the path leads nowhere; the message says which part is missing and
            what is there instead (see :func:`lookup`).
    """
    try:
        found = lookup(view, path)
    except PathMistake as exc:
        raise KeyError(exc.args[0]) from None
    if isinstance(found, Nowhere):
        raise KeyError(found.reason)
    return found


class Scenario(BaseModel):
    """A scenario file's content (see the module docstring for the TOML form).

    Fields: ``title``, ``description`` (text; cite the ruling ids it shows), ``game``
    (registry name), ``seats``, ``options`` (name -> value; left out: RULINGS defaults),
    ``seed`` (the G-3 stream's seed), ``stream`` (``"mt"``, the default, or ``"keyed"``:
    see :mod:`playtest.engine.rng`), ``setup`` (pinned setup, the keys of the game's
    ``SETUP``), ``moves`` (text forms, as ``str(Move)``), ``expect``
    (:class:`Expectation` entries).

    Build one with :meth:`from_toml`, :meth:`load`, :meth:`from_match` or
    :func:`playtest.scenarios.example`; they check it in full. A Scenario built
    directly is checked when it is replayed (:meth:`to_match`, :meth:`verify`).
    """

    model_config = ConfigDict(extra="forbid")

    title: str = ""
    description: str = ""
    game: str
    seats: int = Field(ge=1, strict=True)
    options: dict[str, Any] = {}
    seed: int = Field(0, ge=0, strict=True)
    stream: Stream = OLD_STREAM
    setup: dict[str, Any] = {}
    moves: list[str] = []
    expect: list[Expectation] = []

    # --- loading ----------------------------------------------------------------------
    @classmethod
    def from_toml(cls, text: str | bytes, source: str = "<scenario>") -> "Scenario":
        """Read a scenario from TOML text and check it in full: the game, options and
        pinned setup are set up, every move is replayed, every expectation is well formed.
        The text must keep the input limits (:mod:`playtest.engine.limits`: at most
        1 MiB, nested at most 32 deep, dotted keys of at most 8 parts, numbers of at most
        40 digits, ...); they are checked before it is parsed.

        Args:
            text: the TOML (str, or UTF-8 bytes; a byte order mark is dropped).
            source: how messages name it (a file name, ``"<scenario>"``).

        Raises:
            ScenarioError: the message names ``source``, the line and the reason (over an
                input limit, TOML syntax, a missing or unknown field (with "did you
                mean"), unknown game, bad option, bad setup key, card or value, an
                expectation after a move that does not exist, a path no view has or a
                value of the wrong type in an expectation, ...).
            ScenarioMoveError: a move is unreadable or illegal (with its number, text,
                ruling and the legal alternatives).
        """
        try:
            if not isinstance(text, str):
                text = limits.decode(text, source)
            text = text.removeprefix("\ufeff")   # a UTF-8 byte order mark, as some Windows editors save
            data = limits.load_toml(text, source)
        except limits.LimitError as exc:
            raise ScenarioError(source, exc.line, exc.reason) from None
        except tomllib.TOMLDecodeError as exc:
            message = str(exc)
            if text.lstrip().startswith("{") and '"moves"' in text:
                raise ScenarioError(source, None, "this is a game record (JSON), not a scenario (TOML): load it "
                                    "with a dashboard's 'Load record or scenario', or turn it into a scenario "
                                    "with Scenario.from_match(Match.load(path)).save('case.toml')") from None
            raise ScenarioError(source, _toml_line(message), f"not valid TOML: {_toml_words(message)}") from None
        if not text.strip():
            raise ScenarioError(source, None, "the file is empty: a scenario names at least its game, seats "
                                "and moves (see the Scenarios page of the documentation)")
        try:
            scenario = cls.model_validate(data)
        except ValidationError as exc:
            first = exc.errors()[0]
            problems = "; ".join(_problem(e) for e in _merge_unions(exc.errors()))
            raise ScenarioError(source, line_of(text, first["loc"]), f"not a valid scenario: {problems}") from None
        scenario._check(source, lambda path: line_of(text, path))
        return scenario

    @classmethod
    def load(cls, path: str | os.PathLike) -> "Scenario":
        """Read and check a scenario file (see :meth:`from_toml`; at most 1 MiB is read).

        Raises:
            ScenarioError: the file cannot be read as UTF-8 text, is over 1 MiB, or see
                :meth:`from_toml`.
        """
        try:
            text = limits.read_text(path, str(path))
        except limits.LimitError as exc:
            raise ScenarioError(str(path), exc.line, f"cannot read the scenario: {exc.reason}") from None
        except OSError as exc:
            reason = exc.strerror or "it cannot be read"
            raise ScenarioError(str(path), None, f"cannot read the scenario: {reason}") from None
        return cls.from_toml(text, str(path))

    def _check(self, source: str, where: Callable[[tuple], int | None]) -> None:
        """Check the expectations' form, then replay everything once, reading every path
        where it is checked; raise ScenarioError (with lines from ``where``)."""
        match = self._build(source, where, 0, keep_log=False)
        number_of_moves, seats = len(self.moves), match.game.seats
        for n, text in enumerate(self.moves):
            mistake = move_mistake(match.game, text)
            if mistake:
                raise ScenarioMoveError(source, where(("moves", n)), f"move {n + 1} ({short_repr(text)}): {mistake}",
                                        n + 1, text, scenario=self, mistake=True)
        known = known_rulings(self.game)
        for k, entry in enumerate(self.expect):
            def bad(reason, *key):
                raise ScenarioError(source, where(("expect", k, *key)), f"[[expect]] #{k + 1}: {reason}")
            if entry.after > number_of_moves:
                bad(f"after = {entry.after}, but the scenario has {number_of_moves} moves (use 0..{number_of_moves})",
                    "after")
            for seat in ([entry.seat] if entry.seat is not None else []) + list(entry.to_act or []):
                if not 0 <= seat < seats:
                    bad(f"{seat} is not a seat of this {seats}-seat game (0..{seats - 1}, G-1)",
                        "seat" if seat == entry.seat else "to_act")
            for field in PATH_CHECKS:
                for path in getattr(entry, field) or ():
                    mistake = seat_mistake(match.game, path)
                    if mistake:    # no position of this game can have it: a typo, not a rules result
                        bad(f"{field} {path!r}: {mistake}", field, path)
            for text, key in [*((t, "legal") for t in entry.legal), *((r.move, "illegal") for r in entry.illegal)]:
                mistake = move_mistake(match.game, text)
                if mistake:    # a move no position could offer: a typo, not a rules result
                    bad(f"{key} {short_repr(text)}: {mistake}", key)
            for refusal in entry.illegal:
                if refusal.ruling is not None and refusal.ruling not in known:
                    bad(f"illegal {refusal.move!r}: {short_repr(refusal.ruling)} is not a {match.game.title} "
                        f"ruling id; its ids: {_id_ranges(known)}", "illegal")
            if entry.outcome and entry.outcome.winners and any(not 0 <= w < seats for w in entry.outcome.winners):
                bad(f"outcome winners {entry.outcome.winners} are not all seats 0..{seats - 1}", "outcome")
        self._run(source, where, None)

    def _since(self, source: str, where: Callable[[tuple], int | None]) -> dict[int, int]:
        """Entry index (0-based) -> the position its ``change``, ``unchanged`` and log
        read from, for the entries that read one.

        Raises:
            ScenarioError: a ``since`` that is not earlier than ``after``, names no
                entry (with "did you mean") or an entry not earlier, a name used twice,
                a ``since`` with nothing to read it, or ``change``/``unchanged`` after
                move 0 (nothing is earlier).
        """
        names: dict[str, int] = {}
        for k, entry in enumerate(self.expect):
            if entry.name is not None:
                if entry.name in names:
                    raise ScenarioError(source, where(("expect", k, "name")), f"[[expect]] #{k + 1}: name "
                                        f"{entry.name!r} is already the name of [[expect]] #{names[entry.name] + 1}")
                names[entry.name] = k
        found = {}
        for k, entry in enumerate(self.expect):
            def bad(reason, key="since"):
                raise ScenarioError(source, where(("expect", k, key)), f"[[expect]] #{k + 1}: {reason}")
            reads = bool(entry.change or entry.unchanged)
            if not (reads or entry.log or entry.log_hides):
                if entry.since is not None:
                    bad("since names the earlier position that change, unchanged, log and log_hides read; "
                        "this entry has none of them")
                continue
            if entry.since is None:
                if reads and entry.after == 0:
                    bad("change and unchanged compare with an earlier position, and after = 0 is the first",
                        "change" if entry.change else "unchanged")
                found[k] = entry.after - 1
                continue
            if isinstance(entry.since, str):
                if entry.since not in names:
                    listed = ", ".join(map(repr, names)) or "none"
                    bad(f"since = {entry.since!r} names no [[expect]] entry{suggest(entry.since, list(names)) or '.'}"
                        f" Names: {listed}")
                position, what = self.expect[names[entry.since]].after, f"{entry.since!r} (after move "
                what += f"{self.expect[names[entry.since]].after})"
            else:
                position, what = entry.since, f"{entry.since}"
            if position >= entry.after:
                bad(f"since = {what} is not earlier than after = {entry.after}")
            found[k] = position
        return found

    def _play(self, match: Match, number: int, source: str, where: Callable[[tuple], int | None]) -> None:
        """Play move ``number`` (1-based) of the scenario on ``match``.

        Raises:
            ScenarioMoveError: unreadable, or illegal: the message names the ruling and
                the legal moves nearest to the one tried (same seat and kind first).
        """
        text = self.moves[number - 1]
        try:
            match.play(text)
        except MoveSyntaxError as exc:
            raise ScenarioMoveError(source, where(("moves", number - 1)), f"move {number} ({short_repr(text)}): {exc}",
                                    number, text, scenario=self) from None
        except IllegalMove as exc:
            ruling = f" ({exc.ruling})" if exc.ruling else ""
            raise ScenarioMoveError(
                source, where(("moves", number - 1)),
                f"move {number} ({short_repr(text)}) is illegal{ruling}: {exc.reason}. "
                f"{nearest_moves(match, exc.move)}",
                number, text, exc.ruling, exc.legal, self) from None

    def _build(self, source: str, where: Callable[[tuple], int | None], upto: int | None,
               keep_log: bool) -> Match:
        """The match with the first ``upto`` moves (all when None) replayed."""
        try:
            match = Match(self.game, self.seats, self.options, self.seed, keep_log, self.setup, self.stream)
        except OptionError as exc:
            message = str(exc)
            path = _blame(message, self)
            raise ScenarioError(source, where(path), f"cannot set up the game: {message}") from None
        for number in range(1, len(self.moves[:upto]) + 1):
            self._play(match, number, source, where)
        return match

    def _run(self, source: str, where: Callable[[tuple], int | None], upto: int | None) -> Report:
        """Replay up to move ``upto`` (all when None), checking every entry reached."""
        last = len(self.moves) if upto is None else upto
        since = self._since(source, where)
        match = self._build(source, where, 0, keep_log=any(e.log or e.log_hides for e in self.expect))
        title = match.game.title
        wanted: dict[int, set] = {}          # position -> seats whose views a later entry compares with
        for k, position in since.items():
            if self.expect[k].change or self.expect[k].unchanged:
                wanted.setdefault(position, set()).add(self.expect[k].seat)
        kept: dict[tuple[int, int | None], dict] = {}
        by_move: dict[int, list[int]] = {}
        for k, entry in enumerate(self.expect):
            by_move.setdefault(entry.after, []).append(k)
        failures, entries, checks = [], 0, 0
        for number in range(last + 1):
            if number:
                self._play(match, number, source, where)
            for seat in wanted.get(number, ()):
                kept[(number, seat)] = _document(match, seat)
            for k in by_move.get(number, ()):
                entry = self.expect[k]
                earlier = kept.get((since[k], entry.seat)) if k in since else None
                try:
                    failures += _check_entry(match, title, k + 1, entry, self.moves[number - 1] if number else "",
                                             since.get(k), earlier)
                except _Mistake as exc:
                    key, path = exc.args[1], exc.args[2]
                    raise ScenarioError(source, where(("expect", k, key, *([path] if path else []))),
                                        f"[[expect]] #{k + 1}, {key}{f' {path!r}' if path else ''}: "
                                        f"{exc.args[0]}") from None
                entries += 1
                checks += entry.count()
        return Report(failures, entries, checks, sum(1 for e in self.expect if e.after > last))

    # --- replaying ----------------------------------------------------------------------
    def to_match(self, upto: int | None = None, keep_log: bool = True) -> Match:
        """A live Match: the pinned setup, then the first ``upto`` moves (default all).
        Its record is the scenario's line, so it rewinds and branches like any match.

        Raises:
            ScenarioError: the game cannot be set up (unknown game, bad option or setup).
            ScenarioMoveError: a move is unreadable or illegal (number, text, ruling).
            IndexError: ``upto`` is outside 0..len(moves).
        """
        if upto is not None and (type(upto) is not int or not 0 <= upto <= len(self.moves)):
            raise IndexError(f"upto={upto!r}: this scenario has moves 0..{len(self.moves)}")
        return self._build(self._label(), lambda path: None, upto, keep_log)

    def verify(self, upto: int | None = None) -> list[Failure]:
        """Replay the scenario and check every expectation (those after moves up to
        ``upto`` only, when given).

        Returns:
            The expectations that failed, in order; empty when all hold.

        Raises:
            ScenarioError / ScenarioMoveError: as :meth:`to_match`; ScenarioError also
                for a mistake in an expectation (an unknown path, a ``since`` naming
                nothing: see :class:`Expectation`).
            IndexError: ``upto`` is outside 0..len(moves).
        """
        return self.report(upto).failures

    def report(self, upto: int | None = None) -> Report:
        """Like :meth:`verify`, and also how much was checked (a file that checks
        nothing says so: ``Report.checks == 0``).

        Raises:
            as :meth:`verify`.
        """
        if upto is not None and (type(upto) is not int or not 0 <= upto <= len(self.moves)):
            raise IndexError(f"upto={upto!r}: this scenario has moves 0..{len(self.moves)}")
        return self._run(self._label(), lambda path: None, upto)

    def final_fingerprint(self) -> str:
        """sha256 hex of the fingerprint after the last move (see :func:`state_hash`)."""
        return state_hash(self.to_match(keep_log=False))

    # --- exporting ----------------------------------------------------------------------
    @classmethod
    def from_match(cls, match: Match, title: str = "", description: str = "", upto: int | None = None,
                   expect_final: bool = True) -> "Scenario":
        """The line of ``match`` as a scenario: its game, seats, options that differ from
        the defaults, seed, pinned setup, and its record's moves up to ``upto`` (default:
        the cursor, so a rewound match exports what it shows).

        Args:
            expect_final: add an expectation pinning the final position: who is to act,
                the outcome once the game is over, and the exact state's fingerprint.

        Raises:
            IndexError: ``upto`` outside 0..len(match.moves).
            ScenarioError: an option whose value TOML cannot hold (None where the
                default is not None).
        """
        upto = match.cursor if upto is None else upto
        if type(upto) is not int or not 0 <= upto <= len(match.moves):
            raise IndexError(f"upto={upto!r}: the match has moves 0..{len(match.moves)}")
        defaults = {name: f.default for name, f in type(match.game).Options.model_fields.items()}
        options = {}
        for name, value in match.options_dict().items():
            if value == defaults.get(name, object()):
                continue
            if value is None:
                raise ScenarioError("<match>", None, f"option {name}=None cannot be written in TOML")
            options[name] = value
        scenario = cls(title=title, description=description, game=match.game.name, seats=match.game.seats,
                       options=options, seed=match.seed, stream=match.stream, setup=dict(match.setup),
                       moves=[str(m) for m in match.moves[:upto]])
        if expect_final:
            final = scenario.to_match(keep_log=False)
            outcome = final.outcome()
            scenario.expect.append(Expectation(
                after=upto, to_act=list(final.to_act()), fingerprint=state_hash(final),
                outcome=outcome and OutcomeExpectation(finished=outcome.finished, winners=list(outcome.winners))))
        return scenario

    def to_toml(self) -> str:
        """The scenario as TOML text (fields left at their defaults are left out);
        ``Scenario.from_toml(s.to_toml()) == s``."""
        data = self.model_dump(exclude_defaults=True)
        data["expect"] = [e.model_dump(exclude_defaults=True) for e in self.expect]
        for entry in data["expect"]:
            if "illegal" in entry:
                entry["illegal"] = [{k: v for k, v in r.items() if v is not None} for r in entry["illegal"]]
        if not data["expect"]:
            del data["expect"]
        order = ["title", "description", "game", "seats", "seed", "stream", "moves", "options", "setup", "expect"]
        data = {key: data[key] for key in order if key in data}
        header = (f"# playtest scenario ({self.game}): replay with `playtest replay FILE`, or "
                  f"Scenario.load(FILE) in Python.\n# Moves are in their text form; [[expect]] entries "
                  f"say what must hold after move `after` (0 = after the setup).\n")
        return header + compact_arrays(tomli_w.dumps(data, multiline_strings=True))

    def save(self, path: str | os.PathLike) -> Path:
        """Write :meth:`to_toml` to ``path`` atomically (a crash never leaves half a
        file). Returns the path.

        Raises:
            OSError: the folder does not exist or cannot be written.
        """
        return write_atomically(path, self.to_toml())

    def to_pytest(self, name: str = "test_scenario") -> str:
        """The source of a pytest module that embeds this scenario's TOML and checks that
        every expectation holds and the final position is exactly today's.

        Args:
            name: the test function's name (a Python identifier starting ``test``).

        Raises:
            ValueError: ``name`` is not such an identifier.
            ScenarioError / ScenarioMoveError: the scenario does not replay.
        """
        if not (name.isidentifier() and name.startswith("test")):
            raise ValueError(f"{name!r} is not a pytest test name: use an identifier starting with 'test'")
        text = self.to_toml()
        literal = f"r'''\n{text}'''" if "'''" not in text and not text.endswith("\\") else repr(text)
        title = self.title or f"a {self.game} scenario"
        return (f'"""Regression test exported from the playtest scenario {title!r}.\n\n'
                f'Edit the TOML below to change the scenario; run with `python -m pytest THIS_FILE`.\n"""\n'
                f"from playtest.scenarios import Scenario\n\n"
                f"SCENARIO = {literal}\n"
                f"FINAL_FINGERPRINT = {self.final_fingerprint()!r}\n\n\n"
                f"def {name}():\n"
                f"    scenario = Scenario.from_toml(SCENARIO, source={name!r})\n"
                f"    failures = scenario.verify()\n"
                f"    assert not failures, \"\\n\".join(map(str, failures))\n"
                f"    assert scenario.final_fingerprint() == FINAL_FINGERPRINT, "
                f"\"the final position changed\"\n")

    def _label(self) -> str:
        return f"scenario {self.title!r}" if self.title else f"{self.game} scenario"


class _Mistake(Exception):
    """A mistake in an expectation found while checking it: ``(reason, field, path)``."""


def _document(match: Match, seat: int | None) -> dict:
    """What an expectation's paths read: the view of ``seat`` (None: the spectator's),
    plus ``"memory"`` from the seat's bot view when the game keeps one (LS-11)."""
    view = match.view(seat)
    if seat is not None:
        memory = match.bot_view(seat).get("memory")
        if memory is not None:
            view["memory"] = memory
    return view


def _read(document: dict, path: str, field: str, seat: int | None, title: str,
          everything: Callable[[], dict] | None = None) -> Any:
    """:func:`lookup` of ``path``, a mistake in the file raised as :class:`_Mistake`.

    A path the view lacks but the all-cards view has (``everything()``, e.g. the
    ``name`` of a card face-down to this seat) is not a mistake: it leads nowhere for
    this viewer (a :class:`Nowhere`), which ``absent`` expects."""
    if path.split(".")[0] == "memory" and "memory" not in document:
        raise _Mistake("'memory' is what a seat remembers: add seat = N to this [[expect]]" if seat is None else
                       f"{title} keeps no memory apart from the view (LS-11 is Lazy Sunday's)", field, path)
    try:
        return lookup(document, path)
    except PathMistake as exc:
        if everything is not None:
            try:
                if not isinstance(lookup(everything(), path), Nowhere):
                    who = f"seat {seat}" if seat is not None else "the spectator"
                    return Nowhere(f"not shown to {who}")
            except PathMistake:
                pass
        raise _Mistake(exc.args[0], field, path) from None


_SCALAR = r'(?:"(?:[^"\\\n]|\\.)*"|-?[0-9][0-9_.eE+-]*|true|false|\[[^\n]*\])'
_ARRAY = re.compile(r"\[\n((?:[ ]*" + _SCALAR + r",\n)+)[ ]*\]")
ARRAY_WIDTH = 80
"""Longest array (in characters) :func:`compact_arrays` writes on one line."""


def compact_arrays(text: str) -> str:
    """``tomli_w`` text with every array of plain values (text, numbers, true/false, or
    arrays of those already on one line) that fits in :data:`ARRAY_WIDTH` characters
    written on one line: ``memory = [[[0, 0], [0, 1]], []]`` instead of 15 lines (tomli_w
    always writes an item per line). The result reads back to the same data, or the text
    is returned unchanged."""
    def one_line(found: re.Match) -> str:
        items = [line.strip().removesuffix(",") for line in found.group(1).splitlines()]
        inline = "[" + ", ".join(items) + "]"
        return inline if len(inline) <= ARRAY_WIDTH else found.group(0)

    compact = text
    while True:                           # inner arrays first, then the arrays holding them
        shorter = _ARRAY.sub(one_line, compact)
        if shorter == compact:
            break
        compact = shorter
    return compact if tomllib.loads(compact) == tomllib.loads(text) else text


def shown(value: Any) -> str:
    """A value in a failure message: a text, number or fingerprint whole (up to 300
    characters), a list by its items with each card by its name (up to 1,000
    characters, then how many in all), a :class:`Nowhere` as what it is."""
    if isinstance(value, list):
        text = "[" + ", ".join(map(_label, value)) + "]"
        if len(text) > 1000:
            text = text[:980].rsplit(", ", 1)[0] + f", ... ({len(value)} in all)]"
        return text
    return repr(value) if isinstance(value, Nowhere) else _full(value)


def _full(value: Any) -> str:
    """``repr(value)``, cut only past 300 characters: the part of a message that matters."""
    text = repr(value)
    return text if len(text) <= 300 else text[:296] + " ..."


def difference(expected: Any, found: Any, path: str = "") -> str:
    """Where ``found`` first differs from ``expected``, in words, naming the element:
    ``"lists.0.3.name: expected 'Nap', found 'Make the Bed'"``, ``"hand has 5 entries,
    expected 6; missing from position 5 on, first 'Nap'"``; "" when they are equal."""
    if expected == found:
        return ""
    here = path or "the value"
    if isinstance(expected, list) and isinstance(found, list):
        sizes = "" if len(expected) == len(found) else (f"{here} has {len(found)} entr{'y' if len(found) == 1 else 'ies'}"
                                                        f", expected {len(expected)}; ")
        for i, (e, f) in enumerate(zip(expected, found)):
            if e != f:
                return sizes + difference(e, f, f"{path}.{i}" if path else str(i))
        if len(found) > len(expected):
            return sizes + f"not expected from position {len(expected)} on, first {_full(found[len(expected)])}"
        return sizes + f"missing from position {len(found)} on, first {_full(expected[len(found)])}"
    if isinstance(expected, dict) and isinstance(found, dict):
        for key in expected:
            if key not in found:
                return f"{path + '.' if path else ''}{key}: expected {_full(expected[key])}, found no such key"
            if expected[key] != found[key]:
                return difference(expected[key], found[key], f"{path}.{key}" if path else str(key))
        return f"{here}: keys not expected: {', '.join(map(str, (k for k in found if k not in expected)))}"
    return f"{here}: expected {_full(expected)}, found {_full(found)}"


def _same(item: Any, element: Any) -> bool:
    """An expected item matches a list element: equal, or a card name and a card (a
    table with that ``name``)."""
    return item == element or (isinstance(item, str) and isinstance(element, dict) and element.get("name") == item)


def _label(element: Any) -> str:
    named = isinstance(element, dict) and isinstance(element.get("name"), str)
    return repr(element["name"]) if named else _full(element)


def _match_items(items: list, elements: list) -> tuple[list, list]:
    """Pair each item with its own element: ``(items left unmatched, elements left)``."""
    rest, missing = list(elements), []
    for item in items:
        at = next((i for i, element in enumerate(rest) if _same(item, element)), None)
        if at is None:
            missing.append(item)
        else:
            rest.pop(at)
    return missing, rest


def _size(value: Any, field: str, path: str) -> int | None:
    """The length of a list, table or text (None for None or Nowhere).

    Raises:
        _Mistake: a number or true/false (it never has one)."""
    if value is None or isinstance(value, Nowhere):
        return None
    if isinstance(value, (list, dict, str)):
        return len(value)
    raise _Mistake(f"it is {short_repr(value)}, which has no length: {field} reads a list, a table or a text",
                   field, path)


def move_mistake(game: Game, text: str) -> str:
    """Why ``text`` can be no move of ``game`` in any position ("" when it could be one):
    unreadable (or over the move length limit), a seat the game does not have (G-1), a
    kind of move the game does not know (its ``MOVE_ARGS``; "did you mean"), or
    arguments no position takes (:meth:`Game.shape_problem`). A scenario
    holding one has a mistake in the file, not a rules result.

    Args:
        game: the Game (its ``seats`` and ``MOVE_ARGS``). text: a move's text form.
    """
    try:
        move = Move.parse(text)
    except MoveSyntaxError as exc:
        return str(exc)
    if not 0 <= move.seat < game.seats:
        return f"{move.seat} is not a seat of this {game.seats}-seat game (0..{game.seats - 1}, G-1)"
    kinds = list(type(game).MOVE_ARGS)
    if kinds and move.kind not in kinds:
        return f"{game.title} has no move {move.kind!r}{suggest(move.kind, kinds) or '.'} Its moves: {', '.join(kinds)}"
    return game.shape_problem(move)


def seat_mistake(game: Game, path: str) -> str:
    """Why the view ``path`` leads nowhere in any position of ``game`` because of its seat
    count ("" when it could lead somewhere): a part that is a seat (at a ``*`` that the
    game's ``VIEW_WORDS`` word as ``seat {i}``, e.g. Lazy Sunday's ``lists.*``, or the
    first part under ``memory``, one list per seat, LS-11) that is not a seat of the game
    (G-1), e.g. ``lists.7.0`` at 3 seats. A scenario holding one has a mistake in the
    file, not a failed expectation.

    Args:
        game: the Game (its ``seats`` and ``VIEW_WORDS``). path: a dotted view path.
    """
    parts, seats = path.split("."), game.seats
    for pattern, words in [*type(game).VIEW_WORDS.items(), ("memory.*", "seat {0}")]:
        keys = pattern.split(".")
        if len(keys) > len(parts) or any(key not in ("*", part) for key, part in zip(keys, parts)):
            continue
        stars = [i for i, key in enumerate(keys) if key == "*"]
        for n, i in enumerate(stars):
            part = parts[i]
            if f"seat {{{n}}}" in words and part.lstrip("-").isdigit() and not -seats <= int(part) < seats:
                return (f"{'.'.join(parts[:i])} has one entry per seat, and {part} is not a seat of this "
                        f"{seats}-seat game (0..{seats - 1}, G-1)")
    return ""


def nearest_moves(match: Match, tried: Move, limit: int = SHOWN_MOVES) -> str:
    """One sentence for an illegal move's message: the legal moves of every seat now,
    nearest to ``tried`` first (its seat, then its kind, then the most alike in text),
    at most ``limit`` of them, and how many there are in all when more.

    Args:
        match: the match at the position where ``tried`` was refused (at its end).
        tried: the refused move. limit: how many moves to name (int >= 1).
    """
    seats = range(match.game.seats)
    legal = list(dict.fromkeys(m for seat in seats for m in match.legal_moves(seat)))
    if not legal:
        return "Nobody has a legal move then."
    ranked = nearest_first(legal, tried)
    shown = ", ".join(map(str, ranked[:limit])) + (f", ... ({len(legal)} in all)" if len(legal) > limit else "")
    own = "" if any(m.seat == tried.seat for m in legal) else f" (seat {tried.seat} has none)"
    return f"Legal moves then, nearest first{own}: {shown}"


def _check_entry(match: Match, title: str, k: int, entry: Expectation, move: str, since: int | None,
                 earlier: dict | None) -> list[Failure]:
    """The failures of ``entry`` (the ``k``-th, 1-based) on ``match``.

    Args:
        since: the earlier position its change, unchanged and log read from (None when
            it reads none). earlier: the document (:func:`_document`) of its seat at
            ``since``, when it has change or unchanged.

    Raises:
        _Mistake: a mistake in the entry (an unknown path, a value of the wrong type).
    """
    failures = []
    seat = entry.seat

    def fail(what, expected, found, detail=""):
        failures.append(Failure(k, entry.after, move, what, expected, found, detail, entry.name or ""))

    if entry.to_act is not None and list(match.to_act()) != entry.to_act:
        fail("to_act", entry.to_act, list(match.to_act()))
    whose = f" of seat {seat}" if seat is not None else " (spectator)"
    document = _document(match, seat) if any(getattr(entry, f) for f in PATH_CHECKS) else {}

    def read(path, field, doc=document):
        return _read(doc, path, field, seat, title, match.all_cards_view)

    def unseen(found) -> str:
        """A hint when the spectator's view holds nothing where a seat's may."""
        return ("the spectator sees nothing there; add seat = N to read that seat's own view"
                if seat is None and (found is None or isinstance(found, Nowhere)) else "")

    for path, expected in (entry.view or {}).items():
        found = read(path, "view")
        if found != expected:
            fail(f"view{whose} {path!r}", expected, found,
                 difference(expected, found, path) if isinstance(expected, (list, dict)) and
                 isinstance(found, (list, dict)) else unseen(found))
    for path in entry.none:
        found = read(path, "none")
        if found is not None:
            fail(f"view{whose} {path!r} is none", None, found,
                 "nothing is there at all: absent says that" if isinstance(found, Nowhere) else "")
    for path in entry.absent:
        found = read(path, "absent")
        if not isinstance(found, Nowhere):
            fail(f"view{whose} {path!r} is absent", "nothing there", found,
                 "the value there is None: none says that" if found is None else "")
    for path, expected in entry.length.items():
        found = read(path, "length")
        size = _size(found, "length", path)
        if size != expected:
            fail(f"view{whose} {path!r} length", expected, found if size is None else size, unseen(found))
    for path, expected in entry.contains.items():
        found = read(path, "contains")
        items = expected if isinstance(expected, list) else [expected]
        if isinstance(found, str):
            if not all(isinstance(item, str) for item in items):
                raise _Mistake(f"it is a text: contains reads pieces of text there, not {short_repr(expected)}",
                               "contains", path)
            missing = [item for item in items if item not in found]
        elif isinstance(found, (list, dict)):
            missing = _match_items(items, found if isinstance(found, list) else list(found))[0]
        elif found is None or isinstance(found, Nowhere):
            missing = items
        else:
            raise _Mistake(f"it is {short_repr(found)}: contains reads a list, a table or a text", "contains", path)
        if missing:
            fail(f"view{whose} {path!r} contains", expected, found, f"missing: {', '.join(map(_label, missing))}")
    for path, expected in entry.unordered.items():
        found = read(path, "unordered")
        if not isinstance(found, list):
            if found is not None and not isinstance(found, Nowhere):
                raise _Mistake(f"it is {short_repr(found)}: unordered reads a list", "unordered", path)
            fail(f"view{whose} {path!r} in any order", expected, found, unseen(found))
            continue
        missing, extra = _match_items(expected, found)
        if missing or extra:
            detail = "; ".join(part for part in (
                missing and f"missing: {', '.join(map(_label, missing))}",
                extra and f"not expected: {', '.join(map(_label, extra))}") if part)
            fail(f"view{whose} {path!r} in any order", expected, found, detail)
    then = f"move {since}" if since else "the setup"
    if isinstance(entry.since, str):
        then = f"{entry.since!r} ({then})"
    for path, expected in entry.change.items():
        now, before = read(path, "change"), read(path, "change", earlier)
        numbers = [v for v in (now, before) if isinstance(v, (int, float)) and not isinstance(v, bool)]
        if len(numbers) == 2:
            delta, detail = now - before, f"{before} at {then}, {now} now"
        elif any(isinstance(v, bool) for v in (now, before)):
            raise _Mistake("it is true or false: change reads a number, or the length of a list", "change", path)
        elif numbers:
            raise _Mistake(f"it is {short_repr(now)} now and {short_repr(before)} at {then}: change reads a number "
                           f"at both, or a list at both", "change", path)
        elif any(isinstance(v, str) for v in (now, before)):
            raise _Mistake(f"it is a text ({short_repr(now)} now): change reads a number, or the length of a list "
                           f"or table", "change", path)
        else:
            sizes = [_size(now, "change", path), _size(before, "change", path)]
            delta = None if None in sizes else sizes[0] - sizes[1]
            detail = (f"{sizes[1]} entr{'y' if sizes[1] == 1 else 'ies'} at {then}, {sizes[0]} now" if delta is not None else
                      f"{short_repr(before)} at {then}, {short_repr(now)} now")
        if delta != expected:
            fail(f"view{whose} {path!r} change since {then}", expected, delta, detail)
    for path in entry.unchanged:
        now, before = read(path, "unchanged"), read(path, "unchanged", earlier)
        if now != before:
            fail(f"view{whose} {path!r} unchanged since {then}", before, now, difference(before, now, path))
    if entry.log or entry.log_hides:
        low = -1 if entry.after == 0 else since
        lines = [text for n, text in match.log_for(seat) if low < n <= entry.after]
        window = "the setup" if entry.after == 0 else (
            f"move {entry.after}" if low == entry.after - 1 else f"moves {low + 1}..{entry.after}")
        reader = f"seat {seat}" if seat is not None else "the spectator"
        for text in entry.log:
            if not any(text in line for line in lines):
                fail(f"log{whose} of {window}", text, lines, f"no line {reader} reads holds {text!r}")
        for text in entry.log_hides:
            shown = [line for line in lines if text in line]
            if shown:
                fail(f"log{whose} of {window} hides", text, shown, f"{reader} reads {text!r} in: {shown[0]}")
    for text in entry.legal:
        refusal = match.refusal(text)
        if refusal:
            fail(f"legal {text!r}", "legal", f"refused ({refusal.ruling})" if refusal.ruling else "refused",
                 refusal.reason)                               # the reason in full, never cut
    for r in entry.illegal:
        refusal = match.refusal(r.move)
        if refusal is None:
            fail(f"illegal {r.move!r}", f"refused ({r.ruling})" if r.ruling else "refused", "legal")
            continue
        if r.ruling is not None and refusal.ruling != r.ruling:
            fail(f"illegal {r.move!r} ruling", r.ruling, f"{refusal.ruling or 'no ruling'}: {refusal.reason}")
        changed = _try_illegal(match, r.move)
        if changed:
            fail(f"illegal {r.move!r} leaves the state unchanged", "unchanged", changed)
    if entry.outcome is not None:
        outcome = match.outcome()
        finished = bool(outcome and outcome.finished)
        if finished != entry.outcome.finished:
            fail("outcome finished", entry.outcome.finished, finished)
        elif entry.outcome.winners is not None and (outcome is None or list(outcome.winners) != entry.outcome.winners):
            fail("outcome winners", entry.outcome.winners, outcome and list(outcome.winners))
    if entry.fingerprint is not None and state_hash(match) != entry.fingerprint:
        fail("fingerprint (the exact state)", entry.fingerprint, state_hash(match))
    return failures


def _try_illegal(match: Match, text: str) -> str:
    """Play the refused move ``text`` on ``match``; "" when it is refused and leaves the
    state and the record exactly as they were, else what happened (the match is then
    put back as it was)."""
    before, moves = match.fingerprint(), len(match.moves)
    try:
        match.play(text)
    except (IllegalMove, MoveSyntaxError):
        pass
    else:                                   # refusal() and play() disagree: undo it
        del match.moves[moves:]
        match.goto(moves)
        return "it was played"
    if len(match.moves) != moves:
        return "the record changed"
    return "" if match.fingerprint() == before else "the state changed"


CITATION = re.compile(rf"\b{RULING_ID.pattern}(?:\.\.(?:\1-)?([1-9][0-9]*))?\b")
"""A ruling id as the kit's texts cite it (:data:`~playtest.engine.game.RULING_ID`), or a
range of one prefix (``"LS-1..LS-11"``, ``"LS-1..11"``); :func:`cited_rulings` reads them."""


def cited_rulings(text: str) -> set[str]:
    """Every ruling id ``text`` cites (:data:`CITATION`), a range counting each id in it:
    ``"LS-3 and CR-1..CR-3"`` -> ``{"LS-3", "CR-1", "CR-2", "CR-3"}``."""
    return {f"{m[1]}-{n}" for m in CITATION.finditer(text) for n in range(int(m[2]), int(m[3] or m[2]) + 1)}


def known_rulings(game: str | type[Game]) -> frozenset[str]:
    """The ruling ids a move of ``game`` (a registry name or a Game class) can be refused
    with, and a scenario of it may cite: those the engine declares
    (:data:`~playtest.engine.G_RULINGS`, ``G-1``..``G-4``) and those the game's
    package declares (:attr:`Game.RULINGS <playtest.engine.game.Game.RULINGS>`), as
    :func:`~playtest.engine.ruling_lines` lists them.

    Raises:
        OptionError: no game has that name.
    """
    return frozenset(ruling_lines(get_game(game)))


def _id_ranges(ids) -> str:
    """``{"G-1", "G-2", "G-3", "LS-1"}`` -> ``"G-1..G-3, LS-1"``: the engine's ``G`` ids
    first, then each other prefix in alphabetical order."""
    numbers: dict[str, list[int]] = {}
    for rid in ids:
        prefix, number = rid.split("-")
        numbers.setdefault(prefix, []).append(int(number))
    runs = []
    for prefix in sorted(numbers, key=lambda prefix: (prefix != "G", prefix)):
        consecutive = itertools.groupby(enumerate(sorted(numbers[prefix])), key=lambda pair: pair[1] - pair[0])
        for _, run in consecutive:
            run = [n for _, n in run]
            runs.append(f"{prefix}-{run[0]}" + (f"..{prefix}-{run[-1]}" if len(run) > 1 else ""))
    return ", ".join(runs)


def _toml_line(message: str) -> int | None:
    m = re.search(r"at line (\d+)", message)
    return int(m.group(1)) if m else None


_UNION_TAG = re.compile(r"(constrained-)?(int|float|str|bool)")


_TOML_WORDS = {
    "Cannot overwrite a value": "a key is given a value twice (each key once per table or [[expect]] entry)",
    "Cannot mutate immutable namespace": "a table is written twice, once as [a.b] or a = {...} and once "
                                         "by dotted keys (a.b.c = ...): write it one way",
    "Cannot declare": "a table is declared twice",
}


def _toml_words(message: str) -> str:
    """tomllib's message with its terse start said in words (the position kept)."""
    for start, words in _TOML_WORDS.items():
        if message.startswith(start):
            return f"{words} ({message})"
    return message


def _merge_unions(errors: list[dict]) -> list[dict]:
    """pydantic's errors with one error per value: the branches of a union (``since``:
    a move number or a name; ``change``: an int or a float), which pydantic reports
    apart under a last location part naming the type, become one error whose
    ``wanted`` joins their requirements with "or" (:func:`requirements`)."""
    merged: dict[tuple, list[dict]] = {}
    for error in errors:
        loc = tuple(error["loc"])
        if len(loc) > 1 and isinstance(loc[-1], str) and _UNION_TAG.fullmatch(loc[-1]):
            loc = loc[:-1]
        merged.setdefault(loc, []).append(error)
    return [{**group[0], "loc": loc, "wanted": requirements(group)} for loc, group in merged.items()]


def _problem(error: dict) -> str:
    """One error of :func:`_merge_unions` as ``where: what is wanted (got the value)``, in
    plain words; an unknown key lists the keys allowed there (and the nearest one, for a
    typo: :func:`~playtest.engine.errors.suggest`)."""
    where = _loc(error["loc"])
    if error["type"] != "extra_forbidden":
        return f"{where}: {error['wanted']} (got {short_repr(error.get('input'))})"
    within = tuple(part for part in error["loc"][:-1] if not isinstance(part, int))
    model = {(): Scenario, ("expect",): Expectation, ("expect", "illegal"): Refusal,
             ("expect", "outcome"): OutcomeExpectation}.get(within)
    if model is None:
        return f"{where}: unknown key"
    keys = list(model.model_fields)
    return f"{where}: unknown key{suggest(error['loc'][-1], keys)} (keys here: {', '.join(keys)})"


def _loc(loc: tuple) -> str:
    """A location as the file reads: ``("expect", 0, "after")`` -> ``[[expect]] #1 after``
    (entries counted from 1, as every other message counts them)."""
    parts = list(loc)
    head = ""
    if len(parts) >= 2 and parts[0] == "expect" and isinstance(parts[1], int):
        head, parts = f"[[expect]] #{parts[1] + 1}", parts[2:]
    rest = ".".join(str(p) if not isinstance(p, int) else f"[{p}]" for p in parts).replace(".[", "[")
    return f"{head} {rest}".strip() or "scenario"


def _blame(message: str, scenario: Scenario) -> tuple:
    """The key an OptionError message is about: the setup key it starts with
    (``setup 'vp[0]' ...``), a setup key or option it names, else the game (unknown
    game) or the seat count."""
    named = re.search(r"\bsetup '([A-Za-z_]+)", message) or re.search(r"setup has no key '([^']+)'", message)
    if named and named[1] in scenario.setup:
        return ("setup", named[1])
    for section, keys in (("setup", scenario.setup), ("options", scenario.options)):
        for key in keys:
            if re.search(rf"\b{re.escape(key)}\b", message):
                return (section, key)
    if "unknown game" in message or "failed to load" in message:
        return ("game",)
    if "seats" in message:
        return ("seats",)
    if "seed" in message:
        return ("seed",)
    return ("setup",) if scenario.setup else ("game",)
