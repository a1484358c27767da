"""Small screens shown over the game: a yes/no question, the summary after a game,
and the request for a larger terminal."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from sixtui.tui.session import GameSession
from sixtui.tui.widgets.lines import fit
from sixtui.tui.widgets.panel import names_of, result_line, verb_for

MIN_WIDTH, MIN_HEIGHT = 80, 24
SUMMARY_LINES = 14  # what the dialog holds above its buttons in a terminal of MIN_HEIGHT
TEXT_WIDTH = 64  # a dialog's lines: the .dialog of sixtui.tcss, 70 wide, less border and padding
LABEL_WIDTH, SIDE_WIDTH = 9, 27  # the summary's columns: "Game 12", then one per side


def headline(result: str, width: int = TEXT_WIDTH) -> str:
    """A result as the summary heads with it: on one line if it fits, else broken after
    its colon, who won on the first line and why on the second.

    >>> headline("Player 1 wins: a row of six")
    'Player 1 wins: a row of six'
    >>> print(headline("Normal computer 1 and Normal computer 3 win as Red: a triangle of six"))
    Normal computer 1 and Normal computer 3 win as Red:
    a triangle of six
    """
    if len(result) <= width:
        return result
    who, colon, why = result.rpartition(": ")  # a name may hold a colon, the reason none
    return f"{who}:\n{why}" if colon else result


def summary_text(session: GameSession) -> str:
    """The game's result, then the match so far: a column per side, a line per game
    saying which side opened and how each side did, and the totals."""
    match = session.match
    assert session.game.result is not None

    def row(label: str, cells: tuple[str, str]) -> str:
        return (fit(label, LABEL_WIDTH) + fit(cells[0], SIDE_WIDTH) + cells[1]).rstrip()

    names = [[player.name for player in side] for side in session.sides]
    heading = [row("", (first, second)) for first, second in zip(*names, strict=True)]
    ratings = [" · ".join(p.rating for p in side if p.rating) for side in session.sides]
    if any(ratings):  # online, between players with keys: as the game left them
        heading.append(row("Rating", (ratings[0], ratings[1])))
    totals = [row("Wins", (str(match.wins[0]), str(match.wins[1])))]
    if any(result.points for result in match.results):
        totals.append(row("Points", (str(match.points[0]), str(match.points[1]))))
    if match.is_over:
        totals += ["", _match_result(session)]
    if session.unrated_why:
        totals += ["", session.unrated_why]
    if session.archived_as is not None:
        number = session.archived_as
        totals += ["", f"Archived as game {number}: replay {number} in the lobby."]
    games = [
        row(f"Game {number}", _how_sides_did(result.winner, opener))
        for number, (result, opener) in enumerate(zip(match.results, match.openers, strict=True), 1)
    ]
    top = [*headline(result_line(session, session.game.result)).splitlines(), ""]
    room = SUMMARY_LINES - len(top) - len(heading) - len(totals)
    if len(games) > room:
        earlier = len(games) - room + 1
        games = [f"⋯ {earlier} earlier game{'s' if earlier > 1 else ''}", *games[earlier:]]
    return "\n".join([*top, *heading, *games, *totals])


def _how_sides_did(winning_team: int | None, opener: int) -> tuple[str, str]:
    """Each side's part in one game (the opener plays team 0): "opened, won", "lost"..."""
    cells = []
    for side in (0, 1):
        if winning_team is None:
            outcome = "drew"
        else:
            outcome = "won" if winning_team ^ opener == side else "lost"
        cells.append(f"opened, {outcome}" if side == opener else outcome)
    return cells[0], cells[1]


def _match_result(session: GameSession) -> str:
    winner = session.match.winner
    if winner is None:
        return "The match is drawn."
    players = session.sides[winner]
    return f"{names_of(players)} {verb_for(players, 'win')} the match."


