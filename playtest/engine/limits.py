"""Input limits: the size and shape every text a person or a script hands the kit must
keep, checked *before* it is parsed.

Records (JSON), scenarios (TOML), page addresses (``?record=``, ``?scenario=``,
``?seed=``, ``?players=``), ``playtest replay`` files and options typed in a panel all
pass through here. The parsers behind them are not built for hostile text: ``tomllib``
takes gigabytes for one key of many dotted parts (its work grows with the square of the
parts), both parsers recurse once per level of nesting (``RecursionError`` past about
1,000), and ``int()`` refuses more than 4,300 digits with a message about Python's
internals. So a cheap pre-scan reads the text once, left to right, with a few regular
expressions and a counter or two (no recursion, memory bounded by the text), and refuses
it in one sentence that names the limit and what is allowed:

========================  ======================================================
:data:`MAX_BYTES`         1 MiB (1,048,576 bytes) of UTF-8 per file, link or text
:data:`MAX_DEPTH`         32 levels of nesting (tables, arrays, dotted keys)
:data:`MAX_KEY_PARTS`     8 parts in one dotted key or table name (``a.b.c``)
:data:`MAX_KEY_LENGTH`    100 characters in one key (or one part of a dotted key)
:data:`MAX_ITEMS`         20,000 keys and values in one file
:data:`MAX_STRING`        10,000 characters in one text value
:data:`MAX_DIGITS`        40 digits in one number (ASCII ``0``-``9`` only)
:data:`MAX_MOVE`          200 characters in one move (``"2 claim 1 4 17"``)
:data:`MAX_OPTION`        500 characters in an option's value typed in a panel
:data:`MAX_NAME`          100 characters in a name (``?scenario=``, a player)
========================  ======================================================

A real record or scenario is a few kilobytes (a 700-move Chore Race game is 13 kB), so
the limits leave room for a hundred times that. Within them ``tomllib`` and ``json``
parse a file in well under a second and a few megabytes.

Digits are ASCII only: ``int()`` also reads Arabic-Indic, Devanagari, full-width and
other digits (and ``str.isdigit`` is true for ``²``, which ``int()`` then refuses), so a
seat, seed or move number written with them is refused, not silently read.

Every refusal is a :class:`LimitError` (a :class:`~playtest.engine.RecordError`, so a
``ValueError`` too) whose message says which text, where (the line, for a file) and what
is allowed.
"""
from __future__ import annotations

import codecs
import json
import os
import re
from typing import Any, Iterator

from .errors import RecordError

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

MAX_BYTES = 1 << 20
"""Bytes of UTF-8 in one record, scenario, page address value or typed text (1 MiB)."""
MAX_DEPTH = 32
"""Levels of nesting: the document, and each JSON object or array, TOML table, array,
inline table or dotted-key part within it (``a.b = [1]`` is 3 deep: the document, the
table ``a``, the array)."""
MAX_KEY_PARTS = 8
"""Parts of one dotted key or table name (``[expect.view]`` has 2)."""
MAX_KEY_LENGTH = 100
"""Characters in one key or one part of a dotted key (quotes not counted)."""
MAX_ITEMS = 20_000
"""Keys and values in one file, counted at every level (a number with a fraction or
a date counts once per part)."""
MAX_STRING = 10_000
"""Characters in one text value (a title, a description), quotes not counted."""
MAX_DIGITS = 40
"""Digits in one number: every 128-bit seed fits (39 digits); 4,301 would reach
``int()``'s own limit."""
MAX_MOVE = 200
"""Characters in a move's text form (the longest real move is about 30)."""
MAX_OPTION = 500
"""Characters in an option's value typed in a panel (Chore Race's whole action deck
written as a mapping is 148)."""
MAX_NAME = 100
"""Characters in a name read from a page address: a scenario (``?scenario=``) or a
player (``?players=``)."""

SIZE_TEXT = "1 MiB"
""":data:`MAX_BYTES` as people read it (the upload controls and the documentation say it)."""


