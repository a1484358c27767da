"""Shared tables through the hub, without screens: opening them, the intents they carry out
and refuse, draws, matches, series, rematches, players away, and the lists kept for the lobby."""

import asyncio
import random

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sixtui.rules import GAMES, load_game, new_game
from sixtui.server.hub import MemoryHub
from sixtui.server.intents import KINDS, Intent, NotAnIntent
from sixtui.server.rooms import (
    LIVE_TABLES,
    Applied,
    Refused,
    mark_away,
    mark_back,
    mark_gone,
    open_table,
    player_tables,
    submit,
    table_key,
    table_topic,
)
from sixtui.server.settings import SettingError, Settings, load_settings
from sixtui.server.table_state import SeatHolder, TableState
from sixtui.tui.session import checked_turn
from support.tables import (
    ANN,
    BOB,
    CAT,
    DAN,
    ROW_WIN,
    SIX_ROW_FOR_FOUR,
    Clock,
    both_ask_next,
    connect6,
    play_turns,
    send,
)
from support.tables import state_of as state

# -- opening ---------------------------------------------------------------------------------


async def test_a_table_opens_in_the_hub_listed_as_live_and_for_each_player(hub):
    table = await open_table(hub, "six", {"players": 4}, [[ANN, CAT], [BOB, DAN]], opener=0)
    opened = await state(hub, table)
    assert opened.version == (await hub.get(table_key(table))).version == 1
    assert [opened.holder_at(seat).name for seat in range(4)] == ["Ann", "Bob", "Cat", "Dan"]
    assert opened.status == "playing" and opened.load().history == []
    listed = msgpack.unpackb((await hub.map_all(LIVE_TABLES))[table])
    assert listed["sides"] == [["Ann", "Cat"], ["Bob", "Dan"]] and listed["game"] == "six"
    for holder in (ANN, BOB, CAT, DAN):
        assert table in await hub.map_all(player_tables(holder.identity))


async def test_table_ids_are_never_the_same(hub):
    pairs = [
        [[SeatHolder(f"P{n}", f"key-p{n}")], [SeatHolder(f"Q{n}", f"key-q{n}")]] for n in range(5)
    ]
    tables = {await open_table(hub, "connect6", {}, sides) for sides in pairs}
    assert len(tables) == 5


async def test_the_first_opener_is_drawn_unless_given(hub):
    openers = set()
    for seed in range(12):
        apart = MemoryHub()  # one game at a time for Ann and Bob
        table = await open_table(apart, "connect6", {}, [[ANN], [BOB]], rng=random.Random(seed))
        openers.add((await state(apart, table)).holder_at(0).name)
    assert openers == {"Ann", "Bob"}
    table = await open_table(hub, "connect6", {}, [[ANN], [BOB]], opener=1)
    assert (await state(hub, table)).holder_at(0) == BOB


@pytest.mark.parametrize(
    ("game", "options", "sides", "why"),
    [
        ("chess", {}, [[ANN], [BOB]], "there is no game"),
        ("connect6", {"size": 3}, [[ANN], [BOB]], "6 to 19 wide"),
        ("connect6", {}, [[ANN, CAT], [BOB, DAN]], "two sides of 1"),
        ("six", {"players": 4}, [[ANN], [BOB]], "two sides of 2"),
        ("connect6", {}, [[ANN], [ANN]], "one seat"),
        ("connect6", {}, [[ANN], [SeatHolder("Eve", "computer:0.0")]], "the computer's"),
        ("connect6", {}, [[ANN], [SeatHolder("Hal", level="easy")]], "keep them playing"),
    ],
)
async def test_a_table_that_cannot_be_played_is_not_opened(hub, game, options, sides, why):
    with pytest.raises(ValueError, match=why):
        await open_table(hub, game, options, sides, opener=0)
    assert await hub.map_all(LIVE_TABLES) == {}


def test_a_seat_holder_is_a_person_or_a_computer():
    with pytest.raises(ValueError, match="a person"):
        SeatHolder("Nobody")
    with pytest.raises(ValueError, match="plays easy"):
        SeatHolder("Hal", level="expert")
    with pytest.raises(ValueError, match="a name"):
        SeatHolder(" ", "key")


# -- playing ---------------------------------------------------------------------------------


