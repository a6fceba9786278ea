"""The table store in a bad state: damaged (three ways), read-only, a full disk at start and
mid-game, a stored move that cannot be replayed, an emptied or replaced store, and the
backup copied and restored. Live tables then say one sentence; nothing stored is dropped
or overwritten."""
from __future__ import annotations

import asyncio
import functools
import json
import shutil
import sqlite3
import subprocess
import sys

import pytest
import tornado.httputil

from browser_support import run_coroutine
from playtest import cli
from playtest.tables import store as store_module
from playtest.tables.live import StoreRefused
from playtest.tables.service import ServiceError, TableService
from playtest.tables.store import DB_NAME, SEEN_NAME

from test_tables import FakePage
from test_tables_web import call, start, server  # noqa: F401 - the web fixture

SPEC = {"game": "lazy_sunday", "seats": 2, "players": ["human", "human"], "seed": 4}


def made_table(folder, moves: int = 2) -> tuple[TableService, dict]:
    """A service on ``folder`` with one Lazy Sunday table of two people, ``moves`` moves in."""
    service = TableService(folder)
    made = service.create(SPEC)
    table = service.table(made["id"])
    for _ in range(moves):
        seat = table.match.to_act()[0]
        assert table.submit(seat, str(table.match.decision_moves(seat)[0])).ok
    return service, made


def damaged_garbage(path):
    path.write_bytes(b"\x13\x37 not a database, some bytes " * 200)


