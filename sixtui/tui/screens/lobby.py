"""The lobby: quick pairing, challenges, the games in progress, who is here and what they
are doing, and the chat; the keys for each, and a command line for all of it."""

from __future__ import annotations

import asyncio
import itertools
from typing import ClassVar

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingsMap, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.reactive import var
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Input, Static

from sixtui.rules.records import GameRecord, RecordError
from sixtui.tui.chat import SAY
from sixtui.tui.field_lengths import COMMAND_LINE
from sixtui.tui.lobby_commands import (
    USAGES,
    Accept,
    Command,
    Decline,
    GameChoice,
    Pair,
    Partner,
    Unpair,
    Watch,
    Withdraw,
)
from sixtui.tui.lobby_session import (
    ChallengeView,
    LobbySession,
    LobbyUpdate,
    LobbyView,
    Outcome,
)
from sixtui.tui.replay import ReplaySession
from sixtui.tui.screens.dialogs import ConfirmScreen
from sixtui.tui.screens.focus import FocusScreen
from sixtui.tui.screens.home import HomeScreen
from sixtui.tui.screens.page import PageScreen
from sixtui.tui.screens.replay import ReplayScreen
from sixtui.tui.widgets.keys import KeyBar
from sixtui.tui.widgets.lobby_lists import (
    ChatLog,
    LobbyList,
    PickList,
    PoolList,
    TextLine,
    plays_at,
)
from sixtui.tui.widgets.typing import SayingLine

QUIET = 0.5  # seconds: news that comes faster is drawn together, at most once in this time
# People in the lobby beyond whom the quiet time grows with their number: news of one comes
# to all, so every lobby drawing once a quiet time would cost the server in proportion to
# the square of the crowd; grown, the lobbies together draw at most CROWD / QUIET times a
# second, however many they are.
CROWD = 25
# The stagger, as a share of the quiet time for each person in the lobby: the lobbies
# hearing the same news draw it at moments spread over that share times their number (half
# a second for a hundred), not all in one turn of the server's loop.
SPREAD = 0.01
# Each lobby's place in the stagger, between 0 and 1: the fractional parts of multiples of
# the golden ratio, which fall evenly apart however many lobbies there are.
_STAGGERS = (number * 0.6180339887 % 1.0 for number in itertools.count())
TICK = 5.0  # seconds between two drawings of the waiting times
NOTICE_SECONDS = 10  # how long news of the lobby shows over local play, a page or the help
MESSAGE_LINES = 3  # the most lines a message takes, the lists giving up room for it
LINE_KEYS = BindingsMap(Input.BINDINGS)  # the command line's editing keys

KEYS = (
    ("↑ ↓", "pick a pool, a challenge, a game or a player"),
    ("← → Tab", "between the pools and the rest"),
    (
        "Enter",
        "pair for the pool picked (again: stop waiting), accept the challenge, "
        "watch the game, or challenge the player",
    ),
    ("a d", "accept or decline the challenge picked, or the only one made to you"),
    ("p", "ask the player picked to partner you"),
    ("w", "watch the game of the player picked"),
    ("c", "chat"),
    ("/", "type a command"),
    ("l", "local play: hot-seat or the computer, on this screen"),
    ("?", "this help"),
    ("q", "leave"),
)


class LobbyChanged(Message):
    """The lobby session has news; posted so that it is handled on this screen's task."""

    def __init__(self, update: LobbyUpdate) -> None:
        super().__init__()
        self.update = update


