"""How a table answers each intent: the new state, or a :class:`Refusal` saying why not.

Pure: nothing here reads the clock or the hub. :func:`apply_intent` takes the table as
its sender saw it and the moment it arrived; the rooms (:mod:`sixtui.server.rooms`) store
what it returns, at the next version, only if the table has not moved on meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable
from math import ceil

from sixtui.rules import Game, IllegalMove, Match, new_game
from sixtui.server.intents import Intent, Kind
from sixtui.server.table_clock import Clock
from sixtui.server.table_state import SeatHolder, TableState, saved
from sixtui.tui.game_setup import GameSetup
from sixtui.tui.session import checked_turn


class Refusal(ValueError):
    """An intent the table does not carry out; the message tells its sender why."""


def new_match(game: str) -> Match:
    """The match a table of ``game`` plays: Game of 6 six games, openers alternating; Six a
    series the loser opens; Connect6 a series, openers alternating."""
    return GameSetup(game).match()


def apply_intent(state: TableState, intent: Intent, now: float) -> TableState:
    """``state`` after ``intent``, sent at wall-clock time ``now`` (the version is left for
    the caller to set); :class:`Refusal` when the table does not allow it."""
    side = state.side_of(intent.identity)
    if side is None:
        raise Refusal("you hold no seat at this table")
    if state.status == "aborted":
        raise Refusal("this table's game was aborted")
    if intent.kind == "away":
        away = {intent.identity: now, **state.away}  # the first time it went away stands
        return state.but(away=away)
    if intent.kind == "gone":  # away as long as the window already
        since = min(state.away.get(intent.identity, now), now - state.window)
        return state.but(away={**state.away, intent.identity: since})
    here = state.but(away={who: t for who, t in state.away.items() if who != intent.identity})
    after = _ANSWERS[intent.kind](here, intent, side, now)
    if after.clock is not None and state.status == "playing" and after.status != "playing":
        after = after.but(clock=after.clock.stopped(now))
    return after


# -- playing -----------------------------------------------------------------------------


def _turn(state: TableState, intent: Intent, side: int, now: float) -> TableState:
    game = _game_in_play(state)
    holder = state.holder_at(game.to_move)
    if holder.identity != intent.identity:
        raise Refusal(f"wait: it is {holder.name}'s turn")
    if state.clock is not None and state.clock.out_of_time(now) == side:
        return _timed_out(state, game)  # the turn came too late: the game is over
    try:
        for move in checked_turn(game, intent.moves, whole=True):
            game.play(move)
    except IllegalMove as why:
        raise Refusal(str(why)) from None
    offer = None if state.draw_offer == 1 - side else state.draw_offer  # a move declines
    played = state.but(
        current=saved(game),
        turns=state.turns + 1,
        draw_offer=offer,
        clock=_clock_after_turn(state, side, now),
        since=now,
        took=(*state.took, max(0.0, now - state.since)),
    )
    return _ended(played, game) if game.is_over else played


def _clock_after_turn(state: TableState, side: int, now: float) -> Clock | None:
    """The clock once ``side`` has played a turn: the first turn of a game is untimed."""
    clock = state.clock
    if clock is None:
        return None
    return clock.first_turn_played(side, now) if state.turns == 0 else clock.turn_played(side, now)


def _flag(state: TableState, intent: Intent, side: int, now: float) -> TableState:
    """Ends the game when the side to move's time is up; anyone at the table may ask."""
    game = _game_in_play(state)
    clock = state.clock
    if clock is None:
        raise Refusal("this table plays without a clock")
    if clock.out_of_time(now) is None:
        running = clock.running
        if running is None:
            raise Refusal("no clock runs yet")
        raise Refusal(f"{ceil(clock.left_now(running, now))} seconds are left on the clock")
    return _timed_out(state, game)


def _timed_out(state: TableState, game: Game) -> TableState:
    """The game lost (or drawn) on time by the seat to move."""
    game.time_out(game.to_move)
    return _ended(state.but(current=saved(game)), game)


def _resign(state: TableState, intent: Intent, side: int, now: float) -> TableState:
    game = _game_in_play(state)
    seats = state.seats_of(intent.identity)
    game.resign(game.to_move if game.to_move in seats else seats[0])
    return _ended(state.but(current=saved(game)), game)


def _game_in_play(state: TableState) -> Game:
    """The game, loaded to be played on; :class:`Refusal` once it has ended."""
    if state.status == "match-over":
        raise Refusal("the match is over")
    if state.status != "playing":
        raise Refusal("the game is over")
    return state.load()


def _ended(state: TableState, game: Game) -> TableState:
    """``state``, holding ``game`` saved, once the game has ended: counted in the match,
    offers gone."""
    assert game.result is not None
    match = _copy(state.match)
    match.record(game.result)
    return state.but(
        match=match,
        status="match-over" if match.is_over else "game-over",
        draw_offer=None,
    )


def _copy(match: Match) -> Match:
    return Match(match.games, match.opening, list(match.results), list(match.openers))


