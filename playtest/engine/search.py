"""A search bot for every game on the engine: information-set Monte Carlo tree search.

:class:`ISMCTSBot` (bot name ``"ismcts"``) is single-observer IS-MCTS (Cowling, Powley
and Whitehouse, *Information Set Monte Carlo Tree Search*, 2012) with UCB1 selection.
Each iteration:

1. samples a full state consistent with what the bot's seat knows, from its bot view
   alone (:meth:`~playtest.engine.game.Searchable.determinizer`: "determinize this seat's knowledge with this random
   stream"; a card the seat has not seen is placed at random among the places the
   public counts leave for it);
2. walks down one tree shared by all samples: at each position the seat to act picks,
   among the moves legal *in this sample*, the child with the best UCB1 value for that
   seat (every seat maximises its own reward), counting only the children available in
   this sample (their *availability*, which replaces the parent's visit count in UCB1);
3. adds one new child, then plays on with the rollout policy (random legal moves, the
   measured default, or the game's heuristic bot): to the end of the game, or, for a game
   with an evaluation (:meth:`~playtest.engine.game.Evaluates.evaluate`), ``Game.SEARCH_PLAYOUT_MOVES`` moves, after
   which the game scores the position (Chore Race: 4 moves, then the VP and progress
   margins; its 2-seat games against the heuristic went from 25% of 60 won with 250
   iterations of full random playouts to 55% of 40 with 1,000 of these, and with 2,500
   (0.32-0.36 s a decision) 75% of 40 (seed 0) and 57.5% of 40 (seed 5));
4. backs the result up: 1 to each winner (shared on a shared win), 0 to the others; a
   playout stopped by its move count, the evaluation's rewards; a game stopped by the
   rollout cap or G-4 counts the game's leaders as its winners.

A lean toward the heuristic bot's move at the root (progressive bias) was tried and left
out: Chore Race won 55% of 40 with it, within the spread of runs without it (50-73% of 30
to 60), and Lazy Sunday 45% and 47.5% of 40.

A game may ask for a *flat* search instead (``Game.SEARCH_FLAT``, Lazy Sunday): no tree;
each sample is played out once after every move of the decision, by the game's heuristic
bot at every seat, each deciding from its own seat's bot view of the sample (so a
simulated seat acts on the memory the sample gives it, not on the sampled cards), every
playout of a sample with a stream seeded alike (common random numbers: the moves are
compared on the same cards and the same luck); an iteration is one playout. In Lazy
Sunday the tree with random playouts called NOT ME! too early (24 calls in 30 two-seat
games against the heuristic, 9 of them beaten; the flat search with 500 playouts: 16
calls, 1 beaten): random play after a draw makes going on look worse than it is.

In both, the moves a seat cannot tell apart (:meth:`Game.search_classes`: a Lazy Sunday
card kept into any of its unknown positions) are weighed once, and one of the best class
is played at random: alike moves neither split the samples nor win by noise alone.

The move played is the root child visited most (flat: the best mean). The bot never
sees the state: its inputs are the bot view and the legal moves (the
:class:`~playtest.engine.Bot` contract), and its samples are built from the view only.

Budgets: ``"ismcts"`` (the game's default, ``Game.SEARCH_ITERATIONS`` iterations per
decision: Lazy Sunday 800 playouts at 2 seats and fewer at more, Chore Race 2500, Night
Shift 500), ``"ismcts:500"`` (iterations) or ``"ismcts:200ms"`` (milliseconds of wall
time per decision). An iteration budget is deterministic for a fixed seed; a time budget
is not (the iterations done depend on the machine). A deadline set on the bot
(:attr:`Bot.deadline`, a live table's time cap) stops any search early: the best move
found so far is played.

Open moves (``Game.OPEN_MOVES``, Lazy Sunday's quick discard, LS-5) are not searched:
:meth:`ISMCTSBot.interject` keeps the game's heuristic bot's rule. Within the search,
after every simulated move, the simulated seats make the open moves that rule would
(:meth:`~playtest.engine.game.SearchesOpenMoves.search_open_move`: a Lazy Sunday seat
slaps a card it knows to match), so a playout sees the quick discards that decide the
game.
"""
from __future__ import annotations

import math
import random
import time
from collections.abc import Iterable, Mapping, Sequence
from functools import partial
from typing import Any, Callable

