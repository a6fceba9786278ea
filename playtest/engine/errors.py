"""The kit's errors. Every one says what is wrong and what is allowed instead."""
from __future__ import annotations

import difflib
import reprlib
from typing import Any, Iterable, Sequence

SHOWN_MOVES = 12

_SHORT = reprlib.Repr()
_SHORT.maxlevel, _SHORT.maxlist, _SHORT.maxdict, _SHORT.maxstring, _SHORT.maxother = 3, 4, 4, 60, 60
SHORT_LIMIT = 120


def short_repr(value) -> str:
    """``repr(value)`` for an error message: long strings cut in the middle, lists,
    tuples and dicts past 4 items (or nested past 3 levels) ending in ``...``, and the
    whole at most ``SHORT_LIMIT`` characters (cut with `` ...``), so a pasted list of 40
    cards is shown by its first few items."""
    text = _SHORT.repr(value)
    return text if len(text) <= SHORT_LIMIT else text[:SHORT_LIMIT - 4] + " ..."
"""How many legal moves an illegal move's message names (nearest to the one tried first)."""


def nearest_first(moves, tried) -> list:
    """``moves`` (Move-like: ``.seat``, ``.kind``, text by ``str``) ordered nearest to
    ``tried`` first: the same seat, then the same kind, then the most alike in text
    (difflib ratio); ties keep their order. Used by every illegal-move message so the move
    meant is named even when many are legal."""
    text = str(tried)
    return sorted(moves, key=lambda m: (m.seat != tried.seat, m.kind != tried.kind,
                                        -difflib.SequenceMatcher(None, str(m), text).ratio()))


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
        legal: the moves the same seat may make instead (possibly empty); the message
            names the :data:`SHOWN_MOVES` nearest to ``move`` (:func:`nearest_first`).
    """

    def __init__(self, move, ruling: str, reason: str, legal=()):
        self.move, self.ruling, self.reason, self.legal = move, ruling, reason, list(legal)
        super().__init__(move, ruling, reason)

    def __str__(self) -> str:
        # built when read, not when raised: bots and searches refuse thousands of moves
        # whose message nobody reads, and ranking the legal moves costs a difflib pass each
        move = self.move
        shown = ", ".join(str(m) for m in nearest_first(self.legal, move)[:SHOWN_MOVES])
        if len(self.legal) > SHOWN_MOVES:
            shown += f", ... ({len(self.legal)} in all, nearest first)"
        where = f" ({self.ruling})" if self.ruling else ""
        alternatives = f" Legal moves for seat {move.seat}: {shown}." if self.legal else (
            f" Seat {move.seat} has no legal move now.")
        return f"Illegal move '{move}'{where}: {self.reason}.{alternatives}"


class OptionError(PlaytestError, ValueError):
    """A game option that does not exist or has a value the game does not accept."""


class RecordError(PlaytestError, ValueError):
    """A saved record (or scenario) that cannot be loaded: corrupt, from an unknown
    game or format version, or holding a move that is illegal at its point."""


_KINDS = {"int": "a whole number", "bool": "true or false", "float": "a number", "string": "a text (in quotes)",
          "str": "a text (in quotes)", "list": "a list, e.g. [1, 2]", "dict": "a table, e.g. { key = 1 }",
          "tuple": "a list, e.g. [1, 2]"}
_BOUNDS = {"greater_than_equal": ("ge", "{} or more"), "less_than_equal": ("le", "{} or less"),
           "greater_than": ("gt", "more than {}"), "less_than": ("lt", "less than {}")}


def plain_requirement(error: dict) -> str:
    """What one pydantic validation error asks for, in plain words ("must be a whole
    number", "must be true or false", "must be 0 or more"; a validator's own sentence as
    it is): no pydantic wording reaches a person. ``error`` is one item of
    ``ValidationError.errors()``; an unknown kind keeps pydantic's message."""
    kind = error["type"]
    if kind == "literal_error":
        return f"must be {error.get('ctx', {}).get('expected', '')}"
    if kind in _BOUNDS:
        key, text = _BOUNDS[kind]
        return "must be " + text.format(error.get("ctx", {}).get(key))
    base = kind.split("_")[0]
    if kind.endswith(("_type", "_parsing", "_from_float")) and base in _KINDS:
        return f"must be {_KINDS[base]}"
    message = error["msg"]
    if kind == "value_error" and message.startswith("Value error, "):
        return message[len("Value error, "):]
    return message[:1].lower() + message[1:]


def requirements(errors: Iterable[dict]) -> str:
    """What the pydantic errors of one value ask for (:func:`plain_requirement` of each),
    joined by "or", each once: the branches of a union, e.g. ``"must be a whole number or
    a text (in quotes)"`` (a seat number or a bot name; a move number or an entry's
    name). ``errors``: items of ``ValidationError.errors()`` about that value."""
    wanted = list(dict.fromkeys(plain_requirement(error) for error in errors))
    return " or ".join(wanted[:1] + [text.removeprefix("must be ") for text in wanted[1:]])


def nearest(word: Any, choices: Sequence[str]) -> str | None:
    """The choice nearest to ``word`` (a misspelling of it; difflib, cutoff 0.6), or None
    when none is near."""
    close = difflib.get_close_matches(str(word), list(choices), n=1, cutoff=0.6)
    return close[0] if close else None


def suggest(word: Any, choices: Sequence[str]) -> str:
    """``"; did you mean 'x'?"`` for the choice nearest to ``word`` (:func:`nearest`), or
    ``""`` when none is near: what every "unknown name" message adds."""
    close = nearest(word, choices)
    return f"; did you mean {close!r}?" if close is not None else ""
