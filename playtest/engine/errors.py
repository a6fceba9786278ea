"""The kit's errors. Every one says what is wrong and what is allowed instead."""
from __future__ import annotations


class PlaytestError(Exception):
    """Base class of every error the kit raises on purpose."""


class MoveSyntaxError(PlaytestError, ValueError):
    """A move's text form could not be read (see :meth:`Move.parse`)."""


class IllegalMove(PlaytestError, ValueError):
    """A move that the rules do not allow now. The state is left exactly as it was.

    Attributes:
        move: the refused move.
        ruling: the RULINGS id of the rule it breaks (e.g. ``"LS-4"``), or ``""`` when
            the move is simply not one of the moves on offer.
        reason: one sentence saying what is wrong.
        legal: the moves the same seat may make instead (possibly empty).
    """

    def __init__(self, move, ruling: str, reason: str, legal=()):
        self.move, self.ruling, self.reason, self.legal = move, ruling, reason, list(legal)
        shown = ", ".join(str(m) for m in self.legal[:12])
        if len(self.legal) > 12:
            shown += f", ... ({len(self.legal)} in all)"
        where = f" ({ruling})" if ruling else ""
        alternatives = f" Legal moves for seat {move.seat}: {shown}." if self.legal else (
            f" Seat {move.seat} has no legal move now.")
        super().__init__(f"Illegal move '{move}'{where}: {reason}.{alternatives}")


class OptionError(PlaytestError, ValueError):
    """A game option that does not exist or has a value the game does not accept."""


class RecordError(PlaytestError, ValueError):
    """A saved record (or scenario) that cannot be loaded: corrupt, from an unknown
    game or format version, or holding a move that is illegal at its point."""
