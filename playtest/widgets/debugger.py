"""The scenario debugger: load a scenario (a shipped example or an uploaded ``.toml``),
step through it move by move, rewind, jump, switch between the spectator's view, each
seat's view and the all-cards view, see what changed (in words), branch with another
legal move of any seat that may move (open moves included), ask why a move is illegal,
check the scenario's expectations, and export the current line as a scenario file or a
pytest test (issues #3, #15).

Who sees what (the DESIGN "view" boundary holds here too): the board, the log, the
"what changed" diff and the move list are drawn from ``Match.view(viewer)`` and
``Match.log_for(viewer)`` of the chosen view only. A move whose text names cards (e.g.
Chore Race's ``give``) is written in full only in its own seat's view; the others see
its seat and kind, and its log lines say what they saw. Legal moves name the acting
seat's cards, so picking a seat to act as (branch) shows that seat's view, as the panel
says; "why not?" answers a seat's move only in that seat's view and otherwise says
whose view is needed. An expectation about a seat's view is detailed only in that view. The
scenario's own title and description are the author's text, shown as written. The
export links hold the whole scenario (seed and setup rebuild every card): they are made
only on request and removed at the next change.

The all-cards view (:data:`ALL_CARDS_LABEL`, :meth:`Match.all_cards_view`) is for the
person debugging alone, on this single page: every card face up, deck order included,
the log with what each seat read, every move and answer in full, under a banner saying
no player sees it. Expectations are still checked on the seats' own views; live tables
never offer it.

The loaded line is never changed: a branch is a new match; "Back to the loaded line"
returns to it.

Seats and positions are shown counted from 1, as on every page
(:mod:`playtest.engine.counting`); move texts, typed or listed, and the scenario's
expectations keep the file's numbers (from 0), and a message quoting move texts names
their seat both ways ("seat 2 (move text 1)").
"""
from __future__ import annotations

import difflib
import html
import time
from collections import Counter
from typing import Any, Callable, Mapping

import ipywidgets as w

from ..engine import (ALL_CARDS, Match, Move, MoveSyntaxError, PlaytestError, Record, RecordError,
                      get_game, limits)
from ..engine.game import Game
from ..scenarios import (Expectation, Failure, Scenario, ScenarioError, ScenarioMoveError, examples,
                         find_scenario)
from ..engine.errors import short_repr
from ..engine.counting import for_people, move_text_seat
from ..scenarios.scenario import move_mistake
from ..scenarios.replay import zone_lines
from . import moves as move_controls
from .gameboard import GameBoard, ruling_sentence
from .board import ZONE_KINDS, board_class, zone_count, zone_key
from .components import ErrorBanner, LogView, download_link, safe, style_widget
from .moves import MoveBuilder
from .records import parse_link, unpack_record
from .upload import LimitedUpload

SPECTATOR_LABEL = "Spectator"
ALL_CARDS_LABEL = "All cards (debugging — no player sees this)"
"""The view choice that shows every card face up (:meth:`Match.all_cards_view`)."""

STYLE = """<style>
.pt-debugger .pt-movelist select { font-family: ui-monospace, monospace; font-size: 12px; }
.pt-debugger .pt-changed .widget-html-content { font-size: 12px; line-height: 1.4; white-space: normal; }
.pt-debugger .pt-changed table { border-collapse: collapse; }
.pt-debugger .pt-changed td { padding: 0 8px 0 0; vertical-align: top; font-family: ui-monospace, monospace; }
.pt-debugger .pt-old { color: #a33; text-decoration: line-through; }
.pt-debugger .pt-new { color: #1b6e20; font-weight: 600; }
.pt-debugger .pt-pass { color: #1b6e20; font-weight: 700; }
.pt-debugger .pt-fail { color: #b71c1c; font-weight: 700; }
.pt-debugger .pt-panel { background: #f3f1ea; border-radius: 8px; padding: 6px 10px; margin: 4px 4px 0 0; }
.pt-debugger .pt-why .widget-html-content { white-space: normal; font-size: 13px; }
.pt-debugger .pt-allcards { background: #fff3cd; border: 2px dashed #b26a00; border-radius: 8px; padding: 4px 10px;
  margin: 4px 0; font-size: 12px; }
.pt-debugger .pt-allcards .widget-html-content { white-space: normal; }
</style>"""


# --- what changed --------------------------------------------------------------------
MISSING = object()
"""The value of a path that one of the two compared views does not have."""

BASE_WORDS: dict[str, str] = {"all_cards.*": "{0}", "to_act": "seats to act", "turn_seat": "seat on turn"}
"""View words every game shares (see ``Game.VIEW_WORDS``): the all-cards view's zones
(:meth:`~playtest.engine.Game.all_cards_view`) are named in words already."""


def path_label(path: str) -> str:
    """A dotted view path as words: ``"drawn.card"`` -> ``"drawn card"``,
    ``"lists.0.2.face_up"`` -> ``"lists #0 #2 face up"`` (for paths a game's
    ``VIEW_WORDS`` does not name)."""
    return " ".join(f"#{p}" if p.isdigit() else p.replace("_", " ") for p in path.split("."))


def _is_zone(value: Any) -> bool:
    """Whether a view value is a zone of the zone vocabulary (:mod:`playtest.widgets.board`):
    a dict with a zone ``"kind"`` and an ``"owner"`` (a card has no owner)."""
    return isinstance(value, dict) and value.get("kind") in ZONE_KINDS and "owner" in value


def _zone_list(values: list) -> bool:
    return bool(values) and all(map(_is_zone, values))


def _zone_value(zone: dict) -> str:
    """A zone that appeared, in words: a counter's value, else its card count."""
    if zone.get("kind") == "counter":
        return value_label(zone.get("value"))
    count = zone_count(zone)
    return f"{count} card{'s' * (count != 1)}"


def _zone_label(zone: dict) -> str:
    """A zone in words: ``"discard pile"``, ``"seat 0's hand"`` (seats as the view counts)."""
    owner, name = zone.get("owner"), str(zone.get("name", zone.get("kind")))
    return name if owner is None else f"seat {owner}'s {name}"


def is_card(value: Any) -> bool:
    """Whether a view value is one card: a dict with a ``"name"``, or a face-down card
    (``{"face_up": false}`` and no name)."""
    return isinstance(value, dict) and not _is_zone(value) and (
        isinstance(value.get("name"), str) or value.get("face_up") is False)


def card_label(value: Any) -> str:
    """A card in words: its name, ``"a face-down card"``, or the name itself for a card a
    view lists by name (a string)."""
    if isinstance(value, str):
        return value
    return value["name"] if isinstance(value.get("name"), str) else "a face-down card"


SEAT_VALUES = {("turn_seat",), ("to_act",), ("outcome", "winners")}
"""View paths whose values are seats (numbers from 0): told as "seat N" in what changed,
so that the page counts them from 1 as it does every seat (:func:`for_people`)."""


