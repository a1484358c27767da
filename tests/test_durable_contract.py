"""What any keeper of the durable records must do (``sixtui.server.durable``): run against
every implementation there is (today the SQLite files of the data folder), each test
opening the same records as often as it likes, as several server processes do."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sixtui.rules import new_game
from sixtui.server.archive import AlreadyArchived, Ended
from sixtui.server.durable import GameRecords, NameRecords, open_durable
from sixtui.server.ratings import Rating
from sixtui.server.table_state import SeatHolder

Opener = Callable[[], tuple[NameRecords, GameRecords]]
ANN, BOB = SeatHolder("ann", "SHA256:ann"), SeatHolder("bob", "SHA256:bob")
GUEST = SeatHolder("guest-1a2b3c", "guest:guest-1a2b3c")


@pytest.fixture(params=["sqlite"])
def opened(request, tmp_path: Path) -> Iterator[Opener]:
    """Opens the records of one store once more at each call: another server process."""
    made: list[tuple[NameRecords, GameRecords]] = []

    def again() -> tuple[NameRecords, GameRecords]:
        made.append(open_durable(tmp_path / "data"))
        return made[-1]

    yield again
    for names, games in made:
        names.close()
        games.close()


def won(winner: int, origin: str | None = None, seats=(ANN, BOB)) -> Ended:
    """A Connect6 game on 9×9 that side ``winner`` wins once each side has played."""
    game = new_game("connect6", size=9)
    for point in ["E5", "A1", "A2"]:
        game.play(point)
    game.resign(1 - winner)
    return Ended(game, seats, ended=1.0, origin=origin)


# -- names ---------------------------------------------------------------------------------


def test_a_name_belongs_to_the_first_key_in_any_letter_case(opened):
    names, _ = opened()
    assert names.claim("ann", "SHA256:one") is None
    assert names.claim("ann", "SHA256:one") is None  # hers already
    assert names.claim("ANN", "SHA256:two") == (
        "the name ANN belongs to another player (another SSH key)"
    )


def test_a_name_claimed_in_one_process_is_taken_in_another(opened):
    first, _ = opened()
    second, _ = opened()
    assert first.claim("bob", "SHA256:one") is None
    assert second.claim("Bob", "SHA256:two") is not None


@settings(
    max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.text(max_size=30))
def test_a_name_no_one_may_have_is_refused_in_words_and_stays_free(opened, name):
    names, _ = opened()
    refused = names.claim(name, "SHA256:one")
    if refused is not None:
        assert refused[:1].islower() and "\n" not in refused
        assert names.claim(name, "SHA256:two") == refused  # nobody has it


# -- games ---------------------------------------------------------------------------------


def test_a_game_added_is_read_back_with_the_ratings_it_moved(opened):
    _, games = opened()
    kept = games.add(won(0, origin="t1/1"))
    assert games.count() == 1 and games.holds("t1/1") and not games.holds(None)
    assert games.number_of_game("t1") == kept.id
    record = games.record(kept.id) or ""
    assert '[Result "1-0"]' in record
    ann, bob = games.rating(ANN.identity, "connect6"), games.rating(BOB.identity, "connect6")
    assert ann.shown > 1500 > bob.shown and ann.games == bob.games == 1
    assert [(c.name, c.before, c.after) for c in kept.changes] == [
        ("ann", 1500, ann.shown),
        ("bob", 1500, bob.shown),
    ]
    assert games.player("ANN") == (ANN.identity, "ann")
    (standing,) = games.standings(ANN.identity)
    assert (standing.variant, standing.wins, standing.losses) == ("connect6", 1, 0)
    (played,) = games.recent(BOB.identity)
    assert (played.outcome, played.opponents) == ("lost", "ann")


def test_a_game_of_one_origin_is_kept_once_whichever_process_adds_it(opened):
    _, first = opened()
    _, second = opened()
    first.add(won(0, origin="t1/1/9/c0ffee"))
    with pytest.raises(AlreadyArchived):
        second.add(won(0, origin="t1/1/9/c0ffee"))
    assert second.count() == 1 and second.rating(ANN.identity, "connect6").games == 1


def test_what_another_process_adds_changes_what_this_one_reads(opened):
    _, mine = opened()
    _, theirs = opened()
    before = mine.changes
    assert mine.changes == before
    theirs.add(won(1))
    assert mine.changes != before
    assert mine.count() == 1 and mine.rating(BOB.identity, "connect6").shown > 1500


def test_a_game_with_a_guest_is_kept_unrated(opened):
    _, games = opened()
    kept = games.add(won(0, seats=(ANN, GUEST)))
    assert kept.changes == () and games.rating(ANN.identity, "connect6") == Rating()
    assert games.count() == 1


def test_the_leaderboard_holds_players_past_their_provisional_games(opened):
    _, games = opened()
    assert games.top("connect6") == []
    for _ in range(10):
        games.add(won(0))
    assert [name for name, _ in games.top("connect6")] == ["ann", "bob"]


def test_what_was_kept_outlives_the_process_that_kept_it(opened):
    names, games = opened()
    names.claim("ann", "SHA256:ann")
    games.add(won(0))
    names.close()
    games.close()
    names, games = opened()
    assert names.claim("ann", "SHA256:other") is not None and games.count() == 1
