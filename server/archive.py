"""The game archive: every online game that ended, kept in SQLite with the ratings it moved.

A game goes in whole, in one transaction with its players' rating changes, or not at all:
a server stopped at any moment (even by SIGKILL) leaves either the whole record or none.
Each game is kept as its record (:mod:`sixtui.rules.records`), ready to be replayed or
copied, beside the columns a player's page and the leaderboards read.

A game is rated when it finished (not aborted), every seat is held by a person with an SSH
key (no guest, no computer) and it was not played as casual. The file's schema has a
version (:data:`SCHEMA_VERSION`); an older file is brought forward at opening, and a file
of a newer sixtui is refused rather than misread.

>>> from sixtui.rules import new_game
>>> archive = Archive(":memory:")
>>> game = new_game("connect6")
>>> for point in ["J10", "K10", "K11"]:
...     game.play(point)
>>> game.resign(1)
>>> seats = (SeatHolder("ann", "SHA256:a"), SeatHolder("bob", "SHA256:b"))
>>> kept = archive.add(Ended(game, seats, ended=1.0))
>>> [(change.name, change.before, change.after) for change in kept.changes]
[('ann', 1500, 1611), ('bob', 1500, 1389)]
>>> archive.rating("SHA256:a", "connect6").label
'1611?'
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from sixtui.rules import Game, new_game
from sixtui.rules.records import GameRecord
from sixtui.server.data_files import private_file
from sixtui.server.ratings import PROVISIONAL_GAMES, Rating, rate, variant
from sixtui.server.table_state import GUEST, SeatHolder

FILE_NAME = "games.sqlite3"
SCHEMA_VERSION = 2
BUSY_SECONDS = 5.0  # another process writing: wait this long before giving up
RETRY_SECONDS = 0.01  # between tries to set the journal while another process holds the file
Status = Literal["finished", "aborted"]

# Each step brings a file from the version before it to the next; never edit one that
# has shipped: add another.
# Each step's statements, separated by semicolons (none inside them).
MIGRATIONS = (
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        game TEXT NOT NULL,
        variant TEXT NOT NULL,
        options TEXT NOT NULL,
        rated INTEGER NOT NULL,
        status TEXT NOT NULL,
        winner INTEGER,
        reason TEXT,
        moves INTEGER NOT NULL,
        started REAL,
        ended REAL NOT NULL,
        record TEXT NOT NULL
    );
    CREATE TABLE seats (
        game_id INTEGER NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        name TEXT NOT NULL,
        identity TEXT,
        level TEXT,
        rating_before INTEGER,
        rating_after INTEGER,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX seats_by_identity ON seats (identity, game_id);
    CREATE INDEX seats_by_name ON seats (name COLLATE NOCASE, game_id);
    CREATE TABLE ratings (
        identity TEXT NOT NULL,
        variant TEXT NOT NULL,
        name TEXT NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        games INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        losses INTEGER NOT NULL,
        draws INTEGER NOT NULL,
        PRIMARY KEY (identity, variant)
    );
    CREATE INDEX ratings_by_variant ON ratings (variant, mu DESC);
    """,
    # Where each game came from (its entry in the hub's queue of games that ended), so
    # that a game written by a process killed before it could say so is not written twice.
    """
    ALTER TABLE games ADD COLUMN origin TEXT;
    CREATE UNIQUE INDEX games_by_origin ON games (origin);
    """,
)


class ArchiveFileError(Exception):
    """The archive file cannot be opened, or is not one this sixtui can read."""


class AlreadyArchived(ValueError):
    """A game whose origin the archive holds already: it was written once, and is not
    written again."""


