"""Small building blocks: card, row of cards, pile, log, error banner, privacy screen.

Each component is built once and updated in place with ``show(...)``; rows of cards
reuse a pool of :class:`Card` widgets, so a long game never grows the widget tree.

Security (DESIGN "view" boundary): a component only ever receives what a game view
already decided the viewing seat may see. A face-down card is shown with
``face_up=False`` and carries no name, effort, tooltip or CSS class that could tell
cards apart.
"""
from __future__ import annotations

import base64
import html
from typing import Callable, Sequence

import ipywidgets as w
from ipywidgets.widgets.widget_string import HTMLStyle

from ..engine.counting import for_people
from .clickguard import ClickGuard
from .style import STYLE


BLANK = "\u00a0"
"""The text of a face-down or empty card: a no-break space, never "". ipywidgets 8's
ButtonView leaves the old text in the page when the description becomes "" (it only
redraws a non-empty description or icon), which would keep a card's name on screen
after it is turned face-down."""


_SHARED: dict[tuple, w.Widget] = {}


def shared(kind: type[w.Widget], **values) -> w.Widget:
    """One ``kind`` (``w.Layout`` or a style class such as ``w.ButtonStyle``) with
    ``values``, shared by every widget that asks for the same: a page's widgets each
    carry a layout and a style model otherwise, and every model costs the kernel, the
    server and the browser time when the page opens (a game page had 645 models, a
    third of them default layouts and styles). Shared means frozen: changing it would
    change every widget using it, so a change raises ``RuntimeError``; a widget whose
    layout or style changes gets its own. A closed one (``Widget.close_all()``) is
    made again.

    Args:
        kind: the model class. values: its trait values (hashable), e.g. ``width="auto"``.
    """
    key = (kind, tuple(sorted(values.items())))
    model = _SHARED.get(key)
    if model is None or model.comm is None:
        model = _SHARED[key] = kind(**values)

        def refuse(change):
            raise RuntimeError(f"a shared {kind.__name__} ({values}) was changed ({change['name']} = "
                               f"{change['new']!r}): give the widget its own")
        model.observe(refuse, names=[name for name in model.keys if not name.startswith("_")])
    return model