def leaving_costs(view: LobbyView) -> list[str]:
    """What the player would lose by leaving now, a sentence each: their place in a pool,
    their game in progress (or their match, between two of its games), their challenges,
    their partner.

    >>> leaving_costs(LobbyView(me="ann"))
    []
    >>> leaving_costs(LobbyView(me="ann", partner="bob"))
    ['bob is no longer your partner.']
    """
    costs = []
    if view.pool is not None:
        costs.append("You stop waiting to be paired.")
    own = [t for t in view.tables if plays_at(t, view.me)]
    playing = [table for table in own if not table.between_games]
    if playing:
        timed = " and your clock runs" if any(table.clock for table in playing) else ""
        costs.append(f"Your game goes on: your seat waits for you a while{timed}.")
    elif own:
        costs.append("Your match is not over: its next game waits for you.")
    if any(challenge.from_me for challenge in view.challenges):
        costs.append("Your challenges are withdrawn.")
    if view.partner is not None:
        costs.append(f"{view.partner} is no longer your partner.")
    return costs


class LobbyScreen(FocusScreen[None]):
    """The lobby of ``session``. News that comes within ``quiet`` seconds of the last
    drawing is drawn together at the end of them; every ``tick`` seconds the waiting times
    are redrawn."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "choose", "Choose"),
        Binding("left", "focus_list('pools')", "Lists", key_display="←→"),
        Binding("right", "focus_list('here')", "Lists", show=False),
        Binding("a", "accept", "Accept"),
        Binding("d", "decline", "Decline"),
        Binding("p", "partner", "Partner"),
        Binding("w", "watch", "Watch"),
        Binding("c", "chat", "Chat"),
        Binding("slash,colon", "open_command", "Command"),
        Binding("l", "local_play", "Local play"),
        Binding("escape", "cancel", "Cancel"),
        Binding("question_mark", "help", "Help"),
        Binding("q", "leave", "Quit"),
    ]

    view: var[LobbyView] = var(LobbyView(me=""), init=False)
    """The lobby as last drawn: the keys act on what is shown."""

    class TableChosen(Message):
        """The player has a seat at ``table``, or chose to watch it (``watching``): the
        app opens it over the ``lobby``, or tells the lobby why it cannot."""

        def __init__(self, lobby: LobbyScreen, table: str, watching: bool) -> None:
            super().__init__()
            self.lobby = lobby
            self.table = table
            self.watching = watching

    def __init__(self, session: LobbySession, quiet: float = QUIET, tick: float = TICK) -> None:
        super().__init__()
        self.session = session
        self._quiet = quiet
        self._tick = tick
        self._drawn_at = float("-inf")  # the event loop's time
        self._stagger = next(_STAGGERS)  # this lobby's place among the lobbies hearing news
        self._drawing: Timer | None = None
        self._ticking: Timer | None = None
        self._hidden = False  # covered by a screen that is not a dialog
        self._stale = False  # news came while it was
        self._at_table = False
        self._typing = False  # whether the command line is open
        self._returns_to: PickList | None = None  # the list to focus once a line is typed
        self._stop_listening = session.subscribe(self._hear)

    def compose(self) -> ComposeResult:
        yield TextLine("header", id="lobby-title")
        with Horizontal(id="lobby-lists"):
            yield PoolList(id="pools")
            yield LobbyList(id="here")
        yield ChatLog(id="chat")
        yield TextLine("warning", most=MESSAGE_LINES, id="lobby-message")
        yield KeyBar()
        yield CommandLine(id="command-line")

    @property
    def pools(self) -> PoolList:
        return self.query_one("#pools", PoolList)

    @property
    def here(self) -> LobbyList:
        return self.query_one("#here", LobbyList)

    @property
    def command_line(self) -> Input:
        return self.query_one("#command-line", Input)

    def on_mount(self) -> None:
        self._draw()
        self.set_focus(self.pools)
        self._ticking = self.set_interval(self._tick, self._count_on)

    def on_unmount(self) -> None:
        self._stop_listening()

    async def on_screen_resume(self) -> None:
        self._hidden = False
        if self._ticking is not None:
            self._ticking.resume()
        if self._stale:
            self._draw()
        if self._at_table:
            self._at_table = False
            self.say("")  # what was said as the table opened is old news now
            await self.session.returned()

    def on_screen_suspend(self) -> None:
        self._hidden = self._out_of_sight()
        if self._ticking is not None:
            self._ticking.pause()
        if self._hidden:
            self._let_go()

    def _let_go(self) -> None:
        """Out of sight, the lobby keeps none of what it showed: everyone connected, the
        chat, and the lines drawn of them, which a player at a table may not come back
        to for long, and which grow with the number of players. It is drawn anew, from
        the session's copy of the lobby, on the player's return."""
        if self._drawing is not None:
            self._drawing.stop()
            self._drawing = None
        self._stale = True
        self.set_reactive(LobbyScreen.view, LobbyView(me=""))  # as before the first drawing
        for shown in (self.pools, self.here, self.query_one(ChatLog)):
            shown.forget()

    def _out_of_sight(self) -> bool:
        """Whether a screen that is not a dialog covers the lobby: a table, a page, the
        help."""
        stack = self.app.screen_stack
        return self in stack and not all(
            screen.is_modal for screen in stack[stack.index(self) + 1 :]
        )

    # -- news ----------------------------------------------------------------------------

    def _hear(self, update: LobbyUpdate) -> None:
        """News from the session, often brought by another player's session: posted,
        since code running for another session must never touch these widgets.

        While the lobby is out of sight, what it shows is drawn once the player comes
        back, and only a notice or a seat is posted. Textual still refreshes the screen
        just below the top one as if it showed through, and each message it handles
        repainted the screen over it: every arrival, pairing and line of chat in the
        lobby had every table's screen drawn and sent again, whole."""
        if self._hidden and update.kind in ("lobby", "chat"):
            self._stale = True
            return
        self.post_message(LobbyChanged(update))

    @on(LobbyChanged)
    def _lobby_changed(self, message: LobbyChanged) -> None:
        update = message.update
        if update.kind in ("notice", "seated"):
            self.say(update.text)
        if update.kind == "notice" and self._hidden and not self._at_table and update.text:
            # Over local play, a page or the help, a challenge or a partner's ask must not
            # wait unseen; at a table the game has the player's eyes, and the lobby says
            # it on their return.
            self.app.notify(update.text, title="Lobby", timeout=NOTICE_SECONDS)
        if update.kind == "seated" and update.table is not None:
            self.open_table(update.table, watching=False)
        if update.kind == "lobby":
            self._draw_soon()
        else:
            self._draw_if_seen()

    def _draw_if_seen(self) -> None:
        """Draws now, or once the player comes back to the lobby if it is out of sight."""
        if self._hidden:
            if self._drawing is not None:
                self._drawing.stop()
                self._drawing = None
            self._stale = True
        else:
            self._draw()

    def _draw_soon(self) -> None:
        """Draws once the quiet time since the last drawing has passed, this lobby's own
        share of a stagger later: news of one reaches every lobby, and all of them drawing
        at the same moment would hold up every other session meanwhile."""
        if self._drawing is not None:
            return
        since = asyncio.get_running_loop().time() - self._drawn_at
        wait = news_wait(since, self._quiet, len(self.view.people), self._stagger)
        if wait <= 0:
            self._draw_if_seen()
        else:
            self._drawing = self.set_timer(wait, self._draw_if_seen)

    def _draw(self) -> None:
        if self._drawing is not None:
            self._drawing.stop()
            self._drawing = None
        self._stale = False
        self._drawn_at = asyncio.get_running_loop().time()
        self.view = self.session.view()

    def watch_view(self, view: LobbyView) -> None:
        """Draws the lobby anew (only when it changed)."""
        self.query_one("#lobby-title", TextLine).show(title(view))
        self.pools.show(view)
        self.here.show(view)
        self.query_one(ChatLog).show(view)
        self.refresh_bindings()  # what the keys do follows what is shown

    def _count_on(self) -> None:
        self.pools.show(self.session.view())  # the waiting times go on

    def say(self, text: str) -> None:
        """Shows ``text`` on the lobby's message line."""
        self.query_one("#lobby-message", TextLine).show(text)

    def open_table(self, table: str, watching: bool) -> None:
        """Asks the app to open ``table`` over the lobby, to play or to watch."""
        self._at_table = True
        self.post_message(self.TableChosen(self, table, watching))

    async def table_not_opened(self, why: str) -> None:
        """The table chosen could not be opened: the player is still in the lobby, and
        told ``why``."""
        self._at_table = False
        self.say(why)
        await self.session.returned()

    # -- doing things ----------------------------------------------------------------------

    async def _perform(self, command: Command) -> None:
        self._show(await self.session.perform(command))

    def _show(self, outcome: Outcome) -> None:
        self.say(outcome.text)
        if outcome.help:
            self.app.push_screen(LobbyHelpScreen())
        if outcome.page is not None:
            self.app.push_screen(PageScreen(outcome.page))
        if outcome.record is not None:
            self._replay(outcome.record)
        if outcome.table is not None:
            self.open_table(outcome.table, outcome.watching)
        self._draw()

    def _replay(self, text: str) -> None:
        """Opens the replay of an archived game over the lobby (q comes back)."""
        try:
            record = GameRecord.parse(text)
        except RecordError as why:  # the archive writes only records it can read back
            self.say(f"that game's record cannot be read: {why}")
            return
        self.app.push_screen(ReplayScreen(ReplaySession(record)))

    def _picked(self) -> tuple[str, str] | None:
        """What the focused list's current row stands for: its kind and its name."""
        focused = self.focused
        if not isinstance(focused, PickList) or focused.current is None:
            return None
        if focused is self.pools:
            return "pool", focused.current
        kind, _, name = focused.current.partition(":")
        return kind, name

    def _challenge_picked(self) -> tuple[str, bool] | None:
        """The challenge picked, and whether it was made to the player (not by them)."""
        picked = self._picked()
        if picked is None or picked[0] != "challenge":
            return None
        challenge = next((c for c in self.view.challenges if c.id == picked[1]), None)
        if challenge is None or not (challenge.to_me or challenge.from_me):
            return None
        return challenge.id, challenge.to_me

    def _command_for_choice(self) -> Command | str | None:
        """What Enter does with the row picked: a command, or a line to type."""
        picked = self._picked()
        if picked is None:
            return None
        kind, name = picked
        view = self.view
        if kind == "pool":
            choice = GameChoice.from_key(name)
            return Unpair() if view.pool == choice else Pair(choice)
        if kind == "table":
            return Watch(name)
        if kind == "person":
            return None if name == view.me else f"challenge {name} "
        challenge = next((c for c in view.challenges if c.id == name), None)
        if challenge is not None and challenge.to_me:
            return Accept(challenge.challengers[0])
        if challenge is not None and challenge.from_me:
            return Withdraw(challenge.challenged[0])
        return None

    async def action_choose(self) -> None:
        chosen = self._command_for_choice()
        if isinstance(chosen, str):
            self.action_open_command(chosen)
        elif chosen is not None:
            await self._perform(chosen)

    def _challenge_to_answer(self) -> ChallengeView | None:
        """The challenge made to the player that a and d answer: the one picked, or else
        the only one made to them."""
        picked = self._challenge_picked()
        if picked is not None and picked[1]:
            return next(c for c in self.view.challenges if c.id == picked[0])
        made_to_me = [c for c in self.view.challenges if c.to_me]
        return made_to_me[0] if len(made_to_me) == 1 else None

    async def _answer_challenge(self, answer: type[Accept] | type[Decline]) -> None:
        challenge = self._challenge_to_answer()
        if challenge is None:
            if any(c.to_me for c in self.view.challenges):
                self.say("several challenges are made to you: pick one in the list on the right")
            else:
                self.say("no one challenges you now")
            return
        await self._perform(answer(challenge.challengers[0]))

    async def action_accept(self) -> None:
        await self._answer_challenge(Accept)

    async def action_decline(self) -> None:
        await self._answer_challenge(Decline)

    async def action_partner(self) -> None:
        person = self._person_picked()
        if person is not None:
            await self._perform(Partner(person))

    async def action_watch(self) -> None:
        person = self._person_picked()
        if person is not None:
            await self._perform(Watch(person))

    def _person_picked(self) -> str | None:
        picked = self._picked()
        if picked is None or picked[0] != "person" or picked[1] == self.view.me:
            self.say("pick another player first: ↑ ↓ in the list on the right")
            return None
        return picked[1]

    def action_focus_list(self, which: str) -> None:
        self.set_focus(self.pools if which == "pools" else self.here)

    def action_chat(self) -> None:
        self.action_open_command(SAY)

    def action_open_command(self, text: str = "") -> None:
        line = self.command_line
        line.placeholder = "a command: pair, challenge, partner, watch, say... help lists them"
        line.value = text
        line.cursor_position = len(text)
        line.display = True
        self._typing = True
        if isinstance(self.focused, PickList):
            self._returns_to = self.focused
        self.set_focus(line)

    def action_cancel(self) -> None:
        if self._typing:
            self._close_command_line()

    def _close_command_line(self) -> None:
        line = self.command_line
        line.display = False
        line.value = ""
        self._typing = False
        self.set_focus(self._returns_to or self.pools)

    # -- keys --------------------------------------------------------------------------------

    async def on_key(self, event: events.Key) -> None:
        """Every key of the lobby, handled here in the order the keys came.

        Keys that arrive together (typed fast, or a script's whole line in one packet) all
        go to the widget that had the focus when they came, and Textual would only run
        their bindings once each had bubbled up to the app: a line typed after / would
        run the lobby's keys instead. Here, every key runs at once, in turn: the lobby's
        while the command line is closed, and the line's own (the line only shows the
        text) while it is open.
        """
        if self._typing:
            await self._type(event)
            return
        active = self.active_bindings.get(event.key)
        if active is not None and active.enabled:
            event.stop()
            event.prevent_default()
            await self.app.run_action(active.binding.action, active.node)

    async def _type(self, event: events.Key) -> None:
        line = self.command_line
        handled = True
        if event.key == "enter":
            text = line.value
            self._close_command_line()
            self._show(await self.session.command(text))
        elif event.key == "escape":
            self._close_command_line()
        elif event.is_printable and event.character:
            line.insert_text_at_cursor(event.character)  # which says so when the line is full
        else:
            binding = next(iter(LINE_KEYS.key_to_bindings.get(event.key, [])), None)
            handled = binding is not None and await self.app.run_action(binding.action, line)
        if handled:
            event.stop()
            event.prevent_default()

    def action_leave(self) -> None:
        """Leaves sixtui; asks first when leaving would cost the player something."""
        stakes = leaving_costs(self.view)
        if not stakes:
            self.app.exit()
            return
        question = f"Leave sixtui? {' '.join(stakes)}"
        self.app.push_screen(ConfirmScreen(question, "Leave"), self._leave_confirmed)

    def _leave_confirmed(self, confirmed: bool | None) -> None:
        if confirmed:
            self.app.exit()

    def action_help(self) -> None:
        self.app.push_screen(LobbyHelpScreen())

    def action_local_play(self) -> None:
        self.app.push_screen(LocalPlayScreen())

    # -- the keys offered ------------------------------------------------------------------

    def key_description(self, action: str, description: str) -> str | None:
        """What the footer says the key bound to ``action`` does now; ``None`` leaves out
        a key that would do nothing here."""
        if isinstance(self.focused, Input):
            return description if action == "cancel" else None
        if action == "choose":
            return self._choice_description()
        picked = self._picked()
        kind = picked[0] if picked else None
        if action in ("accept", "decline"):
            return description if self._challenge_to_answer() is not None else None
        if action in ("partner", "watch"):
            if kind != "person" or picked is None or picked[1] == self.view.me:
                return None
            return description
        return None if action == "cancel" else description

    def _choice_description(self) -> str | None:
        chosen = self._command_for_choice()
        if isinstance(chosen, str):
            return "Challenge"
        if isinstance(chosen, Watch) and self._own_table_picked():
            return "Back to game"
        names = {Pair: "Pair", Unpair: "Unpair", Watch: "Watch", Accept: "Accept"}
        return None if chosen is None else names.get(type(chosen), "Withdraw")

    def _own_table_picked(self) -> bool:
        picked = self._picked()
        table = next((t for t in self.view.tables if picked == ("table", t.id)), None)
        return table is not None and plays_at(table, self.view.me)


