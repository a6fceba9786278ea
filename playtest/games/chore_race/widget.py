"""The Chore Race table: every seat's tableau of chores (progress against target, ability),
the hand of the seat in control (face-up to that seat only), the play slots, the reaction
prompt, Family Meeting choices, scores with leader protection and catch-up, the decks and
discard piles, built from the generic widgets (:mod:`playtest.widgets`).

It renders only view dicts (``Match.view(seat)``, shape in :mod:`.rules`): another
seat's hand is a row of card backs unless the view reveals it (CR-9, CR-10, CR-21), a
Family Meeting choice shows only to the seat that made it (CR-8), and the decks show
their sizes only.

Clicks: a chore fills a chore argument (Done, Finally!, I'll Do It Later, place, score;
an opponent's chore for Inspection, Chore Swap and the Attic trigger); any card of a seat
fills a seat argument (Delegate, Teamwork, the steal trigger). A card of your hand does
what its button does: it plays its move (Excuse, Dodge, Family Meeting, a Done with one
possible chore) or, with several targets, selects it for the click on the target; it is
the card to discard once "Discard a card" and its slot are chosen, and one of the cards
to pass in a Family Meeting (in any order; then Play).

Generic pieces written here for now (candidates for :mod:`playtest.widgets`):
:class:`PresetPicker` (game ``PRESETS`` in the new-game panel) and the hand-card picks of
:meth:`ChoreRaceBoard.hand_clicked` (arguments whose values are card names, not
positions).
"""
from __future__ import annotations

import html

import ipywidgets as w

from ...engine import Move
from ...engine.counting import for_people
from ...widgets import CardRow, GameApp, GameBoard, Pile
from .cards import CARDS, HAND_CAP, MEETING_PASS, PROTECT_VP
from .rules import ChoreRace

ACTION_TEXT = {a.name: a.text for a in CARDS.action}
ACTION_KIND = {a.name: a.kind for a in CARDS.action}
CHORE_TEXT = {c.name: c.text for c in CARDS.chore}
CARD_TEXT = {**ACTION_TEXT, **CHORE_TEXT}
"""Printed card text by card name (public card data, shown as hover text)."""

ABILITY = {"": "", "steal": "On score: steal a card", "attic": "On score: −2 progress to a foe",
           "no_delegate": "Immune to Delegate", "wipe": "Blocks 1st Inspection", "garage": "5 VP if a foe has 7+"}
"""The short ability line printed on a chore card (CR-2); the full text is the hover text."""

CARD_MOVES = {"done": ("done",), "finally": ("finally",), "inspection": ("inspection",), "delegate": ("delegate",),
              "teamwork": ("teamwork",), "swap": ("swap",), "meeting": ("meeting",), "later": ("later", "dodge"),
              "excuse": ("excuse",)}
"""Card key -> the move kinds a click on that card in hand may start (the one on offer
now): I'll Do It Later is played as itself on your turn (CR-12) or as Dodge when
inspected (CR-7); Excuse is a reaction (CR-7)."""

_PHASE = {"play": "play step", "react": "reaction window (CR-7)", "place": "placing a Done (CR-9/CR-10)",
          "meeting": "Family Meeting (CR-8)", "score": "score step (CR-14)", "trigger": "chore trigger (CR-2)",
          "over": "game over"}

_IF_LET = {
    "inspection": "Let it happen and that chore loses 1 progress (CR-13).",
    "delegate": "Let it happen and, if you hold a Done, you place one on a chore of theirs (their choice); "
                "if not, your hand is shown to everyone (CR-9).",
    "teamwork": "Let it happen and both hands are shown; if you hold a Done, you each place one on their chores "
                "(CR-10).",
    "swap": "Let it happen and the two chores change hands, each with its progress (CR-11).",
}
"""What a targeted action does to its target if let happen (CR-7: Inspection, Delegate,
Chore Swap, Teamwork), told to the target before it answers."""

