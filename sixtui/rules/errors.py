"""The errors the rules library raises; both are :class:`ValueError` subclasses."""


class IllegalMove(ValueError):
    """A move that the rules do not allow now, or text that is not a move.

    The message says why in words a player understands, for example
    ``"J10 is taken"``, speaking to the player to move ("you still have 19 pieces in
    hand"): it names no seat by its number, which the library counts from 0 and screens
    from 1. The game is left exactly as it was.
    """


class GameDataError(ValueError):
    """Bytes given to :func:`sixtui.rules.load_game` that are not a saved game."""
