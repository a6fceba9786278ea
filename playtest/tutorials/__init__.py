"""Learn to play: guided first games, written as data.

A tutorial is a TOML file (a game's ``TUTORIAL``, e.g.
``playtest/games/lazy_sunday/tutorial.toml``): a few *lessons*, each a pinned scenario
(the scenario format of :mod:`playtest.scenarios`: ``seats``, ``options``, ``seed``,
``[setup]``, ``moves`` already played), and its *steps*; then a *finale*, a short game
against a gentle bot that offers hints. A rules editor writes one without Python::

    title = "Learn to play Lazy Sunday"
    game = "lazy_sunday"
    seat = 0                         # the learner's seat
    names = ["you", "Ann", "Bo"]     # how the steps call the seats (optional)

    [[lessons]]
    title = "Your chore list"
    seats = 3
    seed = 1
    [lessons.setup]
    lists = [["Nap", "Clean the Oven", ...], ...]

    [[lessons.steps]]
    say = "Peek at your two leftmost cards: click Peek, then the two cards."
    light = ["lists.0.0", "lists.0.1"]          # the cards it lights up (view paths)
    do = "0 peek 0 1"                            # the move the learner must make
    then = ["1 peek 0 1", "1 done"]              # the other seats' moves that follow it

    [[lessons.steps]]
    say = "You see Nap (effort 0) and Clean the Oven (effort 9). Done looking."
    light = [{ card = "lists.0.0", name = "Nap" }]   # a lit card the text names
    claims = { "lists.0.1.name" = "Clean the Oven" } # what the text says, checked
    do = "0 done"

    [finale]
    say = "Now a whole round against a gentle bot. Stuck? Ask for a hint."
    seats = 2
    options = { rounds = 1 }
    bot = "random"                   # the gentle opponent
    hints = "heuristic"              # the bot whose choice a hint shows

A step shows ``say`` (blank lines part paragraphs), lights up ``light`` (dotted paths
into the learner's view, as a scenario's ``[expect.view]`` keys; a table entry also
names the card there, and the name must be in the text), and waits for the move ``do``
(none: a step to read, then Next). Every other move is refused with why: a move the
rules forbid by its ruling id and reason (the game's ``explain``, via
``Match.refusal``); another legal move by ``wrong`` (or a default naming the move to
make). ``claims`` are what the text says about the position, each value written in
the text too: loading checks them against the learner's view.

Loading checks the whole script by playing it through (every lesson set up, every
prompted move legal for the learner, every ``then`` move legal, every lit card and
claim where the text says), so a tutorial that loads is one a learner can finish; an
error names the file, the line and the step.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from playtest.engine import Match, Move, MoveSyntaxError, OptionError, RecordError, games, get_game, limits
from playtest.engine.bots import make_bot
from playtest.engine.errors import suggest
from playtest.scenarios import Scenario, ScenarioError, view_value
from playtest.engine.errors import short_repr
from playtest.scenarios.lines import TomlLines

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

class TutorialError(RecordError):
    """A tutorial that cannot be loaded or played through.

    Attributes:
        source: where it came from (a path, or ``"<tutorial>"``). line: the 1-based
            line of the offending key or step, or None. reason: what is wrong.
    """

    def __init__(self, source: str, line: int | None, reason: str):
        self.source, self.line, self.reason = source, line, reason
        super().__init__(f"{source}, line {line}: {reason}" if line else f"{source}: {reason}")


# --- the format -------------------------------------------------------------------------
class Light(BaseModel):
    """A lit card that the step's text names: ``card`` (a view path) and ``name`` (the
    card's name there, as the learner's view shows it face-up)."""

    model_config = ConfigDict(extra="forbid")
    card: str = Field(min_length=1)
    name: str = Field(min_length=1)


class Step(BaseModel):
    """One step: ``say`` (the text), ``light`` (view paths, or :class:`Light` entries),
    ``claims`` (view path -> value the text states), ``do`` (the learner's move, text
    form; None: read, then Next), ``wrong`` (said when another legal move is made) and
    ``then`` (moves of the other seats played after ``do``, text forms)."""

    model_config = ConfigDict(extra="forbid")
    say: str = Field(min_length=1)
    light: list[str | Light] = []
    claims: dict[str, Any] = {}
    do: str | None = None
    wrong: str = ""
    then: list[str] = []

    @property
    def lit(self) -> list[str]:
        """The view paths of the cards this step lights up."""
        return [entry if isinstance(entry, str) else entry.card for entry in self.light]


class Lesson(BaseModel):
    """A lesson: a pinned scenario (``seats``, ``options``, ``seed``, ``setup``,
    ``moves`` played before its first step; see :class:`~playtest.scenarios.Scenario`)
    with its ``title`` and ``steps``."""

    model_config = ConfigDict(extra="forbid")
    title: str = Field(min_length=1)
    seats: int = Field(ge=1)
    options: dict[str, Any] = {}
    seed: int = Field(0, ge=0)
    setup: dict[str, Any] = {}
    moves: list[str] = []
    steps: list[Step] = Field(min_length=1)

    def scenario(self, game: str) -> Scenario:
        """The lesson's position as a scenario of ``game`` (a registry name)."""
        return Scenario(title=self.title, game=game, seats=self.seats, options=self.options, seed=self.seed,
                        setup=self.setup, moves=self.moves)