def damaged_truncated(path):
    service, _made = made_table(path.parent, moves=0)
    for n in range(40):                         # enough pages that half the file is missing
        service.create({**SPEC, "seed": n})
    service.store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    service.close()
    data = path.read_bytes()
    path.write_bytes(data[:len(data) // 2])
    (path.parent / SEEN_NAME).unlink()


def damaged_foreign(path):
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE photos (name TEXT, taken REAL)")
    db.execute("INSERT INTO photos VALUES ('beach', 1.0)")
    db.commit()
    db.close()


def damaged_old_columns(path):
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE tables (id TEXT PRIMARY KEY, name TEXT)")
    db.commit()
    db.close()


@pytest.mark.parametrize("damage, words", [
    (damaged_garbage, "is not an SQLite database (damaged, or another file put in its place)"),
    (damaged_truncated, "is damaged (SQLite says: database disk image is malformed"),
    (damaged_foreign, "is an SQLite database of another program (its tables: photos), not playtest's"),
    (damaged_old_columns, "its 'tables' table has no column created"),
])
def test_a_damaged_store_turns_live_tables_off_with_one_sentence_and_is_left_as_it_is(tmp_path, damage, words):
    path = tmp_path / DB_NAME
    damage(path)
    before = path.read_bytes()
    service = TableService(tmp_path)
    problem = service.status()["problem"]
    assert problem.startswith(f"Live tables are off: the table store {path} ") and words in problem, problem
    assert "move the file aside (keep it, do not delete it)" in problem and "playtest tables backup" in problem
    assert problem.count(". ") == 0 and problem.endswith(".")            # one sentence
    assert service.status()["available"] is False and service.listing("all") == []
    for refused in (lambda: service.create(SPEC), lambda: service.table("ab12cd34"), service.export):
        with pytest.raises(ServiceError) as error:
            refused()
        assert error.value.status == 503 and str(error.value) == problem
    service.close()
    assert path.read_bytes() == before                                   # never changed, never deleted


def test_a_read_only_data_folder_turns_live_tables_off_and_says_so(tmp_path):
    # a read-only bind mount in a mount namespace of its own (root in a container: chmod
    # would not stop root's writes); the folder holds a store with a table
    service, _made = made_table(tmp_path / "data")
    service.close()
    before = (tmp_path / "data" / DB_NAME).read_bytes()
    script = "import sys\nfrom playtest.tables.service import TableService\nprint(TableService(sys.argv[1]).status()['problem'])"
    if shutil.which("unshare") is None or subprocess.run(["unshare", "-m", "true"], capture_output=True).returncode:
        pytest.skip("no mount namespace here (unshare -m) to make a read-only folder in")
    done = subprocess.run(["unshare", "-m", "sh", "-c", 'mount --bind -o ro "$1" "$1" && exec "$2" -c "$3" "$1"', "sh",
                           str(tmp_path / "data"), sys.executable, script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == (f"Live tables are off: the data folder {tmp_path / 'data'} is read-only here, so "
                                   "live tables cannot be saved: make it writable, or set PLAYTEST_DATA_DIR to a "
                                   "folder you may write, then restart the server."), done.stdout
    assert (tmp_path / "data" / DB_NAME).read_bytes() == before


def test_a_folder_that_cannot_be_written_says_read_only_even_without_a_mount(tmp_path, monkeypatch):
    def refused(path):
        raise PermissionError(13, "Permission denied", str(path))
    monkeypatch.setattr(store_module.TableStore, "_hold", staticmethod(refused))     # a user's folder, not root's
    problem = TableService(tmp_path).status()["problem"]
    assert f"the data folder {tmp_path} is read-only here" in problem, problem


class FullDisk(sqlite3.Connection):
    """A connection whose writes fail as SQLite's do on a full disk while ``full``."""

    full = False
    READS = ("SELECT", "PRAGMA quick_check", "PRAGMA table_info", "PRAGMA foreign_keys", "PRAGMA synchronous",
             "BEGIN")

    def execute(self, sql, *args):
        if FullDisk.full and not sql.lstrip().startswith(self.READS):
            raise sqlite3.OperationalError("database or disk is full")
        return super().execute(sql, *args)

    def executemany(self, sql, *args):
        if FullDisk.full:
            raise sqlite3.OperationalError("database or disk is full")
        return super().executemany(sql, *args)

    def executescript(self, sql):
        if FullDisk.full:
            raise sqlite3.OperationalError("database or disk is full")
        return super().executescript(sql)


@pytest.fixture
def full_disk(monkeypatch):
    monkeypatch.setattr(store_module.sqlite3, "connect", functools.partial(sqlite3.connect, factory=FullDisk))
    monkeypatch.setattr(FullDisk, "full", False)        # the test fills the disk
    return FullDisk


def test_a_full_disk_at_start_turns_live_tables_off_with_one_sentence(tmp_path, full_disk):
    full_disk.full = True
    service = TableService(tmp_path / "data")
    assert service.status()["problem"] == (
        f"Live tables are off: the disk holding the data folder {tmp_path / 'data'} is full, so live tables cannot "
        "be saved: free some space, then restart the server.")
    with pytest.raises(ServiceError) as error:
        service.create(SPEC)
    assert error.value.status == 503


def test_a_full_disk_mid_game_refuses_the_move_keeps_the_game_and_takes_it_again_later(tmp_path, full_disk):
    service, made = made_table(tmp_path, moves=0)
    table = service.table(made["id"])
    mover, other = FakePage(0), FakePage(1)
    table.attach(mover)
    table.attach(other)
    move = str(table.match.decision_moves(0)[0])
    before = table.match.to_json()

    full_disk.full = True
    result = table.submit(0, move, client_id="m1")
    assert not result.ok and result.unsaved
    assert result.error == ("the server cannot save moves now (its disk is full): your move was not played; make it "
                            "again once the server can save")
    assert result.message("m1")["unsaved"] is True
    assert table.match.to_json() == before and len(table.match.moves) == 0        # nothing half-applied
    waiting = "The server cannot save moves now (its disk is full): the table waits until it can."
    assert other.state["store"] == waiting and mover.state["store"] == waiting
    with pytest.raises(StoreRefused, match="its disk is full"):    # a host's change: refused, not made
        table.set_paused(True)
    assert table.paused is False

    full_disk.full = False                                      # space freed: the same move, same id
    again = table.submit(0, move, client_id="m1")
    assert again.ok and len(table.match.moves) == 1 and other.state["store"] is None
    service.close()
    restored = TableService(tmp_path)                           # it was stored, once
    assert [str(m) for m in restored.table(made["id"]).match.moves] == [move]
    restored.close()


def test_a_full_disk_mid_game_answers_the_api_with_503_and_a_sentence(full_disk, server):  # noqa: F811
    async def scenario():
        http, address = await start()
        try:
            code, made = await call(address, "POST", "tables", SPEC, headers={"X-Playtest-Key": "server-key"})
            assert code == 201
            token = made["seats"][0]["token"]
            code, state = await call(address, "GET", f"tables/{made['id']}/state", token=token)
            move = state["moves"][0]
            full_disk.full = True
            code, answer = await call(address, "POST", f"tables/{made['id']}/moves", {"move": move, "id": "a"},
                                      token=token)
            assert code == 503 and answer["ok"] is False and "the server cannot save moves now" in answer["error"]
            code, answer = await call(address, "POST", f"tables/{made['id']}/host", {"action": "pause"},
                                      token=made["host_token"])
            assert code == 503 and answer["error"].startswith("the server cannot save this now (its disk is full)")
            full_disk.full = False
            code, answer = await call(address, "POST", f"tables/{made['id']}/moves", {"move": move, "id": "a"},
                                      token=token)
            assert code == 200 and answer["ok"] is True
        finally:
            http.stop()
    run_coroutine(scenario())


def edit_move(folder, table_id: str, number: int, text: str) -> None:
    db = sqlite3.connect(folder / DB_NAME)
    db.execute("UPDATE moves SET text=? WHERE table_id=? AND number=?", (text, table_id, number))
    db.commit()
    db.close()


def test_a_table_whose_stored_move_is_illegal_is_kept_listed_as_damaged_with_its_record(tmp_path):
    service, made = made_table(tmp_path, moves=3)
    kept = service.create({**SPEC, "seed": 9})
    moves = [str(m) for m in service.table(made["id"]).match.moves]
    service.close()
    edit_move(tmp_path, made["id"], 2, "1 peek 0 0")            # one stored move edited into an illegal one

    again = TableService(tmp_path)
    status = again.status()
    [damaged] = status["damaged"]
    assert damaged["id"] == made["id"] and damaged["moves"] == 3 and damaged["game"] == "lazy_sunday"
    assert damaged["reason"].startswith("its stored move 2 ('1 peek 0 0') cannot be played: "), damaged
    assert [t["id"] for t in again.listing("all")] == [kept["id"]]     # the others are restored as they were
    with pytest.raises(ServiceError) as error:                   # its links say why, not "no such table"
        again.authenticate(made["id"], made["host_token"])
    assert error.value.status == 409 and "this table is damaged in the store and cannot be played" in str(error.value)
    record = again.damaged_record(made["id"])
    assert record["moves"] == [moves[0], "1 peek 0 0", moves[2]] and record["seed"] == 4
    assert record["damage"] == damaged["reason"]
    again.close()
    db = sqlite3.connect(tmp_path / DB_NAME)                     # still stored: nothing was dropped
    assert db.execute("SELECT COUNT(*) FROM moves WHERE table_id=?", (made["id"],)).fetchone()[0] == 3
    db.close()


def test_a_table_whose_game_is_not_installed_is_kept_as_such_and_plays_on_once_it_is(tmp_path, monkeypatch):
    from playtest.engine import registry
    from playtest.games.lazy_sunday import LazySunday
    service, made = made_table(tmp_path, moves=3)
    moves = [str(m) for m in service.table(made["id"]).match.moves]
    service.close()
    db = sqlite3.connect(tmp_path / DB_NAME)                     # a table of a game this server lacks
    db.execute("UPDATE tables SET game='lazy_sunday_plus' WHERE id=?", (made["id"],))
    db.commit()
    db.close()

    again = TableService(tmp_path)
    [kept] = again.status()["damaged"]
    assert kept["installed"] is False and kept["game"] == "lazy_sunday_plus" and kept["moves"] == 3
    assert kept["reason"] == ("its game 'lazy_sunday_plus' is not installed on this server; install the game's "
                              "package and restart the server to play on"), kept
    with pytest.raises(ServiceError) as error:
        again.authenticate(made["id"], made["host_token"])
    assert error.value.status == 409 and str(error.value) == f"this table cannot be played here: {kept['reason']}"
    assert "damaged" not in str(error.value)
    again.close()

    # the game's package installed, the server restarted: the table plays on where it was
    monkeypatch.setitem(registry._registered, "lazy_sunday_plus", type("Plus", (LazySunday,), {"name": "lazy_sunday_plus"}))
    installed = TableService(tmp_path)
    assert installed.status()["damaged"] == []
    assert [str(m) for m in installed.table(made["id"]).match.moves] == moves
    installed.close()


def test_the_lobby_says_not_installed_not_damaged_for_a_game_it_lacks():
    from playtest.widgets.live.client import TableApi
    from playtest.widgets.live.lobby import LobbyApp
    lobby = LobbyApp(TableApi(url="http://127.0.0.1:1/playtest/api", key="k"), start=False)
    lobby.show_store({"problem": None, "damaged": [
        {"id": "ab12cd34", "game": "lazy_sunday_plus", "seats": 2, "moves": 3, "created": 0, "installed": False,
         "reason": "its game 'lazy_sunday_plus' is not installed on this server; install the game's package and "
                   "restart the server to play on"},
        {"id": "ef56ab78", "game": "lazy_sunday", "seats": 2, "moves": 1, "created": 0, "installed": True,
         "reason": "its stored move 1 ('0 nonsense') cannot be played"}]})
    rows = [row.children[0].value for row in lobby.damaged_box.children[1:]]
    assert rows[0].startswith("<b>Not installed</b> · lazy_sunday_plus · table ab12cd34") and "restart" in rows[0]
    assert rows[1].startswith("<b>Damaged</b> · lazy_sunday · table ef56ab78")
    assert "plays on once it is" in lobby.damaged_box.children[0].value


def test_the_api_lists_a_damaged_table_and_the_lobby_downloads_its_record(server):  # noqa: F811
    from playtest.tables import web
    folder = server / "data"
    service, made = made_table(folder, moves=1)
    service.close()
    edit_move(folder, made["id"], 1, "0 nonsense")
    web._service.close()
    web._service = TableService(folder)

    async def scenario():
        http, address = await start()
        try:
            key = {"X-Playtest-Key": "server-key"}
            code, listing = await call(address, "GET", "tables", headers=key)
            assert code == 200 and listing["tables"] == []
            [damaged] = listing["store"]["damaged"]
            assert damaged["id"] == made["id"] and "its stored move 1 ('0 nonsense')" in damaged["reason"]
            code, refused = await call(address, "GET", f"tables/{made['id']}/record")
            assert code == 403
            code, record = await call(address, "GET", f"tables/{made['id']}/record", headers=key)
            assert code == 200 and record["moves"] == ["0 nonsense"] and record["game"] == "lazy_sunday"
        finally:
            http.stop()
    run_coroutine(scenario())


def test_an_emptied_or_replaced_store_is_noticed_once(tmp_path):
    service, _made = made_table(tmp_path)
    service.create({**SPEC, "seed": 5})
    service.close()
    db = sqlite3.connect(tmp_path / DB_NAME)                     # emptied
    for name in ("moves", "seats", "tables"):
        db.execute(f"DELETE FROM {name}")
    db.commit()
    db.close()
    emptied = TableService(tmp_path)
    assert emptied.status()["problem"] == (
        f"The table store {tmp_path / DB_NAME} holds 0 tables but held 2 when last opened: it was emptied or an "
        "older copy put back; if that was not meant, stop the server and put back a copy made with `playtest "
        "tables backup`.")
    emptied.create(SPEC)
    emptied.close()
    for suffix in ("", "-wal", "-shm"):                          # replaced (here: deleted, a new one made)
        (tmp_path / (DB_NAME + suffix)).unlink(missing_ok=True)
    replaced = TableService(tmp_path)
    assert replaced.status()["problem"].startswith(
        f"The table store {tmp_path / DB_NAME} is not the one this server used last (that one held 1 table): it "
        "was replaced or deleted")
    replaced.close()
    assert TableService(tmp_path).status()["problem"] is None    # said once: the store is as last seen


def test_the_backup_copies_the_store_while_it_is_open_and_restores(tmp_path, monkeypatch, capsys):
    service, made = made_table(tmp_path / "data", moves=3)       # its moves are still in the -wal file
    assert (tmp_path / "data" / (DB_NAME + "-wal")).stat().st_size > 0
    monkeypatch.setenv("PLAYTEST_DATA_DIR", str(tmp_path / "data"))
    assert cli.main(["tables", "backup", str(tmp_path / "copy.sqlite3")]) == 0
    assert capsys.readouterr().out == f"Copied 1 table from {tmp_path / 'data' / DB_NAME} to {tmp_path / 'copy.sqlite3'}\n"
    assert cli.main(["tables", "backup", str(tmp_path / "copy.sqlite3")]) == 2       # never over a file
    assert "exists already: give the backup a new file name" in capsys.readouterr().err
    moves = [str(m) for m in service.table(made["id"]).match.moves]
    service.close()

    restored_folder = tmp_path / "restored"                      # restore: the copy as the store
    restored_folder.mkdir()
    shutil.copy(tmp_path / "copy.sqlite3", restored_folder / DB_NAME)
    restored = TableService(restored_folder)
    assert [str(m) for m in restored.table(made["id"]).match.moves] == moves
    assert restored.authenticate(made["id"], made["seats"][0]["token"])[1:] == ("seat", 0)
    assert restored.status()["problem"] is None
    restored.close()


def test_table_tokens_never_reach_the_access_log(caplog):
    from playtest.server.app import log_request, redact

    class Handler:
        request = tornado.httputil.HTTPServerRequest(start_line=tornado.httputil.RequestStartLine(
            "GET", "/voila/render/table.ipynb?table=ab12&token=SECRETSPECTATOR,SECRETSEAT&x=1", "HTTP/1.1"),
            headers=tornado.httputil.HTTPHeaders({"Host": "127.0.0.1"}))

        def get_status(self):
            return 403
    Handler.request._start_time = 0
    Handler.request._finish_time = 0
    with caplog.at_level("INFO", logger="tornado.access"):
        log_request(Handler())
    assert "SECRET" not in caplog.text and "table=ab12&token=[hidden]&x=1" in caplog.text
    assert redact("/x?token=a&table=b&TOKEN=c") == "/x?token=[hidden]&table=b&TOKEN=[hidden]"


def test_the_lobby_shows_the_stores_sentence_and_its_damaged_tables():
    from playtest.widgets.live.client import TableApi
    from playtest.widgets.live.lobby import LobbyApp
    lobby = LobbyApp(TableApi(url="http://127.0.0.1:1/playtest/api", key="k"), start=False)
    assert lobby.store_note.layout.display == "none"
    lobby.show_store({"available": True, "problem": "Live tables are off: the disk is full.",
                      "damaged": [{"id": "ab12cd34", "game": "lazy_sunday", "seats": 2, "moves": 3, "created": 0,
                                   "reason": "its stored move 2 ('1 peek 0 0') cannot be played: no"}]})
    assert "Live tables are off: the disk is full." in lobby.store_note.value and lobby.store_note.layout.display is None
    text = json.dumps([getattr(c, "value", "") for row in lobby.damaged_box.children
                       for c in getattr(row, "children", [row])])
    assert "ab12cd34" in text and "its stored move 2" in text
    assert any(getattr(c, "description", "") == "Record" for row in lobby.damaged_box.children
               for c in getattr(row, "children", []))
    lobby.show_store({"problem": None, "damaged": []})
    assert lobby.store_note.layout.display == "none" and lobby.damaged_box.children == ()


def test_a_bot_whose_move_the_store_refused_tries_again_later(tmp_path, full_disk):
    async def scenario():
        service = TableService(tmp_path, store_retry=0.3)
        made = service.create({**SPEC, "players": ["human", "random"], "pace": "instant"})
        table = service.table(made["id"])
        table.attach(FakePage(0))
        assert table.submit(0, "0 peek 0 1").ok and table.submit(0, "0 done").ok
        full_disk.full = True
        for _ in range(300):                     # the bot decides in a worker process (started now)
            if table.unsaved:
                break
            await asyncio.sleep(0.1)
        await asyncio.sleep(0.5)                 # the bot's move is refused, again and again
        assert len(table.match.moves) == 2 and "its disk is full" in table.unsaved
        tries = []
        table.on_move = lambda *args, inner=table.on_move: (tries.append(args[1]), inner(*args))
        await asyncio.sleep(1.0)
        assert 2 <= len(tries) <= 5              # every store_retry seconds, not in a busy loop
        full_disk.full = False
        await asyncio.sleep(0.6)
        assert len(table.match.moves) >= 3 and table.match.moves[2].seat == 1 and table.unsaved == ""
        service.close()
    run_coroutine(scenario())
