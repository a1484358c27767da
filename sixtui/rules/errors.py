"""The errors the rules library raises; all are :class:`ValueError` subclasses."""


class IllegalMove(ValueError):
    """A move that the rules do not allow now, or text that is not a move.

    The message says why in words a player understands, for example
    ``"J10 is taken"``, speaking to the player to move ("you still have 19 pieces in
    hand"): it names no seat by its number, which the library counts from 0 and screens
    from 1. The game is left exactly as it was.
    """


class GameDataError(ValueError):
    """Bytes given to :func:`sixtui.rules.load_game` that are not a saved game."""


class NoSuchTeam(ValueError):
    """A team number other than 0 (the first to move) and 1."""


def checked_team(team: int) -> int:
    """``team`` itself if it is 0 or 1, else :class:`NoSuchTeam`.

    >>> checked_team(2)
    Traceback (most recent call last):
    ...
    sixtui.rules.errors.NoSuchTeam: a team is 0 (the first to move) or 1, not 2
    """
    if isinstance(team, bool) or team not in (0, 1):
        raise NoSuchTeam(f"a team is 0 (the first to move) or 1, not {team!r}")
    return team
