"""The Night Shift table: both seats' meters (Patience, Effort, Actions, Care Points),
hands, Current Shifts with structure health, Personal Decks and Laundry Baskets, the
Supply Row, Household Supply and Nap Token stack; one button per legal action with its
cost; Activate (NS-9) and a blocked Tidy Up (NS-7) shown as unavailable with the reason.

Built from the generic widgets (:mod:`playtest.widgets`). It renders only view dicts
(``Match.view(seat)``, see :mod:`playtest.games.night_shift.rules`): the opponent's hand
is a row of backs, Personal Decks and the Household Supply are counts.

Its move controls are :class:`ActionButtons`: one button per legal *move* (kind and
arguments), not per kind, so a label can carry the move's cost.
"""
from __future__ import annotations

import html
from collections import Counter
from typing import Callable, Sequence

import ipywidgets as w

from ...engine import Move, get_game
from ...engine.counting import for_people
from ...widgets import CardRow, GameBoard, MoveBuilder, Pile, safe
from ...widgets.gameboard import BoardHost
from .rules import MAX_PATIENCE


def n_cards(n: int) -> str:
    """"1 card", "0 cards", "5 cards"."""
    return f"{n} card" if n == 1 else f"{n} cards"

STYLE = """<style>
.pt-card.pt-kind-unit { background: #eef6ff; border-color: #4a7fc1; }
.pt-card.pt-kind-event { background: #fff0d6; border-color: #c9822b; }
.pt-card.pt-kind-resource { background: #eefbea; border-color: #4f9a3f; }
.pt-card.pt-kind-structure { background: #f3e8ff; border-color: #7b4bb7; border-width: 2px; }
.ns-table .pt-card.jupyter-button, .ns-table .pt-card.widget-button { width: 78px; height: 76px; font-size: 10.5px; }
.ns-meters { font-size: 13px; line-height: 1.5; }
.ns-meters .ns-bar { display: inline-block; vertical-align: middle; width: 110px; height: 10px;
  background: rgba(255,255,255,.25); border-radius: 5px; overflow: hidden; margin: 0 4px; }
.ns-meters .ns-fill { display: block; height: 100%; background: #ffd54a; }
.ns-meters .ns-fill.ns-low { background: #ff7a6b; }
.ns-meters .ns-num { font-weight: 700; font-size: 15px; }
.ns-meter { display: inline-block; margin-right: 16px; }
.ns-seat { border-top: 1px solid rgba(255,255,255,.25); padding-top: 2px; margin-top: 2px; }
.ns-basket .widget-html-content { font-size: 11px; max-width: 200px; white-space: normal; line-height: 1.3; }
.ns-middle { background: rgba(0,0,0,.12); border-radius: 8px; padding: 2px 8px; margin: 2px 0; }
.ns-result { background: #ffd54a; color: #222; border-radius: 6px; padding: 2px 8px; }
.ns-unavailable.jupyter-button { background: #e6e3da; color: #666; border: 1px dashed #999; }
.ns-why .widget-html-content { font-size: 12px; color: #555; white-space: normal; max-width: 420px; line-height: 1.3; }
</style>"""

RULES_HTML = """
<p><b>Goal.</b> Two players, each with a Personal Deck, 25 Patience, 0 Effort and 3 Actions.
Score the most Care Points; a player whose Patience reaches 0 loses at once. The game ends
after the Shift in which the Household Supply runs out, or after Shift 50; then most Care
Points wins, then most Patience (NS-10).</p>
<p><b>Your Shift</b> (NS-6): Effort goes to 0, Actions to 3, then your structures give their
effect. Each action costs 1 Action (NS-2..NS-8):</p>
<ul>
<li><b>Play</b> a card from your hand, paying its printed Effort cost (cards with no cost are
free): units, events and resources act at once; a structure stays in your Current Shift and
acts at the start of each of your later Shifts (NS-3).</li>
<li><b>Buy</b> a card of the Supply Row (refilled at once) or the top Nap Token, paying its
cost; it goes to your Laundry Basket (NS-4).</li>
<li><b>Tidy Up</b>: all your Effort becomes Patience (max 25); needs 1+ Effort and no
opponent structure in play (NS-7).</li>
<li><b>Settle</b> an opponent's structure: pay Effort equal to its health; it goes to its
owner's Laundry Basket (NS-8).</li>
</ul>
<p><b>End Shift</b> (free): your hand and played cards (not structures) go to your Laundry
Basket, then you draw 5 (NS-5: as written, an empty Personal Deck draws nothing; the
reshuffle option refills it from the Laundry Basket). Activate is never available: no card
has an ability (NS-9).</p>
"""
"""The "How to play" panel of the Night Shift app (rulebook with RULINGS NS-1..NS-10)."""

