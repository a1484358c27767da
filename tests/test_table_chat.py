"""Chat at shared tables, through the hub without screens: players talk to everyone at
the table, spectators among themselves as well, apart from the players; every line is held
to the lobby's limits and mutes, shown as written, and never touches the game."""

import unicodedata

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sixtui.server import chat
from sixtui.server.chat import Speaker
from sixtui.server.hub import BACKLOG, MemoryHub
from sixtui.server.intents import Intent
from sixtui.server.rooms import Applied, open_table, read_table, submit
from sixtui.server.table_session import TableSession
from sixtui.tui.field_lengths import CHAT_LINE
from sixtui.tui.player_text import printable
from sixtui.tui.session import Update
from support.lobby_helpers import TablesOpened, close_all, players, settle
from support.tables import ANN, BOB, CAT, DAN, Clock, connect6

CY = Speaker("cy", "key-cy")
DEE = Speaker("dee", "key-dee")


class AtTable:
    """A session at a table, and how often it told its screen of a line of chat."""

    def __init__(self, session: TableSession) -> None:
        self.session = session
        self.told = 0
        session.subscribe(self._heard)

    def _heard(self, update: Update) -> None:
        self.told += update.kind == "chat"

    def read(self) -> list[str]:
        """The chat as the screen shows it: each line after its speaker's name, those of
        the spectators' chat marked."""
        return [
            f"{line.name}{' (watching)' if line.spectators else ''}: {line.text}"
            for line in self.session.chat_lines
        ]

    async def say(self, text: str) -> str:
        refused = await self.session.say(text)
        await settle()
        return refused


async def seated(hub, table, *identities, clock=None) -> list[AtTable]:
    extra = {"clock": clock} if clock else {}
    return [AtTable(await TableSession.join(hub, table, who, **extra)) for who in identities]


async def watching(hub, table, *watchers: Speaker | None) -> list[AtTable]:
    return [AtTable(await TableSession.join(hub, table, watcher=who)) for who in watchers]


async def leave(*sessions: AtTable) -> None:
    for at_table in sessions:
        await at_table.session.close()


async def test_two_players_each_read_the_others_lines_under_their_name(hub):
    table = await connect6(hub)
    ann, bob = await seated(hub, table, ANN.identity, BOB.identity)
    assert ann.session.may_chat and ann.session.chat_readers == "everyone at the table"
    assert await ann.say("good luck") == ""
    assert await bob.say("  you too  ") == ""
    assert ann.read() == bob.read() == ["Ann: good luck", "Bob: you too"]
    assert (ann.told, bob.told) == (2, 2)
    await leave(ann, bob)


async def test_the_spectators_talk_among_themselves_and_the_players_never_see_it(hub):
    table = await connect6(hub)
    ann, bob = await seated(hub, table, ANN.identity, BOB.identity)
    cy, dee = await watching(hub, table, CY, DEE)
    assert cy.session.chat_readers == "the spectators alone"
    await cy.say("Bob should block E5")
    assert dee.read() == cy.read() == ["cy (watching): Bob should block E5"]
    assert ann.read() == bob.read() == [] and ann.told == bob.told == 0
    await ann.session.resign()  # once the game is over too
    await dee.say("well played")
    assert ann.read() == bob.read() == []
    await leave(ann, bob, cy, dee)


async def test_a_spectator_reads_both_chats_in_the_order_said_even_coming_late(hub):
    table = await connect6(hub)
    ann, bob = await seated(hub, table, ANN.identity, BOB.identity)
    (cy,) = await watching(hub, table, CY)
    await ann.say("hi")
    await cy.say("hello from the stands")
    await bob.say("hi ann")
    said = ["Ann: hi", "cy (watching): hello from the stands", "Bob: hi ann"]
    assert cy.read() == said and cy.told == 3
    late, nameless = await watching(hub, table, DEE, None)
    assert late.read() == nameless.read() == said  # the lines kept for those who come later
    assert not nameless.session.may_chat
    assert await nameless.say("hey") == "you watch this table without a name: nothing was sent"
    await leave(ann, bob, cy, late, nameless)


async def test_partners_have_no_channel_of_their_own_all_four_read_every_line(hub):
    table = await open_table(hub, "six", {"players": 4}, [[ANN, CAT], [BOB, DAN]], opener=0)
    four = await seated(hub, table, *(holder.identity for holder in (ANN, BOB, CAT, DAN)))
    for at_table, text in zip(four, ("one", "two", "three", "four"), strict=True):
        await at_table.say(text)
    for at_table in four:
        assert at_table.read() == ["Ann: one", "Bob: two", "Cat: three", "Dan: four"]
    await leave(*four)