async def test_every_change_is_published_once_at_the_next_version(hub):
    table = await connect6(hub)
    news = hub.subscribe(table_topic(table))
    await play_turns(hub, table, ["E5", "A1 A2"])
    published = [TableState.from_bytes(await asyncio.wait_for(anext(news), 5)) for _ in range(2)]
    assert [s.version for s in published] == [2, 3]
    assert published[-1] == await state(hub, table)
    assert [str(m) for m in published[-1].load().history] == ["E5", "A1", "A2"]
    await news.close()


async def test_a_turn_of_two_stones_is_played_whole_or_not_at_all(hub):
    table = await connect6(hub)
    await play_turns(hub, table, ["E5"])
    before = await state(hub, table)
    short = await send(hub, table, BOB, "turn", "A1")
    assert short == Refused("this turn is two stones, not one: nothing was played")
    bad_second = await send(hub, table, BOB, "turn", "A1", "E5")
    assert isinstance(bad_second, Refused) and "E5" in bad_second.message
    assert await state(hub, table) == before
    assert isinstance(await send(hub, table, BOB, "turn", "A1", "A2"), Applied)


async def test_a_win_ends_the_game_and_counts_in_the_series(hub):
    table = await connect6(hub)
    await play_turns(hub, table, ROW_WIN)
    ended = await state(hub, table)
    assert ended.status == "game-over" and ended.load().result.reason == "six-in-a-row"
    assert ended.match.wins == (1, 0)
    refused = await send(hub, table, BOB, "turn", "J9", "J8")
    assert refused == Refused("the game is over")


@pytest.mark.parametrize(
    ("who", "kind", "moves", "why"),
    [
        (BOB, "turn", ["E5"], "wait: it is Ann's turn"),
        (CAT, "turn", ["E5"], "you hold no seat at this table"),
        (ANN, "turn", ["Z99"], "not"),
        (ANN, "turn", ["E5", "E6"], "this turn is one stone, not 2: nothing was played"),
        (ANN, "next-game", [], "the game in play has not ended"),
        (ANN, "accept-draw", [], "no draw is offered to you"),
        (ANN, "rematch", [], "once the match is over"),
        (ANN, "claim", [], "the other side is here"),
    ],
)
async def test_what_the_table_does_not_allow_is_refused_and_changes_nothing(
    hub, who, kind, moves, why
):
    table = await connect6(hub)
    before = await hub.get(table_key(table))
    outcome = await send(hub, table, who, kind, *moves)
    assert isinstance(outcome, Refused) and why in outcome.message
    assert await hub.get(table_key(table)) == before


async def test_an_intent_made_on_an_older_version_is_refused_as_stale(hub):
    table = await connect6(hub)
    await play_turns(hub, table, ["E5"])
    stale = await send(hub, table, BOB, "turn", "A1", "A2", version=1)
    assert (
        isinstance(stale, Refused) and stale.stale and "changed since you saw it" in stale.message
    )
    assert (await state(hub, table)).version == 2


class InterleavingHub(MemoryHub):
    """A memory hub whose reads let other tasks run before they return, as a networked
    hub's do: intents sent together all read the table before any of them writes it."""

    async def get(self, key):
        value = await super().get(key)
        await asyncio.sleep(0)
        return value


async def test_of_turns_racing_on_one_version_exactly_one_is_played():
    hub = InterleavingHub()
    table = await connect6(hub)
    points = ["E5", "A1", "B2", "C3", "D4", "F6", "G7", "H8", "I9", "A9"]
    outcomes = await asyncio.gather(*(send(hub, table, ANN, "turn", p, version=1) for p in points))
    applied = [n for n, outcome in enumerate(outcomes) if isinstance(outcome, Applied)]
    assert len(applied) == 1
    assert all(o.stale for o in outcomes if isinstance(o, Refused))
    final = await state(hub, table)
    assert final.version == 2 and [str(m) for m in final.load().history] == [points[applied[0]]]
    await hub.close()


@given(data=st.binary(max_size=64))
@settings(max_examples=150)
async def test_bytes_that_are_not_an_intent_are_refused_in_words(data):
    hub = MemoryHub()  # each example its own: the same people sit at one game at a time
    table = await connect6(hub)
    before = await hub.get(table_key(table))
    outcome = await submit(hub, table, data)
    assert isinstance(outcome, Refused) and outcome.message
    assert await hub.get(table_key(table)) == before


