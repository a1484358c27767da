"""Game sessions at shared tables, through the hub without screens: what each player's
screen is told and may do, turn by turn, with people, spectators and computer seats."""

import asyncio

import pytest

from sixtui.rules import IllegalMove, Move, Square
from sixtui.server.computer_seats import ComputerSeats
from sixtui.server.hub import BACKLOG, MemoryHub
from sixtui.server.rooms import open_table, read_table, table_topic
from sixtui.server.table_session import TableSession
from sixtui.server.table_state import SeatHolder
from sixtui.tui.session import Update
from support.tables import (
    ANN,
    BOB,
    CAT,
    DAN,
    ROW_WIN,
    SIX_ROW_FOR_FOUR,
    Clock,
    FirstMoves,
    against_the_computer,
    connect6,
    send,
)
from support.tui_helpers import started_thinker

STEPS = 10_000  # turns of the event loop a session may take to hear of a change


class Seated:
    """A session and every update it told its screen."""

    def __init__(self, session: TableSession) -> None:
        self.session = session
        self.updates: list[Update] = []
        session.subscribe(self.updates.append)

    def kinds(self) -> list[str]:
        return [update.kind for update in self.updates]

    def said(self) -> list[str]:
        return [update.text for update in self.updates if update.text]


async def seat(hub, table, *identities, clock=None) -> list[Seated]:
    extra = {"clock": clock} if clock else {}
    return [Seated(await TableSession.join(hub, table, who, **extra)) for who in identities]


async def settled(hub, table, *seated: Seated) -> None:
    """Waits until every session holds the table's newest version."""
    newest = (await read_table(hub, table)).version
    for _ in range(STEPS):
        if all(s.session.state.version == newest for s in seated):
            return
        await asyncio.sleep(0)
    raise AssertionError("a session never heard of the table's newest state")


async def leave(*seated: Seated) -> None:
    for s in seated:
        await s.session.close()


def history(seated: Seated) -> list[str]:
    return [str(move) for move in seated.session.game.history]


# -- playing ---------------------------------------------------------------------------------


async def test_two_players_play_connect6_to_a_win_each_seeing_every_turn(hub):
    table = await connect6(hub)
    ann, bob = await seat(hub, table, ANN.identity, BOB.identity)
    played = []
    for turn in ROW_WIN:
        mover, other = (ann, bob) if ann.session.may_move else (bob, ann)
        assert not other.session.may_move
        for stone in turn.split():  # as the screen plays them: one at a time
            await mover.session.play(stone)
        played += turn.split()
        await settled(hub, table, ann, bob)
        assert history(ann) == history(bob) == played
        assert ann.session.state == bob.session.state
    for s in (ann, bob):
        assert s.session.game.result.reason == "six-in-a-row"
        assert s.kinds()[-1] == "over" and s.session.match.wins == (1, 0)
        assert not s.session.may_move
    news = [u.moves for u in bob.updates if u.kind == "moves" and u.moves]
    assert [str(m) for m in news[0]] == ["E5"]  # Ann's opening stone, told to Bob
    await leave(ann, bob)


async def test_four_players_play_partner_six_to_the_end_and_each_sees_all_four_names(hub):
    table = await open_table(hub, "six", {"players": 4}, [[ANN, CAT], [BOB, DAN]], opener=0)
    four = await seat(hub, table, *(h.identity for h in (ANN, BOB, CAT, DAN)))
    assert [s.session.own_seats for s in four] == [(0,), (1,), (2,), (3,)]  # partners opposite
    for move in SIX_ROW_FOR_FOUR:
        movers = [s for s in four if s.session.may_move]
        assert len(movers) == 1
        await movers[0].session.play(move)
        await settled(hub, table, *four)
    for s in four:
        names = [s.session.player_at(seat).name for seat in range(4)]
        assert names == ["Ann", "Bob", "Cat", "Dan"]
        assert s.session.game.result.reason == "row" and "over" in s.kinds()
        assert history(s) == SIX_ROW_FOR_FOUR
    await leave(*four)


async def test_the_stones_of_a_turn_are_staged_and_reach_the_table_together(hub):
    table = await connect6(hub)
    ann, bob = await seat(hub, table, ANN.identity, BOB.identity)
    await ann.session.play("E5")
    await settled(hub, table, ann, bob)
    await bob.session.play("A1")
    assert bob.session.staged == (Move(Square.parse("A1")),) and history(bob) == ["E5", "A1"]
    await settled(hub, table, ann, bob)
    assert (await read_table(hub, table)).version == 2 and history(ann) == ["E5"]
    await bob.session.clear_turn()
    assert bob.session.staged == () and history(bob) == ["E5"]
    await bob.session.play("B1")
    await bob.session.play("B2")
    await settled(hub, table, ann, bob)
    assert history(ann) == history(bob) == ["E5", "B1", "B2"] and bob.session.staged == ()
    await leave(ann, bob)


