"""Bots' decisions at live tables, off the server's event loop, each under a time cap.

A live table asks :class:`Thinker` for its bot's decision; the decision runs in a
worker process (a ``concurrent.futures.ProcessPoolExecutor``), so the event loop keeps
answering every other request while a search bot thinks. Processes, not threads: the
search is pure Python, and with 8 search bots in a thread pool the GIL held ``/games``
at a median of 324 ms (p95 1.6 s) on a 2-core machine, against 3 ms (p95 8 ms) with 2
worker processes (``benchmarks/bench_bots_loop.py`` measures it on ``playtest serve``).
The workers run at a lower CPU priority (nice 10) than the server.

The bot decides from what it decides from at a single-page table: its seat's bot view
(:meth:`Match.bot_view`, a plain dict) and its seat's legal moves; the worker never
sees the state. Each decision is made by a bot built for it, seeded with
``"<match seed>:<seat>:<moves played>"`` (so a decision depends on the position only).
The record alone replays the game: the moves are recorded, the timing never counts.

Limits (:data:`BUDGET_LIMITS`, :data:`TIME_CAP`, :data:`HARD_CAP`):

* a table's search bot may ask for at most 20,000 iterations (``ismcts:20000``) or
  5,000 ms (``ismcts:5000ms``) a decision: the lobby refuses more with a sentence naming
  the limit; a table stored with more (by an older server) is restored with its budget
  cut to the limit;
* at :data:`TIME_CAP` seconds (6 s) into a decision a search stops and plays the best
  move found so far (:attr:`Bot.deadline`);
* at :data:`HARD_CAP` seconds (8 s) the worker stops the decision whatever it is doing
  (a timer signal), and the seat's fallback bot (:func:`fallback_bot`: the game's
  heuristic bot, or the random bot) decides on the loop instead.
"""
from __future__ import annotations

import asyncio
import json
import logging
import os
import pickle
import signal
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from functools import lru_cache
from multiprocessing import get_context
from typing import Any

from ..engine import Game, Move, OptionError, make_bot
from ..engine.bots import check_bot_name, split_bot_name
from ..engine.search import parse_budget

log = logging.getLogger(__name__)

BUDGET_LIMITS = (20_000, 5_000)
"""The largest search budget a table's bot may ask for: ``(iterations, milliseconds)``
a decision (``ismcts:20000``, ``ismcts:5000ms``). The games' defaults (plain
``ismcts``) are 500 to 2,500 iterations, 0.2-0.6 s a decision."""
TIME_CAP = 6.0
"""Seconds a decision may take: a search stops there and plays its best move so far."""
HARD_CAP = 8.0
"""Seconds after which a worker stops a decision whatever it does; the seat's fallback
bot decides instead."""
WORKERS = min(4, os.cpu_count() or 1)
"""Worker processes of a server (one per core, at most 4)."""
NICE = 10
"""How much lower the workers' CPU priority is than the server's (``os.nice``)."""


def check_table_bot(game, name: Any) -> None:
    """Check a bot name for a live table: one of the game's bots, with a budget within
    :data:`BUDGET_LIMITS`.

    Raises:
        OptionError: an unknown bot, a bad budget, or one over the limit (the sentence
            names the limit).
    """
    check_bot_name(game, name, BUDGET_LIMITS)


def within_limits(game, name: str) -> str:
    """``name`` with its search budget cut to :data:`BUDGET_LIMITS` (``"ismcts:99999999"``
    -> ``"ismcts:20000"``); any other name as it is. For a table stored with a budget
    over the limit: it is restored, never lost, and never freezes the server.

    Raises:
        OptionError: an unknown bot or a budget that is not one (see
            :func:`~playtest.engine.bots.check_bot_name`).
    """
    try:
        check_table_bot(game, name)
        return name
    except OptionError:
        check_bot_name(game, name)            # anything but an over-limit budget: refused as it is
    base, budget = split_bot_name(name)
    iterations, _ms = parse_budget(budget)
    return f"{base}:{BUDGET_LIMITS[0]}" if iterations is not None else f"{base}:{BUDGET_LIMITS[1]}ms"


def fallback_bot(game, name: str) -> str:
    """The bot that decides for a seat whose bot ran past :data:`HARD_CAP`: the game's
    ``"heuristic"`` bot (it decides at once), or ``"random"`` for the heuristic bot
    itself or a game without one."""
    return "heuristic" if "heuristic" in game.BOTS and split_bot_name(name)[0] != "heuristic" else "random"


