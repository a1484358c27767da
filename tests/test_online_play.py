"""Online play without SSH: apps on one memory hub, as a server runs them, meet in the
lobby, are paired from the command line, play a shared table with the keys (turns staged
then sent, draws, claims, rematches, chat), leave it and come back to it."""

import random
import re

from textual.widgets import Button

from sixtui.server.hub import MemoryHub
from sixtui.server.online import GUEST_NOTICE
from sixtui.server.rooms import read_table
from sixtui.tui.screens.dialogs import SummaryScreen
from sixtui.tui.screens.game import GameScreen
from sixtui.tui.screens.lobby import LobbyScreen
from sixtui.tui.session import NO_CHAT
from support.online_apps import (
    at_table,
    at_terminals,
    command,
    in_lobby,
    lobby_line,
    lobby_of,
    online_app,
)
from support.tui_helpers import (
    SIZE,
    burst,
    game_screen,
    history,
    hot_seat,
    key_bar,
    panel,
    type_move,
    wait_until,
)

# Black makes six in a row along row 10 of 19×19 (O10 the sixth) while White's stones
# in column A leave a gap.
SIX_IN_A_ROW = ["J10", "A1 A2", "K10 L10", "A3 A4", "M10 N10", "A6 A7", "O10 P10"]


def apps(hub, *names: str, window: float = 60.0):
    """The apps of ``names`` (ann and bob, unless given), to be run by the test."""
    return [online_app(hub, name, window) for name in names or ("ann", "bob")]


async def pair(pilots, game: str = "connect6") -> list[GameScreen]:
    """Every pilot's player pairs for ``game``; their game screens, once seated."""
    for pilot in pilots:
        await in_lobby(pilot)
    for pilot in pilots:
        await command(pilot, f"pair {game}")
    return [await at_table(pilot) for pilot in pilots]


async def watched_game(ann, bob, cy, game: str = "connect6") -> GameScreen:
    """ann and bob paired for ``game``, and cy watching them: cy's game screen."""
    await pair([ann, bob], game)
    await in_lobby(cy)
    await command(cy, "watch ann")
    return await at_table(cy)


async def resigned(resigning, shown) -> None:
    """``resigning``'s player resigns, and the result opens on every pilot ``shown``."""
    await resigning.press("r", "y")
    for pilot in shown:
        await wait_until(pilot, lambda p=pilot: isinstance(p.app.screen, SummaryScreen), "")


def opener_first(pilots):
    """The pilots, the one whose player opens first."""
    first = next(p for p in pilots if game_screen(p.app).session.may_move)
    return [first, *(p for p in pilots if p is not first)]


async def test_two_players_pair_and_finish_a_game_typing_turns_a_stone_staged_on_the_way():
    hub = MemoryHub()
    async with at_terminals(*apps(hub)) as pilots:
        await pair(pilots)
        first, second = opener_first(pilots)
        for pilot, me, other in zip(pilots, ("ann", "bob"), ("bob", "ann"), strict=True):
            seats = [line[2:] for line in panel(pilot.app, "seats").split("\n")]  # no piece
            assert sorted(seats) == sorted([f"{me}  you", other])
        await type_move(first, "J10")
        await wait_until(second, lambda: history(second.app) == ["J10"], "the first stone")
        await type_move(second, "A1")  # one stone of two: staged, shown, not sent
        assert history(second.app) == ["J10", "A1"] and history(first.app) == ["J10"]
        assert panel(second.app, "message") == (
            "A1 goes to the table with the rest of your turn; Esc takes it back"
        )
        assert "esc Take back" in key_bar(second.app)
        await second.press("escape")
        assert history(second.app) == ["J10"] and "Take back" not in key_bar(second.app)
        played = ["J10"]
        for number, turn in enumerate(SIX_IN_A_ROW[1:]):
            mover, other = (second, first) if number % 2 == 0 else (first, second)
            await type_move(mover, turn)
            played += turn.split()[: 1 if turn.startswith("O10") else 2]
            await wait_until(other, lambda o=other, p=list(played): history(o.app) == p, turn)
        for pilot in pilots:
            await wait_until(pilot, lambda p=pilot: isinstance(p.app.screen, SummaryScreen), "end")
            assert panel(pilot.app, "status").endswith("wins as Black: six in a row")
        await first.press("q")  # the summary's Leave: back in the lobby
        await in_lobby(first)
        here = lobby_of(first.app).here
        await wait_until(first, lambda: "in the lobby" in str(here._drawn), "in the lobby again")