async def test_stones_chosen_on_the_board_wait_for_the_turn_to_be_confirmed(hub):
    table = await connect6(hub)
    ann, bob = await seat(hub, table, ANN.identity, BOB.identity)
    with pytest.raises(IllegalMove, match="no turn waiting"):
        await ann.session.confirm_turn()
    await ann.session.stage("E5")  # the opening stone is a whole turn: it waits too
    assert ann.session.turn_ready and history(ann) == ["E5"]
    await settled(hub, table, ann, bob)
    assert (await read_table(hub, table)).version == 1 and history(bob) == []
    await ann.session.confirm_turn()
    await settled(hub, table, ann, bob)
    assert history(bob) == ["E5"] and not ann.session.turn_ready
    await bob.session.stage("A1")
    with pytest.raises(IllegalMove, match="not whole yet"):
        await bob.session.confirm_turn()
    await bob.session.stage("A2")
    assert bob.session.turn_ready and bob.session.may_move
    await bob.session.clear_turn()  # taken back whole: nothing went to the table
    assert not bob.session.turn_ready and history(bob) == ["E5"]
    for point in ("B1", "B2"):
        await bob.session.stage(point)
    await bob.session.confirm_turn()
    await settled(hub, table, ann, bob)
    assert history(ann) == history(bob) == ["E5", "B1", "B2"] and ann.session.may_move
    await leave(ann, bob)


async def test_a_six_move_chosen_on_the_board_is_played_at_once(hub):
    table = await open_table(hub, "six", {}, [[ANN], [BOB]], opener=0)
    ann, bob = await seat(hub, table, ANN.identity, BOB.identity)
    await ann.session.stage("0,0")
    await settled(hub, table, ann, bob)
    assert history(bob) == ["0,0"] and not ann.session.turn_ready
    await leave(ann, bob)


async def test_a_move_out_of_turn_or_illegal_is_refused_with_the_reason(hub):
    table = await connect6(hub)
    ann, bob = await seat(hub, table, ANN.identity, BOB.identity)
    with pytest.raises(IllegalMove, match="wait: it is Ann's turn"):
        await bob.session.play("E5")
    await ann.session.play("E5")
    await settled(hub, table, ann, bob)
    with pytest.raises(IllegalMove, match="E5"):
        await bob.session.play("E5")
    assert bob.session.staged == () and (await read_table(hub, table)).version == 2
    await leave(ann, bob)


async def test_a_turn_made_on_a_game_that_moved_on_is_refused_as_stale(hub):
    table = await connect6(hub)
    ann, bob = await seat(hub, table, ANN.identity, BOB.identity)
    await ann.session.play("E5")
    await settled(hub, table, ann, bob)
    await send(hub, table, BOB, "resign")  # from Bob's other terminal, before this one hears
    with pytest.raises(IllegalMove, match="changed since you saw it"):
        await bob.session.play_turn(["A1", "A2"])
    assert bob.session.game.is_over
    await leave(ann, bob)


async def test_a_turn_is_sent_again_when_only_an_offer_changed_meanwhile(hub):
    table = await connect6(hub)
    ann, bob = await seat(hub, table, ANN.identity, BOB.identity)
    await send(hub, table, BOB, "offer-draw")  # Ann's screen has not heard of it yet
    await ann.session.play("E5")
    state = await read_table(hub, table)
    assert state.version == 3 and state.draw_offer is None  # the move declined it
    await leave(ann, bob)


async def test_a_spectator_follows_the_table_and_may_do_nothing(hub):
    table = await connect6(hub)
    ann, watcher = await seat(hub, table, ANN.identity, None)
    await ann.session.play("E5")
    await settled(hub, table, ann, watcher)
    assert history(watcher) == ["E5"] and not watcher.session.may_move
    assert watcher.session.resigning_seat is None and not watcher.session.may_resign
    with pytest.raises(IllegalMove, match="watching"):
        await watcher.session.play_turn(["A1", "A2"])
    await watcher.session.offer_draw()
    assert watcher.said() == ["you are watching this table"]
    await leave(ann, watcher)


async def test_a_session_follows_on_after_a_message_that_is_no_state_or_a_backlog_lost(hub):
    table = await connect6(hub)
    ann, bob = await seat(hub, table, ANN.identity, BOB.identity)
    for _ in range(BACKLOG + 1):
        await hub.publish(table_topic(table), b"\x00not a table")
    await send(hub, table, ANN, "turn", "E5")
    await settled(hub, table, ann, bob)
    assert history(bob) == ["E5"]
    await leave(ann, bob)