def news_wait(since_drawn: float, quiet: float, people: int, stagger: float) -> float:
    """Seconds until news heard ``since_drawn`` seconds after a lobby of ``people`` was last
    drawn is drawn: the rest of the ``quiet`` time (longer past :data:`CROWD` people), then
    the lobby's ``stagger`` (0 to 1) of the :data:`SPREAD` of them all.

    >>> news_wait(10.0, 0.5, 10, 0.5)  # a few people: at once, nearly
    0.025
    >>> news_wait(0.2, 0.5, 100, 0.5)  # a crowd: the quiet time is two seconds
    2.05
    >>> news_wait(0.0, 0.0, 100, 0.9)  # no quiet time: at once, however many are here
    0.0
    """
    spread = quiet * people * SPREAD
    quiet *= max(1.0, people / CROWD)
    return max(0.0, quiet - since_drawn) + stagger * spread


class CommandLine(SayingLine):
    """Shows the command being typed, and its cursor. The keys typed are the lobby
    screen's to handle (see :meth:`LobbyScreen.on_key`): they bubble on to it."""

    def __init__(self, **options: str) -> None:
        super().__init__(COMMAND_LINE, select_on_focus=False, **options)

    async def _on_key(self, event: events.Key) -> None:
        event.prevent_default()  # Input's own handling: the screen types the key instead


