"""Lazy Sunday bots. They decide only from ``bot_view`` (the seat's view plus its
memory, LS-11) and the legal moves; the public deck list gives each name's effort."""
from __future__ import annotations

from itertools import groupby
from operator import itemgetter

from playtest.engine import Bot, Move, RandomBot

from .cards import load_cards

CALL_MARGIN = 3    # call NOT ME! only when this much below every opponent's estimate
KEEP_GAIN = 1      # keep a drawn card when it lowers the expected total by more than this
TAKE_GAIN = 3      # taking DONE gives up a draw, so it must gain more
HIGH = 7           # a known card this heavy is worth trading away (Let's Trade)
GENTLE_TURNS = 4   # the gentle bot's own turns in a round before it may call NOT ME!


_READ_PHASES = ("look", "turn", "drawn", "give")  # the decisions that read the view
_KIND = itemgetter(1)  # Move.kind, read by position


_ESTIMATES: dict[int, tuple] = {}


def _estimates(cards) -> tuple[dict[str, int], float, dict[str | None, float]]:
    """(name -> effort, mean effort per card, the same with None -> the mean) for a deck;
    worked out once per deck, as every game seats new bots. Read only."""
    if id(cards) not in _ESTIMATES:  # the entry keeps the deck alive, so its id stays its own
        effort = dict(zip(cards.names, cards.efforts))
        mean = sum(cards.efforts) / len(cards.efforts)
        _ESTIMATES[id(cards)] = (cards, effort, mean, {**effort, None: mean})
    return _ESTIMATES[id(cards)][1:]