async def test_a_line_too_long_too_fast_or_empty_is_refused_in_words_and_not_sent(hub):
    clock = Clock()
    table = await connect6(hub)
    ann, bob = await seated(hub, table, ANN.identity, BOB.identity, clock=clock)
    assert await ann.say("x" * (CHAT_LINE + 1)) == (
        f"a line of chat holds at most {CHAT_LINE} characters, not {CHAT_LINE + 1}: "
        "nothing was sent"
    )
    assert await ann.say(" \u200b\x1b ") == (
        "say what? type a line of chat, then Enter: nothing was sent"
    )
    for number in range(chat.BURST):
        assert await ann.say(f"line {number}") == ""
    assert await ann.say("one more") == "slow down: you may say another line in 3 s"
    assert bob.read() == [f"Ann: line {number}" for number in range(chat.BURST)]
    clock.now += chat.REFILL
    assert await ann.say("now again") == ""
    assert bob.read()[-1] == "Ann: now again"
    await leave(ann, bob)


async def test_one_allowance_holds_in_the_lobby_and_at_every_table(hub):
    clock = Clock()
    (lobby,) = await players(hub, TablesOpened(), "Ann", clock=clock)
    table = await connect6(hub)
    ann, bob = await seated(hub, table, ANN.identity, BOB.identity, clock=clock)
    for number in range(chat.BURST):
        assert await lobby.command(f"say lobby line {number}") == ""
    assert await ann.say("and here") == "slow down: you may say another line in 3 s"
    assert bob.read() == []
    await leave(ann, bob)
    await close_all(lobby)


async def test_lines_are_shown_as_written_never_as_markup_or_terminal_codes(hub):
    table = await connect6(hub)
    ann, bob = await seated(hub, table, ANN.identity, BOB.identity)
    await ann.say("[bold]x[/] \x1b[31mred\x1b[0m a\u200bb \u202eevil\u202c\x07 [link=x]y[/link]")
    assert bob.read() == ["Ann: [bold]x[/] [31mred[0m ab evil [link=x]y[/link]"]
    await leave(ann, bob)


async def test_a_player_muted_in_the_lobby_is_hidden_at_every_table(hub):
    tables = TablesOpened()
    ann_lobby, bob_lobby = await players(hub, tables, "Ann", "Bob")
    table = await connect6(hub)
    ann, bob = await seated(hub, table, ANN.identity, BOB.identity)
    (cy,) = await watching(hub, table, CY)
    await bob.say("before")
    assert await ann_lobby.command("mute bob") == (
        "you no longer see Bob's chat: unmute Bob shows it again"
    )
    await bob.say("during")
    assert ann.read() == [] and ann.told == 1  # "during" was never told
    assert cy.read() == ["Bob: before", "Bob: during"]
    await ann_lobby.command("unmute bob")
    await bob.say("after")
    assert ann.read() == ["Bob: before", "Bob: during", "Bob: after"]
    await leave(ann, bob, cy)
    await close_all(ann_lobby, bob_lobby)


async def test_chat_leaves_the_table_alone_and_a_turn_seen_before_a_line_is_not_stale(hub):
    table = await connect6(hub)
    ann, bob = await seated(hub, table, ANN.identity, BOB.identity)
    (cy,) = await watching(hub, table, CY)
    seen = (await read_table(hub, table)).version
    await bob.say("your move")
    await cy.say("go on")
    assert (await read_table(hub, table)).version == seen
    outcome = await submit(hub, table, Intent("turn", seen, ANN.identity, ("E5",)).to_bytes())
    assert isinstance(outcome, Applied)
    await leave(ann, bob, cy)


async def test_chat_news_that_cannot_be_read_or_falls_behind_is_read_again(hub):
    table = await connect6(hub)
    ann, bob = await seated(hub, table, ANN.identity, BOB.identity)
    await ann.say("first")
    for _ in range(BACKLOG + 1):
        await hub.publish(chat.players_chat(table).topic, b"\xc1 not news")
    await settle()
    await ann.say("second")
    assert bob.read() == ["Ann: first", "Ann: second"]
    await leave(ann, bob)


# -- any line at all -----------------------------------------------------------------------

LINES = st.one_of(
    st.text(max_size=CHAT_LINE + 20),
    st.lists(
        st.sampled_from(["[b]", "[/]", "\x1b[2J", "\u200b", "\u202e", "\x00", "日本", " "]),
        max_size=12,
    ).map("".join),
)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(LINES, min_size=1, max_size=4))
async def test_any_line_is_refused_in_words_or_shown_as_its_printable_self(lines):
    hub, clock = MemoryHub(), Clock()
    table = await connect6(hub)
    ann, bob = await seated(hub, table, ANN.identity, BOB.identity, clock=clock)
    try:
        for line in lines:
            clock.now += chat.REFILL
            before = bob.session.chat_lines
            refused = await ann.say(line)
            if refused:
                assert refused.endswith("nothing was sent")
                assert bob.session.chat_lines == before
            else:
                said = bob.session.chat_lines[-1]
                assert said.text == printable(line).strip() != ""
                assert not any(unicodedata.category(c)[0] == "C" for c in said.text)
    finally:
        await leave(ann, bob)
        await hub.close()
