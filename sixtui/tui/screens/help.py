"""The rules, as docs/rules.md states them, with the keys on top."""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer, MarkdownViewer

KEYS = """\
# Keys

| key | what it does |
| --- | --- |
| arrows, h j k l | move the cursor |
| Enter, space, click | place a stone or piece; in Six's second round: pick a piece, then where it goes |
| / or : | type a move in notation (`J10`, `2,0>1,1`, `2,0>1,1:3,0`, `declare`), Enter plays it |
| u | take back your last move (and the computer's replies) |
| r | resign (asks first) |
| m | Six: show or hide where you may play |
| shift+arrows, H J K L | Six: pan the table; c centres it |
| ! | Six with declaring: declare, or make your next move declare |
| n | the next game of the match, once this one is over |
| ? | these rules |
| q | leave the game (asks first while it runs) |

"""


@cache
def rules_text() -> str:
    """The keys, then docs/rules.md (shipped inside the package)."""
    return KEYS + files("sixtui.tui").joinpath("rules.md").read_text(encoding="utf-8")


class HelpScreen(Screen[None]):
    """The keys and the rules of every game, with a table of contents."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "app.pop_screen", "Back"),
        Binding("t", "toggle_contents", "Contents"),
    ]

    def __init__(self, game: str | None = None) -> None:
        super().__init__()
        self.game = game

    def compose(self) -> ComposeResult:
        yield MarkdownViewer(rules_text(), show_table_of_contents=False)
        yield Footer()

    def action_toggle_contents(self) -> None:
        viewer = self.query_one(MarkdownViewer)
        viewer.show_table_of_contents = not viewer.show_table_of_contents