class LimitError(RecordError):
    """A text over one of the input limits (nothing was parsed, nothing changed).

    Attributes:
        what: the text it is about, e.g. ``"the uploaded file game.json"``.
        limit: which limit, e.g. ``"MAX_DEPTH"`` (the constant's name), or
            ``"encoding"`` for a file that is not UTF-8 text.
        line: the 1-based line of the offending part, or None.
        reason: what is wrong and what is allowed, one sentence.
    """

    def __init__(self, what: str, limit: str, reason: str, line: int | None = None):
        self.what, self.limit, self.reason, self.line = what, limit, reason, line
        where = f"{what}, line {line}" if line else what
        super().__init__(f"{where}: {reason}")


def human_size(size: int) -> str:
    """A byte count as people read it: ``"512 bytes"``, ``"1.5 MiB"``, ``"40.0 kB"``
    (kB = 1,024 bytes, as the browser's file size; one decimal)."""
    if size < 1024:
        return f"{size:,} bytes"
    if size < 1 << 20:
        return f"{size / 1024:.1f} kB"
    return f"{size / (1 << 20):.1f} MiB"


def too_large(what: str, size: int) -> LimitError:
    """The refusal of a text or file of ``size`` bytes over :data:`MAX_BYTES`."""
    return LimitError(what, "MAX_BYTES", f"it is {human_size(size)}; records, scenarios and page addresses may be "
                                         f"at most {SIZE_TEXT} ({MAX_BYTES:,} bytes)")


def check_size(text: str | bytes, what: str) -> None:
    """Refuse a text over :data:`MAX_BYTES` bytes of UTF-8 (a str is measured without
    encoding it when its length alone decides).

    Raises:
        LimitError: ``limit == "MAX_BYTES"``.
    """
    size = len(text)
    if isinstance(text, str) and MAX_BYTES // 4 < size <= MAX_BYTES:
        size = len(text.encode("utf-8", "surrogatepass"))   # at most 4 MiB, once
    if size > MAX_BYTES:
        raise too_large(what, size)


_UTF16_32 = ((codecs.BOM_UTF32_LE, "UTF-32"), (codecs.BOM_UTF32_BE, "UTF-32"),
             (codecs.BOM_UTF16_LE, "UTF-16"), (codecs.BOM_UTF16_BE, "UTF-16"))


def decode(data: bytes | bytearray | memoryview, what: str) -> str:
    """The text of an uploaded or read file: at most :data:`MAX_BYTES`, UTF-8 (a UTF-8
    byte order mark is dropped), no NUL character.

    Args:
        data: the file's bytes. what: how messages name it, e.g. ``"game.json"``.

    Raises:
        LimitError: too large (``"MAX_BYTES"``); UTF-16 or UTF-32, not UTF-8, or
            holding a NUL (``"encoding"``). The message says how to fix the file.
    """
    check_size(data, what)                   # before any copy of a file that may be huge
    data = bytes(data)
    for bom, name in _UTF16_32:
        if data.startswith(bom):
            raise LimitError(what, "encoding", f"it is {name} text, not a UTF-8 text file: save it as UTF-8 "
                                               "and load it again")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LimitError(what, "encoding", f"it is not a UTF-8 text file (byte {exc.start + 1:,} is "
                                           f"0x{data[exc.start]:02X}): the kit reads text files in UTF-8") from None
    return _no_nul(text.removeprefix("\ufeff"), what)


def _no_nul(text: str, what: str) -> str:
    at = text.find("\x00")
    if at >= 0:
        raise LimitError(what, "encoding", "it holds a NUL character, so it is a binary file, not a UTF-8 text "
                                           "file: the kit reads text files in UTF-8",
                         text.count("\n", 0, at) + 1)
    return text


def read_text(path: str | os.PathLike, what: str | None = None) -> str:
    """Read a record or scenario file: at most :data:`MAX_BYTES` are read (a bigger file
    is refused without reading the rest), then :func:`decode`.

    Args:
        path: the file. what: how messages name it (default: the path as given).

    Raises:
        LimitError: see :func:`decode`.
        OSError: the file cannot be opened or read (missing, a folder, no permission).
    """
    what = str(path) if what is None else what
    with open(path, "rb") as file:
        data = file.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            size = os.fstat(file.fileno()).st_size
            raise too_large(what, max(size, len(data)))
    return decode(data, what)


