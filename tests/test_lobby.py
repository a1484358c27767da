"""The lobby through the hub, without SSH: people, partners, challenges, the computer,
watching, the chat, leaving; and no line a player types, however wrong, changes anything
or raises."""

import msgpack
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sixtui.server.hub import BACKLOG, MemoryHub
from sixtui.server.lobby import TEAM_HINT
from sixtui.server.lobby_news import NEWS
from sixtui.tui.field_lengths import CHAT_LINE
from sixtui.tui.lobby_commands import CommandError, parse_command
from support.lobby_helpers import CountingHub, TablesOpened, close_all, players, settle


async def partner_up(one, other) -> None:
    """``one`` and ``other`` ask each other to partner: they are partners."""
    await one.command(f"partner {other.lobby.name}")
    await other.command(f"partner {one.lobby.name}")


def people_partners(player) -> dict[str, str | None]:
    return {person.name: person.partner for person in player.view.people}


def people(player) -> dict[str, tuple[str, str]]:
    return {person.name: (person.doing, person.what) for person in player.view.people}


async def test_everyone_sees_who_is_here_and_what_they_do():
    hub, tables = MemoryHub(), TablesOpened()
    ann, bob, cy = await players(hub, tables, "ann", "bob", "cy")
    assert [person.name for person in bob.view.people] == ["bob", "ann", "cy"]  # you first
    await ann.command("pair gameof6 --size 13")
    assert people(cy)["ann"] == ("waiting", "Game of 6 13×13")
    pools = {pool.choice.key: pool.waiting for pool in cy.view.pools}
    assert pools["gameof6:13"] == 1  # a pool beyond the standard ones is listed while used
    await ann.command("unpair")
    assert people(cy)["ann"] == ("lobby", "")
    assert "gameof6:13" not in {pool.choice.key for pool in cy.view.pools}
    await bob.lobby.close()
    await settle()
    assert [person.name for person in ann.view.people] == ["ann", "cy"]
    await close_all(ann, cy)


async def test_one_who_waits_alone_as_they_become_partners_is_told_the_partner_is_not_with_them():
    hub, tables = MemoryHub(), TablesOpened()
    ann, bob = await players(hub, tables, "ann", "bob")
    await ann.command("partner bob")
    await ann.command("pair six --players 4")
    assert await bob.command("partner ann") == f"ann is your partner now: {TEAM_HINT}"
    assert ann.told()[-1] == (
        f"bob is your partner now: {TEAM_HINT}; you still wait alone for Six steffen, partners:"
        " unpair, then pair again to wait together"
    )
    assert await bob.command("pair connect6") == "you wait for Connect6 19×19: unpair to stop"
    await ann.command("unpartner")
    assert await ann.command("partner bob") == (
        f"bob is your partner now: {TEAM_HINT}; you still wait alone for Six steffen, partners:"
        " unpair, then pair again to wait together"
    )
    assert (
        bob.told()[-1] == f"ann is your partner now: {TEAM_HINT}"
    )  # a game for two: no partner there
    await close_all(ann, bob)


async def test_names_are_shown_printable_whatever_they_hold():
    hub, tables = MemoryHub(), TablesOpened()
    (mallory,) = await players(hub, tables, "[red]mal\x1b[2J\u200blory\n")
    assert mallory.lobby.name == "[red]mal[2Jlory"
    await close_all(mallory)


async def test_partners_ask_each_other_and_are_told():
    hub, tables = MemoryHub(), TablesOpened()
    ann, bob = await players(hub, tables, "ann", "bob")
    assert await ann.command("partner BOB") == (
        "you asked bob to be your partner: they answer partner ann"
    )
    assert bob.told() == ["ann asks you to be partners: partner ann to answer"]
    assert (ann.view.asked, bob.view.asking, ann.view.partner) == ("bob", ("ann",), None)
    await bob.command("partner ann")
    assert ann.told()[-1] == (
        "bob is your partner now: pair six --players 4 waits for a game as a team"
    )
    assert (ann.view.partner, bob.view.partner) == ("bob", "ann")
    assert {p.name: p.partner for p in ann.view.people} == {"ann": "bob", "bob": "ann"}
    assert await ann.command("partner bob") == "bob is your partner already"
    assert await bob.command("unpartner") == "you no longer partner ann"
    assert ann.told()[-1] == "bob no longer partners you"
    assert ann.view.partner is None and ann.view.asked == "bob"
    assert await ann.command("unpartner") == "you no longer ask bob to partner you"
    assert bob.told()[-1] == "ann no longer asks you to be partners"
    assert bob.view.asking == ()
    await close_all(ann, bob)


