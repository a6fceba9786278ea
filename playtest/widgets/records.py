"""Save and load a match from the browser: the record (JSON), the game as a scenario
(TOML, see :mod:`playtest.scenarios`), and share links: ``?record=DATA`` (this position:
the record up to the shown move, compressed into the address), ``?seed=N`` (a new game
with that seed; typed by hand), ``?scenario=NAME``; ``&players=`` (with a record: who
sits at each seat).

The record, the scenario and the seed each rebuild every hidden card (G-3). So a
download or share link is made only on request, only after a clear warning while the
game is still going, and it is removed again at the next move.

Page addresses: Voilà passes a dashboard page's query string to its kernel as the
environment variable ``QUERY_STRING`` (and its address as ``SERVER_NAME``/``SCRIPT_NAME``...:
:func:`playtest.widgets.page.page_address`);
:func:`parse_link` reads it, :func:`playtest.scenarios.find_scenario` finds the scenario it names.
"""
from __future__ import annotations

import base64
import binascii
import html
import re
import reprlib
import zlib
from typing import Callable, Mapping, NamedTuple
from urllib.parse import parse_qs

import ipywidgets as w

from ..engine import Match, RecordError, limits
from ..scenarios import is_scenario_name
from .components import BuiltOnUse, download_link, safe
from .page import page_address
from .upload import LimitedUpload



_RECORD_DATA = re.compile(r"[A-Za-z0-9_-]+")
_PLAYER = re.compile(r"[a-z][a-z0-9_]*")
MAX_RECORD_BYTES = limits.MAX_BYTES
"""The most record JSON a ``?record=`` link may unpack to (a guard against a link built
to fill the server's memory; a real record is a few kilobytes): the input limit,
:data:`playtest.engine.limits.MAX_BYTES`."""
LONG_LINK = 2000
"""Links longer than this many characters get a note: some browsers, chat apps and mail
programs cut them."""


class Link(NamedTuple):
    """What a page address asks for: ``scenario`` (a name), ``seed`` (an int) or
    ``record`` (the packed record of a shared position, see :func:`pack_record`), or
    nothing (all None). ``players``: with a record only, who sits at each seat in seat
    order ("human" or a bot name, see :func:`players_query`); None: not given."""

    scenario: str | None = None
    seed: int | None = None
    record: str | None = None
    players: tuple[str, ...] | None = None


def players_query(players: Mapping[int, str], seats: int) -> str:
    """The ``players=`` part of a share link: each seat's player in seat order, comma
    separated, e.g. ``"players=human,random,heuristic"`` (``players``: seat -> bot name;
    a seat not in it is "human")."""
    return "players=" + ",".join(players.get(seat, "human") for seat in range(seats))


def pack_record(match: Match) -> str:
    """The record of ``match`` up to its cursor (the position on show: moves, seed,
    seats, options, pinned setup), packed for a page address: compact JSON, zlib,
    base64url without padding. :func:`unpack_record` reverses it."""
    record = match.record().model_copy(update={"moves": [str(m) for m in match.moves[:match.cursor]]})
    packed = base64.urlsafe_b64encode(zlib.compress(record.model_dump_json().encode(), 9))
    return packed.decode().rstrip("=")


def unpack_record(data: str) -> Match:
    """The match a ``?record=`` value holds, replayed to its last move.

    Raises:
        RecordError: the value was cut short, changed or is not a playtest record, or
            a move in it is illegal (the message says what to do); a
            :class:`~playtest.engine.limits.LimitError` when it (or the record it
            unpacks to) is over an input limit.
    """
    return Match.from_json(record_text(data), what="the record in the page address")


def record_text(data: str) -> str:
    """The record JSON text a ``?record=`` value holds, unpacked but not read (see
    :func:`unpack_record`, whose errors it raises but for the record's own)."""
    damaged = ("the ?record= part of the page address is damaged (cut short or changed): "
               "copy the whole link again, or share the game with Save record")
    limits.check_size(data or "", "the ?record= part of the page address")
    if not _RECORD_DATA.fullmatch(data or ""):
        raise RecordError(damaged)
    try:
        inflate = zlib.decompressobj()
        raw = inflate.decompress(base64.urlsafe_b64decode(data + "=" * (-len(data) % 4)), MAX_RECORD_BYTES)
        if inflate.unconsumed_tail:     # more than MAX_RECORD_BYTES: not unpacked further
            raise limits.too_large("the record in the page address", MAX_RECORD_BYTES + 1)
        if not inflate.eof:
            raise ValueError("truncated")
        text = raw.decode("utf-8")
    except limits.LimitError:
        raise
    except (binascii.Error, zlib.error, ValueError):
        raise RecordError(damaged) from None
    return text