def seat_label(value: Any) -> str | None:
    """Seats in words: ``1`` -> ``"seat 1"``, ``[0, 2]`` -> ``"seats 0 and 2"``, None or
    ``[]`` -> ``"none"`` (as the engine counts: :func:`for_people` counts them from 1);
    None for a value that is not seats."""
    seats = value if isinstance(value, list) else [] if value is None else [value]
    if not all(isinstance(s, int) and not isinstance(s, bool) for s in seats):
        return None
    if not seats:
        return "none"
    return f"seat {seats[0]}" if len(seats) == 1 else f"seats {', '.join(map(str, seats[:-1]))} and {seats[-1]}"


def value_label(value: Any, path: tuple = ()) -> str:
    """A view value at view path ``path`` in words: ``MISSING`` -> "absent", None ->
    "none", seats at a path of :data:`SEAT_VALUES` -> :func:`seat_label`, True/False ->
    "yes"/"no", a card -> its name (:func:`card_label`), a dict -> "key value, ..."
    (empty: "empty"), a list -> "[a, b]"."""
    if value is MISSING:
        return "absent"
    if path in SEAT_VALUES and (seats := seat_label(value)) is not None:
        return seats
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if is_card(value):
        return card_label(value)
    if isinstance(value, dict):
        return ", ".join(f"{path_label(str(k))} {value_label(v, path + (k,))}" for k, v in value.items()) or "empty"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(value_label(v) for v in value) + "]" if value else "empty"
    return str(value)


def _flat(value: list) -> bool:
    """Whether a list holds no dict at any depth (told as one value: "[0] → [1]")."""
    return all(_flat(v) if isinstance(v, list) else not isinstance(v, dict) for v in value)


def _card_list(before: list, after: list) -> bool:
    """Both lists hold cards only (card dicts or card names), and one holds some."""
    items = before + after
    return bool(items) and (all(map(is_card, items)) or all(isinstance(v, str) for v in items))


class _Namer:
    """Names view paths (tuples of keys) in words: the longest named prefix from a
    game's ``VIEW_WORDS`` (``*`` matches any one key; ``{0}``, ``{1}`` are the keys it
    matched, ``{viewer}`` the view's viewer), then the rest as :func:`path_label`."""

    def __init__(self, words: Mapping[str, str], viewer: Any):
        self.patterns = [(tuple(pattern.split(".")), text) for pattern, text in {**BASE_WORDS, **words}.items()]
        self.viewer = viewer

    def named(self, path: tuple) -> str | None:
        """The words for exactly ``path``, or None."""
        for pattern, text in self.patterns:
            if len(pattern) == len(path) and all(p in ("*", str(k)) for p, k in zip(pattern, path)):
                stars = [str(k) for p, k in zip(pattern, path) if p == "*"]
                return text.format(*stars, viewer=self.viewer)
        return None

    def __call__(self, path: tuple) -> str:
        for cut in range(len(path), 0, -1):
            words = self.named(path[:cut])
            if words is not None:
                rest = path_label(".".join(map(str, path[cut:]))) if path[cut:] else ""
                return f"{words} {rest}".rstrip()
        return path_label(".".join(map(str, path)))


def _the(item: str, zone: str) -> str:
    """``zone`` as the object of "left"/"joined" after ``item``: "the list" when both
    name the same owner ("seat 1's position 5" and "seat 1's list")."""
    owner = item.split("'s ", 1)[0] + "'s " if "'s " in item else None
    return "the " + zone[len(owner):] if owner and zone.startswith(owner) else zone


def describe_changes(before: Any, after: Any, words: Mapping[str, str] | None = None,
                     viewer: Any = None) -> list[str]:
    """What changed between two views of one game, as sentences in view order, e.g.
    ``"seat 1's position 5: Nap left the list"``, ``"seat 0's hand: +Laundry Load"``,
    ``"VP seat 0: 3 → 5"``.

    One mechanism for every game: dicts are compared key by key; a list of cards (card
    dicts or card names, :func:`is_card`) whose positions the game names (a
    ``VIEW_WORDS`` entry for ``path.*``) by the cards that left, joined or changed at a
    position; any other list of cards as what came and went (``+name``, ``-name``);
    other lists item by item; a card whose name stays by its fields. Places are named by
    ``words`` (a game's ``VIEW_WORDS``, see :class:`playtest.engine.Game`) with
    :func:`path_label` for the rest.

    Args:
        before, after: two views (plain JSON data). words: view path pattern -> words.
        viewer: what ``{viewer}`` stands for in ``words`` (the views' viewer).
    """
    name = _Namer(words or {}, viewer)
    out: list[str] = []

    def walk(old: Any, new: Any, path: tuple, place: str | None = None) -> None:
        if old == new:
            return
        here = place or name(path)
        if isinstance(old, dict) and isinstance(new, dict) and (
                not (is_card(old) or is_card(new)) or (is_card(old) and is_card(new)
                                                          and card_label(old) == card_label(new))):
            inside = f"{here} ({card_label(new)})" if is_card(new) and place else None
            for key in [*old, *(k for k in new if k not in old)]:      # the view's own order
                walk(old.get(key, MISSING), new.get(key, MISSING), path + (key,),
                     inside and f"{inside} {path_label(str(key))}")
            return
        if path == ("zones",) and isinstance(old, list) and isinstance(new, list) and _zone_list(old + new):
            # the generic board's zone vocabulary: each zone by its name and owner, matched
            # by (kind, name, owner) as the board matches them
            before = {zone_key(zone): zone for zone in old}
            after = {zone_key(zone) for zone in new}
            for i, zone in enumerate(new):
                label, was = _zone_label(zone), before.get(zone_key(zone))
                if was is None:
                    out.append(f"{label}: now {_zone_value(zone)}")
                    continue
                for key in [*was, *(k for k in zone if k not in was)]:        # its value and cards by its name
                    walk(was.get(key, MISSING), zone.get(key, MISSING), path + (i, key),
                         label if key in ("value", "cards") else f"{label} {path_label(str(key))}")
            out.extend(f"{_zone_label(zone)}: gone" for zone in old if zone_key(zone) not in after)
            return
        if isinstance(old, list) and isinstance(new, list):
            if not _card_list(old, new) and name.named(path + ("*",)) is None and _flat(old) and _flat(new):
                # e.g. seats to act: seat 0 → seat 1
                out.append(f"{here}: {value_label(old, path)} → {value_label(new, path)}")
            elif not _card_list(old, new):
                for i in range(max(len(old), len(new))):
                    walk(old[i] if i < len(old) else MISSING, new[i] if i < len(new) else MISSING, path + (i,))
            elif name.named(path + ("*",)) is not None:
                cards(old, new, path, here)
            else:
                gone, came = Counter(map(card_label, old)), Counter(map(card_label, new))
                moved = [f"+{c}" for c in (came - gone).elements()] + [f"-{c}" for c in (gone - came).elements()]
                if moved:
                    out.append(f"{here}: {', '.join(moved)}")
                elif [card_label(c) for c in old] != [card_label(c) for c in new]:
                    out.append(f"{here}: same cards in another order")
                else:
                    for i, (a, b) in enumerate(zip(old, new)):
                        walk(a, b, path + (i,), f"{here} card {i}")
            return
        if old is MISSING:
            out.append(f"{here}: now {value_label(new, path)}")
        elif new is MISSING:
            out.append(f"{here}: gone (was {value_label(old, path)})")
        else:
            out.append(f"{here}: {value_label(old, path)} → {value_label(new, path)}")     # seat on turn: …

    def cards(old: list, new: list, path: tuple, zone: str) -> None:
        """A list whose positions have names: the same length, position by position (a
        look, a swap); else aligned by card names, a face-down card that left or joined
        counted (the view cannot tell which one it was). A list of the same length is
        compared position by position unless one card left and another joined elsewhere
        (a Chore Race chore scored and a new one dealt at the end: "left", "joined",
        not three renames)."""
        names_old, names_new = [card_label(c) for c in old], [card_label(c) for c in new]
        labels = difflib.SequenceMatcher(None, names_old, names_new, autojunk=False)
        edits = [(op, old[i1:i2] + new[j1:j2]) for op, i1, i2, j1, j2 in labels.get_opcodes() if op != "equal"]
        named = all(not isinstance(c, dict) or "name" in c for _, moved in edits for c in moved)   # no face-down card
        shifted = sorted(op for op, _ in edits) == ["delete", "insert"] and named and bool(
            Counter(names_old) - Counter(names_new))
        if len(old) == len(new) and not shifted:
            for i, (a, b) in enumerate(zip(old, new)):
                walk(a, b, path + (i,), name(path + (i,)))
            return
        hidden = 0
        for op, i1, i2, j1, j2 in labels.get_opcodes():
            pairs = min(i2 - i1, j2 - j1) if op != "equal" else i2 - i1
            for k in range(pairs):
                walk(old[i1 + k], new[j1 + k], path + (j1 + k,), name(path + (j1 + k,)))
            for index, card, verb in [(i, old[i], "left") for i in range(i1 + pairs, i2)] + [
                    (j, new[j], "joined") for j in range(j1 + pairs, j2)]:
                if is_card(card) and "name" not in card:
                    hidden += 1 if verb == "joined" else -1
                else:
                    item = name(path + (index,))
                    out.append(f"{item}: {card_label(card)} {verb} {_the(item, zone)}")
        if hidden:
            verb = "joined" if hidden > 0 else "left"
            count = "a face-down card" if abs(hidden) == 1 else f"{abs(hidden)} face-down cards"
            out.append(f"{zone}: {count} {verb} ({len(old)} → {len(new)} cards)")

    walk(before, after, ())
    return out