class Finale(BaseModel):
    """The closing game: ``say`` (its text), ``title``, ``seats``, ``options``, ``bot``
    (the gentle opponent in every other seat, a name of the game's ``BOTS``), ``hints``
    (the bot whose choice for the learner a hint shows) and ``seed`` (None: random)."""

    model_config = ConfigDict(extra="forbid")
    title: str = "Your first game"
    say: str = Field(min_length=1)
    seats: int = Field(ge=1)
    options: dict[str, Any] = {}
    bot: str = "random"
    hints: str = "heuristic"
    seed: int | None = Field(None, ge=0)


class Tutorial(BaseModel):
    """A whole tutorial (see the module docstring for the TOML form).

    Fields: ``title``, ``game`` (registry name), ``seat`` (the learner's seat in every
    lesson and the finale), ``names`` (what the steps call each seat, e.g. ``["you",
    "Ann"]``; optional), ``intro`` (text shown before the first lesson), ``lessons``,
    ``finale``.

    Build one with :meth:`from_toml`, :meth:`load` or :func:`load_tutorial`; they
    check it in full (:meth:`check`).
    """

    model_config = ConfigDict(extra="forbid")
    title: str = Field(min_length=1)
    game: str
    seat: int = Field(0, ge=0)
    names: list[str] = []
    intro: str = ""
    lessons: list[Lesson] = Field(min_length=1)
    finale: Finale

    # --- loading ----------------------------------------------------------------------
    @classmethod
    def from_toml(cls, text: str | bytes, source: str = "<tutorial>") -> "Tutorial":
        """Read a tutorial from TOML text and check it in full (:meth:`check`). The text
        passes the input limits first (:mod:`playtest.engine.limits`).

        Raises:
            TutorialError: the message names ``source``, the line and the reason (TOML
                syntax, an unknown or missing key, an unknown game, a lesson that cannot
                be set up, a step whose move is illegal, whose lit card or claim is not
                where its text says, ...).
        """
        try:
            if not isinstance(text, str):
                text = limits.decode(text, source)
            data = limits.load_toml(text.removeprefix("\ufeff"), source)
        except limits.LimitError as exc:
            raise TutorialError(source, exc.line, exc.reason) from None
        except tomllib.TOMLDecodeError as exc:
            found = re.search(r"at line (\d+)", str(exc))
            raise TutorialError(source, int(found[1]) if found else None, f"not valid TOML: {exc}") from None
        try:
            tutorial = cls.model_validate(data)
        except ValidationError as exc:
            first = exc.errors()[0]
            problems = "; ".join(_problem(e) for e in exc.errors())
            raise TutorialError(source, line_of(text, first["loc"]), f"not a valid tutorial: {problems}") from None
        tutorial.check(source, lambda path: line_of(text, path))
        return tutorial

    @classmethod
    def load(cls, path: str | os.PathLike) -> "Tutorial":
        """Read and check a tutorial file (see :meth:`from_toml`).

        Raises:
            TutorialError: unreadable, over the input limits, or see :meth:`from_toml`.
        """
        try:
            text = limits.read_text(path, str(path))
        except limits.LimitError as exc:
            raise TutorialError(str(path), exc.line, exc.reason) from None
        except OSError as exc:
            raise TutorialError(str(path), None, f"cannot read the tutorial: {exc.strerror or exc}") from None
        return cls.from_toml(text, str(path))

    # --- playing it through -------------------------------------------------------------
    def lesson_match(self, index: int, keep_log: bool = True) -> Match:
        """A new Match of lesson ``index`` (0-based): its pinned setup and its ``moves``.

        Raises:
            IndexError: no such lesson. ScenarioError: it cannot be set up.
        """
        return self.lessons[index].scenario(self.game).to_match(keep_log=keep_log)

    def walk(self) -> Iterator["StepAt"]:
        """Every step in order, with the match as the learner sees it at that step
        (before its ``do``). The match of a lesson is played on by the steps' ``do``
        and ``then`` moves as the walk goes; do not keep it past the next step.

        Raises:
            TutorialError: a prompted or ``then`` move is unreadable or illegal (line
                unknown; :meth:`check` names it).
        """
        for i in range(len(self.lessons)):
            match = self.lesson_match(i, keep_log=False)
            for j, step in enumerate(self.lessons[i].steps):
                yield StepAt(i, j, step, match)
                for text in ([step.do] if step.do else []) + step.then:
                    match.play(text)

    def check(self, source: str = "<tutorial>", where=lambda path: None) -> None:
        """Play the whole tutorial through and check it: the game exists and the
        learner's seat is a seat of every lesson; each lesson sets up; at each step every
        lit card path and claim is in the learner's view as the text says (a named lit
        card shows that name, which the text mentions; a claim's text or number is in
        the text); each ``do`` is a legal move of the learner's seat and each ``then``
        move is legal in turn; the finale sets up with its bots.

        Args:
            source: how messages name the tutorial. where: ``path -> line`` (e.g.
                ``("lessons", 0, "steps", 2, "do")``), for the messages.

        Raises:
            TutorialError: the first problem found, with its line.
        """
        try:
            get_game(self.game)
        except OptionError as exc:
            raise TutorialError(source, where(("game",)), str(exc)) from None
        for i, lesson in enumerate(self.lessons):
            if not 0 <= self.seat < lesson.seats:
                raise TutorialError(source, where(("lessons", i, "seats")),
                                    f"lesson {i + 1}: the learner's seat {self.seat} is not a seat of a "
                                    f"{lesson.seats}-seat game (G-1)")
            try:
                match = lesson.scenario(self.game)._build(source, lambda path, i=i: where(("lessons", i, *path)),
                                                         None, keep_log=False)
            except ScenarioError as exc:
                raise TutorialError(source, exc.line, f"lesson {i + 1} ({lesson.title!r}): {exc.reason}") from None
            for j, step in enumerate(lesson.steps):
                here = ("lessons", i, "steps", j)
                named = f"lesson {i + 1}, step {j + 1}"
                for key, problem in step_problems(match, step, self.seat):
                    raise TutorialError(source, where((*here, key)), f"{named}: {problem}")
                for k, text in enumerate(([step.do] if step.do else []) + step.then):
                    key = ("do",) if step.do and k == 0 else ("then", k - bool(step.do))
                    problem = _play(match, text)
                    if problem:
                        raise TutorialError(source, where((*here, *key)), f"{named}: {problem}")
        finale = self.finale
        if not 0 <= self.seat < finale.seats:
            raise TutorialError(source, where(("finale", "seats")),
                                f"finale: the learner's seat {self.seat} is not a seat of a {finale.seats}-seat game")
        try:
            rules = Match(self.game, finale.seats, finale.options, 0, keep_log=False).game
            for key in ("bot", "hints"):
                make_bot(rules, getattr(finale, key), 0)
        except OptionError as exc:
            raise TutorialError(source, where(("finale",)), f"finale: {exc}") from None


