"""The computer players at shared tables: one task per table, in the process that opened it.

Process-local by design: the tasks and the worker pool they think in belong to this
server process, while everything they read and change goes through the hub like any
player's intents. A keeper follows its table's topic; when a computer seat is to move it
thinks in the :class:`~sixtui.ai.worker.Thinker`'s workers (never on the event loop) and
submits the turn made on the version it thought about. If the table moved on meanwhile
(a draw offered, say) and the game is where it was, the same turn is sent again on the new
version; otherwise it thinks again. It also declines draws offered to a side of computers
alone, and agrees to a rematch that such a side is asked for.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging

from sixtui.ai.worker import Thinker
from sixtui.rules import Move
from sixtui.server.hub import Hub, Lagged, Subscription
from sixtui.server.intents import Intent, Kind
from sixtui.server.rooms import Applied, Refused, read_table, submit, table_topic
from sixtui.server.table_state import TableState

log = logging.getLogger(__name__)

ATTEMPTS = 3  # times a turn is thought about before a failing worker is given up on


class ComputerSeats:
    """Keeps the computer seats of this process's tables playing.

    ``pause`` is the least time a computer turn takes, so people can follow it;
    ``seconds`` bounds each turn's thinking (``None``: the engine's default).
    """

    def __init__(
        self, hub: Hub, thinker: Thinker, pause: float = 0.4, seconds: float | None = None
    ) -> None:
        self._hub = hub
        self._thinker = thinker
        self._pause = pause
        self._seconds = seconds
        self._tasks: dict[str, asyncio.Task[None]] = {}

    def keep(self, table_id: str) -> None:
        """Starts keeping ``table_id``'s computer seats playing, until it is aborted."""
        if table_id not in self._tasks:
            # A context of its own: started from the session that opened the table, it
            # would keep that session's app (Textual's context variables) alive with it.
            task = asyncio.create_task(
                self._keep(table_id),
                name=f"computer seats {table_id}",
                context=contextvars.Context(),
            )
            self._tasks[table_id] = task
            task.add_done_callback(lambda _: self._tasks.pop(table_id, None))

    @property
    def tables(self) -> list[str]:
        """The tables kept now."""
        return list(self._tasks)

    async def close(self) -> None:
        """Stops keeping every table."""
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _keep(self, table_id: str) -> None:
        subscription = self._hub.subscribe(table_topic(table_id))
        thought: tuple[bytes, list[Move]] | None = None  # the last turn thought of, and where
        try:
            state = await read_table(self._hub, table_id)
            while state is not None and state.status != "aborted":
                intent, thought = await self._answer(table_id, state, thought)
                outcome = (
                    None if intent is None else await submit(self._hub, table_id, intent.to_bytes())
                )
                if isinstance(outcome, Applied):
                    state = outcome.state
                elif (
                    isinstance(outcome, Refused) and outcome.stale
                ):  # answer the table as it is now
                    state = await read_table(self._hub, table_id)
                else:  # nothing to do, or refused: wait for the table to change
                    if outcome is not None:
                        log.warning("table %s refused its computer: %s", table_id, outcome.message)
                    state = await _newer(subscription, self._hub, table_id, state.version)
        except Exception:
            log.exception("the computer seats of table %s stopped", table_id)
        finally:
            await subscription.close()

    async def _answer(
        self, table_id: str, state: TableState, thought: tuple[bytes, list[Move]] | None
    ) -> tuple[Intent | None, tuple[bytes, list[Move]] | None]:
        """What the computer seats do at ``state``, if anything, and the turn last thought of."""
        side_asked = _computer_side_asked(state)
        if side_asked is not None:
            kind: Kind = {"playing": "decline-draw", "game-over": "next-game"}.get(
                state.status, "rematch"
            )
            return Intent(kind, state.version, _identity(state, side_asked)), thought
        if state.status != "playing":
            return None, thought
        game = state.load()
        holder = state.holder_at(game.to_move)
        if not holder.is_computer or holder.level is None or holder.identity is None:
            return None, thought
        if thought is None or thought[0] != state.current:
            thought = (state.current, await self._think(table_id, state))
        moves = tuple(str(move) for move in thought[1])
        return Intent("turn", state.version, holder.identity, moves), thought

    async def _think(self, table_id: str, state: TableState) -> list[Move]:
        game = state.load()
        level = state.holder_at(game.to_move).level
        assert level is not None
        thinker = self._thinker.for_player(f"table {table_id}")  # a table waits behind its own
        loop = asyncio.get_running_loop()
        began = loop.time()
        for attempt in range(1, ATTEMPTS + 1):
            try:
                moves = await thinker.think(game, level, self._seconds)
                break
            except (RuntimeError, ValueError) as problem:
                if attempt == ATTEMPTS:
                    raise
                log.warning("a computer turn failed (%s); thinking again", problem)
        await asyncio.sleep(max(0.0, began + self._pause - loop.time()))
        return moves


def _computer_side_asked(state: TableState) -> int | None:
    """A side of computers alone that is asked something: a draw, the next game, or a
    rematch."""
    if state.status == "playing" and state.draw_offer is not None:
        asked = 1 - state.draw_offer
    elif state.status in ("game-over", "match-over") and len(state.asked) == 1:
        asked = 1 - state.asked[0]
    else:
        return None
    return asked if all(holder.is_computer for holder in state.sides[asked]) else None


def _identity(state: TableState, side: int) -> str:
    identity = state.sides[side][0].identity
    assert identity is not None
    return identity


async def _newer(
    subscription: Subscription, hub: Hub, table_id: str, version: int
) -> TableState | None:
    """The first state newer than ``version`` that the table's topic brings; after a
    message that is no state (the table was removed, say), the table as it is now."""
    while True:
        try:
            state = TableState.from_bytes(await anext(subscription))
        except (Lagged, ValueError):
            return await read_table(hub, table_id)
        except StopAsyncIteration:
            return None
        if state.version > version:
            return state
