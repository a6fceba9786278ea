"""The seeded stream's shuffle, drawn exactly as ``random.Random.shuffle`` draws it.

Every game deals from one seeded ``random.Random`` (G-3). ``Random.shuffle`` makes a
Python-level ``_randbelow`` call per card; a new deal shuffles the whole deck, which
was a fifth of a random Lazy Sunday game. :func:`shuffle` takes the same draws from
the same stream, so every seed deals the same cards as before.
"""
from __future__ import annotations

import random
from functools import cache


@cache
def _steps(n: int) -> tuple[tuple[int, int], ...]:
    """(position i, bits drawn for a number 0..i) for i = n-1 down to 1."""
    return tuple((i, (i + 1).bit_length()) for i in range(n - 1, 0, -1))


def shuffle(rng: random.Random, cards: list) -> None:
    """Shuffle ``cards`` in place, exactly as ``rng.shuffle(cards)`` would: the same
    order, and ``rng`` left in the same state (G-3).

    Args:
        rng: the game's stream; a subclass of ``random.Random`` goes through its own
            ``shuffle``, which may draw differently.
        cards: any list.
    """
    if type(rng) is not random.Random:
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    for i, bits in _steps(len(cards)):
        j = getrandbits(bits)   # Random._randbelow(i + 1): draw bits until below i + 1
        while j > i:
            j = getrandbits(bits)
        cards[i], cards[j] = cards[j], cards[i]
