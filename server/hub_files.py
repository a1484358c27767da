"""The memory hub kept on disk: a snapshot of all of it, and a journal of every change since.

:class:`JournaledHub` is a :class:`~sixtui.server.hub.MemoryHub` that appends each change
it makes to ``hub.journal`` in the data folder before the call returns, so that a server
killed at any moment (``kill -9``) loses no change a player was told of. Now and then, and
as the server stops, the whole hub is written to ``hub.snapshot`` (to a temporary file,
then renamed) and the journal starts over. :func:`open_hub` reads both back at start.

A journal record is 4 bytes of length and 4 of CRC-32 (both big-endian), then msgpack:
``[sequence, wall-clock time, effect, *arguments]``. Effects are absolute (the value a key
now has, not the call that set it), so replaying one twice changes nothing, and the
snapshot names the last sequence it holds, so the records it already holds are skipped.

Damage never stops a start: a snapshot that cannot be read is set aside under a name of
its own (``hub.snapshot.damaged-…``) and the journal replayed alone; a journal read up to
a record that is cut short or does not match its CRC keeps what came before it, and the
rest is set aside (``hub.journal.damaged-…``). Each is said in the log with its name.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import struct
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import msgpack

from sixtui.server.hub import MemoryHub, QueueEntry, Versioned, _Waiting

log = logging.getLogger(__name__)

SNAPSHOT = "hub.snapshot"
JOURNAL = "hub.journal"
FORMAT = 1
HEADER = struct.Struct(">II")  # a record's length and CRC-32
COMPACT_AT = 16 * 1024 * 1024  # journal bytes after which the hub is written whole
BATCH_SECONDS = 0.2  # how long "batch" keeps changes before writing them
Sync = Literal["write", "fsync", "batch", "off"]
SYNCS: tuple[Sync, ...] = ("write", "fsync", "batch", "off")


class JournalError(ValueError):
    """The journal or snapshot could not be written (the data folder is full, say)."""


@dataclass
class Restored:
    """What :func:`open_hub` found: when the hub last changed or was written (wall clock;
    ``None`` if nothing was on disk), how many journal records it replayed, and the damaged
    files it set aside."""

    stopped_at: float | None = None
    replayed: int = 0
    set_aside: list[Path] = field(default_factory=list)


class JournaledHub(MemoryHub):
    """A memory hub whose every change is appended to the journal in ``folder``.

    ``sync`` says how: ``"write"`` hands each change to the operating system before the
    call returns (a killed server loses nothing; a machine that loses power may lose what
    the system had not yet put on the disk), ``"fsync"`` waits for the disk too (nothing
    lost even then: each call waits for a flush of the disk, which the changes made
    meanwhile share), ``"batch"`` writes the changes of
    :data:`BATCH_SECONDS` together (a killed server may lose that much). ``clock`` is the
    wall clock the records are stamped with.
    """

    def __init__(
        self,
        folder: Path,
        sync: Sync = "write",
        clock: Callable[[], float] = time.time,
        compact_at: int = COMPACT_AT,
    ) -> None:
        super().__init__()
        self.folder = folder
        self._sync = sync
        self._clock = clock
        self._compact_at = compact_at
        self._sequence = 0
        self._journal_fd: int | None = None
        self._journal_bytes = 0
        self._pending: list[bytes] = []
        self._failing = False  # the last write failed (said once in the log)
        self._replaying = False
        self._flushed = 0  # with "fsync": the last record known to be on the disk
        self._flushing: asyncio.Future[None] | None = None

    # -- the changes, journaled --------------------------------------------------------

    async def compare_and_set(self, key: str, version: int, value: bytes) -> int | None:
        stored = await super().compare_and_set(key, version, value)
        if stored is not None:
            self._record("set", key, stored, bytes(value))
            await self._durable()
        return stored

    async def delete(self, key: str, version: int) -> bool:
        deleted = await super().delete(key, version)
        if deleted:
            self._record("del", key)
            await self._durable()
        return deleted

    async def map_set(self, name: str, field: str, value: bytes) -> None:
        await super().map_set(name, field, value)
        self._record("mset", name, field, bytes(value))
        await self._durable()

    async def map_delete(self, name: str, field: str) -> bool:
        deleted = await super().map_delete(name, field)
        if deleted:
            self._record("mdel", name, field)
            await self._durable()
        return deleted

    async def queue_join(self, queue: str, member: str, value: bytes, waited: float = 0.0) -> bool:
        joined = await super().queue_join(queue, member, value, waited)
        if joined:
            self._record("qjoin", queue, member, bytes(value), self._clock() - max(0.0, waited))
            await self._durable()
        return joined

    async def queue_leave(self, queue: str, member: str) -> bool:
        left = await super().queue_leave(queue, member)
        await self._durable()
        return left

    async def queue_take(self, queue: str, count: int) -> list[QueueEntry]:
        taken = await super().queue_take(queue, count)
        await self._durable()
        return taken

    async def queue_take_members(self, queue: str, members: list[str]) -> list[QueueEntry]:
        taken = await super().queue_take_members(queue, members)
        await self._durable()
        return taken

    def _take(self, queue: str, members: list[str]) -> list[QueueEntry]:
        taken = super()._take(queue, members)
        if taken:
            self._record("qtake", queue, [entry.member for entry in taken])
        return taken

    async def next_number(self, name: str) -> int:
        number = await super().next_number(name)
        self._record("num", name, number)
        await self._durable()
        return number

    async def _durable(self) -> None:
        """With ``"fsync"``, returns once every change written so far is on the disk. The
        disk is flushed in a thread, one flush for all the changes written before it
        began (a group commit): the event loop goes on meanwhile, and many changes at
        once cost one flush, not one each."""
        if self._sync != "fsync":
            return
        wanted = self._sequence
        while self._flushed < wanted and self._sync == "fsync":
            if self._flushing is None:
                self._flushing = asyncio.ensure_future(self._flush_to_disk())
            await asyncio.shield(self._flushing)

    async def _flush_to_disk(self) -> None:
        covered = self._sequence  # every record up to here is written: the flush covers it
        try:
            if self._journal_fd is not None:
                await asyncio.get_running_loop().run_in_executor(None, os.fsync, self._journal_fd)
        except OSError as why:  # closed by a snapshot meanwhile, which flushed it; or a fault
            if why.errno != errno.EBADF:
                log.error("the hub's journal cannot be flushed to the disk: %s", why.strerror)
        finally:
            self._flushed = max(self._flushed, covered)
            self._flushing = None

    # -- the journal ---------------------------------------------------------------------

    def _record(self, effect: str, *arguments: Any) -> None:
        if self._replaying or self._sync == "off":
            return
        self._sequence += 1
        payload = msgpack.packb([self._sequence, self._clock(), effect, *arguments])
        record = HEADER.pack(len(payload), zlib.crc32(payload)) + payload
        if self._sync == "batch":
            if not self._pending:
                asyncio.get_running_loop().call_later(BATCH_SECONDS, self.flush)
            self._pending.append(record)
        else:
            self._write(record)
        if self._journal_bytes >= self._compact_at:
            self._compact()

    def _compact(self) -> None:
        try:
            self.write_snapshot()
        except JournalError as why:
            log.error("the hub's snapshot cannot be written (%s): the journal goes on", why)
            self._journal_bytes = 0  # tried again after as many bytes more

    def flush(self) -> None:
        """Writes the changes a ``"batch"`` journal keeps (every change is written at once
        otherwise)."""
        pending, self._pending = self._pending, []
        if pending:
            self._write(b"".join(pending))

    def _write(self, data: bytes) -> None:
        """Appends ``data`` to the journal. A journal that cannot be written (a full disk)
        is said in the log, once until it can be again, and play goes on without it: the
        players keep their games, the server loses its memory of them if it stops."""
        try:
            if self._journal_fd is None:
                self._journal_fd = os.open(
                    self.folder / JOURNAL, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600
                )
            os.write(self._journal_fd, data)
        except OSError as why:
            if not self._failing:
                log.error("the hub's journal cannot be written: %s", why.strerror or why)
            self._failing = True
            return
        if self._failing:
            log.warning("the hub's journal is written again")
        self._failing = False
        self._journal_bytes += len(data)

    # -- the snapshot --------------------------------------------------------------------

    def write_snapshot(self) -> None:
        """Writes the whole hub to the snapshot (a temporary file, flushed, then renamed
        over the last one) and starts the journal over."""
        if self._sync == "off":
            return
        self.flush()
        data = msgpack.packb(self._whole())
        path = self.folder / SNAPSHOT
        temporary = path.with_name(f"{SNAPSHOT}.writing")
        try:
            with open(temporary, "wb") as file:
                os.fchmod(file.fileno(), 0o600)
                file.write(HEADER.pack(len(data), zlib.crc32(data)) + data)
                file.flush()
                os.fsync(file.fileno())
            os.replace(temporary, path)
            _sync_folder(self.folder)
            if self._journal_fd is not None:
                os.close(self._journal_fd)
                self._journal_fd = None
            (self.folder / JOURNAL).unlink(missing_ok=True)
        except OSError as why:
            raise JournalError(f"{path}: {why.strerror or why}") from None
        self._journal_bytes = 0

    def _whole(self) -> dict[str, Any]:
        now, wall = time.monotonic(), self._clock()
        return {
            "format": FORMAT,
            "sequence": self._sequence,
            "written": wall,
            "values": {key: [v.version, v.value] for key, v in self._values.items()},
            "maps": self._maps,
            "queues": {
                queue: [[member, w.value, wall - (now - w.since)] for member, w in members.items()]
                for queue, members in self._queues.items()
            },
            "numbers": self._numbers,
        }

    def seal(self) -> None:
        """Writes the snapshot and stops keeping the hub: what changes after (the sessions
        of a stopping server leaving their tables) is not kept, so the server starts again
        from the moment its stop began."""
        self._compact()
        self._sync = "off"
        if self._journal_fd is not None:
            os.close(self._journal_fd)
            self._journal_fd = None

    @property
    def keeps_state(self) -> bool:
        return self._sync != "off"

    async def close(self) -> None:
        """Writes the snapshot (unless sealed), then closes as the memory hub does."""
        await super().close()
        self.seal()

    # -- reading back --------------------------------------------------------------------

    def restore(self) -> Restored:
        """Reads the snapshot and the journal in :attr:`folder` into this hub (see the
        module docstring for what damage does), then writes a fresh snapshot. Nothing is
        read or written with ``sync`` ``"off"``."""
        restored = Restored()
        if self._sync == "off":
            return restored
        self._replaying = True
        try:
            self._restore_snapshot(restored)
            self._replay_journal(restored)
        finally:
            self._replaying = False
        self.write_snapshot()
        return restored

    def _restore_snapshot(self, restored: Restored) -> None:
        path = self.folder / SNAPSHOT
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return
        try:
            payload = _framed_at(data, 0)
            if len(payload) + HEADER.size != len(data):
                raise ValueError("bytes after its end")
            whole = msgpack.unpackb(payload, strict_map_key=True)
            if not isinstance(whole, dict) or whole.get("format") != FORMAT:
                raise ValueError("not a snapshot of this format")
            self._load_whole(whole)
        except (ValueError, TypeError, KeyError, msgpack.UnpackException) as why:
            self._forget_all()
            aside = _set_aside(path)
            restored.set_aside.append(aside)
            said = "the hub's snapshot %s cannot be read (%s): set aside as %s"
            log.error(said, path, why, aside)
            return
        restored.stopped_at = float(whole["written"])

    def _forget_all(self) -> None:
        self._values, self._maps, self._queues, self._numbers = {}, {}, {}, {}
        self._sequence = 0

    def _load_whole(self, whole: dict[str, Any]) -> None:
        now, wall = time.monotonic(), self._clock()
        self._sequence = int(whole["sequence"])
        self._values = {k: Versioned(int(v), bytes(b)) for k, (v, b) in whole["values"].items()}
        self._maps = {
            name: {str(f): bytes(v) for f, v in fields.items()}
            for name, fields in whole["maps"].items()
        }
        self._queues = {
            queue: {
                str(member): _Waiting(bytes(value), now - (wall - float(since)), next(self._joins))
                for member, value, since in members
            }
            for queue, members in whole["queues"].items()
        }
        self._numbers = {str(name): int(number) for name, number in whole["numbers"].items()}

    def _replay_journal(self, restored: Restored) -> None:
        path = self.folder / JOURNAL
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return
        at = 0
        while at < len(data):
            try:
                payload = _framed_at(data, at)
                sequence, when, effect, *arguments = msgpack.unpackb(payload)
                if sequence > self._sequence:
                    self._apply(effect, arguments, float(when))
                    self._sequence = sequence
                    restored.replayed += 1
                restored.stopped_at = max(restored.stopped_at or 0.0, float(when))
            except (ValueError, TypeError, KeyError, msgpack.UnpackException) as why:
                aside = _aside_name(path)
                aside.write_bytes(data[at:])
                restored.set_aside.append(aside)
                log.error(
                    "the hub's journal %s is damaged at byte %d of %d (%s): kept the %d "
                    "changes before it, set the rest aside as %s",
                    path, at, len(data), why, restored.replayed, aside,
                )  # fmt: skip
                return
            at += HEADER.size + len(payload)

    def _apply(self, effect: str, arguments: list[Any], when: float) -> None:
        """Replays one journaled effect: the same change the call made, made again."""
        if effect == "set":
            key, version, value = arguments
            self._values[key] = Versioned(int(version), bytes(value))
        elif effect == "del":
            self._values.pop(arguments[0], None)
        elif effect == "mset":
            name, field_name, value = arguments
            self._maps.setdefault(name, {})[field_name] = bytes(value)
        elif effect == "mdel":
            name, field_name = arguments
            self._maps.get(name, {}).pop(field_name, None)
            if not self._maps.get(name, True):
                del self._maps[name]
        elif effect == "qjoin":
            queue, member, value, since = arguments
            elapsed = self._clock() - float(since)
            waiting = _Waiting(bytes(value), time.monotonic() - elapsed, next(self._joins))
            self._queues.setdefault(queue, {})[member] = waiting
        elif effect == "qtake":
            queue, members = arguments
            super()._take(queue, list(members))
        elif effect == "num":
            name, number = arguments
            self._numbers[name] = int(number)
        else:
            raise ValueError(f"an unknown change {effect!r}")


def _framed_at(data: bytes, at: int) -> bytes:
    """The payload of the record framed at byte ``at`` of ``data``; :class:`ValueError`
    saying what is wrong if it is cut short or does not match its CRC."""
    if len(data) - at < HEADER.size:
        raise ValueError("a record cut short")
    length, crc = HEADER.unpack_from(data, at)
    payload = data[at + HEADER.size : at + HEADER.size + length]
    if len(payload) != length:
        raise ValueError("a record cut short")
    if zlib.crc32(payload) != crc:
        raise ValueError("a record not matching its CRC")
    return payload


def _set_aside(path: Path) -> Path:
    aside = _aside_name(path)
    os.replace(path, aside)
    return aside


def _aside_name(path: Path) -> Path:
    """A name for the damaged ``path`` set aside, taken by no earlier one."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    aside, number = path.with_name(f"{path.name}.damaged-{stamp}"), 1
    while aside.exists():
        number += 1
        aside = path.with_name(f"{path.name}.damaged-{stamp}-{number}")
    return aside


def _sync_folder(folder: Path) -> None:
    """Flushes the folder's entries, so that a rename survives a machine's crash."""
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def open_hub(folder: Path, sync: Sync = "write") -> tuple[JournaledHub, Restored]:
    """The hub kept in ``folder``, with what it held when the server stopped."""
    hub = JournaledHub(folder, sync)
    return hub, hub.restore()
