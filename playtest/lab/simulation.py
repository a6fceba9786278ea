"""Play many bot games and return one row per game (the balance lab's engine room).

:func:`simulate` is game-agnostic: it plays through :class:`~playtest.engine.Table`, and
reads turns, lead changes and per-card counters through the game contract's optional
capabilities (:class:`~playtest.engine.game.CountsTurns`, :class:`~playtest.engine.game.Leads`,
:class:`~playtest.engine.game.CountsCards`).

Scale-out: work is cut into chunks (ranges of game indices) and sent to any
``concurrent.futures.Executor``. By default many games run in local processes; to use a
Dask cluster, pass its client (or its executor)::

    from distributed import Client, LocalCluster
    with LocalCluster(n_workers=2, threads_per_worker=1) as cluster, Client(cluster) as client:
        df = simulate("lazy_sunday", 4, "heuristic", games=100_000, executor=client)

Before the first chunk, every Dask worker is asked to import the kit (a worker without it
would otherwise drop its connection and leave the run waiting for ever); a worker that
cannot fails the run at once, saying so.

Game ``i``'s seed depends on ``(seed, i)`` alone, so the rows are the same whatever the
executor, the number of workers or the chunking.
"""
from __future__ import annotations

import gc
import hashlib
import math
import numbers
import os
import pickle
import pkgutil
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, ProcessPoolExecutor, wait
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import Any

import pandas as pd

from playtest.engine import Bot, Game, Match, Move, OptionError, Table, check_bot_name, get_game
from playtest.engine.game import CountsCards, CountsTurns, HasResources, Leads, Scores

from .interrupt import ignore_interrupts
from .presets import find_preset

AUTO_PROCESS_GAMES = 200
"""With ``workers=None``, at least this many games run in local processes."""
MAX_CHUNK = 50
"""Most games per chunk sent to a worker (bounds a chunk's memory and cancel latency)."""
MIN_CHUNK = 20
"""Fewest games per chunk (except the last): building a chunk's rows costs about 1 ms."""
LOCAL_CHUNK_SECONDS = 0.25
"""In this process (``workers=1``), chunks of games slower than this in all are made
smaller, down to one game, so Cancel is seen between them this soon (a game of search
bots, e.g. Night Shift's ismcts, takes most of a second: a 20-game chunk made Cancel
wait 17 s)."""
DASK_CHUNK_SECONDS = 0.5
"""On a Dask cluster (through its client), chunks grow past :data:`MAX_CHUNK` to about
this many seconds of play each, at the rate measured on the chunks back so far: a chunk
costs about 10 ms of CPU in the worker, the scheduler and the client together (messages,
task states), 15% of a 50-game chunk of heuristic Lazy Sunday (~70 ms), and on a small
machine those processes share the cores with the workers (2026-12-02: 4,000 games on 2
workers took 6.4 s of CPU in 80 chunks, 5.8 s in 21; one process 5.4 s). The bound in
seconds keeps Cancel as quick for slow bots as for fast ones; chunks shrink again as the
run nears its end."""
CARD_COLUMN = "seat{seat}_{counter}:{card}"
"""Name of a per-card counter column, e.g. ``seat2_played:Excuse``."""
PROBE_SECONDS = 20.0
"""How long a Dask cluster's workers have to show they can import the kit (they import
pandas with it: a second or two on a cold worker)."""
TRACE_COLUMNS = ("score_curve", "lead_change_turns", "longest_stall")
"""The columns ``simulate(..., trace=True)`` adds (besides ``min_``/``max_`` per resource)."""