class HeuristicBot(Bot):
    """A memory-keeping bot for Lazy Sunday (plays LS-2..LS-9 from ``bot_view`` only).

    Estimates each list as known efforts plus the deck's mean effort per unknown card;
    peeks at two positions drawn from its own stream (LS-3), keeps low cards, burns
    useful actions, claims matches it knows for sure (LS-5) and calls NOT ME! (LS-7)
    when clearly lowest.

    Args:
        seed: the bot's own random stream (see :class:`playtest.engine.Bot`).
    """

    name = "heuristic"

    def __init__(self, seed=None):
        super().__init__(seed)
        self.effort, self.mean, self._values = _estimates(load_cards())

    # --- estimates ------------------------------------------------------------------
    def _value(self, name) -> float:
        return self._values[name]

    def _estimate(self, memory, seat) -> float:
        return sum(map(self._values.__getitem__, memory[seat]))

    def _replace_at(self, memory, me, effort, min_gain) -> int | None:
        """Own position whose known (or expected) effort exceeds ``effort`` by the most,
        if by more than ``min_gain``."""
        values, best, best_gain = self._values, None, min_gain
        for p, name in enumerate(memory[me]):  # the last of equal gains, as max() of (gain, p) would
            gain = values[name] - effort
            if gain > min_gain and gain >= best_gain:
                best, best_gain = p, gain
        return best

    def _dump_at(self, memory, me) -> int:
        """Own position best to lose: highest known card if above the mean, else an unknown one."""
        row = memory[me]
        return max(range(len(row)), key=lambda p: (self._value(row[p]), row[p] is None))

    # --- decisions --------------------------------------------------------------------
    def choose(self, view, legal):
        """Pick one of ``legal`` for the pending decision (see the class docstring)."""
        phase = view["phase"]
        if phase == "peek" and len(legal) > 1:
            # LS-3: any two of its cards are unknown alike; two drawn at random, so the
            # positions the public log shows tell nothing about the bot
            return legal[self.rng.randrange(len(legal))]
        if len(legal) == 1 or phase not in _READ_PHASES:
            return legal[0]  # deal: no need to read the memory
        by_kind: dict[str, list[Move]] = {}
        for kind, moves in groupby(legal, _KIND):  # runs of one kind, merged should a kind recur
            by_kind.setdefault(kind, []).extend(moves)
        me = view["viewer"]
        if phase == "look":
            return by_kind["swap"][0] if "swap" in by_kind and self._swap_helps(view) else by_kind["done"][0]
        if phase == "turn":
            return self._turn(view, me, view["memory"], by_kind)
        if phase == "drawn":
            return self._drawn(view, me, view["memory"], by_kind)
        return Move(me, "give", (self._dump_at(view["memory"], me),))  # give

    def _turn(self, view, me, memory, by_kind):
        mine = self._estimate(memory, me)
        if "notme" in by_kind and (mine <= 2 or (memory[me].count(None) <= 1 and mine + CALL_MARGIN <= min(
                self._estimate(memory, t) for t in range(view["seats"]) if t != me))):  # rivals only when it matters
            return by_kind["notme"][0]
        top = view["done"]["top"]
        if top and memory[me] and "take" in by_kind:
            p = self._replace_at(memory, me, top["effort"], TAKE_GAIN)
            if p is not None:
                return Move(me, "take", (p,))
        return (by_kind.get("draw") or by_kind.get("take") or by_kind.get("notme") or by_kind["pass"])[0]

    def _drawn(self, view, me, memory, by_kind):
        card = view["drawn"]["card"]
        keep_at = self._replace_at(memory, me, card["effort"], KEEP_GAIN) if memory[me] else None
        burn = self._burn(view, me, memory, by_kind, card, keep_at)
        if burn is not None:
            return burn
        return Move(me, "keep", (keep_at,)) if keep_at is not None else by_kind["discard"][0]

    def _burn(self, view, me, memory, by_kind, card, keep_at) -> Move | None:
        """A useful burn of the drawn action card, or None (then keep or discard)."""
        kind = next((k for k in by_kind if k not in ("keep", "discard")), None)
        if kind is None:
            return None
        moves = by_kind[kind]
        unknown_own = [p for p, name in enumerate(memory[me]) if name is None]
        rivals = sorted({m.args[0] for m in moves} - {me}, key=lambda t: self._estimate(memory, t)
                        ) if kind in ("nosy", "landlord") else []
        if kind == "busy":  # light enough to keep over a heavy card; else make someone skip
            return None if keep_at is not None and self._value(memory[me][keep_at]) >= 4 else moves[0]
        if kind == "knock_out":
            return Move(me, kind, (self._dump_at(memory, me),))
        if kind == "double_check" and unknown_own:
            return Move(me, kind, (unknown_own[0],))
        if kind == "nosy" and rivals:  # look at the most dangerous rival's unknown card
            for m in moves:
                if m.args[0] == rivals[0] and memory[m.args[0]][m.args[1]] is None:
                    return m
        if kind == "landlord" and rivals:  # an extra card for the player closest to winning
            return Move(me, kind, (rivals[0],))
        if kind == "trade":
            return self._trade(memory, me, moves)
        if kind == "not_my_job":
            return next((m for m in moves if memory[m.args[0]][m.args[1]] is None
                         and memory[m.args[2]][m.args[3]] is None), None)
        return None

    def _trade(self, memory, me, moves) -> Move | None:
        """Give away a known high card for the lightest card we know of (or an unknown one)."""
        effort, values = self.effort, self._values
        high = {p: effort[name] for p, name in enumerate(memory[me]) if name is not None and effort[name] >= HIGH}
        best, best_gain = None, 0.0
        if high:  # else no trade helps: most of the time, decided without reading the moves
            for m in moves:
                p, t, q = m.args
                if p in high:
                    gain = high[p] - values[memory[t][q]]
                    if gain > best_gain:
                        best, best_gain = m, gain
        return best

    def _swap_helps(self, view) -> bool:
        """After Not My Job: swap when it hands the heavier card to the lower estimate."""
        memory = view["memory"]
        (t, p), (u, q) = view["looking"]
        a, b = self.effort[memory[t][p]], self.effort[memory[u][q]]
        return (self._estimate(memory, t) - self._estimate(memory, u)) * (b - a) < 0

    def interject(self, view, open_moves):
        """Claim (LS-5) a card remembered to match the DONE top, own cards first."""
        if not view["claims_open"]:
            return None
        memory, done = view["memory"], view["done"]
        name = done["top"]["name"]
        for row in memory:  # a loop, not any(): this runs for every bot before every move
            if name in row:
                break
        else:
            return None  # the usual case: decided without the move list
        me = view["viewer"]
        spots = sorted((t != me, t, p) for t, row in enumerate(memory) for p, known in enumerate(row) if known == name)
        return next((move for _, t, p in spots if (move := Move(me, "claim", (t, p, done["serial"]))) in open_moves),
                    None)


class GentleBot(RandomBot):
    """The bot of a learner's first round (the tutorial's finale): it plays at random, as
    :class:`~playtest.engine.RandomBot` does, but never calls NOT ME! (LS-7) in its first
    :data:`GENTLE_TURNS` turns of a round, so the round lasts long enough to try peeking,
    keeping, burning and Done it! (the random bot ends about one round in five within its
    first two turns). After that, NOT ME! is one legal move among the others.

    Args:
        seed: the bot's own random stream (see :class:`playtest.engine.Bot`).
    """

    name = "gentle"

    def __init__(self, seed=None):
        super().__init__(seed)
        self._turns: dict[int, int] = {}       # round -> its turns so far

    def choose(self, view, legal):
        """Pick one of ``legal`` at random, without NOT ME! in its first turns of a round."""
        if view["phase"] == "turn":
            played = self._turns[view["round"]] = self._turns.get(view["round"], 0) + 1
            if played <= GENTLE_TURNS:
                legal = [move for move in legal if move.kind != "notme"] or legal
        return super().choose(view, legal)