def move_text_for(move: Move, viewer: int | None) -> str:
    """``move`` as the seat ``viewer`` (None: spectator; ``ALL_CARDS``: the all-cards
    view, which reads everything) may read it: in full if it is the viewer's own move or
    its arguments are all numbers (seats, positions), else its seat and kind only (its
    words may name cards the viewer has not seen)."""
    if move.seat == viewer or viewer == ALL_CARDS or all(isinstance(a, int) for a in move.args):
        return str(move)
    return f"{move.seat} {move.kind} …"


# --- the game's board ---------------------------------------------------------------
def record_people(record: Record) -> str:
    """Who played a live table's record, as a sentence for the debugger's line: each seat
    counted from 1 with its person's name or its bot, then each hand-over ("from move 13"),
    and the moves the table played for a person whose time ran out. "" for a record
    without them (a saved game)::

        Players: seat 1 Ana; seat 2 Ben, the heuristic bot from move 13; seat 3 the
        heuristic bot. The table played moves 5 and 9 for a person whose time ran out.
    """
    def who(row) -> str:
        return (row.name or "a person") if row.player == "human" else f"the {row.player} bot"

    parts = []
    for seat in range(record.seats):
        rows = [r for r in record.holders if r.seat == seat]
        if rows:
            parts.append(f"seat {seat + 1} {who(rows[0])}"
                         + "".join(f", {who(r)} from move {r.after + 1}" for r in rows[1:]))
    text = f"Players: {'; '.join(parts)}." if parts else ""
    if record.timed_out:
        numbers = [str(n) for n in record.timed_out]
        listed = numbers[0] if len(numbers) == 1 else f"{', '.join(numbers[:-1])} and {numbers[-1]}"
        text += (f" The table played move{'s' if len(numbers) > 1 else ''} {listed} for a person whose time "
                 "ran out.")
    return text.strip()


