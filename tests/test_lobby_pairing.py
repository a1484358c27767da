"""Quick pairing: the longest waiters are paired first, partners stay one side, and two
server processes pairing one pool at once never seat anyone twice or leave anyone
waiting who could play."""

import asyncio
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sixtui.server import pairing
from sixtui.server.hub import MemoryHub
from sixtui.server.pairing import Waiter, find_match, pool_queue
from sixtui.server.seating import Seeker
from sixtui.tui.lobby_commands import GameChoice
from support.hubs import Interleaved
from support.lobby_helpers import TablesOpened, close_all, players, settle

CONNECT6 = GameChoice("connect6")
PARTNERS = GameChoice("six", players=4)


def alone(name: str) -> Waiter:
    return Waiter((Seeker(f"s-{name}", f"key-{name}", name),))


def pair(first: str, second: str) -> Waiter:
    return Waiter((alone(first).people[0], alone(second).people[0]))


# -- the first table that can be made ------------------------------------------------------


def test_the_two_longest_waiters_make_the_first_table():
    assert find_match([alone("a"), alone("b"), alone("c")], 2) == [0, 1]


def test_a_pair_sits_only_with_another_pair_or_two_who_came_alone():
    assert find_match([pair("a", "b"), alone("c")], 4) is None
    assert find_match([pair("a", "b"), alone("c"), alone("d")], 4) == [0, 1, 2]
    assert find_match([pair("a", "b"), alone("c"), pair("d", "e")], 4) == [0, 2]
    # Four seats: a, who came first and alone, cannot sit with two pairs.
    assert find_match([alone("a"), pair("b", "c"), pair("d", "e")], 4) == [1, 2]
    assert find_match([alone(name) for name in "abcd"], 4) == [0, 1, 2, 3]


def test_no_one_sits_twice_at_a_table_nor_a_pair_at_a_table_for_two():
    assert find_match([pair("a", "b"), alone("a"), alone("c")], 4) is None
    assert find_match([pair("a", "b"), pair("c", "d")], 2) is None


@given(st.lists(st.booleans(), max_size=12))
def test_a_table_is_made_whenever_four_seats_can_be_filled(pairs):
    waiters = [pair(f"p{n}", f"q{n}") if twice else alone(f"p{n}") for n, twice in enumerate(pairs)]
    chosen = find_match(waiters, 4)
    couples, singles = pairs.count(True), pairs.count(False)
    possible = couples >= 2 or singles >= 4 or (couples >= 1 and singles >= 2)
    assert (chosen is not None) == possible
    if chosen is not None:
        assert sum(len(waiters[place].people) for place in chosen) == 4
        assert chosen == sorted(chosen)


# -- pairing through the lobby -------------------------------------------------------------


async def test_two_players_are_paired_and_both_are_told_who_opens():
    hub, tables = MemoryHub(), TablesOpened()
    ann, bob = await players(hub, tables, "ann", "bob")
    assert await ann.command("pair connect6") == "you wait for Connect6 19×19: unpair to stop"
    assert [(p.waiting, p.mine) for p in bob.view.pools if p.choice == CONNECT6] == [(1, False)]
    assert await bob.command("pair connect6") == ""  # the news of the seat says the rest
    (game, options, sides, opener) = tables.asked[0]
    assert (game, options, opener) == ("connect6", {"size": 19}, 0)
    first = sides[0][0].name
    assert {first, sides[1][0].name} == {"ann", "bob"}
    for player, other in ((ann, "bob"), (bob, "ann")):
        opens = "you open" if first == player.lobby.name else f"{first} opens"
        assert player.told("seated") == [f"Connect6 19×19 against {other}: {opens}"]
        assert [update.table for update in player.heard if update.kind == "seated"] == ["1"]
    assert all(p.waiting == 0 for p in ann.view.pools)
    assert [p.doing for p in ann.view.people] == ["playing", "playing"]
    await close_all(ann, bob)


async def test_who_opens_is_drawn_at_random():
    first = set()
    for seed in range(12):
        hub, tables = MemoryHub(), TablesOpened()
        ann, bob = await players(hub, tables, "ann", "bob", seed=seed)
        await ann.command("pair connect6")
        await bob.command("pair connect6")
        first.add(tables.names()[0][0])
        await close_all(ann, bob)
    assert first == {"ann", "bob"}


