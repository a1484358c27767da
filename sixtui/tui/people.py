"""Who is here: the player at this terminal, and everyone connected with them.

A server fills these in; a local game has neither.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass


class Roster:
    """The names of the players connected now, in the order they came, each listed once
    however many sessions it has open.

    Listeners hear of every change from whichever session made it: a screen must not
    draw from a listener, but post itself a message.

    >>> roster = Roster()
    >>> roster.arrive("alice"); roster.arrive("bob"); roster.arrive("alice")
    >>> roster.leave("alice"); roster.names
    ['alice', 'bob']
    """

    def __init__(self) -> None:
        self._sessions: Counter[str] = Counter()
        self._listeners: list[Callable[[], None]] = []

    @property
    def names(self) -> list[str]:
        return list(self._sessions)

    def arrive(self, name: str) -> None:
        self._sessions[name] += 1
        if self._sessions[name] == 1:
            self._tell()

    def leave(self, name: str) -> None:
        if name not in self._sessions:
            return
        self._sessions[name] -= 1
        if not self._sessions[name]:
            del self._sessions[name]
            self._tell()

    def subscribe(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Calls ``listener`` after every change; returns what stops that."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def _tell(self) -> None:
        for listener in list(self._listeners):
            listener()


@dataclass
class Player:
    """The person at this terminal, as the server knows them.

    ``name_refused`` says why the name they came with is not theirs (taken by another
    key, say); the app then asks for another and offers it to ``rename``, which answers
    why that one cannot be had either, or None once it is theirs.
    """

    name: str
    roster: Roster
    guest: bool = False
    name_refused: str | None = None
    rename: Callable[[str], str | None] | None = None
