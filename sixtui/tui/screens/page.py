"""A page of text to read, from the lobby or a replay: a player's page, a leaderboard, a
game's record. It scrolls, and Esc or q goes back."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from sixtui.tui.lobby_session import Page
from sixtui.tui.widgets.keys import KeyBar


class PageScreen(Screen[None]):
    """``page``: its title, then its lines as they are (never read as markup)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "close", "Back")]

    def __init__(self, page: Page) -> None:
        super().__init__()
        self.page = page

    def compose(self) -> ComposeResult:
        yield Static(self.page.title, id="page-title", markup=False)
        with VerticalScroll(id="page-body"):
            yield Static("\n".join(self.page.lines), markup=False)
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#page-body").focus()

    def action_close(self) -> None:
        self.dismiss()