@dataclass(frozen=True)
class StepAt:
    """A step and where it is: ``lesson`` and ``index`` (0-based), the ``step``, and
    the ``match`` at that step (before its ``do``)."""

    lesson: int
    index: int
    step: Step
    match: Match


def step_problems(match: Match, step: Step, seat: int) -> list[tuple[str, str]]:
    """What is wrong with ``step`` shown on ``match`` to the learner at ``seat``:
    ``(key, problem)`` pairs, empty when the step holds (every lit path and claim is in
    the learner's view as the text says, and ``do`` is a legal move of ``seat``)."""
    view = match.view(seat)
    said = " ".join(step.say.split())       # a name may wrap across lines
    problems = []
    for entry in step.light:
        path = entry if isinstance(entry, str) else entry.card
        try:
            found = view_value(view, path)
        except KeyError as exc:
            problems.append(("light", f"lit card {path!r} is not in the learner's view: {exc.args[0]}"))
            continue
        if isinstance(entry, Light):
            # a card is a dict with its name (face-up), or just its name (a hand of names)
            shown = found.get("name") if isinstance(found, dict) else found if isinstance(found, str) else None
            if shown != entry.name:
                problems.append(("light", f"lit card {path!r} shows {short_repr(shown)} to the learner, "
                                          f"not {entry.name!r}"))
            elif entry.name not in said:
                problems.append(("light", f"the text does not name the lit card {entry.name!r}"))
    for path, value in step.claims.items():
        try:
            found = view_value(view, path)
        except KeyError as exc:
            problems.append(("claims", f"claim {path!r}: {exc.args[0]}"))
            continue
        if found != value:
            problems.append(("claims", f"claim {path!r} = {short_repr(value)}, but the learner's view "
                                       f"shows {short_repr(found)}"))
        elif isinstance(value, (str, int)) and not isinstance(value, bool) and str(value) not in said:
            problems.append(("claims", f"claim {path!r} = {short_repr(value)} is not in the text"))
    if step.do:
        try:
            move = Move.parse(step.do)
        except MoveSyntaxError as exc:
            return problems + [("do", str(exc))]
        if move.seat != seat:
            problems.append(("do", f"the prompted move {step.do!r} is seat {move.seat}'s, not the learner's "
                                   f"(seat {seat}); other seats' moves go in `then`"))
        elif (refusal := match.refusal(move)) is not None:
            ruling = f" ({refusal.ruling})" if refusal.ruling else ""
            problems.append(("do", f"the prompted move {step.do!r} is illegal{ruling}: {refusal.reason}"))
    return problems