@pytest.mark.parametrize(
    ("fields", "why"),
    [
        ({"do": "fly", "v": 1, "by": "x"}, "does not know"),
        ({"do": "turn", "v": -1, "by": "x", "moves": ["E5"]}, "which state"),
        ({"do": "turn", "v": True, "by": "x", "moves": ["E5"]}, "which state"),
        ({"do": "turn", "v": 1, "by": "", "moves": ["E5"]}, "who sends it"),
        ({"do": "turn", "v": 1, "by": "x"}, "needs a move"),
        ({"do": "turn", "v": 1, "by": "x", "moves": [5]}, "written as text"),
        ({"do": "turn", "v": 1, "by": "x", "moves": ["E5"] * 9}, "no turn holds 9"),
        ({"do": "resign", "v": 1, "by": "x", "moves": ["E5"]}, "only a turn"),
        ([1, 2, 3], "not a request"),
    ],
)
def test_an_intent_that_is_not_whole_says_what_it_lacks(fields, why):
    with pytest.raises(NotAnIntent, match=why):
        Intent.from_bytes(msgpack.packb(fields))


# -- random intents from random seats --------------------------------------------------------

WHO = [ANN.identity, BOB.identity, "key-stranger"]
POINTS = ["E5", "E6", "F5", "F6", "D4", "Z9", "E5"]
intents = st.lists(
    st.tuples(
        st.sampled_from(WHO),
        st.sampled_from(("turn",) * 6 + KINDS),  # turns most often: they need the right seat
        st.lists(st.sampled_from(POINTS), max_size=3),
        st.sampled_from([0, 0, 0, -1, 1]),  # the version seen, against the table's
        st.sampled_from([0.0, 30.0, 61.0]),  # seconds that pass before it is sent
    ),
    max_size=25,
)


@given(steps=intents)
@settings(max_examples=60, deadline=None)
async def test_a_table_changes_only_by_legal_intents_one_version_at_a_time(steps):
    hub, clock = MemoryHub(), Clock()
    table = await connect6(hub)
    for who, kind, moves, off_by, wait in steps:
        clock.now += wait
        before = await state(hub, table)
        data = Intent(kind, max(0, before.version + off_by), who, tuple(moves)).to_bytes()
        outcome = await submit(hub, table, data, clock)
        after = await state(hub, table)
        if isinstance(outcome, Refused) or after == before:
            assert after == before
            continue
        assert off_by == 0 and who != "key-stranger"
        assert after.version == before.version + 1 and outcome.state == after
        game_before, game_after = before.load(), after.load()
        if after.number != before.number:
            assert kind in ("next-game", "rematch") and before.status != "playing"
        elif game_after.history != game_before.history:
            assert kind == "turn" and before.holder_at(game_before.to_move).identity == who
            turn = checked_turn(game_before, moves, whole=True)
            assert game_after.history == game_before.history + turn
        elif after.recorded and not before.recorded:
            assert kind in ("resign", "claim", "accept-draw")
        else:
            assert after.current == before.current


# Every game, intents from the right seat or not: a whole legal turn drawn from the engine's
# own moves (so that Six reaches its second round), a turn cut short or run on, one of
# nonsense, or any other kind of request.
EVERY_GAME = {
    "connect6": ("connect6", {"size": 9}, [[ANN], [BOB]]),
    "gameof6": ("gameof6", {"size": 8}, [[ANN], [BOB]]),
    "six-steffen": ("six", {}, [[ANN], [BOB]]),
    "six-romanian-advanced-partners": (
        "six",
        {"players": 4, "ruleset": "romanian-advanced"},
        [[ANN, CAT], [BOB, DAN]],
    ),
}
ENDED_BY_A_SIDE = ("resign", "left", "time", "agreement")
NONSENSE = ["", "Z99", "0,0", "E5", "A1", "9,9>0,0", "\x1b[2J", "é" * 300]


def a_legal_turn(game, draw) -> list[str]:
    """A whole turn for the seat to move, each move drawn from the engine's legal ones."""
    trial, seat, turn = game.copy(), game.to_move, []
    while not trial.is_over and trial.to_move == seat:
        move = draw(st.sampled_from(trial.legal_moves()))
        turn.append(str(move))
        trial.play(move)
    return turn


