"""The two dashboards that take a game by name: ``game.ipynb?game=NAME`` plays it
(:class:`GamePage`, a :class:`~playtest.widgets.GameApp` on the game's declared board)
and ``learn.ipynb?game=NAME`` teaches it (:class:`LearnPage`, a
:class:`~playtest.widgets.tutorial.TutorialApp` of the game's ``TUTORIAL``). Every game
:func:`playtest.engine.games` returns has both pages (a learn page where it declares a
tutorial); the addresses are :func:`playtest.pages.game_page` and
:func:`playtest.pages.learn_page`.

An address that names no game, or a game not installed here, gets one sentence listing
the games, each a link to its page, instead of a game. A game page's ``?record=`` or
``?scenario=`` link of another game than ``?game=`` names opens the game it is of (the
record is the truth), and says so.
"""
from __future__ import annotations

import html
import reprlib
from urllib.parse import parse_qs

import ipywidgets as w

from ..engine import OptionError, PlaytestError, games, limits
from ..engine.game import Game
from ..pages import blurb, game_links, game_page, learn_page, seat_range
from ..scenarios import find_scenario
from .app import GameApp
from .board import board_class
from .newgame import default_bot
from .records import parse_link, record_text
from .tutorial import TutorialApp

MORE = """<p><i>Save / load record</i> also saves the game as a scenario (open it in the
<a href='scenario_debugger.ipynb'>scenario debugger</a>) and shows two share links: <i>this position</i>
(<code>?record=…</code>: the moves so far, packed into the address) and <i>a new game with the same set-up</i>
(<code>?record=…</code> of move 0: the same seats, options, setup and seed; a game opened from a scenario links to
<code>?scenario=NAME</code>); both say who sits where (<code>&amp;players=…</code>). This page opens
<code>?game=NAME</code> with <code>&amp;record=…</code>, <code>&amp;seed=N</code> or <code>&amp;scenario=NAME</code>
(a shipped example, or <code>NAME.toml</code> in the <code>scenarios/</code> folder beside the dashboards). A shared
position or a scenario stops at its last move, with the scenario's title and description: the bots wait until you
move or press <i>Continue</i>.</p>"""
"""The game page's fold-out about saving and links (the same for every game)."""

HEADER_STYLE = """<style>
.pt-page-header .widget-html-content { line-height: 1.45; white-space: normal; }
.pt-page-header h1 { font-size: 1.7em; margin: 0.1em 0 0.3em; line-height: 1.2; }
.pt-page-header p, .pt-page-header details { margin: 0.3em 0; }
.pt-page-header a { color: #1565c0; text-decoration: underline; }
</style>"""
"""How a page's title and words look (short: the board comes first), as the dashboards'
Markdown titles do."""

LEARN_INTRO = ("A few short lessons on a real table, then a game against a gentle bot with hints. Do what each "
               "step asks on the board: the cards it talks about light up, and a move that is not the one asked "
               "for is explained, not played.")
"""The learn page's words under its title."""


def named_game(query: str) -> str | None:
    """The registry name a page address gives as ``?game=`` (None: none).

    Raises:
        OptionError: the address is over the input limit or gives ``?game=`` twice.
    """
    limits.check_size(query or "", "the page address")
    names = parse_qs((query or "").lstrip("?"), keep_blank_values=True).get("game", [])
    if len(names) > 1:
        raise OptionError(f"the page address gives ?game= {len(names)} times; give it once")
    return names[0] if names else None


def link_game(query: str) -> tuple[str, str] | None:
    """The game a page address's ``?record=`` or ``?scenario=`` is of, and what it is:
    ``("chore_race", "shared position")`` or ``("lazy_sunday", "scenario")``; None when
    the address has neither, or it cannot be read (opening it says why)."""
    try:
        link = parse_link(query)
        if link.record is not None:
            data = limits.load_json(record_text(link.record), "the record in the page address")
            game = data.get("game") if isinstance(data, dict) else None
            return (game, "shared position") if isinstance(game, str) else None
        if link.scenario is not None:
            return find_scenario(link.scenario).game, "scenario"
    except (PlaytestError, ValueError):
        return None
    return None


def _no_game(problem: str, found: dict[str, type[Game]], page) -> str:
    """The one-sentence page for an address without a game it can show: ``problem``
    (plain text), then the games to pick, each a link to its ``page``."""
    return (f"{HEADER_STYLE}<p class='pt-no-game'>{html.escape(problem[:1].upper() + problem[1:], quote=False)} — open one of these: "
            f"{game_links(found, page)}.</p>")