BotSpec = str | Callable[..., Bot]


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a simulation seeded ``seed``: a 63-bit number hashed
    from both, so it never depends on which worker plays the game."""
    digest = hashlib.blake2b(f"{seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


@dataclass(frozen=True)
class Plan:
    """Everything a worker needs to play games of one simulation (picklable).

    Attributes: ``game`` (Game class), ``seats``, ``options`` (validated options model),
    ``bots`` (per line-up position: a bot name or a Bot factory), ``bot_names``,
    ``seed``, ``keep_records``, ``trace`` (measure every turn: see :func:`simulate`).
    """

    game: type[Game]
    seats: int
    options: Any
    bots: tuple[BotSpec, ...]
    bot_names: tuple[str, ...]
    seed: int
    keep_records: bool
    trace: bool = False

    def lineup(self, index: int) -> list[int]:
        """Per seat, the line-up position of its bot in game ``index``: the line-up
        shifts one seat per game, so every bot plays every seat equally often."""
        return [(seat - index) % self.seats for seat in range(self.seats)]


def play_games(plan: Plan, start: int, stop: int) -> pd.DataFrame:
    """Play games ``start`` .. ``stop - 1`` of ``plan``; one row per game (see
    :func:`simulate` for the columns). Runs in a worker; only the rows come back."""
    names: dict[tuple, str] = {}  # card counter columns, formatted once per chunk
    rows = []
    for index in range(start, stop):
        seed = game_seed(plan.seed, index)
        lineup = plan.lineup(index)
        match = Match(plan.game, plan.seats, plan.options, seed, keep_log=False)
        bots = {}
        for seat, position in enumerate(lineup):
            spec = plan.bots[position]
            bots[seat] = spec if isinstance(spec, str) else spec(match.side_seed(str(seat)))   # "<seed>:<seat>"
        table = Table(match, bots)
        row = {"game": index, "seed": seed,
               **match_row(match, table.step_bot, [plan.bot_names[p] for p in lineup], names, plan.trace)}
        if match.outcome() is None:
            raise RuntimeError(f"game {index} (seed {seed}): the bots stopped before the game ended; "
                               f"seats to act: {match.to_act()}")
        if plan.keep_records:
            row["record"] = match.to_json()
        rows.append(row)
    return pd.DataFrame(rows)


class _Rows:
    """A chunk's rows on their way back from a worker, with a size that costs nothing to
    read. Dask sizes every task's result with ``dask.sizeof`` (as the task ends, as the
    worker stores it, and again as it sends it), and for a DataFrame that builds a Series
    per column: with Lazy Sunday's 122 columns (most of them card counters) about 1 ms a
    call, 8% of a Dask worker's CPU on 50-game chunks (py-spy, 2026-12-02)."""

    __slots__ = ("frame", "nbytes", "seconds")

    def __init__(self, frame: pd.DataFrame, seconds: float = 0.0):
        self.frame, self.seconds = frame, seconds   # seconds: the worker's time on the chunk
        records = frame["record"] if "record" in frame.columns else ()
        self.nbytes = 8 * frame.size + sum(len(r) for r in records)   # numbers, or the records' text

    def __sizeof__(self) -> int:
        return 64 + self.nbytes


def _play_chunk(plan: Plan, start: int, stop: int) -> _Rows:
    """:func:`play_games` as sent to an executor's workers (see :class:`_Rows`)."""
    started = time.perf_counter()
    frame = play_games(plan, start, stop)
    return _Rows(frame, time.perf_counter() - started)


def match_row(match: Match, step: Callable[[], Move | None], players: Sequence[str],
              card_columns: dict[tuple, str] | None = None, trace: bool = False) -> dict[str, Any]:
    """Play ``match`` on to its end and measure it: the balance lab's row of one game,
    shared by bot games (:func:`simulate`) and people's tables
    (:func:`~playtest.lab.read_tables`).

    Args:
        match: a match at its start position (the first seat to act is read from it).
        step: plays one move on ``match`` and returns it, or returns None when no move
            is left (e.g. ``Table.step_bot``, or a replay of a record's moves).
        players: per seat, the name shown for who played it (a bot name, ``"human"``).
        card_columns: a cache of card counter key -> column name, shared between the
            games of one call (formatting the names is a measurable part of a chunk).
        trace: also measure the game turn by turn (the columns of :data:`TRACE_COLUMNS`
            and the resources' ``min_``/``max_``; see :func:`simulate`). Off, nothing is
            read per move but the two cheap hooks below.

    Returns:
        The columns :func:`simulate` documents from ``first_seat`` on (``game``,
        ``seed`` and ``record`` are the caller's). A match that stops before its game
        is over (an abandoned table) gets ``finished`` False, no winner, NaN scores and
        no end-of-game card counters.

    Raises:
        whatever ``step`` raises (an illegal move of a replay, a bot's bug).
    """
    game_type, game = type(match.game), match.game
    track_turns, track_lead, track_cards = (isinstance(game, CountsTurns), isinstance(game, Leads),
                                            isinstance(game, CountsCards))
    card_columns = {} if card_columns is None else card_columns
    state = match.state
    waiting = match.to_act()
    first = waiting[0] if waiting else None
    lead = game.leaders(state) if track_lead else None
    lead_changes, changed_at = 0, -1
    counts: Counter = Counter()
    tracer = _Tracer(match, track_turns) if trace else None
    # the hot loop: nothing per move but the two optional, cheap hooks (and the tracer, if asked)
    while (move := step()) is not None:
        if track_cards and (counted := game.card_counts(state, move)):  # mostly none
            counts.update(counted)
        if track_lead:
            now = game.leaders(state)
            if now != lead:
                lead_changes += 1
                lead = now
                changed_at = len(match.moves)
                if tracer is not None:
                    tracer.lead_changed()
        if tracer is not None:
            tracer.moved()
    outcome = match.outcome()
    if outcome is not None and not outcome.finished and changed_at == len(match.moves):
        lead_changes -= 1  # the G-4 cap's stop (e.g. a round left unscored) is no change of lead
        if tracer is not None:
            tracer.lead_change_turns.pop()
    if track_cards and outcome is not None:
        counts.update(game.card_counts(state, None))
    finished = outcome is not None and outcome.finished
    winners = tuple(outcome.winners) if outcome is not None else ()
    scores = outcome.scores if outcome is not None else [math.nan] * game.seats
    row = {
        "first_seat": first, "finished": finished, "draw": finished and not winners, "winners": winners,
        "winner_bots": tuple(players[w] for w in winners),
        "turns": game.turns_played(state) if track_turns else None, "moves": len(match.moves),
        "lead_changes": lead_changes if track_lead else None, "margin": _margin(scores, winners),
        "end_condition": game.end_condition(state) if finished else None,
    }
    for seat, name in enumerate(players):
        row[f"seat{seat}_bot"] = name
    for seat, score in enumerate(scores):
        row[f"seat{seat}_score"] = score
    for seat in range(game.seats):
        row[f"seat{seat}_won"] = seat in winners
    for seat, rank in enumerate(ranks(scores, winners, finished, game_type.LOW_SCORE_WINS)):
        row[f"seat{seat}_rank"] = rank
    if tracer is not None:
        row.update(tracer.columns())
    for key, n in counts.items():
        column = card_columns.get(key)
        if column is None:
            counter, seat, card = key
            column = card_columns[key] = CARD_COLUMN.format(seat=seat, counter=counter, card=card)
        row[column] = n
    return row