from .bots import Bot, LazyView
from .errors import OptionError
from .game import Evaluates, Game, Glances, Leads, Searchable, SearchesOpenMoves
from .moves import Move

EXPLORATION = 0.7
"""UCB1's exploration constant ``c`` in ``mean + c * sqrt(ln(availability) / visits)``,
rewards being 0..1."""
ROLLOUT_CAP = 5000
"""Most moves a rollout plays before it stops and counts the leaders as the winners."""
ROLLOUTS = ("random", "heuristic")
OPEN_MOVES_IN_A_ROW = 8
"""Most open moves simulated between two decisions (a bound; a slap rarely leads to more
than two)."""


class _Node:
    """One move's child in the search tree: who made the move, its visits, the reward
    that seat collected through it, and how often it was available (legal) in a sample
    when its parent was walked through."""

    __slots__ = ("seat", "visits", "reward", "avail", "children")

    def __init__(self, seat):
        self.seat, self.visits, self.reward, self.avail, self.children = seat, 0, 0.0, 1, {}


def parse_budget(text: str | None, most: tuple[int, int] | None = None) -> tuple[int | None, float | None]:
    """A budget's text -> ``(iterations, milliseconds)``: one of them a number, or both
    None for the game's default (``Game.SEARCH_ITERATIONS`` iterations).

    Args:
        text: ``"500"`` (iterations, 1 or more), ``"200ms"`` (milliseconds, 1 or more),
            or None / ``""`` for the default.
        most: ``(iterations, milliseconds)``: the largest budget allowed (a live
            table's, :data:`playtest.tables.thinking.BUDGET_LIMITS`), or None for any.

    Raises:
        OptionError: any other text (the message shows the two forms), or a budget over
            ``most`` (the message names the limit).
    """
    if not text:
        return None, None
    digits, ms = (text[:-2], True) if text.endswith("ms") else (text, False)
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 20 or int(digits) < 1:
        raise OptionError(f"a search budget is a number of iterations (ismcts:500) or of milliseconds "
                          f"(ismcts:200ms), 1 or more, not {text[:40]!r}")
    if most is not None and int(digits) > most[ms]:
        raise OptionError(f"a search budget of {int(digits):,} {'ms' if ms else 'iterations'} a decision is over "
                          f"this table's limit: at most {most[0]:,} iterations (ismcts:{most[0]}) or "
                          f"{most[1]:,} ms (ismcts:{most[1]}ms) a decision")
    return (None, float(digits)) if ms else (int(digits), None)


