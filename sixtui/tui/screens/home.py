"""The home screen: choose a game, its options, and who plays each seat, a line each."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Button, Static

from sixtui.ai import LEVELS
from sixtui.rules.six import RULESETS
from sixtui.tui.people import Player
from sixtui.tui.setup import DEFAULT_SIZE, SIZES, TITLES, GameSetup
from sixtui.tui.widgets.choice import ChoiceRow
from sixtui.tui.widgets.keys import KeyBar
from sixtui.tui.widgets.people import PeopleLine

PERSON = "person"
SEAT_CHOICES = [("Person", PERSON)] + [
    (f"{level.capitalize()} computer", level) for level in LEVELS
]


class HomeScreen(Screen[None]):
    """Everything a table needs, one line each; Enter starts it. A ``player`` connected
    to a server also sees who else is there."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "play", "Play"),
        Binding("question_mark", "app.help", "Rules"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, setup: GameSetup | None = None, player: Player | None = None) -> None:
        super().__init__()
        self.initial = setup or GameSetup()
        self.player = player

    def compose(self) -> ComposeResult:
        start = self.initial
        with Vertical(id="home"):
            yield Static("sixtui: Connect6, Game of 6 and Six", id="home-title")
            if self.player is not None:
                yield PeopleLine(self.player, id="people")
            yield ChoiceRow(
                "Game", [(title, name) for name, title in TITLES.items()], start.game, id="game"
            )
            yield ChoiceRow("Board", _size_choices(start.game), start.size, id="size")
            yield ChoiceRow(
                "Rules", [(name, name) for name in RULESETS], start.ruleset, id="ruleset"
            )
            yield ChoiceRow(
                "Players", [("2", 2), ("4 as two teams", 4)], start.players, id="players"
            )
            yield ChoiceRow(
                "Declaring", [("off", False), ("on", True)], start.declare, id="declare"
            )
            for seat in range(4):
                level = start.seats[seat] if seat < len(start.seats) else None
                yield ChoiceRow(
                    f"Seat {seat + 1} {'●○'[seat % 2]}",
                    SEAT_CHOICES,
                    level or PERSON,
                    id=f"seat{seat}",
                )
            yield Button("Play", id="play", variant="primary")
            yield Static(id="home-message")
        yield KeyBar()

    def on_mount(self) -> None:
        self._show_options()
        self.query_one("#game", ChoiceRow).focus()

    @on(ChoiceRow.Changed)
    def _changed(self) -> None:
        self._show_options()

    def _row(self, name: str) -> ChoiceRow:
        return self.query_one(f"#{name}", ChoiceRow)

    def _show_options(self) -> None:
        game = self._row("game").value
        six = game == "six"
        size = self._row("size")
        size.display = not six
        if not six:
            sizes = SIZES[str(game)]
            nearest = min(max(int(size.value), sizes[0]), sizes[-1])  # type: ignore[call-overload]
            size.set_options(_size_choices(str(game)), nearest)
        self._row("ruleset").display = six
        self._row("players").display = six
        self._row("declare").display = six and self._row("ruleset").value != "steffen"
        players = self._row("players").value if six else 2
        for seat in range(4):
            self._row(f"seat{seat}").display = seat < int(players)  # type: ignore[call-overload]

    def setup(self) -> GameSetup:
        """The table chosen; raises ValueError saying what is wrong."""
        game = str(self._row("game").value)
        six = game == "six"
        players = int(self._row("players").value) if six else 2  # type: ignore[call-overload]
        seats = []
        for seat in range(players):
            value = self._row(f"seat{seat}").value
            seats.append(None if value == PERSON else str(value))
        ruleset = str(self._row("ruleset").value)
        return GameSetup(
            game,
            ruleset=ruleset,
            players=players,
            size=DEFAULT_SIZE if six else int(self._row("size").value),  # type: ignore[call-overload]
            declare=six and ruleset != "steffen" and bool(self._row("declare").value),
            seats=tuple(seats),
        )

    @on(Button.Pressed, "#play")
    async def action_play(self) -> None:
        try:
            setup = self.setup()
        except ValueError as why:
            self.query_one("#home-message", Static).update(Text(str(why)))
            return
        await self.app.start_game(setup)  # type: ignore[attr-defined]


def _size_choices(game: str) -> list[tuple[str, int]]:
    return [(f"{n}×{n}", n) for n in SIZES.get(game, SIZES["gameof6"])]