def _play(match: Match, text: str) -> str:
    """Play ``text`` on ``match``; "" or why it cannot be played."""
    try:
        refusal = match.refusal(text)
    except MoveSyntaxError as exc:
        return str(exc)
    if refusal is not None:
        ruling = f" ({refusal.ruling})" if refusal.ruling else ""
        return f"move {text!r} is illegal{ruling}: {refusal.reason}"
    match.play(text)
    return ""


# --- finding tutorials --------------------------------------------------------------------
def tutorials() -> dict[str, Path]:
    """The tutorials the installed games ship (each game's ``TUTORIAL``): game registry
    name -> file, sorted by name."""
    return {name: rules.TUTORIAL for name, rules in games().items() if rules.TUTORIAL is not None}


def load_tutorial(name: str | os.PathLike) -> Tutorial:
    """The shipped tutorial of a game (its registry name, e.g. ``"lazy_sunday"``) or a
    tutorial file (a path ending in ``.toml``), checked in full.

    Raises:
        TutorialError: no such tutorial (the message lists the shipped ones), or see
            :meth:`Tutorial.from_toml`.
    """
    text = os.fspath(name)
    if text.endswith(".toml"):
        return Tutorial.load(text)
    found = tutorials()
    if text not in found:
        raise TutorialError("tutorials", None, f"no tutorial for {text!r}; tutorials: {', '.join(found) or 'none'}")
    return Tutorial.load(found[text])