@dataclass(frozen=True)
class Decision:
    """One bot decision, as sent to a worker: plain data only.

    Attributes:
        game: the Game class. seats: seat count. options: the options (plain data).
        bot: the bot's name (with its budget). seed: the bot's seed (text).
        view: the seat's bot view (a dict). legal: the seat's decision moves (never empty).
    """

    game: type[Game]
    seats: int
    options: dict
    bot: str
    seed: str
    view: dict
    legal: list[Move]


@lru_cache(maxsize=64)
def _game(game: type[Game], seats: int, options: str) -> Game:
    return game(seats, json.loads(options))


def decide(decision: Decision, cap: float = TIME_CAP) -> Move:
    """The decision's move, chosen by a bot built for it, whose search (if any) stops
    ``cap`` seconds from now with its best move so far.

    Raises:
        OptionError: an unknown bot (cannot happen for a table's checked names).
    """
    game = _game(decision.game, decision.seats, json.dumps(decision.options, sort_keys=True))
    bot = make_bot(game, decision.bot, decision.seed)
    bot.deadline = time.perf_counter() + cap
    return bot.choose(decision.view, decision.legal)


class OverHardCap(Exception):
    """A worker's decision ran past :data:`HARD_CAP` and was stopped."""


def _decide_in_worker(data: bytes, cap: float, hard_cap: float) -> Move:
    """:func:`decide` of a pickled :class:`Decision` in a worker process, stopped by a
    timer signal at ``hard_cap`` seconds (the worker runs one decision at a time, in
    its main thread)."""
    def stop(signum, frame):
        raise OverHardCap(f"the decision ran past {hard_cap:g} s")

    signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, hard_cap)
    try:
        return decide(pickle.loads(data), cap)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def _worker_start(nice: int) -> None:
    os.nice(nice)


class Thinker:
    """Where a server's bots decide: its worker processes, started at the first
    decision and stopped by :meth:`close` (the table service's).

    Args:
        workers: worker processes (default :data:`WORKERS`); 0 decides in this process,
            on the loop (a script or a test driving a table by hand; no hard cap).
        cap, hard_cap: seconds, see :data:`TIME_CAP` and :data:`HARD_CAP`.
    """

    def __init__(self, workers: int = WORKERS, cap: float = TIME_CAP, hard_cap: float = HARD_CAP):
        self.workers, self.cap, self.hard_cap = workers, cap, hard_cap
        self._pool: ProcessPoolExecutor | None = None
        self._closed = False

    async def choose(self, decision: Decision) -> Move:
        """The move for ``decision``: its bot's, or :func:`fallback_bot`'s when its bot
        ran past the hard cap or failed (said in one line of the server log). Cancel the
        awaiting task to drop a decision the table no longer wants (one not yet started
        never runs).

        Raises:
            RuntimeError: the thinker was closed (the server is stopping).
        """
        if self._closed:
            raise RuntimeError("the bots' workers were stopped: the server is stopping")
        if self.workers == 0:
            return decide(decision, self.cap)
        data = pickle.dumps(decision)      # now: the view may share lists with the table's state
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.workers, mp_context=get_context("spawn"),
                                             initializer=_worker_start, initargs=(NICE,))
        loop = asyncio.get_running_loop()
        try:
            move = await loop.run_in_executor(self._pool, _decide_in_worker, data, self.cap, self.hard_cap)
            if move in decision.legal:
                return move
            log.warning("bot %s decided by its fallback: it chose %r, not one of its legal moves", decision.bot,
                        move)
        except Exception as exc:  # noqa: BLE001 - past the hard cap, or a bot's bug: never stop the table
            if isinstance(exc, BrokenProcessPool):     # a worker died (e.g. killed): new workers next time
                self._pool = None
            log.warning("bot %s decided by its fallback: %s: %s", decision.bot, type(exc).__name__, exc)
        game = _game(decision.game, decision.seats, json.dumps(decision.options, sort_keys=True))
        fallback = Decision(decision.game, decision.seats, decision.options, fallback_bot(game, decision.bot),
                            decision.seed, decision.view, decision.legal)
        return decide(fallback, self.cap)

    def close(self) -> None:
        """Stop the workers: decisions not started are dropped, those running end at
        the hard cap at the latest."""
        self._closed = True
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