@dataclass(frozen=True)
class Ended:
    """A game as it ended at a table: the game (finished, or cut short when ``status`` is
    ``aborted``), who held each seat, when it began and ended (wall-clock seconds), the
    seconds each move took where known, whether it was played unrated by choice, the
    record's other headers, and the table's id."""

    game: Game
    seats: tuple[SeatHolder, ...]
    ended: float
    started: float | None = None
    status: Status = "finished"
    casual: bool = False
    times: Sequence[float | None] = ()
    headers: dict[str, str] = field(default_factory=dict)
    table: str = ""  # the table it was played at, if any
    origin: str | None = None  # what made it, never the same for two games; None: unknown

    @property
    def rated(self) -> bool:
        """Finished between players with SSH keys, not casual, and both sides played a
        turn: a game resigned or drawn before then moves no rating (as lichess aborts)."""
        return (
            self.status == "finished"
            and not self.casual
            and self.game.result is not None
            and all(seat.keyed for seat in self.seats)
            and both_sides_moved(self.game)
        )


@dataclass(frozen=True)
class Standing:
    """A player's rating at one kind of game, and their rated results there."""

    variant: str
    rating: Rating
    wins: int
    losses: int
    draws: int


@dataclass(frozen=True)
class Played:
    """One game on a player's page, as their seat saw it: the other side's names, the
    result for them, and their rating before and after when it was rated."""

    id: int
    variant: str
    ended: float
    status: str
    winner: int | None
    reason: str | None
    rated: int
    seat: int
    before: int | None
    after: int | None
    opponents: str

    @property
    def outcome(self) -> str:
        """``won``, ``lost``, ``drawn`` or ``aborted``, for the player."""
        if self.status == "aborted":
            return "aborted"
        if self.winner is None:
            return "drawn"
        return "won" if self.winner == self.seat % 2 else "lost"


@dataclass(frozen=True)
class Change:
    """One player's rating moved by a game, as shown (1500 scale)."""

    name: str
    identity: str
    before: int
    after: int


@dataclass(frozen=True)
class Archived:
    """A game as the archive keeps it: its number there and the ratings it moved."""

    id: int
    changes: tuple[Change, ...] = ()


def _write_ahead(db: sqlite3.Connection) -> None:
    """Sets ``db``'s journal to write-ahead logging. While another process holds the file
    for writing (making the schema of a new archive, as server processes starting together
    do), SQLite answers "locked" at once rather than waiting its busy timeout: this tries
    again until :data:`BUSY_SECONDS` have passed."""
    deadline = time.monotonic() + BUSY_SECONDS
    while True:
        try:
            db.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as why:
            if why.sqlite_errorcode != sqlite3.SQLITE_BUSY or time.monotonic() > deadline:
                raise
            time.sleep(RETRY_SECONDS)


