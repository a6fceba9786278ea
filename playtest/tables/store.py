"""The table store: every live table and every move, in one embedded SQLite database.

A move is committed (WAL, ``synchronous=FULL``) before the table acknowledges it, so a
server killed mid-game and started again restores every table at the move it had
reached; nothing acknowledged is lost. Tokens are stored only as SHA-256 hashes.

The database lives in the data folder (:func:`data_dir`): ``$PLAYTEST_DATA_DIR``, else
``$XDG_DATA_HOME/playtest``, else ``~/.local/share/playtest``. One server at a time holds
it (:class:`StoreInUse`): two servers on one folder (JupyterLab's table service and
``playtest serve``, say) would each restore every table and run its bots.

A store that cannot be used (damaged, not playtest's, a read-only folder, a full disk)
raises :class:`StoreProblem`, whose message is one sentence saying what is wrong and
what to do; the file is never changed before it has been checked, nor deleted. Beside
the database, ``tables.seen.json`` keeps the store's identity and how many tables it
held when last opened, so that an emptied or replaced store is noticed
(:attr:`TableStore.notice`). :func:`backup` copies the store while a server runs.
"""
from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import os
import secrets
import sqlite3
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from playtest.engine.rng import OLD_STREAM, Stream

DB_NAME = "tables.sqlite3"
LOCK_SUFFIX = ".lock"      # beside the database: who holds it ("<pid> <program>")
SEEN_NAME = "tables.seen.json"   # beside the database: {"store": its id, "tables": how many it held}
BACKUP_HINT = "put back a copy made with `playtest tables backup`"


class StoreInUse(OSError):
    """Another process holds the table store (``holder``: its "<pid> <program>", or "")."""

    def __init__(self, folder: Path, holder: str):
        who = f"process {holder.split(' ', 1)[0]}, {holder.split(' ', 1)[-1]}" if " " in holder else "another process"
        super().__init__(
            f"the live tables in {folder} are served by another server ({who}); stop that "
            f"server, or give this one a data folder of its own (PLAYTEST_DATA_DIR=/some/folder)")
        self.holder = holder


class StoreProblem(Exception):
    """The table store cannot be used; the message is one sentence: what is wrong with it
    and what to do (see :func:`problem_sentence`)."""


class StoreDamaged(sqlite3.DatabaseError):
    """An SQLite file that is not a playtest table store (another program's tables, or
    ours with columns missing)."""


def problem_sentence(exc: BaseException, path: Path) -> str:
    """One sentence for a store that cannot be opened or written: what is wrong with the
    database ``path`` (or its folder) and what to do.

    Args:
        exc: the OSError or sqlite3 error met. path: the database file.
    """
    folder, text = path.parent, str(exc)
    if isinstance(exc, OSError) and exc.errno == errno.ENOSPC or "disk is full" in text:
        return (f"the disk holding the data folder {folder} is full, so live tables cannot be saved: free some "
                "space, then restart the server")
    if (isinstance(exc, OSError) and exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM)
            or "readonly" in text or "read-only" in text):
        return (f"the data folder {folder} is read-only here, so live tables cannot be saved: make it writable, "
                "or set PLAYTEST_DATA_DIR to a folder you may write, then restart the server")
    if isinstance(exc, StoreDamaged):
        what = text
    elif "not a database" in text:
        what = f"the table store {path} is not an SQLite database (damaged, or another file put in its place)"
    elif isinstance(exc, sqlite3.DatabaseError) and ("malformed" in text or "corrupt" in text):
        what = f"the table store {path} is damaged (SQLite says: {text})"
    else:
        return (f"the table store {path} cannot be opened ({text or type(exc).__name__}): check the data folder "
                f"{folder}, or set PLAYTEST_DATA_DIR to another folder, then restart the server")
    return (f"{what}: stop the server, move the file aside (keep it, do not delete it) and {BACKUP_HINT} "
            f"in its place, or start with no tables")


