"""Game records: every game round-trips through its text, and a damaged record is
refused with the line that goes wrong."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sixtui.rules import new_game
from sixtui.rules.records import GameRecord, RecordError
from support.six_games import OPTION_ARGUMENTS

GAME_OPTIONS = [
    ("connect6", {"size": 19}),
    ("connect6", {"size": 9}),
    ("gameof6", {"size": 19}),
    ("gameof6", {"size": 8}),
    *(("six", options) for options in OPTION_ARGUMENTS),
]
ENDINGS = ("natural", "resign", "left", "time", "agreement", "unfinished")
names = st.text(st.characters(codec="utf-8", categories=("L", "N", "P", "S", "Zs")), max_size=12)


def random_game(name: str, options: dict, seed: int, ending: str, most_moves: int = 80):
    rng = random.Random(seed)
    game = new_game(name, **options)
    for _ in range(rng.randrange(most_moves)):
        if game.result is not None:
            break
        game.play(rng.choice(game.legal_moves()))
    if game.result is None and ending in ("resign", "left", "time"):
        seat = rng.randrange(game.players)
        {"resign": game.resign, "left": game.forfeit, "time": game.time_out}[ending](seat)
    elif game.result is None and ending == "agreement":
        game.agree_draw()
    return game


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(GAME_OPTIONS),
    st.integers(0, 2**32 - 1),
    st.sampled_from(ENDINGS),
    st.lists(names, min_size=4, max_size=4),
    st.dictionaries(st.sampled_from(["Date", "Event", "Site", "Clock", "Notes"]), names),
    st.data(),
)
def test_every_game_reads_back_as_written(game_options, seed, ending, players, headers, data):
    name, options = game_options
    game = random_game(name, options, seed, ending)
    moves = len(game.history)
    times = data.draw(
        st.lists(st.none() | st.floats(0, 1e5).map(lambda s: round(s, 1)), max_size=moves)
    )
    record = GameRecord(game, tuple(players[: game.players]), headers, times)

    again = GameRecord.parse(str(record))

    assert again.game == game and again.game.result == game.result
    assert again.players == record.players
    assert again.headers == record.headers
    assert again.times == record.times
    assert str(again) == str(record)


def test_a_record_shows_turns_times_and_the_result():
    game = new_game("connect6")
    for point in ["J10", "K11", "K9", "J9", "J11", "L12", "L13", "J8", "J7", "A1", "A2", "J12"]:
        game.play(point)
    record = GameRecord(game, ("ann", 'bo "the rock"'), {"Event": "casual"}, [0.4, 12.25])
    text = str(record)
    assert text.splitlines()[:6] == [
        '[Game "connect6"]',
        '[Event "casual"]',
        '[Seat1 "ann"]',
        '[Seat2 "bo \\"the rock\\""]',
        '[Size "19"]',
        '[Result "1-0"]',
    ]
    assert '[Reason "six-in-a-row"]' in text
    assert text.endswith(
        "1. J10 {0.4s} 2. K11 {12.2s} K9 3. J9 J11 4. L12 L13 5. J8 J7 6. A1 A2 7. J12 1-0"
    )


def test_a_hand_written_record_is_read_with_notes_lowercase_and_line_breaks():
    text = """
[Game "gameof6"]
[Size "9"]
[Seat1 "ann"]