class ScenarioDebugger:
    """Step through a scenario in a notebook or the ``scenario_debugger`` dashboard.

    Args:
        scenario: a scenario to open at once (None: pick one in the widget).
        click_guard: seconds after the position changes during which the "Play this
            move" button ignores clicks (a double click must not play twice); None =
            :data:`playtest.widgets.moves.CLICK_GUARD`. Tests pass 0.

    Attributes:
        widget: the root box to display. scenario: the loaded Scenario (None before
            one is loaded); source: where it came from. line: the loaded line (a Match
            of every scenario move, never changed). match: the match on show (``line``
            or a branch). branch_point: the move the branch left the loaded line at
            (None on the loaded line). viewer: the seat whose view is shown (None:
            spectator; ``ALL_CARDS``: every card face up). results: ``{expectation index: [Failure]}`` of the
            loaded line (empty list = passed). failure: the ScenarioMoveError of the
            loaded scenario's first move that cannot be played (None when all replay);
            ``scenario`` and ``line`` then hold the moves before it.
        banner, examples, upload, views, all_cards, first, back, forward, last, slider, number,
        go, move_list, changes, log, actor, legal, move_text, play_button, confirm_box,
        why_text, why_button, why_result, expectations, export_toml, export_pytest,
        export_link, reload: the components.
    """

    def __init__(self, scenario: Scenario | None = None, click_guard: float | None = None):
        self.scenario: Scenario | None = None
        self.source = ""
        self.line: Match | None = None
        self.match: Match | None = None
        self.branch_point: int | None = None
        self.viewer: int | None = None
        self.results: dict[int, list[Failure]] = {}
        self.failure: ScenarioMoveError | None = None
        self._failure_reason, self._failure_public = "", False
        self.guard = click_guard
        self._changed_at = float("-inf")
        self._drawing = False
        self._pending: Move | None = None
        self._probe_key = None
        self._probe: Match | None = None
        self.board: GameBoard | None = None
        self.game: type[Game] | None = None     # the Game class shown (BoardHost)
        self.banner = ErrorBanner()
        report = self.banner.show

        def button(text, tip, handler, style=""):
            b = w.Button(description=text, tooltip=tip, button_style=style, layout=w.Layout(width="auto"))
            b.on_click(safe(lambda _b: handler(), report))
            return b

        # loading
        self.examples = w.Dropdown(options=[("— pick an example —", "")] + [(n, n) for n in examples()],
                                   description="Example", layout=w.Layout(width="420px"))
        self.examples.observe(safe(self._picked, report), "value")
        self.upload = LimitedUpload(accept=".toml,.json", description="Upload .toml/.json",
                                    hint=f"Scenarios (.toml) or records (.json) up to {limits.SIZE_TEXT}")
        self.upload.observe(safe(self._uploaded, report), "value")
        self.about = w.HTML("<i>Pick a shipped example or upload a scenario file (.toml) or a record (.json, a live table's or a saved game's).</i>")
        self.about.add_class("pt-scenario-about")
        # view and stepping
        self.views = w.ToggleButtons(description="View", style={"button_width": "auto"})
        self.views.observe(safe(self._view_picked, report), "value")
        self.all_cards = w.HTML(layout=w.Layout(display="none"))   # the all-cards view's zones and warning
        self.all_cards.add_class("pt-allcards")
        self.first = button("|◀ First", "Go to the setup (move 0)", lambda: self.goto(0))
        self.back = button("◀ Back", "One move back", lambda: self.goto(self.match.cursor - 1))
        self.forward = button("Forward ▶", "One move forward", lambda: self.goto(self.match.cursor + 1))
        self.last = button("Last ▶|", "Go to the last move of the line", lambda: self.goto(len(self.match.moves)))
        self.slider = w.IntSlider(min=0, max=0, description="Move", continuous_update=False,
                                  layout=w.Layout(width="300px"))
        self.slider.observe(safe(self._slid, report), "value")
        self.number = w.BoundedIntText(min=0, max=0, layout=w.Layout(width="80px"))
        self.go = button("Go", "Jump to the move number in the box", lambda: self.goto(self.number.value))
        self.position = w.HTML()
        self.reload = button("Back to the loaded line", "Leave the branch and show the scenario's own moves",
                             self.back_to_line, "info")
        stepper = w.HBox([self.first, self.back, self.slider, self.forward, self.last, self.number, self.go,
                          self.position, self.reload], layout=w.Layout(align_items="center", flex_flow="row wrap"))
        # move list, what changed, log
        self.move_list = w.Select(rows=14, layout=w.Layout(width="280px"))
        self.failing = w.HTML()
        self.failing.add_class("pt-failing")
        self.move_list.observe(safe(self._listed, report), "value")
        self.move_list.add_class("pt-movelist")
        self.changes = w.HTML()
        self.changes.add_class("pt-changed")
        self.log = LogView("Log (this view)")
        # branch, why not, expectations, export
        self.actor = w.Dropdown(description="Act as", layout=w.Layout(width="300px"))
        self.actor.observe(safe(self._actor_picked, report), "value")
        self.legal = w.Dropdown(description="Move", layout=w.Layout(width="340px"))
        self.move_text = w.Text(placeholder="or type a move", layout=w.Layout(width="220px"))
        self.play_button = button("Play this move", "Branch: play the move here and go on from there",
                                  self.play_chosen, "success")
        self.confirm_text = w.HTML()
        self.confirm_box = w.HBox([self.confirm_text, button("Yes, branch", "", self.confirm, "danger"),
                                   button("Cancel", "", self.cancel)], layout=w.Layout(display="none"))
        branch = w.VBox([w.HTML("<b>Branch</b>: take another move here (acting as a seat shows its view)"),
                         self.actor, self.legal,
                         w.HBox([self.move_text, self.play_button]), self.confirm_box])
        # Enter asks too: the value is sent on Enter (or when the box loses focus)
        self.why_text = w.Text(placeholder="a move", continuous_update=False,
                               layout=w.Layout(width="220px"))
        self.why_text.observe(safe(lambda change: change["new"].strip() and self.ask(), report), "value")
        self.why_button = button("Why not?", "Is this move legal here? If not, which ruling forbids it", self.ask)
        self.why_result = w.HTML()
        self.why_result.add_class("pt-why")
        self.why_switch = button("", "Show that seat's view and answer there", self._ask_in_seat_view, "info")
        self.why_switch.layout.display = "none"
        self._why_seat: tuple[int | None, str] = (None, "")     # the seat and move waiting for its view
        why = w.VBox([w.HTML("<b>Why not?</b> Ask about any move (Enter or the button)"),
                      w.HBox([self.why_text, self.why_button]), self.why_result, self.why_switch])
        self.expectations = w.HTML()
        self.export_toml = button("Export scenario (.toml)", "The line up to the shown move, as a scenario file",
                                  lambda: self.export("toml"))
        self.export_pytest = button("Export pytest test (.py)", "A pytest test that replays the line up to the "
                                    "shown move and checks the final state", lambda: self.export("pytest"))
        self.export_link = w.HTML()
        export = w.VBox([w.HTML("<b>Export</b> the line up to the shown move"),
                         w.HBox([self.export_toml, self.export_pytest]), self.export_link,
                         w.HTML("<i>The file holds the seed and setup: every card of the game.</i>")])
        for panel in (branch, why, export):
            panel.add_class("pt-panel")
        self.board_box = w.VBox()
        self.board_box.add_class("pt-table")
        self.body = w.VBox([self.views, self.all_cards, self.failing, self.board_box, stepper,
                            w.HBox([w.VBox([w.HTML("<b>Moves</b>"), self.move_list]),
                                    w.VBox([w.HTML("<b>What changed</b>"), self.changes],
                                           layout=w.Layout(flex="1 1 auto", min_width="0")),
                                    self.log.widget], layout=w.Layout(align_items="flex-start")),
                            w.HTML("<b>Expectations</b>"), self.expectations,
                            w.HBox([branch, why, export], layout=w.Layout(flex_flow="row wrap",
                                                                           align_items="flex-start"))],
                           layout=w.Layout(display="none"))
        self.widget = w.VBox([style_widget(), w.HTML(STYLE), self.banner.widget,
                              w.HBox([self.examples, self.upload]), self.about, self.body])
        self.widget.add_class("pt-app")
        self.widget.add_class("pt-debugger")
        if scenario is not None:
            self.open(scenario)

    # --- loading ------------------------------------------------------------------
    def open(self, scenario: Scenario, source: str = "") -> None:
        """Show ``scenario`` from its first position (move 0), spectator view.

        A scenario whose move K is unreadable or illegal opens at move K-1 (the moves
        that replay), with move K shown as the failing step (its ruling, the reason and
        the legal alternatives, see :attr:`failure`): step through it, ask "why not?"
        and branch from there. Only the expectations up to move K-1 are checked.

        Raises:
            ScenarioError: the setup cannot be built; the scenario on show is kept.
        """
        try:
            line, failure = scenario.to_match(), None
        except ScenarioMoveError as exc:
            if exc.scenario is None:
                raise
            failure, kept = exc, exc.number - 1
            scenario = exc.scenario.model_copy(update={"moves": exc.scenario.moves[:kept],
                                                       "expect": [e for e in exc.scenario.expect if e.after <= kept]})
            line = scenario.to_match()
        results = self._check(scenario)
        game = type(line.game)
        self.scenario, self.source, self.line, self.match = scenario, source, line, line
        self.branch_point, self.viewer, self.results, self.failure = None, None, results, failure
        self._failure_reason, self._failure_public = _refusal(line, failure.move) if failure else ("", False)
        if self.game is not game:
            self.game = game
            self.board = board_class(game)(self)
            self.moves = MoveBuilder(game.MOVE_ARGS, self.board, lambda _m: None)   # the boards read it
            self.moves.show(None, [], {}, enabled=False)
            self.board_box.children = (self.board.widget,)
            # a move of this game to show how one is written (a kind without arguments:
            # it names no card, whichever view is shown)
            kind = next((kind for kind, args in game.MOVE_ARGS.items() if not args), next(iter(game.MOVE_ARGS)))
            example = f"0 {kind}"
            self.why_text.placeholder = f"a move, e.g. {example}"
            self.move_text.placeholder = f"or type a move, e.g. {example}"
        self._drawing = True
        try:
            self.views.options = ([(SPECTATOR_LABEL, None)] + [(f"Seat {s + 1}", s) for s in range(line.game.seats)]
                                  + [(ALL_CARDS_LABEL, ALL_CARDS)])
            self.views.value = None
            self.examples.value = source if source in dict(self.examples.options).values() else ""
        finally:
            self._drawing = False
        self.banner.clear()
        line.goto(len(line.moves) if failure else 0)
        self.body.layout.display = "flex"
        self.refresh()

    def load_text(self, text: str, source: str = "<upload>") -> None:
        """Open a scenario from its TOML text.

        Raises:
            ScenarioError: the text is not a valid scenario (the message names the line
                and the reason); the scenario on show is kept.
        """
        self.open(_readable_part(lambda: Scenario.from_toml(text, source)), source)

    def open_example(self, name: str) -> None:
        """Open a shipped example by name (see :func:`playtest.scenarios.examples`).

        Raises:
            ScenarioError: no such example (the message lists them), or see :meth:`open`.
        """
        self.open(_readable_part(lambda: find_scenario(name)), name)

    def open_link(self, query: str) -> None:
        """Open what a page address asks for: ``?scenario=NAME`` (a shipped example or
        ``NAME.toml`` in the scenarios folder, see
        :func:`playtest.scenarios.find_scenario`) or ``?record=DATA`` (a game
        dashboard's shared position, see :func:`playtest.widgets.records.pack_record`).
        A bad value shows the error banner and leaves the debugger as it was; no query
        does nothing.

        Args:
            query: the page's query string (Voilà passes it as ``QUERY_STRING``).
        """
        try:
            link = parse_link(query)
            if link.seed is not None:
                raise ValueError("the debugger opens a scenario (?scenario=NAME), not a seed; "
                                 "open the game page with ?game=NAME&seed=N to play that seed")
            if link.scenario is not None:
                self.open(_readable_part(lambda: find_scenario(link.scenario)), link.scenario)
            elif link.record is not None:        # a game page's shared position
                match = unpack_record(link.record)
                self.open(Scenario.from_match(match, title=f"Shared position (move {len(match.moves)})",
                                              expect_final=False), "shared_position")
        except (PlaytestError, ValueError) as exc:
            self.banner.show(exc)

    def _picked(self, change) -> None:
        if change["new"] and not self._drawing:
            self.open_example(change["new"])

    def _uploaded(self, change) -> None:
        files = change["new"]
        if not files:
            return
        name = str(files[0].get("name") or "the uploaded file")
        self.upload.value = ()
        try:
            text = limits.decode(files[0]["content"], name)   # size, UTF-8 and NUL checks
        except limits.LimitError as exc:
            if exc.limit == "MAX_BYTES":                       # said beside the button too
                self.upload.message = self.upload.refusal(name, limits.human_size(len(files[0]["content"])))
            raise ScenarioError(name, exc.line, exc.reason) from None
        if name.lower().endswith(".json") or text.lstrip().startswith("{"):
            self.load_record(text, name)
        else:
            self.load_text(text, name)

    def load_record(self, text: str, source: str = "<upload>") -> None:
        """Open a record (JSON, as :meth:`Match.to_json` writes it, or a live table's
        record) as a scenario of its moves, from move 0; a record's extra move times are
        not needed. A live table's record says who played each seat (names and hand-overs)
        and which moves the table played for a person whose time ran out
        (:func:`record_people`), in the line above the board.

        Raises:
            RecordError: the text is over the input limits, not JSON, not a record, or a
                move of it cannot be played (the message says which and why, naming
                ``source``); the scenario on show is kept.
        """
        try:
            match = Match.from_json(text, what=source)
        except RecordError as exc:
            raise RecordError(f"{source} cannot be opened as a record: {exc}") from None
        record = Record.model_validate(limits.load_json(text, source))     # read once already: it passes
        self.open(Scenario.from_match(match, title=f"Record {source} ({len(match.moves)} moves)",
                                      description=record_people(record), upto=len(match.moves),
                                      expect_final=False), source)

    @staticmethod
    def _check(scenario: Scenario) -> dict[int, list[Failure]]:
        """Each expectation's failures on the loaded line (empty = passed)."""
        results: dict[int, list[Failure]] = {i: [] for i in range(len(scenario.expect))}
        for failure in scenario.verify():
            results.setdefault(failure.entry - 1, []).append(failure)
        return results

    # --- moving -------------------------------------------------------------------
    def goto(self, n: int) -> None:
        """Show the position after ``n`` moves of the line on show.

        Raises:
            IndexError: ``n`` outside 0..number of moves (the message says the range).
        """
        if self.match is None:
            raise ValueError("load a scenario first: pick an example or upload a .toml file")
        self.match.goto(n)
        self.refresh()

    def set_view(self, seat: int | None | str) -> None:
        """Show what ``seat`` sees (None: the spectator; ``ALL_CARDS``: every card face
        up, for debugging alone).

        Raises:
            IndexError: not a seat of this game.
        """
        if seat is not None and seat != ALL_CARDS and not (type(seat) is int and 0 <= seat < self.match.game.seats):
            raise IndexError(f"{seat!r} is not a seat of this {self.match.game.seats}-seat game (G-1)")
        self.viewer = seat
        if self.views.value != seat:
            self.views.value = seat          # redraws through _view_picked
        else:
            self.refresh()

    def back_to_line(self) -> None:
        """Leave the branch: show the loaded line at the move the branch left it."""
        if self.line is None:
            return
        self.match = self.line
        self.line.goto(self.branch_point or 0)
        self.branch_point = None
        self.refresh()

    def _probe_match(self) -> Match:
        """A match at the shown position that may play (a branch when rewound), for
        legal moves and "why not?"; cached per position."""
        key = (id(self.match), self.match.cursor, len(self.match.moves))
        if self._probe_key != key:
            self._probe = self.match if self.match.at_end else self.match.branch()
            self._probe_key = key
        return self._probe

    # --- branching ----------------------------------------------------------------
    def play_chosen(self) -> None:
        """"Play this move": the typed move if any, else the one picked in the list.
        Asks first when it drops later moves of a branch (never of the loaded line,
        which stays reachable); a click right after the position changed is ignored.

        Raises:
            MoveSyntaxError, IllegalMove: the move cannot be played here (nothing changes).
        """
        guard = move_controls.CLICK_GUARD if self.guard is None else self.guard
        if guard > 0 and time.monotonic() - self._changed_at < guard:
            return
        text = self.move_text.value.strip() or self.legal.value
        if not text:
            raise ValueError("pick a legal move or type one (e.g. '0 draw')")
        self.branch(text)

    def branch(self, move: Move | str, confirmed: bool = False) -> None:
        """Play ``move`` at the shown position and go on from there in a branch. If
        the line on show is itself a branch with later moves, they are dropped, so
        without ``confirmed`` the debugger asks first (see :meth:`confirm`).

        Raises:
            MoveSyntaxError, IllegalMove: the move is unreadable or illegal here (the
                error names the ruling and the legal moves); nothing changes.
        """
        move = Move.parse(move)
        trial = self._probe_match().branch()
        trial.play(move)                      # raises before anything changes
        dropped = len(self.match.moves) - self.match.cursor
        if dropped and self.match is not self.line and not confirmed:
            self._pending = move
            self.confirm_text.value = (f"Playing '{html.escape(move_text_for(move, self.viewer))}' at move "
                                       f"{self.match.cursor} drops the {dropped} later move"
                                       f"{'s' if dropped != 1 else ''} of this branch. ")
            self.confirm_box.layout.display = "flex"
            return
        if self.match is self.line:
            self.branch_point = self.line.cursor
        self.match = trial
        self.move_text.value = ""
        self.refresh()

    def confirm(self) -> None:
        """Yes: play the move waiting for confirmation."""
        move, self._pending = self._pending, None
        self.confirm_box.layout.display = "none"
        if move is not None:
            self.branch(move, confirmed=True)

    def cancel(self) -> None:
        """No: forget the move waiting for confirmation."""
        self._pending = None
        self.confirm_box.layout.display = "none"

    def _actor_picked(self, change) -> None:
        if self._drawing or change["new"] is None:
            return
        self.set_view(change["new"])         # a seat's legal moves name its cards

    # --- why not ------------------------------------------------------------------
    def ask(self) -> None:
        """The "Why not?" button (or Enter in its box): answer the typed move under the
        box; an unreadable move or an unknown seat is answered there too. A new
        question clears the previous answer and the error banner."""
        self.banner.clear()
        try:
            self.why_not()
        except (MoveSyntaxError, IndexError) as exc:
            self.why_result.value = f"<span class='pt-fail'>Not a move here</span>: {html.escape(str(exc))}"

    def _ask_in_seat_view(self) -> None:
        seat, question = self._why_seat
        if seat is not None:
            self.set_view(seat)
            self.why_not(question)

    def why_not(self, text: str | None = None) -> str:
        """Say whether a move is legal at the shown position, and if not, the ruling
        (when one forbids it) with what it says (its line, :func:`~playtest.widgets.gameboard.ruling_sentence`),
        the reason and the seat's legal alternatives. The answer
        can tell what the move's seat holds, so it is given only in that seat's view;
        in another view the answer says whose view is needed (and offers a button to
        switch), and the view stays as it is. Returns the answer as plain text.

        Args:
            text: a move text (default: the "why not?" box).

        Raises:
            MoveSyntaxError: the text is not a move; IndexError: no such seat. The
                previous answer is cleared first.
        """
        self.why_result.value = ""
        self.why_switch.layout.display = "none"
        move = Move.parse(self.why_text.value if text is None else text)
        seats = self.match.game.seats
        if not 0 <= move.seat < seats:
            raise IndexError(f"seat {move.seat} in a move text is not a seat of this {seats}-seat game: move texts "
                             f"count seats 0 to {seats - 1} (G-1)")
        if self.viewer not in (move.seat, ALL_CARDS):
            self._why_seat = (move.seat, str(move))
            shown = "the spectator's view" if self.viewer is None else f"seat {self.viewer + 1}'s view"
            answer = (f"'{move_text_for(move, self.viewer)}' is {move_text_seat(move.seat)}'s move: whether it is "
                      f"legal, and the alternatives, can tell what seat {move.seat + 1} holds, so they are shown in "
                      f"seat {move.seat + 1}'s view only (this is {shown})")
            self.why_result.value = html.escape(answer) + "."
            self.why_switch.description = f"Show seat {move.seat + 1}'s view and answer"
            self.why_switch.layout.display = None
            return answer
        exc = self._probe_match().refusal(move)
        if exc is not None:
            legal = ", ".join(str(m) for m in exc.legal) or "none: this seat has no move now"
            ruling = f" ({exc.ruling})" if exc.ruling else ""
            rule = ruling_sentence(self.match.game, exc.ruling)
            self.why_result.value = ("<span class='pt-fail'>Illegal</span>"
                                     + (f" <b>{html.escape(exc.ruling)}</b>" if exc.ruling else "")
                                     + f": {html.escape(for_people(exc.reason))}."
                                     + (f"<br>{html.escape(rule)}" if rule else "")
                                     + f"<br>Legal moves for {move_text_seat(move.seat)}: {html.escape(legal)}")
            return (f"'{move}' is illegal{ruling}: {for_people(exc.reason)}." + (f" {rule}" if rule else "")
                    + f" Legal moves for {move_text_seat(move.seat)}: {legal}")
        self.why_result.value = f"<span class='pt-pass'>Legal</span>: '{html.escape(str(move))}' may be played here."
        return f"'{move}' is legal"

    # --- export -------------------------------------------------------------------
    def current_scenario(self) -> Scenario:
        """The line on show up to the shown move, as a scenario (title and description
        from the loaded one): the loaded scenario's own expectations up to the shown
        move (on a branch: up to the move it left the loaded line at, the moves both
        share), then the final state pinned as an expectation."""
        title = self.scenario.title or "scenario"
        shared = self.match.cursor
        if self.match is not self.line:
            title += f" (branch at move {self.branch_point})"
            shared = self.branch_point
        scenario = Scenario.from_match(self.match, title=title, description=self.scenario.description,
                                       upto=self.match.cursor)
        kept = [e for e in self.scenario.expect if e.after <= shared]
        return scenario.model_copy(update={"expect": kept + scenario.expect})

    def export(self, kind: str) -> str:
        """Make the download link of the line up to the shown move: ``"toml"`` (a
        scenario file) or ``"pytest"`` (a test module replaying it). Returns the text.

        Raises:
            ValueError: another kind.
        """
        scenario = self.current_scenario()
        stem = "".join(c if c.isalnum() else "_" for c in (self.source.rsplit(".", 1)[0] or self.match.game.name))
        stem = f"{stem.strip('_') or 'scenario'}_move{self.match.cursor}"
        if kind == "toml":
            text, filename, mime = scenario.to_toml(), f"{stem}.toml", "application/toml"
        elif kind == "pytest":
            text, filename, mime = scenario.to_pytest(f"test_{stem}"), f"test_{stem}.py", "text/x-python"
        else:
            raise ValueError(f"export kind must be 'toml' or 'pytest', not {kind!r}")
        self.export_link.value = download_link(text, filename, mime, "Download")
        return text

    # --- drawing ------------------------------------------------------------------
    def seat_name(self, seat: int) -> str:
        """A seat's label on the board, e.g. "Seat 2 (this view)"."""
        return f"Seat {seat + 1} (this view)" if seat == self.viewer else f"Seat {seat + 1}"

    def card_clicked(self, seat: int, pos: int | None) -> None:
        """Cards are not clickable in the debugger (moves are chosen in the branch panel)."""

    live = False
    """The board never makes moves here (:class:`~playtest.widgets.gameboard.BoardHost`):
    moves are chosen in the branch panel."""

    def decision_moves(self, seat: int) -> list[Move]:
        """None: the board offers no moves here (see :attr:`live`)."""
        return []

    def _view_picked(self, change) -> None:
        if not self._drawing:
            self.viewer = change["new"]
            self.refresh()

    def _slid(self, change) -> None:
        if not self._drawing and self.match is not None and change["new"] != self.match.cursor:
            self.goto(change["new"])

    def _listed(self, change) -> None:
        if self._drawing or change["new"] is None or change["new"] == self.match.cursor:
            return
        if change["new"] > len(self.match.moves):     # the failing step: it cannot be shown
            self.refresh()
        else:
            self.goto(change["new"])

    def refresh(self) -> None:
        """Redraw every component from the shown position and view."""
        self._drawing = True
        try:
            self._draw()
        finally:
            self._drawing = False

    def _draw(self) -> None:
        match, viewer = self.match, self.viewer
        cursor, total = match.cursor, len(match.moves)
        self._changed_at = time.monotonic()
        self.export_link.value = ""
        self.why_result.value = ""               # an answer about another position or view
        self.why_switch.layout.display = "none"
        self.cancel()
        self.views.value = viewer
        # where we are
        self.slider.max = self.number.max = total
        self.slider.value = self.number.value = cursor
        self.first.disabled = self.back.disabled = cursor == 0
        self.forward.disabled = self.last.disabled = cursor == total
        branch = "" if match is self.line else f" · <b>branch</b> from move {self.branch_point} of the loaded line"
        self.position.value = f"Move <b>{cursor}</b> of {total}{branch}"
        self.reload.layout.display = "none" if match is self.line else None
        about = self.scenario
        self.about.value = (f"<b>{html.escape(about.title or self.source or 'Scenario')}</b> · "
                            f"{html.escape(get_game(about.game).title)}, {about.seats} seats, seed {about.seed}"
                            + (f"<br>{html.escape(about.description)}" if about.description else ""))
        # the move list, with the expectations that fall on each step
        marks = self._marks()
        items = [(f"0 · setup{marks.get(0, '')}", 0)]
        items += [(f"{n} · {move_text_for(m, viewer)}{marks.get(n, '')}", n) for n, m in enumerate(match.moves, 1)]
        failing = self.failure is not None and match is self.line
        if failing:
            items.append((f"{self.failure.number} · ✗ {self._failing_move_text()} (cannot be played)", total + 1))
        self.failing.value = self._failing() if failing else ""
        if list(self.move_list.options) != items:
            self.move_list.options = items
        self.move_list.value = cursor
        # board, log, what changed
        view = self._view()
        self.board.update(view, set())
        self.all_cards.value = self._all_cards(view) if viewer == ALL_CARDS else ""
        self.all_cards.layout.display = None if viewer == ALL_CARDS else "none"
        lines = match.log_for(viewer)
        self.log.show(lines)
        self.changes.value = self._changes(view, [t for n, t in lines if n == cursor])
        self.expectations.value = self._expectations()
        # branch: every seat with a legal move here, open moves included
        probe = self._probe_match()
        deciding = probe.to_act()
        seats = [s for s in range(probe.game.seats) if probe.legal_moves(s)]
        outcome = probe.outcome()
        self.actor.options = [(self._actor_label(probe, s, deciding), s) for s in seats]
        self.actor.value = viewer if viewer in seats else None
        legal = [str(m) for m in probe.legal_moves(viewer)] if viewer in seats else []
        first = "— pick a move —" if viewer in seats else "— choose a seat to act as —" if seats else "— nobody may move —"
        self.legal.options = [(first, "")] + [(t, t) for t in legal]
        self.legal.value = ""
        self.play_button.disabled = outcome is not None

    def _failing_seat(self) -> int | None:
        """The seat of the failing move, or None when its text names no seat."""
        try:
            return Move.parse(self.failure.move).seat
        except MoveSyntaxError:
            return None

    def _failing_move_text(self) -> str:
        """The failing move as the chosen view may read it (an unreadable one as written)."""
        try:
            return move_text_for(Move.parse(self.failure.move), self.viewer)
        except MoveSyntaxError:
            return self.failure.move

    def _failing(self) -> str:
        """The failing step of the loaded scenario: which move, its ruling and what the
        ruling says (:func:`~playtest.widgets.gameboard.ruling_sentence`), and (in its
        seat's view only: they can tell what the seat holds) the reason and the legal
        alternatives."""
        failure, seat = self.failure, self._failing_seat()
        number = failure.number
        head = (f"<span class='pt-fail'>✗ Move {number} cannot be played</span>: "
                f"'{html.escape(self._failing_move_text())}'"
                + (f" breaks <b>{html.escape(failure.ruling)}</b>" if failure.ruling else ""))
        seen = seat is None or seat == self.viewer or self.viewer == ALL_CARDS or not 0 <= seat < self.line.game.seats
        if seen or self._failure_public:
            legal = ", ".join(map(str, failure.legal)) if seen else ""
            detail = f": {html.escape(for_people(self._failure_reason))}" + (
                f"<br>Legal moves for {move_text_seat(seat)} instead: {html.escape(legal)}" if legal else "")
        else:
            detail = (f". <i>The reason and seat {seat + 1}'s legal moves can tell what seat {seat + 1} holds: "
                      f"switch the view to Seat {seat + 1} to read them.</i>")
        dropped = len(self.failure.scenario.moves) - number
        after = f" (and the {dropped} move{'s' if dropped != 1 else ''} after it)" if dropped else ""
        rule = ruling_sentence(self.line.game, failure.ruling)   # a rule is public: said in every view
        return (f"<div class='pt-panel'>{head}{detail}" + (f"<br>{html.escape(rule)}" if rule else "")
                + f"<br>The debugger stops at move {number - 1}, the last move "
                f"that replays{after}: step through, ask \"why not?\" and branch from here.</div>")

    def _marks(self) -> dict[int, str]:
        """Move number -> " ✓"/" ✗" for the expectations at that step (loaded line)."""
        if self.match is not self.line:
            return {}
        marks: dict[int, str] = {}
        for i, expectation in enumerate(self.scenario.expect):
            marks[expectation.after] = marks.get(expectation.after, "") + (" ✗" if self.results.get(i) else " ✓")
        return marks

    def _view(self) -> dict:
        """The chosen view of the shown position: a seat's, the spectator's, or (for
        ``ALL_CARDS``) every card face up."""
        return self.match.all_cards_view() if self.viewer == ALL_CARDS else self.match.view(self.viewer)

    @staticmethod
    def _all_cards(view: dict) -> str:
        """The all-cards view's warning and its zones no board draws (deck order, ...)."""
        zones = "".join(f"<div>{html.escape(line)}</div>" for line in zone_lines(view))
        return ("<b>All cards — for debugging only: no player sees this view.</b> Every card is face up, "
                "the log shows what each seat read, moves and answers are in full; expectations still "
                f"read the seats' own views.{zones}")

    @staticmethod
    def _actor_label(probe: Match, seat: int, deciding: tuple[int, ...]) -> str:
        """ "seat 1" for a seat with a decision now; "seat 2 (out of turn: claim)" for a
        seat with open moves only (e.g. Lazy Sunday's quick discard, LS-5)."""
        if seat in deciding:
            return f"seat {seat + 1}"
        kinds = sorted({m.kind for m in probe.legal_moves(seat)})
        return f"seat {seat + 1} (out of turn: {', '.join(kinds)})"

    def _changes(self, view: dict, lines: list[str]) -> str:
        """The log lines of the shown move and what changed in the chosen view since the
        step before, in words (:func:`describe_changes` with the game's ``VIEW_WORDS``)."""
        cursor = self.match.cursor
        if cursor == 0:
            return "<i>The setup: step forward to see what each move changes.</i>"
        self.match.goto(cursor - 1)
        before = self._view()
        self.match.goto(cursor)
        diff = describe_changes(before, view, type(self.match.game).VIEW_WORDS, self.viewer)
        log = "".join(f"<div>{html.escape(for_people(t))}</div>" for t in lines) or "<i>no log line for this view</i>"
        rows = "".join(f"<li>{html.escape(for_people(sentence))}</li>" for sentence in diff[:200])
        more = f"<div><i>… and {len(diff) - 200} more</i></div>" if len(diff) > 200 else ""
        return (f"<div><b>Move {cursor}</b>: {html.escape(move_text_for(self.match.moves[cursor - 1], self.viewer))}"
                f"</div>{log}<ul>{rows}</ul>{more}" if diff else
                f"<div><b>Move {cursor}</b></div>{log}<i>this view did not change</i>")

    def _expectations(self) -> str:
        """The scenario's expectations with pass/fail, detailed only in their view."""
        if not self.scenario.expect:
            return "<i>This scenario states no expectations.</i>"
        if self.match is not self.line:
            return "<i>Expectations are checked on the loaded line (“Back to the loaded line”).</i>"
        rows = []
        for i, expectation in enumerate(self.scenario.expect):
            failures = self.results.get(i, [])
            mark = "<span class='pt-fail'>✗ fails</span>" if failures else "<span class='pt-pass'>✓ passes</span>"
            # a seat's legal/illegal moves and its view tell what it holds: each part is
            # detailed only in its seat's view (the others get a pointer to that view)
            parts = expectation_parts(expectation)
            shown = (None, self.viewer) if self.viewer != ALL_CARDS else (None, *range(self.match.game.seats))
            readable = "; ".join(text for seat, text in parts if seat in shown)
            hidden = sorted({seat for seat, _ in parts if seat not in shown})
            detail = html.escape(readable) + "".join(
                f"<br><span class='pt-fail'>{html.escape(failure.expectation)}: expected "
                f"{html.escape(short_repr(failure.expected))}, found {html.escape(short_repr(failure.found))}"
                f"{html.escape(f' ({failure.detail})' if failure.detail else '')}</span>"
                for failure in failures if failure_seat(expectation, failure) in shown)
            if hidden:
                seats = " or ".join(f"seat {s + 1}" for s in hidden)
                detail += (("; " if readable else "") + f"<i>it also reads what only {seats} may see (its legal "
                           f"moves or view): switch the view to {seats} to read it</i>")
            here = " (shown now)" if expectation.after == self.match.cursor else ""
            rows.append(f"<div>after move {expectation.after}{here}: {mark} · {detail}</div>")
        return "".join(rows)

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)