def is_number(text: str) -> bool:
    """True for a whole number written in ASCII digits only (``"0"``, ``"42"``), at
    most :data:`MAX_DIGITS` of them; False for ``""``, ``"-1"``, ``"²"``, ``"٣"``."""
    return 0 < len(text) <= MAX_DIGITS and text.isascii() and text.isdigit()


def check_line(text: str, what: str, max_chars: int = MAX_STRING) -> None:
    """Refuse a one-line text typed or passed in (an option's value) longer than
    ``max_chars`` characters.

    Raises:
        LimitError: ``limit == "MAX_STRING"``.
    """
    if len(text) > max_chars:
        raise LimitError(what, "MAX_STRING", f"it is {len(text):,} characters long; at most {max_chars:,} are allowed")


# --- the pre-scans ------------------------------------------------------------------------
# The token patterns are single characters or runs of one character class: a failed match
# costs nothing and a match no memory per character (a repeated group would keep a
# backtracking point per repetition: a quarter of a gigabyte for a megabyte of newlines).
# A string is matched as a whole by an "unrolled loop" pattern (a run of plain
# characters, then an escape and a run again: one way only to match a text, no
# catastrophic backtracking) within a window a little longer than MAX_STRING (see
# _string_end). A string that does not close ends the scan: the parser fails right there
# too, and never reads what follows.
_JSON_TOKEN = re.compile(r"""
    (?P<s>")                                 # a string opens
  | (?P<n>[0-9]+)                            # a run of digits (part of a number)
  | (?P<o>[\[{])
  | (?P<c>[\]}])
  | (?P<w>[A-Za-z]+)                         # true, false, null (or a mistake)
""", re.VERBOSE)
_COLON = re.compile(r"[ \t\r\n]*:")

_TOML_TOKEN = re.compile(r"""
    (?P<m>\"\"\"|''')                       # a multi-line string opens
  | (?P<s>["'])                             # a one-line string opens
  | (?P<nl>\n[ \t\r\n]*)                     # a line end, and blank lines after it
  | (?P<cm>\#[^\n]*\n?[ \t\r\n]*)             # a comment, with its line end
  | (?P<w>[A-Za-z0-9_+\-:]+)                # a bare key, number, date, true, inf...
  | (?P<p>[\[\]{}=,.])
""", re.VERBOSE)
_NUMBER_RUN = re.compile(r"[0-9A-Fa-f_]+")


class _Scan:
    """Counters shared by both pre-scans; every method raises LimitError."""

    def __init__(self, text: str, what: str):
        self.text, self.what, self.items = text, what, 0

    def fail(self, limit: str, reason: str, pos: int) -> None:
        """Raise the LimitError, with the line of ``pos`` when the text has lines."""
        line = self.text.count("\n", 0, pos) + 1 if "\n" in self.text else None
        raise LimitError(self.what, limit, reason, line)

    def item(self, pos: int) -> None:
        self.items += 1
        if self.items > MAX_ITEMS:
            self.fail("MAX_ITEMS", f"it has more than {MAX_ITEMS:,} keys and values; at most {MAX_ITEMS:,} "
                                   "are allowed", pos)

    def depth(self, depth: int, pos: int) -> None:
        if depth > MAX_DEPTH:
            self.fail("MAX_DEPTH", f"it is nested more than {MAX_DEPTH} levels deep; at most {MAX_DEPTH} levels "
                                   "(of objects, arrays, tables or dotted-key parts) are allowed", pos)

    def string(self, token: str, quotes: int, pos: int) -> None:
        if len(token) - 2 * quotes > MAX_STRING:
            self.fail("MAX_STRING", f"it has a text of {len(token) - 2 * quotes:,} characters; texts may be at "
                                    f"most {MAX_STRING:,} characters", pos)

    def key(self, token: str, quotes: int, pos: int) -> None:
        if len(token) - 2 * quotes > MAX_KEY_LENGTH:
            self.fail("MAX_KEY_LENGTH", f"it has a key of {len(token) - 2 * quotes:,} characters; keys may be "
                                        f"at most {MAX_KEY_LENGTH} characters", pos)

    def number(self, token: str, pos: int) -> None:
        if len(token) > MAX_DIGITS:
            digits = max((len(run) - run.count("_") for run in _NUMBER_RUN.findall(token)), default=0)
            if digits > MAX_DIGITS:
                self.fail("MAX_DIGITS", f"it has a number of {digits:,} digits; numbers may have at most "
                                        f"{MAX_DIGITS} digits", pos)


