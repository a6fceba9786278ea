"""Moves: small immutable values with a stable text form.

A move's text form is ``"<seat> <kind> <arg> <arg> ..."``, for example ``"0 keep 3"``
or ``"2 claim 1 4 17"``. Arguments are ints or words; a word with spaces is quoted
(shell style), so every move's text parses back to the same move.
"""
from __future__ import annotations

import re
import reprlib
import shlex
from typing import NamedTuple

from .errors import MoveSyntaxError
from .limits import MAX_DIGITS, MAX_MOVE


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
            MoveSyntaxError: the text is empty or longer than 200 characters (``limits.MAX_MOVE``), the seat
                is not a whole number in ASCII digits, the kind is missing, a number
                has more than 40 digits, or the quoting is broken.
        """
        if isinstance(text, Move):
            return text
        text = str(text)
        shown = reprlib.repr(text)          # a message quotes at most about 30 characters
        if len(text) > MAX_MOVE:
            raise MoveSyntaxError(f"cannot read move {shown}: it is {len(text):,} characters long; "
                                  f"a move is at most {MAX_MOVE} characters")
        if _PLAIN.fullmatch(text):      # no quotes or escapes: the same tokens as shlex, 10x faster
            tokens = text.split()
        else:
            try:
                tokens = shlex.split(text)
            except ValueError as exc:
                raise MoveSyntaxError(f"cannot read move {shown}: {exc}") from None
        if len(tokens) < 2:
            raise MoveSyntaxError(
                f"cannot read move {shown}: a move is '<seat> <kind> [args...]', e.g. '0 draw'"
            )
        seat, kind, *args = tokens
        if not (seat.isascii() and seat.isdigit()) or len(seat) > MAX_DIGITS:   # int() reads '٣' too
            raise MoveSyntaxError(f"cannot read move {shown}: the seat {reprlib.repr(seat)} is not a number "
                                  "0, 1, 2, ... (digits 0-9)")
        return cls(int(seat), kind, tuple(_token(a, shown) for a in args))


_PLAIN = re.compile(r"[ !#-&(-\[\]-~]*")
"""Printable ASCII without quotes or backslashes: text that shlex splits at spaces alone
(a live page parses every offered move on every update)."""


def _quote(arg) -> str:
    return str(arg) if isinstance(arg, int) else shlex.quote(arg)


def _token(text: str, shown: str):
    """An argument: an int when it is ASCII digits (with an optional minus), else the
    word itself (``int()`` would also read other scripts' digits, and refuse ``²``)."""
    digits = text[1:] if text[:1] == "-" else text
    if not (digits.isascii() and digits.isdigit()):
        return text
    if len(digits) > MAX_DIGITS:
        raise MoveSyntaxError(f"cannot read move {shown}: a number of {len(digits):,} digits; numbers in "
                              f"a move have at most {MAX_DIGITS} digits")
    return int(text)
