"""Find the line of a key, a move or an expectation in a scenario's TOML text, so that an
error about the file's *meaning* (not only its syntax) can say where to look.

``tomllib`` keeps no positions, so this reads the text itself with the kit's one TOML
scanner (:func:`playtest.engine.limits.toml_tokens`, the one the input limits use), just
far enough: table headers, ``key =`` at the start of a line, and the string items of an
array. It never raises; a path it cannot place gives ``None`` (the error then names the
key without a line). Lines end at ``\\n``, as TOML's (and ``tomllib``'s) do.
"""
from __future__ import annotations

import re
from bisect import bisect_left

from playtest.engine.limits import TOO_LONG, toml_tokens


class TomlLines:
    """Where the tables, keys and array items of a TOML text are, by 0-based line.

    Args:
        text: the TOML text (read as far as it scans: a string that does not close
            ends it).

    Attributes:
        count: the number of lines.
        sections: ``(header name, first line, end line)`` for the top level (``""``,
            from line 0) and every ``[table]`` or ``[[array of tables]]`` header, in
            order; a name is its dotted parts without quotes or spaces
            (``"expect.view"``); a section ends where the next one starts.
    """

    def __init__(self, text: str):
        newlines = [m.start() for m in re.finditer("\n", text)]
        self.count = len(newlines) + (not text.endswith("\n"))
        self._keys: list[tuple[int, str]] = []          # (line, key) of each `key =` starting a line
        self._items: dict[int, list[int]] = {}          # a key's line -> lines of the strings in its array
        marks = [("", 0)]
        line_start, header, closing, depth = True, None, False, 0
        key = value_of = array = None      # `key` first on its line; the key whose value follows; its array
        for kind, pos, end in toml_tokens(text):
            if end == TOO_LONG:
                break
            token, line = text[pos:end], bisect_left(newlines, pos)
            if kind in ("nl", "cm"):
                if "\n" in token and not depth and header is None:
                    line_start = True
                continue
            if header is not None:                      # in [a.b] or [[a.b]]
                if token == "[" and not header:
                    closing = True                      # [[a.b]]: a second ] follows
                elif token == "]" and header:
                    marks.append((".".join(header), line))
                    header = None
                elif kind != "p":
                    header.append(token.strip("\"'"))
            elif closing:
                closing = False
            elif line_start:
                if token == "[":
                    header = []
                elif kind != "p":
                    key = (line, token.strip("\"'"))
                line_start = False
                continue
            elif kind == "p" and token == "=":
                value_of = key[0] if key else None      # `a.b =` (a dotted key) is not looked for
                if key:
                    self._keys.append(key)
            elif kind == "p" and token in "[{":
                if token == "[" and not depth and value_of is not None:
                    self._items[value_of] = array = []
                depth += 1
            elif kind == "p" and token in "]}":
                depth -= 1
                array = array if depth > 0 else None
            elif kind in ("s", "m") and array is not None:
                array.append(line)
            if token != "=":
                value_of = None
            key = None
        self.sections = [(name, start, marks[k + 1][1] if k + 1 < len(marks) else self.count)
                         for k, (name, start) in enumerate(marks)]

    def find_key(self, start: int, end: int, key) -> int | None:
        """The first line in ``start..end-1`` (0-based) that starts with ``key =`` (the
        key bare or quoted), or None."""
        return next((line for line, name in self._keys if start <= line < end and name == str(key)), None)

    def string_items(self, line: int) -> list[int]:
        """The line of each string item of the array that is the value of the key on
        ``line`` (nested items included), in order; ``[]`` if that value is no array."""
        return self._items.get(line, [])


def line_of(text: str, path: tuple) -> int | None:
    """The 1-based line that ``path`` points at, or None.

    Args:
        text: the scenario's TOML text.
        path: a location as pydantic reports it, e.g. ``("seats",)``,
            ``("options", "rounds")``, ``("setup", "lists")``, ``("moves", 3)`` (0-based
            item) or ``("expect", 1, "view", "done.top.name")`` (0-based entry).
    """
    toml = TomlLines(text)
    sections = toml.sections
    top_end = sections[1][1] if len(sections) > 1 else toml.count
    if not path:
        return None
    head, rest = path[0], path[1:]
    if head == "moves":
        at = toml.find_key(0, top_end, "moves")
        if at is None:
            return None
        if rest and isinstance(rest[0], int):
            items = toml.string_items(at)
            if rest[0] < len(items):
                return items[rest[0]] + 1
        return at + 1
    if head == "expect":
        entries = [(start, end) for name, start, end in sections if name == "expect"]
        if not rest or not isinstance(rest[0], int) or rest[0] >= len(entries):
            return entries[0][0] + 1 if entries else None
        start, end = entries[rest[0]]
        # a sub-table of this entry ([expect.view]) follows it directly
        following = [(s, e) for name, s, e in sections if name.startswith("expect.") and s >= end]
        if len(rest) > 1:
            for s, e in [(start, end), *following[:1]]:
                for key in reversed(rest[1:]):
                    if isinstance(key, str) and (hit := toml.find_key(s, e, key)) is not None:
                        return hit + 1
        return start + 1
    if rest:  # [options] / [setup] table, or an inline table on the top level
        for name, start, end in sections:
            if name == head and (hit := toml.find_key(start, end, rest[0])) is not None:
                return hit + 1
    at = toml.find_key(0, top_end, head)
    if at is not None:
        return at + 1
    for name, start, _ in sections:
        if name == head:
            return start + 1
    return None
