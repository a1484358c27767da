"""The name screen: when the name a player came with is not theirs to use, they pick
another here before anything else."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Input, Static

from sixtui.tui.field_lengths import NAME_LINE
from sixtui.tui.presence import Visitor
from sixtui.tui.widgets.typing import TypedInput


class NameScreen(Screen[str]):
    """Says why ``player``'s name was refused and asks for another until one is theirs;
    dismissed with the name taken."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "app.quit", "Quit")]

    def __init__(self, player: Visitor) -> None:
        super().__init__()
        self.player = player

    def compose(self) -> ComposeResult:
        with Vertical(id="naming"):
            yield Static("sixtui: pick a name", id="naming-title")
            refused = f"You cannot play as {self.player.name}: {self.player.name_refused}."
            yield Static(Text(refused))
            yield Static(
                "Pick another name. It will be yours, bound to your SSH key, "
                "the next time you come too."
            )
            yield TypedInput(placeholder="a name, like alice_2", max_length=NAME_LINE, id="name")
            yield Static(id="naming-message")
        yield Footer()

    @on(Input.Submitted, "#name")
    def _take(self, submitted: Input.Submitted) -> None:
        name = submitted.value.strip()
        problem = self.player.take_name(name)
        if problem is not None:
            message = Text(f"{name or 'An empty name'}: {problem}")
            self.query_one("#naming-message", Static).update(message)
            return
        self.dismiss(name)
