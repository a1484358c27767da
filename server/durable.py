"""The records that outlive every server process, behind two small interfaces: which SSH
key owns which name (:class:`NameRecords`), and the archive of games that ended with the
ratings they moved (:class:`GameRecords`). Nothing else of the server touches where they
are kept.

Today both are SQLite files in the data folder (:class:`~sixtui.server.names.NameBook`,
:class:`~sixtui.server.archive.Archive`): the processes of one host share them (WAL, and
a busy timeout for writers). Hosts cannot share a SQLite file; for several hosts a
networked database such as PostgreSQL would implement these same two interfaces
(``docs/operations.md``, "Several hosts"), and ``tests/test_durable_contract.py`` states
what any implementation must do.

The calls are plain functions, not coroutines: they run on the event loop, so each must
answer in well under a millisecond, as SQLite on a local disk does. A networked database
would make them coroutines, or answer from a copy kept close.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as folder:
...     names, games = open_durable(Path(folder))
...     print(names.claim("ann", "SHA256:a"), games.count())
...     names.close(), games.close()
None 0
(None, None)
"""

from __future__ import annotations

from collections.abc import Hashable
from pathlib import Path
from typing import Protocol

from sixtui.server.archive import Archived, Ended, Played, Standing, open_archive
from sixtui.server.names import open_name_book
from sixtui.server.ratings import Rating


class NameRecords(Protocol):
    """Which key owns which name; names are told apart without regard to case."""

    def claim(self, name: str, fingerprint: str) -> str | None:
        """Binds ``name`` to the key ``fingerprint`` unless another key has it: why the
        name cannot be had, in plain words, or ``None`` when it is (or already was) this
        key's. Two processes claiming one name at once: one has it."""
        ...

    def close(self) -> None: ...


class GameRecords(Protocol):
    """Every game that ended, each with its seats and record, and the ratings."""

    @property
    def changes(self) -> Hashable:
        """Differs after any game is added, by this process or another: what was read
        before may be old."""
        ...

    def add(self, ended: Ended) -> Archived:
        """Keeps ``ended`` and moves its players' ratings when it is rated, all or
        nothing; :class:`~sixtui.server.archive.AlreadyArchived` (nothing written) for a
        game of an origin kept already, whichever process kept it."""
        ...

    def holds(self, origin: str | None) -> bool:
        """Whether a game of ``origin`` is kept (never for ``None``)."""
        ...

    def count(self) -> int:
        """How many games are kept."""
        ...

    def number_of_game(self, game: str) -> int | None:
        """The number kept for the game ``TABLE/NUMBER``, if written."""
        ...

    def record(self, game_id: int) -> str | None:
        """The record of game ``game_id``, to replay or copy, if there is one."""
        ...

    def rating(self, identity: str, kind: str) -> Rating:
        """``identity``'s rating at ``kind`` of game (a newcomer's if none yet)."""
        ...

    def player(self, name: str) -> tuple[str, str] | None:
        """The identity and name (as last written) of the player with a key who last
        played as ``name`` (in any letter case)."""
        ...

    def standings(self, identity: str) -> list[Standing]:
        """``identity``'s rating and results at each kind of game, most played first."""
        ...

    def recent(self, identity: str, limit: int = 10) -> list[Played]:
        """``identity``'s last ``limit`` games, newest first."""
        ...

    def top(self, kind: str, limit: int = 10) -> list[tuple[str, Rating]]:
        """The best players at ``kind`` of game, past their provisional games."""
        ...

    def close(self) -> None: ...


def open_durable(folder: Path) -> tuple[NameRecords, GameRecords]:
    """The names and the games kept in the data folder ``folder`` (made, private, if
    missing); :class:`~sixtui.server.names.NamesFileError` or
    :class:`~sixtui.server.archive.ArchiveFileError` if they cannot be used."""
    names = open_name_book(folder)
    try:
        return names, open_archive(folder)
    except BaseException:
        names.close()
        raise
