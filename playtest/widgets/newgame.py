"""The new-game panel: seat count, human or bot per seat, one input per game option
(generated from ``Game.Options.model_fields``, with the RULINGS description as tooltip
and help line), and the seed (blank = random)."""
from __future__ import annotations

import ast
import collections.abc
import html
import json
import reprlib
import types
from typing import Any, Callable, Literal, Mapping, Union, get_args, get_origin

import ipywidgets as w
from ipywidgets.widgets.widget_description import DescriptionStyle
from pydantic import ConfigDict, TypeAdapter, ValidationError

from ..engine import OptionError, limits
from .components import BuiltOnUse, safe, shared

HUMAN = "human"


def default_bot(game) -> str:
    """The bot a new seat gets by default: the game's ``"heuristic"`` bot if it has one,
    else its first bot."""
    bots = list(game.BOTS)
    return "heuristic" if "heuristic" in bots else bots[0]


def _choices(annotation) -> list | None:
    """The finite list of values an option annotation allows, or None if not finite."""
    if annotation is bool:
        return [False, True]
    if annotation is type(None):
        return [None]
    origin = get_origin(annotation)
    if origin is Literal:
        return list(get_args(annotation))
    if origin in (Union, types.UnionType):
        parts = [_choices(a) for a in get_args(annotation)]
        return None if any(p is None for p in parts) else [v for p in parts for v in p]
    return None


def _bound(field, kind: str):
    for meta in field.metadata:
        if hasattr(meta, kind):
            return getattr(meta, kind)
    return None


def _takes_mapping(annotation) -> bool:
    """Whether an option annotation allows a mapping (e.g. ``dict[str, int] | None``)."""
    if get_origin(annotation) in (Union, types.UnionType):
        return any(_takes_mapping(a) for a in get_args(annotation))
    return (get_origin(annotation) or annotation) in (dict, collections.abc.Mapping)


def _pairs(text: str) -> dict | None:
    """``"Done=40, Excuse=2"`` -> ``{"Done": 40, "Excuse": 2}`` (counts that are whole
    numbers become ints), or None if the text is not such a list."""
    found = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, eq, value = part.partition("=")
        if not eq or not name.strip():
            return None
        value = value.strip()
        found[name.strip()] = int(value) if limits.is_number(value.removeprefix("-")) else value
    return found or None


def show_option(value) -> str:
    """The text an option value is shown as in a text input: ``none``, a mapping as JSON,
    anything else as ``str``."""
    if value is None:
        return "none"
    if isinstance(value, Mapping):
        return json.dumps(dict(value), ensure_ascii=False)
    return str(value)


def read_option(text: str, annotation, name: str = "option") -> Any:
    """The value an option's text stands for: the first candidate that validates against
    ``annotation`` (strictly, like the Options model) among: None (blank or ``none``),
    JSON, a Python literal, ``name=count, ...`` pairs (mapping annotations only), the text
    itself. Else the text itself, so that the game's OptionError explains what is wrong.

    The text passes the input limits first (:mod:`playtest.engine.limits`: at most
    500 characters, nested at most 32 deep, numbers of at most 40 digits), so the
    parsers tried never see a text built to exhaust them.

    Args:
        text: what was typed. annotation: the option field's type. name: the option's
            name, for the message.

    Raises:
        OptionError: the text is over an input limit (the message names the limit).
    """
    try:
        limits.check_line(text, f"the option {name}", limits.MAX_OPTION)
        limits.check_json(text, f"the option {name}")
    except limits.LimitError as exc:
        raise OptionError(str(exc)) from None
    adapter = TypeAdapter(annotation, config=ConfigDict(strict=True))
    text = text.strip()
    candidates = []
    if text.lower() in ("", "none"):
        candidates.append(None)
    for parse in (json.loads, ast.literal_eval):
        try:
            candidates.append(parse(text))
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            pass
    if _takes_mapping(annotation) and (pairs := _pairs(text)) is not None:
        candidates.append(pairs)
    candidates.append(text)
    for value in candidates:
        try:
            adapter.validate_python(value)
        except ValidationError:
            continue
        return value
    return text


