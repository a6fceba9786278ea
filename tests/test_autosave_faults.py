"""Saving on the server when it cannot be done: a full disk, a read-only folder, a
missing folder. The game plays on in memory, one plain message says so once (no error
number, no server folder), saving resumes as soon as it can, and no temporary file is
left behind."""
from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

import pytest
import toy_game  # noqa: F401  (registers the "toy" game)
from test_widgets import step, toy_app
from widget_support import fresh_widgets  # noqa: F401  (autouse)

from playtest import Match
from playtest.engine.match import write_atomically
from playtest.widgets import autosave

MESSAGE = ("This game could not be saved on the server ({}); it goes on in memory and is saved again after "
           "the next move.")


def full_disk(monkeypatch) -> None:
    """Every new file of write_atomically writes to /dev/full: the write fails with
    ENOSPC at its flush, as on a full disk, after the temporary file was made."""
    real = tempfile.mkstemp

    def mkstemp(*args, **kwargs):
        handle, name = real(*args, **kwargs)
        os.close(handle)
        return os.open("/dev/full", os.O_WRONLY), name

    monkeypatch.setattr(tempfile, "mkstemp", mkstemp)


def read_only(monkeypatch) -> None:
    """The rename into place fails with EROFS (a folder mounted read-only)."""
    def replace(src, dst):
        raise OSError(errno.EROFS, "Read-only file system", str(dst))

    monkeypatch.setattr(os, "replace", replace)


def leftovers() -> list[str]:
    """Files in the autosave folder that are not finished saves (temporary files)."""
    root = Path(os.environ["PLAYTEST_AUTOSAVE_DIR"])
    return [p.name for p in root.rglob("*") if p.is_file() and p.suffix != ".json"]


def shown(app) -> str:
    return app.save_note.value if app.save_note.layout.display != "none" else ""


@pytest.mark.parametrize("fault, reason", [(full_disk, "the disk is full"),
                                           (read_only, "the save folder is read-only")])
def test_a_failing_save_is_said_once_plainly_and_the_game_plays_on(monkeypatch, fault, reason):
    app = toy_app({1: "random", 2: "random"}, seed=4)
    step(app)
    path = app.autosave_path
    assert path.exists() and shown(app) == ""
    saved_before = path.read_text()
    fault(monkeypatch)
    notes = []
    app.save_note.observe(lambda change: notes.append(change["new"]), "value")
    moves = []
    for _ in range(4):
        step(app)
        moves.append(len(app.match.moves))
    assert moves == sorted(set(moves)) and app.match.outcome() is None   # every move was played
    assert shown(app) == MESSAGE.format(reason)
    assert notes == [MESSAGE.format(reason)]                         # said once, not on every move
    assert app.banner.message == ""
    text = shown(app)
    assert "Errno" not in text and os.environ["PLAYTEST_AUTOSAVE_DIR"] not in text and str(path) not in text
    assert leftovers() == [] and path.read_text() == saved_before   # the last good save is kept whole
    monkeypatch.undo()
    monkeypatch.setenv("PLAYTEST_AUTOSAVE_DIR", str(path.parent.parent))
    step(app)                                                        # saving resumes
    assert autosave.read(path, "toy").match.moves == app.match.moves
    assert shown(app) == "" and app.save_problem is None and leftovers() == []


def test_a_missing_folder_that_comes_back(monkeypatch, tmp_path):
    blocker = tmp_path / "saves"
    blocker.write_text("a file where the save folder should be")
    monkeypatch.setenv("PLAYTEST_AUTOSAVE_DIR", str(blocker / "inner"))
    app = toy_app({1: "random", 2: "random"}, seed=4)
    step(app)
    assert shown(app) == MESSAGE.format("the save folder is missing") and app.banner.message == ""
    assert len(app.match.moves) > 0 and str(tmp_path) not in shown(app)
    blocker.unlink()
    step(app)
    assert app.match.outcome() is None and app.autosave_path.exists() and shown(app) == ""


def test_write_atomically_removes_its_temporary_file_when_the_write_fails(tmp_path, monkeypatch):
    target = tmp_path / "game.json"
    write_atomically(target, "old")
    full_disk(monkeypatch)
    with pytest.raises(OSError) as info:
        write_atomically(target, "new" * 10_000)
    assert info.value.errno == errno.ENOSPC
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"] and target.read_text() == "old"
    monkeypatch.undo()
    read_only(monkeypatch)
    with pytest.raises(OSError):
        write_atomically(target, "new")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"] and target.read_text() == "old"


def test_autosave_write_raises_a_plain_error(tmp_path, monkeypatch):
    full_disk(monkeypatch)
    match = Match("toy", 3, seed=1)
    with pytest.raises(autosave.AutosaveError) as info:
        autosave.write(tmp_path / "x" / "save.json", match, {}, False)
    assert str(info.value) == MESSAGE.format("the disk is full") and info.value.reason == "the disk is full"
    assert [p.name for p in (tmp_path / "x").iterdir()] == []


def test_an_unreadable_save_on_offer_never_shows_the_folder(monkeypatch):
    app = toy_app({1: "random", 2: "random"}, seed=4)
    step(app)
    path = app.autosave_path

    def unreadable(*_args, **_kwargs):
        raise PermissionError(errno.EACCES, "Permission denied", str(path))

    monkeypatch.setattr(autosave.limits, "read_text", unreadable)
    again = toy_app({1: "random", 2: "random"}, seed=5)
    note = again.resume_note.value
    assert "could not be read" in note and "(permission to use the save folder is denied)" in note
    assert str(path.parent) not in note and "Errno" not in note and again.banner.message == ""