1. e6 {a quiet start}
2. a1 {3s} a2
3. f5 e4 4. a3 a4 5. d5
"""
    record = GameRecord.parse(text)
    assert [str(move) for move in record.game.history] == [
        "E6", "A1", "A2", "F5", "E4", "A3", "A4", "D5",
    ]  # fmt: skip
    assert record.game.colored_count(0) == 1 and record.game.result is None
    assert record.players == ("ann", "?") and record.times[1] == 3.0
    assert record.times.count(None) == 7


def test_a_partner_game_of_six_names_four_seats_and_who_resigned():
    game = random_game("six", {"ruleset": "romanian", "players": 4}, 7, "unfinished", 12)
    game.resign(2)
    text = str(GameRecord(game, ("a", "b", "c", "d")))
    assert '[Seat4 "d"]' in text and '[Players "4"]' in text
    assert '[EndedBy "Seat3"]' in text and '[Result "0-1"]' in text
    assert GameRecord.parse(text).game.conceding_seat == 2


DAMAGED = [
    ("", 1, "names no game"),
    ('[Game "chess"]', 1, "there is no game 'chess'"),
    ('[Game "connect6"]\n[Size "99"]', 2, "6 to 19 wide, not 99"),
    ('[Game "connect6"]\n[Size "big"]', 2, "Size is a whole number"),
    ('[Game "six"]\n[Ruleset "german"]', 2, "no ruleset 'german'"),
    ('[Game "six"]\n[Declare "maybe"]', 2, "Declare is yes or no"),
    ('[Game "connect6"]\n[Seat3 "eve"]', 2, "has 2 seats, not 3"),
    ('[Game "connect6"]\n[Game "six"]', 2, "the Game header comes twice"),
    ('[Game "connect6"]\n[Date 2026]', 2, 'written [Name "value"]'),
    ('[Game "connect6"]\n[Site "a\x1b[31mb"]', 2, "control character"),
    ('[Game "connect6"]\n\n1. J10\n2. K11 Z99', 4, "move 3, Z99"),
    ('[Game "connect6"]\n\n1. J10 2. K11 K11', 3, "K11 is taken"),
    ('[Game "connect6"]\r\n\r\n1. J10 2.\r0 K10', 3, "move 2, 0:"),  # only \n ends a line
    ('[Game "connect6"]\n\n1. J10 3. K11', 3, "turn 3 where turn 2 comes next"),
    ('[Game "connect6"]\n\n1. J10 2. K11 {12s', 3, "never closed"),
    ('[Game "connect6"]\n[Result "1-0"]\n\n1. J10', 2, "leave the game unfinished"),
    ('[Game "connect6"]\n[Result "1-0"]\n\n1. J10 0-1', 4, "the moves end 0-1"),
    ('[Game "connect6"]\n\n1. J10 * K11', 3, "comes after the result"),
    ('[Game "connect6"]\n[Result "2-0"]', 2, "a result is 1-0"),
    ('[Game "connect6"]\n[Result "0-1"]\n[Reason "resign"]', 2, "names its seat"),
    (
        '[Game "connect6"]\n[Result "0-1"]\n[Reason "resign"]\n[EndedBy "Seat2"]',
        2,
        "but the game ends 1-0 (resign)",
    ),
    ('[Game "connect6"]\n[Reason "timeout"]', 2, "not a way a game ends"),
    ('[Game "connect6"]\n[Reason "resign"]', 2, "unfinished, yet ended by resign"),
]


@pytest.mark.parametrize(("text", "line", "words"), DAMAGED)
def test_a_damaged_record_is_refused_naming_its_line(text, line, words):
    with pytest.raises(RecordError) as refused:
        GameRecord.parse(text)
    assert refused.value.line == line
    assert words in str(refused.value) and str(refused.value).startswith(f"line {line}: ")


def test_a_result_the_moves_contradict_is_refused():
    game = new_game("connect6")
    for point in ["J10", "K11", "K9", "J9", "J11", "L12", "L13", "J8", "J7", "A1", "A2", "J12"]:
        game.play(point)
    text = str(GameRecord(game)).replace('[Reason "six-in-a-row"]', '[Reason "board-full"]')
    with pytest.raises(RecordError, match="ended by six-in-a-row, not board-full"):
        GameRecord.parse(text)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_any_text_is_read_or_refused_plainly(text):
    try:
        GameRecord.parse(text)
    except RecordError as error:
        assert str(error).startswith("line ")


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1), st.data())
def test_a_record_damaged_anywhere_is_read_or_refused_plainly(seed, data):
    text = str(GameRecord(random_game("gameof6", {"size": 9}, seed, "natural", 60)))
    at = data.draw(st.integers(0, len(text)))
    cut = data.draw(st.integers(0, 5))
    inserted = data.draw(st.text(max_size=5))
    damaged = text[:at] + inserted + text[at + cut :]
    try:
        GameRecord.parse(damaged)
    except RecordError as error:
        assert 1 <= error.line <= damaged.count("\n") + 1


def test_headers_given_in_code_must_not_stand_for_the_game_or_its_result():
    with pytest.raises(ValueError, match="comes from the game"):
        GameRecord(new_game("connect6"), headers={"Result": "1-0"})
    with pytest.raises(ValueError, match="control character"):
        GameRecord(new_game("connect6"), headers={"Site": "a\nb"})
    with pytest.raises(ValueError, match="3 thinking times for 1 moves"):
        game = new_game("connect6")
        game.play("J10")
        GameRecord(game, times=[1.0, 2.0, 3.0])