class ISMCTSBot(Bot):
    """Single-observer IS-MCTS on any :class:`~playtest.engine.game.Searchable` game (see the
    module docstring).

    Args:
        seed: the bot's own random stream (samples, tie-breaks, rollouts).
        game: the game it plays (a :class:`Game` instance: its class, seat count and
            options are copied into a game of the bot's own, which keeps no log).
        iterations: iterations per decision (1 or more); None: the game's
            ``SEARCH_ITERATIONS`` (unless ``ms`` is given).
        ms: wall-clock milliseconds per decision instead (at least one iteration runs).
        rollout: ``"random"`` (uniform legal moves, the tree's default: per unit of CPU
            time it played at least as well as the heuristic policy in the tree, which
            costs about five random iterations an iteration; Lazy Sunday, 2 seats,
            against the heuristic bot: 300 heuristic-policy iterations won 34% of 80
            games, 1,000 random ones 46%) or ``"heuristic"`` (the game's
            ``BOTS["heuristic"]`` at every seat, deciding from its seat's bot view of
            the sample; the flat search's default). None: the default.
        exploration: UCB1's constant (:data:`EXPLORATION`).
        playout: moves a playout plays before the game's :meth:`~playtest.engine.game.Evaluates.evaluate` scores
            the position (0 or more), None to play to the end; default the game's
            ``SEARCH_PLAYOUT_MOVES``. A game without an evaluation always plays to the end.
        flat: True for the flat search on common samples, False for the tree; None: the
            game's ``SEARCH_FLAT`` (see the module docstring).

    Raises:
        OptionError: no game, a game without a determinizer, a bad budget, rollout or
            playout.
    """

    name = "ismcts"

    def __init__(self, seed=None, game: Game | None = None, iterations: int | None = None,
                 ms: float | None = None, rollout: str | None = None, exploration: float = EXPLORATION,
                 playout: int | None | str = "game", flat: bool | None = None):
        super().__init__(seed)
        if not isinstance(game, Game):
            raise OptionError("the ismcts bot needs the game it plays: make it with make_bot(game, 'ismcts', seed) "
                              "or ISMCTSBot(seed, game=match.game)")
        if not isinstance(game, Searchable):
            raise OptionError(f"{game.title} cannot sample states from a seat's view (it is not Searchable), "
                              "so the ismcts bot cannot play it")
        if ms is None and iterations is None:
            iterations = game.SEARCH_ITERATIONS
        if ms is None and (type(iterations) is not int or iterations < 1):
            raise OptionError(f"iterations must be a whole number 1 or more, not {iterations!r}")
        if ms is not None and not ms > 0:
            raise OptionError(f"ms must be a number of milliseconds above 0, not {ms!r}")
        self.flat = type(game).SEARCH_FLAT if flat is None else flat
        if rollout is None:
            rollout = "heuristic" if self.flat else "random"
        if rollout not in ROLLOUTS:
            raise OptionError(f"rollout must be one of {', '.join(ROLLOUTS)}, not {rollout!r}")
        self.game = type(game)(game.seats, game.options)
        self.game.keep_log = False  # a search builds no log text
        self.iterations, self.ms, self.rollout, self.exploration = (None if ms is not None else iterations), ms, \
            rollout, exploration
        heuristic = game.BOTS.get("heuristic")
        # open moves (LS-5 claims) stay with the heuristic's rule; so does the rollout policy if asked
        self._open_bot = heuristic(seed) if heuristic and type(game).OPEN_MOVES else None
        self._policy = ([heuristic(f"{seed}:rollout:{s}") for s in range(game.seats)]
                        if rollout == "heuristic" and heuristic else None)
        if rollout == "heuristic" and heuristic is None:
            raise OptionError(f"{game.title} has no heuristic bot for the rollouts")
        self._reflex = self.game.search_open_move if isinstance(game, SearchesOpenMoves) else None
        self._glances = isinstance(game, Glances)
        if playout == "game":
            playout = type(game).SEARCH_PLAYOUT_MOVES
        if playout is not None and (type(playout) is not int or playout < 0):
            raise OptionError(f"playout must be a whole number of moves 0 or more, or None, not {playout!r}")
        if playout is not None and not isinstance(game, Evaluates):
            playout = None  # no evaluation to stop at: play to the end
        self.playout = playout
        self.last_iterations = 0
        """Iterations of the last decision (for benchmarks)."""

    @classmethod
    def for_game(cls, game: Game, seed, budget: str | None) -> "ISMCTSBot":
        """The bot for ``make_bot(game, "ismcts[:budget]", seed)``; see :func:`parse_budget`.

        Raises:
            OptionError: a bad budget, or see the class.
        """
        iterations, ms = parse_budget(budget)
        return cls(seed, game=game, iterations=iterations, ms=ms)

    @classmethod
    def check_budget(cls, budget: str | None, most: tuple[int, int] | None = None) -> None:
        """See :meth:`Bot.check_budget` and :func:`parse_budget`."""
        parse_budget(budget, most)

    # --- deciding -------------------------------------------------------------------------
    def choose(self, view: Mapping, legal: list[Move]) -> Move:
        """The best of ``legal`` after the search (``legal`` alone if it has one move):
        the search weighs one move of each class of moves the seat cannot tell apart
        (:meth:`Game.search_classes`), and of the best class (most visited, then best
        mean) one move is drawn at random. Reads the view only to group the moves and to
        sample from it."""
        if len(legal) == 1:
            return legal[0]
        classes = self.game.search_classes(view, legal)
        if len(classes) > 1:
            stats = self.search(view, [alike[0] for alike in classes])
            classes = [max(classes, key=lambda alike: stats.get(alike[0], (0, 0.0)))]
        best = classes[0]
        return best[0] if len(best) == 1 else best[self.rng.randrange(len(best))]

    def search(self, view: Mapping, legal: Sequence[Move]) -> dict[Move, tuple[int, float]]:
        """Run one decision's search from ``view`` (the seat's bot view, whose
        ``"viewer"`` is the seat) over ``legal``.

        Returns:
            root move -> ``(visits, mean reward of the seat)``, for the moves of
            ``legal`` tried (the tree tries only those at the root).

        Raises:
            NotImplementedError, ValueError: from the game's determinizer.
        """
        seat = view["viewer"]
        sample = self.game.determinizer(dict(view), seat)
        rng = self.rng
        if self.flat:
            root, legal = {move: _Node(seat) for move in legal}, list(legal)
            iterate, steps = partial(self._flat, sample, root, seat), len(legal)
        else:
            root, legal = _Node(None), frozenset(legal)
            iterate, steps = partial(self._iterate, sample, root, rng, legal), 1
        done, clock, cap = 0, time.perf_counter, self.deadline
        if self.ms is None and cap is None:
            while done < self.iterations:
                iterate()
                done += steps
        else:  # a time budget, or a time cap (Bot.deadline): the best found so far when it comes
            deadline = min(clock() + self.ms / 1000 if self.ms is not None else math.inf,
                           cap if cap is not None else math.inf)
            most = self.iterations if self.ms is None else math.inf
            while True:
                iterate()
                done += steps
                if done >= most or clock() >= deadline:
                    break
        self.last_iterations = done
        children = root if self.flat else root.children
        return {move: (child.visits, child.reward / child.visits if child.visits else 0.0)
                for move, child in children.items() if move in legal}

    def _flat(self, sample: Callable[[random.Random], Any], root: dict, seat: int) -> None:
        """One sample of the flat search, played out once after each root move, every
        playout from the same sample with a stream seeded alike (common random numbers:
        the moves are compared on the same hidden cards and the same luck)."""
        game, rng = self.game, self.rng
        state, seed = sample(rng), rng.random()
        for move, child in root.items():
            played = game.copy_state(state)
            played.rng = stream = random.Random(seed)
            game.apply(played, move)
            child.visits += 1
            child.reward += self._rollout(played, stream)[seat]

    def _iterate(self, sample: Callable[[random.Random], Any], root: _Node, rng: random.Random,
                 legal: frozenset) -> None:
        """One iteration: sample, select and expand (at the root, among ``legal``), roll
        out, back up."""
        game = self.game
        to_act, decision_moves, apply = game.to_act, game.decision_moves, game.apply
        state = sample(rng)
        node, path = root, []
        c, log, sqrt = self.exploration, math.log, math.sqrt
        reflex = self._reflex
        while True:
            if reflex is not None:
                self._open_moves(state, rng)
            acting = to_act(state)
            if not acting:
                break
            seat = acting[0]
            moves = decision_moves(state, seat)
            if node is root:
                moves = [m for m in moves if m in legal]
            if not moves:
                break
            children = node.children
            untried = [m for m in moves if m not in children]
            if untried:
                for m in moves:  # every child legal in this sample was available
                    child = children.get(m)
                    if child is not None:
                        child.avail += 1
                move = untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
                child = children[move] = _Node(seat)
                apply(state, move)
                path.append(child)
                break
            best, best_value = None, -1.0
            for m in moves:
                child = children[m]
                child.avail += 1
                value = child.reward / child.visits + c * sqrt(log(child.avail) / child.visits)
                if value > best_value:
                    best, best_value = m, value
            apply(state, best)
            node = children[best]
            path.append(node)
        rewards = self._rollout(state, rng)
        for child in path:
            child.visits += 1
            child.reward += rewards[child.seat]

    def _rollout(self, state, rng: random.Random) -> list[float]:
        """Play ``state`` on to its end (at most :data:`ROLLOUT_CAP` moves) with the
        rollout policy; per seat, its reward."""
        game = self.game
        to_act, decision_moves, apply = game.to_act, game.decision_moves, game.apply
        policy, reflex, view = self._policy, self._reflex, game.bot_view
        glance = game.bot_glance if self._glances else None
        cap = ROLLOUT_CAP if self.playout is None else self.playout
        for _ in range(cap):
            if reflex is not None:
                self._open_moves(state, rng)
            acting = to_act(state)
            if not acting:
                break
            seat = acting[0]
            moves = decision_moves(state, seat)
            if len(moves) == 1:
                apply(state, moves[0])
            elif policy is None:
                apply(state, moves[rng.randrange(len(moves))])
            else:  # the seat's bot view, built only as far as the policy reads it, as a table does
                glanced = partial(glance, state, seat) if glance else None
                apply(state, policy[seat].choose(LazyView(partial(view, state, seat), [], glanced), moves))
        else:  # stopped by the cap: the game's evaluation, if it has one and the game goes on
            if self.playout is not None and to_act(state):
                values = game.evaluate(state)
                if values is not None:
                    return list(values)
        return rewards(game, state)

    def _open_moves(self, state, rng: random.Random) -> None:
        """Play the open moves simulated seats make now
        (:meth:`~playtest.engine.game.SearchesOpenMoves.search_open_move`;
        one may lead to another, e.g. a slap that puts a new top on DONE)."""
        reflex, apply = self._reflex, self.game.apply
        for _ in range(OPEN_MOVES_IN_A_ROW):
            move = reflex(state, rng)
            if move is None:
                return
            apply(state, move)

    def interject(self, view: Mapping, open_moves: Sequence[Move]) -> Move | None:
        """Open moves (LS-5 quick discards) by the game's heuristic bot's rule, not
        searched; never for a game without one."""
        return self._open_bot.interject(view, open_moves) if self._open_bot is not None else None


