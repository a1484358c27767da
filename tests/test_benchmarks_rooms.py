"""The shared-tables benchmark runs its tables on through the ends of their games: a change
to how tables go on (the next game, say) that it does not follow would leave it waiting."""

import asyncio

from benchmarks import rooms


async def test_tables_play_on_through_the_next_games(monkeypatch):
    monkeypatch.setattr(rooms, "TABLES", 2)
    monkeypatch.setattr(rooms, "GAMES", (("connect6", {"size": 6}),))  # games end quickly
    monkeypatch.setattr(rooms, "THINK", 0.0)
    async with asyncio.timeout(60):
        times = await rooms.one_run(1.0)
    assert len(times) > 40  # more turns than one 6×6 board holds: next games were played
