"""The game archive and ratings: every game that ends is kept whole with the ratings it
moved, rated only between key holders, and readable back as a record."""

from __future__ import annotations

import asyncio
import dataclasses
import math
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sixtui.ai.worker import Thinker
from sixtui.rules import new_game
from sixtui.rules.records import GameRecord
from sixtui.server.archive import (
    MIGRATIONS,
    AlreadyArchived,
    Archive,
    ArchiveFileError,
    Ended,
    open_archive,
)
from sixtui.server.archiving import ENDED_GAMES, Archivist, ended_from
from sixtui.server.hub import MemoryHub
from sixtui.server.names import NameBook
from sixtui.server.ratings import PROVISIONAL_GAMES, Rating, rate, variant
from sixtui.server.rooms import open_table
from sixtui.server.settings import Settings
from sixtui.server.shared import Shared
from sixtui.server.table_state import SeatHolder
from support.tables import ANN, BOB, CAT, DAN, ROW_WIN, connect6, play_turns, send, state_of
from support.tables import Clock as WallClock

KEYS = [SeatHolder(name, f"SHA256:{name}") for name in ("ann", "bob", "cat", "dan")]
GUEST = SeatHolder("guest-1a2b3c", "guest:guest-1a2b3c")
HAL = SeatHolder("Hal", level="easy")


def won_connect6(winner: int, size: int = 9):
    """A Connect6 game on ``size`` that team ``winner`` wins by resignation of the other,
    once each side has played a turn."""
    game = new_game("connect6", size=size)
    for point in ["E5", "A1", "A2"]:
        game.play(point)
    game.resign(1 - winner)
    return game


def test_a_win_raises_the_winner_and_lowers_the_loser():
    archive = Archive(":memory:")
    kept = archive.add(Ended(won_connect6(0), (KEYS[0], KEYS[1]), ended=1.0))
    ann, bob = archive.rating("SHA256:ann", "connect6"), archive.rating("SHA256:bob", "connect6")
    assert ann.shown > 1500 > bob.shown and ann.games == bob.games == 1
    assert [(c.name, c.before) for c in kept.changes] == [("ann", 1500), ("bob", 1500)]
    assert (kept.changes[0].after, kept.changes[1].after) == (ann.shown, bob.shown)
    # The other game's rating is untouched.
    assert archive.rating("SHA256:ann", "gameof6-large") == Rating()


def test_partners_share_their_teams_result():
    game = new_game("six", players=4)
    for _ in range(4):  # a piece each
        game.play(game.legal_moves()[0])
    game.resign(1)  # seats 1 and 3 lose
    archive = Archive(":memory:")
    archive.add(Ended(game, tuple(KEYS), ended=1.0))
    shown = [archive.rating(seat.identity, "six-steffen-partners").shown for seat in KEYS]
    assert shown[0] == shown[2] > 1500 > shown[1] == shown[3]


@pytest.mark.parametrize(
    ("seats", "status", "casual"),
    [
        ((KEYS[0], GUEST), "finished", False),
        ((KEYS[0], HAL), "finished", False),
        ((KEYS[0], KEYS[1]), "aborted", False),
        ((KEYS[0], KEYS[1]), "finished", True),
    ],
)
def test_guests_computers_aborted_and_casual_games_are_kept_unrated(seats, status, casual):
    archive = Archive(":memory:")
    kept = archive.add(Ended(won_connect6(0), seats, ended=1.0, status=status, casual=casual))
    assert kept.changes == () and archive.count() == 1
    assert archive.rating("SHA256:ann", "connect6") == Rating()
    assert '[Seat1 "ann"]' in (archive.record(kept.id) or "")


def test_an_archived_game_reads_back_as_its_record_and_replays_to_the_same_end():
    rng = random.Random(4)
    game = new_game("gameof6", size=10)
    while game.result is None:
        game.play(rng.choice(game.legal_moves()))
    archive = Archive(":memory:")
    kept = archive.add(Ended(game, (KEYS[0], KEYS[1]), ended=1.0, times=[1.5, 2.0]))
    record = GameRecord.parse(archive.record(kept.id) or "")
    assert record.game == game and record.game.result == game.result
    assert record.players == ("ann", "bob") and record.times[:3] == [1.5, 2.0, None]
    assert archive.record(kept.id + 1) is None


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.sampled_from([0, 1, None]))))
def test_ratings_over_any_results_stay_finite_and_move_the_right_way(games):
    ratings = [Rating() for _ in range(4)]
    for first, second, winner in games:
        if first == second:
            continue
        (a,), (b,) = rate([[ratings[first]], [ratings[second]]], winner)
        assert all(math.isfinite(value) for value in (a.mu, a.sigma, b.mu, b.sigma))
        assert a.sigma <= ratings[first].sigma and b.sigma <= ratings[second].sigma
        if winner == 0:
            assert a.mu > ratings[first].mu and b.mu < ratings[second].mu
        elif winner == 1:
            assert a.mu < ratings[first].mu and b.mu > ratings[second].mu
        ratings[first], ratings[second] = a, b


