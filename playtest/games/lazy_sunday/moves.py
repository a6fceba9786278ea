"""Lazy Sunday's move lists that depend only on a seat, a list length and the like, made
once and cached (moves are immutable values): the pieces the rules' legal moves are put
together from (LS-2..LS-8). Internal to the game package; the rules read them on every
move."""
from __future__ import annotations

from functools import cache, lru_cache
from itertools import chain

from playtest.engine import Move

_new = tuple.__new__  # Move(...) without the NamedTuple's Python-level __new__: move lists are the hot path


@cache
def _peeks(seat: int, k: int) -> tuple[Move, ...]:
    """The peek moves of ``seat`` with a list of ``k`` cards (LS-3): positions a < b."""
    return tuple(Move(seat, "peek", (a, b)) for a in range(k) for b in range(a + 1, k))


@cache
def _positions(seat: int, kind: str, k: int) -> tuple[Move, ...]:
    """``take`` or ``keep`` at each of ``k`` positions, or its empty-list form (LS-4)."""
    return tuple(Move(seat, kind, (p,)) for p in range(k)) if k else (Move(seat, kind),)


@cache
def _look_moves(seat: int, can_swap: bool) -> tuple[Move, ...]:
    """Done looking, and the swap only Not My Job allows (LS-2, LS-3)."""
    return (Move(seat, "done"), Move(seat, "swap")) if can_swap else (Move(seat, "done"),)


@cache
def _turn_moves(seat: int, can_draw: bool, takes: int | None, can_call: bool) -> tuple[Move, ...]:
    """A turn's moves (LS-4, LS-6, LS-7): draw if something can be drawn, take into each
    of ``takes`` positions while DONE has a card (None: it has none), NOT ME! while
    nobody has called; pass when none of these is possible."""
    moves = (Move(seat, "draw"),) if can_draw else ()
    if takes is not None:
        moves += _positions(seat, "take", takes)
    if can_call:
        moves += (Move(seat, "notme"),)
    return moves or (Move(seat, "pass"),)


@cache
def _keep_or_discard(seat: int, k: int) -> tuple[Move, ...]:
    """A drawn card's keep moves into a list of ``k`` cards, then its discard (LS-4)."""
    return (*_positions(seat, "keep", k), Move(seat, "discard"))


@lru_cache(maxsize=8192)
def _claims(seat: int, t: int, k: int, serial: int) -> tuple[Move, ...]:
    """``seat``'s claims (LS-5) on each of the ``k`` positions of seat ``t``'s list, on
    the DONE top of ``serial``: a bot that remembers a match reads them all, and serials
    run alike from game to game."""
    return tuple(_new(Move, (seat, "claim", (t, p, serial))) for p in range(k))


@cache
def _aimed(seat: int, action: str, lead: tuple, t: int, k: int) -> tuple[Move, ...]:
    """``seat``'s ``action`` moves aimed at each of the ``k`` positions ``q`` of seat
    ``t``, with the arguments ``(*lead, t, q)``: the pieces the many-target burns are
    put together from, so that a new combination of list sizes costs no new moves."""
    return tuple(_new(Move, (seat, action, (*lead, t, q))) for q in range(k))


@lru_cache(maxsize=4096)
def _burns(seat: int, action: str, caller: int | None, sizes: tuple[int, ...], can_draw: bool) -> tuple[Move, ...]:
    """The legal burns of ``action`` by ``seat`` (LS-2, LS-8) when the lists have
    ``sizes`` cards, ``caller`` called NOT ME! (its list is locked, LS-7) and
    ``can_draw`` says whether the deck or DONE has a card (Landlord's Notice)."""
    own = range(sizes[seat])
    others = [t for t in range(len(sizes)) if t != seat and t != caller]
    if action == "busy":
        return (_new(Move, (seat, action, ())),)
    if action in ("double_check", "knock_out"):
        return tuple(_new(Move, (seat, action, (p,))) for p in own)
    if action == "landlord":
        # after this card lands on DONE, a non-empty DONE can always refill the deck (LS-6)
        return tuple(_new(Move, (seat, action, (t,))) for t in range(len(sizes)) if t != caller) if can_draw else ()
    if action == "nosy":  # (t, p)
        parts = [_aimed(seat, action, (), t, sizes[t]) for t in others]
    elif action == "trade":  # (p, t, q)
        parts = [_aimed(seat, action, (p,), t, sizes[t]) for p in own for t in others]
    else:  # switcheroo, not_my_job: (t, p, u, q), two other players, the lower seat first
        parts = [_aimed(seat, action, (t, p), u, sizes[u]) for i, t in enumerate(others) for u in others[i + 1:]
                 for p in range(sizes[t])]
    return tuple(chain.from_iterable(parts))
