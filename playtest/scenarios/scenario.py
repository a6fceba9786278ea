"""Scenario files: one exact game situation, written down so it can be rebuilt, stepped
through and kept as a regression test.

A scenario is TOML. Python reads TOML with the standard library (``tomllib``) and writes
it with ``tomli_w``; unlike JSON it allows comments (say *why* a move is there), and
unlike YAML it has no indentation traps and no values that silently change type
(``no`` stays a string). A scenario names the game, seats, options and seed, optionally
a pinned setup (``setup``: the keys of the game's ``Game.SETUP``, e.g. each seat's cards
and the top of the deck), then the moves in their text form, then ``[[expect]]``
entries: what must hold after a given move::

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

Loading checks everything, down to replaying every move; an error names the file, the
line and the reason, and nothing is half-loaded.
"""
from __future__ import annotations

import difflib
import functools
import hashlib
import inspect
import itertools
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import tomli_w
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from playtest.engine import Game, IllegalMove, Match, Move, MoveSyntaxError, OptionError, RecordError, get_game
from playtest.engine import limits
from playtest.engine.match import write_atomically

from .lines import line_of, short_repr

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
            ``legal``: the moves its seat could make instead; ``scenario``: the scenario
            as written (its moves before ``number`` replay fine).
    """

    def __init__(self, source, line, reason, number: int, move: str, ruling: str = "", legal=(),
                 scenario: "Scenario | None" = None):
        super().__init__(source, line, reason)
        self.number, self.move, self.ruling, self.legal, self.scenario = number, move, ruling, list(legal), scenario


# --- the format -------------------------------------------------------------------------
class Refusal(BaseModel):
    """An ``illegal`` expectation: ``move`` (text form) must be refused, with ``ruling``
    (a RULINGS id such as ``"LS-7"``; left out, any refusal will do)."""

    model_config = ConfigDict(extra="forbid")
    move: str
    ruling: str | None = None


class OutcomeExpectation(BaseModel):
    """An ``outcome`` expectation: ``finished`` (False: still going or stopped by G-4),
    and when given, the ``winners`` (seats)."""

    model_config = ConfigDict(extra="forbid")
    finished: bool
    winners: list[int] | None = None


class Expectation(BaseModel):
    """One ``[[expect]]`` entry: what must hold after move ``after`` (0: right after the
    setup). Every field left out is not checked.

    Fields: ``seat`` (whose view ``view`` reads; left out: the spectator), ``to_act``
    (seats with a decision, in order), ``view`` (dotted path into the view -> value;
    list items by index, e.g. ``"lists.0.1.face_up"``), ``legal`` (move texts that must
    be legal), ``illegal`` (:class:`Refusal` entries), ``outcome``
    (:class:`OutcomeExpectation`; ``{finished = false}`` also matches a game still
    going), ``fingerprint`` (sha256 hex of :meth:`Match.fingerprint`: the exact state).
    """

    model_config = ConfigDict(extra="forbid")
    after: int = Field(ge=0)
    seat: int | None = None
    to_act: list[int] | None = None
    view: dict[str, Any] | None = None
    legal: list[str] = []
    illegal: list[Refusal] = []
    outcome: OutcomeExpectation | None = None
    fingerprint: str | None = Field(None, pattern=r"^[0-9a-f]{64}$")


@dataclass(frozen=True)
class Failure:
    """An expectation that did not hold.

    Attributes:
        entry: which ``[[expect]]`` entry (1-based, in file order).
        after: the move number it is checked after; ``move``: that move's text ("" for 0).
        expectation: what was checked, e.g. ``"view 'done.top.name'"``.
        expected, found: the expected value and what the game showed instead.
    """

    entry: int
    after: int
    move: str
    expectation: str
    expected: Any
    found: Any

    def __str__(self) -> str:
        when = f"after move {self.after} ({self.move})" if self.after else "after the setup (move 0)"
        return (f"[[expect]] #{self.entry}, {when}: {self.expectation}: expected {short_repr(self.expected)}, "
                f"found {short_repr(self.found)}")


def state_hash(match: Match) -> str:
    """sha256 hex of ``match.fingerprint()``: the exact position, random stream included."""
    return hashlib.sha256(match.fingerprint().encode()).hexdigest()


def view_value(view: dict, path: str) -> Any:
    """The value at a dotted ``path`` in a view (``"done.top.name"``, ``"lists.0.1"``).

    Raises:
        KeyError: the path leads nowhere; the message says which part is missing and
            what is there instead.
    """
    here: Any = view
    for depth, part in enumerate(path.split(".")):
        done = ".".join(path.split(".")[:depth]) or "the view"
        if isinstance(here, dict):
            if part not in here:
                raise KeyError(f"{done} has no {part!r} (it has {', '.join(map(str, here)) or 'nothing'})")
            here = here[part]
        elif isinstance(here, list):
            if not part.lstrip("-").isdigit() or not -len(here) <= int(part) < len(here):
                raise KeyError(f"{done} is a list of {len(here)}: use an index 0..{len(here) - 1}, not {part!r}")
            here = here[int(part)]
        else:
            raise KeyError(f"{done} is {here!r}, which has no {part!r}")
    return here


class Scenario(BaseModel):
    """A scenario file's content (see the module docstring for the TOML form).

    Fields: ``title``, ``description`` (text; cite the ruling ids it shows), ``game``
    (registry name), ``seats``, ``options`` (name -> value; left out: RULINGS defaults),
    ``seed`` (the G-3 stream), ``setup`` (pinned setup, the keys of the game's
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
    seats: int = Field(ge=1)
    options: dict[str, Any] = {}
    seed: int = Field(0, ge=0)
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
        20 digits, ...); they are checked before it is parsed.

        Args:
            text: the TOML (str, or UTF-8 bytes; a byte order mark is dropped).
            source: how messages name it (a file name, ``"<scenario>"``).

        Raises:
            ScenarioError: the message names ``source``, the line and the reason (over an
                input limit, TOML syntax, a missing or unknown field, unknown game, bad
                option, bad setup key or card, an expectation after a move that does not
                exist, ...).
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
            line = _toml_line(message)
            raise ScenarioError(source, line, f"not valid TOML: {message}") from None
        try:
            scenario = cls.model_validate(data)
        except ValidationError as exc:
            first = exc.errors()[0]
            problems = "; ".join(_problem(e) for e in exc.errors())
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
        """Replay everything once; raise ScenarioError (with lines from ``where``)."""
        match = self._build(source, where, None, keep_log=False)
        number_of_moves, seats = len(self.moves), match.game.seats
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
            for text, key in [*((t, "legal") for t in entry.legal), *((r.move, "illegal") for r in entry.illegal)]:
                try:
                    Move.parse(text)
                except MoveSyntaxError as exc:
                    bad(f"{key}: {exc}", key)
            for refusal in entry.illegal:
                if refusal.ruling is not None and refusal.ruling not in known:
                    bad(f"illegal {refusal.move!r}: {short_repr(refusal.ruling)} is not a {match.game.title} "
                        f"ruling id (RULINGS.md); its ids: {_id_ranges(known)}", "illegal")
            if entry.outcome and entry.outcome.winners and any(not 0 <= w < seats for w in entry.outcome.winners):
                bad(f"outcome winners {entry.outcome.winners} are not all seats 0..{seats - 1}", "outcome")

    def _build(self, source: str, where: Callable[[tuple], int | None], upto: int | None,
               keep_log: bool) -> Match:
        """The match with the first ``upto`` moves (all when None) replayed."""
        try:
            match = Match(self.game, self.seats, self.options, self.seed, keep_log, self.setup)
        except OptionError as exc:
            message = str(exc)
            path = _blame(message, self)
            raise ScenarioError(source, where(path), f"cannot set up the game: {message}") from None
        for number, text in enumerate(self.moves[:upto], 1):
            try:
                match.play(text)
            except MoveSyntaxError as exc:
                raise ScenarioMoveError(source, where(("moves", number - 1)),
                                        f"move {number} ({short_repr(text)}): {exc}",
                                        number, text, scenario=self) from None
            except IllegalMove as exc:
                ruling = f" ({exc.ruling})" if exc.ruling else ""
                shown = ", ".join(map(str, exc.legal[:12])) + (", ..." if len(exc.legal) > 12 else "")
                raise ScenarioMoveError(
                    source, where(("moves", number - 1)),
                    f"move {number} ({short_repr(text)}) is illegal{ruling}: {exc.reason}. "
                    f"Legal moves for seat {exc.move.seat} then: {shown or 'none'}",
                    number, text, exc.ruling, exc.legal, self) from None
        return match

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
            ScenarioError / ScenarioMoveError: as :meth:`to_match`.
        """
        last = len(self.moves) if upto is None else upto
        match = self.to_match(upto=0, keep_log=False)
        failures: list[Failure] = []
        by_move: dict[int, list[tuple[int, Expectation]]] = {}
        for k, entry in enumerate(self.expect, 1):
            by_move.setdefault(entry.after, []).append((k, entry))
        for number in range(last + 1):
            if number:
                try:
                    match.play(self.moves[number - 1])
                except (IllegalMove, MoveSyntaxError):
                    self._build(self._label(), lambda path: None, number, False)  # raises, naming the move
            for k, entry in by_move.get(number, ()):
                failures += _check_entry(match, k, entry, self.moves[number - 1] if number else "")
        return failures

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
                       options=options, seed=match.seed, setup=dict(match.setup),
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
        order = ["title", "description", "game", "seats", "seed", "moves", "options", "setup", "expect"]
        data = {key: data[key] for key in order if key in data}
        header = (f"# playtest scenario ({self.game}): replay with `playtest replay FILE`, or "
                  f"Scenario.load(FILE) in Python.\n# Moves are in their text form; [[expect]] entries "
                  f"say what must hold after move `after` (0 = after the setup).\n")
        return header + tomli_w.dumps(data, multiline_strings=True)

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


def _check_entry(match: Match, k: int, entry: Expectation, move: str) -> list[Failure]:
    failures = []

    def fail(what, expected, found):
        failures.append(Failure(k, entry.after, move, what, expected, found))

    if entry.to_act is not None and list(match.to_act()) != entry.to_act:
        fail("to_act", entry.to_act, list(match.to_act()))
    if entry.view:
        view = match.view(entry.seat)
        whose = f" of seat {entry.seat}" if entry.seat is not None else " (spectator)"
        for path, expected in entry.view.items():
            try:
                found = view_value(view, path)
            except KeyError as exc:
                found = f"<missing: {exc.args[0]}>"
            if found != expected:
                fail(f"view{whose} {path!r}", expected, found)
    for text in entry.legal:
        refusal = match.refusal(text)
        if refusal:
            fail(f"legal {text!r}", "legal", f"refused: {refusal}")
    for r in entry.illegal:
        refusal = match.refusal(r.move)
        if refusal is None:
            fail(f"illegal {r.move!r}", f"refused ({r.ruling})" if r.ruling else "refused", "legal")
        elif r.ruling is not None and refusal.ruling != r.ruling:
            fail(f"illegal {r.move!r} ruling", r.ruling, f"{refusal.ruling or 'no ruling'}: {refusal.reason}")
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


RULING_ID = re.compile(r"\b(G|LS|CR|NS)-(\d+)(?:\.\.(?:\1-)?(\d+))?\b")


@functools.cache
def known_rulings(game: str) -> frozenset[str]:
    """The RULINGS ids a move of ``game`` (a registry name) can be refused with: the
    engine's ``G-*`` ids and the ids its own package's source cites (a range such as
    ``LS-1..LS-11`` counts every id in it). RULINGS.md is not part of the installed
    package; every ruling a refusal carries is written in the game's code, so an id the
    code never cites can never be the ruling of a refusal. (The tests check these sets
    against RULINGS.md.)

    Raises:
        OptionError: no game has that name.
    """
    def cited(folder: Path, prefixes: tuple[str, ...]) -> set[str]:
        ids = set()
        for path in folder.glob("*.py"):
            for m in RULING_ID.finditer(path.read_text(encoding="utf-8")):
                if m[1] in prefixes:
                    ids.update(f"{m[1]}-{i}" for i in range(int(m[2]), int(m[3] or m[2]) + 1))
        return ids

    engine = cited(Path(inspect.getfile(Game)).parent, ("G",))
    own = cited(Path(inspect.getfile(get_game(game))).parent, ("LS", "CR", "NS"))
    return frozenset(engine | own)


def _id_ranges(ids) -> str:
    """``{"G-1", "G-2", "G-3", "LS-1"}`` -> ``"G-1..G-3, LS-1"``."""
    numbers: dict[str, list[int]] = {}
    for rid in ids:
        prefix, number = rid.split("-")
        numbers.setdefault(prefix, []).append(int(number))
    runs = []
    for prefix in sorted(numbers, key=("G", "LS", "CR", "NS").index):
        consecutive = itertools.groupby(enumerate(sorted(numbers[prefix])), key=lambda pair: pair[1] - pair[0])
        for _, run in consecutive:
            run = [n for _, n in run]
            runs.append(f"{prefix}-{run[0]}" + (f"..{prefix}-{run[-1]}" if len(run) > 1 else ""))
    return ", ".join(runs)


def _toml_line(message: str) -> int | None:
    m = re.search(r"at line (\d+)", message)
    return int(m.group(1)) if m else None


def _problem(error: dict) -> str:
    """One pydantic error as ``where: what``; an unknown key lists the keys allowed there
    (and the nearest one, for a typo)."""
    where = _loc(error["loc"])
    if error["type"] != "extra_forbidden":
        return f"{where}: {error['msg']}"
    within = tuple(part for part in error["loc"][:-1] if not isinstance(part, int))
    model = {(): Scenario, ("expect",): Expectation, ("expect", "illegal"): Refusal,
             ("expect", "outcome"): OutcomeExpectation}.get(within)
    if model is None:
        return f"{where}: unknown key"
    keys = list(model.model_fields)
    close = difflib.get_close_matches(str(error["loc"][-1]), keys, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f"{where}: unknown key{hint} (keys here: {', '.join(keys)})"


def _loc(loc: tuple) -> str:
    return ".".join(str(p) if not isinstance(p, int) else f"[{p}]" for p in loc).replace(".[", "[") or "scenario"


def _blame(message: str, scenario: Scenario) -> tuple:
    """The key an OptionError message is about: the setup key it starts with
    (``setup 'vp[0]' ...``), a setup key or option it names, else the game (unknown
    game) or the seat count."""
    named = re.search(r"\bsetup '([A-Za-z_]+)", message)
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
