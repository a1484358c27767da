"""Alpha-beta search for Six over the few moves that shape threats make worth a look.

Why alpha-beta rather than Monte Carlo tree search: Six is decided by short forced
sequences (a winning cell must be filled at once, two of them cannot both be), which
a narrow, threat-driven alpha-beta reads exactly, while random playouts of a
40-piece game are slow in Python and blind to a one-move-deep double threat.

Each position is looked at through :class:`~sixtui.ai.six_shapes.ShapeBoard`:

* the side to move with a winning cell plays it (every such move is tried);
* a side facing a winning cell of the other team only blocks it;
* otherwise the moves are ranked by what they do to the shapes through their cells,
  cells that make a double threat (for either team) first, and the best ``width``
  are searched.

A leaf is worth its shapes (:meth:`ShapeBoard.worth`), a winning cell of the side to
move almost a win, two winning cells of the other team almost a loss.

>>> import time
>>> from sixtui.rules import new_game
>>> g = new_game("six")
>>> for move in "0,0 0,1 1,0 1,1 2,0 2,1 3,0 3,1".split():
...     g.play(move)  # four in a row each; black to move makes an open five
>>> search = SixSearch(g, time.perf_counter() + 1, width=6)
>>> move, score = search.best_move(depth=3)
>>> str(move) in ("4,0", "-1,0"), score >= WIN // 2
(True, True)
"""

from __future__ import annotations

import time

from sixtui.ai.six_shapes import ShapeBoard
from sixtui.rules import Game, Move
from sixtui.rules.hexes import Hex, pack
from sixtui.rules.six_lifting import CutPoints

WIN = 1_000_000
THREAT_WIN = WIN // 2  # a leaf the side to move wins next turn, as far as the shapes tell
PIECE_WORTH = 150  # in the second round, each piece more than the other team
DOUBLE_THREAT_FIRST = 10_000  # ranks the cells that make a double threat first
ROOT_EXTRA_WIDTH = 4  # the root's moves are few and matter most: look at a few more


class Timeout(Exception):
    """The search's deadline has passed."""


