"""The game screen: the board, the side panel, and every key a player uses."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Input

from sixtui.rules import IllegalMove, Move
from sixtui.tui.field_lengths import MOVE_LINE
from sixtui.tui.game_setup import TITLES
from sixtui.tui.move_chooser import MoveChooser, moves_pieces
from sixtui.tui.palettes import team_names
from sixtui.tui.screens.dialogs import ConfirmScreen, SummaryScreen
from sixtui.tui.session import GameSession, Update
from sixtui.tui.textual_internals import active_app
from sixtui.tui.widgets.board import BoardView
from sixtui.tui.widgets.hex_board import HexBoard
from sixtui.tui.widgets.keys import KeyBar
from sixtui.tui.widgets.panel import SidePanel, status_line
from sixtui.tui.widgets.square_board import SquareBoard
from sixtui.tui.widgets.typing import TypedInput


class SessionChanged(Message):
    """The session has news; posted so that it is handled on this screen's own task."""

    def __init__(self, update: Update) -> None:
        super().__init__()
        self.update = update


class GameScreen(Screen[None]):
    """One table: the board on the left, the panel on the right."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("u", "undo", "Undo"),
        Binding("r", "resign", "Resign"),
        Binding("m", "hints", "Hints"),
        Binding("exclamation_mark", "declare", "Declare", show=False),
        Binding("slash,colon", "type_move", "Type"),
        Binding("n", "next_game", "Next game", show=False),
        Binding("escape", "cancel", "Cancel", show=False),
        Binding("question_mark", "app.help", "Rules"),
        Binding("q", "quit_game", "Quit"),
    ]

    def __init__(self, session: GameSession) -> None:
        super().__init__()
        self.session = session
        self.chooser = MoveChooser()
        self._show_hints = False
        self._spinning: Timer | None = None
        self._declaring = False
        self._stop_listening = session.subscribe(self._hear)
        self._own_app: object = None

    def compose(self) -> ComposeResult:
        game = self.session.game
        board_type = HexBoard if game.name == "six" else SquareBoard
        yield board_type(self.session, self._cell_chosen, id="board")
        yield SidePanel(self.session, TITLES[game.name], id="side")
        yield KeyBar()
        yield TypedInput(
            placeholder="type a move, like J10 or 2,0>1,1; Enter plays it, Esc goes back",
            max_length=MOVE_LINE,
            id="move-input",
        )

    @property
    def board(self) -> BoardView:
        return self.query_one("#board", BoardView)

    def on_mount(self) -> None:
        self._own_app = active_app.get()
        self.board.focus()
        self._show_position()
        self._spin(self.session.thinking)

    def on_unmount(self) -> None:
        self._stop_listening()

    # -- news from the session -----------------------------------------------------------

    def _hear(self, update: Update) -> None:
        """Session news: handled at once when this app's own work brought it (a move
        played here, this app's computer player), otherwise posted as a message, since
        code running for another session must never touch these widgets."""
        if self._own_app is not None and active_app.get(None) is self._own_app:
            self._handle(update)
        else:
            self.post_message(SessionChanged(update))

    @on(SessionChanged)
    def _session_changed(self, message: SessionChanged) -> None:
        self._handle(message.update)

    def _handle(self, update: Update) -> None:
        said = None
        if update.kind in ("moves", "undo", "new-game"):
            self.chooser.reset()
            self._declaring = False
            said = ""
        if update.kind == "problem":
            said = update.text
        self._show_position(said)
        if update.kind == "new-game" and isinstance(self.board, HexBoard):
            self.board.action_centre()
        self._spin(self.session.thinking)
        if update.kind == "over":
            self.app.push_screen(SummaryScreen(self.session), self._after_summary)

    def _show_position(self, message: str | None = None) -> None:
        """Redraws the board and panel; ``message`` replaces the one shown, if given."""
        game = self.session.game
        board = self.board
        if isinstance(board, HexBoard):
            hints = self.chooser.hints(game) if self._wants_hints() else frozenset()
            board.show_choice(hints, self.chooser.picked, self.chooser.groups)
        else:
            board.sync()
        status = status_line(
            self.session,
            picking=moves_pieces(game),
            destination=self.chooser.picked is not None,
            tied=bool(self.chooser.groups),
        )
        if self._declaring:
            status += " and declare (!)"
        self.panel.show(status, message)

    @property
    def panel(self) -> SidePanel:
        return self.query_one("#side", SidePanel)

    def _spin(self, thinking: bool) -> None:
        """Turns the thinking spinner on or off: the screen shows it is alive meanwhile."""
        if thinking and self._spinning is None:
            self._spinning = self.set_interval(0.2, self._next_tick)
        elif not thinking and self._spinning is not None:
            self._spinning.stop()
            self._spinning = None

    def _next_tick(self) -> None:
        self.panel.tick += 1
        self.panel.sync()

    def _wants_hints(self) -> bool:
        return self._show_hints or self.chooser.picked is not None

    def _say(self, text: str) -> None:
        self.panel.show(message=text)

    # -- choosing cells ------------------------------------------------------------------

    async def _cell_chosen(self, cell: object) -> None:
        """The player chose ``cell`` on the board: a move, or one step of one."""
        if not self.session.may_move:
            self._say(self._why_not_now())
            return
        try:
            move = self.chooser.choose(self.session.game, cell)
        except IllegalMove as why:
            self._say(str(why))
            return
        if move is None:
            self._show_position("")
            return
        await self._play(move)

    async def _play(self, move: Move | str) -> None:
        if self._declaring and isinstance(move, Move) and move.to is not None:
            move = Move(move.to, move.origin, move.keep, declare=True)
        try:
            await self.session.play(move)
        except IllegalMove as why:
            self._say(str(why))
            self._show_position()

    def _why_not_now(self) -> str:
        game = self.session.game
        if self.session.match.is_over:
            return "the match is over: q leaves"
        if game.is_over:
            return "the game is over: n starts the next one"
        return f"wait: it is {self.session.player_at(game.to_move).name}'s turn"

    @on(Input.Submitted, "#move-input")
    async def _move_typed(self, message: Input.Submitted) -> None:
        text = message.value.strip()
        message.input.value = ""
        self._close_move_input()
        if not text:
            return
        if not self.session.may_move:
            self._say(self._why_not_now())
            return
        self.chooser.reset()
        await self._play(text)

    # -- actions -------------------------------------------------------------------------

    def action_type_move(self) -> None:
        entry = self.query_one("#move-input", Input)
        entry.display = True
        entry.focus()

    def _close_move_input(self) -> None:
        self.query_one("#move-input", Input).display = False
        self.board.focus()

    def action_cancel(self) -> None:
        if self.focused is not self.board:
            self._close_move_input()
        elif self.chooser.picked is not None or self._declaring:
            self.chooser.reset()
            self._declaring = False
            self._say("")
            self._show_position()

    def action_hints(self) -> None:
        if not isinstance(self.board, HexBoard):
            self._say("every empty point is a legal place here: hints are for Six")
            return
        self._show_hints = not self._show_hints
        self._say("hints on: + marks where you may play" if self._show_hints else "hints off")
        self._show_position()

    async def action_declare(self) -> None:
        game = self.session.game
        if not game.options().get("declare"):
            self._say("declaring is off in this game")
        elif game.can_declare() and self.session.may_move:  # type: ignore[attr-defined]
            await self._play("declare")
        else:
            self._declaring = not self._declaring
            self._say("your next move declares" if self._declaring else "")
            self._show_position()

    async def action_undo(self) -> None:
        if not self.session.may_undo:
            self._say("there is no move of yours to take back")
            return
        await self.session.undo()

    def action_resign(self) -> None:
        if not self.session.may_resign:
            self._say("there is nothing to resign")
            return
        seat = self.session.resigning_seat
        assert seat is not None
        team = team_names(self.session.game)[seat % 2]
        question = f"Resign this game for {team} ({self.session.player_at(seat).name})?"
        self.app.push_screen(ConfirmScreen(question, "Resign"), self._resign_confirmed)

    async def _resign_confirmed(self, confirmed: bool | None) -> None:
        if confirmed and self.session.may_resign:
            await self.session.resign()

    async def action_next_game(self) -> None:
        if not self.session.game.is_over:
            self._say("the game is still on")
        elif self.session.match.is_over:
            self._say("the match is over: q leaves")
        else:
            await self.session.next_game()

    def action_quit_game(self) -> None:
        if self.session.game.is_over or not self.session.may_resign:
            self.app.call_later(self._leave)
            return
        self.app.push_screen(
            ConfirmScreen("Leave this game? It is not over.", "Leave"), self._quit_confirmed
        )

    def _quit_confirmed(self, confirmed: bool | None) -> None:
        if confirmed:
            self.app.call_later(self._leave)

    async def _leave(self) -> None:
        await self.session.close()
        await self.app.leave_game()

    async def _after_summary(self, choice: str | None) -> None:
        if choice == "next" and not self.session.match.is_over:
            await self.session.next_game()
        elif choice == "quit":
            await self._leave()
