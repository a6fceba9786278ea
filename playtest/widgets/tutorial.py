"""Learn to play, on the real board: a :class:`~playtest.tutorials.Tutorial` shown by the
game's own board and move controls, with a coach panel above them.

Each step shows its text, lights up its cards (:meth:`GameApp.light`) and waits for its
move, made with the board's buttons and card clicks as in a game. Any other move is
refused with why, and nothing changes: a move the rules forbid by its ruling id and
reason (``Match.refusal``, from the game's ``explain``; card clicks too), another legal
move by the step's ``wrong`` text. The other seats are the script's: they move only as
the steps' ``then`` say. After the lessons, the finale: a game against a gentle bot,
with a Hint button (the hint bot's choice for the learner's seat, from that seat's own
information: its ``bot_view``).

In a notebook: ``TutorialApp("lazy_sunday").widget``; in the browser: the learn page,
``learn.ipynb?game=NAME`` (:class:`playtest.widgets.gamepage.LearnPage`).
"""
from __future__ import annotations

import html

import anywidget
import ipywidgets as w
import traitlets

from ..engine import Move, get_game
from ..engine.bots import make_bot
from ..engine.counting import for_people
from ..tables.pages import sentence
from ..tutorials import Tutorial, load_tutorial
from .app import GameApp, refusal_text
from .components import safe
from .newgame import HUMAN

_LIT_IN_VIEW_ESM = r"""
function render({ el }) {
  // a card the step lights up is scrolled into view, clear of the move controls that stick
  // to the bottom of the page: on a 720 px screen the learner's own row sat under them
  el.style.display = "none";
  if (window.__ptLitInView) return;
  window.__ptLitInView = true;
  const reveal = (card) => {
    const box = card.getBoundingClientRect();
    const controls = document.querySelector(".pt-controls");
    const bottom = controls ? controls.getBoundingClientRect().top : window.innerHeight;
    if (box.top < 0 || box.bottom > bottom) {
      // Voila's page scrolls inside a box, not the window: scrollIntoView finds it, and the
      // scroll margin keeps the card clear of the controls
      card.style.scrollMarginBottom = `${Math.max(0, window.innerHeight - bottom) + 24}px`;
      card.scrollIntoView({ block: "nearest", behavior: "instant" });
    }
  };
  let first = true;     // the page's first lit card is drawn lit, not lit later
  const initial = () => {
    const lit = first && document.querySelector(".pt-lit");
    if (lit && lit.getBoundingClientRect().height > 0) {
      first = false;
      setTimeout(() => reveal(lit), 500);   // once the page's layout has settled
    }
  };
  for (let wait = 500; wait <= 5000; wait += 500) setTimeout(initial, wait);
  new MutationObserver((changes) => {
    for (const change of changes) {
      const card = change.target;
      if (change.type === "attributes" && card.classList.contains("pt-lit")
          && !(change.oldValue || "").includes("pt-lit")) {
        first = false;
        reveal(card);
        return;
      }
    }
    initial();
  }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["class"],
                               attributeOldValue: true });
}
export default { render };
"""


class LitInView(anywidget.AnyWidget):
    """An invisible widget: a card lit by a tutorial step is scrolled into view above the
    move controls (the page's JavaScript does it; installed once per page)."""

    _esm = _LIT_IN_VIEW_ESM
    installed = traitlets.Bool(True).tag(sync=True)   # a model needs a trait; nothing reads it


STYLE = """<style>
.pt-coach { background: #fffbe8; border: 2px solid #e0b400; border-radius: 10px; padding: 6px 12px; margin: 4px 0; }
.pt-coach .widget-html-content { white-space: normal; line-height: 1.45; font-size: 14px; }
.pt-coach-progress .widget-html-content { font-size: 12px; color: #6b5600; }
.pt-coach-feedback .widget-html-content { color: #8e1b1b; font-weight: 600; }
.pt-coach-feedback.pt-good .widget-html-content { color: #1b5e20; }
.pt-coach-done { color: #1b5e20; font-weight: 600; margin-bottom: 0.2em; }
.pt-coach p { margin: 0 0 6px; }
</style>"""


def paragraphs(text: str) -> str:
    """Plain step text as HTML: blank lines part paragraphs, line breaks within one are
    spaces; "quoted" button names in bold."""
    parts = [" ".join(p.split()) for p in text.strip().split("\n\n") if p.strip()]
    out = []
    for part in parts:
        escaped = html.escape(part, quote=False)
        bolded = "".join(f"<b>{chunk}</b>" if i % 2 else chunk for i, chunk in enumerate(escaped.split('"')))
        out.append(f"<p>{bolded}</p>")
    return "".join(out)


