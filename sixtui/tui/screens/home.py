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
from sixtui.tui.game_setup import DEFAULT_SIZE, SIZES, TITLES, GameSetup
from sixtui.tui.widgets.choice import Choice, ChoiceList
from sixtui.tui.widgets.keys import KeyBar

PERSON = "person"
SEAT_CHOICES = [("Person", PERSON)] + [
    (f"{level.capitalize()} computer", level) for level in LEVELS
]


class PlayButton(Button):
    """Opens the table chosen: Enter on it says Play in the footer, as it does elsewhere."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "press", "Play")]


class HomeScreen(Screen[None]):
    """Everything a table needs, one line each; Enter starts it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # The list's own keys while it has the focus; from Play they lead back into it.
        Binding("up,k", "into_choices(-1)", "Line", key_display="↑↓"),
        Binding("down,j", "into_choices(1)", "Line", show=False),
        Binding("enter", "play", "Play"),
        Binding("question_mark", "app.help", "Rules"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, setup: GameSetup | None = None) -> None:
        super().__init__()
        self.initial = setup or GameSetup()

    def compose(self) -> ComposeResult:
        start = self.initial
        seats = [
            Choice(
                f"seat{seat}",
                f"Seat {seat + 1} {'●○'[seat % 2]}",
                SEAT_CHOICES,
                (start.seats[seat] if seat < len(start.seats) else None) or PERSON,
            )
            for seat in range(4)
        ]
        with Vertical(id="home"):
            yield Static("sixtui: Connect6, Game of 6 and Six", id="home-title")
            yield ChoiceList(
                [
                    Choice("game", "Game", [(t, name) for name, t in TITLES.items()], start.game),
                    Choice("size", "Board", _size_choices(start.game), start.size),
                    Choice("ruleset", "Rules", [(n, n) for n in RULESETS], start.ruleset),
                    Choice("players", "Players", [("2", 2), ("4 as two teams", 4)], start.players),
                    Choice(
                        "declare",
                        "Declaring",
                        [("off", False), ("on", True)],
                        start.declare,
                        note="on: a shape wins only when its team declares it",
                    ),
                    *seats,
                ],
                on_change=lambda name: self._show_options(),
                id="choices",
            )
            yield PlayButton("Play", id="play", variant="primary")
            yield Static(id="home-message")
        yield KeyBar()

    @property
    def choices(self) -> ChoiceList:
        return self.query_one("#choices", ChoiceList)

    def on_mount(self) -> None:
        self._show_options()
        self.set_focus(self.choices)

    def action_into_choices(self, step: int) -> None:
        """Up from Play to the last line, down round to the first: the lines and Play are
        one list, that the focus goes round as with Tab. The focus moves at once (not as
        ``Widget.focus`` does, once the keys already queued are handled), so that the next
        key of a burst finds it on the lines."""
        choices = self.choices
        choices.current = choices.shown[-1 if step < 0 else 0].name
        self.set_focus(choices)

    def _show_options(self) -> None:
        choices = self.choices
        game = str(choices.value("game"))
        six = game == "six"
        choices.show("size", not six)
        if not six:
            sizes = SIZES[game]
            size = int(choices.value("size"))  # type: ignore[call-overload]
            choices.set_options("size", _size_choices(game), min(max(size, sizes[0]), sizes[-1]))
        choices.show("ruleset", six)
        choices.show("players", six)
        choices.show("declare", six and _may_declare(choices))
        players = int(choices.value("players")) if six else 2  # type: ignore[call-overload]
        for seat in range(4):
            choices.show(f"seat{seat}", seat < players)

    def setup(self) -> GameSetup:
        """The table chosen; raises ValueError saying what is wrong."""
        choices = self.choices
        game = str(choices.value("game"))
        six = game == "six"
        players = int(choices.value("players")) if six else 2  # type: ignore[call-overload]
        seats = []
        for seat in range(players):
            value = choices.value(f"seat{seat}")
            seats.append(None if value == PERSON else str(value))
        return GameSetup(
            game,
            ruleset=str(choices.value("ruleset")),
            players=players,
            size=DEFAULT_SIZE if six else int(choices.value("size")),  # type: ignore[call-overload]
            declare=six and _may_declare(choices) and bool(choices.value("declare")),
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


def _may_declare(choices: ChoiceList) -> bool:
    return RULESETS[str(choices.value("ruleset"))].may_declare


def _size_choices(game: str) -> list[tuple[str, int]]:
    return [(f"{n}×{n}", n) for n in SIZES.get(game, SIZES["gameof6"])]
