"""The computer player of Six: win, else the move that best grows its shapes and
spoils the other team's.

Each shape the layout could still make (a row, triangle or circle with pieces
of one team only) is that team's chance, worth more the fewer pieces it lacks.
A move is scored by how it changes the chances through the cells it touches,
so filling the last cell of the other team's shape, which stops a win next
turn, weighs more than anything short of a win.

>>> import random, time
>>> from sixtui.rules import new_game
>>> g = new_game("six", ruleset="romanian")
>>> [str(m) for m in choose_six_move(g, "normal", time.perf_counter() + 1, random.Random(0))]
['-1,1']
"""

from __future__ import annotations

import random
import time
from functools import cached_property

from sixtui.rules import Game, Move
from sixtui.rules.hexes import AXIS_STEPS, NEIGHBOUR_STEPS, Hex, pack
from sixtui.rules.shapes import SHAPE_SIZE, TRIANGLES, ShapeId, cells_of, shapes_through

# What a shape holding this many pieces of one team (and no others) is worth: to
# that team, and (spoiling it) to the other, for whom a shape one piece short is
# a loss next turn unless it is stopped.
SHAPE_WORTH = (0, 1, 5, 25, 120, 1000, 3000)
RIVAL_WORTH = (0, 1, 4, 20, 100, 5000, 5000)
URGENT = 500  # a move scoring this much finishes or stops a shape: no playing around
EASY_CHOICES = 4
CHECKED_MOVES = 8  # the best moves looked at for a loss (or, "hard", a reply that wins)


def choose_six_move(game: Game, level: str, deadline: float, rng: random.Random) -> list[Move]:
    """The one move that makes the current turn of a Six game."""
    work = game.copy()
    winning = winning_move(work, deadline)
    if winning is not None:
        return [winning]
    team = work.team(work.to_move)
    scorer = _Scorer(work, team)
    scored = [(scorer.move(move), index, move) for index, move in enumerate(work.legal_moves())]
    scored.sort(key=lambda entry: (-entry[0], entry[1]))
    ranked = [move for _, _, move in scored]
    if level == "easy" and scored[0][0] < URGENT:
        ranked = ranked[:EASY_CHOICES]
        rng.shuffle(ranked)
    for move in ranked[:CHECKED_MOVES]:
        if time.perf_counter() > deadline:
            break
        if not _loses(work, move, team, deadline if level == "hard" else None):
            return [move]
    return [ranked[0]]


def winning_move(game: Game, deadline: float) -> Move | None:
    """A move that wins at once for the seat to move, if it finds one (``game`` is kept).

    In declaring games that is ``declare`` while the team's right to a shape stands, or
    a move completing a shape played with ``!``, kept only if the game says it won: a
    ``!`` naming no shape the team may declare wins nothing. Only the moves that can
    complete a shape are tried on the board.
    """
    team = game.team(game.to_move)
    declaring = game.declare  # type: ignore[attr-defined]
    scorer = _Scorer(game, team)
    board = scorer.board
    # Whether capturing the other team's piece from the middle of a ring makes a circle.
    ring_prizes = not scorer.centre_may_be_opponent and any(
        owner != team and all(board.get(cell + step) == team for step in NEIGHBOUR_STEPS)
        for cell, owner in board.items()
    )
    for move in game.legal_moves():
        if move.to is None:
            return move  # declare: the shape on the table wins
        if time.perf_counter() > deadline:
            break
        if not (ring_prizes and move.origin is not None) and not scorer.completes(move.to):
            continue
        if declaring:
            move = Move(move.to, move.origin, move.keep, declare=True)
        game.play(move)
        won = game.result is not None and game.result.winner == team
        game.undo()
        if won:
            return move
    return None


def _loses(game: Game, move: Move, team: int, deadline: float | None) -> bool:
    """Whether ``move`` ends the game in the other team's favour, or, with a
    ``deadline``, lets the other team win on its very next move."""
    game.play(move)
    try:
        if game.result is not None:
            return game.result.winner not in (team, None)
        if deadline is None or game.team(game.to_move) == team:
            return False
        return winning_move(game, deadline) is not None
    finally:
        game.undo()


