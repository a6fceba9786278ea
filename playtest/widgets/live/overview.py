"""Every table in progress on the server, for a teacher or a host with several tables
(``dashboards/tables.ipynb``): game, who plays each seat, whose turn, who is connected,
time since the last move, and a link to each table's spectator view. It shows what the
lobby may see (the same audience: on ``playtest serve`` whoever reaches the server):
spectator links only, never a seat's or the host's token, and no card."""
from __future__ import annotations

import html
import time

import ipywidgets as w

from ..components import ErrorBanner, safe, style_widget
from ..page import address_for_others
from .client import TableApi, spawn
from .listing import REFRESH_EVERY, players_text, refresh_while_active
from .style import STYLE

def idle_text(seconds: int) -> str:
    """Seconds since the last move in words: "12 s", "4 min", "2 h 5 min"."""
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min"
    return f"{seconds // 3600} h {seconds % 3600 // 60} min"


class TablesOverview:
    """The all-tables page.

    Args:
        api: the service (default: ``$PLAYTEST_TABLES_URL`` and ``$PLAYTEST_TABLES_KEY``).
        folder: the full address of the dashboards' folder (links open relative to it;
            "" for relative links only). refresh_every: seconds between refreshes (0:
            only the Refresh button). start: False builds it without asking the service.

    Attributes:
        widget: the root box (class ``pt-overview``). table: the list (HTML, class
        ``pt-overview-tables``). rows: the last list the service sent. refresh_button,
        banner: its parts.
    """

    def __init__(self, api: TableApi | None = None, folder: str = "", refresh_every: float = REFRESH_EVERY,
                 start: bool = True):
        self.api = api or TableApi()
        self.folder, self.refresh_every = folder, refresh_every
        self.rows: list[dict] = []
        self.banner = ErrorBanner()
        self.table = w.HTML()
        self.table.add_class("pt-overview-tables")
        self.refresh_button = w.Button(description="Refresh", icon="refresh", layout=w.Layout(width="auto"))
        self.refresh_button.on_click(safe(lambda _b: self.refresh(), self.banner.show))
        self.widget = w.VBox([style_widget(), w.HTML(STYLE), self.banner.widget, self.refresh_button, self.table])
        self.widget.add_class("pt-app")
        self.widget.add_class("pt-overview")
        self._opened = time.monotonic()
        if not self.api.available:
            self.table.value = ("<p>No table service here: live tables live in a playtest server (start one with "
                                "<code>playtest serve</code>).</p>")
        elif start:
            self.refresh()
            if refresh_every > 0:
                spawn(refresh_while_active(self._refresh, refresh_every, lambda: self._opened), self.banner.show)

    def refresh(self) -> None:
        """Fetch the list again (a task)."""
        self._opened = time.monotonic()
        spawn(self._refresh(), self.banner.show)

    async def _refresh(self) -> None:
        data = await self.api.call("GET", "overview", key=True)
        self.show(data.get("tables", []))

    def show(self, rows: list[dict]) -> None:
        """Show the service's overview rows (:meth:`TableService.overview`), one table line each."""
        self.rows = rows
        if not rows:
            self.table.value = "<i>No table is being played on this server.</i>"
            return
        lines = []
        for row in rows:
            players = players_text(row.get("players", []))
            turn = ", ".join(str(s + 1) for s in row.get("to_act", [])) or "nobody (a round's reveal)"
            connected = ", ".join(str(s + 1) for s in row.get("connected", [])) or "nobody"
            path = str(row.get("watch_path", ""))
            href = address_for_others(self.folder, path) if self.folder else path
            cards = f" ({row['cards']} cards)" if row.get("cards") else ""
            lines.append(
                f"<tr><td><b>{html.escape(str(row.get('title', row.get('game'))))}</b>{html.escape(cards)}<br>"
                f"table {html.escape(str(row.get('id')))}</td><td>{html.escape(players)}</td>"
                f"<td>{html.escape(turn)}</td><td>{html.escape(connected)}</td><td>{row.get('moves', 0)}</td>"
                f"<td>{html.escape(idle_text(int(row.get('idle_s', 0))))}</td>"
                f"<td><a href='{html.escape(href)}' target='_blank' rel='noopener'>Watch</a></td></tr>")
        self.table.value = ("<table><tr><th>game</th><th>seats</th><th>to act</th><th>connected</th><th>moves</th>"
                            "<th>since the last move</th><th>spectator view</th></tr>" + "".join(lines) + "</table>")