_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    seats INTEGER NOT NULL,
    options TEXT NOT NULL,          -- JSON: every option in force
    seed INTEGER NOT NULL,          -- 0 where seed_text holds it (tables stored before: the seed)
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
    seed_text TEXT,                   -- the seed in digits (over 64 bits); NULL: it is in seed
    stream TEXT,                      -- the G-3 stream ("keyed", "mt"); NULL: "mt" (stored before)
    opened INTEGER NOT NULL DEFAULT 0, -- a page or script has used one of its tokens
    turn_limit REAL                   -- seconds a person has per decision (turn timer); NULL: no timer
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    token_hash TEXT NOT NULL,
    claimed INTEGER NOT NULL DEFAULT 0,   -- handed out: a link made at creation, or a lobby join
    name TEXT NOT NULL DEFAULT '',        -- the name its person typed ("": none yet)
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS moves (
    table_id TEXT NOT NULL REFERENCES tables(id),
    number INTEGER NOT NULL,        -- 1-based: the record's move number
    text TEXT NOT NULL,
    seat INTEGER NOT NULL,
    by_bot INTEGER NOT NULL,
    time REAL NOT NULL,
    timed_out INTEGER NOT NULL DEFAULT 0,   -- played by the table for a person whose time ran out
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
CREATE TABLE IF NOT EXISTS holders (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    player TEXT NOT NULL,           -- "human" or a bot name: who plays the seat from here on
    after INTEGER NOT NULL,         -- how many moves had been played when it took the seat
    time REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,           -- "store": this store's identity (a random id); "watch": the key of
                                    -- the overview's spectator tokens (TableService.watch_token)
    value TEXT NOT NULL
);
"""
_OPTIONAL = {("tables", "reaction_limit"), ("tables", "seed_text"), ("tables", "stream"), ("tables", "opened"),
             ("meta", "key"), ("meta", "value"), ("seats", "name"), ("tables", "turn_limit"),
             ("moves", "timed_out")}   # added later: migrated


def _columns(db: sqlite3.Connection) -> dict[str, set[str]]:
    names = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    return {name: {row[1] for row in db.execute(f'PRAGMA table_info("{name}")')} for name in names}


def _schema_columns() -> dict[str, set[str]]:
    memory = sqlite3.connect(":memory:")
    memory.executescript(_SCHEMA)
    columns = _columns(memory)
    memory.close()
    return columns


_COLUMNS = _schema_columns()


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
    """One table as stored: its set-up and its moves (``(text, seat, by_bot)`` in order).
    ``seed`` is any whole number 0 or more (stored as digits: SQLite's integers stop at
    2^63), ``stream`` the G-3 stream it deals from (see :mod:`playtest.engine.rng`)."""

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
    stream: Stream = OLD_STREAM
    opened: bool = False
    turn_limit: float | None = None
    seat_hashes: dict[int, str] = field(default_factory=dict)
    claimed: set[int] = field(default_factory=set)
    names: dict[int, str] = field(default_factory=dict)     # seat -> its person's name (seats with one)
    moves: list[tuple[str, int, bool]] = field(default_factory=list)
    timed_out: set[int] = field(default_factory=set)   # numbers (from 1) of moves played for a person out of time
    damage: str = ""      # why its stored set-up cannot be read ("": it can)


class TableStore:
    """The SQLite database of live tables.

    Args:
        path: the database file (its folder is created, readable by its owner only).

    Attributes:
        notice: "" or one sentence about the store found: it holds fewer tables than
            when it was last opened, or is not the store last opened here (emptied,
            replaced or deleted), or the disk is full (the store opened, but nothing
            can be saved). count: the tables it holds.

    Raises:
        StoreInUse: another process (or another open store in this one) holds it.
        StoreProblem: the folder cannot be created or written, the file is not an
            SQLite database, is damaged or is not playtest's, or the disk is full (one
            sentence, :func:`problem_sentence`); the file was not changed.
    """

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        self.notice = ""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            self._lock = self._hold(self.path.with_name(self.path.name + LOCK_SUFFIX))
        except StoreInUse:
            raise
        except OSError as exc:
            raise StoreProblem(problem_sentence(exc, self.path)) from exc
        try:
            self._open()
        except BaseException as exc:
            self._lock.close()
            if isinstance(exc, (OSError, sqlite3.Error)):
                raise StoreProblem(problem_sentence(exc, self.path)) from exc
            raise
        self._check_seen()

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
        try:
            self._check()                              # reads only: a damaged file is left as it is
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")     # a stored move survives a power cut too
            self.db.execute("PRAGMA foreign_keys=ON")
            self.db.executescript(_SCHEMA)
            columns = {row[1] for row in self.db.execute("PRAGMA table_info(tables)")}
            if "reaction_limit" not in columns:       # a database made before reaction limits
                self.db.execute("ALTER TABLE tables ADD COLUMN reaction_limit REAL")
            if "stream" not in columns:               # a database made before seeds of 128 bits
                self.db.execute("ALTER TABLE tables ADD COLUMN seed_text TEXT")
                self.db.execute("ALTER TABLE tables ADD COLUMN stream TEXT")
            if "opened" not in columns:               # made before unopened tables expired: all count as opened
                self.db.execute("ALTER TABLE tables ADD COLUMN opened INTEGER NOT NULL DEFAULT 1")
            if "turn_limit" not in columns:           # a database made before turn timers
                self.db.execute("ALTER TABLE tables ADD COLUMN turn_limit REAL")
            if "timed_out" not in {row[1] for row in self.db.execute("PRAGMA table_info(moves)")}:
                self.db.execute("ALTER TABLE moves ADD COLUMN timed_out INTEGER NOT NULL DEFAULT 0")
            if "name" not in {row[1] for row in self.db.execute("PRAGMA table_info(seats)")}:
                self.db.execute("ALTER TABLE seats ADD COLUMN name TEXT NOT NULL DEFAULT ''")   # before names
            found = self.db.execute("SELECT value FROM meta WHERE key='store'").fetchone()
            self.identity = found[0] if found else uuid.uuid4().hex
            if not found:
                self._write("INSERT INTO meta VALUES ('store', ?)", (self.identity,))
            found = self.db.execute("SELECT value FROM meta WHERE key='watch'").fetchone()
            self.watch_key = found[0] if found else secrets.token_hex(32)
            if not found:
                self._write("INSERT INTO meta VALUES ('watch', ?)", (self.watch_key,))
            self.count = self.db.execute("SELECT COUNT(*) FROM tables").fetchone()[0]
        except BaseException:
            self.db.close()
            raise

    def _check(self) -> None:
        """Refuse a file that is not a sound playtest store, before anything is written:
        SQLite's quick check, then our tables' columns (an empty database passes).

        Raises:
            sqlite3.DatabaseError: not a database, or damaged. StoreDamaged: another
                program's database, or ours with columns missing."""
        verdict = self.db.execute("PRAGMA quick_check").fetchone()[0]
        if verdict != "ok":
            raise sqlite3.DatabaseError(f"database disk image is malformed ({verdict[:120]})")
        found = _columns(self.db)
        if found and "tables" not in found:
            raise StoreDamaged(f"the table store {self.path} is an SQLite database of another program (its tables: "
                               f"{', '.join(sorted(found))[:200]}), not playtest's")
        for name, columns in found.items():
            missing = sorted(c for c in _COLUMNS.get(name, set()) - columns if (name, c) not in _OPTIONAL)
            if missing:
                raise StoreDamaged(f"the table store {self.path} is not a playtest store that this version can read "
                                   f"(its {name!r} table has no column {', '.join(missing)})")

    def _check_seen(self) -> None:
        """Compare the store with what ``tables.seen.json`` says it held when last opened,
        set :attr:`notice` if tables are gone, then record what it holds now (a notice is
        given once). A full disk here is said too: the store opened but saves nothing."""
        seen_path = self.path.with_name(SEEN_NAME)
        try:
            seen = json.loads(seen_path.read_text(encoding="utf-8"))
            store, held = str(seen["store"]), int(seen["tables"])
        except (OSError, ValueError, KeyError, TypeError):
            store, held = self.identity, 0          # never seen (or unreadable): nothing to compare
        if store != self.identity and held:
            self.notice = (f"the table store {self.path} is not the one this server used last (that one held {held} "
                           f"table{'s' * (held != 1)}): it was replaced or deleted; if that was not meant, stop the "
                           f"server and {BACKUP_HINT}")
        elif self.count < held:
            self.notice = (f"the table store {self.path} holds {self.count} table{'s' * (self.count != 1)} but held "
                           f"{held} when last opened: it was emptied or an older copy put back; if that was not "
                           f"meant, stop the server and {BACKUP_HINT}")
        try:
            self._write_seen()
        except OSError as exc:
            self.notice = self.notice or problem_sentence(exc, self.path)

    def _write_seen(self) -> None:
        seen_path = self.path.with_name(SEEN_NAME)
        temporary = seen_path.with_name(SEEN_NAME + ".tmp")
        temporary.write_text(json.dumps({"store": self.identity, "tables": self.count}), encoding="utf-8")
        os.replace(temporary, seen_path)

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
                "host_hash, spectator_hash, created, reaction_limit, seed_text, stream, opened, turn_limit) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (table.id, table.game, table.seats, json.dumps(table.options), 0,
                 json.dumps(table.setup), json.dumps(table.players), table.pace, int(table.listed),
                 int(table.paused), table.status, table.host_hash, table.spectator_hash, table.created,
                 table.reaction_limit, str(table.seed), table.stream, int(table.opened), table.turn_limit))
            self.db.executemany("INSERT INTO holders VALUES (?,?,?,?,?)",
                                [(table.id, seat, player, 0, table.created) for seat, player in enumerate(table.players)])
            self.db.executemany("INSERT INTO seats (table_id, seat, token_hash, claimed) VALUES (?,?,?,?)",
                                [(table.id, seat, h, int(seat in table.claimed))
                                 for seat, h in table.seat_hashes.items()])
        self.count += 1
        try:
            self._write_seen()
        except OSError:
            pass        # the database holds the table; the count is checked again at the next start

    def add_move(self, table_id: str, number: int, text: str, seat: int, by_bot: bool,
                 at: float | None = None, timed_out: bool = False) -> None:
        """Commit move ``number`` (1-based) of a table: it is on disk when this returns.

        Args:
            at: when it was played, in seconds since the epoch (default: now).
            timed_out: the table played it for a person whose turn timer ran out.

        Raises:
            sqlite3.IntegrityError: that move number is already stored.
        """
        self._write("INSERT INTO moves (table_id, number, text, seat, by_bot, time, timed_out) "
                    "VALUES (?,?,?,?,?,?,?)",
                    (table_id, number, text, seat, int(by_bot), time.time() if at is None else at, int(timed_out)))

    def move_times(self, table_id: str) -> list[float]:
        """When each stored move of a table was played (seconds since the epoch), in order."""
        return [row[0] for row in self.db.execute("SELECT time FROM moves WHERE table_id=? ORDER BY number",
                                                  (table_id,))]

    def holders(self, table_id: str) -> list[dict]:
        """Who played each seat over time: ``{"seat", "player", "after", "time"}`` rows in
        the order they took it (``player`` "human" or a bot name, ``after`` the moves
        played before, ``time`` seconds since the epoch). A table stored before hand-overs
        were kept has none."""
        rows = self.db.execute("SELECT seat, player, after, time FROM holders WHERE table_id=? ORDER BY rowid",
                               (table_id,))
        return [dict(zip(("seat", "player", "after", "time"), row)) for row in rows]

    def update(self, table_id: str, **fields) -> None:
        """Change ``players`` (list), ``pace``, ``paused``, ``status``, ``opened``,
        ``turn_limit`` (seconds or None) of a table.
        A change of ``players`` also stores a hand-over row for each seat whose player
        changed (:meth:`holders`), in the same transaction."""
        allowed = {"players", "pace", "paused", "status", "opened", "turn_limit"}
        if not fields or not set(fields) <= allowed:
            raise ValueError(f"update takes {sorted(allowed)}, not {sorted(fields)}")
        values = [json.dumps(v) if k == "players" else int(v) if k in ("paused", "opened") else v
                  for k, v in fields.items()]
        with self.db:
            self.db.execute("BEGIN")
            if "players" in fields:
                found = self.db.execute("SELECT players FROM tables WHERE id=?", (table_id,)).fetchone()
                before = json.loads(found[0]) if found else []
                after = self.db.execute("SELECT COUNT(*) FROM moves WHERE table_id=?", (table_id,)).fetchone()[0]
                now = time.time()
                self.db.executemany("INSERT INTO holders VALUES (?,?,?,?,?)",
                                    [(table_id, seat, player, after, now) for seat, player in enumerate(fields["players"])
                                     if seat >= len(before) or before[seat] != player])
            self.db.execute(f"UPDATE tables SET {', '.join(f'{k}=?' for k in fields)} WHERE id=?", (*values, table_id))

    def claim_seat(self, table_id: str, seat: int, token_hash: str) -> bool:
        """Mark a seat as handed out by a lobby join, with its new token's hash, in one
        transaction; False (nothing changed) if it already was."""
        with self.db:
            self.db.execute("BEGIN")
            cur = self.db.execute("UPDATE seats SET claimed=1, token_hash=? WHERE table_id=? AND seat=? AND claimed=0",
                                  (token_hash, table_id, seat))
            return cur.rowcount == 1

    def set_name(self, table_id: str, seat: int, name: str) -> None:
        """Store the name a seat's person gave (an already checked name, see
        :func:`playtest.tables.live.check_name`; "" forgets it)."""
        self._write("UPDATE seats SET name=? WHERE table_id=? AND seat=?", (name, table_id, seat))

    def add_feedback(self, table_id: str, seat: int, rating: int | None, confused: str, notes: str) -> None:
        """Store a seat's feedback on a table (a second one replaces the first)."""
        self._write("INSERT OR REPLACE INTO feedback VALUES (?,?,?,?,?,?)",
                    (table_id, seat, rating, confused, notes, time.time()))

    def feedback(self, table_id: str) -> list[dict]:
        """A table's feedback, one dict per seat that gave some, in seat order."""
        rows = self.db.execute("SELECT seat, rating, confused, notes, time FROM feedback WHERE table_id=? "
                               "ORDER BY seat", (table_id,))
        return [dict(zip(("seat", "rating", "confused", "notes", "time"), row)) for row in rows]

    def tables(self, statuses: tuple[str, ...] | None = None, table_id: str | None = None) -> Iterator[StoredTable]:
        """Every stored table (with its seats and moves), oldest first; only those with a
        status in ``statuses`` if given; only the table ``table_id`` if given."""
        rows = self.db.execute("SELECT id, game, seats, options, seed, setup, players, pace, listed, paused, "
                               "status, host_hash, spectator_hash, created, reaction_limit, seed_text, stream, "
                               "opened, turn_limit FROM tables WHERE ? IS NULL OR id = ? ORDER BY created",
                               (table_id, table_id)).fetchall()
        for row in rows:
            try:
                options, setup, players = (json.loads(row[i]) for i in (3, 5, 6))
                damage = ""
            except (TypeError, ValueError) as exc:
                options, setup, players = {}, {}, []
                damage = f"its stored set-up cannot be read ({exc})"
            try:
                seed = int(row[15]) if row[15] is not None else row[4]
            except ValueError as exc:
                seed, damage = 0, damage or f"its stored seed cannot be read ({exc})"
            table = StoredTable(row[0], row[1], row[2], options, seed, setup, players, row[7], bool(row[8]),
                                bool(row[9]), row[10], row[11], row[12], row[13], row[14], row[16] or OLD_STREAM,
                                bool(row[17]), row[18], damage=damage)
            if statuses is not None and table.status not in statuses:
                continue
            for seat, h, claimed, name in self.db.execute(
                    "SELECT seat, token_hash, claimed, name FROM seats WHERE table_id=?", (table.id,)):
                table.seat_hashes[seat] = h
                if name:
                    table.names[seat] = name
                if claimed:
                    table.claimed.add(seat)
            rows = self.db.execute("SELECT text, seat, by_bot, timed_out FROM moves WHERE table_id=? ORDER BY number",
                                   (table.id,)).fetchall()
            table.moves = [(text, seat, bool(bot)) for text, seat, bot, _late in rows]
            table.timed_out = {number for number, row in enumerate(rows, 1) if row[3]}
            yield table


