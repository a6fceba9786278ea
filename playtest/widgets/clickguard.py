"""The page's double-click guard: the second click of a double click never lands on a
button it was not meant for.

A double click on "Discard it" sends two clicks. The first plays the move; the kernel
draws the next decision, often a button in the same spot ("Draw from the deck"), and the
second click lands on it. Python cannot tell that click from a deliberate one (a button
click message carries nothing but "click"), and a time window drops deliberate fast
clicks too. The browser can: it counts the clicks of a double click (``event.detail``
is 2 for the second), and a click after the pointer moved, or after the system's
double-click time, counts as a first click again. So, in the page, a click with
``detail`` of 2 or more on a button inside a ``pt-guarded`` box (the move controls, the
boards' cards and the hotseat privacy screen) is dropped when the last click that went
through landed on another element: a burst of clicks stays with the button it began on.
Pressing "End Shift" ten times in a row plays it once: the clicks made before the page
redrew reach the old button, which the kernel ignores (a click acts only on the decision
its button was drawn for, :class:`~playtest.widgets.moves.MoveBuilder`), and those made
after it land on the next decision's button (or on the next hotseat seat's "show my
cards") and are dropped here, all of them, not only the first. A repeated click on the
same button goes through, except on a card: a click on a card picks it for the move
being built, and the second click of a double click on one card would pick it again
(Lazy Sunday's peek refused it: the same card twice, LS-3); a slower second click, which
the browser counts as a first, still goes through and is answered.

The front end is a few lines of JavaScript run by ``anywidget`` (as the upload button's,
:mod:`playtest.widgets.upload`); the listener is installed once per page, however many
guards are displayed. It is part of :func:`playtest.widgets.components.style_widget`.
"""
from __future__ import annotations

import anywidget
import traitlets

_ESM = r"""
function render({ model, el }) {
  el.style.display = "none";
  if (window.__ptClickGuard) return;
  window.__ptClickGuard = { dropped: 0 };
  let last = null;      // the element the last click that went through landed on
  document.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const button = target && target.closest(".pt-guarded button");
    const card = button && button.classList.contains("pt-card");
    if (!button || !(event.detail > 1) || (last === button && !card)) {
      last = button || target;
      return;
    }
    // a later click of a double click or burst, on a button drawn after its first click:
    // dropped, and the burst stays with the element it began on
    event.stopImmediatePropagation();
    event.preventDefault();
    window.__ptClickGuard.dropped += 1;
  }, true);
}
export default { render };
"""


class ClickGuard(anywidget.AnyWidget):
    """An invisible widget that installs the page's double-click guard (see the module
    docstring). Display it once anywhere in a page (``style_widget()`` carries one);
    ``window.__ptClickGuard.dropped`` counts the clicks it dropped (for tests)."""

    _esm = _ESM
    installed = traitlets.Bool(True).tag(sync=True)   # a model needs a trait; nothing reads it