async def test_stones_placed_on_the_board_go_to_the_table_only_on_confirm():
    hub = MemoryHub()
    async with at_terminals(*apps(hub)) as pilots:
        await pair(pilots)
        first, second = opener_first(pilots)
        assert "Place" in key_bar(first.app) and "Place" not in key_bar(second.app)
        assert panel(first.app, "message") == "you open"  # as the table opened
        opener = game_screen(first.app).session.player_at(0).name
        assert panel(second.app, "message") == f"{opener} opens"
        await first.press("enter")  # the opening stone, at the centre
        assert panel(first.app, "status") == "your turn is ready: Enter sends it, Esc takes it back"
        assert "⏎ Confirm" in key_bar(first.app) and "esc Take back" in key_bar(first.app)
        assert history(first.app) == ["J10"] and history(second.app) == []
        await first.press("escape")
        assert history(first.app) == [] and "Confirm" not in key_bar(first.app)
        await first.press("enter", "enter")
        await wait_until(second, lambda: history(second.app) == ["J10"], "the confirmed stone")
        await second.press("right", "enter")
        assert "⏎ Place" in key_bar(second.app)  # one stone of two: the second to place
        await second.press("right", "enter")
        assert panel(second.app, "status").startswith("your turn is ready")
        assert history(first.app) == ["J10"]
        await second.press("enter")
        await wait_until(first, lambda: history(first.app) == ["J10", "K10", "L10"], "the pair")


async def test_a_player_gone_is_counted_down_and_comes_back_to_the_table_as_it_was():
    hub = MemoryHub()
    ann_app, bob_app = apps(hub)
    async with at_terminals(ann_app, bob_app) as (ann, bob):
        await pair([ann, bob])
        first, _ = opener_first([ann, bob])
        await type_move(first, "J10")
        await wait_until(bob, lambda: history(bob.app) == ["J10"], "the first stone")
        await ann_app.online.close()  # as when ann's connection drops
        await wait_until(bob, lambda: "away" in panel(bob.app, "seats"), "ann away")
        assert re.search(r"ann  away · \d+ s to come back", panel(bob.app, "seats"))
        assert panel(bob.app, "message") == "ann left the table: waiting for them to come back"
        assert "Claim win" not in key_bar(bob.app)  # not before ann's time is up
        async with at_terminals(online_app(hub, "ann")) as (back,):
            screen = await at_table(back)  # straight back to the table, not the lobby
            assert history(back.app) == ["J10"]
            assert isinstance(back.app.screen_stack[-2], LobbyScreen)
            await wait_until(bob, lambda: "away" not in panel(bob.app, "seats"), "ann back")
            assert panel(bob.app, "message") == "ann came back"
            await back.press("q", "y")  # left mid-game: away again, back in the lobby
            await in_lobby(back)
            assert screen.session.closed
            lobby = lobby_of(back.app)
            await wait_until(
                back,
                lambda: any(p.name == "ann" and p.doing == "playing" for p in lobby.view.people),
                "ann still playing, to the lobby",
            )
            await command(back, "watch ann")  # their own game: back in their seat
            await at_table(back)
            assert game_screen(back.app).session.resigning_seat is not None


async def test_a_seat_away_shows_its_countdown_and_its_colored_cells_in_a_narrow_panel():
    hub = MemoryHub()
    ann_app, bob_app = apps(hub)
    async with at_terminals(ann_app, bob_app) as (ann, bob):
        await pair([ann, bob], "gameof6 --size 13")
        await ann_app.online.close()
        await wait_until(bob, lambda: "away" in panel(bob.app, "seats"), "ann away")
        seats = panel(bob.app, "seats").splitlines()
        (ann_seat,) = [line.strip() for line in seats if " ann " in line]
        assert re.fullmatch(r". ann  away( ·)? \d+ s( to come back)? · 0 colored", ann_seat)
        assert all(line.rstrip().endswith("0 colored") for line in seats), seats


