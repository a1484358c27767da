"""Six: hexagon pieces side by side; a row, triangle or circle of six wins.

Players place their pieces one per turn, each touching the layout; once a seat's
pieces in hand are used up it moves instead, lifting one of its team's pieces
and putting it down elsewhere against the layout. Three rulesets differ in the
start, the circle's centre, and what happens when a lift splits the layout
(see :data:`RULESETS`).

>>> from sixtui.rules import new_game
>>> g = new_game("six")
>>> g.play("0,0"); g.play("1,0")
>>> [str(m) for m in g.legal_moves()][:3]
['-1,0', '-1,1', '0,-1']
>>> g.play("5,5")
Traceback (most recent call last):
...
sixtui.rules.errors.IllegalMove: 5,5 does not touch the layout
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace
from typing import Any, Literal

from sixtui.rules.errors import GameDataError, IllegalMove
from sixtui.rules.game import Game
from sixtui.rules.hexes import NEIGHBOUR_STEPS, RING_STEPS, Hex, is_cell, pack, unpack
from sixtui.rules.move import Move
from sixtui.rules.result import Result
from sixtui.rules.shapes import (
    ShapeId,
    cells_of,
    circle_at,
    first_by_kind,
    shapes_through,
    still_stands,
)


def _arcs(mask: int) -> int:
    """How many runs of set bits the 6-bit ``mask`` has, read round a circle."""
    return sum(1 for bit in range(6) if mask >> bit & 1 and not mask >> (bit - 1) % 6 & 1) or (
        1 if mask else 0
    )


_ARCS = tuple(_arcs(mask) for mask in range(64))
_HOW_TO_WRITE = "write a cell like 2,-1, a move like 0,0>1,1, or declare"
TOO_FEW = 5  # a team with this many pieces or fewer can no longer make a shape
REPETITIONS_TO_DRAW = 3


@dataclass(frozen=True)
class Ruleset:
    """What one edition of the rules decides."""

    name: str
    hand_two_players: int  # pieces in hand per player
    hand_four_players: int  # per player, or per team when the pool is shared
    shared_team_pool: bool
    preplaced: tuple[tuple[Hex, int], ...]  # (cell, team)
    first_cells: tuple[Hex, ...]  # where the first piece placed must go
    centre_may_be_opponent: bool
    split_captures: bool  # otherwise a lift that splits the layout is forbidden
    may_declare: bool


_STEFFEN = Ruleset(
    name="steffen",
    hand_two_players=19,
    hand_four_players=18,
    shared_team_pool=True,
    preplaced=(),
    first_cells=(Hex(0, 0),),
    centre_may_be_opponent=True,
    split_captures=True,
    may_declare=False,
)
_ROMANIAN = Ruleset(
    name="romanian",
    hand_two_players=20,
    hand_four_players=10,
    shared_team_pool=False,
    preplaced=((Hex(0, 0), 1), (Hex(1, 0), 0)),  # red, then black
    first_cells=(Hex(-1, 0), Hex(0, -1), Hex(-1, 1)),  # touch red, not black
    centre_may_be_opponent=False,
    split_captures=False,
    may_declare=True,
)
RULESETS: dict[str, Ruleset] = {
    ruleset.name: ruleset
    for ruleset in (
        _STEFFEN,
        _ROMANIAN,
        replace(_ROMANIAN, name="romanian-advanced", split_captures=True),
    )
}


@dataclass(slots=True)
class _Turn:
    """What one play() changed, to take it back."""

    move: Move
    seat: int
    captured: list[tuple[int, int]]  # (cell, team)
    position: Any  # the repetition key counted after it (second round only)
    shapes: dict[ShapeId, int] | None  # declaring games: the shapes before it
    last_completion: tuple[int, int]


@dataclass(frozen=True)
class _Lift:
    """Lifting one piece: the groups left behind, and which may stay."""

    groups: list[list[int]]  # of the pieces left, each a list of cells
    staying: list[list[int]]  # the groups that tie for largest


class Six(Game):
    """Six for 2 players or 2 teams of 2 partners, under one of :data:`RULESETS`."""

    name = "six"
    _copied_attributes = (
        "_hands",
        "_board",
        "_touching",
        "_on_table",
        "_turns",
        "_seen",
        "_shapes",
    )

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
        self._cuts: _CutPoints | None = None
        # For each empty or occupied cell next to a piece: how many pieces touch it.
        self._touching: dict[int, int] = {}
        self._on_table = [0, 0]
        for cell, team in self.rules.preplaced:
            self._put(pack(cell), team)
        self._to_move = 0
        self._turns: list[_Turn] = []
        self._result: Result | None = None
        self._resigned_seat: int | None = None
        self._winning_shape: ShapeId | None = None
        # Second-round positions met so far: while pieces are placed, the pieces in
        # hand shrink every turn, so no earlier position can come back.
        self._seen: dict[Any, int] = {}
        # Declaring games: the shapes on the table, each with the number of the
        # move that completed it, and each team's latest completion.
        self._shapes: dict[ShapeId, int] = {}
        self._last_completion = (-1, -1)

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
        return bool(self._declarable(self._to_move % 2))

    def _declarable(self, team: int) -> list[ShapeId]:
        """The team's shapes on the table completed no earlier than the other team's last."""
        rival_completed = self._last_completion[1 - team]
        return [
            shape
            for shape, since in self._shapes.items()
            if shape_team(shape) == team and since >= rival_completed
        ]

    # -- legal moves -----------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every move the seat to move may play: ``declare`` first when it may,
        then placements, or second-round moves, in order of their cells."""
        if self._result is not None:
            return []
        if self._hand(self._to_move):
            moves = _MOVES.row_moves(None, self._placements())
        else:
            moves = self._second_round_moves(self._to_move % 2)
        if self.can_declare():
            moves.insert(0, self._move(None, None, None, True))
        return moves

    def _placements(self) -> list[int]:
        if not self._turns and self.rules.first_cells:
            return sorted(pack(cell) for cell in self.rules.first_cells)
        board = self._board
        cells = [cell for cell in self._touching if cell not in board]
        cells.sort()
        return cells

    def _second_round_moves(self, team: int) -> list[Move]:
        board, touching = self._board, self._touching
        frontier = [cell for cell in touching if cell not in board]
        frontier.sort()
        cuts = self._cut_points()
        splitting = cuts.cut_cells
        captures = self.rules.split_captures
        rows = _MOVES.rows
        own = [cell for cell, owner in board.items() if owner == team]
        own.sort()
        moves: list[Move] = []
        for origin in own:
            if origin in splitting:
                if captures:
                    moves += self._capturing_moves(origin, cuts, frontier)
                continue
            row = rows.get(origin)
            # The cells that touched this piece alone leave the frontier with it.
            cut_off = [
                origin + step
                for step in NEIGHBOUR_STEPS
                if touching.get(origin + step) == 1 and origin + step not in board
            ]
            try:
                if cut_off:
                    moves += [row[to] for to in frontier if to not in cut_off]  # type: ignore[index]
                else:
                    moves += list(map(row.__getitem__, frontier))  # type: ignore[union-attr]
            except (KeyError, AttributeError, TypeError):  # not all made yet
                moves += _MOVES.row_moves(origin, frontier, cut_off or ())
        return moves

    def _capturing_moves(self, origin: int, cuts: _CutPoints, frontier: list[int]) -> list[Move]:
        """The moves lifting ``origin`` when that splits the layout."""
        here, end, order = cuts.number[origin], cuts.end, cuts.order
        below = cuts.cut_children[here]
        sizes = [end[child] - child for child in below]
        above = len(order) - 1 - sum(sizes) if here else 0
        if above > max(sizes):
            # Usually the part above the lifted piece stays and the small parts below go.
            removed = [origin]
            for child in below:
                removed += order[child : end[child]]
            return _MOVES.row_moves(origin, frontier, self._cut_off(removed))
        parts = cuts.parts_without(origin)
        largest = max(size for size, _ in parts)
        staying = [part for part in parts if part[0] == largest]
        choices = []
        for kept in staying:
            removed = [origin]
            for part in parts:
                if part is not kept:
                    removed += cuts.members(origin, part)
            cut_off = self._cut_off(removed)
            if len(staying) == 1:
                return _MOVES.row_moves(origin, frontier, cut_off)
            keep = min(cuts.members(origin, kept))
            choices += [(to, keep) for to in frontier if to not in cut_off]
        choices.sort()
        return [_MOVES.get(origin, to, keep, False) for to, keep in choices]

    def _cut_off(self, removed: list[int]) -> set[int]:
        """The empty cells that touch the layout only through ``removed`` pieces."""
        board, touching = self._board, self._touching
        lost: dict[int, int] = {}
        for cell in removed:
            for step in NEIGHBOUR_STEPS:
                near = cell + step
                if near not in board:
                    lost[near] = lost.get(near, 0) + 1
        return {cell for cell, count in lost.items() if count >= touching[cell]}

    # -- playing ---------------------------------------------------------------------

    def parse_move(self, text: str | Move) -> Move:
        """Reads ``q,r``, ``FROM>TO``, ``FROM>TO:KEEP`` (any may end in ``!``) or ``declare``."""
        if type(text) is Move:
            move = text
        elif isinstance(text, str) and ("," in text or text.strip().lower() == "declare"):
            move = Move.parse(text)
        else:
            raise IllegalMove(f"{text!r} is not a move: {_HOW_TO_WRITE}")
        to, origin, keep = move.to, move.origin, move.keep
        if (
            (is_cell(to) or (to is None and move.declare and origin is None))
            and (origin is None or is_cell(origin))
            and (keep is None or (origin is not None and is_cell(keep)))
        ):
            return move
        raise IllegalMove(f"{move} is not a move of Six: {_HOW_TO_WRITE}")

    def play(self, move: Move | str) -> None:
        """Plays one turn: a placement, a second-round move or a declaration.

        >>> from sixtui.rules import new_game
        >>> g = new_game("six", ruleset="romanian")
        >>> g.play("1,1")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        sixtui.rules.errors.IllegalMove: Black's first piece goes on -1,0, 0,-1 or -1,1: ...
        """
        if self._result is not None:
            raise IllegalMove("the game is over")
        move = self.parse_move(move)
        seat, team = self._to_move, self._to_move % 2
        if move.to is None:
            self._check_declare(team)
            self._record(move, seat, [])
            self._win(team, first_by_kind(self._declarable(team)))
            return
        if move.declare and not self.declare:
            raise IllegalMove("declaring is off in this game: drop the '!'")
        to = pack(move.to)
        if move.origin is None:
            self._check_placement(seat, to)
            self._hands[self._pool_of_seat[seat]] -= 1
            self._put(to, team)
            captured: list[tuple[int, int]] = []
        else:
            captured = self._lift_and_place(move, seat, team, to)
        turn = self._record(move, seat, captured)
        if move.declare and not any(shape_team(s) == team for s in self._shapes):
            self._take_back(turn)
            raise IllegalMove(f"{move.to} makes no shape to declare: drop the '!'")
        self._settle(move, team, to, captured)

    def undo(self) -> Move:
        if self._resigned_seat is not None:
            raise IllegalMove("a resignation cannot be taken back")
        if not self._turns:
            raise IllegalMove("there is no move to take back")
        turn = self._turns[-1]
        self._take_back(turn)
        return turn.move

    # -- checking a move -------------------------------------------------------------

    def _check_placement(self, seat: int, to: int) -> None:
        if not self._hand(seat):
            raise IllegalMove(
                f"seat {seat} has no pieces left in hand: "
                "move one of the team's pieces, like 0,0>1,1"
            )
        cell = unpack(to)
        if to in self._board:
            raise IllegalMove(f"{cell} is taken")
        if not self._turns and self.rules.first_cells:
            allowed = self.rules.first_cells
            if cell not in allowed:
                if self.rules.preplaced:
                    raise IllegalMove(
                        f"Black's first piece goes on {', '.join(map(str, allowed[:-1]))} or "
                        f"{allowed[-1]}: touching the red piece, not the black one"
                    )
                raise IllegalMove(
                    f"the first piece goes in the middle of the table, on {allowed[0]}"
                )
        elif not self._touching.get(to):
            raise IllegalMove(f"{cell} does not touch the layout")

    def _lift_and_place(self, move: Move, seat: int, team: int, to: int) -> list[tuple[int, int]]:
        """Lifts ``move.origin`` (capturing what it cuts off) and puts it on ``to``."""
        if self._hand(seat):
            raise IllegalMove(
                f"seat {seat} still has {self._hand(seat)} pieces in hand: place one first"
            )
        origin = pack(move.origin)
        if self._board.get(origin) != team:
            raise IllegalMove(f"{move.origin} is not a piece of your team")
        if origin == to:
            raise IllegalMove("a piece must move to another cell")
        if to in self._board:
            raise IllegalMove(f"{move.to} is taken")
        lift = self._lift(origin)
        if lift is None:
            board = self._board
            keep = None if move.keep is None else pack(move.keep)
            if keep is not None and (keep == origin or keep not in board):
                raise IllegalMove(f"{move.keep} is not in the group that stays")
            touches = any(to + step in board and to + step != origin for step in NEIGHBOUR_STEPS)
            kept = None
        else:
            kept = self._group_kept(move, lift)
            kept_cells = set(kept)
            touches = any(to + step in kept_cells for step in NEIGHBOUR_STEPS)
        if not touches:
            raise IllegalMove(
                f"{move.to} does not touch the layout left after lifting {move.origin}"
            )
        self._take(origin)
        captured: list[tuple[int, int]] = []
        if lift is not None:
            captured = [
                (cell, self._take(cell)) for g in lift.groups if g is not kept for cell in g
            ]
        self._put(to, team)
        return captured

    def _lift(self, origin: int) -> _Lift | None:
        """The groups that lifting ``origin`` leaves, or ``None`` if it splits nothing."""
        board = self._board
        cuts = self._cuts  # found already if the moves of this position were listed
        if cuts is not None:
            if origin not in cuts.cut_cells:
                return None
            groups = [cuts.members(origin, part) for part in cuts.parts_without(origin)]
            largest = max(len(group) for group in groups)
            return _Lift(groups, [group for group in groups if len(group) == largest])
        around = sum(1 << bit for bit, step in enumerate(RING_STEPS) if origin + step in board)
        if _ARCS[around] <= 1:
            return None  # the piece's neighbours touch one another round it
        left = set(board)
        left.discard(origin)
        groups = []
        while left:
            start = left.pop()
            group, frontier = [start], [start]
            while frontier:
                cell = frontier.pop()
                for step in NEIGHBOUR_STEPS:
                    if cell + step in left:
                        left.discard(cell + step)
                        group.append(cell + step)
                        frontier.append(cell + step)
            groups.append(group)
        if len(groups) <= 1:
            return None
        largest = max(len(group) for group in groups)
        return _Lift(groups, [group for group in groups if len(group) == largest])

    def _group_kept(self, move: Move, lift: _Lift) -> list[int]:
        origin = move.origin
        if len(lift.groups) > 1 and not self.rules.split_captures:
            raise IllegalMove(f"lifting {origin} would split the layout")
        if move.keep is None:
            if len(lift.staying) > 1:
                raise IllegalMove(
                    f"lifting {origin} splits the layout into {len(lift.staying)} groups of equal "
                    f"size: add the cell of the one that stays, like {origin}>{move.to}:"
                    f"{unpack(min(min(group) for group in lift.staying))}"
                )
            return lift.staying[0] if lift.staying else []
        keep = pack(move.keep)
        for group in lift.staying:
            if keep in group:
                return group
        raise IllegalMove(f"{move.keep} is not in a group that can stay after lifting {origin}")

    def _check_declare(self, team: int) -> None:
        if not self.declare:
            raise IllegalMove("declaring is off in this game")
        if not any(shape_team(s) == team for s in self._shapes):
            raise IllegalMove("your team has no shape on the table to declare")
        if not self.can_declare():
            raise IllegalMove(
                "the other team has completed a shape since yours: it can no longer be declared"
            )

    # -- after a move ----------------------------------------------------------------

    def _record(self, move: Move, seat: int, captured: list[tuple[int, int]]) -> _Turn:
        """Logs the move, brings the declaring bookkeeping up to date, passes the turn."""
        turn = _Turn(move, seat, captured, None, None, self._last_completion)
        if self.declare:
            turn.shapes = self._shapes.copy()
            self._track_shapes(move, captured)
        self._turns.append(turn)
        self._advance()
        if not any(self._hands):
            turn.position = self._position()
            self._seen[turn.position] = self._seen.get(turn.position, 0) + 1
        return turn

    def _settle(self, move: Move, team: int, to: int, captured: list[tuple[int, int]]) -> None:
        """Ends the game if the move won, lost or drew it."""
        if self.declare:
            if move.declare:
                mine = [shape for shape in self._shapes if shape_team(shape) == team]
                self._win(team, first_by_kind(mine))
                return
        else:
            # Only emptying a circle's centre gives the other team a shape, and only
            # where the centre may not hold the other team's piece.
            sides = (team,) if self.rules.centre_may_be_opponent else (team, 1 - team)
            for side in sides:
                shapes = self._new_shapes(side, team, to, move.origin, captured)
                if shapes:
                    self._win(side, first_by_kind(shapes))
                    return
        if captured:
            short = [side for side in (0, 1) if self.pieces(side) <= TOO_FEW]
            if short:
                winner = None if len(short) == 2 else 1 - short[0]
                self._result = Result(winner, "too-few-pieces", ())
                return
        position = self._turns[-1].position
        if position is not None and self._seen[position] >= REPETITIONS_TO_DRAW:
            self._result = Result(None, "repetition", ())
        elif self._to_move < 0:
            self._to_move = self._turns[-1].seat  # nobody can move: the game stops here
            self._result = Result(None, "no-moves", ())

    def _new_shapes(
        self, side: int, mover: int, to: int, origin: Hex | None, captured: list[tuple[int, int]]
    ) -> list[ShapeId]:
        """Shapes of ``side`` that the move completed (none stood before it)."""
        board, allows = self._board, self._centre_allows
        shapes = list(shapes_through(board, to, side, allows)) if side == mover else []
        if not self.rules.centre_may_be_opponent:
            emptied = [cell for cell, _ in captured]
            if origin is not None:
                emptied.append(pack(origin))
            shapes += [("circle", c) for c in emptied if circle_at(board, c, side, allows)]
        return shapes

    def _track_shapes(self, move: Move, captured: list[tuple[int, int]]) -> None:
        """Declaring games: drop the shapes the move broke, add those it completed."""
        if move.to is None:
            return
        board, allows = self._board, self._centre_allows
        for shape in [s for s in self._shapes if not still_stands(board, s, shape_team(s), allows)]:
            del self._shapes[shape]
        changed = [pack(move.to), *(cell for cell, _ in captured)]
        if move.origin is not None:
            changed.append(pack(move.origin))
        number = len(self._turns)
        completion = list(self._last_completion)
        for side in (0, 1):
            found = set()
            for cell in changed:
                if board.get(cell) == side:
                    found.update(shapes_through(board, cell, side, allows))
                elif circle_at(board, cell, side, allows):
                    found.add(("circle", cell))
            for shape in found:
                shape = (*shape, side)
                if shape not in self._shapes:
                    self._shapes[shape] = number
                    completion[side] = number
        self._last_completion = (completion[0], completion[1])

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
        if self.declare and self._shapes:
            saved, self._to_move = self._to_move, seat
            try:
                if self.can_declare():
                    return True
            finally:
                self._to_move = saved
        cuts = self._cut_points()
        return any(
            owner == team and cell not in cuts.cut_cells for cell, owner in self._board.items()
        )

    def _take_back(self, turn: _Turn) -> None:
        self._turns.pop()
        if turn.position is not None:
            count = self._seen[turn.position] - 1
            if count:
                self._seen[turn.position] = count
            else:
                del self._seen[turn.position]
        move, team = turn.move, turn.seat % 2
        if move.to is not None:
            self._take(pack(move.to))
            if move.origin is None:
                self._hands[self._pool_of_seat[turn.seat]] += 1
            else:
                for cell, owner in turn.captured:
                    self._put(cell, owner)
                self._put(pack(move.origin), team)
        if turn.shapes is not None:
            self._shapes = turn.shapes.copy()  # the record may be shared with a copy
        self._last_completion = turn.last_completion
        self._to_move = turn.seat
        self._result = None
        self._winning_shape = None

    # -- the table -------------------------------------------------------------------

    def _cut_points(self) -> _CutPoints:
        """The layout's cut points, found once per position."""
        if self._cuts is None:
            self._cuts = _CutPoints(self._board)
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

    def _move(self, origin: int | None, to: int | None, keep: int | None, declare: bool) -> Move:
        return _MOVES.get(origin, to, keep, declare)

    def _cell(self, cell: Hex | str) -> Hex:
        return cell if type(cell) is Hex else Hex.parse(cell)

    def _encode_moves(self) -> bytes:
        return " ".join(str(turn.move) for turn in self._turns).encode()

    def _decode_moves(self, data: bytes) -> list[Move]:
        try:
            return [self.parse_move(text) for text in data.decode().split()]
        except (UnicodeDecodeError, IllegalMove) as error:
            raise GameDataError(f"the saved move list is damaged: {error}") from None


