"""Monte Carlo tree search for Six, with playouts that take wins and block.

The tree grows over the moves :meth:`SixSearch.candidates` ranks best (``width`` of
each position), chosen by UCT; each new leaf is played out ``playout_plies`` moves:
a win when the mover has one, a block when it faces one, else the best of a few legal
moves drawn at random by what they do to the shapes. A playout that does not end is
scored by the leaf's worth (:meth:`SixSearch.evaluate`) through a logistic curve.

>>> import random, time
>>> from sixtui.rules import new_game
>>> g = new_game("six")
>>> for move in "0,0 0,1 1,0 1,1 2,0 2,1 3,0 3,1 4,0 4,1".split():
...     g.play(move)  # five in a row each, black to move
>>> str(SixMonteCarlo(g, time.perf_counter() + 0.3, random.Random(1)).best_move())
'-1,0'
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

from sixtui.ai.six_search import SixSearch
from sixtui.rules import Game, Move
from sixtui.rules.hexes import pack

EXPLORATION = 0.7  # UCT's weight of the less visited moves; scores run from 0 to 1
WORTH_SCALE = 150.0  # a leaf this much better for a team wins its playout about 3 times in 4
DRAWN_IN_PLAYOUT = 6  # legal moves a playout looks at when nothing is urgent


@dataclass(eq=False)
class _Node:
    """A position of the tree, reached by ``move`` of ``team``."""

    move: Move | None
    team: int
    untried: list[Move]
    children: list[_Node] = field(default_factory=list)
    visits: int = 0
    score: float = 0.0  # of ``team``, summed over the playouts through here

    def pick(self) -> _Node:
        """The child UCT tries next."""
        spread = EXPLORATION * math.sqrt(math.log(self.visits))
        return max(
            self.children,
            key=lambda child: child.score / child.visits + spread / math.sqrt(child.visits),
        )


class SixMonteCarlo:
    """Monte Carlo tree search of one Six position (on a copy of ``game``) until
    ``deadline``."""

    def __init__(
        self,
        game: Game,
        deadline: float,
        rng: random.Random,
        width: int = 8,
        playout_plies: int = 16,
    ) -> None:
        self.search = SixSearch(game, deadline, width)
        self.game = self.search.game
        self.deadline = deadline
        self.rng = rng
        self.width = width
        self.playout_plies = playout_plies
        self.playouts = 0

    def best_move(self) -> Move:
        """The most visited move of the root once the time is up."""
        game = self.game
        root = _Node(None, 1 - game.team(game.to_move), self.search.candidates(self.width))
        while time.perf_counter() < self.deadline:
            self._grow(root)
        if not root.children:
            return root.untried[0]
        return max(root.children, key=lambda child: child.visits).move  # type: ignore[return-value]

    def _grow(self, root: _Node) -> None:
        """One descent, one new leaf, one playout, and its score carried back up."""
        search, game = self.search, self.game
        path = [root]
        node = root
        while not node.untried and node.children:
            node = node.pick()
            search._play(node.move, node.team)  # type: ignore[arg-type]
            path.append(node)
        if node.untried and game.result is None:
            move = node.untried.pop(0)
            team = game.team(game.to_move)
            search._play(move, team)
            untried = search.candidates(self.width) if game.result is None else []
            child = _Node(move, team, untried)
            node.children.append(child)
            path.append(child)
        score_of_team_0 = self._playout()
        for node in path:
            node.visits += 1
            node.score += score_of_team_0 if node.team == 0 else 1 - score_of_team_0
        for _ in path[1:]:
            search._take_back()

    def _playout(self) -> float:
        """Plays on from here and takes the moves back; team 0's score from 0 to 1."""
        search, game = self.search, self.game
        self.playouts += 1
        played = 0
        while game.result is None and played < self.playout_plies:
            team = game.team(game.to_move)
            search._play(self._playout_move(team), team)
            played += 1
        result = game.result
        if result is not None:
            score = 0.5 if result.winner is None else float(result.winner == 0)
        else:
            team = game.team(game.to_move)
            worth = search.evaluate(team) * (1 if team == 0 else -1)
            score = 1 / (1 + math.exp(max(-50.0, min(50.0, -worth / WORTH_SCALE))))
        for _ in range(played):
            search._take_back()
        return score

    def _playout_move(self, team: int) -> Move:
        """A win, else a block, else the best for the shapes of a few moves drawn."""
        legal = self.game.legal_moves()
        if legal[0].to is None:
            return legal[0]
        shapes = self.search.shapes
        for cells in (shapes.winning_cells(team), shapes.winning_cells(1 - team)):
            if cells:
                urgent = [move for move in legal if pack(move.to) in cells]  # type: ignore[arg-type]
                if urgent:
                    return self.rng.choice(urgent)
        drawn = self.rng.sample(legal, min(DRAWN_IN_PLAYOUT, len(legal)))
        return max(drawn, key=lambda move: shapes.placing_gain(pack(move.to), team))  # type: ignore[arg-type]
