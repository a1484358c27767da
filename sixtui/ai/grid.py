"""The computer player of Connect6 and Game of 6: win, block, else the best-scored stones.

Lines are read as *windows*: every stretch of six points along a row, a
column or a diagonal. A window that holds stones of one team only is that
team's chance; the more stones it holds, the more it is worth. A point's score
adds up the chances of both teams through it, so a stone that extends its own
lines also sits in the other team's way.

>>> import random, time
>>> from sixtui.rules import new_game
>>> g = new_game("connect6", size=9)
>>> [str(m) for m in choose_grid_turn(g, "normal", time.perf_counter() + 1, random.Random(0))]
['E5']
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from itertools import combinations

from sixtui.rules import Game, IllegalMove, Move, Square

RUN = 6
BLOCKED = -2  # a colored cell or a dead dot: out of play for both teams
# What a window holding this many stones of one team (and nothing else) is worth.
WINDOW_WORTH = (0, 1, 8, 60, 600, 6000, 0)
DEFENCE = 0.9  # blocking counts a little less than building the same line
ENCLOSURE_WORTH = 400  # per cell a dot colors in Game of 6
NEIGHBOUR_WORTH = 3  # Game of 6: per own dot touching, for growing polygonals
EASY_CHOICES = 4
HARD_TURNS = 6
_DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))
_AROUND = tuple((dc, dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1) if dc or dr)


class _Board:
    """A snapshot of the points: a team's live stone, ``BLOCKED``, or ``None`` if open."""

    def __init__(self, game: Game) -> None:
        self.size = size = game.size  # type: ignore[attr-defined]
        self.points: dict[Square, int | None] = {}
        for row in range(size):
            for col in range(size):
                square = Square(col, row)
                if game.colored(square) is not None:  # type: ignore[attr-defined]
                    self.points[square] = BLOCKED
                else:
                    self.points[square] = game.at(square)  # type: ignore[attr-defined]
        self.windows = [
            [Square(col + k * dc, row + k * dr) for k in range(RUN)]
            for dc, dr in _DIRECTIONS
            for col in range(size)
            for row in range(size)
            if 0 <= col + (RUN - 1) * dc < size and 0 <= row + (RUN - 1) * dr < size
        ]

    def open_points(self) -> list[Square]:
        return [square for square, owner in self.points.items() if owner is None]

    def near_stones(self, reach: int, team: int | None = None) -> list[Square]:
        """Open points within ``reach`` steps of a live stone (of ``team``, or of either)."""
        stones = [
            square
            for square, owner in self.points.items()
            if owner is not None and owner != BLOCKED and (team is None or owner == team)
        ]
        near = {
            Square(square.col + dc, square.row + dr)
            for square in stones
            for dc in range(-reach, reach + 1)
            for dr in range(-reach, reach + 1)
        }
        return [square for square in near if self.points.get(square, BLOCKED) is None]

    def threats(self, team: int, stones: int) -> list[list[Square]]:
        """The open points of every window that ``team`` fills with ``stones`` more stones."""
        found = []
        for window in self.windows:
            owners = [self.points[square] for square in window]
            mine, open_points = owners.count(team), owners.count(None)
            if mine >= RUN - stones and mine + open_points == RUN:
                found.append([s for s, owner in zip(window, owners, strict=True) if owner is None])
        return found

    def scores(self, team: int) -> dict[Square, float]:
        """Each open point's worth to ``team``: its own windows plus the other team's."""
        scores: dict[Square, float] = dict.fromkeys(self.open_points(), 0.0)
        for window in self.windows:
            owners = [self.points[square] for square in window]
            if BLOCKED in owners or (0 in owners and 1 in owners):
                continue
            mine, theirs = owners.count(team), owners.count(1 - team)
            worth = WINDOW_WORTH[mine] if mine else DEFENCE * WINDOW_WORTH[theirs]
            for square, owner in zip(window, owners, strict=True):
                if owner is None:
                    scores[square] += worth
        return scores


def choose_grid_turn(game: Game, level: str, deadline: float, rng: random.Random) -> list[Move]:
    """The stones that finish the current turn of a Connect6 or Game of 6 game."""
    work = game.copy()
    team = work.to_move
    stones = work.stones_left  # type: ignore[attr-defined]
    winning = winning_turn(work, deadline)
    if winning is not None:
        return winning
    if level == "hard":
        turns = [_heuristic_turn(work, stones, "normal", rng, first) for first in range(HARD_TURNS)]
        for turn in turns:
            if time.perf_counter() > deadline:
                break
            if not _gives_a_win(work, turn, team, deadline):
                return turn
        return turns[0]
    return _heuristic_turn(work, stones, level, rng, 0)