def ranks(scores: Sequence[float], winners: Sequence[int], finished: bool, low_score_wins: bool = False) -> list[float]:
    """Each seat's place at the end of a game, 1 = first, as Ludii ranks a trial: the
    winners share the first places, the other seats follow by score (the lowest first if
    ``low_score_wins``), and tied seats share the mean of their places (two seats tied for
    2nd and 3rd: 2.5 each). A draw or an unfinished game ranks every seat at the middle,
    ``(seats + 1) / 2`` (Ludii's draw rank).

    Args:
        scores: one number per seat (``Outcome.scores``). winners: the winning seats.
        finished: whether the game ended by its rules (False: G-4 cap, abandoned table).
        low_score_wins: the game's ``LOW_SCORE_WINS``.

    Returns:
        One float per seat, within 1..seats.
    """
    seats = len(scores)
    if not finished or not winners:
        return [(seats + 1) / 2] * seats
    place = [0.0] * seats
    for seat in winners:
        place[seat] = (1 + len(winners)) / 2
    sign = 1 if low_score_wins else -1     # sort best first
    others = sorted((s for s in range(seats) if s not in winners), key=lambda s: sign * scores[s])
    taken = len(winners)
    i = 0
    while i < len(others):
        j = i
        while j + 1 < len(others) and scores[others[j + 1]] == scores[others[i]]:
            j += 1
        shared = taken + 1 + (i + j) / 2       # places taken+1+i .. taken+1+j, averaged
        for seat in others[i:j + 1]:
            place[seat] = shared
        i = j + 1
    return place


class _Tracer:
    """Turn-by-turn measures of one game, for ``trace=True``: the scores at every turn
    (a :class:`~playtest.engine.game.Scores` game's), the turns in which the lead changed, the longest
    run of turns with no score change (a stall), and each resource's least and most
    (:class:`~playtest.engine.game.HasResources`). The clock is the game's ``turns_played``, or the move
    count for a game that does not count turns."""

    def __init__(self, match: Match, by_turns: bool):
        self.match, self.game, self.state = match, match.game, match.state
        self.clock = self.game.turns_played if by_turns else (lambda _state: len(match.moves))
        self.read_scores = isinstance(self.game, Scores)
        self.read_resources = isinstance(self.game, HasResources)
        self.turn = self.clock(self.state)
        self.curve: list[list[float]] = []
        self.lead_change_turns: list[int] = []
        self.low: dict[str, float] = {}
        self.high: dict[str, float] = {}
        self._sample()

    def _sample(self) -> None:
        if self.read_scores:
            scores = self.game.scores(self.state)
            if scores is not None:
                self.curve.append([self.turn, *scores])
        if self.read_resources:
            for name, amounts in self.game.resources(self.state).items():
                least, most = min(amounts), max(amounts)
                self.low[name] = min(least, self.low.get(name, least))
                self.high[name] = max(most, self.high.get(name, most))

    def moved(self) -> None:
        now = self.clock(self.state)
        if now != self.turn:   # a new turn began: the scores as the last one left them
            self.turn = now
            self._sample()

    def lead_changed(self) -> None:
        self.lead_change_turns.append(self.clock(self.state))

    def columns(self) -> dict[str, Any]:
        if self.curve and self.curve[-1][0] == self.turn:
            self.curve.pop()   # the game ended in this turn: its last state replaces the sample
        self.turn = self.clock(self.state)
        self._sample()         # the end of the game
        stall = 0
        start = 0
        for i in range(1, len(self.curve)):
            if self.curve[i][1:] != self.curve[start][1:]:
                start = i
            stall = max(stall, self.curve[i][0] - self.curve[start][0])
        columns = {"score_curve": self.curve if self.read_scores else None,
                   "lead_change_turns": self.lead_change_turns,
                   "longest_stall": stall if self.read_scores else None}
        for name in self.low:
            columns[f"min_{name}"], columns[f"max_{name}"] = self.low[name], self.high[name]
        return columns