# -- draws -------------------------------------------------------------------------------


def _offer_draw(state: TableState, intent: Intent, side: int, now: float) -> TableState:
    _game_in_play(state)
    if state.draw_offer == side:
        raise Refusal("you have offered a draw already")
    if state.draw_offer is not None:
        raise Refusal("a draw is offered to you: accept or decline it")
    return state.but(draw_offer=side)


def _accept_draw(state: TableState, intent: Intent, side: int, now: float) -> TableState:
    game = _offered_to(state, side)
    game.agree_draw()
    return _ended(state.but(current=saved(game)), game)


def _decline_draw(state: TableState, intent: Intent, side: int, now: float) -> TableState:
    _offered_to(state, side)
    return state.but(draw_offer=None)


def _offered_to(state: TableState, side: int) -> Game:
    game = _game_in_play(state)
    if state.draw_offer is None or state.draw_offer == side:
        raise Refusal("no draw is offered to you")
    return game


# -- between games -----------------------------------------------------------------------


def _next_game(state: TableState, intent: Intent, side: int, now: float) -> TableState:
    """The next game of the match or series begins once both sides have asked for it: no
    one is drawn into a game while still reading how the last one ended."""
    if state.status == "playing":
        raise Refusal("the game in play has not ended")
    if state.status == "match-over":
        raise Refusal("the match is over")
    _everyone_there(state)
    asked = _ask(state, side, "the next game")
    return state.but(asked=asked) if len(asked) < 2 else _fresh_game(state, now)


def _rematch(state: TableState, intent: Intent, side: int, now: float) -> TableState:
    if state.status != "match-over":
        raise Refusal("a rematch can be asked for once the match is over")
    _everyone_there(state)
    if len(asked := _ask(state, side, "a rematch")) < 2:
        return state.but(asked=asked)
    # The side that did not open the last match opens the new one: it becomes side 0.
    sides = (state.sides[1], state.sides[0])
    return _fresh_game(state.but(sides=sides, match=new_match(state.game)), now)


def _ask(state: TableState, side: int, what: str) -> tuple[int, ...]:
    """The sides asking for ``what`` once ``side`` has; :class:`Refusal` if it had."""
    if side in state.asked:
        raise Refusal(f"you have asked for {what} already: the other side has not yet")
    return (*state.asked, side)


def _everyone_there(state: TableState) -> None:
    """:class:`Refusal` unless everyone who holds a seat is at the table: one who left
    between games is not drawn into a game they do not know of, and asking for one with
    them gone would wait for nobody."""
    gone = [holder.name for holder in state.people if holder.identity in state.away]
    if gone:
        raise Refusal(f"{' and '.join(gone)} left the table: no new game begins without them")


def _fresh_game(state: TableState, now: float) -> TableState:
    """The next game at the table."""
    game = new_game(state.game, **state.options)
    return state.but(
        current=saved(game),
        number=state.number + 1,
        turns=0,
        since=now,
        took=(),
        status="playing",
        draw_offer=None,
        asked=(),
        clock=None if state.clock is None else state.clock.fresh(),
    )


# -- someone gone ------------------------------------------------------------------------


def _back(state: TableState, intent: Intent, side: int, now: float) -> TableState:
    return state  # coming back is clearing the away mark, done for every intent


def _claim(state: TableState, intent: Intent, side: int, now: float) -> TableState:
    game = _game_in_play(state)
    gone = _gone_past_window(state, 1 - side, now)
    seat = next(seat for seat in range(game.players) if state.holder_at(seat) == gone)
    game.forfeit(seat)
    return _ended(state.but(current=saved(game)), game)


def _abort(state: TableState, intent: Intent, side: int, now: float) -> TableState:
    _game_in_play(state)
    _gone_past_window(state, 1 - side, now)
    if state.turns >= 2:
        raise Refusal("the game is too far along to abort: claim the win instead")
    return state.but(status="aborted", draw_offer=None)


def _gone_past_window(state: TableState, side: int, now: float) -> SeatHolder:
    """A player of ``side`` away for longer than the table's window; :class:`Refusal`
    saying how long is left when there is none."""
    away = [
        (holder, state.away[holder.identity])
        for holder in state.sides[side]
        if holder.identity in state.away
    ]
    if not away:
        raise Refusal("the other side is here")
    holder, since = min(away, key=lambda pair: pair[1])
    left = since + state.window - now
    if left > 0:
        raise Refusal(f"{holder.name} may come back for {ceil(left)} more seconds")
    return holder


_ANSWERS: dict[Kind, Callable[[TableState, Intent, int, float], TableState]] = {
    "turn": _turn,
    "resign": _resign,
    "offer-draw": _offer_draw,
    "accept-draw": _accept_draw,
    "decline-draw": _decline_draw,
    "next-game": _next_game,
    "rematch": _rematch,
    "back": _back,
    "claim": _claim,
    "abort": _abort,
    "flag": _flag,
}