def test_a_game_ended_before_both_sides_played_a_turn_moves_no_rating():
    game = new_game("connect6", size=9)
    game.play("E5")
    game.resign(1)  # White resigns without a stone
    archive = Archive(":memory:")
    assert archive.add(Ended(game, (KEYS[0], KEYS[1]), ended=1.0)).changes == ()
    assert archive.rating("SHA256:ann", "connect6") == Rating() and archive.count() == 1


def test_a_rating_is_provisional_for_its_first_games():
    rating = Rating()
    for _ in range(PROVISIONAL_GAMES):
        assert rating.label.endswith("?")
        (rating,), _ = rate([[rating], [Rating()]], winner=0)
    assert not rating.label.endswith("?") and rating.shown > 1500


def test_kinds_of_game_are_rated_apart():
    assert variant("gameof6", {"size": 8}) == "gameof6-small"
    assert variant("gameof6", {"size": 26}) == "gameof6-large"
    assert variant("six", {"ruleset": "steffen", "players": 2}) == "six-steffen-two"
    assert variant("connect6", {"size": 9}) == "connect6"
    with pytest.raises(ValueError, match="no game 'go'"):
        variant("go", {})


def test_an_archive_of_a_newer_sixtui_or_not_sqlite_is_refused(tmp_path):
    newer = tmp_path / "newer.sqlite3"
    sqlite3.connect(newer).execute("PRAGMA user_version = 99").connection.close()
    with pytest.raises(ArchiveFileError, match="newer sixtui"):
        Archive(newer)
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not a database at all, just some bytes" * 100)
    with pytest.raises(ArchiveFileError, match="cannot be used for the game archive"):
        Archive(junk)


def test_the_archive_file_is_private_and_kept_across_openings(tmp_path):
    archive = open_archive(tmp_path / "data")
    archive.add(Ended(won_connect6(0), (KEYS[0], KEYS[1]), ended=1.0))
    archive.close()
    assert oct((tmp_path / "data" / "games.sqlite3").stat().st_mode & 0o777) == "0o600"
    again = open_archive(tmp_path / "data")
    assert again.count() == 1 and again.rating("SHA256:ann", "connect6").games == 1


def test_what_either_of_two_processes_writes_changes_the_archive_for_both(tmp_path):
    mine, theirs = open_archive(tmp_path), open_archive(tmp_path)
    before = mine.changes
    assert mine.changes == before  # reading changes nothing
    theirs.add(Ended(won_connect6(0), (KEYS[0], KEYS[1]), ended=1.0))
    after_theirs = mine.changes
    assert after_theirs != before
    mine.add(Ended(won_connect6(1), (KEYS[0], KEYS[1]), ended=2.0))
    assert mine.changes not in (before, after_theirs)


def test_a_game_of_an_origin_kept_already_is_not_written_twice():
    archive = Archive(":memory:")
    ended = Ended(won_connect6(0), (KEYS[0], KEYS[1]), ended=1.0, origin="7/1/9/c0ffee")
    archive.add(ended)
    with pytest.raises(AlreadyArchived, match="7/1/9/c0ffee"):
        archive.add(ended)
    assert archive.count() == 1 and archive.rating("SHA256:ann", "connect6").games == 1
    archive.add(dataclasses.replace(ended, origin=None))  # no origin: nothing to compare
    archive.add(dataclasses.replace(ended, origin=None))
    assert archive.count() == 3 and archive.holds("7/1/9/c0ffee") and not archive.holds(None)


def test_an_archive_of_the_first_schema_is_brought_forward_with_its_games(tmp_path):
    path = tmp_path / "games.sqlite3"
    first = sqlite3.connect(path, isolation_level=None)
    first.executescript(f"BEGIN; {MIGRATIONS[0]} PRAGMA user_version = 1; COMMIT;")
    first.execute(
        "INSERT INTO games (game, variant, options, rated, status, moves, ended, record)"
        " VALUES ('connect6', 'connect6', '{}', 0, 'aborted', 0, 1.0, 'a record')"
    )
    first.close()
    archive = Archive(path)
    assert archive.count() == 1 and archive.record(1) == "a record"
    archive.add(Ended(won_connect6(0), (KEYS[0], KEYS[1]), ended=2.0, origin="1/1/4/ab"))
    assert archive.holds("1/1/4/ab") and archive.count() == 2
    version = sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0]
    assert version == len(MIGRATIONS)


