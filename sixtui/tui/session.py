"""What a game screen sees of a game, and the one place it sends what the player does.

A screen never changes a game itself: it reads :attr:`GameSession.game`, asks
the session to :meth:`~GameSession.play` a move or :meth:`~GameSession.play_turn`
several at once, to :meth:`~GameSession.undo` or :meth:`~GameSession.resign`, and
redraws when the session tells its listeners that something changed.
:class:`LocalSession` runs the engine and the computer players in this process; a
server provides another implementation with the same methods, so the screens work
unchanged over SSH.
"""

from __future__ import annotations

import asyncio
import contextlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Literal

from sixtui.ai import LEVELS
from sixtui.ai.worker import Thinker
from sixtui.rules import Game, IllegalMove, Match, Move
from sixtui.tui.chat import ChatLine
from sixtui.tui.news import Listeners

# "table": news at the table besides the game (a draw offered, a player gone), its text
# ready to show; "chat": a line was said in a chat the screen reads.
UpdateKind = Literal["moves", "undo", "thinking", "over", "new-game", "problem", "table", "chat"]
ONLINE_ONLY = "only at an online table"
NO_CHAT = f"there is no chat here: chat is {ONLINE_ONLY}"
NO_SUGGESTION_ONLINE = "no suggestions at an online table: they would help you against a person"
SUGGESTION_LEVEL = "hard"  # a suggestion is the strongest computer player's turn


@dataclass(frozen=True)
class Player:
    """Someone at the table: a person, or the computer at a ``level``; ``rating`` is their
    rating at this game, as shown beside their name (online, for a rated player)."""

    name: str
    level: str | None = None
    rating: str = ""

    def __post_init__(self) -> None:
        if self.level is not None and self.level not in LEVELS:
            raise ValueError(f"the computer plays {', '.join(LEVELS)}, not {self.level!r}")

    @property
    def is_computer(self) -> bool:
        return self.level is not None


@dataclass(frozen=True)
class Update:
    """News for the screens: what changed (re-read the game for the details)."""

    kind: UpdateKind
    moves: tuple[Move, ...] = ()
    text: str = ""


Listener = Callable[[Update], None]