@pytest.mark.parametrize("table_of", list(EVERY_GAME))
@given(data=st.data())
@settings(max_examples=25, deadline=None)
async def test_random_intents_change_any_table_only_as_the_engine_would(table_of, data):
    game_name, options, sides = EVERY_GAME[table_of]
    hub, clock = MemoryHub(), Clock()
    table = await open_table(hub, game_name, options, sides, opener=0)
    people = [holder.identity for side in sides for holder in side] + ["key-stranger"]
    for _ in range(data.draw(st.integers(5, 60), label="intents")):
        before = await state(hub, table)
        game = before.load()
        kind = data.draw(st.sampled_from(("turn",) * 12 + KINDS), label="kind")
        moves: list[str] = []
        if kind == "turn" and not game.is_over:
            moves = a_legal_turn(game, data.draw)
            cut = data.draw(st.sampled_from(["whole"] * 6 + ["short", "long", "nonsense"]))
            if cut == "short":
                moves = moves[:-1]
            elif cut == "long":
                moves = [*moves, data.draw(st.sampled_from(NONSENSE))]
            elif cut == "nonsense":
                moves = data.draw(st.lists(st.sampled_from(NONSENSE), max_size=3))
        mover = before.holder_at(game.to_move).identity
        who = data.draw(st.sampled_from([mover, mover, *people]), label="who")
        clock.now += data.draw(st.sampled_from([0.0, 0.0, 30.0, 61.0]), label="wait")
        version = before.version + data.draw(st.sampled_from([0, 0, 0, -1, 1]), label="off by")
        intent = Intent(kind, max(0, version), who, tuple(moves)).to_bytes()
        outcome = await submit(hub, table, intent, clock)
        after = await state(hub, table)
        if isinstance(outcome, Refused):
            assert outcome.message and after == before
            continue
        if after == before:
            continue
        assert after.version == before.version + 1 and outcome.state == after
        game_after = after.load()
        if after.number == before.number and game_after.history != game.history:
            assert kind == "turn" and who == mover
            assert game_after.history == game.history + checked_turn(game, moves, whole=True)
        replayed = new_game(game_name, **game_after.options())
        for move in game_after.history:  # every state the table holds, the engine reaches
            replayed.play(move)
        if game_after.result is not None and game_after.result.reason in ENDED_BY_A_SIDE:
            assert replayed.result is None
            if game.result is None and after.number == before.number:
                assert kind in ("resign", "claim", "accept-draw", "flag")
        else:
            assert replayed.result == game_after.result


# -- draws -----------------------------------------------------------------------------------


async def test_a_draw_offered_and_accepted_ends_the_game_drawn(hub):
    table = await connect6(hub)
    await play_turns(hub, table, ["E5"])
    assert isinstance(await send(hub, table, ANN, "offer-draw"), Applied)
    assert (await send(hub, table, ANN, "accept-draw")).message == "no draw is offered to you"
    assert (await send(hub, table, ANN, "offer-draw")).message == "you have offered a draw already"
    assert isinstance(await send(hub, table, BOB, "accept-draw"), Applied)
    drawn = await state(hub, table)
    assert drawn.status == "game-over" and drawn.draw_offer is None
    assert drawn.load().result.winner is None and drawn.load().result.reason == "agreement"
    assert drawn.match.results[-1].reason == "agreement" and drawn.match.wins == (0, 0)


async def test_a_draw_declined_or_answered_with_a_move_lapses(hub):
    table = await connect6(hub)
    await send(hub, table, BOB, "offer-draw")
    assert (await send(hub, table, BOB, "decline-draw")).message == "no draw is offered to you"
    assert isinstance(await send(hub, table, ANN, "decline-draw"), Applied)
    assert (await state(hub, table)).draw_offer is None
    await send(hub, table, BOB, "offer-draw")
    await play_turns(hub, table, ["E5"])  # Ann plays on
    assert (await state(hub, table)).draw_offer is None
    await send(hub, table, ANN, "offer-draw")
    await play_turns(hub, table, ["A1 A2"])  # Bob plays on
    assert (await state(hub, table)).draw_offer is None


# -- matches, series and rematches -----------------------------------------------------------


async def test_a_game_of_6_match_runs_six_games_with_alternating_openers(hub):
    table = await open_table(hub, "gameof6", {"size": 9}, [[ANN], [BOB]], opener=0)
    openers = []
    for number in range(1, 7):
        now = await state(hub, table)
        assert now.number == number and now.status == "playing"
        openers.append(now.holder_at(0).name)
        if number == 5:
            await send(hub, table, now.holder_at(0), "resign")
        else:
            await play_turns(hub, table, ROW_WIN)
        if number < 6:
            assert isinstance(await both_ask_next(hub, table), Applied)
    over = await state(hub, table)
    assert openers == ["Ann", "Bob"] * 3
    assert over.status == "match-over" and over.match.wins == (2, 4)
    assert over.match.points == (2 * 6, 3 * 6 + 6)
    assert (await send(hub, table, ANN, "next-game")).message == "the match is over"
    assert table not in await hub.map_all(LIVE_TABLES)
    assert table not in await hub.map_all(player_tables(ANN.identity))


