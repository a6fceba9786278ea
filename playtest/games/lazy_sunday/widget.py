"""The Lazy Sunday table: each seat's face-down list, the deck, the DONE pile, the drawn
card, NOT ME!/final turns/I'm Busy state and scores, built from the generic widgets.

It renders only view dicts (``Match.view(seat)``, the agreed Lazy Sunday view): a
face-down card's name is shown only when the view contains it (the seat is looking at
it now, LS-11, or the round is over and lists are revealed, LS-7).
"""
from __future__ import annotations

import html
import itertools

import ipywidgets as w

from ...engine.counting import for_people
from ...widgets import CardRow, GameApp, GameBoard, Pile
from ...widgets.components import BLANK, safe

_PHASE = {"peek": "peeking at 2 cards (LS-3)", "look": "looking at a card", "turn": "on turn",
          "drawn": "holding a drawn card", "give": "giving a card (LS-5)", "round_over": "round over",
          "over": "match over"}

_LABELS = {
    "peek": "Peek at 2 of my cards", "done": "Done looking", "draw": "Draw from the deck",
    "take": "Take the DONE card", "notme": "NOT ME!", "pass": "Pass", "keep": "Keep it",
    "discard": "Discard it", "busy": "Burn: next player skips", "double_check": "Burn: look at my card",
    "nosy": "Burn: look at another's card", "trade": "Burn: trade a card unseen",
    "switcheroo": "Burn: swap two others' cards", "not_my_job": "Burn: look at two, maybe swap",
    "swap": "Swap them", "landlord": "Burn: someone adds a deck card", "knock_out": "Burn: knock out my card",
    "claim": "Done it!", "give": "Give a card", "deal": "Deal the next round",
}

_TIPS = {
    "peek": "LS-3: look at 2 of your own cards, once", "draw": "LS-4: draw, then keep it or discard it",
    "take": "LS-4: swap the DONE top into your list; the replaced card goes onto DONE",
    "notme": "LS-7: end the round; every other seat gets one final turn, then lowest total wins",
    "pass": "LS-6: nothing can be drawn or taken", "keep": "LS-4: swap it into your list; the replaced card goes onto DONE",
    "discard": "LS-4: onto DONE without its action", "claim": "LS-5: a card in any list matches the DONE top. "
    "Right: it goes onto DONE (someone else's: you give them a card). Wrong: you draw a penalty card",
    "give": "LS-5: give one of your cards, face-down, into the gap: you see it as you give it, they do not",
    "deal": "LS-3: deal the next round",
    "swap": "LS-2: swap the two cards of other players you looked at",
    "done": "LS-3/LS-2: stop looking (after looking at two other players' cards: leave them)",
    **{k: "LS-2: burn the drawn action card for its effect (optional)" for k in
       ("busy", "double_check", "nosy", "trade", "switcheroo", "not_my_job", "landlord", "knock_out")},
}

