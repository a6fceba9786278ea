"""The generic board: draws any view written in the kit's zone vocabulary as a playable
table, for a game that ships no board of its own (:class:`ViewBoard`).

The zone vocabulary
-------------------
A view (``Game.view(state, seat)``) may carry, besides its own keys:

``"zones"``: a list of zones, each a dict:

* ``"kind"``: ``"hand"`` (a seat's cards), ``"pile"`` (a deck or a discard pile: its top
  card and its size), ``"tableau"`` (cards laid out in front of a seat), ``"row"`` (a
  shared row of cards, e.g. a supply row to buy from) or ``"counter"`` (a number or a
  short text: a score, a suit to match, cards owed);
* ``"name"``: what the zone is called, in words (``"deck"``, ``"discard pile"``,
  ``"hand"``); zones are told apart by (kind, name, owner), so keep these stable;
* ``"owner"``: the seat the zone belongs to, or None for a shared zone;
* ``"face"``: ``"up"`` (the cards are listed in ``"cards"``) or ``"down"`` (only
  ``"count"`` says how many: the viewer may not see them, and the board draws backs);
* ``"cards"``: the cards shown, in order (a pile's top card first, usually just it);
  each a dict with ``"name"`` (its text on the card), and optionally ``"arg"`` (the value
  a click on it puts into the ``card`` argument of the move being built, e.g. ``"8S"``),
  ``"corner"`` (a short value printed under the name: a number, or a few characters),
  ``"kind"`` (a CSS class word:
  ``pt-kind-<kind>``; ``"red"`` draws red text) and ``"text"`` (hover text). A card
  the viewer may not see in a face-up zone is ``{"face_up": false}``;
* ``"count"``: how many cards the zone holds (a pile's size, a hidden hand's size);
* ``"value"``: a counter's value (``"counter"`` zones only);
* ``"move"``: the kind of a move without arguments that a click on the pile makes
  (``"pile"`` zones only, e.g. ``"draw"`` on the deck): while the viewer's move controls
  offer that move, the pile's top is outlined and a click on it plays the move, as its
  button does.

and, as the kit's games already have them: ``"seats"`` (the seat count), ``"viewer"``,
``"turn_seat"`` (whose turn, None when nobody's or the game is over), ``"to_act"`` and
``"outcome"`` (None while the game goes on, else ``{"reason", "winners", "scores"}``).

The view is the security boundary (DESIGN "view"): a face-down zone carries no card, and
the board never draws a name for it.

Moves are made with the kit's move controls (:class:`~playtest.widgets.moves.MoveBuilder`
of the game's ``MOVE_ARGS``, labelled by its ``MOVE_WORDS``); a click on a face-up card
of the viewer's own zones, or of a shared row or tableau (never a pile's top), fills a
move argument named ``card`` with the card's ``"arg"``; a click on a pile with a
``"move"`` makes that move.
"""
from __future__ import annotations

import html
import importlib
import json

import ipywidgets as w

from ..engine import Game, OptionError
from ..engine.counting import for_people
from .gameboard import BoardHost, GameBoard
from .components import Card, CardRow, Pile, safe

ZONE_KINDS = ("hand", "pile", "tableau", "row", "counter")
"""The kinds of zone the generic board draws."""


def zone_key(zone: dict) -> tuple:
    """What tells a zone from the others, in every view of a game: ``(kind, name,
    owner)`` (the board keeps one component per key; the debugger matches zones by it)."""
    return zone.get("kind"), zone.get("name", ""), zone.get("owner")


def zone_count(zone: dict) -> int:
    """How many cards a zone holds: its ``"count"``, else the cards it lists."""
    return zone.get("count", len(zone.get("cards", ())))