class _Scorer:
    """Scores moves of ``team`` on one position, remembering the work per cell.

    A move's score is what putting a piece on its cell changes, plus what lifting
    its piece (if any) changes; the few shapes through both cells are counted
    twice, and splits and captures are left to the checks that play the move.
    In declaring games a shape on the table that its team may no longer declare
    is worth nothing, to either team, for as long as it stands.
    """

    def __init__(self, game: Game, team: int) -> None:
        self.team = team
        self.board = {pack(cell): owner for cell, owner in game.layout().items()}  # type: ignore[attr-defined]
        self.centre_may_be_opponent: bool = game.rules.centre_may_be_opponent  # type: ignore[attr-defined]
        self._game = game
        self._placing: dict[int, float] = {}
        self._lifting: dict[int, float] = {}

    def move(self, move: Move) -> float:
        if move.to is None:
            return 0.0
        score = self._placed(pack(move.to))
        if move.origin is not None:
            score += self._lifted(pack(move.origin))
        return score

    def completes(self, cell: Hex) -> bool:
        """Whether a piece of the team on ``cell`` finishes one of its shapes."""
        key = pack(cell)
        board = self.board.copy()
        board[key] = self.team
        full = SHAPE_WORTH[SHAPE_SIZE]
        # A piece in a circle's middle is not part of the circle: skip the last shape.
        return any(self._chance(board, shape) == full for shape in _shapes_with(key)[:-1])

    def _placed(self, cell: int) -> float:
        if cell not in self._placing:
            after = self.board.copy()
            after[cell] = self.team
            friends = sum(after.get(cell + step) == self.team for step in NEIGHBOUR_STEPS)
            self._placing[cell] = self._change(cell, after) + friends
        return self._placing[cell]

    def _lifted(self, cell: int) -> float:
        if cell not in self._lifting:
            after = self.board.copy()
            del after[cell]
            self._lifting[cell] = self._change(cell, after)
        return self._lifting[cell]

    def _change(self, cell: int, after: dict[int, int]) -> float:
        shapes = _shapes_with(cell)
        return sum(self._chance(after, shape) - self._chance(self.board, shape) for shape in shapes)

    @cached_property
    def _lost(self) -> set[frozenset[int]]:
        """The cells of each shape on the table whose team may no longer declare it."""
        return _lost_shapes(self._game, self.board) if self._game.declare else set()  # type: ignore[attr-defined]

    def _chance(self, board: dict[int, int], shape: ShapeId) -> float:
        """The shape's worth to the team: plus for its own pieces, minus for the other team's."""
        team = self.team
        cells = cells_of(shape)
        owners = [board.get(cell) for cell in cells]
        mine, theirs = owners.count(team), owners.count(1 - team)
        if mine and theirs:
            return 0.0
        if SHAPE_SIZE in (mine, theirs) and frozenset(cells) in self._lost:
            return 0.0
        if shape[0] == "circle" and not self.centre_may_be_opponent:
            centre = board.get(shape[1])
            if centre is not None and centre != (team if mine else 1 - team):
                return 0.0  # the other team's piece in the middle spoils the circle
        if mine:
            return SHAPE_WORTH[mine]
        return -RIVAL_WORTH[theirs]


def _lost_shapes(game: Game, board: dict[int, int]) -> set[frozenset[int]]:
    def centre_allows(centre: int, team: int) -> bool:
        return game.rules.centre_may_be_opponent or board.get(centre, team) == team  # type: ignore[attr-defined]

    standing = {
        frozenset(cells_of(shape))
        for cell, team in board.items()
        for shape in shapes_through(board, cell, team, centre_allows)
    }
    declarable = {
        frozenset(map(pack, cells))
        for team in (0, 1)
        for _, cells in game.declarable_shapes(team)  # type: ignore[attr-defined]
    }
    return standing - declarable


def _shapes_with(cell: int) -> list[ShapeId]:
    """Every shape with a piece on ``cell``, and the circle round it (last)."""
    shapes: list[ShapeId] = [
        ("row", axis, cell - k * step)
        for axis, step in enumerate(AXIS_STEPS)
        for k in range(SHAPE_SIZE)
    ]
    shapes += [
        ("triangle", orientation, cell - member)
        for orientation, offsets in enumerate(TRIANGLES)
        for member in offsets
    ]
    shapes += [("circle", cell + step) for step in NEIGHBOUR_STEPS]
    shapes.append(("circle", cell))
    return shapes