class _MoveCache:
    """Moves made once and handed out again: a second-round position has hundreds.

    Bounded: emptied whenever it grows past ``limit`` moves (about 29 MiB at 2**18;
    random play from the usual start meets some 60,000 in 400 games).
    """

    def __init__(self, limit: int = 1 << 18) -> None:
        self.limit = limit
        self.size = 0
        # Placements (origin None) and plain FROM>TO moves: origin → to → move.
        self.rows: dict[int | None, dict[int, Move]] = {}
        self.others: dict[tuple[int | None, int | None, int | None, bool], Move] = {}

    def get(self, origin: int | None, to: int | None, keep: int | None, declare: bool) -> Move:
        if to is not None and keep is None and not declare:
            return self.row_moves(origin, [to])[0]
        key = (origin, to, keep, declare)
        move = self.others.get(key)
        if move is None:
            self._make_room()
            cells = [None if cell is None else unpack(cell) for cell in (to, origin, keep)]
            move = self.others[key] = Move(*cells, declare)
            self.size += 1
        return move

    def row_moves(
        self, origin: int | None, targets: list[int], cut_off: Collection[int] = ()
    ) -> list[Move]:
        """The placements (``origin`` None) or plain moves from ``origin`` to each of
        ``targets`` not in ``cut_off``."""
        row = self.rows.get(origin)
        if row is None:
            self._make_room()
            row = self.rows[origin] = {}
        try:
            return [row[to] for to in targets if to not in cut_off]
        except KeyError:
            lifted = None if origin is None else unpack(origin)
            for to in targets:
                if to not in row:
                    row[to] = Move(unpack(to), lifted)
                    self.size += 1
            return [row[to] for to in targets if to not in cut_off]

    def _make_room(self) -> None:
        if self.size >= self.limit:
            self.rows.clear()
            self.others.clear()
            self.size = 0