def check_json(text: str, what: str) -> None:
    """Check JSON text against every limit, before ``json.loads`` (see the module).

    Args:
        text: the JSON text. what: how messages name it, e.g. ``"the record"``.

    Raises:
        LimitError: over a limit; the message names it, the line and what is allowed.
    """
    check_size(text, what)
    _no_nul(text, what)
    scan = _Scan(text, what)
    depth, at = 0, 0
    while m := _JSON_TOKEN.search(text, at):
        kind, pos, at = m.lastgroup, m.start(), m.end()
        if kind == "s":
            at = _string_end(text, pos, '"')
            if at == TOO_LONG:
                scan.fail("MAX_STRING", f"it has a text of more than {MAX_STRING:,} characters; texts may be "
                                        f"at most {MAX_STRING:,} characters", pos)
            if at == UNCLOSED:
                break
            if _COLON.match(text, at):
                scan.key(text[pos:at], 1, pos)
            else:
                scan.string(text[pos:at], 1, pos)
        elif kind == "n":
            scan.number(m.group(), pos)
        elif kind == "o":
            depth += 1
            scan.depth(depth, pos)
        elif kind == "c":
            depth -= 1
            if depth < 0:
                break                            # closes what nothing opened: json.loads stops here
            continue
        scan.item(pos)


