"""Computer players for every game of :mod:`sixtui.rules`.

:func:`choose_turn` picks the moves of one whole turn. It is pure: it works on
a copy of the game, does no I/O and starts no threads, so a screen may run it
in a worker process.

>>> from sixtui.rules import new_game
>>> g = new_game("connect6", size=9)
>>> for point in ["E5", "A1", "A2", "F5", "G5", "B1", "B2", "H5", "C7", "C1", "C2"]:
...     g.play(point)
>>> [str(m) for m in choose_turn(g, seed=1)]  # four in a row: it makes six
['C5', 'D5']
"""

from __future__ import annotations

import math
import random
import time

from sixtui.ai.grid import EASY_SECONDS, choose_grid_turn
from sixtui.ai.six import choose_six_move
from sixtui.rules import Game, Move

LEVELS = ("easy", "normal", "hard")
LEVEL_SECONDS = {"easy": EASY_SECONDS, "normal": 0.6, "hard": 2.0}
"""Each level's time for a turn when none is given: quick answers from the beginner and
the club player, two seconds of search from the strongest, whose lead over the club
player grows with the time between them (measured in ``docs/benchmarks.md``)."""

__all__ = ["LEVELS", "LEVEL_SECONDS", "choose_turn"]


def choose_turn(
    game: Game,
    level: str = "normal",
    seconds: float | None = None,
    seed: int | None = None,
    *,
    stats: dict[str, int] | None = None,
    positions: int | None = None,
) -> list[Move]:
    """The moves that complete the current turn for the seat to move; ``game`` is kept.

    Connect6 and Game of 6 get ``game.stones_left`` moves (fewer when the first
    one already wins), Six gets one. Every level takes a win this turn and blocks
    the other team's win next turn when it can; "easy" then plays loosely, as a
    beginner would, "normal" reads a few turns ahead, and "hard" searches as deep
    as its time allows. ``seconds`` is the time the turn may take
    (``None``: the level's :data:`LEVEL_SECONDS`); ``seed`` makes the choice
    reproducible. Given a ``stats`` dict, it sets ``stats["positions"]`` to the
    positions searched. Given ``positions``, the search stops after that many
    (stones put down on its board in Connect6 and Game of 6, positions visited in
    Six), and the time no longer counts unless ``seconds`` is given too: the same
    seed then gives the same turn on any machine, however busy.

    >>> from sixtui.rules import new_game
    >>> choose_turn(new_game("six"), level="expert")
    Traceback (most recent call last):
    ...
    ValueError: there is no level 'expert': choose easy, normal or hard
    >>> g = new_game("connect6", size=9)
    >>> g.play("E5")
    >>> turns = {tuple(map(str, choose_turn(g, "hard", seed=3, positions=2000))) for _ in "ab"}
    >>> len(turns)
    1
    """
    if level not in LEVELS:
        raise ValueError(f"there is no level {level!r}: choose easy, normal or hard")
    if game.result is not None:
        raise ValueError("the game is over: there is no turn to play")
    if positions is not None and positions < 1:
        raise ValueError(f"a turn needs at least one position to search, not {positions}")
    if seconds is None:
        seconds = LEVEL_SECONDS[level] if positions is None else math.inf
    deadline = time.perf_counter() + seconds
    rng = random.Random(seed)
    counted = {} if stats is None else stats
    counted["positions"] = 0
    if game.name == "six":
        return choose_six_move(game, level, deadline, rng, counted, max_nodes=positions)
    return choose_grid_turn(game, level, deadline, rng, counted, stones=positions)