async def test_a_pair_waits_together_and_either_partner_stops_it():
    hub, tables = MemoryHub(), TablesOpened()
    ann, bob = await players(hub, tables, "ann", "bob")
    await partner_up(ann, bob)
    await ann.command("pair six --players 4 --ruleset romanian")
    assert bob.view.pool is not None and bob.view.pool.title == "Six romanian, partners"
    assert people(ann)["bob"][0] == "waiting"
    assert await bob.command("pair six --players 4 --ruleset romanian") == (
        "you wait with ann for Six romanian, partners already: unpair to stop"
    )
    assert await bob.command("unpair") == "you no longer wait for Six romanian, partners"
    assert ann.told()[-1] == ("bob stopped waiting: you no longer wait for Six romanian, partners")
    assert ann.view.pool is None and all(pool.waiting == 0 for pool in ann.view.pools)
    await close_all(ann, bob)


async def test_a_partner_who_leaves_takes_the_pair_out_of_its_pool():
    hub, tables = MemoryHub(), TablesOpened()
    ann, bob = await players(hub, tables, "ann", "bob")
    await partner_up(ann, bob)
    await ann.command("pair six --players 4")
    await bob.lobby.close()
    await settle()
    assert "bob stopped waiting: you no longer wait for Six steffen, partners" in ann.told()
    assert ann.told()[-1] == (
        "bob has left: they are your partner again when they come back, unless you unpartner"
    )
    assert ann.view.pool is None and ann.view.partner is None and ann.view.asked == "bob"
    await close_all(ann)


async def test_a_partner_who_drops_out_and_comes_back_is_a_partner_again():
    hub, tables = MemoryHub(), TablesOpened()
    ann, bob, cy = await players(hub, tables, "ann", "bob", "cy")
    await partner_up(ann, bob)
    await bob.lobby.close()
    await settle()
    (back,) = await players(hub, tables, "bob")
    assert back.lobby.greeting == f"ann is your partner again: {TEAM_HINT}"
    assert ann.told()[-1] == "bob is back: your partner again"
    assert (ann.view.partner, back.view.partner) == ("bob", "ann")
    assert people_partners(cy) == {"ann": "bob", "bob": "ann", "cy": None}
    await back.lobby.close()  # and again: a second drop is the same
    await settle()
    (again,) = await players(hub, tables, "bob")
    assert (ann.view.partner, again.view.partner) == ("bob", "ann")
    await close_all(ann, cy, again)


async def test_a_partner_who_comes_back_after_being_unpartnered_is_not_a_partner():
    hub, tables = MemoryHub(), TablesOpened()
    ann, bob, cy = await players(hub, tables, "ann", "bob", "cy")
    await partner_up(ann, bob)
    await bob.lobby.close()
    await settle()
    assert await ann.command("unpartner") == "you no longer ask bob to partner you"
    await ann.command("partner cy")
    (back,) = await players(hub, tables, "bob")
    assert back.lobby.greeting == "" and back.view.partner is None
    assert ann.view.asked == "cy"
    await back.lobby.close()
    await settle()
    (again,) = await players(hub, tables, "bob")  # the partnership was forgotten, not kept
    assert again.view.partner is None
    await close_all(ann, cy, again)


async def test_partners_who_both_leave_are_not_partners_when_one_comes_back():
    hub, tables = MemoryHub(), TablesOpened()
    ann, bob = await players(hub, tables, "ann", "bob")
    await partner_up(ann, bob)
    await close_all(bob, ann)
    await settle()
    (back,) = await players(hub, tables, "bob")
    assert back.lobby.greeting == "" and back.view.partner is None and back.view.asked is None
    await close_all(back)