def read_whole_number(text: str, label: str, allowed: str = "a whole number") -> int:
    """The whole number typed in a box: ASCII digits (at most
    :data:`~playtest.engine.limits.MAX_DIGITS`) with an optional minus, spaces around
    allowed; out-of-range values are returned as typed (the caller or the game refuses
    them with its own message).

    Args:
        text: what the box holds. label: the box's label, for the message ("Max turns").
        allowed: the values the box takes, for the message ("1 or more").

    Raises:
        OptionError: anything else ("1e9", "5.5", "0x10", "٣", 21+ digits), e.g.
            "Max turns: '1e9' is not a whole number: use 1 or more, in the digits 0-9";
            an empty box: "Max turns is empty: type a whole number, 1 or more".
    """
    typed = text.strip()
    if not typed:
        raise OptionError(f"{label} is empty: type a whole number, {allowed}")
    if not limits.is_number(typed[1:] if typed.startswith("-") else typed):
        raise OptionError(f"{label}: {reprlib.repr(typed)} is not a whole number: use {allowed}, in the digits 0-9 "
                          f"(at most {limits.MAX_DIGITS} of them)")
    return int(typed)


def allowed_range(field) -> str:
    """The whole numbers an int option field allows, from its ``ge``/``le`` bounds:
    ``"1 to 6"``, ``"1 or more"``, ``"9 or less"`` or ``"any whole number"``."""
    lo, hi = _bound(field, "ge"), _bound(field, "le")
    if lo is not None and hi is not None:
        return f"{lo} to {hi}"
    return f"{lo} or more" if lo is not None else f"{hi} or less" if hi is not None else "any whole number"


def out_of_range(field, value) -> str:
    """A warning for an int option ``value`` outside ``field``'s bounds (plain text:
    ``"0 is not allowed: use 1 to 20"``), or "" when it is within them."""
    lo, hi = _bound(field, "ge"), _bound(field, "le")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        return f"{value} is not allowed: use {allowed_range(field)}"
    return ""


def option_label(name: str, field) -> str:
    """The label an option's input shows: the pydantic field's ``title`` where it has
    one (``"Target VP"``), else its name in words (``"match_to"`` -> ``"Match to"``).

    Args:
        name: the option's name. field: its pydantic ``FieldInfo``.
    """
    return field.title or name.replace("_", " ").capitalize()


FIRST_PLAYER = "first_player"
"""The option of every game's Options naming the seat that starts (G-2, ``Game.Options``):
its input offers the seats as people count them, not a number box."""


def seat_choices(seats: int) -> list[tuple[str, int | str]]:
    """The choices of the :data:`FIRST_PLAYER` input at a table of ``seats`` seats:
    ``[("Seat 1", 0), ..., ("Seat N", N - 1), ("Random", "random")]`` (labels count from
    1, as people do; values are the engine's seats, from 0) (G-2)."""
    return [(f"Seat {seat + 1}", seat) for seat in range(seats)] + [("Random", "random")]


def offer_seats(box: w.Dropdown, seats: int) -> int | None:
    """Make the :data:`FIRST_PLAYER` dropdown ``box`` offer the seats of a ``seats``-seat
    table; its choice stays where it is still a seat, else it goes back to seat 1.
    Returns the chosen seat (from 0) that the table no longer has, None if the choice stayed."""
    chosen = box.value
    choices = seat_choices(seats)
    if [value for _label, value in box.options] != [value for _label, value in choices]:
        box.options = choices
    kept = chosen in [value for _label, value in choices]
    box.value = chosen if kept else 0
    return None if kept or chosen is None else chosen


def option_input(name: str, field, seats: int | None = None) -> tuple[w.Widget, Callable[[], Any]]:
    """An input widget for one pydantic option field, and a function reading its value.
    Its label is :func:`option_label`; its tooltip the field's description (RULINGS id).

    :data:`FIRST_PLAYER`, given ``seats`` (the table's seat count; the new-game panel gives it,
    the balance lab, whose tables count seats from 0 as its data does, does not) -> Dropdown of
    :func:`seat_choices` (keep it in step with the seat count by :func:`offer_seats`);
    bool -> Checkbox; a finite set (Literal, None) -> Dropdown; int -> Text read by
    :func:`read_whole_number` (a number box would cut "1e9" to 1 and "5.5" to 5 in the
    browser without a word; a value out of the field's ``ge``/``le`` bounds is read as
    typed, never clamped, so that the game refuses it with a message; :func:`out_of_range`
    words a warning beforehand); anything else -> Text, shown by :func:`show_option` (a
    mapping as JSON) and read by :func:`read_option` (JSON, a Python literal,
    ``name=count`` pairs, ``none``, or the text itself: the first that fits the field's
    annotation).

    Raises (from the reader): OptionError: an int option's text is not a whole number, or
    any option's text is over an input limit.
    """
    tip = field.description or ""
    common = dict(description=option_label(name, field), tooltip=tip, style={"description_width": "initial"})
    if name == FIRST_PLAYER and seats is not None:
        box = w.Dropdown(options=seat_choices(seats), **common)
        offer_seats(box, seats)
        box.value = field.default if field.default in [v for _label, v in box.options] else 0
        return box, lambda: box.value
    choices = _choices(field.annotation)
    if field.annotation is bool:
        box = w.Checkbox(value=bool(field.default), indent=False, **common)
        return box, lambda: box.value
    if choices is not None:     # by index: a Dropdown cannot hold None as a chosen value
        box = w.Dropdown(options=["none" if v is None else str(v) for v in choices],
                         index=choices.index(field.default), **common)
        return box, lambda: choices[box.index]
    if field.annotation is int:
        box = w.Text(value=str(field.default), placeholder=allowed_range(field), **common)
        return box, lambda: read_whole_number(box.value, option_label(name, field), allowed_range(field))
    box = w.Text(value=show_option(field.default), **common)
    if _takes_mapping(field.annotation):
        box.placeholder = '{"Done": 40} or Done=40, Excuse=2'
    return box, lambda: read_option(box.value, field.annotation, name)


