"""A deliberately naive referee for Six, written from shared/RULINGS.md ("Common to all
games" and "Six"), not from the engine's code.

It shares no code with ``sixtui.rules``: a cell is a plain ``(q, r)`` tuple, a layout a
dict cell → team, and every question is answered by a full scan of the table or a
breadth-first search. It is slow and meant to be obviously right, so that the property
tests can check the engine against it.

The rules it follows:

* Neighbours of ``q,r``: ``q±1,r``, ``q,r±1``, ``q+1,r-1``, ``q-1,r+1``. No edge.
* Seats 0.. in turn order, team = seat % 2. Hands: ``steffen`` 19 each (2 players) or
  18 per team shared by the partners (4 players); ``romanian`` and ``romanian-advanced``
  20 each (2 players) or 10 per player (4 players), plus red (team 1) on ``0,0`` and
  black (team 0) on ``1,0`` from the start.
* Placing (pieces in hand): an empty cell that shares a side with a piece on the table.
  The first piece of the game goes on ``0,0`` (``steffen``) or on ``-1,0``, ``0,-1`` or
  ``-1,1`` (the Romanian rulesets).
* Second round (hand used up): lift a piece of the mover's team. The rest falls into
  groups (breadth-first search). More than one group: forbidden in ``romanian``; otherwise
  a largest group stays and every other group is captured; when several tie for largest,
  one move per choice, written ``FROM>TO:KEEP`` with KEEP the kept group's smallest cell
  by ``(q, r)``. The piece then goes on any cell that is not the origin, not on the table
  left (the kept group) and shares a side with it.
* Shapes, of six pieces of one team: a row along one of the three axes; a translate of
  ``{0,0 1,0 2,0 0,1 1,1 0,2}`` or of its point reflection; the six neighbours of a cell
  (``steffen``: whatever the centre holds; Romanian rulesets: an empty centre or one of
  the team's own). Found by scanning every window, triangle and centre on the table.
* Without declaring, a position that goes on never holds a shape, so after a move: the
  mover's team has a shape → it wins; else the other team has one → it wins; the reason
  is the first of row, triangle, circle among the winner's shapes.
* After a capture (and no shape win): a team with 5 or fewer pieces (table and hand)
  loses (``too-few-pieces``); both teams so: a draw.
* The third occurrence of the same layout (and hands) with the same seat to move: a draw
  (``repetition``). The seat to move is the next one in turn order that has a legal move
  (the others pass); none: a draw (``no-moves``).
* Declaring (option): completing a shape ends nothing. A team may declare a shape of its
  own on the table completed no earlier than the other team's latest completion of a shape
  (a shape is completed by the move after which it stands and did not stand before).
  ``declare`` is a move of its own, legal at the start of a turn when the team may declare
  a shape; it wins, the reason naming the first such shape by kind. ``X!`` is legal
  whenever X is: if after X the mover's team may declare a shape, it wins so; otherwise
  X is played as it stands, and recorded without the ``!``.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import NamedTuple

Cell = tuple[int, int]

NEIGHBOUR_STEPS: tuple[Cell, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
AXES: tuple[Cell, ...] = ((1, 0), (0, 1), (1, -1))
TRIANGLE: tuple[Cell, ...] = ((0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (0, 2))
TRIANGLES: tuple[tuple[Cell, ...], ...] = (TRIANGLE, tuple((-q, -r) for q, r in TRIANGLE))
KINDS = ("row", "triangle", "circle")
TOO_FEW = 5


@dataclass(frozen=True)
class NaiveRules:
    name: str
    hand_two: int
    hand_four: int
    shared_pool: bool
    preplaced: dict
    first_cells: frozenset
    centre_any: bool
    captures: bool
    may_declare: bool


_ROMANIAN = {
    "hand_two": 20,
    "hand_four": 10,
    "shared_pool": False,
    "preplaced": {(0, 0): 1, (1, 0): 0},
    "first_cells": frozenset({(-1, 0), (0, -1), (-1, 1)}),
    "centre_any": False,
    "may_declare": True,
}
RULES = {
    "steffen": NaiveRules("steffen", 19, 18, True, {}, frozenset({(0, 0)}), True, True, False),
    "romanian": NaiveRules("romanian", captures=False, **_ROMANIAN),
    "romanian-advanced": NaiveRules("romanian-advanced", captures=True, **_ROMANIAN),
}


# -- cells -----------------------------------------------------------------------------------


def name(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def parse_cell(text: str) -> Cell:
    found = re.fullmatch(r"\s*([+-]?\d+)\s*,\s*([+-]?\d+)\s*", text)
    if found is None:
        raise ValueError(f"not a cell: {text!r}")
    return int(found.group(1)), int(found.group(2))


def neighbours(cell: Cell) -> list[Cell]:
    q, r = cell
    return [(q + 1, r), (q - 1, r), (q, r + 1), (q, r - 1), (q + 1, r - 1), (q - 1, r + 1)]


def groups_of(cells: set[Cell]) -> list[set[Cell]]:
    """The connected groups of ``cells`` (breadth-first search)."""
    left = set(cells)
    groups = []
    while left:
        start = left.pop()
        group = {start}
        queue = [start]
        while queue:
            cell = queue.pop(0)
            for other in neighbours(cell):
                if other in left:
                    left.remove(other)
                    group.add(other)
                    queue.append(other)
        groups.append(group)
    return groups


# -- shapes ----------------------------------------------------------------------------------


def shapes_of(layout: dict, team: int, rules: NaiveRules) -> set[tuple]:
    """Every shape of ``team`` on the table, each as ``(kind, cells)`` (``cells`` a
    frozenset of six), by scanning every window, triangle and circle centre."""
    found = set()
    own = {cell for cell, owner in layout.items() if owner == team}
    for q, r in own:
        for dq, dr in AXES:
            window = frozenset((q + k * dq, r + k * dr) for k in range(6))
            if window <= own:
                found.add(("row", window))
        for offsets in TRIANGLES:
            triangle = frozenset((q + dq, r + dr) for dq, dr in offsets)
            if triangle <= own:
                found.add(("triangle", triangle))
    centres = set(layout) | {n for cell in layout for n in neighbours(cell)}
    for centre in centres:
        ring = frozenset(neighbours(centre))
        if ring <= own and (rules.centre_any or layout.get(centre, team) == team):
            found.add(("circle", ring))
    return found


def first_kind(shapes) -> str:
    return min((shape[0] for shape in shapes), key=KINDS.index)


# -- legal moves -----------------------------------------------------------------------------


class NaiveMove(NamedTuple):
    """A placement (origin None) or a second-round move with the group kept."""

    to: Cell
    origin: Cell | None = None
    kept: frozenset = frozenset()
    keep: Cell | None = None  # the kept group's smallest cell, when groups tie
    left: int = 0  # pieces left on the table when the piece is lifted

    @property
    def tie(self) -> bool:
        return self.keep is not None

    @property
    def captured(self) -> int:
        """How many pieces the move captures (0 for a placement)."""
        return 0 if self.origin is None else self.left - len(self.kept)

    def __str__(self) -> str:
        if self.origin is None:
            return name(self.to)
        text = f"{name(self.origin)}>{name(self.to)}"
        return text + f":{name(self.keep)}" if self.tie else text


def placements(layout: dict, rules: NaiveRules) -> list[NaiveMove]:
    if layout == rules.preplaced:  # nothing placed yet
        return [NaiveMove(cell) for cell in sorted(rules.first_cells) if cell not in layout]
    empty_touching = {n for cell in layout for n in neighbours(cell) if n not in layout}
    return [NaiveMove(cell) for cell in sorted(empty_touching)]


def second_round_moves(layout: dict, team: int, rules: NaiveRules) -> list[NaiveMove]:
    moves = []
    for origin in sorted(cell for cell, owner in layout.items() if owner == team):
        rest = set(layout) - {origin}
        groups = groups_of(rest)
        if not groups:
            continue
        if len(groups) > 1 and not rules.captures:
            continue
        largest = max(len(group) for group in groups)
        staying = [group for group in groups if len(group) == largest]
        for kept in staying:
            keep = min(kept) if len(staying) > 1 else None
            kept = frozenset(kept)
            for to in sorted({n for cell in kept for n in neighbours(cell)}):
                if to != origin and to not in kept:
                    moves.append(NaiveMove(to, origin, kept, keep, len(rest)))
    return moves


def legal_moves(
    layout: dict, seat: int, in_hand: int, ruleset: str, may_declare: bool = False
) -> list[str]:
    """The names of the legal moves of ``seat``, from the engine's ``layout()``,
    ``to_move``, ``in_hand(seat)`` and ruleset (``may_declare`` from the game's history)."""
    rules = RULES[ruleset]
    layout = {tuple(cell): team for cell, team in layout.items()}
    found = placements(layout, rules) if in_hand else second_round_moves(layout, seat % 2, rules)
    return (["declare"] if may_declare else []) + [str(move) for move in found]


# -- a whole game ----------------------------------------------------------------------------


class NaiveSix:
    """One game of Six, replayed move by move with full scans."""

    def __init__(self, ruleset: str = "steffen", players: int = 2, declare: bool = False):
        self.rules = rules = RULES[ruleset]
        assert players in (2, 4)
        assert not declare or rules.may_declare
        self.ruleset, self.players, self.declare = ruleset, players, declare
        if players == 4 and rules.shared_pool:
            self.pool_of_seat = [0, 1, 0, 1]
            self.hands = [rules.hand_four] * 2
        else:
            self.pool_of_seat = list(range(players))
            self.hands = [rules.hand_two if players == 2 else rules.hand_four] * players
        self.layout: dict = dict(rules.preplaced)
        self.to_move = 0
        self.result: tuple | None = None  # (winner, reason)
        self.winning_shapes: list[set] = []
        self.history: list[str] = []
        self.seen = Counter([self.position()])
        self.shapes: dict = {}  # declaring: (team, kind, cells) → number of the move
        self.last_completion = [-1, -1]
        self.passes = 0  # seats skipped so far
        self.captured = 0  # pieces captured so far
        self.last_captured: list = []
        self.cache: dict = {}

    def copy(self) -> NaiveSix:
        other = NaiveSix.__new__(NaiveSix)
        other.__dict__.update(self.__dict__)
        other.hands = list(self.hands)
        other.layout = dict(self.layout)
        other.history = list(self.history)
        other.seen = Counter(self.seen)
        other.shapes = dict(self.shapes)
        other.last_completion = list(self.last_completion)
        other.cache = self.cache  # keyed by layout: what it holds stays true
        return other

    def position(self):
        return frozenset(self.layout.items()), tuple(self.hands), self.to_move

    def in_hand(self, seat: int) -> int:
        return self.hands[self.pool_of_seat[seat]]

    def pieces(self, team: int) -> int:
        pools = {self.pool_of_seat[seat] for seat in range(self.players) if seat % 2 == team}
        on_table = sum(1 for owner in self.layout.values() if owner == team)
        return on_table + sum(self.hands[pool] for pool in pools)

    def all_shapes(self) -> set[tuple]:
        return {
            (team, kind, cells)
            for team in (0, 1)
            for kind, cells in shapes_of(self.layout, team, self.rules)
        }

    def declarable(self, team: int) -> list[tuple]:
        if not self.declare:
            return []
        return [
            shape
            for shape, number in self.shapes.items()
            if shape[0] == team and number >= self.last_completion[1 - team]
        ]

    def moves_of(self, seat: int) -> list[NaiveMove]:
        key = (frozenset(self.layout.items()), seat % 2, self.in_hand(seat) > 0)
        if key not in self.cache:  # the moves of one layout are worked out once
            if self.in_hand(seat):
                self.cache[key] = placements(self.layout, self.rules)
            else:
                self.cache[key] = second_round_moves(self.layout, seat % 2, self.rules)
        return self.cache[key]

    def legal_move_names(self) -> list[str]:
        if self.result is not None:
            return []
        seat = self.to_move
        declare = ["declare"] if self.declarable(seat % 2) else []
        return declare + [str(move) for move in self.moves_of(seat)]

    def can_move(self, seat: int) -> bool:
        return bool(self.declarable(seat % 2) or self.moves_of(seat))

    def find(self, text: str) -> tuple[NaiveMove | None, bool]:
        """The legal move ``text`` names (KEEP may be any cell of the kept group) and
        whether it declares; ``(None, False)`` for ``declare``. Raises ValueError."""
        if self.result is not None:
            raise ValueError("the game is over")
        text = text.strip()
        if text.lower() == "declare":
            return None, False
        bang = text.endswith("!")
        if bang:
            text = text[:-1]
        keep = None
        if ":" in text:
            text, keep_text = text.split(":", 1)
            keep = parse_cell(keep_text)
        origin = None
        if ">" in text:
            origin_text, text = text.split(">", 1)
            origin = parse_cell(origin_text)
        to = parse_cell(text)
        for move in self.moves_of(self.to_move):
            if move.origin != origin or move.to != to:
                continue
            if origin is None:
                if keep is None:  # a placement names no group to keep
                    return move, bang
            elif (keep is None and not move.tie) or (keep is not None and keep in move.kept):
                return move, bang
        raise ValueError(f"{text!r} is not a legal move")

    def play(self, text: str) -> None:
        """Plays a move's notation; raises ValueError (changing nothing) if illegal."""
        move, bang = self.find(text)
        if bang and not self.declare:
            raise ValueError("declaring is off")
        team = self.to_move % 2
        if move is None:  # declare
            shapes = self.declarable(team)
            if not shapes:
                raise ValueError("nothing to declare")
            self.history.append("declare")
            self.win(team, shapes)
            return
        captured = []
        if move.origin is None:
            self.hands[self.pool_of_seat[self.to_move]] -= 1
        else:
            del self.layout[move.origin]
            captured = [cell for cell in self.layout if cell not in move.kept]
            for cell in captured:
                del self.layout[cell]
        self.layout[move.to] = team
        self.history.append(text.strip())
        self.captured += len(captured)
        self.last_captured = captured
        standing = self.all_shapes()
        if self.declare:
            number = len(self.history)
            self.shapes = {s: n for s, n in self.shapes.items() if s in standing}
            for shape in standing:
                if shape not in self.shapes:
                    self.shapes[shape] = number
                    self.last_completion[shape[0]] = number
            if bang:
                mine = self.declarable(team)
                if mine:
                    self.win(team, mine)
                    return
                self.history[-1] = self.history[-1].removesuffix("!")
        else:
            for side in (team, 1 - team):
                mine = [shape for shape in standing if shape[0] == side]
                if mine:
                    self.win(side, mine)
                    return
        if captured:
            short = [side for side in (0, 1) if self.pieces(side) <= TOO_FEW]
            if short:
                self.result = (None if len(short) == 2 else 1 - short[0], "too-few-pieces")
                return
        mover = self.to_move
        for offset in range(1, self.players + 1):
            seat = (mover + offset) % self.players
            if self.can_move(seat):
                self.to_move = seat
                self.passes += offset - 1
                break
        else:
            self.result = (None, "no-moves")
            return
        self.seen[self.position()] += 1
        if self.seen[self.position()] >= 3:
            self.result = (None, "repetition")

    def win(self, team: int, shapes: list[tuple]) -> None:
        kind = first_kind([shape[1:] for shape in shapes])
        self.result = (team, kind)
        # The engine names one shape: any of this kind among those that won will do.
        self.winning_shapes = [set(shape[2]) for shape in shapes if shape[1] == kind]

    def resign(self, seat: int) -> None:
        assert self.result is None
        self.result = (1 - seat % 2, "resign")
