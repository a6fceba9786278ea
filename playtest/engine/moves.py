"""Moves: small immutable values with a stable text form.

A move's text form is ``"<seat> <kind> <arg> <arg> ..."``, for example ``"0 keep 3"``
or ``"2 claim 1 4 17"``. Arguments are ints or words; a word with spaces is quoted
(shell style), so every move's text parses back to the same move.
"""
from __future__ import annotations

import shlex
from typing import NamedTuple

from .errors import MoveSyntaxError


class Move(NamedTuple):
    """One move by one seat.

    Attributes:
        seat: the acting seat, 0..n-1 (G-1).
        kind: the move's name, a lower-case word such as ``"draw"`` or ``"claim"``.
        args: a tuple of ints and strings; their meaning is the game's (see each game's
            ``MOVE_ARGS``).

    A NamedTuple rather than a dataclass: simulations build millions of moves, and
    tuples are the cheapest immutable, hashable value Python has.
    """

    seat: int
    kind: str
    args: tuple = ()

    def __str__(self) -> str:
        return " ".join([str(self.seat), self.kind, *(_quote(a) for a in self.args)])

    @classmethod
    def parse(cls, text: str) -> "Move":
        """Parse a move's text form back into a Move.

        Args:
            text: e.g. ``"0 keep 3"``; tokens are separated by spaces, words with spaces
                are quoted.

        Raises:
            MoveSyntaxError: the text is empty, the seat is not a whole number, the
                kind is missing, or the quoting is broken.
        """
        if isinstance(text, Move):
            return text
        try:
            tokens = shlex.split(str(text))
        except ValueError as exc:
            raise MoveSyntaxError(f"cannot read move {text!r}: {exc}") from None
        if len(tokens) < 2:
            raise MoveSyntaxError(
                f"cannot read move {text!r}: a move is '<seat> <kind> [args...]', e.g. '0 draw'"
            )
        seat, kind, *args = tokens
        if not seat.isdigit():
            raise MoveSyntaxError(f"cannot read move {text!r}: the seat {seat!r} is not a number 0, 1, 2, ...")
        return cls(int(seat), kind, tuple(_token(a) for a in args))


def _quote(arg) -> str:
    return str(arg) if isinstance(arg, int) else shlex.quote(arg)


def _token(text: str):
    return int(text) if text.lstrip("-").isdigit() else text