class GamePage:
    """The game page (``game.ipynb``): built before its page asks, opened once it has.

    Building it imports the board of every installed game (a preheated kernel holds
    them ready: a board that does not load is said on its game's page);
    :meth:`open` then reads the address, builds the game's app and opens the link.

    Attributes:
        widget: the page's box. header: the title, blurb and fold-out (or the sentence
            naming the games, for an address without one). games: the installed games
            (registry name -> Game class). game: the Game class on the page, app: its
            :class:`~playtest.widgets.GameApp` (both None before :meth:`open`, or when
            the address names no game).
    """

    def __init__(self):
        self.games = games()
        for game in self.games.values():
            try:
                board_class(game)
            except OptionError:
                pass                        # said on that game's page when it is asked for
        self.game: type[Game] | None = None
        self.app: GameApp | None = None
        self.header = w.HTML()
        self.header.add_class("pt-page-header")
        self.widget = w.VBox([self.header])
        self.widget.add_class("pt-page")           # lets the app's move controls stick (playtest.widgets.style)

    def choose(self, query: str) -> tuple[type[Game], str]:
        """The game an address asks for, and a note (HTML, "" for none): the game a
        ``?record=`` or ``?scenario=`` is of (the note says so when ``?game=`` named
        another), else the one ``?game=`` names.

        Raises:
            OptionError: the address names no game, or one not installed here (one
                sentence, without the list of games the page adds).
        """
        named, linked = named_game(query), link_game(query)
        if linked is not None and linked[0] in self.games:
            game, what = self.games[linked[0]], linked[1]
            note = ""
            if named is not None and named != game.name:
                note = (f"<p class='pt-page-note'>The link's {what} is a {html.escape(game.title)} game, so this page "
                        f"plays {html.escape(game.title)}.</p>")
            return game, note
        if named is None:
            raise OptionError("this page plays the game its address names (game.ipynb?game=NAME), and this address "
                              "names none")
        if named not in self.games:
            raise not_installed(named)
        return self.games[named], ""

    def open(self, query: str) -> None:
        """Show the game the address asks for (:meth:`choose`): its app, this browser's
        autosaved games on offer, the first game, then the link's record, scenario or
        seed (:meth:`GameApp.open_page`). An address without a game it can show gets
        the sentence naming the games, each a link to its page."""
        try:
            self.game, note = self.choose(query)
            self.app = GameApp(self.game, start=False)
        except PlaytestError as exc:
            self.header.value = _no_game(str(exc), self.games, game_page)
            return
        self.header.value = header_html(self.game, bool(self.app.board.rules_html)) + note
        self.app.open_page(query)
        self.widget.children = (self.header, self.app.widget)


def not_installed(name: str) -> OptionError:
    """The error for an address naming ``name``, a name no game installed here has (the
    game page and the learn page say the same, then list the games they have). A game
    installed while the server runs is not seen by the kernels it started before (its
    preheated ones): the sentence says to restart it."""
    return OptionError(f"no game installed here is named {reprlib.repr(name)} (a game installed since "
                       f"`playtest serve` started shows once the server is restarted)")


def header_html(game: type[Game], rules: bool) -> str:
    """The top of ``game``'s game page: its title, blurb, who plays by default, a link
    to its learn page (when it has a tutorial) and a fold-out: seats, where the rules
    are (``rules``: its board has a "How to play"), saving and links (:data:`MORE`)."""
    title = html.escape(game.title)
    text = html.escape(blurb(game), quote=False)
    how = " <i>How to play</i> (under the moves) has the rules." if rules else ""
    learn = (f"; new to it? <a href='{html.escape(learn_page(game.name))}'>Learn {title}</a>"
             if game.TUTORIAL is not None else "")
    seats = game.SEATS or game.min_seats                 # as GameApp starts it
    others = "the other seat" if seats == 2 else f"the other {seats - 1} seats"
    return (f"{HEADER_STYLE}<h1>{title}</h1><p>{text} By default you are seat 1 of {seats}, {others} played "
            f"by the {html.escape(default_bot(game))} bot{learn}.</p><details><summary>More: seats, rules, saving, share "
            f"links</summary><p>Under <i>New game</i> choose who plays each seat (a person, for hotseat, or a bot) and "
            f"the options, for {seat_range(game)}.{how}</p>{MORE}</details>")


class LearnPage:
    """The learn page (``learn.ipynb?game=NAME``): the game's tutorial on its real board.

    Args:
        query: the page's query string (:func:`playtest.widgets.query_string`).

    Attributes:
        widget: the page's box. header: the title and the words under it (or the
            sentence naming the games with a tutorial). app: the
            :class:`~playtest.widgets.tutorial.TutorialApp` (None when the address
            names no game with a tutorial, or its tutorial does not load: the header
            says why).
    """

    def __init__(self, query: str):
        found = games()
        taught = {name: game for name, game in found.items() if game.TUTORIAL is not None}
        self.app: TutorialApp | None = None
        self.header = w.HTML()
        self.header.add_class("pt-page-header")
        self.widget = w.VBox([self.header])
        self.widget.add_class("pt-page")           # lets the app's move controls stick (playtest.widgets.style)
        try:
            name = named_game(query)
            if name is None:
                raise OptionError("this page teaches the game its address names (learn.ipynb?game=NAME), and this "
                                  "address names none")
            if name in found and name not in taught:
                raise OptionError(f"{found[name].title} has no tutorial yet (play it on its game page, "
                                  f"{game_page(name)})")
            if name not in taught:
                raise not_installed(name)
            self.app = TutorialApp(name)
        except PlaytestError as exc:
            self.header.value = _no_game(str(exc), taught, learn_page)
            return
        self.header.value = f"{HEADER_STYLE}<h1>Learn to play {html.escape(found[name].title)}</h1><p>{LEARN_INTRO}</p>"
        self.widget.children = (self.header, self.app.widget)
