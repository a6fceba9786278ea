"""Play many bot games and return one row per game (the balance lab's engine room).

:func:`simulate` is game-agnostic: it plays through :class:`~playtest.engine.Table`, and
reads turns, lead changes and per-card counters through the game contract's optional
hooks (:meth:`Game.turns_played`, :meth:`Game.leaders`, :meth:`Game.card_counts`).

Scale-out: work is cut into chunks (ranges of game indices) and sent to any
``concurrent.futures.Executor``. By default many games run in local processes; to use a
Dask cluster, pass its executor::

    from distributed import Client, LocalCluster
    with LocalCluster(n_workers=2, threads_per_worker=1) as cluster, Client(cluster) as client:
        df = simulate("lazy_sunday", 4, "heuristic", games=100_000, executor=client.get_executor())

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
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

import pandas as pd

from playtest.engine import Bot, Game, Match, Move, OptionError, Table, check_bot_name, get_game

from .interrupt import ignore_interrupts
from .presets import find_preset

AUTO_PROCESS_GAMES = 200
"""With ``workers=None``, at least this many games run in local processes."""
MAX_CHUNK = 50
"""Most games per chunk sent to a worker (bounds a chunk's memory and cancel latency)."""
MIN_CHUNK = 20
"""Fewest games per chunk (except the last): building a chunk's rows costs about 1 ms."""
CARD_COLUMN = "seat{seat}_{counter}:{card}"
"""Name of a per-card counter column, e.g. ``seat2_played:Excuse``."""

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
    ``seed``, ``keep_records``.
    """

    game: type[Game]
    seats: int
    options: Any
    bots: tuple[BotSpec, ...]
    bot_names: tuple[str, ...]
    seed: int
    keep_records: bool

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
            bots[seat] = spec if isinstance(spec, str) else spec(f"{seed}:{seat}")
        table = Table(match, bots)
        row = {"game": index, "seed": seed,
               **match_row(match, table.step_bot, [plan.bot_names[p] for p in lineup], names)}
        if match.outcome() is None:
            raise RuntimeError(f"game {index} (seed {seed}): the bots stopped before the game ended; "
                               f"seats to act: {match.to_act()}")
        if plan.keep_records:
            row["record"] = match.to_json()
        rows.append(row)
    return pd.DataFrame(rows)


def match_row(match: Match, step: Callable[[], Move | None], players: Sequence[str],
              card_columns: dict[tuple, str] | None = None) -> dict[str, Any]:
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

    Returns:
        The columns :func:`simulate` documents from ``first_seat`` on (``game``,
        ``seed`` and ``record`` are the caller's). A match that stops before its game
        is over (an abandoned table) gets ``finished`` False, no winner, NaN scores and
        no end-of-game card counters.

    Raises:
        whatever ``step`` raises (an illegal move of a replay, a bot's bug).
    """
    game_type = type(match.game)
    track_turns = game_type.turns_played is not Game.turns_played
    track_lead = game_type.leaders is not Game.leaders
    track_cards = game_type.card_counts is not Game.card_counts
    card_columns = {} if card_columns is None else card_columns
    game, state = match.game, match.state
    waiting = match.to_act()
    first = waiting[0] if waiting else None
    lead = game.leaders(state) if track_lead else None
    lead_changes, changed_at = 0, -1
    counts: Counter = Counter()
    # the hot loop: nothing per move but the two optional, cheap hooks
    while (move := step()) is not None:
        if track_cards and (counted := game.card_counts(state, move)):  # mostly none
            counts.update(counted)
        if track_lead:
            now = game.leaders(state)
            if now != lead:
                lead_changes += 1
                lead = now
                changed_at = len(match.moves)
    outcome = match.outcome()
    if outcome is not None and not outcome.finished and changed_at == len(match.moves):
        lead_changes -= 1  # the G-4 cap's stop (e.g. a round left unscored) is no change of lead
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
    }
    for seat, name in enumerate(players):
        row[f"seat{seat}_bot"] = name
    for seat, score in enumerate(scores):
        row[f"seat{seat}_score"] = score
    for seat in range(game.seats):
        row[f"seat{seat}_won"] = seat in winners
    for key, n in counts.items():
        column = card_columns.get(key)
        if column is None:
            counter, seat, card = key
            column = card_columns[key] = CARD_COLUMN.format(seat=seat, counter=counter, card=card)
        row[column] = n
    return row


