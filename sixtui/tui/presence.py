"""Who is here: the player at this terminal, and everyone connected with them.

A server fills these in; a local game has neither.
"""

from __future__ import annotations

import asyncio
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field

# The most seconds between telling one listener of a change and the next, when there is
# a quiet period to spread them over.
SPACING = 0.005


class Roster:
    """The names of the players connected now, in the order they came, each listed once
    however many sessions it has open.

    Listeners hear of changes from whichever session made them: a screen must not draw
    from a listener, but post itself a message. With ``quiet`` seconds, they hear at most
    once in that time: the first change at once, those that follow together at its end.
    Every listener redraws when told, so on a busy server a crowd arriving costs each
    screen one redraw a ``quiet`` rather than one per arrival. The listeners are then
    told one after another, :data:`SPACING` s apart at most: told all at once, the
    screens of a hundred players would redraw in one turn of the event loop, and everyone
    would wait for all of them.

    >>> roster = Roster()
    >>> roster.arrive("alice"); roster.arrive("bob"); roster.arrive("alice")
    >>> roster.leave("alice"); roster.names
    ['alice', 'bob']
    """

    def __init__(self, quiet: float = 0.0) -> None:
        self._sessions: Counter[str] = Counter()
        self._listeners: list[Callable[[], None]] = []
        self._quiet = quiet
        self._told_at = float("-inf")  # the event loop's time
        self._telling: asyncio.TimerHandle | None = None
        self._untold: deque[Callable[[], None]] = deque()  # still to hear of the last news
        self._spacing = 0.0
        self._next: asyncio.TimerHandle | None = None

    @property
    def names(self) -> list[str]:
        return list(self._sessions)

    def arrive(self, name: str) -> None:
        self._sessions[name] += 1
        if self._sessions[name] == 1:
            self._changed()

    def leave(self, name: str) -> None:
        if name not in self._sessions:
            return
        self._sessions[name] -= 1
        if not self._sessions[name]:
            del self._sessions[name]
            self._changed()

    def subscribe(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Calls ``listener`` after every change; returns what stops that."""
        self._listeners.append(listener)
        return lambda: self._unsubscribe(listener)

    def _unsubscribe(self, listener: Callable[[], None]) -> None:
        self._listeners.remove(listener)
        if listener in self._untold:
            self._untold.remove(listener)

    def _changed(self) -> None:
        if not self._quiet:
            self._tell()
            return
        if self._telling is not None:
            return  # the listeners will hear of this one too
        loop = asyncio.get_running_loop()
        wait = self._told_at + self._quiet - loop.time()
        if wait > 0:
            self._telling = loop.call_later(wait, self._tell)
        else:
            self._tell()

    def _tell(self) -> None:
        self._telling = None
        if not self._quiet:
            for listener in list(self._listeners):
                listener()
            return
        self._told_at = asyncio.get_running_loop().time()
        # Those not yet told of the last news are told of this one in their turn.
        self._untold = deque(self._listeners)
        self._spacing = min(SPACING, self._quiet / max(1, len(self._untold)))
        if self._next is None:
            self._tell_next()

    def _tell_next(self) -> None:
        self._next = None
        if not self._untold:
            return
        listener = self._untold.popleft()
        if self._untold:  # booked first, so that a listener that fails stops no one else
            loop = asyncio.get_running_loop()
            self._next = loop.call_later(self._spacing, self._tell_next)
        listener()


@dataclass
class Visitor:
    """The person at this terminal, as the server knows them.

    ``name_refused`` says why the name they came with is not theirs (taken by another
    key, say); the app then asks for another, which :meth:`take_name` offers to
    ``rename``: it answers why that one cannot be had either, or None once it is theirs.
    """

    name: str
    roster: Roster
    guest: bool = False
    name_refused: str | None = None
    rename: Callable[[str], str | None] | None = None
    _listeners: list[Callable[[], None]] = field(default_factory=list, repr=False, compare=False)

    def take_name(self, name: str) -> str | None:
        """Makes ``name`` theirs if it may be, and tells whoever listens; otherwise says
        why not and changes nothing."""
        if self.rename is None:
            return "this server lets nobody change names"
        problem = self.rename(name)
        if problem is None:
            self.name = name
            self.name_refused = None
            for listener in list(self._listeners):
                listener()
        return problem

    def subscribe(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Calls ``listener`` whenever their own name changes; returns what stops that."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)
