"""Lazy Sunday's deck (RULINGS LS-1, LS-2): ``cards.toml`` read, checked and expanded to
card ids, and the action cards' move kinds."""
from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from playtest.engine import PlaytestError

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

CARDS_FILE = Path(__file__).with_name("cards.toml")
ACTIONS = ("busy", "double_check", "nosy", "trade", "switcheroo", "not_my_job", "landlord", "knock_out")
"""The move kinds of the action cards (LS-2): burning the drawn card of that action."""


class DeckError(PlaytestError, ValueError):
    """``cards.toml`` cannot be used; the message names the file and the bad entry."""


class CardSpec(BaseModel):
    """One ``[[card]]`` entry of ``cards.toml`` (LS-1, LS-2): ``name`` (str), ``effort``
    (int >= 0), ``kind`` ("chore" | "action"), ``count`` (int >= 0), ``action`` (the
    burn move kind, actions only) and ``text`` (str)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    effort: int = Field(ge=0)
    kind: Literal["chore", "action"]
    count: int = Field(ge=0)
    action: Literal[ACTIONS] | None = None
    text: str = ""

    @model_validator(mode="after")
    def _action_iff_action_kind(self):
        if (self.kind == "action") != (self.action is not None):
            raise ValueError("an action card needs `action` (one of " + ", ".join(ACTIONS)
                             + ") and a chore card must not have one")
        return self


@dataclass(frozen=True)
class Cards:
    """The deck expanded to card ids: per-id tuples ``names``, ``efforts``, ``kinds``,
    ``actions`` (burn move kind or None) and ``views`` (the view's card dict), plus the
    ``specs`` it came from. Two cards match (LS-5) when their names are equal."""

    specs: tuple[CardSpec, ...]
    names: tuple[str, ...]
    efforts: tuple[int, ...]
    kinds: tuple[str, ...]
    actions: tuple[str | None, ...]
    views: tuple[dict, ...]


def load_cards(path: str | os.PathLike = CARDS_FILE) -> Cards:
    """Read and validate a deck file (default: this package's ``cards.toml``; LS-1, LS-2).

    Cached per file version, so an edited file is read again by the next new game.

    Raises:
        DeckError: unreadable TOML, no ``[[card]]`` entries, a bad entry (the message
            gives the file, the entry's number and name, the field and the problem) or a
            card name used twice.
    """
    path = os.fspath(path)  # os.stat on the text: this runs for every new game
    return _parse_cards(path, os.stat(path).st_mtime_ns)


@cache
def _parse_cards(path: str, _mtime_ns: int) -> Cards:
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise DeckError(f"{path}: not valid TOML: {exc}") from None
    entries = data.get("card")
    if not isinstance(entries, list) or not entries:
        raise DeckError(f"{path}: no [[card]] entries found")
    specs = []
    for number, entry in enumerate(entries, 1):
        try:
            specs.append(CardSpec.model_validate(entry))
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'entry'}: {e['msg']}" for e in exc.errors())
            name = entry.get("name", "?") if isinstance(entry, dict) else "?"
            raise DeckError(f"{path}: [[card]] #{number} ({name!r}): {problems}") from None
    seen = set()
    for number, spec in enumerate(specs, 1):
        if spec.name in seen:  # names are what a quick discard matches on (LS-5)
            raise DeckError(f"{path}: [[card]] #{number} ({spec.name!r}): the name is used twice")
        seen.add(spec.name)
    ids = [spec for spec in specs for _ in range(spec.count)]
    return Cards(
        specs=tuple(specs),
        names=tuple(c.name for c in ids),
        efforts=tuple(c.effort for c in ids),
        kinds=tuple(c.kind for c in ids),
        actions=tuple(c.action for c in ids),
        views=tuple({"name": c.name, "effort": c.effort, "kind": c.kind, "text": c.text} for c in ids),
    )