def set_option_inputs(game, inputs: Mapping[str, w.Widget], values: Mapping) -> None:
    """Set option input widgets (as :func:`option_input` makes them; option name -> input)
    to ``values`` (option name -> value; ``game``'s default where left out)."""
    fields = game.Options.model_fields
    for option, box in inputs.items():
        value = values.get(option, fields[option].default)
        if option == FIRST_PLAYER and isinstance(box, w.Dropdown):
            if value in [v for _label, v in box.options]:   # else a seat this table lacks: the game says so
                box.value = value
        elif isinstance(box, w.Dropdown):
            box.index = list(box.options).index("none" if value is None else str(value))
        elif isinstance(box, w.Text):
            box.value = show_option(value)
        else:
            box.value = value


class NewGamePanel(BuiltOnUse):
    """Set up a new game of ``game``.

    Args:
        game: the Game class (its ``min_seats``/``max_seats``, ``BOTS`` and ``Options``).
        on_start: called with ``(seats: int, players: dict[int, str], options: dict,
            seed: int | None)`` when Start is clicked; ``players[seat]`` is ``"human"`` or
            the name of one of the game's bots. Exceptions propagate (the app shows them).
        seats: default seat count. players: default seat -> ``"human"`` or bot name
            (seats of the default count left out are human; seats beyond it, shown when
            the count is raised, default to :func:`default_bot`; seat 0 is human unless
            given).
        report: where exceptions raised by Start go (e.g. ``ErrorBanner.show``).

    Attributes:
        widget: the box to display. inputs: option name -> its input widget.
        presets: a :class:`PresetPicker` of ``game.PRESETS`` (None for a game without).
        built: whether the inputs exist yet. first_player_line: the line beside the first
            player's list, for a game with a :data:`FIRST_PLAYER` option (its description,
            after a warning when a lower seat count dropped the chosen seat).

    The inputs (seats, players, inputs, seed, start, presets, ...) are made the first time
    one of them is read, or by :meth:`build` when the panel is first shown: a dashboard
    page that never opens its New game panel does not create, send and draw its ~75
    widget models (``widget`` is an empty box until then).
    """

    MADE_ON_USE = frozenset({"seats", "players", "player_box", "inputs", "_readers", "seed", "start", "presets",
                             "first_player_line"})

    def __init__(self, game, on_start: Callable[[int, dict, dict, int | None], None],
                 seats: int | None = None, players: dict[int, str] | None = None,
                 report: Callable[[Exception], None] | None = None):
        self.game, self.on_start, self._report = game, on_start, report
        self._first = (seats, dict(players or {}))
        self._options: Mapping = {}         # the options the inputs show once built
        super().__init__()

    def _build(self) -> None:
        game, (seats, players) = self.game, self._first
        bots = list(game.BOTS)
        self.seats = w.Dropdown(options=list(range(game.min_seats, game.max_seats + 1)),
                                value=seats or game.SEATS or game.min_seats, description="Seats")
        self.seats.observe(lambda _c: self._sync(), "value")
        first = self.seats.value
        self.players = [w.Dropdown(options=[("Human", HUMAN)] + [(f"Bot: {b}", b) for b in bots],
                                   value=players.get(s, HUMAN if s == 0 or s < first else default_bot(game)),
                                   description=f"Seat {s + 1}",      # as people count
                                   # a narrow label: "Bot: heuristic" and "Bot: ismcts" show whole
                                   layout=shared(w.Layout, width="230px"),
                                   style=shared(DescriptionStyle, description_width="52px"))
                        for s in range(game.max_seats)]
        self.player_box = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.inputs: dict[str, w.Widget] = {}
        self._readers: dict[str, Callable[[], Any]] = {}
        rows = []
        for name, field in game.Options.model_fields.items():
            box, read = option_input(name, field, self.seats.value)
            self.inputs[name], self._readers[name] = box, read
            help_line = w.HTML(html.escape(field.description or ""))
            help_line.add_class("pt-help")
            if field.annotation is int:         # say at once that a number is wrong or out of range
                box.observe(lambda ch, n=name, f=field, line=help_line: self._warn(n, f, ch["new"], line), "value")
            if name == FIRST_PLAYER:    # a new choice takes away the warning of _sync
                self.first_player_line = help_line
                box.observe(lambda _c: self._say_first_player(None), "value")
            rows.append(w.HBox([box, help_line], layout=w.Layout(align_items="center", flex_flow="row wrap")))
        self.seed = w.Text(description="Seed", placeholder="blank = random",
                           tooltip="G-3: the seed of the game's random stream; blank draws a random one")
        self.start = w.Button(description="Start new game", button_style="primary", layout=w.Layout(width="auto"))
        self.start.on_click(safe(lambda _b: self.on_start(*self.config()), self._report))
        self.widget.children = (self.seats, self.player_box, *rows, self.seed, self.start)
        self._sync()
        set_option_inputs(game, self.inputs, self._options)
        self.presets = PresetPicker(self) if game.PRESETS else None     # shows the matching one

    def _sync(self) -> None:
        self.player_box.children = tuple(self.players[:self.seats.value])
        if FIRST_PLAYER in self.inputs:
            self._say_first_player(offer_seats(self.inputs[FIRST_PLAYER], self.seats.value))

    def _say_first_player(self, gone: int | None) -> None:
        """The line beside the first player (G-2): its description, after a warning when
        the seat count just dropped the chosen seat ``gone`` (from 0) and Seat 1 starts
        instead (a choice made by hand does not change without a word)."""
        warning = (f"<b class='pt-warn'>⚠ A {self.seats.value}-seat table has no seat {gone + 1}: Seat 1 "
                   "starts.</b> " if gone is not None else "")
        description = self.game.Options.model_fields[FIRST_PLAYER].description or ""
        self.first_player_line.value = warning + html.escape(description)

    @staticmethod
    def _warn(name: str, field, text: str, line: w.HTML) -> None:
        """Show beside an int option whether ``text`` is not a whole number or out of its
        range (Start will refuse it with that message or the game's), else its description."""
        try:
            problem = out_of_range(field, read_whole_number(text, option_label(name, field), allowed_range(field)))
        except OptionError as exc:
            problem = str(exc)
        line.value = (f"<b class='pt-warn'>⚠ {html.escape(problem)}</b> " if problem else "") + html.escape(
            field.description or "")

    def set_options(self, values: Mapping) -> None:
        """Set every option input to ``values`` (option name -> value; the game's
        default where left out); before :meth:`build`, the inputs will show them. The
        preset picker, if any, then shows the preset they are (use
        :meth:`PresetPicker.set_options` to pick one by its values)."""
        if not self.built:
            self._options = dict(values)
            return
        set_option_inputs(self.game, self.inputs, values)

    def config(self) -> tuple[int, dict[int, str], dict[str, Any], int | None]:
        """The chosen ``(seats, players, options, seed)``.

        Raises:
            OptionError: the seed is not blank and not a whole number of ASCII digits
                (at most 40), or an option's text is over an input limit.
        """
        seats = self.seats.value
        text = self.seed.value.strip()
        if text and not limits.is_number(text):
            raise OptionError(f"the seed must be a whole number in the digits 0-9 (at most {limits.MAX_DIGITS} of "
                              f"them) or blank (random), not {reprlib.repr(text)}")
        options = {name: read() for name, read in self._readers.items()}
        return seats, {s: self.players[s].value for s in range(seats)}, options, int(text) if text else None


