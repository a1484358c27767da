"""The computer player of Connect6 and Game of 6.

It reads the board as windows of six points (:mod:`sixtui.ai.line_patterns`)
and, in this order: makes six (or, in Game of 6, closes a winning polygonal);
plays a win by continuous threats when it finds one
(:mod:`sixtui.ai.threat_search`); otherwise plays the best-scored pair of
stones among those that leave the other team no such win.

The levels, with the time they use of a one-second budget:

* ``hard`` spends the budget: its own threat search up to six turns deep, a
  look at the other team's best answer to each candidate pair, and a check,
  deepened while time lasts, that the pair leaves no win by threats.
* ``normal`` is quick (well under a second): threat wins of up to three turns,
  and pairs that leave the other team no double threat.
* ``easy`` (a few milliseconds) makes six and mostly stops the other team's
  six, sometimes overlooking it, and otherwise plays one of its few
  best-scored pairs at random, as a beginner would.

Every level stops at the deadline with the best turn found so far.

>>> import random, time
>>> from sixtui.rules import new_game
>>> g = new_game("connect6", size=9)
>>> [str(m) for m in choose_grid_turn(g, "normal", time.perf_counter() + 1, random.Random(0))]
['E5']
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable
from itertools import combinations

from sixtui.ai.line_patterns import LineBoard
from sixtui.ai.threat_search import ThreatSearch
from sixtui.rules import Game, IllegalMove, Move

# The deepest threat wins looked for, in turns (see sixtui.ai.threat_search).
OWN_THREAT_TURNS = {"normal": 3, "hard": 6}
# The other team's threat wins that a chosen pair must leave it none of.
OTHER_THREAT_TURNS = {"normal": 2, "hard": 5}
OWN_SEARCH_SHARE = 0.25  # of hard's budget, for its own threat search
CANDIDATE_POINTS = 10  # best single points whose pairs are weighed
DEFENDERS = 8  # points of the other team's lines added when it has a double threat
REPLY_POINTS = 6  # the other team's points whose pairs answer a candidate (hard)
EASY_CHOICES = 4
EASY_OVERLOOKS = 0.2  # how often easy misses the other team's six to come
DEFENCE = 0.9  # stopping a line counts a little less than building the same line
ENCLOSURE_WORTH = 400  # per cell a dot colors in Game of 6
NEIGHBOUR_WORTH = 3  # Game of 6: per own dot touching, for growing polygonals
_AROUND = tuple((dc, dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1) if dc or dr)


def choose_grid_turn(
    game: Game,
    level: str,
    deadline: float,
    rng: random.Random,
    stats: dict[str, int] | None = None,
) -> list[Move]:
    """The stones that finish the current turn of a Connect6 or Game of 6 game;
    ``stats["positions"]`` counts the stones its search put down."""
    work = game.copy()
    board = LineBoard.from_game(work)
    try:
        return _choose(work, board, level, deadline, rng)
    finally:
        if stats is not None:
            stats["positions"] = board.played


def _choose(
    work: Game, board: LineBoard, level: str, deadline: float, rng: random.Random
) -> list[Move]:
    winning = winning_turn(work, deadline)
    if winning is not None:
        return winning
    values = _point_values(work, board)
    team = work.to_move
    if level == "easy":
        return _as_moves(work, board, _easy_turn(work, board, values, rng), values)
    if work.stones_left < 2:  # type: ignore[attr-defined]
        points = [(key,) for key in _single_points(board, team, values)]
        safe = _safest_pair(work, board, team, points, OTHER_THREAT_TURNS[level], deadline)
        return _as_moves(work, board, safe, values)
    own_deadline = deadline
    if level == "hard":
        own_deadline = time.perf_counter() + OWN_SEARCH_SHARE * (deadline - time.perf_counter())
    attack = ThreatSearch(board, team, own_deadline).forced_win(OWN_THREAT_TURNS[level])
    if attack is not None:
        return _as_moves(work, board, attack, values)
    pairs = _candidate_pairs(board, team, values, deadline)
    if level == "hard":
        pairs = _by_best_answer(board, team, pairs, deadline)
    safe = _safest_pair(work, board, team, pairs, OTHER_THREAT_TURNS[level], deadline)
    return _as_moves(work, board, safe, values)


# -- winning now ---------------------------------------------------------------------


def winning_turn(game: Game, deadline: float) -> list[Move] | None:
    """Stones that win this turn for the seat to move, if it finds any (``game`` is kept).

    >>> from sixtui.rules import new_game
    >>> g = new_game("connect6", size=9)
    >>> for point in ["E5", "A1", "A2", "F5", "G5", "B1", "B2", "H5", "C7", "C1", "C2"]:
    ...     g.play(point)
    >>> [str(m) for m in winning_turn(g, time.perf_counter() + 1)]
    ['C5', 'D5']
    >>> g.play("D5"); g.play("A9"); g.play("A8")
    >>> winning_turn(g, time.perf_counter() + 1) is None  # White, one stone left, has no six
    True
    """
    team = game.to_move
    stones = game.stones_left  # type: ignore[attr-defined]
    board = LineBoard.from_game(game)
    six = board.winning_stones(team, stones)
    if six is not None:
        return _as_moves(game, board, six, {})
    if game.name == "gameof6":
        return _closing_turn(game, board, team, stones, deadline)
    return None


def _closing_turn(
    game: Game, board: LineBoard, team: int, stones: int, deadline: float
) -> list[Move] | None:
    """Dots that color the sixth cell of ``team`` in Game of 6, if it finds any."""
    singles = sorted(board.near(1, team))
    for key in singles:
        if _wins(game, board, [key], team):
            return [Move(board.square(key))]
    if stones < 2:
        return None
    for pair in combinations(sorted(set(singles) | set(board.near(2, team))), 2):
        if time.perf_counter() > deadline:
            break
        if _wins(game, board, list(pair), team):
            return [Move(board.square(key)) for key in pair]
    return None


def _wins(game: Game, board: LineBoard, keys: list[int], team: int) -> bool:
    """Whether playing ``keys`` on the real game wins it for ``team`` (``game`` is kept)."""
    played = _play_points(game, board, keys)
    won = game.result is not None and game.result.winner == team
    for _ in range(played):
        game.undo()
    return won


def _play_points(game: Game, board: LineBoard, keys: Iterable[int]) -> int:
    """Plays ``keys`` on the real game until one is refused (in Game of 6 the first
    dot may color the second's cell) or the game ends; returns how many it played."""
    played = 0
    for key in keys:
        if game.result is not None:
            break
        try:
            game.play(Move(board.square(key)))
        except IllegalMove:
            break
        played += 1
    return played


# -- weighing points and pairs -------------------------------------------------------


def _point_values(game: Game, board: LineBoard) -> dict[int, float]:
    """What each open point near the stones is worth to the seat to move: its own
    lines through it, the other team's lines it stops, and in Game of 6 the
    cells a dot there colors. The middle alone on an empty board."""
    team = game.to_move
    if board.stones == 0:
        middle = board.size // 2
        return {middle * board.size + middle: 1.0}
    values = {
        key: board.gain(key, team) + DEFENCE * board.gain(key, 1 - team) for key in board.near(2)
    }
    if len(values) < 2:  # a crowded small board: any open point will do
        values.update((key, 0.0) for key in range(board.size**2) if board.is_empty(key))
    if game.name == "gameof6":
        _add_enclosures(game, board, team, values)
    return values


def _add_enclosures(game: Game, board: LineBoard, team: int, values: dict[int, float]) -> None:
    """Game of 6: dots beside the team's own grow polygonals, and closing one is worth
    each cell it colors."""
    for key in values:
        square = board.square(key)
        touching = sum(
            board.cells[key + dr * board.size + dc] == team
            for dc, dr in _AROUND
            if 0 <= square.col + dc < board.size and 0 <= square.row + dr < board.size
        )
        values[key] += NEIGHBOUR_WORTH * touching
    for key in board.near(1, team):
        before = game.colored_count(team)  # type: ignore[attr-defined]
        game.play(Move(board.square(key)))
        gained = game.colored_count(team) - before  # type: ignore[attr-defined]
        game.undo()
        values[key] = values.get(key, 0.0) + ENCLOSURE_WORTH * gained


def _ranked_points(values: dict[int, float]) -> list[int]:
    return sorted(values, key=lambda key: (-values[key], key))


def _pair_score(board: LineBoard, team: int, pair: Iterable[int]) -> int:
    """The board's pattern score for ``team`` once ``pair`` stands."""
    played = [key for key in pair if board.is_empty(key)]
    for key in played:
        board.play(key, team)
    score = board.worth[team] - board.worth[1 - team]
    for key in reversed(played):
        board.undo(key)
    return score


def _candidate_pairs(
    board: LineBoard, team: int, values: dict[int, float], deadline: float
) -> list[tuple[int, ...]]:
    """Pairs among the best points, the points that stop the other team's threats and
    those of its threat search, best-scored first."""
    other = 1 - team
    points = set(_ranked_points(values)[:CANDIDATE_POINTS])
    points |= {key for window in board.threat_cells(other) for key in window}
    their_attack = ThreatSearch(board, other, deadline).forced_win(2)
    if their_attack is not None:  # the points that can still spoil it
        spoilers = sorted(board.chance_cells(other), key=lambda key: -values.get(key, 0.0))
        points |= set(their_attack) | set(spoilers[:DEFENDERS])
    pairs = [tuple(pair) for pair in combinations(sorted(points), 2)]
    if board.threats[other]:
        blocking = [pair for pair in pairs if not _leaves_a_six(board, team, pair)]
        pairs = blocking or pairs
    return sorted(pairs, key=lambda pair: -_pair_score(board, team, pair))


def _leaves_a_six(board: LineBoard, team: int, pair: tuple[int, ...]) -> bool:
    for key in pair:
        board.play(key, team)
    six = board.winning_stones(1 - team, 2) is not None
    for key in reversed(pair):
        board.undo(key)
    return six


def _by_best_answer(
    board: LineBoard, team: int, pairs: list[tuple[int, ...]], deadline: float
) -> list[tuple[int, ...]]:
    """The candidate pairs reordered by their score after the other team's best answer
    (among pairs of its best points); those not reached in time keep their place after."""
    weighed: list[tuple[int, tuple[int, ...]]] = []
    for pair in pairs[:CANDIDATE_POINTS]:
        if time.perf_counter() > deadline:
            break
        for key in pair:
            board.play(key, team)
        weighed.append((_after_best_answer(board, team), pair))
        for key in reversed(pair):
            board.undo(key)
    weighed.sort(key=lambda item: -item[0])
    return [pair for _, pair in weighed] + pairs[len(weighed) :]


def _after_best_answer(board: LineBoard, team: int) -> int:
    other = 1 - team
    gains = {key: board.gain(key, other) + DEFENCE * board.gain(key, team) for key in board.near(2)}
    answers = combinations(_ranked_points(gains)[:REPLY_POINTS], 2)
    return min(
        (-_pair_score(board, other, answer) for answer in answers),
        default=_pair_score(board, team, ()),
    )


# -- choosing ------------------------------------------------------------------------


def _safest_pair(
    game: Game,
    board: LineBoard,
    team: int,
    pairs: list[tuple[int, ...]],
    deepest: int,
    deadline: float,
) -> tuple[int, ...]:
    """The best-placed pair that leaves the other team no threat win, looked for
    ever deeper up to ``deepest`` turns while time lasts."""
    choice = pairs[0]
    hopeful = list(pairs)
    for turns in range(2, deepest + 1):
        found = _first_safe(game, board, team, hopeful, turns, deadline)
        if found is None:
            break
        choice = found
        if time.perf_counter() > deadline:
            break
    return choice


def _first_safe(
    game: Game,
    board: LineBoard,
    team: int,
    hopeful: list[tuple[int, ...]],
    turns: int,
    deadline: float,
) -> tuple[int, ...] | None:
    """The first pair of ``hopeful`` after which the other team has no win in ``turns``
    turns. Pairs that leave one are dropped from ``hopeful``: a win in fewer turns is
    also one within more, so the next, deeper look skips them."""
    for pair in list(hopeful):
        if time.perf_counter() > deadline:
            return None
        for key in pair:
            board.play(key, team)
        their_win = ThreatSearch(board, 1 - team, deadline).forced_win(turns)
        for key in reversed(pair):
            board.undo(key)
        if time.perf_counter() > deadline:
            return None
        if their_win is not None or (
            game.name == "gameof6" and _gives_a_closing(game, board, pair, deadline)
        ):
            hopeful.remove(pair)
            continue
        return pair
    return None


def _gives_a_closing(game: Game, board: LineBoard, pair: tuple[int, ...], deadline: float) -> bool:
    """Game of 6: whether after ``pair`` the other team colors its sixth cell at once."""
    played = _play_points(game, board, pair)
    loses = game.result is None and winning_turn(game, deadline) is not None
    for _ in range(played):
        game.undo()
    return loses


def _lone_blocks(board: LineBoard, team: int) -> list[int]:
    """The points where one stone of ``team`` stops every six of the other team."""
    other = 1 - team
    blocks = board.blocking_sets(other) if board.threats[other] else []
    return [block[0] for block in blocks if len(block) == 1]


def _single_points(board: LineBoard, team: int, values: dict[int, float]) -> list[int]:
    """Candidates for a turn's last stone, best first: the points that stop the other
    team's six on their own if there are any, else the best points."""
    blocks = sorted(_lone_blocks(board, team), key=lambda key: -values.get(key, 0.0))
    return blocks or _ranked_points(values)[:CANDIDATE_POINTS]


def _easy_turn(
    game: Game, board: LineBoard, values: dict[int, float], rng: random.Random
) -> list[int]:
    """Stops the other team's six unless it overlooks it, else one of its best few
    points or pairs."""
    if game.stones_left >= 2:  # type: ignore[attr-defined]
        return _easy_pair(game, board, values, rng)
    blocks = _single_points(board, game.to_move, values)
    if _lone_blocks(board, game.to_move) and rng.random() >= EASY_OVERLOOKS:
        return blocks[:1]
    return [rng.choice(_ranked_points(values)[:EASY_CHOICES])]


def _easy_pair(
    game: Game, board: LineBoard, values: dict[int, float], rng: random.Random
) -> list[int]:
    """Stops the other team's six unless it overlooks it, else one of the best few pairs."""
    team = game.to_move
    points = _ranked_points(values)[: CANDIDATE_POINTS // 2]
    pairs = [tuple(pair) for pair in combinations(points, 2)] or [tuple(points)]
    if board.threats[1 - team] and rng.random() >= EASY_OVERLOOKS:
        # When two stones cannot stop every threat, any two of its points delay the loss.
        threat_points = sorted({key for cells in board.threat_cells(1 - team) for key in cells})
        blocks = board.blocking_sets(1 - team) or list(combinations(threat_points, 2))
        best = max(blocks, key=lambda block: (_pair_score(board, team, block), block))
        if len(best) == 1:
            partner = next((key for key in points if key != best[0]), None)
            return [best[0]] if partner is None else [best[0], partner]
        return list(best)
    pairs.sort(key=lambda pair: -_pair_score(board, team, pair))
    return list(rng.choice(pairs[:EASY_CHOICES]))


def _as_moves(
    game: Game, board: LineBoard, keys: Iterable[int], values: dict[int, float]
) -> list[Move]:
    """The points as moves of the turn, checked on the real game (``game`` is kept):
    a stone that already won ends the turn, and in Game of 6 a point colored by the
    first dot gives way to the best open one."""
    team = game.to_move
    moves: list[Move] = []
    for key in keys:
        if game.result is not None or game.to_move != team:
            break
        move = Move(board.square(key))
        try:
            game.play(move)
        except IllegalMove:
            move = _best_open(game, board, values)
            game.play(move)
        moves.append(move)
    for _ in moves:
        game.undo()
    return moves


def _best_open(game: Game, board: LineBoard, values: dict[int, float]) -> Move:
    legal = set(game.legal_moves())
    for key in _ranked_points(values):
        move = Move(board.square(key))
        if move in legal:
            return move
    return game.legal_moves()[0]