def _margin(scores: Sequence[float], winners: tuple[int, ...]) -> float:
    """Score distance from the winners to the nearest other seat (NaN with no winner or
    no loser): the margin of victory, whichever way the game counts."""
    if not winners or len(winners) == len(scores):
        return math.nan
    best = scores[winners[0]]
    return float(min(abs(best - score) for seat, score in enumerate(scores) if seat not in winners))


def simulate(game: str | type[Game], seats: int, bots: BotSpec | Sequence[BotSpec] = "random",
             games: int = 1000, options: Mapping[str, Any] | str | None = None, seed: int = 0,
             executor: Any = None, workers: int | None = None,
             progress: bool | Callable[[int, int], Any] = True, keep_records: bool = False,
             cancel: threading.Event | None = None, trace: bool = False) -> pd.DataFrame:
    """Play ``games`` bot games and return one row per game.

    Args:
        game: a registry name (``"lazy_sunday"``) or a Game class.
        seats: the seat count (the game's range).
        bots: one bot for every seat, or one per seat. A bot is a name from the game's
            ``BOTS`` (``"random"``, ``"heuristic"``, ``"ismcts"``), a search bot's name
            with its budget per decision (``"ismcts:500"`` iterations, ``"ismcts:200ms"``
            milliseconds; see :func:`playtest.engine.make_bot`), or a Bot factory (a
            callable ``factory(seed) -> Bot``, e.g. a Bot subclass; it must be
            picklable, i.e. defined in a module, to run in worker processes). Seats
            rotate: game ``i`` shifts the line-up by ``i % seats``.
        games: number of games, 1 or more.
        options: option name -> value, or the name of one of the game's ``PRESETS``;
            missing options take their RULINGS defaults.
        seed: whole number >= 0; game ``i`` is seeded from ``(seed, i)`` only (G-3).
        executor: any ``concurrent.futures.Executor``, or a Dask ``distributed.Client``
            (or its ``get_executor()``), to play the chunks on; see :class:`Runner`.
        workers: without ``executor``: 1 plays in this process; N > 1 starts N local
            processes; None picks processes (one per CPU) from ``AUTO_PROCESS_GAMES``
            games up, this process below.
        progress: True shows a ``tqdm.auto`` bar counting games, with an ETA; a callable
            is called as ``progress(done, total)`` after every chunk; False: silent.
        keep_records: add a ``record`` column holding each game's record JSON (memory
            grows with it: off by default).
        cancel: a ``threading.Event``; once set, no more chunks start and the games
            finished so far come back, with ``df.attrs["cancelled"] = True``.
        trace: also measure every game turn by turn (a clock read per move and the scores
            per turn: a few percent of a heuristic Lazy Sunday or Chore Race game, about
            40% of Night Shift's cheap ones): ``score_curve``
            (a list of ``[turn, score of seat 0, seat 1, ...]``, one per turn, the scores
            of ``Scores.scores`` as each turn began, the last one as the game ended; the
            turn is ``turns_played``, or the move count for a game without that hook),
            ``lead_change_turns`` (the turn of every lead change), ``longest_stall``
            (the most turns in a row in which no seat's score changed) and, per
            resource of ``HasResources.resources``, ``min_<name>`` and ``max_<name>`` (the least
            and most any seat held). None where the game has no such hook.

    Returns:
        A DataFrame sorted by ``game`` with columns ``game`` (index 0..games-1), ``seed``
        (that game's seed), ``first_seat`` (the first seat asked to decide),
        ``finished`` (False: stopped by the G-4 cap), ``draw`` (finished, no winner),
        ``winners`` and ``winner_bots`` (tuples), ``turns``, ``moves``,
        ``lead_changes`` (times the set of leading seats changed, checked after each
        move from the start position, except a change made by the G-4 cap's stop itself;
        Ludii's LeadChange; ``turns`` and
        ``lead_changes`` are None for a game without the ``turns_played`` /
        ``leaders`` hook), ``margin`` (score distance from the winners to the nearest
        other seat), ``end_condition`` (the key of ``Game.end_conditions`` that ended a
        finished game, None otherwise), per seat ``seat{s}_bot``, ``seat{s}_score``,
        ``seat{s}_won``, ``seat{s}_rank`` (its place, 1 = first, ties sharing the mean
        of their places, a draw or an unfinished game every seat in the middle: see
        :func:`ranks`), the
        per-card counters ``seat{s}_{counter}:{card}`` (see ``CountsCards.card_counts``,
        e.g. ``seat0_played:Excuse``; 0 where none) and, if asked, ``record``.
        ``df.attrs`` holds ``game``, ``seats``, ``bots`` (game 0's line-up),
        ``options`` (all of them, defaults included), ``seed``, ``games`` (asked) and
        ``cancelled``.

    Raises:
        OptionError: before any game is played: an unknown game, bot or preset, a bad
            seat count, option, game count, seed, workers, progress or cancel value;
            the message says what is allowed.
        WorkerError: a Dask worker cannot import the kit (or none answered within
            :data:`PROBE_SECONDS`); the message says what to install.
        RuntimeError: the bots stopped before a game ended (a bug in a bot or game).
    """
    plan = make_plan(game, seats, bots, options, seed, keep_records, trace)
    games = check_games(games)
    check_progress(progress, cancel)
    runner = Runner(executor, workers, games)
    report, close = _reporter(progress, games, f"{plan.game.title}, {plan.seats} seats")
    try:
        with runner:
            frames, cancelled = runner.play(plan, 0, games, report, cancel)
    finally:
        close()
    return _assemble(frames, plan, games, cancelled)


