"""Save and load a match record from the browser.

The record holds the seed (G-3), and the seed rebuilds every hidden card. So the
download link is made only on request, only after a clear warning while the game is
still going, and it is removed again at the next move.
"""
from __future__ import annotations

import base64
import html
from typing import Callable

import ipywidgets as w

from .components import safe


class RecordPanel:
    """Save (download) and load (upload) the record JSON.

    Args:
        get_record: returns ``(record_json: str, over: bool, filename: str)``.
        on_load: called with the uploaded text; raises ``RecordError`` for a bad file
            (the app shows it and changes nothing).
        report: where exceptions raised by its handlers go (e.g. ``ErrorBanner.show``).
    """

    WARNING = ("The game is not over. The record contains the seed, which rebuilds every "
               "hidden card: anyone who opens the file can see all cards.")

    def __init__(self, get_record: Callable[[], tuple[str, bool, str]], on_load: Callable[[str], None],
                 report: Callable[[Exception], None] | None = None):
        self.get_record, self.on_load = get_record, on_load
        self.save = w.Button(description="Save record", icon="download", layout=w.Layout(width="150px"))
        self.save.on_click(safe(lambda _b: self.request(), report))
        self.anyway = w.Button(description="Download anyway", button_style="warning",
                               layout=w.Layout(width="auto", display="none"))
        self.anyway.on_click(safe(lambda _b: self._link(), report))
        self.note = w.HTML()
        self.link = w.HTML()
        self.upload = w.FileUpload(accept=".json", multiple=False, description="Load record")
        self.upload.observe(safe(self._uploaded, report), "value")
        self.widget = w.VBox([w.HBox([self.save, self.anyway, self.link]), self.note, self.upload])

    def request(self) -> None:
        """Save clicked: make the link if the game is over, else warn first."""
        _, over, _ = self.get_record()
        if over:
            self._link()
        else:
            self.note.value = f"<b>Warning:</b> {html.escape(self.WARNING)}"
            self.anyway.layout.display = None

    def _link(self) -> None:
        text, _, filename = self.get_record()
        data = base64.b64encode(text.encode()).decode()
        self.link.value = (f"<a class='pt-download' download='{html.escape(filename)}' "
                           f"href='data:application/json;base64,{data}' title='Download the record'>⬇ Download {html.escape(filename)}</a>")
        self.anyway.layout.display = "none"

    def reset(self) -> None:
        """Remove the link and the warning (called after every move)."""
        self.link.value = self.note.value = ""
        self.anyway.layout.display = "none"

    def _uploaded(self, change) -> None:
        files = change["new"]
        if not files:
            return
        text = bytes(files[0]["content"]).decode("utf-8", errors="replace")
        self.upload.value = ()
        self.on_load(text)
