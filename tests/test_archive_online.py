"""The archive online: a player's profile, the leaderboards and archived games replayed
from the lobby, by command and on the screen; ratings beside names at the table."""

from __future__ import annotations

import asyncio
import random

from sixtui.rules import new_game
from sixtui.rules.records import GameRecord
from sixtui.server.archive import Archive, Ended
from sixtui.server.archiving import Archivist
from sixtui.server.hub import MemoryHub
from sixtui.server.lobby import HubLobby
from sixtui.server.ratings import PROVISIONAL_GAMES
from sixtui.server.rooms import open_table
from sixtui.server.table_session import TableSession
from sixtui.server.table_state import SeatHolder
from sixtui.tui.screens.dialogs import summary_text
from sixtui.tui.screens.page import PageScreen
from sixtui.tui.screens.replay import ReplayScreen
from sixtui.tui.session import Update
from support.lobby_helpers import LobbyApp, TablesOpened, settle
from support.tables import ANN as TABLE_ANN
from support.tables import BOB as TABLE_BOB
from support.tables import connect6, play_turns, send
from support.tui_helpers import SIZE, burst, screen_names

ANN, BOB, GUEST = (
    SeatHolder("ann", "key-ann"),
    SeatHolder("bob", "key-bob"),
    SeatHolder("guest-abc", "guest:guest-abc"),
)


def played(archive: Archive, games: int, seats=(ANN, BOB), seed: int = 1) -> list:
    """``games`` games of Connect6 on 9×9, won by the first seat's player by resignation
    after a few random stones; the games, in order."""
    rng = random.Random(seed)
    kept = []
    for number in range(games):
        game = new_game("connect6", size=9)
        for _ in range(rng.randrange(3, 9)):  # both sides play a turn: the game is rated
            game.play(rng.choice(game.legal_moves()))
        game.resign(1)
        archive.add(Ended(game, seats, ended=1_764_000_000.0 + number))
        kept.append(game)
    return kept


async def lobby_of(hub, name: str, archive: Archive | None) -> HubLobby:
    lobby = await HubLobby.open(hub, name, f"key-{name}", TablesOpened(), archive=archive)
    await settle()
    return lobby


async def test_a_profile_shows_ratings_results_and_the_last_games_newest_first():
    archive = Archive(":memory:")
    hub = MemoryHub()
    ann = await lobby_of(hub, "ann", archive)
    assert (await ann.command("profile bob")).text == "bob has played no game here with an SSH key"
    played(archive, 12)
    page = (await ann.command("profile BOB")).page
    assert page is not None and page.title == "bob's profile"
    connect6 = next(line for line in page.lines if "Connect6" in line and "won" in line)
    assert "0 won, 12 lost, 0 drawn" in connect6 and "?" not in connect6.split()[1]
    games = [line.strip() for line in page.lines if line.strip().startswith("#")]
    assert len(games) == 10 and games[0].startswith("#12 ") and games[-1].startswith("#3 ")
    assert "against ann: lost (resigned)" in games[0] and "→" in games[0]  # said of bob
    await ann.close()


async def test_a_profile_names_the_boards_a_game_of_6_rating_is_kept_for():
    archive = Archive(":memory:")
    game = new_game("gameof6", size=8)
    for point in ("D4", "E5", "E6"):  # both sides play: rated
        game.play(point)
    game.resign(1)
    archive.add(Ended(game, (ANN, BOB), ended=1_764_000_000.0))
    ann = await lobby_of(MemoryHub(), "ann", archive)
    page = (await ann.command("profile bob")).page
    assert page is not None
    (game_line,) = [line for line in page.lines if line.strip().startswith("#1 ")]
    assert "Game of 6 small (8×8 to 12×12) against ann: lost" in game_line
    await ann.close()


async def test_the_leaderboard_lists_players_past_their_provisional_games_best_first():
    archive = Archive(":memory:")
    ann = await lobby_of(MemoryHub(), "ann", archive)
    played(archive, PROVISIONAL_GAMES - 1)
    assert (await ann.command("top connect6")).text == "nobody has 10 rated games of Connect6 yet"
    played(archive, 1)
    page = (await ann.command("top connect6")).page
    assert page is not None and page.title == "The best at Connect6"
    assert [line.split()[:2] for line in page.lines] == [["1.", "ann"], ["2.", "bob"]]
    assert (await ann.command("top six")).text.startswith("nobody has 10")
    await ann.close()