_TIPS = {
    "done": "CR-5: +1 progress on one of your chores (uses the progress slot)",
    "finally": "CR-5: +3 progress on one of your chores; nothing can react (progress slot)",
    "discard": "CR-4: use a slot to discard one card from your hand",
    "inspection": "CR-13: -1 progress on an opponent's chore that has 1+ (action slot; the target may react, CR-7)",
    "delegate": "CR-9: the opponent places a Done on your chore, or shows their hand (action slot; CR-7)",
    "teamwork": "CR-10: both hands are shown; Done cards go on your chores (action slot; CR-7)",
    "swap": "CR-11: trade one of your chores for an opponent's, progress and all (action slot; CR-7)",
    "meeting": "CR-8: everyone secretly passes 3 cards to seat+1 (action slot; cannot be cancelled)",
    "later": "CR-12: discard one of your chores (no VP) and draw a replacement (action slot)",
    "end": "CR-4: leave the unused slots and go to the score step (CR-14)",
    "excuse": "CR-7: cancel the action; both cards go to the discard pile",
    "dodge": "CR-7: cancel the Inspection with this card instead",
    "accept": "CR-7: let the action resolve",
    "place": "CR-9/CR-10: choose the chore of yours that gets the Done",
    "stop": "CR-10: place no more of your own Done cards",
    "give": "CR-8: choose the cards you pass to the player on your left (secret until all have chosen)",
    "score": "CR-14: complete your chores one at a time, in the order you choose",
    "steal": "CR-2 Take Out the Trash: steal 1 random card from the opponent you choose",
    "attic": "CR-2 Reorganize the Attic: remove up to 2 progress from an opponent's chore",
}


RULES_HTML = """
<p><b>Goal.</b> Be the first to reach the target VP (15; Quick Game 10, Long Game 20, CR-17)
by completing chores. A chore of level 2, 3 or 4 needs that many progress and scores that
many VP (CR-2); some have an ability (hover a chore to read it).</p>
<p><b>Your turn</b>: 1. <i>Draw</i> 1 action card, never past a hand of 7 (2 with the catch-up
rule: 0 VP while an opponent has 5+, CR-3, CR-15). 2. <i>Play</i>: two slots, each used at
most once — a progress card (Done +1, Finally! +3 on one of your chores) and an action card;
either slot may instead discard a card, or stay unused (CR-4, CR-5). 3. <i>Score</i> your
complete chores one at a time, in your order, then refill your tableau (CR-14). Each chore's
VP count at once: the chore that reaches the target wins the game there, and its trigger
does not resolve (CR-14, CR-17).</p>
<p><b>Actions</b>: Inspection (−1 progress on an opponent's chore with 1+, CR-13), Delegate
(the opponent places a Done on your chore, or shows their hand, CR-9), Teamwork (both hands
shown; Done cards go on your chores, CR-10), Chore Swap (trade a chore, progress and all,
CR-11), Family Meeting (everyone secretly passes 3 cards to the next seat, CR-8), I'll Do It
Later (discard one of your chores, draw a replacement, CR-12).</p>
<p><b>Reacting</b> (CR-7): when Inspection, Delegate, Chore Swap or Teamwork targets you, you
may answer with Excuse (cancels it) or, against Inspection, I'll Do It Later as Dodge.
Reactions use no slot.</p>
<p><b>Leader protection</b> (CR-16): the first time a player reaches 8+ VP, nobody may target
them until their next turn. Hands are secret; tableaus and scores are public (CR-21).</p>
"""
"""The "How to play" panel of the Chore Race app (rulebook with RULINGS CR-1..CR-21)."""