def check_toml(text: str, what: str) -> None:
    """Check TOML text against every limit, before ``tomllib.loads`` (see the module).

    Depth counts the document as level 1, each table-name part and dotted-key part as
    one more level, each array of tables on the way one more, and each array or inline
    table one more. Every key part and every value counts as an item.

    The scan stops, leaving the verdict to ``tomllib``, where the text stops being TOML
    in a way the parser refuses on the spot (a string that never closes, two separators
    in a row, a closing bracket nothing opened, ...): the parser never reads past that
    point, and a text of nothing but separators costs one step per character at most
    once.

    Args:
        text: the TOML text. what: how messages name it, e.g. ``"mine.toml"``.

    Raises:
        LimitError: over a limit; the message names it, the line and what is allowed.
    """
    check_size(text, what)
    _no_nul(text, what)
    scan = _Scan(text, what)
    # state: "line" (at the start of a line, outside brackets: a key or a [table] may
    # start), "header" (in [table] or [[table]]), "closing" (after the first ] of a
    # [[table]]), "key" (reading a key), "value" (a value may start), "after" (after a
    # value or a table name). stack: the open arrays and inline tables as (bracket,
    # depth). table: the depth of the [table] top-level keys go in; slot: the depth of
    # the container the next value goes in.
    state, stack, table, slot, parts, chain = "line", [], 1, 1, 0, 0
    array_header, names, arrays = False, [], set()      # arrays: the [[table]] names seen
    for kind, pos, at in toml_tokens(text):
        if at == TOO_LONG:
            scan.fail("MAX_STRING", f"it has a text of more than {MAX_STRING:,} characters; texts may be "
                                    f"at most {MAX_STRING:,} characters", pos)
        if kind in ("cm", "nl"):
            chain = 0
            if (kind == "nl" or "\n" in text[pos:at]) and not stack and state not in ("header", "closing"):
                state, parts = "line", 0
            continue
        token = text[pos:at]
        if kind == "p" and token == ".":
            # a dotted chain (a.b.c, "a".b, 3.14) is measured whatever the state, so a
            # bomb of many parts is refused even where no key is expected
            if not chain:
                break                            # a dot after no key part or number: not TOML
            chain += 1
            if chain > MAX_KEY_PARTS:
                scan.fail("MAX_KEY_PARTS", f"it has a dotted key or table name of more than {MAX_KEY_PARTS} "
                                           f"parts; at most {MAX_KEY_PARTS} parts (a.b.c...) are allowed", pos)
            continue
        chain = (chain or 1) if kind != "p" else 0
        quotes = 3 if kind == "m" else 1 if kind == "s" else 0
        if kind != "p":                          # every key part and value is an item
            scan.item(pos)
        if state == "line" and token == "[":
            state, array_header, names = "header", False, []
        elif state == "header":
            if token == "[" and not names and not array_header:
                array_header = True
            elif token == "]" and names:
                # [a.b] is 3 deep (the document, a, b); each array of tables on the way
                # ([[a]] before [a.b], or [[a.b]] itself) is one level more
                path = tuple(names)
                if array_header:
                    arrays.add(path)
                table = 1 + len(path) + sum(path[:k] in arrays for k in range(1, len(path) + 1))
                scan.depth(table, pos)
                state = "closing" if array_header else "after"
            elif kind != "p":
                names.append(token[quotes:-quotes] if quotes else token)
                scan.key(token, quotes, pos)
            else:
                break                            # [[[, [], [a=: not a table name
        elif state == "closing":
            if token != "]":
                break                            # [[a] without its second ]
            state = "after"
        elif state in ("line", "key"):
            if token == "=" and state == "key":
                base = stack[-1][1] if stack else table
                slot = base + parts - 1
                scan.depth(slot, pos)
                state = "value"
            elif token == "}" and state == "line" and stack and stack[-1][0] == "{":
                stack.pop()                      # an empty inline table
                state = "after"
            elif kind != "p":
                state, parts = "key", parts + 1
                scan.key(token, quotes, pos)
            else:
                break                            # a separator where a key must be
        elif kind != "p":                        # a value (a word after one: a date's time)
            if kind == "w":
                scan.number(token, pos)
            else:
                scan.string(token, quotes, pos)
            state = "after"
        elif token in "[{" and state == "value":
            depth = slot + 1
            scan.depth(depth, pos)
            scan.item(pos)
            stack.append((token, depth))
            if token == "[":
                state, slot = "value", depth
            else:
                state, parts = "line", 0         # a key, or } at once
        elif token in "]}" and stack and stack[-1][0] == "[]{}"[("[]{}".index(token)) - 1] and (
                state == "after" or token == "]"):
            stack.pop()                          # (] may follow a trailing comma)
            state = "after"
        elif token == "," and state == "after" and stack:
            if stack[-1][0] == "{":
                state, parts = "line", 0         # the next key of the inline table
            else:
                state, slot = "value", stack[-1][1]
        else:
            break                                # [a b, = =, ,, ]] ...: not TOML


def toml_tokens(text: str) -> Iterator[tuple[str, int, int]]:
    """The tokens of a TOML text, left to right, as ``(kind, start, end)`` (``text[start:end]``
    is the token): the one TOML scanner of the kit, for :func:`check_toml` and for finding
    the line of a key in a file (:mod:`playtest.scenarios.lines`).

    Kinds: ``"s"`` a one-line string and ``"m"`` a multi-line one (quotes included),
    ``"nl"`` a line end with the blank lines after it, ``"cm"`` a comment with its line
    end, ``"w"`` a bare key, number, date or word (``true``, ``inf``), ``"p"`` one of
    ``[]{}=,.``; other characters (spaces, ``\r``, a stray ``@``) are skipped.

    It never raises and reads each character about once, in memory bounded by the text.
    A string longer than :data:`MAX_STRING` characters is the last token, with ``end ==``
    :data:`TOO_LONG`; a string that does not close (on its line, for a one-line string)
    ends the tokens, as ``tomllib`` stops there too.
    """
    at = 0
    while m := _TOML_TOKEN.search(text, at):
        kind, pos, at = m.lastgroup, m.start(), m.end()
        if kind in ("m", "s"):                   # a string: find where it closes
            at = _string_end(text, pos, m.group())
            if at == UNCLOSED:
                return
        yield kind, pos, at
        if at == TOO_LONG:
            return