async def test_a_guests_games_are_kept_unrated_and_replay_finds_any_game_by_number():
    archive = Archive(":memory:")
    ann = await lobby_of(MemoryHub(), "ann", archive)
    (game,) = played(archive, 1, seats=(ANN, GUEST))
    page = (await ann.command("profile ann")).page
    assert page is not None and any("unrated" in line for line in page.lines)
    assert any("none yet" in line for line in page.lines)
    outcome = await ann.command("replay 1")
    assert outcome.record is not None and GameRecord.parse(outcome.record).game == game
    assert (await ann.command("replay 2")).text == "there is no game 2 in the archive"
    assert (await ann.command("profile guest-abc")).text.endswith("with an SSH key")
    await ann.close()


async def test_without_an_archive_the_lobby_says_so():
    ann = await lobby_of(MemoryHub(), "ann", None)
    assert (await ann.command("top connect6")).text == "this server keeps no archive of games"
    await ann.close()


async def test_on_the_screen_a_profile_opens_as_a_page_and_a_replay_over_the_lobby():
    archive = Archive(":memory:")
    played(archive, 2)
    ann = await lobby_of(MemoryHub(), "ann", archive)
    app = LobbyApp(ann)
    async with app.run_test(size=SIZE) as pilot:
        await burst(pilot, "slash", *"profile ann", "enter")
        assert screen_names(app)[-1] == "PageScreen"
        assert isinstance(app.screen, PageScreen) and app.screen.page.title == "ann's profile"
        await pilot.press("escape")
        await burst(pilot, "slash", *"replay 2", "enter")
        assert isinstance(app.screen, ReplayScreen) and app.screen.session.moves > 0
        await pilot.press("end", "r")
        assert isinstance(app.screen, PageScreen)
        assert app.screen.page.lines[0] == '[Game "connect6"]'
        await pilot.press("q", "q")
        assert screen_names(app)[-1] == "LobbyScreen"
    await ann.close()


async def test_at_a_table_ratings_show_beside_names_and_move_when_the_game_is_archived():
    hub, archive = MemoryHub(), Archive(":memory:")
    archivist = Archivist(hub, archive)
    archivist.start()
    table = await connect6(hub)
    ann = await TableSession.join(hub, table, TABLE_ANN.identity, archive=archive)
    watcher = await TableSession.join(hub, table, archive=archive)
    heard: list[Update] = []
    ann.subscribe(heard.append)
    assert [ann.player_at(seat).rating for seat in (0, 1)] == ["1500?", "1500?"]
    await play_turns(hub, table, ["E5", "A1 A2"])
    await send(hub, table, TABLE_BOB, "resign")
    for _ in range(200):
        if any(update.kind == "table" for update in heard):
            break
        await asyncio.sleep(0.01)
    assert [update.text for update in heard if update.kind == "table"] == [
        "archived as #1 (replay 1 in the lobby); ratings: Ann 1611 (+111), Bob 1389 (-111)"
    ]
    assert [ann.player_at(seat).rating for seat in (0, 1)] == ["1611?", "1389?"]
    assert watcher.player_at(1).rating == "1389?"
    assert ann.archived_as == watcher.archived_as == 1 and ann.terms == "rated"
    assert "Archived as game 1: replay 1 in the lobby." in summary_text(ann)
    assert "Not rated" not in summary_text(ann)
    await ann.close()
    await watcher.close()
    await archivist.close()


async def test_a_game_resigned_before_each_side_played_says_at_the_end_that_it_is_not_rated():
    hub, archive = MemoryHub(), Archive(":memory:")
    archivist = Archivist(hub, archive)
    archivist.start()
    table = await connect6(hub)
    ann = await TableSession.join(hub, table, TABLE_ANN.identity, archive=archive)
    await play_turns(hub, table, ["E5"])
    await send(hub, table, TABLE_BOB, "resign")  # before bob's first turn
    for _ in range(200):
        if ann.archived_as is not None:
            break
        await asyncio.sleep(0.01)
    assert ann.terms == "rated" and ann.game.is_over
    assert [ann.player_at(seat).rating for seat in (0, 1)] == ["1500?", "1500?"]  # unmoved
    lines = summary_text(ann).splitlines()
    assert "Not rated: the game ended before each side had played a turn." in lines
    assert lines[-1] == "Archived as game 1: replay 1 in the lobby."
    await ann.close()
    await archivist.close()