def check_games(games) -> int:
    """``games`` as an int. Raises: OptionError: not a whole number 1 or more."""
    if not _is_whole(games) or games < 1:
        raise OptionError(f"games must be a whole number of games, 1 or more, not {games!r}")
    return int(games)


def check_progress(progress, cancel) -> None:
    """Raises: OptionError: ``progress`` is not a bool or callable, or ``cancel`` not an Event."""
    if not (isinstance(progress, bool) or callable(progress)):
        raise OptionError(f"progress must be True, False or a callable progress(done, total), not {progress!r}")
    if cancel is not None and not callable(getattr(cancel, "is_set", None)):
        raise OptionError(f"cancel must be a threading.Event (or None), not {cancel!r}")


class WorkerError(RuntimeError):
    """The workers cannot play the games: a Dask worker cannot import the kit, or no
    worker answered within :data:`PROBE_SECONDS`."""


def _is_dask_client(executor: Any) -> bool:
    """A ``distributed.Client`` (told apart without importing Dask)."""
    return type(executor).__module__.startswith("distributed") and callable(getattr(executor, "get_executor", None))


def _is_dask(executor: Any) -> bool:
    return type(executor).__module__.startswith("distributed")


class Runner:
    """Where a simulation's chunks are played: in this process, in local worker processes
    it starts (and stops on leaving), or on an executor or Dask client it is given. Kept
    open across calls of :meth:`play`, so a run that plays batch after batch (a run until
    decided, both variants of an A/B test) starts its processes once.

    Args:
        executor: None, any ``concurrent.futures.Executor``, or a ``distributed.Client``.
        workers: without ``executor``: 1 plays in this process, N > 1 starts N local
            processes, None picks one per CPU from ``AUTO_PROCESS_GAMES`` games up.
        games: how many games the run expects (for ``workers=None``).

    Chunks in flight follow the executor's capacity, through public APIs only: the local
    processes the runner started, or a Dask client's worker threads (read again as
    workers join or leave), two chunks each. Any other executor is watched through its
    futures (``Future.running()``): while every chunk sent is running, it has room for
    more, and a few wait queued behind them (so two runs sharing one pool, A and B,
    take turns). Dask's ``get_executor()`` futures do not say when they run: that
    executor gets every chunk at once and queues them itself (pass the client to have
    the lab follow the cluster's size).

    Raises:
        OptionError: both ``executor`` and ``workers``, or a bad value of either.
    """

    def __init__(self, executor: Any = None, workers: int | None = None, games: int = AUTO_PROCESS_GAMES):
        if executor is not None and workers is not None:
            raise OptionError("pass either executor= or workers=, not both (workers sizes the local process pool)")
        if executor is not None and not (isinstance(executor, Executor) or _is_dask_client(executor)):
            raise OptionError(f"executor must be a concurrent.futures.Executor or a Dask distributed.Client, "
                              f"not {executor!r}")
        if workers is not None and (not _is_whole(workers) or workers < 1):
            raise OptionError(f"workers must be a whole number 1 or more (or None to choose), not {workers!r}")
        if executor is None and workers is None:
            workers = (os.cpu_count() or 1) if games >= AUTO_PROCESS_GAMES else 1
        self.given, self.workers = executor, None if workers is None else int(workers)
        self.pool: Executor | None = None
        self.capacity: Callable[[], int] | str = "running"   # or "all" (see the class notes)
        self.chunk_seconds: float | None = None   # grow chunks to this long (a Dask client)
        self._checked: set = set()

    def __enter__(self) -> Runner:
        if self.given is None and self.workers > 1:
            self.pool = ProcessPoolExecutor(max_workers=self.workers, initializer=_start_worker)
            self.capacity = lambda: self.workers
        elif _is_dask_client(self.given):
            client = self.given
            _probe_dask(client)
            self.pool = client.get_executor()
            self.capacity = lambda: sum(client.nthreads().values())
            self.chunk_seconds = DASK_CHUNK_SECONDS
        elif self.given is not None:
            if _is_dask(self.given):
                _probe_dask(self.given)
                self.capacity = "all"
            self.pool = self.given
        return self

    def __exit__(self, *exc) -> None:
        if self.given is None and self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
        self.pool = None

    def play(self, plan: Plan, start: int, stop: int, report: Callable[[int], Any],
             cancel: threading.Event | None) -> tuple[list[pd.DataFrame], bool]:
        """Play games ``start`` .. ``stop - 1`` of ``plan``; returns the chunks' rows and
        whether ``cancel`` stopped it (the chunks already running are still collected).

        Raises:
            OptionError: ``plan`` cannot be sent to worker processes (not picklable).
            WorkerError: a worker cannot import the kit.
            RuntimeError: as :func:`play_games`.
        """
        frames: list[pd.DataFrame] = []
        if self.pool is None:
            # ~100 progress updates, but never a DataFrame for a handful of fast games (it
            # costs ~1 ms); slow games (a search bot: a second each) go in chunks of about
            # LOCAL_CHUNK_SECONDS, starting with one game, so Cancel is seen that soon
            most = min(MAX_CHUNK, max(MIN_CHUNK, math.ceil((stop - start) / 100)))
            first, size, played, seconds = start, 1, 0, 0.0
            while first < stop:
                if cancel is not None and cancel.is_set():
                    return frames, True
                began = time.perf_counter()
                frames.append(play_games(plan, first, min(first + size, stop)))
                played, seconds = played + len(frames[-1]), seconds + time.perf_counter() - began
                first += size
                size = max(1, min(most, int(LOCAL_CHUNK_SECONDS * played / seconds) if seconds > 0 else most))
                report(len(frames[-1]))
            return frames, False
        if id(plan) not in self._checked and isinstance(self.pool, ProcessPoolExecutor):
            _check_picklable(plan)   # before a worker fails on it (Dask pickles with cloudpickle: not checked)
            self._checked.add(id(plan))
        return frames, _run_chunks(self.pool, plan, start, stop, self.capacity, frames, report, cancel,
                                   self.chunk_seconds)


