"""A recorded game shown move by move: the session a replay screen reads.

Nothing is played at a replay: the screen moves :attr:`ReplaySession.ply` back and forth
through the record's moves, and the board and the panel show the game as it stood after
that many moves, the result once at its end.
"""

from __future__ import annotations

from collections.abc import Sequence

from sixtui.rules import Game, IllegalMove, Match, Move, new_game
from sixtui.rules.records import GameRecord
from sixtui.tui.player_text import printable
from sixtui.tui.session import GameSession, Player

NOT_HERE = "this is a replay: nothing is played here"


class ReplaySession(GameSession):
    """``record``'s game at :attr:`ply` moves, from the start (0) to its end; it opens at
    the start.

    >>> from sixtui.rules.records import GameRecord
    >>> record = GameRecord.parse('[Game "connect6"]\\n[Seat1 "ann"]\\n\\n1. J10 2. K10 K11')
    >>> replay = ReplaySession(record)
    >>> replay.go_to(2); [str(move) for move in replay.game.history]
    ['J10', 'K10']
    >>> replay.go_to(99); replay.ply, replay.player_at(0).name, replay.player_at(1).name
    (3, 'ann', '?')
    """

    replayed = True

    def __init__(self, record: GameRecord) -> None:
        # A record's names may come from anywhere: shown as plain characters only.
        players = [Player(printable(name).strip() or "?") for name in record.players]
        super().__init__((tuple(players[0::2]), tuple(players[1::2])), Match(games=None))
        self.record = record
        self._moves = record.game.history
        self._position = new_game(record.game.name, **record.game.options())
        self._finished = Match(games=None)
        if record.game.result is not None:
            self._finished.record(record.game.result)
        self._unfinished = self.match

    def follow(self, record: GameRecord) -> bool:
        r"""Takes in the game as it went on since (``record`` holds this record's moves and
        more): a replay at the end stays at the end, one stepped back stays where it is.
        False, changing nothing, if ``record`` is another game.

        >>> replay = ReplaySession(GameRecord.parse('[Game "connect6"]\n\n1. J10'))
        >>> replay.go_to(1)
        >>> replay.follow(GameRecord.parse('[Game "connect6"]\n\n1. J10 2. K10 K11'))
        True
        >>> replay.ply, replay.moves
        (3, 3)
        >>> replay.follow(GameRecord.parse('[Game "connect6"]\n\n1. A1'))
        False
        """
        moves = record.game.history
        known = self._moves
        same_game = record.game.name == self.record.game.name and (
            record.game.options() == self.record.game.options()
        )
        if not same_game or len(moves) < len(known) or moves[: len(known)] != known:
            return False
        following = self.at_end
        self.record, self._moves = record, moves
        self._finished = Match(games=None)
        if record.game.result is not None:
            self._finished.record(record.game.result)
        self.go_to(self.moves if following else self.ply)
        return True

    @property
    def ply(self) -> int:
        """How many of the record's moves are on the board."""
        return len(self._position.history)

    @property
    def moves(self) -> int:
        """How many moves the record holds."""
        return len(self._moves)

    @property
    def at_end(self) -> bool:
        return self.ply == self.moves

    def go_to(self, ply: int) -> None:
        """Shows the game after ``ply`` moves (kept within the record)."""
        ply = min(max(ply, 0), self.moves)
        while self.ply > ply:
            self._position.undo()
        while self.ply < ply:
            self._position.play(self._moves[self.ply])
        self.match = self._finished if self.at_end else self._unfinished

    def after_turn(self, turn: int) -> int:
        """The ply at the end of turn ``turn`` as the move list numbers turns (from 1):
        in Six a move a turn, else one stone to open and two a turn after."""
        ply = turn if self.record.game.name == "six" else 2 * turn - 1
        return min(max(ply, 0), self.moves)

    @property
    def last_move(self) -> Move | None:
        """The move that brought the game to :attr:`ply`."""
        return self._moves[self.ply - 1] if self.ply else None

    # -- what a game screen reads ---------------------------------------------------------

    @property
    def game(self) -> Game:
        # At its end the record's own game, which also holds a resignation or agreed draw.
        return self.record.game if self.at_end else self._position

    @property
    def opener(self) -> int:
        return 0  # a record names its players seat by seat: the first side opened

    @property
    def _recorded(self) -> bool:
        return self.at_end and self.record.game.result is not None

    @property
    def may_move(self) -> bool:
        return False

    @property
    def may_undo(self) -> bool:
        return False

    @property
    def resigning_seat(self) -> int | None:
        return None

    @property
    def thinking(self) -> bool:
        return False

    async def play_turn(self, moves: Sequence[Move | str]) -> None:
        raise IllegalMove(NOT_HERE)

    async def undo(self) -> None:
        raise IllegalMove(NOT_HERE)

    async def resign(self) -> None:
        raise IllegalMove(NOT_HERE)

    async def next_game(self) -> None:
        raise ValueError(NOT_HERE)

    async def close(self) -> None:
        self._news.clear()
