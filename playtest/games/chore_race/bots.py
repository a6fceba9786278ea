"""Chore Race bots. They decide from ``bot_view`` and the legal moves only, never the state.

``HeuristicBot`` scores every legal move with a few readable rules and plays the best:

* progress: finish a chore that is one step from done; never waste progress past a target;
* attacks go to the leader (most VP), on their most advanced chore;
* Excuse is kept for real threats (a near-finished chore inspected, a swap that loses 2+
  progress, a leader's Delegate/Teamwork); Dodge (a spare I'll Do It Later) is spent first;
* Family Meeting passes the least useful cards; a full hand discards the least useful card.
"""
from __future__ import annotations

from playtest.engine import Bot, Move

# how much a card in hand is worth keeping (passing/discarding the lowest first)
KEEP = {"done": 10, "finally": 9, "excuse": 8, "teamwork": 6, "delegate": 6, "inspection": 5,
        "swap": 4, "later": 3, "meeting": 1}


class HeuristicBot(Bot):
    """A rule-of-thumb player (see the module docstring). Ties go to the first move listed,
    so the bot is deterministic given the view."""

    name = "heuristic"

    def choose(self, view, legal: list[Move]) -> Move:
        """Pick the legal move with the highest score (see :meth:`score`)."""
        me = view["viewer"]
        ctx = _Context(view, me)
        return max(legal, key=lambda m: self.score(ctx, m))

    def score(self, ctx: "_Context", move: Move) -> float:
        """A number: higher is better. Unknown kinds score 0 (like ``end``)."""
        kind, args = move.kind, move.args
        handler = getattr(self, "_" + kind, None)
        return handler(ctx, *args) if handler else 0.0

    # progress slot
    def _done(self, c, p):
        return c.progress_value(p, 1) + 1      # a Done is cheaper to spend than a Finally!

    def _finally(self, c, p):
        return c.progress_value(p, 3)

    def _discard(self, c, slot, key):
        # make room only when the hand is at the cap; never throw away a slot's better use
        return (0.5 - KEEP[key] / 20) if len(c.hand) >= 7 else -5

    # action slot
    def _inspection(self, c, seat, q):
        chore = c.tableaus[seat][q]
        left = chore["level"] - chore["progress"]
        return 3 + 2 * c.is_leader(seat) + (4 if left <= 1 else 0) + c.vp[seat] / 5

    def _delegate(self, c, seat):
        return 6 + c.hand_sizes[seat] / 4 + c.is_leader(seat)

    def _teamwork(self, c, seat):
        return (8 if "done" in c.hand else 5) - c.is_leader(seat)

    def _swap(self, c, p, seat, q):
        mine, theirs = c.tableaus[c.me][p], c.tableaus[seat][q]
        gain = (theirs["progress"] - mine["progress"]) + (mine["level"] - theirs["level"]) / 2
        return 3 * gain - 3 + c.is_leader(seat)

    def _meeting(self, c):
        return 0.5 if sum(KEEP[k] for k in c.hand) < 25 else -1

    def _later(self, c, p):
        chore = c.tableaus[c.me][p]
        return 1 if chore["progress"] == 0 and chore["level"] == 4 and "done" not in c.hand else -3

    def _end(self, c):
        return 0.0

    # reaction window (CR-7)
    def _accept(self, c):
        return 0.0

    def _excuse(self, c):
        return c.threat() - 2.5

    def _dodge(self, c):
        return c.threat() - 0.5               # a spare I'll Do It Later is cheaper than Excuse

    # resolutions
    def _place(self, c, p):
        return c.progress_value(p, 1)

    def _stop(self, c):
        return 0.0

    def _give(self, c, *keys):
        return -sum(KEEP[k] for k in keys)

    def _score(self, c, p):
        return 0.0

    def _steal(self, c, seat):
        return c.hand_sizes[seat] + c.is_leader(seat)

    def _attic(self, c, seat, q):
        chore = c.tableaus[seat][q]
        return min(2, chore["progress"]) + 2 * c.is_leader(seat) + (chore["level"] - chore["progress"] <= 2)


class _Context:
    """What the bot reads from one view, computed once per decision."""

    def __init__(self, view, me):
        self.view, self.me = view, me
        keys = view["keys"]
        self.hand = [keys[name] for name in view["hand"] or ()]
        self.tableaus = view["tableaus"]
        self.vp = view["vp"]
        self.hand_sizes = view["hand_sizes"]
        self.leader_vp = max((v for s, v in enumerate(self.vp) if s != me), default=0)

    def is_leader(self, seat) -> int:
        """1 if ``seat`` has the most VP among my opponents."""
        return int(seat != self.me and self.vp[seat] == self.leader_vp)

    def progress_value(self, p, amount) -> float:
        """Worth of ``amount`` progress on my chore ``p``: finishing is best, then the chore
        closest to done; progress past the target is waste."""
        chore = self.tableaus[self.me][p]
        left = chore["level"] - chore["progress"]
        if left <= 0:
            return -4
        waste = max(0, amount - left)
        if amount >= left:
            return 10 + chore["level"] - 2 * waste
        return 4 + chore["progress"] - left / 2

    def threat(self) -> float:
        """How much the pending action would hurt me (CR-7 window)."""
        pending = self.view["pending"]
        key, by = pending["key"], pending["by"]
        leader = 2 if self.vp[by] == self.leader_vp else 0
        if key == "inspection":
            chore = self.tableaus[self.me][pending["chore"]]
            return 1 + 2 * (chore["level"] - chore["progress"] <= 1) + leader / 2
        if key == "swap":
            mine = self.tableaus[self.me][pending["chore"]]
            theirs = self.tableaus[by][pending["own_chore"]]
            return mine["progress"] - theirs["progress"] + leader / 2
        if key == "delegate":
            return 1 + leader + ("done" in self.hand)
        return 1 + leader                       # teamwork
