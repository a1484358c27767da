"""The game session, the table setup and the move chooser, without Textual: what a screen
relies on when it plays, takes back, resigns and starts the next game."""

import asyncio

import pytest

from sixtui.rules import IllegalMove, Move, Square, new_game
from sixtui.rules.hexes import Hex
from sixtui.tui.game_setup import GameSetup
from sixtui.tui.move_chooser import MoveChooser
from sixtui.tui.session import LocalSession, Player, Update
from support.tui_helpers import TIED_SPLIT
from support.turns import random_position

DEADLINE = 10.0


class FakeThinker:
    """Stands in for :class:`sixtui.ai.worker.Thinker`: thinks until released, then plays
    the moves of ``script`` or else the first legal moves."""

    def __init__(self, script=(), wait=False, problem=None):
        self.script = list(script)
        self.release = asyncio.Event()
        if not wait:
            self.release.set()
        self.problem = problem
        self.asked: list[tuple[int, str]] = []  # (moves played, level) per call
        self.cancelled = 0

    async def think(self, game, level="normal", seconds=None, seed=None):
        self.asked.append((len(game.history), level))
        try:
            await self.release.wait()
        except asyncio.CancelledError:
            self.cancelled += 1
            raise
        if self.problem is not None:
            raise self.problem
        copy = game.copy()
        moves = []
        for _ in range(copy.stones_left if copy.name != "six" else 1):
            move = copy.parse_move(self.script.pop(0)) if self.script else copy.legal_moves()[0]
            copy.play(move)
            moves.append(move)
            if copy.is_over:
                break
        return moves


def table(setup: GameSetup, thinker=None) -> tuple[LocalSession, list[Update]]:
    """A started session for ``setup`` and the list its updates go to."""
    session = setup.session(thinker, computer_pause=0)
    updates: list[Update] = []
    session.subscribe(updates.append)
    session.start()
    return session, updates


def hot_seat(game="connect6", players=2, **options) -> GameSetup:
    return GameSetup(game, players=players, seats=(None,) * players, **options)


