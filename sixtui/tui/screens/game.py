"""The game screen: the board, the side panel, and every key a player uses; at an online
table also the keys for draws, rematches, players who are away, and the chat."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.reactive import reactive
from textual.timer import Timer
from textual.widgets import Input
from textual.worker import Worker, get_current_worker

from sixtui.rules import Game, IllegalMove, Move, Square
from sixtui.rules.records import GameRecord
from sixtui.tui.chat import said_text
from sixtui.tui.field_lengths import CHAT_LINE, MOVE_LINE
from sixtui.tui.move_chooser import MoveChooser, moves_pieces
from sixtui.tui.replay import ReplaySession
from sixtui.tui.screens.dialogs import ConfirmScreen, SummaryScreen, next_game_offered
from sixtui.tui.screens.focus import FocusScreen
from sixtui.tui.screens.replay import ReplayScreen
from sixtui.tui.session import NO_CHAT, NO_SUGGESTION_ONLINE, GameSession, Update
from sixtui.tui.textual_internals import active_app
from sixtui.tui.widgets.board import BoardView
from sixtui.tui.widgets.hex_board import HexBoard
from sixtui.tui.widgets.keys import KeyBar
from sixtui.tui.widgets.panel import SidePanel, names_of, status_line, verb_for
from sixtui.tui.widgets.square_board import SquareBoard
from sixtui.tui.widgets.typing import SayingLine, TypedInput

MOVE_LIST_ACTIONS = frozenset(
    binding.action for binding in SidePanel.BINDINGS if isinstance(binding, Binding)
)

THINKING_OF_SUGGESTION = "thinking of a turn to suggest… (Esc stops)"
CLOCK_TICK = 1.0  # seconds between two drawings of a running clock

# With a whole turn staged, what may be done besides sending it or taking it back.
WHILE_READY = frozenset(
    {"centre", "type_move", "chat", "resign", "offer_draw", "app.help", "quit_game"}
)


class SessionChanged(Message):
    """The session has news; posted so that it is handled on this screen's own task."""

    def __init__(self, update: Update) -> None:
        super().__init__()
        self.update = update


