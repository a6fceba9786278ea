"""Chore Race options (RULINGS CR-1, CR-3, CR-11, CR-17, CR-20; G-2, G-4): the schema
``ChoreRace.Options`` checks a table's options against."""
from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, field_validator

from playtest.engine import BaseOptions
from playtest.games.variants import card_variant_field

from .cards import ACTION_BY, CARDS


class Options(BaseOptions):
    """Chore Race options (RULINGS CR-1, CR-3, CR-11, CR-17, CR-20; G-2, G-4);
    ``target_vp`` is 1 to 500 (CR-17; the kit's range, RULINGS.md: past the decks' VP
    the game ends by CR-18)."""

    action_deck: dict[str, int] | Literal["74"] | None = Field(
        None, description="CR-1: action card counts; None = cards.toml (66 cards), '74' adds 8 Done, "
                          "or a mapping card name (or key) -> count overriding those it names")
    draw_rule: Literal["one", "fill_to_7"] = Field(
        "one", description="CR-3: 'one' draws 1 (2 on catch-up) never past 7; 'fill_to_7' draws until 7")
    chore_swap_needs_progress: bool = Field(
        False, description="CR-11: true = the chore you give in a Chore Swap needs 1+ progress")
    target_vp: int = Field(
        15, ge=1, le=500, title="Target VP", description="CR-17: VP that wins at once, 1 to 500 (10 Quick Game, 20 Long Game; "
                                      "20+ also reshuffles the chore discard, CR-19)")
    tableau_size: int = Field(
        3, ge=1, le=6, description="CR-20: chores per tableau (the 2-player variant uses 4)")
    card_variant: str | None = card_variant_field("CR-1")   # CR-1, CR-2 (playtest.games.variants)

    @field_validator("action_deck", mode="before")
    @classmethod
    def _deck(cls, value: Any):
        if value is None or value == "74":
            return value
        if not isinstance(value, dict):
            raise ValueError("CR-1: use a mapping card name -> count, or the preset '74'")
        for name, count in value.items():
            if name not in ACTION_BY:
                raise ValueError(f"CR-1: unknown action card {name!r}; cards: "
                                 f"{', '.join(a.name for a in CARDS.action)}")
            if not isinstance(count, int) or isinstance(count, bool) or count < 0:
                raise ValueError(f"CR-1: the count of {name!r} must be a whole number >= 0, not {count!r}")
        return value

