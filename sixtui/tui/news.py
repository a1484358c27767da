"""Listeners for a session's news: the game and lobby sessions tell their screens what
changed through one of these."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

News = TypeVar("News")


class Listeners(Generic[News]):
    """Those told of every piece of news, in the order they subscribed.

    >>> heard = []
    >>> listeners = Listeners[str]()
    >>> stop = listeners.subscribe(heard.append)
    >>> listeners.tell("moves"); stop(); listeners.tell("over")
    >>> heard
    ['moves']
    """

    def __init__(self) -> None:
        self._listeners: list[Callable[[News], None]] = []

    def subscribe(self, listener: Callable[[News], None]) -> Callable[[], None]:
        """Calls ``listener`` with every piece of news; returns what stops that."""
        self._listeners.append(listener)

        def stop() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return stop

    def tell(self, news: News) -> None:
        for listener in list(self._listeners):  # a listener may stop listening meanwhile
            listener(news)

    def clear(self) -> None:
        self._listeners.clear()