class GameScreen(FocusScreen[None]):
    """One table: the board on the left, the panel on the right."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("u", "undo", "Undo"),
        Binding("r", "resign", "Resign"),
        Binding("m", "hints", "Hints"),
        Binding("s", "suggest", "Suggest"),
        Binding("p", "play_suggestion", "Play it"),
        Binding("exclamation_mark", "declare", "Declare"),
        # Priority bindings run as their key is read, before the keys after it are handed
        # to the focus: in a burst ("/J10⏎" in one packet), the keys after "/" reach the
        # move line and those after its Enter reach the board. So too after "t".
        Binding("slash,colon", "type_move", "Type", priority=True),
        Binding("t", "chat", "Chat", priority=True),
        Binding("enter", "submit_line", show=False, priority=True),
        Binding("n", "next_game", "Next game"),
        Binding("o", "offer_draw", "Offer draw"),
        Binding("a", "accept_draw", "Accept draw"),
        Binding("d", "decline_draw", "Decline draw"),
        Binding("w", "claim_win", "Claim win"),
        Binding("x", "abort", "Abort"),
        Binding("escape", "cancel", "Cancel"),
        Binding("escape", "close_line", "Cancel", priority=True),
        Binding("v", "review", "Review"),
        Binding("e", "save_record", "Save record"),
        Binding("question_mark", "app.help", "Rules"),
        Binding("q", "quit_game", "Quit"),
    ]

    suggestion: reactive[tuple[Move, ...]] = reactive((), init=False)
    """The turn suggested to the player to move, drawn on the board (none: empty)."""

    def __init__(self, session: GameSession) -> None:
        super().__init__()
        self.session = session
        self.chooser = MoveChooser()
        self._suggesting: Worker[None] | None = None  # while a turn to suggest is thought of
        self._show_hints = False
        self._spinning: Timer | None = None
        self._counting_down: Timer | None = None  # while someone at the table is away
        self._clock_ticking: Timer | None = None  # while a clock runs
        self._past_time: set[str] = set()  # those away past their time, once told
        self._summary: SummaryScreen | None = None  # the last game's, while it may be open
        self._saved: tuple[int, str] | None = None  # the game of the match saved, and where
        self._review: ReplayScreen | None = None  # the game in play's moves, while open
        self._declaring = False
        self._declared = False  # the turn being played carries a declaring "!"
        self._stop_listening = session.subscribe(self._hear)
        self._own_app: object = None

    def compose(self) -> ComposeResult:
        game = self.session.game
        board_type = HexBoard if game.name == "six" else SquareBoard
        yield board_type(self.session, self._cell_chosen, id="board")
        yield SidePanel(self.session, id="side")
        yield KeyBar()
        # Shown only while they have the focus: drawn alike focused or not.
        yield SayingLine(MOVE_LINE, id="move-input", focus_styled=False)
        yield TypedInput(max_length=CHAT_LINE, id="chat-input", focus_styled=False, cuts=True)

    @property
    def board(self) -> BoardView:
        return self.query_one("#board", BoardView)

    @property
    def move_input(self) -> Input:
        return self.query_one("#move-input", Input)

    @property
    def chat_input(self) -> Input:
        return self.query_one("#chat-input", Input)

    def on_mount(self) -> None:
        self._own_app = active_app.get()
        self.set_focus(self.board)
        self._show_position(self._who_opens())
        self._spin(self.session.thinking)

    def _who_opens(self) -> str | None:
        """At a shared table whose game has not begun, who opens it (drawn at random for
        the first game of a match): the players see it as the table opens."""
        game, session = self.session.game, self.session
        if not session.shared or game.history or game.is_over:
            return None
        if game.to_move in session.own_seats:
            return "you open"
        return f"{session.player_at(game.to_move).name} opens"

    def on_unmount(self) -> None:
        self._stop_listening()

    # -- news from the session -----------------------------------------------------------

    def _hear(self, update: Update) -> None:
        """Session news: handled at once when this app's own work brought it (a move
        played here, this app's computer player), otherwise posted as a message, since
        code running for another session must never touch these widgets."""
        if self._own_app is not None and active_app.get(None) is self._own_app:
            # As the app closes, the screen's widgets go before it stops listening: news
            # arriving then (a move that reached the table meanwhile) has nothing to draw on.
            if self.query("#board"):
                self._handle(update)
        else:
            self.post_message(SessionChanged(update))

    @on(SessionChanged)
    def _session_changed(self, message: SessionChanged) -> None:
        self._handle(message.update)

    def _handle(self, update: Update) -> None:
        said = None
        if update.kind in ("moves", "undo", "new-game", "over"):
            self._drop_suggestion()
        if update.kind in ("moves", "undo", "new-game"):
            self.chooser.reset()
            self._declaring = False
            said = ""
        if update.kind == "moves" and self.session.staged:
            said = self._staged_news()
        offered = self.session.draw_offered_by
        if update.kind == "moves" and offered is not None and self._draw_offered_to_me():
            offering = self.session.sides[offered]  # the offer stands until answered
            said = (
                f"{names_of(offering)} {verb_for(offering, 'offer')} a draw: a accepts, d declines"
            )
        if update.kind == "moves" and self._declared:
            self._declared = False
            if not self.session.game.is_over:
                said = "nothing to declare: no shape your team may declare, so no win"
        if update.kind == "chat":
            self.panel.sync()
            return
        if update.kind in ("moves", "over") and self._review is not None:
            self._review.follow(self._record())  # a spectator's review goes on with the game
        if update.kind == "new-game":
            self._review = None  # it shows the game that ended, which goes on no more
        if update.kind in ("problem", "table"):  # "table": an offer, a player gone...
            said = update.text
        if update.kind == "table" and self._summary is not None:
            self._summary.refresh_text()  # ratings moved by the game just over, a player gone
        if update.kind == "over" and said is None:
            said = ""  # an offer or a warning of the game in play is old news
        self._show_position(said)
        if update.kind == "new-game" and isinstance(self.board, HexBoard):
            self.board.action_centre()
        self._spin(self.session.thinking)
        if update.kind == "over":
            self._summary = SummaryScreen(self.session, self._open_line)
            self.app.push_screen(self._summary, self._after_summary)
        if update.kind == "new-game":
            self._close_summary()

    def _staged_news(self) -> str:
        if self.session.turn_ready:  # the status line says what to do
            return ""
        staged = " ".join(str(move) for move in self.session.staged)
        return f"{staged} goes to the table with the rest of your turn; Esc takes it back"

    def _close_summary(self) -> None:
        """Online, another player may begin the next game while this one's summary is still
        open here: it goes, rather than offer a next game already begun."""
        if self._summary is not None and self.app.screen is self._summary:
            self._summary.dismiss(None)
        self._summary = None

    def _show_position(self, message: str | None = None) -> None:
        """Redraws the board and panel; ``message`` replaces the one shown, if given."""
        game = self.session.game
        board = self.board
        board.mark_suggestion(self.suggestion)
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
        self.refresh_bindings()
        self._count_down()
        self._keep_clock_going()

    def _keep_clock_going(self) -> None:
        """While a side's clock runs, the panel is drawn again every second: only the
        clock's line changes, so only it is sent to the terminal."""
        session = self.session
        running = not session.game.is_over and any(session.clock_runs(side) for side in (0, 1))
        if running and self._clock_ticking is None:
            self._clock_ticking = self.set_interval(CLOCK_TICK, self.panel.sync)
        elif not running and self._clock_ticking is not None:
            self._clock_ticking.stop()
            self._clock_ticking = None
            self.panel.sync()

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

    def _count_down(self) -> None:
        """Redraws the panel every second while a player is away with time left to come
        back: their seat shows it counting down, and once it is up the keys to claim
        the game or abort it are offered."""
        self._tell_past_time()
        counting = any(left > 0 for left in self.session.away.values())
        if counting and self._counting_down is None:
            self._counting_down = self.set_interval(1.0, self._away_tick)
        elif not counting and self._counting_down is not None:
            self._counting_down.stop()
            self._counting_down = None

    def _away_tick(self) -> None:
        self.panel.sync()
        self.refresh_bindings()
        self._count_down()

    def _tell_past_time(self) -> None:
        """Says, once, that a player away did not come back in time, and what may be done."""
        away = {} if self._game_over() else self.session.away
        self._past_time &= set(away)
        for name in sorted(name for name, left in away.items() if left <= 0):
            if name not in self._past_time:
                self._past_time.add(name)
                self._say(self._past_time_news(name))

    def _past_time_news(self, name: str) -> str:
        if not self._others_gone():
            return f"{name} did not come back in time"
        abort = ", x aborts it" if self.session.barely_begun else ""
        return f"{name} did not come back in time: w claims the game{abort}, or wait on"

    def _wants_hints(self) -> bool:
        return self._show_hints or self.chooser.picked is not None

    def _say(self, text: str) -> None:
        self.panel.show(message=text)

    # -- the keys offered ----------------------------------------------------------------

    def key_description(self, action: str, description: str) -> str | None:
        """What the footer says the key bound to ``action`` does now; ``None`` leaves out
        a key that would only say why it does nothing (pressed, it still says so)."""
        if isinstance(self.focused, Input):  # typed keys go into the move or the chat
            return description if action == "close_line" else None
        if action in MOVE_LIST_ACTIONS and self.focused is self.panel:  # (a query: last)
            return description  # the moves scroll while the game is on and after it
        session, game = self.session, self.session.game
        if session.turn_ready:  # a whole turn on the board, not yet sent
            ready = {"choose": "Confirm", "cancel": "Take back"}
            return ready.get(action, description if action in WHILE_READY else None)
        if game.is_over:
            after_the_end = {"centre", "app.help", "quit_game", "review"}
            if not session.shared:
                after_the_end.add("save_record")
            if session.may_chat:
                after_the_end.add("chat")
            if action == "next_game" and next_game_offered(session):
                return "Rematch" if session.match.is_over else description
            return description if action in after_the_end else None
        if action == "choose":
            return self._choosing() if session.may_move else None
        if action == "suggest" and self._suggesting is not None:
            return "Thinking…"
        if action == "cancel" and session.staged:  # a Connect6 or Game of 6 turn begun
            return "Take back"
        offered = self._offered.get(action)
        return description if offered is None or offered(self) else None

    # Whether each key that is not always offered is offered now, asked of the key bar's
    # keys one at a time (the bar asks every time the keys may have changed: working all
    # of them out for each key made the bar most of what an online turn cost to draw).
    _offered: ClassVar[dict[str, Callable[[GameScreen], bool]]] = {
        "review": lambda screen: screen.session.watching,  # players: once the game is over
        "save_record": lambda screen: False,  # once the game is over, and only here, not online
        "undo": lambda screen: screen.session.may_undo,
        "resign": lambda screen: screen.session.may_resign,
        # A piece picked shows where it may go whether hints are on or not.
        "hints": lambda screen: (
            isinstance(screen.board, HexBoard) and screen.chooser.picked is None
        ),
        "declare": lambda screen: bool(screen.session.game.options().get("declare")),
        # Once shown, p takes the suggestion's place; midway through a move of Six, the
        # footer has no room for it (the key still works).
        "suggest": lambda screen: (
            screen.session.may_move
            and not screen.session.shared
            and not screen.suggestion
            and screen.chooser.picked is None
            and not screen.chooser.groups
        ),
        "play_suggestion": lambda screen: bool(screen.suggestion),
        "chat": lambda screen: screen.session.may_chat,
        "next_game": lambda screen: False,
        # Esc also hides a suggestion, as the panel says: no room for it down here.
        "cancel": lambda screen: (
            screen.chooser.picked is not None or screen._declaring or bool(screen.session.staged)
        ),
        "offer_draw": lambda screen: screen.session.may_offer_draw,
        "accept_draw": lambda screen: screen._draw_offered_to_me(),
        "decline_draw": lambda screen: screen._draw_offered_to_me(),
        "claim_win": lambda screen: screen._others_gone(),
        "abort": lambda screen: screen._others_gone() and screen.session.barely_begun,
    }

    def _own_side(self) -> int | None:
        """The side played from this screen, while a seat of it may resign."""
        seat = self.session.resigning_seat
        return None if seat is None else self.session.side_of_team(seat % 2)

    def _draw_offered_to_me(self) -> bool:
        offered, own = self.session.draw_offered_by, self._own_side()
        return offered is not None and own is not None and offered != own

    def _others_gone(self) -> bool:
        """Whether a player of the other side has been away past their time to come back."""
        own = self._own_side()
        if own is None:
            return False
        others = {player.name for player in self.session.sides[1 - own]}
        return any(name in others and left <= 0 for name, left in self.session.away.items())

    def _choosing(self) -> str:
        """What choosing a cell does next."""
        if not moves_pieces(self.session.game):
            return "Place"
        if self.chooser.groups:
            return "Keep group"
        return "Move here" if self.chooser.picked is not None else "Pick"

    def _game_over(self) -> bool:
        """Whether the game has ended: not merely shown ended by a winning turn staged."""
        return self.session.game.is_over and not self.session.turn_ready

    def _refused_when_over(self) -> bool:
        """Says why, and is true, when the game has ended: for keys that change a game in play."""
        if self._game_over():
            self._say(self._why_not_now())
            return True
        return False

    # -- choosing cells ------------------------------------------------------------------

    async def _cell_chosen(self, cell: object) -> None:
        """The player chose ``cell`` on the board: a move, or one step of one; or, with a
        whole turn staged, sends it."""
        if not self.session.may_move:
            self._say(self._why_not_now())
            return
        if self.session.turn_ready:
            await self._confirm()
            return
        try:
            move = self.chooser.choose(self.session.game, cell)
        except IllegalMove as why:
            self._say(str(why))
            return
        if move is None:
            self._show_position("")
            return
        await self._play(move, chosen=True)

    async def _confirm(self) -> None:
        try:
            await self.session.confirm_turn()
        except IllegalMove as why:
            self._say(str(why))
            self._show_position()

    async def _play(self, *turn: Move | str, chosen: bool = False) -> bool:
        """Asks the session to play ``turn``, a move or more (one ``chosen`` on the board
        is staged, online); says why not when it cannot, and returns whether it could."""
        if self._declaring:
            turn = tuple(_declaring(move) for move in turn)
        # A '!' with no shape the team may declare is played as an ordinary move: the
        # player hears so once the move is in.
        self._declared = any(str(move).rstrip().endswith("!") for move in turn)
        try:
            if chosen:
                await self.session.stage(turn[0])
            else:
                await self.session.play_turn(turn)
        except IllegalMove as why:
            self._declared = False
            self._say(str(why))
            self._show_position()
            return False
        return True

    def _why_not_now(self) -> str:
        game = self.session.game
        if self.session.watching:
            return "you are watching: the players play here, and v reviews the moves"
        if self.session.match.is_over:
            if self.session.shared:
                return "the match is over: n asks for a rematch, q leaves"
            return "the match is over: q leaves"
        if game.is_over:
            return "the game is over: n starts the next one"
        return f"wait: it is {self.session.player_at(game.to_move).name}'s turn"

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Enter submits a line only from the move or chat line, and "/" and "t" open theirs
        only from elsewhere (typed into a line, they are characters): otherwise the keys
        are theirs."""
        typing = isinstance(self.focused, Input)
        if action in ("submit_line", "close_line"):
            return typing
        if action in ("type_move", "chat"):
            return not typing
        return True

    def action_submit_line(self) -> None:
        entry = self.focused
        # The keys typed before this Enter may still wait in the input's queue: it submits
        # once they are in, while the keys after it already go to the board.
        if isinstance(entry, TypedInput):
            entry.post_message(TypedInput.SubmitTyped())
        self.set_focus(self.board)

    @on(Input.Submitted, "#move-input")
    async def _move_typed(self, message: Input.Submitted) -> None:
        if self.focused is not self.move_input:  # unless a "/" opened it again since
            self.move_input.display = False
        text = message.value.strip().removeprefix("/").strip()  # a "/" typed twice is fine
        if not text:
            return
        said = said_text(text)
        if said is not None:
            await self._chat(said)
            return
        if not self.session.may_move:
            self._say(self._why_not_now())
            return
        self.chooser.reset()
        moves = typed_turn(self.session.game, text)
        unplayed = after_the_end(self.session.game, moves)
        if await self._play(*moves) and unplayed:
            self._say(f"the game ended before {' '.join(unplayed)}: it was not played")

    # -- actions -------------------------------------------------------------------------

    def action_type_move(self) -> None:
        # Where there is a chat the line opens whoever types it, and whenever, to say
        # things ("/say gg"): refused, the rest of the line would run as keys (n, q, ...).
        if not self.session.may_chat and (self.session.watching or self._game_over()):
            self._say(self._why_not_now())
            return
        entry = self.move_input
        entry.placeholder = self._typing_prompt()
        entry.display = True
        # At once, not through Widget.focus, which waits until the keys already queued are
        # handled: the next key of a burst must find the focus where this one put it.
        self.set_focus(entry)

    def _typing_prompt(self) -> str:
        """What the move line asks for: a move from a player while the game is on, otherwise
        what the line can still do."""
        if self.session.watching or self._game_over():
            return f"say TEXT speaks to {self.session.chat_readers}; Enter sends, Esc goes back"
        return typing_prompt(self.session.game)

    def _close_lines(self) -> None:
        self.move_input.display = False
        self.chat_input.display = False
        self.set_focus(self.board)

    def action_close_line(self) -> None:
        if isinstance(self.focused, TypedInput):  # forgotten once the keys before are in
            self.focused.post_message(TypedInput.DiscardTyped())
        self._close_lines()

    def action_chat(self) -> None:
        if not self.session.may_chat:
            self._say(NO_CHAT)
            return
        entry = self.chat_input
        entry.placeholder = (
            f"say something to {self.session.chat_readers}: Enter sends, Esc goes back"
        )
        entry.display = True
        self.set_focus(entry)  # at once, as for the move line

    @on(Input.Submitted, "#chat-input")
    async def _chat_typed(self, message: Input.Submitted) -> None:
        if self.focused is not self.chat_input:  # unless a "t" opened it again since
            self.chat_input.display = False
        await self._chat(message.value)

    async def _chat(self, text: str) -> None:
        """Says ``text`` at the table; a line refused says why, and nothing is sent."""
        refused = await self.session.say(text)
        if refused:
            self._say(refused)

    async def action_cancel(self) -> None:
        if self.focused is not self.board:
            self._close_lines()
        elif self.chooser.picked is not None or self._declaring:
            self.chooser.reset()
            self._declaring = False
            self._say("")
            self._show_position()
        elif self.session.staged:
            await self.session.clear_turn()
        elif self._suggesting is not None or self.suggestion:
            self._drop_suggestion()
            self._say("")
            self.refresh_bindings()

    def action_hints(self) -> None:
        if self._refused_when_over():
            return
        if not isinstance(self.board, HexBoard):
            self._say("every empty point is a legal place here: hints are for Six")
            return
        self._show_hints = not self._show_hints
        self._say("hints on: + marks where you may play" if self._show_hints else "hints off")
        self._show_position()

    # -- a suggested turn ----------------------------------------------------------------

    def action_suggest(self) -> None:
        """Thinks of a turn for the player to move, in the worker processes (the board
        stays in play meanwhile), then draws it and names it."""
        if self._refused_when_over():
            return
        if self.session.shared:
            self._say(NO_SUGGESTION_ONLINE)
        elif not self.session.may_move:
            self._say(self._why_not_now())
        elif self._suggesting is not None:
            self._say(THINKING_OF_SUGGESTION)  # one at a time
        elif self.suggestion:
            self._say(self._suggestion_words())
        else:
            self._suggesting = self.run_worker(
                self._think_of_suggestion(), group="suggestion", exit_on_error=False
            )
            self._say(THINKING_OF_SUGGESTION)
            self.refresh_bindings()

    async def _think_of_suggestion(self) -> None:
        """Shows the turn the session suggests, unless the position changed meanwhile."""
        asked_in = self._position()
        try:
            turn = await self.session.suggest()
        except IllegalMove as why:
            self._say(f"no suggestion: {why}")
            return
        finally:
            self._done_suggesting(get_current_worker())
        if self._position() == asked_in:
            self.suggestion = tuple(turn)
            self._say(self._suggestion_words())

    def _done_suggesting(self, worker: Worker[None]) -> None:
        if self._suggesting is worker:  # not already dropped, and no newer one began
            self._suggesting = None
            self.refresh_bindings()

    def _position(self) -> tuple[int, tuple[Move, ...]]:
        """What a suggestion is thought for: the game in play and the moves played in it."""
        game = self.session.game
        return id(game), tuple(game.history)

    def _suggestion_words(self) -> str:
        turn = " ".join(str(move) for move in self.suggestion)
        return f"suggested: {turn} (p plays it, Esc hides it)"

    def _drop_suggestion(self) -> None:
        """Forgets the suggested turn, or stops thinking of one: its position is gone."""
        if self._suggesting is not None:
            self._suggesting.cancel()
            self._suggesting = None
        self.suggestion = ()

    def watch_suggestion(self) -> None:
        self._show_position()

    async def action_play_suggestion(self) -> None:
        if self._refused_when_over():
            return
        if not self.suggestion:
            self._say("there is no suggested turn to play: s asks for one")
            return
        self.chooser.reset()
        self._declaring = False  # the suggested turn says itself whether it declares
        await self._play(*self.suggestion)

    async def action_declare(self) -> None:
        game = self.session.game
        if not game.options().get("declare"):
            self._say("declaring is off in this game")
            return
        if self._refused_when_over():
            return
        if game.can_declare() and self.session.may_move:  # type: ignore[attr-defined]
            await self._play("declare")
        else:
            self._declaring = not self._declaring
            self._say("your next move declares" if self._declaring else "")
            self._show_position()

    async def action_undo(self) -> None:
        if self._refused_when_over():
            return
        if not self.session.may_undo and not self.session.shared:
            self._say("there is no move of yours to take back")
            return
        await self._ask(self.session.undo())  # online, the table says why not

    def action_resign(self) -> None:
        if self._refused_when_over():
            return
        if self.session.watching:
            self._say(self._why_not_now())
            return
        if not self.session.may_resign:
            self._say("there is nothing to resign")
            return
        seat = self.session.resigning_seat
        assert seat is not None
        losers = self.session.sides[self.session.side_of_team(seat % 2)]
        question = f"Resign this game? {names_of(losers)} {verb_for(losers, 'lose')} it."
        self.app.push_screen(ConfirmScreen(question, "Resign"), self._resign_confirmed)

    async def _resign_confirmed(self, confirmed: bool | None) -> None:
        if confirmed and self.session.may_resign:
            await self.session.resign()

    async def action_next_game(self) -> None:
        if not self._game_over():
            self._say("the game is still on")
        elif self.session.match.is_over and self.session.shared:
            await self._ask(self.session.rematch())
        elif self.session.match.is_over:
            self._say(self._why_not_now())
        else:
            await self.session.next_game()

    # Online, a refusal comes back from the table as news; the default session raises it.
    async def action_offer_draw(self) -> None:
        await self._ask(self.session.offer_draw())

    async def action_accept_draw(self) -> None:
        await self._ask(self.session.answer_draw(True))

    async def action_decline_draw(self) -> None:
        await self._ask(self.session.answer_draw(False))

    async def action_claim_win(self) -> None:
        await self._ask(self.session.claim_win())

    async def action_abort(self) -> None:
        await self._ask(self.session.abort())

    async def _ask(self, request: Awaitable[None]) -> None:
        """Asks the session something; says why not when it refuses at once."""
        try:
            await request
        except IllegalMove as why:
            self._say(str(why))

    def action_review(self) -> None:
        """The game so far, to step back through on a replay screen while it goes on
        here: a spectator at any time, a player once it is over; q comes back. It opens
        at the newest move and, while it stays there, follows the moves as they come."""
        session = self.session
        if not (session.watching or session.game.is_over):
            self._say("the moves are reviewed once the game is over, or by spectators")
            return
        if not session.game.history:
            self._say("no move has been played yet")
            return
        replay = ReplaySession(self._record())
        replay.go_to(replay.moves)
        self._review = ReplayScreen(replay)
        self.app.push_screen(self._review, self._review_closed)

    def _review_closed(self, _: None) -> None:
        self._review = None

    def action_save_record(self) -> None:
        """Writes the record of the game just played to a file in the folder sixtui was
        started from (never on a server's disk: online, the archive keeps every game)."""
        session = self.session
        if session.shared:
            self._say("online, the server's archive keeps every game: replay NUMBER in the lobby")
            return
        if not session.game.is_over:
            self._say("the record is saved once the game is over")
            return
        number = len(session.match.results)
        if self._saved is not None and self._saved[0] == number:
            self._say(f"this game is saved already, in {self._saved[1]}")
            return
        when = datetime.now(UTC)
        text = str(self._record({"Site": "sixtui, one terminal", "Date": f"{when:%Y-%m-%d}"}))
        path = Path.cwd() / f"sixtui-{session.game.name}-{when:%Y%m%d-%H%M%S}.txt"
        try:
            path.write_text(text + "\n", encoding="utf-8")
        except OSError as why:
            self._say(f"the record could not be saved: {why.strerror or why}")
            return
        self._saved = (number, path.name)
        self._say(f"saved in {path.name}: sixtui replay {path.name} steps through it")

    def _record(self, headers: dict[str, str] | None = None) -> GameRecord:
        """The game at this table as it stands, with its players' names, as a record."""
        session = self.session
        players = tuple(session.player_at(seat).name for seat in range(session.game.players))
        return GameRecord(session.game.copy(), players, headers or {})

    def action_quit_game(self) -> None:
        if self._game_over() or not self.session.may_resign:
            self.app.call_later(self._leave)
            return
        question = "Leave this game? It is not over."
        if self.session.shared:
            question += " Your seat waits for you a while: your game in the lobby brings you back."
            if any(self.session.clock_left(side) is not None for side in (0, 1)):
                question += " Your clock keeps running meanwhile."
        self.app.push_screen(ConfirmScreen(question, "Leave"), self._quit_confirmed)

    def _quit_confirmed(self, confirmed: bool | None) -> None:
        if confirmed:
            self.app.call_later(self._leave)

    async def _leave(self) -> None:
        await self.session.close()
        await self.app.leave_game()

    def _open_line(self, line: str) -> None:
        """Opens the chat ("chat") or the move line ("type"), from the result."""
        if line == "chat":
            self.action_chat()
        else:
            self.action_type_move()

    async def _after_summary(self, choice: str | None) -> None:
        self._summary = None
        if choice == "next":
            await self.action_next_game()
        elif choice == "save":
            self.action_save_record()
        elif choice == "quit":
            await self._leave()


def _declaring(move: Move | str) -> Move | str:
    """``move`` made to declare, when it is a piece put down; typed text says so itself."""
    if isinstance(move, Move) and move.to is not None:
        return Move(move.to, move.origin, move.keep, declare=True)
    return move


_POINT = re.compile(r"[A-Za-z][0-9]{1,2}")
_POINTS = re.compile(r"\s*[A-Za-z][0-9]{1,2}(?:[\s,;]*[A-Za-z][0-9]{1,2})+\s*")


def typed_turn(game: Game, text: str) -> list[str]:
    """The moves of a turn typed on one line: on a square board, points one after another
    (``K10 L10``, ``k10,l10``); otherwise the one move typed.

    >>> from sixtui.rules import new_game
    >>> typed_turn(new_game("connect6"), "k10, L10")
    ['k10', 'L10']
    >>> typed_turn(new_game("six"), "2,0>1,1")
    ['2,0>1,1']
    """
    if game.name != "six" and _POINTS.fullmatch(text):
        return _POINT.findall(text)
    return [text]


def after_the_end(game: Game, typed: list[str]) -> list[str]:
    """The moves of ``typed`` that come after one that ends the game, which are left out
    of the turn; none when one before the end cannot be played (the turn is refused).

    >>> from sixtui.rules import new_game
    >>> after_the_end(new_game("connect6"), ["J10"])
    []
    """
    trial = game.copy()
    for number, move in enumerate(typed):
        if trial.is_over:
            return typed[number:]
        try:
            trial.play(move)
        except IllegalMove:
            return []
    return []


def typing_prompt(game: Game) -> str:
    """What the move input asks for, with an example that is a whole turn the seat to move
    may play now.

    >>> from sixtui.rules import new_game
    >>> game = new_game("connect6", size=19)
    >>> typing_prompt(game)
    'type a move, like J10; Enter plays it, Esc goes back'
    >>> game.play("J10")
    >>> typing_prompt(game)
    'type a move, like I10 K10; Enter plays it, Esc goes back'
    >>> typing_prompt(new_game("six", ruleset="romanian"))
    'type a move, like -1,0; Enter plays it, Esc goes back'
    """
    example = _six_example(game) if game.name == "six" else _stones_example(game)
    return f"type a move, like {example}; Enter plays it, Esc goes back"


def _six_example(game: Game) -> str:
    """A move of Six that may be played now: one that keeps no group if there is one, its
    cell the nearest to the middle of the table; ``declare`` if nothing else may be played."""
    moves = [move for move in game.legal_moves() if move.to is not None]
    if not moves:
        return "declare"

    def plainness(move: Move) -> tuple[bool, int]:
        q, r = move.to  # type: ignore[misc]
        return move.keep is not None, abs(q) + abs(r) + abs(q + r)

    return str(min(moves, key=plainness))


def _stones_example(game: Game) -> str:
    """The stones or dots of a turn on a square board, each the free point nearest the
    middle once the one before it is down (a dot may color the point the next would take)."""
    trial, seat = game.copy(), game.to_move
    points = []
    while not trial.is_over and trial.to_move == seat:
        points.append(_free_point(trial))
        trial.play(points[-1])
    return " ".join(points)


def _free_point(game: Game) -> str:
    """The free point nearest the middle of a square board, the row first."""
    middle = game.size // 2  # type: ignore[attr-defined]

    def distance(point: Square) -> tuple[int, int, int]:
        across, up = abs(point.col - middle), abs(point.row - middle)
        return across + up, up, point.col

    return str(min((move.to for move in game.legal_moves()), key=distance))  # type: ignore[arg-type]