async def test_the_longest_waiters_are_seated_first_and_the_others_wait_on():
    hub, tables = MemoryHub(), TablesOpened()
    for name in ("cy", "ann", "bob"):  # in this order, with no pass between
        await pairing.join(hub, CONNECT6, alone(name))
    seated = await pairing.pair_pool(hub, CONNECT6, tables, random.Random(1))
    assert [waiter.people[0].name for waiter in seated] == ["cy", "ann"]
    assert [entry.member for entry in await hub.queue_list(pool_queue(CONNECT6.key))] == ["key-bob"]


async def test_two_who_came_alone_and_a_pair_make_partner_six_with_partners_opposite():
    hub, tables = MemoryHub(), TablesOpened()
    ann, bob, cy, dee = await players(hub, tables, "ann", "bob", "cy", "dee")
    await cy.command("partner dee")
    assert await dee.command("partner cy") == (
        "cy is your partner now: pair six --players 4 waits for a game as a team"
    )
    assert await cy.command("pair six --players 4") == (
        "you wait with dee for Six steffen, partners: unpair to stop"
    )
    assert dee.told()[-1] == "cy is waiting with you for Six steffen, partners: unpair to stop"
    assert await ann.command("pair six --players 4") == (
        "you wait for Six steffen, partners: unpair to stop"
    )
    pool = next(p for p in bob.view.pools if p.choice == PARTNERS)
    assert pool.waiting == 3 and not tables.asked  # a pair and one alone: no table yet
    await bob.command("pair six --players 4")
    (game, options, sides, _) = tables.asked[0]
    assert (game, options["players"]) == ("six", 4)
    teams = [{holder.name for holder in side} for side in sides]
    assert sorted(teams, key=sorted) == [{"ann", "bob"}, {"cy", "dee"}]
    told = {player.lobby.name: player.told("seated")[0] for player in (ann, bob, cy, dee)}
    assert told["cy"].startswith("Six steffen, partners, with dee against ")
    assert told["ann"].startswith("Six steffen, partners, with bob against cy and dee")
    await close_all(ann, bob, cy, dee)


async def test_a_table_that_cannot_be_opened_leaves_its_players_waiting_and_says_why():
    hub, tables = MemoryHub(), TablesOpened()
    ann, bob = await players(hub, tables, "ann", "bob")
    tables.refusing = "the rooms are closed"
    await ann.command("pair connect6")
    await bob.command("pair connect6")
    why = "the table could not be opened (the rooms are closed): you wait again for Connect6 19×19"
    assert ann.told()[-1] == why and bob.told()[-1] == why
    assert next(p for p in ann.view.pools if p.choice == CONNECT6).waiting == 2
    await close_all(ann, bob)


async def test_players_who_wait_again_keep_the_places_they_had():
    hub, tables = MemoryHub(), TablesOpened()
    ann, bob = await players(hub, tables, "ann", "bob")
    tables.refusing = "the rooms are closed"
    await ann.command("pair connect6")
    await asyncio.sleep(0.2)
    await bob.command("pair connect6")
    (first, second) = await hub.queue_list(pairing.pool_queue(CONNECT6.key))
    assert (first.member, second.member) == ("key-ann", "key-bob")
    assert first.waited >= 0.2 > second.waited
    await close_all(ann, bob)


# -- two processes pairing one pool at once ------------------------------------------------


