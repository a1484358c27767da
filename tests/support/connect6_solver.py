"""A deliberately plain solver of Connect6 threats, and the positions it is tried on.

It knows only the rules: six (or more) in a line wins, a turn is two stones. A
*threat* of a team is a window of six points in a line holding four or five of its
stones and nothing else: two stones make six there. It reads the board straight
from the game and tries sets of points one after another, sharing nothing with the
computer player's own line counting or search.

The forced wins it knows are wins by continuous threats:

* in one turn: the team has a threat (:func:`can_six`);
* in two: a pair after which the other team has no threat, and the team's threats
  cannot all be met by two stones (a double threat, :func:`double_threat_pairs`);
* in three: a pair that leaves the other team no threat and threats of its own,
  after every pair of the other team that meets them all (the only answers that do
  not lose at once), a win in two (:func:`wins_in_three_with`).
"""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations

from sixtui.rules import IllegalMove, Square, new_game

BLOCKED = "x"  # a Game of 6 colored cell: out of play for both teams


@cache
def windows(size):
    """Every window of six points in a line, as tuples of point numbers (row * size + col)."""
    steps = ((1, 0), (0, 1), (1, 1), (1, -1))
    return [
        tuple((row + k * dr) * size + col + k * dc for k in range(6))
        for dc, dr in steps
        for col in range(size)
        for row in range(size)
        if 0 <= col + 5 * dc < size and 0 <= row + 5 * dr < size
    ]


@cache
def windows_through(size):
    """For each point, the windows that hold it."""
    through = [[] for _ in range(size * size)]
    for window in windows(size):
        for point in window:
            through[point].append(window)
    return through


