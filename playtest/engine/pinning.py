"""Helpers for a game's :meth:`~playtest.engine.game.Pinnable.pin`: check a pinned setup's shape and rebuild the
deal's piles with the named cards in place, keeping every card accounted for.

A game describes its deal as *piles* (label -> card ids in the pile's own order) and
*reservoirs* (the shuffled decks piles are dealt from, top last). Pinning a pile puts
exactly the named cards there; pinning a reservoir fixes its top. Everything not named
keeps what the seeded deal gave, except that a card taken by a pin from a pile that was
not pinned is replaced by the next card of that pile's reservoir. Cards a pinned pile
held before go to the bottom of its reservoir. So the cards are the same cards, just
moved: no card is created or lost. A pile may be limited to the cards it can hold under
the rules (``allowed``: e.g. a Night Shift hand never holds the other seat's starter
cards, NS-1); a pin naming any other card is refused.

Besides cards, a game pins counters (VP, Patience, the round, ...): :func:`whole_number`,
:func:`numbers_per_seat` and :func:`flags_per_seat` check their shape and range, and
:func:`~playtest.engine.errors.suggest` offers the nearest allowed word for a misspelt one.
"""
from __future__ import annotations

from typing import Any, Collection, Mapping, Sequence

from .errors import OptionError, nearest, short_repr, suggest  # suggest: also for the games' pin()


def check_keys(game, setup: Mapping[str, Any]) -> None:
    """Refuse keys that are not in ``game.SETUP``.

    Args:
        game: the Game (its ``title`` and ``SETUP``: key -> meaning).
        setup: the pinned setup, key -> value.

    Raises:
        OptionError: naming the unknown keys, the nearest known one ("did you mean", with
            its meaning) and every key the game accepts; each key's meaning is in
            ``game.SETUP`` (the scenario format's documentation shows them), so the
            sentence stays short enough to read.
    """
    unknown = [k for k in setup if k not in game.SETUP]
    if unknown:
        close = nearest(unknown[0], list(game.SETUP))
        meaning = f" {close}: {game.SETUP[close]}" if close else ""
        hint = f"{suggest(unknown[0], list(game.SETUP))}{meaning}."
        raise OptionError(f"{game.title} setup has no key {', '.join(map(repr, unknown))}{hint} "
                          f"Keys: {', '.join(game.SETUP)} (each explained in {type(game).__name__}.SETUP).")


def whole_number(value: Any, key: str, minimum: int = 0, maximum: int | None = None, why: str = "") -> int:
    """``value`` as a whole number in minimum..maximum (True/False and 2.0 are not).

    Args:
        why: what the range comes from (a ruling), added to the message.

    Raises:
        OptionError: not a whole number, or out of range; the message names ``key``
            and the range.
    """
    allowed = f"{minimum}..{maximum}" if maximum is not None else f"{minimum} or more"
    reason = f" ({why})" if why else ""
    if type(value) is not int:
        raise OptionError(f"setup '{key}' is a whole number {allowed}{reason}, not {short_repr(value)}")
    if value < minimum or (maximum is not None and value > maximum):
        raise OptionError(f"setup '{key}' = {value} is out of range: use {allowed}{reason}")
    return value


def numbers_per_seat(value: Any, key: str, seats: int, minimum: int = 0, maximum: int | None = None,
                     why: str = "") -> list[int]:
    """``value`` as one whole number per seat (seat 0 first), each in minimum..maximum.

    Raises:
        OptionError: not a list of ``seats`` whole numbers, or one out of range; the
            message names ``key`` (and the seat).
    """
    if not isinstance(value, list) or len(value) != seats:
        raise OptionError(f"setup '{key}' is one whole number per seat ({seats} numbers for {seats} seats), "
                          f"not {short_repr(value)}")
    return [whole_number(v, f"{key}[{seat}]", minimum, maximum, why) for seat, v in enumerate(value)]


def flags_per_seat(value: Any, key: str, seats: int) -> list[bool]:
    """``value`` as one true/false per seat (seat 0 first).

    Raises:
        OptionError: not a list of ``seats`` booleans; the message names ``key``.
    """
    if not isinstance(value, list) or len(value) != seats or not all(type(v) is bool for v in value):
        raise OptionError(f"setup '{key}' is one true or false per seat ({seats} for {seats} seats), "
                          f"not {short_repr(value)}")
    return list(value)


def card_names(value: Any, key: str, minimum: int = 0, maximum: int | None = None) -> list[str]:
    """``value`` as a list of card names.

    Raises:
        OptionError: not a list of strings, or a length outside minimum..maximum;
            the message names ``key``.
    """
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise OptionError(f"setup '{key}' is a list of card names, not {short_repr(value)}")
    if len(value) < minimum or (maximum is not None and len(value) > maximum):
        size = f"{minimum} to {maximum}" if maximum is not None else f"at least {minimum}"
        raise OptionError(f"setup '{key}' needs {size} card{'' if size == '1' or size == 'at least 1' else 's'}, "
                          f"not {len(value)}")
    return list(value)


