"""The rules of Connect6, Game of 6 and Six: pure, typed, and fast enough for searches.

Every game is made by name with :func:`new_game` and driven through one interface,
:class:`Game`: whose turn it is, the legal moves, :meth:`~Game.play` with a
:class:`Move` or its notation (refused with :class:`IllegalMove`, a ``ValueError``
that says why), :meth:`~Game.undo`, the :class:`Result`, and saving.

Connect6: Black opens with one stone, then each side places two a turn; six in a row wins.

>>> from sixtui.rules import load_game, new_game
>>> g = new_game("connect6")
>>> g.play("J10")                 # Black opens with one stone
>>> g.play("K11"); g.play("k9")   # then two stones a turn
>>> g.to_move, [str(m) for m in g.history]
(0, ['J10', 'K11', 'K9'])
>>> load_game(g.to_bytes()) == g
True

Game of 6 is played alike with dots in the cells of grid paper; closing a polygonal
colors the cells inside, and six colored cells win too. Here Black closes a diamond:

>>> g = new_game("gameof6", size=9)
>>> for point in ["E6", "A1", "A2", "F5", "E4", "A3", "A4", "D5"]:
...     g.play(point)
>>> g.colored("E5"), g.colored_count(0)
(0, 1)
>>> g
<GameOf6 size=9; colored 1-0; seat 0 to move, 1 dot left; 8 moves: E6 A1 A2 F5 E4 A3 A4 D5>

Six: hexagon pieces side by side on a table without edges, cells written ``q,r``; a
row, a triangle or a circle of six wins. A seat places its pieces, then moves them.

>>> g = new_game("six", ruleset="romanian")
>>> g.layout()                    # red and black are on the table from the start
{Hex(q=0, r=0): 1, Hex(q=1, r=0): 0}
>>> g.legal_moves()
[Move.parse('-1,0'), Move.parse('-1,1'), Move.parse('0,-1')]
>>> g.play("-1,0"); g.play("0,1")
>>> g.play("3,3")
Traceback (most recent call last):
...
sixtui.rules.errors.IllegalMove: 3,3 does not touch the layout
>>> g.undo(), g.to_move, g.in_hand(1)
(Move.parse('0,1'), 1, 20)
>>> g.resign(1)
>>> g.result
Result(winner=0, reason='resign', points=())
"""

from sixtui.rules.errors import GameDataError, IllegalMove, NoSuchTeam
from sixtui.rules.game import Game
from sixtui.rules.games import GAMES, load_game, new_game
from sixtui.rules.match import Match
from sixtui.rules.move import Move
from sixtui.rules.result import Reason, Result
from sixtui.rules.square import Square

__all__ = [
    "GAMES",
    "Game",
    "GameDataError",
    "IllegalMove",
    "Match",
    "Move",
    "NoSuchTeam",
    "Reason",
    "Result",
    "Square",
    "load_game",
    "new_game",
]