WRITER = """
import sys
from sixtui.rules import new_game
from sixtui.server.archive import Archive, Ended
from sixtui.server.table_state import SeatHolder
archive = Archive(sys.argv[1])
keys = [SeatHolder(name, "SHA256:" + name) for name in ("a", "b", "c", "d")]
print("ready", flush=True)
number = 0
while True:
    number += 1
    game = new_game("six", players=4)
    for _ in range(4):
        game.play(game.legal_moves()[0])
    game.resign(number % 4)
    archive.add(Ended(game, tuple(keys), ended=float(number)))
"""


def test_a_writer_killed_at_any_moment_leaves_whole_games_only(tmp_path):
    path = tmp_path / "games.sqlite3"
    rng = random.Random(1)
    for _ in range(4):
        writer = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE, text=True
        )
        assert writer.stdout is not None and writer.stdout.readline() == "ready\n"
        time.sleep(rng.uniform(0.05, 0.3))
        os.kill(writer.pid, signal.SIGKILL)
        writer.wait()
    archive = Archive(path)
    games = archive.count()
    assert games > 4
    db = sqlite3.connect(path)
    seats = db.execute("SELECT count(*) FROM seats").fetchone()[0]
    rated = db.execute("SELECT identity, games, wins + losses + draws FROM ratings").fetchall()
    assert seats == 4 * games
    assert rated and all(count == games and outcomes == games for _, count, outcomes in rated)


# -- through the hub ---------------------------------------------------------------------


async def test_a_game_that_ends_at_a_table_is_archived_once_by_one_of_two_archivists():
    hub = MemoryHub()
    first, second = Archive(":memory:"), Archive(":memory:")
    archivists = [Archivist(hub, first), Archivist(hub, second)]
    table = await connect6(hub)
    await play_turns(hub, table, ROW_WIN)
    assert (await state_of(hub, table)).status == "game-over"
    written = [await archivist.archive_waiting() for archivist in archivists]
    assert [len(each) for each in written] == [1, 0]
    record = GameRecord.parse(first.record(written[0][0].id) or "")
    assert record.players == ("Ann", "Bob") and record.game.result.reason == "six-in-a-row"
    assert second.count() == 0 and await hub.queue_list(ENDED_GAMES) == []


async def test_a_game_written_by_a_process_killed_before_its_entry_left_is_not_written_again():
    hub, archive = MemoryHub(), Archive(":memory:")
    table = await connect6(hub)
    await play_turns(hub, table, ROW_WIN)
    (entry,) = await hub.queue_list(ENDED_GAMES)
    archive.add(dataclasses.replace(ended_from(entry.value), origin=entry.member))  # then killed
    assert await Archivist(hub, archive).archive_waiting() == []
    assert archive.count() == 1 and await hub.queue_list(ENDED_GAMES) == []
    assert archive.rating(ANN.identity, "connect6").games == 1


async def test_two_archivists_on_one_file_at_once_write_each_game_once(tmp_path):
    hub = MemoryHub()
    archives = [Archive(tmp_path / "games.sqlite3") for _ in range(2)]
    tables = [
        await open_table(
            hub,
            "connect6",
            {"size": 9},
            [[SeatHolder(f"A{n}", f"key-a{n}")], [SeatHolder(f"B{n}", f"key-b{n}")]],
        )
        for n in range(6)
    ]
    for table in tables:
        holder = (await state_of(hub, table)).holder_at(0)
        await send(hub, table, holder, "resign")
    written = await asyncio.gather(*(Archivist(hub, a).archive_waiting() for a in archives))
    assert sum(len(each) for each in written) == 6 == archives[0].count()
    assert await hub.queue_list(ENDED_GAMES) == []


async def test_the_archivist_writes_games_as_they_end_and_finishes_before_it_stops():
    hub = MemoryHub()
    archive = Archive(":memory:")
    archivist = Archivist(hub, archive)
    archivist.start()
    table = await connect6(hub)
    await send(hub, table, ANN, "resign")
    for _ in range(100):
        if archive.count():
            break
        await asyncio.sleep(0.01)
    assert archive.count() == 1
    await archivist.close()


async def test_a_damaged_entry_is_dropped_and_the_rest_archived(caplog):
    hub = MemoryHub()
    archive = Archive(":memory:")
    await hub.queue_join(ENDED_GAMES, "bad", b"\xc1 not msgpack")
    await hub.queue_join(ENDED_GAMES, "odd", msgpack.packb({"game": b"x", "seats": []}))
    table = await open_four(hub)
    await send(hub, table, CAT, "resign")
    written = await Archivist(hub, archive).archive_waiting()
    assert len(written) == 1 and archive.count() == 1
    assert "entry bad dropped" in caplog.text and "entry odd dropped" in caplog.text