def rewards(game: Game, state) -> list[float]:
    """Per seat, its reward in a position where play stopped: 1 shared among the
    winners of a finished game (a draw: shared among all seats); for a game the G-4 cap
    or the rollout cap stopped, the seats a :class:`Leads` game names (all seats if the
    game does not say) stand in for the winners."""
    outcome = game.outcome(state)
    if outcome is not None and outcome.finished:
        winners = outcome.winners or range(game.seats)
    else:
        winners = (game.leaders(state) if isinstance(game, Leads) else None) or range(game.seats)
    share = 1.0 / len(winners)
    result = [0.0] * game.seats
    for seat in winners:
        result[seat] = share
    return result


class Unplaced:
    """The card ids a determinizer (:class:`~playtest.engine.game.Searchable`) has not
    placed yet, by card name: the start of every sampler, which places each card the
    seat's view names, then deals the rest at random.

    Args:
        names: the name of every card id of the game (``names[i]`` is card ``i``'s).
        holds: what the deck holds, to end the refusal of a view with too many copies of
            a card, e.g. ``"the Lazy Sunday deck holds (LS-1, LS-2)"``.
    """

    __slots__ = ("_free", "_holds")

    def __init__(self, names: Iterable[str], holds: str):
        self._free: dict[str, list[int]] = {}
        for card, name in enumerate(names):
            self._free.setdefault(name, []).append(card)
        self._holds = holds

    def take(self, name: str) -> int:
        """A card id named ``name`` not placed yet, now placed.

        Raises:
            ValueError: every copy of ``name`` is placed already, or the game has none.
        """
        ids = self._free.get(name)
        if not ids:
            raise ValueError(f"the view shows more {name!r} cards than {self._holds}")
        return ids.pop()

    def has(self, name: str) -> bool:
        """Whether a card named ``name`` is left to place."""
        return bool(self._free.get(name))

    def rest(self) -> list[int]:
        """The card ids not placed, in a fixed order (by first name, then id), for the
        sampler to deal at random."""
        return [card for ids in self._free.values() for card in ids]


def margin_rewards(values: Sequence[float], scale: float) -> tuple[float, ...]:
    """Per seat, a reward in 0..1 from each seat's standing (higher is better), for a
    game's :meth:`~playtest.engine.game.Evaluates.evaluate`: a softmax, ``exp(v / scale)`` shared out, so equal
    standings share evenly and a seat ``scale`` ahead of one other seat gets about 73%.

    Args:
        values: one number per seat (e.g. VP plus progress; a game where low wins passes
            the negated scores).
        scale: how much of a lead counts as a clear edge, above 0.

    Returns:
        one reward per seat, summing to 1.

    Raises:
        ValueError: ``scale`` is not above 0, or ``values`` is empty.
    """
    if not scale > 0 or not values:
        raise ValueError(f"margin_rewards needs values and a scale above 0, not {values!r}, {scale!r}")
    top = max(values)
    weights = [math.exp((v - top) / scale) for v in values]
    total = sum(weights)
    return tuple(w / total for w in weights)
