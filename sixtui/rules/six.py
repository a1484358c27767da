"""Six: hexagon pieces side by side; a row, triangle or circle of six wins.

Players place their pieces one per turn, each touching the layout; once a seat's
pieces in hand are used up it moves instead, lifting one of its team's pieces
and putting it down elsewhere against the layout. Three rulesets differ in the
start, the circle's centre, and what happens when a lift splits the layout
(see :data:`RULESETS`).

This module holds the game and its public face; each part of a turn has its own
module: :mod:`~sixtui.rules.six_placing` (pieces from the hand),
:mod:`~sixtui.rules.six_lifting` (the second round: lifts, splits and captures),
:mod:`~sixtui.rules.six_declaring` (the shapes a team may declare) and
:mod:`~sixtui.rules.six_ending` (the other ways a game ends), besides
:mod:`~sixtui.rules.six_rulesets` and :mod:`~sixtui.rules.six_moves` (moves as values).

>>> from sixtui.rules import new_game
>>> g = new_game("six")
>>> g.play("0,0"); g.play("1,0")
>>> g  # doctest: +NORMALIZE_WHITESPACE
<Six ruleset='steffen' players=2 declare=False; round 1, seat 0 to move, 18 in hand;
 2 moves: 0,0 1,0>
>>> [str(m) for m in g.legal_moves()][:3]
['-1,0', '-1,1', '0,-1']
>>> g.play("5,5")
Traceback (most recent call last):
...
sixtui.rules.errors.IllegalMove: 5,5 does not touch the layout
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal

from sixtui.rules.errors import GameDataError, IllegalMove, checked_team
from sixtui.rules.game import Game
from sixtui.rules.hexes import NEIGHBOUR_STEPS, Hex, pack, unpack
from sixtui.rules.move import Move
from sixtui.rules.result import Result
from sixtui.rules.shapes import ShapeId, by_kind, cells_of, first_by_kind
from sixtui.rules.six_declaring import DeclaringRights, shape_team
from sixtui.rules.six_ending import NO_MOVES, REPETITION, Repetitions, shape_win, too_few_pieces
from sixtui.rules.six_lifting import (
    CutPoints,
    can_lift_without_split,
    captured_by,
    second_round_moves,
)
from sixtui.rules.six_moves import MOVES, read_move
from sixtui.rules.six_placing import check_placement, placement_cells
from sixtui.rules.six_rulesets import RULESETS, Ruleset

__all__ = ["RULESETS", "Ruleset", "Six"]


@dataclass(slots=True)
class _Turn:
    """What one play() changed, to take it back."""

    move: Move
    seat: int
    captured: list[tuple[int, int]]  # (cell, team)
    position: Any  # the repetition key counted after it, if one was
    rights: DeclaringRights  # before it


class Six(Game):
    """Six for 2 players or 2 teams of 2 partners, under one of :data:`RULESETS`."""

    name = "six"
    _copied_attributes = ("_hands", "_board", "_touching", "_on_table", "_turns", "_seen")

    def __init__(self, ruleset: str = "steffen", players: int = 2, declare: bool = False) -> None:
        if ruleset not in RULESETS:
            raise ValueError(f"there is no ruleset {ruleset!r}: choose {', '.join(RULESETS)}")
        if players not in (2, 4) or isinstance(players, bool):
            raise ValueError(f"Six is played by 2 or 4 players, not {players!r}")
        if not isinstance(declare, bool):
            raise ValueError(f"declare is true or false, not {declare!r}")
        self.rules = RULESETS[ruleset]
        if declare and not self.rules.may_declare:
            raise ValueError(f"declaring is not part of the {ruleset} rules")
        self.players = players
        self.declare = declare
        if players == 4 and self.rules.shared_team_pool:
            self._pool_of_seat: tuple[int, ...] = (0, 1, 0, 1)
            self._hands = [self.rules.hand_four_players] * 2
        else:
            self._pool_of_seat = tuple(range(players))
            per_player = (
                self.rules.hand_two_players if players == 2 else self.rules.hand_four_players
            )
            self._hands = [per_player] * players
        self._board: dict[int, int] = {}
        self._cuts: CutPoints | None = None
        # For each empty or occupied cell next to a piece: how many pieces touch it.
        self._touching: dict[int, int] = {}
        self._on_table = [0, 0]
        for cell, team in self.rules.preplaced:
            self._put(pack(cell), team)
        self._to_move = 0
        self._turns: list[_Turn] = []
        self._result: Result | None = None
        self._resigned_seat: int | None = None
        self._left = False
        self._drawn_by_agreement = False
        self._winning_shape: ShapeId | None = None
        # Second-round positions met so far: while pieces are placed, the pieces in
        # hand shrink every turn, so no earlier position can come back.
        self._seen = Repetitions()
        self._rights = DeclaringRights()

    # -- reading the position --------------------------------------------------------

    @property
    def to_move(self) -> int:
        return self._to_move

    @property
    def history(self) -> list[Move]:
        return [turn.move for turn in self._turns]

    def options(self) -> dict[str, Any]:
        return {"ruleset": self.rules.name, "players": self.players, "declare": self.declare}

    def in_hand(self, seat: int) -> int:
        """Pieces this seat can still place (partners sharing a pool both count it)."""
        self._check_seat(seat)
        return self._hands[self._pool_of_seat[seat]]

    def _hand(self, seat: int) -> int:
        return self._hands[self._pool_of_seat[seat]]

    def pieces(self, team: int) -> int:
        """The team's pieces in the game: on the table and in hand."""
        checked_team(team)
        pools = {self._pool_of_seat[seat] for seat in range(self.players) if seat % 2 == team}
        return self._on_table[team] + sum(self._hands[pool] for pool in pools)

    def at(self, cell: Hex | str) -> int | None:
        """The team of the piece on ``cell``, or ``None``."""
        return self._board.get(pack(self._cell(cell)))

    def layout(self) -> dict[Hex, int]:
        """Every piece on the table: cell → team."""
        return {unpack(key): team for key, team in self._board.items()}

    def winning_cells(self) -> list[Hex]:
        """The cells of the shape that won, or ``[]``."""
        if self._winning_shape is None:
            return []
        return sorted(unpack(key) for key in cells_of(self._winning_shape))

    def can_declare(self) -> bool:
        """Whether the seat to move may play ``declare`` now."""
        if not self.declare or self._result is not None:
            return False
        return bool(self._rights.declarable(self._to_move % 2))

    def declarable_shapes(self, team: int) -> list[tuple[str, list[Hex]]]:
        """The shapes ``team`` may declare: on the table, and completed no earlier than
        the other team's latest shape. Each is its kind and its cells, rows first; none
        when declaring is off or the game is over.

        >>> from sixtui.rules import new_game
        >>> g = new_game("six", ruleset="romanian", declare=True)
        >>> for move in "0,-1 0,1 1,-1 1,1 2,-1 2,1 3,-1 3,1 4,-1 4,1 5,-1 5,1".split():
        ...     g.play(move)
        >>> g.declarable_shapes(0)  # red completed a row after black's
        []
        >>> [(kind, " ".join(map(str, cells))) for kind, cells in g.declarable_shapes(1)]
        [('row', '0,1 1,1 2,1 3,1 4,1 5,1')]
        """
        checked_team(team)
        if not self.declare or self._result is not None:
            return []
        shapes = sorted(self._rights.declarable(team), key=by_kind)
        return [(shape[0], sorted(unpack(key) for key in cells_of(shape))) for shape in shapes]

    def _turn_words(self) -> str:
        seat = self._to_move
        hand = self._hand(seat)
        words = f"round {1 if hand else 2}, seat {seat} to move"
        if hand:
            words += f", {hand} in hand"
        return words + ", may declare" if self.can_declare() else words

    # -- legal moves -----------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every move the seat to move may play: ``declare`` first when it may,
        then placements, or second-round moves, in order of their cells.

        Each move is listed once, without ``!``: in a declaring game any of them may
        also be played with ``!`` (see :meth:`play`).
        """
        if self._result is not None:
            return []
        seat = self._to_move
        if self._hand(seat):
            opening = self.rules.first_cells if not self._turns else ()
            moves = MOVES.row_moves(None, placement_cells(self._board, self._touching, opening))
        else:
            moves = second_round_moves(
                self._board,
                self._touching,
                self._cut_points(),
                seat % 2,
                self.rules.split_captures,
            )
        if self.can_declare():
            moves.insert(0, MOVES.get(None, None, None, True))
        return moves

    # -- playing ---------------------------------------------------------------------

    def parse_move(self, text: str | Move) -> Move:
        """Reads ``q,r``, ``FROM>TO``, ``FROM>TO:KEEP`` (any may end in ``!``) or ``declare``."""
        return read_move(text)

    def play(self, move: Move | str) -> None:
        """Plays one turn: a placement, a second-round move or a declaration.

        In a declaring game a move written with ``!`` wins if the mover's team may then
        declare a shape (:meth:`declarable_shapes`): one the move completed, or an older
        one whose right stands. Otherwise it is an ordinary move, and recorded as one.

        >>> from sixtui.rules import new_game
        >>> g = new_game("six", ruleset="romanian", declare=True)
        >>> g.play("1,1")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        sixtui.rules.errors.IllegalMove: Black's first piece goes on -1,0, 0,-1 or -1,1: ...
        >>> for move in "0,-1 0,1 1,-1 1,1 2,-1 2,1 3,-1 3,1 4,-1 4,1 5,-1 5,1".split():
        ...     g.play(move)  # black completes a row, then red; neither declares
        >>> g.play("-1,0!")  # red's row came after black's: black may not declare its own
        >>> g.result, g.history[-1], g.can_declare()
        (None, Move.parse('-1,0'), True)
        >>> g  # doctest: +NORMALIZE_WHITESPACE
        <Six ruleset='romanian' players=2 declare=True; round 1, seat 1 to move, 14 in hand,
         may declare; 13 moves: (5 earlier) 2,1 3,-1 3,1 4,-1 4,1 5,-1 5,1 -1,0>
        """
        if self._result is not None:
            raise IllegalMove("the game is over")
        move = read_move(move)
        seat, team = self._to_move, self._to_move % 2
        if move.to is None:
            self._check_declare(team)
            self._record(move, seat, [])
            self._win(team, first_by_kind(self._rights.declarable(team)))
            return
        if move.declare and not self.declare:
            raise IllegalMove("declaring is off in this game: drop the '!'")
        to = pack(move.to)
        if move.origin is None:
            if not self._hand(seat):
                raise IllegalMove(self._why_no_placement())
            check_placement(self._board, self._touching, to, self.rules, not self._turns)
            self._hands[self._pool_of_seat[seat]] -= 1
            self._put(to, team)
            captured: list[tuple[int, int]] = []
        else:
            captured = self._lift_and_place(move, seat, team, to)
        self._settle(self._record(move, seat, captured), to)

    def undo(self) -> Move:
        if self._resigned_seat is not None:
            raise IllegalMove("a resignation cannot be taken back")
        if self._drawn_by_agreement:
            raise IllegalMove("an agreed draw cannot be taken back")
        if not self._turns:
            raise IllegalMove("there is no move to take back")
        turn = self._turns[-1]
        self._take_back(turn)
        return turn.move

    def _lift_and_place(self, move: Move, seat: int, team: int, to: int) -> list[tuple[int, int]]:
        """Lifts ``move.origin``, captures what it cuts off, and puts it on ``to``."""
        if self._hand(seat):
            raise IllegalMove(self._why_no_lift())
        origin = pack(move.origin)
        # The cut points are known already if the moves of this position were listed.
        cells = captured_by(
            self._board, self._cuts, move, origin, to, team, self.rules.split_captures
        )
        self._take(origin)
        captured = [(cell, self._take(cell)) for cell in cells]
        self._put(to, team)
        return captured

    def _holder(self) -> tuple[str, str]:
        """Who holds the pieces in hand of the seat to move, and the verb for them, said to
        the player there: a refused move is told to whoever tried it, so no seat is named."""
        return ("your team", "has") if len(self._hands) < self.players else ("you", "have")

    def _why_no_lift(self) -> str:
        """Why the seat to move, with pieces in hand, may not move one on the table."""
        hand = self._hand(self._to_move)
        pieces, place = ("1 piece", "it") if hand == 1 else (f"{hand} pieces", "one")
        who, have = self._holder()
        return f"{who} still {have} {pieces} in hand: place {place} first"

    def _why_no_placement(self) -> str:
        """Why the seat to move, with nothing in hand, may not place: with a move it may
        play instead, written out."""
        pieces = [move for move in self.legal_moves() if move.to is not None]
        who, have = self._holder()
        if not pieces:
            return f"{who} {have} no pieces left in hand and none may move: declare your shape"
        example = next((move for move in pieces if move.keep is None), pieces[0])
        return (
            f"{who} {have} no pieces left in hand: move one of your team's pieces, like {example}"
        )

    def _check_declare(self, team: int) -> None:
        if not self.declare:
            raise IllegalMove("declaring is off in this game")
        if not any(shape_team(s) == team for s in self._rights.shapes):
            raise IllegalMove("your team has no shape on the table to declare")
        if not self.can_declare():
            raise IllegalMove(
                "the other team has completed a shape since yours: it can no longer be declared"
            )

    # -- after a move ----------------------------------------------------------------

    def _record(self, move: Move, seat: int, captured: list[tuple[int, int]]) -> _Turn:
        """Logs the move, brings the declaring rights up to date, passes the turn."""
        turn = _Turn(move, seat, captured, None, self._rights)
        if self.declare and move.to is not None:
            changed = [pack(move.to), *(cell for cell, _ in captured)]
            if move.origin is not None:
                changed.append(pack(move.origin))
            self._rights = self._rights.after(
                self._board, changed, len(self._turns) + 1, self._centre_allows
            )
        self._turns.append(turn)
        self._advance()
        return turn

    def _settle(self, turn: _Turn, to: int) -> None:
        """Ends the game if the move, which put a piece on ``to``, won, lost or drew it."""
        move, team, captured = turn.move, turn.seat % 2, turn.captured
        if self.declare:
            if move.declare:
                declared = self._rights.declarable(team)
                if declared:
                    self._win(team, first_by_kind(declared))
                    return
                # A '!' naming no shape the team may declare wins nothing: the move is an
                # ordinary one, and the record says so.
                turn.move = replace(move, declare=False)
        else:
            emptied = [cell for cell, _ in captured]
            if move.origin is not None:
                emptied.append(pack(move.origin))
            won = shape_win(
                self._board,
                team,
                to,
                emptied,
                self._centre_allows,
                self.rules.centre_may_be_opponent,
            )
            if won is not None:
                self._win(*won)
                return
        if captured:
            self._result = too_few_pieces((self.pieces(0), self.pieces(1)))
            if self._result is not None:
                return
        if not any(self._hands):
            turn.position = self._position()
            if self._seen.add(turn.position):
                self._result = REPETITION
                return
        if self._to_move < 0:
            self._to_move = turn.seat  # nobody can move: the game stops here
            self._result = NO_MOVES

    def _win(self, team: int, shape: ShapeId) -> None:
        self._winning_shape = shape if self.declare is False else shape[:-1]
        reason: Literal["row", "triangle", "circle"] = shape[0]
        self._result = Result(team, reason, ())

    def _advance(self) -> None:
        """Passes the turn to the next seat that can move; -1 when none can."""
        for offset in range(1, self.players + 1):
            seat = (self._to_move + offset) % self.players
            if self._can_move(seat):
                self._to_move = seat
                return
        self._to_move = -1

    def _can_move(self, seat: int) -> bool:
        if self._hand(seat):
            return True
        team = seat % 2
        if self.rules.split_captures:
            return self._on_table[team] > 0
        if self.declare and self._rights.shapes and self._rights.declarable(team):
            return True
        return can_lift_without_split(self._board, team, self._cut_points)

    def _take_back(self, turn: _Turn) -> None:
        self._turns.pop()
        if turn.position is not None:
            self._seen.remove(turn.position)
        move, team = turn.move, turn.seat % 2
        if move.to is not None:
            self._take(pack(move.to))
            if move.origin is None:
                self._hands[self._pool_of_seat[turn.seat]] += 1
            else:
                for cell, owner in turn.captured:
                    self._put(cell, owner)
                self._put(pack(move.origin), team)
        self._rights = turn.rights
        self._to_move = turn.seat
        self._result = None
        self._winning_shape = None

    # -- the table -------------------------------------------------------------------

    def _cut_points(self) -> CutPoints:
        """The layout's cut points, found once per position."""
        if self._cuts is None:
            self._cuts = CutPoints(self._board)
        return self._cuts

    def _put(self, cell: int, team: int) -> None:
        self._cuts = None
        self._board[cell] = team
        self._on_table[team] += 1
        touching = self._touching
        for step in NEIGHBOUR_STEPS:
            touching[cell + step] = touching.get(cell + step, 0) + 1

    def _take(self, cell: int) -> int:
        self._cuts = None
        team = self._board.pop(cell)
        self._on_table[team] -= 1
        touching = self._touching
        for step in NEIGHBOUR_STEPS:
            left = touching[cell + step] - 1
            if left:
                touching[cell + step] = left
            else:
                del touching[cell + step]
        return team

    def _centre_allows(self, centre: int, team: int) -> bool:
        return self.rules.centre_may_be_opponent or self._board.get(centre, team) == team

    def _position(self) -> Any:
        """The repetition key of a second-round position: pieces and seat to move."""
        return frozenset(self._board.items()), self._to_move

    def _points(self, winner: int | None) -> tuple[int, ...]:
        return ()

    def _cell(self, cell: Hex | str) -> Hex:
        return cell if type(cell) is Hex else Hex.parse(cell)

    def _encode_moves(self) -> bytes:
        return " ".join(str(turn.move) for turn in self._turns).encode()

    def _decode_moves(self, data: bytes) -> list[Move]:
        try:
            return [self.parse_move(text) for text in data.decode().split()]
        except (UnicodeDecodeError, IllegalMove) as error:
            raise GameDataError(f"the saved move list is damaged: {error}") from None