def backup(source: str | os.PathLike, target: str | os.PathLike) -> int:
    """Copy the table store ``source`` to a new file ``target`` with SQLite's online
    backup, while a server may be using it: the copy holds every committed move, those
    still in the ``-wal`` file too. The copy is written beside ``target`` and renamed
    into place once whole.

    Returns:
        How many tables the copy holds.

    Raises:
        StoreProblem: no store at ``source``, ``target`` exists already, or the copy
            failed (one sentence: what is wrong and what to do); nothing was left at
            ``target``.
    """
    source, target = Path(source), Path(target)
    if not source.is_file():
        raise StoreProblem(f"there is no table store at {source}: set PLAYTEST_DATA_DIR to the data folder that "
                           "holds tables.sqlite3")
    if target.exists():
        raise StoreProblem(f"{target} exists already: give the backup a new file name (a backup never "
                           "replaces a file)")
    partial = target.with_name(target.name + ".partial")
    try:
        with contextlib.closing(sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)) as src, \
                contextlib.closing(sqlite3.connect(partial)) as dst:
            src.backup(dst)
            count = dst.execute("SELECT COUNT(*) FROM tables").fetchone()[0]
        os.replace(partial, target)
    except (OSError, sqlite3.Error) as exc:
        partial.unlink(missing_ok=True)
        raise StoreProblem(f"the backup of {source} to {target} failed ({exc}); nothing was written at {target}") \
            from None
    return count
