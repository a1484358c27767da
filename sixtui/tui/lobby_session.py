"""What the lobby screen sees of the lobby, and the one place it sends what the player does.

As the game screen talks to a :class:`~sixtui.tui.session.GameSession`, the lobby screen
reads :meth:`LobbySession.view`, hands every command (typed on the command line, or chosen
with the keys) to :meth:`LobbySession.perform`, and redraws when the session tells its
listeners that something changed. A server implements the session on its shared state
(``sixtui.server.lobby``); the screen knows nothing of how.

Every text in a view is printable (:func:`~sixtui.tui.player_text.printable`): the screen
draws names and chat exactly as they are.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from sixtui.tui.chat import ChatLine
from sixtui.tui.lobby_commands import (
    Command,
    CommandError,
    GameChoice,
    Help,
    help_lines,
    parse_command,
    usage,
)
from sixtui.tui.news import Listeners

Doing = Literal["lobby", "waiting", "playing", "watching"]
UpdateKind = Literal["lobby", "chat", "notice", "seated"]


@dataclass(frozen=True)
class Person:
    """Someone in the lobby, and what they are doing: ``what`` says which game they wait
    for, play or watch, and against whom; ``rating`` is, while they wait, their rating at
    that game (for a player with an SSH key)."""

    name: str
    doing: Doing
    what: str = ""
    partner: str | None = None
    table: str | None = None
    rating: str = ""


@dataclass(frozen=True)
class PoolView:
    """A pool of quick pairing: how many players wait, and the longest for how long."""

    choice: GameChoice
    waiting: int
    longest: float  # seconds
    mine: bool = False


@dataclass(frozen=True)
class ChallengeView:
    """A challenge not yet answered: who challenged whom (a side is one player, or two
    partners) to which game."""

    id: str
    challengers: tuple[str, ...]
    challenged: tuple[str, ...]
    choice: GameChoice
    to_me: bool = False
    from_me: bool = False


@dataclass(frozen=True)
class TableView:
    """A game in progress, which anyone may watch: its two sides, the games each side has
    won, its time control (``""``: none), whether it is played unrated by choice, each
    player's rating at its game, by side as ``sides`` (``""`` where none is kept: a
    guest, the computer), and whether it is between two games of its match."""

    id: str
    title: str
    sides: tuple[tuple[str, ...], tuple[str, ...]]
    wins: tuple[int, int] = (0, 0)
    clock: str = ""
    casual: bool = False
    ratings: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    between_games: bool = False  # its last game is over, the next not yet begun


@dataclass(frozen=True)
class LobbyView:
    """The lobby as one player sees it now.

    ``partner`` is their partner once both have asked; ``asked`` is whom they asked, while
    that one has not answered; ``asking`` are those who asked them. ``pool`` is where they
    wait to be paired. The chat leaves out the lines of those they muted.
    """

    me: str
    people: tuple[Person, ...] = ()
    pools: tuple[PoolView, ...] = ()
    challenges: tuple[ChallengeView, ...] = ()
    tables: tuple[TableView, ...] = ()
    chat: tuple[ChatLine, ...] = ()
    partner: str | None = None
    asked: str | None = None
    asking: tuple[str, ...] = ()
    pool: GameChoice | None = None


@dataclass(frozen=True)
class LobbyUpdate:
    """News for the screen: ``lobby`` (what the view shows changed), ``chat`` (a line was
    said), ``notice`` (``text`` is for the player: a challenge came, a partner left...) or
    ``seated`` (the player has a seat at ``table``: the screen opens it)."""

    kind: UpdateKind
    text: str = ""
    table: str | None = None


@dataclass(frozen=True)
class Page:
    """A page of text to read: a player's page, a leaderboard, a game's record. Every line
    is printable, and drawn as it is."""

    title: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Outcome:
    """What came of a command: ``text`` for the player (a reply, or why nothing was done),
    a ``table`` to open (to play, or as a spectator when ``watching``), the ``help``, a
    ``page`` to read, or the ``record`` of a game to step through."""

    text: str = ""
    table: str | None = None
    watching: bool = False
    help: bool = False
    page: Page | None = None
    record: str | None = None


Listener = Callable[[LobbyUpdate], None]


class LobbySession(ABC):
    """One player in the lobby: what they see, and the commands they give."""

    def __init__(self) -> None:
        self._news = Listeners[LobbyUpdate]()
        # What the player is told as the lobby opens (how games of theirs ended while
        # they were away, say): "" for nothing.
        self.greeting = ""

    @abstractmethod
    def view(self) -> LobbyView:
        """The lobby as the player sees it now; waiting times count up to this moment."""

    async def command(self, text: str) -> Outcome:
        """Reads ``text`` as the command line does and carries it out; a line that is no
        command changes nothing, and the outcome says why."""
        try:
            command = parse_command(text)
        except CommandError as why:
            return Outcome(str(why))
        if command is None:
            return Outcome()
        return await self.perform(command)

    async def perform(self, command: Command) -> Outcome:
        """Carries out ``command``; what cannot be done changes nothing, and says why."""
        if isinstance(command, Help):
            if not command.command:
                return Outcome(help=True)
            lines = help_lines(command.command)
            if lines is None:
                return Outcome(usage(command.command))
            return Outcome(page=Page(f"help {command.command}", lines))
        return await self._carry_out(command)

    @abstractmethod
    async def _carry_out(self, command: Command) -> Outcome:
        """Carries out any command but help."""

    @abstractmethod
    async def returned(self) -> None:
        """The player is back in the lobby from a table they played or watched."""

    @abstractmethod
    async def close(self) -> None:
        """The player leaves: they stop waiting, their challenges are withdrawn, and the
        others are told."""

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Calls ``listener`` with every :class:`LobbyUpdate`; returns what stops that.

        News comes from other players' sessions: a listener must not block or draw, but
        post its screen a message and return.
        """
        return self._news.subscribe(listener)

    def _tell(self, update: LobbyUpdate) -> None:
        self._news.tell(update)
