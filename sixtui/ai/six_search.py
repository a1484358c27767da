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
  cells that make a double threat (for either team) first, and in the second round
  by what their lifts capture (read from the layout's cut points), and the best
  ``width`` are searched; where a lift may not split the layout and the other team
  has few pieces it may lift without freeing a shape, the moves that leave it none
  come first; asked to (``pre_empting``), in the first round the moves onto the cells
  of the other team's shapes two pieces short are searched too, however they rank.

Where the depth runs out, the position is searched on along threats only
(``threat_plies`` of them): the side to move makes a winning cell, the other must
fill it, until one side has a double threat or no threat is left. A leaf is worth
its shapes (:meth:`ShapeBoard.worth`) and, in the second round, its pieces and the
captures at hand; a winning cell of the side to move, a capture that leaves the other
team too few pieces, or a double threat it can make while the other team has none, is
almost a win; two winning cells of the other team almost a loss, and so is every piece
the side to move may lift being all that keeps the other team from a shape (held fast).

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
from collections.abc import Callable

from sixtui.ai.six_shapes import ShapeBoard
from sixtui.rules import Game, Move
from sixtui.rules.hexes import Hex, pack, unpack
from sixtui.rules.six_ending import TOO_FEW
from sixtui.rules.six_lifting import _holds_nothing_together

WIN = 1_000_000
THREAT_WIN = WIN // 2  # a leaf the side to move wins within a turn or two, as the shapes tell
PIECE_WORTH = 150  # in the second round, each piece more than the other team
DOUBLE_THREAT_FIRST = 10_000  # ranks the cells that make a double threat first
ROOT_EXTRA_WIDTH = 4  # the root's moves are few and matter most: look at a few more
ROOT_REPLIES = 2  # the ply of the other team's answers to the root's moves
MOVES_PER_CELL = 2  # second-round moves ranked to one cell before those to other cells
SECOND_ROUND_SCAN = 40  # second-round moves looked at one ply deep to choose the root's
THREAT_MOVES = 6  # threats tried in each position past the depth
# The other team's pieces free to lift, at most, for the moves that leave it none to be
# looked for among all of the moves.
FEW_FREE_PIECES = 3
MAX_DEPTH = 64  # deeper than any time allows
WIDENING = 3 / 2  # each widening search looks at this many times the moves of the last
# A leaf's captures, in the second round: the side to move takes its best one next, so it
# counts for nearly all it is worth; the other team's may yet be parried.
OWN_CAPTURE_SHARE = 3 / 4
THEIR_CAPTURE_SHARE = 1 / 3


class Timeout(Exception):
    """The search's deadline has passed (or its count of positions)."""


def pick(
    scored: list[tuple[Move, int]], rng: random.Random | None, margin: int
) -> tuple[Move, int]:
    """The best of ``scored`` (best first) or, given ``rng``, one of the moves within
    ``margin`` of it (never among wins or losses found)."""
    best_score = scored[0][1]
    if rng is None or abs(best_score) >= THREAT_WIN // 2:
        return scored[0]
    return rng.choice([(move, score) for move, score in scored if score >= best_score - margin])


def _varied(
    moves: list[Move], width: int, worth: Callable[[Move], int], per_piece: int | None = None
) -> list[Move]:
    """The best ``width`` of the second-round ``moves`` by ``worth``, best first, with at
    most :data:`MOVES_PER_CELL` to each cell, and given ``per_piece`` at most so many
    lifting each piece, while there are others.

    Many pieces may go to the same cell, and the best cell's moves would fill the
    search's few places: a move that blocks a double threat crowding out the one move
    elsewhere that wins. Likewise the piece whose lift costs least by the cells alone
    would go to every cell: a piece that looks idle may be one the other team's next
    lift cuts off, or part of a shape a capture brings back to life.
    """
    ranked = sorted(moves, key=worth, reverse=True)
    chosen: list[Move] = []
    left: list[Move] = []
    per_cell: dict[Hex | None, int] = {}
    lifts: dict[Hex | None, int] = {}
    most_lifts = width if per_piece is None else per_piece
    for move in ranked:
        if per_cell.get(move.to, 0) < MOVES_PER_CELL and lifts.get(move.origin, 0) < most_lifts:
            per_cell[move.to] = per_cell.get(move.to, 0) + 1
            lifts[move.origin] = lifts.get(move.origin, 0) + 1
            chosen.append(move)
            if len(chosen) == width:
                return chosen
        elif len(left) < width:
            left.append(move)
    return chosen + left[: width - len(chosen)]


class SixSearch:
    """Searches one Six position (on a copy of ``game``) until ``deadline``
    (:func:`time.perf_counter` seconds), or until it has visited ``max_nodes``
    positions if given, looking at ``width`` moves of each position below the root (a
    few more at the root, ``reply_width`` for the answers to the root's moves if given),
    and ``threat_plies`` plies of threats past the depth.

    A count of positions, unlike a clock, stops the search at the same place on any
    machine: with one, a seed repeats a game exactly. Given ``lifts_per_piece``, the
    second-round moves searched in each position lift each piece at most so many times
    while there are others.

    With ``pre_empting``, a side placing pieces also searches every move onto a cell of
    the other team's shapes two pieces short (a shape one piece from a winning cell),
    however low the cells rank: a sequence of threats is only forced if none of those
    stops it, and without them a narrow search finds wins and losses that are not there.
    """

    def __init__(
        self,
        game: Game,
        deadline: float,
        width: int = 6,
        threat_plies: int = 0,
        max_nodes: int | None = None,
        reply_width: int | None = None,
        lifts_per_piece: int | None = None,
        pre_empting: bool = False,
    ) -> None:
        self.game = game.copy()
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.width = width
        self.reply_width = width if reply_width is None else reply_width
        self.threat_plies = threat_plies
        self.lifts_per_piece = lifts_per_piece
        self.pre_empting = pre_empting
        board = {pack(cell): team for cell, team in game.layout().items()}  # type: ignore[attr-defined]
        self.shapes = ShapeBoard(board, game.rules.centre_may_be_opponent)  # type: ignore[attr-defined]
        self.declaring: bool = game.declare  # type: ignore[attr-defined]
        self.nodes = 0
        # The best move found in each position searched, by its key: searched first when
        # the position comes again, deeper or by another order of the same moves.
        self._best_replies: dict[int, Move] = {}
        self._undo: list[tuple[Move, int, list[tuple[int, int]]]] = []
        self._captures: dict[int, dict[tuple[Hex, Hex | None], int]] = {}
        self._known_candidates: dict[tuple[int, int, tuple[int, ...], int], list[Move]] = {}

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

        In the second round the first search looks at :data:`SECOND_ROUND_SCAN` moves,
        and the deeper ones at the best of them: there the moves are many, and a
        capture's worth is better known one ply ahead than from the cells alone.
        """
        root_width = self.width + ROOT_EXTRA_WIDTH
        placing = self.game.in_hand(self.game.to_move)  # type: ignore[attr-defined]
        moves = self.candidates(root_width if placing else max(root_width, SECOND_ROUND_SCAN))
        scored = [(moves[0], -WIN)]
        try:
            scored = self._root(moves, 1, margin, 0)
        except Timeout:
            return scored[0]
        moves = [move for move, _ in scored[:root_width]]
        searches = [(plies, self.threat_plies) for plies in range(1, depth + 1)]
        for plies, threats in searches:
            try:
                scored = self._root(moves, plies, margin, threats)
            except Timeout:
                break
            moves = [move for move, _ in scored]  # best first: more cut-offs next time
        return pick(scored, rng, margin)

    def widening_scores(self, depth: int, margin: int) -> list[tuple[Move, int]]:
        """The root's moves with their scores, best first, from the last search finished
        before the deadline: ``depth`` plies over ``width`` moves a position, then over
        more and more of them, and a ply deeper, again from ``width``, once the root's
        every move has been searched; then ``threat_plies`` plies of threats.

        Time buys breadth before depth: a player searching so reads every move a few
        plies ahead before it reads any further. Those more than ``margin`` below the
        best are only known to be so; at least the first ranked move is always given.
        """
        base = self.width
        scored = [(self.candidates(base + ROOT_EXTRA_WIDTH)[0], -WIN)]
        try:
            while depth <= MAX_DEPTH:
                ranked = self.candidates(self.width + ROOT_EXTRA_WIDTH)
                # The best of the last search first, then those ranked best not yet among
                # them: a move found best by a wide search is not dropped by a deep one.
                moves = [move for move, _ in scored[: len(ranked)]]
                moves += [move for move in ranked if move not in moves]
                scored = self._root(moves, depth, margin, self.threat_plies)
                if len(ranked) < self.width + ROOT_EXTRA_WIDTH:  # the root's every move
                    depth, self.width = depth + 1, base
                else:
                    self.width = int(self.width * WIDENING)
        except Timeout:
            pass
        finally:
            self.width = base
        return scored

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
        """The moves of the seat to move worth searching, best first: a win if it has
        one (a second would win no more), else blocks of the other team's winning cells
        if it faces any, else the ``width`` moves that do most for its shapes.

        Kept for the layout, seat and pieces in hand: each deeper search meets the
        positions of the last again, and moves in another order meet the same layout.
        Not in declaring games, where a team's right to declare depends on the moves that
        led there.
        """
        if self.declaring:
            return self._candidates(width)
        game = self.game
        hands = tuple(game.in_hand(seat) for seat in range(game.players))  # type: ignore[attr-defined]
        key = (self.shapes.key, game.to_move, hands, width)
        known = self._known_candidates.get(key)
        if known is None:
            known = self._known_candidates[key] = self._candidates(width)
        return list(known)

    def _candidates(self, width: int) -> list[Move]:
        """The moves of :meth:`candidates`, found."""
        game = self.game
        team = game.team(game.to_move)
        legal = game.legal_moves()
        if legal and legal[0].to is None:
            return [legal[0]]  # declaring a shape on the table wins
        wins = self._winning_moves(team, legal, 1) or self._winning_captures(team, legal)
        if wins:
            return wins
        theirs = {unpack(cell) for cell in self.shapes.winning_cells(1 - team)}
        if theirs:
            blocks = [move for move in legal if move.to in theirs]
            legal = blocks or legal
        ranked = self._ranked(legal, team, width)
        if self.pre_empting and not theirs and game.in_hand(game.to_move):  # type: ignore[attr-defined]
            ranked += self._pre_empts(team, legal, ranked)
        traps = self._traps(team, legal)
        return traps + [move for move in ranked if move not in traps]

    def _pre_empts(self, team: int, legal: list[Move], ranked: list[Move]) -> list[Move]:
        """The moves among ``legal`` but not in ``ranked`` that put a piece of ``team`` on a
        cell of the other team's shapes two pieces short, best ranked first."""
        near = self._threat_cells(1 - team)
        moves = [move for move in legal if move.to in near and move not in ranked]
        return self._ranked(moves, team, len(moves))

    def _traps(self, team: int, legal: list[Move]) -> list[Move]:
        """The moves among ``legal`` after which the other team is held fast (see
        :meth:`_held_fast`), in the second round, tried only when it has few free pieces.

        Such a move is found by no ranking of the cells: it may be a lift far away that
        leaves the other team's last free pieces holding the layout together. Each move
        tried counts as a position searched.
        """
        other = 1 - team
        free, held = self._free_pieces(other, FEW_FREE_PIECES)
        if free > FEW_FREE_PIECES or not held:
            return []
        traps = []
        for move in legal:
            self.nodes += 1
            self._play(move, team)
            try:
                if self.game.result is None and self._held_fast(other):
                    traps.append(move)
            finally:
                self._take_back()
        return traps

    def _winning_moves(self, team: int, legal: list[Move], enough: int = 0) -> list[Move]:
        """The moves among ``legal`` that complete a shape of ``team``, to move (with
        ``!`` in a declaring game); once ``enough`` are found, no more are looked for.

        A piece from the hand completes a shape on any of its winning cells. A piece
        lifted may have been part of the shape, or its lift may capture part of it:
        in the second round each move that still completes a shape without its lifted
        piece is played to see whether it wins.
        """
        shapes = self.shapes
        cells = {unpack(cell) for cell in shapes.winning_cells(team)}
        if not cells:
            return []
        moves = [self._declared(move) for move in legal if move.to in cells]
        game = self.game
        if not moves or game.in_hand(game.to_move):  # type: ignore[attr-defined]
            return moves[:enough] if enough else moves
        wins = []
        for move in moves:
            if not shapes.completes_without(pack(move.to), pack(move.origin), team):  # type: ignore[arg-type]
                continue
            game.play(move)
            if game.result is not None and game.result.winner == team:
                wins.append(move)
            game.undo()
            if len(wins) == enough:
                break
        return wins

    def _winning_captures(self, team: int, legal: list[Move]) -> list[Move]:
        """The first move among ``legal`` whose lift leaves the other team too few pieces
        (:meth:`capture_gains`), played to confirm that it wins; none if there is none."""
        lifts = {lift for lift, gain in self.capture_gains(team).items() if gain >= WIN}
        game = self.game
        for move in legal:
            if (move.origin, move.keep) not in lifts:
                continue
            game.play(move)
            won = game.result is not None and game.result.winner == team
            game.undo()
            if won:
                return [move]
        return []

    def _ranked(self, moves: list[Move], team: int, width: int) -> list[Move]:
        """The best ``width`` of ``moves`` by what they do to the shapes through their
        cells, best first."""
        shapes = self.shapes
        urgent = {
            unpack(cell)
            for cell in shapes.double_threat_cells(team) | shapes.double_threat_cells(1 - team)
        }
        # Each cell put on and each cell lifted is weighed once: the second round has
        # many more moves than cells.
        placing = {
            to: shapes.placing_gain(pack(to), team) + DOUBLE_THREAT_FIRST * (to in urgent)  # type: ignore[arg-type]
            for to in {move.to for move in moves}
        }
        if not moves or moves[0].origin is None:
            return heapq.nlargest(width, moves, key=lambda move: placing[move.to])  # type: ignore[index]
        lifting = {
            origin: shapes.lifting_gain(pack(origin), team)  # type: ignore[arg-type]
            for origin in {move.origin for move in moves}
        }
        captures = self.capture_gains(team)
        return _varied(
            moves,
            width,
            lambda move: (
                placing[move.to]  # type: ignore[index]
                + lifting[move.origin]  # type: ignore[index]
                + captures.get((move.origin, move.keep), 0)  # type: ignore[arg-type]
            ),
            self.lifts_per_piece,
        )

    def _threats(self, team: int) -> list[Move]:
        """The best few moves that put a piece of ``team`` where it makes a winning cell,
        double threats first."""
        cells = self._threat_cells(team)
        if not cells:
            return []
        moves = [move for move in self.game.legal_moves() if move.to in cells]
        return self._ranked(moves, team, THREAT_MOVES)

    def _threat_cells(self, team: int) -> set[Hex]:
        """The cells where a piece of ``team`` makes a winning cell: those of its shapes
        two pieces short."""
        threats = self.shapes.threats(team)
        return {unpack(cell) for missing in threats if len(missing) == 2 for cell in missing}

    def capture_gains(self, team: int) -> dict[tuple[Hex, Hex | None], int]:
        """What each lift of ``team``'s that splits the layout captures, worth to
        ``team``, by the lifted cell and the group kept (``None`` where one group is
        largest): the other team's pieces taken count for it, its own against it, and
        leaving the other team too few is a win (its own too few, a loss).

        Read from the layout's cut points, without playing a move (what a lift captures
        does not depend on where the piece goes), and kept for the layout: leaves and
        the positions above them ask again. Empty outside the second round, or where
        splitting the layout is not allowed.
        """
        game = self.game
        if game.in_hand(game.to_move) or not game.rules.split_captures:  # type: ignore[attr-defined]
            return {}
        key = self.shapes.key * 2 + team
        gains = self._captures.get(key)
        if gains is None:
            gains = self._captures[key] = {
                lift: self._capture_worth(team, lost) for lift, lost in self._lifts(team)
            }
        return gains

    def _lifts(self, team: int) -> list[tuple[tuple[Hex, Hex | None], tuple[int, int]]]:
        """Each lift of ``team``'s that splits the layout, by the lifted cell and the
        group kept, with the pieces of team 0 and 1 it captures."""
        cuts = self.game._cut_points()  # type: ignore[attr-defined]  # kept with the position
        board = self.shapes.board
        order, end, number = cuts.order, cuts.end, cuts.number
        # Team 1's pieces among the first so many in the search's order: a group below a
        # lifted piece is one slice of that order.
        ones = [0]
        for cell in order:
            ones.append(ones[-1] + board[cell])
        lifts = []
        for origin in cuts.cut_cells:
            if board[origin] != team:
                continue
            parts = cuts.parts_without(origin)
            counted = []
            for size, where in parts:
                if where >= 0:
                    of_one = ones[end[where]] - ones[where]
                else:  # the pieces above the lifted one: all those not below it
                    here = number[origin]
                    of_one = ones[-1] - (ones[end[here]] - ones[here])
                counted.append((size - of_one, of_one))
            largest = max(size for size, _ in parts)
            staying = [index for index, part in enumerate(parts) if part[0] == largest]
            for kept in staying:
                lost = (
                    sum(zeros for index, (zeros, _) in enumerate(counted) if index != kept),
                    sum(of_one for index, (_, of_one) in enumerate(counted) if index != kept),
                )
                keep = None
                if len(staying) > 1:
                    keep = unpack(min(cuts.members(origin, parts[kept])))
                lifts.append(((unpack(origin), keep), lost))
        return lifts

    def _capture_worth(self, team: int, lost: tuple[int, int]) -> int:
        """What losing ``lost`` pieces (of team 0 and 1) is worth to ``team``."""
        game = self.game
        mine = game.pieces(team) - lost[team]  # type: ignore[attr-defined]
        theirs = game.pieces(1 - team) - lost[1 - team]  # type: ignore[attr-defined]
        if theirs <= TOO_FEW < mine:
            return WIN
        if mine <= TOO_FEW < theirs:
            return -WIN
        return PIECE_WORTH * (lost[1 - team] - lost[team])

    def _declared(self, move: Move) -> Move:
        """``move`` written with ``!`` in a declaring game, where completing a shape wins
        only so."""
        return Move(move.to, move.origin, move.keep, declare=True) if self.declaring else move

    # -- searching -------------------------------------------------------------------------

    def _value(self, depth: int, alpha: int, beta: int, ply: int, threats: int) -> int:
        """The position's worth for the team to move, searched ``depth`` plies deep and
        then ``threats`` plies of threats."""
        self.nodes += 1
        if time.perf_counter() > self.deadline or (
            self.max_nodes is not None and self.nodes > self.max_nodes
        ):
            raise Timeout
        team = self.game.team(self.game.to_move)
        if depth <= 0:
            return self._threat_value(team, alpha, beta, ply, threats)
        # The other team's answers to the root's moves: where a narrow search most often
        # misses the move that refutes one, a wider look if asked for.
        moves = self.candidates(self.reply_width if ply == ROOT_REPLIES else self.width)
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
                # A win with this move is as good as any: the other moves need no look.
                if alpha >= beta or score >= WIN - ply:
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
        # A capture that leaves the other team too few wins at once, before any block.
        capture = max(self.capture_gains(team).values(), default=0)
        if capture >= WIN:
            return THREAT_WIN - ply - 1
        theirs = shapes.winning_cells(1 - team)
        if len(theirs) >= 2 or self._held_fast(team):
            return ply - THREAT_WIN
        if not theirs and self._placing() and shapes.double_threat_cells(team):
            return THREAT_WIN - ply - 2  # the other team can place only one piece
        pieces = self.game.pieces(team) - self.game.pieces(1 - team)  # type: ignore[attr-defined]
        worth = shapes.worth(team) + PIECE_WORTH * pieces
        if theirs:
            return worth  # the side to move must block: its captures wait
        return worth + self._captures_worth(team, capture)

    def _held_fast(self, team: int) -> bool:
        """Whether ``team``, to move in the second round, can lift no piece but one that
        alone keeps the other team from a shape: whatever it lifts, the other team
        completes that shape next, and the lifted piece may not go back."""
        free, held = self._free_pieces(team, 0)
        return not free and held > 0

    def _free_pieces(self, team: int, enough: int) -> tuple[int, int]:
        """How many pieces ``team`` may lift in the second round without freeing a shape
        of the other team (counted up to ``enough + 1``, the second count then 0), and how
        many it may lift that would free one; none before its hand is empty.

        Only where a lift may not split the layout: elsewhere every piece may be lifted,
        and what a split captures may be part of the shape a piece holds back.
        """
        game = self.game
        if game.rules.split_captures or any(  # type: ignore[attr-defined]
            game.in_hand(seat)  # type: ignore[attr-defined]
            for seat in range(team, game.players, 2)
        ):
            return enough + 1, 0
        board = self.shapes.board
        held_back = self.shapes.held_back(team)
        if not held_back:
            return enough + 1, 0
        free = 0
        doubtful = []
        for cell, owner in board.items():
            if owner != team or cell in held_back:
                continue
            # Most pieces split nothing by their neighbours alone: the layout's cut points,
            # a pass over every piece, only for the others.
            if _holds_nothing_together(board, cell):
                free += 1
                if free > enough:
                    return free, 0
            else:
                doubtful.append(cell)
        splitting = game._cut_points().cut_cells  # type: ignore[attr-defined]  # kept with the position
        free += sum(cell not in splitting for cell in doubtful)
        return free, len(held_back - splitting)  # a team that can lift nothing passes

    def _captures_worth(self, team: int, mine: int) -> int:
        """What the captures at hand are worth to ``team``, to move, in the second round,
        ``mine`` its best one, which it plays next (short of a win), and the other team's
        best, which it may yet parry."""
        theirs = self._their_capture_gain(team)
        return int(max(mine, 0) * OWN_CAPTURE_SHARE - max(theirs, 0) * THEIR_CAPTURE_SHARE)

    def _their_capture_gain(self, team: int) -> int:
        """The best capture the other team of ``team`` has in the layout, were it to move."""
        gains = self.capture_gains(1 - team)
        best = max(gains.values(), default=0)
        return min(best, PIECE_WORTH * TOO_FEW)  # a capture that wins may yet be stopped

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
