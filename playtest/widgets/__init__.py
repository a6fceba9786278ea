"""Generic ipywidgets components every game view is built from (DESIGN "Widgets").

They render view dicts (``Match.view(seat)``) and emit moves; they never touch the
state. Each is built once and updated in place with ``show``/``update``.

* :class:`Card`, :class:`CardRow`, :class:`Pile`: cards, a seat's row, a pile.
* :class:`MoveBuilder`: builds a move from the legal moves and ``Game.MOVE_ARGS``.
* :class:`LogView`, :class:`Timeline`, :class:`NewGamePanel`, :class:`RecordPanel`,
  :class:`PrivacyScreen`, :class:`ErrorBanner`.
* :func:`query_string`, :func:`page_folder`: a Voilà page's address, in its kernel.
* :class:`GameApp` wires them to a :class:`~playtest.engine.Table`; a game supplies a
  :class:`GameBoard`.
"""
from .app import GameApp
from .gameboard import GameBoard
from .components import Card, CardRow, ErrorBanner, LogView, Pile, PrivacyScreen, safe, style_widget
from .moves import MoveBuilder
from .newgame import HUMAN, NewGamePanel
from .page import page_folder, query_string
from .records import RecordPanel
from .timeline import Timeline

__all__ = ["GameApp", "GameBoard", "Card", "CardRow", "ErrorBanner", "LogView", "Pile", "PrivacyScreen",
           "safe", "style_widget", "MoveBuilder", "HUMAN", "NewGamePanel", "RecordPanel", "Timeline",
           "page_folder", "query_string"]
