"""One live table: a Match with its seats (people and bots on a clock) and its pages.

Every change goes through :class:`LiveTable` on the server's event loop, one at a time:
check (``Match.play``), commit to the store, send every connected page what changed
(its full ``state`` once, at the join; an ``update`` after that), then answer the
sender. So the order moves arrive in is the order of play ("first tap registered by the
server wins", Lazy Sunday edge case 6), and a claim that lost the race is judged on the
new position (LS-5: a claim on a DONE top that has changed is returned, no penalty).

Bots decide from their seat's information only, as in a single-page game, but off the
event loop: a bot's decision runs in a worker process under a time cap
(:mod:`playtest.tables.thinking`), so no search ever holds up the server; an open move
(a Lazy Sunday quick discard) is the bots' cheap rule, asked on the loop. The clock
decides only *when* a move is sent: a think time (counted from when the bot started
deciding) before a bot's move and a reaction time before its open move, drawn from the
table's pace. If the table moves first, the bot's plan (and its decision, if still being
made) is dropped and made again on the new position. The record alone replays the game,
whatever the pace and however long a decision took.
"""
from __future__ import annotations

import asyncio
import json
import random
import reprlib
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable, Protocol

from ..engine import SPECTATOR, Match, Move, MoveSyntaxError, OptionError, PlaytestError, Table
from ..engine.counting import api_seat, for_people
from ..engine.game import CountsTurns, Reacts
from .thinking import Decision, Thinker, check_table_bot, decide, fallback_bot

HUMAN = "human"
TOO_LATE = "too late: "
"""How a refusal of a move another seat beat begins (a race lost, nobody's mistake: "first tap
registered by the server wins", seed 002 edge case 6; a late quick discard is returned, LS-5)."""

PACES: dict[str, tuple[tuple[float, float], tuple[float, float]]] = {
    "instant": ((0.0, 0.0), (0.0, 0.0)),
    "fast": ((0.3, 0.8), (0.5, 1.2)),
    "human": ((0.8, 2.0), (1.0, 3.0)),
    "slow": ((2.0, 4.0), (2.5, 5.0)),
}
"""Bot pace name -> ((think time min, max), (reaction time min, max)), in seconds: the
think time before a bot's decision, the reaction time before its open move (a Lazy
Sunday quick discard). "human" (the default) gives a person who spots a match a fair
chance to slap first; "instant" is for solo speed play and tests."""


def check_pace(pace) -> None:
    """Refuse anything but a name of :data:`PACES`.

    Raises:
        OptionError: ``pace`` is not one (any type), with the names allowed."""
    if not isinstance(pace, str) or pace not in PACES:
        raise OptionError(f"unknown bot pace {reprlib.repr(pace)}; paces: {', '.join(PACES)}")

NAME_MAX = 24          # characters of a person's name


def check_name(name) -> str:
    """A person's name as a seat keeps it: stripped of outer spaces, at most
    :data:`NAME_MAX` characters, printable, no ``<`` ``>`` ``&`` (pages show it in HTML;
    they escape it too). "" is no name.

    Raises:
        OptionError: not a string, too long, or with a character not allowed, saying which."""
    if not isinstance(name, str):
        raise OptionError(f"a name is text, not {type(name).__name__}")
    name = name.strip()
    if len(name) > NAME_MAX:
        raise OptionError(f"a name has at most {NAME_MAX} characters; this one has {len(name)}")
    markup = sorted({c for c in name if c in "<>&"})
    hidden = sorted({c for c in name if not c.isprintable()})
    if markup or hidden:
        what = [f"the sign{'s' if len(markup) > 1 else ''} {' '.join(markup)}"] if markup else []
        codes = ", ".join(f"U+{ord(c):04X}" for c in hidden)
        what += [f"invisible or control characters ({codes})" if len(hidden) > 1
                 else f"an invisible or control character ({codes})"] if hidden else []
        raise OptionError(f"a name may not hold {' or '.join(what)}; letters, digits, spaces and other "
                          "punctuation are allowed")
    return name



def seat_label(seat: int, name: str = "") -> str:
    """How people read a seat: counted from 1, with its person's name: "seat 2 (Ana)",
    "seat 3". (Move texts, scenario files and the API count seats from 0.)"""
    return f"seat {seat + 1} ({name})" if name else f"seat {seat + 1}"


TURN_LIMITS = (5, 3600)
"""Seconds a table's turn timer may give a person per decision, least and most."""


def check_turn_limit(seconds) -> float | None:
    """A turn timer's seconds per decision as a table keeps them: a number within
    :data:`TURN_LIMITS`, or None (no timer).

    Raises:
        OptionError: anything else (any type), saying the range."""
    low, high = TURN_LIMITS
    if seconds is None:
        return None
    if type(seconds) not in (int, float) or not low <= seconds <= high:
        raise OptionError(f"a turn timer is a number of seconds per decision from {low} to {high}, "
                          f"or off (blank in the lobby, null in the API); not {reprlib.repr(seconds)}")
    return float(seconds)


def timed_out_line(seat: int, name: str) -> str:
    """The log line after a move the table played for a person whose time ran out (the
    move's own lines come just before it), in the engine's counting (seats from 0, as
    every log line; pages show it counted from 1,
    :func:`~playtest.engine.counting.for_people`): "Time ran out for seat 1 (Ana): the
    table made that move for them"."""
    who = f"seat {seat} ({name})" if name else f"seat {seat}"
    return f"Time ran out for {who}: the table made that move for them"


