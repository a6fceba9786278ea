"""The browser side of a seat page: the person's name kept in the browser, the tab's
title, and an optional beep when the seat must act.

:class:`PageSignals` is a few lines of JavaScript run by ``anywidget`` (as
:mod:`playtest.widgets.upload`). It reads the name saved in the browser's
``localStorage`` (key :data:`NAME_KEY`) when the page opens and hands it to Python, and
saves a name Python sets; it sets ``document.title`` to :attr:`PageSignals.title`; and
each time :attr:`PageSignals.beeps` grows while :attr:`PageSignals.sound` is on, it plays
a short WebAudio beep (a browser plays sound only after the person has clicked the page
once; a beep it refuses is skipped silently). The sound setting is kept in the browser
too (key :data:`SOUND_KEY`); it is off until the person turns it on.
"""
from __future__ import annotations

import anywidget
import traitlets

NAME_KEY = "playtest-name"
SOUND_KEY = "playtest-sound"

_ESM = r"""
function get(key) { try { return localStorage.getItem(key); } catch (e) { return null; } }
function put(key, value) { try { localStorage.setItem(key, value); } catch (e) {} }

function beep() {
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    const ctx = new Ctx();
    const osc = ctx.createOscillator(), gain = ctx.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.25);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.25);
    osc.onended = () => ctx.close();
  } catch (e) {}
}

function render({ model, el }) {
  el.style.display = "none";
  const name = get(NAME_KEY);
  if (name && !model.get("name")) { model.set("name", name); }
  if (get(SOUND_KEY) === "on") { model.set("sound", true); }
  model.set("loaded", true);
  model.save_changes();
  let beeps = model.get("beeps");
  const show = () => { if (model.get("title")) document.title = model.get("title"); };
  show();
  model.on("change:title", show);
  model.on("change:name", () => { if (model.get("name")) put(NAME_KEY, model.get("name")); });
  model.on("change:sound", () => put(SOUND_KEY, model.get("sound") ? "on" : "off"));
  model.on("change:beeps", () => {
    if (model.get("beeps") > beeps && model.get("sound")) beep();
    beeps = model.get("beeps");
  });
}
export default { render };
""".replace("NAME_KEY", repr(NAME_KEY)).replace("SOUND_KEY", repr(SOUND_KEY))


class PageSignals(anywidget.AnyWidget):
    """The seat page's link to its browser tab (see the module).

    Attributes:
        name: the person's name (str): the browser's saved one once the page has loaded
            (``loaded`` turns True then), or the one Python set (saved in the browser).
        title: the tab's title (str; "" leaves it). sound: whether a beep says "your turn"
            (bool, off by default, kept in the browser). beeps: how many beeps were asked
            (int): :meth:`beep` adds one.
    """

    _esm = _ESM
    name = traitlets.Unicode("").tag(sync=True)
    title = traitlets.Unicode("").tag(sync=True)
    sound = traitlets.Bool(False).tag(sync=True)
    beeps = traitlets.Int(0).tag(sync=True)
    loaded = traitlets.Bool(False).tag(sync=True)

    def beep(self) -> None:
        """Play the beep in the browser, if the person turned the sound on."""
        if self.sound:
            self.beeps += 1
