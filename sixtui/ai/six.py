"""The computer player of Six: takes wins, stops the other team's, and reads ahead
for double threats, the two winning cells that one move cannot both fill.

Every level first wins at once when it can (:func:`winning_move`). Then:

* ``hard`` searches (:class:`~sixtui.ai.six_search.SixSearch`) deeper and deeper
  until its budget is spent: the whole default second, unless the game's end comes
  within its reach first.
* ``normal`` searches two plies, enough to make a double threat and to avoid a
  move after which the other team makes one; it stops there, after a few hundredths
  of a second in the first round and a few tenths at most in the second.
* ``easy`` blocks a winning cell of the other team, then plays one of its few
  best-ranked moves at random, so that it makes a double threat only some of the
  time, and only half the time checks that the move leaves the other team no
  winning cell; a few hundredths of a second.

Each honours the ``deadline`` it is given. The same ``rng`` seed gives the same move.

>>> import random, time
>>> from sixtui.rules import new_game
>>> g = new_game("six", ruleset="romanian")
>>> [str(m) for m in choose_six_move(g, "normal", time.perf_counter() + 1, random.Random(0))]
['-1,1']
"""

from __future__ import annotations

import random
import time

from sixtui.ai.six_search import THREAT_WIN, WIN, SixSearch, Timeout
from sixtui.ai.six_shapes import ShapeBoard
from sixtui.rules import Game, Move
from sixtui.rules.hexes import NEIGHBOUR_STEPS, pack

HARD_DEPTH = 12  # deeper than any second allows: "hard" stops at its deadline
HARD_WIDTH = 7
NORMAL_DEPTH = 2
NORMAL_WIDTH = 8
EASY_CHOICES = 4  # easy picks among this many of its best-ranked moves
EASY_LOOKS_AHEAD = 0.5  # how often easy checks a move against the other team's reply


def choose_six_move(
    game: Game,
    level: str,
    deadline: float,
    rng: random.Random,
    stats: dict[str, int] | None = None,
) -> list[Move]:
    """The one move that makes the current turn of a Six game;
    ``stats["positions"]`` counts the positions its search visited."""
    winning = winning_move(game.copy(), deadline)
    if winning is not None:
        return [winning]
    width = {"hard": HARD_WIDTH, "normal": NORMAL_WIDTH}.get(level, EASY_CHOICES)
    search = SixSearch(game, deadline, width)
    if level == "hard":
        move, _ = search.best_move(HARD_DEPTH)
    elif level == "normal":
        move, _ = search.best_move(NORMAL_DEPTH)
    else:
        move = _easy_move(search, rng)
    if stats is not None:
        stats["positions"] = search.nodes
    return [move]


def _easy_move(search: SixSearch, rng: random.Random) -> Move:
    """One of the few best-ranked moves at random, checked against the other team's
    winning cells only some of the time, as a hurried player would."""
    choices = search.candidates(EASY_CHOICES)
    rng.shuffle(choices)
    if rng.random() >= EASY_LOOKS_AHEAD:
        return choices[0]
    try:
        scored = search.scores(1)
    except Timeout:
        return choices[0]
    safe = [move for move, score in scored if score > -THREAT_WIN]
    return next((move for move in choices if move in safe), choices[0])


def winning_move(game: Game, deadline: float) -> Move | None:
    """A move that wins at once for the seat to move, if it finds one (``game`` is kept).

    In declaring games that is ``declare`` while the team's right to a shape stands, or
    a move completing a shape played with ``!``, kept only if the game says it won: a
    ``!`` naming no shape the team may declare wins nothing. Only the moves that can
    complete a shape, or capture (see :meth:`SixSearch.capture_gains`), are tried on
    the board.
    """
    team = game.team(game.to_move)
    declaring = game.declare  # type: ignore[attr-defined]
    board = {pack(cell): owner for cell, owner in game.layout().items()}  # type: ignore[attr-defined]
    completing = ShapeBoard(board, game.rules.centre_may_be_opponent).winning_cells(team)  # type: ignore[attr-defined]
    # Whether capturing the other team's piece from the middle of a ring makes a circle.
    ring_prizes = not game.rules.centre_may_be_opponent and any(  # type: ignore[attr-defined]
        owner != team and all(board.get(cell + step) == team for step in NEIGHBOUR_STEPS)
        for cell, owner in board.items()
    )
    legal = game.legal_moves()
    if legal and legal[0].to is None:
        return legal[0]  # declare: the shape on the table wins
    capturing = SixSearch(game, deadline).capture_gains(legal, team) if legal else {}
    for move in legal:
        if time.perf_counter() > deadline:
            break
        lifts_a_prize = move.origin is not None and (
            ring_prizes or capturing.get((pack(move.origin), move.keep), 0) >= WIN
        )
        if not lifts_a_prize and pack(move.to) not in completing:  # type: ignore[arg-type]
            continue
        if declaring:
            move = Move(move.to, move.origin, move.keep, declare=True)
        game.play(move)
        won = game.result is not None and game.result.winner == team
        game.undo()
        if won:
            return move
    return None