DONE_LEAD = "<p class='pt-coach-done'>✓ Well done. Next:</p>"
"""Above a step's words when the step before was just done (HTML); a refused move takes it away."""


class TutorialApp(GameApp):
    """A tutorial on the game's real board (see the module docstring).

    Args:
        tutorial: a :class:`~playtest.tutorials.Tutorial`, a game's registry name (its
            shipped tutorial) or a tutorial file path (``.toml``).

    Attributes:
        tutorial: the Tutorial. lesson, step: the lesson and step on show (0-based;
            ``step == len(steps)`` once a lesson is done). in_finale: True during the
            closing game. coach: the panel; progress, text, feedback, next_button,
            restart_button, skip_button, hint_button, lesson_picker: its parts.
        refusals: how many moves were refused so far. hinted: the move of the last
            hint (None before one, or when there was nothing to decide).

    Raises:
        TutorialError: the tutorial cannot be found or does not play through.
    """

    def __init__(self, tutorial: Tutorial | str):
        self.tutorial = tutorial if isinstance(tutorial, Tutorial) else load_tutorial(tutorial)
        game = get_game(self.tutorial.game)
        self.lesson, self.step, self.in_finale, self.refusals = 0, 0, False, 0
        self.hinted: Move | None = None
        lesson0 = self.tutorial.lessons[0]
        super().__init__(game, seats=lesson0.seats, players={}, start=False, autosave=False)
        report = self.banner.show
        self.progress = w.HTML()
        self.progress.add_class("pt-coach-progress")
        self.text = w.HTML()
        self.feedback = w.HTML()
        self.feedback.add_class("pt-coach-feedback")
        self.next_button = w.Button(description="Next", button_style="primary", icon="arrow-right",
                                    layout=w.Layout(width="auto"))
        self.next_button.add_class("pt-coach-next")
        self.next_button.on_click(safe(lambda _b: self.next(), report))
        self.restart_button = w.Button(description="Start this lesson again", layout=w.Layout(width="auto"))
        self.restart_button.on_click(safe(lambda _b: self.restart(), report))
        self.skip_button = w.Button(description="Skip to the game", layout=w.Layout(width="auto"))
        self.skip_button.on_click(safe(lambda _b: self.open_finale(), report))
        self.hint_button = w.Button(description="Hint", icon="lightbulb", button_style="info",
                                    tooltip="What a stronger bot would do in your place (from what you know)",
                                    layout=w.Layout(width="auto"))
        self.hint_button.add_class("pt-coach-hint")
        self.hint_button.on_click(safe(lambda _b: self.hint(), report))
        titles = [f"{i + 1}. {lesson.title}" for i, lesson in enumerate(self.tutorial.lessons)]
        self.lesson_picker = w.Dropdown(options=[(t, i) for i, t in enumerate(titles)]
                                        + [(self.tutorial.finale.title, len(titles))],
                                        description="Lesson", layout=w.Layout(width="auto"))
        self.lesson_picker.observe(safe(self._picked, report), "value")
        buttons = w.HBox([self.next_button, self.hint_button, self.restart_button, self.skip_button,
                          self.lesson_picker], layout=w.Layout(flex_flow="row wrap", align_items="center"))
        self.coach = w.VBox([w.HTML(STYLE), LitInView(), self.progress, self.text, self.feedback, buttons])
        self.coach.add_class("pt-coach")
        # a lesson is the script's: no timeline, no new game or records (the finale has them too: it is short)
        self.timeline.widget.layout.display = "none"
        self.setup.layout.display = "none"
        children = list(self.widget.children)
        children.insert(children.index(self.banner.widget) + 1, self.coach)
        self.widget.children = tuple(children)
        self.widget.add_class("pt-tutorial")
        self.open_lesson(0)

    # --- where we are ---------------------------------------------------------------
    @property
    def current(self):
        """The step on show (None after a lesson's last step, and in the finale)."""
        if self.in_finale:
            return None
        steps = self.tutorial.lessons[self.lesson].steps
        return steps[self.step] if self.step < len(steps) else None

    def seat_name(self, seat: int) -> str:
        """A seat's label, counted from 1: the tutorial's name for it in a lesson ("Seat 2
        (Ann)" for seat 1)."""
        names = self.tutorial.names
        if not self.in_finale and seat < len(names) and seat != self.tutorial.seat:
            return f"Seat {seat + 1} ({names[seat]})"
        return super().seat_name(seat)

    # --- moving through it ------------------------------------------------------------
    def open_lesson(self, index: int) -> None:
        """Set up lesson ``index`` (0-based) at its first step.

        Raises:
            IndexError: no such lesson.
        """
        lesson = self.tutorial.lessons[index]
        match = self.tutorial.lesson_match(index)
        self.lesson, self.step, self.in_finale = index, 0, False
        # the other seats are the script's: "bots" that never move on their own (paused)
        others = {s: self.tutorial.finale.bot for s in range(lesson.seats) if s != self.tutorial.seat}
        self._seat(match, others, seed_chosen=True, paused=True)
        self._show()

    def reaction_time(self) -> float:
        """The bots wait before a Done it! only in the closing game (a lesson is a
        script: its bots move at once, as its steps say)."""
        return super().reaction_time() if self.in_finale else 0.0

    def open_finale(self) -> None:
        """Start the closing game: the learner against the gentle bot, with hints."""
        finale = self.tutorial.finale
        players = {s: (HUMAN if s == self.tutorial.seat else finale.bot) for s in range(finale.seats)}
        self.in_finale = True
        self.start(finale.seats, players, finale.options, finale.seed)
        self._show()

    def restart(self) -> None:
        """Start the lesson on show again (in the finale: a new game)."""
        self.open_finale() if self.in_finale else self.open_lesson(self.lesson)

    def next(self) -> None:
        """Next: the next step of a step to read, the next lesson once a lesson is done,
        or the finale after the last lesson."""
        step = self.current
        if self.in_finale or (step is not None and step.do):
            return                                   # a step with a move waits for it
        if step is not None:
            self.step += 1
            self._show()
        elif self.lesson + 1 < len(self.tutorial.lessons):
            self.open_lesson(self.lesson + 1)
        else:
            self.open_finale()

    def _picked(self, change) -> None:
        index = change["new"]
        if self._drawing or index is None or index == (len(self.tutorial.lessons) if self.in_finale else self.lesson):
            return
        self.open_finale() if index >= len(self.tutorial.lessons) else self.open_lesson(index)

    def play(self, move: Move) -> None:
        """A move from the board: in the finale, played as in any game; in a lesson,
        played (with the step's ``then`` moves after it) only if it is the step's move,
        else refused in the coach panel with why (nothing changes).

        Raises:
            IllegalMove: in the finale, as :meth:`GameApp.play`.
        """
        if self.in_finale:
            self.light(())
            self.feedback.value = ""              # a hint was for the position before this move
            try:
                return super().play(move)
            finally:
                self._finale_ended()
        step = self.current
        refusal = self.match.refusal(move)
        if refusal is not None:
            self._refused(refusal_text(refusal, self.game))
        elif closed := self.moves_closed():
            self._refused(closed)
        elif move != Move.parse(step.do):
            self._refused(" ".join(step.wrong.split()) or
                          f"That move is allowed, but this step asks for: {self._expected()}.")
        else:
            for text in [step.do, *step.then]:
                self.match.play(text)
            self.step += 1
            self._show(good=True)
            return
        self.refresh()                       # the move builder lets go of the refused choice

    def _expected(self) -> str:
        """The move the step on show asks for, in the words of the move controls."""
        return self.board.describe(Move.parse(self.current.do), self.match.view(self.viewer))

    def moves_closed(self) -> str:
        """In a lesson, on a step to read and once the lesson is done (a move then would
        only be refused), what to press instead: the moves are greyed out, and a move or a
        card click is answered with it. "" in the finale and on a step that asks for a move."""
        label = self._next_label()
        if label is None:
            return ""
        return f"Read this step first, then press {label}." if self.current else f"This lesson is done: press {label}."

    def _next_label(self) -> str | None:
        """The Next button's words now: "Next" on a step to read, "Next lesson" or "Start
        the game" once a lesson is done; None where the button is hidden (a step that asks
        for a move, the finale)."""
        step = self.current
        if self.in_finale or (step is not None and step.do):
            return None
        if step is not None:
            return "Next"
        return "Start the game" if self.lesson + 1 == len(self.tutorial.lessons) else "Next lesson"

    def unused_click(self) -> None:
        """In a lesson, a card click that neither picks the card for a move nor makes a
        move the rules forbid (another seat's card while the step asks for Done looking)
        is answered in the coach panel with what the step asks, never met with silence."""
        if not self.in_finale:
            self._refused(self.moves_closed() or
                          f"That card is not part of this step, which asks for: {self._expected()}.")

    def refuse(self, move: Move) -> str:
        """A card click that completes a move the rules forbid: said in the coach panel
        (in a lesson) or the banner (in the finale). Returns the text shown."""
        if self.in_finale:
            return super().refuse(move)
        refusal = self.match.refusal(move)
        if refusal is None:
            return ""
        text = refusal_text(refusal, self.game)
        self._refused(text)
        return text

    def _finale_ended(self) -> None:
        """Once the finale's game is over: how it ended, and where to go from here."""
        outcome = self.match.outcome()
        if outcome is None:
            return
        title = self.game.title
        self.feedback.add_class("pt-good")
        self.feedback.value = html.escape(
            f"Game over: {for_people(outcome.reason)}. That was the tutorial's last game: Play again starts another, "
            f"and the {title} dashboard on the index has the whole game, with its options and bots.")

    def _refused(self, text: str) -> None:
        self.refusals += 1
        self.feedback.remove_class("pt-good")
        self.feedback.value = html.escape(text)
        self.text.value = self.text.value.removeprefix(DONE_LEAD)    # the praise was for the step before

    def hint(self) -> str:
        """In the finale: what the hint bot would do in the learner's seat now (from
        that seat's information only), in the words of the move controls; shown in the
        coach panel. Returns the text ("" when the learner has no decision now)."""
        seat = self.tutorial.seat
        moves = self.table.decision_moves(seat) if self.in_finale and self.live else []
        self.hinted = None
        if not moves:
            text = "Nothing to decide right now." if self.in_finale else ""
        else:
            bot = make_bot(self.match.game, self.tutorial.finale.hints, len(self.match.moves))
            self.hinted = bot.choose(self.match.bot_view(seat), moves)
            text = sentence(f"Hint: {self.board.describe(self.hinted, self.match.view(seat))}")   # "Hint: NOT ME!"
        self.feedback.add_class("pt-good")
        self.feedback.value = html.escape(text)
        return text

    # --- drawing ------------------------------------------------------------------------
    def _show(self, good: bool = False) -> None:
        """Draw the board and the lit cards, then the coach panel's words for the step on
        show (in that order: once the page shows a step's text, its board is drawn). ``good``: the
        last step's move was right: "Well done." as the feedback where the lesson ends, or
        above the next step's text, leading into it (under it, it read as if the new step
        were done already); otherwise no feedback is left over."""
        self.refresh()
        lessons = self.tutorial.lessons
        self._drawing = True
        try:
            self.lesson_picker.value = len(lessons) if self.in_finale else self.lesson
        finally:
            self._drawing = False
        step = self.current
        lead = good and step is not None and not self.in_finale
        self.feedback.value = "Well done." if good and not lead else ""
        self.feedback.add_class("pt-good")
        if self.in_finale:
            finale = self.tutorial.finale
            progress = f"<b>{html.escape(finale.title)}</b> · against the {html.escape(finale.bot)} bot"   # as its seat is labelled
            text = paragraphs(finale.say)
            lit = []
        elif step is None:
            lesson = lessons[self.lesson]
            last = self.lesson + 1 == len(lessons)
            progress = (f"<b>Lesson {self.lesson + 1} of {len(lessons)}: {html.escape(lesson.title)}</b>"
                        " · done")
            text = paragraphs("Lesson done. " + ("Next: your first game." if last else
                                                 f"Next: {lessons[self.lesson + 1].title}."))
            lit = []
        else:
            lesson = lessons[self.lesson]
            intro = self.tutorial.intro if self.lesson == 0 and self.step == 0 else ""
            progress = (f"<b>Lesson {self.lesson + 1} of {len(lessons)}: {html.escape(lesson.title)}</b>"
                        f" · step {self.step + 1} of {len(lesson.steps)}")
            done = DONE_LEAD if lead else ""
            text = done + paragraphs(intro) + paragraphs(step.say)
            lit = step.lit
        next_label = self._next_label()
        self.next_button.description = next_label or "Next"
        self.next_button.layout.display = None if next_label else "none"
        self.hint_button.layout.display = None if self.in_finale else "none"
        self.skip_button.layout.display = "none" if self.in_finale else None
        self.restart_button.description = "New game" if self.in_finale else "Start this lesson again"
        self.light(lit)
        # the step's words last: once a page shows them, its board and lit cards are drawn
        self.progress.value, self.text.value = progress, text

    def _draw(self) -> None:
        super()._draw()
        if not self.in_finale:     # the script's seats wait (no "Continue"); a lesson is no game to replay
            self.opened_box.layout.display = self.again_button.layout.display = "none"
        else:                      # a game over has nothing left to hint
            self.hint_button.disabled = self.match.outcome() is not None

