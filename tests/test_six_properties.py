"""Property-based tests of the Six engine against a naive referee (tests/support/naive_six.py).

Random games of every ruleset (``steffen``, ``romanian``, ``romanian-advanced``), for 2 and
4 players, with declaring on and off where the ruleset has it, are played on the engine
and on the naive referee side by side; after every move they must agree on the layout,
the hands, the seat to move, the result and, above all, the set of legal moves. The
games lean toward long second rounds: placements that keep the layout thin (so that
lifts split it), moves that do not end the game, ties, small captures, and pieces moved
back and forth (repetitions). Other properties: saving and loading, undo, illegal
moves, copies, and loading damaged saves.

A failing check names the options and the moves played, so that it can be replayed by
hand with ``new_game("six", ruleset=..., players=..., declare=...)`` and ``play``.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sixtui.rules import IllegalMove, Move, NoSuchTeam, Square, load_game, new_game
from sixtui.rules.game import Game
from sixtui.rules.hexes import Hex
from support.damaged_saves import damage, load_or_refusal, plausible_values
from support.naive_six import (
    RULES,
    NaiveSix,
    groups_of,
    neighbours,
    shapes_of,
)
from support.naive_six import legal_moves as naive_legal_moves
from support.reprs import assert_moves_shown, result_words
from support.six_games import (
    DECLARING_OPTIONS,
    MOVE_CAP,
    OPTIONS,
    QUICK_SETTINGS,
    SETTINGS,
    STYLES,
    Chooser,
    cell_of,
    describe,
    new_six,
    options,
    random_game,
    running_game,
    seeds,
)

SHAPE_REASONS = ("row", "triangle", "circle")

# -- the engine and the naive referee side by side -------------------------------------------


def assert_agrees(game: Game, naive: NaiveSix) -> None:
    """The engine and the naive referee see the same position and outcome."""
    where = describe(game)
    expected = None if naive.result is None else naive.result
    assert (None if game.result is None else game.result[:2]) == expected, where
    assert game.is_over == (naive.result is not None), where
    assert {(c.q, c.r): team for c, team in game.layout().items()} == naive.layout, where
    assert [game.in_hand(s) for s in range(game.players)] == [
        naive.in_hand(s) for s in range(naive.players)
    ], where
    assert [game.pieces(t) for t in (0, 1)] == [naive.pieces(t) for t in (0, 1)], where
    assert [str(m) for m in game.history] == naive.history, where
    if naive.result is None:
        assert game.to_move == naive.to_move, where
        legal = [str(m) for m in game.legal_moves()]
        assert len(legal) == len(set(legal)), where
        assert set(legal) == set(naive.legal_move_names()), where
        assert "declare" not in legal[1:], where
        assert game.can_declare() == bool(naive.declarable(naive.to_move % 2)), where
        for team in (0, 1):
            assert declarable(game, team) == naive_declarable(naive, team), where
        assert game.winning_cells() == [], where
        return
    assert game.legal_moves() == [], where
    assert game.result.points == (), where
    winner, reason = naive.result
    if reason in SHAPE_REASONS:
        cells = {(c.q, c.r) for c in game.winning_cells()}
        # The naive scan finds that very shape, of the winner's color, on the table.
        assert (reason, frozenset(cells)) in shapes_of(naive.layout, winner, naive.rules), where
        assert cells in naive.winning_shapes, where
    else:
        assert game.winning_cells() == [], where


def declarable(game: Game, team: int) -> set[tuple[str, frozenset]]:
    return {
        (kind, frozenset((c.q, c.r) for c in cells)) for kind, cells in game.declarable_shapes(team)
    }


def naive_declarable(naive: NaiveSix, team: int) -> set[tuple[str, frozenset]]:
    return {(kind, cells) for _, kind, cells in naive.declarable(team)}


def assert_declaring_agrees(game: Game, naive: NaiveSix, rng: random.Random) -> None:
    """A few legal moves with a trailing "!": the engine takes each of them, and it wins
    as the naive referee says; a "!" that wins nothing leaves the game exactly as the
    move without it does."""
    moves = [name for name in naive.legal_move_names() if name != "declare"]
    for text in rng.sample(moves, min(2, len(moves))):
        trial, naive_trial = game.copy(), naive.copy()
        naive_trial.play(text + "!")
        trial.play(text + "!")
        assert_agrees(trial, naive_trial)
        if naive_trial.result is None or naive_trial.result[1] not in SHAPE_REASONS:
            plain = game.copy()
            plain.play(text)
            assert observable_state(trial) == observable_state(plain), describe(trial)


def play_both(
    option: tuple[str, int, bool],
    rng: random.Random,
    style: str,
    max_moves: int = MOVE_CAP,
    check_every_move: bool = True,
) -> tuple[Game, NaiveSix]:
    """Plays one random game on the engine and the naive referee, move by move,
    checking that they agree after each move (or only at the end)."""
    game = new_six(option)
    naive = NaiveSix(*option)
    chooser = Chooser(rng, style)
    assert_agrees(game, naive)
    while naive.result is None and len(naive.history) < max_moves:
        text = chooser.choose(game, naive)
        game.play(text)
        naive.play(text)
        if check_every_move:
            assert_agrees(game, naive)
            if naive.declare and naive.result is None:
                assert_declaring_agrees(game, naive, rng)
    assert_agrees(game, naive)
    return game, naive


# -- the engine agrees with the naive referee ------------------------------------------------


@settings(SETTINGS, max_examples=30)
@given(option=options, seed=seeds, style=st.sampled_from(STYLES))
def test_engine_agrees_with_naive_referee_at_every_move(option, seed, style):
    """Random games, biased to long second rounds: after every move the engine and the
    naive referee agree on layout, hands, turn, result and the set of legal moves; a
    shape win is a shape the naive scan finds for the winner."""
    play_both(option, random.Random(seed), style)


@SETTINGS
@given(option=st.sampled_from(DECLARING_OPTIONS), seed=seeds)
def test_declaring_games_agree_with_naive_referee_at_every_move(option, seed):
    """Declaring games in which each team builds shapes and seldom declares them, so that
    rights to declare are lost and won: at every move the engine and the naive referee
    agree on the shapes each team may declare, and on what a "!" does to any move."""
    play_both(option, random.Random(seed), "clump")


@SETTINGS
@given(option=options, seed=seeds)
def test_legal_moves_equal_the_naive_generator_fed_with_the_engine_state(option, seed):
    """The naive generator, given only g.layout(), g.to_move, g.in_hand(seat) and the
    ruleset, lists the engine's legal moves, in the canonical notation."""
    rng = random.Random(seed)
    game = running_game(option, rng)
    for _ in range(3):
        if game.result is not None:
            break
        seat = game.to_move
        expected = naive_legal_moves(
            game.layout(), seat, game.in_hand(seat), option[0], may_declare=game.can_declare()
        )
        legal = [str(m) for m in game.legal_moves()]
        assert sorted(legal) == sorted(expected), describe(game)
        assert (legal[0] == "declare") == (expected[0] == "declare"), describe(game)
        game.play(Chooser(rng, "long").choose(game))