async def test_undo_is_not_offered_online(hub):
    table = await connect6(hub)
    (ann,) = await seat(hub, table, ANN.identity)
    await ann.session.play("E5")
    assert not ann.session.may_undo
    with pytest.raises(IllegalMove, match="not taken back"):
        await ann.session.undo()
    await leave(ann)


async def test_a_closed_session_hears_nothing_more(hub):
    table = await connect6(hub)
    ann, bob = await seat(hub, table, ANN.identity, BOB.identity)
    await bob.session.close()
    await ann.session.play("E5")
    await settled(hub, table, ann)
    assert bob.updates == [] and history(bob) == []
    await leave(ann)


# -- resigning, draws, series, rematches -----------------------------------------------------


async def test_a_resignation_ends_the_game_on_both_screens_and_the_next_game_opens(hub):
    table = await open_table(hub, "six", {}, [[ANN], [BOB]], opener=0)
    ann, bob = await seat(hub, table, ANN.identity, BOB.identity)
    assert ann.session.resigning_seat == 0 and bob.session.resigning_seat == 1
    await ann.session.resign()
    await settled(hub, table, ann, bob)
    assert bob.kinds() == ["over"] and bob.session.game.result.winner == 1
    await bob.session.next_game()
    await settled(hub, table, ann, bob)
    assert ann.said() == ["Bob asks for the next game: n agrees"] and ann.kinds()[-1] == "table"
    await ann.session.next_game()  # both have asked: it begins
    await settled(hub, table, ann, bob)
    assert ann.kinds() == ["over", "table", "new-game"]
    assert ann.session.player_at(0).name == "Ann"  # the loser opens
    with pytest.raises(ValueError, match="has not ended"):
        await ann.session.next_game()
    await leave(ann, bob)


async def test_the_screen_told_of_a_change_its_player_made_may_act_on_it_at_once(hub):
    table = await open_table(hub, "six", {}, [[ANN], [BOB]], opener=0)
    ann, bob = await seat(hub, table, ANN.identity, BOB.identity)
    await ann.session.resign()
    await settled(hub, table, ann, bob)
    await bob.session.next_game()
    await settled(hub, table, ann, bob)
    may_move_when_told = []
    ann.session.subscribe(lambda update: may_move_when_told.append(ann.session.may_move))
    await ann.session.next_game()  # the loser opens: the new game is Ann's to begin
    assert ann.kinds()[-1] == "new-game" and may_move_when_told == [True]
    await leave(ann, bob)


async def test_a_draw_offered_declined_then_accepted(hub):
    table = await connect6(hub)
    ann, bob = await seat(hub, table, ANN.identity, BOB.identity)
    assert ann.session.may_offer_draw
    await ann.session.offer_draw()
    await settled(hub, table, ann, bob)
    assert bob.said() == ["Ann offers a draw"] and bob.session.draw_offered_by == 0
    assert not ann.session.may_offer_draw and not bob.session.may_offer_draw
    await bob.session.answer_draw(False)
    await settled(hub, table, ann, bob)
    assert ann.said() == [
        "you offer a draw: the other side accepts or declines it",
        "Bob declines the draw",
    ]
    assert bob.said()[-1] == "you declined the draw"
    await bob.session.offer_draw()
    await settled(hub, table, ann, bob)
    await ann.session.answer_draw(True)
    await settled(hub, table, ann, bob)
    for s in (ann, bob):
        assert s.kinds()[-1] == "over" and s.session.game.result.reason == "agreement"
    await bob.session.answer_draw(True)
    assert bob.said()[-1] == "the game is over"
    await leave(ann, bob)


async def test_a_rematch_asked_by_both_begins_a_new_match(hub):
    table = await open_table(hub, "gameof6", {"size": 9}, [[ANN], [BOB]], opener=0)
    ann, bob = await seat(hub, table, ANN.identity, BOB.identity)
    for number in range(6):
        await ann.session.resign()
        if number < 5:
            await ann.session.next_game()
            await settled(hub, table, ann, bob)
            await bob.session.next_game()
            await settled(hub, table, ann, bob)
    await settled(hub, table, ann, bob)
    assert bob.session.match.is_over and bob.session.match.wins == (0, 6)
    await bob.session.rematch()
    await settled(hub, table, ann, bob)
    assert ann.said()[-1] == "Bob asks for a rematch: n agrees"
    assert ann.session.next_asked_by == (1,)
    assert bob.said()[-1] == "you asked for a rematch: now the other side"
    await ann.session.rematch()
    await settled(hub, table, ann, bob)
    assert bob.kinds()[-1] == "new-game" and bob.session.match.results == []
    assert bob.session.player_at(0).name == "Bob" and bob.session.may_move
    await leave(ann, bob)


