"""The card editor: a game's ``cards.toml`` as an editable table (names, counts, values,
costs), checked as the kit checks it and saved as a named card variant
(:mod:`playtest.games.variants`), which a new game, ``simulate`` and the balance lab's
A/B play through the game option ``card_variant``. The game's own ``cards.toml`` is never
written.

Only the numbers and names a designer tunes are editable (``EDITABLE``); what ties a card
to the rules' code (Lazy Sunday's ``action``, Chore Race's ``key`` and ``ability``, Night
Shift's ``type``, ``where`` and effects) is shown, not edited, and saved as it was.
"""
from __future__ import annotations

import html
from typing import Any

import ipywidgets as w
import tomli_w

from ..engine import OptionError, get_game
from ..engine.registry import games as all_games
from ..games import variants
from .components import ErrorBanner, safe, style_widget
from .newgame import read_whole_number

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

EDITABLE = ("name", "count", "effort", "level", "cost", "health", "bonus_vp", "opponent_vp")
"""The fields the editor lets a designer change, where a card entry has them."""

SHOWN = ("kind", "key", "type", "where", "ability")
"""Fields shown beside them (what the card is), not editable."""

STYLE = """<style>
.pt-cards-grid { grid-gap: 2px 6px; align-items: center; margin: 2px 0 10px; }
.pt-cards-grid .widget-text, .pt-cards-grid .widget-inline-hbox { width: auto; margin: 0; }
.pt-cards-head .widget-html-content { font-weight: 700; font-size: 12px; }
.pt-cards-note .widget-html-content { white-space: normal; }
</style>"""