class Archive:
    """The archive in the SQLite file at ``path`` (``":memory:"`` for one that lasts as
    long as the object)."""

    def __init__(self, path: Path | str) -> None:
        self._written = 0  # games this object has written
        try:
            self._db = sqlite3.connect(path, isolation_level=None, timeout=BUSY_SECONDS)
            _write_ahead(self._db)
            self._db.execute("PRAGMA foreign_keys=ON")
            self._migrate()
        except sqlite3.Error as why:
            raise ArchiveFileError(f"{path} cannot be used for the game archive: {why}") from None

    def close(self) -> None:
        self._db.close()

    @property
    def changes(self) -> tuple[int, int]:
        """Changes when the archive does, whoever wrote to it (this object, or another
        process on the same file): what was read before a change may be old."""
        others = self._db.execute("PRAGMA data_version").fetchone()[0]  # their commits
        return self._written, int(others)

    def _migrate(self) -> None:
        """Brings the schema up to date a step at a time, each step with its new version in
        one transaction. The version is read again once the file is locked for writing, so
        that of several server processes opening a new archive at once, one makes each step
        and the others find it made."""
        while (version := self._version()) < SCHEMA_VERSION:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                number = self._version()
                if number < SCHEMA_VERSION:
                    for statement in MIGRATIONS[number].split(";"):
                        if statement.strip():
                            self._db.execute(statement)
                    self._db.execute(f"PRAGMA user_version = {number + 1}")
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise
        if version > SCHEMA_VERSION:
            raise ArchiveFileError(
                f"the game archive is of a newer sixtui (schema {version}, this one reads up"
                f" to {SCHEMA_VERSION})"
            )

    def _version(self) -> int:
        return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    # -- writing ---------------------------------------------------------------------

    def add(self, ended: Ended) -> Archived:
        """Keeps ``ended`` and, when it is rated, moves its players' ratings: all in one
        transaction; :class:`AlreadyArchived` (nothing written) if a game of the same
        origin is kept already."""
        game = ended.game
        kind = variant(game.name, game.options())
        rated = ended.rated
        record = GameRecord(
            game, tuple(seat.name for seat in ended.seats), dict(ended.headers), list(ended.times)
        )
        result = game.result
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            before = [self._rating(seat, kind) if rated else None for seat in ended.seats]
            after = _rated(game, before) if rated else before
            if self.holds(ended.origin):
                raise AlreadyArchived(f"the game {ended.origin} is archived already")
            cursor = db.execute(
                "INSERT INTO games (game, variant, options, rated, status, winner, reason,"
                " moves, started, ended, record, origin)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game.name,
                    kind,
                    json.dumps(game.options(), sort_keys=True),
                    int(rated),
                    ended.status,
                    None if result is None else result.winner,
                    None if result is None else result.reason,
                    len(game.history),
                    ended.started,
                    ended.ended,
                    str(record),
                    ended.origin,
                ),
            )
            game_id = cursor.lastrowid
            assert game_id is not None
            changes = []
            for number, seat in enumerate(ended.seats):
                old, new = before[number], after[number]
                db.execute(
                    "INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        game_id,
                        number,
                        seat.name,
                        seat.identity,
                        seat.level,
                        None if old is None else old.shown,
                        None if new is None else new.shown,
                    ),
                )
                if old is not None and new is not None and seat.identity is not None:
                    self._keep_rating(seat, kind, new, _outcome(game, number))
                    changes.append(Change(seat.name, seat.identity, old.shown, new.shown))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        self._written += 1
        return Archived(game_id, tuple(changes))

    def _rating(self, seat: SeatHolder, kind: str) -> Rating:
        return self.rating(seat.identity or "", kind)

    def _keep_rating(self, seat: SeatHolder, kind: str, rating: Rating, outcome: str) -> None:
        self._db.execute(
            "INSERT INTO ratings VALUES (?, ?, ?, ?, ?, ?, 0, 0, 0)"
            " ON CONFLICT (identity, variant) DO UPDATE SET"
            " name = excluded.name, mu = excluded.mu, sigma = excluded.sigma,"
            " games = excluded.games",
            (seat.identity, kind, seat.name, rating.mu, rating.sigma, rating.games),
        )
        self._db.execute(
            f"UPDATE ratings SET {outcome} = {outcome} + 1 WHERE identity = ? AND variant = ?",
            (seat.identity, kind),
        )

    # -- reading ---------------------------------------------------------------------

    def number_of_game(self, game: str) -> int | None:
        """The archive's number for the game ``TABLE/NUMBER`` (its table, and its number
        there), as its origin begins; ``None`` while it is not written."""
        prefix = game.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "/"
        found = self._db.execute(
            "SELECT id FROM games WHERE origin LIKE ? ESCAPE '\\' ORDER BY id DESC LIMIT 1",
            (prefix + "%",),
        ).fetchone()
        return None if found is None else int(found[0])

    def holds(self, origin: str | None) -> bool:
        """Whether a game of ``origin`` is kept (never, for an origin not known)."""
        if origin is None:
            return False
        found = self._db.execute("SELECT 1 FROM games WHERE origin = ?", (origin,)).fetchone()
        return found is not None

    def rating(self, identity: str, kind: str) -> Rating:
        """``identity``'s rating at ``kind`` of game (a newcomer's if none yet)."""
        row = self._db.execute(
            "SELECT mu, sigma, games FROM ratings WHERE identity = ? AND variant = ?",
            (identity, kind),
        ).fetchone()
        return Rating() if row is None else Rating(*row)

    def record(self, game_id: int) -> str | None:
        """The record of the archived game ``game_id``, if there is one."""
        row = self._db.execute("SELECT record FROM games WHERE id = ?", (game_id,)).fetchone()
        return None if row is None else str(row[0])

    def count(self) -> int:
        """How many games the archive holds."""
        return int(self._db.execute("SELECT count(*) FROM games").fetchone()[0])

    def player(self, name: str) -> tuple[str, str] | None:
        """The identity and name (as last written) of the player with an SSH key who last
        played as ``name`` (in any letter case), if any did."""
        row = self._db.execute(
            "SELECT identity, name FROM seats WHERE name = ? COLLATE NOCASE"
            " AND level IS NULL AND identity NOT LIKE ? ORDER BY game_id DESC LIMIT 1",
            (name, f"{GUEST}%"),
        ).fetchone()
        return None if row is None else (str(row[0]), str(row[1]))

    def standings(self, identity: str) -> list[Standing]:
        """``identity``'s rating at each kind of game they played rated, most played first."""
        rows = self._db.execute(
            "SELECT variant, mu, sigma, games, wins, losses, draws FROM ratings"
            " WHERE identity = ? ORDER BY games DESC, variant",
            (identity,),
        ).fetchall()
        return [Standing(row[0], Rating(*row[1:4]), *row[4:]) for row in rows]

    def recent(self, identity: str, limit: int = 10) -> list[Played]:
        """``identity``'s last ``limit`` games, newest first."""
        rows = self._db.execute(
            "SELECT g.id, g.variant, g.ended, g.status, g.winner, g.reason, g.rated,"
            " s.seat, s.rating_before, s.rating_after,"
            " (SELECT group_concat(o.name, ', ') FROM seats o"
            "   WHERE o.game_id = g.id AND o.seat % 2 != s.seat % 2)"
            " FROM seats s JOIN games g ON g.id = s.game_id"
            " WHERE s.identity = ? ORDER BY s.game_id DESC LIMIT ?",
            (identity, limit),
        ).fetchall()
        return [Played(*row) for row in rows]

    def top(self, kind: str, limit: int = 10) -> list[tuple[str, Rating]]:
        """The best rated players at ``kind`` of game whose rating is no longer
        provisional, best first, with their names as last written."""
        rows = self._db.execute(
            "SELECT name, mu, sigma, games FROM ratings WHERE variant = ? AND games >= ?"
            " ORDER BY mu DESC, name LIMIT ?",
            (kind, PROVISIONAL_GAMES, limit),
        ).fetchall()
        return [(str(name), Rating(mu, sigma, games)) for name, mu, sigma, games in rows]