# Waiters: a0 to a5 come alone, p0+q0 to p2+q2 as pairs.
WAITERS = [alone(f"a{n}") for n in range(6)] + [pair(f"p{n}", f"q{n}") for n in range(3)]
steps = st.lists(
    st.tuples(st.sampled_from(["join", "leave", "pair"]), st.integers(0, len(WAITERS) - 1)),
    max_size=14,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    first=steps,
    second=steps,
    pauses=st.lists(st.integers(0, 3), max_size=8),
    four=st.booleans(),
)
async def test_two_processes_pairing_at_once_seat_no_one_twice_and_strand_no_one(
    first, second, pauses, four
):
    hub, tables = Interleaved(pauses), TablesOpened()
    choice = PARTNERS if four else CONNECT6
    waiters = WAITERS if four else WAITERS[:6]
    joined: set[str] = set()
    left: set[str] = set()

    async def process(steps, seed):
        rng = random.Random(seed)
        for kind, number in steps:
            waiter = waiters[number % len(waiters)]
            if kind == "join" and waiter.member not in joined:
                joined.add(waiter.member)  # each joins once: nobody is seated twice by right
                await pairing.join(hub, choice, waiter)
                await pairing.pair_pool(hub, choice, tables, rng)
            elif kind == "leave" and await pairing.leave(hub, choice, waiter.member):
                left.add(waiter.member)
            elif kind == "pair":
                await pairing.pair_pool(hub, choice, tables, rng)

    await asyncio.gather(process(first, 1), process(second, 2))

    seated = Counter(
        holder.identity for _, _, sides, _ in tables.asked for side in sides for holder in side
    )
    assert all(count == 1 for count in seated.values()), "someone was seated twice"
    still = [Waiter.from_bytes(e.value) for e in await hub.queue_list(pool_queue(choice.key))]
    for waiter in waiters:
        at_a_table = all(person.identity in seated for person in waiter.people)
        waiting = waiter in still
        if waiter.member in joined and waiter.member not in left:
            assert at_a_table != waiting, f"{waiter.member} is neither seated nor waiting"
        else:
            assert not at_a_table and not waiting
    assert find_match(still, choice.players) is None, "a table could be made, and was not"
    for _, _, sides, _ in tables.asked:
        assert [len(side) for side in sides] == [choice.players // 2] * 2
        for waiter in waiters:
            sits = {
                n for n, side in enumerate(sides) for h in side if h.identity in waiter.identities
            }
            assert len(sits) <= 1, "partners were split"
    await settle()


# -- ratings -------------------------------------------------------------------------------


def rated(name: str, rating: int) -> Waiter:
    return Waiter((Seeker(f"s-{name}", f"key-{name}", name),), rating)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(800, 2600), st.floats(0, 300)), min_size=2, max_size=8))
def test_two_are_paired_only_within_the_range_their_waiting_has_widened_to(pool):
    waiters = [rated(f"p{n}", rating) for n, (rating, _) in enumerate(pool)]
    waited = sorted((seconds for _, seconds in pool), reverse=True)  # longest first
    chosen = find_match(waiters, 2, waited)
    first = waiters[0]
    fits = [
        place
        for place in range(1, len(waiters))
        if abs(waiters[place].rating - first.rating)
        <= pairing.rating_range(max(waited[0], waited[place]))
    ]
    if chosen is None:  # the first could not be paired: nor could anyone else
        assert not fits
        return
    assert chosen[0] == 0 or not fits
    if chosen[0] == 0:  # the closest in rating of those in range
        closest = min(abs(waiters[place].rating - first.rating) for place in fits)
        assert abs(waiters[chosen[1]].rating - first.rating) == closest


async def test_far_apart_ratings_wait_until_the_range_has_widened_enough():
    hub, tables = MemoryHub(), TablesOpened()
    choice = GameChoice("connect6")
    queue = pool_queue(choice.key)
    await hub.queue_join(queue, "key-ann", rated("ann", 2000).to_bytes(), waited=10)
    await hub.queue_join(queue, "key-bob", rated("bob", 1500).to_bytes(), waited=5)
    assert await pairing.pair_pool(hub, choice, tables, random.Random(1)) == []  # 500 apart
    await hub.queue_leave(queue, "key-ann")
    await hub.queue_join(queue, "key-ann", rated("ann", 2000).to_bytes(), waited=40)
    seated = await pairing.pair_pool(hub, choice, tables, random.Random(1))
    assert {waiter.member for waiter in seated} == {"key-ann", "key-bob"}  # 550 by now


def test_a_waiter_keeps_its_rating_through_the_hub():
    waiter = Waiter(rated("ann", 1875).people, 1875)
    assert Waiter.from_bytes(waiter.to_bytes()) == waiter