class BuiltOnUse:
    """A panel whose widgets are made on first use: :attr:`widget` is an empty box until
    :meth:`build` runs, when the panel is first shown or one of its ``MADE_ON_USE``
    attributes is first read (so callers use them as if always there). A page that never
    opens the panel does not create, send and draw its widget models.

    Subclasses call ``super().__init__()``, list their widget attributes in
    ``MADE_ON_USE`` and make them in ``_build``.

    Attributes:
        widget: the panel's box. built: whether its widgets exist yet.
    """

    MADE_ON_USE: frozenset = frozenset()

    def __init__(self):
        self.widget = w.VBox()
        self.built = False

    def __getattr__(self, name: str):
        # only for attributes not set yet: the widgets, made on first use
        if name in self.MADE_ON_USE and not self.__dict__.get("built", True):
            self.build()
            return getattr(self, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def build(self) -> None:
        """Make the widgets and show them in :attr:`widget` (once; later calls do nothing)."""
        if not self.built:
            self.built = True
            self._build()

    def _build(self) -> None:
        raise NotImplementedError


class Card(w.Button):
    """One card slot, drawn as a card-sized button (clickable, for move builders).

    Use :meth:`show` to change what it shows; the same widget is reused for other cards.
    Its look comes from CSS classes only: its layout and style are :func:`shared`.
    """

    def __init__(self, **kwargs):
        kwargs.setdefault("layout", shared(w.Layout))
        kwargs.setdefault("style", shared(w.ButtonStyle))
        super().__init__(**kwargs)
        self.show(None)

    def show(self, face_up: bool | None, title: str = "", corner: str = "", kind: str = "",
             tooltip: str = "", highlight: bool = False, clickable: bool = False) -> None:
        """Show one card.

        Args:
            face_up: True for a card whose face the viewer may see; False for a
                face-down card (drawn as a back: no text, no tooltip, no kind); None for
                an empty slot (a pile with no card).
            title: the card's name (face-up only).
            corner: a short value printed under the name, e.g. the effort ``"3"``.
            kind: a word for the card's colour class, e.g. ``"chore"`` (face-up only).
            tooltip: hover text (face-up only), e.g. what an action card does.
            highlight: the viewer is looking at this card right now.
            clickable: the card can be picked for the move being built.
        """
        classes = ["pt-card"]
        if face_up:
            classes += ["pt-face"] + ([f"pt-kind-{kind}"] if kind else [])
            text, tip = (f"{title}\n{corner}" if corner != "" else title), tooltip
        else:
            classes.append("pt-back" if face_up is False else "pt-empty")
            text, tip = BLANK, ""
        if highlight:
            classes.append("pt-looking")
        if clickable:
            classes.append("pt-clickable")
        # one message to the page: sent apart, a card turning face up was for a moment a
        # back showing a name (and one turning down, a face without it)
        with self.hold_sync():
            self.description, self.tooltip, self._dom_classes = text, tip, tuple(classes)


class CardRow:
    """A labelled row of cards (a seat's list, hand or tableau).

    Args:
        on_click: called with the card's position (0-based) when a card is clicked.

    Attributes:
        widget: the ipywidgets box to display.
    """

    def __init__(self, on_click: Callable[[int], None] | None = None):
        self._on_click = on_click
        self.label = w.HTML(layout=shared(w.Layout), style=shared(HTMLStyle))
        self.cards: list[Card] = []
        self.box = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.widget = w.VBox([self.label, self.box], layout=w.Layout(margin="2px 0"))
        self.widget.add_class("pt-row")

    def show(self, label_html: str, cards: Sequence[dict]) -> None:
        """Show ``cards`` (each a dict of :meth:`Card.show` keyword arguments) under the
        label (HTML, already escaped by the caller)."""
        while len(self.cards) < len(cards):
            card = Card()
            card.on_click(lambda _b, pos=len(self.cards): self._on_click and self._on_click(pos))
            self.cards.append(card)
        for card, spec in zip(self.cards, cards):
            card.show(**spec)
        for card in self.cards[len(cards):]:  # pooled, not shown: keep no name in synced state
            card.show(None)
        if self.label.value != label_html:
            self.label.value = label_html
        shown = tuple(self.cards[:len(cards)])
        if self.box.children != shown:
            self.box.children = shown


class Pile:
    """A pile (deck, discard pile) shown as its top card with a caption under it.

    Args:
        on_click: called with no argument when the top card is clicked.
    """

    def __init__(self, on_click: Callable[[], None] | None = None):
        self.card = Card()
        if on_click:
            self.card.on_click(lambda _b: on_click())
        self.caption = w.HTML(layout=shared(w.Layout), style=shared(HTMLStyle))
        self.widget = w.VBox([self.card, self.caption], layout=w.Layout(align_items="center", margin="0 8px"))
        self.widget.add_class("pt-pile")

    def show(self, caption: str, **card) -> None:
        """Show the top card (keyword arguments of :meth:`Card.show`) and a caption
        (plain text)."""
        self.card.show(**card)
        self.caption.value = f"<span class='pt-caption'>{html.escape(caption)}</span>"


class LogView:
    """The game log, newest line first, in a scrolling box."""

    def __init__(self, title: str = "Log", limit: int = 300):
        self.limit = limit
        self.html = w.HTML()
        self.widget = w.VBox([w.HTML(f"<b>{html.escape(title)}</b>"), self.html])
        self.widget.add_class("pt-log")

    def show(self, lines: Sequence[tuple[int, str]]) -> None:
        """Show ``lines``: ``(move number, text)`` pairs as from ``Match.log_for(seat)``
        (already worded for the viewing seat); seats and positions are shown counted
        from 1 (:func:`~playtest.engine.counting.for_people`)."""
        rows = [f"<div><span class='pt-moveno'>{n}</span> {html.escape(for_people(text))}</div>"
                for n, text in reversed(lines[-self.limit:])]
        self.html.value = "".join(rows) or "<i>nothing yet</i>"


class ErrorBanner:
    """A red banner for errors raised in click handlers (Voilà hides the server log,
    so the person at the screen must see them here). Hidden while empty."""

    def __init__(self):
        # the message takes the room left and wraps; the OK button keeps its size
        self.text = w.HTML(layout=w.Layout(flex="1 1 auto", min_width="0"))
        self.dismiss = w.Button(description="OK", layout=w.Layout(width="60px", min_width="60px", flex="0 0 auto"))
        self.dismiss.on_click(lambda _b: self.clear())
        self.widget = w.HBox([self.text, self.dismiss], layout=w.Layout(display="none"))
        self.widget.add_class("pt-error")
        self.message = ""

    def show(self, error: BaseException | str, label: str = "Error") -> None:
        """Show an exception's message (or a text) after ``label`` (e.g. "Too late" for a
        move another seat beat: nobody's mistake); the message is kept in :attr:`message`."""
        self.message = str(error) or type(error).__name__
        self.text.value = f"<b>{html.escape(label)}:</b> {html.escape(self.message)}"
        self.widget.layout.display = "flex"

    def clear(self) -> None:
        """Hide the banner."""
        self.message = self.text.value = ""
        self.widget.layout.display = "none"


class PrivacyScreen:
    """Hotseat privacy screen: asks the next person to take the device.

    Args:
        on_unlock: called with the seat when its person clicks "I am seat N".
    """

    def __init__(self, on_unlock: Callable[[int], None]):
        self.seat: int | None = None
        self.text = w.HTML()
        self.button = w.Button(button_style="primary", layout=w.Layout(width="auto"))
        self.button.on_click(lambda _b: self.seat is not None and on_unlock(self.seat))
        self.widget = w.VBox([self.text, self.button], layout=w.Layout(display="none"))
        self.widget.add_class("pt-privacy")
        # a burst of clicks on the last seat's move that lands here is not the next person
        # confirming (playtest.widgets.clickguard)
        self.widget.add_class("pt-guarded")

    @property
    def shown(self) -> bool:
        """Whether the screen is up."""
        return self.widget.layout.display != "none"

    def show(self, seat: int, name: str) -> None:
        """Ask ``seat`` (labelled ``name``, e.g. "Seat 2") to take the device."""
        self.seat = seat
        self.text.value = (f"<h3>Pass the device to {html.escape(name)}</h3>"
                           "<p>Everyone's cards are hidden until they confirm.</p>")
        self.button.description = f"I am seat {seat + 1} — show my cards"
        self.widget.layout.display = "flex"

    def hide(self) -> None:
        """Take the screen down."""
        self.seat = None
        self.widget.layout.display = "none"


def safe(handler: Callable, report: Callable[[Exception], None] | None) -> Callable:
    """``handler`` wrapped so that an exception it raises goes to ``report`` (e.g.
    :meth:`ErrorBanner.show`) instead of the server log; unwrapped if ``report`` is None."""
    if report is None:
        return handler

    def run(*args, **kwargs):
        try:
            return handler(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - every error must reach the screen
            report(exc)
    return run


def download_link(text: str, filename: str, mime: str, title: str, label: str | None = None) -> str:
    """An HTML link (class ``pt-download``) that downloads ``text`` (str, saved as UTF-8)
    as ``filename`` with MIME type ``mime`` (e.g. ``"application/json"``), ``title`` its
    tooltip, ``label`` its text after "⬇ Download " (default: the file name). A data URI:
    no server round trip, works in Voilà and in a notebook."""
    data = base64.b64encode(text.encode()).decode()
    return (f"<a class='pt-download' download='{html.escape(filename)}' href='data:{mime};base64,{data}' "
            f"title='{html.escape(title)}'>⬇ Download {html.escape(label or filename)}</a>")


class AppBox(w.VBox):
    """An app's root box (a ``VBox``). Its text form, which IPython computes on every
    display beside the widget itself, is one line instead of the ``repr`` of every
    widget inside (0.09 s of a game page's kernel time)."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__}: {len(self.children)} parts>"


def style_widget() -> w.Box:
    """The kit's CSS (an HTML widget) and the page's double-click guard
    (:class:`~playtest.widgets.clickguard.ClickGuard`), in one box that takes no room;
    put it once in an app's tree."""
    box = w.Box([w.HTML(STYLE), ClickGuard()])
    box.add_class("pt-style")
    return box