def winning_turn(game: Game, deadline: float) -> list[Move] | None:
    """Stones that win this turn for the seat to move, if it finds any (``game`` is kept)."""
    team = game.to_move
    stones = game.stones_left  # type: ignore[attr-defined]
    board = _Board(game)
    lines = {square for points in board.threats(team, stones) for square in points}
    singles = sorted(lines | set(board.near_stones(1, team)) if game.name == "gameof6" else lines)
    for square in singles:
        if _wins(game, [square], team):
            return [Move(square)]
    if stones < 2:
        return None
    pairs: list[Sequence[Square]] = [p for p in board.threats(team, 2) if len(p) == 2]
    if game.name == "gameof6":  # closing polygonals: any two dots near its own
        pairs += combinations(sorted(set(singles) | set(board.near_stones(2, team))), 2)
    for pair in pairs:
        if time.perf_counter() > deadline:
            break
        if _wins(game, list(pair), team):
            return [Move(square) for square in pair]
    return None


def _wins(game: Game, squares: list[Square], team: int) -> bool:
    played = 0
    for square in squares:
        if game.result is not None:
            break
        try:
            game.play(Move(square))
        except IllegalMove:  # the first dot colored the second's cell
            break
        played += 1
    won = game.result is not None and game.result.winner == team
    for _ in range(played):
        game.undo()
    return won


def _heuristic_turn(
    game: Game, stones: int, level: str, rng: random.Random, rank: int
) -> list[Move]:
    """Blocks the other team's lines that would win next turn, then plays the best
    points; ``rank`` picks the ``rank``-th best first stone (for looking ahead).

    Each stone is played on ``game`` before the next is scored (a dot may color
    cells), and taken back at the end.
    """
    team = game.to_move
    board = _Board(game)
    scores = _point_scores(game, board, team)
    blocks = _blocking_points(board, team, stones, scores)
    chosen: list[Square] = []
    while len(chosen) < stones and game.result is None:
        blocks = [square for square in blocks if board.points[square] is None]
        if blocks:
            square = blocks.pop(0)
        else:
            ranked = sorted(scores, key=lambda point: (-scores[point], point))
            if not chosen and rank:
                ranked = ranked[rank:] or ranked
            if level == "easy":
                ranked = ranked[:EASY_CHOICES]
                rng.shuffle(ranked)
            square = ranked[0]
        game.play(Move(square))
        chosen.append(square)
        if len(chosen) < stones and game.result is None:
            board = _Board(game)
            scores = _point_scores(game, board, team)
    for _ in chosen:
        game.undo()
    return [Move(square) for square in chosen]


def _point_scores(game: Game, board: _Board, team: int) -> dict[Square, float]:
    """Scores of the open points worth looking at (all of them on an empty board)."""
    scores = board.scores(team)
    near = board.near_stones(2)
    if not near:
        middle = board.size // 2
        return (
            {Square(middle, middle): 1.0}
            if board.points[Square(middle, middle)] is None
            else {square: 1.0 for square in board.open_points()}
        )
    scores = {square: scores[square] for square in near}
    if game.name == "gameof6":
        for square in scores:
            touching = sum(
                board.points.get(Square(square.col + dc, square.row + dr)) == team
                for dc, dr in _AROUND
            )
            scores[square] += NEIGHBOUR_WORTH * touching
        for square in board.near_stones(1, team):
            before = game.colored_count(team)  # type: ignore[attr-defined]
            game.play(Move(square))
            gained = game.colored_count(team) - before  # type: ignore[attr-defined]
            game.undo()
            scores[square] = scores.get(square, 0.0) + ENCLOSURE_WORTH * gained
    return scores


def _blocking_points(
    board: _Board, team: int, stones: int, scores: dict[Square, float]
) -> list[Square]:
    """The fewest points (at most ``stones``) that meet every window the other team
    could fill next turn; as many of those windows as it can when that is too few."""
    threats = board.threats(1 - team, 2)
    if not threats:
        return []
    cells = sorted({square for points in threats for square in points})
    best: tuple[tuple[int, float], tuple[Square, ...]] = ((-1, 0.0), ())
    for count in range(1, stones + 1):
        for picked in combinations(cells, count):
            hit = sum(any(square in points for square in picked) for points in threats)
            worth = sum(scores.get(square, 0.0) for square in picked)
            if (hit, worth) > best[0]:
                best = ((hit, worth), picked)
        if best[0][0] == len(threats):
            break
    return list(best[1])


def _gives_a_win(game: Game, turn: list[Move], team: int, deadline: float) -> bool:
    """Whether after ``turn`` the other team can win at once (``game`` is kept)."""
    for move in turn:
        game.play(move)  # the turn's stones are legal in order: see _heuristic_turn
    if game.result is not None:
        lost = game.result.winner != team
    else:
        lost = winning_turn(game, deadline) is not None
    for _ in turn:
        game.undo()
    return lost
