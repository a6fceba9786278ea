"""Chore Race card data (RULINGS CR-1, CR-2) and the rulebook's fixed numbers.

``cards.toml`` is read and checked here (:func:`load_cards`, the schema classes); the
tables a game works from (card names, keys, canonical order, chore levels, one entry per
card id) are worked out once per card set (:func:`tables`, :func:`action_deck`).
"""
from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from playtest.engine.errors import PlaytestError

CARDS_FILE = Path(__file__).with_name("cards.toml")
ACTION_KEYS = ("done", "finally", "inspection", "excuse", "delegate", "swap", "meeting", "later", "teamwork")
ABILITIES = ("", "steal", "attic", "no_delegate", "wipe", "garage")
TARGETED = ("inspection", "delegate", "swap", "teamwork")      # CR-7
START_HAND = 5                                                  # rulebook setup step 3
HAND_CAP = 7                                                    # CR-3
MEETING_PASS = 3                                                # CR-8
CATCH_UP_VP = 5                                                 # CR-15
PROTECT_VP = 8                                                  # CR-16
LONG_GAME_VP = 20                                               # CR-19

# The kinds of action card a hand holds are a bitmask (bit i: ACTION_KEYS[i]): cheap to build
# from a hand and to use as a cache key.
BIT = {key: 1 << i for i, key in enumerate(ACTION_KEYS)}
TARGETED_BITS = sum(BIT[key] for key in TARGETED)


class CardDataError(PlaytestError, ValueError):
    """cards.toml cannot be used: the message names the file and the bad entry."""


class ActionCard(BaseModel):
    """One ``[[action]]`` entry of cards.toml (CR-1)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str = Field(min_length=1)
    key: Literal[ACTION_KEYS]
    kind: str
    count: int = Field(ge=0)
    text: str = ""


class ChoreCard(BaseModel):
    """One ``[[chore]]`` entry of cards.toml (CR-2)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str = Field(min_length=1)
    level: int = Field(ge=1)
    count: int = Field(ge=0)
    ability: Literal[ABILITIES] = ""
    text: str = ""
    bonus_vp: int = Field(0, ge=0)
    opponent_vp: int = Field(0, ge=0)


class CardSet(BaseModel):
    """The whole of cards.toml: ``action`` and ``chore`` entries."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    action: list[ActionCard]
    chore: list[ChoreCard]

    @model_validator(mode="after")
    def _consistent(self):
        keys = [a.key for a in self.action]
        missing = [k for k in ACTION_KEYS if k not in keys]
        if missing or len(keys) != len(set(keys)):
            raise ValueError(f"each action key must appear exactly once; missing {missing}, "
                             f"repeated {sorted({k for k in keys if keys.count(k) > 1})}")
        for kind, entries in (("action", self.action), ("chore", self.chore)):
            names = [e.name for e in entries]
            if len(names) != len(set(names)):
                raise ValueError(f"{kind} names must be unique; repeated "
                                 f"{sorted({n for n in names if names.count(n) > 1})}")
        return self


def load_cards(path: str | Path = CARDS_FILE) -> CardSet:
    """Read and validate a Chore Race card file.

    Args:
        path: a TOML file shaped like the bundled ``cards.toml``.

    Raises:
        CardDataError: the file is missing, not TOML, or an entry is wrong; the message
            names the file, the entry (``[[chore]] #5 'Clean Your Room'``) and the field.
    """
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise CardDataError(f"{path}: cannot read the card file ({exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise CardDataError(f"{path}: not valid TOML ({exc})") from None
    try:
        return CardSet.model_validate(data)
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            loc = err["loc"]
            where = "file"
            if len(loc) >= 2 and isinstance(loc[1], int):
                entries = data.get(loc[0]) or []
                name = entries[loc[1]].get("name", "?") if loc[1] < len(entries) and isinstance(
                    entries[loc[1]], dict) else "?"
                where = f"[[{loc[0]}]] #{loc[1] + 1} {name!r}" + (f" field {loc[2]!r}" if len(loc) > 2 else "")
            elif loc:
                where = f"[[{loc[0]}]]"
            problems.append(f"{where}: {err['msg']}")
        raise CardDataError(f"{path}: bad card data: " + "; ".join(problems)) from None


CARDS = load_cards()                     # the bundled card set
ACTION_BY = {**{a.name: a for a in CARDS.action}, **{a.key: a for a in CARDS.action}}   # card name or key -> entry


# --- card tables (the same for every game; the action deck's copies depend on an option) --
class Tables(NamedTuple):
    """The card tables of one card set (CR-1, CR-2), worked out once per set."""

    key_name: dict[str, str]            # action key -> card name
    keys: dict[str, str]                # card name -> action key
    order: dict[str, int]               # action key -> canonical card order
    by: dict[str, ActionCard]           # card name or key -> its entry (option action_deck)
    chores: tuple[ChoreCard, ...]       # chore id -> card
    level: tuple[int, ...]              # chore id -> its level (CR-14)
    no_delegate: frozenset[int]         # chore ids that refuse Delegate (CR-2)
    static: tuple[dict, ...]            # chore id -> its view's fixed part: name, level, ability


_TABLES: dict[int, tuple[CardSet, Tables]] = {}


def tables(cards: CardSet) -> Tables:
    """The tables of ``cards`` (cached; the entry keeps the set alive, so its id stays its own)."""
    if id(cards) not in _TABLES:
        chores = tuple(c for c in cards.chore for _ in range(c.count))
        _TABLES[id(cards)] = (cards, Tables(
            {a.key: a.name for a in cards.action}, {a.name: a.key for a in cards.action},
            {a.key: i for i, a in enumerate(cards.action)},
            {**{a.name: a for a in cards.action}, **{a.key: a for a in cards.action}},
            chores, tuple(c.level for c in chores),
            frozenset(i for i, c in enumerate(chores) if c.ability == "no_delegate"),
            tuple({"name": c.name, "level": c.level, "ability": c.ability} for c in chores)))
    return _TABLES[id(cards)][1]


_DECKS: dict[tuple[int, tuple[int, ...]], tuple] = {}


def action_deck(cards: CardSet, copies: tuple[int, ...]) -> tuple[tuple[str, ...], tuple[str, ...], tuple[int, ...]]:
    """Key, name and kind bit of every action card id, for ``copies`` of each card of
    ``cards.action`` in order (CR-1); ids run through the cards in that order. Cached.

    Args:
        cards: a card set. copies: one count per entry of ``cards.action``, in order.
    """
    found = _DECKS.get((id(cards), copies))
    if found is None:
        key_name = tables(cards).key_name
        keys = tuple(a.key for a, n in zip(cards.action, copies) for _ in range(n))
        found = _DECKS[(id(cards), copies)] = (keys, tuple(key_name[k] for k in keys), tuple(BIT[k] for k in keys))
    return found
