"""Ways to damage a saved game, shared by the games' property tests."""

from __future__ import annotations

from hypothesis import strategies as st

from sixtui.rules import Game, GameDataError, load_game

# Anything msgpack can hold, to put where a saved game keeps its fields.
plausible_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.floats(allow_nan=False)
    | st.text(max_size=10)
    | st.binary(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=8,
)


def damage(
    saved: bytes,
    flips: list[tuple[int, int]],
    insert: tuple[int, bytes] | None,
    cut: int | None,
) -> bytes:
    """``saved`` with bytes flipped (position, xor mask), some inserted, the end cut off."""
    data = bytearray(saved)
    for at, mask in flips:
        data[at % len(data)] ^= mask
    if insert is not None:
        at, extra = insert
        data[at % (len(data) + 1) : at % (len(data) + 1)] = extra
    if cut is not None:
        del data[cut % (len(data) + 1) :]
    return bytes(data)


def load_or_refusal(data: bytes) -> Game | None:
    """The game ``data`` holds, or ``None`` when load_game refused it the proper way:
    with a GameDataError (a ValueError) that says why. Any other exception fails."""
    try:
        game = load_game(data)
    except GameDataError as error:
        assert isinstance(error, ValueError)
        assert str(error).strip()
        return None
    assert isinstance(game, Game)
    assert load_game(game.to_bytes()) == game
    return game