def _probe_dask(executor: Any) -> None:
    """Ask the Dask cluster's workers (every one through a client, one through its
    executor) to import the kit, with a function of the standard library: a chunk's
    pickle names the kit's classes, and a worker that cannot import them drops its
    connection to the scheduler, which then waits for ever.

    Raises:
        WorkerError: a worker cannot import the kit, or none answered in time.
    """
    check = (pkgutil.resolve_name, "playtest.lab.simulation:__name__")
    outcome: dict[str, Any] = {}

    def ask() -> None:
        try:
            if _is_dask_client(executor):
                if not executor.nthreads():
                    executor.wait_for_workers(1, timeout=PROBE_SECONDS)
                outcome["answer"] = executor.run(*check)
            else:
                outcome["answer"] = executor.submit(*check).result(timeout=PROBE_SECONDS)
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread below
            outcome["error"] = exc

    asker = threading.Thread(target=ask, daemon=True, name="playtest-dask-probe")   # client.run has no timeout
    asker.start()
    asker.join(PROBE_SECONDS + 1)
    error = outcome.get("error")
    if isinstance(error, ImportError):
        raise WorkerError(_import_problem(error)) from None
    if asker.is_alive() or isinstance(error, (FutureTimeout, TimeoutError)) or (error and "timed out" in str(error)):
        raise WorkerError(f"no Dask worker answered within {PROBE_SECONDS:g} s: start workers "
                          "(`dask worker <scheduler address>`) where the kit is installed") from None
    if error is not None:
        raise error


