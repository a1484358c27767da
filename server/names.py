"""Player names, each bound to the first SSH key that used it, kept in SQLite so that
they survive restarts.

>>> book = NameBook(":memory:")
>>> book.claim("alice", "SHA256:one") is None
True
>>> book.claim("Alice", "SHA256:two")
'the name Alice belongs to another player (another SSH key)'
>>> book.claim("alice", "SHA256:one") is None
True
"""

from __future__ import annotations

import re
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from sixtui.server.data_files import private_file

FILE_NAME = "names.sqlite3"
LONGEST = 20
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9._-]*")
GUEST_PREFIX = "guest"


class NamesFileError(Exception):
    """The names file cannot be opened or is not sixtui's."""


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be anyone's name, or None if it can.

    >>> name_problem("bob") is None
    True
    >>> name_problem("guest-12")
    'names starting with guest are for players without a key'
    >>> print(name_problem("zoë"))  # doctest: +ELLIPSIS
    a name starts with a letter and has only the letters a to z (no accents), digits, ...
    """
    if not 2 <= len(name) <= LONGEST:
        return f"a name has 2 to {LONGEST} characters"
    if not _NAME.fullmatch(name):
        # Letters of every script would let a name pass for another that looks the same
        # (a Cyrillic а for a Latin a), and be hard to type in a challenge.
        return (
            "a name starts with a letter and has only the letters a to z (no accents),"
            " digits, '.', '-' and '_'"
        )
    if name.lower().startswith(GUEST_PREFIX):
        return "names starting with guest are for players without a key"
    return None


def open_name_book(folder: Path) -> NameBook:
    """The names kept in ``folder`` (made, private, if missing)."""
    return NameBook(private_file(folder, FILE_NAME, NamesFileError))


class NameBook:
    """Which key owns which name. Names are told apart without regard to case."""

    def __init__(self, path: Path | str) -> None:
        try:
            self._db = sqlite3.connect(path, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS names ("
                " folded TEXT PRIMARY KEY,"  # the name in lower case
                " name TEXT NOT NULL,"
                " fingerprint TEXT NOT NULL,"
                " bound_at TEXT NOT NULL)"
            )
            self._db.execute("SELECT folded, name, fingerprint, bound_at FROM names LIMIT 1")
        except sqlite3.Error as why:
            raise NamesFileError(f"{path} cannot be used for player names: {why}") from None

    def close(self) -> None:
        self._db.close()

    def owner(self, name: str) -> str | None:
        """The fingerprint of the key that owns ``name``, if any does."""
        row = self._db.execute(
            "SELECT fingerprint FROM names WHERE folded = ?", (name.lower(),)
        ).fetchone()
        return row[0] if row else None

    def claim(self, name: str, fingerprint: str) -> str | None:
        """Binds ``name`` to the key ``fingerprint`` unless another key has it.

        Returns why the name cannot be had, or None when it is now (or already was)
        this key's.
        """
        problem = name_problem(name)
        if problem is not None:
            return problem
        try:
            return self._bind(name, fingerprint)
        except sqlite3.Error:
            return "names cannot be looked up right now: try again in a while"

    def _bind(self, name: str, fingerprint: str) -> str | None:
        owner = self.owner(name)
        if owner is None:
            try:
                self._db.execute(
                    "INSERT INTO names VALUES (?, ?, ?, ?)",
                    (name.lower(), name, fingerprint, datetime.now(UTC).isoformat()),
                )
                return None
            except sqlite3.IntegrityError:  # bound a moment ago by another connection
                owner = self.owner(name)
        if owner == fingerprint:
            return None
        return f"the name {name} belongs to another player (another SSH key)"
