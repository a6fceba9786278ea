"""A toy game that exercises every shape of decision the engine contract promises,
with no card-game rules in the way:

* the seat on turn: ``poke S`` (targets another seat), ``meeting``, ``pass``;
* a reaction window for a seat NOT on turn: the poked seat answers ``dodge`` or ``take``
  before the poke resolves (the shape of Chore Race's Excuse, CR-7);
* secret simultaneous choices: after ``meeting`` every seat commits ``choose N`` (N in
  1..3); no view shows another seat's choice until all have chosen, then each seat
  gains its N (the shape of Family Meeting, CR-8);
* an open move, ``slap``, any seat at any moment outside the reaction window (the
  shape of Lazy Sunday's quick discard, LS-5).

Each seat also holds one secret number drawn from the seeded stream (hidden
information). First seat to 10 points wins; G-4 ``max_turns`` ends it unfinished.
"""
from __future__ import annotations

from playtest.engine import Event, Game, Move, Outcome, register


class ToyState:
    def __init__(self, rng, seats, first):
        self.rng = rng
        self.turn, self.turns = first, 1
        self.points = [0] * seats
        self.secret = [rng.randint(1, 9) for _ in range(seats)]
        self.poke = None          # (attacker, target) while the window is open
        self.choices = None       # seat -> N, during a meeting
        self.setup_events = [Event("Toy game set up.")]

    def dump(self):
        return {"turn": self.turn, "turns": self.turns, "points": self.points, "secret": self.secret,
                "poke": self.poke, "choices": self.choices and sorted(self.choices.items())}


@register
class Toy(Game):
    name, title, min_seats, max_seats = "toy", "Toy", 2, 5
    OPEN_MOVES = frozenset({"slap"})
    RULINGS = {"CR-7": "only the poked seat answers a poke (the shape of Chore Race's Excuse)",
               "TOY-1": "a seat makes one of the moves on offer to it now"}
    MOVE_ARGS = {"poke": ("target",), "dodge": (), "take": (), "meeting": (), "choose": ("number",),
                 "pass": (), "slap": ()}

    def new_state(self, rng):
        return ToyState(rng, self.seats, self.first_seat(rng))

    def _over(self, s):
        return max(s.points) >= 10 or s.turns > self.options.max_turns

    def to_act(self, s):
        if self._over(s):
            return ()
        if s.poke:
            return (s.poke[1],)
        if s.choices is not None:
            return tuple(seat for seat in range(self.seats) if seat not in s.choices)
        return (s.turn,)

    def legal_moves(self, s, seat):
        if self._over(s):
            return []
        if s.poke:
            return [Move(seat, "dodge"), Move(seat, "take")] if seat == s.poke[1] else []
        moves = [Move(seat, "slap")]
        if s.choices is not None:
            if seat not in s.choices:
                moves += [Move(seat, "choose", (n,)) for n in (1, 2, 3)]
        elif seat == s.turn:
            moves += [Move(seat, "poke", (t,)) for t in range(self.seats) if t != seat]
            moves += [Move(seat, "meeting"), Move(seat, "pass")]
        return moves

    def explain(self, s, move):
        if s.poke and move.seat != s.poke[1]:
            return "CR-7", f"only seat {s.poke[1]} may answer the poke now"
        return "TOY-1", f"'{move}' is not one of seat {move.seat}'s moves now"

    def apply(self, s, move):
        seat, kind = move.seat, move.kind
        if kind == "slap":
            s.points[seat] += 1
            return [Event(f"Seat {seat} slapped.")]
        if kind == "poke":
            s.poke = (seat, move.args[0])
            return [Event(f"Seat {seat} pokes seat {move.args[0]}.")]
        if kind in ("dodge", "take"):
            attacker, _ = s.poke
            s.poke = None
            if kind == "take":
                s.points[attacker] += 2
            self._next_turn(s)
            return [Event(f"Seat {seat} chose {kind}.")]
        if kind == "meeting":
            s.choices = {}
            return [Event(f"Seat {seat} calls a meeting.")]
        if kind == "choose":
            s.choices[seat] = move.args[0]
            if len(s.choices) == self.seats:
                for who, n in s.choices.items():
                    s.points[who] += n
                s.choices = None
                self._next_turn(s)
            return [Event(f"Seat {seat} has chosen.", {seat: f"You chose {move.args[0]}."})]
        self._next_turn(s)
        return [Event(f"Seat {seat} passes.")]

    def _next_turn(self, s):
        s.turn = (s.turn + 1) % self.seats
        s.turns += 1

    def view(self, s, seat):
        return {"viewer": seat, "turn": s.turn, "points": list(s.points),
                "secret": s.secret[seat] if seat is not None else None,
                "poke": list(s.poke) if s.poke else None,
                "chosen": None if s.choices is None else sorted(s.choices),
                "my_choice": None if s.choices is None or seat is None else s.choices.get(seat)}

    def outcome(self, s):
        if not self._over(s):
            return None
        best = max(s.points)
        if best < 10:
            return Outcome(False, (), tuple(s.points), "G-4: max_turns reached")
        winners = tuple(i for i, p in enumerate(s.points) if p == best)
        return Outcome(True, winners, tuple(s.points), f"seat {winners[0]} reached 10 points")