DEFAULT_PACE = "human"
STORE_RETRY = 5.0       # seconds before bots try again after the store refused a move (default)
SEEN_IDS = 256          # client move ids remembered per seat, to answer a resend
HTTP_PRESENCE = 60.0    # seconds an HTTP call of a seat counts as that player being here
PAST_REST = 60.0
"""Seconds a table that is over (or ended) keeps its match in memory after its last page
left: then it rests (:meth:`LiveTable.rest`), and wakes, replayed from the store, when it
is used again. A 400-move Lazy Sunday match holds about 240 kB; a server's past tables
would otherwise fill its memory over its life."""


class Page(Protocol):
    """A connected page (a websocket, or a test double): what the table sends to.

    Optional attributes (read with ``getattr``): ``kernel``, the id of the Jupyter kernel
    that opened the connection (None: a script, a test, a notebook kernel of another
    server), and ``away``, set by :meth:`LiveTable.browsers_gone` while that kernel has
    no browser page connected (the person closed the page; its kernel lives on until the
    kernel reaper shuts it down).
    """

    seat: int | None        # the seat whose view it gets; None = public view
    role: str               # "seat", "spectator" or "host"

    def send(self, message: dict) -> None: ...      # never raises; a page gone calls detach
    def leave(self, reason: str) -> None: ...


class StoreRefused(PlaytestError):
    """The store could not save a change (a full disk, say): nothing changed. The message
    is the reason as a clause for pages, e.g. "its disk is full"."""


def _fields(view: dict) -> dict[str, str]:
    """A view's top-level fields as JSON texts: what a page was sent, to tell which
    fields changed since (a copy: a game may hand out lists it changes later)."""
    return {key: json.dumps(value, sort_keys=True) for key, value in view.items()}


class SeatConnected(PlaytestError):
    """The host tried to hand a seat to a bot while a person's page of that seat is
    connected, without saying ``force``: a person is never replaced silently."""


@dataclass
class Result:
    """The answer to a move: ``ok``, or the ``error`` sentence and its ``ruling`` id;
    ``unsaved``: refused because the store could not save it (it may be made again);
    ``late``: played, but too late to count (the rules returned it, LS-5), saying what beat it."""

    ok: bool
    error: str = ""
    ruling: str = ""
    log: tuple[str, ...] = ()
    unsaved: bool = False
    late: str = ""      # an ok move the rules returned, being too late (LS-5): what beat it

    def message(self, client_id: Any) -> dict:
        """The ``result`` message for the page that sent the move."""
        if self.ok:
            return {"type": "result", "id": client_id, "ok": True, "log": list(self.log),
                    **({"late": self.late} if self.late else {})}
        return {"type": "result", "id": client_id, "ok": False, "error": self.error, "ruling": self.ruling,
                **({"unsaved": True} if self.unsaved else {})}


@dataclass
class _Decision:
    """The decision of the bot to act at one position: ``key`` (moves played, seat, bot
    name), ``due`` (loop time its move may be played: the think time), ``task`` (the
    decision being made) and its ``move`` once made."""

    key: tuple[int, int, str]
    due: float
    task: asyncio.Task
    move: Move | None = None


