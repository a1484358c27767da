"""Alpha-beta search for Six over the few moves that shape threats make worth a look.

Why alpha-beta rather than Monte Carlo tree search: Six is decided by short forced
sequences (a winning cell must be filled at once, two of them cannot both be), which
a narrow, threat-driven alpha-beta reads exactly. A tree search over the same moves,
with playouts that take wins and block, managed some 650 playouts a second and won
1 game of 20 against this search at one second a turn, in both rulesets.

Each position is looked at through :class:`~sixtui.ai.six_shapes.ShapeBoard`, kept
in step with every move tried:

* the side to move with a winning cell plays it (every such move is tried);
* a side facing a winning cell of the other team only blocks it;
* otherwise the moves are ranked by what they do to the shapes through their cells,
  cells that make a double threat (for either team) first, and the best ``width``
  are searched.

Where the depth runs out, the position is searched on along threats only
(``threat_plies`` of them): the side to move makes a winning cell, the other must
fill it, until one side has a double threat or no threat is left. A leaf is worth
its shapes (:meth:`ShapeBoard.worth`) and, in the second round, its pieces; a
winning cell of the side to move, or a double threat it can make while the other
team has none, is almost a win; two winning cells of the other team almost a loss.

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

import heapq
import random
import time

from sixtui.ai.six_shapes import ShapeBoard
from sixtui.rules import Game, Move
from sixtui.rules.hexes import Hex, pack, unpack
from sixtui.rules.six_lifting import CutPoints

WIN = 1_000_000
THREAT_WIN = WIN // 2  # a leaf the side to move wins within a turn or two, as the shapes tell
PIECE_WORTH = 150  # in the second round, each piece more than the other team
DOUBLE_THREAT_FIRST = 10_000  # ranks the cells that make a double threat first
ROOT_EXTRA_WIDTH = 4  # the root's moves are few and matter most: look at a few more
THREAT_MOVES = 6  # threats tried in each position past the depth


class Timeout(Exception):
    """The search's deadline has passed."""


