"""A table page's address (``table.ipynb?table=ID&token=T``), read and judged in one place.

Two sides read it. ``playtest serve``'s page handler (:class:`playtest.server.app.PageHandler`)
judges it before the page takes a kernel (:func:`playtest.tables.web.judge_table_page`):
a wrong, missing or malformed table or token gets :func:`refusal_page` at once, a plain
HTML page with no kernel behind it. Under Jupyter Server (Binder) that handler does not
run: the page's kernel reads the same address (:func:`parse_query`) and shows the same
words (:func:`refusal_html`) in its message box
(:class:`playtest.widgets.live.SeatApp`). No widget import here: the server uses it.
"""
from __future__ import annotations

import html
from dataclasses import dataclass
from urllib.parse import parse_qs, quote

TITLE = "This table page cannot open"
"""The heading of every refusal of a table page."""

MAX_TOKENS = 16
"""Tokens one page address may hold: a seat's, or every human seat of a table on one
device (at most 7) with the spectator's or the host's; more is not a link the lobby makes."""

ID_LIMIT = 100
"""Characters of a table id in its websocket address (``tables/<id>/ws``, the id quoted):
a longer one is no table's address at all (:func:`playtest.tables.web.table_handlers`)."""

NEEDS_BOTH = ("this page needs a table and a token in its address (table.ipynb?table=…&token=…): "
              "open the link the table's host gave you")
NEEDS_TABLE = ("this link holds a token but names no table (table=… is missing from its address): "
               "open the whole link the table's host gave you")
NEEDS_TOKEN = ("this link names a table but holds no token (token=… is missing from its address), and a table "
               "opens only with one of its tokens: open the whole link the table's host gave you")
SEVERAL_TABLES = ("this link names more than one table (table=… appears with different values), and a page "
                  "shows one table: open the link the table's host gave you")
TOO_MANY_TOKENS = (f"this link holds more than {MAX_TOKENS} tokens, and a page takes at most {MAX_TOKENS} "
                   "(a seat's, or every seat of a table on one device): open the link the table's host gave you")
NO_ADDRESS = "there is no table at this address (the link may be cut short)"
"""Reasons, as the table service words its own (one clause, lower-case, no final stop):
:func:`sentence` makes each a sentence."""

WHAT_TO_DO = ("Seat links come from the table's host, who made them in the lobby: ask for yours again, "
              "and open it whole. To make a table of your own, or take a seat left open, open the "
              "<a href='lobby.ipynb'>lobby</a>.")
"""What to do, under every refusal (HTML; the link is relative to the table page, which
sits beside the lobby in the dashboards folder)."""


@dataclass(frozen=True)
class Refusal:
    """Why a table page is not shown: ``status`` (HTTP: 403 for a missing or wrong token,
    404 for a missing, unknown or ambiguous table, 409 for a table the store holds but
    cannot replay, 503 while live tables are off) and ``reason`` (plain text, one clause as
    the table service words its errors)."""

    status: int
    reason: str


def parse_query(query: str) -> tuple[list[str], list[str]]:
    """A page address's query -> ``(tables, tokens)``: the distinct non-empty ``table``
    values in order, and the distinct tokens in order (``token=T1,T2``, or ``token``
    repeated). Bytes that are not UTF-8 become U+FFFD (never an error)."""
    fields = parse_qs(query.lstrip("?"), keep_blank_values=True)
    tables = list(dict.fromkeys(t.strip() for t in fields.get("table", []) if t.strip()))
    tokens = [t.strip() for value in fields.get("token", []) for t in value.split(",") if t.strip()]
    return tables, list(dict.fromkeys(tokens))


def missing(table: bool, token: bool) -> str:
    """The reason for an address that lacks its table, its token or both (``table``,
    ``token``: whether the address names one): :data:`NEEDS_TOKEN`, :data:`NEEDS_TABLE`
    or :data:`NEEDS_BOTH`."""
    return NEEDS_TOKEN if table else NEEDS_TABLE if token else NEEDS_BOTH


def malformed(query: str) -> Refusal | None:
    """The refusal of an address that names no table or token, several tables, or too
    many tokens; None when it names one table and its tokens (which only the table
    service can judge)."""
    tables, tokens = parse_query(query)
    if not tables:
        return Refusal(404, missing(False, bool(tokens)))
    if len(tables) > 1:
        return Refusal(404, SEVERAL_TABLES)
    if not tokens:
        return Refusal(403, missing(True, False))
    if len(tokens) > MAX_TOKENS:
        return Refusal(403, TOO_MANY_TOKENS)
    if len(quote(tables[0], safe="")) > ID_LIMIT:
        return Refusal(404, NO_ADDRESS)
    return None


def sentence(reason: str) -> str:
    """A reason as a sentence: capital first letter, and a full stop unless it ends with
    one, a "!" or a "?" (plain text)."""
    return reason[:1].upper() + reason[1:] + ("" if reason.endswith((".", "!", "?")) else ".")


def refusal_html(sentence_html: str) -> str:
    """The words of a refusal (HTML): the heading, ``sentence_html`` (HTML, escaped by
    the caller) and :data:`WHAT_TO_DO`. The kernel's page and the server's plain page
    show the same."""
    return f"<h3>{TITLE}</h3><p>{sentence_html}</p><p>{WHAT_TO_DO}</p>"


PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>{title}</title>
<style>
  body {{ font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: #fafaf7; color: #222;
         margin: 0; padding: 24px; }}
  main {{ max-width: 640px; margin: 8vh auto 0; background: #f3f1ea; border-radius: 10px; padding: 16px 24px;
          font-size: 15px; line-height: 1.5; }}
  h3 {{ margin-top: 4px; font-size: 20px; }}
  a {{ color: #1565c0; font-weight: 600; }}
  nav {{ margin-top: 18px; padding-top: 10px; border-top: 1px solid #ddd8c8; font-size: 14px; }}
  nav a {{ margin-right: 16px; }}
</style>
</head>
<body>
<main class="pt-live-message pt-refused" data-status="{status}">
{body}
<nav><a href="lobby.ipynb">Open the lobby</a> <a href="index.ipynb">All dashboards</a></nav>
</main>
</body>
</html>
"""


def refusal_page(refusal: Refusal) -> str:
    """A whole HTML page for ``refusal`` (no script, nothing from the address echoed
    unescaped), as ``playtest serve`` answers a wrong table link."""
    body = refusal_html(html.escape(sentence(refusal.reason)))
    return PAGE.format(title=html.escape(TITLE), status=refusal.status, body=body)