_TIPS = {"play": "NS-2: 1 Action plus the printed Effort cost; structures stay in your Current Shift (NS-3)",
         "buy": "NS-4: 1 Action plus the printed cost; the card goes to your Laundry Basket",
         "tidy": "NS-7: 1 Action; all your Effort becomes Patience (at most 25)",
         "settle": "NS-8: 1 Action plus Effort equal to the structure's health; it goes to its owner's "
                   "Laundry Basket",
         "end": "NS-5/NS-6: Lights Out (hand and played non-structures to the Laundry Basket, draw 5); "
                "then the other seat's Shift"}


def flat_kind(move: Move) -> str:
    """The button key of a move: ``"end"``, ``"tidy"``, ``"play:Laundry Load"``."""
    return ":".join([move.kind, *map(str, move.args)])


class ActionButtons(MoveBuilder):
    """Move controls with one button per legal move (kind and arguments), labelled by
    ``labels.move_label(flat_kind(move), view)`` so that a label can say the cost, e.g.
    "Buy Coffee Refill (1 Action + 2 Effort)". A click plays the move at once.

    Args:
        keys: the flat kinds (see :func:`flat_kind`) whose buttons are made up front (a
            hidden button is blank, so which buttons exist tells nothing); others are
            made when first needed.
        labels, on_move, report, title: as for :class:`~playtest.widgets.MoveBuilder`;
            ``on_move`` gets the real :class:`~playtest.engine.Move`.

    Double clicks: the builder's two button pools switch at every new decision, so the
    second click of a double click lands on a button no longer shown and is ignored.
    """

    def __init__(self, keys: Sequence[str], labels, on_move: Callable[[Move], None], title: str = "",
                 report: Callable[[Exception], None] | None = None):
        self._real: dict[str, Move] = {}
        super().__init__({k: () for k in keys}, labels, lambda flat: on_move(self._real[flat.kind]),
                         title=title, report=report)
        self.kind_box.add_class("ns-actions")

    def show(self, seat: int | None, moves: Sequence[Move], view: dict, enabled: bool = True,
             note: str = "", decision=None) -> None:
        """Offer ``moves`` (real moves of ``seat``), one button each."""
        self._real = {flat_kind(m): m for m in moves}
        super().show(seat, [Move(m.seat, flat_kind(m)) for m in moves], view, enabled, note, decision)

    def labels_shown(self) -> list[str]:
        """The texts of the buttons on show, in order."""
        return [b.description for b in self.kind_box.children]

    def click(self, label: str) -> None:
        """Click the button on show whose text is ``label`` (or starts with it).

        Raises:
            KeyError: no such button on show.
        """
        for button in self.kind_box.children:
            if button.description == label:
                return button.click()
        for button in self.kind_box.children:
            if button.description.startswith(label):
                return button.click()
        raise KeyError(f"no button {label!r} on show; on show: {self.labels_shown()}")