def title(view: LobbyView) -> str:
    """The lobby's first line: who the player is, their partner, where they wait."""
    parts = [f"sixtui lobby · you are {view.me}"]
    if view.partner:
        parts.append(f"partner {view.partner}")
    elif view.asked:
        parts.append(f"you asked {view.asked} to partner you")
    if view.pool is not None:
        parts.append(f"waiting for {view.pool.title}")
    parts.append(f"{len(view.people)} here")
    return " · ".join(parts)


def help_text() -> Group:
    """The lobby's keys and commands."""
    keys = Table.grid(padding=(0, 2))
    for key, does in KEYS:
        keys.add_row(Text(key, style="bold"), does)
    commands = Table.grid(padding=(0, 2))
    for typed, does in USAGES.values():
        commands.add_row(Text(typed, style="bold"))
        commands.add_row(Text(f"    {does}"))
    return Group(
        Text("The lobby's keys\n", style="bold"),
        keys,
        Text("\nCommands: type / first (a / typed again is fine too)\n", style="bold"),
        commands,
        Text(
            "\nGAME is connect6, gameof6 or six; R a ruleset: steffen, romanian or "
            "romanian-advanced; LEVEL easy, normal or hard."
        ),
    )


class LobbyHelpScreen(Screen[None]):
    """The lobby's keys and commands."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "app.pop_screen", "Back"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="lobby-help"):
            yield Static(help_text())
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#lobby-help").focus()


class LocalPlayScreen(HomeScreen):
    """The home screen over the lobby: a table at this keyboard, hot-seat or against the
    computer; q goes back to the lobby."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("q", "app.pop_screen", "Lobby")]