def per_seat(value: Any, key: str, seats: int, minimum: int = 0, maximum: int | None = None) -> list[list[str]]:
    """``value`` as one list of card names per seat (seat 0 first).

    Raises:
        OptionError: not a list of ``seats`` lists of card names, or a list of the wrong
            length; the message names ``key`` (and the seat).
    """
    if not isinstance(value, list) or len(value) != seats:
        raise OptionError(f"setup '{key}' is one list of card names per seat ({seats} lists for "
                          f"{seats} seats), not {short_repr(value)}")
    return [card_names(v, f"{key}[{seat}]", minimum, maximum) for seat, v in enumerate(value)]


def pin_piles(title: str, names: Sequence[str], piles: Mapping[str, list[int]], sources: Mapping[str, str],
              reservoirs: Sequence[str], pinned: Mapping[str, list[str]],
              allowed: Mapping[str, tuple[Collection[int], str]] | None = None,
              other_kind: tuple[Collection[str], str] = ((), "")) -> dict[str, list[int]]:
    """Rebuild the piles of a seeded deal with pinned cards in place.

    Args:
        title: the game's title, for messages.
        names: card id -> card name (several ids may share a name: copies).
        piles: label (e.g. ``"lists[0]"``, ``"deck"``) -> card ids of the seeded deal,
            in the pile's order; reservoirs top last. Together they hold every card once.
        sources: pile label -> the reservoir it is dealt from (piles left out, e.g. an
            empty discard pile, have none).
        reservoirs: the labels of the reservoirs (decks), included in ``piles``.
        pinned: label -> card names. A pile gets exactly these, in this order; a
            reservoir gets them on top, *top first*.
        allowed: label -> (the card ids that pile can hold under the rules, one
            sentence saying which and why, with its ruling); a label left out may hold
            any card.
        other_kind: (names of the game's cards of another kind, kept in other piles,
            one sentence saying where they go): such a name is refused with that
            sentence, not as a card the game lacks (e.g. a Chore Race chore in a hand).

    Returns:
        label -> card ids, for every label of ``piles``.

    Raises:
        OptionError: a name the game does not have, more copies named than exist (a
            card pinned twice), a card the pile cannot hold (``allowed``), or a
            reservoir that runs out while refilling; the message names the setup key.
    """
    known = sorted(set(names))
    wanted: dict[str, int] = {}
    for label, cards in pinned.items():
        for name in cards:
            if name not in known and name in other_kind[0]:
                raise OptionError(f"setup '{label}': {name!r} {other_kind[1]}")
            if name not in known:
                raise OptionError(f"setup '{label}': {title} has no card named {name!r}"
                                  f"{suggest(name, known) or ';'} cards: {', '.join(known)}")
            wanted[name] = wanted.get(name, 0) + 1
    for name, count in wanted.items():
        copies = sum(1 for n in names if n == name)
        if count > copies:
            where = ", ".join(label for label, cards in pinned.items() if name in cards)
            raise OptionError(f"setup names {name!r} {count} times (in {where}), but {title} has only {copies}")

    # which copy a pinned name takes: the pile's own old cards, then its own deck from the
    # top (so each seat keeps its own cards where it can), then any free card (a pinned
    # pile's old cards, the decks), last cards of piles left as dealt (those get replaced)
    kept = [label for label in piles if label not in pinned and label not in reservoirs]
    anywhere = [c for label in piles if label in pinned and label not in reservoirs for c in piles[label]]
    anywhere += [c for label in reservoirs for c in reversed(piles[label])]
    anywhere += [c for label in kept for c in piles[label]]
    used: set[int] = set()
    result: dict[str, list[int]] = {}
    for label, cards in pinned.items():
        own = [] if label in reservoirs else list(piles[label])
        own += reversed(piles.get(sources.get(label, label) if label not in reservoirs else label, []))
        result[label] = []
        fits = allowed.get(label) if allowed else None
        for name in cards:
            card = next((c for c in own + anywhere if c not in used and names[c] == name
                         and (fits is None or c in fits[0])), None)
            if card is None:    # only with ``allowed``: every copy is counted above
                room = sum(1 for c in fits[0] if names[c] == name)
                if not room:
                    raise OptionError(f"setup '{label}' cannot hold {name!r}: {fits[1]}")
                raise OptionError(f"setup names {name!r} more often than {label} can hold: {fits[1]}; there are "
                                  f"{room} such {name!r} and the setup has placed them all")
            used.add(card)
            result[label].append(card)

    remainder = {label: [c for c in piles[label] if c not in used] for label in reservoirs}
    for label in kept:
        pile = []
        for card in piles[label]:
            if card in used:
                source = sources.get(label)
                if not remainder.get(source):
                    raise OptionError(f"setup takes a card dealt to {label}, and {source or 'no deck'} has no "
                                      f"card left to replace it")
                card = remainder[source].pop()
                used.add(card)
            pile.append(card)
        result[label] = pile
    for label in reservoirs:
        released = [c for pile, cards in piles.items() if pile in pinned and pile not in reservoirs
                    and sources.get(pile) == label for c in cards if c not in used]
        used.update(released)
        top = result.get(label, [])
        result[label] = released + remainder[label] + top[::-1]
    # a programming error in the game's pile description, never the user's: say so loudly
    assert sorted(c for cards in result.values() for c in cards) == sorted(c for cards in piles.values()
                                                                           for c in cards), "pinning lost a card"
    return result
