"""A stand-in for the worker pool whose answers a test releases and chooses."""

import asyncio

from sixtui.rules import Move


class PromptThinker:
    """Stands in for the worker pool: each turn asked for waits until released, then is
    the next turn of ``turns`` (moves in notation), else the first legal moves of the
    position it was asked in."""

    def __init__(self, *turns: str, wait: bool = True) -> None:
        self.turns = [turn.split() for turn in turns]
        self.release = asyncio.Event()
        if not wait:
            self.release.set()
        self.asked: list[tuple[int, str]] = []  # (moves played, level) per turn asked for
        self.cancelled = 0

    async def think(self, game, level="normal", seconds=None, seed=None) -> list[Move]:
        self.asked.append((len(game.history), level))
        position = game.copy()  # as the real pool takes it: when asked
        try:
            await self.release.wait()
        except asyncio.CancelledError:
            self.cancelled += 1
            raise
        if self.turns:
            return [position.parse_move(move) for move in self.turns.pop(0)]
        turn = []
        while not turn or (
            position.name != "six" and position.stones_left and not position.is_over
        ):
            turn.append(position.legal_moves()[0])
            position.play(turn[-1])
        return turn

    async def close(self) -> None:
        """Nothing to stop: the app closes the thinker it was given only if it made it."""
