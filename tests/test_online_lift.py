"""A player of Six whose connection drops in the middle of a lift (a piece picked up, not
yet put down) leaves the table exactly as the last move sent: a lift is sent whole or not
at all, and they come back to pick a piece again."""

import random

from sixtui.server.hub import MemoryHub
from sixtui.server.rooms import open_table, read_table
from support.online_apps import at_table, at_terminals, online_app
from support.six_games import running_game
from support.tables import ANN, BOB, play_turns
from support.tui_helpers import game_screen, panel, wait_until


def a_second_round_position():
    """A Steffen game of Six in its second round, the first seat (Ann's) to move."""
    for seed in range(200):
        game = running_game(("steffen", 2, False), random.Random(seed), "uniform", 60)
        lifts = [move for move in game.legal_moves() if move.origin is not None]
        if game.result is None and lifts and game.to_move == 0:
            return game, lifts[0]
    raise AssertionError("no second-round position among the seeds")


async def test_a_connection_dropped_mid_lift_leaves_the_table_at_the_last_move_sent():
    hub = MemoryHub()
    game, lift = a_second_round_position()
    table = await open_table(hub, "six", {}, [[ANN], [BOB]], opener=0)
    await play_turns(hub, table, [str(move) for move in game.history])
    before = await read_table(hub, table)
    ann_app = online_app(hub, "Ann")
    async with at_terminals(ann_app) as (ann,):
        screen = await at_table(ann)  # her game in play: she is taken straight to it
        await wait_until(ann, lambda: panel(ann.app, "status") == "Ann: lift a piece", "her turn")
        await screen._cell_chosen(lift.origin)  # the piece picked up
        await ann.pause()
        assert panel(ann.app, "status") == "Ann: where does it go?"
        await ann_app.online.close()  # and the connection drops
    after = await read_table(hub, table)
    assert after.load().history == before.load().history and after.away.keys() == {ANN.identity}
    again = online_app(hub, "Ann")
    async with at_terminals(again) as (ann,):
        await at_table(ann)
        await wait_until(ann, lambda: panel(ann.app, "status") == "Ann: lift a piece", "back")
        assert game_screen(ann.app).session.game.history == game.history
        assert (await read_table(hub, table)).away == {}