# -- away ------------------------------------------------------------------------------------


async def test_a_player_away_is_counted_down_and_the_win_claimed_after_the_window(hub):
    clock = Clock()
    table = await connect6(hub, reconnect_window=30.0)
    ann, bob = await seat(hub, table, ANN.identity, BOB.identity, clock=clock)
    await send(hub, table, BOB, "away", clock=clock)
    await settled(hub, table, ann, bob)
    clock.now += 12
    assert ann.session.away == {"Bob": 18.0}
    assert ann.said() == ["Bob left the table: waiting for them to come back"]
    await ann.session.claim_win()
    assert ann.said()[-1] == "Bob may come back for 18 more seconds"
    clock.now += 18
    await ann.session.abort()  # no turn played yet: the game may be called off
    await settled(hub, table, ann, bob)
    assert ann.said()[-1] == "the game was aborted: it counts for nobody"
    assert not ann.session.may_move
    with pytest.raises(IllegalMove, match="aborted"):
        await ann.session.play("E5")
    await leave(ann, bob)


async def test_a_player_who_comes_back_is_told_to_the_others(hub):
    table = await connect6(hub)
    ann, bob = await seat(hub, table, ANN.identity, BOB.identity)
    await send(hub, table, BOB, "away")
    await bob.session.offer_draw()  # back, and acting
    await settled(hub, table, ann, bob)
    assert ann.session.away == {}
    assert ann.said()[-1] == "Bob offers a draw"
    await leave(ann, bob)


# -- computer seats --------------------------------------------------------------------------


async def test_a_computer_seat_plays_its_turns_and_answers_what_it_is_asked(hub):
    computers = ComputerSeats(hub, FirstMoves(), pause=0)
    table = await against_the_computer(hub, computers)
    (ann,) = await seat(hub, table, ANN.identity)
    assert computers.tables == [table]
    await ann.session.play("E5")
    await settled(hub, table, ann)
    for _ in range(STEPS):
        if len(ann.session.game.history) == 3:
            break
        await asyncio.sleep(0)
    assert history(ann) == ["E5", "A1", "B1"] and ann.session.may_move
    await ann.session.offer_draw()
    for _ in range(STEPS):
        if ann.said()[-1:] == ["Hal declines the draw"]:
            break
        await asyncio.sleep(0)
    assert ann.said() == [
        "you offer a draw: the other side accepts or declines it",
        "Hal declines the draw",
    ]
    await ann.session.resign()
    await ann.session.next_game()  # the computer agrees at once
    for _ in range(STEPS):
        if ann.kinds()[-1:] == ["new-game"]:
            break
        await asyncio.sleep(0)
    assert ann.kinds()[-1] == "new-game" and ann.session.state.number == 2
    await leave(ann)
    await computers.close()
    assert computers.tables == []


async def test_a_computer_seat_thinks_in_the_worker_pool():
    hub = MemoryHub()
    async with started_thinker() as thinker:
        computers = ComputerSeats(hub, thinker, pause=0, seconds=0.05)
        sides = [[SeatHolder("Hal", level="easy")], [ANN]]
        table = await open_table(hub, "six", {}, sides, opener=0, computers=computers)
        (ann,) = await seat(hub, table, ANN.identity)
        for _ in range(STEPS):
            if ann.session.may_move:
                break
            await asyncio.sleep(0.001)
        assert len(history(ann)) == 1 and history(ann) == ["0,0"]
        assert ann.session.player_at(0).name == "Hal" and not ann.session.thinking
        await leave(ann)
        await computers.close()
    await hub.close()


async def test_a_computer_turn_the_table_refuses_is_not_sent_again_and_again(hub, caplog):
    thinker = FirstMoves(short=True)
    computers = ComputerSeats(hub, thinker, pause=0)
    hal = SeatHolder("Hal", level="easy")
    sides = [[ANN], [hal]]
    table = await open_table(hub, "connect6", {"size": 9}, sides, opener=0, computers=computers)
    await send(hub, table, ANN, "turn", "E5")
    for _ in range(STEPS // 10):
        await asyncio.sleep(0)
    assert thinker.asked == [(f"table {table}", 1)]
    assert "refused its computer: this turn is two stones, not one" in caplog.text
    assert computers.tables == [table]  # it waits for the table to change
    await computers.close()
