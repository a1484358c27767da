"""The computer player of Six: takes wins, stops the other team's, and reads ahead
for double threats, the two winning cells that one move cannot both fill.

Every level first wins at once when it can (:func:`winning_move`). Then each thinks
until its time is up:

* ``hard`` searches (:class:`~sixtui.ai.six_search.SixSearch`) deeper and deeper,
  and past the depth along threats (a winning cell made, the other team forced to
  fill it) until one side has a double threat (in the second round, only a few). In
  the second round its moves lift several pieces (between two players at most
  :data:`HARD_LIFTS_PER_PIECE` moves a piece), not only the one that looks idlest. In
  partner Six its first-round search also tries every block of a shape of the other
  team's two pieces short, so that it takes no threats for a forced win that such a
  block stops.
* ``normal`` searches :data:`NORMAL_DEPTH` plies over a few moves a position, then
  over more and more of them, and a ply deeper only once it has searched its every
  move (:meth:`~sixtui.ai.six_search.SixSearch.widening_scores`), and past the depth
  only :data:`NORMAL_THREAT_PLIES` plies of threats: it makes and stops the double
  threats one move away and sees a threat's answer, as a good club player does, but
  is outplayed in longer fights.
* ``easy`` blocks a winning cell of the other team and reads the same way from one
  ply, but some of the time (:data:`EASY_HURRIES`) plays one of its few best-ranked
  moves all the same, and otherwise any move that looks best, give or take a little
  (:data:`EASY_MARGIN`): it makes and misses double threats as a beginner does.

Each level thinks, never waits: the time a turn takes is the table's to pace, and a
worker kept idle is one the server's other players wait for. A move thus depends on
how far the machine lets a level read; given a count of positions (``max_nodes``)
instead of a time, the same seed gives the same move on any machine. Among moves of
nearly equal worth the ``rng`` chooses, so that games differ.

>>> import math, random
>>> from sixtui.rules import new_game
>>> g = new_game("six", ruleset="romanian")
>>> [str(m) for m in choose_six_move(g, "normal", math.inf, random.Random(0), max_nodes=400)]
['0,-1']
"""

from __future__ import annotations

import random
import time

from sixtui.ai.six_search import THREAT_WIN, WIN, SixSearch, pick
from sixtui.ai.six_shapes import ShapeBoard
from sixtui.rules import Game, Move
from sixtui.rules.hexes import NEIGHBOUR_STEPS, pack

HARD_DEPTH = 64  # deeper than any budget allows: "hard" stops at its deadline
HARD_WIDTH = 7
HARD_THREAT_PLIES = 8
# In the second round a lift makes threats almost anywhere: read past the depth, they
# would leave hard a ply or two where it needs its depth for captures.
HARD_SECOND_ROUND_THREAT_PLIES = 2
# In the second round each piece may go to many cells, and the moves' worth read from the
# cells alone is a rough guide: the answers to hard's own moves get a wider look, the move
# that refutes one is too often beyond the few best ranked.
HARD_SECOND_ROUND_REPLY_WIDTH = 2 * HARD_WIDTH
# The second-round moves hard searches in a position lift each piece at most this many
# times: ranked by the cells alone, the piece that looks idlest would fill every place.
HARD_LIFTS_PER_PIECE = 4
NORMAL_DEPTH = 2
NORMAL_WIDTH = 6
NORMAL_THREAT_PLIES = 2  # a threat and its block, past the depth
NEAR_EQUAL = 4  # moves this close in worth to the best are a matter of taste: the seed picks
EASY_WIDTH = 6
EASY_CHOICES = 4  # a hurried easy move is one of this many best-ranked moves
EASY_HURRIES = 0.4  # how often easy plays without looking ahead
EASY_MARGIN = 40  # easy's careful moves: any within this much of the best it sees


def hard_lifts_per_piece(game: Game) -> int | None:
    """How many of the second-round moves ``hard`` searches may lift any one piece: at
    most :data:`HARD_LIFTS_PER_PIECE` between two players, no limit in partner Six, where
    over the same 54 games the limit won 42 and no limit 48."""
    return HARD_LIFTS_PER_PIECE if game.players == 2 else None  # type: ignore[attr-defined]


def hard_pre_empts(game: Game) -> bool:
    """Whether ``hard`` searches every block of the other team's shapes two pieces short
    in the first round, however it ranks: in partner Six, where it was measured; between
    two players the search stays as its games against ``normal`` were measured."""
    return game.players == 4  # type: ignore[attr-defined]