RULES_HTML = """
<p><b>Goal.</b> End each round with the lowest total effort in your chore list: 6 face-down
cards, each worth its effort (Nap 0 … Clean the Oven 9; action cards 1–13, LS-1, LS-2).
Lowest cumulative score wins (LS-10). A game here is one round unless you choose more: New
game, Preset "match to 100" plays rounds until a score passes 100 (option <code>match_to</code>,
LS-10), or set <code>rounds</code>.</p>
<p><b>Setup and peeking.</b> Before the first turn you peek at 2 of your own cards, once
(LS-3). After that you see a card only while you look at it (LS-11): remember it by its
position. Positions count from 1 at the left; a card leaving a list (Done it!, Knock It
Out, a give) closes the gap, so the cards to its right move one place left; penalty and
Landlord cards join at the right end.</p>
<p><b>Your turn</b> — do one (LS-4): <i>Draw from the deck</i> (or click the deck), look at it, then <i>Keep it</i>
(swap it for one of your cards, which goes face-up onto DONE) or <i>Discard it</i> onto DONE;
or <i>Take the DONE card</i> (swap it into your list; taking never triggers an action); or
call <i>NOT ME!</i>. If nothing can be drawn, you pass (LS-6).</p>
<p><b>Action cards</b> act only when you draw one from the deck and discard it (burn it), and
only if you choose to; kept in a list they are dead weight at their effort (LS-2):</p>
<ul>
<li><b>I'm Busy</b> (1): the next player who would take a turn skips it.</li>
<li><b>Double Check</b> (10): look at one of your own cards.</li>
<li><b>Nosy Neighbour</b> (10): look at one card of another player.</li>
<li><b>Let's Trade</b> (11): swap one of your cards with one of another player's, unseen.</li>
<li><b>Switcheroo</b> (11): swap one card between two other players, unseen.</li>
<li><b>Not My Job</b> (12): look at one card each of two other players, then you may swap them.</li>
<li><b>Landlord's Notice</b> (12): any player, you included, adds the top deck card to their list, unseen.</li>
<li><b>Knock It Out</b> (13): discard one card of your own list face-up onto DONE.</li>
</ul>
<p>Switcheroo and Not My Job need two other players (with 2 players they do nothing, LS-8).</p>
<p><b>Done it!</b> (quick discard, LS-5): at any moment outside setup and an action, anyone may
claim that a card in any list has the same name as the DONE top (pick it in the
<i>Done it!</i> panel). Right on your own card: it goes onto DONE and your list shrinks.
Right on another player's card: it goes onto DONE and you give them one of your cards,
face-down, into the gap: you are shown it as you give it (remember it!), they are not.
Wrong: the card stays and you take a penalty card from the deck, unseen. A claim that comes after the DONE top changed is returned with no penalty.</p>
<p><b>NOT ME!</b> (LS-7): call it at the start of your turn instead of taking one, once a
round. Everyone else gets exactly one final turn; meanwhile nobody else may touch the
caller's list. Then all lists are revealed and scored (LS-9): if the caller has the lowest
total, or ties for it, the caller scores 0; if anyone is strictly lower, the caller scores
50. Everyone else scores their own total.</p>
"""
"""The "How to play" panel of the Lazy Sunday app (rulebook v1.1 with RULINGS LS-1..LS-11)."""


CLICKED_CARDS = {"peek": ("LS-3", "two of your cards", "peek at them"),
                 "switcheroo": ("LS-2", "two cards of other players", "swap them"),
                 "not_my_job": ("LS-2", "two cards of other players", "look at them"),
                 "nosy": ("LS-2", "a card of another player", "look at it"),
                 "double_check": ("LS-2", "one of your cards", "look at it"),
                 "knock_out": ("LS-2", "one of your cards", "knock it out")}
"""The moves whose cards are chosen by clicks: kind -> (ruling, which cards, what Play
does), for the line under the move buttons while one is built (a "seat" or "my card"
dropdown and a grey Play do not say that a click on a card is the way)."""