class SeatPanel:
    """One seat's part of the table: meters, hand, Current Shift, Personal Deck and
    Laundry Basket. Built once; :meth:`show` updates it in place."""

    def __init__(self):
        self.meters = w.HTML()
        self.meters.add_class("ns-meters")
        self.hand = CardRow()
        self.shift = CardRow()
        self.deck = Pile()
        self.basket = Pile()
        self.basket_list = w.HTML()
        self.basket_list.add_class("ns-basket")
        self.piles = piles = w.HBox([self.deck.widget, self.basket.widget, self.basket_list],
                                    layout=w.Layout(align_items="flex-start"))
        rows = w.HBox([self.hand.widget, self.shift.widget], layout=w.Layout(flex_flow="row wrap"))
        self.widget = w.VBox([self.meters, w.HBox([rows, piles], layout=w.Layout(flex_flow="row wrap"))])
        self.widget.add_class("ns-seat")

    def show(self, name: str, player: dict, on_turn: bool, viewer: int | None) -> None:
        """Show ``player`` (one entry of the view's ``players``), labelled ``name``."""
        seat = player["seat"]
        turn = " <span class='pt-turn'>on Shift</span>" if on_turn else ""
        self.meters.value = (f"<span class='pt-seatlabel'><b>{html.escape(name)}</b>{turn}</span> "
                             + meters_html(player))
        hand = player["hand"]
        # the other seat's hidden hand and piles: small cards (their counts are in the captions)
        for part in (self.hand.widget, self.piles):
            if seat != viewer:
                part.add_class("pt-mini")
            else:
                part.remove_class("pt-mini")
        if hand is None:
            cards = [{"face_up": False}] * player["hand_count"]
            label = f"Hand: {n_cards(player['hand_count'])}, hidden"
        else:
            cards = [card_face(c) for c in hand]
            label = f"Hand: {n_cards(len(hand))}" + (" (yours)" if seat == viewer else "")
        self.hand.show(f"<span class='pt-caption'>{html.escape(label)}</span>", cards)
        current = player["current_shift"]
        if current:
            self.shift.widget.remove_class("pt-mini")
        else:                               # an empty Current Shift: a small empty slot
            self.shift.widget.add_class("pt-mini")
        self.shift.show(f"<span class='pt-caption'>Current Shift: {n_cards(len(current))}</span>",
                 [card_face(c) for c in current] or [{"face_up": None}])
        count = player["deck_count"]
        self.deck.show(f"Personal Deck: {count}", face_up=False if count else None)
        basket = player["laundry_basket"]
        top = basket[-1] if basket else None
        self.basket.show(f"Laundry Basket: {player['basket_count']}", **(card_face(top) if top else {"face_up": None}))
        tally = Counter(c["name"] for c in basket)
        self.basket_list.value = ("<b>In the basket</b> (face up):<br>" + ", ".join(
            f"{html.escape(n)} ×{k}" for n, k in sorted(tally.items()))) if tally else ""


def meters_html(player: dict) -> str:
    """Patience (a bar out of 25), Effort, Actions (a bar out of 3) and Care Points."""
    patience, actions = player["patience"], player["actions"]

    def bar(value, top, low):
        width = max(0, min(100, round(100 * value / top)))
        return (f"<span class='ns-bar'><span class='ns-fill{' ns-low' if low else ''}' "
                f"style='width:{width}%'></span></span>")

    return (f"<span class='ns-meter' title='NS-6/NS-10: 0..25; at 0 you lose'>Patience"
            f"{bar(patience, MAX_PATIENCE, patience <= 8)}<span class='ns-num'>{patience}</span>/{MAX_PATIENCE}</span>"
            f"<span class='ns-meter' title='NS-6: 0 at the start of your Shift'>Effort "
            f"<span class='ns-num'>{player['effort']}</span></span>"
            f"<span class='ns-meter' title='NS-6: 3 at the start of your Shift'>Actions"
            f"{bar(actions, 3, False)}<span class='ns-num'>{actions}</span>/3</span>"
            f"<span class='ns-meter' title='NS-10: most Care Points wins'>Care Points "
            f"<span class='ns-num'>{player['care']}</span></span>")


def card_face(card: dict) -> dict:
    """:meth:`Card.show` arguments of a face-up Night Shift card: name, then its cost
    ("–" for no printed cost) and, for a structure, its health."""
    cost = "–" if card["cost"] is None else str(card["cost"])
    corner = f"cost {cost}"
    if card["type"] == "structure":
        corner += f" ♥{card['health']}"
    tip = f"{card['type']}: {card['text']}" if card["text"] else card["type"]
    return {"face_up": True, "title": card["name"], "corner": corner, "kind": card["type"], "tooltip": tip}