class GameSession(ABC):
    """One table: the game in play, the match it belongs to, and who sits where.

    The match is played between two *sides*; in each game the side that opens
    plays team 0. With four players each side is a pair of partners, seated
    opposite each other.
    """

    # Whether the others at the table play from screens of their own (online): then a
    # rematch may be asked for, and moves are not taken back.
    shared: ClassVar[bool] = False
    # Whether it is a recorded game stepped through: its record does not say which game of
    # a match it was.
    replayed: ClassVar[bool] = False

    def __init__(self, sides: tuple[tuple[Player, ...], tuple[Player, ...]], match: Match) -> None:
        if len(sides) != 2 or len(sides[0]) != len(sides[1]) or not sides[0]:
            raise ValueError("a table has two sides with the same number of players")
        self.sides = sides
        self.match = match
        self._news = Listeners[Update]()

    # -- reading -----------------------------------------------------------------------

    @property
    @abstractmethod
    def game(self) -> Game:
        """The game in play. Read it; never change it."""

    @property
    def opener(self) -> int:
        """The side playing team 0 in the game in play."""
        return self.match.openers[-1] if self._recorded else (self.match.next_opener or 0)

    @property
    @abstractmethod
    def _recorded(self) -> bool:
        """Whether the game in play has ended and is counted in the match."""

    def side_of_team(self, team: int) -> int:
        return team ^ self.opener

    def player_at(self, seat: int) -> Player:
        """Who plays ``seat`` in the game in play."""
        return self.sides[self.side_of_team(seat % 2)][seat // 2]

    @property
    @abstractmethod
    def may_move(self) -> bool:
        """Whether the seat to move is played from this screen right now."""

    @property
    @abstractmethod
    def may_undo(self) -> bool:
        """Whether :meth:`undo` would take something back."""

    @property
    @abstractmethod
    def resigning_seat(self) -> int | None:
        """The seat :meth:`resign` would resign for, or ``None`` when there is none."""

    @property
    def may_resign(self) -> bool:
        """Whether a seat played from this screen may resign now."""
        return not self.game.is_over and self.resigning_seat is not None

    @property
    @abstractmethod
    def thinking(self) -> bool:
        """Whether a computer player is choosing its move."""

    # -- online play: offers, staged turns, players away ---------------------------------
    # A table in this process has none of these; the defaults say so.

    @property
    def own_seats(self) -> tuple[int, ...]:
        """The seats of the player at this screen, where others play the rest (online);
        none where everyone plays from this screen."""
        return ()

    @property
    def watching(self) -> bool:
        """Whether the player at this screen only watches a table others play."""
        return self.shared and not self.own_seats

    @property
    def staged(self) -> tuple[Move, ...]:
        """The moves of a turn begun here and shown on the board, not yet sent: online, the
        stones of a turn reach the table together."""
        return ()

    @property
    def turn_ready(self) -> bool:
        """Whether the staged moves make a whole turn, waiting for :meth:`confirm_turn`."""
        return False

    async def stage(self, move: Move | str) -> None:
        """Plays ``move``, chosen on the board, for the seat to move. Online, the stones of
        a Connect6 or Game of 6 turn are staged instead, until the turn is confirmed; here
        they are played at once."""
        await self.play(move)

    async def confirm_turn(self) -> None:
        """Sends the staged turn; :class:`IllegalMove` with the reason if it is refused."""
        raise IllegalMove("there is no turn waiting to be sent")

    async def clear_turn(self) -> None:
        """Takes back the staged moves: none staged, nothing to do."""
        return None

    @property
    def draw_offered_by(self) -> int | None:
        """The side offering a draw, if one does."""
        return None

    @property
    def may_offer_draw(self) -> bool:
        return False

    async def offer_draw(self) -> None:
        """Offers the other side a draw; :class:`IllegalMove` with the reason if not now."""
        raise IllegalMove(f"draws are agreed {ONLINE_ONLY}")

    async def answer_draw(self, accept: bool) -> None:
        """Accepts or declines the draw the other side offers."""
        raise IllegalMove(f"draws are agreed {ONLINE_ONLY}")

    @property
    def next_asked_by(self) -> tuple[int, ...]:
        """The sides asking for the next game, or for a rematch once the match is over."""
        return ()

    async def rematch(self) -> None:
        """Asks for a rematch, or agrees to the one asked for."""
        raise IllegalMove(f"rematches are asked for {ONLINE_ONLY}")

    @property
    def away(self) -> dict[str, float]:
        """The players whose connection dropped, by name, and the seconds each has left to
        come back (0 once they are past it)."""
        return {}

    @property
    def terms(self) -> str:
        """How the games here count, in a few words: online, "rated" or why not, and the
        time control ("rated · 5+5", "casual"); "" in a game in this process."""
        return ""

    @property
    def unrated_why(self) -> str:
        """Why the game just over moves no rating though the table's games are rated
        ("": it does, or they are not, which :attr:`terms` says)."""
        return ""

    @property
    def archived_as(self) -> int | None:
        """The game's number in the server's archive, once the game is over and kept there."""
        return None

    def clock_left(self, side: int) -> float | None:
        """Seconds ``side`` has left on the table's clock now, or ``None`` without one."""
        return None

    def clock_runs(self, side: int) -> bool:
        """Whether ``side``'s clock is running now."""
        return False

    async def claim_win(self) -> None:
        """Claims the game when the other side has been away past its time to come back."""
        raise IllegalMove(f"a win is claimed {ONLINE_ONLY}")

    @property
    def barely_begun(self) -> bool:
        """Whether the game may be aborted rather than claimed, once a player has been away
        past their time: fewer than two turns played."""
        return False

    async def abort(self) -> None:
        """Ends the game unplayed, likewise, while fewer than two turns were played."""
        raise IllegalMove(f"a game is aborted {ONLINE_ONLY}")

    @property
    def aborted(self) -> bool:
        """Whether the game was ended unplayed (aborted), counting for nobody."""
        return False

    # -- chat at an online table ---------------------------------------------------------
    # A table in this process has no chat: its players share one keyboard.

    @property
    def chat_lines(self) -> tuple[ChatLine, ...]:
        """The last lines of the chats read from this screen, oldest first, without those
        of the players its player muted."""
        return ()

    @property
    def may_chat(self) -> bool:
        """Whether a line may be said from this screen."""
        return False

    @property
    def chat_readers(self) -> str:
        """Who reads what is said from this screen, in words ("" where no one does)."""
        return ""

    async def say(self, text: str) -> str:
        """Says ``text`` in the chat this screen writes to: "" once it is said, otherwise
        why nothing was sent (too long, too fast, nothing in it)."""
        return NO_CHAT

    # -- a suggested turn ----------------------------------------------------------------
    # Only at a table in this process: online it would help a player against a person.

    async def suggest(self) -> list[Move]:
        """The turn the strongest computer player would play for the seat to move, a
        person's; :class:`IllegalMove` saying why there is none."""
        raise IllegalMove(NO_SUGGESTION_ONLINE)

    # -- acting ------------------------------------------------------------------------

    @abstractmethod
    async def play_turn(self, moves: Sequence[Move | str]) -> None:
        """Plays ``moves`` in turn for the seat to move, all within its turn (the whole
        turn, or the start of it): every one, or none and :class:`IllegalMove` with the
        reason. Moves after one that ends the game are left out."""

    async def play(self, move: Move | str) -> None:
        """Plays ``move`` for the seat to move; raises :class:`IllegalMove` with the reason."""
        await self.play_turn([move])

    @abstractmethod
    async def undo(self) -> None:
        """Takes back the player's last move and any computer replies after it."""

    @abstractmethod
    async def resign(self) -> None:
        """Resigns the game for the seats played from this screen."""

    @abstractmethod
    async def next_game(self) -> None:
        """Starts the next game of the match; raises :class:`ValueError` if it is over."""

    @abstractmethod
    async def close(self) -> None:
        """Stops whatever the session runs in the background."""

    # -- news --------------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Calls ``listener`` with every :class:`Update`; returns the function that stops it.

        A listener must not block: a screen posts itself a message and returns.
        """
        return self._news.subscribe(listener)

    def _tell(self, update: Update) -> None:
        self._news.tell(update)


class LocalSession(GameSession):
    """A table in this process: people at this keyboard (hot-seat) and computer players.

    ``new_game`` makes each game of the match. Computer seats think in
    ``thinker``'s worker processes, and so do the turns suggested to people; a
    computer turn is shown no sooner than ``computer_pause`` seconds after it
    began, so people can follow it.
    """

    def __init__(
        self,
        new_game: Callable[[], Game],
        sides: tuple[tuple[Player, ...], tuple[Player, ...]],
        match: Match,
        thinker: Thinker | None = None,
        computer_pause: float = 0.4,
    ) -> None:
        super().__init__(sides, match)
        self._new_game = new_game
        self._game = new_game()
        if self._game.players != 2 * len(sides[0]):
            raise ValueError(
                f"{self._game.name} here has {self._game.players} seats, "
                f"not {2 * len(sides[0])} players"
            )
        if thinker is None and any(p.is_computer for side in sides for p in side):
            raise ValueError("computer players need a Thinker")
        self._thinker = thinker
        self._pause = computer_pause
        self._counted = False
        self._movers: list[int] = []  # the seat that played each move of the game
        self._thinking: asyncio.Task[None] | None = None

    @property
    def game(self) -> Game:
        return self._game

    @property
    def _recorded(self) -> bool:
        return self._counted

    @property
    def may_move(self) -> bool:
        return not self._game.is_over and not self.player_at(self._game.to_move).is_computer

    @property
    def may_undo(self) -> bool:
        return not self._game.is_over and any(
            not self.player_at(seat).is_computer for seat in self._movers
        )

    @property
    def thinking(self) -> bool:
        return self._thinking is not None

    def start(self) -> None:
        """Lets a computer seat that moves first begin thinking (needs a running loop)."""
        self._continue()

    async def play_turn(self, moves: Sequence[Move | str]) -> None:
        if self._game.is_over:
            raise IllegalMove("the game is over")
        if not self.may_move:
            raise IllegalMove(f"it is {self.player_at(self._game.to_move).name}'s turn")
        if not moves:
            raise IllegalMove("a turn needs a move")
        if len(moves) == 1:
            self._apply([self._game.parse_move(moves[0])])  # checked as it is played
        else:
            self._apply(checked_turn(self._game, moves))

    async def suggest(self) -> list[Move]:
        if self._game.is_over:
            raise IllegalMove("the game is over")
        if not self.may_move:
            raise IllegalMove(f"it is {self.player_at(self._game.to_move).name}'s turn")
        if self._thinker is None:
            raise IllegalMove("there is no computer player here to ask")
        try:
            return await self._thinker.think(self._game, SUGGESTION_LEVEL)
        except (RuntimeError, ValueError) as problem:
            raise IllegalMove(f"the computer player stopped: {problem}") from None

    async def undo(self) -> None:
        if not self.may_undo:
            raise IllegalMove("there is no move of yours to take back")
        await self._stop_thinking()
        taken: list[Move] = []
        while True:
            taken.append(self._game.undo())
            seat = self._movers.pop()
            if not self.player_at(seat).is_computer:
                break
        self._tell(Update("undo", tuple(taken)))
        self._continue()

    async def resign(self) -> None:
        seat = self.resigning_seat
        if self._game.is_over or seat is None:
            raise IllegalMove("there is no seat of yours to resign")
        await self._stop_thinking()
        self._game.resign(seat)
        self._ended()

    async def next_game(self) -> None:
        if not self._game.is_over:
            raise ValueError("the game in play has not ended")
        if self.match.is_over:
            raise ValueError("the match is over")
        self._game = self._new_game()
        self._movers = []
        self._counted = False
        self._tell(Update("new-game"))
        self._continue()

    async def close(self) -> None:
        await self._stop_thinking()
        self._news.clear()

    # -- inside ------------------------------------------------------------------------

    @property
    def resigning_seat(self) -> int | None:
        """The seat to move if a person plays it, else the first seat a person plays."""
        seats = range(self._game.players)
        people = [seat for seat in seats if not self.player_at(seat).is_computer]
        if self._game.to_move in people:
            return self._game.to_move
        return people[0] if people else None

    def _apply(self, moves: list[Move]) -> None:
        played = []
        for move in moves:
            seat = self._game.to_move
            self._game.play(move)
            self._movers.append(seat)
            played.append(move)
            if self._game.is_over:
                break
        self._tell(Update("moves", tuple(played)))
        if self._game.is_over:
            self._ended()
        else:
            self._continue()

    def _ended(self) -> None:
        result = self._game.result
        if result is not None and not self._counted:
            self.match.record(result)
            self._counted = True
        self._tell(Update("over"))

    def _continue(self) -> None:
        """Starts the computer on its turn, when it is one and it is not already thinking."""
        game = self._game
        if game.is_over or self._thinking is not None:
            return
        if self.player_at(game.to_move).is_computer:
            self._thinking = asyncio.create_task(self._think())
            self._tell(Update("thinking"))

    async def _think(self) -> None:
        game = self._game
        player = self.player_at(game.to_move)
        assert self._thinker is not None and player.level is not None
        loop = asyncio.get_running_loop()
        began = loop.time()
        try:
            moves = await self._thinker.think(game, player.level)
            await asyncio.sleep(max(0.0, began + self._pause - loop.time()))
        except (RuntimeError, ValueError) as problem:
            self._thinking = None
            self._tell(Update("problem", text=f"the computer player stopped: {problem}"))
            return
        self._thinking = None
        self._apply(moves)

    async def _stop_thinking(self) -> None:
        task, self._thinking = self._thinking, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


def checked_turn(game: Game, moves: Sequence[Move | str], whole: bool = False) -> list[Move]:
    """``moves`` read and played on a copy of ``game`` for the seat to move, up to the
    game's end if it comes first; :class:`IllegalMove` if one cannot be played, or the turn
    ends before them, or (``whole``) they stop short of the end of the turn.

    >>> from sixtui.rules import new_game
    >>> game = new_game("connect6")
    >>> game.play("J10")
    >>> checked_turn(game, ["K10", "l10"])
    [Move.parse('K10'), Move.parse('L10')]
    >>> checked_turn(game, ["K10"], whole=True)
    Traceback (most recent call last):
    ...
    sixtui.rules.errors.IllegalMove: this turn is two stones, not one: nothing was played
    """
    if not moves:
        raise IllegalMove("a turn needs a move")
    trial = game.copy()
    seat = trial.to_move
    turn: list[Move] = []
    for move in moves:
        if trial.is_over:
            break
        if trial.to_move != seat:
            raise IllegalMove(
                f"this turn is {_count(trial, len(turn))}, not {len(moves)}: nothing was played"
            )
        try:
            turn.append(trial.parse_move(move))
            if turn[-1] in turn[:-1]:
                raise IllegalMove(_twice(trial, turn[-1]))
            trial.play(turn[-1])
        except IllegalMove as why:
            raise IllegalMove(f"{why}: nothing was played") from None
    if whole and not trial.is_over and trial.to_move == seat:
        whole_turn = len(turn) + trial.stones_left  # type: ignore[attr-defined]
        raise IllegalMove(
            f"this turn is {_count(trial, whole_turn)}, not {_NUMBERS.get(len(turn), len(turn))}:"
            " nothing was played"
        )
    return turn


_NUMBERS = {1: "one", 2: "two"}
_PLACES = {"connect6": "points", "gameof6": "cells"}


def _twice(game: Game, move: Move) -> str:
    """Why a turn that names ``move`` twice is refused: playing it would say that the second
    finds the place taken, which is not what the player did wrong."""
    place = _PLACES.get(game.name, "cells")
    return f"{move} is typed twice, but the {_count(game, 2)} of a turn go on two different {place}"


def _count(game: Game, moves: int) -> str:
    """``moves`` of ``game`` in words, named as its players name them: ``two stones``."""
    noun = {"connect6": "stone", "gameof6": "dot"}.get(game.name, "move")
    return f"{_NUMBERS.get(moves, str(moves))} {noun}{'' if moves == 1 else 's'}"
