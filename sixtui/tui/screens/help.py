"""The keys, then the rules as docs/rules.md states them.

The Markdown is laid out once per width for the whole process and drawn line by
line, so opening help costs a session next to nothing after the first time.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache
from importlib.resources import files
from typing import ClassVar

from rich.console import Console
from rich.markdown import Markdown
from textual.app import App
from textual.binding import Binding, BindingType
from textual.filter import LineFilter
from textual.geometry import Size
from textual.screen import Screen
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import Footer

KEYS = """\
# Keys

| key | what it does |
| --- | --- |
| arrows, h j k l | move the cursor |
| Enter, space, click | place; in Six's second round: pick a piece, then where it goes |
| / or : | type a move (`J10`, both stones `K10 L10`, `2,0>1,1`, `2,0>1,1:3,0`, `declare`) |
| u | take back your last move (and the computer's replies); not at an online table |
| r | resign (asks first) |
| m | Six: show or hide where you may play |
| s | local games: suggest a turn, the strongest computer player's, drawn ◇ (Esc hides it) |
| p | play the turn suggested |
| shift+arrows, H J K L | Six: pan the table; c centres it |
| Tab | over to the list of moves: ↑ ↓ (k j), PgUp, PgDn, Home, End scroll it; Esc comes back |
| ! | Six with declaring: declare, or make your next move declare |
| n | the next game of the match, once this one is over |
| v | review the moves on a replay (← → Home End), once the game is over; q comes back |
| e | local games, once over: save the game's record in the folder sixtui started from |
| ? | these rules; 1 to 4 jump to keys, Connect6, Game of 6, Six |
| t | online: chat with the table (`/say TEXT` too); spectators talk among themselves |
| q | leave the game (asks first while it runs) |

At an online table, also:

| key | what it does |
| --- | --- |
| Enter | once the stones of a Connect6 or Game of 6 turn are placed: send the turn |
| Esc | take back the stones placed and not yet sent |
| o | offer a draw; a and d accept or decline the one offered to you |
| n | ask for the next game, or once the match is over a rematch: it begins when both sides ask |
| w | claim the game when the other side has been away past their time |
| x | abort a game barely begun, likewise |
| v | as a spectator, review the moves at any time while the game goes on |
"""

SECTIONS = ("Keys", "Connect6", "Game of 6", "Six")


def rules_markdown() -> str:
    """docs/rules.md, shipped inside the package."""
    return files("sixtui.tui").joinpath("rules.md").read_text(encoding="utf-8")


@lru_cache(maxsize=8)
def laid_out(width: int) -> tuple[list[Strip], dict[str, int]]:
    """The help text as lines of ``width`` cells, and the line where each section starts."""
    console = Console(
        width=width, file=io.StringIO(), force_terminal=True, color_system="truecolor"
    )
    options = console.options.update(width=width)
    chunks = [("Keys", KEYS)]
    for chunk in rules_markdown().split("\n## "):
        title = chunk.split("\n", 1)[0].strip()
        chunks.append((title, chunk if chunk.startswith("#") else "## " + chunk))
    strips: list[Strip] = []
    starts: dict[str, int] = {}
    for title, text in chunks:
        starts.setdefault(title, len(strips))
        for line in console.render_lines(Markdown(text), options, pad=True):
            strips.append(Strip(line, width))
    return strips, starts


class RulesText(ScrollView, can_focus=True):
    """The laid-out help text in a scrolling view."""

    DEFAULT_CSS = "RulesText { overflow-y: scroll; }"

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's own filters, the one from named colors to RGB among them, which
        :class:`~sixtui.tui.app.SixtuiApp` leaves out elsewhere: Rich draws Markdown's
        code and headings in named colors."""
        return App.get_line_filters(self.app)

    def on_resize(self) -> None:
        strips, _ = laid_out(self._text_width())
        self.virtual_size = Size(self._text_width(), len(strips))
        self.refresh()

    def _text_width(self) -> int:
        return max(20, min(self.scrollable_content_region.width, 100))

    def render_line(self, y: int) -> Strip:
        strips, _ = laid_out(self._text_width())
        number = y + self.scroll_offset.y
        if number >= len(strips):
            return Strip.blank(self.size.width, self.rich_style)
        return strips[number].crop(self.scroll_offset.x, self.scroll_offset.x + self.size.width)

    def go_to(self, section: str) -> None:
        _, starts = laid_out(self._text_width())
        self.scroll_to(y=starts.get(section, 0), animate=False)


class HelpScreen(Screen[None]):
    """The keys and the rules of every game; opens at ``section`` if given."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "app.pop_screen", "Back"),
        *(
            Binding(str(number), f"section({number - 1})", title, show=False)
            for number, title in enumerate(SECTIONS, 1)
        ),
    ]

    def __init__(self, section: str | None = None) -> None:
        super().__init__()
        self.section = section

    def compose(self):  # type: ignore[no-untyped-def]
        yield RulesText()
        yield Footer()

    def on_mount(self) -> None:
        view = self.query_one(RulesText)
        view.focus()
        if self.section:
            self.call_after_refresh(view.go_to, self.section)

    def action_section(self, number: int) -> None:
        self.query_one(RulesText).go_to(SECTIONS[number])
