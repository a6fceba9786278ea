"""The dashboards of the installed games: their addresses, and the index's list of them.

One dashboard plays any game, ``game.ipynb?game=NAME``, and one teaches it,
``learn.ipynb?game=NAME`` (for a game that declares a ``TUTORIAL``); the index
(``index.ipynb``) lists every game :func:`playtest.engine.games` returns
(:func:`games_html`). A game's words on these pages come from its Game class: its
``title``, its seat range (``min_seats``..``max_seats``) and its blurb, the first
paragraph of the class docstring (:func:`blurb`). Addresses are relative to the
dashboards folder, as the dashboards' own links are.

This module imports no widget library: the index's kernel stays lean.
"""
from __future__ import annotations

import html
import inspect
from urllib.parse import quote

from .engine import games
from .engine.game import Game

GAME_PAGE = "game.ipynb"
"""The dashboard that plays the game its address names (``?game=NAME``)."""
LEARN_PAGE = "learn.ipynb"
"""The dashboard that teaches the game its address names (``?game=NAME``)."""


def game_page(name: str, query: str = "") -> str:
    """The address of ``name``'s game page (``name``: a registry name), with ``query``
    after it (e.g. ``"seed=4"``), relative to the dashboards folder:
    ``"game.ipynb?game=lazy_sunday&seed=4"``."""
    return f"{GAME_PAGE}?game={quote(name)}" + (f"&{query}" if query else "")


def learn_page(name: str) -> str:
    """The address of ``name``'s learn page: ``"learn.ipynb?game=lazy_sunday"``."""
    return f"{LEARN_PAGE}?game={quote(name)}"


def blurb(game: type[Game]) -> str:
    """What ``game`` is, in one sentence for players: the first paragraph of its Game
    class's own docstring, on one line ("" for a class without one; a docstring is not
    inherited here, so a game never shows the base class's words)."""
    doc = inspect.cleandoc(game.__dict__.get("__doc__") or "")
    return " ".join(doc.split("\n\n", 1)[0].split())


def seat_range(game: type[Game]) -> str:
    """``game``'s seat counts in words: ``"2–7 seats"``, or ``"2 seats"`` for one count."""
    if game.min_seats == game.max_seats:
        return f"{game.min_seats} seats"
    return f"{game.min_seats}–{game.max_seats} seats"


def games_html() -> str:
    """The index's list of games, as HTML: one item per game of
    :func:`~playtest.engine.games` (sorted by title): its title linking to its game page,
    its seat range, its :func:`blurb` and, for a game with a tutorial, its learn page.
    Links open in the same tab, as the index's other links do (a notebook output's links
    would open a new one)."""
    items = []
    for name, game in sorted(games().items(), key=lambda item: item[1].title):
        title = html.escape(game.title)
        text = html.escape(blurb(game), quote=False)
        item = (f"<li><a href='{html.escape(game_page(name))}' target='_self'>{title}</a> ({seat_range(game)})"
                + (f": {text}" if text else ""))
        if game.TUTORIAL is not None:
            item += f" · <a href='{html.escape(learn_page(name))}' target='_self'>Learn {title}</a>"
        items.append(item + "</li>")
    return f"<ul class='pt-games'>{''.join(items) or '<li>No game is installed.</li>'}</ul>"


def game_links(found: dict[str, type[Game]], page=game_page) -> str:
    """HTML links to the pages of the games in ``found`` (registry name -> Game class),
    sorted by title, as a list in words ("A, B or C"); ``page``: :func:`game_page` or
    :func:`learn_page`. For the sentence a page shows when its address names no game."""
    links = [f"<a href='{html.escape(page(name))}'>{html.escape(game.title)}</a>"
             for name, game in sorted(found.items(), key=lambda item: item[1].title)]
    if len(links) < 2:
        return "".join(links) or "none is installed"
    return f"{', '.join(links[:-1])} or {links[-1]}"
