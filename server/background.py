"""A task a server process runs in the background until it stops: the sweeper, the
archivist, the watch on other processes (:mod:`sixtui.server.table_life`,
:mod:`sixtui.server.archiving`, :mod:`sixtui.server.departures`)."""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Callable, Coroutine
from typing import Any


class BackgroundTask:
    """``run()`` as a task named ``name``, from :meth:`start` (once started, started) until
    :meth:`close`. It runs in a context of its own: started from a session, it would keep
    that session's app (Textual's context variables) alive as long as the server runs."""

    def __init__(self, name: str, run: Callable[[], Coroutine[Any, Any, None]]) -> None:
        self._name = name
        self._run = run
        self._task: asyncio.Task[None] | None = None

    @property
    def started(self) -> bool:
        return self._task is not None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(
                self._run(), name=self._name, context=contextvars.Context()
            )

    async def close(self, cancel: bool = True) -> None:
        """Waits for the task to end, cut short at once if ``cancel`` (else it must be
        ending by itself)."""
        task, self._task = self._task, None
        if task is not None:
            if cancel:
                task.cancel()
            await asyncio.wait({task})
