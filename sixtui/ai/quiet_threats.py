"""Quiet pairs that threaten a win by continuous threats: the attacks of a strong player.

A pair that makes no threat leaves the other team its whole turn, yet it can still
force the game: when, moving again, the attacker would win by continuous threats
(:mod:`sixtui.ai.threat_search`), the other team must spend its turn on that win
or lose to it. Such a pair *threatens a threat win*, and strong programs string
them until the other team cannot meet them all: the usual Connect6 win begins
with two or three quiet turns that build several lines at once, which a search
ranking pairs by the lines they add does not find, as the value of a cluster of
stones is in the threats it makes possible, not in its windows.

The pairs tried are those that add most to the attacker's own lines among the
pairs of open points sharing a window, near its stones, besides the ones the
caller weighs anyway. A pair *wins* when the other team has no threat win of its
own after it, and every answer of the other team among the pairs of its best
points in the zone of that win (the open points of the attacker's windows of two
stones or more, where its threats are made, and of its own, where it would
threaten back) still leaves the attacker a threat win. Other answers cannot stop
a win by threats made in those windows; answers that are not tried there (pairs
beyond the best points) may, so a win found is a
strong attack rather than a proof.

>>> from sixtui.ai.line_patterns import LineBoard
>>> from sixtui.ai.grid_allowance import Allowance
>>> board = LineBoard(13)
>>> for point in ["D4", "E4", "D6", "E6"]:
...     board.play(board.key(point), 0)
>>> allowance = Allowance.for_seconds(board, 60, stones=200_000)
>>> found = quiet_threats(board, 0, allowance, turns=2)
>>> [str(board.square(key)) for key in found.winning]  # three lines of three
['E5', 'F6']
>>> found.threatening[found.winning]  # moving again, Black would make a double threat
2
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import combinations

from sixtui.ai.grid_allowance import Allowance
from sixtui.ai.grid_search import _shared_windows
from sixtui.ai.line_patterns import BUILD, STOPS_ALL_HOPE, LineBoard, point_values
from sixtui.ai.threat_search import ThreatSearch

QUIET_TRIED = 40  # building pairs tried besides the caller's
ANSWER_POINTS = 8  # the other team's best points in the zone, whose pairs answer


@dataclass
class QuietThreats:
    """What the attacker's quiet pairs threaten."""

    threatening: dict[tuple[int, ...], int] = field(default_factory=dict)
    """Each pair that threatens a threat win: the turns of that win, moving again."""
    winning: tuple[int, ...] | None = None
    """A pair whose threat win no answer tried stops, if one was found."""


def quiet_threats(
    board: LineBoard,
    attacker: int,
    allowance: Allowance,
    turns: int,
    pairs: Iterable[tuple[int, ...]] = (),
) -> QuietThreats:
    """The quiet pairs of ``attacker`` (to move, not threatened) that threaten a win by
    continuous threats within ``turns`` turns, of ``pairs`` and of its best building
    pairs, and the first that wins whatever the other team answers in the win's zone;
    it stops at the first win, or when ``allowance`` is over."""
    found = QuietThreats()
    if board.threats[1 - attacker] or board.threats[attacker]:
        return found  # the turn is not quiet: the threat searches own it
    search = ThreatSearch(board, attacker, allowance)
    for pair in dict.fromkeys([*building_pairs(board, attacker), *pairs]):
        if allowance.over():
            break
        if len(pair) < 2 or not all(board.is_empty(key) for key in pair):
            continue
        win_turns = _threatened_win(board, attacker, pair, search, turns)
        if win_turns is None:
            continue
        found.threatening[pair] = win_turns
        if _no_answer_stops(board, attacker, pair, search, win_turns):
            found.winning = pair
            break
    return found


def building_pairs(board: LineBoard, team: int, count: int = QUIET_TRIED) -> list[tuple[int, ...]]:
    """The ``count`` pairs of open points near ``team``'s stones, sharing a window, that
    add most to its clean windows, best first (then the lowest pair)."""
    near = list(board.near(2, team))
    shared = _shared_windows(board.size)
    values = {key: _build_value(board, team, key) for key in near}
    scored = []
    for first, second in combinations(near, 2):
        if second in shared[first]:
            scored.append((values[first] + values[second], (first, second)))
    scored.sort(key=lambda item: (-item[0], item[1]))
    return [pair for _, pair in scored[:count]]


def _build_value(board: LineBoard, team: int, key: int) -> int:
    """What a stone of ``team`` on ``key`` adds to its clean windows, blocks aside."""
    mine, theirs, blocked = board.counts[team], board.counts[1 - team], board.blocked
    return sum(
        BUILD[mine[window]]
        for window in board.geometry.through[key]
        if not theirs[window] and not blocked[window]
    )


def _threatened_win(
    board: LineBoard, attacker: int, pair: tuple[int, ...], search: ThreatSearch, turns: int
) -> int | None:
    """The turns of the threat win ``attacker`` would have, moving again after ``pair``,
    if the pair makes no threat and it has one within ``turns``."""
    for key in pair:
        board.play(key, attacker)
    try:
        if board.threats[attacker] or search.forced_win(turns) is None:
            return None
        return search.win_turns
    finally:
        for key in reversed(pair):
            board.undo(key)


def _no_answer_stops(
    board: LineBoard, attacker: int, pair: tuple[int, ...], search: ThreatSearch, turns: int
) -> bool:
    """Whether, after ``pair``, every answer tried leaves ``attacker`` a threat win within
    ``turns`` turns (see the module's docstring); ``False`` if the allowance ends first."""
    defender = 1 - attacker
    for key in pair:
        board.play(key, attacker)
    try:
        # A win of the other team's own by threats comes first, even one a turn longer:
        # it moves first.
        if ThreatSearch(board, defender, search.allowance).forced_win(turns + 1) is not None:
            return False
        for answer in zone_answers(board, attacker):
            for key in answer:
                board.play(key, defender)
            try:
                stopped = (
                    board.stones_to_stop(defender) >= STOPS_ALL_HOPE
                    or search.forced_win(turns) is None
                )
            finally:
                for key in reversed(answer):
                    board.undo(key)
            if stopped:
                return False
        return not search.allowance.over()
    finally:
        for key in reversed(pair):
            board.undo(key)


def zone_answers(board: LineBoard, attacker: int) -> list[tuple[int, ...]]:
    """The other team's pairs of its :data:`ANSWER_POINTS` best points among the open
    points of both teams' clean windows of two stones or more: where the attacker's
    threats are made, and where the other team's own would stop them."""
    defender = 1 - attacker
    zone = board.chance_cells(attacker) | board.chance_cells(defender)
    values = point_values(board, defender, zone)
    best = sorted(zone, key=lambda key: (-values[key], key))[:ANSWER_POINTS]
    return list(combinations(sorted(best), 2))