# --- lines of a tutorial's TOML (for messages) ----------------------------------------------
def line_of(text: str, path: tuple) -> int | None:
    """The 1-based line that ``path`` points at in a tutorial's TOML text, or None:
    ``("game",)``, ``("lessons", 1, "seed")``, ``("lessons", 0, "moves", 3)``,
    ``("lessons", 0, "setup", "lists")``, ``("lessons", 1, "steps", 2, "do")``,
    ``("lessons", 1, "steps", 2, "then", 0)``, ``("finale", "bot")``."""
    toml = TomlLines(text)
    sections = toml.sections
    if not path:
        return None
    head, rest = path[0], list(path[1:])
    if head == "lessons" and rest and isinstance(rest[0], int):
        lessons = [(s, e) for name, s, e in sections if name == "lessons"]
        if rest[0] >= len(lessons):
            return None
        start = lessons[rest[0]][0]
        end = lessons[rest[0] + 1][0] if rest[0] + 1 < len(lessons) else toml.count
        inner = [(name, s, e) for name, s, e in sections if start <= s < end]
        rest = rest[1:]
        if rest and rest[0] == "steps" and len(rest) > 1 and isinstance(rest[1], int):
            steps = [(s, e) for name, s, e in inner if name == "lessons.steps"]
            if rest[1] >= len(steps):
                return start + 1
            return _in_section(toml, *steps[rest[1]], rest[2:])
        if rest and rest[0] in ("setup", "options"):
            table = [(s, e) for name, s, e in inner if name == f"lessons.{rest[0]}"]
            if table:
                return _in_section(toml, *table[0], rest[1:])
        return _in_section(toml, start, inner[0][2] if inner else end, rest)
    if head == "finale":
        table = [(s, e) for name, s, e in sections if name == "finale"]
        return _in_section(toml, *table[0], rest) if table else None
    top_end = sections[1][1] if len(sections) > 1 else toml.count
    at = toml.find_key(0, top_end, head)
    return at + 1 if at is not None else None


def _in_section(toml: TomlLines, start: int, end: int, rest: list) -> int:
    """The line of ``rest`` (a key, then maybe an array item) in lines start..end."""
    if rest and isinstance(rest[0], str):
        at = toml.find_key(start, end, rest[0])
        if at is not None:
            if len(rest) > 1 and isinstance(rest[1], int):
                items = toml.string_items(at)
                if rest[1] < len(items):
                    return items[rest[1]] + 1
            return at + 1
    return start + 1


def _problem(error: dict) -> str:
    """One pydantic error as ``where: what``; an unknown key names the keys allowed there
    (and the nearest one, for a typo)."""
    where = ".".join(str(p) if not isinstance(p, int) else f"[{p}]" for p in error["loc"]).replace(".[", "[")
    if error["type"] != "extra_forbidden":
        return f"{where or 'tutorial'}: {error['msg']}"
    within = tuple(p for p in error["loc"][:-1] if not isinstance(p, int))
    model = {(): Tutorial, ("lessons",): Lesson, ("lessons", "steps"): Step, ("finale",): Finale,
             ("lessons", "steps", "light"): Light}.get(within)
    if model is None:
        return f"{where}: unknown key"
    keys = list(model.model_fields)
    return f"{where}: unknown key{suggest(error['loc'][-1], keys)} (keys here: {', '.join(keys)})"


__all__ = ["Tutorial", "Lesson", "Step", "Light", "Finale", "StepAt", "TutorialError", "load_tutorial",
           "tutorials", "step_problems", "line_of"]
