"""Matches: who opens each game, and who wins the match."""

import pytest

from sixtui.rules import Match, Result, new_game


def win(team: int, loser_cells: int = 0) -> Result:
    points = [loser_cells, loser_cells]
    points[team] = 6
    return Result(team, "colored-cells", tuple(points))


def test_a_game_of_6_match_is_six_games_and_side_0_opens_games_1_3_5():
    m = Match()
    openers = []
    while not m.is_over:
        openers.append(m.next_opener)
        m.record(win(0))
    assert openers == [0, 1, 0, 1, 0, 1]
    assert m.next_opener is None
    with pytest.raises(ValueError, match="the match is over"):
        m.record(win(0))


def test_results_are_read_from_the_opener_as_team_0():
    m = Match()
    m.record(win(0, loser_cells=2))  # side 0 opened and won
    m.record(win(0, loser_cells=3))  # side 1 opened and won
    assert m.wins == (1, 1)
    assert m.points == (6 + 3, 2 + 6)


def test_more_game_wins_take_the_match():
    m = Match()
    for result in [win(0), win(0), win(1), Result(None, "board-full", (2, 1)), win(0), win(0)]:
        m.record(result)
    # Game 2 and 4 and 6 were opened by side 1: team 0 there is side 1.
    assert m.wins == (2, 3)
    assert m.winner == 1


def test_equal_wins_then_more_points_win():
    m = Match()
    # Sides trade wins; side 1 lost its games with more colored cells.
    results = [win(0, 1), win(0, 4), win(0, 1), win(0, 4), win(0, 1), win(0, 4)]
    for result in results:
        m.record(result)
    assert m.wins == (3, 3)
    assert m.points == (18 + 4 * 3, 18 + 1 * 3)
    assert m.winner == 0


def test_equal_wins_and_points_draw_the_match():
    m = Match()
    for _ in range(6):
        m.record(win(0, 2))
    assert m.wins == (3, 3) and m.points[0] == m.points[1]
    assert m.is_over and m.winner is None


def test_no_winner_while_the_match_runs():
    m = Match()
    m.record(win(0))
    assert m.winner is None and not m.is_over


def test_in_a_series_the_loser_opens_the_next_game_and_a_draw_alternates():
    m = Match(games=None, opening="loser")
    assert m.next_opener == 0
    m.record(Result(0, "row", ()))  # side 0 opened and won: side 1 opens
    assert m.next_opener == 1
    m.record(Result(1, "row", ()))  # team 1 of that game is side 0: side 0 won, side 1 opens
    assert m.next_opener == 1
    m.record(Result(None, "repetition", ()))
    assert m.next_opener == 0
    assert m.wins == (2, 0) and not m.is_over


def test_a_real_game_result_feeds_the_match():
    g = new_game("gameof6")
    g.play("J10")
    g.resign(1)
    m = Match()
    m.record(g.result)
    assert m.wins == (1, 0) and m.points == (6, 0)


@pytest.mark.parametrize("options", [{"games": 0}, {"games": "6"}, {"opening": "winner"}])
def test_bad_match_settings_are_refused(options):
    with pytest.raises(ValueError):
        Match(**options)


def test_a_result_for_a_third_team_is_refused():
    with pytest.raises(ValueError, match="no team 2"):
        Match().record(Result(2, "resign", ()))


def test_repr_sums_up_the_match_however_many_games_it_has():
    m = Match()
    assert repr(m) == "<Match of 6 games, openers alternate; none played; side 0 opens next>"
    for result in [win(0, 1), win(0, 4), win(0, 1), win(0, 4), win(0, 1)]:
        m.record(result)
    assert repr(m) == (
        "<Match of 6 games, openers alternate; 5 played, wins 3-2, points 26-15; side 1 opens next>"
    )
    m.record(win(0, 4))
    assert (
        repr(m)
        == "<Match of 6 games, openers alternate; 6 played, wins 3-3, points 30-21; side 0 won>"
    )
    drawn = Match(games=2)
    drawn.record(win(0, 2))
    drawn.record(win(0, 2))
    assert repr(drawn).endswith("; 2 played, wins 1-1, points 8-8; drawn>")


def test_repr_of_a_series_leaves_out_points_where_games_score_none():
    m = Match(games=None, opening="loser")
    for _ in range(40):
        m.record(Result(0, "row", ()))
    assert repr(m) == "<Match series, the loser opens; 40 played, wins 20-20; side 0 opens next>"