def _import_problem(error: BaseException) -> str:
    return (f"a Dask worker cannot import the playtest kit ({type(error).__name__}: {error}): install the kit in "
            "every worker's Python environment, the same version as here (e.g. `pip install -e <checkout>`), then "
            "run again")


def _start_worker() -> None:
    """Initializer of the local worker processes: Ctrl-C is left to the parent (see
    :func:`ignore_interrupts`), and the objects the worker inherited (the kit, pandas)
    are moved out of the garbage collector's sight with ``gc.freeze``, as meant for forked
    workers: every move builds views and lists, and the collections they set off would
    otherwise walk the inherited objects again and again (3% of a heuristic game)."""
    ignore_interrupts()
    gc.freeze()


def _run_chunks(pool: Executor, plan: Plan, start: int, stop: int, capacity: Callable[[], int] | str,
                frames: list, report, cancel: threading.Event | None, chunk_seconds: float | None = None) -> bool:
    """Play games ``start`` .. ``stop - 1`` in chunks on ``pool``, as many in flight as
    ``capacity`` allows: a callable giving the workers (two chunks each; read again
    every second, as a cluster grows or shrinks), ``"running"`` (more while every chunk
    sent is running: ``Future.running()``), or ``"all"`` (every chunk at once). Returns
    whether ``cancel`` stopped it (chunks already running are still collected).

    With ``chunk_seconds`` (and a callable ``capacity``), once chunks are back the next
    ones are sized to take about that long at the rate measured so far, but no more than
    half of a worker's share of the games not yet sent (so the workers finish together),
    and never smaller than the first chunks. Which games a chunk holds never changes a row.

    Raises:
        WorkerError: a chunk failed to import the kit on its worker.
    """
    games = stop - start
    known = capacity() if callable(capacity) else 0
    size = min(MAX_CHUNK, max(MIN_CHUNK, math.ceil(games / (max(known, os.cpu_count() or 2) * 8))))
    first = start                   # the next game to send
    played, seconds = 0, 0.0        # games back, and the workers' time on them
    pending: set = set()
    cancelled = False
    limit, read_at = 2 * max(1, known), time.monotonic()

    def next_size() -> int:
        if chunk_seconds is None or not callable(capacity) or not seconds:
            return size
        by_time = int(chunk_seconds * played / seconds)
        by_balance = math.ceil((stop - first) / limit)   # limit: two chunks per worker
        return max(size, min(by_time, by_balance))

    def room() -> bool:
        if capacity == "all":
            return True
        if capacity == "running":   # a chunk queued, not running: the pool is full; keep a few waiting
            running = sum(1 for future in pending if future.running())
            return len(pending) - running < max(2, running)
        return len(pending) < limit

    try:
        while True:
            if not cancelled and cancel is not None and cancel.is_set():
                cancelled = True
                for future in pending:
                    future.cancel()  # chunks not started yet are dropped; running ones finish
            if callable(capacity) and time.monotonic() - read_at >= 1:
                limit, read_at = 2 * max(1, capacity()), time.monotonic()
            while not cancelled and first < stop and room():
                last = min(first + next_size(), stop)
                pending.add(pool.submit(_play_chunk, plan, first, last))
                first = last
            if not pending:
                return cancelled
            # "running": chunks start without finishing one, so look again soon
            done, pending = wait(pending, timeout=0.1 if capacity == "running" else 0.5, return_when=FIRST_COMPLETED)
            for future in done:
                if not future.cancelled():
                    try:
                        rows = future.result()
                    except ImportError as exc:   # a worker without the kit (another executor than Dask's)
                        raise WorkerError(_import_problem(exc)) from None
                    frames.append(rows.frame)
                    played, seconds = played + len(rows.frame), seconds + rows.seconds
                    report(len(rows.frame))
    finally:
        for future in pending:   # an error above: nothing more is started
            future.cancel()


def _assemble(frames: list[pd.DataFrame], plan: Plan, games: int, cancelled: bool) -> pd.DataFrame:
    """One DataFrame from the chunks: sorted by game, a column for every card counter
    the game has (see :func:`tidy_rows`)."""
    df = pd.concat(frames, ignore_index=True) if frames else empty_rows(plan.seats)  # cancelled before any game
    df = tidy_rows(df, card_counter_columns(plan.game(plan.seats, plan.options)))
    df = df.sort_values("game", kind="stable").reset_index(drop=True)
    df.attrs.update(game=plan.game.name, seats=plan.seats, bots=list(plan.bot_names),
                    options=plan.options.model_dump(), seed=plan.seed, games=games, cancelled=cancelled)
    return df


