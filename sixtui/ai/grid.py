"""The computer player of Connect6 and Game of 6.

It reads the board as windows of six points (:mod:`sixtui.ai.line_patterns`)
and, in this order: makes six (in Game of 6, a six the game confirms, as a dot that
walls in a dot of its own line kills it; or closes a winning polygonal); plays a
win by continuous threats when it finds one (:mod:`sixtui.ai.threat_search`);
otherwise looks ahead turn by turn (:mod:`sixtui.ai.grid_search`), deepening while
its allowance lasts (:mod:`sixtui.ai.grid_allowance`), and plays the best pair of
that look among those that leave the other team no win by continuous threats. In
Game of 6 it also weighs the cells its dots enclose and the polygonals they break
(:mod:`sixtui.ai.enclosures`).

The levels differ in how far they look for threat wins, how many pairs they
weigh, and how sharply they judge them:

* ``hard`` looks for its own threat wins up to six turns, weighs thirty pairs
  with eight best points a side in the look ahead (in Connect6 also the pairs of
  its best points that build a line together with a stone of its own), and checks
  its choice for the other team's threat wins up to six turns. It also looks for wins by double
  threats alone (every threat needing both of the other team's stones), its own and
  the other team's, up to eight turns: the long wins strong programs play. Its look
  ahead counts in its last positions the turn the side to move is about to play, and
  in Connect6 takes a side to move that can make threats two stones cannot stop for
  a win.
  It deepens its look ahead until its time is spent. In Game of 6 it reads the race
  to six colored cells a turn further: what the other team colors or breaks of its
  polygonals with its next turn, and what it still colors with the turn after; it
  also reads wins by a threat of six and a closing together
  (:mod:`sixtui.ai.mixed_threats`), plays its own and spoils the other team's.
* ``normal`` does the same, Game of 6's reading of the race included, with three
  turns of threats, narrower looks, no double-threat search, no pairs built together
  beyond its best points, no turn to come in its leaves and no reading of wins by a
  threat and a closing together.
* ``easy`` looks ahead with narrow looks for its own time (at most
  :data:`EASY_SECONDS`, however long it is given) and misjudges pairs by up to a
  line of three, so it plays loosely; it makes six, and mostly stops the other
  team's six, now and then overlooking it, as a beginner would.

>>> import random, time
>>> from sixtui.rules import new_game
>>> g = new_game("connect6", size=9)
>>> [str(m) for m in choose_grid_turn(g, "normal", time.perf_counter() + 1, random.Random(0))]
['E5']
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import chain, combinations, zip_longest

from sixtui.ai.enclosures import (
    COLORED_TO_WIN,
    ENCLOSURE_WORTH,
    RACE_WORTH,
    READING_SHARE,
    EnclosureReading,
    Walls,
    colors_own_dots,
    race_pairs,
)
from sixtui.ai.grid_allowance import Allowance
from sixtui.ai.grid_search import WIN, OutOfTime, PairSearch, candidate_pairs
from sixtui.ai.line_patterns import ATTACKING, LINES, LineBoard, Valuation, point_values
from sixtui.ai.mixed_threats import MixedWin, mixed_wins, spoiled
from sixtui.ai.threat_search import ThreatSearch
from sixtui.rules import Game, IllegalMove, Move

CANDIDATE_POINTS = 10  # best points tried for a turn's last stone
EASY_POINTS = 5  # best points whose pairs easy picks from when it overlooks a threat
EASY_CHOICES = 4
EASY_OVERLOOKS = 0.35  # how often easy misses the other team's six to come
EASY_SECONDS = 0.3  # easy's time, which it thinks through when given more


@dataclass(frozen=True)
class Plan:
    """How a level searches a turn: shares are of its time, turns are threat-search depths."""

    own_turns: int  # the deepest own win by continuous threats looked for
    own_share: float  # of the time, for that
    other_turns: int  # the deepest win by threats the chosen pair must leave the other none of
    root_width: int  # best points whose pairs are weighed
    root_pairs: int  # pairs kept for the look ahead
    extra_points: int  # points of the level's own valuation (enclosures too) added
    reply_width: int  # best points whose pairs answer deeper in the look ahead
    nudge: float  # largest seeded nudge to a pair's value: a window of two is worth 6
    longest: float  # seconds of stones at most, however long it is given
    deepest: int  # turns of look ahead at most: a weaker level stops there however long it has
    guards_polygonals: bool  # Game of 6: whether it sees the other side's closings coming
    reads_enclosures: bool  # Game of 6: whether it reads the race to six colored cells a turn on
    double_threat_turns: int  # the deepest win by continuous double threats looked for
    # Game of 6: whether it reads wins by a threat of six and a closing together, and,
    # threatened by a line, weighs blocks beside the dots of the race
    mixes_threats: bool = False
    # Connect6: whether its look ahead sees a side to move that can make threats two
    # stones cannot stop as winning, wherever it meets one
    sees_double_threats: bool = False
    # The share of the side to move's best pair counted in the look ahead's leaves, for
    # the turn it is about to play
    tempo: float = 0.0
    # Connect6: what its windows are worth; Game of 6 weighs its enclosures against LINES
    valuation: Valuation = LINES
    # Connect6: best points whose pairs that build a line together with a stone of its
    # own are weighed too, at the root and in the look ahead: two stones that make a
    # three with a lone stone may each be worth little alone; a block goes with each
    # of them, as its free stone may make a line with it
    building_points: int = 0


PLANS = {
    # Easy misjudges pairs by up to a line of three: it plays loosely but sees sixes.
    # It thinks its own time through, however long it is given, as a beginner does;
    # its stones, not the clock, end its turns, so that a busy machine cannot vary them.
    # A beginner does not see a polygonal closing on it.
    "easy": Plan(2, 0.1, 2, 6, 12, 1, 4, 120.0, EASY_SECONDS, 12, False, False, 0),
    "normal": Plan(3, 0.15, 3, 8, 16, 2, 5, 8.0, math.inf, 12, True, True, 0),
    "hard": Plan(
        6,
        0.2,
        6,
        12,
        30,
        4,
        8,
        8.0,
        math.inf,
        12,
        True,
        True,
        8,
        mixes_threats=True,
        sees_double_threats=True,
        tempo=1.0,
        valuation=ATTACKING,
        building_points=24,
    ),
}
# Game of 6 plays by the same plans: hard checked only four turns deep there once, and
# its pairs left normal wins by threats in five, which normal's quiet pairs set up.
FIRST_CHECK_TURNS = 4  # turns of the other team's threat wins checked after the first look
ZONE_SHARE = 0.1  # of the time, to find the other team's threat win if left alone
ZONE_TURNS = 4  # how deep that search looks: deeper costs more than the checks it saves
# Of the time, for a win by continuous double threats, where every threat needs both of
# the other team's stones: few answers each, so such wins are found five to eight turns
# deep, where the other team's threat wins begin.
DOUBLE_THREAT_SHARE = 0.1
# Turns the check by double threats looks past the one by any threats: moving second,
# hard met wins of seven turns by a four two stones must stop each turn, that a check
# five turns deep passed, from its first pair on.
DOUBLE_THREAT_LEAD = 3
SHORT_WIN_TURNS = 3  # own wins by any threats looked for before the double threats
MIXED_SHARE = 0.1  # of the time, for each side's wins by a threat and a closing together
MIXED_LOSS = 2 * RACE_WORTH  # a pair that leaves such a win: lost a turn later
SPOILERS = 4  # points that spoil most of the other team's such wins, paired at the root
BREAKING = 0.9  # breaking the other side's polygonal counts a little less than closing one
NEIGHBOUR_WORTH = 3  # Game of 6: per own dot touching, for growing polygonals
_AROUND = tuple((dc, dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1) if dc or dr)


def choose_grid_turn(
    game: Game,
    level: str,
    deadline: float,
    rng: random.Random,
    stats: dict[str, int] | None = None,
    stones: int | None = None,
) -> list[Move]:
    """The stones that finish the current turn of a Connect6 or Game of 6 game.

    The search stops at ``deadline`` or once it has put down the level's share of
    ``stones`` stones (by default what the time left is worth, see
    :mod:`sixtui.ai.grid_allowance`), whichever comes first: a turn stopped by its
    count of stones repeats exactly for the same ``rng`` seed.
    ``stats["positions"]`` counts the stones its search put down.
    """
    work = game.copy()
    valuation = PLANS[level].valuation if work.name == "connect6" else LINES
    board = LineBoard.from_game(work, valuation)
    # The time left is read to the hundredth of a second, so that the stones allowed
    # do not hang on the microseconds spent getting here and a seed repeats its turn.
    seconds = round(deadline - time.perf_counter(), 2)
    allowance = Allowance.for_seconds(board, seconds, stones=stones, longest=PLANS[level].longest)
    try:
        return _choose(work, board, level, allowance, rng)
    finally:
        if stats is not None:
            stats["positions"] = board.played


def _choose(
    work: Game, board: LineBoard, level: str, allowance: Allowance, rng: random.Random
) -> list[Move]:
    winning = winning_turn(work, allowance.deadline)
    if winning is not None:
        return winning
    values = _point_values(work, board)
    team = work.to_move
    plan = PLANS[level]
    if work.stones_left < 2:  # type: ignore[attr-defined]
        if level == "easy":
            return _as_moves(work, board, _easy_single(board, team, values, rng), values)
        points = [(key,) for key in _single_points(board, team, values)]
        chosen = _best_safe_pair(work, board, points, plan, allowance, rng, threatened=True)
        return _as_moves(work, board, chosen, values)
    chosen = _searched_pair(work, board, plan, values, allowance, rng)
    if level == "easy" and board.threats[1 - team] and rng.random() < EASY_OVERLOOKS:
        chosen = _loose_pair(board, team, values, rng)
    return _as_moves(work, board, chosen, values)


def _searched_pair(
    work: Game,
    board: LineBoard,
    plan: Plan,
    values: dict[int, float],
    allowance: Allowance,
    rng: random.Random,
) -> tuple[int, ...]:
    """The pair the level's search prefers: a win by continuous threats when it finds
    one, else the best pair of the look ahead among those that leave the other team
    no threat win."""
    team = work.to_move
    double_threats = plan.double_threat_turns
    attack = _own_threat_win(board, team, plan, double_threats, allowance)
    # In Game of 6 the other team may answer threats by coloring its sixth cell, and
    # a pair that colors cells may kill the dots its threats stand on.
    if attack is not None and not (
        work.name == "gameof6" and _attack_fails(work, board, attack, allowance.deadline)
    ):
        return attack
    mixing = work.name == "gameof6" and plan.mixes_threats
    if mixing:
        attack = _own_mixed_win(work, board, _from_now(allowance, MIXED_SHARE))
        if attack is not None:
            return attack
    spent = plan.own_share + DOUBLE_THREAT_SHARE * bool(double_threats)
    zone = _their_threat_zone(
        board, team, min(ZONE_TURNS, plan.other_turns), double_threats, allowance, spent
    )
    pairs = _root_pairs(work, board, plan, values, zone, allowance.deadline)
    theirs: list[MixedWin] = []
    if mixing:
        mixed_deadline = _from_now(allowance, MIXED_SHARE)
        theirs = mixed_wins(board, 1 - team, _needed(work, 1 - team), mixed_deadline)
        pairs = _spoiling_pairs(pairs, theirs)
    # In Game of 6 a polygonal can win at once too, which the threat search does not see.
    threatened = zone is not None or (work.name == "gameof6" and plan.guards_polygonals)
    return _best_safe_pair(
        work, board, pairs, plan, allowance, rng, threatened, double_threats, theirs
    )


def _own_threat_win(
    board: LineBoard, team: int, plan: Plan, double_threats: int, allowance: Allowance
) -> tuple[int, ...] | None:
    """The first turn of ``team``'s win by continuous threats, if the level finds one,
    the shortest first: by any threats within :data:`SHORT_WIN_TURNS` turns, then by
    double threats alone, which reach deeper for the same time as the other team has few
    answers to each, then by any threats up to the level's depth.

    The level's own share of the time goes to the first, and as much again as
    :data:`DOUBLE_THREAT_SHARE` to the others."""
    search = ThreatSearch(board, team, allowance.part(plan.own_share))
    if not double_threats:
        return search.forced_win(plan.own_turns)
    short = search.forced_win(min(SHORT_WIN_TURNS, plan.own_turns))
    if short is not None:
        return short
    rest = allowance.part(plan.own_share + DOUBLE_THREAT_SHARE)
    found = ThreatSearch(board, team, rest, loose_tried=0).forced_win(double_threats)
    if found is not None:
        return found
    search.allowance = rest
    return search.forced_win(plan.own_turns)


def _own_mixed_win(game: Game, board: LineBoard, deadline: float) -> tuple[int, ...] | None:
    """Game of 6: the first pair that wins by a threat of six and a closing together
    (:mod:`sixtui.ai.mixed_threats`) and does not fail at once as a threat win may."""
    team = game.to_move
    for win in mixed_wins(board, team, _needed(game, team), deadline):
        if not _attack_fails(game, board, win.pair, deadline):
            return win.pair
    return None


def _from_now(allowance: Allowance, share: float) -> float:
    """The time (:func:`time.perf_counter`) ``share`` of ``allowance``'s whole from now,
    at the latest its end: a reading that must have its time whatever the searches
    before it took."""
    start = time.perf_counter()
    return min(start + share * (allowance.deadline - allowance.start), allowance.deadline)


def _needed(game: Game, team: int) -> int:
    """Game of 6: the cells ``team`` has yet to color to win."""
    return COLORED_TO_WIN - game.colored_count(team)  # type: ignore[attr-defined]


def _spoiling_pairs(pairs: list[tuple[int, ...]], theirs: list[MixedWin]) -> list[tuple[int, ...]]:
    """``pairs`` with, after the first, pairs of the points that spoil most of the
    other team's wins by a threat and a closing together (``theirs``): their own dots
    first, then the points of their threats and closings."""
    if not theirs:
        return pairs
    counted: dict[int, float] = {}
    for win in theirs:
        for key in win.points:
            counted[key] = counted.get(key, 0.0) + 1.0 + (key in win.pair)
    spoilers = sorted(counted, key=lambda key: (-counted[key], key))[:SPOILERS]
    added = [tuple(sorted(pair)) for pair in combinations(spoilers, 2)]
    added += [
        tuple(sorted((key, partner))) for key in spoilers for partner in pairs[0] if partner != key
    ]
    return list(dict.fromkeys([pairs[0], *added, *pairs]))


def _root_pairs(
    work: Game,
    board: LineBoard,
    plan: Plan,
    values: dict[int, float],
    zone: list[int] | None,
    deadline: float,
) -> list[tuple[int, ...]]:
    """The pairs the look ahead weighs: those of the best points for lines, of the
    level's own valuation and of the other team's threat zone; in Game of 6, those
    that close or break polygonals first. When the other team has a threat win if left
    alone (a ``zone``), a valuation other than :data:`LINES` shares the pairs with it:
    the steeper spoils find the pairs that stop such wins."""
    threatened = zone is not None
    zone = zone or []
    team = work.to_move
    extra = _ranked_points(values)[: plan.extra_points] + zone
    building = _building_points(work, plan)
    pairs = candidate_pairs(board, team, plan.root_width, extra, building=building)
    if work.name != "gameof6":
        if threatened and board.valuation is not LINES:
            guarding = candidate_pairs(board, team, plan.root_width, extra, LINES, building)
            return _interleaved(pairs, guarding, plan.root_pairs)
        return pairs[: plan.root_pairs]
    lines = point_values(board, team, values)
    enclosing = {key: values[key] - lines[key] for key in values}
    pairs.sort(key=lambda pair: -sum(enclosing.get(key, 0.0) for key in pair) // ENCLOSURE_WORTH)
    if plan.reads_enclosures:
        pairs = race_pairs(board, team, pairs, plan.root_pairs // 2, plan.mixes_threats)
    pairs = pairs[: plan.root_pairs]
    return _breaking_pairs(work, board, pairs, deadline) if plan.guards_polygonals else pairs


def _building_points(game: Game, plan: Plan) -> int:
    """The best points whose building pairs the level weighs in ``game``."""
    return plan.building_points if game.name == "connect6" else 0


def _interleaved(
    first: list[tuple[int, ...]], second: list[tuple[int, ...]], count: int
) -> list[tuple[int, ...]]:
    """The first ``count`` different pairs taking turns from ``first`` and ``second``.

    >>> _interleaved([(1, 2), (3, 4), (5, 6)], [(3, 4), (7, 8)], 4)
    [(1, 2), (3, 4), (7, 8), (5, 6)]
    """
    taking_turns = chain.from_iterable(zip_longest(first, second))
    return [pair for pair in dict.fromkeys(taking_turns) if pair is not None][:count]


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
    if game.name == "gameof6":
        return _six_turn(game, board, team, stones) or _closing_turn(
            game, board, team, stones, deadline
        )
    six = board.winning_stones(team, stones)
    return None if six is None else _as_moves(game, board, six, {})


def _six_turn(game: Game, board: LineBoard, team: int, stones: int) -> list[Move] | None:
    """Game of 6: dots that make six for ``team``, confirmed on the real game: a dot
    that closes a polygonal around a dot of the same line kills it, and the six with it."""
    for window in board.threats[team]:
        missing = board.empties(window)
        if len(missing) <= stones and _wins(game, board, missing, team):
            return _as_moves(game, board, missing, {})
    return None


def _closing_turn(
    game: Game, board: LineBoard, team: int, stones: int, deadline: float
) -> list[Move] | None:
    """Dots that color the sixth cell of ``team`` in Game of 6, if it finds any; a
    find of :func:`_closings` is confirmed on the real game."""
    need = COLORED_TO_WIN - game.colored_count(team)  # type: ignore[attr-defined]
    for keys in _closings(board, team, need, stones, deadline):
        if _wins(game, board, list(keys), team):
            return [Move(board.square(key)) for key in keys]
    return None


def _closings(
    board: LineBoard, team: int, need: int, stones: int, deadline: float
) -> Iterator[tuple[int, ...]]:
    """Single dots, then pairs (with ``stones`` of 2), that would color at least ``need``
    cells for ``team``, as :class:`~sixtui.ai.enclosures.Walls` counts them.

    A dot can close a polygonal only beside two of the team's dots, or beside one and
    the turn's other dot.
    """
    walls = Walls.of(board, team)
    touching = _own_neighbours(board, team)
    for key in sorted(key for key, count in touching.items() if count >= 2):
        if walls.gain((key,)) >= need:
            yield (key,)
    if stones < 2:
        return
    for pair in combinations(sorted(touching), 2):
        if time.perf_counter() > deadline:
            return
        if min(touching[pair[0]], touching[pair[1]]) < 2 and not _beside(board, *pair):
            continue
        if walls.gain(pair) >= need:
            yield pair


def _breaking_pairs(
    game: Game, board: LineBoard, pairs: list[tuple[int, ...]], deadline: float
) -> list[tuple[int, ...]]:
    """Game of 6: ``pairs`` with those that take a point of every dot or pair by which
    the other team would color its sixth cell first, and pairs of such points added
    when none of ``pairs`` does."""
    other = 1 - game.to_move
    need = COLORED_TO_WIN - game.colored_count(other)  # type: ignore[attr-defined]
    closings = list(_closings(board, other, need, 2, deadline))
    if not closings:
        return pairs
    points = sorted({key for keys in closings for key in keys})
    breaking = [pair for pair in combinations(points, 2) if _meets_all(pair, closings)]
    breaking += [(key,) for key in points if _meets_all((key,), closings)]
    chosen = [pair for pair in pairs if _meets_all(pair, closings)] or [
        tuple(sorted({*pair, partner}))
        for pair in breaking
        for partner in pairs[0]
        if len(pair) == 1 and partner != pair[0]
    ] + [pair for pair in breaking if len(pair) == 2]
    return chosen + [pair for pair in pairs if pair not in chosen]


def _meets_all(pair: tuple[int, ...], closings: list[tuple[int, ...]]) -> bool:
    return all(any(key in keys for key in pair) for keys in closings)


def _own_neighbours(board: LineBoard, team: int) -> dict[int, int]:
    """Each open point beside ``team``'s dots: how many of them it touches."""
    size, cells = board.size, board.cells
    touching: dict[int, int] = {}
    for key in board.near(1, team):
        col, row = key % size, key // size
        touching[key] = sum(
            cells[(row + dr) * size + col + dc] == team
            for dc, dr in _AROUND
            if 0 <= col + dc < size and 0 <= row + dr < size
        )
    return touching


