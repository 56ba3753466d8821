"""Durable storage: one SQLite file per host, WAL journal, synchronous=FULL.

An action acknowledged to a phone must survive a power cut, not only a killed process, so every
append is committed with a full fsync before the room tells anyone. All calls here block; the
room layer runs them on a single writer thread (`AsyncStore`) so the event loop never waits on
the disk.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rooms (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    setup TEXT NOT NULL,
    seed INTEGER NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    room_id TEXT NOT NULL REFERENCES rooms(id),
    seat INTEGER NOT NULL,
    token TEXT NOT NULL UNIQUE,
    claimed INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (room_id, seat)
);
CREATE TABLE IF NOT EXISTS log (
    room_id TEXT NOT NULL REFERENCES rooms(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    channel TEXT NOT NULL,
    key TEXT,
    at REAL NOT NULL,
    PRIMARY KEY (room_id, seq)
);
CREATE UNIQUE INDEX IF NOT EXISTS log_key ON log(room_id, key) WHERE key IS NOT NULL;
CREATE TABLE IF NOT EXISTS table_links (
    room_id TEXT PRIMARY KEY REFERENCES rooms(id),
    secret TEXT NOT NULL,
    free_seats INTEGER NOT NULL,
    pass_seats TEXT NOT NULL,
    next_room TEXT
);
-- A room's log format version (companion.room.LOG_FORMAT_VERSION when it was created); a room
-- without a row is from before versions were kept: format 1.
CREATE TABLE IF NOT EXISTS log_formats (
    room_id TEXT PRIMARY KEY REFERENCES rooms(id),
    version INTEGER NOT NULL
);
-- The device each claimed seat answers (companion.room `device_fingerprint`: a SHA-256 of the
-- secret the device keeps, never the secret). A claimed seat without a row is from before seats
-- were bound to a device: the first device that brings its valid token binds it.
CREATE TABLE IF NOT EXISTS seat_devices (
    room_id TEXT NOT NULL REFERENCES rooms(id),
    seat INTEGER NOT NULL,
    device TEXT NOT NULL,
    PRIMARY KEY (room_id, seat)
);
CREATE TABLE IF NOT EXISTS imported (
    room_id TEXT PRIMARY KEY REFERENCES rooms(id),
    source_id TEXT NOT NULL,
    at REAL NOT NULL
);
"""


class LogEntry(BaseModel):
    """One line of a room's log. `kind` is "action" (payload = the action) or "undo"
    (payload = {"count": n})."""

    seq: int
    kind: Literal["action", "undo"]
    payload: dict[str, Any]
    #: how it reached the room (companion.room.Channel)
    channel: Literal["seat", "host", "pass"]
    key: str | None = None
    at: float


class RoomRecord(BaseModel):
    id: str
    game: str
    setup: dict[str, Any]
    seed: int
    created: float
    #: how the room's log reads (companion.room.apply_logged): 1 = completing a phase revealed at once
    format_version: int = 1


class SeatRecord(BaseModel):
    seat: int
    #: the secret of the seat's link (its QR code): presenting it claims a seat no device holds
    token: str
    claimed: bool
    #: the fingerprint of the device that claimed the seat (None: no device holds it yet)
    device: str | None = None


class TableLink(BaseModel):
    """A room's table QR code and what followed it: the per-room secret of its free-seat page
    (/table/<room>/<secret>), whether that page is on (a setup option), the seats played on the
    tablet (never offered there), and the room "Play again" made from this one."""

    secret: str
    free_seats: bool = True
    pass_seats: tuple[int, ...] = ()
    next_room: str | None = None