async def test_an_invitation_to_partner_someone_who_leaves_is_withdrawn():
    hub, tables = MemoryHub(), TablesOpened()
    ann, bob, cy = await players(hub, tables, "ann", "bob", "cy")
    await ann.command("partner bob")
    await cy.command("partner bob")
    await bob.lobby.close()
    await settle()
    for asker in (ann, cy):
        assert asker.told()[-1] == "bob has left: your invitation to partner them is withdrawn"
        assert asker.view.asked is None
    (back,) = await players(hub, tables, "bob")
    assert await back.command("partner ann") == (
        "you asked ann to be your partner: they answer partner bob"
    )  # not partners by an invitation from before
    await close_all(ann, cy, back)


async def test_a_partner_at_a_table_is_not_paired_or_challenged_without_them_knowing():
    hub, tables = MemoryHub(), TablesOpened()
    ann, bob, cy = await players(hub, tables, "ann", "bob", "cy")
    await partner_up(ann, bob)
    await bob.command("play connect6")
    assert await ann.command("pair six --players 4") == (
        "your partner bob is playing now: unpartner to wait alone"
    )
    assert await ann.command("challenge cy six --players 4") == (
        "bob is playing now: --computer LEVEL gives a computer partner"
    )
    await ann.command("challenge cy six --players 4 --computer easy")
    assert cy.view.challenges[0].challengers == ("ann", "Easy computer")
    await close_all(ann, bob, cy)


async def test_a_challenge_accepted_opens_a_table_for_both():
    hub, tables = MemoryHub(), TablesOpened()
    ann, bob = await players(hub, tables, "ann", "bob")
    await bob.command("pair connect6")
    assert await ann.command("challenge bob gameof6 --size 11") == (
        "you challenged bob to Game of 6 11×11: withdraw bob takes it back"
    )
    assert bob.told()[-1] == "ann challenges you to Game of 6 11×11: accept ann or decline ann"
    (challenge,) = bob.view.challenges
    assert (challenge.challengers, challenge.challenged) == (("ann",), ("bob",))
    assert challenge.to_me
    assert ann.view.challenges[0].from_me
    assert await bob.command("accept ann") == ""
    assert tables.asked[0][:2] == ("gameof6", {"size": 11})
    assert sorted(side[0].name for side in tables.asked[0][2]) == ["ann", "bob"]
    assert ann.told("seated")[0].startswith("Game of 6 11×11 against bob: ")
    assert bob.view.challenges == () and ann.view.challenges == ()
    assert all(pool.waiting == 0 for pool in ann.view.pools)  # bob no longer waits
    assert await ann.command("accept bob") == "no challenge from bob: no one has challenged you"
    await close_all(ann, bob)


async def test_who_opens_a_challenge_or_a_game_against_the_computer_is_drawn_at_random():
    challengers, players_of_the_computer = set(), set()
    for seed in range(12):
        hub, tables = MemoryHub(), TablesOpened()
        ann, bob = await players(hub, tables, "ann", "bob", seed=seed)
        await ann.command("challenge bob connect6")
        await bob.command("accept ann")
        challengers.add(tables.names()[0][0])
        await ann.lobby.returned()
        await ann.command("play connect6")
        players_of_the_computer.add(tables.names()[1][0])
        await close_all(ann, bob)
    assert challengers == {"ann", "bob"}
    assert players_of_the_computer == {"ann", "Normal computer"}


async def test_a_challenge_goes_to_the_session_of_a_player_that_is_not_at_a_table():
    hub, tables = MemoryHub(), TablesOpened()
    ann, bob, cy, free = await players(hub, tables, "ann", "bob", "cy", "bob")
    await bob.command("play connect6")  # both of bob's sessions are taken to the table...
    await free.lobby.returned()  # ...and one comes back to the lobby
    await settle()
    assert await ann.command("challenge bob gameof6") == (
        "you challenged bob to Game of 6 19×19: withdraw bob takes it back"
    )
    assert free.told()[-1] == "ann challenges you to Game of 6 19×19: accept ann or decline ann"
    await close_all(ann, bob, cy, free)


async def test_a_person_at_several_sessions_is_listed_once_by_what_keeps_them_busiest():
    hub, tables = MemoryHub(), TablesOpened()
    ann, free, bob = await players(hub, tables, "ann", "bob", "bob")
    await bob.command("play connect6")
    assert people(ann) == {
        "ann": ("lobby", ""),
        "bob": ("playing", "Connect6 19×19 against Normal computer"),
    }
    await close_all(ann, free, bob)


