"""The game's random streams (G-3): the keyed stream of new games, and the old one.

Every random event of a game (a shuffle, a random steal, the first seat) is drawn from
the game's stream, made from its seed by :func:`new_stream`. A record names its stream
(``stream`` in :class:`playtest.engine.Record`); a record without one uses the old one.

* ``"keyed"`` (every game whose seed is drawn, and live tables): draw number ``n`` of
  the game (one shuffle, or one number) comes from its own generator, seeded with
  SHA-256 of the seed and ``n``. What one draw shows (a shuffle of at most a few hundred
  cards) is far too little to rebuild its generator, and the generator of another draw
  follows from the seed alone, never from this one's output: the stream cannot be run
  backwards or forwards from what it dealt. With a 128-bit seed nobody can search the
  seeds either.
* ``"mt"`` (records and scenarios written before, and seeds a person gives without
  asking for a stream): one ``random.Random(seed)`` for the whole game, exactly as
  before. Its seed can be searched when short, and a long run of its output gives its
  state away (Mersenne Twister is not one-way).

:func:`shuffle` draws exactly as ``random.Random.shuffle`` draws, but faster (a new deal
shuffles the whole deck, which was a fifth of a random Lazy Sunday game).
"""
from __future__ import annotations

import hashlib
import random
from functools import cache
from typing import Literal

Stream = Literal["mt", "keyed"]
STREAMS: tuple[Stream, ...] = ("mt", "keyed")
OLD_STREAM: Stream = "mt"
"""The stream of a record or scenario that names none (written before streams had names)."""


@cache
def _steps(n: int) -> tuple[tuple[int, int], ...]:
    """(position i, bits drawn for a number 0..i) for i = n-1 down to 1."""
    return tuple((i, (i + 1).bit_length()) for i in range(n - 1, 0, -1))


def shuffle(rng: random.Random, cards: list) -> None:
    """Shuffle ``cards`` in place, exactly as ``rng.shuffle(cards)`` would: the same
    order, and ``rng`` left in the same state (G-3).

    Args:
        rng: the game's stream; a subclass of ``random.Random`` (a :class:`KeyedStream`)
            goes through its own ``shuffle``, which may draw differently.
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


class KeyedStream(random.Random):
    """The ``"keyed"`` stream of a seed (G-3): every draw from its own generator.

    Draw ``n`` (1, 2, ...) is one whole shuffle, or one number (``randrange``,
    ``choice``, ``random``, ``getrandbits``), made by a ``random.Random`` seeded with
    SHA-256 of ``"playtest keyed stream:<seed>:"`` and ``n`` (8 bytes, big endian). Every
    ``random.Random`` method works (the others draw through these); ``getstate`` gives a
    one-way digest of the seed and the draw count, never the seed (``setstate`` is not
    supported).

    Args:
        seed: a whole number 0 or more.
        draws: draws already made (0 for a new game).
    """

    def __new__(cls, seed: int, draws: int = 0):
        return super().__new__(cls, 0)      # the inherited generator is never drawn from

    def __init__(self, seed: int, draws: int = 0):   # not Random.__init__: no second seeding
        self.gauss_next = None
        self._seed, self._draws = seed, draws
        self._prefix = b"playtest keyed stream:%d:" % seed
        self._digest = hashlib.sha256(self._prefix).hexdigest()   # no draw's key: those are longer

    def _next(self) -> random.Random:
        """The generator of the next draw."""
        self._draws += 1
        key = hashlib.sha256(self._prefix + self._draws.to_bytes(8, "big")).digest()
        return random.Random(int.from_bytes(key, "big"))

    def getrandbits(self, k: int) -> int:
        return self._next().getrandbits(k)

    def random(self) -> float:
        return self._next().random()

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        return self._next().randrange(start, stop, step)

    def choice(self, seq):
        return self._next().choice(seq)

    def shuffle(self, x: list) -> None:
        shuffle(self._next(), x)

    def getstate(self) -> tuple[str, int]:
        """``(digest, draws)``: a SHA-256 of the seed (not the seed) and the draws made."""
        return self._digest, self._draws

    def setstate(self, state) -> None:
        raise TypeError("a keyed stream is rebuilt from its seed (KeyedStream(seed, draws)), not from getstate()")

    def __reduce__(self):
        return type(self), (self._seed, self._draws)


def new_stream(seed: int, stream: Stream) -> random.Random:
    """The stream ``stream`` of ``seed`` at its start (G-3).

    Args:
        seed: a whole number 0 or more. stream: ``"keyed"`` or ``"mt"`` (see the module).

    Raises:
        ValueError: an unknown stream name.
    """
    if stream == "keyed":
        return KeyedStream(seed)
    if stream == "mt":
        return random.Random(seed)
    raise ValueError(f"unknown stream {stream!r}: the streams are {', '.join(map(repr, STREAMS))}")


def side_seed(seed: int, stream: Stream, label: str) -> str:
    """The seed of a stream kept beside the game's (a bot's, the bots' open-move race),
    named by ``label`` (e.g. ``"2"`` for seat 2). With the ``"keyed"`` stream it is a
    SHA-256 digest (hex) of the seed and the label, so a bot given it cannot rebuild the
    deal; with the ``"mt"`` stream it is ``"<seed>:<label>"``, as before (old games
    replay with the same bots' choices)."""
    if stream == "keyed":
        return hashlib.sha256(b"playtest side stream:%d:%s" % (seed, label.encode())).hexdigest()
    return f"{seed}:{label}"