async def test_one_key_at_two_terminals_is_at_the_table_at_both_and_plays_from_either():
    hub = MemoryHub()
    ann_app, twin_app, bob_app = apps(hub, "ann", "ann", "bob")
    async with at_terminals(ann_app, twin_app, bob_app) as (ann, twin, bob):
        await in_lobby(twin)
        await pair([ann, bob])  # ann pairs at one terminal...
        await at_table(twin)  # ...and her other one is taken to the table too
        if game_screen(bob.app).session.may_move:
            await type_move(bob, "J10")
            await wait_until(twin, lambda: history(twin.app) == ["J10"], "bob's stone")
        await type_move(twin, "A1 A2" if history(twin.app) else "J10")
        played = history(twin.app)
        for pilot in (ann, bob):
            await wait_until(pilot, lambda p=pilot: history(p.app) == played, "ann's turn")
        async with at_terminals(online_app(hub, "ann")) as (third,):
            await at_table(third)  # logging in a third time: straight to her table
            assert history(third.app) == played
        await ann_app.online.close()  # one of her terminals drops: she is still here
        if game_screen(bob.app).session.may_move:
            await type_move(bob, "K10 L10")
            await wait_until(twin, lambda: len(history(twin.app)) == len(played) + 2, "a turn")
        assert "away" not in panel(bob.app, "seats") and not game_screen(bob.app).session.away
        await twin_app.online.close()  # and now the other
        await wait_until(bob, lambda: "away" in panel(bob.app, "seats"), "ann away")


async def test_once_a_player_is_gone_past_the_window_the_other_may_claim_the_game():
    hub = MemoryHub()
    ann_app, bob_app = apps(hub, window=0.0)
    async with at_terminals(ann_app, bob_app) as (ann, bob):
        table = (await pair([ann, bob]))[0].session.table_id
        await ann_app.online.close()
        await wait_until(bob, lambda: "time is up" in panel(bob.app, "seats"), "ann gone")
        assert "w Claim win" in key_bar(bob.app) and "x Abort" in key_bar(bob.app)
        assert panel(bob.app, "message") == (
            "ann did not come back in time: w claims the game, x aborts it, or wait on"
        )
        await bob.press("w")
        await wait_until(bob, lambda: isinstance(bob.app.screen, SummaryScreen), "the claim")
        assert panel(bob.app, "status") == "bob wins as " + (
            "Black: ann left the game"
            if game_screen(bob.app).session.player_at(0).name == "bob"
            else "White: ann left the game"
        )
        assert (await read_table(hub, table)).status == "game-over"
        summary = bob.app.screen  # no next game with ann gone: none is offered
        assert "next" not in [button.name for button in summary.query(Button) if button.display]
        assert "Next game" not in key_bar(bob.app)
        await bob.press("n")
        assert bob.app.screen is summary
        await bob.press("b", "n")
        assert "Next game" not in key_bar(bob.app)
        assert panel(bob.app, "message") == "ann left the table: no new game begins without them"


def lobby_message(app) -> str:
    """The lobby's message, all its lines."""
    lines = lobby_of(app).query_one("#lobby-message")._drawn
    return " ".join("".join(text for text, _ in line).strip() for line in lines).strip()


async def test_a_player_back_after_their_game_ended_without_them_is_told_how_it_ended():
    hub = MemoryHub()
    ann_app, bob_app = apps(hub, window=0.0)
    async with at_terminals(ann_app, bob_app) as (ann, bob):
        await pair([ann, bob])
        await ann_app.online.close()  # ann's connection drops
        await wait_until(bob, lambda: "w Claim win" in key_bar(bob.app), "ann gone")
        await bob.press("w")
        await wait_until(bob, lambda: isinstance(bob.app.screen, SummaryScreen), "the claim")
    (again,) = apps(hub, "ann")
    async with at_terminals(again) as (ann,):
        await in_lobby(ann)
        await wait_until(ann, lambda: "while you were away" in lobby_message(ann.app), "told")
        assert lobby_message(ann.app) == (
            "while you were away, your Connect6 game against bob ended: you lost (left the"
            " game); profile ann shows it"
        )
    (once_more,) = apps(hub, "ann")
    async with at_terminals(once_more) as (ann,):
        await in_lobby(ann)
        assert "while you were away" not in lobby_message(ann.app)  # told once


