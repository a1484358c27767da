"""The SQLite files of the data folder (player names, the game archive): made private to
the server's user, and refused when others may read them."""

from __future__ import annotations

import os
import stat
from pathlib import Path

JOURNAL_ENDINGS = ("-wal", "-shm", "-journal")  # the files SQLite keeps beside one


def private_file(folder: Path, name: str, error: type[Exception]) -> Path:
    """The path of ``name`` in ``folder``, both made if missing, readable by the server's
    user alone; ``error`` saying why when it cannot be made or others may read it."""
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as why:
        raise error(f"{folder} cannot be made: {why.strerror or why}") from None
    path = folder / name
    try:
        # Made private before SQLite opens it: its journal files take the same mode.
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
    except OSError as why:
        raise error(f"{path} cannot be made: {why.strerror or why}") from None
    _refuse_if_readable_by_others(path, error)
    return path


def _refuse_if_readable_by_others(path: Path, error: type[Exception]) -> None:
    """A file (or a journal file of it, left by a stop) that other users may read or write
    is refused, as the host key is: its mode was chosen by someone, so it is not changed
    behind their back."""
    for each in (path, *(path.with_name(path.name + end) for end in JOURNAL_ENDINGS)):
        try:
            mode = stat.S_IMODE(each.stat().st_mode)
        except FileNotFoundError:
            continue
        if mode & 0o077:
            raise error(
                f"{each} can be read by other users (mode {mode:04o}); run chmod 600 {each}"
            )
