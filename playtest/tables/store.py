"""The table store: every live table and every move, in one embedded SQLite database.

A move is committed (WAL, ``synchronous=FULL``) before the table acknowledges it, so a
server killed mid-game and started again restores every table at the move it had
reached; nothing acknowledged is lost. Tokens are stored only as SHA-256 hashes.

The database lives in the data folder (:func:`data_dir`): ``$PLAYTEST_DATA_DIR``, else
``$XDG_DATA_HOME/playtest``, else ``~/.local/share/playtest``. One server at a time holds
it (:class:`StoreInUse`): two servers on one folder (JupyterLab's table service and
``playtest serve``, say) would each restore every table and run its bots.
"""
from __future__ import annotations

import fcntl
import hashlib
import json
import os
import sqlite3
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

DB_NAME = "tables.sqlite3"
LOCK_SUFFIX = ".lock"      # beside the database: who holds it ("<pid> <program>")


class StoreInUse(OSError):
    """Another process holds the table store (``holder``: its "<pid> <program>", or "")."""

    def __init__(self, folder: Path, holder: str):
        who = f"process {holder.split(' ', 1)[0]}, {holder.split(' ', 1)[-1]}" if " " in holder else "another process"
        super().__init__(
            f"the live tables in {folder} are served by another server ({who}); stop that "
            f"server, or give this one a data folder of its own (PLAYTEST_DATA_DIR=/some/folder)")
        self.holder = holder

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    seats INTEGER NOT NULL,
    options TEXT NOT NULL,          -- JSON: every option in force
    seed INTEGER NOT NULL,
    setup TEXT NOT NULL,            -- JSON: the pinned setup ({} for a plain deal)
    players TEXT NOT NULL,          -- JSON list: "human" or a bot name, per seat
    pace TEXT NOT NULL,
    listed INTEGER NOT NULL,
    paused INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL,           -- playing | over | ended
    host_hash TEXT NOT NULL,
    spectator_hash TEXT NOT NULL,
    created REAL NOT NULL,
    reaction_limit REAL,              -- seconds a reaction window stays open; NULL: no limit
    opened INTEGER NOT NULL DEFAULT 0 -- a page or script has used one of its tokens
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    token_hash TEXT NOT NULL,
    claimed INTEGER NOT NULL DEFAULT 0,   -- handed out: a link made at creation, or a lobby join
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS moves (
    table_id TEXT NOT NULL REFERENCES tables(id),
    number INTEGER NOT NULL,        -- 1-based: the record's move number
    text TEXT NOT NULL,
    seat INTEGER NOT NULL,
    by_bot INTEGER NOT NULL,
    time REAL NOT NULL,
    PRIMARY KEY (table_id, number)
);
CREATE TABLE IF NOT EXISTS feedback (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    rating INTEGER,
    confused TEXT NOT NULL,
    notes TEXT NOT NULL,
    time REAL NOT NULL,
    PRIMARY KEY (table_id, seat)
);
"""


def data_dir() -> Path:
    """The data folder of live tables: ``$PLAYTEST_DATA_DIR``, else
    ``$XDG_DATA_HOME/playtest``, else ``~/.local/share/playtest`` (not created here)."""
    if os.environ.get("PLAYTEST_DATA_DIR"):
        return Path(os.environ["PLAYTEST_DATA_DIR"])
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "playtest"


def token_hash(token: str) -> str:
    """The stored form of a token: its SHA-256, hex (tokens are 128-bit random, so no
    salt or slow hash is needed)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


@dataclass
class StoredTable:
    """One table as stored: its set-up and its moves (``(text, seat, by_bot)`` in order)."""

    id: str
    game: str
    seats: int
    options: dict[str, Any]
    seed: int
    setup: dict[str, Any]
    players: list[str]
    pace: str
    listed: bool
    paused: bool
    status: str
    host_hash: str
    spectator_hash: str
    created: float
    reaction_limit: float | None = None
    opened: bool = False
    seat_hashes: dict[int, str] = field(default_factory=dict)
    claimed: set[int] = field(default_factory=set)
    moves: list[tuple[str, int, bool]] = field(default_factory=list)


