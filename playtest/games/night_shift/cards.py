"""Night Shift's card data (RULINGS NS-1): ``cards.toml`` read and checked, and every
physical card numbered, as the rules, the setup and the views use them."""
from __future__ import annotations

from pathlib import Path
from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

CARDS_FILE = Path(__file__).with_name("cards.toml")
EFFECTS = ("effort", "care", "patience", "draw", "opponent_patience")


class Effects(BaseModel):
    """Effect amounts of a card (0 when left out); ``opponent_patience`` < 0 hurts."""

    model_config = ConfigDict(extra="forbid")
    effort: int = 0
    care: int = 0
    patience: int = 0
    draw: int = Field(0, ge=0)
    opponent_patience: int = 0


class CardSpec(BaseModel):
    """One ``[[card]]`` entry of cards.toml (see the comments at its top)."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1)
    type: Literal["unit", "event", "resource", "structure"]
    cost: int | None = Field(None, ge=0)
    health: int | None = Field(None, ge=1)
    where: Literal["starter", "supply", "nap"]
    count: int = Field(ge=0)
    text: str = ""
    play: Effects = Effects()
    start_of_shift: Effects = Effects()

    @model_validator(mode="after")
    def _structure_fields(self):
        if self.type == "structure":
            if self.health is None:
                raise ValueError("a structure needs a health of 1 or more (NS-1)")
            if self.play != Effects():
                raise ValueError("a structure does nothing when played (NS-3): use start_of_shift, not play")
        else:
            if self.health is not None:
                raise ValueError("only structures have health (NS-1)")
            if self.start_of_shift != Effects():
                raise ValueError("only structures stay in play for start_of_shift effects (NS-3)")
        return self


class Card(NamedTuple):
    """A card kind as the rules use it: plain values for speed. ``play`` and ``start``
    are effect tuples in the order of ``EFFECTS``; ``view`` is the card's view dict."""

    name: str
    type: str
    cost: int | None
    health: int | None
    where: str
    structure: bool
    play: tuple
    start: tuple
    view: dict


def load_cards(path: str | Path = CARDS_FILE) -> list[CardSpec]:
    """Read and check a cards file (TOML, a list of ``[[card]]`` tables).

    Args:
        path: the file; the package's cards.toml by default.

    Returns:
        One :class:`CardSpec` per entry, in file order.

    Raises:
        ValueError: the file is not TOML, has no ``[[card]]`` list, an entry is wrong
            (the message names the file, the entry number and name, the field and why),
            or a name is used twice.
    """
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path}: not valid TOML: {exc}") from None
    entries = data.get("card")
    if not isinstance(entries, list) or not entries:
        raise ValueError(f"{path}: expected a list of [[card]] tables")
    specs, names = [], set()
    for number, entry in enumerate(entries, 1):
        label = f"{path}: card {number} ({entry.get('name', '?')!r})"
        try:
            spec = CardSpec.model_validate(entry)
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'entry'}: {e['msg']}" for e in exc.errors())
            raise ValueError(f"{label}: {problems}") from None
        if spec.name in names:
            raise ValueError(f"{label}: the name {spec.name!r} is used twice; one entry per card name")
        names.add(spec.name)
        specs.append(spec)
    return specs


def _card(spec: CardSpec) -> Card:
    def amounts(effects: Effects) -> tuple:
        return tuple(getattr(effects, e) for e in EFFECTS)

    def nonzero(effects: Effects) -> dict:
        return {e: getattr(effects, e) for e in EFFECTS if getattr(effects, e)}

    view = {"name": spec.name, "type": spec.type, "cost": spec.cost, "health": spec.health,
            "text": spec.text, "play": nonzero(spec.play), "start_of_shift": nonzero(spec.start_of_shift)}
    return Card(spec.name, spec.type, spec.cost, spec.health, spec.where, spec.type == "structure",
                amounts(spec.play), amounts(spec.start_of_shift), view)


def card_ids(specs: list[CardSpec]) -> tuple[list[Card], dict[str, list[int]]]:
    """Number every physical card: ids in file order, copies consecutive; a starter
    entry gives ``count`` copies per seat (seat 0's first). Returns ``(cards by id,
    place -> ids)`` with places ``"starter0"``, ``"starter1"``, ``"supply"``, ``"nap"``."""
    cards: list[Card] = []
    places: dict[str, list[int]] = {"starter0": [], "starter1": [], "supply": [], "nap": []}
    for spec in specs:
        card = _card(spec)
        for place in ("starter0", "starter1") if spec.where == "starter" else (spec.where,):
            for _ in range(spec.count):
                places[place].append(len(cards))
                cards.append(card)
    return cards, places


class Numbered(NamedTuple):
    """A deck numbered once (:func:`numbered`): the cards by id, place -> ids (see
    :func:`card_ids`), and each id's name and cost (None as 0) as plain tuples, which
    the move lists read on every move."""

    cards: list[Card]
    places: dict[str, list[int]]
    names: tuple[str, ...]
    costs: tuple[int, ...]


_NUMBERED: dict[tuple[int, ...], tuple[tuple[CardSpec, ...], Numbered]] = {}


def numbered(specs: list[CardSpec]) -> Numbered:
    """:func:`card_ids` of ``specs``, worked out once per deck: every new game numbers
    the same cards (the result is only read; new games copy the places' lists)."""
    key = tuple(map(id, specs))
    if key not in _NUMBERED:  # the entry keeps the specs alive, so their ids stay theirs
        cards, places = card_ids(specs)
        _NUMBERED[key] = (tuple(specs), Numbered(cards, places, tuple(c.name for c in cards),
                                                 tuple(c.cost or 0 for c in cards)))
    return _NUMBERED[key][1]


def count_text(n: int) -> str:
    """ "1 card", "5 cards" for the log."""
    return f"{n} card" if n == 1 else f"{n} cards"
