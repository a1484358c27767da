"""The home screen: choose a game, its options, and who plays each seat."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Footer, Label, RadioButton, RadioSet, Select, Static

from sixtui.ai import LEVELS
from sixtui.rules.six import RULESETS
from sixtui.tui.people import Player
from sixtui.tui.setup import DEFAULT_SIZE, SIZES, TITLES, GameSetup
from sixtui.tui.widgets.people import PeopleLine

PERSON = "person"
SEAT_CHOICES = [("Person", PERSON)] + [(f"{level.capitalize()} AI", level) for level in LEVELS]


class HomeScreen(Screen[None]):
    """Everything a table needs, on one screen; Enter on Play starts it. A ``player``
    connected to a server also sees who else is there."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "app.help", "Rules"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, setup: GameSetup | None = None, player: Player | None = None) -> None:
        super().__init__()
        self.initial = setup or GameSetup()
        self.player = player
        self._sizes_for = self.initial.game

    def compose(self) -> ComposeResult:
        start = self.initial
        with Vertical(id="home"):
            yield Static("sixtui: Connect6, Game of 6 and Six", id="home-title")
            if self.player is not None:
                yield PeopleLine(self.player, id="people")
            with Horizontal(classes="row"):
                yield Label("Game", classes="caption")
                with RadioSet(id="game"):
                    for name, title in TITLES.items():
                        yield RadioButton(title, value=name == start.game, name=name)
            with Horizontal(classes="row", id="grid-options"):
                yield Label("Board", classes="caption")
                yield Select(
                    _size_choices(start.game if start.game in SIZES else "gameof6"),
                    value=start.size,
                    allow_blank=False,
                    id="size",
                )
            with Horizontal(classes="row", id="six-options"):
                yield Label("Rules", classes="caption")
                yield Select(
                    [(name, name) for name in RULESETS],
                    value=start.ruleset,
                    allow_blank=False,
                    id="ruleset",
                )
                yield Select(
                    [("2 players", 2), ("4 players", 4)],
                    value=start.players,
                    allow_blank=False,
                    id="players",
                )
                yield Checkbox("declaring", start.declare, id="declare")
            with Horizontal(classes="row", id="seats"):
                yield Label("Seats", classes="caption")
                for seat in range(4):
                    level = start.seats[seat] if seat < len(start.seats) else None
                    with Vertical(classes="seat", id=f"seat-box{seat}"):
                        yield Label(f"Seat {seat + 1} {'●○'[seat % 2]}", classes="seat-name")
                        yield Select(
                            SEAT_CHOICES, value=level or PERSON, allow_blank=False, id=f"seat{seat}"
                        )
            with Horizontal(classes="row"):
                yield Label("", classes="caption")
                yield Button("Play", id="play", variant="primary")
            yield Static(id="home-message")
        yield Footer()

    def on_mount(self) -> None:
        self._show_options()
        self.query_one("#play", Button).focus()

    @on(RadioSet.Changed)
    @on(Select.Changed)
    @on(Checkbox.Changed)
    def _changed(self) -> None:
        self._show_options()

    def _game(self) -> str:
        pressed = self.query_one("#game", RadioSet).pressed_button
        return pressed.name if pressed is not None and pressed.name else "connect6"

    def _show_options(self) -> None:
        game = self._game()
        six = game == "six"
        self.query_one("#grid-options").display = not six
        self.query_one("#six-options").display = six
        players = self.query_one("#players", Select).value if six else 2
        for seat in range(4):
            self.query_one(f"#seat-box{seat}").display = seat < int(players)  # type: ignore[arg-type]
        size = self.query_one("#size", Select)
        if not six and game != self._sizes_for:
            self._sizes_for = game
            chosen = size.value
            size.set_options(_size_choices(game))
            size.value = chosen if chosen in SIZES[game] else DEFAULT_SIZE
        self.query_one("#declare").display = (
            six and self.query_one("#ruleset", Select).value != "steffen"
        )

    def setup(self) -> GameSetup:
        """The table chosen; raises ValueError saying what is wrong."""
        game = self._game()
        six = game == "six"
        players = int(self.query_one("#players", Select).value) if six else 2  # type: ignore[arg-type]
        seats = []
        for seat in range(players):
            value = self.query_one(f"#seat{seat}", Select).value
            seats.append(None if value == PERSON else str(value))
        return GameSetup(
            game,
            ruleset=str(self.query_one("#ruleset", Select).value),
            players=players,
            size=int(self.query_one("#size", Select).value) if not six else DEFAULT_SIZE,  # type: ignore[arg-type]
            declare=six
            and self.query_one("#declare", Checkbox).value
            and self.query_one("#ruleset", Select).value != "steffen",
            seats=tuple(seats),
        )

    @on(Button.Pressed, "#play")
    async def _play(self) -> None:
        try:
            setup = self.setup()
        except ValueError as why:
            self.query_one("#home-message", Static).update(str(why))
            return
        await self.app.start_game(setup)  # type: ignore[attr-defined]


def _size_choices(game: str) -> list[tuple[str, int]]:
    return [(f"{n}×{n}", n) for n in SIZES[game]]