async def settle(session: LocalSession) -> None:
    """Lets the computer finish the turn it is thinking about."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + DEADLINE
    await asyncio.sleep(0)
    while session.thinking:
        assert loop.time() < give_up, "the computer never finished its turn"
        await asyncio.sleep(0.01)


def kinds(updates: list[Update]) -> list[str]:
    return [update.kind for update in updates]


def played(session: LocalSession) -> list[str]:
    return [str(move) for move in session.game.history]


# -- playing ---------------------------------------------------------------------------------


async def test_play_plays_for_the_seat_to_move_and_tells_the_listeners():
    session, updates = table(hot_seat(size=9))
    await session.play("E5")
    await session.play(Move(Square(3, 4)))
    await session.play("f5")
    assert played(session) == ["E5", "D5", "F5"]
    assert session.game.to_move == 0
    assert updates == [
        Update("moves", (Move.parse("E5"),)),
        Update("moves", (Move.parse("D5"),)),
        Update("moves", (Move.parse("F5"),)),
    ]


@pytest.mark.parametrize(
    ("move", "why"),
    [("E5", "E5 is taken"), ("Z9", "Z9 is off the board"), ("nonsense", "is not a point")],
)
async def test_an_illegal_move_is_refused_and_changes_nothing(move, why):
    session, updates = table(hot_seat(size=9))
    await session.play("E5")
    with pytest.raises(IllegalMove, match=why):
        await session.play(move)
    assert played(session) == ["E5"]
    assert session.game.to_move == 1
    assert kinds(updates) == ["moves"]


async def test_a_move_out_of_turn_is_refused_while_the_computer_thinks():
    thinker = FakeThinker(wait=True)
    session, updates = table(GameSetup.against("connect6", ["easy"], size=9), thinker)
    assert session.may_move and not session.thinking
    await session.play("E5")
    assert session.thinking
    assert not session.may_move
    with pytest.raises(IllegalMove, match=r"it is Easy computer's turn"):
        await session.play("D5")
    assert played(session) == ["E5"]
    thinker.release.set()
    await settle(session)
    assert played(session) == ["E5", "A1", "B1"]
    assert thinker.asked == [(1, "easy")]
    assert kinds(updates) == ["moves", "thinking", "moves"]
    assert updates[-1].moves == (Move.parse("A1"), Move.parse("B1"))
    assert session.may_move and not session.thinking


async def test_a_computer_that_opens_starts_thinking_when_the_session_starts():
    thinker = FakeThinker()
    session = GameSetup("six", seats=("normal", None)).session(thinker, computer_pause=0)
    updates = []
    session.subscribe(updates.append)
    await asyncio.sleep(0)
    assert not session.thinking and thinker.asked == []
    session.start()
    assert session.thinking
    await settle(session)
    assert played(session) == ["0,0"]
    assert thinker.asked == [(0, "normal")]
    assert kinds(updates) == ["thinking", "moves"]
    assert session.may_move


async def test_a_game_of_computers_plays_on_by_itself():
    thinker = FakeThinker()
    session, updates = table(GameSetup("connect6", size=6, seats=("easy", "hard")), thinker)
    loop = asyncio.get_running_loop()
    give_up = loop.time() + DEADLINE
    while not session.game.is_over:
        assert loop.time() < give_up
        await asyncio.sleep(0.01)
    expected = new_game("connect6", size=6)  # both play their first legal moves
    while not expected.is_over:
        expected.play(expected.legal_moves()[0])
    assert session.game.history == expected.history
    assert session.game.result == expected.result
    assert {level for _, level in thinker.asked} == {"easy", "hard"}
    assert kinds(updates)[-1] == "over"
    assert session.match.results == [session.game.result]
    assert not (session.may_move or session.may_undo or session.may_resign)


async def test_a_computer_s_winning_move_ends_the_game():
    thinker = FakeThinker(script=["A1", "B1", "C1", "D1", "E1", "F1"])
    session, updates = table(GameSetup("connect6", size=9, seats=(None, "easy")), thinker)
    for black in ["E5", "E6 E7", "E8 E9"]:
        for point in black.split():
            await session.play(point)
        await settle(session)
    assert session.game.result == (1, "six-in-a-row", ())
    assert played(session)[-2:] == ["E1", "F1"]
    assert kinds(updates)[-2:] == ["moves", "over"]
    assert session.match.wins == (0, 1)


async def test_a_computer_player_that_stops_is_reported():
    thinker = FakeThinker(problem=RuntimeError("the worker process died"))
    session, updates = table(GameSetup.against("six", ["easy"]), thinker)
    await session.play("0,0")
    await settle(session)
    assert updates[-1] == Update(
        "problem", text="the computer player stopped: the worker process died"
    )
    assert not session.thinking
    assert played(session) == ["0,0"]


# -- suggesting a turn -----------------------------------------------------------------------


async def test_a_suggested_turn_is_the_hard_players_and_plays_nothing():
    thinker = FakeThinker(script=["D4", "F6"])
    session, updates = table(hot_seat(size=9), thinker)
    await session.play("E5")
    assert [str(move) for move in await session.suggest()] == ["D4", "F6"]
    assert thinker.asked == [(1, "hard")]
    assert played(session) == ["E5"] and kinds(updates) == ["moves"]


async def test_no_turn_is_suggested_for_the_computer_or_after_the_end():
    thinker = FakeThinker(wait=True)
    session, _ = table(GameSetup.against("connect6", ["easy"], size=9), thinker)
    await session.play("E5")
    with pytest.raises(IllegalMove, match="it is Easy computer's turn"):
        await session.suggest()
    await session.resign()
    with pytest.raises(IllegalMove, match="the game is over"):
        await session.suggest()
    assert "hard" not in [level for _, level in thinker.asked]


async def test_a_suggestion_that_cannot_be_thought_of_says_why():
    session, _ = table(hot_seat(size=9))
    with pytest.raises(IllegalMove, match="there is no computer player here to ask"):
        await session.suggest()
    thinker = FakeThinker(problem=RuntimeError("the worker process died"))
    session, _ = table(hot_seat(size=9), thinker)
    with pytest.raises(IllegalMove, match="the computer player stopped: the worker process died"):
        await session.suggest()
    assert played(session) == []


# -- taking back -----------------------------------------------------------------------------


async def test_hot_seat_undo_takes_back_one_move():
    session, updates = table(hot_seat(size=9))
    for move in ["E5", "D5", "F5"]:
        await session.play(move)
    await session.undo()
    assert played(session) == ["E5", "D5"]
    assert (session.game.to_move, session.game.stones_left) == (1, 1)
    assert updates[-1] == Update("undo", (Move.parse("F5"),))
    await session.undo()
    await session.undo()
    assert played(session) == []
    assert not session.may_undo
    with pytest.raises(IllegalMove, match="there is no move of yours to take back"):
        await session.undo()
    assert kinds(updates) == ["moves"] * 3 + ["undo"] * 3


async def test_undo_against_the_computer_takes_back_its_reply_and_your_move():
    session, updates = table(GameSetup.against("connect6", ["easy"], size=9), FakeThinker())
    await session.play("E5")
    await settle(session)
    await session.play("E6")
    await session.play("E7")
    await settle(session)
    assert played(session) == ["E5", "A1", "B1", "E6", "E7", "C1", "D1"]
    await session.undo()
    assert played(session) == ["E5", "A1", "B1", "E6"]
    assert updates[-1] == Update("undo", tuple(Move.parse(p) for p in ["D1", "C1", "E7"]))
    assert (session.game.to_move, session.game.stones_left) == (0, 1)
    assert session.may_move and not session.thinking
    await session.undo()
    await session.undo()
    assert played(session) == []
    assert not session.may_undo


async def test_undo_while_the_computer_thinks_stops_it():
    thinker = FakeThinker(wait=True)
    session, _ = table(GameSetup.against("connect6", ["easy"], size=9), thinker)
    await session.play("E5")
    await asyncio.sleep(0)  # the computer begins to think
    assert session.thinking and thinker.asked == [(1, "easy")]
    await session.undo()
    assert thinker.cancelled == 1
    assert not session.thinking
    assert played(session) == []
    assert session.may_move
    thinker.release.set()
    await asyncio.sleep(0.05)
    assert played(session) == []  # the cancelled turn never lands


async def test_nothing_to_undo_when_only_the_computer_has_moved():
    session, _ = table(GameSetup("connect6", size=9, seats=("easy", None)), FakeThinker())
    await settle(session)
    assert played(session) == ["A1"]
    assert session.may_move and not session.may_undo
    with pytest.raises(IllegalMove, match="there is no move of yours to take back"):
        await session.undo()
    assert played(session) == ["A1"]


# -- resigning -------------------------------------------------------------------------------


async def test_resigning_ends_the_game_for_the_other_team_and_counts_it():
    session, updates = table(hot_seat(size=9))
    await session.play("E5")
    assert session.may_resign
    await session.resign()  # White, to move, resigns
    assert session.game.result == (0, "resign", ())
    assert updates[-1] == Update("over")
    assert session.match.results == [session.game.result]
    assert session.match.wins == (1, 0)
    assert not (session.may_move or session.may_undo or session.may_resign)
    with pytest.raises(IllegalMove, match="there is no seat of yours to resign"):
        await session.resign()
    with pytest.raises(IllegalMove, match="the game is over"):
        await session.play("D5")
    with pytest.raises(IllegalMove):
        await session.undo()
    assert len(session.match.results) == 1


async def test_resigning_while_the_computer_thinks_resigns_your_seat():
    thinker = FakeThinker(wait=True)
    session, _ = table(GameSetup.against("six", ["easy"]), thinker)
    await session.play("0,0")
    await asyncio.sleep(0)
    assert session.thinking and session.may_resign
    await session.resign()
    assert thinker.cancelled == 1
    assert not session.thinking
    assert session.game.result == (1, "resign", ())


async def test_computers_alone_have_nobody_to_resign():
    session, _ = table(GameSetup("six", seats=("easy", "easy")), FakeThinker(wait=True))
    assert session.thinking
    assert not session.may_resign and not session.may_move and not session.may_undo
    with pytest.raises(IllegalMove, match="there is no seat of yours to resign"):
        await session.resign()
    await session.close()


# -- the next game ---------------------------------------------------------------------------


async def test_next_game_waits_for_the_end_then_the_other_side_opens():
    session, updates = table(hot_seat("gameof6", size=8))
    with pytest.raises(ValueError, match="has not ended"):
        await session.next_game()
    assert (session.opener, session.player_at(0).name) == (0, "Player 1")
    await session.play("E5")
    await session.resign()
    assert session.opener == 0  # still the game that ended
    await session.next_game()
    assert updates[-1] == Update("new-game")
    assert session.game.history == [] and session.game.result is None
    assert session.opener == 1
    assert [session.player_at(seat).name for seat in (0, 1)] == ["Player 2", "Player 1"]
    assert session.match.results == [(0, "resign", (6, 0))]
    assert session.may_move and not session.may_undo


async def test_a_game_of_6_match_ends_after_six_games():
    session, _ = table(hot_seat("gameof6", size=8))
    for number in range(6):
        assert session.opener == number % 2
        await session.resign()  # Black resigns at once
        if number < 5:
            await session.next_game()
    assert session.match.is_over
    assert session.match.openers == [0, 1, 0, 1, 0, 1]
    assert session.match.wins == (3, 3)
    with pytest.raises(ValueError, match="the match is over"):
        await session.next_game()


async def test_in_a_six_series_the_loser_opens():
    session, _ = table(hot_seat("six"))
    await session.resign()  # Black (side 0) resigns: side 0 opens again
    await session.next_game()
    assert session.opener == 0
    await session.play("0,0")
    await session.resign()  # White (side 1) resigns: side 1 opens
    await session.next_game()
    assert session.opener == 1
    assert session.player_at(0).name == "Player 2"


async def test_when_the_other_side_opens_the_computer_starts_the_next_game():
    thinker = FakeThinker()
    session, updates = table(GameSetup.against("connect6", ["normal"], size=9), thinker)
    await session.resign()
    await session.next_game()
    assert session.player_at(0).is_computer
    assert kinds(updates)[-2:] == ["new-game", "thinking"]
    await settle(session)
    assert played(session) == ["A1"]
    assert session.game.to_move == 1 and session.may_move
    assert session.player_at(1).name == "You"


async def test_four_players_sit_round_the_table_in_partner_pairs():
    setup = GameSetup("six", players=4, seats=(None, "easy", None, "hard"))
    session, _ = table(setup, FakeThinker(wait=True))
    names = [session.player_at(seat).name for seat in range(4)]
    assert names == ["Player 1", "Easy computer", "Player 2", "Hard computer"]
    assert [side_of.name for side_of in session.sides[0]] == ["Player 1", "Player 2"]
    await session.play("0,0")
    assert session.thinking
    assert session.player_at(session.game.to_move).level == "easy"
    await session.close()


# -- listening and closing -------------------------------------------------------------------


async def test_a_listener_that_stops_hears_nothing_more():
    session = hot_seat(size=9).session(None)
    heard, also = [], []
    stop = session.subscribe(heard.append)
    session.subscribe(also.append)
    await session.play("E5")
    stop()
    await session.play("D5")
    assert kinds(heard) == ["moves"]
    assert kinds(also) == ["moves", "moves"]


async def test_closing_stops_the_computer_thinking():
    thinker = FakeThinker(wait=True)
    session, updates = table(GameSetup.against("six", ["hard"]), thinker)
    await session.play("0,0")
    await asyncio.sleep(0)
    assert session.thinking and thinker.asked == [(1, "hard")]
    await session.close()
    assert thinker.cancelled == 1
    assert not session.thinking
    thinker.release.set()
    await asyncio.sleep(0.05)
    assert played(session) == ["0,0"]
    assert kinds(updates) == ["moves", "thinking"]


async def test_closing_a_session_twice_is_harmless():
    session, _ = table(hot_seat(size=9))
    await session.close()
    await session.close()
    assert not session.thinking


# -- setting up a table ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"game": "chess"}, "there is no game 'chess': choose connect6, gameof6, six"),
        ({"game": "connect6", "size": 20}, "a Connect6 board is 6 to 19 wide, not 20"),
        ({"game": "connect6", "size": 5}, "a Connect6 board is 6 to 19 wide, not 5"),
        ({"game": "gameof6", "size": 7}, "a Game of 6 board is 8 to 26 wide, not 7"),
        ({"game": "gameof6", "size": 27}, "a Game of 6 board is 8 to 26 wide, not 27"),
        (
            {"game": "connect6", "players": 4, "seats": (None,) * 4},
            "connect6 is played by 2 players, not 4",
        ),
        ({"game": "six", "declare": True}, "declaring is part of the romanian rulesets only"),
        ({"game": "connect6", "declare": True}, "declaring is part of the romanian rulesets"),
        ({"game": "six", "ruleset": "modern"}, "there is no ruleset 'modern'"),
        ({"seats": (None, "expert")}, "the computer plays easy, normal, hard, not 'expert'"),
        ({"game": "six", "players": 4}, "4 seats to fill, not 2"),
        ({"seats": (None, None, None)}, "2 seats to fill, not 3"),
    ],
)
def test_a_setup_that_cannot_be_played_says_why(options, message):
    with pytest.raises(ValueError) as refused:
        GameSetup(**options)
    assert message in str(refused.value)


def test_six_with_three_players_is_refused_naming_both_table_sizes():
    with pytest.raises(ValueError, match="2 or 4"):
        GameSetup("six", players=3, seats=(None,) * 3)


def test_every_size_in_range_is_accepted():
    assert GameSetup("connect6", size=6).size == 6
    assert GameSetup("connect6", size=19).size == 19
    assert GameSetup("gameof6", size=26).size == 26
    assert GameSetup("six", ruleset="romanian", declare=True).declare


@pytest.mark.parametrize(
    ("game", "levels", "players", "seats"),
    [
        ("connect6", ["hard"], 2, (None, "hard")),
        ("six", ["easy"], 4, (None, "easy", None, "easy")),
        ("six", ["easy", "normal"], 4, (None, "easy", "normal", None)),
        ("six", ["easy", "normal", "hard"], 4, (None, "easy", "normal", "hard")),
    ],
)
def test_against_fills_the_seats_after_yours(game, levels, players, seats):
    assert GameSetup.against(game, levels, players=players).seats == seats


def test_against_passes_the_options_and_refuses_too_many_levels():
    setup = GameSetup.against("gameof6", ["easy"], size=10)
    assert (setup.game, setup.size, setup.seats) == ("gameof6", 10, (None, "easy"))
    with pytest.raises(ValueError, match="2 players leave 1"):
        GameSetup.against("connect6", ["easy", "normal"])
    with pytest.raises(ValueError, match="4 players leave 3"):
        GameSetup.against("six", ["easy"] * 4, players=4)
    with pytest.raises(ValueError, match="not 'expert'"):
        GameSetup.against("six", ["expert"])


def test_the_setup_names_the_players_and_makes_the_game():
    sides = GameSetup.against("connect6", ["hard"]).sides()
    assert sides == ((Player("You"),), (Player("Hard computer", "hard"),))
    sides = hot_seat("six", players=4).sides()
    assert [p.name for p in sides[0]] == ["Player 1", "Player 3"]
    assert [p.name for p in sides[1]] == ["Player 2", "Player 4"]
    assert GameSetup("connect6", size=9).describe() == "Connect6, 9×9"


def test_the_visitor_at_a_server_names_the_first_persons_seat():
    four = hot_seat("six", players=4).sides("ann")
    assert [[p.name for p in side] for side in four] == [
        ["ann", "Player 3"],
        ["Player 2", "Player 4"],
    ]
    against = GameSetup.against("connect6", ["hard"]).sides("ann")
    assert against == ((Player("ann"),), (Player("Hard computer", "hard"),))
    second = GameSetup("six", players=4, seats=("easy", None, "easy", None)).sides("ann")
    assert [[p.name for p in side] for side in second] == [
        ["Easy computer 1", "Easy computer 2"],
        ["ann", "Player 2"],
    ]
    assert GameSetup("gameof6", size=9).options() == {"size": 9}
    session = hot_seat("six", players=4, ruleset="romanian").session(None)
    assert session.game.options() == {"ruleset": "romanian", "players": 4, "declare": False}
    assert GameSetup("gameof6").match().games == 6
    assert GameSetup("six").match().games is None


def test_a_session_with_computers_needs_a_thinker():
    with pytest.raises(ValueError, match="computer players need a Thinker"):
        GameSetup.against("connect6", ["easy"]).session(None)
    with pytest.raises(ValueError, match="not 'genius'"):
        Player("Computer", "genius")
    assert not Player("Ann").is_computer and Player("C", "easy").is_computer


def test_a_session_checks_the_seats_against_the_game():
    players = ((Player("A"), Player("B")), (Player("C"), Player("D")))
    with pytest.raises(ValueError, match="connect6 here has 2 seats, not 4 players"):
        LocalSession(lambda: new_game("connect6"), players, GameSetup().match())
    with pytest.raises(ValueError, match="two sides with the same number of players"):
        LocalSession(lambda: new_game("six"), ((Player("A"),), ()), GameSetup().match())


# -- choosing a move from cells --------------------------------------------------------------


def tied_position():
    game = new_game("six")
    for move in TIED_SPLIT:
        game.play(move)
    return game


def test_a_placement_is_one_cell():
    chooser = MoveChooser()
    assert chooser.choose(new_game("connect6"), Square(9, 9)) == Move.parse("J10")
    six = new_game("six")
    assert chooser.hints(six) == {Hex(0, 0)}
    assert chooser.choose(six, Hex(0, 0)) == Move.parse("0,0")
    assert chooser.choose(six, "0,0") == Move.parse("0,0")
    assert chooser.picked is None and chooser.groups == []


def test_second_round_pick_pick_again_put_back_then_move():
    game = tied_position()
    chooser = MoveChooser()
    origins = chooser.hints(game)
    assert Hex(0, 0) in origins and Hex(1, -3) not in origins  # Black's pieces only
    assert chooser.choose(game, Hex(0, 0)) is None
    assert chooser.picked == Hex(0, 0)
    assert chooser.hints(game) == {m.to for m in game.legal_moves() if m.origin == Hex(0, 0)}
    assert chooser.choose(game, Hex(1, -1)) is None  # another of Black's pieces
    assert chooser.picked == Hex(1, -1)
    assert chooser.choose(game, Hex(1, -1)) is None  # the same piece: put back
    assert chooser.picked is None
    assert chooser.choose(game, Hex(0, 0)) is None
    move = chooser.choose(game, Hex(1, 0))
    assert move == Move.parse("0,0>1,0")
    assert chooser.picked is None
    game.play(move)
    assert game.at("1,0") == 0 and game.at("0,0") is None


def test_picking_a_piece_of_the_other_team_or_an_empty_cell_is_refused():
    game = tied_position()
    chooser = MoveChooser()
    with pytest.raises(IllegalMove, match="pick one of your own pieces"):
        chooser.choose(game, Hex(1, -3))  # White's
    with pytest.raises(IllegalMove, match="pick one of your own pieces"):
        chooser.choose(game, Hex(1, 0))  # empty
    assert chooser.picked is None


def test_a_piece_that_may_not_split_the_layout_cannot_be_picked():
    game = random_position("six", {"ruleset": "romanian"}, seed=0, turns=40)
    team = game.to_move % 2
    moves = game.legal_moves()
    assert moves and all(m.origin is not None for m in moves)
    stuck = sorted(
        cell
        for cell, owner in game.layout().items()
        if owner == team and not any(m.origin == cell for m in moves)
    )
    assert stuck
    chooser = MoveChooser()
    with pytest.raises(IllegalMove, match=f"the piece on {stuck[0]} cannot be lifted"):
        chooser.choose(game, stuck[0])
    assert chooser.picked is None


def test_a_tied_split_yields_the_groups_then_the_one_chosen_stays():
    game = tied_position()
    chooser = MoveChooser()
    assert chooser.choose(game, Hex(-2, 2)) is None
    assert chooser.choose(game, Hex(-1, 2)) is None
    groups = chooser.groups
    assert len(groups) == 2 and [len(group) for group in groups] == [17, 17]
    assert chooser.destination == Hex(-1, 2)
    assert chooser.hints(game) == groups[0] | groups[1]
    with pytest.raises(IllegalMove, match="choose the group that stays"):
        chooser.choose(game, Hex(-3, 1))  # in the small group, which cannot stay
    assert chooser.groups == groups
    move = chooser.choose(game, min(groups[0]))
    assert (move.origin, move.to, move.keep) == (Hex(-2, 2), Hex(-1, 2), Hex(-5, 6))
    assert chooser.groups == [] and chooser.picked is None and chooser.destination is None
    game.play(move)
    assert set(game.layout()) == groups[0] | {Hex(-1, 2)}


def test_a_split_with_one_way_to_stay_needs_no_group_choice():
    game = tied_position()
    chooser = MoveChooser()
    chooser.choose(game, Hex(-2, 2))
    # -3,8 touches only the group holding -5,6: that group is the one that stays.
    move = chooser.choose(game, Hex(-3, 8))
    assert move is not None
    assert move.keep == Hex(-5, 6)
    assert chooser.groups == []


def test_reset_forgets_every_choice():
    game = tied_position()
    chooser = MoveChooser()
    chooser.choose(game, Hex(-2, 2))
    chooser.choose(game, Hex(-1, 2))
    chooser.reset()
    assert (chooser.picked, chooser.destination, chooser.groups) == (None, None, [])