class LazySundayBoard(GameBoard):
    """The Lazy Sunday table for :class:`~playtest.widgets.GameApp`.

    Card clicks fill positions (``p``, ``a``, ``b``, ``q``) and seats (``s``, ``t``) of
    the move being built, e.g. Keep then a card of your list, or Done it! then any card.
    """

    card_args = {
        "peek": ((None, "a"), (None, "b")), "take": ((None, "p"),), "keep": ((None, "p"),),
        "double_check": ((None, "p"),), "knock_out": ((None, "p"),), "give": ((None, "p"),),
        "nosy": (("s", "p"),), "trade": ((None, "p"), ("s", "q")), "switcheroo": (("s", "p"), ("t", "q")),
        "not_my_job": (("s", "p"), ("t", "q")), "landlord": (("s", None),), "claim": (("s", "p"),),
    }
    # LS-3: the two peeked cards are a pair (the game lists a < b); LS-2: Switcheroo and
    # Not My Job take two other players' cards (the lower seat first): any order here
    unordered_args = {"peek": ((0,), (1,)), "switcheroo": ((0, 1), (2, 3)), "not_my_job": ((0, 1), (2, 3))}
    open_title = "Done it! — quick discard (LS-5)"
    rules_html = RULES_HTML

    def __init__(self, app: GameApp):
        super().__init__(app)
        self.status = w.HTML()
        self.status.add_class("pt-status")
        self.deck = Pile(on_click=safe(self._deck_clicked, app.banner.show))
        self.done = Pile()
        self.drawn = Pile()
        self.scores = w.HTML()
        self.rows: list[CardRow] = []
        self._hinted = False                 # the move builder's hint says how a peek is chosen
        self.row_box = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        piles = w.HBox([self.deck.widget, self.done.widget, self.drawn.widget, self.scores],
                       layout=w.Layout(align_items="flex-start"))
        self.widget.children = (self.status, piles, self.row_box)

    def _deck_clicked(self) -> None:
        """A click on the deck draws (LS-4), as "Draw from the deck" does, when the viewer
        may draw now (the deck is then marked clickable); otherwise it does nothing, as a
        click on a card no move uses."""
        move = self.offered_move("draw")
        if move is not None:
            self.app.play(move)

    def update(self, view: dict, clickable: set) -> None:
        """Show a Lazy Sunday view dict (see the class docstring)."""
        n = view["seats"]
        while len(self.rows) < n:
            seat = len(self.rows)
            self.rows.append(CardRow(lambda pos, seat=seat: self.app.card_clicked(seat, pos)))
        self.row_box.children = tuple(r.widget for r in self.rows[:n])
        self.status.value = self._status(view)
        self.deck.show(f"Deck: {view['deck']}", face_up=False if view["deck"] else None,
                       clickable=self.offered_move("draw") is not None)
        done = view["done"]
        self.done.show(f"DONE: {done['size']}", **self._face(done["top"]))
        drawn = view["drawn"]
        self.drawn.widget.layout.display = None if drawn else "none"
        if drawn:
            card = drawn["card"]
            self.drawn.show(f"Seat {drawn['seat'] + 1} drew",
                            **(self._face(card, looking=True) if card else {"face_up": False}))
        elif self.drawn.card.description != BLANK:
            self.drawn.show("", face_up=None)   # hidden, but must not keep the last drawn card's name
        self.scores.value = self._score_table(view)
        for seat, row in enumerate(self.rows[:n]):
            cards = [dict(self._face(slot, slot.get("looking", False)) if slot["face_up"] else {"face_up": False},
                          clickable=(seat, pos) in clickable or (seat, None) in clickable)
                     for pos, slot in enumerate(view["lists"][seat])]
            row.show(self._seat_label(view, seat), cards)
        builder = getattr(self.app, "moves", None)
        if builder is not None and builder.kind in CLICKED_CARDS:
            builder.hint.value = self._clicked_cards_hint(builder)
            self._hinted = True
        elif builder is not None and self._hinted:
            builder.hint.value, self._hinted = builder._note, False

    def _clicked_cards_hint(self, builder) -> str:
        """The line under the move buttons while a move of :data:`CLICKED_CARDS` is built:
        its cards (its :attr:`card_args`) are chosen by clicks or the dropdowns, and which
        are chosen so far."""
        rule, which, then = CLICKED_CARDS[builder.kind]
        count = len(self.card_args[builder.kind])
        if builder._complete() is not None:
            again = "click one of them again" if count == 2 else "click it again"   # MoveBuilder.pick_card
            return f"<i>{'Both cards' if count == 2 else 'The card'} chosen: press Play, or {again}, to {then}.</i>"
        chosen, values = [], iter(builder.prefix)
        for seat_arg, _position_arg in self.card_args[builder.kind]:     # a card: (seat,) position
            taken = list(itertools.islice(values, 1 if seat_arg is None else 2))
            if len(taken) < (1 if seat_arg is None else 2):
                break
            chosen.append(f"position {taken[0] + 1}" if seat_arg is None else
                          f"seat {taken[0] + 1}'s position {taken[1] + 1}")
        so_far = f" Chosen so far: {' and '.join(chosen)}; choose {count - len(chosen)} more." if chosen else ""
        if count == 2 and not chosen and sum(move.kind == builder.kind for move in builder.moves) == 1:
            # one pair on offer (a peek at a list of two): a click on either card picks both
            return f"<i>Choose 2 cards ({rule}): there is one pair, so a click on either card picks both.</i>"
        cards, them = ("2 cards", "them") if count == 2 else ("a card", "it")
        return f"<i>Choose {cards} ({rule}): click {which}, or pick {them} above.{so_far}</i>"

    def seat_widget(self, seat: int) -> w.Widget | None:
        """``seat``'s row of cards."""
        return self.rows[seat].widget if seat < len(self.rows) else None

    def card_at(self, path: str):
        """The card drawn for a view path: ``lists.S.P`` (seat S's card at position P),
        ``done.top`` (or ``done``), ``drawn.card`` (or ``drawn``), ``deck``."""
        parts = path.split(".")
        if parts[0] == "lists" and len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit():
            seat, pos = int(parts[1]), int(parts[2])
            if seat < len(self.rows) and pos < len(self.rows[seat].box.children):
                return self.rows[seat].cards[pos]
            return None
        pile = {"done": self.done, "drawn": self.drawn, "deck": self.deck}.get(parts[0])
        return pile.card if pile is not None and path in ("done", "done.top", "drawn", "drawn.card", "deck") else None

    @staticmethod
    def _face(card: dict | None, looking: bool = False) -> dict:
        if card is None:
            return {"face_up": None}
        return {"face_up": True, "title": card["name"], "corner": str(card["effort"]), "kind": card["kind"],
                "tooltip": card.get("text", ""), "highlight": looking}

    def _status(self, view: dict) -> str:
        phase, turn = view["phase"], view["turn_seat"]
        name = lambda seat: html.escape(self.app.seat_name(seat))   # as the seat panels and the page name it
        parts = [f"<b>Round {view['round']}</b>"]
        if view["outcome"] or phase == "round_over":
            if view["outcome"]:
                o = view["outcome"]
                won = ", ".join(name(s) for s in o["winners"]) or "nobody"
                parts.append(f"<b>Match over</b>: {html.escape(for_people(o['reason']))} — winner: {won}")
            else:
                parts.append("<b>Round over</b>: all lists revealed and scored (LS-9)")
            if view["caller"] is not None:      # who called; the final turns and claims are over
                parts.append(f"NOT ME! called by {name(view['caller'])}")
            return " · ".join(parts)
        acting = [turn] if phase in ("turn", "drawn") and turn is not None else list(view["to_act"])
        if acting == [self.app.viewer]:
            parts.append("<b>Your turn</b>" if phase == "turn" else f"you: {_PHASE.get(phase, phase)}")
        else:
            who = ", ".join(name(s) for s in acting) or "—"
            parts.append(f"{who}: {_PHASE.get(phase, phase)}")
        if view["caller"] is not None:
            # the seat taking its final turn now is no longer in final_turns (LS-7)
            now = view["turn_seat"] if view["turn_seat"] not in (None, view["caller"]) else None
            later = ", ".join(name(s) for s in view["final_turns"])
            final = "; ".join(filter(None, [now is not None and f"{name(now)} now", later and f"then {later}"]))
            parts.append(f"NOT ME! called by {name(view['caller'])} — final turns: {final or 'all taken'} (LS-7)")
        if view["skip_next"]:
            parts.append("the next player's turn is skipped (LS-2)")
        # LS-5's quick discard, by the name of its button
        parts.append("Done it! open to all (LS-5)" if view["claims_open"] else "no Done it! now (LS-5)")
        return " · ".join(parts)

    def _seat_label(self, view: dict, seat: int) -> str:
        name = html.escape(self.app.seat_name(seat))
        marks = []
        if seat == view["turn_seat"] and view["phase"] in ("turn", "drawn", "look"):
            marks.append("<span class='pt-turn'>on turn</span>")
        if seat == view["caller"]:
            marks.append("called NOT ME!")
        if seat in view["final_turns"]:
            marks.append("owes a final turn")
        count = len(view["lists"][seat])
        return (f"<span class='pt-seatlabel'><b>{name}</b> · score {view['scores'][seat]} · "
                f"{count} card{'s' * (count != 1)} {' · '.join([''] + marks) if marks else ''}</span>")

    def _score_table(self, view: dict) -> str:
        """The scores of each round and the match total; once a round's lists are
        revealed (LS-7), that round's reveal too (:meth:`_reveal_rows`)."""
        rounds = view["round_scores"]
        if not rounds:
            return ""
        head = "".join(f"<th>seat {s + 1}</th>" for s in range(view["seats"]))
        reveal = self._reveal_rows(view)
        body = "".join(f"<tr><td>round {i + 1}</td>{''.join(f'<td>{v}</td>' for v in r)}</tr>"
                       for i, r in enumerate(rounds))
        total = "".join(f"<td><b>{v}</b></td>" for v in view["scores"])
        return (f"{reveal}<table class='pt-scores'><tr><th></th>{head}</tr>{body}<tr><td><b>total</b></td>{total}"
                "</tr></table>")

    @staticmethod
    def _reveal_rows(view: dict) -> str:
        """While the lists of the round just scored are on show (round over, or match
        over), a table of each seat's revealed total and how LS-9 made it that round's
        score: the caller scores 0 if lowest or tied for lowest, 50 if anyone is strictly
        lower; everyone else scores their total. "" otherwise."""
        lists = view["lists"]
        if view["phase"] not in ("round_over", "over") or not view["round_scores"] or not all(
                slot["face_up"] for cards in lists for slot in cards):
            return ""
        totals = [sum(slot["effort"] for slot in cards) for cards in lists]
        scores, caller = view["round_scores"][-1], view["caller"]
        rows = []
        for seat, (total, score) in enumerate(zip(totals, scores)):
            if seat == caller:
                lowest = min(totals[s] for s in range(len(totals)) if s != seat)
                lower = [s for s, t in enumerate(totals) if s != seat and t == lowest < total]
                named = " and ".join(f"seat {s + 1}" for s in lower)
                why = (f"called NOT ME! and {named} had a strictly lower total ({lowest}): 50" if lower
                       else "called NOT ME! and was lowest or tied for lowest: 0")
                who = f"seat {seat + 1} (caller)"
            else:
                why, who = "scores their own total", f"seat {seat + 1}"
            rows.append(f"<tr><td>{who}</td><td>{total}</td><td><b>{score}</b></td><td>{html.escape(why)}</td></tr>")
        return (f"<table class='pt-scores pt-reveal'><caption>Round {len(view['round_scores'])} revealed (LS-9)"
                "</caption><tr><th></th><th>total</th><th>score</th><th>why</th></tr>" + "".join(rows) + "</table>")

    # --- labels (only from the view) -------------------------------------------------
    def move_label(self, kind: str, view: dict) -> str:
        """Button text; while looking at two other players' cards, ``done`` reads "Don't swap"."""
        if kind == "done" and any(seat != view["viewer"] for seat, _ in view["looking"]) and len(view["looking"]) == 2:
            return "Don't swap"
        return _LABELS.get(kind, kind)

    def move_tooltip(self, kind: str, view: dict) -> str:
        """Hover text citing the ruling."""
        return _TIPS.get(kind, "")

    def arg_title(self, kind: str, name: str) -> str:
        """Dropdown captions: whose card and which position."""
        if name == "p":
            return "my card" if kind in ("take", "keep", "double_check", "knock_out", "give", "trade") else "card"
        return {"a": "my card", "b": "and my card", "s": "seat", "t": "and seat", "q": "their card",
                "serial": "DONE card"}.get(name, name)

    def arg_label(self, kind: str, name: str, value, view: dict) -> str:
        """"seat 2", "position 3" (counted from 1: seat 1, position 2 in the move), or the
        DONE top's number for ``serial``."""
        if name in ("s", "t"):
            return f"seat {value + 1}" + (" (you)" if value == view["viewer"] else "")
        if name == "serial":
            return f"DONE card #{value}"
        return f"position {value + 1}"