class ConfirmScreen(ModalScreen[bool]):
    """Asks ``question``; y confirms, n or Esc declines, and so does Enter: the focus
    starts on Cancel, so that a stray Enter changes nothing."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]
    # Focused by Textual as the screen shows; a query in on_mount would fail on a screen
    # already taken down (its answer typed at once, its connection gone).
    AUTO_FOCUS = "#no"

    def __init__(self, question: str, verb: str) -> None:
        super().__init__()
        self.question = question
        self.verb = verb

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.question, classes="question", markup=False)
            with Horizontal(classes="buttons"):
                yield Button(f"{self.verb} (y)", id="yes", variant="error")
                yield Button("Cancel (n)", id="no")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")


def next_game_offered(session: GameSession) -> bool:
    """Whether the player here may ask for the next game once one is over: not a
    spectator, not with a player gone (none begins without them), and once the match is
    over only as a rematch at a shared table."""
    if session.watching or session.away:
        return False
    return not session.match.is_over or session.shared


class SummaryScreen(ModalScreen[str]):
    """After a game: its result and the match so far; then the next game (a rematch once
    an online match is over), the board, or leave; at an online table also the chat
    (``t``, and ``/`` for a line such as "say gg"), as on the board; in this process,
    saving the game's record (``e``)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n,enter", "choose('next')", "Next game"),
        Binding("escape,b", "choose('board')", "See the board"),
        # Priority: run as the app reads the key, before it hands on the keys after it
        # (over SSH a typed line comes in one packet), as on the board.
        Binding("t", "choose('chat')", "Chat", priority=True),
        Binding("slash,colon", "choose('type')", "Type", show=False, priority=True),
        Binding("e", "choose('save')", "Save record"),
        Binding("q", "choose('quit')", "Leave"),
    ]

    def __init__(self, session: GameSession, open_line: Callable[[str], None]) -> None:
        """``open_line`` opens the board's chat ("chat") or move line ("type") once this
        screen is gone."""
        super().__init__()
        self.session = session
        self._open_line = open_line

    def compose(self) -> ComposeResult:
        match = self.session.match
        with Vertical(classes="dialog"):
            yield Static(summary_text(self.session), id="summary", classes="question", markup=False)
            with Horizontal(classes="buttons"):
                label = "Rematch (n)" if match.is_over else "Next game (n)"
                yield Button(label, name="next", variant="primary")  # shown while offered
                yield Button("See the board (b)", name="board")
                yield Button("Leave (q)", name="quit")

    def on_mount(self) -> None:
        self.refresh_text()  # news may have come between composing and mounting

    def refresh_text(self) -> None:
        """Writes the summary again, and offers the next game while it may be asked for:
        the ratings the game moved come after it opens, and a player may leave or come
        back meanwhile."""
        for shown in self.query("#summary").results(Static):
            shown.update(summary_text(self.session))
        offered = self._offers("next")
        for button in self.query(Button):
            if button.name == "next":
                button.display = offered
        self.refresh_bindings()

    def action_choose(self, choice: str) -> None:
        if not self._offers(choice):
            return
        if choice in ("chat", "type"):
            # At once, not in the dismissal's callback, which comes after the keys already
            # queued: typed in one packet, "/say nice" must not run n (next game) on the board.
            self.dismiss(None)
            self._open_line(choice)
            return
        self.dismiss(choice)

    def _offers(self, choice: str) -> bool:
        """No next game once the match is over, nor to a spectator; chat only online, and
        saving the record only in this process (online, the archive keeps it)."""
        if choice == "next":
            return next_game_offered(self.session)
        if choice == "save":
            return not self.session.shared
        return choice not in ("chat", "type") or self.session.may_chat

    def key_description(self, action: str, description: str) -> str | None:
        """The footer offers only what :meth:`_offers`."""
        choice = action.removeprefix("choose('").removesuffix("')")
        if not self._offers(choice):
            return None
        return "Rematch" if choice == "next" and self.session.match.is_over else description

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
