"""The page side of live tables (:mod:`playtest.tables`): a page's kernel is a client of
the table service that runs in the server process.

* :class:`SeatApp`: the seat page (``dashboards/table.ipynb?table=ID&token=T``): the
  views the table sends, drawn with the game's own board and move controls; moves sent
  back; reconnection; the round's reveal; feedback; the host controls for a host token.
* :class:`LobbyApp`: the lobby (``dashboards/lobby.ipynb``): create a table and hand
  out its links, list and join open tables, export the finished ones.
* :class:`HostControls`, :class:`FeedbackForm`: parts of the seat page.
* :class:`TableApi`, :class:`TableLink`: the HTTP API and one websocket per token;
  :func:`query_string` and :func:`page_folder` (from :mod:`playtest.widgets.page`):
  what Voilà tells a page's kernel about its address.

Where the client runs (checked on ipykernel 7.4, ipywidgets 8.1, Voilà 0.5.13): as
asyncio tasks on the kernel's own event loop, not in a thread. A cell runs inside that
loop (``asyncio.get_running_loop()`` answers in a cell, on the main thread), tasks it
starts keep running after the cell ends, and widget values they set reach the page
(ipykernel sends comm messages on iopub from any task). Comm messages from the page
(clicks) are dispatched on the same main thread and loop, so a state arriving and a
click never run at once and no lock is needed; a thread would need both. The client only
sets widget values (printing into an ``Output`` widget from a task shows nothing), and
uses Tornado's ``websocket_connect`` and ``AsyncHTTPClient`` on that loop
(``tests/test_widgets_live.py`` checks it in a real kernel).
"""
from ..page import page_folder, query_string
from .client import ApiError, TableApi, TableLink, parse_table_query
from .host import HostControls
from .lobby import LobbyApp
from .seat import FeedbackForm, SeatApp

__all__ = ["ApiError", "TableApi", "TableLink", "page_folder", "parse_table_query", "query_string",
           "HostControls", "LobbyApp", "FeedbackForm", "SeatApp"]
