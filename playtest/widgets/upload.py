"""An upload button that refuses a file over the input limit in the browser, with a
message beside it, and says the limit before anyone tries.

Why not ``ipywidgets.FileUpload``: it reads the whole file in the browser and sends its
bytes to the kernel in one websocket message. A message over the server's websocket
limit (tornado's ``websocket_max_message_size``, 10 MiB by default in Jupyter and Voilà)
makes the server close the connection: nothing reaches the kernel, so no Python code can
say why, and the upload vanishes without a word. :class:`LimitedUpload` checks the
file's size in the browser first (``File.size``): a file over ``max_bytes``
(:data:`playtest.engine.limits.MAX_BYTES`, 1 MiB) is never read nor sent; the message
appears beside the button at once, and the kernel is told (a few bytes) so it can say
the same. A smaller file is sent as one binary buffer of a custom widget message.

The front end is a few lines of JavaScript run by ``anywidget`` (a maintained library
for widgets with their own front-end code; its JupyterLab extension is installed with
it and loaded by Voilà).

Python side, it behaves as ``FileUpload`` does for one file: observe ``value``, a tuple
of one dict ``{"name", "type", "size", "content" (memoryview), "last_modified"
(datetime)}``; set ``value = ()`` to clear it.
"""
from __future__ import annotations

import datetime

import anywidget
import traitlets

from ..engine import limits

_ESM = r"""
function size(n) {           // as playtest.engine.limits.human_size
  if (n < 1024) return n.toLocaleString("en-US") + " bytes";
  if (n < 1048576) return (n / 1024).toFixed(1) + " kB";
  return (n / 1048576).toFixed(1) + " MiB";
}

function render({ model, el }) {
  el.classList.add("pt-upload");
  const button = document.createElement("button");
  button.type = "button";
  button.className = "jupyter-widgets jupyter-button widget-button widget-upload";
  const input = document.createElement("input");
  input.type = "file";
  input.style.display = "none";
  const hint = document.createElement("span");
  hint.className = "pt-upload-hint";
  const note = document.createElement("span");
  note.className = "pt-upload-note";
  note.setAttribute("role", "alert");
  el.append(button, input, hint, note);

  function draw() {
    button.replaceChildren();
    const icon = document.createElement("i");
    icon.className = "fa fa-upload";
    button.append(icon, " " + model.get("description"));
    button.disabled = model.get("disabled");
    button.title = model.get("hint");
    input.accept = model.get("accept");
    hint.textContent = model.get("hint");
    note.textContent = model.get("message");
    note.style.display = model.get("message") ? "" : "none";
  }
  function say(text) {
    note.textContent = text;
    note.style.display = text ? "" : "none";
    model.set("message", text);
    model.save_changes();
  }

  button.addEventListener("click", () => { input.value = ""; input.click(); });
  input.addEventListener("change", () => {
    const file = input.files && input.files[0];
    if (!file) return;
    if (file.size > model.get("max_bytes")) {
      // never read nor sent: over the websocket's limit the server would drop the
      // connection and the kernel would never know
      say(model.get("too_large").replace("{name}", file.name).replace("{size}", size(file.size)));
      model.send({ event: "too_large", name: file.name, size: file.size });
      return;
    }
    say("");
    const reader = new FileReader();
    reader.onload = () => model.send(
      { event: "file", name: file.name, type: file.type, size: file.size, last_modified: file.lastModified },
      undefined, [reader.result]);
    reader.onerror = () => say(file.name + " could not be read by the browser; nothing was loaded.");
    reader.readAsArrayBuffer(file);
  });
  model.on("change:description", draw);
  model.on("change:disabled", draw);
  model.on("change:accept", draw);
  model.on("change:hint", draw);
  model.on("change:message", draw);
  draw();
}
export default { render };
"""

_CSS = """
.pt-upload { display: flex; align-items: center; flex-wrap: wrap; gap: 4px 8px; }
.pt-upload .pt-upload-hint { font-size: 12px; color: #666; }
.pt-upload .pt-upload-note { font-size: 13px; color: #8e1b1b; background: #fde2e1; border: 1px solid #c62828;
  border-radius: 4px; padding: 2px 8px; overflow-wrap: anywhere; }
"""


