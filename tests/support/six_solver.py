"""A deliberately simple exhaustive solver of Six: it knows nothing of shapes, plays
every legal move on the game and reads the result."""

from dataclasses import replace


def every_move(game):
    """Every legal move of the seat to move, and in declaring games each also with ``!``."""
    moves = game.legal_moves()
    if game.declare:
        moves += [replace(move, declare=True) for move in moves if move.to is not None]
    return moves


def wins_at_once(game, move):
    """Whether ``move`` ends the game in favour of the team that plays it."""
    team = game.team(game.to_move)
    game.play(move)
    try:
        return game.result is not None and game.result.winner == team
    finally:
        game.undo()


def can_win_at_once(game):
    return game.result is None and any(wins_at_once(game, move) for move in every_move(game))


def lets_the_other_team(game, move, succeed):
    """Whether after ``move`` the other team has won, or ``succeed(game)`` says that with
    its next move it can."""
    team = game.team(game.to_move)
    game.play(move)
    try:
        if game.result is not None:
            return game.result.winner not in (team, None)
        return game.team(game.to_move) != team and succeed(game)
    finally:
        game.undo()


def lets_the_other_team_win(game, move):
    """Whether after ``move`` the other team wins, at once or with its next move."""
    return lets_the_other_team(game, move, can_win_at_once)


def forces_a_win(game, move):
    """Whether ``move`` wins at once, or leaves the other team no reply after which
    the mover's team cannot win at once: a double threat."""
    team = game.team(game.to_move)
    game.play(move)
    try:
        if game.result is not None:
            return game.result.winner == team
        if game.team(game.to_move) == team:
            return False
        for reply in every_move(game):
            game.play(reply)
            try:
                if game.result is not None or not can_win_at_once(game):
                    return False
            finally:
                game.undo()
        return True
    finally:
        game.undo()


def lets_the_other_team_force_a_win(game, move):
    """Whether after ``move`` the other team can win at once or make a double threat."""
    return lets_the_other_team(
        game, move, lambda game: any(forces_a_win(game, reply) for reply in every_move(game))
    )