def _beside(board: LineBoard, first: int, second: int) -> bool:
    size = board.size
    return max(abs(first % size - second % size), abs(first // size - second // size)) == 1


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
    values = point_values(board, team, board.near(2))
    if len(values) < 2:  # a crowded small board: any open point will do
        values.update((key, 0.0) for key in range(board.size**2) if board.is_empty(key))
    if game.name == "gameof6":
        _add_enclosures(game, board, team, values)
    return values


def _add_enclosures(game: Game, board: LineBoard, team: int, values: dict[int, float]) -> None:
    """Game of 6: dots beside the team's own grow polygonals, a dot that closes one is
    worth each cell it colors, and one on a cell where the other team would close one
    is worth nearly as much: it breaks that polygonal."""
    size, cells = board.size, board.cells
    for key in values:
        square = board.square(key)
        touching = sum(
            cells[key + dr * size + dc] == team
            for dc, dr in _AROUND
            if 0 <= square.col + dc < size and 0 <= square.row + dr < size
        )
        values[key] += NEIGHBOUR_WORTH * touching
    for side, worth in ((team, ENCLOSURE_WORTH), (1 - team, BREAKING * ENCLOSURE_WORTH)):
        walls = Walls.of(board, side)
        for key in board.near(1, side):
            gained = walls.gain((key,))
            if gained > 0:
                values[key] = values.get(key, 0.0) + worth * gained


def enclosure_bonus(
    board: LineBoard, team: int, pairs: list[tuple[int, ...]]
) -> dict[tuple[int, ...], float]:
    """Game of 6: what each pair's dots color together, at :data:`ENCLOSURE_WORTH` a
    cell, for the pairs that color any (two dots may close what one does not)."""
    walls = Walls.of(board, team)
    bonus: dict[tuple[int, ...], float] = {}
    for pair in pairs:
        gained = walls.gain(pair)
        if gained > 0:
            bonus[pair] = ENCLOSURE_WORTH * gained
    return bonus


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


def _their_threat_zone(
    board: LineBoard,
    team: int,
    turns: int,
    double_threats: int,
    allowance: Allowance,
    spent: float,
) -> list[int] | None:
    """When the other team would win by continuous threats within ``turns`` turns, or
    by double threats within ``double_threats`` turns, if left alone (or the allowance
    ends before the first is known), the points where it makes its threats and its
    first turn of that win: where it must be met. ``None`` when it has no such win:
    then no pair of ours can give it one, as our stones only take room from its lines.

    The searches use the allowance from its ``spent`` share on."""
    other = 1 - team
    their_win = None
    if double_threats:
        search = allowance.part(spent + DOUBLE_THREAT_SHARE)
        their_win = ThreatSearch(board, other, search, loose_tried=0).forced_win(double_threats)
    if their_win is None:
        search = allowance.part(spent + DOUBLE_THREAT_SHARE * bool(double_threats) + ZONE_SHARE)
        their_win = ThreatSearch(board, other, search).forced_win(turns)
        if their_win is None and not search.over():
            return None
    return sorted(set(their_win or ()) | board.chance_cells(other, 3))


def _best_safe_pair(
    game: Game,
    board: LineBoard,
    pairs: list[tuple[int, ...]],
    plan: Plan,
    allowance: Allowance,
    rng: random.Random,
    threatened: bool,
    double_threats: int = 0,
    their_mixed: list[MixedWin] | None = None,
) -> tuple[int, ...]:
    """The best of ``pairs`` by a look ahead deepened turn by turn while ``allowance``
    lasts, among those that leave the other team no threat win.

    After each look the best pairs are checked for such a win (when the other team
    has one if left alone: ``threatened``), down the ranking until one has none,
    a turn deeper after each look up to ``plan.other_turns``; pairs found to leave
    one are dropped from the next looks; each check also looks for a win by double
    threats :data:`DOUBLE_THREAT_LEAD` turns deeper, up to ``double_threats`` turns.
    A look that finds every pair lost keeps the choice of the one before, which loses
    latest or not at all; with none before, it takes the pair whose loss was found
    latest, the hardest for the other team to see.
    """
    team = game.to_move
    widths = (plan.root_width, plan.reply_width)
    tempo = plan.tempo
    # The leaves' tempo widens the gaps between pairs' values as much again: the nudge
    # follows, or the seed would no longer choose among pairs of near-equal worth.
    search = PairSearch(
        board,
        widths,
        allowance,
        rng,
        plan.nudge * (1 + tempo),
        plan.sees_double_threats and game.name == "connect6",
        tempo,
        _building_points(game, plan),
    )
    if game.name == "gameof6" and plan.reads_enclosures:
        colored = (game.colored_count(0), game.colored_count(1))  # type: ignore[attr-defined]
        reading = EnclosureReading(board, team, colored)
        search.bonus = reading.bonus(pairs, allowance.part(READING_SHARE).deadline)
        if their_mixed:
            _count_mixed_losses(game, board, pairs, their_mixed, search.bonus, allowance)
    elif game.name == "gameof6":
        search.bonus = enclosure_bonus(board, team, pairs)
    checks = _SafetyChecks(game, board, allowance, double_threats)
    choice = pairs[0]
    found_safe = False
    for depth in range(1, plan.deepest + 1):
        hopeful = [pair for pair in pairs if pair not in checks.unsafe] or pairs
        try:
            ranked = search.rank(team, hopeful, depth)
        except OutOfTime:
            break
        best = ranked[0][0]
        if best <= -WIN // 2:
            break
        lost = {pair for value, pair in ranked if value <= -WIN // 2}
        # The pairs just weighed, best first, then those left out as unsafe, once each.
        looked = [pair for _, pair in ranked]
        left_out = checks.unsafe.keys() - set(looked)
        pairs = looked + [pair for pair in pairs if pair in left_out]
        turns = min(plan.other_turns, depth + FIRST_CHECK_TURNS - 1)
        if threatened and found_safe and game.name == "connect6":
            try:
                choice = _as_safe_as(checks, pairs, choice)
            except OutOfTime:
                break
        try:
            safe = checks.first_safe(pairs, turns) if threatened else pairs[0]
        except OutOfTime:
            # None checked yet: in Connect6 the look's best not found to lose; Game of 6
            # keeps its first pair, which breaks the other team's polygonals when any can,
            # unless the look found it lost.
            if depth == 1 and (game.name != "gameof6" or choice in lost):
                choice = next((pair for pair in pairs if pair not in checks.unsafe), choice)
            break  # the last checked choice stands
        if safe is not None:
            choice, found_safe = safe, True
        elif not found_safe and game.name != "gameof6":  # Game of 6 keeps its breaking pair
            choice = checks.latest_loss(pairs)
        if best >= WIN // 2 and choice == pairs[0]:
            break  # a sure win: deeper looks say no more
    return checks.safest(pairs, choice)


def _as_safe_as(
    checks: _SafetyChecks, pairs: list[tuple[int, ...]], choice: tuple[int, ...]
) -> tuple[int, ...]:
    """The first of ``pairs`` that leaves the other team no win as deep as ``choice`` was
    checked: a new look's best takes the place of the choice before as soon as it is as
    safe, or a check a turn deeper, which may take the rest of the time, would leave
    the choice of a shallower look standing. :class:`OutOfTime` when time runs out."""
    return checks.first_safe(pairs, checks.checked[choice]) or choice


def _count_mixed_losses(
    game: Game,
    board: LineBoard,
    pairs: list[tuple[int, ...]],
    theirs: list[MixedWin],
    bonus: dict[tuple[int, ...], float],
    allowance: Allowance,
) -> None:
    """Game of 6: takes :data:`MIXED_LOSS` off the ``bonus`` of each of ``pairs`` that
    leaves the other team one of ``theirs``, its wins by a threat and a closing
    together: at once those that take no point of one of them; then, in order for
    :data:`MIXED_SHARE` of ``allowance``, those of the rest that fail to spoil one,
    each win read again after the pair."""
    other = 1 - game.to_move
    need = _needed(game, other)
    touching = []
    for pair in pairs:
        if all(win.points & set(pair) for win in theirs):
            touching.append(pair)
        else:
            bonus[pair] = bonus.get(pair, 0.0) - MIXED_LOSS
    deadline = _from_now(allowance, MIXED_SHARE)
    for pair in touching:
        if time.perf_counter() > deadline:
            return
        if not all(spoiled(board, other, win, need, pair) for win in theirs):
            bonus[pair] = bonus.get(pair, 0.0) - MIXED_LOSS


class _SafetyChecks:
    """What is known of the pairs of one turn: those that leave the other team a win
    (by threats, or in Game of 6 by coloring its sixth cell), and how deep the others
    were found to leave none; each pair's threat searches keep what they solved."""

    def __init__(
        self, game: Game, board: LineBoard, allowance: Allowance, double_threats: int = 0
    ) -> None:
        self.game = game
        self.board = board
        self.allowance = allowance
        self.double_threats = double_threats
        self.unsafe: dict[tuple[int, ...], int] = {}  # pair → turns of the win it leaves
        self.checked: dict[tuple[int, ...], int] = {}  # pair → turns it leaves no win in
        self.searches: dict[tuple[int, ...], tuple[ThreatSearch, ThreatSearch]] = {}

    def first_safe(self, pairs: list[tuple[int, ...]], turns: int) -> tuple[int, ...] | None:
        """The first of ``pairs`` that leaves the other team no win within ``turns``
        turns (nor by double threats within :data:`DOUBLE_THREAT_LEAD` more, up to
        :attr:`double_threats`), or ``None``;
        :class:`OutOfTime` when the allowance ends first."""
        for pair in pairs:
            if self.checked.get(pair, 0) >= turns:
                return pair
            if pair in self.unsafe:
                continue
            verdict = _leaves_a_win(
                self.game, self.board, pair, turns, *self._searches(pair, turns)
            )
            if verdict is None:
                raise OutOfTime
            if verdict:
                self.unsafe[pair] = verdict
            else:
                self.checked[pair] = turns
                return pair
        return None

    def safest(self, pairs: list[tuple[int, ...]], choice: tuple[int, ...]) -> tuple[int, ...]:
        """``choice``, unless a deeper check, cut short by the time, found it to leave a
        win: then, of ``pairs`` found to leave none, the one checked deepest (the first
        among equals), when there is one."""
        if choice not in self.unsafe:
            return choice
        safe = [pair for pair in pairs if pair in self.checked and pair not in self.unsafe]
        return max(safe, key=self.checked.__getitem__, default=choice)

    def latest_loss(self, pairs: list[tuple[int, ...]]) -> tuple[int, ...]:
        """Of ``pairs``, found to lose, the one leaving the longest win (the first of
        those): the one the other team is likeliest to miss."""
        return max(pairs, key=lambda pair: self.unsafe.get(pair, 0))

    def _searches(
        self, pair: tuple[int, ...], turns: int
    ) -> tuple[ThreatSearch, ThreatSearch | None, int]:
        """The other team's threat searches after ``pair``, by any threats and by
        double threats alone, and how deep the second looks when the first looks
        ``turns`` deep."""
        if pair not in self.searches:
            other = 1 - self.game.to_move
            self.searches[pair] = (
                ThreatSearch(self.board, other, self.allowance),
                ThreatSearch(self.board, other, self.allowance, loose_tried=0),
            )
        their_search, double_search = self.searches[pair]
        if not self.double_threats:
            return their_search, None, 0
        return their_search, double_search, min(self.double_threats, turns + DOUBLE_THREAT_LEAD)


def _leaves_a_win(
    game: Game,
    board: LineBoard,
    pair: tuple[int, ...],
    turns: int,
    their_search: ThreatSearch,
    double_search: ThreatSearch | None = None,
    double_turns: int = 0,
) -> int | None:
    """The turns of the other team's win after ``pair``, 0 when it has none: by double
    threats within ``double_turns``, found by ``double_search``, or by threats within
    ``turns`` turns, found by ``their_search`` (each keeps what it solved for the next,
    deeper look), or, in Game of 6, by coloring its sixth cell at once (1); ``None`` if
    time ran out.

    The double threats go first: against a side that attacks, most pairs lose to them,
    and the search by any threats, trying pairs that one stone stops, costs several
    times as much to find no win; the checks then reach the few safe pairs in time."""
    team = game.to_move
    for key in pair:
        board.play(key, team)
    found = double_search if double_search and double_search.forced_win(double_turns) else None
    if found is None and their_search.forced_win(turns) is not None:
        found = their_search
    for key in reversed(pair):
        board.undo(key)
    allowance = their_search.allowance
    if allowance.over():
        return None
    if found is not None:
        return found.win_turns
    closing = game.name == "gameof6" and _gives_a_closing(game, board, pair, allowance.deadline)
    return None if allowance.over() else int(closing)


def _attack_fails(game: Game, board: LineBoard, pair: tuple[int, ...], deadline: float) -> bool:
    """Game of 6: whether a win by threats begun with ``pair`` fails at once, as the line
    board cannot see: the pair colors a cell holding one of its team's dots, or leaves
    the other team its sixth colored cell."""
    return colors_own_dots(board, game.to_move, pair) or _gives_a_closing(
        game, board, pair, deadline
    )


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


def _easy_single(
    board: LineBoard, team: int, values: dict[int, float], rng: random.Random
) -> list[int]:
    """A turn's last stone for easy: the stone that stops the other team's six unless
    it overlooks it, else one of its best few points."""
    blocks = _single_points(board, team, values)
    if _lone_blocks(board, team) and rng.random() >= EASY_OVERLOOKS:
        return blocks[:1]
    return [rng.choice(_ranked_points(values)[:EASY_CHOICES])]


def _loose_pair(
    board: LineBoard, team: int, values: dict[int, float], rng: random.Random
) -> tuple[int, ...]:
    """One of the few best-scored pairs of the best points, blind to what the other
    team threatens: easy's oversight."""
    points = _ranked_points(values)[:EASY_POINTS]
    pairs = [tuple(pair) for pair in combinations(points, 2)] or [tuple(points)]
    pairs.sort(key=lambda pair: -_pair_score(board, team, pair))
    return rng.choice(pairs[:EASY_CHOICES])


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