async def test_a_challenge_declined_is_gone_and_the_challenger_told():
    hub, tables = MemoryHub(), TablesOpened()
    ann, bob = await players(hub, tables, "ann", "bob")
    await ann.command("challenge bob six --ruleset romanian-advanced --declare")
    assert await bob.command("decline ann") == "you declined ann's challenge"
    assert ann.told()[-1] == "bob declined your challenge to Six romanian-advanced, declaring"
    assert ann.view.challenges == () and not tables.asked
    await close_all(ann, bob)


async def test_a_challenge_is_withdrawn_when_the_challenged_leaves_and_the_challenger_told():
    hub, tables = MemoryHub(), TablesOpened()
    ann, bob, cy = await players(hub, tables, "ann", "bob", "cy")
    await ann.command("challenge bob connect6")
    assert len(cy.view.challenges) == 1  # everyone sees the open challenges
    await bob.lobby.close()
    await settle()
    assert ann.told()[-1] == "bob has left: the challenge to Connect6 19×19 is withdrawn"
    assert ann.view.challenges == () and cy.view.challenges == ()
    await close_all(ann, cy)


async def test_a_challenge_is_withdrawn_by_its_challenger():
    hub, tables = MemoryHub(), TablesOpened()
    ann, bob = await players(hub, tables, "ann", "bob")
    await ann.command("challenge bob connect6")
    await ann.command("challenge bob six")  # a new challenge replaces the last
    assert [c.choice.title for c in bob.view.challenges] == ["Six steffen"]
    assert await ann.command("withdraw bob") == "you withdrew your challenge to bob"
    assert bob.told()[-1] == "ann withdrew the challenge to Six steffen"
    assert await bob.command("accept ann") == "no challenge from ann: no one has challenged you"
    assert await ann.command("withdraw bob") == "you have no challenge out to bob"
    await close_all(ann, bob)


async def test_a_four_player_challenge_seats_both_pairs_and_the_computer_fills_a_gap():
    hub, tables = MemoryHub(), TablesOpened()
    ann, bob, cy = await players(hub, tables, "ann", "bob", "cy")
    await partner_up(ann, bob)
    assert await ann.command("challenge cy six --players 4") == (
        "cy has no partner here: --computer LEVEL gives the computer as one"
    )
    await ann.command("challenge cy six --players 4 --computer hard")
    assert bob.told()[-1] == "ann challenged cy to Six steffen, partners, with you"
    assert cy.told()[-1] == (
        "ann and bob challenge you to Six steffen, partners: accept ann or decline ann"
    )
    assert cy.view.challenges[0].challenged == ("cy", "Hard computer")
    await cy.command("accept bob")  # either challenger may be named
    teams = sorted(sorted(holder.name for holder in side) for side in tables.asked[0][2])
    assert teams == [["Hard computer", "cy"], ["ann", "bob"]]
    levels = [holder.level for side in tables.asked[0][2] for holder in side]
    assert levels.count("hard") == 1
    assert all(player.told("seated") for player in (ann, bob, cy))
    await close_all(ann, bob, cy)


async def test_the_computer_plays_at_once_whatever_seats_are_left():
    hub, tables = MemoryHub(), TablesOpened()
    (ann,) = await players(hub, tables, "ann")
    await ann.command("play six --players 4 --vs easy")
    sides = tables.asked[0][2]
    mine = next(side for side in sides if any(holder.name == "ann" for holder in side))
    assert [holder.level for holder in mine] == [None, "easy"]  # the computer partners her
    assert [h.level for side in sides for h in side if h.name != "ann"] == ["easy"] * 3
    assert ann.told("seated")[0].startswith("Six steffen, partners, with Easy computer ")
    assert people(ann)["ann"][0] == "playing"
    await ann.lobby.returned()
    await settle()
    assert people(ann)["ann"] == ("lobby", "")
    await close_all(ann)


