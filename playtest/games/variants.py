"""Card variants: a game's ``cards.toml``, edited and saved under a name, played by
setting the game option ``card_variant`` to that name.

One mechanism for every game: each game's options have a ``card_variant`` field
(:func:`card_variant_field`), and the game reads its card file through
:func:`card_file`. So a variant is played the way any option is set::

    Match("lazy_sunday", 3, options={"card_variant": "cheap_naps"})
    simulate("lazy_sunday", 3, "heuristic", games=500, options={"card_variant": "cheap_naps"})
    ab_test("lazy_sunday", 3, "heuristic", 500, None, {"card_variant": "cheap_naps"})   # A: the default deck

and in the New game panel and the balance lab's option inputs (``card_variant``). A variant is
the file ``NAME.toml`` in the variants folder of its game: ``$PLAYTEST_VARIANTS_DIR/<game>/``,
by default ``<data dir>/variants/<game>/`` (the data dir is ``$PLAYTEST_DATA_DIR``, else
``~/.local/share/playtest``). The card editor dashboard writes them
(:func:`save_variant`); a file copied there by hand works the same. The game's own
``cards.toml`` is never written. A name is letters, digits, ``-`` and ``_`` (at most
40): the option never names a path, so a page cannot make the server read a file
outside the variants folder.

A record or scenario that uses a variant names it, not its content: it replays the same
game where the same variant file is.
"""
from __future__ import annotations

import contextlib
import contextvars
import inspect
import os
import re
import reprlib
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

from pydantic import Field

from playtest.engine import OptionError, PlaytestError
from playtest.engine.match import write_atomically

NAME = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
"""What a variant's name may be: letters, digits, ``-`` and ``_``, 1 to 40 of them."""

TRIAL_NAME = "(being checked)"
"""The ``card_variant`` value of a game set up by :func:`check_variant` (never a variant name)."""


class VariantError(PlaytestError, ValueError):
    """Card data that does not pass the game's checks; the message is the game's own."""


_TRIAL: contextvars.ContextVar[tuple[str, Path] | None] = contextvars.ContextVar("playtest_trial_cards", default=None)


def card_variant_field(ruling: str) -> Any:
    """The ``card_variant`` option of a game's Options model: None (the game's own
    ``cards.toml``) or a variant's name (see the module docstring).

    Args:
        ruling: the RULINGS id of the game's card data (e.g. ``"LS-1"``), which the
            option's description starts with, as every option's does.
    """
    return Field(None, description=f"{ruling}: the cards: none = the game's own cards.toml, or the name of a "
                                   "card variant saved by the card editor")


def default_cards(game_class) -> Path:
    """A game's own card file: ``cards.toml`` beside its rules module (the kit's
    convention; it may not exist for a game without card data)."""
    return Path(inspect.getfile(game_class)).with_name("cards.toml")


def variants_dir(game: str) -> Path:
    """The folder of ``game``'s variants (``game``: a registry name; see the module
    docstring). It may not exist yet."""
    base = os.environ.get("PLAYTEST_VARIANTS_DIR")
    if not base:
        data = os.environ.get("PLAYTEST_DATA_DIR") or Path.home() / ".local" / "share" / "playtest"
        base = Path(data) / "variants"
    return Path(base) / game


def variants(game: str) -> dict[str, Path]:
    """``game``'s saved variants: name -> file, sorted by name."""
    folder = variants_dir(game)
    found = sorted(folder.glob("*.toml")) if folder.is_dir() else []
    return {path.stem: path for path in found if NAME.match(path.stem)}


def card_file(game: str, name: str | None, default: Path) -> Path:
    """The card file a game with option ``card_variant=name`` plays with.

    Args:
        game: the game's registry name. name: the option's value (None: ``default``).
        default: the game's own ``cards.toml``.

    Raises:
        OptionError: ``name`` is not a variant name, or no such variant is saved (the
            message lists the saved ones and the folder).
    """
    if name is None:
        return default
    trial = _TRIAL.get()
    if trial is not None and trial[0] == name:
        return trial[1]
    if not isinstance(name, str) or not NAME.match(name):
        raise OptionError(f"option card_variant={reprlib.repr(name)}: a card variant is named by 1 to 40 letters, "
                          "digits, '-' or '_'")
    path = variants_dir(game) / f"{name}.toml"
    if not path.is_file():
        saved = ", ".join(variants(game)) or "none yet"      # (the server's folder is not named to a page)
        raise OptionError(f"option card_variant={name!r}: there is no card variant of {game} by that name "
                          f"(saved variants: {saved}); the card editor saves them")
    return path


def load(loader: Callable[[Path], Any], path: Path) -> Any:
    """``loader(path)``, cached while the file is unchanged (every new game of a
    simulation reads its cards: the file is parsed once). ``loader`` is a game's own
    card loader; its errors propagate."""
    return _load(loader, str(path), path.stat().st_mtime_ns)


@lru_cache(maxsize=64)
def _load(loader, path: str, _mtime_ns: int):
    return loader(Path(path))


def check_variant(game_class, text: str) -> None:
    """Check card data as the kit checks it before a game is played with it: the game's
    own loader reads it (every entry, as for ``cards.toml``), and a game is set up and
    dealt with it at every seat count (the game's own deal-size checks: enough cards for
    the hands, lists or tableaus). Nothing is saved.

    Args:
        game_class: the Game class (it reads option ``card_variant``). text: the TOML text.

    Raises:
        VariantError: the game's own message (the entry, the field, the deal), with the
            seat count when only a larger table fails.
    """
    from playtest.engine import Match

    with tempfile.TemporaryDirectory(prefix="playtest-cards-") as folder:
        path = Path(folder) / "variant.toml"
        path.write_text(text, encoding="utf-8")
        with trial_cards(TRIAL_NAME, path):
            for seats in range(game_class.min_seats, game_class.max_seats + 1):
                try:
                    Match(game_class, seats, {"card_variant": TRIAL_NAME}, seed=0, keep_log=False)
                except Exception as exc:  # noqa: BLE001 - any failure to deal is the data's fault
                    message = str(exc).replace(str(path), "the cards") or type(exc).__name__
                    raise VariantError(f"with {seats} seats: {message}" if seats > game_class.min_seats
                                       else message) from None


@contextlib.contextmanager
def trial_cards(name: str, path: Path):
    """Within the block (this thread or task only), option ``card_variant=name`` reads
    ``path``: how :func:`check_variant` sets up a game with unsaved card data."""
    token = _TRIAL.set((name, path))
    try:
        yield
    finally:
        _TRIAL.reset(token)


def save_variant(game_class, name: str, text: str) -> Path:
    """Check card data (:func:`check_variant`) and save it as variant ``name`` of the
    game, replacing a variant of that name (atomically; the game's own ``cards.toml``
    is never written).

    Returns:
        The file written.

    Raises:
        OptionError: a bad name. VariantError: the data does not pass the game's
            checks (nothing is written). OSError: the folder cannot be written.
    """
    if not isinstance(name, str) or not NAME.match(name):
        raise OptionError(f"a variant's name is 1 to 40 letters, digits, '-' or '_', not {name!r}")
    check_variant(game_class, text)
    folder = variants_dir(game_class.name)
    folder.mkdir(parents=True, exist_ok=True)
    return write_atomically(folder / f"{name}.toml", text)