class SixSearch:
    """Searches one Six position (on a copy of ``game``) until ``deadline``
    (:func:`time.perf_counter` seconds), looking at ``width`` moves of each position
    below the root (a few more at the root)."""

    def __init__(self, game: Game, deadline: float, width: int = 6) -> None:
        self.game = game.copy()
        self.deadline = deadline
        self.width = width
        self.board: dict[int, int] = {pack(cell): team for cell, team in game.layout().items()}  # type: ignore[attr-defined]
        self.shapes = ShapeBoard(self.board, game.rules.centre_may_be_opponent)  # type: ignore[attr-defined]
        self.declaring: bool = game.declare  # type: ignore[attr-defined]
        self.nodes = 0
        self._undo: list[tuple[Move, int, dict[int, int] | None]] = []

    # -- choosing ------------------------------------------------------------------------

    def best_move(self, depth: int) -> tuple[Move, int]:
        """The best move found searching ``depth`` plies deep, deeper and deeper from one,
        until ``depth`` or the deadline; with its score for the team to move.

        The answer of the deepest search finished stands; at least the first ranked
        move is always given, however short the time.
        """
        moves = self.candidates(self.width + ROOT_EXTRA_WIDTH)
        best, best_score = moves[0], -WIN
        for plies in range(1, depth + 1):
            try:
                best, best_score = self._root(moves, plies)
            except Timeout:
                break
            moves.remove(best)
            moves.insert(0, best)  # searched first next time: more cut-offs
            if abs(best_score) >= WIN - depth:
                break  # the game's end is in reach either way: deeper looks change nothing
        return best, best_score

    def scores(self, depth: int) -> list[tuple[Move, int]]:
        """Every candidate of the root with its score ``depth`` plies deep, best first
        (raises :class:`Timeout` at the deadline)."""
        team = self.game.team(self.game.to_move)
        scored = [
            (move, self._child(move, team, depth, -WIN - 1, WIN + 1, 1))
            for move in self.candidates(self.width + ROOT_EXTRA_WIDTH)
        ]
        scored.sort(key=lambda entry: -entry[1])
        return scored

    def _root(self, moves: list[Move], depth: int) -> tuple[Move, int]:
        team = self.game.team(self.game.to_move)
        alpha = -WIN - 1
        best = moves[0]
        for move in moves:
            score = self._child(move, team, depth, alpha, WIN + 1, 1)
            if score > alpha:
                alpha, best = score, move
        return best, alpha

    # -- the moves worth a look ------------------------------------------------------------

    def candidates(self, width: int) -> list[Move]:
        """The moves of the seat to move worth searching, best first: its wins if it has
        any, else blocks of the other team's winning cells if it faces any, else the
        ``width`` moves that do most for its shapes."""
        game = self.game
        team = game.team(game.to_move)
        legal = game.legal_moves()
        if legal and legal[0].to is None:
            return [legal[0]]  # declaring a shape on the table wins
        mine = self.shapes.winning_cells(team)
        wins = [self._declared(move) for move in legal if pack(move.to) in mine]  # type: ignore[arg-type]
        if wins:
            return wins
        theirs = self.shapes.winning_cells(1 - team)
        if theirs:
            blocks = [move for move in legal if pack(move.to) in theirs]  # type: ignore[arg-type]
            legal = blocks or legal
        return self._ranked(legal, team)[:width]

    def _ranked(self, moves: list[Move], team: int) -> list[Move]:
        """``moves`` by what they do to the shapes through their cells, best first."""
        shapes = self.shapes
        urgent = shapes.double_threat_cells(team) | shapes.double_threat_cells(1 - team)
        captures = self.capture_gains(moves, team)
        placing: dict[int, int] = {}
        lifting: dict[int, int] = {}

        def gain(move: Move) -> int:
            to = pack(move.to)  # type: ignore[arg-type]
            if to not in placing:
                placing[to] = shapes.placing_gain(to, team) + DOUBLE_THREAT_FIRST * (to in urgent)
            score = placing[to]
            if move.origin is not None:
                origin = pack(move.origin)
                if origin not in lifting:
                    lifting[origin] = shapes.lifting_gain(origin, team)
                score += lifting[origin] + captures.get((origin, move.keep), 0)
            return score

        return sorted(moves, key=gain, reverse=True)

    def capture_gains(self, moves: list[Move], team: int) -> dict[tuple[int, Hex | None], int]:
        """What the captures of each lift among ``moves`` that splits the layout are worth
        to ``team``, by the lifted cell and the group kept: the other team's pieces taken
        count for it, its own against it, and leaving the other team too few is a win.

        One move per lifted cell and group kept is played: what a lift captures does not
        depend on where the piece goes.
        """
        if not moves or moves[0].origin is None or not self.game.rules.split_captures:  # type: ignore[attr-defined]
            return {}
        splitting = CutPoints(self.board).cut_cells
        gains: dict[tuple[int, Hex | None], int] = {}
        game = self.game
        for move in moves:
            key = (pack(move.origin), move.keep)  # type: ignore[arg-type]
            if key[0] not in splitting or key in gains:
                continue
            mine, theirs = game.pieces(team), game.pieces(1 - team)  # type: ignore[attr-defined]
            game.play(move)
            lost = mine - game.pieces(team), theirs - game.pieces(1 - team)  # type: ignore[attr-defined]
            won = game.result is not None and game.result.winner == team
            game.undo()
            gains[key] = WIN if won else PIECE_WORTH * (lost[1] - lost[0])
        return gains

    def _declared(self, move: Move) -> Move:
        """``move`` written with ``!`` in a declaring game, where completing a shape wins
        only so."""
        return Move(move.to, move.origin, move.keep, declare=True) if self.declaring else move

    # -- searching -------------------------------------------------------------------------

    def _value(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        """The position's worth for the team to move, searched ``depth`` plies deep."""
        self.nodes += 1
        if time.perf_counter() > self.deadline:
            raise Timeout
        team = self.game.team(self.game.to_move)
        if depth == 0:
            return self.evaluate(team)
        best = -WIN - 1
        for move in self.candidates(self.width):
            score = self._child(move, team, depth, alpha, beta, ply)
            if score > best:
                best = score
                alpha = max(alpha, score)
                if alpha >= beta:
                    break
        return best if best > -WIN - 1 else self.evaluate(team)

    def _child(self, move: Move, team: int, depth: int, alpha: int, beta: int, ply: int) -> int:
        """The worth for ``team`` of playing ``move``, with ``depth - 1`` plies after it."""
        self._play(move, team)
        try:
            result = self.game.result
            if result is not None:
                if result.winner is None:
                    return 0
                return WIN - ply if result.winner == team else ply - WIN
            if self.game.team(self.game.to_move) == team:  # the other team could not move
                return self._value(depth - 1, alpha, beta, ply + 1)
            return -self._value(depth - 1, -beta, -alpha, ply + 1)
        finally:
            self._take_back()

    def evaluate(self, team: int) -> int:
        """What the position is worth to ``team``, to move, without looking ahead."""
        shapes = self.shapes
        if shapes.winning_cells(team):
            return THREAT_WIN
        if len(shapes.winning_cells(1 - team)) >= 2:
            return -THREAT_WIN
        pieces = self.game.pieces(team) - self.game.pieces(1 - team)  # type: ignore[attr-defined]
        return shapes.worth(team) + PIECE_WORTH * pieces

    # -- keeping the board in step with the game ---------------------------------------------

    def _play(self, move: Move, team: int) -> None:
        game = self.game
        before = game.pieces(0) + game.pieces(1)  # type: ignore[attr-defined]
        game.play(move)
        if move.to is None:
            self._undo.append((move, team, None))
        elif game.pieces(0) + game.pieces(1) < before:  # type: ignore[attr-defined]
            # Captures: read the whole layout again, keeping the old one to restore.
            self._undo.append((move, team, self.board.copy()))
            self.board.clear()
            self.board.update((pack(cell), owner) for cell, owner in game.layout().items())  # type: ignore[attr-defined]
        else:
            self._undo.append((move, team, None))
            if move.origin is not None:
                del self.board[pack(move.origin)]
            self.board[pack(move.to)] = team

    def _take_back(self) -> None:
        move, team, saved = self._undo.pop()
        self.game.undo()
        if saved is not None:
            self.board.clear()
            self.board.update(saved)
        elif move.to is not None:
            del self.board[pack(move.to)]
            if move.origin is not None:
                self.board[pack(move.origin)] = team
