"""Find the line of a key, a move or an expectation in a scenario's TOML text, so that an
error about the file's *meaning* (not only its syntax) can say where to look.

``tomllib`` keeps no positions, so this reads the text itself, just far enough: table
headers, ``key =`` lines, and the string items of the ``moves`` array. It never raises;
a path it cannot place gives ``None`` (the error then names the key without a line).
"""
from __future__ import annotations

import re


_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")


def _key_pattern(key: str) -> re.Pattern:
    name = re.escape(str(key))
    return re.compile(rf"""^\s*(?:{name}|"{name}"|'{name}')\s*=""")


def _sections(lines: list[str]) -> list[tuple[str, int, int]]:
    """``(header name, first line index, end index)`` for the top level ("") and every
    table or array-of-tables header, in order."""
    marks = [("", 0)]
    for i, line in enumerate(lines):
        m = _HEADER.match(line)
        if m and not line.lstrip().startswith(("#", '"', "'")):
            marks.append((m.group(1).replace(" ", ""), i))
    return [(name, start, marks[k + 1][1] if k + 1 < len(marks) else len(lines))
            for k, (name, start) in enumerate(marks)]


def _find_key(lines, start, end, key) -> int | None:
    pattern = _key_pattern(key)
    for i in range(start, end):
        if pattern.match(lines[i]):
            return i
    return None


def _string_lines(lines: list[str], start: int) -> list[int]:
    """Line index of each string item of the array that opens on line ``start``."""
    found, depth, i = [], 0, start
    text = lines[start]
    col = text.index("=") + 1 if "=" in text else 0
    while i < len(lines):
        text = lines[i]
        while col < len(text):
            ch = text[col]
            if ch == "#":
                break
            if ch == "[":
                depth += 1
            elif ch == "]":
                depth -= 1
                if depth == 0:
                    return found
            elif ch in "\"'":
                found.append(i)
                close = col + 1
                while close < len(text) and text[close] != ch:
                    close += 2 if ch == '"' and text[close] == "\\" else 1
                col = close
            col += 1
        i, col = i + 1, 0
    return found


def line_of(text: str, path: tuple) -> int | None:
    """The 1-based line that ``path`` points at, or None.

    Args:
        text: the scenario's TOML text.
        path: a location as pydantic reports it, e.g. ``("seats",)``,
            ``("options", "rounds")``, ``("setup", "lists")``, ``("moves", 3)`` (0-based
            item) or ``("expect", 1, "view", "done.top.name")`` (0-based entry).
    """
    lines = text.splitlines()
    sections = _sections(lines)
    top_end = sections[1][1] if len(sections) > 1 else len(lines)
    if not path:
        return None
    head, rest = path[0], path[1:]
    if head == "moves":
        at = _find_key(lines, 0, top_end, "moves")
        if at is None:
            return None
        if rest and isinstance(rest[0], int):
            items = _string_lines(lines, at)
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
                    if isinstance(key, str) and (hit := _find_key(lines, s, e, key)) is not None:
                        return hit + 1
        return start + 1
    if rest:  # [options] / [setup] table, or an inline table on the top level
        for name, start, end in sections:
            if name == head and (hit := _find_key(lines, start, end, rest[0])) is not None:
                return hit + 1
    at = _find_key(lines, 0, top_end, head)
    if at is not None:
        return at + 1
    for name, start, _ in sections:
        if name == head:
            return start + 1
    return None