async def test_a_game_aborted_says_so_where_whose_turn_it_was_showed():
    hub = MemoryHub()
    ann_app, bob_app = apps(hub, window=0.0)
    async with at_terminals(ann_app, bob_app) as (ann, bob):
        table = (await pair([ann, bob]))[0].session.table_id
        await ann_app.online.close()
        await wait_until(bob, lambda: "x Abort" in key_bar(bob.app), "ann gone")
        await bob.press("x")
        await wait_until(bob, lambda: "aborted" in panel(bob.app, "status"), "the abort")
        assert panel(bob.app, "status") == "the game was aborted: it counts for nobody"
        drawn = game_screen(bob.app).panel._drawn
        (status,) = [
            line for line in drawn if "status" in dict(line).values() and "abort" in str(line)
        ]
        assert len(status) == 1  # the words alone, without the piece of a side to move
        assert (await read_table(hub, table)).status == "aborted"


async def test_a_winning_turn_staged_is_not_yet_the_end_of_the_game():
    hub = MemoryHub()
    async with at_terminals(*apps(hub)) as pilots:
        await pair(pilots)
        first, second = opener_first(pilots)
        played = []
        for number, turn in enumerate(SIX_IN_A_ROW[:-1]):
            mover, other = (first, second) if number % 2 == 0 else (second, first)
            await type_move(mover, turn)
            played += turn.split()
            await wait_until(other, lambda o=other, p=list(played): history(o.app) == p, turn)
        await first.press(*["right"] * 5, "enter")  # O10, from J10: six in a row, staged
        assert panel(first.app, "status").startswith("your turn is ready")
        assert panel(first.app, "score").startswith("Game 1 · wins")
        assert "Next game" not in key_bar(first.app) and "⏎ Confirm" in key_bar(first.app)
        await first.press("enter")
        await wait_until(second, lambda: second.app.screen is not game_screen(second.app), "end")


async def test_past_two_turns_a_game_left_may_be_claimed_but_not_aborted():
    hub = MemoryHub()
    ann_app, bob_app = apps(hub, window=0.0)
    async with at_terminals(ann_app, bob_app) as pilots:
        await pair(pilots)
        first, second = opener_first(pilots)
        await type_move(first, "J10")
        await wait_until(second, lambda: history(second.app) == ["J10"], "the first turn")
        await type_move(second, "A1 A2")
        await wait_until(first, lambda: len(history(first.app)) == 3, "the second turn")
        await first.app.online.close()
        await wait_until(second, lambda: "time is up" in panel(second.app, "seats"), "gone")
        assert "w Claim win" in key_bar(second.app) and "Abort" not in key_bar(second.app)


async def test_a_draw_offered_with_a_key_is_declined_then_accepted_with_keys():
    hub = MemoryHub()
    async with at_terminals(*apps(hub)) as (ann, bob):
        await pair([ann, bob])
        assert "o Offer draw" in key_bar(ann.app) and "Accept" not in key_bar(bob.app)
        await ann.press("o")
        offered = "you offer a draw: the other side accepts or declines it"
        await wait_until(ann, lambda: panel(ann.app, "message") == offered, "own offer")
        await wait_until(bob, lambda: panel(bob.app, "message") == "ann offers a draw", "offer")
        assert "a Accept draw" in key_bar(bob.app) and "d Decline draw" in key_bar(bob.app)
        assert "Offer draw" not in key_bar(ann.app) and "Accept" not in key_bar(ann.app)
        await bob.press("d")
        await wait_until(ann, lambda: panel(ann.app, "message") == "bob declines the draw", "no")
        assert panel(bob.app, "message") == "you declined the draw"
        await ann.press("o")
        await wait_until(bob, lambda: "a Accept draw" in key_bar(bob.app), "the offer again")
        await bob.press("a")
        for pilot in (ann, bob):
            await wait_until(pilot, lambda p=pilot: isinstance(p.app.screen, SummaryScreen), "=")
            assert panel(pilot.app, "status") == "Draw: both sides agreed"


