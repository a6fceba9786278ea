"""Chore Race legal-move lists that depend only on small values, cached and shared.

Moves are immutable, so the play step's lists that depend only on the seat, the kinds of
action card held (a bitmask of ``cards.BIT``), the tableau sizes and the used slots are
built once and shared (CR-4, CR-5, CR-8, CR-11, CR-12). Their order is fixed (no set
iteration), so random bots replay identically in any process.
"""
from __future__ import annotations

from functools import cache

from playtest.engine import Move

from .cards import ACTION_KEYS, BIT

new_move = tuple.__new__  # new_move(Move, (...)): a Move without the NamedTuple's Python-level __new__ (hot path)


@cache
def at_positions(seat: int, kind: str, k: int) -> tuple[Move, ...]:
    """``kind`` on each of ``k`` own positions (Done, Finally!, I'll Do It Later)."""
    return tuple(Move(seat, kind, (p,)) for p in range(k))


@cache
def discards(seat: int, slot: str, held: int) -> tuple[Move, ...]:
    """Discarding each ``held`` action kind (bitmask) through ``slot`` ("progress" or
    "action"), in ACTION_KEYS order (so random bots replay identically anywhere)."""
    return tuple(Move(seat, "discard", (slot, key)) for key in ACTION_KEYS if held & BIT[key])


@cache
def others(seats: int, seat: int) -> tuple[int, ...]:
    """Every seat of ``seats`` but ``seat``, in order."""
    return tuple(o for o in range(seats) if o != seat)


@cache
def progress_part(seat: int, held: int, k: int) -> tuple[Move, ...]:
    """The progress slot's moves with the ``held`` kinds (bitmask) and ``k`` own chores:
    Done, then Finally!, on each position, then the progress-slot discards (CR-4, CR-5)."""
    return (*(at_positions(seat, "done", k) if held & BIT["done"] else ()),
            *(at_positions(seat, "finally", k) if held & BIT["finally"] else ()),
            *discards(seat, "progress", held))


@cache
def action_part(seat: int, held: int, k: int) -> tuple[Move, ...]:
    """The action slot's untargeted moves with the ``held`` kinds (bitmask) and ``k`` own
    chores, then ``end``: Family Meeting, I'll Do It Later on each position, the
    action-slot discards (CR-4, CR-8, CR-12)."""
    return (*((Move(seat, "meeting"),) if held & BIT["meeting"] else ()),
            *(at_positions(seat, "later", k) if held & BIT["later"] else ()),
            *discards(seat, "action", held), Move(seat, "end"))


@cache
def untargeted(seat: int, held: int, k: int, progress_used: bool, action_used: bool) -> tuple[Move, ...]:
    """The whole play-step move list when it names no opponent: no targeted action card
    held, or the action slot used (CR-4)."""
    head = () if progress_used else progress_part(seat, held, k)
    return head + ((Move(seat, "end"),) if action_used else action_part(seat, held, k))


@cache
def teamworks(seat: int, opponents: tuple[int, ...]) -> tuple[Move, ...]:
    """Teamwork with each of ``opponents`` (CR-10; protection does not stop it, CR-16)."""
    return tuple(Move(seat, "teamwork", (o,)) for o in opponents)


@cache
def swaps(seat: int, mine: int | tuple[int, ...], theirs: tuple[tuple[int, int], ...]) -> tuple[Move, ...]:
    """Chore Swap of each own position in ``mine`` (a count: all of them) with each
    chore of each ``(opponent, tableau length)`` in ``theirs`` (CR-11)."""
    return tuple(Move(seat, "swap", (p, o, q)) for p in (range(mine) if type(mine) is int else mine)
                 for o, n in theirs for q in range(n))
