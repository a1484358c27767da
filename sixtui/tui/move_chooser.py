"""Turning the cells a player points at into a move.

A placement is one cell. A second-round move of Six takes two or three: the
piece to lift, where it goes, and, when the lift splits the layout into groups
that tie for largest, a cell of the group that stays.

>>> from sixtui.rules import new_game
>>> g = new_game("six")
>>> chooser = MoveChooser()
>>> chooser.choose(g, "0,0")
Move.parse('0,0')
"""

from __future__ import annotations

from sixtui.rules import Game, IllegalMove, Move
from sixtui.rules.hexes import Hex


def moves_pieces(game: Game) -> bool:
    """Whether the seat to move plays Six's second round: lifting a piece, not placing one."""
    return game.name == "six" and not game.is_over and game.in_hand(game.to_move) == 0  # type: ignore[attr-defined]


class MoveChooser:
    """Remembers the choices made so far in the current move."""

    def __init__(self) -> None:
        self.picked: Hex | None = None
        self.destination: Hex | None = None
        self._tied: list[tuple[Move, frozenset[Hex]]] = []

    def reset(self) -> None:
        self.picked, self.destination, self._tied = None, None, []

    @property
    def groups(self) -> list[frozenset[Hex]]:
        """The tied groups to choose between, once a splitting move has a destination."""
        return [group for _, group in self._tied]

    def hints(self, game: Game) -> frozenset[Hex]:
        """The cells that may be chosen next."""
        if self._tied:
            return frozenset().union(*self.groups)
        moves = game.legal_moves()
        if self.picked is not None:
            return frozenset(m.to for m in moves if m.origin == self.picked)
        if moves_pieces(game):
            return frozenset(m.origin for m in moves if m.origin is not None)
        return frozenset(m.to for m in moves if m.to is not None)

    def choose(self, game: Game, cell: object) -> Move | None:
        """The move completed by choosing ``cell``, or ``None`` while more is needed.

        Raises :class:`IllegalMove` when ``cell`` cannot be the next choice; the
        choices made so far are kept.
        """
        if game.name != "six":
            return Move(cell)  # type: ignore[arg-type]
        cell = Hex.parse(cell) if isinstance(cell, str) else cell
        assert isinstance(cell, Hex)
        if self._tied:
            return self._keep(cell)
        if not moves_pieces(game):
            return Move(cell)
        moves = game.legal_moves()
        mover_team = game.to_move % 2
        if self.picked is None or game.at(cell) == mover_team:
            return self._pick(game, cell, moves, mover_team)
        return self._send(game, cell, moves)

    def _pick(self, game: Game, cell: Hex, moves: list[Move], team: int) -> None:
        if cell == self.picked:
            self.reset()
            return None
        if game.at(cell) != team:
            raise IllegalMove("pick one of your own pieces to move, then where it goes")
        if not any(m.origin == cell for m in moves):
            raise IllegalMove(f"the piece on {cell} cannot be lifted: the layout would split")
        self.picked = cell
        return None

    def _send(self, game: Game, cell: Hex, moves: list[Move]) -> Move | None:
        choices = [m for m in moves if m.origin == self.picked and m.to == cell]
        if not choices:
            # The engine says why; the piece stays picked for another try.
            game.copy().play(Move(cell, self.picked))
            raise IllegalMove(f"the piece on {self.picked} cannot go to {cell}")
        if len(choices) == 1:
            self.reset()
            return choices[0]
        layout = set(game.layout())
        layout.discard(self.picked)
        self.destination = cell
        self._tied = [(move, _connected(layout, move.keep)) for move in choices]
        return None

    def _keep(self, cell: Hex) -> Move:
        for move, group in self._tied:
            if cell in group:
                self.reset()
                return move
        raise IllegalMove("choose the group that stays: move to one of the numbered groups")


def _connected(cells: set[Hex], start: Hex | None) -> frozenset[Hex]:
    """The cells of ``cells`` reached from ``start`` through shared sides."""
    assert start is not None
    reached, waiting = {start}, [start]
    while waiting:
        for near in waiting.pop().neighbours():
            if near in cells and near not in reached:
                reached.add(near)
                waiting.append(near)
    return frozenset(reached)