class ViewBoard(GameBoard):
    """The board of a game that ships no widget: a view with ``"zones"`` (the zone
    vocabulary, see the module docstring) drawn as a table of card tiles, hidden cards
    as backs, counters and whose turn; a view without zones as indented JSON.

    Components are made the first time their zone appears and updated in place after
    (DESIGN "Widgets"): a long game never grows the widget tree.

    Args:
        app: the app showing the board (:class:`~playtest.widgets.gameboard.BoardHost`).

    Attributes:
        status: whose turn it is, or how the game ended. shared: the shared zones'
            box. seats: the box of the seats' panels. text: the JSON of a view without
            zones. parts: (kind, name, owner) -> the zone's component (a
            :class:`~playtest.widgets.components.Pile`, a
            :class:`~playtest.widgets.components.CardRow` or a counter's ``HTML``).
    """

    def __init__(self, app: BoardHost):
        super().__init__(app)
        game = app.game
        # a click on a card fills the moving seat's argument named "card" (the vocabulary's "arg")
        self.card_args = {kind: ((None, "card"),) for kind, names in game.MOVE_ARGS.items() if "card" in names}
        self.status = w.HTML()
        self.status.add_class("pt-status")
        self.shared = w.HBox(layout=w.Layout(flex_flow="row wrap", align_items="flex-start"))
        self.counters = w.HTML()
        self.seats = w.HBox(layout=w.Layout(flex_flow="row wrap", align_items="flex-start"))
        self.text = w.HTML()
        self.parts: dict[tuple, object] = {}
        self.panels: list[tuple[w.VBox, w.HTML]] = []      # per seat: its panel and its label
        self._keys: list[tuple] = []                        # the zones of the view on show, in order
        self._view: dict = {}

    # --- drawing ----------------------------------------------------------------------
    def update(self, view: dict, clickable: set) -> None:
        """Show ``view``: its zones as a table, or, without ``"zones"``, the view as JSON.

        Raises:
            ValueError: a zone of a kind the vocabulary does not have (the message
                names the kinds it has).
        """
        self._view = view
        if "zones" not in view:
            self.text.value = f"<pre>{html.escape(json.dumps(view, indent=1, default=str))}</pre>"
            if self.widget.children != (self.text,):
                self.widget.children = (self.text,)
            return
        seats = view.get("seats", 0)
        while len(self.panels) < seats:
            label = w.HTML()
            panel = w.VBox([label])
            panel.add_class("pt-seatpanel")       # each seat its own framed block, however many seats
            self.panels.append((panel, label))
        shared, owned = [], [[] for _ in range(seats)]
        shared_counters, seat_counters = [], [[] for _ in range(seats)]
        self._keys = []
        for zone in view["zones"]:
            kind, owner = zone.get("kind"), zone.get("owner")
            if kind not in ZONE_KINDS:
                raise ValueError(f"a zone of kind {kind!r}: the zone vocabulary has {', '.join(ZONE_KINDS)}")
            key = zone_key(zone)
            self._keys.append(key)
            if kind == "counter":
                text = f"{html.escape(str(zone.get('name', '')))}: <b>{html.escape(str(zone.get('value', '')))}</b>"
                (shared_counters if owner is None else seat_counters[owner]).append(text)
                continue
            part = self.parts.get(key) or self._make(key)
            self._show(part, zone, clickable)
            (shared if owner is None else owned[owner]).append(part.widget)
        self.status.value = self._status(view)
        self.counters.value = " · ".join(shared_counters)
        children = tuple(shared) + ((self.counters,) if shared_counters else ())
        if self.shared.children != children:
            self.shared.children = children
        for seat in range(seats):
            panel, label = self.panels[seat]
            label.value = self._seat_label(view, seat, seat_counters[seat])
            (panel.add_class if seat == view.get("turn_seat") else panel.remove_class)("pt-onturn")
            children = (label, *owned[seat])
            if panel.children != children:
                panel.children = children
        shown = tuple(panel for panel, _ in self.panels[:seats])
        if self.seats.children != shown:
            self.seats.children = shown
        if self.widget.children != (self.status, self.shared, self.seats):
            self.widget.children = (self.status, self.shared, self.seats)

    def _make(self, key: tuple):
        """The component of a zone seen for the first time (kept for the next views)."""
        kind, _name, owner = key
        if kind == "pile":
            # its top is never a card to pick; a pile with a "move" makes that move
            part = Pile(on_click=safe(lambda: self._pile_clicked(key), self.app.banner.show))
        else:
            part = CardRow(lambda pos: self._clicked(key, pos))
            part.widget.layout.min_width = "0"
        self.parts[key] = part
        return part

    def _show(self, part, zone: dict, clickable: set) -> None:
        """Draw one zone of cards: face-up cards as faces (lit when a click would use
        them), face-down ones as backs; a hidden hand is drawn small."""
        seat = self._seat_of(zone.get("owner"))
        count = zone_count(zone)
        if zone.get("face") == "down":
            cards = [{"face_up": False}] * count
        else:
            pickable = zone["kind"] != "pile"
            cards = [self._face(card, pickable and (seat, card.get("arg")) in clickable) for card in zone.get("cards", ())]
        name = html.escape(str(zone.get("name", "")))
        if isinstance(part, Pile):
            top = cards[0] if cards and count else {"face_up": None}
            clickable = zone.get("move") is not None and self.offered_move(zone["move"]) is not None
            part.show(f"{zone.get('name', '')}: {count}", **top | {"clickable": clickable})
            return
        part.show(f"<span class='pt-seatlabel'>{name} · {count} card{'s' * (count != 1)}</span>", cards)
        mini = zone.get("face") == "down"
        if mini != ("pt-mini" in part.widget._dom_classes):
            (part.widget.add_class if mini else part.widget.remove_class)("pt-mini")

    @staticmethod
    def _face(card: dict, clickable: bool) -> dict:
        """:meth:`~playtest.widgets.components.Card.show` arguments of one card."""
        if not card.get("face_up", True):
            return {"face_up": False}
        return {"face_up": True, "title": str(card.get("name", "")), "corner": str(card.get("corner", "")),
                "kind": str(card.get("kind", "")), "tooltip": str(card.get("text", "")), "clickable": clickable}

    def _seat_of(self, owner: int | None) -> int | None:
        """The seat a click on a card of a zone owned by ``owner`` is made as: the owner,
        or for a shared zone the viewer (e.g. a card of the supply row to buy)."""
        return self.app.viewer if owner is None else owner

    def _clicked(self, key: tuple, pos: int) -> None:
        """A click on card ``pos`` of a zone: its ``arg`` fills the move being built."""
        if key not in self._keys:
            return
        zone = self._view["zones"][self._keys.index(key)]
        cards = zone.get("cards", ()) if zone.get("face") != "down" else ()
        if pos < len(cards) and cards[pos].get("arg") is not None:
            self.app.card_clicked(self._seat_of(key[2]), cards[pos]["arg"])

    def _pile_clicked(self, key: tuple) -> None:
        """A click on a pile's top: the move its ``"move"`` names, when the viewer is
        offered it now (:meth:`~playtest.widgets.gameboard.GameBoard.offered_move`), is
        played; any other click on a pile does nothing, as a click on a card no move uses."""
        if key not in self._keys:
            return
        kind = self._view["zones"][self._keys.index(key)].get("move")
        move = self.offered_move(kind) if kind is not None else None
        if move is not None:
            self.app.play(move)

    def _status(self, view: dict) -> str:
        """Whose turn, or how the game ended."""
        outcome = view.get("outcome")
        if outcome:
            winners = ", ".join(f"seat {s + 1}" for s in outcome.get("winners", ())) or "nobody"
            return f"<b>Game over</b>: {html.escape(for_people(str(outcome.get('reason', ''))))} — winner: {winners}"
        turn = view.get("turn_seat")
        if turn is None:
            return ""
        return f"<b>{html.escape(self.app.seat_name(turn))}</b> to move"

    def _seat_label(self, view: dict, seat: int, counters: list[str]) -> str:
        marks = [f"<b>{html.escape(self.app.seat_name(seat))}</b>"]
        if seat == view.get("turn_seat"):
            marks.append("<span class='pt-turn'>on turn</span>")
        outcome = view.get("outcome")
        if outcome and seat < len(outcome.get("scores", ())):
            marks.append(f"score {html.escape(str(outcome['scores'][seat]))}")
        return f"<span class='pt-seatlabel'>{' · '.join(marks + counters)}</span>"

    def seat_widget(self, seat: int) -> w.Widget | None:
        """``seat``'s panel (its label and zones)."""
        return self.panels[seat][0] if seat < len(self.panels) else None

    def card_at(self, path: str) -> Card | None:
        """The card drawn at a view path: ``zones.Z.cards.I`` (card I of zone Z),
        ``zones.Z`` (a pile's top card)."""
        parts = path.split(".")
        if parts[0] != "zones" or len(parts) not in (2, 4) or not parts[1].isdigit():
            return None
        index = int(parts[1])
        if index >= len(self._keys) or self._keys[index] not in self.parts:
            return None
        part = self.parts[self._keys[index]]
        if isinstance(part, Pile):
            return part.card if len(parts) == 2 or parts[3] == "0" else None
        if len(parts) == 4 and parts[2] == "cards" and parts[3].isdigit() and int(parts[3]) < len(part.box.children):
            return part.cards[int(parts[3])]
        return None

    # --- labels (the game's MOVE_WORDS, only what the view says) -------------------------
    def move_label(self, kind: str, view: dict) -> str:
        """The button text: ``MOVE_WORDS[kind][0]``, else the kind."""
        return self.app.game.MOVE_WORDS.get(kind, (kind, ""))[0]

    def move_tooltip(self, kind: str, view: dict) -> str:
        """The hover text: ``MOVE_WORDS[kind][1]``."""
        return self.app.game.MOVE_WORDS.get(kind, (kind, ""))[1]

    def arg_label(self, kind: str, name: str, value, view: dict) -> str:
        """A ``card`` argument by the name of the viewer's card whose ``arg`` it is;
        a seat or a position as people count it ("seat 2" for seat 1); any other
        argument as its value."""
        if name == "card":
            for zone in view.get("zones", ()):
                if zone.get("owner") in (None, view.get("viewer")) and zone.get("face") != "down":
                    for card in zone.get("cards", ()):
                        if card.get("arg") == value:
                            return str(card.get("name", value))
        if name in ("seat", "position"):
            return for_people(f"{name} {value}")
        return str(value)


def board_class(game: type[Game]) -> type[GameBoard]:
    """The board that draws ``game``: the one it declares (``Game.BOARD``,
    ``"module:Class"``), or the generic :class:`~playtest.widgets.board.ViewBoard` (a view
    in the zone vocabulary drawn as a table, any other view as JSON).

    Raises:
        OptionError: the declared board does not import or is not a GameBoard (the
            message names the declaration).
    """
    if game.BOARD is None:
        return ViewBoard
    module, _, name = game.BOARD.partition(":")
    try:
        board = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as exc:
        raise OptionError(f"{game.title}'s board {game.BOARD!r} (Game.BOARD, 'module:Class') does not load: "
                          f"{type(exc).__name__}: {exc}") from exc
    if not (isinstance(board, type) and issubclass(board, GameBoard)):
        raise OptionError(f"{game.title}'s board {game.BOARD!r} is not a GameBoard subclass")
    return board