_MOVES = _MoveCache()


def shape_team(shape: ShapeId) -> int:
    """The team of a shape as kept by declaring games (its last element)."""
    return shape[-1]


class _CutPoints:
    """One depth-first pass over the layout that tells, for every piece, which
    groups lifting it would leave (Hopcroft–Tarjan articulation points).

    The pass numbers pieces in the order it first reaches them, so the pieces
    below a piece in the search tree are one slice of that order.
    """

    def __init__(self, board: dict[int, int]) -> None:
        self.order: list[int] = []
        self.number: dict[int, int] = {}
        self.end: list[int] = []
        self.cut_children: dict[int, list[int]] = {}
        self.cut_cells: set[int] = set()  # the pieces whose lifting splits the layout
        if board:
            self._search(board, next(iter(board)))

    def _search(self, board: dict[int, int], root: int) -> None:
        order, end, cut_children = self.order, self.end, self.cut_children
        # -1 until reached; cells off the layout are not keys at all.
        number = self.number = dict.fromkeys(board, -1)
        get_number = number.get
        steps = NEIGHBOUR_STEPS

        def visit(cell: int, parent: int) -> int:
            """Numbers the pieces below ``cell``; returns the lowest number they reach."""
            here = len(order)
            number[cell] = here
            order.append(cell)
            end.append(0)
            lowest = here
            for step in steps:
                seen = get_number(cell + step)
                if seen is None:
                    continue
                if seen < 0:
                    child = len(order)
                    below = visit(cell + step, here)
                    if below >= here:
                        cut_children.setdefault(here, []).append(child)
                    elif below < lowest:
                        lowest = below
                elif seen < lowest and seen != parent:
                    lowest = seen
            end[here] = len(order)
            return lowest

        visit(root, -1)
        self.cut_cells = {
            order[here] for here, children in cut_children.items() if here != 0 or len(children) > 1
        }

    def parts_without(self, cell: int) -> list[tuple[int, int]]:
        """The groups left when ``cell`` is lifted, as (size, where): ``where`` is the
        search number of the group's first piece, or -1 for the pieces above ``cell``."""
        here = self.number[cell]
        parts = [(self.end[child] - child, child) for child in self.cut_children.get(here, ())]
        if here != 0:
            parts.append((len(self.order) - 1 - sum(size for size, _ in parts), -1))
        return parts

    def members(self, cell: int, part: tuple[int, int]) -> list[int]:
        """The pieces of one group of :meth:`parts_without`."""
        where = part[1]
        if where >= 0:
            return self.order[where : self.end[where]]
        here = self.number[cell]
        cut_off = {cell}
        for child in self.cut_children[here]:
            cut_off.update(self.order[child : self.end[child]])
        return [c for c in self.order if c not in cut_off]
