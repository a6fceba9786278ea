"""Why a Night Shift move is refused, in a player's words with the ruling it breaks:
:func:`shape_problem` and :func:`explain` are :class:`~.rules.NightShift`'s methods of
those names (the class binds them; ``self`` is the game)."""
from __future__ import annotations

from playtest.engine import Game, Move


def shape_problem(self, move):
    """See Game.shape_problem: as many arguments as ``MOVE_ARGS`` names; a card name
    split in words (unquoted) is told how to quote it."""
    reason = Game.shape_problem(self, move)
    want = self.MOVE_ARGS.get(move.kind, ())
    if reason and "card" in want and len(move.args) > len(want):  # an unquoted name split in words
        quoted = " ".join(map(str, move.args))
        reason += f'; a card name with spaces goes in quotes: {move.seat} {move.kind} "{quoted}"'
    return reason


def explain(self, s, move: Move) -> tuple[str, str]:
    """Why ``move`` is illegal now, as ``(ruling id, one sentence)``."""
    seat, kind, args = move.seat, move.kind, move.args
    if s.result:
        return "NS-10", "the game is over"
    if kind == "activate":
        return "NS-9", "no card has an ability to activate, so Activate an ability is never offered"
    if kind not in self.MOVE_ARGS:
        return "", f"'{kind}' is not a Night Shift move; moves are {', '.join(self.MOVE_ARGS)}"
    if seat != s.turn:
        return "NS-6", f"it is seat {s.turn}'s Shift, not seat {seat}'s"
    shape = self.shape_problem(move)
    if shape:
        return "", shape
    rule = {"play": "NS-2", "buy": "NS-4", "tidy": "NS-7", "settle": "NS-8"}.get(kind, "")
    name = args[0] if args else None
    card = self.by_name.get(name)
    effort = s.effort[seat]
    if kind == "play":
        if not any(self.cards[c].name == name for c in s.hands[seat]):
            return rule, f"there is no {name} in seat {seat}'s hand"
    elif kind == "buy":
        if card is not None and card.where == "nap":
            if not s.naps:
                return rule, "the Nap Token stack is empty and never refills"
        elif not any(self.cards[c].name == name for c in s.row):
            return rule, f"there is no {name} in the Supply Row"
    elif kind == "settle":
        target = next((c for c in s.shifts[1 - seat] if self.cards[c].name == name), None)
        if target is None:
            return rule, f"the opponent has no {name} structure in their Current Shift"
    if s.actions[seat] < 1:
        return rule, f"seat {seat} has no Actions left this Shift"
    if kind == "play" and self.options.play_cost == "printed" and (card.cost or 0) > effort:
        return rule, f"playing {name} costs {card.cost} Effort and seat {seat} has {effort}"
    if kind == "buy" and (card.cost or 0) > effort:
        return rule, f"buying {name} costs {card.cost} Effort and seat {seat} has {effort}"
    if kind == "tidy":
        if effort < 1:
            return rule, "Tidy Up needs at least 1 Effort"
        blocker = next(self.cards[c].name for c in s.shifts[1 - seat] if self.cards[c].structure)
        return rule, f"Tidy Up is blocked while the opponent has a structure in play ({blocker})"
    if kind == "settle":
        return rule, f"settling {name} needs Effort of at least its health {s.health[target]}; seat {seat} has {effort}"
    return "", f"'{move}' is not one of seat {seat}'s moves now"