async def test_a_game_is_watched_by_a_players_name_or_its_number():
    hub, tables = MemoryHub(), TablesOpened()
    ann, bob, cy = await players(hub, tables, "ann", "bob", "cy")
    await ann.command("pair connect6")
    await bob.command("pair connect6")
    outcome = await cy.lobby.command("watch Ann")
    assert (outcome.table, outcome.watching) == ("1", True)
    assert (await cy.lobby.command("watch 1")).table == "1"
    (table,) = cy.view.tables
    assert set(table.sides) == {("ann",), ("bob",)} and table.title == "Connect6 19×19"
    await settle()
    assert people(ann)["cy"][0] == "watching"
    assert await cy.command("watch 7") == "no game numbered 7 is in progress"
    assert await ann.command("watch cy") == "cy is not playing now"
    assert await ann.command("watch dan") == "no one called dan is here"
    await close_all(ann, bob, cy)


async def test_chat_is_shown_as_written_without_control_characters():
    hub, tables = MemoryHub(), TablesOpened()
    ann, bob = await players(hub, tables, "ann", "bob")
    await ann.command("say [b]hi[/b] \x1b[31mthere\u200b\x07")
    assert [(line.name, line.text) for line in bob.view.chat] == [("ann", "[b]hi[/b] [31mthere")]
    assert await ann.command("say \u200b\x1b") == (
        "say what? say TEXT sends TEXT to everyone in the lobby"
    )
    (late,) = await players(hub, tables, "cy")
    assert [line.text for line in late.view.chat] == ["[b]hi[/b] [31mthere"]  # kept for later
    await close_all(ann, bob, late)


async def test_chat_is_held_to_its_length_and_rate_with_a_message():
    hub, tables = MemoryHub(), TablesOpened()
    now = [1000.0]
    ann, bob = await players(hub, tables, "ann", "bob", clock=lambda: now[0])
    assert await ann.command("say " + "x" * (CHAT_LINE + 1)) == (
        f"a line of chat holds at most {CHAT_LINE} characters, not {CHAT_LINE + 1}: "
        "nothing was sent"
    )
    for number in range(5):
        assert await ann.command(f"say line {number}") == ""
    assert await ann.command("say one more") == "slow down: you may say another line in 3 s"
    assert [line.text for line in bob.view.chat] == [f"line {n}" for n in range(5)]
    assert await bob.command("say bob may") == ""  # each player has an allowance of their own
    now[0] += 3
    assert await ann.command("say now again") == ""
    assert bob.view.chat[-1].text == "now again"
    await close_all(ann, bob)


async def test_the_rate_is_per_player_across_their_sessions():
    hub, tables = MemoryHub(), TablesOpened()
    ann, twin = await players(hub, tables, "ann", "ann")  # one key, two sessions
    for number in range(5):
        await (ann if number % 2 else twin).command(f"say {number}")
    assert await twin.command("say more") == "slow down: you may say another line in 3 s"
    assert [person.name for person in ann.view.people] == ["ann"]  # listed once
    await close_all(ann, twin)


async def test_a_muted_player_is_hidden_until_unmuted_and_stays_muted_next_time():
    hub, tables = MemoryHub(), TablesOpened()
    ann, bob = await players(hub, tables, "ann", "bob")
    await bob.command("say before")
    assert await ann.command("mute Bob") == (
        "you no longer see bob's chat: unmute bob shows it again"
    )
    await bob.command("say during")
    assert ann.view.chat == () and [line.text for line in bob.view.chat] == ["before", "during"]
    assert await ann.command("mute bob") == (
        "bob is muted already: unmute bob shows their chat again"
    )
    await ann.lobby.close()
    (again,) = await players(hub, tables, "ann")
    assert again.view.chat == ()  # muted for good, across visits
    assert await again.command("unmute bob") == "you see bob's chat again"
    assert [line.text for line in again.view.chat] == ["before", "during"]
    assert await again.command("unmute bob") == "bob is not muted: you mute no one"
    assert await again.command("mute ann") == "you cannot mute yourself"
    assert await again.command("mute zed") == "no one called zed is here or in the chat"
    await close_all(again, bob)


async def test_names_that_are_not_here_are_answered_with_the_closest():
    hub, tables = MemoryHub(), TablesOpened()
    ann, bob = await players(hub, tables, "ann", "bobby")
    assert await ann.command("challenge boby connect6") == (
        "no one called boby is here: did you mean bobby?"
    )
    assert await ann.command("partner ann") == (
        "you cannot partner yourself: partner NAME asks someone else"
    )
    assert await ann.command("challenge ann six") == (
        "you cannot challenge yourself: play GAME plays the computer"
    )
    await close_all(ann, bob)


