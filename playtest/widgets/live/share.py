"""Handing out a table's links in the lobby: a QR code of an address (``segno``, as an
inline SVG image) and a button that copies an address to the clipboard (a few lines of
JavaScript run by ``anywidget``)."""
from __future__ import annotations

import html

import anywidget
import traitlets

MAX_ADDRESS = 1000
"""Characters of an address a QR code is made for (a table link is about 120)."""

_ESM = r"""
function render({ model, el }) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "jupyter-widgets jupyter-button widget-button pt-copy";
  const note = document.createElement("span");
  note.className = "pt-copy-note";
  note.setAttribute("role", "status");
  el.append(button, note);
  function draw() {
    button.textContent = model.get("description");
    button.title = model.get("text");
  }
  function copied(ok) {
    note.textContent = ok ? " copied" : " select the address and copy it by hand";
  }
  button.addEventListener("click", () => {
    const text = model.get("text");
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(() => copied(true), () => copied(false));
      return;
    }
    // a page served over plain http on the network: the old way
    const area = document.createElement("textarea");
    area.value = text;
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.append(area);
    area.select();
    let ok = false;
    try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
    area.remove();
    copied(ok);
  });
  model.on("change:description", draw);
  model.on("change:text", draw);
  draw();
}
export default { render };
"""


class CopyButton(anywidget.AnyWidget):
    """A button that copies ``text`` (an address) to the clipboard, then says "copied"
    beside it (or, where the browser refuses, to copy it by hand).

    Args:
        text: what is copied. description: the button's words.
    """

    _esm = _ESM
    text = traitlets.Unicode("").tag(sync=True)
    description = traitlets.Unicode("Copy").tag(sync=True)

    def __init__(self, text: str, description: str = "Copy", **kwargs):
        super().__init__(text=text, description=description, **kwargs)


def qr_image(address: str, label: str) -> str:
    """An ``<img>`` of the QR code of ``address`` (an inline SVG data URI, ``alt`` the
    label), for a phone's camera to open the link.

    Args:
        address: the full address (str, at most :data:`MAX_ADDRESS` characters).
        label: what the link is ("Seat 1"), said in the image's alt text.

    Raises:
        ValueError: an empty address or one over :data:`MAX_ADDRESS` characters.
    """
    if not address or len(address) > MAX_ADDRESS:
        raise ValueError(f"a QR code is made for an address of 1 to {MAX_ADDRESS} characters, not {len(address)}")
    import segno          # only the lobby makes QR codes: not loaded by seat pages

    uri = segno.make(address, error="m").svg_data_uri(scale=3, border=2)
    return (f"<img class='pt-qr' src='{html.escape(uri)}' alt='QR code of the {html.escape(label)} link' "
            "width='120' height='120'>")
