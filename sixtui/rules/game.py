"""What every game in the library offers: the interface a search or a screen drives.

A :class:`Game` is the whole state of one game: whose turn it is, the legal
moves, how to play and take back a move, and whether it is over and who won.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar, Literal, Self

import msgpack

from sixtui.rules.errors import IllegalMove
from sixtui.rules.move import Move
from sixtui.rules.result import Result

SAVE_FORMAT_VERSION = 1
MOVES_SHOWN = 8  # by repr(): the last moves of a longer game, after a count of the others


class Game(ABC):
    """Base class of the rules engines.

    Subclasses keep their own board; this class keeps the parts every game
    shares: seats, resignation, the result, copying, equality and saving.
    """

    name: ClassVar[str]
    # The containers that change as the game is played; copy() copies them.
    _copied_attributes: ClassVar[tuple[str, ...]]
    players: int
    _result: Result | None
    _resigned_seat: int | None
    _left: bool  # the resigned seat's player left the table rather than resign
    _timed_out = False  # the resigned seat's time ran out rather than resign
    _drawn_by_agreement: bool

    # -- the interface ---------------------------------------------------------------

    @property
    @abstractmethod
    def to_move(self) -> int:
        """The seat to play now (seat 0 moves first)."""

    @abstractmethod
    def legal_moves(self) -> list[Move]:
        """Every move the seat to move may play now; empty once the game is over."""

    @abstractmethod
    def play(self, move: Move | str) -> None:
        """Plays a move or its notation; raises :class:`IllegalMove` if illegal, changes nothing."""

    @abstractmethod
    def undo(self) -> Move:
        """Takes back the last :meth:`play` and returns its move."""

    @abstractmethod
    def parse_move(self, text: str) -> Move:
        """Reads a move's notation; raises :class:`IllegalMove` if it is not one for this game."""

    @property
    @abstractmethod
    def history(self) -> list[Move]:
        """The moves played so far, oldest first."""

    @abstractmethod
    def options(self) -> dict[str, Any]:
        """The options that :func:`sixtui.rules.new_game` needs to make this game again."""

    @abstractmethod
    def _points(self, winner: int | None) -> tuple[int, ...]:
        """Each team's points if the game ended now with ``winner``."""

    # -- shared behaviour ------------------------------------------------------------

    def team(self, seat: int) -> int:
        """The team of a seat: partners in 4-player games share ``seat % 2``."""
        self._check_seat(seat)
        return seat % 2

    @property
    def result(self) -> Result | None:
        """``None`` while the game runs, else how it ended."""
        return self._result

    @property
    def is_over(self) -> bool:
        return self._result is not None

    @property
    def conceding_seat(self) -> int | None:
        """The seat whose resignation, leaving or time running out ended the game, else
        ``None``."""
        return self._resigned_seat

    def resign(self, seat: int) -> None:
        """The seat gives up; the other team wins with reason ``resign``."""
        self._concede(seat, "resign")

    def forfeit(self, seat: int) -> None:
        """The seat's player left the table and did not come back: the other team wins,
        with reason ``left``, as by a resignation.

        >>> from sixtui.rules import new_game
        >>> g = new_game("connect6")
        >>> g.play("J10")
        >>> g.forfeit(0)
        >>> g.result
        Result(winner=1, reason='left', points=())
        """
        self._concede(seat, "left")

    def time_out(self, seat: int) -> None:
        """The seat's time ran out: the other team wins with reason ``time``, unless it
        could not win at all any more (:meth:`could_still_win`), when the game is drawn.

        >>> from sixtui.rules import new_game
        >>> g = new_game("connect6")
        >>> g.play("J10")
        >>> g.time_out(1)
        >>> g.result
        Result(winner=0, reason='time', points=())
        """
        self._concede(seat, "time")

    def could_still_win(self, team: int) -> bool:
        """Whether ``team`` could yet win, however the game went on (a side whose time
        runs out loses only to a side that could): here, always."""
        return True

    def _concede(self, seat: int, reason: Literal["resign", "left", "time"]) -> None:
        """Ends the game by the seat's resignation, leaving or time running out: the other
        team wins, or, when the seat's time ran out and that team could no longer win at
        all, the game is drawn."""
        self._check_seat(seat)
        if self._result is not None:
            raise IllegalMove("the game is over")
        other = 1 - self.team(seat)
        winner = None if reason == "time" and not self.could_still_win(other) else other
        self._result = Result(winner, reason, self._points(winner))
        self._resigned_seat = seat
        self._left = reason == "left"
        self._timed_out = reason == "time"

    def agree_draw(self) -> None:
        """Both sides agree to a draw: the game ends drawn with reason ``agreement`` (in
        Game of 6 each side scores its colored cells, as in any draw).

        >>> from sixtui.rules import new_game
        >>> g = new_game("connect6")
        >>> g.play("J10")
        >>> g.agree_draw()
        >>> g.result
        Result(winner=None, reason='agreement', points=())
        """
        if self._result is not None:
            raise IllegalMove("the game is over")
        self._result = Result(None, "agreement", self._points(None))
        self._drawn_by_agreement = True

    def to_bytes(self) -> bytes:
        """The whole game (options, moves, resignation, time-out or agreed draw) as msgpack
        bytes."""
        return msgpack.packb(
            {
                "game": self.name,
                "version": SAVE_FORMAT_VERSION,
                "options": self.options(),
                "moves": self._encode_moves(),
                "resigned": self._resigned_seat,
                "left": self._left,
                "timeout": self._timed_out,
                "agreed": self._drawn_by_agreement,
            }
        )

    @classmethod
    def _from_saved(cls, options: Mapping[str, Any], moves: bytes) -> Self:
        """Makes the game from its options and replays its saved moves."""
        game = cls(**options)
        for move in game._decode_moves(moves):
            game.play(move)
        return game

    @abstractmethod
    def _encode_moves(self) -> bytes: ...

    @abstractmethod
    def _decode_moves(self, data: bytes) -> list[Move]: ...

    def copy(self) -> Self:
        """An independent copy: playing on one never changes the other."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        fresh: dict[int, Any] = {}  # one copy per object, so shared lists stay shared
        for name in self._copied_attributes:
            value = getattr(self, name)
            if id(value) not in fresh:
                fresh[id(value)] = value.copy()
            setattr(other, name, fresh[id(value)])
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return (
            self.name == other.name
            and self.options() == other.options()
            and self.history == other.history
            and self._resigned_seat == other._resigned_seat
            and self._left == other._left
            and self._timed_out == other._timed_out
            and self._drawn_by_agreement == other._drawn_by_agreement
        )

    __hash__ = None  # type: ignore[assignment]  # games are mutable

    def __repr__(self) -> str:
        """The game and its options, then where it stands, whose turn it is or how it
        ended, and its moves (the last few only, in a longer game).

        >>> from sixtui.rules import new_game
        >>> g = new_game("connect6")
        >>> g
        <Connect6 size=19; seat 0 to move, 1 stone left; no moves>
        >>> g.play("J10"); g.play("K11")
        >>> g
        <Connect6 size=19; seat 1 to move, 1 stone left; 2 moves: J10 K11>
        >>> g.resign(1)
        >>> g
        <Connect6 size=19; team 0 won (resign); 2 moves: J10 K11>
        """
        options = " ".join(f"{name}={value!r}" for name, value in self.options().items())
        now = self._turn_words() if self._result is None else _result_words(self._result)
        parts = [*self._position_words(), now, self._moves_words()]
        return f"<{type(self).__name__} {options}; {'; '.join(parts)}>"

    def _position_words(self) -> list[str]:
        """What :meth:`__repr__` says of the position besides the moves: nothing here."""
        return []

    @abstractmethod
    def _turn_words(self) -> str:
        """What :meth:`__repr__` says of the turn while the game runs."""

    def _moves_words(self) -> str:
        history = self.history
        if not history:
            return "no moves"
        shown = " ".join(str(move) for move in history[-MOVES_SHOWN:])
        earlier = len(history) - MOVES_SHOWN
        counted = f"{len(history)} move{'s' if len(history) > 1 else ''}"
        return f"{counted}: ({earlier} earlier) {shown}" if earlier > 0 else f"{counted}: {shown}"

    def _check_seat(self, seat: int) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.players:
            raise IllegalMove(f"there is no seat {seat!r}: seats are 0 to {self.players - 1}")


def _result_words(result: Result) -> str:
    if result.winner is None:
        words = f"drawn ({result.reason})"
    else:
        words = f"team {result.winner} won ({result.reason})"
    if result.points:
        words += f", points {'-'.join(map(str, result.points))}"
    return words
