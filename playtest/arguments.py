"""Reading what a person types: the argparse types of the ``playtest`` command's options
and the readers of option values (``--option KEY=VALUE``, a sweep's values, an interval's
width) that the command line and the balance lab's dashboard share.

Every reader refuses bad text with one sentence naming the text and what is allowed
(``argparse.ArgumentTypeError`` for the argparse types, :class:`~playtest.engine.OptionError`
for option values), within the kit's input limits (:mod:`playtest.engine.limits`).
"""
from __future__ import annotations

import argparse
import json
import os
import re
from typing import Any, Callable

from playtest.engine import OptionError, limits

CROWD_MAX = 32        # pages kept ready per dashboard at most (playtest serve --crowd)


def whole_number(low: int, high: int | None = None, what: str = "") -> Callable[[str], int]:
    """The argparse type of every integer option of the ``playtest`` command: a whole
    number ``low`` to ``high`` (no upper bound when None) written in ASCII digits, at most
    :data:`~playtest.engine.limits.MAX_DIGITS` of them (``int()`` would also read ``'٣'``
    as 3 and refuse ``'²'`` with a traceback).

    Args:
        low, high: the range allowed. what: what the number counts, added to the
            message, e.g. ``" (a TCP port)"``.

    Returns:
        ``read(text) -> int``, raising ``argparse.ArgumentTypeError`` with one sentence
        naming the text and what is allowed, e.g. "'٣' is not a whole number 0 or more:
        use the digits 0-9 (at most 40 of them)".
    """
    allowed = f"{low} or more" if high is None else f"{low} to {high}"

    def read(text: str) -> int:
        typed = text.strip()
        if not limits.is_number(typed):
            raise argparse.ArgumentTypeError(f"{text[:40]!r}{'...' if len(text) > 40 else ''} is not a whole number "
                                             f"{allowed}{what}: use the digits 0-9 (at most {limits.MAX_DIGITS} of them)")
        if int(typed) < low or (high is not None and int(typed) > high):
            raise argparse.ArgumentTypeError(f"{typed} is not allowed: use a whole number {allowed}{what}")
        return int(typed)
    read.__name__ = "whole number"   # argparse names the type by it in a few messages
    return read


port_number = whole_number(1, 65535, " (a TCP port)")
"""argparse type: a TCP port 1..65535."""


def base_url_path(text: str) -> str:
    """argparse type: a URL path such as ``/user/ab/playtest/`` (slashes added at both
    ends; letters, digits and ``-._~/%`` only, as Jupyter's base URLs are, and no ``.``
    or ``..`` part)."""
    path = "/" + text.strip("/") + "/" if text.strip("/") else "/"
    if (not re.fullmatch(r"[A-Za-z0-9/._~%-]{1,200}", path) or "//" in path
            or {".", ".."} & set(path.split("/"))):
        raise argparse.ArgumentTypeError(f"{text[:80]!r} is not a URL path like /user/ab/playtest/")
    return path


def origin(text: str) -> str:
    """argparse type: an origin such as ``https://games.example.org`` or
    ``http://192.168.1.5:8866`` (scheme, host and port, no path), or ``*``."""
    typed = text.strip().rstrip("/")
    if typed != "*" and not re.fullmatch(r"https?://[A-Za-z0-9.\-\[\]:]{1,253}", typed):
        raise argparse.ArgumentTypeError(f"{text[:80]!r} is not an origin like https://games.example.org or "
                                         "http://192.168.1.5:8866 (scheme and host, no path), or *")
    return typed


def memory_size(text: str) -> int:
    """argparse type: a memory size such as ``2G`` or ``1536M`` -> bytes
    (:func:`playtest.server.memory.parse_size`)."""
    from playtest.server.memory import parse_size
    try:
        return parse_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


crowd_size = whole_number(0, CROWD_MAX, " (pages at once; each ready page holds a kernel of about 60 MB)")
"""argparse type: pages expected at once, 0..CROWD_MAX."""


one_or_more = whole_number(1)
"""argparse type: a whole number 1 or more (games, seats)."""
zero_or_more = whole_number(0)
"""argparse type: a whole number 0 or more (a seed, games of a check)."""


def worker_count(text: str) -> int:
    """argparse type: local worker processes, 1 to this machine's CPUs."""
    cores = os.cpu_count() or 1
    return whole_number(1, cores, f" (the CPUs of this machine; more processes than CPUs only wait for each "
                                  f"other)")(text)