class Store:
    """Blocking SQLite access. One connection, used from one thread at a time."""

    def __init__(self, path: Path | str):
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.executescript(SCHEMA)
        self._lock = threading.Lock()

    # -- durability settings, read back from the live connection (tests assert them) --

    def pragmas(self) -> dict[str, Any]:
        journal = self.db.execute("PRAGMA journal_mode").fetchone()[0]
        synchronous = self.db.execute("PRAGMA synchronous").fetchone()[0]
        return {"journal_mode": journal, "synchronous": synchronous}

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, under the lock: all of it commits, or none of it."""
        with self._lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise

    def _write(self, sql: str, args: tuple[Any, ...]) -> None:
        with self._transaction() as db:
            db.execute(sql, args)

    @staticmethod
    def _insert_room(db: sqlite3.Connection, room: RoomRecord) -> None:
        db.execute(
            "INSERT INTO rooms(id, game, setup, seed, created) VALUES (?,?,?,?,?)",
            (room.id, room.game, json.dumps(room.setup), room.seed, room.created),
        )
        db.execute("INSERT INTO log_formats(room_id, version) VALUES (?,?)", (room.id, room.format_version))

    # -- host --

    def host_token(self) -> str:
        row = self.db.execute("SELECT value FROM meta WHERE key='host_token'").fetchone()
        if row:
            return str(row[0])
        token = secrets.token_urlsafe(16)
        self._write("INSERT INTO meta(key, value) VALUES ('host_token', ?)", (token,))
        return token

    # -- rooms --

    def create_room(self, room: RoomRecord, seats: list[SeatRecord], link: TableLink | None = None) -> None:
        with self._transaction() as db:
            self._insert_room(db, room)
            db.executemany(
                "INSERT INTO seats(room_id, seat, token, claimed) VALUES (?,?,?,?)",
                [(room.id, s.seat, s.token, int(s.claimed)) for s in seats],
            )
            db.executemany(
                "INSERT INTO seat_devices(room_id, seat, device) VALUES (?,?,?)",
                [(room.id, s.seat, s.device) for s in seats if s.device is not None],
            )
            if link is not None:
                self._put_link(db, room.id, link)

    @staticmethod
    def _put_link(db: sqlite3.Connection, room_id: str, link: TableLink) -> None:
        db.execute(
            "INSERT OR REPLACE INTO table_links(room_id, secret, free_seats, pass_seats, next_room) VALUES (?,?,?,?,?)",
            (room_id, link.secret, int(link.free_seats), json.dumps(list(link.pass_seats)), link.next_room),
        )

    def table_link(self, room_id: str) -> TableLink | None:
        row = self.db.execute(
            "SELECT secret, free_seats, pass_seats, next_room FROM table_links WHERE room_id=?", (room_id,)
        ).fetchone()
        if row is None:
            return None
        return TableLink(secret=row[0], free_seats=bool(row[1]), pass_seats=tuple(json.loads(row[2])), next_room=row[3])

    def set_table_link(self, room_id: str, link: TableLink) -> None:
        with self._transaction() as db:
            self._put_link(db, room_id, link)

    def rooms(self) -> list[RoomRecord]:
        rows = self.db.execute(
            "SELECT id, game, setup, seed, created, COALESCE(version, 1) FROM rooms"
            " LEFT JOIN log_formats ON log_formats.room_id = rooms.id ORDER BY created"
        ).fetchall()
        return [
            RoomRecord(id=r[0], game=r[1], setup=json.loads(r[2]), seed=r[3], created=r[4], format_version=r[5]) for r in rows
        ]

    def seats(self, room_id: str) -> list[SeatRecord]:
        rows = self.db.execute(
            "SELECT seats.seat, token, claimed, device FROM seats LEFT JOIN seat_devices"
            " ON seat_devices.room_id = seats.room_id AND seat_devices.seat = seats.seat"
            " WHERE seats.room_id=? ORDER BY seats.seat",
            (room_id,),
        ).fetchall()
        return [SeatRecord(seat=r[0], token=r[1], claimed=bool(r[2]), device=r[3]) for r in rows]

    def set_seat(self, room_id: str, seat: SeatRecord) -> None:
        """The seat's link, whether it is claimed and by which device: one transaction."""
        with self._transaction() as db:
            db.execute(
                "UPDATE seats SET token=?, claimed=? WHERE room_id=? AND seat=?",
                (seat.token, int(seat.claimed), room_id, seat.seat),
            )
            if seat.device is None:
                db.execute("DELETE FROM seat_devices WHERE room_id=? AND seat=?", (room_id, seat.seat))
            else:
                db.execute(
                    "INSERT OR REPLACE INTO seat_devices(room_id, seat, device) VALUES (?,?,?)",
                    (room_id, seat.seat, seat.device),
                )

    # -- log --

    def append(self, room_id: str, entry: LogEntry) -> None:
        self._write(
            "INSERT INTO log(room_id, seq, kind, payload, channel, key, at) VALUES (?,?,?,?,?,?,?)",
            (room_id, entry.seq, entry.kind, json.dumps(entry.payload), entry.channel, entry.key, entry.at),
        )

    def log(self, room_id: str) -> list[LogEntry]:
        rows = self.db.execute(
            "SELECT seq, kind, payload, channel, key, at FROM log WHERE room_id=? ORDER BY seq", (room_id,)
        ).fetchall()
        return [
            LogEntry(seq=r[0], kind=r[1], payload=json.loads(r[2]), channel=r[3], key=r[4], at=r[5]) for r in rows
        ]

    # -- imported games (finished games read from an exported log: no seats, never played on) --

    def import_room(self, room: RoomRecord, entries: list[LogEntry], source_id: str, at: float) -> None:
        """The room, its whole log and its "imported" mark in one transaction: all or nothing."""
        with self._transaction() as db:
            self._insert_room(db, room)
            db.executemany(
                "INSERT INTO log(room_id, seq, kind, payload, channel, key, at) VALUES (?,?,?,?,?,?,?)",
                [(room.id, e.seq, e.kind, json.dumps(e.payload), e.channel, None, e.at) for e in entries],
            )
            db.execute("INSERT INTO imported(room_id, source_id, at) VALUES (?,?,?)", (room.id, source_id, at))

    def imported(self) -> dict[str, tuple[str, float]]:
        """{room id: (the room's id on the host it came from, when it was imported)}"""
        rows = self.db.execute("SELECT room_id, source_id, at FROM imported").fetchall()
        return {r[0]: (r[1], r[2]) for r in rows}

    def close(self) -> None:
        self.db.close()


class AsyncStore:
    """Runs every Store call on one dedicated writer thread, off the event loop."""

    def __init__(self, store: Store):
        self.store = store
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="store")

    async def call(self, method: str, *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, lambda: getattr(self.store, method)(*args))

    def close(self) -> None:
        self._executor.shutdown(wait=True)
        self.store.close()


def now() -> float:
    return time.time()