async def test_a_draw_offered_stands_on_the_other_screen_after_the_offer_s_move():
    hub = MemoryHub()
    async with at_terminals(*apps(hub)) as pilots:
        await pair(pilots)
        first, second = opener_first(pilots)
        await first.press("o")
        await type_move(first, "J10")
        name = game_screen(first.app).session.player_at(0).name
        await wait_until(second, lambda: history(second.app) == ["J10"], "the move")
        assert panel(second.app, "message") == f"{name} offers a draw: a accepts, d declines"
        assert "a Accept draw" in key_bar(second.app)


async def test_after_a_game_t_on_the_result_opens_the_chat_and_one_who_leaves_has_left():
    hub = MemoryHub()
    async with at_terminals(*apps(hub)) as (ann, bob):
        await pair([ann, bob])
        await resigned(ann, [ann, bob])
        await bob.press("t")  # the keys after it go to the chat, none to the result
        await wait_until(bob, lambda: isinstance(bob.app.screen, GameScreen), "the board")
        await bob.press(*"gg ann", "enter")
        await wait_until(ann, lambda: "bob: gg ann" in panel(ann.app, "chat"), "the line")
        assert game_screen(ann.app).session.next_asked_by == ()  # no n taken as a key
        await ann.press("q")  # from the result: the game is over, nothing to lose
        await in_lobby(ann)
        await wait_until(bob, lambda: panel(bob.app, "message") == "ann left the table", "gone")
        assert "ann  left" in panel(bob.app, "seats") and "to come back" not in panel(
            bob.app, "seats"
        )


async def test_after_a_game_a_line_typed_after_a_slash_is_said_and_runs_no_keys():
    hub = MemoryHub()
    ann_app, bob_app, cy_app = apps(hub, "ann", "bob", "cy")
    async with at_terminals(ann_app, bob_app, cy_app) as (ann, bob, cy):
        await watched_game(ann, bob, cy)
        await resigned(ann, [ann, bob, cy])
        # From the result, in one packet as over SSH: n (next game) and q (leave) are letters.
        await burst(bob, "slash", *"say nice game, q", "enter")
        await wait_until(ann, lambda: "bob: nice game, q" in panel(ann.app, "chat"), "bob's")
        await ann.press("b")  # and from the board
        await wait_until(ann, lambda: isinstance(ann.app.screen, GameScreen), "the board")
        screen = game_screen(ann.app)
        await ann.press("slash")
        assert screen.focused is screen.move_input
        assert screen.move_input.placeholder == (
            "say TEXT speaks to everyone at the table; Enter sends, Esc goes back"
        )
        await ann.press(*"say and a rematch? n", "enter")
        await wait_until(bob, lambda: "ann: and a rematch? n" in panel(bob.app, "chat"), "ann's")
        await ann.press("slash", *"K10", "enter")  # a move: the game is over
        assert panel(ann.app, "message") == "the game is over: n starts the next one"
        await burst(cy, "slash", *"say well played", "enter")  # a spectator too
        said = "cy (watching): well played"
        await wait_until(cy, lambda: panel(cy.app, "chat").endswith(said), "cy's line")
        for pilot in (ann, bob):
            assert game_screen(pilot.app).session.next_asked_by == ()
            assert isinstance(pilot.app.screen, (GameScreen, SummaryScreen))
        assert isinstance(cy.app.screen, (GameScreen, SummaryScreen))


async def test_the_result_stops_offering_the_next_game_once_the_other_player_leaves():
    hub = MemoryHub()
    async with at_terminals(*apps(hub)) as (ann, bob):
        await pair([ann, bob])
        await resigned(ann, [ann, bob])
        summary = bob.app.screen
        (next_button,) = [button for button in summary.query(Button) if button.name == "next"]
        assert next_button.display and "n Next game" in key_bar(bob.app)
        await ann.press("q")
        await in_lobby(ann)
        await wait_until(bob, lambda: not next_button.display, "no next game offered")
        await wait_until(bob, lambda: "Next game" not in key_bar(bob.app), "nor in the footer")