class LimitedUpload(anywidget.AnyWidget):
    """An upload button for one record or scenario file of at most ``max_bytes``.

    Args (all traits, synced to the browser unless said):
        description: the button's text, e.g. ``"Load record or scenario"``.
        accept: file types offered by the browser's chooser, e.g. ``".json,.toml"``.
        hint: shown beside the button from the start, e.g. ``"Records and scenarios
            up to 1 MiB"`` (default: that text).
        max_bytes: the largest file sent to the kernel, in bytes (default
            :data:`playtest.engine.limits.MAX_BYTES`).
        disabled: no uploads while True.

    Attributes:
        value: (not synced) ``()`` or a tuple of one dict: ``name`` (str), ``type``
            (the browser's MIME type, str), ``size`` (bytes, int), ``content``
            (memoryview of the bytes), ``last_modified`` (aware datetime, UTC).
        message: the refusal shown beside the button ("" for none): a file over
            ``max_bytes`` (set in the browser and here alike; the file's bytes never
            leave the browser).
        refused: (not synced) the ``(name, size)`` of the last file refused for its
            size since a file was last accepted, or None (so refusing the same file
            again, after another was loaded, is a change an observer hears).
    """

    _esm = _ESM
    _css = _CSS
    description = traitlets.Unicode("Upload").tag(sync=True)
    accept = traitlets.Unicode("").tag(sync=True)
    hint = traitlets.Unicode(f"Records and scenarios up to {limits.SIZE_TEXT}").tag(sync=True)
    max_bytes = traitlets.Int(limits.MAX_BYTES).tag(sync=True)
    disabled = traitlets.Bool(False).tag(sync=True)
    message = traitlets.Unicode("").tag(sync=True)
    too_large = traitlets.Unicode().tag(sync=True)
    value = traitlets.Tuple()
    refused = traitlets.Any(None)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._template()
        self.on_msg(self._received)

    @traitlets.observe("max_bytes")
    def _template(self, _change=None) -> None:
        """The browser fills ``{name}`` and ``{size}`` in at once, as :meth:`refusal` does."""
        self.too_large = self.refusal("{name}", "{size}")

    def refusal(self, name: str, size: str) -> str:
        """The message for a file ``name`` of ``size`` (already written out, e.g.
        ``"12.0 MiB"``) over ``max_bytes``: one sentence with the limit."""
        limit = limits.SIZE_TEXT if self.max_bytes == limits.MAX_BYTES else limits.human_size(self.max_bytes)
        return (f"{name} is {size}: records and scenarios may be at most {limit} ({self.max_bytes:,} bytes); "
                "nothing was loaded.")

    def _received(self, _widget, content: dict, buffers: list) -> None:
        """A custom message from the browser: a file (``event == "file"``, its bytes
        in ``buffers[0]``) or the news of one refused for its size."""
        if not isinstance(content, dict):
            return
        name = str(content.get("name", "the file"))[:limits.MAX_NAME]
        size = content.get("size")
        size = size if isinstance(size, int) and size >= 0 else 0
        if content.get("event") == "too_large" or (content.get("event") == "file" and (
                not buffers or len(buffers[0]) > self.max_bytes)):
            size = max(size, len(buffers[0]) if buffers else 0)
            self.refused = (name, size)
            self.message = self.refusal(name, limits.human_size(size))
            return
        if content.get("event") != "file":
            return
        modified = content.get("last_modified")
        when = (datetime.datetime.fromtimestamp(modified / 1000, datetime.timezone.utc)
                if isinstance(modified, (int, float)) and 0 <= modified < 2 ** 53 else None)
        self.message, self.refused = "", None
        self.value = ({"name": name, "type": str(content.get("type", ""))[:limits.MAX_NAME],
                       "size": len(buffers[0]), "content": memoryview(buffers[0]), "last_modified": when},)