def test_random_games_reach_captures_ties_and_every_ending():
    """The random players above reach what the agreement test must cover: second rounds,
    captures, ties (moves with KEEP), every ending but no-moves (which no position
    reaches: a layout always has a piece whose lift splits nothing), declarations, and
    the other team winning (fixed seeds; the naive referee only helps ``shrink``)."""
    seen: set[str] = set()
    for seed in range(len(OPTIONS) * len(STYLES)):  # each player in each setting
        rng = random.Random(seed)
        option = OPTIONS[seed % len(OPTIONS)]
        style = STYLES[seed // len(OPTIONS)]
        game = new_six(option)
        naive = NaiveSix(*option) if style == "shrink" and option[0] != "romanian" else None
        chooser = Chooser(rng, style)
        while game.result is None and len(game.history) < 200:
            seat, pieces = game.to_move, len(game.layout())
            text = chooser.choose(game, naive)
            game.play(text)
            if naive is not None:
                naive.play(text)
            if ">" in text:
                seen.add("second round")
            if len(game.layout()) < pieces and ">" in text:
                seen.add("capture")
            if ":" in text:
                seen.add("tie")
            if game.result is None and game.to_move != (seat + 1) % game.players:
                seen.add("pass")
            if game.result is not None and game.result.winner not in (None, seat % 2):
                seen.add("the other team wins")
            if text.endswith("!") and not str(game.history[-1]).endswith("!"):
                seen.add("a '!' that wins nothing")
        if game.result is not None:
            seen.add(f"{game.result.reason} {'draw' if game.result.winner is None else 'win'}")
            if text.endswith("!") or text == "declare":
                seen.add(f"won by {'!' if text.endswith('!') else 'declare'}")
    expected = {
        "second round",
        "capture",
        "tie",
        "too-few-pieces win",
        "too-few-pieces draw",
        "repetition draw",
        "row win",
        "triangle win",
        "circle win",
        "won by !",
        "won by declare",
        "a '!' that wins nothing",
        "the other team wins",
    }
    assert expected <= seen, sorted(seen)


# -- repr ------------------------------------------------------------------------------------


@SETTINGS
@given(option=options, seed=seeds, style=st.sampled_from(STYLES))
def test_repr_shows_the_game_the_round_the_turn_and_the_last_moves(option, seed, style):
    """repr() names the game and its options, the round, the seat to move, its pieces in
    hand and whether it may declare (or the result), the number of moves and the last
    few: one short line however long the game."""
    rng = random.Random(seed)
    game, naive = play_both(option, rng, style, rng.randint(0, MOVE_CAP), check_every_move=False)
    text = repr(game)
    ruleset, players, declare = option
    assert text.startswith(f"<Six ruleset={ruleset!r} players={players} declare={declare}; ")
    if naive.result is None:
        seat = naive.to_move
        turn = f"; round 2, seat {seat} to move"
        if naive.in_hand(seat):
            turn = f"; round 1, seat {seat} to move, {naive.in_hand(seat)} in hand"
        if naive.declarable(seat % 2):
            turn += ", may declare"
        assert turn + ";" in text, text
    else:
        assert f"; {result_words(*naive.result)};" in text, text
    assert_moves_shown(text, naive.history)
    assert len(text) <= 250, text


# -- saving and loading ----------------------------------------------------------------------


def observable_state(game: Game) -> dict[str, object]:
    """Everything the public interface shows about a game of Six, and its saved bytes."""
    return {
        "bytes": game.to_bytes(),
        "legal_moves": [str(m) for m in game.legal_moves()],
        "layout": game.layout(),
        "in_hand": [game.in_hand(s) for s in range(game.players)],
        "pieces": [game.pieces(t) for t in (0, 1)],
        "to_move": game.to_move,
        "result": game.result,
        "is_over": game.is_over,
        "history": [str(m) for m in game.history],
        "winning_cells": game.winning_cells(),
        "can_declare": game.can_declare(),
        "declarable": [game.declarable_shapes(team) for team in (0, 1)],
    }


@SETTINGS
@given(option=options, seed=seeds)
def test_saved_game_loads_equal_and_plays_on_identically(option, seed):
    """load_game(g.to_bytes()) == g, with the same state, and both play on alike."""
    rng = random.Random(seed)
    game = random_game(option, rng)
    loaded = load_game(game.to_bytes())
    assert loaded == game
    assert observable_state(loaded) == observable_state(game)
    chooser = Chooser(rng, "long")
    for _ in range(rng.randint(0, 30)):
        if game.result is not None:
            break
        text = chooser.choose(game)
        game.play(text)
        loaded.play(text)
        assert loaded.to_bytes() == game.to_bytes(), describe(game)
    assert observable_state(loaded) == observable_state(game)
    if game.result is None and rng.random() < 0.5:
        game.resign(rng.randrange(game.players))
        loaded = load_game(game.to_bytes())
        assert loaded == game
        assert observable_state(loaded) == observable_state(game)


# -- undo ------------------------------------------------------------------------------------


@SETTINGS
@given(option=options, seed=seeds, style=st.sampled_from(STYLES))
def test_undo_restores_bytes_and_state_after_every_move_back_to_a_fresh_game(option, seed, style):
    """Undoing each move of a game, last first, gives back the exact bytes and state seen
    before that move; the whole game undone is a fresh game."""
    rng = random.Random(seed)
    game = new_six(option)
    chooser = Chooser(rng, style)
    states = [observable_state(game)]
    while game.result is None and len(game.history) < 110:
        game.play(chooser.choose(game))
        states.append(observable_state(game))
    history = [str(m) for m in game.history]
    for count in range(len(history), 0, -1):
        assert str(game.undo()) == history[count - 1]
        assert observable_state(game) == states[count - 1], f"undo of move {count}: {history}"
    assert game == new_six(option)
    with pytest.raises(IllegalMove):
        game.undo()


def rights(game: Game) -> list[list[tuple[str, list[Hex]]]]:
    """The shapes each team may declare."""
    return [game.declarable_shapes(team) for team in (0, 1)]


@SETTINGS
@given(option=st.sampled_from(DECLARING_OPTIONS), seed=seeds)
def test_undo_gives_back_the_rights_to_declare_exactly(option, seed):
    """Declaring games in which the teams build shapes and seldom declare them, so that
    rights come and go: undoing each move, last first, gives back the shapes each team
    may declare just as they were before it, and playing it again those after it."""
    rng = random.Random(seed)
    game = new_six(option)
    chooser = Chooser(rng, "clump")
    seen = [rights(game)]
    while game.result is None and len(game.history) < 110:
        game.play(chooser.choose(game))
        seen.append(rights(game))
    history = game.history
    for count in range(len(history), 0, -1):
        game.undo()
        assert rights(game) == seen[count - 1], f"undo of move {count}: {describe(game)}"
        game.play(history[count - 1])
        assert rights(game) == seen[count], f"move {count} again: {describe(game)}"
        game.undo()


def variants(game: Game, rng: random.Random) -> list[str]:
    """Some legal moves of the seat to move, written in every way the notation allows:
    canonical, with a non-canonical KEEP (another cell of the kept group), with "!"."""
    names = [str(m) for m in game.legal_moves()]
    texts = rng.sample(names, min(8, len(names)))
    texts += [n for n in names if ":" in n][:3]
    for text in list(texts):
        if ":" in text:
            origin = cell_of(text.split(">")[0])
            keep = cell_of(text.split(":")[1])
            rest = {(c.q, c.r) for c in game.layout()} - {origin}
            group = next(g for g in groups_of(rest) if keep in g)
            other = rng.choice(sorted(group))
            texts.append(f"{text.split(':')[0]}:{other[0]},{other[1]}")
        if game.options()["declare"] and text != "declare":  # a declaration stands alone
            texts.append(text + "!")
    return texts


@SETTINGS
@given(option=options, seed=seeds)
def test_play_then_undo_of_any_legal_move_changes_nothing(option, seed):
    """At a random position, playing any legal move (as listed, with another KEEP cell,
    with "!", or declare) is taken, and undoing it gives back the exact bytes and state."""
    rng = random.Random(seed)
    game = running_game(option, rng)
    before = observable_state(game)
    for text in variants(game, rng):
        game.play(text)
        played = game.parse_move(text)
        won = game.result is not None and game.result.reason in SHAPE_REASONS
        # A "!" stays in the record only when it won.
        assert game.history[-1] == replace(played, declare=played.declare and won)
        game.undo()
        assert observable_state(game) == before, f"{text}: {describe(game)}"


# -- illegal moves ---------------------------------------------------------------------------


def assert_rejected_without_change(game: Game, move: object) -> None:
    """``play(move)`` raises IllegalMove (a ValueError) with a message; nothing changes."""
    before = observable_state(game)
    with pytest.raises(IllegalMove) as caught:
        game.play(move)
    assert isinstance(caught.value, ValueError)
    assert str(caught.value).strip(), f"empty message for {move!r}"
    assert observable_state(game) == before, f"{move!r} changed the game"


def text(cell) -> str:
    return f"{cell[0]},{cell[1]}"


def illegal_moves(game: Game, rng: random.Random) -> dict[str, list[str]]:
    """Moves the rulings forbid in this position, by kind."""
    option = game.options()
    ruleset, declare = option["ruleset"], option["declare"]
    rules = RULES[ruleset]
    layout = {(c.q, c.r): team for c, team in game.layout().items()}
    seat, team = game.to_move, game.to_move % 2
    occupied = sorted(layout)
    empty_touching = sorted({n for c in layout for n in neighbours(c)} - set(layout))
    far = [(q, r) for q in range(-30, 31, 7) for r in (-25, 25)]
    names = [str(m) for m in game.legal_moves()]
    plain = [n for n in names if n != "declare"]
    found: dict[str, list[str]] = {}
    if game.in_hand(seat):
        found["taken"] = [text(c) for c in rng.sample(occupied, min(3, len(occupied)))]
        if layout != rules.preplaced:
            found["not touching"] = [text(c) for c in rng.sample(far, 3)]
        else:  # the first piece of the game goes on the given cells only
            others = {*empty_touching, *neighbours((0, 0)), *neighbours((1, 1)), (5, 5)}
            found["first piece"] = [text(c) for c in sorted(others - rules.first_cells)]
        found["moving during placements"] = [
            f"{text(o)}>{text(t)}" for o in occupied[:2] for t in empty_touching[:2]
        ]
    else:
        own = sorted(c for c, t in layout.items() if t == team)
        theirs = sorted(c for c, t in layout.items() if t != team)
        found["placing in the second round"] = [
            text(c) for c in rng.sample(empty_touching, min(3, len(empty_touching)))
        ]
        origin = rng.choice(own)
        found["taken"] = [f"{text(origin)}>{text(c)}" for c in rng.sample(occupied, 3)]
        found["not touching"] = [f"{text(origin)}>{text(c)}" for c in rng.sample(far, 2)]
        found["lifting an opponent's piece"] = [
            f"{text(o)}>{text(t)}"
            for o in rng.sample(theirs, min(2, len(theirs)))
            for t in empty_touching[:2]
        ]
        found["lifting an empty cell"] = [
            f"{text(o)}>{text(t)}" for o in empty_touching[:2] for t in empty_touching[-2:]
        ]
        found["moving to the origin"] = [f"{text(o)}>{text(o)}" for o in own[:3]]
        splits = []
        for o in own:
            groups = groups_of(set(layout) - {o})
            if len(groups) > 1:
                splits.append((o, groups))
        for o, groups in splits[:3]:
            largest = max(len(g) for g in groups)
            touching_all = sorted(
                {n for g in groups for c in g for n in neighbours(c)} - set(layout)
            )
            if not rules.captures:
                found.setdefault("a split in romanian", []).append(
                    f"{text(o)}>{text(rng.choice(touching_all))}"
                )
                continue
            small = [g for g in groups if len(g) < largest]
            if small:
                kept = next(g for g in groups if len(g) == largest)
                to = sorted({n for c in kept for n in neighbours(c)} - set(layout) - {o})[0]
                found.setdefault("KEEP in a captured group", []).append(
                    f"{text(o)}>{text(to)}:{text(min(rng.choice(small)))}"
                )
        ties = [n for n in plain if ":" in n]
        found["a tie without KEEP"] = [n.split(":")[0] for n in ties[:3]]
        found["KEEP not a piece"] = [
            f"{n.split(':')[0]}:{text(rng.choice(far))}"
            for n in rng.sample(plain, min(2, len(plain)))
        ] + [f"{n.split(':')[0]}:{n.split('>')[0]}" for n in rng.sample(plain, min(2, len(plain)))]
    if not declare:
        found["'!' when declaring is off"] = [
            n + "!" for n in rng.sample(plain, min(2, len(plain)))
        ]
        found["declare when declaring is off"] = ["declare", "DECLARE"]
    else:
        if not game.can_declare():
            found["declaring without a shape"] = ["declare"]
    return found


@SETTINGS
@given(option=options, seed=seeds)
def test_illegal_moves_are_rejected_with_a_message_and_change_nothing(option, seed):
    """Every kind of move the rulings forbid is refused with a message, without change."""
    rng = random.Random(seed)
    game = running_game(option, rng) if rng.random() < 0.9 else new_six(option)
    for kind, moves in illegal_moves(game, rng).items():
        for move in moves:
            try:
                assert_rejected_without_change(game, move)
            except BaseException as error:
                raise AssertionError(f"{kind}: {move} in {describe(game)}") from error


@SETTINGS
@given(option=options, seed=seeds)
def test_a_placement_with_a_keep_part_is_refused(option, seed):
    """KEEP belongs to second-round moves only: "q,r:KEEP" is no placement."""
    rng = random.Random(seed)
    game = running_game(option, rng, max_moves=rng.randint(0, 30))
    if not game.in_hand(game.to_move):
        return
    cell = str(rng.choice(game.legal_moves())).rstrip("!")
    if cell == "declare":
        return
    keep = rng.choice([*game.layout(), Hex(40, 40)])
    assert_rejected_without_change(game, f"{cell}:{keep}")


def looks_like_a_move(source: str) -> bool:
    """Digits, signs, commas and the like, or the word declare: may be legal notation."""
    squeezed = re.sub(r"\s", "", source)
    return squeezed.lower() == "declare" or re.fullmatch(r"[0-9+\-,>:!]+", squeezed) is not None


@QUICK_SETTINGS
@given(option=options, source=st.text(), seed=st.integers(0, 3))
def test_random_text_is_rejected_without_change(option, source, seed):
    """Any text that is not a move's notation is refused without change."""
    if looks_like_a_move(source):
        return
    game = running_game(option, random.Random(seed), max_moves=seed * 12)
    assert_rejected_without_change(game, source)


MALFORMED = [
    "",
    " ",
    "0",
    "0,",
    ",0",
    "0;0",
    "0 0",
    "0,0,0",
    "(0,0)",
    "0.5,0",
    "1,0>",
    ">1,0",
    "0,0>>1,0",
    "0,0>1,0:",
    "0,0>1,0:1",
    "1,0!!",
    "declare!",
    "declares",
    "J10",
    "\uff10,\uff10",  # fullwidth digits
    "\u0661,0",  # an Arabic-Indic digit
    "0,0\x00",
    "9999999,0",
    "0,-9999999",
]


@pytest.mark.parametrize("option", OPTIONS[:4], ids=str)
@pytest.mark.parametrize("source", MALFORMED)
def test_malformed_text_is_rejected_without_change(option, source):
    """Text that is not a move of Six is refused, and the game is unchanged."""
    game = running_game(option, random.Random(1), max_moves=5)
    assert_rejected_without_change(game, source)


@pytest.mark.parametrize(
    "move",
    [
        pytest.param(None, id="None"),
        pytest.param(42, id="int"),
        pytest.param(4.2, id="float"),
        pytest.param(True, id="bool"),
        pytest.param(b"1,0", id="bytes"),
        pytest.param(["1,0"], id="list"),
        pytest.param((1, 0), id="tuple"),
        pytest.param(Hex(1, 0), id="Hex"),
        pytest.param({"1,0"}, id="set"),
        pytest.param(object(), id="object"),
        pytest.param(Move, id="Move class"),
        pytest.param(Move(Square(1, 0)), id="Move to a Square"),
        # Move objects whose cell no notation can write: the engine must not take them
        # for another cell (0,1048576 is stored like 1,0) nor save what cannot load.
        pytest.param(Move(Hex(0, 1 << 20)), id="Move to 0,1048576"),
        pytest.param(Move(Hex(True, False)), id="Move to Hex(True, False)"),
        pytest.param(Move(Hex("1", "0")), id="Move to Hex('1', '0')"),
        pytest.param(Move(Hex(0.5, 0)), id="Move to Hex(0.5, 0)"),
    ],
)
def test_wrong_type_is_rejected_without_change(move):
    """Something that is neither a move of Six nor its notation is refused without change."""
    game = new_game("six")
    game.play("0,0")
    assert_rejected_without_change(game, move)


@SETTINGS
@given(option=options, seed=seeds)
def test_play_after_the_game_is_over_is_rejected(option, seed):
    """Once a game has ended, every move is refused without change, as is resigning."""
    rng = random.Random(seed)
    game = random_game(option, rng, "uniform", max_moves=400)
    if game.result is None:
        game.resign(rng.randrange(game.players))
    assert game.legal_moves() == []
    cells = sorted({n for c in game.layout() for n in neighbours(c)})
    for cell in rng.sample(cells, 4):
        assert_rejected_without_change(game, text(cell))
    assert_rejected_without_change(game, "declare")
    before = observable_state(game)
    for seat in range(game.players):
        with pytest.raises(IllegalMove):
            game.resign(seat)
    assert observable_state(game) == before


@SETTINGS
@given(option=options, seed=seeds)
def test_resigning_makes_the_other_team_win_and_is_saved(option, seed):
    """Any seat may resign a running game: the other team wins (reason resign, no
    points); the game then takes no move and no undo, and loads back the same."""
    rng = random.Random(seed)
    game = running_game(option, rng)
    before = observable_state(game)
    for bad_seat in (game.players, -1, None, True, "0"):
        with pytest.raises(IllegalMove):
            game.resign(bad_seat)
    assert observable_state(game) == before
    seat = rng.randrange(game.players)
    game.resign(seat)
    assert game.result == (1 - seat % 2, "resign", ())
    with pytest.raises(IllegalMove):
        game.undo()
    loaded = load_game(game.to_bytes())
    assert loaded == game
    assert observable_state(loaded) == observable_state(game)


@SETTINGS
@given(option=options, seed=seeds)
def test_an_agreed_draw_ends_the_game_drawn_and_is_saved(option, seed):
    """Both sides agreeing to a draw end a running game drawn (reason agreement); the
    game then takes no move, no undo and no resignation, and loads back the same."""
    game = running_game(option, random.Random(seed))
    moves = game.legal_moves()
    game.agree_draw()
    assert game.result == (None, "agreement", ())
    drawn = observable_state(game)
    for refused in (game.undo, game.agree_draw, lambda: game.resign(0)):
        with pytest.raises(IllegalMove):
            refused()
    for move in moves[:3]:
        assert_rejected_without_change(game, move)
    assert observable_state(game) == drawn
    loaded = load_game(game.to_bytes())
    assert loaded == game and observable_state(loaded) == drawn


# -- copies ----------------------------------------------------------------------------------


@SETTINGS
@given(option=options, seed=seeds)
def test_copy_is_independent_of_the_original(option, seed):
    """Playing and undoing on a copy never changes the original, and the other way round."""
    rng = random.Random(seed)
    game = random_game(option, rng)
    original = observable_state(game)
    copied = game.copy()
    assert copied == game
    assert observable_state(copied) == original
    chooser = Chooser(rng, "long")
    for _ in range(40):
        if copied.result is not None:
            break
        copied.play(chooser.choose(copied))
        assert game.to_bytes() == original["bytes"]
    assert observable_state(game) == original
    for _ in range(rng.randint(0, len(copied.history))):
        copied.undo()
    assert observable_state(game) == original
    snapshot = observable_state(copied)
    if game.result is None:
        game.play(chooser.choose(game))
    else:
        game.undo()
    assert observable_state(copied) == snapshot


def assert_same_as_replayed(game: Game) -> None:
    """The game's state is the state of its moves replayed on a fresh game."""
    assert observable_state(load_game(game.to_bytes())) == observable_state(game), describe(game)


@SETTINGS
@given(option=st.sampled_from(DECLARING_OPTIONS) | options, seed=seeds)
def test_a_game_and_its_copy_taking_turns_at_undo_and_play_stay_their_own(option, seed):
    """A game and its copy, each undoing and playing in random turns, each always equal
    to its own moves replayed from the start (declaring games, with shapes on the table,
    drawn more often)."""
    rng = random.Random(seed)
    game = random_game(option, rng, rng.choice(["clump", "long"]), rng.randint(10, 45))
    games = [game, game.copy()]
    chooser = Chooser(rng, "clump")
    for _ in range(20):
        one = rng.choice(games)
        if one.history and (one.result is not None or rng.random() < 0.5):
            one.undo()
        elif one.result is None:
            one.play(chooser.choose(one))
        for each in games:
            assert_same_as_replayed(each)


def test_a_copy_of_a_declaring_game_keeps_its_own_shapes():
    """Black closes its ring round 0,-2 without declaring, red plays 2,0. The original
    takes 2,0 back and puts red in the ring's centre instead (no circle any more); the
    copy takes 2,0 back and plays it again: black may still declare in the copy."""
    game = new_game("six", ruleset="romanian", declare=True)
    moves = "0,-1 -1,1 1,-2 -2,1 -1,-1 -3,1 -1,-2 -4,1 0,-3 -5,1 1,-3 2,0"
    for move in moves.split():
        game.play(move)
    assert game.can_declare()
    copied = game.copy()
    game.undo()
    game.play("0,-2")
    copied.undo()
    copied.play("2,0")
    assert copied.can_declare()
    assert_same_as_replayed(copied)


# -- loading damaged or made-up data ---------------------------------------------------------


def assert_loads_or_refuses(data: bytes) -> None:
    """load_game either raises GameDataError (a ValueError) or returns a game that is
    valid: replayed move by move on a fresh game it is the same, and it saves and
    loads back equal."""
    game = load_or_refusal(data)
    if game is None:
        return
    if game.name != "six":
        return
    replay = new_game("six", **game.options())
    for move in game.history:
        replay.play(str(move))
    if game.result is not None and game.result.reason == "resign":
        replay.resign(msgpack.unpackb(game.to_bytes())["resigned"])
    assert observable_state(replay) == observable_state(game)


@QUICK_SETTINGS
@given(data=st.binary(max_size=300))
def test_load_game_of_random_bytes_refuses_or_returns_a_valid_game(data):
    """Arbitrary bytes never make load_game fail with anything but GameDataError."""
    assert_loads_or_refuses(data)


@QUICK_SETTINGS
@given(
    option=options,
    seed=seeds,
    flips=st.lists(st.tuples(st.integers(0, 10**6), st.integers(1, 255)), max_size=4),
    cut=st.one_of(st.none(), st.integers(0, 10**6)),
    insert=st.one_of(st.none(), st.tuples(st.integers(0, 10**6), st.binary(min_size=1))),
)
def test_load_game_of_damaged_save_refuses_or_returns_a_valid_game(
    option, seed, flips, cut, insert
):
    """A valid save with bytes flipped, cut short or inserted loads or is refused cleanly."""
    rng = random.Random(seed)
    game = random_game(option, rng, "uniform", max_moves=rng.randint(0, 60))
    if game.result is None and rng.random() < 0.2:
        game.resign(rng.randrange(game.players))
    assert_loads_or_refuses(damage(game.to_bytes(), flips, insert, cut))


move_texts = st.sampled_from(
    ["0,0", "1,0", "-1,0", "0,-1", "-1,1", "2,0", "0,1", "1,-1", "0,0>2,0", "declare", "1,0!"]
)


def saved_records():
    """Dictionaries shaped like a saved game of Six, each field plausible or odd."""
    fields = {
        "game": st.sampled_from(["six", "SIX", "connect6", ""]) | plausible_values,
        "version": st.sampled_from([1, 0, 2, "1", 1.0, True]) | plausible_values,
        "options": st.fixed_dictionaries(
            {},
            optional={
                "ruleset": st.sampled_from([*RULES, "Steffen", "", None, 1]) | plausible_values,
                "players": st.sampled_from([2, 4, 3, 0, True, 2.0, "2", None]),
                "declare": st.sampled_from([False, True, 0, 1, "yes", None]),
            },
        )
        | plausible_values,
        "moves": st.lists(move_texts, max_size=12).map(lambda ms: " ".join(ms).encode())
        | st.binary(max_size=41)
        | plausible_values,
        "resigned": st.sampled_from([None, 0, 1, 2, 3, 4, -1, True, "0"]) | plausible_values,
    }
    return st.fixed_dictionaries({}, optional=fields)


@QUICK_SETTINGS
@given(record=saved_records(), extra=st.dictionaries(st.text(max_size=5), plausible_values))
def test_load_game_of_made_up_record_refuses_or_returns_a_valid_game(record, extra):
    """A msgpack table with odd or missing fields loads as a valid game or is refused."""
    assert_loads_or_refuses(msgpack.packb({**extra, **record}))


@given(
    team=st.one_of(st.integers(), st.booleans()).filter(
        lambda t: t not in (0, 1) or isinstance(t, bool)
    )
)
def test_a_team_other_than_0_or_1_is_refused_by_name_and_changes_nothing(team):
    six, grid = new_game("six", ruleset="romanian", declare=True), new_game("gameof6", size=9)
    before = (six.to_bytes(), grid.to_bytes())
    for ask in (six.pieces, six.declarable_shapes, grid.colored_count):
        with pytest.raises(
            NoSuchTeam, match=f"a team is 0 \\(the first to move\\) or 1, not {team!r}"
        ):
            ask(team)
    assert (six.to_bytes(), grid.to_bytes()) == before
