"""The server's host key: an ed25519 key made on first start and reused afterwards, so
that the fingerprint players' SSH clients remember stays valid."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import asyncssh

from sixtui.server.settings import SettingError


def load_or_create_host_key(path: Path) -> asyncssh.SSHKey:
    """The private key in ``path``, made there (mode 0600) if there is none yet.

    Raises :class:`SettingError` (naming the ``host_key`` setting) when the file cannot
    be used: not a private key, or readable by other users.
    """
    if not path.exists():
        try:
            _create(path)
        except OSError as why:
            raise SettingError(f"host_key: {path} cannot be made: {why.strerror or why}") from None
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        raise SettingError(
            f"host_key: {path} can be read by other users (mode {mode:04o}); run chmod 600 {path}"
        )
    try:
        return asyncssh.read_private_key(path)
    except (OSError, ValueError, asyncssh.KeyImportError) as why:
        raise SettingError(f"host_key: {path} is not a usable private key: {why}") from None


def _create(path: Path) -> None:
    """Writes a new ed25519 key to ``path`` with mode 0600, all or nothing."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    data = asyncssh.generate_private_key("ssh-ed25519").export_private_key()
    partial = path.with_name(f".{path.name}.{os.getpid()}.new")
    descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(partial, path)  # a crash never leaves half a key behind
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