def empty_rows(seats: int) -> pd.DataFrame:
    """No games, with the columns of ``seats``-seat games' rows (see :func:`simulate`)."""
    return pd.DataFrame(columns=["game", "seed", "first_seat", "finished", "draw", "winners", "winner_bots", "turns",
                                 "moves", "lead_changes", "margin", "end_condition",
                                 *(f"seat{s}_{what}" for what in ("bot", "score", "won", "rank") for s in range(seats))])


def card_counter_columns(game: Game) -> list[str]:
    """The column of every card counter ``game`` (rules bound to a seat count and
    options) can count, for every seat (a :class:`~playtest.engine.game.CountsCards` game's
    ``card_counters``; none for another game)."""
    counters = game.card_counters() if isinstance(game, CountsCards) else ()
    return [CARD_COLUMN.format(seat=s, counter=counter, card=card) for counter, card in counters
            for s in range(game.seats)]


def tidy_rows(df: pd.DataFrame, every: Iterable[str]) -> pd.DataFrame:
    """Rows as the lab gives them: a column for every card counter in ``every`` (a card
    nobody played is a column of zeros, so runs of any length have the same columns),
    card counters as int32 with 0 where missing, sorted after the other columns, and
    ``record`` last."""
    df = df.reindex(columns=[*df.columns, *(c for c in every if c not in df.columns)])
    cards = sorted(c for c in df.columns if ":" in c)
    if cards:
        df[cards] = df[cards].fillna(0).astype("int32")
    others = [c for c in df.columns if ":" not in c and c != "record"]
    return df[others + cards + (["record"] if "record" in df.columns else [])]


def make_plan(game, seats, bots, options, seed, keep_records=False, trace=False) -> Plan:
    """Validate a simulation's set-up into a :class:`Plan`.

    Raises:
        OptionError: an unknown game, bot or preset, a bad seat count, option or seed.
    """
    game_type = get_game(game)
    if isinstance(options, str):
        options = game_type.PRESETS[find_preset(game_type, options)]  # any case; OptionError lists them
    seats = int(seats) if _is_whole(seats) else seats
    rules = game_type(seats, options)  # OptionError on a bad seat count or option
    if not _is_whole(seed) or seed < 0:
        raise OptionError(f"the seed must be a whole number 0 or more, not {seed!r}")
    known = game_type.BOTS
    specs = [bots] * seats if isinstance(bots, str) or callable(bots) else list(bots) if isinstance(
        bots, Sequence) else None
    if specs is None or len(specs) != seats:
        raise OptionError(f"bots must be one bot for every seat or a list of {seats} (one per seat), not {bots!r}; "
                          f"{game_type.title} bots: {', '.join(known)}")
    names = []
    for spec in specs:
        if isinstance(spec, str):
            check_bot_name(game_type, spec)  # a name, with a budget for a search bot ("ismcts:500")
            names.append(spec)
        elif callable(spec):
            names.append(getattr(spec, "name", None) if isinstance(getattr(spec, "name", None), str)
                         else getattr(spec, "__name__", repr(spec)))
        else:
            raise OptionError(f"a bot is a name ({', '.join(known)}) or a Bot factory, not {spec!r}")
    return Plan(game_type, seats, rules.options, tuple(specs), tuple(names), int(seed), bool(keep_records),
                bool(trace))


def _is_whole(value) -> bool:
    """An int (a numpy integer too, as widgets and arrays give), not a bool."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _check_picklable(plan: Plan) -> None:
    try:
        pickle.dumps(plan)
    except Exception as exc:
        raise OptionError(f"this simulation cannot be sent to worker processes ({type(exc).__name__}: {exc}); "
                          "define bot factories and games in a module, or pass workers=1") from None


def _reporter(progress, total: int, title: str):
    """``(report(n_more_games), close())`` for the chosen kind of progress: a tqdm bar
    titled ``title`` (``progress=True``), calls of ``progress(done, total)`` (a callable),
    or nothing."""
    if progress is True:
        from tqdm.auto import tqdm
        bar = tqdm(total=total, unit="game", desc=title)
        return bar.update, bar.close
    if callable(progress):
        done = 0

        def report(n):
            nonlocal done
            done += n
            progress(done, total)
        return report, lambda: None
    return (lambda n: None), (lambda: None)