async def test_the_next_game_begins_once_both_sides_have_asked_for_it(hub):
    table = await connect6(hub)
    await send(hub, table, ANN, "resign")
    assert isinstance(await send(hub, table, BOB, "next-game"), Applied)
    asked = await state(hub, table)
    assert asked.status == "game-over" and asked.asked == (1,) and asked.number == 1
    again = await send(hub, table, BOB, "next-game")
    assert again.message == "you have asked for the next game already: the other side has not yet"
    assert isinstance(await send(hub, table, ANN, "next-game"), Applied)
    begun = await state(hub, table)
    assert begun.status == "playing" and begun.number == 2 and begun.asked == ()


async def test_in_a_six_series_the_loser_opens_the_next_game(hub):
    table = await open_table(hub, "six", {}, [[ANN], [BOB]], opener=0)
    openers = []
    for loser in (ANN, ANN, BOB, ANN):
        now = await state(hub, table)
        openers.append(now.holder_at(0).name)
        await send(hub, table, loser, "resign")
        await both_ask_next(hub, table)
    assert openers == ["Ann", "Ann", "Ann", "Bob"]
    assert (await state(hub, table)).holder_at(0) == ANN  # Ann lost the fourth


async def test_a_rematch_asked_by_both_sides_starts_a_new_match_the_other_side_opens(hub):
    table = await open_table(hub, "gameof6", {"size": 9}, [[ANN], [BOB]], opener=0)
    for number in range(6):
        now = await state(hub, table)
        await send(hub, table, now.holder_at(1), "resign")
        if number < 5:
            await both_ask_next(hub, table)
    assert isinstance(await send(hub, table, BOB, "rematch"), Applied)
    assert (
        await send(hub, table, BOB, "rematch")
    ).message == "you have asked for a rematch already: the other side has not yet"
    assert (await state(hub, table)).status == "match-over"
    assert isinstance(await send(hub, table, ANN, "rematch"), Applied)
    again = await state(hub, table)
    assert again.status == "playing" and again.match.results == [] and again.number == 7
    assert again.holder_at(0) == BOB and again.asked == ()
    assert table in await hub.map_all(LIVE_TABLES)
    assert table in await hub.map_all(player_tables(ANN.identity))


async def test_four_players_of_six_each_play_their_own_seat_to_a_row(hub):
    table = await open_table(hub, "six", {"players": 4}, [[ANN, CAT], [BOB, DAN]], opener=0)
    assert (await send(hub, table, CAT, "turn", "0,0")).message == "wait: it is Ann's turn"
    await play_turns(hub, table, SIX_ROW_FOR_FOUR)
    ended = await state(hub, table)
    assert ended.load().result.reason == "row" and ended.match.wins == (1, 0)


# -- away, claims and aborts -----------------------------------------------------------------


async def test_a_win_is_claimed_only_once_the_window_has_passed(hub):
    clock = Clock()
    table = await connect6(hub, reconnect_window=10.0)
    await play_turns(hub, table, ["E5", "A1 A2", "F5 G5"])
    await mark_away(hub, table, BOB.identity, clock)
    assert (await state(hub, table)).away == {BOB.identity: clock.now}
    clock.now += 4
    await mark_away(hub, table, BOB.identity, clock)  # the first time stands
    refused = await send(hub, table, ANN, "claim", clock=clock)
    assert refused.message == "Bob may come back for 6 more seconds"
    assert (await send(hub, table, ANN, "abort", clock=clock)).message.startswith("Bob may")
    clock.now += 6
    assert (await send(hub, table, ANN, "abort", clock=clock)).message.startswith("the game is too")
    assert isinstance(await send(hub, table, ANN, "claim", clock=clock), Applied)
    claimed = await state(hub, table)
    assert claimed.status == "game-over" and claimed.match.wins == (1, 0)
    assert claimed.load().result.reason == "left"