async def test_a_waiting_player_s_rating_at_that_game_shows_in_the_list_of_people():
    archive = Archive(":memory:")
    played(archive, 3)  # ann beat bob three times at Connect6
    hub = MemoryHub()
    ann, bob = await lobby_of(hub, "ann", archive), await lobby_of(hub, "bob", archive)
    await ann.command("pair connect6 --size 9")
    await settle()
    people = {person.name: person for person in bob.view().people}
    expected = archive.rating("key-ann", "connect6").label
    assert people["ann"].rating == expected and expected != "1500?"
    assert people["bob"].rating == ""  # not waiting
    await ann.close()
    await bob.close()


async def test_an_unrated_table_says_why_and_its_game_is_told_archived_without_ratings():
    hub, archive = MemoryHub(), Archive(":memory:")
    archivist = Archivist(hub, archive)
    archivist.start()
    guest = SeatHolder("guest-abc", "guest:guest-abc")
    table = await open_table(hub, "connect6", {"size": 9}, [[TABLE_ANN], [guest]], opener=0)
    ann = await TableSession.join(hub, table, TABLE_ANN.identity, archive=archive)
    heard: list[Update] = []
    ann.subscribe(heard.append)
    assert ann.terms == "unrated: a guest plays" and ann.archived_as is None
    await play_turns(hub, table, ["E5", "A1 A2"])
    await send(hub, table, TABLE_ANN, "resign")
    for _ in range(200):
        if ann.archived_as is not None:
            break
        await asyncio.sleep(0.01)
    assert [update.text for update in heard if update.kind == "table"] == [
        "archived as #1 (replay 1 in the lobby)"
    ]
    assert [ann.player_at(seat).rating for seat in (0, 1)] == ["1500?", ""]
    await ann.close()
    await archivist.close()


async def test_the_games_in_progress_show_their_players_ratings_clock_and_casual_play():
    archive = Archive(":memory:")
    played(archive, 3)  # ann beat bob three times at Connect6
    hub = MemoryHub()
    ann, bob, cy = [
        await HubLobby.open(hub, name, f"key-{name}", open_table, archive=archive)
        for name in ("ann", "bob", "cy")
    ]
    await settle()
    await ann.command("challenge bob connect6 --size 9 --clock 5+3 --casual")
    await settle()
    await bob.command("accept ann")
    await settle()
    (table,) = cy.view().tables
    ratings = dict(zip(sum(table.sides, ()), sum(table.ratings, ()), strict=True))
    assert ratings == {
        "ann": archive.rating("key-ann", "connect6").label,
        "bob": archive.rating("key-bob", "connect6").label,
    }
    assert ratings["ann"] != ratings["bob"]
    assert (table.clock, table.casual) == ("5+3", True)
    for lobby in (ann, bob, cy):
        await lobby.close()


async def test_a_profile_s_long_game_lines_wrap_under_their_first_words():
    archive = Archive(":memory:")
    long_names = (
        SeatHolder("ann", "key-ann"),
        SeatHolder("bartholomew-the-patient", "key-bart"),
        SeatHolder("cy", "key-cy"),
        SeatHolder("dorothea-of-the-long-name", "key-dot"),
    )
    game = new_game("six", players=4)
    rng = random.Random(3)
    for _ in range(8):
        game.play(rng.choice(game.legal_moves()))
    game.resign(1)
    archive.add(Ended(game, long_names, ended=1_764_000_000.0))
    ann = await lobby_of(MemoryHub(), "ann", archive)
    page = (await ann.command("profile ann")).page
    assert page is not None and all(len(line) <= 78 for line in page.lines)
    at = next(n for n, line in enumerate(page.lines) if line.startswith("  #1 "))
    following = page.lines[at + 1]
    assert following.startswith(" " * 22) and not following[22].isspace()
    assert "dorothea-of-the-long-name" in " ".join(page.lines[at : at + 3])
    await ann.close()