class CardEditor:
    """Edit a game's card data and save it as a variant (see the module docstring).

    Args:
        game: the registry name of the game shown first.

    Attributes:
        widget: the root box. banner: errors (the game's own messages). game: the Game
            class shown. base: the dropdown of what the table starts from (None: the
            game's ``cards.toml``, else a saved variant's name). name: the variant's
            name input. save_button. note: what was saved and how to play it.
        inputs: ``{(section, entry index, field): widget}`` of the table on show.
        optional: section -> the editable fields some of its entries leave out (a cost,
            a health): blank in their boxes means none.
        sections: section name (``"card"``, ``"action"``, ``"chore"``) -> its entries
            as read (dicts; the editable fields are taken from the inputs on save).

    Raises:
        OptionError: an unknown game.
    """

    def __init__(self, game: str = "lazy_sunday"):
        self.banner = ErrorBanner()
        report = self.banner.show
        found = all_games()
        self.games = {name: game for name, game in found.items() if variants.default_cards(game).is_file()}
        self.game = get_game(game)
        self.game_picker = w.Dropdown(options=[(g.title, name) for name, g in self.games.items()], value=game,
                                      description="Game")
        self.base = w.Dropdown(description="Start from", style={"description_width": "initial"},
                               layout=w.Layout(width="auto"))
        self.name = w.Text(description="Save as", placeholder="e.g. cheap_naps (letters, digits, - and _)",
                           style={"description_width": "initial"}, layout=w.Layout(width="340px"))
        self.save_button = w.Button(description="Save variant", button_style="primary", icon="save",
                                    layout=w.Layout(width="auto"))
        self.note = w.HTML()
        self.note.add_class("pt-cards-note")
        self.totals = w.HTML()
        self.tables = w.VBox()
        self.inputs: dict[tuple[str, int, str], w.Widget] = {}
        self.sections: dict[str, list[dict]] = {}
        self._data: dict[str, Any] = {}
        self._busy = False
        self.game_picker.observe(safe(lambda ch: self._busy or self.show_game(ch["new"]), report), "value")
        self.base.observe(safe(lambda ch: self._busy or self.load(ch["new"]), report), "value")
        self.save_button.on_click(safe(lambda _b: self.save(), report))
        self.widget = w.VBox([style_widget(), w.HTML(STYLE), self.banner.widget,
                              w.HBox([self.game_picker, self.base], layout=w.Layout(flex_flow="row wrap")),
                              self.totals, self.tables,
                              w.HBox([self.name, self.save_button], layout=w.Layout(flex_flow="row wrap")),
                              self.note])
        self.widget.add_class("pt-card-editor")
        self.show_game(game)

    # --- loading ---------------------------------------------------------------------
    def show_game(self, game: str) -> None:
        """Show ``game``'s own card data.

        Raises:
            OptionError: an unknown game, or one without a card file.
        """
        if game not in self.games:
            raise OptionError(f"no card data to edit for {game!r}; games: {', '.join(self.games)}")
        self.game = self.games[game]
        self._busy = True
        try:
            self.game_picker.value = game
            self._list_bases()
            self.base.value = None
        finally:
            self._busy = False
        self.load(None)

    def _list_bases(self) -> None:
        self.base.options = [("the game's own cards.toml", None)] + [
            (f"variant {name}", name) for name in variants.variants(self.game.name)]

    def load(self, variant: str | None) -> None:
        """Fill the table from the game's ``cards.toml`` (None) or a saved variant.

        Raises:
            OptionError: no such variant.
        """
        path = variants.card_file(self.game.name, variant, variants.default_cards(self.game))
        self._data = tomllib.loads(path.read_text(encoding="utf-8"))
        self.sections = {key: value for key, value in self._data.items()
                         if isinstance(value, list) and value and all(isinstance(e, dict) for e in value)}
        for widget in self.inputs.values():     # the old table's inputs go with it
            widget.close()
        self.inputs = {}
        self.optional: dict[str, set[str]] = {}    # section -> fields some entries leave out (blank allowed)
        boxes = []
        for section, entries in self.sections.items():
            fields = [f for f in EDITABLE if any(f in e for e in entries)]
            shown = [f for f in SHOWN if any(f in e for e in entries)]
            cells = [self._head(f) for f in fields + shown]
            optional = self.optional[section] = {f for f in fields if not all(f in e for e in entries)}  # cost, health
            for i, entry in enumerate(entries):
                for field in fields:
                    cells.append(self._input(section, i, field, entry.get(field), field in optional))
                cells += [w.HTML(html.escape(str(entry.get(f, "")))) for f in shown]
            grid = w.GridBox(cells, layout=w.Layout(grid_template_columns=" ".join(
                ["minmax(150px, 220px)" if f == "name" else "80px" for f in fields] + ["auto"] * len(shown))))
            grid.add_class("pt-cards-grid")
            boxes.append(w.VBox([w.HTML(f"<b>[[{html.escape(section)}]]</b>: {len(entries)} entries"), grid]))
        self.tables.children = tuple(boxes)
        self.name.value = variant or ""
        self.note.value = ""
        self.banner.clear()
        self._count()

    @staticmethod
    def _head(field: str) -> w.HTML:
        head = w.HTML(html.escape(field))
        head.add_class("pt-cards-head")
        return head

    def _input(self, section: str, index: int, field: str, value, optional: bool) -> w.Widget:
        if field == "name":
            box = w.Text(value=str(value or ""))
        elif optional:              # blank: the entry has no such field (no printed cost, NS-2; no health)
            box = w.Text(value="" if value is None else str(value), placeholder="none")
        else:                       # text, read whole by data(): a number box cuts "1e3" to 1 unseen
            box = w.Text(value=str(value) if isinstance(value, int) else "0")
            if field == "count":
                box.observe(lambda _c: self._count(), "value")
        box.layout.width = "auto"
        self.inputs[(section, index, field)] = box
        return box

    def _count(self) -> None:
        """The number of cards per section, as the counts now say."""
        parts = []
        for section, entries in self.sections.items():
            counts = [self.inputs[(section, i, "count")].value for i in range(len(entries))
                      if (section, i, "count") in self.inputs]
            if counts:              # a count being typed ("", "-") is not a number yet: "?"
                try:
                    total = str(sum(read_whole_number(c, "count") for c in counts))
                except OptionError:
                    total = "?"
                parts.append(f"{section}: {total} cards")
        self.totals.value = "<b>Deck</b>: " + ", ".join(parts) if parts else ""

    # --- saving -------------------------------------------------------------------------
    def data(self) -> dict[str, Any]:
        """The card data as edited: the file as read, with every editable field taken
        from its input (a blank cost: no cost).

        Raises:
            OptionError: a number that is not a whole number in the digits 0-9
                (an optional one, a cost or a health, may be blank).
        """
        data = {key: value for key, value in self._data.items()}
        for section, entries in self.sections.items():
            edited = []
            for i, entry in enumerate(entries):
                entry = dict(entry)
                for field in EDITABLE:
                    box = self.inputs.get((section, i, field))
                    if box is None:
                        continue
                    value = box.value
                    if field != "name":
                        optional = field in self.optional[section]
                        if optional and value.strip().lower() in ("", "none"):
                            entry.pop(field, None)
                            continue
                        value = read_whole_number(value, f"[[{section}]] #{i + 1} ({entry.get('name', '?')!r}): "
                                                  f"{field}", "a whole number" + " or blank (none)" * optional)
                    entry[field] = value
                edited.append(entry)
            data[section] = edited
        return data

    def text(self) -> str:
        """The variant's TOML text (the game's loader reads it as it reads cards.toml)."""
        header = (f"# A card variant of {self.game.title}, saved by the card editor; play it with the game "
                  f"option card_variant = \"{self.name.value.strip() or 'NAME'}\".\n")
        return header + tomli_w.dumps(self.data())

    def save(self) -> str:
        """Check the edited cards as the kit does and save them as the variant named in
        :attr:`name` (the game's own file is never written). Returns the name.

        Raises:
            OptionError: a bad name or cost. VariantError: the game refuses the data
                (its own message: the entry and the field, or the deal). OSError: the
                variants folder cannot be written.
        """
        name = self.name.value.strip()
        self.note.value = ""
        variants.save_variant(self.game, name, self.text())
        self._busy = True
        try:
            self._list_bases()
            self.base.value = name
        finally:
            self._busy = False
        self.note.value = (f"Saved the variant <b>{html.escape(name)}</b> of {html.escape(self.game.title)}. "
                           f"Play it with the option <code>card_variant</code> = <code>{html.escape(name)}</code>: "
                           f"in a dashboard's New game panel, in the balance lab (variant B against the game's own "
                           f"cards as A), or <code>simulate(\"{self.game.name}\", ..., options={{\"card_variant\": "
                           f"\"{html.escape(name)}\"}})</code>.")
        return name