async def test_once_a_match_is_over_n_asks_for_a_rematch_and_both_asking_begins_one():
    hub = MemoryHub()
    async with at_terminals(*apps(hub)) as (ann, bob):
        await pair([ann, bob], "gameof6 --size 9")
        for number in range(6):  # ann resigns every game; both ask for the next from the summary
            await resigned(ann, [ann, bob])
            if number < 5:
                await ann.press("n")  # asks: bob's summary stays until he asks too
                await wait_until(ann, lambda: isinstance(ann.app.screen, GameScreen), "asked")
                assert panel(ann.app, "message") == (
                    "you asked for the next game: now the other side"
                )
                assert isinstance(bob.app.screen, SummaryScreen)
                await bob.press("n")
                for pilot in (ann, bob):
                    await wait_until(
                        pilot, lambda p=pilot: not game_screen(p.app).session.game.is_over, "next"
                    )
        for pilot in (ann, bob):
            assert game_screen(pilot.app).session.match.wins in ((0, 6), (6, 0))
            assert "n Rematch" in key_bar(pilot.app)  # on the result
            assert "Rematch (n)" in [str(button.label) for button in pilot.app.screen.query(Button)]
        await ann.press("n")  # from the result
        await wait_until(ann, lambda: isinstance(ann.app.screen, GameScreen), "asked")
        asked = "ann asks for a rematch: n agrees"
        await wait_until(bob, lambda: panel(bob.app, "message") == asked, "ask")
        assert isinstance(bob.app.screen, SummaryScreen)
        await bob.press("b")  # from the summary to the board, where n agrees too
        await wait_until(bob, lambda: "n Rematch" in key_bar(bob.app), "rematch")
        await bob.press("n")
        for pilot in (ann, bob):
            await wait_until(
                pilot, lambda p=pilot: game_screen(p.app).session.match.results == [], "new"
            )


async def test_a_spectator_watches_a_game_with_no_keys_to_play_and_goes_back_at_once():
    hub = MemoryHub()
    ann_app, bob_app, cy_app = apps(hub, "ann", "bob", "cy")
    async with at_terminals(ann_app, bob_app, cy_app) as (ann, bob, cy):
        screen = await watched_game(ann, bob, cy)
        assert not screen.session.may_move and screen.session.resigning_seat is None
        assert sorted(panel(cy.app, "seats").split()) == ["ann", "bob", "○", "●"]
        keys = key_bar(cy.app)
        assert "Resign" not in keys and "Offer draw" not in keys
        drawn = ["".join(run for run, _ in line).strip() for line in screen.panel._drawn]
        assert drawn[1] == "you are watching"
        await cy.press("r")
        assert panel(cy.app, "message") == (
            "you are watching: the players play here, and v reviews the moves"
        )
        await ann.press("r", "y")  # ann resigns: what comes next is for the players
        await wait_until(cy, lambda: screen.session.game.is_over, "the game over")
        await wait_until(cy, lambda: isinstance(cy.app.screen, SummaryScreen), "the result")
        assert screen.key_description("next_game", "Next game") is None
        summary = cy.app.screen
        assert "next" not in [button.name for button in summary.query(Button) if button.display]
        assert summary.key_description("choose('next')", "Next game") is None
        await cy.press("n")  # nothing: the next game is for the players
        assert cy.app.screen is summary
        await cy.press("b", "q")  # nothing to lose: no question
        await in_lobby(cy)


async def test_t_opens_a_line_of_chat_for_the_table_and_spectators_talk_apart():
    hub = MemoryHub()
    ann_app, bob_app, cy_app = apps(hub, "ann", "bob", "cy")
    async with at_terminals(ann_app, bob_app, cy_app) as (ann, bob, cy):
        await watched_game(ann, bob, cy, "six")
        assert "t Chat" in key_bar(ann.app) and "t Chat" in key_bar(cy.app)
        screen = game_screen(ann.app)
        await ann.press("t")
        assert screen.focused is screen.chat_input and "Chat" not in key_bar(ann.app)
        await ann.press(*"[bold]gl[/] to you", "enter")  # "t" typed in the line is a letter
        assert screen.focused is screen.board and not screen.chat_input.display
        ann_said = "Chat\nann: [bold]gl[/] to you"
        for pilot in (ann, bob, cy):
            await wait_until(pilot, lambda p=pilot: panel(p.app, "chat") == ann_said, "ann's line")
        await cy.press("slash", *"say watch the corner", "enter")  # on the move line too
        said = "cy (watching): watch the corner"
        await wait_until(cy, lambda: panel(cy.app, "chat").endswith(said), "cy's line")
        await bob.press("t", *"never mind", "escape")
        await bob.press("t", "enter")
        assert panel(bob.app, "message") == (
            "say what? type a line of chat, then Enter: nothing was sent"
        )
        await burst(bob, "t", *"hi", "enter")  # in one packet, as over SSH: all in the line
        bob_said = f"{ann_said}\nbob: hi"
        for pilot in (ann, bob):
            await wait_until(pilot, lambda p=pilot: panel(p.app, "chat") == bob_said, "bob's line")