_STRING = {   # a whole string from its opening quote(s); see _string_end
    '"': re.compile(r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"'),
    "'": re.compile(r"'[^'\n]*'"),
    '"""': re.compile(r'"""[^"\\]*(?:(?:\\[\s\S]|"(?!""))[^"\\]*)*"""(?:""?)?'),
    "'''": re.compile(r"'''[^']*(?:'(?!'')[^']*)*'''(?:''?)?"),
}
_WINDOW = MAX_STRING + 10     # a string is looked for within this many characters
TOO_LONG, UNCLOSED = -2, -1


def _string_end(text: str, start: int, opener: str) -> int:
    """Where the string opening at ``start`` with ``opener`` ends: the index after it;
    :data:`TOO_LONG` when it runs past :data:`MAX_STRING` characters; :data:`UNCLOSED`
    when it does not close (on its line, for a one-line string).

    ``opener`` is ``"`` (a JSON string or TOML basic string: backslash escapes), ``'``
    (a TOML literal string), or a TOML multi-line string's three quotes (up to two more
    quotes before the closing three are content). The match is looked for within
    ``_WINDOW`` characters only, so a string full of escapes costs bounded memory and
    time however long the text."""
    window = min(len(text), start + _WINDOW)
    m = _STRING[opener].match(text, start, window)
    if m:
        return m.end()
    if window == len(text) or (len(opener) == 1 and text.find("\n", start, window) >= 0):
        return UNCLOSED
    return TOO_LONG


def _json_int(text: str) -> int:
    """``json.loads``'s ``parse_int``: a second guard behind :func:`check_json`."""
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise LimitError("the JSON text", "MAX_DIGITS", f"it has a number of {len(text.lstrip('-')):,} digits; "
                                                        f"numbers may have at most {MAX_DIGITS} digits")
    return int(text)


def load_json(text: str | bytes, what: str) -> Any:
    """Check JSON text (bytes are :func:`decode`-d first; byte order marks at the start
    are dropped) against the limits, then parse it.

    Args:
        text: the JSON text or its UTF-8 bytes. what: how messages name it.

    Returns:
        The parsed value (dicts, lists, str, int, float, bool, None).

    Raises:
        LimitError: over a limit, or bytes that are not UTF-8 text.
        json.JSONDecodeError: not valid JSON (a ``ValueError``; its message has the
            line and column).
    """
    text = decode(text, what) if not isinstance(text, str) else text
    # byte order marks are not JSON, and json.loads names one in Python's own words
    check_json(text.lstrip("\ufeff"), what)
    return json.loads(text.lstrip("\ufeff"), parse_int=_json_int)


def load_toml(text: str | bytes, what: str) -> dict:
    """Check TOML text (bytes are :func:`decode`-d first; byte order marks at the start
    are dropped) against the limits, then parse it with ``tomllib``.

    Args:
        text: the TOML text or its UTF-8 bytes. what: how messages name it.

    Returns:
        The parsed document.

    Raises:
        LimitError: over a limit, or bytes that are not UTF-8 text.
        tomllib.TOMLDecodeError: not valid TOML (a ``ValueError``; its message has the
            line and column).
    """
    text = (decode(text, what) if not isinstance(text, str) else text).lstrip("\ufeff")
    check_toml(text, what)
    return tomllib.loads(text)


__all__ = ["MAX_BYTES", "MAX_DEPTH", "MAX_KEY_PARTS", "MAX_KEY_LENGTH", "MAX_ITEMS", "MAX_STRING", "MAX_DIGITS",
           "MAX_MOVE", "MAX_OPTION", "MAX_NAME", "SIZE_TEXT", "LimitError", "human_size", "too_large",
           "check_size", "decode", "read_text", "is_number", "check_line", "check_json", "check_toml", "toml_tokens",
           "load_json", "load_toml"]