class Board:
    """The points of a square board, each None, a team (0 or 1) or :data:`BLOCKED`."""

    def __init__(self, size, points):
        self.size = size
        self.points = list(points)

    @classmethod
    def of(cls, game):
        size = game.size
        points = []
        for number in range(size * size):
            square = Square(number % size, number // size)
            points.append(BLOCKED if game.colored(square) is not None else game.at(square))
        return cls(size, points)

    def after(self, stones, team):
        """A new board with ``team``'s ``stones`` (point numbers) added."""
        points = list(self.points)
        for point in stones:
            assert points[point] is None
            points[point] = team
        return Board(self.size, points)

    def square(self, point):
        return Square(point % self.size, point // self.size)

    def number(self, square):
        return square.row * self.size + square.col

    def open_points(self):
        return [point for point, who in enumerate(self.points) if who is None]

    def clean(self, window, team, least):
        """The open points of ``window`` if it holds ``least`` or more of ``team``'s
        stones and nothing else, else None."""
        mine, empty = 0, []
        for point in window:
            who = self.points[point]
            if who is None:
                empty.append(point)
            elif who == team:
                mine += 1
            else:
                return None
        return frozenset(empty) if mine >= least else None

    def lines(self, team, least, among=None):
        """The open points of each window (of ``among``, else all) holding ``least``
        or more of ``team``'s stones and nothing else."""
        found = []
        for window in windows(self.size) if among is None else among:
            points = self.clean(window, team, least)
            if points is not None:
                found.append(points)
        return found

    def threats(self, team):
        return self.lines(team, 4)


def can_six(board, team):
    """Whether ``team`` makes six with a turn of two stones: a win in one turn."""
    return bool(board.threats(team))


def meets_all(threats, stones):
    return all(threat & stones for threat in threats)


def stoppable(threats):
    """Whether two stones (or fewer) can meet every one of ``threats``."""
    if not threats:
        return True
    points = sorted(set().union(*threats))
    return any(meets_all(threats, {a, b}) for a, b in combinations(points, 2)) or any(
        meets_all(threats, {a}) for a in points
    )


def wins_in_two_with(board, team, pair, theirs=None):
    """Whether ``team``'s ``pair`` leaves the other team no six and threats that two
    stones cannot all meet (``theirs``: the other team's threats, if already read).
    Before the pair ``team`` has no threat, so only windows through it can hold one."""
    theirs = board.threats(1 - team) if theirs is None else theirs
    if not meets_all(theirs, set(pair)):
        return False
    trial = board.after(pair, team)
    through = windows_through(board.size)
    mine = trial.lines(team, 4, among=set(through[pair[0]]) | set(through[pair[1]]))
    return len(mine) >= 3 and not stoppable(mine)


def hopeful_points(board, team, lines=None):
    """The points of windows holding two or more of ``team``'s stones and nothing
    else, those in most such windows first: the only points where a stone helps make a
    threat."""
    lines = board.lines(team, 2) if lines is None else lines
    points = set().union(*lines)
    return sorted(points, key=lambda point: (-sum(point in line for line in lines), point))


def double_threat_pairs(board, team, first_only=False):
    """The pairs of ``team`` (which has no threat) that win in two turns.

    Read from the windows holding two or more of its stones and nothing else: after
    a pair, such a window is a threat when its stones and the pair's points in it come
    to four or more."""
    theirs = board.threats(1 - team)
    lines = board.lines(team, 2)
    through = {}
    for line in lines:
        for point in line:
            through.setdefault(point, set()).add(line)
    found = []
    for a, b in combinations(hopeful_points(board, team, lines), 2):
        pair = {a, b}
        if not meets_all(theirs, pair):
            continue  # the other team makes six
        mine = [
            line - pair for line in through[a] | through[b] if 6 - len(line) + len(line & pair) >= 4
        ]
        if len(mine) >= 3 and not stoppable(mine):
            found.append((a, b))
            if first_only:
                break
    return found


def wins_in_two(board, team):
    """Whether ``team`` (to move) wins within two turns by threats."""
    return can_six(board, team) or bool(double_threat_pairs(board, team, first_only=True))


def answers_that_stop(board, threats, team):
    """Every pair of open points that meets all of ``threats`` (of ``team``), those
    on ``team``'s hopeful points first: the likeliest defences."""
    first = hopeful_points(board, team)
    rank = {point: number for number, point in enumerate(first)}
    open_points = sorted(board.open_points(), key=lambda point: rank.get(point, len(rank)))
    answers = {}
    for point in sorted(set().union(*threats), key=lambda point: rank.get(point, len(rank))):
        for other in open_points:  # an answer holds at least one point of the threats
            pair = tuple(sorted((point, other)))
            if other != point and meets_all(threats, set(pair)):
                answers[pair] = None
    return list(answers)


def wins_in_three_with(board, team, pair):
    """Whether ``team``'s ``pair`` is the first turn of a win in three turns or fewer:
    a win in two, or threats (and no six for the other team) such that every answer
    meeting them all leaves ``team`` a win in two."""
    trial = board.after(pair, team)
    if can_six(trial, 1 - team):
        return False
    threats = trial.threats(team)
    if not threats:
        return False
    if not stoppable(threats):
        return True
    return all(
        wins_in_two(trial.after(answer, 1 - team), team)
        for answer in answers_that_stop(trial, threats, team)
    )


def wins_in_four_with(board, team, pair):
    """As :func:`wins_in_three_with`, one turn longer: threats after which every
    answer meeting them all leaves ``team`` a win within three turns."""
    trial = board.after(pair, team)
    threats = trial.threats(team)
    if can_six(trial, 1 - team) or not threats:
        return False
    return all(
        wins_within(trial.after(answer, 1 - team), team, 3)
        for answer in answers_that_stop(trial, threats, team)
    )


def threatening_pairs(board, team):
    """Every pair of ``team`` that makes a threat: both points in one window holding
    two of its stones or more and nothing else, or one in a window holding three (the
    other anywhere). Pairs on hopeful points come first."""
    hopeful = hopeful_points(board, team)
    pairs = {}
    for points in board.lines(team, 2):
        for pair in combinations(sorted(points), 2):
            pairs[pair] = None
    for points in board.lines(team, 3):
        for point in points:
            for other in hopeful + board.open_points():
                if other != point:
                    pairs[tuple(sorted((point, other)))] = None
    return list(pairs)


def three_turn_wins(board, team, first_only=False):
    """The pairs of ``team`` that win in three turns or fewer by threats (a pair that
    makes no threat leaves the other team free to do anything)."""
    found = []
    for pair in threatening_pairs(board, team):
        if wins_in_three_with(board, team, pair):
            found.append(pair)
            if first_only:
                break
    return found


def wins_within(board, team, turns):
    """Whether ``team`` (to move) wins within ``turns`` (1 to 3) turns by threats."""
    if can_six(board, team) or turns == 1:
        return can_six(board, team)
    if wins_in_two(board, team) or turns == 2:
        return wins_in_two(board, team)
    return bool(three_turn_wins(board, team, first_only=True))


def turn_points(board, moves):
    return [board.number(move.to) for move in moves]


# -- positions ---------------------------------------------------------------------------------


def planted(rng, lines, size=10, name="connect6", extra=6):
    """A game with Black to play two stones, where ``lines[team]`` is (how many random
    windows, how many of the team's stones in each), among scattered stones (Black has
    ``extra`` at least); None when the stones end the game on the way."""
    stones = {}
    for team, (count, least) in enumerate(lines):
        for _ in range(count):
            window = rng.choice(windows(size))
            for point in rng.sample(window, least):
                stones.setdefault(point, team)
    black = [point for point, team in stones.items() if team == 0]
    white = [point for point, team in stones.items() if team == 1]
    return game_with(rng, name, size, black, white, extra)


def game_with(rng, name, size, black, white, extra=0, avoid=()):
    """A game with ``black`` and ``white`` stones (point numbers) on the board, more
    scattered (not on ``avoid``) so that Black has ``extra`` at least and is to play
    two; None when the stones end the game on the way."""
    taken = set(black) | set(white) | set(avoid)
    free = [point for point in range(size * size) if point not in taken]
    rng.shuffle(free)
    black, white = list(black), list(white)
    rng.shuffle(black)
    rng.shuffle(white)
    while len(black) < extra or len(black) % 2 == 0 or len(white) != len(black) + 1:
        (black if len(white) >= len(black) + 1 else white).append(free.pop())
    order = [black.pop(0)]
    while white:
        order += [white.pop(0), white.pop(0)]
        if black:
            order += [black.pop(0), black.pop(0)]
    game = new_game(name, size=size)
    try:
        for point in order:
            game.play(Square(point % size, point // size))
    except IllegalMove:  # a six on the way, or a Game of 6 cell colored before its dot
        return None
    if game.result is not None or game.to_move != 0 or game.stones_left != 2:
        return None
    return game


def planted_positions(count, seed, lines, keep, name="connect6", size=10, extra=6):
    """``count`` planted games (see :func:`planted`) whose board ``keep`` accepts."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        game = planted(rng, lines, size, name, extra)
        if game is not None and keep(Board.of(game)):
            found.append(game)
    return found
