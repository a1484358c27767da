"""The replay screen: a recorded game stepped through move by move, the board and the
panel as they were after each, the result at the end."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Input

from sixtui.rules.records import GameRecord
from sixtui.tui.field_lengths import MOVE_LINE
from sixtui.tui.lobby_session import Page
from sixtui.tui.player_text import printable
from sixtui.tui.replay import NOT_HERE, ReplaySession
from sixtui.tui.screens.focus import FocusScreen
from sixtui.tui.screens.page import PageScreen
from sixtui.tui.widgets.board import BoardView
from sixtui.tui.widgets.hex_board import HexBoard
from sixtui.tui.widgets.keys import KeyBar
from sixtui.tui.widgets.panel import SidePanel, result_line
from sixtui.tui.widgets.square_board import SquareBoard
from sixtui.tui.widgets.typing import TypedInput


class ReplayScreen(FocusScreen[None]):
    """One recorded game: ← and → step a move, ↑ and ↓ a turn, Home and End go to its
    start and its end, g goes to a turn by its number in the move list, r shows the
    record as text."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # Before the board's own arrows, which move its cursor in a game.
        Binding("left", "step(-1)", "Back", key_display="←", priority=True),
        Binding("right", "step(1)", "Forward", key_display="→", priority=True),
        Binding("up", "turn(-1)", "Turn back", key_display="↑", show=False, priority=True),
        Binding("down", "turn(1)", "Turn on", key_display="↓", show=False, priority=True),
        Binding("home", "go_to_start", "Start", priority=True),
        Binding("end", "go_to_end", "End", priority=True),
        Binding("g", "ask_turn", "Go to turn", priority=True),  # a burst "g12⏎" types 12
        Binding("r", "show_record", "Record"),
        Binding("enter", "submit_line", show=False, priority=True),
        Binding("escape", "close_line", "Cancel", priority=True),
        Binding("question_mark", "app.help", "Rules"),
        Binding("q", "leave", "Quit"),
    ]

    def __init__(self, session: ReplaySession, leaves_app: bool = False) -> None:
        """``leaves_app``: q leaves sixtui (a replay opened from the command line) rather
        than going back to the screen below."""
        super().__init__()
        self.session = session
        self.leaves_app = leaves_app

    def compose(self) -> ComposeResult:
        board_type = HexBoard if self.session.game.name == "six" else SquareBoard
        yield board_type(self.session, self._cell_chosen, id="board")
        yield SidePanel(self.session, id="side")
        yield KeyBar()
        yield TypedInput(max_length=MOVE_LINE, id="turn-input")

    @property
    def board(self) -> BoardView:
        return self.query_one("#board", BoardView)

    @property
    def turn_input(self) -> Input:
        return self.query_one("#turn-input", Input)

    @property
    def panel(self) -> SidePanel:
        return self.query_one("#side", SidePanel)

    def on_mount(self) -> None:
        self.set_focus(self.board)
        self._show()

    def follow(self, record: GameRecord) -> None:
        """Takes in the game as it went on (see :meth:`ReplaySession.follow`)."""
        if self.session.follow(record) and self.is_mounted:
            self._show()

    def _show(self, message: str | None = None) -> None:
        """Redraws the board and the panel for the move the replay is at."""
        session = self.session
        last = session.last_move
        if last is not None and last.to is not None:
            self.board.cursor = last.to  # the newest move stays in view and marked
        if isinstance(self.board, HexBoard):
            self.board.show_choice()
        else:
            self.board.sync()
        self.panel.show(self._status(), message if message is not None else self._where())
        self.refresh_bindings()

    def _status(self) -> str:
        session = self.session
        game = session.game
        if game.result is not None:
            return result_line(session, game.result)
        to_move = f"{session.player_at(game.to_move).name} to move"
        return f"the record ends here, {to_move}" if session.at_end else to_move

    def _where(self) -> str:
        session = self.session
        if session.ply == 0:
            date = session.record.headers.get("Date")
            when = f" of {printable(date)}" if date else ""
            return f"replay{when}: the start, {session.moves} moves to come (→ steps on)"
        return f"replay: move {session.ply} of {session.moves}, {session.last_move}"

    async def _cell_chosen(self, cell: object) -> None:
        self._show(NOT_HERE)

    # -- actions -------------------------------------------------------------------------

    def action_step(self, moves: int) -> None:
        self.session.go_to(self.session.ply + moves)
        self._show()

    def action_turn(self, turns: int) -> None:
        """Goes ``turns`` turns on or back, to the end of a turn: from the middle of one,
        a turn on is its own end."""
        session = self.session
        turn = self._turn_number()
        if turns > 0 and session.after_turn(turn) > session.ply:
            turns -= 1
        self.session.go_to(session.after_turn(turn + turns))
        self._show()

    def _turn_number(self) -> int:
        """The turn the replay's last move belongs to, as the move list numbers it: in
        Connect6 and Game of 6 the opening stone is turn 1, and each pair a turn after."""
        ply = self.session.ply
        if self.session.game.name == "six" or ply == 0:
            return ply
        return ply // 2 + 1

    def action_go_to_start(self) -> None:
        self.session.go_to(0)
        self._show()

    def action_go_to_end(self) -> None:
        self.session.go_to(self.session.moves)
        self._show()

    def action_ask_turn(self) -> None:
        entry = self.turn_input
        entry.placeholder = "go to turn (its number in the move list), Enter goes, Esc stays"
        entry.display = True
        self.set_focus(entry)

    def action_submit_line(self) -> None:
        entry = self.focused
        if isinstance(entry, TypedInput):
            entry.post_message(TypedInput.SubmitTyped())
        self.set_focus(self.board)

    def action_close_line(self) -> None:
        if isinstance(self.focused, TypedInput):
            self.focused.post_message(TypedInput.DiscardTyped())
        self.turn_input.display = False
        self.set_focus(self.board)

    @on(Input.Submitted, "#turn-input")
    def _turn_typed(self, message: Input.Submitted) -> None:
        self.turn_input.display = False
        text = message.value.strip().rstrip(".")
        if not text:
            return
        if not text.isdigit():
            self._show(f"{text!r} is not a turn: type its number, such as 12")
            return
        self.session.go_to(self.session.after_turn(int(text)))
        self._show()

    def action_show_record(self) -> None:
        """The game's record as text, to read or to copy."""
        lines = tuple(printable(line) for line in str(self.session.record).splitlines())
        self.app.push_screen(PageScreen(Page("The game's record", lines)))

    def key_description(self, action: str, description: str) -> str | None:
        """The footer's words for a key: while a turn number is typed, only Esc."""
        typing = isinstance(self.focused, Input)
        if action == "choose":  # the board's: nothing is placed at a replay
            return None
        if action == "close_line":
            return description if typing else None
        return None if typing else description

    async def action_leave(self) -> None:
        if self.leaves_app:
            await self.app.leave_game()  # type: ignore[attr-defined]
        else:
            self.dismiss()