async def test_coming_back_clears_the_away_mark_and_the_claim(hub):
    clock = Clock()
    table = await connect6(hub, reconnect_window=10.0)
    await mark_away(hub, table, BOB.identity, clock)
    clock.now += 11
    await mark_back(hub, table, BOB.identity, clock)
    assert (await state(hub, table)).away == {}
    assert (await send(hub, table, ANN, "claim", clock=clock)).message == "the other side is here"
    await mark_away(hub, table, BOB.identity, clock)
    await send(hub, table, BOB, "offer-draw", clock=clock)  # any intent of Bob's: he is here
    assert (await state(hub, table)).away == {}


async def test_a_seat_gone_for_good_may_be_claimed_at_once(hub):
    clock = Clock()
    table = await connect6(hub, reconnect_window=600.0)
    await play_turns(hub, table, ["E5", "A1 A2"])
    await mark_away(hub, table, BOB.identity, clock)
    clock.now += 5
    await mark_gone(hub, table, BOB.identity, clock)
    assert (await state(hub, table)).away == {BOB.identity: clock.now - 600.0}
    assert isinstance(await send(hub, table, ANN, "claim", clock=clock), Applied)


async def test_a_game_barely_begun_is_aborted_after_the_window_and_counts_for_nobody(hub):
    clock = Clock()
    table = await connect6(hub, reconnect_window=10.0)
    await play_turns(hub, table, ["E5"])
    await mark_away(hub, table, ANN.identity, clock)
    clock.now += 10
    assert isinstance(await send(hub, table, BOB, "abort", clock=clock), Applied)
    aborted = await state(hub, table)
    assert aborted.status == "aborted" and aborted.match.results == []
    assert table not in await hub.map_all(LIVE_TABLES)
    assert (
        await send(hub, table, BOB, "turn", "A1", "A2")
    ).message == "this table's game was aborted"


async def test_marking_away_an_unknown_table_or_person_changes_nothing(hub):
    table = await connect6(hub)
    before = await hub.get(table_key(table))
    await mark_away(hub, table, "key-stranger")
    await mark_away(hub, "404", ANN.identity)
    assert await hub.get(table_key(table)) == before


def test_the_reconnect_window_is_a_setting_in_seconds():
    assert Settings().reconnect_window == 60.0
    assert load_settings(environ={"SIXTUI_RECONNECT_WINDOW": "5.5"}).reconnect_window == 5.5
    with pytest.raises(SettingError, match="reconnect_window"):
        load_settings(overrides={"reconnect_window": "0"})


async def test_a_table_opens_with_the_window_it_is_given(hub):
    assert (await state(hub, await connect6(hub))).window == Settings().reconnect_window
    apart = MemoryHub()  # one game at a time for Ann and Bob
    assert (await state(apart, await connect6(apart, reconnect_window=5.0))).window == 5.0


async def test_each_load_of_a_table_s_game_is_a_game_of_its_own(hub):
    table = await connect6(hub)
    await play_turns(hub, table, ["E5", "A1 A2"])
    first, second = (await state(hub, table)).load(), (await state(hub, table)).load()
    assert first == second == load_game((await state(hub, table)).current)
    first.play("I9")
    assert [str(move) for move in second.history] == ["E5", "A1", "A2"]
    third = (await state(hub, table)).load()
    assert third == second and third is not second


async def test_a_draw_agreed_at_one_table_leaves_a_game_alike_at_another_in_play(hub):
    drawn = await connect6(hub)
    other = await open_table(hub, "connect6", {"size": 9}, [[CAT], [DAN]], opener=0)
    for table in (drawn, other):
        await play_turns(hub, table, ["E5"])
    await send(hub, drawn, ANN, "offer-draw")
    await send(hub, drawn, BOB, "accept-draw")
    assert (await state(hub, drawn)).load().result.reason == "agreement"
    assert not (await state(hub, other)).load().is_over


@given(
    moves=st.lists(st.text(max_size=12), min_size=1, max_size=4),
    game=st.sampled_from(sorted(GAMES)),
)
@settings(max_examples=200, deadline=None)
async def test_any_text_sent_as_a_turn_is_played_or_refused_in_words(moves, game):
    hub = MemoryHub()
    table = await open_table(hub, game, {}, [[ANN], [BOB]], opener=0)
    outcome = await send(hub, table, ANN, "turn", *moves)
    if isinstance(outcome, Refused):
        assert outcome.message and (await state(hub, table)).version == 1
    else:
        assert outcome.state.load().history == checked_turn(new_game(game), moves, whole=True)
