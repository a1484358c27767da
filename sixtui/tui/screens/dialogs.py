"""Small screens shown over the game: a yes/no question, the summary after a game,
and the request for a larger terminal."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from sixtui.tui.session import GameSession
from sixtui.tui.widgets.panel import result_line

MIN_WIDTH, MIN_HEIGHT = 80, 24


class ConfirmScreen(ModalScreen[bool]):
    """Asks ``question``; y or Enter confirms, n or Esc declines."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str, verb: str) -> None:
        super().__init__()
        self.question = question
        self.verb = verb

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.question, classes="question")
            with Horizontal(classes="buttons"):
                yield Button(f"{self.verb} (y)", id="yes", variant="error")
                yield Button("Cancel (n)", id="no")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")


class SummaryScreen(ModalScreen[str]):
    """After a game: its result and the match so far; then the next game, the board, or leave."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n,enter", "choose('next')", "Next game"),
        Binding("escape,b", "choose('board')", "See the board"),
        Binding("q", "choose('quit')", "Leave"),
    ]

    def __init__(self, session: GameSession) -> None:
        super().__init__()
        self.session = session

    def compose(self) -> ComposeResult:
        session, match = self.session, self.session.match
        game = session.game
        assert game.result is not None
        sides = [" & ".join(p.name for p in side) for side in session.sides]
        rows = [result_line(session, game.result), ""]
        for number, result in enumerate(match.results, 1):
            opener = match.openers[number - 1]
            outcome = "draw" if result.winner is None else f"{sides[result.winner ^ opener]} won"
            rows.append(f"Game {number}: {sides[opener]} opened, {outcome}")
        wins, points = match.wins, match.points
        rows += ["", f"{sides[0]} {wins[0]} – {wins[1]} {sides[1]}"]
        if any(points):
            rows.append(f"points {points[0]} – {points[1]}")
        if match.is_over:
            winner = match.winner
            rows.append(
                "The match is drawn." if winner is None else f"{sides[winner]} win the match."
            )
        with Vertical(classes="dialog"):
            yield Static("\n".join(rows[-16:]), classes="question")
            with Horizontal(classes="buttons"):
                if not match.is_over:
                    yield Button("Next game (n)", name="next", variant="primary")
                yield Button("See the board (b)", name="board")
                yield Button("Leave (q)", name="quit")

    def action_choose(self, choice: str) -> None:
        if choice == "next" and self.session.match.is_over:
            return
        self.dismiss(choice)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.name)


class TooSmallScreen(ModalScreen[None]):
    """Covers everything while the terminal is smaller than sixtui needs."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("q,ctrl+c", "app.quit", "Quit")]

    def compose(self) -> ComposeResult:
        yield Static(id="too-small")

    def on_mount(self) -> None:
        self.show_size()

    def on_resize(self) -> None:
        self.show_size()

    def show_size(self) -> None:
        width, height = self.app.size
        self.query_one("#too-small", Static).update(
            f"Please make the terminal at least {MIN_WIDTH}×{MIN_HEIGHT}.\n"
            f"It is {width}×{height} now.\nq quits."
        )
