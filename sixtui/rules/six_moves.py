"""The moves of Six as values: read from notation, and made once to be handed out again.

Inside the engine a move is named by its cells as keys (see :mod:`sixtui.rules.hexes`):
``origin`` (``None`` for a placement), ``to`` (``None`` for ``declare``), ``keep`` and
whether it declares. :data:`MOVES` makes each :class:`~sixtui.rules.move.Move` once.

>>> from sixtui.rules.hexes import Hex, pack
>>> move = MOVES.get(pack(Hex(0, 0)), pack(Hex(1, 1)), None, False)
>>> move, move is MOVES.get(pack(Hex(0, 0)), pack(Hex(1, 1)), None, False)
(Move.parse('0,0>1,1'), True)
>>> read_move("0,0>1,1:7,0!")
Move.parse('0,0>1,1:7,0!')
"""

from __future__ import annotations

from collections.abc import Collection

from sixtui.rules.errors import IllegalMove
from sixtui.rules.hexes import is_cell, unpack
from sixtui.rules.move import Move

HOW_TO_WRITE = "write a cell like 2,-1, a move like 0,0>1,1, or declare"


def read_move(text: str | Move) -> Move:
    """A move of Six from its notation (or a :class:`Move` checked to be one of Six);
    whether it is legal is for the game to say."""
    if type(text) is Move:
        move = text
    elif isinstance(text, str) and ("," in text or text.strip().lower() == "declare"):
        move = Move.parse(text)
    else:
        raise IllegalMove(f"{text!r} is not a move: {HOW_TO_WRITE}")
    to, origin, keep = move.to, move.origin, move.keep
    if (
        (is_cell(to) or (to is None and move.declare and origin is None))
        and (origin is None or is_cell(origin))
        and (keep is None or (origin is not None and is_cell(keep)))
    ):
        return move
    raise IllegalMove(f"{move} is not a move of Six: {HOW_TO_WRITE}")


class MoveCache:
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


MOVES = MoveCache()