def hard_search(game: Game, deadline: float, max_nodes: int | None = None) -> SixSearch:
    """The search ``hard`` makes of the position of ``game``: its width, its threats past
    the depth and its answers to its own moves by the round, and by the count of players
    its lifts of one piece and its blocks of shapes two pieces short."""
    placing = game.in_hand(game.to_move)  # type: ignore[attr-defined]
    return SixSearch(
        game,
        deadline,
        HARD_WIDTH,
        HARD_THREAT_PLIES if placing else HARD_SECOND_ROUND_THREAT_PLIES,
        max_nodes,
        HARD_WIDTH if placing else HARD_SECOND_ROUND_REPLY_WIDTH,
        hard_lifts_per_piece(game),
        pre_empting=hard_pre_empts(game),
    )


def choose_six_move(
    game: Game,
    level: str,
    deadline: float,
    rng: random.Random,
    stats: dict[str, int] | None = None,
    max_nodes: int | None = None,
) -> list[Move]:
    """The one move that makes the current turn of a Six game, searched until
    ``deadline`` or, given ``max_nodes``, until the search has visited that many
    positions; ``stats["positions"]`` counts the positions it visited."""
    winning = winning_move(game.copy(), deadline)
    if winning is not None:
        return [winning]
    if level == "hard":
        search = hard_search(game, deadline, max_nodes)
        move, _ = search.best_move(HARD_DEPTH, rng, NEAR_EQUAL)
    elif level == "normal":
        search = SixSearch(game, deadline, NORMAL_WIDTH, NORMAL_THREAT_PLIES, max_nodes)
        move, _ = pick(search.widening_scores(NORMAL_DEPTH, NEAR_EQUAL), rng, NEAR_EQUAL)
    else:
        search = SixSearch(game, deadline, EASY_WIDTH, max_nodes=max_nodes)
        move = _easy_move(search, rng)
    if stats is not None:
        stats["positions"] = search.nodes
    return [move]


def _easy_move(search: SixSearch, rng: random.Random) -> Move:
    """A hurried move among the best-ranked some of the time, else one of the moves
    that look best as far as its time lets it read, give or take :data:`EASY_MARGIN`.

    Easy thinks for its whole time either way: hurried, it plays by its first
    impression of the moves all the same, as a beginner may."""
    hurried = rng.random() < EASY_HURRIES
    first_impression = search.candidates(EASY_CHOICES)
    scored = search.widening_scores(1, EASY_MARGIN)
    if hurried:
        return rng.choice(first_impression)
    best = scored[0][1]
    if abs(best) >= THREAT_WIN // 2:
        return scored[0][0]
    return rng.choice([move for move, score in scored if score >= best - EASY_MARGIN])


def winning_move(game: Game, deadline: float) -> Move | None:
    """A move that wins at once for the seat to move, if it finds one (``game`` is kept).

    In declaring games that is ``declare`` while the team's right to a shape stands, or
    a move completing a shape played with ``!``, kept only if the game says it won: a
    ``!`` naming no shape the team may declare wins nothing. Only the moves that can
    complete a shape (without the piece they lift), or capture (see
    :meth:`SixSearch.capture_gains`), are tried on the board.
    """
    team = game.team(game.to_move)
    declaring = game.declare  # type: ignore[attr-defined]
    board = {pack(cell): owner for cell, owner in game.layout().items()}  # type: ignore[attr-defined]
    shapes = ShapeBoard(board, game.rules.centre_may_be_opponent)  # type: ignore[attr-defined]
    completing = shapes.winning_cells(team)
    # Whether capturing the other team's piece from the middle of a ring makes a circle.
    ring_prizes = not game.rules.centre_may_be_opponent and any(  # type: ignore[attr-defined]
        owner != team and all(board.get(cell + step) == team for step in NEIGHBOUR_STEPS)
        for cell, owner in board.items()
    )
    legal = game.legal_moves()
    if legal and legal[0].to is None:
        return legal[0]  # declare: the shape on the table wins
    capturing = SixSearch(game, deadline).capture_gains(team)
    for move in legal:
        if time.perf_counter() > deadline:
            break
        # A ring's middle leaves the table only captured: only a lift that captures wins so.
        gain = capturing.get((move.origin, move.keep))  # type: ignore[arg-type]
        lifts_a_prize = gain is not None and (ring_prizes or gain >= WIN)
        if not lifts_a_prize and not _may_complete(shapes, completing, move, team):
            continue
        if declaring:
            move = Move(move.to, move.origin, move.keep, declare=True)
        game.play(move)
        won = game.result is not None and game.result.winner == team
        game.undo()
        if won:
            return move
    return None


def _may_complete(shapes: ShapeBoard, completing: set[int], move: Move, team: int) -> bool:
    """Whether ``move`` puts its piece on one of ``completing``, the winning cells of
    ``team``, and completes a shape there without the piece it lifts, if any."""
    cell = pack(move.to)  # type: ignore[arg-type]
    if cell not in completing:
        return False
    return move.origin is None or shapes.completes_without(cell, pack(move.origin), team)