def check_value(text: str, name: str, max_chars: int = limits.MAX_OPTION) -> None:
    """Refuse an option's value as typed over the kit's input limits (as the new-game
    panel's option boxes do, :func:`playtest.widgets.newgame.read_option`): at most
    ``max_chars`` characters, every number at most
    :data:`~playtest.engine.limits.MAX_DIGITS` digits, nesting at most
    :data:`~playtest.engine.limits.MAX_DEPTH` deep.

    Args:
        text: the value's text (or a sweep's values). name: the option's name.
        max_chars: :data:`~playtest.engine.limits.MAX_OPTION` for one value.

    Raises:
        OptionError: one sentence naming the limit, e.g. "the option rounds: it has a
            number of 23 digits; numbers may have at most 40 digits".
    """
    try:
        limits.check_json(text, f"the option {name}")      # a number's digits first: the more telling
        limits.check_line(text, f"the option {name}", max_chars)
    except limits.LimitError as exc:
        raise OptionError(str(exc)) from None


def read_value(text: str, name: str) -> Any:
    """One option value as typed (``--option name=TEXT``, one value of a sweep, from the
    command line or the lab dashboard): read as JSON where it parses (``2``, ``true``,
    ``null``, ``{"Done": 20}``), else kept as text; within the kit's limits
    (:mod:`playtest.engine.limits`: at most ``MAX_OPTION`` characters, every number at
    most ``MAX_DIGITS`` digits), checked before anything is played.

    Args:
        text: the value's text. name: the option's name, for the message.

    Raises:
        OptionError: over a limit, one sentence naming it (see :func:`check_value`).
    """
    check_value(text, name)
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def parse_values(text: str, name: str = "to sweep") -> list:
    """``"10,15,20"`` -> ``[10, 15, 20]``: a sweep's values, read as a JSON list where the
    whole parses (so ``{"Done": 38},{"Done": 30}`` keeps its commas), else split on commas
    and each read by :func:`read_value`; every value within the kit's limits.

    Args:
        text: the values, separated by commas. name: the swept option, for messages.

    Raises:
        OptionError: no value, or one over a limit (see :func:`read_value`).
    """
    check_value(text, name, limits.MAX_STRING)      # every number in them, and their length
    try:
        values = json.loads(f"[{text}]")
        for value in values:      # each value as its own text, within the limit of one value
            check_value(value if isinstance(value, str) else json.dumps(value, ensure_ascii=False), name)
    except json.JSONDecodeError:
        values = [read_value(piece, name) for piece in text.split(",")]
        values = [value.strip() if isinstance(value, str) else value for value in values]
    if not values or values == [""]:
        raise OptionError(f"{name}: give one value or more, separated by commas (e.g. 1, 2, 3), not {text!r}")
    return values


def parse_options(pairs: list[str]) -> dict:
    """``["rounds=2", "great_escape=true", "first_player=random"]`` -> option dict; each
    value read by :func:`read_value` (JSON where it parses: 2, true, null, {"Done": 20};
    else text; within the kit's limits).

    Raises:
        OptionError: a pair without ``=`` or with an empty key, or a value over a limit.
    """
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise OptionError(f"--option takes KEY=VALUE (e.g. rounds=2), not {pair!r}")
        options[key.strip()] = read_value(value, key.strip())
    return options


def read_width(text: str, label: str = "the width") -> float:
    """The width of an interval to reach (a run until decided), as typed: a decimal number
    above 0 in ASCII digits with at most one point (``0.05``, ``3``, ``.5``), at most
    :data:`~playtest.engine.limits.MAX_DIGITS` digits; no exponent, sign, ``inf`` or ``nan``.

    Raises:
        OptionError: anything else, one sentence saying what was typed and what is
            allowed.
    """
    typed = text.strip()
    digits = sum(ch.isdigit() for ch in typed)
    if not (_DECIMAL.fullmatch(typed) and digits <= limits.MAX_DIGITS):
        shown = repr(typed[:40] + ("..." if len(typed) > 40 else "")) if typed else "nothing"
        raise OptionError(f"{label}: {shown} is not a decimal number: use a number above 0 such as 0.05, in the "
                          f"digits 0-9 with at most one point (at most {limits.MAX_DIGITS} digits)")
    width = float(typed)
    if not width > 0:
        raise OptionError(f"{label} must be above 0 (the interval's width to reach), not {typed}")
    return width


_DECIMAL = re.compile(r"[0-9]+(?:\.[0-9]*)?|\.[0-9]+")