async def test_refused_commands_change_nothing_held_in_the_hub():
    hub, tables = CountingHub(), TablesOpened()
    ann, bob = await players(hub, tables, "ann", "bob")
    await ann.command("pair connect6")
    hub.writes.clear()
    for refused in [
        "pair connect6",  # waiting already
        "accept bob",
        "decline bob",
        "withdraw bob",
        "challenge zed connect6",
        "challenge bob six --players 4",
        "partner zed",
        "unpartner",
        "watch bob",
        "mute zed",
        "unmute bob",
        "say \u200b",
        "pair conect6",
        "help pair",
    ]:
        await ann.command(refused)
    assert hub.writes == []
    await close_all(ann, bob)


async def test_a_session_that_falls_behind_the_news_reads_the_lobby_again():
    hub, tables = MemoryHub(), TablesOpened()
    ann, bob = await players(hub, tables, "ann", "bob")
    await bob.lobby.command("pair connect6")  # its news not yet read by ann's session...
    for _ in range(BACKLOG):  # ...when more comes than her subscription keeps
        await hub.publish(NEWS, msgpack.packb({"kind": "gone", "sid": "nobody"}))
    await settle()
    assert [pool.waiting for pool in ann.view.pools if pool.choice.key == "connect6:19"] == [1]
    await close_all(ann, bob)


async def test_news_that_cannot_be_read_is_passed_over():
    hub, tables = MemoryHub(), TablesOpened()
    ann, bob = await players(hub, tables, "ann", "bob")
    for garbage in [b"\xc1", msgpack.packb([1, 2]), msgpack.packb({"kind": "person"})]:
        await hub.publish(NEWS, garbage)
    await bob.command("say still here")
    assert [line.text for line in ann.view.chat] == ["still here"]
    await close_all(ann, bob)


# -- any line at all -----------------------------------------------------------------------

WORDS = st.sampled_from(
    [
        "pair", "unpair", "partner", "unpartner", "challenge", "accept", "decline",
        "withdraw", "play", "watch", "say", "mute", "unmute", "help", "/", "bob", "ann",
        "zed", "connect6", "gameof6", "six", "--ruleset", "romanian", "--players", "4",
        "--size", "13", "--declare", "--vs", "--computer", "hard", "7", "[b]", "\x1b[2J",
    ]
)  # fmt: skip
LINES = st.one_of(
    st.text(max_size=80), st.lists(WORDS | st.text(max_size=6), max_size=7).map(" ".join)
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(LINES, min_size=1, max_size=4))
async def test_any_line_is_answered_and_a_line_that_is_no_command_changes_nothing(lines):
    hub, tables = CountingHub(), TablesOpened()
    ann, bob = await players(hub, tables, "ann", "bob")
    try:
        for line in lines:
            before = len(hub.writes)
            answer = await ann.lobby.command(line)
            try:
                parse_command(line)
            except CommandError as why:
                assert answer.text == str(why)
                assert len(hub.writes) == before
    finally:
        await close_all(ann, bob)


async def test_sessions_share_the_entries_and_games_of_their_copies_of_the_lobby():
    hub, tables = MemoryHub(), TablesOpened()
    ann, bob, cy = await players(hub, tables, "ann", "bob", "cy")
    await ann.command("pair connect6")
    await bob.command("pair connect6")
    await settle()
    copies = [player.lobby._copy for player in (ann, bob, cy)]
    for sid, entry in copies[0].people.items():
        assert all(copy.people[sid] is entry for copy in copies)
    (table_id,) = copies[2].tables
    assert all(copy.tables[table_id] is copies[2].tables[table_id] for copy in copies)
    await close_all(ann, bob, cy)


def test_an_entry_no_copy_of_the_lobby_keeps_is_let_go():
    import gc

    from sixtui.server import lobby_copy

    first, second = lobby_copy.LobbyCopy(), lobby_copy.LobbyCopy()
    news = {"kind": "person", "sid": "s9", "person": lobby_copy.Presence("dan", "k").to_map()}
    first.heard(news)
    second.heard(news)
    assert first.people["s9"] is second.people["s9"]
    del first, second
    gc.collect()
    assert not any(entry.name == "dan" for entry in lobby_copy._PRESENCES.values())
