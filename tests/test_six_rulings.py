"""Six as shared/RULINGS.md reads it ("Common to all games" and "Six"): one test per ruling.

Positions are built by playing real moves from the start. Long ones (a full table for the
second round) are written as the layout wanted, and :func:`build` finds an order in which
the seats, in turn, can place those pieces, each touching the layout.
"""

from __future__ import annotations

import pytest

from sixtui.rules import IllegalMove, Match, Result, load_game, new_game
from sixtui.rules.game import Game

Cell = tuple[int, int]


def six(ruleset: str = "steffen", players: int = 2, declare: bool = False) -> Game:
    return new_game("six", ruleset=ruleset, players=players, declare=declare)


def name(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def play(game: Game, moves: str) -> None:
    """Plays the moves, separated by spaces; the game must not end before the last."""
    for move in moves.split():
        assert game.result is None, f"the game ended before {move}: {game.result}"
        game.play(move)


def alternate(team0: str, team1: str) -> str:
    """Two teams' placements, one by one in turn order, team 0 first."""
    first, second = team0.split(), team1.split()
    moves = [move for pair in zip(first, second, strict=False) for move in pair]
    return " ".join(moves + first[len(second) :] + second[len(first) :])


def line(start: Cell, step: Cell, teams: str) -> dict[Cell, int]:
    """Pieces in a straight line from ``start``: ``teams`` gives each one's team."""
    return {
        (start[0] + k * step[0], start[1] + k * step[1]): int(team) for k, team in enumerate(teams)
    }


def build(game: Game, layout: dict[Cell, int]) -> list[str]:
    """Places every piece of ``layout`` not on the table yet, each by a seat of its team
    in turn order, each touching the layout, with no shape made on the way: the order is
    found by a depth-first search. Returns the moves played."""
    todo = {cell: team for cell, team in layout.items() if game.at(name(cell)) is None}
    played: list[str] = []
    dead_ends: set[frozenset] = set()

    def search() -> bool:
        if not todo:
            return True
        if frozenset(todo) in dead_ends:
            return False
        team = game.to_move % 2
        legal = {str(m) for m in game.legal_moves()}
        for cell in sorted(todo, key=lambda c: (abs(c[0]) + abs(c[1]) + abs(c[0] + c[1]), c)):
            if todo[cell] != team or name(cell) not in legal:
                continue
            game.play(name(cell))
            if game.result is None:
                del todo[cell]
                played.append(name(cell))
                if search():
                    return True
                todo[cell] = team
                played.pop()
            game.undo()
        dead_ends.add(frozenset(todo))
        return False

    assert search(), "no order of placements builds this layout"
    return played


def layout_of(game: Game) -> dict[Cell, int]:
    return {(cell.q, cell.r): team for cell, team in game.layout().items()}


def rejected(game: Game, move: str, message: str) -> None:
    """The move is refused with a message matching ``message``, and nothing changes."""
    before = (game.to_bytes(), layout_of(game), game.to_move, game.result)
    with pytest.raises(IllegalMove, match=message):
        game.play(move)
    assert (game.to_bytes(), layout_of(game), game.to_move, game.result) == before


# -- positions for the second round ------------------------------------------------------------


def steffen_line() -> Game:
    """Steffen, 2 players: all 38 pieces in one line along r = 0, from -18,0 to 19,0,
    the teams alternating (team 0 on even q). Seat 0 is to move in the second round."""
    game = six()
    layout = {(q, 0): q % 2 for q in range(-18, 20)}
    build(game, layout)
    assert layout_of(game) == layout
    assert (game.to_move, game.in_hand(0), game.in_hand(1)) == (0, 0, 0)
    return game


def romanian_line(ruleset: str = "romanian", players: int = 2) -> Game:
    """The 42 pieces in one line along r = 0, from -20,0 to 21,0, the teams alternating
    (red on even q) but for 20,0 (black): both ends are red, so every black piece is
    inside the line and lifting it splits the layout."""
    layout = {(q, 0): 1 - q % 2 for q in range(-20, 22)}
    layout[20, 0], layout[21, 0] = 0, 1
    game = six(ruleset, players)
    build(game, layout)
    assert layout_of(game) == layout
    assert [game.in_hand(seat) for seat in range(players)] == [0] * players
    return game


def hub(a: str, b: str, c: str) -> Game:
    """Steffen, 2 players: team 0's first piece on 0,0 (the hub) and three straight arms
    from it, along q (from 1,0), along -r (from 0,-1) and along (-1, +1) (from -1,1), their
    pieces' teams given by ``a``, ``b`` and ``c``. The arms touch only through the hub:
    lifting it splits the layout in three."""
    layout = {(0, 0): 0}
    layout.update(line((1, 0), (1, 0), a))
    layout.update(line((0, -1), (0, -1), b))
    layout.update(line((-1, 1), (-1, 1), c))
    game = six()
    build(game, layout)
    assert layout_of(game) == layout
    assert (game.to_move, game.in_hand(0), game.in_hand(1)) == (0, 0, 0)
    return game


# == Common to all games ==========================================================================


def test_seat_0_moves_first_and_in_two_player_games_seat_is_team():
    for ruleset in ("steffen", "romanian", "romanian-advanced"):
        g = six(ruleset)
        assert g.players == 2
        assert g.to_move == 0
        assert [g.team(0), g.team(1)] == [0, 1]


@pytest.mark.parametrize("ruleset", ["steffen", "romanian", "romanian-advanced"])
def test_four_players_move_0_1_2_3_in_turn_and_partners_sit_opposite(ruleset):
    g = six(ruleset, players=4)
    assert [g.team(seat) for seat in range(4)] == [0, 1, 0, 1]
    moves = ["0,0"] if ruleset == "steffen" else []
    moves += ["-1,0", "-2,0", "-3,0", "-4,0", "-5,0", "-6,0"][: 6 - len(moves)]
    seats = []
    for move in moves:
        seats.append(g.to_move)
        g.play(move)
    assert seats == [0, 1, 2, 3, 0, 1]
    assert g.to_move == 2
    # Each piece has the color of its seat's team.
    assert [g.at(move) for move in moves] == [0, 1, 0, 1, 0, 1]


@pytest.mark.parametrize(
    ("players", "seat", "winner"), [(2, 0, 1), (2, 1, 0), (4, 2, 1), (4, 3, 0)]
)
def test_any_seat_may_resign_and_the_other_team_wins(players, seat, winner):
    g = six("romanian", players=players)
    play(g, "-1,0 -2,0")
    g.resign(seat)
    assert g.result == Result(winner, "resign", ())
    assert g.legal_moves() == []
    assert load_game(g.to_bytes()).result == g.result


def test_an_illegal_action_is_refused_with_a_message_and_changes_nothing():
    g = six()
    play(g, "0,0 1,0")
    rejected(g, "1,0", "1,0 is taken")
    rejected(g, "nonsense", "not a")
    assert [str(m) for m in g.history] == ["0,0", "1,0"]


# == Six: cells, placing, the start ================================================================


def test_cells_are_axial_q_r_with_six_neighbours():
    g = six()
    g.play("0,0")
    assert sorted(str(m) for m in g.legal_moves()) == sorted(
        ["1,0", "-1,0", "0,1", "0,-1", "1,-1", "-1,1"]
    )
    g.play(" 1 , -1 ")  # spaces around the comma are forgiven
    assert g.at("1,-1") == 1


def test_a_placed_piece_must_touch_the_layout():
    g = six()
    play(g, "0,0 1,0")
    rejected(g, "5,5", "5,5 does not touch the layout")
    rejected(g, "3,0", "3,0 does not touch the layout")  # two steps from 1,0
    g.play("2,0")
    assert g.at("2,0") == 0


def test_steffen_opens_on_0_0_and_refuses_any_other_first_cell():
    g = six()
    assert [str(m) for m in g.legal_moves()] == ["0,0"]
    for cell in ["1,0", "5,5", "-1,1"]:
        rejected(g, cell, "the first piece goes in the middle of the table, on 0,0")
    g.play("0,0")
    assert layout_of(g) == {(0, 0): 0}


@pytest.mark.parametrize("ruleset", ["romanian", "romanian-advanced"])
@pytest.mark.parametrize("players", [2, 4])
def test_romanian_red_and_black_are_pre_placed_and_black_opens_on_one_of_three_places(
    ruleset, players
):
    g = six(ruleset, players)
    assert layout_of(g) == {(0, 0): 1, (1, 0): 0}  # red (team 1) on 0,0, black on 1,0
    assert g.to_move == 0 and g.team(0) == 0  # black opens
    assert [str(m) for m in g.legal_moves()] == ["-1,0", "-1,1", "0,-1"]
    for cell in ["0,1", "1,-1", "2,0", "2,-1", "1,1", "-2,0"]:
        rejected(g, cell, "-1,0, 0,-1 or -1,1")
    rejected(g, "0,0", "0,0 is taken")
    for first in ["-1,0", "0,-1", "-1,1"]:
        h = g.copy()
        h.play(first)
        assert h.at(first) == 0


@pytest.mark.parametrize(
    ("ruleset", "players", "hands", "pieces"),
    [
        ("steffen", 2, [19, 19], [19, 19]),
        ("steffen", 4, [18, 18, 18, 18], [18, 18]),
        ("romanian", 2, [20, 20], [21, 21]),
        ("romanian", 4, [10, 10, 10, 10], [21, 21]),
        ("romanian-advanced", 2, [20, 20], [21, 21]),
        ("romanian-advanced", 4, [10, 10, 10, 10], [21, 21]),
    ],
)
def test_pieces_in_hand_per_ruleset_and_number_of_players(ruleset, players, hands, pieces):
    g = six(ruleset, players)
    assert [g.in_hand(seat) for seat in range(players)] == hands
    assert [g.pieces(team) for team in (0, 1)] == pieces


def test_steffen_four_player_partners_share_one_pool_counted_for_both():
    g = six(players=4)
    play(g, "0,0 1,0")  # seats 0 and 1
    assert [g.in_hand(seat) for seat in range(4)] == [17, 17, 17, 17]
    play(g, "2,0")  # seat 2 takes from the same pool as seat 0
    assert [g.in_hand(seat) for seat in range(4)] == [16, 17, 16, 17]
    assert [g.pieces(team) for team in (0, 1)] == [18, 18]


def test_romanian_four_player_hands_are_each_players_own():
    g = six("romanian", players=4)
    play(g, "-1,0 -2,0 -3,0")
    assert [g.in_hand(seat) for seat in range(4)] == [9, 9, 9, 10]
    assert [g.pieces(team) for team in (0, 1)] == [21, 21]


# == Six: the shapes ===========================================================================


# A row of team 0 from 0,0 along each axis; team 1 meanwhile builds five in a line elsewhere.
ROWS = {
    "q": ("0,0 1,0 2,0 3,0 4,0 5,0", "0,1 0,2 0,3 0,4 0,5"),
    "r": ("0,0 0,1 0,2 0,3 0,4 0,5", "1,0 2,0 3,0 4,0 5,0"),
    "q-r": ("0,0 1,-1 2,-2 3,-3 4,-4 5,-5", "1,0 2,0 3,0 4,0 5,0"),
}


@pytest.mark.parametrize("axis", ROWS)
def test_six_in_a_row_wins_along_each_of_the_three_axes(axis):
    team0, team1 = ROWS[axis]
    g = six()
    play(g, alternate(team0, team1))
    assert g.result == Result(0, "row", ())
    assert sorted(map(str, g.winning_cells())) == sorted(team0.split())


def test_five_in_a_row_is_not_enough():
    g = six()
    play(g, alternate("0,0 1,0 2,0 3,0 4,0", "0,1 0,2 0,3 0,4 0,5"))
    assert g.result is None


def test_a_longer_row_contains_a_row():
    """Team 0 has 0,0 1,0 2,0 and 4,0 5,0 6,0 (team 1 bridges the gap below): 3,0 makes
    seven in a row at once, and that wins."""
    g = six()
    play(g, "0,0 -1,0 -1,1 0,-1 1,0 -2,0 2,0 3,-1 -2,1 4,-1 4,0 0,-2 5,0 1,-2 6,0 2,-1")
    g.play("3,0")
    assert g.result == Result(0, "row", ())
    cells = {(c.q, c.r) for c in g.winning_cells()}
    assert len(cells) == 6
    assert cells <= {(q, 0) for q in range(7)}


TRIANGLES = {
    "0,0 1,0 2,0 0,1 1,1 0,2": "-1,0 -2,0 -3,0 -4,0 -5,0",
    "0,0 -1,0 -2,0 0,-1 -1,-1 0,-2": "1,0 2,0 3,0 4,0 5,0",
}


@pytest.mark.parametrize("triangle", TRIANGLES)
def test_a_triangle_wins_in_both_orientations(triangle):
    g = six()
    play(g, alternate(triangle, TRIANGLES[triangle]))
    assert g.result == Result(0, "triangle", ())
    assert sorted(map(str, g.winning_cells())) == sorted(triangle.split())


def test_a_triangle_anywhere_wins():
    """A translate of the triangle, away from the first piece, under the Romanian rules."""
    g = six("romanian")
    play(g, alternate("0,-1 1,-1 1,-2 2,-2 1,-3 2,-3 3,-3", "-1,1 -2,1 -3,1 0,1 2,0 3,0"))
    assert g.result == Result(0, "triangle", ())
    assert sorted(map(str, g.winning_cells())) == sorted(
        ["1,-3", "2,-3", "3,-3", "1,-2", "2,-2", "1,-1"]
    )


RING_OF_1_0 = "2,0 2,-1 1,-1 0,0 0,1 1,1"


@pytest.mark.parametrize(
    ("centre", "moves"),
    [
        ("empty", alternate("0,0 0,1 1,1 2,0 2,-1 1,-1", "-1,0 -2,0 -3,0 -4,0 -5,0")),
        ("own", alternate("0,0 1,0 0,1 1,1 2,0 2,-1 1,-1", "-1,0 -2,0 -3,0 -4,0 -5,0 -1,-1")),
        ("opponent's", alternate("0,0 0,1 1,1 2,0 2,-1 1,-1", "1,0 -1,0 -2,0 -3,0 -4,0")),
    ],
)
def test_steffen_circle_wins_whatever_its_centre_holds(centre, moves):
    g = six()
    play(g, moves)
    assert g.result == Result(0, "circle", ())
    assert sorted(map(str, g.winning_cells())) == sorted(RING_OF_1_0.split())
    assert g.at("1,0") == {"empty": None, "own": 0, "opponent's": 1}[centre]


RING_OF_0_M2 = "0,-1 1,-2 -1,-1 -1,-2 0,-3 1,-3"  # round 0,-2, black's first on 0,-1


@pytest.mark.parametrize("ruleset", ["romanian", "romanian-advanced"])
def test_romanian_circle_round_an_empty_centre_wins(ruleset):
    g = six(ruleset)
    play(g, alternate(RING_OF_0_M2, "-1,1 -2,1 -3,1 0,1 2,0"))
    assert g.result == Result(0, "circle", ())
    assert sorted(map(str, g.winning_cells())) == sorted(RING_OF_0_M2.split())


@pytest.mark.parametrize("ruleset", ["romanian", "romanian-advanced"])
def test_romanian_circle_round_an_own_centre_wins(ruleset):
    g = six(ruleset)
    black = "0,-1 0,-2 1,-2 -1,-1 -1,-2 0,-3 1,-3"  # the centre 0,-2 second
    play(g, alternate(black, "-1,1 -2,1 -3,1 0,1 2,0 3,0"))
    assert g.result == Result(0, "circle", ())
    assert g.at("0,-2") == 0


@pytest.mark.parametrize("ruleset", ["romanian", "romanian-advanced"])
def test_romanian_ring_round_an_opponents_piece_is_no_circle(ruleset):
    """Black closes six pieces round red's 0,0: no circle; the game goes on."""
    g = six(ruleset)
    play(g, alternate("-1,0 0,-1 1,-1 -1,1 0,1", "2,0 3,0 4,0 5,0"))
    assert all(g.at(c) == 0 for c in ["1,0", "1,-1", "0,-1", "-1,0", "-1,1", "0,1"])
    assert g.result is None
    assert g.to_move == 1


def test_a_move_making_a_row_and_a_triangle_is_won_by_the_row():
    """2,0 closes the row 0,0 .. 5,0 and the triangle 0,0 1,0 2,0 0,1 1,1 0,2 at once."""
    g = six()
    team0 = {cell: 0 for cell in [(0, 0), (1, 0), (3, 0), (4, 0), (5, 0), (0, 1), (1, 1), (0, 2)]}
    team1 = {cell: 1 for cell in [(2, -1), (3, -1), (-1, 0), (-2, 0), (-3, 0), (-4, 0), (-1, -1)]}
    build(g, team0 | team1 | {(-1, -2): 1})
    assert g.to_move == 0
    g.play("2,0")
    assert g.result == Result(0, "row", ())
    assert sorted(map(str, g.winning_cells())) == sorted(["0,0", "1,0", "2,0", "3,0", "4,0", "5,0"])


def test_a_move_making_a_triangle_and_a_circle_is_won_by_the_triangle():
    """0,2 closes the triangle 0,0 1,0 2,0 0,1 1,1 0,2 and the ring round 1,1 at once."""
    g = six()
    play(g, alternate("0,0 1,0 2,0 0,1 1,1 2,1 1,2", "-1,0 -2,0 -3,0 -4,0 -5,0 -5,1 -5,2"))
    assert g.result is None
    g.play("0,2")
    assert g.result == Result(0, "triangle", ())
    assert sorted(map(str, g.winning_cells())) == sorted(["0,0", "1,0", "2,0", "0,1", "1,1", "0,2"])


# == Six: the second round =========================================================================


def test_once_the_hands_are_used_up_seats_move_pieces_instead_of_placing():
    g = six()
    play(g, alternate("0,0 1,0", "-1,0"))
    rejected(g, "1,0>1,1", "^you still have 18 pieces in hand: place one first$")
    g = steffen_line()
    assert all(">" in str(m) for m in g.legal_moves())
    rejected(g, "-18,1", "no pieces left in hand")
    rejected(g, "-19,0", "no pieces left in hand")


def test_the_hand_messages_speak_to_the_player_and_name_no_seat():
    """The seat numbers of the library count from 0, those on screen from 1: a message
    that goes to the player to move names no seat at all."""
    g = six()
    rejected(g, "0,0>1,1", "^you still have 19 pieces in hand: place one first$")
    g = six(players=4)  # partners share one supply under the Steffen rules
    play(g, "0,0")
    rejected(g, "0,0>1,1", "^your team still has 18 pieces in hand: place one first$")
    g = six("romanian", players=4)  # ten pieces each
    play(g, " ".join(f"{-q},0" for q in range(1, 37)))  # a line, the teams alternating
    assert (g.to_move, g.in_hand(0)) == (0, 1)
    rejected(g, "-1,0>-1,1", "^you still have 1 piece in hand: place it first$")


def test_a_placement_with_nothing_in_hand_is_told_a_move_it_may_play_instead():
    g = steffen_line()
    with pytest.raises(IllegalMove) as refusal:
        g.play("-18,1")
    message = str(refusal.value)
    lead = "you have no pieces left in hand: move one of your team's pieces, like "
    assert message.startswith(lead)
    g.play(message.removeprefix(lead))
    g = six(players=4)
    play(g, " ".join(f"{q},0" for q in range(36)))
    assert (g.to_move, g.in_hand(0)) == (0, 0)
    with pytest.raises(IllegalMove, match=r"^your team has no pieces left in hand: move one"):
        g.play("0,1")


def test_a_seat_that_may_only_declare_is_told_so_when_it_places():
    """All 42 pieces in a line with red at both ends: black's row on -6,0 .. -1,0, then
    red and black by turns from 0,0 to 29,0, then red to 34,0. Every black piece is inside
    the line, so none may move, but the row may still be declared."""
    layout = {(q, 0): 1 - q % 2 for q in range(30)}
    layout |= {(q, 0): 0 for q in range(-6, 0)} | {(q, 0): 1 for q in (-7, 30, 31, 32, 33, 34)}
    g = six("romanian", declare=True)
    build(g, layout)
    assert g.to_move == 0 and [str(m) for m in g.legal_moves()] == ["declare"]
    rejected(g, "5,5", "^you have no pieces left in hand and none may move: declare your shape$")


def test_a_seat_lifts_only_a_piece_of_its_own_team():
    g = steffen_line()  # seat 0 (team 0, even q) to move
    rejected(g, "-17,0>-17,1", "-17,0 is not a piece of your team")
    rejected(g, "-19,0>-19,1", "-19,0 is not a piece of your team")  # an empty cell
    assert {str(m).split(">")[0] for m in g.legal_moves()} == {f"{q},0" for q in range(-18, 20, 2)}


def test_the_piece_is_lifted_before_it_is_placed():
    """-18,0 ends the line: -19,0 touched only it, so it does not touch the layout left
    after lifting; the piece cannot go back on its own cell; -18,1 touches -17,0."""
    g = steffen_line()
    rejected(g, "-18,0>-19,0", "-19,0 does not touch the layout left after lifting -18,0")
    rejected(g, "-18,0>-18,0", "another cell")
    rejected(g, "-18,0>-17,0", "-17,0 is taken")
    legal = {str(m) for m in g.legal_moves()}
    assert "-18,0>-19,0" not in legal and "-18,0>-18,0" not in legal
    g.play("-18,0>-18,1")
    assert (g.at("-18,0"), g.at("-18,1"), g.to_move) == (None, 0, 1)
    assert [g.pieces(0), g.pieces(1)] == [19, 19]


def test_a_seat_with_no_legal_move_passes():
    """Romanian basic, every black piece inside the line: black cannot lift any without
    splitting the layout, so after the last placement seat 0 is skipped and red moves.
    Once red's move lets a black piece go, black moves again."""
    g = romanian_line()
    assert g.to_move == 1
    assert g.result is None
    assert {str(m).split(">")[0] for m in g.legal_moves()} == {"-20,0", "21,0"}
    g.play("21,0>20,1")  # the red piece now hangs on 20,0: black still cannot move
    assert g.to_move == 1
    g.play("-20,0>-19,1")  # -19,1 touches -19,0 and -18,0: -19,0 may go now
    assert g.to_move == 0
    assert {str(m).split(">")[0] for m in g.legal_moves()} == {"-19,0"}


def test_in_four_player_games_each_seat_without_a_move_passes():
    g = romanian_line(players=4)
    assert g.to_move == 1  # seat 0 (black) passes
    g.play("21,0>20,1")
    assert g.to_move == 3  # seat 2 (black) passes
    g.play("-20,0>-19,1")
    assert g.to_move == 0


def test_romanian_forbids_a_lift_that_splits_the_layout():
    g = romanian_line()  # red to move
    rejected(g, "0,0>0,1", "lifting 0,0 would split the layout")
    rejected(g, "-18,0>-18,1", "lifting -18,0 would split the layout")
    assert not any(str(m).startswith("0,0>") for m in g.legal_moves())


def test_steffen_a_lift_that_splits_captures_the_smaller_group():
    """Lifting -16,0 cuts -18,0 and -17,0 off the line: they are captured."""
    g = steffen_line()
    g.play("-16,0>-16,1")
    assert layout_of(g) == {(q, 0): q % 2 for q in range(-15, 20)} | {(-16, 1): 0}
    assert [g.pieces(0), g.pieces(1)] == [18, 18]
    assert g.result is None and g.to_move == 1


def test_romanian_advanced_a_lift_that_splits_captures_the_smaller_group():
    """Black may lift 19,0 now (seat 0 is not skipped): 20,0 and 21,0 are captured, and
    the piece must go next to what stays."""
    g = romanian_line("romanian-advanced")
    assert g.to_move == 0
    rejected(g, "19,0>22,0", "does not touch the layout left after lifting 19,0")
    rejected(g, "19,0>19,1", "does not touch the layout left after lifting 19,0")
    g.play("19,0>18,1")
    assert (g.at("19,0"), g.at("20,0"), g.at("21,0"), g.at("18,1")) == (None, None, None, 0)
    assert [g.pieces(0), g.pieces(1)] == [20, 20]
    assert g.result is None


def tie_position() -> Game:
    """The hub's arms: 13 pieces along q, 13 along -r, 11 along (-1, +1)."""
    return hub("1010101010101", "1010101010101", "10101010100")


def test_when_the_largest_groups_tie_a_move_must_name_the_group_that_stays():
    g = tie_position()
    rejected(g, "0,0>1,1", "equal size")
    legal = {str(m) for m in g.legal_moves() if str(m).startswith("0,0>")}
    # The canonical KEEP is the kept group's smallest cell: 1,0 for the q arm and
    # 0,-13 for the -r arm. The smaller arm can never stay.
    assert "0,0>1,1:1,0" in legal and "0,0>1,1" not in legal
    assert "0,0>-1,0:0,-13" in legal and "0,0>-1,0:1,0" not in legal
    assert all(m.split(":")[1] in ("1,0", "0,-13") for m in legal)


def test_keep_may_name_any_cell_of_the_group_that_stays():
    g = tie_position()
    g.play("0,0>1,1:7,0")
    assert layout_of(g) == line((1, 0), (1, 0), "1010101010101") | {(1, 1): 0}
    assert [g.pieces(0), g.pieces(1)] == [7, 7]
    assert g.result is None


def test_keep_naming_a_group_that_cannot_stay_is_refused():
    g = tie_position()
    rejected(g, "0,0>1,1:-3,3", "-3,3 is not in a group that can stay")  # the smaller arm
    rejected(g, "0,0>1,1:0,0", "not in a group that can stay")  # the lifted piece
    rejected(g, "0,0>1,1:5,5", "not in a group that can stay")  # an empty cell
    rejected(g, "0,0>1,1:0,-5", "does not touch the layout left")  # B stays: 1,1 is off it


def test_a_team_left_with_five_pieces_or_fewer_after_a_capture_loses():
    """Lifting the hub keeps the 13-piece arm (3 of team 1) and captures the two arms of 12
    (16 of team 1): team 1 is left with 3 pieces and loses."""
    g = hub("0000100001001", "110110110110", "110110110110")
    g.play("0,0>1,1")
    assert g.result == Result(0, "too-few-pieces", ())
    assert [g.pieces(0), g.pieces(1)] == [11, 3]
    assert g.winning_cells() == []


def test_both_teams_left_with_five_pieces_or_fewer_is_a_draw():
    """Two captures: lifting the hub keeps the 13-piece arm (which forks at 5,0), 7 pieces
    of each team; then team 1 lifts the fork 5,0 and keeps the 5-piece stem: 3 and 3."""
    layout = {(0, 0): 0} | line((1, 0), (1, 0), "10101")  # the stem and the fork 5,0
    layout |= line((6, -1), (1, -1), "0101") | line((5, 1), (0, 1), "0101")
    layout |= line((0, -1), (0, -1), "101010101010") | line((-1, 1), (-1, 1), "101010101010")
    g = six()
    build(g, layout)
    g.play("0,0>1,1")
    assert g.result is None
    assert [g.pieces(0), g.pieces(1)] == [7, 7]
    g.play("5,0>0,0")
    assert g.result == Result(None, "too-few-pieces", ())
    assert [g.pieces(0), g.pieces(1)] == [3, 3]


def circle_centre_position(ruleset: str) -> Game:
    """Romanian: a line along r = 0 from -17,0 to 17,0 (black's five 13,0 .. 17,0 at its
    right end) and, below 0,0, six red pieces round a black one on 0,-2. Red's ring is
    no circle while black's piece sits in it. Black is to move in the second round."""
    layout = {(q, 0): 1 - q % 2 for q in range(-17, 13)} | line((13, 0), (1, 0), "00000")
    layout |= {cell: 1 for cell in [(1, -2), (1, -3), (0, -3), (-1, -2), (-1, -1), (0, -1)]}
    layout[0, -2] = 0
    g = six(ruleset)
    build(g, layout)
    assert g.to_move == 0 and g.result is None
    return g


@pytest.mark.parametrize("ruleset", ["romanian", "romanian-advanced"])
def test_lifting_a_circle_centre_completes_a_circle_for_the_other_team(ruleset):
    g = circle_centre_position(ruleset)
    g.play("0,-2>-18,0")
    assert g.result == Result(1, "circle", ())
    assert sorted(map(str, g.winning_cells())) == sorted(RING_OF_0_M2.split())


@pytest.mark.parametrize("ruleset", ["romanian", "romanian-advanced"])
def test_the_movers_team_is_checked_first(ruleset):
    """The same lift put on 18,0 also makes black's row 13,0 .. 18,0: black wins."""
    g = circle_centre_position(ruleset)
    g.play("0,-2>18,0")
    assert g.result == Result(0, "row", ())


def test_the_third_repetition_of_a_position_with_the_same_seat_to_move_draws():
    g = steffen_line()
    cycle = "-18,0>-18,1 19,0>19,-1 -18,1>-18,0 19,-1>19,0"
    play(g, cycle)  # the second time this position, seat 0 to move
    assert g.result is None
    play(g, cycle)
    assert g.result == Result(None, "repetition", ())


def test_the_same_layout_with_another_seat_to_move_is_another_position():
    """Seat 0 takes its end piece round three cells while seat 1 goes there and back: the
    layout comes back with seat 1 to move, then with seat 0: three times in all, but only
    twice with seat 0 to move. The third time with seat 0 to move draws."""
    g = steffen_line()
    three = "-18,0>-18,1 19,0>19,-1 -18,1>-17,-1 19,-1>19,0 -17,-1>-18,0"
    play(g, three)  # the layout of the start, seat 1 to move
    assert g.to_move == 1
    play(g, "19,0>19,-1 -18,0>-18,1 19,-1>19,0 -18,1>-18,0")  # again, seat 1 to move
    assert g.result is None and g.to_move == 1
    play(g, "19,0>19,-1 -18,0>-18,1 19,-1>19,0 -18,1>-17,-1 19,0>19,-1 -17,-1>-18,0 19,-1>19,0")
    assert g.result is None  # seat 0 to move: twice now
    assert g.to_move == 0
    play(g, "-18,0>-18,1 19,0>19,-1 -18,1>-18,0 19,-1>19,0")
    assert g.result == Result(None, "repetition", ())


def test_no_moves_cannot_be_reached():
    """A draw by no-moves needs a position where no seat has a move; but a layout always has
    a piece whose lift splits nothing (with captures, any lift will do): the romanian line
    is as close as it gets, and red still moves there."""
    g = romanian_line()
    assert g.result is None
    assert g.legal_moves()


# == Six: declaring ==============================================================================

RED_LINE = "-1,1 -2,1 -3,1 -4,1 -5,1"  # red's five on r = 1: 0,1 would make six


def ring_without_its_last_piece(**options) -> Game:
    """Romanian with declaring: black has five of the six pieces round 0,-2; 1,-3 closes
    the ring. Red has five in a row on r = 1. Black to move."""
    g = six("romanian", declare=True, **options)
    play(g, alternate(RING_OF_0_M2.removesuffix(" 1,-3"), RED_LINE))
    assert g.to_move == 0 and not g.can_declare()
    return g


def test_declaring_is_an_option_of_the_romanian_rules_only():
    with pytest.raises(ValueError, match="declaring"):
        six("steffen", declare=True)
    assert six("romanian").options()["declare"] is False
    assert six("romanian-advanced", declare=True).options()["declare"] is True


def test_with_declaring_a_completed_shape_does_not_end_the_game():
    g = ring_without_its_last_piece()
    g.play("1,-3")
    assert g.result is None
    assert g.to_move == 1 and not g.can_declare()  # red has no shape


def test_a_move_with_a_bang_wins_when_a_shape_stands_after_it():
    g = ring_without_its_last_piece()
    g.play("1,-3!")
    assert g.result == Result(0, "circle", ())
    assert sorted(map(str, g.winning_cells())) == sorted(RING_OF_0_M2.split())
    assert str(g.history[-1]) == "1,-3!"
    assert load_game(g.to_bytes()) == g


def test_a_shape_not_declared_at_once_may_be_declared_later():
    g = ring_without_its_last_piece()
    play(g, "1,-3 2,0")  # red plays on without making a shape
    assert g.can_declare()
    assert str(g.legal_moves()[0]) == "declare"
    play(g, "2,-4 3,0")  # and black waits another turn
    assert g.can_declare()
    g.play("declare")
    assert g.result == Result(0, "circle", ())
    assert sorted(map(str, g.winning_cells())) == sorted(RING_OF_0_M2.split())


def test_the_right_to_declare_is_lost_once_the_opponent_completes_a_shape():
    g = ring_without_its_last_piece()
    play(g, "1,-3 0,1")  # red completes its row -5,1 .. 0,1
    assert g.result is None
    assert not g.can_declare()
    assert "declare" not in [str(m) for m in g.legal_moves()]
    rejected(g, "declare", "the other team has completed a shape since")
    g.play("2,-4")
    assert g.can_declare()  # red may declare its row
    g.play("declare")
    assert g.result == Result(1, "row", ())


def test_a_bang_wins_with_an_older_shape_whose_right_stands():
    """Black closed its ring a turn ago without declaring; red completed nothing since:
    a move that makes no shape, written with "!", declares the ring and wins."""
    g = ring_without_its_last_piece()
    play(g, "1,-3 2,0")
    g.play("2,-4!")
    assert g.result == Result(0, "circle", ())
    assert sorted(map(str, g.winning_cells())) == sorted(RING_OF_0_M2.split())
    assert str(g.history[-1]) == "2,-4!"


def test_a_bang_naming_a_shape_whose_right_is_lost_wins_nothing():
    """Red completed its row after black's ring: black's "!" names no shape black may
    declare, so it wins nothing, and the move is played as an ordinary one."""
    g = ring_without_its_last_piece()
    play(g, "1,-3 0,1")
    assert not g.can_declare()
    g.play("2,-4!")
    assert g.result is None
    assert g.to_move == 1 and g.can_declare()  # red may still declare its row
    assert str(g.history[-1]) == "2,-4"


# RULINGS' example: black completes a row on r = -1 with its sixth piece (move 11) and does
# not declare; red completes its row on r = 1 right after (move 12) and does not declare.
BOTH_ROWS = "0,-1 0,1 1,-1 1,1 2,-1 2,1 3,-1 3,1 4,-1 4,1 5,-1 5,1"


def both_rows_undeclared() -> Game:
    g = six("romanian", declare=True)
    play(g, BOTH_ROWS)
    assert g.result is None and g.to_move == 0
    return g


def test_a_bang_after_the_other_team_completed_a_shape_wins_nothing_and_it_may_declare():
    g = both_rows_undeclared()
    assert not g.can_declare()
    g.play("-1,0!")
    assert g.result is None
    assert g.to_move == 1
    assert g.can_declare()
    g.play("declare")
    assert g.result == Result(1, "row", ())
    assert sorted(map(str, g.winning_cells())) == sorted(f"{q},1" for q in range(6))


def test_a_bang_that_wins_nothing_is_the_ordinary_move():
    """The game goes on exactly as after the move without "!", which is what it records."""
    with_bang, without = both_rows_undeclared(), both_rows_undeclared()
    with_bang.play("-1,0!")
    without.play("-1,0")
    assert with_bang == without
    assert with_bang.to_bytes() == without.to_bytes()
    assert [str(m) for m in with_bang.history] == [*BOTH_ROWS.split(), "-1,0"]
    assert str(with_bang.undo()) == "-1,0"
    assert with_bang == both_rows_undeclared()


def test_a_bang_wins_with_a_shape_completed_by_this_very_move():
    """Black's row has lost its right, but 6,-1 completes another row, 1,-1 .. 6,-1,
    that may be declared at once."""
    g = both_rows_undeclared()
    g.play("6,-1!")
    assert g.result == Result(0, "row", ())
    assert sorted(map(str, g.winning_cells())) == sorted(f"{q},-1" for q in range(1, 7))


def test_legal_moves_list_no_bang_and_any_of_them_may_take_one():
    """The list holds each move once, without "!" (and "declare" first when it may be
    played); in a declaring game each of them may be written with "!" as well."""
    g = both_rows_undeclared()
    legal = [str(m) for m in g.legal_moves()]
    assert "declare" not in legal and not any(move.endswith("!") for move in legal)
    winning = set()
    for move in legal:
        trial = g.copy()
        trial.play(move + "!")
        if trial.result is not None:
            assert trial.result == Result(0, "row", ())
            winning.add(move)
    assert winning == {"-1,-1", "6,-1"}  # the moves that complete a new row
    g.play("-1,0")
    assert str(g.legal_moves()[0]) == "declare"


def test_a_shape_no_longer_on_the_table_cannot_be_declared():
    """Red puts a piece in the ring's centre: under the Romanian rules it is no circle."""
    g = ring_without_its_last_piece()
    play(g, "1,-3 0,-2")
    assert not g.can_declare()
    rejected(g, "declare", "no shape")


def test_declaring_without_a_shape_is_refused():
    g = ring_without_its_last_piece()
    rejected(g, "declare", "no shape on the table to declare")
    g = six("romanian", declare=True)
    rejected(g, "declare", "no shape")


def test_a_bang_that_makes_no_shape_is_an_ordinary_move():
    g = ring_without_its_last_piece()
    g.play("-2,-1!")
    assert g.result is None and g.to_move == 1
    assert str(g.history[-1]) == "-2,-1"
    g = six("romanian", declare=True)
    g.play("-1,0!")
    assert g.result is None and [str(m) for m in g.history] == ["-1,0"]


def test_without_declaring_a_bang_or_a_declaration_is_refused():
    g = six("romanian")
    rejected(g, "-1,0!", "declaring is off")
    rejected(g, "declare", "declaring is off")
    g = six()
    rejected(g, "0,0!", "declaring is off")


def test_a_later_declaration_names_the_shape_that_may_be_declared():
    """Black completes a row (move 21) and does not declare it; red completes its row at
    once (move 22), so black's row can no longer be declared. Black then closes its ring
    (move 23), red plays on, and black declares: the circle is what may be declared and
    wins, not the row (the result names the first of row, triangle, circle only among
    the shapes that may be declared)."""
    g = six("romanian", declare=True)
    black = RING_OF_0_M2.removesuffix(" 1,-3") + " 0,-4 1,-4 -1,-4 2,-4 3,-4 -2,-4"
    red = RED_LINE + " 2,0 3,0 4,0 5,0 6,0 0,1"
    play(g, alternate(black, red))
    assert not g.can_declare()
    play(g, "1,-3 2,1")
    assert g.can_declare()
    g.play("declare")
    assert g.result == Result(0, "circle", ())
    assert sorted(map(str, g.winning_cells())) == sorted(RING_OF_0_M2.split())


# == Six: matches ===============================================================================


def test_in_a_match_of_six_the_loser_opens_the_next_game_and_a_draw_alternates():
    m = Match(games=None, opening="loser")
    g = six()  # side 0 opens as team 0 and loses by team 1's row
    play(g, alternate("0,0 0,1 0,2 0,3 0,4 -1,0", "1,0 2,0 3,0 4,0 5,0 6,0"))
    assert g.result == Result(1, "row", ())
    m.record(g.result)
    assert m.next_opener == 0  # the loser opens again
    g = steffen_line()
    cycle = "-18,0>-18,1 19,0>19,-1 -18,1>-18,0 19,-1>19,0"
    play(g, f"{cycle} {cycle}")
    assert g.result == Result(None, "repetition", ())
    m.record(g.result)
    assert m.next_opener == 1  # after a draw the opener alternates