class TableStore:
    """The SQLite database of live tables.

    Args:
        path: the database file (its folder is created, readable by its owner only).

    Raises:
        StoreInUse: another process (or another open store in this one) holds it;
            OSError: the folder cannot be created; sqlite3.DatabaseError: the file is not
            a database.
    """

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        self._lock = self._hold(self.path.with_name(self.path.name + LOCK_SUFFIX))
        try:
            self._open()
        except BaseException:
            self._lock.close()
            raise

    @staticmethod
    def _hold(lock_path: Path):
        """Open and lock the lock file (released by the OS when the process ends, even
        killed), writing who holds it; raise StoreInUse if it is held."""
        lock = open(lock_path, "a+", encoding="utf-8")
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock.seek(0)
            holder = lock.read(200).strip()
            lock.close()
            raise StoreInUse(lock_path.parent, holder) from None
        lock.truncate(0)
        program = Path(sys.argv[0]).name if sys.argv and sys.argv[0] not in ("", "-c") else "python"
        lock.write(f"{os.getpid()} {program}\n")
        lock.flush()
        return lock

    def _open(self) -> None:
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")     # a stored move survives a power cut too
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.executescript(_SCHEMA)
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(tables)")}
        if "reaction_limit" not in columns:       # a database made before reaction limits
            self.db.execute("ALTER TABLE tables ADD COLUMN reaction_limit REAL")
        if "opened" not in columns:               # made before unopened tables expired: all count as opened
            self.db.execute("ALTER TABLE tables ADD COLUMN opened INTEGER NOT NULL DEFAULT 1")

    def close(self) -> None:
        """Close the database and let another server hold it (the service's shutdown)."""
        self.db.close()
        self._lock.close()

    def _write(self, sql: str, args=()) -> None:
        with self.db:   # one transaction, committed on leaving
            self.db.execute("BEGIN")
            self.db.execute(sql, args)

    def add_table(self, table: StoredTable) -> None:
        """Store a new table and its seat token hashes, in one transaction."""
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute(
                "INSERT INTO tables (id, game, seats, options, seed, setup, players, pace, listed, paused, status, "
                "host_hash, spectator_hash, created, reaction_limit, opened) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (table.id, table.game, table.seats, json.dumps(table.options), table.seed,
                 json.dumps(table.setup), json.dumps(table.players), table.pace, int(table.listed),
                 int(table.paused), table.status, table.host_hash, table.spectator_hash, table.created,
                 table.reaction_limit, int(table.opened)))
            self.db.executemany("INSERT INTO seats VALUES (?,?,?,?)",
                                [(table.id, seat, h, int(seat in table.claimed))
                                 for seat, h in table.seat_hashes.items()])

    def add_move(self, table_id: str, number: int, text: str, seat: int, by_bot: bool) -> None:
        """Commit move ``number`` (1-based) of a table: it is on disk when this returns.

        Raises:
            sqlite3.IntegrityError: that move number is already stored.
        """
        self._write("INSERT INTO moves VALUES (?,?,?,?,?,?)",
                    (table_id, number, text, seat, int(by_bot), time.time()))

    def update(self, table_id: str, **fields) -> None:
        """Change ``players`` (list), ``pace``, ``paused``, ``status``, ``opened`` of a table."""
        allowed = {"players", "pace", "paused", "status", "opened"}
        if not fields or not set(fields) <= allowed:
            raise ValueError(f"update takes {sorted(allowed)}, not {sorted(fields)}")
        values = [json.dumps(v) if k == "players" else int(v) if k in ("paused", "opened") else v
                  for k, v in fields.items()]
        self._write(f"UPDATE tables SET {', '.join(f'{k}=?' for k in fields)} WHERE id=?", (*values, table_id))

    def claim_seat(self, table_id: str, seat: int) -> bool:
        """Mark a seat as handed out by a lobby join; False if it already was."""
        with self.db:
            self.db.execute("BEGIN")
            cur = self.db.execute("UPDATE seats SET claimed=1 WHERE table_id=? AND seat=? AND claimed=0",
                                  (table_id, seat))
            return cur.rowcount == 1

    def add_feedback(self, table_id: str, seat: int, rating: int | None, confused: str, notes: str) -> None:
        """Store a seat's feedback on a table (a second one replaces the first)."""
        self._write("INSERT OR REPLACE INTO feedback VALUES (?,?,?,?,?,?)",
                    (table_id, seat, rating, confused, notes, time.time()))

    def feedback(self, table_id: str) -> list[dict]:
        """A table's feedback, one dict per seat that gave some, in seat order."""
        rows = self.db.execute("SELECT seat, rating, confused, notes, time FROM feedback WHERE table_id=? "
                               "ORDER BY seat", (table_id,))
        return [dict(zip(("seat", "rating", "confused", "notes", "time"), row)) for row in rows]

    def tables(self, statuses: tuple[str, ...] | None = None) -> Iterator[StoredTable]:
        """Every stored table (with its seats and moves), oldest first; only those with a
        status in ``statuses`` if given."""
        rows = self.db.execute("SELECT id, game, seats, options, seed, setup, players, pace, listed, paused, "
                               "status, host_hash, spectator_hash, created, reaction_limit, opened FROM tables "
                               "ORDER BY created").fetchall()
        for row in rows:
            table = StoredTable(row[0], row[1], row[2], json.loads(row[3]), row[4], json.loads(row[5]),
                                json.loads(row[6]), row[7], bool(row[8]), bool(row[9]), row[10], row[11],
                                row[12], row[13], row[14], bool(row[15]))
            if statuses is not None and table.status not in statuses:
                continue
            for seat, h, claimed in self.db.execute("SELECT seat, token_hash, claimed FROM seats WHERE table_id=?",
                                                    (table.id,)):
                table.seat_hashes[seat] = h
                if claimed:
                    table.claimed.add(seat)
            table.moves = [(text, seat, bool(bot)) for text, seat, bot in self.db.execute(
                "SELECT text, seat, by_bot FROM moves WHERE table_id=? ORDER BY number", (table.id,))]
            yield table