class LiveTable:
    """A table being played live.

    Args:
        id: the table's id. match: the match (already replayed to its stored moves).
        players: per seat, ``"human"`` or the name of one of the game's bots.
        pace: a name of :data:`PACES`. paused: bots hold while True.
        on_move: called as ``on_move(table, number, text, seat, by_bot, timed_out)`` before
            a move is played (``timed_out``: the table plays it for a person whose turn
            timer ran out); it must store the move durably, or raise :class:`StoreRefused`
            to refuse it (the move is then not played: :attr:`unsaved` says why).
        on_change: called as ``on_change(table, **fields)`` before a host's change is
            made (and after a move ends the game); it stores it, or raises
            :class:`StoreRefused` (the change is not made).
        status: ``"playing"``, ``"over"`` (the game ended) or ``"ended"`` (the host
            ended the table).
        reaction_limit: seconds a person's reaction window stays open (CR-7); when it
            runs out the seat lets the action happen (``Reacts.reaction_default``). None
            (the default): no limit.
        thinker: where the bots decide (the table service's worker processes); None:
            in this process, on the loop (a script or a test driving a table by hand).
        loader: returns the table's match replayed from the store, for a table that
            rested (:meth:`rest`); None: the table never rests.
        store_retry: seconds before the bots try again after the store refused a move
            (default :data:`STORE_RETRY`).
        turn_limit: the turn timer, seconds a person has per decision (None: no timer;
            the service and :meth:`set_turn_limit` keep it within :data:`TURN_LIMITS`).
            When a person's time runs out, the table plays for them with the seat's
            fallback bot (:meth:`_clock_turns`).

    Raises:
        OptionError: a seat count that does not match, an unknown bot (or a search
            budget over the table's limit, :data:`~playtest.tables.thinking.BUDGET_LIMITS`)
            or pace.
    """

    def __init__(self, id: str, match: Match, players: list[str], pace: str = DEFAULT_PACE,
                 paused: bool = False, on_move: Callable | None = None, status: str = "playing",
                 on_change: Callable | None = None, reaction_limit: float | None = None,
                 thinker: Thinker | None = None, loader: Callable[[], Match] | None = None,
                 store_retry: float = STORE_RETRY, turn_limit: float | None = None):
        if len(players) != match.game.seats:
            raise OptionError(f"players names {len(players)} seats for a {match.game.seats}-seat game")
        check_pace(pace)
        self.id, self._match, self.pace, self.paused, self.status = id, match, pace, paused, status
        self.game = match.game
        self._loader = loader
        self._past: dict | None = None          # what a resting table still tells: see rest()
        self._used = time.monotonic()           # when a page last joined or left, or the table woke
        self.players = list(players)
        self.names = [""] * len(players)      # per seat, the name its person gave ("": none)
        self.person_seats = set(self.humans)  # seats made for a person (a link, or open to the lobby)
        self.table = self._table()
        self.on_move = on_move or (lambda *args: None)
        self.on_change = on_change or (lambda table, **fields: None)
        self.pages: list[Page] = []
        self._sent: dict[Page, tuple[int, dict]] = {}   # page -> (log lines, fields(view)) it has; absent: none
        self.ready: set[int] = set()          # humans who pressed Continue at a round's reveal
        self.last_move: dict | None = None
        self.last_move_at: float | None = None   # wall time (epoch seconds) of the last move; None: none yet
        self.by_bot: list[bool] = [False] * len(match.moves)
        self._seen: dict[int, OrderedDict] = {}
        self._timer: asyncio.TimerHandle | None = None
        self.thinker = thinker or Thinker(workers=0)
        self._decision: _Decision | None = None    # the bot decision of this position, made off the loop
        self.reaction_limit = reaction_limit
        self.store_retry = store_retry
        self._reaction_timer: asyncio.TimerHandle | None = None
        self._reaction_version: int | None = None
        self.reaction_deadline: float | None = None   # loop time the open reaction window closes
        self._reaction_left: tuple[int, float] | None = None   # (version, seconds) kept by a pause
        self._clock = random.Random()          # timing only: never a decision
        self._http_seen = -HTTP_PRESENCE       # loop time of the last HTTP call of a seat
        self.unsaved = ""      # why the store refused the last move ("" since one was saved)
        self.turn_limit = turn_limit
        self.deadlines: dict[int, float] = {}  # person's seat deciding -> wall time (epoch s) its time runs out
        self._turn_left: dict[int, float] = {}  # seat -> seconds it had left when its clock was held
        self._turn_timer: asyncio.TimerHandle | None = None
        self.timed_out: set[int] = set()       # numbers (from 1) of moves played for a person out of time
        if match.outcome() is not None and status == "playing":
            self.status = "over"

    # --- a past table rests ------------------------------------------------------------
    @property
    def match(self) -> Match:
        """The table's match; a resting table wakes (its match replayed from the store)."""
        if self._match is None:
            self._match = self._loader()
            self._bot_table = self._table()
            self._used = time.monotonic()
        return self._match

    @property
    def table(self) -> Table:
        """The engine's :class:`~playtest.engine.Table` of the match and its bots."""
        self.match
        return self._bot_table

    @table.setter
    def table(self, table: Table) -> None:
        self._bot_table = table

    @property
    def resting(self) -> bool:
        """Whether the match is out of memory (:meth:`rest`)."""
        return self._match is None

    def rest(self, idle: float | None = None) -> bool:
        """Drop the match of a table that is over or ended from memory when no page has
        been connected for ``idle`` seconds (default :data:`PAST_REST`; its moves are in the store; the next use
        replays them). What the lobby lists of it is kept (:meth:`public_summary`,
        :meth:`outcome`). Returns whether it rested (never for a table being played, one
        with a page connected, or one without a loader)."""
        if (self._match is None or self._loader is None or self.status == "playing" or self.pages
                or time.monotonic() - self._used < (PAST_REST if idle is None else idle)):
            return False
        self._past = {"moves": len(self._match.moves), "cards": self.card_variant, "outcome": self._match.outcome(),
                      "turns": self._turns()}
        self._match = self._bot_table = None
        self._seen.clear()
        return True

    def outcome(self):
        """The match's :class:`~playtest.engine.Outcome` (None while it is on), without
        waking a resting table."""
        return self._past["outcome"] if self._match is None else self._match.outcome()

    def turns_played(self) -> int | None:
        """The turns the match has played, without waking a resting table; None for a game
        that does not count turns (not :class:`~playtest.engine.game.CountsTurns`)."""
        return self._past["turns"] if self._match is None else self._turns()

    def _turns(self) -> int | None:
        return self.game.turns_played(self._match.state) if isinstance(self.game, CountsTurns) else None

    def moves_played(self) -> int:
        """How many moves the match has played, without waking a resting table."""
        return self._past["moves"] if self._match is None else len(self._match.moves)

    def _table(self) -> Table:
        bots = {s: p for s, p in enumerate(self.players) if p != HUMAN}
        for seat, name in bots.items():
            check_table_bot(self.match.game, name)        # an unknown bot, a budget over the limit
        return Table(self.match, bots)

    def bot_names(self) -> list[str]:
        """The names of the game's bots, which :meth:`set_player` may seat."""
        return list(self.game.BOTS)

    # --- who is here -----------------------------------------------------------------
    @property
    def humans(self) -> list[int]:
        """The seats played by people."""
        return [s for s, p in enumerate(self.players) if p == HUMAN]

    def connected(self, seat: int) -> bool:
        """Whether a page of ``seat`` is connected now, with its browser (not ``away``)."""
        return any(page.seat == seat and page.role == "seat" for page in self.present())

    def present(self) -> list[Page]:
        """The connected pages whose browser is there (all but those ``away``)."""
        return [page for page in self.pages if not getattr(page, "away", False)]

    def browsers_gone(self, kernel_ids: set[str]) -> bool:
        """Mark the pages opened by these kernels as ``away`` (their browser page is gone:
        the kernel reaper saw no browser connected to the kernel) and every other page as
        back. A change counts at once: the others are sent the seat as disconnected (or
        connected again), the bots' clock is planned again (bots hold while no page is
        present), and an away page is sent nothing until it is back, then its full state.

        Args:
            kernel_ids: the ids of the kernels without a browser page now.

        Returns:
            Whether any page changed.
        """
        changed = False
        for page in self.pages:
            kernel = getattr(page, "kernel", None)
            away = kernel is not None and kernel in kernel_ids
            if away != getattr(page, "away", False):
                page.away, changed = away, True
        if changed:
            self.schedule()
            self.broadcast()
        return changed

    def touch(self) -> None:
        """A seat called the HTTP API (a script playing without a page): bots keep
        playing for :data:`HTTP_PRESENCE` seconds as if a page were connected."""
        self._http_seen = time.monotonic()
        self.schedule()

    def attach(self, page: Page) -> None:
        """A page joined: a seat page replaces an older page of the same seat (the newest
        wins: a reloaded page, or the link opened on another device). Sends it its state
        and tells the others the seat is back."""
        if page.role == "seat":
            for old in [p for p in self.pages if p.role == "seat" and p.seat == page.seat]:
                self.pages.remove(old)
                self._sent.pop(old, None)
                old.leave("this seat was opened in another page")
        self.pages.append(page)
        self._used = time.monotonic()
        self.schedule()
        self.broadcast()

    def detach(self, page: Page) -> None:
        """A page left (closed, reloaded, lost, or too far behind): the others see the
        seat as disconnected. The table keeps no reference to it."""
        self._sent.pop(page, None)
        self._used = time.monotonic()
        if page in self.pages:
            self.pages.remove(page)
            self.schedule()
            self.broadcast()

    # --- what a page is sent ------------------------------------------------------------
    def hold(self) -> dict | None:
        """The end-of-round reveal still on show: who has yet to press Continue (LS-7/LS-9:
        everyone sees the revealed lists before the next round is dealt), or None."""
        match = self.match
        if self.status != "playing" or not match.game.round_break(match.state):
            return None
        waiting = [s for s in self.humans if s not in self.ready]
        if not waiting:
            return None
        return {"reason": "The round is over: everyone sees the revealed cards. The next round is dealt "
                          "when every player has pressed Continue.", "waiting": waiting}

    def state_for(self, seat: int | None) -> dict:
        """The ``state`` message of a page showing ``seat``'s view (None: the public view):
        that view, the whole log worded for that seat, and only that seat's moves. A page
        gets it when it joins and when it asks for a resync; the HTTP API answers it."""
        return self._state(seat, self._now(seat))

    def _state(self, seat: int | None, now: dict) -> dict:
        return {"type": "state", **now, "log": [[n, text] for n, text in self.match.log_for(seat)]}

    def _update(self, seat: int | None, now: dict, fields: dict, log_from: int, had: dict) -> dict:
        """The ``update`` message of a page showing ``seat``'s view that has the first
        ``log_from`` lines of the log and a view whose :func:`_fields` are ``had``
        (``now``: :meth:`_now` of the seat, ``fields``: of its view): the fields of
        :meth:`state_for`, but ``log`` holds only the lines from index ``log_from`` on
        (``log_from`` says where they go: a page whose log is not that long missed some
        and asks for a resync), ``view`` only the view's top-level fields whose value
        changed, and ``view_gone`` the names of fields the view no longer has. Its size
        does not grow with the game's length."""
        return {"type": "update", **now,
                "view": {k: v for k, v in now["view"].items() if had.get(k) != fields[k]},
                "view_gone": [k for k in had if k not in fields], "log_from": log_from,
                "log": [[n, text] for n, text in self.match.log_for(seat, log_from)]}

    def _now(self, seat: int | None) -> dict:
        """Everything a page of ``seat`` is sent but the log."""
        match, game = self.match, self.match.game
        outcome = match.outcome()
        hold = self.hold()
        moves, open_moves = [], []
        if seat is not None and self.status == "playing" and hold is None and self.players[seat] == HUMAN:
            moves = [str(m) for m in match.decision_moves(seat)]
            open_moves = [str(m) for m in match.open_moves(seat)] if game.OPEN_MOVES else []
        last = self.last_move
        if last is not None and last["seat"] != seat:
            last = {k: v for k, v in last.items() if k != "text"}   # another seat's args may be secret
        return {
            "version": len(match.moves), "view": match.view(seat),
            "to_act": list(match.to_act()), "moves": moves, "open_moves": open_moves,
            "outcome": None if outcome is None else {
                "finished": outcome.finished, "winners": list(outcome.winners),
                "scores": list(outcome.scores), "reason": outcome.reason},
            "last_move": last, "hold": hold, "paused": self.paused, "pace": self.pace,
            "reaction_seconds": None if self.reaction_deadline is None else round(
                max(0.0, self.reaction_deadline - asyncio.get_event_loop().time()), 1),
            "turn_limit": self.turn_limit,
            "turn_deadlines": [{"seat": s, "deadline": round(d, 3)} for s, d in sorted(self.deadlines.items())],
            "status": self.status,
            "store": (f"The server cannot save moves now ({self.unsaved}): the table waits until it can."
                      if self.unsaved else None),
            "players": [{"seat": s, "player": p, "connected": p != HUMAN or self.connected(s),
                         "person": s in self.person_seats, "name": self.names[s]}
                        for s, p in enumerate(self.players)],
        }

    def broadcast(self) -> None:
        """Send every connected page what changed, in its own seat's words: a page that
        has had nothing yet (it just joined) its full ``state``, every other one an
        ``update`` with the log lines it has not had and the view's fields that changed
        (:meth:`_update`). A page whose browser is away gets nothing (its kernel would
        only queue the updates); when it is back, one update brings it everything since."""
        size = len(self.match.log)
        nows: dict[int | None, tuple[dict, dict]] = {}     # the view and moves, once per seat
        for page in self.present():
            if page.seat not in nows:
                now = self._now(page.seat)
                nows[page.seat] = now, _fields(now["view"])
            (now, fields), sent = nows[page.seat], self._sent.get(page)
            message = self._state(page.seat, now) if sent is None else self._update(page.seat, now, fields, *sent)
            self._sent[page] = (size, fields)
            page.send(message)

    def resync(self, page: Page) -> None:
        """Send ``page`` its full ``state`` again: it asked (its log has a gap, or it got
        a message it does not know). Updates go on from there."""
        if page in self.pages:
            message = self.state_for(page.seat)
            self._sent[page] = (len(self.match.log), _fields(message["view"]))
            page.send(message)

    # --- moves ------------------------------------------------------------------------
    def submit(self, seat: int, text: str, client_id: Any = None, version: int | None = None) -> Result:
        """A person's move from ``seat``'s page (or the HTTP API).

        Args:
            seat: the sender's seat (its token was checked). text: the move's text form.
            client_id: the page's id for this move (a resend of an id already played
                answers as the first time, and plays nothing). version: the number of
                moves of the position the page chose it on; a move chosen on an older
                position is taken only if it is still legal now and is an open move
                (LS-5) or a simultaneous decision the moves since did not touch (CR-8,
                see :meth:`_simultaneous`).

        Returns:
            The :class:`Result`; the move was stored and every page sent its new state
            before an ``ok`` result returns. A refused move changed nothing.
        """
        seen = self._seen.setdefault(seat, OrderedDict())
        if client_id is not None and not isinstance(client_id, str):   # a dict would not even hash
            return Result(False, f"a move's id must be a string (the page's own name for the move), "
                                 f"not {type(client_id).__name__}; nothing was played")
        if client_id is not None and client_id in seen:
            return seen[client_id]          # a resend: the first answer again, whatever it was
        result = self._submit(seat, text, version)
        if client_id is not None and not result.unsaved:     # an unsaved move may be made again
            seen[client_id] = result
            while len(seen) > SEEN_IDS:
                seen.popitem(last=False)
        return result

    def who(self, seat: int) -> str:
        """A seat as people read it in a sentence: "seat 2 (Ana)", "seat 3 (heuristic bot)",
        "seat 1" (counted from 1, see :func:`seat_label`)."""
        player = self.players[seat]
        return seat_label(seat, self.names[seat] if player == HUMAN else f"{player} bot")

    def _first_since(self, version: int | None, seat: int) -> str:
        """Who moved first since move ``version`` (another seat than ``seat``; None: the
        last move of another seat), and with what: "seat 2 (Ana) moved first (claim)"."""
        moves = self.match.moves
        others = [m for m in (moves[version:] if version is not None else reversed(moves)) if m.seat != seat]
        first = others[0] if others else None
        return "another seat moved first" if first is None else f"{self.who(first.seat)} moved first ({first.kind})"

    def _submit(self, seat: int, text: str, version: int | None) -> Result:
        if self.status != "playing":
            return Result(False, "the game is over" if self.status == "over" else "the host ended this table")
        if self.players[seat] != HUMAN:
            return Result(False, f"{seat_label(seat)} is played by a bot now (the host handed it over)")
        try:
            move = Move.parse(text)
        except MoveSyntaxError as exc:
            return Result(False, str(exc))
        if move.seat != seat:
            return Result(False, f"this page plays {seat_label(seat)}, not {seat_label(move.seat)} (move text "
                                 f"'{move}': move texts count seats from 0)")
        hold = self.hold()
        if hold is not None:
            return Result(False, "the round is over: the next round starts when every player has pressed "
                                 "Continue")
        current = len(self.match.moves)
        late = version is not None and 0 <= version < current
        if (version is not None and version != current and move.kind not in self.match.game.OPEN_MOVES
                and not self._simultaneous(seat, version)):
            first = self._first_since(version, seat) if late else "another seat moved first"
            return Result(False, f"{TOO_LATE}{first}; choose again on the new position")
        problem = self.match.refusal(move)
        if problem is not None:
            # the game's reason counts from 0, as the engine does: said as people count
            reason = (for_people(problem.reason) if problem.reason
                      else f"{seat_label(seat)} cannot make that move now (move text '{move}')")
            return Result(False, (f"{TOO_LATE}{self._first_since(version, seat)}, so " if late else "")
                          + reason, problem.ruling)
        # an open move the rules take though it is no longer offered is a late one, returned
        # (LS-5: a claim on a DONE top that has changed), whatever version the page sent: a
        # page finishing a claim on the offer it began on sends the newer version
        returned = move.kind in self.match.game.OPEN_MOVES and move not in self.match.open_moves(seat)
        result = self._play(move, by_bot=False)
        if result.ok and returned:
            result.late = (f"{TOO_LATE}{self._first_since(version if late else None, seat)}; your {move.kind} "
                           "came after it and was returned: nothing changed")
        return result

    def _simultaneous(self, seat: int, version: int) -> bool:
        """Whether a decision ``seat`` chose at move ``version`` is still its to make: it
        was on decision then together with other seats (a simultaneous choice, e.g. a
        Family Meeting pass, CR-8), and every move since was one of those other seats'
        decisions. Their choices do not change what ``seat`` may choose, so two people
        committing at once are both taken (is the move still legal now is checked after).
        A deciding seat may make two moves of its own meanwhile (Lazy Sunday's setup peek
        and its 'done', LS-3: every seat peeks at once). A move after which anything else
        happened (a turn, an open move) is too late.

        Args:
            seat: the sender. version: moves in the position it chose on (int).
        """
        moves = self.match.moves
        if not 0 <= version < len(moves) or len(moves) - version > 2 * self.match.game.seats:
            return False
        deciding = set(self.match.branch(version).to_act())
        return seat in deciding and all(m.seat in deciding - {seat} for m in moves[version:])

    def _play(self, move: Move, by_bot: bool, timed_out: bool = False) -> Result:
        match = self.match
        number = len(match.moves) + 1
        try:
            self.on_move(self, number, str(move), move.seat, by_bot, timed_out)    # durable before it counts
        except StoreRefused as exc:
            told, self.unsaved = self.unsaved, str(exc)
            if not told:
                self.broadcast()           # every page: the table waits
            self.schedule()                # bots try again after store_retry
            return Result(False, f"the server cannot save moves now ({exc}): your move was not played; make it "
                                 "again once the server can save", unsaved=True)
        self.unsaved = ""
        log_start = len(match.log)
        events = match.play(move)
        self.by_bot.append(by_bot)
        if timed_out:
            self.timed_out.add(number)
            match.note(timed_out_line(move.seat, self.names[move.seat]))
        if move.kind not in match.game.OPEN_MOVES:
            self.deadlines.pop(move.seat, None)     # its decision is answered: the next one has its own time
            self._turn_left.pop(move.seat, None)
        self.last_move_at = time.time()
        # "public": the move's log lines as the spectator reads them (a hotseat page behind
        # its privacy screen says what happened without any seat's private line)
        self.last_move = {"number": number, "seat": move.seat, "kind": move.kind, "by_bot": by_bot,
                          "text": str(move), "public": [text for _n, text in match.log_for(SPECTATOR, log_start)],
                          **({"timed_out": True} if timed_out else {})}
        if not match.game.round_break(match.state):
            self.ready.clear()
        if match.outcome() is not None:
            self.status = "over"
            try:
                self.on_change(self, status="over")
            except StoreRefused:
                pass        # the last move is stored: a restart finds the game over from it
        self.schedule()
        self.broadcast()
        return Result(True, log=tuple(e.for_seat(move.seat) for e in events))

    def press_continue(self, seat: int | None) -> None:
        """``seat`` has seen the round's reveal (None: the host starts the next round for
        everyone). The last Continue plays the next round's deal for a person whose only
        move it is (LS-9: the next round is dealt once everyone has seen the reveal)."""
        if seat is None:
            self.ready.update(self.humans)
        else:
            self.ready.add(seat)
        match = self.match
        if self.status == "playing" and self.hold() is None and match.game.round_break(match.state):
            # the last Continue deals the next round: a person whose only move is the deal
            # (Lazy Sunday's "Deal the next round") is not asked for one more click
            for actor in match.game.to_act(match.state):
                forced = match.decision_moves(actor) if actor in self.humans else []
                if len(forced) == 1:
                    self._play(forced[0], by_bot=False)
                    return
        self.schedule()
        self.broadcast()

    # --- host controls ---------------------------------------------------------------
    def set_paused(self, paused: bool) -> None:
        """Pause or resume the bots, the reaction windows' clock (see
        :meth:`_clock_reaction`) and the turn timer (each deciding person keeps the
        seconds they had left, :meth:`_clock_turns`).

        Raises:
            StoreRefused: the store could not save it (nothing changed)."""
        self.on_change(self, paused=bool(paused))
        self.paused = bool(paused)
        self.schedule()
        self.broadcast()

    def set_pace(self, pace: str) -> None:
        """Set the bots' pace (a name of :data:`PACES`).

        Raises:
            OptionError: an unknown pace. StoreRefused: the store could not save it
                (nothing changed).
        """
        check_pace(pace)
        self.on_change(self, pace=pace)
        self.pace = pace
        self.schedule()
        self.broadcast()

    def set_turn_limit(self, seconds: float | None) -> None:
        """Set the turn timer (seconds a person has per decision, within
        :data:`TURN_LIMITS`) or turn it off (None). The new time counts from now, for
        the people deciding now too.

        Raises:
            OptionError: seconds outside the range (nothing changed). StoreRefused:
                the store could not save it (nothing changed)."""
        seconds = check_turn_limit(seconds)
        self.on_change(self, turn_limit=seconds)
        self.turn_limit = seconds
        self.deadlines.clear()
        self._turn_left.clear()
        self.schedule()
        self.broadcast()

    def set_player(self, seat: int, player: str, force: bool = False) -> None:
        """Seat a bot (a name of the game's bots) or a person (``"human"``) at ``seat``:
        the host hands a disconnected player's seat to a bot, or back, or a bot's seat to
        another bot. The seat's pages stay connected and see the seat played by the bot
        (they say so). Only a seat made for a person (:attr:`person_seats`: it has a
        link, or the lobby hands it out) goes back to a person: a seat made for a bot
        has no link, so nobody could play it.

        Args:
            seat: the seat (int). player: ``"human"`` or a bot name. force: hand the
                seat to a bot even while a person's page of it is connected.

        Raises:
            OptionError: a seat out of range, an unknown bot, the seat's own player, or
                a person for a seat made for a bot (nothing changed).
            SeatConnected: a person's page of the seat is connected and ``force`` is
                not set (nothing changed). StoreRefused: the store could not save it
                (nothing changed).
        """
        if type(seat) is not int or not 0 <= seat < len(self.players):
            raise OptionError(f"seat {reprlib.repr(seat)} is not a seat of this table; seats are 0 to "
                              f"{len(self.players) - 1}")
        current = self.players[seat]
        if player == current:
            raise OptionError(f"{api_seat(seat)} is already played by "
                              + ("its person" if current == HUMAN else f"the {current} bot"))
        if player == HUMAN and seat not in self.person_seats:
            raise OptionError(f"{api_seat(seat)} was made for a bot and has no person's link, so no person can play "
                              f"it; it may be handed to another bot ({', '.join(self.bot_names())})")
        if player != HUMAN and self.players[seat] == HUMAN and self.connected(seat) and not force:
            raise SeatConnected(f"{api_seat(seat)} is connected: a person is playing it on their page right now; "
                                'send "force": true to hand it to a bot anyway (their page is told)')
        players = list(self.players)
        players[seat] = player
        old, old_table, self.players = self.players, self.table, players
        try:
            self.table = self._table()
            self.on_change(self, players=self.players)
        except (OptionError, StoreRefused):
            self.players, self.table = old, old_table
            raise
        self.schedule()
        self.broadcast()

    def set_name(self, seat: int, name: Any) -> None:
        """The person at ``seat`` gave their name (on joining with their seat link): every
        page shows it from now on ("Seat 2 (Ana)"), the record's export too.

        Raises:
            OptionError: a name :func:`check_name` refuses (nothing changed).
            StoreRefused: the store could not save it (nothing changed)."""
        name = check_name(name)
        if name == self.names[seat]:
            return
        self.on_change(self, name=(seat, name))
        self.names[seat] = name
        self.broadcast()

    def end(self) -> None:
        """The host ends the table: no more moves; pages are told and closed.

        Raises:
            StoreRefused: the store could not save it (nothing changed)."""
        self.on_change(self, status="ended")
        self.status = "ended"
        self.cancel()
        self.broadcast()

    # --- bots on a clock --------------------------------------------------------------
    def cancel(self) -> None:
        """Drop the bots' planned move, the decision being made, the reaction
        window's clock and the turn timer's."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._drop_decision()
        self._stop_reaction_clock()
        self._stop_turn_clock()
        self.deadlines.clear()

    def _stop_turn_clock(self) -> None:
        if self._turn_timer is not None:
            self._turn_timer.cancel()
            self._turn_timer = None

    def timed_seats(self) -> list[int]:
        """The seats whose decision the turn timer counts now: people's seats with a
        decision to make (an open move such as a quick discard is none), while the table
        is played and no round's reveal is on show. A reaction window (CR-7) is not
        timed: it keeps its own rules (the table's ``reaction_limit``)."""
        match, game = self.match, self.match.game
        if not self.turn_limit or self.status != "playing" or self.hold() is not None:
            return []
        return [s for s in match.to_act() if self.players[s] == HUMAN and match.decision_moves(s)
                and not (isinstance(game, Reacts) and game.reaction_default(match.state, s) is not None)]

    def _clock_turns(self, loop) -> None:
        """The turn timer: each person deciding (:meth:`timed_seats`) has
        :attr:`turn_limit` seconds per decision, from when the decision came to them
        (another seat's move meanwhile does not restart it; their own move does). Their
        :attr:`deadlines` are wall times (the pages draw their countdown from them). When
        one runs out, the table plays for them with the seat's fallback bot
        (:meth:`_time_out`). The clock holds, keeping each person's seconds left, while
        the table is paused or no page is present (as the bots do); a server restart
        gives each deciding person a full :attr:`turn_limit` again."""
        self._stop_turn_clock()
        timed = set(self.timed_seats())
        now = time.time()
        self.deadlines = {s: d for s, d in self.deadlines.items() if s in timed}
        self._turn_left = {s: left for s, left in self._turn_left.items() if s in timed}
        if self.paused or not self._someone_here():
            for seat, deadline in self.deadlines.items():
                self._turn_left[seat] = max(0.0, deadline - now)
            self.deadlines.clear()
            return
        for seat in timed - set(self.deadlines):
            self.deadlines[seat] = now + self._turn_left.pop(seat, self.turn_limit)
        if self.deadlines:
            wait = max(0.0, min(self.deadlines.values()) - now)
            if self.unsaved:
                wait = max(wait, STORE_RETRY)      # the store refused the last move: try again later
            self._turn_timer = loop.call_later(wait, self._time_out)

    def _time_out(self) -> None:
        """A person's time ran out (the earliest deadline, the lowest seat on a tie): the
        table plays their decision with the seat's fallback bot
        (:func:`~playtest.tables.thinking.fallback_bot`: the game's heuristic bot, or the
        random bot), decided at once on the loop from the seat's bot view, as a bot would;
        the log says so on every page (:func:`timed_out_line`) and the record marks the move."""
        self._turn_timer = None
        now = time.time()
        due = sorted((d, s) for s, d in self.deadlines.items() if d <= now)
        if not due or due[0][1] not in self.timed_seats():
            self.schedule()
            return
        seat = due[0][1]
        match = self.match
        version = len(match.moves)
        decision = Decision(type(match.game), match.game.seats, match.options_dict(), fallback_bot(match.game, HUMAN),
                            match.side_seed(f"{seat}:{version}:timed-out"), match.bot_view(seat),
                            match.decision_moves(seat))
        self._play(decide(decision, self.thinker.cap), by_bot=True, timed_out=True)

    def _drop_decision(self) -> None:
        if self._decision is not None:
            self._decision.task.cancel()   # a decision not started never runs; a running one is ignored
            self._decision = None

    def _stop_reaction_clock(self) -> None:
        if self._reaction_timer is not None:
            self._reaction_timer.cancel()
        self._reaction_timer = self.reaction_deadline = self._reaction_version = None

    def _clock_reaction(self, loop) -> None:
        """With a reaction limit, a person's open reaction window (CR-7) closes after
        ``reaction_limit`` seconds: the seat lets the action happen. The clock of a window
        runs on whatever else happens (a page reconnecting does not restart it), except a
        host's pause: it stops the clock, and the window gets the seconds it had left
        when the table resumes (a pause is for talking, nobody loses a reaction to it)."""
        version = len(self.match.moves)
        if self.paused and self._reaction_timer is not None and self._reaction_version == version:
            self._reaction_left = (version, max(0.0, self.reaction_deadline - loop.time()))
            self._stop_reaction_clock()
            return
        if self._reaction_timer is not None and self._reaction_version == version:
            return
        self._stop_reaction_clock()
        if not self.reaction_limit or self.status != "playing" or self.hold() is not None or self.paused:
            return
        left = self._reaction_left[1] if self._reaction_left and self._reaction_left[0] == version else None
        self._reaction_left = None
        game, state = self.match.game, self.match.state
        for seat in self.match.to_act():
            default = (game.reaction_default(state, seat) if self.players[seat] == HUMAN and isinstance(game, Reacts)
                       else None)
            if default is not None:
                self.reaction_deadline = loop.time() + (self.reaction_limit if left is None else left)
                self._reaction_version = version
                self._reaction_timer = loop.call_later(self.reaction_limit, self._reaction_over, default, version)
                return

    def _reaction_over(self, move: Move, version: int) -> None:
        self._reaction_timer = self.reaction_deadline = self._reaction_version = None
        if len(self.match.moves) == version and self.status == "playing" and self.match.refusal(move) is None:
            self._play(move, by_bot=False)

    def bots_may_move(self) -> bool:
        """Bots hold while the table is paused, over, at a round's reveal, or while no
        page is connected at all (nobody would see them play; a page whose browser is
        away does not count)."""
        return (self.status == "playing" and not self.paused and self._someone_here() and self.hold() is None
                and bool(self.table.bots))

    def _someone_here(self) -> bool:
        """A page is present, or a seat called the HTTP API lately (:meth:`touch`)."""
        return bool(self.present()) or time.monotonic() - self._http_seen < HTTP_PRESENCE

    def schedule(self) -> None:
        """Plan the bots' next move on the current position: the quickest of the open
        moves bots want (each after its own reaction time) or the decision of the bot to
        act (after a think time counted from when it started deciding: the bot decides
        meanwhile, off the loop, once per position and bot, however often this is
        called: :meth:`_decide`). The plan is dropped if the table moves first."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        version = len(self.match.moves)
        if self._decision is not None and self._decision.key[0] != version:
            self._drop_decision()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:       # no event loop (a script driving the table by hand): no clock
            return
        self._clock_reaction(loop)
        self._clock_turns(loop)
        if not self.bots_may_move():
            return
        wanted, seat = self.table.proposals()
        think, react = PACES[self.pace]
        if wanted:
            delay, move = min(((self._clock.uniform(*react), move) for move in wanted.values()),
                              key=lambda plan: plan[0])
            if self.unsaved:
                delay = max(delay, self.store_retry)     # the store refused the last move: try again later
            self._timer = loop.call_later(delay, self._bot_move, move, version)
        key = None if seat is None else (version, seat, self.players[seat])
        if self._decision is not None and self._decision.key == key:
            self._plan_decision()
            return
        self._drop_decision()
        if key is not None:
            match = self.match
            decision = Decision(type(match.game), match.game.seats, match.options_dict(), self.players[seat],
                                match.side_seed(f"{seat}:{version}"), match.bot_view(seat),
                                self.table.decision_moves(seat))
            self._decision = _Decision(key, loop.time() + self._clock.uniform(*think),
                                       loop.create_task(self._decide(decision, key)))

    async def _decide(self, decision: Decision, key: tuple[int, int, str]) -> None:
        """Have the bot decide (:class:`~playtest.tables.thinking.Thinker`), then plan
        its move (:meth:`_plan_decision`)."""
        move = await self.thinker.choose(decision)
        if self._decision is not None and self._decision.key == key:
            self._decision.move = move
            self._plan_decision()

    def _plan_decision(self) -> None:
        """Plan the decided move at its due time, unless an open move is planned sooner
        (after it, a new plan), the position changed or the bots hold."""
        decision, loop = self._decision, asyncio.get_running_loop()
        if (decision is None or decision.move is None or decision.key[0] != len(self.match.moves)
                or not self.bots_may_move() or (self._timer is not None and self._timer.when() <= decision.due)):
            return
        if self._timer is not None:
            self._timer.cancel()
        wait = max(0.0, decision.due - loop.time())
        if self.unsaved:
            wait = max(wait, self.store_retry)        # the store refused the last move: try again later
        self._timer = loop.call_later(wait, self._bot_move, decision.move, decision.key[0])

    def _bot_move(self, move: Move, version: int) -> None:
        self._timer = None
        if len(self.match.moves) != version:
            return                             # the move that came first planned again
        if not self.bots_may_move():
            self.schedule()
            return
        try:
            self._play(move, by_bot=True)
        except PlaytestError:      # cannot happen for a bot's listed move; never stop the table
            self.schedule()

    def public_summary(self) -> dict[str, Any]:
        """What the lobby lists: no token, no card."""
        humans = self.humans
        return {"game": self.game.name, "title": self.game.title, "seats": self.game.seats,
                "players": list(self.players), "moves": self.moves_played(), "status": self.status,
                "connected": [s for s in humans if self.connected(s)], "pace": self.pace, "paused": self.paused,
                "cards": self._past["cards"] if self._match is None else self.card_variant,
                "to_act": list(self.match.to_act()) if self.status == "playing" else [],
                "last_move_at": self.last_move_at, "turn_limit": self.turn_limit}

    @property
    def card_variant(self) -> str:
        """The card variant the table plays (its ``card_variant`` option, LS-1/CR-1), ""
        for the game's own cards."""
        return str(self.match.options_dict().get("card_variant") or "")
