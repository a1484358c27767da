"""Making games: a new one by name, or one saved with :meth:`Game.to_bytes`."""

from __future__ import annotations

import inspect
from functools import cache
from typing import Any

import msgpack

from sixtui.rules.connect6 import Connect6
from sixtui.rules.errors import GameDataError, IllegalMove
from sixtui.rules.game import SAVE_FORMAT_VERSION, Game
from sixtui.rules.gameof6 import GameOf6
from sixtui.rules.six import Six

GAMES: dict[str, type[Game]] = {game.name: game for game in (Connect6, GameOf6, Six)}

# A saved game is small; refuse anything that pretends otherwise before unpacking it.
MAX_SAVED_BYTES = 1 << 20


def new_game(name: str, **options: Any) -> Game:
    """A new game by name, with that game's options.

    >>> new_game("connect6").size
    19
    >>> new_game("gameof6", size=9).size
    9
    >>> new_game("chess")
    Traceback (most recent call last):
    ...
    ValueError: there is no game 'chess': choose connect6, gameof6 or six
    """
    game_type = GAMES.get(name) if isinstance(name, str) else None
    if game_type is None:
        *others, last = GAMES
        raise ValueError(f"there is no game {name!r}: choose {', '.join(others)} or {last}")
    known = _option_names(game_type)
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise ValueError(f"{name} has no option {unknown[0]!r}; its options: {', '.join(known)}")
    return game_type(**options)


@cache
def _option_names(game_type: type[Game]) -> tuple[str, ...]:
    return tuple(inspect.signature(game_type).parameters)


def load_game(data: bytes) -> Game:
    """The game saved in ``data`` by :meth:`Game.to_bytes`; raises :class:`GameDataError`
    (a :class:`ValueError`) with the reason if the bytes are not a saved game.

    >>> g = new_game("connect6")
    >>> g.play("J10")
    >>> load_game(g.to_bytes()) == g
    True
    """
    saved = _unpack(data)
    name = saved.get("game")
    game_type = GAMES.get(name) if isinstance(name, str) else None
    if game_type is None:
        raise GameDataError(f"the saved game names no known game: {saved.get('game')!r}")
    if saved.get("version") != SAVE_FORMAT_VERSION:
        raise GameDataError(f"unknown save format version {saved.get('version')!r}")
    options, moves, resigned = saved.get("options"), saved.get("moves"), saved.get("resigned")
    agreed, left = saved.get("agreed", False), saved.get("left", False)
    timeout = saved.get("timeout", False)
    if not all(isinstance(flag, bool) for flag in (agreed, left, timeout)):
        raise GameDataError("the saved draw agreement, leaving or time-out is not true or false")
    if not isinstance(options, dict) or not all(isinstance(k, str) for k in options):
        raise GameDataError("the saved options are not a table of names")
    if not isinstance(moves, bytes):
        raise GameDataError("the saved move list is missing")
    try:
        game = game_type._from_saved(options, moves)
        if resigned is not None and timeout:
            game.time_out(resigned)
        elif resigned is not None:
            game.forfeit(resigned) if left else game.resign(resigned)
        if agreed:
            game.agree_draw()
    except IllegalMove as error:
        raise GameDataError(f"the saved moves cannot be replayed: {error}") from None
    except (TypeError, ValueError) as error:
        if isinstance(error, GameDataError):
            raise
        raise GameDataError(f"the saved options are not valid: {error}") from None
    return game


def _unpack(data: bytes) -> dict[str, Any]:
    if not isinstance(data, bytes | bytearray | memoryview):
        raise GameDataError(f"a saved game is bytes, not {type(data).__name__}")
    if len(data) > MAX_SAVED_BYTES:
        raise GameDataError("the data is too large to be a saved game")
    try:
        saved = msgpack.unpackb(data, raw=False, strict_map_key=True)
    except Exception as error:  # msgpack raises many types for damaged data
        raise GameDataError(f"not a saved sixtui game ({type(error).__name__})") from None
    if not isinstance(saved, dict):
        raise GameDataError("not a saved sixtui game")
    return saved