def test_a_queue_entry_must_describe_a_game_that_ended():
    game = won_connect6(0)
    entry = {"game": game.to_bytes(), "seats": [["ann", "k", None]], "status": "finished"}
    for broken in ({**entry, "ended": 1.0}, {**entry, "ended": "soon", "seats": [["a"], ["b"]]}):
        with pytest.raises(ValueError, match="not a game that ended"):
            ended_from(msgpack.packb(broken))
    good = {**entry, "seats": [["ann", "k", None], ["Hal", None, "easy"]], "ended": 2.0}
    assert ended_from(msgpack.packb(good)).seats[1].level == "easy"


async def open_four(hub):
    return await open_table(hub, "six", {"players": 4}, [[ANN, CAT], [BOB, DAN]], opener=0)


async def test_a_casual_table_s_games_are_archived_unrated():
    hub = MemoryHub()
    table = await open_table(hub, "connect6", {"size": 9}, [[ANN], [BOB]], opener=0, casual=True)
    await send(hub, table, ANN, "resign")
    archive = Archive(":memory:")
    (archived,) = await Archivist(hub, archive).archive_waiting()
    assert archived.changes == () and archive.rating(ANN.identity, "connect6") == Rating()
    assert (await state_of(hub, table)).casual


async def test_each_turn_s_time_is_archived_with_its_last_move():
    hub, wall = MemoryHub(), WallClock()
    table = await connect6(hub)
    for seconds, turn in zip((3, 12, 7), ("E5", "A1 A2", "F5 G5"), strict=True):
        wall.now += seconds
        await play_turns(hub, table, [turn], wall)
    await send(hub, table, BOB, "resign", clock=wall)
    archive = Archive(":memory:")
    (archived,) = await Archivist(hub, archive).archive_waiting()
    record = GameRecord.parse(archive.record(archived.id) or "")
    assert record.times[1:] == [None, 12.0, None, 7.0]  # the first from the table's opening
    assert "2. A1 A2 {12.0s} 3. F5 G5 {7.0s}" in (archive.record(archived.id) or "")


async def test_a_server_stopping_writes_the_games_that_ended_before_it_stops(tmp_path):
    archive = open_archive(tmp_path)
    shared = Shared(Settings(data_dir=tmp_path), Thinker(), NameBook(":memory:"), archive=archive)
    table = await open_table(shared.hub, "connect6", {"size": 9}, [[ANN], [BOB]], opener=0)
    await send(shared.hub, table, ANN, "resign")  # the game ends as the server is stopped
    await shared.close()
    archive.close()
    again = open_archive(tmp_path)
    assert again.count() == 1 and '[Reason "resign"]' in (again.record(1) or "")


async def test_an_archived_game_names_its_clock():
    hub = MemoryHub()
    table = await open_table(hub, "connect6", {"size": 9}, [[ANN], [BOB]], opener=0, clock="3+2")
    await play_turns(hub, table, ["E5", "A1 A2"])
    await send(hub, table, BOB, "resign")
    archive = Archive(":memory:")
    (archived,) = await Archivist(hub, archive).archive_waiting()
    assert '[Clock "3+2"]' in (archive.record(archived.id) or "")


def test_an_archive_opens_while_another_process_holds_the_new_file_for_writing(tmp_path):
    """Setting the journal, SQLite answers "locked" at once, without its busy timeout, while
    another connection holds the file for writing, as one making a new archive's schema
    does: the archive waits for it to finish."""
    path = tmp_path / "games.sqlite3"
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    done = threading.Timer(0.3, holder.execute, ["COMMIT"])
    done.start()
    started = time.monotonic()
    archive = Archive(path)
    assert time.monotonic() - started >= 0.25
    assert archive._version() == len(MIGRATIONS)
    archive.close()
    done.join()
    holder.close()


def test_server_processes_opening_a_new_archive_at_once_all_open_it(tmp_path):
    # Each process makes the schema's steps in turn; the others find them made.
    script = "import sys; from sixtui.server.archive import Archive; Archive(sys.argv[1]).close()"
    for attempt in range(5):
        path = tmp_path / f"games-{attempt}.sqlite3"
        opening = [
            subprocess.Popen([sys.executable, "-c", script, str(path)], stderr=subprocess.PIPE)
            for _ in range(4)
        ]
        said = [process.communicate(timeout=60)[1].decode() for process in opening]
        assert [process.returncode for process in opening] == [0, 0, 0, 0], said
        archive = Archive(path)
        assert archive._version() == len(MIGRATIONS)
        archive.close()