def _margin(scores: Sequence[float], winners: tuple[int, ...]) -> float:
    """Score distance from the winners to the nearest other seat (NaN with no winner or
    no loser): the margin of victory, whichever way the game counts."""
    if not winners or len(winners) == len(scores):
        return math.nan
    best = scores[winners[0]]
    return float(min(abs(best - score) for seat, score in enumerate(scores) if seat not in winners))


def simulate(game: str | type[Game], seats: int, bots: BotSpec | Sequence[BotSpec] = "random",
             games: int = 1000, options: Mapping[str, Any] | str | None = None, seed: int = 0,
             executor: Executor | None = None, workers: int | None = None,
             progress: bool | Callable[[int, int], Any] = True, keep_records: bool = False,
             cancel: threading.Event | None = None) -> pd.DataFrame:
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
        executor: any ``concurrent.futures.Executor`` (e.g. Dask's
            ``Client.get_executor()``) to play the chunks on.
        workers: without ``executor``: 1 plays in this process; N > 1 starts N local
            processes; None picks processes (one per CPU) from ``AUTO_PROCESS_GAMES``
            games up, this process below.
        progress: True shows a ``tqdm.auto`` bar counting games, with an ETA; a callable
            is called as ``progress(done, total)`` after every chunk; False: silent.
        keep_records: add a ``record`` column holding each game's record JSON (memory
            grows with it: off by default).
        cancel: a ``threading.Event``; once set, no more chunks start and the games
            finished so far come back, with ``df.attrs["cancelled"] = True``.

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
        other seat), per seat ``seat{s}_bot``, ``seat{s}_score``, ``seat{s}_won``, the
        per-card counters ``seat{s}_{counter}:{card}`` (see ``Game.card_counts``,
        e.g. ``seat0_played:Excuse``; 0 where none) and, if asked, ``record``.
        ``df.attrs`` holds ``game``, ``seats``, ``bots`` (game 0's line-up),
        ``options`` (all of them, defaults included), ``seed``, ``games`` (asked) and
        ``cancelled``.

    Raises:
        OptionError: before any game is played: an unknown game, bot or preset, a bad
            seat count, option, game count, seed, workers, progress or cancel value;
            the message says what is allowed.
        RuntimeError: the bots stopped before a game ended (a bug in a bot or game).
    """
    plan = make_plan(game, seats, bots, options, seed, keep_records)
    if not _is_whole(games) or games < 1:
        raise OptionError(f"games must be a whole number of games, 1 or more, not {games!r}")
    if executor is not None and workers is not None:
        raise OptionError("pass either executor= or workers=, not both (workers sizes the local process pool)")
    if executor is not None and not isinstance(executor, Executor):
        raise OptionError(f"executor must be a concurrent.futures.Executor, not {executor!r}")
    if workers is not None and (not _is_whole(workers) or workers < 1):
        raise OptionError(f"workers must be a whole number 1 or more (or None to choose), not {workers!r}")
    if not (isinstance(progress, bool) or callable(progress)):
        raise OptionError(f"progress must be True, False or a callable progress(done, total), not {progress!r}")
    if cancel is not None and not callable(getattr(cancel, "is_set", None)):
        raise OptionError(f"cancel must be a threading.Event (or None), not {cancel!r}")
    games, workers = int(games), None if workers is None else int(workers)
    if executor is None:
        if workers is None:
            workers = (os.cpu_count() or 1) if games >= AUTO_PROCESS_GAMES else 1
        if workers > 1:
            _check_picklable(plan)

    report, close = _reporter(progress, games, plan)
    frames: list[pd.DataFrame] = []
    cancelled = False
    try:
        if executor is None and workers == 1:
            # ~100 progress updates, but never a DataFrame for a handful of games (it costs ~1 ms)
            size = min(MAX_CHUNK, max(MIN_CHUNK, math.ceil(games / 100)))
            for start in range(0, games, size):
                if cancel is not None and cancel.is_set():
                    cancelled = True
                    break
                frames.append(play_games(plan, start, min(start + size, games)))
                report(len(frames[-1]))
        else:
            own = executor is None
            pool = ProcessPoolExecutor(max_workers=workers, initializer=_start_worker) if own else executor
            try:
                cancelled = _run_chunks(pool, plan, games, workers or getattr(pool, "_max_workers", None) or
                                        os.cpu_count() or 2, frames, report, cancel)
            finally:
                if own:
                    pool.shutdown(wait=True, cancel_futures=True)
    finally:
        close()
    return _assemble(frames, plan, games, cancelled)


def _start_worker() -> None:
    """Initializer of the local worker processes: Ctrl-C is left to the parent (see
    :func:`ignore_interrupts`), and the objects the worker inherited (the kit, pandas)
    are moved out of the garbage collector's sight with ``gc.freeze``, as meant for forked
    workers: every move builds views and lists, and the collections they set off would
    otherwise walk the inherited objects again and again (3% of a heuristic game)."""
    ignore_interrupts()
    gc.freeze()


def _run_chunks(pool: Executor, plan: Plan, games: int, parallel: int, frames: list, report,
                cancel: threading.Event | None) -> bool:
    """Keep a few chunks per worker in flight until all are done or ``cancel`` is set;
    returns whether it was cancelled (chunks already running are still collected)."""
    size = min(MAX_CHUNK, max(MIN_CHUNK, math.ceil(games / (parallel * 8))))
    chunks = iter(range(0, games, size))
    pending: set = set()
    cancelled = False
    while True:
        if not cancelled and cancel is not None and cancel.is_set():
            cancelled = True
            for future in pending:
                future.cancel()  # chunks not started yet are dropped; running ones finish
        while len(pending) < 2 * parallel and not cancelled:
            start = next(chunks, None)
            if start is None:
                break
            pending.add(pool.submit(play_games, plan, start, min(start + size, games)))
        if not pending:
            return cancelled
        done, pending = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
        for future in done:
            if not future.cancelled():
                frames.append(future.result())
                report(len(frames[-1]))


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
                                 "moves", "lead_changes", "margin",
                                 *(f"seat{s}_{what}" for what in ("bot", "score", "won") for s in range(seats))])


def card_counter_columns(game: Game) -> list[str]:
    """The column of every card counter ``game`` (rules bound to a seat count and
    options) can count, for every seat (``Game.card_counters``)."""
    return [CARD_COLUMN.format(seat=s, counter=counter, card=card)
            for counter, card in game.card_counters() for s in range(game.seats)]


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


def make_plan(game, seats, bots, options, seed, keep_records=False) -> Plan:
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
    known = getattr(game_type, "BOTS", {"random": None})
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
    return Plan(game_type, seats, rules.options, tuple(specs), tuple(names), int(seed), bool(keep_records))


def _is_whole(value) -> bool:
    """An int (a numpy integer too, as widgets and arrays give), not a bool."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _check_picklable(plan: Plan) -> None:
    try:
        pickle.dumps(plan)
    except Exception as exc:
        raise OptionError(f"this simulation cannot be sent to worker processes ({type(exc).__name__}: {exc}); "
                          "define bot factories and games in a module, or pass workers=1") from None


def _reporter(progress, total: int, plan: Plan):
    """``(report(n_more_games), close())`` for the chosen kind of progress."""
    if progress is True:
        from tqdm.auto import tqdm
        bar = tqdm(total=total, unit="game", desc=f"{plan.game.title}, {plan.seats} seats")
        return bar.update, bar.close
    if callable(progress):
        done = 0

        def report(n):
            nonlocal done
            done += n
            progress(done, total)
        return report, lambda: None
    return (lambda n: None), (lambda: None)