async def test_the_chat_key_is_offered_only_at_online_tables():
    async with hot_seat("connect6").run_test(size=SIZE) as pilot:
        assert "Chat" not in key_bar(pilot.app)
        await pilot.press("t")
        assert panel(pilot.app, "message") == NO_CHAT
        await type_move(pilot, "say hello")
        assert panel(pilot.app, "message") == NO_CHAT and history(pilot.app) == []


async def test_a_table_that_cannot_be_opened_leaves_the_player_in_the_lobby_told_why():
    hub = MemoryHub()
    async with at_terminals(online_app(hub, "ann")) as (ann,):
        await in_lobby(ann)
        lobby_of(ann.app).open_table("99", watching=True)
        await wait_until(
            ann, lambda: lobby_line(ann.app, "lobby-message") == "game 99 is over and gone", "why"
        )
        assert isinstance(ann.app.screen, LobbyScreen)


async def test_a_guest_who_drops_out_need_not_be_waited_for():
    hub = MemoryHub()
    guest_app = online_app(hub, "guest-0a1b2c", guest=True)
    (bob_app,) = apps(hub, "bob")
    async with at_terminals(guest_app, bob_app) as (guest, bob):
        table = (await pair([guest, bob]))[0].session.table_id
        await guest_app.online.close()  # the guest's connection drops
        await wait_until(bob, lambda: "w Claim win" in key_bar(bob.app), "no wait")
        said = panel(bob.app, "message")
        assert "cannot come back" in said or "did not come back in time" in said
        await bob.press("w")
        await wait_until(bob, lambda: isinstance(bob.app.screen, SummaryScreen), "the claim")
        assert (await read_table(hub, table)).status == "game-over"


async def test_a_guest_is_told_in_the_lobby_that_they_cannot_come_back():
    hub = MemoryHub()
    async with at_terminals(online_app(hub, "guest-0a1b2c", guest=True)) as (guest,):
        await in_lobby(guest)
        assert lobby_line(guest.app, "lobby-message") == GUEST_NOTICE
        assert lobby_line(guest.app, "lobby-title").startswith("sixtui lobby · you are guest-")


async def test_a_player_whose_name_was_refused_enters_the_lobby_under_the_name_they_pick():
    hub = MemoryHub()
    async with at_terminals(online_app(hub, "alice", refused="taken")) as (carol,):
        await carol.press(*"carol", "enter")
        await in_lobby(carol)
        assert lobby_line(carol.app, "lobby-title").startswith("sixtui lobby · you are carol")


async def test_a_move_list_scrolled_back_stays_there_as_the_other_side_plays():
    hub = MemoryHub()
    async with at_terminals(*apps(hub)) as pilots:
        await pair(pilots, "six")
        chooser = random.Random(7)
        while (played := len(game_screen(pilots[0].app).session.game.history)) < 40:
            mover = next(p for p in pilots if game_screen(p.app).session.may_move)
            session = game_screen(mover.app).session
            await session.play(chooser.choice(session.game.legal_moves()))
            for pilot in pilots:
                await wait_until(pilot, lambda p=pilot, n=played: len(history(p.app)) > n, "move")
        watcher = next(p for p in pilots if not game_screen(p.app).session.may_move)
        await watcher.click("#side")
        await watcher.press("home")
        assert move_numbers(watcher.app)[0] == 1
        mover = next(p for p in pilots if p is not watcher)
        session = game_screen(mover.app).session
        await session.play(session.game.legal_moves()[0])
        await wait_until(watcher, lambda: len(history(watcher.app)) == 41, "the move")
        await watcher.pause()
        assert move_numbers(watcher.app)[0] == 1  # still where the player scrolled to
        await watcher.press("end")
        assert move_numbers(watcher.app)[-1] == 41


def move_numbers(app) -> list[int]:
    return [int(line.split(".")[0]) for line in panel(app, "moves").splitlines()]