def _refusal(match: Match, text: str) -> tuple[str, bool]:
    """Why ``text`` cannot be played at the end of ``match`` (the game's own words), and
    whether every view may read it: a move written wrong (unreadable, a typo in its kind:
    "did you mean 'done'?", see :func:`~playtest.scenarios.scenario.move_mistake`) tells
    nothing its seat holds; why a move is not legal may (CR-7: an Excuse in hand)."""
    if mistake := move_mistake(match.game, text):
        return mistake, True
    problem = match.refusal(text)
    return ((problem.reason or str(problem)) if problem else "it was refused when the scenario was loaded"), False


def _readable_part(load: Callable[[], Scenario]) -> Scenario:
    """The scenario ``load`` reads; when one of its moves cannot be played, the
    scenario as written (:meth:`ScenarioDebugger.open` opens its moves that replay)."""
    try:
        return load()
    except ScenarioMoveError as exc:
        if exc.scenario is None:
            raise
        return exc.scenario


def expectation_parts(expectation: Expectation) -> list[tuple[int | None, str]]:
    """What an expectation checks, part by part, as ``(seat, text)``: ``seat`` is the seat
    whose secrets the part may tell (None: anyone may read it). A seat's view (its memory,
    LS-11, and the log it reads too), and whether a move of a seat is legal or illegal,
    can tell what that seat holds (e.g. "1 excuse"
    legal in Chore Race's reaction window says seat 1 holds an Excuse, CR-7), so those
    parts belong to their seat; to_act, the spectator's view, the outcome and the exact
    state's hash are public (the seed is shown anyway)."""
    parts: list[tuple[int | None, str]] = []
    if expectation.to_act is not None:
        parts.append((None, f"to act: {expectation.to_act}"))
    e, seat = expectation, expectation.seat
    whose = f" of seat {seat}" if seat is not None else ""
    since = "" if e.since is None else f" since {e.since!r}"
    parts += [(seat, f"view{whose} {path!r} = {value!r}") for path, value in (e.view or {}).items()]
    parts += [(seat, f"view{whose} {path!r} is none") for path in e.none]
    parts += [(seat, f"view{whose} {path!r} is absent") for path in e.absent]
    parts += [(seat, f"view{whose} {path!r} has length {n}") for path, n in e.length.items()]
    parts += [(seat, f"view{whose} {path!r} contains {value!r}") for path, value in e.contains.items()]
    parts += [(seat, f"view{whose} {path!r} = {value!r} in any order") for path, value in e.unordered.items()]
    parts += [(seat, f"view{whose} {path!r} changes by {delta:+}{since}") for path, delta in e.change.items()]
    parts += [(seat, f"view{whose} {path!r} unchanged{since}") for path in e.unchanged]
    parts += [(seat, f"log{whose} shows {text!r}") for text in e.log]
    parts += [(seat, f"log{whose} hides {text!r}") for text in e.log_hides]
    parts += [(Move.parse(text).seat, f"legal: {text}") for text in expectation.legal]
    parts += [(Move.parse(r.move).seat, f"illegal: {r.move}" + (f" ({r.ruling})" if r.ruling else ""))
              for r in expectation.illegal]
    if expectation.outcome is not None:
        winners = "" if expectation.outcome.winners is None else f", winners {expectation.outcome.winners}"
        parts.append((None, f"outcome: {'finished' if expectation.outcome.finished else 'not finished'}{winners}"))
    if expectation.fingerprint:
        parts.append((None, f"exact state {expectation.fingerprint[:12]}…"))
    return parts


def failure_seat(expectation: Expectation, failure: Failure) -> int | None:
    """The seat whose secrets ``failure`` (of ``expectation``) may tell: the seat of its
    view or of its legal/illegal move (what was found names the seat's options); None: public."""
    if failure.expectation.startswith(("view of seat", "log of seat")):
        return expectation.seat
    if failure.expectation.startswith(("legal ", "illegal ")):
        for text in [*expectation.legal, *(r.move for r in expectation.illegal)]:
            if failure.expectation.split(" ", 1)[1].startswith(repr(text)):
                return Move.parse(text).seat
    return None