STYLE = """<style>
.cr-board .pt-card.pt-kind-chore2, .cr-board .pt-card.pt-kind-chore3, .cr-board .pt-card.pt-kind-chore4 {
  width: 112px; height: 104px; font-size: 11.5px; }
.cr-board .pt-card.pt-kind-chore2 { background: #e9f6e4; border: 2px solid #5b9a4a; }
.cr-board .pt-card.pt-kind-chore3 { background: #e6f0fb; border: 2px solid #4a78b0; }
.cr-board .pt-card.pt-kind-chore4 { background: #f6e8f7; border: 2px solid #8a4a9a; }
.cr-board .pt-card.pt-kind-action { background: #fff0d6; border-color: #c9822b; }
.cr-board .pt-card.pt-kind-reaction { background: #ffe0e0; border: 1px solid #c0392b; }
.cr-board .pt-card.pt-kind-progress { background: #fffbe0; border: 1px solid #b59a1b; }
.cr-seat { background: rgba(0,0,0,.13); border-radius: 10px; padding: 4px 8px; margin: 3px; flex: 1 1 520px; }
.cr-seat.cr-me { flex-basis: 100%; }
.cr-seat:not(.cr-me) .pt-card.pt-kind-chore2, .cr-seat:not(.cr-me) .pt-card.pt-kind-chore3,
.cr-seat:not(.cr-me) .pt-card.pt-kind-chore4 { width: 100px; height: 84px; font-size: 10.5px; }
.cr-seat.cr-turn { box-shadow: 0 0 0 3px #ffd54a; }
.cr-seat .pt-row { min-width: 0; flex: 0 1 auto; border-top: none; margin-right: 14px !important; }
.cr-badge { border-radius: 4px; padding: 0 5px; margin-left: 4px; font-size: 12px; }
.cr-used { background: #b0b0b0; color: #222; } .cr-free { background: #8fe08f; color: #143; }
.cr-prot { background: #7fd3ff; color: #123; } .cr-catch { background: #ffcf7f; color: #321; }
.cr-turnmark { background: #ffd54a; color: #222; }
.cr-prompt .widget-html-content { background: #fff8d0; color: #3a2c00 !important; border-radius: 8px;
  padding: 6px 10px; font-size: 15px; display: block; }
.cr-vp { font-size: 15px; font-weight: 700; }
</style>"""


def _count(n: int, word: str) -> str:
    """"1 card", "2 cards"."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _chore_card(chore: dict, clickable: bool, highlight: bool) -> dict:
    """Card.show arguments of one chore of a tableau (public, CR-21)."""
    level, progress = chore["level"], chore["progress"]
    dots = "●" * min(progress, level) + "○" * max(level - progress, 0)
    ability = ABILITY.get(chore["ability"], "")
    if chore["ability"] == "wipe" and chore["wipe_used"]:
        ability += " (used)"
    under = ", ".join(chore["cards"]) or "none"
    tip = (f"{chore['name']}: level {level}, needs {level} progress, {level} VP. "
           f"{CHORE_TEXT.get(chore['name'], '')} Cards under it: {under} (CR-6).")
    return {"face_up": True, "title": chore["name"], "corner": f"{progress}/{level} {dots}\n{ability}".rstrip(),
            "kind": f"chore{min(max(level, 2), 4)}", "tooltip": tip, "clickable": clickable, "highlight": highlight}


def _action_card(name: str, clickable: bool = False, highlight: bool = False) -> dict:
    """Card.show arguments of a face-up action card."""
    kind = ACTION_KIND.get(name, "")
    return {"face_up": True, "title": name, "corner": kind, "tooltip": ACTION_TEXT.get(name, ""),
            "kind": kind if kind in ("reaction", "progress") else "action", "clickable": clickable,
            "highlight": highlight}


class _SeatPanel:
    """One seat's area: label, tableau, hand, and (viewer only) the Family Meeting pass."""

    def __init__(self, board: "ChoreRaceBoard", seat: int):
        self.label = w.HTML()
        self.tableau = CardRow(lambda pos: board.app.card_clicked(seat, pos))
        self.hand = CardRow(lambda pos: board.hand_clicked(seat, pos))
        self.passing = CardRow()
        self.widget = w.VBox([self.label, w.HBox([self.tableau.widget, self.hand.widget, self.passing.widget],
                                                 layout=w.Layout(flex_flow="row wrap"))])
        self.widget.add_class("cr-seat")


