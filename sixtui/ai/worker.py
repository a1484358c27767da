"""Runs the computer player in worker processes, off the event loop.

One :class:`Thinker` serves every game of a process: screens ``await`` its
:meth:`Thinker.think`, which sends the game to a worker process as
``game.to_bytes()`` and gets the turn back as move notation, so the asyncio
loop (and every other session on it) keeps running while the computer thinks.
Turns wait for a free worker in one line per player, and the workers take from
each line in turn: a player's many tables wait behind one another, never
another player's.

>>> import asyncio
>>> from sixtui.rules import new_game
>>> async def demo():
...     async with Thinker() as thinker:
...         return await thinker.think(new_game("six"), seed=1)
>>> asyncio.run(demo())
[Move.parse('0,0')]
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal
import sys
from collections import deque
from collections.abc import Hashable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing import resource_tracker
from types import FrameType, TracebackType

from sixtui.ai import choose_turn
from sixtui.rules import Game, Move, load_game

__all__ = ["PlayerThinker", "Thinker"]

DIED = "the computer player's worker process died; the next turn starts a new one"


STOP_SIGNAL = signal.SIGUSR1  # tells a worker process to stop the turn it thinks about


class TurnStopped(Exception):
    """Raised in a worker process out of a turn nobody waits for any more."""


class _Slots:
    """What the event loop and the worker processes share of the turns under way: a pool
    of ``workers`` processes has as many slots, one for each turn being thought about.
    A slot holds the process thinking its turn (0 before it begins and after it ends) and
    whether the turn is to stop. Plain shared memory without locks: a signal handler
    reads it, and each entry has a single writer at a time."""

    def __init__(self, context: multiprocessing.context.BaseContext, workers: int) -> None:
        self.processes = context.RawArray("q", workers)
        self.stopping = context.RawArray("b", workers)


_slots: _Slots | None = None  # in a worker: the pool's slots
_slot_thought: int | None = None  # in a worker: the slot of the turn it thinks about now


def _join_pool(slots: _Slots) -> None:
    """In a worker, as it starts: keeps the pool's slots, and stops a turn on
    :data:`STOP_SIGNAL`."""
    global _slots
    _slots = slots
    signal.signal(STOP_SIGNAL, _stop_if_asked)


def _stop_if_asked(signum: int, frame: FrameType | None) -> None:
    """In a worker: stops the turn under way if its slot says so. A signal that comes
    late, once the turn ended or another began, finds nothing to stop."""
    if _slots is not None and _slot_thought is not None and _slots.stopping[_slot_thought]:
        raise TurnStopped


def _think_in_worker(
    data: bytes, level: str, seconds: float | None, seed: int | None, slot: int
) -> list[str]:
    """In the worker: the turn chosen for the saved game ``data``, as move notation.

    The process writes itself into ``slot`` first and looks whether the turn was given up
    on before it began; once it is written there, a stop comes as a signal.
    """
    global _slot_thought
    assert _slots is not None, "the pool starts its workers with _join_pool"
    _slot_thought = slot
    try:
        _slots.processes[slot] = os.getpid()
        if _slots.stopping[slot]:
            raise TurnStopped
        return [str(move) for move in choose_turn(load_game(data), level, seconds, seed)]
    finally:
        _slot_thought = None
        _slots.processes[slot] = 0


def _warm_up() -> None:
    """In the worker: nothing; submitting it makes the pool start a process."""


def _start_resource_tracker() -> None:
    """Starts multiprocessing's resource tracker, handing it the process's real stderr.

    The tracker is given ``sys.stderr``'s file descriptor. Inside a running
    Textual app ``sys.stderr`` is a capture object whose ``fileno()`` is -1, and
    starting the tracker then fails ("bad value(s) in fds_to_keep"). This runs on
    the event loop's thread, so nothing else sees the swap; once running, the
    tracker serves every later pool.
    """
    captured = sys.stderr
    try:
        if _file_descriptor(captured) < 0 and sys.__stderr__ is not None:
            sys.stderr = sys.__stderr__
        resource_tracker.ensure_running()
    finally:
        sys.stderr = captured


def _file_descriptor(stream: object) -> int:
    try:
        return int(stream.fileno())  # type: ignore[attr-defined]
    except (AttributeError, OSError, ValueError):
        return -1


@dataclass(eq=False)  # each turn is itself alone, whatever it holds
class _Turn:
    """A turn to think about, where its answer goes, and the slot it is thought in once a
    worker has it."""

    data: bytes
    level: str
    seconds: float | None
    seed: int | None
    answer: asyncio.Future[list[str]] = field(repr=False)
    slot: int | None = None


def _default_start_method() -> str:
    # "fork" copies a process that has threads (asyncio's default executor,
    # asyncssh, the pool's own manager thread): never use it here.
    methods = multiprocessing.get_all_start_methods()
    return "forkserver" if "forkserver" in methods else "spawn"


class Thinker:
    """Runs :func:`sixtui.ai.choose_turn` in worker processes shared by every game of this process.

    ``workers`` is how many turns can be thought about at once; more calls wait
    their turn, in one line per player (``player`` of :meth:`think`), and the
    workers take from each line in turn. The pool of processes starts lazily,
    in a thread, on the first :meth:`think`, so starting it does not block the
    event loop either. ``start_method`` is the :mod:`multiprocessing` start
    method: by default "forkserver" where there is one, else "spawn" (never
    "fork", which is unsafe in a process with threads).

    Cancellation: cancelling the task that awaits :meth:`think` returns at once
    (the :class:`asyncio.CancelledError` propagates). A turn that no worker has
    taken yet is dropped; one already taken is stopped where it is (a signal to
    its process), so the worker is free for the next turn at once.

    Use it as ``async with Thinker() as thinker:`` or call :meth:`close`.
    """

    def __init__(self, workers: int = 1, *, start_method: str | None = None) -> None:
        if workers < 1:
            raise ValueError(f"a Thinker needs at least one worker, not {workers}")
        self.workers = workers
        self._context = multiprocessing.get_context(start_method or _default_start_method())
        self._pool: ProcessPoolExecutor | None = None
        self._starting: asyncio.Task[ProcessPoolExecutor] | None = None
        self._closed = False
        self._lines: dict[Hashable, deque[_Turn]] = {}  # in the order they are served
        self._slots = _Slots(self._context, workers)
        self._free_slots = list(range(workers))  # those of no turn handed to a worker
        self._under_way: set[_Turn] = set()  # handed to a worker, not yet answered

    def for_player(self, player: Hashable) -> PlayerThinker:
        """This Thinker as ``player`` uses it: their turns wait behind their own only."""
        return PlayerThinker(self, player)

    async def think(
        self,
        game: Game,
        level: str = "normal",
        seconds: float | None = None,
        seed: int | None = None,
        *,
        player: Hashable = None,
    ) -> list[Move]:
        """The moves that complete the current turn, as :func:`~sixtui.ai.choose_turn` picks them.

        The position is taken when the call is made; ``game`` itself is never
        changed. The turn waits for a worker in ``player``'s line. Raises
        :class:`ValueError` as ``choose_turn`` does (the game is over, no such
        level), :class:`RuntimeError` if the worker process died (the next call
        starts a fresh pool) or the Thinker is closed.
        """
        data = game.to_bytes()
        await self._get_pool()
        turn = _Turn(data, level, seconds, seed, asyncio.get_running_loop().create_future())
        self._lines.setdefault(player, deque()).append(turn)
        self._hand_out()
        try:
            notations = await turn.answer
        except asyncio.CancelledError:
            self._withdraw(player, turn)
            self._stop(turn)
            raise
        return [game.parse_move(text) for text in notations]

    async def close(self) -> None:
        """Stops the workers and waits for them to exit; the Thinker cannot think afterwards.

        Turns not yet taken fail with :class:`RuntimeError`, and so do those under way,
        which are stopped. The waiting happens in a thread, so the event loop keeps
        running meanwhile.
        """
        self._closed = True
        waiting = [turn for line in self._lines.values() for turn in line]
        self._lines.clear()
        for turn in [*waiting, *self._under_way]:
            if not turn.answer.done():  # each its own error: each is raised where it is awaited
                turn.answer.set_exception(RuntimeError("this Thinker is closed"))
            self._stop(turn)
        if self._starting is not None:
            with contextlib.suppress(Exception):  # if the pool never started: nothing to stop
                await asyncio.shield(self._starting)
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)

    async def __aenter__(self) -> Thinker:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()

    # -- the lines -------------------------------------------------------------------

    def _hand_out(self) -> None:
        """Gives free workers the first turn of each line in turn, a line served going to
        the back."""
        while self._free_slots and self._lines and self._pool is not None:
            player, line = next(iter(self._lines.items()))
            turn = line.popleft()
            del self._lines[player]
            if line:
                self._lines[player] = line
            self._start(self._pool, turn)
        if self._lines and self._pool is None and not self._closed:
            self._start_pool_soon()  # a pool died with turns waiting

    def _start(self, pool: ProcessPoolExecutor, turn: _Turn) -> None:
        loop = asyncio.get_running_loop()
        slot = self._free_slots.pop()
        self._slots.stopping[slot] = 0
        self._slots.processes[slot] = 0  # what a process that died there left
        try:
            job = pool.submit(
                _think_in_worker, turn.data, turn.level, turn.seconds, turn.seed, slot
            )
        except (BrokenProcessPool, RuntimeError) as error:  # broken, or shut down
            self._free_slots.append(slot)
            self._discard(pool)
            turn.answer.set_exception(RuntimeError(DIED))
            turn.answer.exception().__cause__ = error  # type: ignore[union-attr]
            return
        turn.slot = slot
        self._under_way.add(turn)

        def answered(job: Future[list[str]]) -> None:  # in the pool's own thread
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits
                loop.call_soon_threadsafe(self._answered, pool, turn, job)

        job.add_done_callback(answered)

    def _answered(self, pool: ProcessPoolExecutor, turn: _Turn, job: Future[list[str]]) -> None:
        self._under_way.discard(turn)
        if turn.slot is not None:
            self._free_slots.append(turn.slot)
            turn.slot = None
        if not turn.answer.done():
            try:
                turn.answer.set_result(job.result())
            except BrokenProcessPool as error:
                self._discard(pool)
                died = RuntimeError(DIED)
                died.__cause__ = error
                turn.answer.set_exception(died)
            except Exception as error:  # as choose_turn raised it
                turn.answer.set_exception(error)
        self._hand_out()

    def _stop(self, turn: _Turn) -> None:
        """Stops a turn a worker thinks about, if one does: its slot says so, and its
        process, if it has begun, is told by a signal (see :func:`_think_in_worker`)."""
        if turn.slot is None:
            return
        self._slots.stopping[turn.slot] = 1
        process = self._slots.processes[turn.slot]
        if process:
            with contextlib.suppress(ProcessLookupError):  # it has just ended
                os.kill(process, STOP_SIGNAL)

    def _withdraw(self, player: Hashable, turn: _Turn) -> None:
        """Takes a turn that was given up on out of its line, if no worker has it yet."""
        line = self._lines.get(player)
        if line is not None and turn in line:
            line.remove(turn)
            if not line:
                del self._lines[player]

    # -- the pool --------------------------------------------------------------------

    async def _get_pool(self) -> ProcessPoolExecutor:
        """The running pool, started (once, even for concurrent callers) in a thread if need be."""
        if self._closed:
            raise RuntimeError("this Thinker is closed")
        if self._pool is not None:
            return self._pool
        starting = self._start_pool_soon()
        # Shielded: a caller cancelled meanwhile must not orphan the pool being started.
        try:
            pool = await asyncio.shield(starting)
        except BrokenProcessPool as error:
            raise RuntimeError("the computer player's worker process could not start") from error
        if self._closed:
            raise RuntimeError("this Thinker is closed")
        return pool

    def _start_pool_soon(self) -> asyncio.Task[ProcessPoolExecutor]:
        if self._starting is None:
            _start_resource_tracker()
            self._starting = asyncio.create_task(asyncio.to_thread(self._start_pool))
            self._starting.add_done_callback(self._started)
        return self._starting

    def _start_pool(self) -> ProcessPoolExecutor:
        """In a thread: a new pool whose processes are already being started.

        Starting a process (and the fork server, the first time) waits on the
        child, so it is done here rather than on the event loop by the first
        ``submit`` of :meth:`think`.
        """
        pool = ProcessPoolExecutor(
            self.workers, mp_context=self._context, initializer=_join_pool, initargs=(self._slots,)
        )
        try:
            warm: list[Future[None]] = [pool.submit(_warm_up) for _ in range(self.workers)]
            for future in warm:
                future.result()
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        return pool

    def _started(self, task: asyncio.Task[ProcessPoolExecutor]) -> None:
        self._starting = None
        if not task.cancelled() and task.exception() is None:
            self._pool = task.result()
            if self._closed:
                return
            self._hand_out()

    def _discard(self, pool: ProcessPoolExecutor) -> None:
        """Forgets a broken pool (unless a fresh one already replaced it)."""
        if self._pool is pool:
            self._pool = None
        pool.shutdown(wait=False, cancel_futures=True)


class PlayerThinker:
    """A :class:`Thinker` as one player uses it: their turns wait behind their own only."""

    def __init__(self, thinker: Thinker, player: Hashable) -> None:
        self.thinker = thinker
        self.player = player

    async def think(
        self,
        game: Game,
        level: str = "normal",
        seconds: float | None = None,
        seed: int | None = None,
    ) -> list[Move]:
        """As :meth:`Thinker.think`, in this player's line."""
        return await self.thinker.think(game, level, seconds, seed, player=self.player)