def parse_link(query: str | None) -> Link:
    """Read a page's query string, e.g. ``"seed=42"``, ``"?scenario=stale_claim"`` or
    ``"record=eNq...&players=human,random"``. Other parameters (Voilà's own) are ignored. A record is only
    checked for its characters here; :func:`unpack_record` reads it.

    Every value passes the input limits (:mod:`playtest.engine.limits`) first: the
    query at most 1 MiB, a seed of ASCII digits (at most 40), a scenario or player name
    of at most 100 characters.

    Raises:
        ValueError: a parameter given twice, more than one of ``scenario``, ``seed`` and
            ``record``, a seed that is not a whole number 0 or more in the digits 0-9, a
            scenario name that is not a plain file name (letters, digits, ``_ . -``) or
            is too long, or a record with characters a packed record never has, or
            ``players`` without a record or with a name that is not a plain word; the
            message says what is allowed.
    """
    limits.check_size(query or "", "the page address")
    params = parse_qs((query or "").lstrip("?"), keep_blank_values=True)
    for key in ("scenario", "seed", "record", "players"):
        if len(params.get(key, ())) > 1:
            raise ValueError(f"the page address gives ?{key}= {len(params[key])} times; give it once")
    scenario, seed, record = (params.get(key, [None])[0] for key in ("scenario", "seed", "record"))
    given = [f"?{key}=" for key, value in (("scenario", scenario), ("seed", seed), ("record", record))
             if value is not None]
    if len(given) > 1:
        raise ValueError(f"the page address gives {' and '.join(given)}; give one of them")
    if record is not None:
        if not _RECORD_DATA.fullmatch(record):
            raise ValueError("the ?record= part of the page address is damaged (cut short or changed): "
                             "copy the whole link again")
        players = params.get("players", [None])[0]
        if players is not None and not all(_PLAYER.fullmatch(p) and len(p) <= limits.MAX_NAME
                                           for p in players.split(",")):
            raise ValueError(f"?players={reprlib.repr(players)} is not a list of players: give each seat's "
                             "player in seat order, 'human' or a bot name, comma separated, e.g. ?players=human,random")
        return Link(record=record, players=None if players is None else tuple(players.split(",")))
    if "players" in params:
        raise ValueError("the page address gives ?players= without ?record=: the players go with a shared record")
    if seed is not None:
        if not limits.is_number(seed.strip()):
            raise ValueError(f"?seed={reprlib.repr(seed)} is not a seed: use a whole number 0 or more in the digits "
                             f"0-9 (at most {limits.MAX_DIGITS} of them), e.g. ?seed=42")
        return Link(seed=int(seed))
    if scenario is not None:
        if not is_scenario_name(scenario):
            raise ValueError(f"?scenario={reprlib.repr(scenario)} is not a scenario name: use a shipped example's "
                             f"name or a file name in the scenarios folder (letters, digits, _ . -; at most "
                             f"{limits.MAX_NAME} characters)")
        return Link(scenario=scenario)
    return Link()


def share_url(query: str) -> str:
    """The address of this dashboard page with ``query`` (e.g. ``"seed=42"``): absolute
    under Voilà (:func:`~playtest.widgets.page.page_address`, right for a preheated kernel
    too), else relative (``"?seed=42"``)."""
    page = page_address()
    return f"{page}?{query}" if page else f"?{query}"


