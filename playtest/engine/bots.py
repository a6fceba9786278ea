"""Bots, and the table that seats them beside human players.

A bot decides only from what its seat may know: :meth:`Match.bot_view` (the seat's view
plus its own memory) and the seat's legal moves. It never sees the state.
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import partial

from .bot import Bot
from .errors import OptionError
from .game import Glances, Outcome
from .match import Match
from .moves import Move


class _Lazy:
    """Builds a value on first use (a view or a move list nobody may read).

    Args:
        make: builds the value, no arguments.
        built: a list this lazy value appends itself to when it builds its value, so
            that its owner resets only the values that were read (see :meth:`reset`).
    """

    __slots__ = ("_make", "_value", "_built")

    def __init__(self, make, built: list):
        self._make, self._value, self._built = make, None, built

    def reset(self):
        """Forget the value: the next read builds it again (after a move)."""
        self._value = None

    def _get(self):
        value = self._value
        if value is None:
            value = self._value = self._make()
            self._built.append(self)
        return value


class LazyView(_Lazy, Mapping):
    """A view (Mapping) computed on first access.

    Args:
        make, built: see :class:`_Lazy`; ``make`` builds the whole view.
        glance: builds a dict of a few of the view's keys, cheaply (see
            :meth:`~playtest.engine.game.Glances.bot_glance`), or returns None; reading one of those keys then
            builds only the glance. None: no glance.
    """

    __slots__ = ("_make_glance", "_glance")

    def __init__(self, make, built: list, glance=None):
        super().__init__(make, built)
        self._make_glance, self._glance = glance, None if glance else {}

    def reset(self):
        self._value = None  # _Lazy.reset, inlined: the table resets every view read, after every move
        if self._make_glance:
            self._glance = None

    def __getitem__(self, key):
        glance = self._glance
        if glance is None:
            glance = self._glance = self._make_glance() or {}
            self._built.append(self)
        if key in glance:
            return glance[key]
        value = self._value  # inlined _get: bots read a few keys of every view
        if value is None:
            value = self._get()
        return value[key]

    def __iter__(self):
        return iter(self._get())

    def __len__(self):
        return len(self._get())


class LazyMoves(_Lazy, Sequence):
    """A list of moves computed on first access."""

    def __getitem__(self, index):
        return self._get()[index]

    def __iter__(self):
        return iter(self._get())

    def __contains__(self, move):
        return move in self._get()

    def __len__(self):
        return len(self._get())


class Table:
    """A match with bots in some seats; the other seats are human.

    Args:
        match: the match to play.
        bots: seat -> a Bot, or the name of one of the game's ``BOTS``.

    Raises:
        OptionError: a seat out of range or an unknown bot name (the message lists the
            game's bots).
    """

    def __init__(self, match: Match, bots: Mapping[int, Bot | str]):
        self.match = match
        self.bots: dict[int, Bot] = {}
        for seat, bot in sorted(bots.items()):
            if not 0 <= seat < match.game.seats:
                raise OptionError(f"bot seat {seat} is not a seat of this {match.game.seats}-seat game")
            self.bots[seat] = make_bot(match.game, bot, match.side_seed(str(seat)))
        # the bots that may make open moves: Bot.interject never does
        self._racers = [seat for seat, bot in self.bots.items()
                        if type(bot).interject is not Bot.interject] if match.game.OPEN_MOVES else []
        # Open moves are a race (LS-5 quick discards): asking the bots in seat order would
        # hand every race to the lowest seat. Each step asks them from a random first bot,
        # drawn from the table's own stream (never the game's: the record alone replays it):
        # race_rng.randrange(len(racers)), drawn inline as Random._randbelow draws it
        # (bit_length bits until below the count): the same stream, one call a step
        self._race_bits = len(self._racers).bit_length()
        self._race_draw = random.Random(match.side_seed("open-move race")).getrandbits
        self._bind()

    def _bind(self) -> None:
        """One lazy view and open-move list per bot seat, on the match's current state
        (rewinding replays into a new state object: :meth:`step_bot` binds again). They
        call the game's methods directly (the seats are checked), as they are read for
        every bot at every move; those read are reset after each move."""
        match, game = self.match, self.match.game
        state = self._state = match.state
        self._built: list[_Lazy] = []
        glances = isinstance(game, Glances)
        self._lazy = {seat: (LazyView(partial(game.bot_view, state, seat), self._built,
                                      partial(game.bot_glance, state, seat) if glances else None),
                             LazyMoves(partial(match.open_moves, seat), self._built))
                      for seat in self.bots}
        racers = [(self.bots[seat], *self._lazy[seat]) for seat in self._racers]
        self._race_orders = [racers[first:] + racers[:first] for first in range(len(racers))]  # by first bot

    @property
    def humans(self) -> list[int]:
        """Seats played by people."""
        return [s for s in range(self.match.game.seats) if s not in self.bots]

    def decision_moves(self, seat: int) -> list[Move]:
        """The legal moves of ``seat`` that answer its pending decision (open moves left
        out), or all of them if it has only open moves."""
        return self.match.decision_moves(seat) or self.match.open_moves(seat)

    def open_moves(self, seat: int) -> list[Move]:
        """The open moves ``seat`` may make now (see ``Game.OPEN_MOVES``)."""
        return self.match.open_moves(seat)

    def step_bot(self) -> Move | None:
        """Let one bot move: an open move if some bot wants one (the bots are asked from a
        random first one each time, so no seat wins every race), else the first bot seat
        with a pending decision. Returns the move played, or None if no bot may move
        (the game is over, or it waits for a human)."""
        match = self.match
        if match.outcome() is not None or not match.at_end:
            return None
        if match.state is not self._state:
            self._bind()
        built = self._built
        if built:  # forget the views and move lists read before the last move
            for lazy in built:
                lazy.reset()
            built.clear()
        orders = self._race_orders
        if orders:
            count = len(orders)
            first = 0
            if count > 1:
                bits, draw = self._race_bits, self._race_draw
                first = draw(bits)
                while first >= count:
                    first = draw(bits)
            for bot, view, moves in orders[first]:
                move = bot.interject(view, moves)
                if move is not None:
                    match.play(move)
                    return move
        bots = self.bots
        for seat in match.to_act():
            bot = bots.get(seat)
            if bot is not None:
                move = bot.choose(self._lazy[seat][0], self.decision_moves(seat))
                match.play(move)
                return move
        return None

    def proposals(self) -> tuple[dict[int, Move], int | None]:
        """What the bots would do now, without playing it: for a table whose bots move
        on a clock (:mod:`playtest.tables.live`), where a person may move first.

        Returns:
            ``(open_moves, seat)``: bot seat -> the open move it wants to make now
            (LS-5 quick discards; each bot is asked, as each person may slap: the
            bots' cheap rule, see :meth:`Bot.interject`), and the first bot seat with
            a pending decision, or None. The caller has that seat's bot choose (from
            ``match.bot_view(seat)`` and :meth:`decision_moves`), possibly in another
            process. Both empty when the game is over or rewound. A caller plays a
            move only if the match has not moved since.
        """
        match = self.match
        if match.outcome() is not None or not match.at_end:
            return {}, None
        if match.state is not self._state:
            self._bind()
        for lazy in self._built:
            lazy.reset()
        self._built.clear()
        wanted = {}
        for seat in self._racers:
            view, moves = self._lazy[seat]
            move = self.bots[seat].interject(view, moves)
            if move is not None:
                wanted[seat] = move
        deciding = next((seat for seat in match.to_act() if seat in self.bots), None)
        return wanted, deciding

    def run_bots(self, limit: int = 100_000) -> list[Move]:
        """Let bots move until a human must decide or the game ends; at most ``limit``
        moves. Returns the moves played."""
        played = []
        while len(played) < limit:
            move = self.step_bot()
            if move is None:
                break
            played.append(move)
        return played


def split_bot_name(name: str) -> tuple[str, str | None]:
    """``"ismcts:500"`` -> ``("ismcts", "500")``; ``"heuristic"`` -> ``("heuristic", None)``:
    a bot name and its budget (the text after the first colon), if any."""
    base, sep, budget = name.partition(":")
    return base, budget if sep else None


def check_bot_name(game, name: str, most: tuple[int, int] | None = None) -> None:
    """Check that ``name`` names one of ``game.BOTS`` (a Game class or instance), with a
    budget only for a bot that takes one (``"ismcts:500"``, ``"ismcts:200ms"``), without
    making the bot.

    Args:
        most: ``(iterations, milliseconds)``, the largest budget allowed (a live
            table's limits, :mod:`playtest.tables.thinking`), or None for any.

    Raises:
        OptionError: unknown name (the message lists the game's bots), a budget for a bot
            without one, a bad budget, or one over ``most`` (the message names the limit).
    """
    bots = game.BOTS
    if not isinstance(name, str):
        raise OptionError(f"a bot is named by text ({', '.join(bots)}), not {name!r}")
    base, budget = split_bot_name(name)
    if base not in bots:
        raise OptionError(f"unknown bot {name!r} for {game.title}; bots: {', '.join(bots)} "
                          f"(a search bot takes a budget: ismcts:500 iterations or ismcts:200ms)")
    bots[base].check_budget(budget, most)


def make_bot(game, bot: Bot | str, seed) -> Bot:
    """A bot instance from a Bot or from the name of one of ``game.BOTS``, with its
    budget if it takes one (``"ismcts:500"``: 500 iterations a decision; ``"ismcts:200ms"``:
    200 ms; plain ``"ismcts"``: the default budget).

    Args:
        game: the Game instance the bot plays (a search bot copies its rules).
        bot: a Bot (returned as it is) or a name.
        seed: the bot's seed (see :class:`Bot`).

    Raises:
        OptionError: unknown name (the message lists the game's bots), or a bad budget
            (see :func:`check_bot_name`).
    """
    if isinstance(bot, Bot):
        return bot
    check_bot_name(game, bot)
    base, budget = split_bot_name(bot)
    return game.BOTS[base].for_game(game, seed, budget)


def play_game(game, seats: int, bots: Mapping[int, Bot | str] | str = "random", options=None,
              seed: int = 0, keep_log: bool = False) -> tuple[Match, Outcome]:
    """Play one game with bots in every seat.

    Args:
        game: registry name or Game class. seats: seat count.
        bots: seat -> bot (or bot name), or one bot name for every seat.
        options: game options. seed: the game's seed (G-3).
        keep_log: keep the log events (off for speed).

    Returns:
        ``(match, outcome)``; an outcome with ``finished=False`` when G-4's
        ``max_turns`` stopped the game.
    """
    match = Match(game, seats, options, seed, keep_log=keep_log)
    if isinstance(bots, str):
        bots = {seat: bots for seat in range(seats)}
    table = Table(match, bots)
    table.run_bots(limit=10**9)
    outcome = match.outcome()
    if outcome is None:
        raise RuntimeError(f"bots stopped before the game ended; seats to act: {match.to_act()}")
    return match, outcome