class ChoreRaceBoard(GameBoard):
    """The Chore Race table for :class:`~playtest.widgets.GameApp` (see the module
    docstring for what a click does). Built once; :meth:`update` redraws in place."""

    card_args = {
        "done": ((None, "chore"),), "finally": ((None, "chore"),), "later": ((None, "chore"),),
        "place": ((None, "chore"),), "score": ((None, "chore"),),
        "inspection": (("seat", "chore"),), "attic": (("seat", "chore"),),
        "delegate": (("seat", None),), "teamwork": (("seat", None),), "steal": (("seat", None),),
        "swap": ((None, "chore"), ("seat", "their_chore")),
    }
    unordered_args = {"give": ((0,), (1,), (2,))}   # CR-8: the cards passed are a set
    rules_html = RULES_HTML

    def __init__(self, app: GameApp):
        super().__init__(app)
        self.view: dict = {}
        self.picked: list[int] = []          # hand positions picked for a Family Meeting pass
        self._hinted = False                 # the move builder's hint shows the pass being built
        self.status = w.HTML()
        self.status.add_class("pt-status")
        self.prompt = w.HTML()
        self.prompt.add_class("cr-prompt")
        self.action_deck, self.discard = Pile(), Pile()
        self.chore_deck, self.chore_discard = Pile(), Pile()
        piles = w.HBox([self.action_deck.widget, self.discard.widget, self.chore_deck.widget,
                        self.chore_discard.widget], layout=w.Layout(align_items="flex-start", flex_flow="row wrap"))
        piles.add_class("pt-mini")                # the piles' sizes are in their captions
        self.seats: list[_SeatPanel] = []
        # opponents side by side; the viewer's own panel last, right above the move controls
        self.seat_box = w.Box(layout=w.Layout(flex_flow="row wrap"))
        top = w.HBox([self.status, piles], layout=w.Layout(flex_flow="row wrap", align_items="center",
                                                           justify_content="space-between"))
        self.widget.children = (w.HTML(STYLE), top, self.prompt, self.seat_box)
        self.widget.add_class("cr-board")

    # --- drawing -----------------------------------------------------------------------
    def seat_widget(self, seat: int) -> w.Widget | None:
        """``seat``'s panel (label, tableau, hand)."""
        return self.seats[seat].widget if seat < len(self.seats) else None

    def card_at(self, path: str):
        """The card drawn for a view path: ``tableaus.S.P`` (seat S's chore P),
        ``hand.P`` (the viewer's hand card P), ``hand_sizes.S.P`` (card P of seat S's
        hand row, face-down or revealed), ``action_discard``, ``action_deck``,
        ``chore_deck``, ``chore_discard`` (the pile's top)."""
        piles = {"action_discard": self.discard, "action_deck": self.action_deck, "chore_deck": self.chore_deck,
                 "chore_discard": self.chore_discard}
        if path in piles:
            return piles[path].card
        head, *rest = path.split(".")
        if not all(p.isdigit() for p in rest):
            return None
        numbers = [int(p) for p in rest]
        if head == "hand" and len(numbers) == 1:
            seat, pos, part = self.view.get("viewer"), numbers[0], "hand"
        elif head in ("tableaus", "hand_sizes") and len(numbers) == 2:
            (seat, pos), part = numbers, "tableau" if head == "tableaus" else "hand"
        else:
            return None
        if seat is None or seat >= min(len(self.seats), self.view.get("seats", 0)):
            return None
        row = getattr(self.seats[seat], part)
        return row.cards[pos] if pos < len(row.box.children) else None

    def update(self, view: dict, clickable: set) -> None:
        """Show a Chore Race view dict; ``clickable`` = the (seat, position) cards a click
        would use now ((seat, None): any card of that seat)."""
        self.view = view
        n, me = view["seats"], view["viewer"]
        while len(self.seats) < n:
            self.seats.append(_SeatPanel(self, len(self.seats)))
        order = [s for s in range(n) if s != me] + ([me] if me is not None else [])
        shown = tuple(self.seats[s].widget for s in order)
        if self.seat_box.children != shown:
            self.seat_box.children = shown
        builder = self.app.moves
        if builder.kind != "give":
            self.picked = []
        shown_pass = self.passing()
        if builder.kind == "give":
            builder.hint.value = self._give_hint(shown_pass)
            self._hinted = True
        elif self._hinted:
            builder.hint.value, self._hinted = "", False
        self.status.value = self._status(view)
        self.prompt.value = self._prompt(view)
        self.prompt.layout.display = None if self.prompt.value else "none"
        self.action_deck.show(f"Action deck: {view['action_deck']}", face_up=False if view["action_deck"] else None)
        pile = view["action_discard"]
        self.discard.show(f"Discard: {len(pile)}", **(_action_card(pile[-1]) if pile else {"face_up": None}))
        self.chore_deck.show(f"Chore deck: {view['chore_deck']}", face_up=False if view["chore_deck"] else None)
        gone = view["chore_discard"]
        self.chore_discard.show(f"Chore discard: {len(gone)}",
                                **({"face_up": True, "title": gone[-1], "kind": "chore",
                                    "tooltip": CHORE_TEXT.get(gone[-1], "")} if gone else {"face_up": None}))
        revealed = {r["seat"]: r["hand"] for r in view["revealed"]}
        hand_clicks = self._hand_clickable(view)
        pending = view["pending"] or {}
        for seat, panel in enumerate(self.seats[:n]):
            marked = set(view["complete"]) if seat == view["turn_seat"] else set()
            if pending and seat == pending["target"] and pending["chore"] is not None:
                marked.add(pending["chore"])
            if pending and seat == pending["by"] and pending["own_chore"] is not None:
                marked.add(pending["own_chore"])
            chores = [_chore_card(c, (seat, p) in clickable or (seat, None) in clickable, p in marked)
                      for p, c in enumerate(view["tableaus"][seat])]
            panel.tableau.show("<b>Chores</b>" if chores else "<b>Chores</b>: none left", chores)
            seat_click = (seat, None) in clickable
            if seat == me:
                cards = [_action_card(name, pos in hand_clicks, pos in shown_pass)
                         for pos, name in enumerate(view["hand"])]
                title = f"<b>Your hand</b> ({len(cards)}, draws stop at {HAND_CAP}, CR-3)"
            elif view.get("hands") is not None:            # the debugger's all-cards view (Game.all_cards_view)
                cards = [_action_card(name) for name in view["hands"][seat]]
                title = f"<b>Hand</b> ({len(cards)}, all cards: no player sees this)"
            elif seat in revealed:
                cards = [_action_card(name, seat_click, True) for name in revealed[seat]]
                title = ("<b>Hand revealed</b> (CR-21, until the next move)" if cards else
                         "<b>Hand revealed: no cards</b> (CR-21)")
            else:
                cards = [{"face_up": False, "clickable": seat_click}] * view["hand_sizes"][seat]
                size = view["hand_sizes"][seat]
                title = f"<b>Hand</b>: {size} card{'' if size == 1 else 's'}"
            panel.hand.show(title, cards)
            if seat != me and seat not in revealed and view.get("hands") is None:   # a hidden hand: its size only
                panel.hand.widget.add_class("pt-mini")
            else:
                panel.hand.widget.remove_class("pt-mini")
            if seat == me:
                panel.widget.add_class("cr-me")
            else:
                panel.widget.remove_class("cr-me")
            mine = (view["meeting"] or {}).get("mine") if seat == me else None
            panel.passing.widget.layout.display = None if mine else "none"
            panel.passing.show(f"<b>You pass</b> to seat {(seat + 1) % n + 1}" if mine else "",
                               [_action_card(name) for name in mine or ()])
            panel.label.value = self._seat_label(view, seat)
            if seat == view["turn_seat"] and view["phase"] != "over":
                panel.widget.add_class("cr-turn")
            else:
                panel.widget.remove_class("cr-turn")

    def _status(self, view: dict) -> str:
        turn = view["turn_seat"]
        parts = [f"<b>Turn {view['turn']}</b>", f"first to <b>{view['target_vp']} VP</b> (CR-17)"]
        if view["outcome"]:
            o = view["outcome"]
            won = ", ".join(f"seat {s + 1}" for s in o["winners"]) or "nobody"
            parts.append(f"<b>Game over</b>: {html.escape(for_people(o['reason']))} — winner: {won}")
        else:
            parts.append(f"seat {turn + 1}'s turn: {_PHASE.get(view['phase'], view['phase'])}")
            if view["phase"] in ("react", "meeting"):
                parts.append("to answer: " + ", ".join(f"seat {s + 1}" + (" <b>(you)</b>" if s == view["viewer"]
                                                                          else "") for s in view["to_act"]))
            slots = view["slots"]
            parts.append("slots (CR-4): " + " ".join(
                f"<span class='cr-badge {'cr-used' if slots[s] else 'cr-free'}'>{s} {'used' if slots[s] else 'free'}"
                "</span>" for s in ("progress", "action")))
        return " · ".join(parts)

    def _prompt(self, view: dict) -> str:
        """The line that tells the viewer what is being asked, and of whom."""
        me, phase = view["viewer"], view["phase"]
        if view["outcome"]:
            o = view["outcome"]
            who = "You win!" if me in o["winners"] else "Winner: " + ", ".join(f"seat {s + 1}" for s in o["winners"])
            return f"<b>{html.escape(who)}</b> Final VP: " + ", ".join(
                f"seat {s + 1} {v}" for s, v in enumerate(o["scores"]))
        parts = []
        for r in view["revealed"]:
            parts.append(f"Seat {r['seat'] + 1}'s hand is shown to everyone (CR-21).")
        pending = view["pending"]
        if phase == "react" and pending:
            what = html.escape(pending["card"])
            tableaus = view["tableaus"]
            detail = ""
            if pending["chore"] is not None:
                detail = f" on {html.escape(tableaus[pending['target']][pending['chore']]['name'])}"
            if pending["key"] == "swap" and pending["own_chore"] is not None:
                detail = (f": their {html.escape(tableaus[pending['by']][pending['own_chore']]['name'])} for"
                          f"{detail.replace(' on', '')}")
            if me == pending["target"]:
                parts.append(f"<b>Seat {pending['by'] + 1} plays {what} against you{detail}.</b> "
                             f"{_IF_LET.get(pending['key'], '')} "
                             "React or let it happen: your buttons are under Your move (CR-7).")
            else:
                parts.append(f"Seat {pending['by'] + 1} plays {what} against seat {pending['target'] + 1}{detail}; "
                             f"seat {pending['target'] + 1} may react (CR-7).")
        elif phase == "meeting" and view["meeting"] is not None:
            waiting = [s for s in range(view["seats"]) if s not in view["meeting"]["committed"]]
            if me in waiting:
                count = min(MEETING_PASS, len(view["hand"] or ()))
                parts.append(f"<b>Family Meeting</b>: choose {count} card{'' if count == 1 else 's'} to pass to seat "
                             f"{(me + 1) % view['seats'] + 1} (click them in your hand, then Play). "
                             "Secret until all have chosen (CR-8).")
            else:
                parts.append("Family Meeting: waiting for " + ", ".join(f"seat {s + 1}" for s in waiting) + " (CR-8).")
        elif phase == "place" and view["placing"] is not None:
            owed = view["placing"]["from"]
            src = f"seat {owed[0] + 1}'s Done" if owed else "one of your own Done cards"
            parts.append(f"Seat {view['turn_seat'] + 1} chooses the chore for {src} (click a chore).")
        elif phase == "score" and len(view["complete"]) > 1:
            parts.append(f"Seat {view['turn_seat'] + 1} has {len(view['complete'])} complete chores: "
                         "choose which to score first (CR-14).")
        elif phase == "trigger" and view["trigger"]:
            t = view["trigger"]
            parts.append(f"{html.escape(t['chore'])}: seat {view['turn_seat'] + 1} chooses "
                         + ("an opponent to steal a random card from (click their hand)." if t["ability"] == "steal"
                            else "an opponent's chore to lose 2 progress (click it)."))
        return " ".join(parts)

    def _seat_label(self, view: dict, seat: int) -> str:
        name = html.escape(self.app.seat_name(seat))
        marks = []
        if seat == view["turn_seat"] and view["phase"] != "over":
            marks.append("<span class='cr-badge cr-turnmark'>on turn</span>")
        if seat in view["to_act"] and seat != view["turn_seat"]:
            marks.append("<span class='cr-badge cr-turnmark'>to answer</span>")
        if view["protected"][seat]:
            marks.append(f"<span class='cr-badge cr-prot' title='CR-16: reached {PROTECT_VP}+ VP; cannot be "
                         "targeted until their next turn'>protected (CR-16)</span>")
        elif view["protection_used"][seat]:
            marks.append("<span class='cr-badge cr-used'>protection used</span>")
        if view["catch_up"][seat]:
            marks.append("<span class='cr-badge cr-catch' title='CR-15: 0 VP while an opponent has 5+'>"
                         "catch-up: draws 2 (CR-15)</span>")
        scored = view["scored"][seat]
        done = f" · scored: {html.escape(', '.join(scored))}" if scored else ""
        return (f"<span class='pt-seatlabel'><b>{name}</b> · <span class='cr-vp'>{view['vp'][seat]} VP</span>"
                f"{done} {''.join(marks)}</span>")

    # --- hand clicks (arguments whose values are card names) ----------------------------
    def _hand_clickable(self, view: dict) -> set[int]:
        """Positions of the viewer's hand a click would use now."""
        hand = view["hand"] or []
        builder = self.app.moves
        if view["viewer"] is None or not builder.enabled or builder.seat != view["viewer"]:
            return set()
        keys = view["keys"]
        if builder.kind == "give" or (builder.kind is None and self._giving()):
            return set(range(len(hand)))
        if builder.kind == "discard" and len(builder.prefix) == 1:
            legal = {m.args[1] for m in builder.moves if m.kind == "discard" and m.args[0] == builder.prefix[0]}
            return {p for p, name in enumerate(hand) if keys[name] in legal}
        if builder.kind is None:
            return {p for p, name in enumerate(hand) if self._card_kind(keys[name]) is not None}
        return set()

    def _card_kind(self, key: str) -> str | None:
        """The move kind a click on a ``key`` card in hand plays or starts now (see
        :data:`CARD_MOVES`), or None if none of them is on offer."""
        offered = {m.kind for m in self.app.moves.moves}
        return next((kind for kind in CARD_MOVES.get(key, ()) if kind in offered), None)

    def _giving(self) -> bool:
        """Whether the viewer's moves now are Family Meeting passes (CR-8)."""
        return any(m.kind == "give" for m in self.app.moves.moves)

    def _fill_give(self) -> None:
        """Restart the "give" move and, once the picked cards make a whole pass, fill it
        with their keys (in the game's canonical order; the builder takes any): the move
        Play sends is exactly the cards :meth:`passing` highlights. Picks that cannot make
        a legal pass are dropped, oldest first."""
        view, builder = self.view, self.app.moves
        order = list(view["keys"].values())
        count = min(MEETING_PASS, len(view["hand"]))
        while True:
            builder.select("give")          # restart the choice (redraws the board)
            if builder.kind != "give":
                return                      # the only possible pass was played
            shown = self.passing()
            if len(shown) < count:
                return
            if len(shown) == count:
                try:
                    for i, key in enumerate(sorted((view["keys"][view["hand"][p]] for p in shown),
                                                   key=order.index)):
                        builder.choose(i, key)
                    return
                except ValueError:
                    pass
            self.picked = self.picked[1:]

    def passing(self) -> list[int]:
        """Hand positions of the Family Meeting pass being built, as the board highlights
        them: the cards of the move Play would send (the picked positions first for cards
        of the same name), then, while it is incomplete, picked cards not in it yet."""
        view, builder = self.view, self.app.moves
        if builder.kind != "give" or not view.get("hand"):
            return []
        keys = [view["keys"][name] for name in view["hand"]]
        shown: list[int] = []
        for key in builder.prefix:
            free = [p for p in self.picked if keys[p] == key and p not in shown] or \
                   [p for p, k in enumerate(keys) if k == key and p not in shown]
            if free:
                shown.append(free[0])
        if builder._complete() is None:
            shown += [p for p in self.picked if p not in shown]
        return shown

    def _give_hint(self, shown: list[int]) -> str:
        """The line under the move buttons while a pass is built: exactly the cards Play
        sends, or those chosen so far."""
        view, builder = self.view, self.app.moves
        names = ", ".join(html.escape(view["hand"][p]) for p in shown) or "nothing yet"
        if builder._complete() is not None:
            return f"<i>You will pass: <b>{names}</b> (Play to confirm).</i>"
        count = min(MEETING_PASS, len(view["hand"]))
        more = count - len(shown)
        return (f"<i>So far you pass: {names}; choose {more} more card{'s' if more != 1 else ''} "
                "(click them in your hand). Play is enabled once the pass is complete.</i>")

    def hand_clicked(self, seat: int, pos: int) -> None:
        """A card of ``seat``'s hand row was clicked. Another seat's card picks that seat
        (Delegate, Teamwork, steal). One of the viewer's own cards: with "Pass" chosen it
        toggles the card in the Family Meeting choice (the move is filled in once enough
        are picked; Play confirms); with "Discard a card" and a slot chosen it discards
        that card; with no move chosen it does what the card's button does: plays its
        move when that has one choice (Excuse, Dodge, Family Meeting), else selects it
        for the click on its target (CR-5, CR-7..CR-13)."""
        view, builder = self.view, self.app.moves
        if seat != view.get("viewer"):
            self.app.card_clicked(seat, None)
            return
        if pos not in self._hand_clickable(view):
            return
        key = view["keys"][view["hand"][pos]]
        if builder.kind == "give" or (builder.kind is None and self._giving()):
            count = min(MEETING_PASS, len(view["hand"]))
            picked = [p for p in self.picked if p != pos] if pos in self.picked else self.picked + [pos]
            self.picked = picked[-count:]
            self._fill_give()
        elif builder.kind == "discard":
            builder.choose(1, key)
            if not builder.play_button.disabled:
                builder.play_button.click()
        else:
            builder.select(self._card_kind(key))    # as its button: plays a move with one choice

    # --- labels (only from the view) -----------------------------------------------------
    def move_label(self, kind: str, view: dict) -> str:
        """Button text of a move kind."""
        pending = view.get("pending") or {}
        placing = view.get("placing") or {}
        return {
            "done": "Play Done", "finally": "Play Finally! (+3)", "discard": "Discard a card",
            "inspection": "Play Inspection", "delegate": "Play Delegate", "teamwork": "Play Teamwork",
            "swap": "Play Chore Swap", "meeting": "Play Family Meeting", "later": "Play I'll Do It Later",
            "end": "End play step", "excuse": "Excuse: cancel it", "dodge": "Dodge with I'll Do It Later",
            "accept": f"Let the {pending.get('card', 'action')} happen",
            "place": "Place a Done" if placing.get("from") else "Place my own Done", "stop": "Place no more",
            "give": f"Pass {_count(min(MEETING_PASS, len(view.get('hand') or ())), 'card')}", "score": "Score a chore",
            "steal": "Steal a card from…", "attic": "Attic: take progress from…",
        }.get(kind, kind)

    def move_tooltip(self, kind: str, view: dict) -> str:
        """Hover text citing the ruling."""
        return _TIPS.get(kind, "")

    def arg_title(self, kind: str, name: str) -> str:
        """Dropdown captions."""
        if kind == "give":
            return "pass"
        return {"chore": "my chore" if kind not in ("inspection", "attic") else "their chore",
                "seat": "opponent", "their_chore": "their chore", "slot": "using slot", "card": "card"}.get(name, name)

    def arg_label(self, kind: str, name: str, value, view: dict) -> str:
        """"seat 2", a chore's name and progress, a card's name, or a slot."""
        return self._arg_text(kind, name, value, view, self.app.moves.prefix)

    def describe(self, move: Move, view: dict) -> str:
        """A move in the words of its button and dropdowns, e.g. "Play Inspection
        (opponent: seat 1, their chore: seat 1: Mow the Lawn 2/4)"."""
        names = ChoreRace.MOVE_ARGS.get(move.kind, ())
        args = ", ".join(f"{self.arg_title(move.kind, n)}: {self._arg_text(move.kind, n, v, view, list(move.args))}"
                         for n, v in zip(names, move.args))
        label = self.move_label(move.kind, view)
        return f"{label} ({args})" if args else label

    def _arg_text(self, kind: str, name: str, value, view: dict, prefix: list) -> str:
        """The text of one argument value, ``prefix`` holding the arguments before it
        (whose seat a chore argument belongs to)."""
        if name == "seat":
            return f"seat {value + 1}"
        if name == "slot":
            return f"{value} slot"
        if name == "card":
            return next((n for n, k in view["keys"].items() if k == value), str(value))
        seat = view["viewer"]
        theirs = kind in ("inspection", "attic") or name == "their_chore"
        if kind in ("inspection", "attic") and prefix:
            seat = prefix[0]
        elif name == "their_chore" and len(prefix) > 1:
            seat = prefix[1]
        try:
            tableau = view["tableaus"][seat]
            chore = tableau[value]
        except (IndexError, TypeError):
            return f"chore {value + 1}"
        text = f"{chore['name']} {chore['progress']}/{chore['level']}"
        if sum(c["name"] == chore["name"] and c["progress"] == chore["progress"] for c in tableau) > 1:
            text += f" (chore {value + 1})"
        return f"seat {seat + 1}: {text}" if theirs else text