class RecordPanel(BuiltOnUse):
    """Save (download) and load (upload) the record JSON; save the game as a scenario
    (TOML) and show its share link.

    Args:
        get_record: returns ``(record_json: str, over: bool, filename: str)``.
        on_load: called with the uploaded text (a record's JSON or a scenario's TOML,
            within :data:`playtest.engine.limits.MAX_BYTES` and UTF-8) and the file's
            name; raises a ``PlaytestError`` for a bad file (the app shows it and
            changes nothing).
        report: where exceptions raised by its handlers go (e.g. ``ErrorBanner.show``).
        get_scenario: returns ``(scenario_toml: str, filename: str)``; None: no "Save
            as scenario" button.
        get_link: returns the share links as ``[(label, query), ...]``, e.g.
            ``[("This position (move 5)", "record=...&players=human,random"),
            ("A new game with the same set-up (move 0)", "record=...&players=human,random")]``
            (see :func:`parse_link`); None: no "Share link" button.
        on_refused: called when the browser refuses a file for its size (the refusal is
            shown beside the button; e.g. clear the page's error banner of an earlier file).

    Attributes:
        save, save_scenario, share, anyway, note, link, upload: the components, made the
            first time one is read or by :meth:`build` when the panel is first shown (a page
            that never opens it does not create, send and draw them; ``widget`` is an
            empty box until then). built: whether they exist yet.
        asked: what the warning is about (``"record"``, ``"scenario"``, ``"link"``) or None.
    """

    MADE_ON_USE = frozenset({"save", "save_scenario", "share", "anyway", "note", "link", "upload"})
    WARNING = ("The game is not over. The record contains the seed, which rebuilds every "
               "hidden card: anyone who opens the file can see all cards.")
    LINK_WARNING = ("The game is not over. The link contains the seed, which rebuilds every "
                    "hidden card: anyone who opens it can see all cards.")

    def __init__(self, get_record: Callable[[], tuple[str, bool, str]], on_load: Callable[[str, str], None],
                 report: Callable[[Exception], None] | None = None,
                 get_scenario: Callable[[], tuple[str, str]] | None = None,
                 get_link: Callable[[], list[tuple[str, str]]] | None = None,
                 on_refused: Callable[[], None] | None = None):
        self.get_record, self.on_load, self.on_refused = get_record, on_load, on_refused
        self.get_scenario, self.get_link = get_scenario, get_link
        self._report = report
        self.asked: str | None = None
        super().__init__()

    def _build(self) -> None:
        report = self._report

        def button(text, icon, what, shown=True):
            b = w.Button(description=text, icon=icon, layout=w.Layout(width="auto", display=None if shown else "none"))
            b.on_click(safe(lambda _b: self.request(what), report))
            return b

        self.save = button("Save record", "download", "record")
        self.save_scenario = button("Save as scenario", "download", "scenario", self.get_scenario is not None)
        self.share = button("Share link", "link", "link", self.get_link is not None)
        self.anyway = w.Button(description="Show it anyway", button_style="warning",
                               layout=w.Layout(width="auto", display="none"))
        self.anyway.on_click(safe(lambda _b: self._link(), report))
        self.note = w.HTML()
        self.link = w.HTML()
        self.upload = LimitedUpload(accept=".json,.toml", description="Load record or scenario",
                                    hint=f"Records and scenarios up to {limits.SIZE_TEXT}")
        self.upload.observe(safe(self._uploaded, report), "value")
        self.upload.observe(self._refused, "refused")
        self.widget.children = (w.HBox([self.save, self.save_scenario, self.share], layout=w.Layout(flex_flow="row wrap")),
                                 w.HBox([self.anyway, self.link]), self.note, self.upload)

    def request(self, what: str = "record") -> None:
        """A save or share button was clicked (``what``: ``"record"``, ``"scenario"``
        or ``"link"``): make the link if the game is over, else warn first."""
        _, over, _ = self.get_record()
        self.reset()
        self.asked = what
        if over:
            self._link()
        else:
            warning = self.LINK_WARNING if what == "link" else self.WARNING
            self.note.value = f"<b>Warning:</b> {html.escape(warning)}"
            self.anyway.layout.display = None

    def _link(self) -> None:
        what = self.asked or "record"
        if what == "link":
            rows = []
            for label, query in self.get_link():
                url = share_url(query)
                size = (f" <i>({len(url):,} characters: some browsers, chat and mail programs cut links "
                        f"this long; Save record is safer)</i>" if len(url) > LONG_LINK else "")
                rows.append(f"<div><b>{html.escape(label)}</b>: <a class='pt-share' href='{html.escape(url)}' "
                            f"target='_blank' style='word-break: break-all' title='{html.escape(label)}'>{html.escape(url)}</a>{size}</div>")
            self.link.value = "".join(rows)
        else:
            if what == "scenario":
                text, filename = self.get_scenario()
                mime = "application/toml"
            else:
                text, _, filename = self.get_record()
                mime = "application/json"
            self.link.value = download_link(text, filename, mime, f"Download the {what}")
        self.note.value = ""
        self.anyway.layout.display = "none"

    def reset(self) -> None:
        """Remove the link and the warning (called after every move)."""
        self.asked = None
        if not self.built:
            return
        self.link.value = self.note.value = ""
        self.anyway.layout.display = "none"

    def _uploaded(self, change) -> None:
        files = change["new"]
        if not files:
            return
        name = str(files[0].get("name") or "the uploaded file")
        self.upload.value = ()
        self.note.value = ""
        try:
            text = limits.decode(files[0]["content"], name)   # size, UTF-8 and NUL checks
            self.on_load(text, name)
        except limits.LimitError as exc:
            if exc.limit == "MAX_BYTES":                       # said beside the button (its own refusal)
                self.upload.message = self.upload.refusal(name, limits.human_size(len(files[0]["content"])))
            else:
                self._not_loaded(exc)
            raise
        except Exception as exc:
            self._not_loaded(exc)
            raise                                              # and in the page's banner, as every error

    def _refused(self, change) -> None:
        # the browser refused a file for its size (said beside the button): an earlier
        # file's error must not stand beside it, here or in the page's banner
        if change["new"] is not None:
            self.note.value = ""
            if self.on_refused is not None:
                self.on_refused()

    def _not_loaded(self, error: Exception) -> None:
        """Say beside the upload button why a file was not loaded (the banner at the top of
        the page may be out of sight)."""
        self.note.value = f"<b>Not loaded:</b> {html.escape(str(error) or type(error).__name__)}"
