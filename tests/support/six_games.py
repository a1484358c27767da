"""Random games of Six for the property tests: every option, several ways of choosing
moves, and the hypothesis settings they share."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st

from sixtui.rules import new_game
from sixtui.rules.game import Game
from support.naive_six import NaiveSix, neighbours, parse_cell

# (ruleset, players, declare): every combination the rules allow.
OPTIONS = [
    ("steffen", 2, False),
    ("steffen", 4, False),
    ("romanian", 2, False),
    ("romanian", 2, True),
    ("romanian", 4, False),
    ("romanian", 4, True),
    ("romanian-advanced", 2, False),
    ("romanian-advanced", 2, True),
    ("romanian-advanced", 4, False),
    ("romanian-advanced", 4, True),
]
DECLARING_OPTIONS = [option for option in OPTIONS if option[2]]
# The same, as the keyword arguments of new_game("six", ...).
OPTION_ARGUMENTS = [
    {"ruleset": ruleset, "players": players, "declare": declare}
    for ruleset, players, declare in OPTIONS
]
STYLES = ("uniform", "long", "shuttle", "clump", "shrink")

# Random games are cut after this many moves (placements included) to keep the run short.
MOVE_CAP = 130

# A seed stands for a whole game: shrinking it toward 0 only tries other games, slowly.
SETTINGS = settings(
    max_examples=15,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
QUICK_SETTINGS = settings(SETTINGS, max_examples=40)

options = st.sampled_from(OPTIONS)
seeds = st.integers(0, 2**32 - 1)


def new_six(option: tuple[str, int, bool]) -> Game:
    ruleset, players, declare = option
    return new_game("six", ruleset=ruleset, players=players, declare=declare)


def cell_of(text: str) -> tuple[int, int]:
    return parse_cell(text)


def to_cell(name: str) -> str:
    """The cell a placement or a second-round move puts a piece on."""
    return name.split(":")[0].split(">")[-1]


def describe(game: Game) -> str:
    moves = " ".join(str(m) for m in game.history)
    return f"six {game.options()} moves: {moves}"


# -- a player that chooses the next move ------------------------------------------------------


class Chooser:
    """Picks a move from the engine's list.

    ``uniform``: any legal move. ``long``: placements mostly on cells that touch one
    piece (a thin layout, full of pieces whose lift splits it), second-round ties and
    small captures preferred, and a move that does not end the game when a few tries
    find one; in declaring games it sometimes declares. ``shuttle``: as ``long``, but
    a seat mostly moves back the piece it moved last, so that positions repeat.
    ``clump``: each team mostly puts its pieces where most of its own pieces are
    around, so that shapes come (in declaring games they stay on the table).
    ``shrink``: as ``long``, but with the referee's help the second round makes the
    biggest capture that does not end the game until 20 pieces or fewer are left, then
    mostly moves without capturing: small thin layouts, where groups tie more often.
    In declaring games every player now and then writes its move with "!", whether it
    wins with it or not.
    """

    def __init__(self, rng: random.Random, style: str) -> None:
        self.rng = rng
        self.style = style
        self.last: dict[int, tuple[str, str]] = {}  # seat → (from, to) of its last move

    def choose(self, game: Game, naive: NaiveSix | None = None) -> str:
        rng = self.rng
        names = [str(m) for m in game.legal_moves()]
        seat = game.to_move
        if self.style == "uniform":
            return self.remember(seat, rng.choice(names))
        if names[0] == "declare":
            if len(names) == 1 or rng.random() < (0.05 if self.style == "clump" else 0.25):
                return "declare"
            names = names[1:]
        pool = names
        if self.style == "clump" and rng.random() < 0.8:
            layout, team = game.layout(), seat % 2
            sample = rng.sample(names, min(40, len(names)))
            own = {
                n: sum(layout.get(c) == team for c in neighbours(cell_of(to_cell(n))))
                for n in sample
            }
            best = max(own.values())
            pool = [n for n in sample if own[n] == best]
        elif game.in_hand(seat):
            layout = game.layout()
            thin = [n for n in names if sum(c in layout for c in neighbours(cell_of(n))) == 1]
            if thin and rng.random() < 0.8:
                pool = thin
        else:
            back = self.last.get(seat)
            reverse = f"{back[1]}>{back[0]}" if back else None
            ties = [n for n in names if ":" in n]
            roll = rng.random()
            if self.style == "shuttle" and reverse in names and roll < 0.9:
                pool = [reverse]
            elif ties and roll < 0.6:
                pool = ties
            elif naive is not None and self.style == "shrink":
                moves = naive.moves_of(seat)
                if len(naive.layout) > 20:
                    # The biggest captures that do not end the game: small layouts.
                    for move in sorted(moves, key=lambda m: -m.captured)[:60]:
                        trial = game.copy()
                        trial.play(str(move))
                        if trial.result is None:
                            return self.remember(seat, str(move))
                pool = [str(m) for m in moves if not m.captured] or names
            elif naive is not None and roll < 0.8:
                small = [str(m) for m in naive.moves_of(seat) if 0 < m.captured <= 4]
                pool = small or names
        candidates = rng.sample(pool, min(6, len(pool)))
        text = candidates[0]
        for candidate in candidates if self.style != "clump" else ():
            trial = game.copy()
            trial.play(candidate)
            if trial.result is None:
                text = candidate
                break
        if game.options()["declare"] and rng.random() < 0.15:
            # A "!" that wins half the time it is tried, one that wins nothing the other half.
            trial = game.copy()
            trial.play(text + "!")
            if trial.result is not None or rng.random() < 0.5:
                text += "!"
        return self.remember(seat, text)

    def remember(self, seat: int, text: str) -> str:
        if ">" in text:
            origin, to = text.rstrip("!").split(":")[0].split(">")
            self.last[seat] = (origin, to)
        return text


def random_game(
    option: tuple[str, int, bool], rng: random.Random, style: str | None = None, max_moves=None
) -> Game:
    """A game played by the engine alone, stopped after a random number of moves
    (possibly over already)."""
    game = new_six(option)
    chooser = Chooser(rng, style or rng.choice(STYLES))
    if max_moves is None:
        max_moves = rng.choice([rng.randint(0, 45), rng.randint(30, MOVE_CAP)])
    while game.result is None and len(game.history) < max_moves:
        game.play(chooser.choose(game))
    return game


def running_game(option, rng, style=None, max_moves=None) -> Game:
    """As :func:`random_game`, with the last move taken back if it ended the game."""
    game = random_game(option, rng, style, max_moves)
    if game.result is not None:
        game.undo()
    return game
