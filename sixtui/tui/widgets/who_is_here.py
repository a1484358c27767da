"""Who else is here: one line naming the players connected to the same server."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual.message import Message

from sixtui.tui.presence import Visitor
from sixtui.tui.widgets.lines import PAD, Line, LineWidget, fit


class WhoIsHereLine(LineWidget):
    """``player``'s name and the others connected, kept up to date as they come and go.

    A line widget, so that a player arriving redraws one line of every other player's
    screen rather than laying the whole screen out again.
    """

    COMPONENT_PREFIX = "who-is-here"
    STRIPS_KEPT = 2  # the line changes with every arrival and departure
    COMPONENT_CLASSES: ClassVar[set[str]] = {"who-is-here--name"}
    DEFAULT_CSS = """
    WhoIsHereLine { height: 1; }
    WhoIsHereLine > .who-is-here--name { text-style: bold; }
    """

    class Changed(Message):
        """Someone came or left (posted from whichever session it was), or the player's
        own name changed."""

    def __init__(self, player: Visitor, **options: str) -> None:
        super().__init__(**options)
        self.player = player
        self._stop_listening: list[Callable[[], None]] = []

    def on_mount(self) -> None:
        # The player's own name changes from this app; the others come and go from theirs.
        self._stop_listening = [
            self.player.roster.subscribe(self._changed),
            self.player.subscribe(self._changed),
        ]
        super().on_mount()

    def on_unmount(self) -> None:
        for stop in self._stop_listening:
            stop()

    def _changed(self) -> None:
        self.post_message(self.Changed())

    def on_who_is_here_line_changed(self) -> None:
        self.sync()

    def _lines(self, width: int, height: int) -> list[Line]:
        name = self.player.name
        before, after = "You are ", who_is_here_text(name, self.player.roster.names, width)
        line = ((before, PAD), (name, "name"), (fit(after, width - len(before) - len(name)), PAD))
        return [line] + [((" " * width, PAD),)] * (height - 1)


def who_is_here_text(name: str, here: list[str], width: int = 80) -> str:
    """What follows 'You are NAME': who else is here, as many by name as fit in ``width``.

    >>> who_is_here_text("ann", ["bob", "ann", "cy"])
    '. Also here: bob, cy.'
    >>> who_is_here_text("ann", ["ann"])
    '. Nobody else is here.'
    >>> who_is_here_text("ann", ["ann", "bob", "cy", "dee", "eve", "fay", "gus"], width=45)
    '. Also here: bob, cy and 4 more.'
    """
    others = [other for other in here if other != name]
    if not others:
        return ". Nobody else is here."
    room = width - len("You are ") - len(name)
    lead = ". Also here: "
    everyone = lead + ", ".join(others) + "."
    if len(everyone) <= room:
        return everyone
    # Short of everyone, each name shown costs more than the count of the rest saves:
    # scan up to the first that does not fit, not through the whole crowd every redraw.
    fitting, names_width = 0, 0
    for shown, other in enumerate(others, start=1):
        names_width += len(other) + (2 if shown > 1 else 0)
        if len(lead) + names_width + len(_rest(len(others) - shown)) > room:
            break
        fitting = shown
    if not fitting:
        return f". Also here: {len(others)} more."
    return lead + ", ".join(others[:fitting]) + _rest(len(others) - fitting)


def _rest(more: int) -> str:
    return f" and {more} more." if more else "."
