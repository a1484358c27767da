"""The rules of Connect6 and Game of 6: pure, typed, and fast enough for searches.

>>> from sixtui.rules import new_game, load_game
>>> g = new_game("connect6")
>>> g.play("J10")                 # Black opens with one stone
>>> g.play("K11"); g.play("k9")   # then two stones a turn
>>> g.to_move, [str(m) for m in g.history]
(0, ['J10', 'K11', 'K9'])
>>> load_game(g.to_bytes()) == g
True
"""

from sixtui.rules.errors import GameDataError, IllegalMove
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
    "Reason",
    "Result",
    "Square",
    "load_game",
    "new_game",
]