DEFAULTS_LABEL = "(the game's defaults)"
"""The preset picker's entry for the game's default options, for a game whose defaults
are none of its presets (Chore Race's standard game: 15 VP)."""

CUSTOM_LABEL = "(custom options)"
"""The preset picker's entry for options that are neither a preset nor the defaults."""


class PresetPicker:
    """A dropdown of ``game.PRESETS`` for a :class:`~playtest.widgets.NewGamePanel`:
    picking a preset sets every option input to the game's default, then the preset's
    values. Changing an input by hand shows the preset the inputs now match, else
    :data:`DEFAULTS_LABEL` when they are the game's defaults and no preset is (picking
    it sets the defaults), else :data:`CUSTOM_LABEL`.

    The new-game panel makes one itself for a game with ``PRESETS`` (``panel.presets``).

    Args:
        panel: the new-game panel (its ``inputs`` are set; the picker is shown in its
            box, after the seat choices).
        presets: preset name -> options; defaults: the panel's ``game.PRESETS``.
        default: the preset picked at first (None: none).

    Raises:
        KeyError: ``default`` is not a preset.
    """

    def __init__(self, panel: NewGamePanel, presets: Mapping[str, Mapping] | None = None,
                 default: str | None = None):
        self.panel = panel
        self.presets = dict(panel.game.PRESETS if presets is None else presets)
        self._busy = False
        self.names = list(self.presets)
        defaults = panel.game.validate_options({}).model_dump()
        self.defaults_entry = not any(panel.game.validate_options(v).model_dump() == defaults
                                      for v in self.presets.values())
        extra = [DEFAULTS_LABEL] * self.defaults_entry + [CUSTOM_LABEL]
        self.dropdown = w.Dropdown(options=self.names + extra, index=len(self.names) + len(extra) - 1,
                                   description="Preset",
                                   tooltip="A named set of options (RULINGS)",
                                   style={"description_width": "initial"})
        self.dropdown.observe(lambda ch: self._busy or self._picked(ch["new"]), "index")
        for box in panel.inputs.values():
            box.observe(lambda _c: self._busy or self._manual(), "value")
        children = list(panel.widget.children)
        children.insert(children.index(panel.player_box) + 1, self.dropdown)
        panel.widget.children = tuple(children)
        if default is not None:
            self.apply(default)
        else:                       # the inputs may already be a preset's (the defaults often are)
            self._busy = True
            try:
                self._show(self.matching())
            finally:
                self._busy = False

    def _picked(self, index: int | None) -> None:
        if index is not None and index < len(self.names):
            self.apply(self.names[index])
        elif index == len(self.names) and self.defaults_entry:
            self.set_options({})

    def apply(self, name: str) -> None:
        """Set the panel's option inputs to preset ``name``.

        Raises:
            KeyError: an unknown preset.
        """
        self.set_options(self.presets[name])

    def set_options(self, values: Mapping) -> None:
        """Set every option input to ``values`` (the game's default where left out) and
        show the preset those options are, if any."""
        self._busy = True
        try:
            set_option_inputs(self.panel.game, self.panel.inputs, values)
            self._show(self.matching())
        finally:
            self._busy = False

    @property
    def value(self) -> str | None:
        """The preset shown, or None for the game's defaults or custom options."""
        index = self.dropdown.index
        return self.names[index] if index is not None and index < len(self.names) else None

    @value.setter
    def value(self, name: str | None) -> None:
        if name is None:
            self._show(None)
        else:
            self.apply(name)

    def _show(self, name: str | None) -> None:
        """Show preset ``name``, or (None) the defaults entry when the inputs are the
        game's defaults, else the custom entry."""
        if name is not None:
            self.dropdown.index = self.names.index(name)
        elif self.defaults_entry and self.is_default():
            self.dropdown.index = len(self.names)
        else:
            self.dropdown.index = len(self.dropdown.options) - 1

    def is_default(self) -> bool:
        """Whether the panel's option inputs hold the game's default options."""
        try:
            chosen = self.panel.config()[2]
        except OptionError:
            return False
        fields = self.panel.game.Options.model_fields
        return all(chosen[k] == f.default for k, f in fields.items() if k in chosen)

    def matching(self) -> str | None:
        """The preset whose options (defaults elsewhere) the panel's inputs hold now."""
        fields = self.panel.game.Options.model_fields
        try:
            chosen = self.panel.config()[2]
        except OptionError:         # a bad seed text; the options themselves are read fine
            return None
        for name, values in self.presets.items():
            if all(chosen[k] == values.get(k, f.default) for k, f in fields.items() if k in chosen):
                return name
        return None

    def _manual(self) -> None:
        """An input changed by hand: show the preset the inputs now match, if any."""
        self._busy = True
        try:
            self._show(self.matching())
        finally:
            self._busy = False