class SixSearch:
    """Searches one Six position (on a copy of ``game``) until ``deadline``
    (:func:`time.perf_counter` seconds), looking at ``width`` moves of each position
    below the root (a few more at the root), and ``threat_plies`` plies of threats
    past the depth."""

    def __init__(self, game: Game, deadline: float, width: int = 6, threat_plies: int = 0) -> None:
        self.game = game.copy()
        self.deadline = deadline
        self.width = width
        self.threat_plies = threat_plies
        board = {pack(cell): team for cell, team in game.layout().items()}  # type: ignore[attr-defined]
        self.shapes = ShapeBoard(board, game.rules.centre_may_be_opponent)  # type: ignore[attr-defined]
        self.declaring: bool = game.declare  # type: ignore[attr-defined]
        self.nodes = 0
        # The best move found in each position searched, by its key: searched first when
        # the position comes again, deeper or by another order of the same moves.
        self._best_replies: dict[int, Move] = {}
        self._undo: list[tuple[Move, int, list[tuple[int, int]]]] = []

    # -- choosing ------------------------------------------------------------------------

    def best_move(
        self, depth: int, rng: random.Random | None = None, margin: int = 0
    ) -> tuple[Move, int]:
        """The best move found searching ``depth`` plies deep, deeper and deeper from one,
        until ``depth`` or the deadline; with its score for the team to move.

        The answer of the deepest search finished stands; at least the first ranked
        move is always given, however short the time. The first search, one ply deep,
        leaves out the threats past the depth: where threats abound they take long,
        and a move checked one ply deep is a far better answer than none. Given
        ``rng``, it picks among the moves scored within ``margin`` of the best (never
        among wins or losses found).
        """
        moves = self.candidates(self.width + ROOT_EXTRA_WIDTH)
        scored = [(moves[0], -WIN)]
        searches = [(1, 0)] + [(plies, self.threat_plies) for plies in range(1, depth + 1)]
        for plies, threats in searches:
            try:
                scored = self._root(moves, plies, margin, threats)
            except Timeout:
                break
            moves = [move for move, _ in scored]  # best first: more cut-offs next time
        best_score = scored[0][1]
        if rng is None or abs(best_score) >= THREAT_WIN // 2:
            return scored[0]
        return rng.choice([(move, s) for move, s in scored if s >= best_score - margin])

    def scores(self, depth: int) -> list[tuple[Move, int]]:
        """Every candidate of the root with its score ``depth`` plies deep, best first
        (raises :class:`Timeout` at the deadline)."""
        moves = self.candidates(self.width + ROOT_EXTRA_WIDTH)
        return self._root(moves, depth, WIN, self.threat_plies)

    def _root(
        self, moves: list[Move], depth: int, margin: int, threats: int
    ) -> list[tuple[Move, int]]:
        """``moves`` with their scores ``depth`` plies and then ``threats`` plies of
        threats deep, best first; those more than ``margin`` below the best are only
        known to be so."""
        team = self.game.team(self.game.to_move)
        best = -WIN - 1
        scored = []
        for move in moves:
            floor = max(best - margin - 1, -WIN - 1)
            score = self._child(move, team, depth, floor, WIN + 1, 1, threats)
            scored.append((move, score))
            best = max(best, score)
        scored.sort(key=lambda entry: -entry[1])
        return scored

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
        wins = self._winning_moves(team, legal)
        if wins:
            return wins
        theirs = {unpack(cell) for cell in self.shapes.winning_cells(1 - team)}
        if theirs:
            blocks = [move for move in legal if move.to in theirs]
            legal = blocks or legal
        return self._ranked(legal, team, width)

    def _winning_moves(self, team: int, legal: list[Move], enough: int = 0) -> list[Move]:
        """The moves among ``legal`` that complete a shape of ``team``, to move (with
        ``!`` in a declaring game); once ``enough`` are found, no more are looked for.

        A piece from the hand completes a shape on any of its winning cells. A piece
        lifted may have been part of the shape, or its lift may capture part of it:
        in the second round each move is played to see whether it wins.
        """
        cells = {unpack(cell) for cell in self.shapes.winning_cells(team)}
        moves = [self._declared(move) for move in legal if move.to in cells]
        game = self.game
        if not moves or game.in_hand(game.to_move):  # type: ignore[attr-defined]
            return moves[:enough] if enough else moves
        wins = []
        for move in moves:
            game.play(move)
            if game.result is not None and game.result.winner == team:
                wins.append(move)
            game.undo()
            if len(wins) == enough:
                break
        return wins

    def _ranked(self, moves: list[Move], team: int, width: int) -> list[Move]:
        """The best ``width`` of ``moves`` by what they do to the shapes through their
        cells, best first."""
        shapes = self.shapes
        urgent = {
            unpack(cell)
            for cell in shapes.double_threat_cells(team) | shapes.double_threat_cells(1 - team)
        }
        captures = self.capture_gains(moves, team)
        placing: dict[Hex, int] = {}
        lifting: dict[Hex, int] = {}

        def gain(move: Move) -> int:
            to = move.to
            score = placing.get(to)  # type: ignore[arg-type]
            if score is None:
                score = shapes.placing_gain(pack(to), team) + DOUBLE_THREAT_FIRST * (to in urgent)  # type: ignore[arg-type]
                placing[to] = score  # type: ignore[index]
            origin = move.origin
            if origin is not None:
                lift = lifting.get(origin)
                if lift is None:
                    lift = lifting[origin] = shapes.lifting_gain(pack(origin), team)
                score += lift
                if captures:
                    score += captures.get((pack(origin), move.keep), 0)
            return score

        return heapq.nlargest(width, moves, key=gain)

    def _threats(self, team: int) -> list[Move]:
        """The best few moves that put a piece of ``team`` where it makes a winning cell,
        double threats first."""
        threats = self.shapes.threats(team)
        cells = {unpack(cell) for missing in threats if len(missing) == 2 for cell in missing}
        if not cells:
            return []
        moves = [move for move in self.game.legal_moves() if move.to in cells]
        return self._ranked(moves, team, THREAT_MOVES)

    def capture_gains(self, moves: list[Move], team: int) -> dict[tuple[int, Hex | None], int]:
        """What the captures of each lift among ``moves`` that splits the layout are worth
        to ``team``, by the lifted cell and the group kept: the other team's pieces taken
        count for it, its own against it, and leaving the other team too few is a win.

        One move per lifted cell and group kept is played: what a lift captures does not
        depend on where the piece goes.
        """
        if not moves or moves[0].origin is None or not self.game.rules.split_captures:  # type: ignore[attr-defined]
            return {}
        splitting = CutPoints(self.shapes.board).cut_cells
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

    def _value(self, depth: int, alpha: int, beta: int, ply: int, threats: int) -> int:
        """The position's worth for the team to move, searched ``depth`` plies deep and
        then ``threats`` plies of threats."""
        self.nodes += 1
        if time.perf_counter() > self.deadline:
            raise Timeout
        team = self.game.team(self.game.to_move)
        if depth <= 0:
            return self._threat_value(team, alpha, beta, ply, threats)
        moves = self.candidates(self.width)
        key = self.shapes.key ^ self.game.to_move
        remembered = self._best_replies.get(key)
        if remembered in moves:
            moves.remove(remembered)
            moves.insert(0, remembered)  # best in a shallower search: likely best again
        best = -WIN - 1
        for move in moves:
            score = self._child(move, team, depth, alpha, beta, ply, threats)
            if score > best:
                best = score
                self._best_replies[key] = move
                alpha = max(alpha, score)
                if alpha >= beta:
                    break
        return best if best > -WIN - 1 else self.evaluate(team, ply)

    def _threat_value(self, team: int, alpha: int, beta: int, ply: int, threats: int) -> int:
        """The worth past the depth: the leaf's, or better if threats win more."""
        static = self.evaluate(team, ply)
        if threats <= 0 or abs(static) >= THREAT_WIN // 2:
            return static
        if self.shapes.winning_cells(1 - team):
            moves = self.candidates(1)  # the block, forced: no standing on the leaf's worth
            best = -WIN - 1
        else:
            if static >= beta:
                return static
            alpha = max(alpha, static)
            moves = self._threats(team)
            best = static
        for move in moves:
            score = self._child(move, team, 0, alpha, beta, ply, threats)
            if score > best:
                best = score
                alpha = max(alpha, score)
                if alpha >= beta:
                    break
        return best if best > -WIN - 1 else static

    def _child(
        self, move: Move, team: int, depth: int, alpha: int, beta: int, ply: int, threats: int
    ) -> int:
        """The worth for ``team`` of playing ``move``, with ``depth - 1`` plies after it
        (or one threat ply less, past the depth)."""
        self._play(move, team)
        try:
            result = self.game.result
            if result is not None:
                if result.winner is None:
                    return 0
                return WIN - ply if result.winner == team else ply - WIN
            depth, threats = (depth - 1, threats) if depth > 0 else (0, threats - 1)
            if self.game.team(self.game.to_move) == team:  # the other team could not move
                return self._value(depth, alpha, beta, ply + 1, threats)
            return -self._value(depth, -beta, -alpha, ply + 1, threats)
        finally:
            self._take_back()

    def evaluate(self, team: int, ply: int = 0) -> int:
        """What the position is worth to ``team``, to move, without looking ahead;
        ``ply`` moves from the root (a win sooner is worth more)."""
        shapes = self.shapes
        if shapes.winning_cells(team) and self._winning_moves(team, self.game.legal_moves(), 1):
            return THREAT_WIN - ply
        theirs = shapes.winning_cells(1 - team)
        if len(theirs) >= 2:
            return ply - THREAT_WIN
        if not theirs and self._placing() and shapes.double_threat_cells(team):
            return THREAT_WIN - ply - 2  # the other team can place only one piece
        pieces = self.game.pieces(team) - self.game.pieces(1 - team)  # type: ignore[attr-defined]
        return shapes.worth(team) + PIECE_WORTH * pieces

    def _placing(self) -> bool:
        """Whether the seat to move and the next one both still place pieces: then no
        move can take a piece off the table, and shapes only grow or are blocked."""
        game = self.game
        seat = game.to_move
        return bool(game.in_hand(seat) and game.in_hand((seat + 1) % game.players))  # type: ignore[attr-defined]

    # -- keeping the shapes in step with the game ---------------------------------------------

    def _play(self, move: Move, team: int) -> None:
        game = self.game
        before = game.pieces(0) + game.pieces(1)  # type: ignore[attr-defined]
        game.play(move)
        captured: list[tuple[int, int]] = []
        if move.to is not None:
            shapes = self.shapes
            if move.origin is not None:
                shapes.remove(pack(move.origin))
                if game.pieces(0) + game.pieces(1) < before:  # type: ignore[attr-defined]
                    captured = [
                        (cell, shapes.remove(cell))
                        for cell in list(shapes.board)
                        if game.at(unpack(cell)) is None  # type: ignore[attr-defined]
                    ]
            shapes.place(pack(move.to), team)
        self._undo.append((move, team, captured))

    def _take_back(self) -> None:
        move, team, captured = self._undo.pop()
        self.game.undo()
        if move.to is not None:
            shapes = self.shapes
            shapes.remove(pack(move.to))
            for cell, owner in captured:
                shapes.place(cell, owner)
            if move.origin is not None:
                shapes.place(pack(move.origin), team)
