"""The bot contract (:class:`Bot`) and the bot every game has (:class:`RandomBot`).

A game declares its bots in ``Game.BOTS`` (name -> a :class:`Bot` subclass); the table
that seats them is :mod:`playtest.engine.bots`.
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from .errors import OptionError
from .moves import Move


class Bot:
    """Base class of every bot.

    Args:
        seed: seeds the bot's own random stream (separate from the game's, so the record
            alone replays the game). Any hashable value; the table passes
            ``match.side_seed(str(seat))``, which does not give the game's seed back
            (a bot must not rebuild the deal) unless the game uses the old stream.

    Subclasses override :meth:`choose`, and :meth:`interject` if they make open moves.
    """

    name = "bot"
    deadline: float | None = None
    """``time.perf_counter()`` time by which the decision being made must be chosen, or
    None (no limit): a bot that searches (:class:`~playtest.engine.search.ISMCTSBot`)
    stops its search there and plays the best move found so far; a bot that decides at
    once ignores it. A live table's worker sets it before each decision (its time cap)."""

    def __init__(self, seed=None):
        self._seed, self._rng = seed, None

    @property
    def rng(self) -> random.Random:
        """The bot's own random stream, seeded from ``seed`` when first used (seeding
        from a text costs as much as a dozen moves, and many bots never draw)."""
        if self._rng is None:
            self._rng = random.Random(self._seed)
        return self._rng

    @rng.setter
    def rng(self, rng: random.Random) -> None:
        self._rng = rng

    @classmethod
    def check_budget(cls, budget: str | None, most: tuple[int, int] | None = None) -> None:
        """Check the budget text of a name such as ``"ismcts:500"`` (``budget`` is
        ``"500"``; None when the name has none) without making the bot.

        Args:
            most: ``(iterations, milliseconds)``, the largest budget allowed, or None.

        Raises:
            OptionError: a budget given to a bot that takes none (the default), or a bad
                one (a search bot, :class:`~playtest.engine.search.ISMCTSBot`).
        """
        if budget is not None:
            raise OptionError(f"bot {cls.name!r} takes no budget (only a search bot does, e.g. ismcts:500), "
                              f"not {f'{cls.name}:{budget}'[:60]!r}")

    @classmethod
    def for_game(cls, game, seed, budget: str | None) -> "Bot":
        """The bot that ``make_bot(game, "name[:budget]", seed)`` makes: by default
        ``cls(seed)`` (a bot that needs the game's rules, such as a search bot, makes
        itself from ``game``, a Game instance). ``budget`` was checked by
        :meth:`check_budget`."""
        return cls(seed)

    def choose(self, view: Mapping, legal: list[Move]) -> Move:
        """Pick one of ``legal`` (never empty) for the seat's pending decision. ``view``
        is built on first read and valid during the call only."""
        raise NotImplementedError

    def interject(self, view: Mapping, open_moves: Sequence[Move]) -> Move | None:
        """Offered before every decision: return one of ``open_moves`` (possibly empty) to
        make it now, or None to let play go on. Default: never.

        Both arguments are built only when first read, since this is asked of every bot
        before every move: decide cheaply first where you can. Both are valid during the
        call only (``dict(view)`` keeps a copy)."""
        return None


class RandomBot(Bot):
    """Picks uniformly among the legal moves of its decision; makes an open move now and
    then (``open_rate``, 2% of the chances by default)."""

    name = "random"

    def __init__(self, seed=None, open_rate: float = 0.02):
        super().__init__(seed)
        self.open_rate = open_rate

    def choose(self, view, legal):
        return self.rng.choice(legal)

    def interject(self, view, open_moves):
        if self.rng.random() < self.open_rate and open_moves:
            return self.rng.choice(open_moves)
        return None
