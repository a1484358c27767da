"""Online play end to end with real OpenSSH clients, each logged in with a key of its
own under a pseudo-terminal read through ``pyte``: players meet in the lobby, pair from
its command line and play by typing turns; four pair for partner Six; a player whose ssh
is killed mid-turn, a stone staged, is waited for, and comes back with the same key to the
position of the last turn sent.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from support.ssh_client import LOBBY
from support.ssh_screen import BLACK, SshTerminal, make_key, need_openssh, ssh_command

# Black makes six in a row along row 10 (O10 the sixth) while White's stones in column A
# leave a gap; each turn as it is typed, and the points of each as the move list shows them.
SIX_IN_A_ROW = ["J10", "A1 A2", "K10 L10", "A3 A4", "M10 N10", "A6 A7", "O10 P10"]
SHOWN = [turn.split() for turn in SIX_IN_A_ROW]
WAIT = 10.0  # seconds a screen may take to show what another player did
AWAY = re.compile(r"away( ·)? \d+ s")  # a seat's countdown, long or short

Players = Callable[[str], SshTerminal]


@pytest.fixture
async def players(tmp_path: Path, server: int) -> AsyncIterator[Players]:
    """Starts ``ssh -tt`` as the player NAME, with NAME's own key (made on first use, and
    the same at every login), to conftest.py's server in this test's event loop; whatever
    is left of the clients is ended afterwards."""
    ssh, keygen = need_openssh()
    started: list[SshTerminal] = []

    def start(name: str) -> SshTerminal:
        where = tmp_path / name
        if not where.exists():
            where.mkdir()
            make_key(keygen, where)
        options = ("-i", str(where / "key"), "-o", "IdentitiesOnly=yes")
        terminal = SshTerminal(ssh_command(ssh, server, *options, user=name), tmp_path)
        started.append(terminal)
        terminal.start()
        return terminal

    yield start
    for terminal in started:
        terminal.close()


async def pair(terminals: dict[str, SshTerminal], command: str) -> None:
    """Every player types ``command`` in the lobby; waits until each is at the table."""
    for name, terminal in terminals.items():
        await terminal.wait_for_text(f"{LOBBY} {name}")
        terminal.press(f"/{command}\r")
    for terminal in terminals.values():
        await terminal.wait_for_text("Game 1 · wins", WAIT)


async def opener_first(ann: SshTerminal, bob: SshTerminal) -> tuple[SshTerminal, SshTerminal]:
    """The two players' terminals, the one whose player opens first: theirs is the only
    status line that asks for a stone."""
    await ann.wait_until(lambda: ": place a stone" in ann.text or " to move" in ann.text, WAIT)
    return (ann, bob) if ": place a stone" in ann.text else (bob, ann)


async def play(mover: SshTerminal, other: SshTerminal, number: int) -> None:
    """``mover`` types turn ``number`` of :data:`SIX_IN_A_ROW` once it is theirs; waits
    until the other screen shows it (the last one: the game's summary)."""
    await mover.wait_until(lambda: mover.turn(number) is None and ": place" in mover.text, WAIT)
    mover.press(f"/{SIX_IN_A_ROW[number - 1]}\r")
    if number == len(SIX_IN_A_ROW):
        await other.wait_for_text("wins as Black: six in a row", WAIT)
    else:
        await other.wait_until(lambda: other.turn(number) == SHOWN[number - 1], WAIT, f"{number}")


async def test_two_players_pair_from_the_lobby_and_finish_a_game_typing_turns(
    players: Players,
) -> None:
    terminals = {"ann": players("ann"), "bob": players("bob")}
    await pair(terminals, "pair connect6")
    first, second = await opener_first(terminals["ann"], terminals["bob"])
    for number in range(1, len(SIX_IN_A_ROW) + 1):
        mover, other = (first, second) if number % 2 else (second, first)
        await play(mover, other, number)
    for terminal in terminals.values():
        await terminal.wait_for_text("wins as Black: six in a row", WAIT)
    first.press("b")  # from the summary to the board
    await first.wait_until(
        lambda: all(first.stone_at(f"{column}10") in BLACK for column in "JKLMNO"),
        WAIT,
        "six in a row on the board",
    )
    for terminal in terminals.values():
        terminal.press("q")  # leaves the board, or the summary: back in the lobby
        await terminal.wait_for_text(LOBBY, WAIT)


async def test_four_players_pair_for_partner_six_and_each_sees_all_four(players: Players) -> None:
    names = ("ann", "bob", "cy", "dee")
    terminals = {name: players(name) for name in names}
    await pair(terminals, "pair six --players 4")
    for terminal in terminals.values():
        await terminal.wait_until(
            lambda t=terminal: all(f" {name}" in t.text for name in names), WAIT, "four names"
        )


async def test_a_player_whose_ssh_is_killed_mid_turn_is_waited_for_and_comes_back_where_they_were(
    players: Players,
) -> None:
    terminals = {"ann": players("ann"), "bob": players("bob")}
    await pair(terminals, "pair connect6")
    first, second = await opener_first(terminals["ann"], terminals["bob"])
    await play(first, second, 1)
    await play(second, first, 2)
    name = "ann" if first is terminals["ann"] else "bob"  # to move: killed mid-turn
    await first.wait_until(lambda: ": place" in first.text, WAIT, "the third turn")
    first.press("\x1b[B\r")  # the cursor a point down from J10, and a stone staged there
    await first.wait_for_text("J9 goes to the table", WAIT)
    assert first.process is not None
    first.process.kill()  # no goodbye: the client is simply gone
    await second.wait_for_text(f"{name} left the table", WAIT)
    await second.wait_until(lambda: AWAY.search(second.text), WAIT, f"{name}'s seat marked away")
    assert second.turn(3) is None and second.stone_at("J9") == "·"
    back = players(name)  # the same key
    await back.wait_until(lambda: back.turn(2) == SHOWN[1], WAIT, "the table as it was")
    assert back.turn(1) == SHOWN[0] and LOBBY not in back.text
    assert back.turn(3) is None and back.stone_at("J9") == "·"  # the staged stone is gone
    await second.wait_for_text(f"{name} came back", WAIT)
    await second.wait_until(lambda: not AWAY.search(second.text), WAIT, f"{name}'s seat back")
    await play(back, second, 3)  # and the game goes on