def both_sides_moved(game: Game) -> bool:
    """Whether each team played at least one move of ``game``."""
    replay = new_game(game.name, **game.options())
    moved = set()
    for move in game.history:
        moved.add(replay.team(replay.to_move))
        if len(moved) == 2:
            return True
        replay.play(move)
    return False


def _rated(game: Game, before: list[Rating | None]) -> list[Rating | None]:
    """Each seat's rating after ``game``: partners (seats of one team) share its result."""
    result = game.result
    assert result is not None
    seats = range(game.players)
    teams = [[seat for seat in seats if game.team(seat) == team] for team in (0, 1)]
    ratings = [[before[seat] for seat in team] for team in teams]
    assert all(rating is not None for team in ratings for rating in team)
    rated = rate(ratings, result.winner)  # type: ignore[arg-type]
    after: list[Rating | None] = list(before)
    for team, new_team in zip(teams, rated, strict=True):
        for seat, rating in zip(team, new_team, strict=True):
            after[seat] = rating
    return after


def _outcome(game: Game, seat: int) -> str:
    result = game.result
    assert result is not None
    if result.winner is None:
        return "draws"
    return "wins" if game.team(seat) == result.winner else "losses"


def open_archive(folder: Path) -> Archive:
    """The archive kept in ``folder`` (made, private, if missing)."""
    return Archive(private_file(folder, FILE_NAME, ArchiveFileError))
