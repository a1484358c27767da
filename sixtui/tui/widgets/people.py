"""Who else is here: one line naming the players connected to the same server."""

from __future__ import annotations

from rich.text import Text
from textual.message import Message
from textual.widgets import Static

from sixtui.tui.people import Player

SHOWN = 8


class PeopleLine(Static):
    """``player``'s name and the others connected, kept up to date as they come and go."""

    class Changed(Message):
        """Someone came or left (posted from whichever session it was)."""

    def __init__(self, player: Player, **options: str) -> None:
        super().__init__(**options)
        self.player = player
        self._stop_listening = lambda: None

    def on_mount(self) -> None:
        self._stop_listening = self.player.roster.subscribe(
            lambda: self.post_message(self.Changed())
        )
        self._show()

    def on_unmount(self) -> None:
        self._stop_listening()

    def on_people_line_changed(self) -> None:
        self._show()

    def _show(self) -> None:
        self.update(people_text(self.player.name, self.player.roster.names))


def people_text(name: str, here: list[str]) -> Text:
    """'You are NAME', and who else is here, the first few by name.

    >>> str(people_text("ann", ["bob", "ann", "cy"]))
    'You are ann. Also here: bob, cy.'
    >>> str(people_text("ann", ["ann"]))
    'You are ann. Nobody else is here yet.'
    """
    others = [other for other in here if other != name]
    text = Text.assemble("You are ", (name, "bold"), ". ")
    if not others:
        return text.append("Nobody else is here yet.")
    text.append("Also here: ")
    text.append(", ".join(others[:SHOWN]))
    if len(others) > SHOWN:
        text.append(f" and {len(others) - SHOWN} more")
    return text.append(".")