class NightShiftBoard(GameBoard):
    """The Night Shift table for :class:`~playtest.widgets.GameApp`: the opponent's seat on top, the
    Supply Row, Household Supply and Nap Token stack in the middle, the viewing seat
    (seat 0 for the spectator) at the bottom; a status line and the final result.

    It also owns the "not available now" controls (:attr:`unavailable`): Activate, never
    offered (NS-9), and Tidy Up while it is the viewer's Shift but Tidy Up is not legal
    (NS-7); clicking one sends the move, and the error banner says why it is refused.
    And :attr:`skip`, "End my empty Shifts", shown while End Shift is the viewer's only
    move (as written, NS-5, both decks run dry and a game may need 20-odd End Shifts
    to reach Shift 50, NS-10): it ends the viewer's Shifts until another action is
    possible or the game is over (:meth:`end_empty_shifts`).
    """

    rules_html = RULES_HTML

    def __init__(self, app: BoardHost):
        super().__init__(app)
        self.status = w.HTML()
        self.status.add_class("pt-status")
        self.seats = [SeatPanel(), SeatPanel()]          # [top, bottom]
        self.row = CardRow()
        self.supply = Pile()
        self.naps = Pile()
        middle = w.HBox([self.row.widget, self.supply.widget, self.naps.widget],
                        layout=w.Layout(align_items="flex-start", flex_flow="row wrap"))
        middle.add_class("ns-middle")
        self.widget.add_class("ns-table")
        self.widget.children = (w.HTML(STYLE), self.status, self.seats[0].widget, middle, self.seats[1].widget)
        self.activate = w.Button(description="Activate an ability (1 Action)", layout=w.Layout(width="auto"),
                                 tooltip="NS-9: no card has an ability, so this action is never offered")
        self.tidy = w.Button(description="Tidy Up (1 Action + all Effort)", layout=w.Layout(width="auto"),
                             tooltip=_TIPS["tidy"])
        for button in (self.activate, self.tidy):
            button.add_class("ns-unavailable")
        self.activate.on_click(safe(lambda _b: self._refused("activate"), app.banner.show))
        self.tidy.on_click(safe(lambda _b: self._refused("tidy"), app.banner.show))
        self.why = w.HTML()
        self.why.add_class("ns-why")
        self.skip = w.Button(description="End my empty Shifts (until I can do something else)",
                             icon="forward", button_style="warning", layout=w.Layout(width="auto", display="none"),
                             tooltip="NS-5/NS-10: End Shift each time it is your only move, until another "
                                     "action is possible or the game ends")
        self.skip.add_class("ns-skip")
        self.skip.on_click(safe(lambda _b: self.end_empty_shifts(), app.banner.show))
        self.unavailable = w.VBox([w.HTML("<b>Not available now</b>"), w.HBox([self.activate, self.tidy]), self.why],
                                  layout=w.Layout(display="none"))
        self.extra_controls = [self.skip, self.unavailable]
        self._view: dict = {}
        self._panels: dict[int, SeatPanel] = {}          # seat -> the panel drawing it now

    def make_move_controls(self, on_move: Callable[[Move], None],
                           report: Callable[[Exception], None] | None) -> MoveBuilder:
        """:class:`ActionButtons` for every move Night Shift can offer."""
        return ActionButtons(_move_keys(get_game("night_shift")), self, on_move, title="Your move", report=report)

    def seat_widget(self, seat: int) -> w.Widget | None:
        """The panel showing ``seat`` now (top or bottom, by the viewer)."""
        panel = self._panels.get(seat)
        return panel.widget if panel else None

    def card_at(self, path: str):
        """The card drawn for a view path: ``players.S.hand.P``,
        ``players.S.current_shift.P``, ``players.S.laundry_basket`` (its top),
        ``players.S.deck_count`` (the Personal Deck), ``supply_row.P``, ``nap_card``,
        ``household_supply``."""
        parts = path.split(".")
        if path in ("nap_card", "household_supply"):
            return (self.naps if path == "nap_card" else self.supply).card
        if len(parts) == 2 and parts[0] == "supply_row" and parts[1].isdigit():
            return self._row_card(self.row, int(parts[1]))
        if len(parts) < 3 or parts[0] != "players" or not parts[1].isdigit() or int(parts[1]) not in self._panels:
            return None
        panel = self._panels[int(parts[1])]
        if len(parts) == 4 and parts[2] in ("hand", "current_shift") and parts[3].isdigit():
            return self._row_card(panel.hand if parts[2] == "hand" else panel.shift, int(parts[3]))
        return {"laundry_basket": panel.basket.card, "deck_count": panel.deck.card}.get(parts[2]) if len(parts) == 3 \
            else None

    @staticmethod
    def _row_card(row: CardRow, pos: int):
        return row.cards[pos] if pos < len(row.box.children) else None

    def end_empty_shifts(self) -> int:
        """"End my empty Shifts": End Shift for the viewer, again and again while it is
        the viewer's only move (the bots take their Shifts between), until another
        action is possible, the game is over or the position stops changing (a live
        table answers later). Returns how many Shifts were ended (NS-5, NS-10)."""
        viewer, ended = self.app.viewer, 0
        while viewer is not None and self.app.live and ended < 2 * self._view.get("turn_limit", 50):
            moves = self.app.decision_moves(viewer)
            if [m.kind for m in moves] != ["end"]:
                break
            before = self._view
            self.app.play(moves[0])
            ended += 1
            if self._view is before:     # not redrawn: the move was sent elsewhere (a live table)
                break
        return ended

    def update(self, view: dict, clickable: set) -> None:
        """Show a Night Shift view dict (``Match.view``; viewer None = spectator)."""
        self._view = view
        viewer = view["viewer"]
        bottom = viewer if viewer is not None else 0
        self.status.value = self._status(view)
        for panel, seat in zip(self.seats, (1 - bottom, bottom)):
            panel.show(self.app.seat_name(seat), view["players"][seat], seat == view["turn_seat"], viewer)
            self._panels[seat] = panel
        row = view["supply_row"]
        self.row.show(f"<span class='pt-caption'>Supply Row: {n_cards(len(row))}, buy for 1 Action + "
                           "the cost (NS-4)</span>", [card_face(c) for c in row] or [{"face_up": None}])
        left = view["household_supply"]
        self.supply.show(f"Household Supply: {left}", face_up=False if left else None)
        nap = view["nap_card"]
        self.naps.show(f"Nap Tokens: {view['nap_tokens']} (never refills)",
                       **(card_face(nap) if nap else {"face_up": None}))
        self._unavailable(view)

    def _status(self, view: dict) -> str:
        parts = [f"<b>Shift {view['shift']} of {view['turn_limit']}</b>"]
        outcome = view["outcome"]
        if outcome:
            winners = outcome["winners"]
            who = " and ".join(html.escape(self.app.seat_name(s)) for s in winners) or "nobody (a draw)"
            verb = "wins" if len(winners) == 1 else ""
            head = "Game over" if outcome["finished"] else "Game stopped unfinished"
            order = list(winners) + [s for s in range(len(outcome["scores"])) if s not in winners]
            scores = ", ".join(f"seat {s + 1} {outcome['scores'][s]}" for s in order)   # the winner's first
            parts.append(f"<span class='ns-result'><b>{head}</b>: {who} {verb} · Care Points {scores}</span> "
                         f"<i>{html.escape(for_people(outcome['reason']))}</i>")
        else:
            parts.append(f"{html.escape(self.app.seat_name(view['turn_seat']))} on Shift")
        opts = view["options"]
        parts.append("reshuffle on (NS-5)" if opts["reshuffle"] else "no reshuffle, as written (NS-5)")
        if opts["play_cost"] == "free":
            parts.append("playing is free (NS-2)")
        return " · ".join(parts)

    def _unavailable(self, view: dict) -> None:
        """Show Activate (NS-9) and, if not on offer, Tidy Up (NS-7) with the reason,
        while it is the viewer's Shift in a live game."""
        viewer = view["viewer"]
        mine = (viewer is not None and viewer == view["turn_seat"] and self.app.live
                and view["outcome"] is None)
        self.unavailable.layout.display = None if mine else "none"
        only_end = mine and [m.kind for m in self.app.decision_moves(viewer)] == ["end"]
        self.skip.layout.display = None if only_end else "none"
        if not mine:
            self.why.value = ""
            return
        reasons = ["Activate: no card has an ability to activate (NS-9)."]
        tidy_reason = self._tidy_reason(view)
        self.tidy.layout.display = None if tidy_reason else "none"
        if tidy_reason:
            reasons.append(f"Tidy Up: {tidy_reason} (NS-7).")
        self.why.value = " ".join(html.escape(r) for r in reasons)

    @staticmethod
    def _tidy_reason(view: dict) -> str:
        """Why the viewer may not Tidy Up now, from the view ("" if they may)."""
        me = view["players"][view["viewer"]]
        them = view["players"][1 - view["viewer"]]
        blockers = [c["name"] for c in them["current_shift"] if c["type"] == "structure"]
        if me["actions"] < 1:
            return "no Actions left"
        if blockers:
            return f"blocked while the opponent has a structure in play ({', '.join(blockers)})"
        if me["effort"] < 1:
            return "needs at least 1 Effort"
        return ""

    def _refused(self, kind: str) -> None:
        """An unavailable action was clicked: send it (the engine refuses it and the
        banner says why). A stale click on Tidy Up once it is legal is ignored."""
        viewer = self.app.viewer
        if viewer is None or not self.app.live:
            return
        if any(m.kind == kind for m in self.app.decision_moves(viewer)):
            return
        self.app.play(Move(viewer, kind))

    # --- labels (only from the view) ---------------------------------------------------
    def move_label(self, kind: str, view: dict) -> str:
        """"Play Laundry Load (1 Action)", "Buy Coffee Refill (1 Action + 2 Effort)",
        "Settle Chore Chart (1 Action + 4 Effort)", "Tidy Up (1 Action + all 5 Effort)",
        "End Shift (no cost)"; ``kind`` is a :func:`flat_kind`."""
        base, _, name = kind.partition(":")
        if base == "end":
            return "End Shift (no cost)"
        if base == "tidy":
            effort = view["players"][view["viewer"]]["effort"]
            return f"Tidy Up (1 Action + all {effort} Effort → Patience)"
        card = self._card(base, name, view)
        if base == "settle":
            return f"Settle {name} (1 Action + {card['health'] if card else '?'} Effort)"
        cost = card["cost"] if card else None
        if base == "play" and view["options"]["play_cost"] == "free":
            cost = None
        price = f"1 Action + {cost} Effort" if cost else "1 Action"
        nap = view["nap_card"]
        where = " from the stack" if base == "buy" and nap and nap["name"] == name else ""
        return f"{base.capitalize()} {name}{where} ({price})"

    def describe(self, move: Move, view: dict) -> str:
        """A move in the words of its button, e.g. "Buy Coffee Refill (1 Action + 2 Effort)"."""
        return self.move_label(flat_kind(move), view)

    def move_tooltip(self, kind: str, view: dict) -> str:
        """Hover text citing the ruling, and the card's text."""
        base, _, name = kind.partition(":")
        card = self._card(base, name, view) if name else None
        return _TIPS.get(base, "") + (f" — the card: {card['text']}" if card and card["text"] else "")

    @staticmethod
    def _card(base: str, name: str, view: dict) -> dict | None:
        """The view's card dict a move names (hand, Supply Row, Nap stack, opponent's
        Current Shift), or None."""
        viewer = view["viewer"]
        if viewer is None:
            return None
        if base == "play":
            pool = view["players"][viewer]["hand"] or []
        elif base == "buy":
            pool = list(view["supply_row"]) + ([view["nap_card"]] if view["nap_card"] else [])
        else:
            pool = view["players"][1 - viewer]["current_shift"]
        return next((c for c in pool if c["name"] == name), None)


def _move_keys(game) -> list[str]:
    """Every flat move kind a Night Shift game can offer (see :func:`flat_kind`)."""
    specs = game.CARD_SPECS
    return ([f"play:{c.name}" for c in specs] + [f"buy:{c.name}" for c in specs if c.where != "starter"]
            + ["tidy"] + [f"settle:{c.name}" for c in specs if c.type == "structure"] + ["end"])

