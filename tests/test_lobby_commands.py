"""The lobby's command line: every command read from what a player types, and every
mistake answered in one line that says what is wrong and what would be right."""

import io
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console

from sixtui.tui.field_lengths import CHAT_LINE, COMMAND_LINE
from sixtui.tui.lobby_commands import (
    STANDARD_POOLS,
    USAGES,
    Accept,
    Challenge,
    CommandError,
    Decline,
    GameChoice,
    Help,
    Mute,
    Pair,
    Partner,
    Play,
    Profile,
    Replay,
    Say,
    Top,
    Unmute,
    Unpair,
    Unpartner,
    Watch,
    Withdraw,
    parse_command,
)
from sixtui.tui.screens.lobby import help_text

C6 = GameChoice("connect6")

COMMANDS = [
    ("pair connect6", Pair(C6)),
    ("pair gameof6 --size 15", Pair(GameChoice("gameof6", size=15))),
    ("pair six", Pair(GameChoice("six"))),
    ("pair six --players 4", Pair(GameChoice("six", players=4))),
    ("pair connect6 --clock 5+5", Pair(GameChoice("connect6", clock="5+5"))),
    ("pair connect6 --clock none", Pair(C6)),
    ("pair connect6 --casual --clock 5+5", Pair(GameChoice("connect6", clock="5+5", casual=True))),
    ("challenge bob gameof6 --clock=15+10", Challenge("bob", GameChoice("gameof6", clock="15+10"))),
    (
        "pair six --ruleset romanian-advanced --declare --players=4",
        Pair(GameChoice("six", "romanian-advanced", 4, declare=True)),
    ),
    ("PAIR Six --RULESET=Romanian", Pair(GameChoice("six", "romanian"))),
    ("unpair", Unpair()),
    ("partner bob", Partner("bob")),
    ("unpartner", Unpartner()),
    ("challenge bob connect6", Challenge("bob", C6)),
    ("challenge bob gameof6 --size 11", Challenge("bob", GameChoice("gameof6", size=11))),
    (
        "challenge bob six --players 4 --computer hard",
        Challenge("bob", GameChoice("six", players=4), "hard"),
    ),
    ("accept bob", Accept("bob")),
    ("decline bob", Decline("bob")),
    ("withdraw bob", Withdraw("bob")),
    ("play connect6", Play(C6, "normal")),
    ("play six --players 4 --vs easy", Play(GameChoice("six", players=4), "easy")),
    ("watch bob", Watch("bob")),
    ("watch 12", Watch("12")),
    ("say hello   there ", Say("hello   there")),
    ("mute bob", Mute("bob")),
    ("unmute bob", Unmute("bob")),
    ("profile bob", Profile("bob")),
    ("top connect6", Top(C6)),
    ("top six --players 4", Top(GameChoice("six", players=4))),
    ("replay 12", Replay(12)),
    ("replay #12", Replay(12)),
    ("help", Help()),
    ("help challenge", Help("challenge")),
    ("help /pair", Help("pair")),
]


@pytest.mark.parametrize(("typed", "command"), COMMANDS, ids=[typed for typed, _ in COMMANDS])
def test_every_command_is_read(typed, command):
    assert parse_command(typed) == command
    assert parse_command(f"/{typed}") == command  # the / of the command line typed again
    assert parse_command(f"  / {typed}  ") == command


def test_every_command_has_a_usage_and_an_example_here():
    assert {typed.split()[0].lower() for typed, _ in COMMANDS} == set(USAGES)


def test_a_blank_line_is_no_command():
    assert parse_command("") is None
    assert parse_command("  /  ") is None


MISTAKES = [
    ("pair conect6", "no game 'conect6': connect6, gameof6 or six"),
    ("pair", "pair what? pair connect6, pair gameof6 or pair six"),
    ("pair six --rules romanian", "no option '--rules': did you mean --ruleset?"),
    (
        "pair six --colour red",
        "no option '--colour' for pair:"
        " --ruleset, --players, --size, --declare, --clock or --casual",
    ),
    ("pair six --ruleset", "--ruleset needs a value: steffen, romanian or romanian-advanced"),
    ("pair six --ruleset romania", "no ruleset 'romania': steffen, romanian or romanian-advanced"),
    ("pair six --players 3", "--players is 2 or 4, not 3"),
    ("pair six --players two", "--players is 2 or 4, not 'two'"),
    ("pair connect6 --players 4", "--players is an option of six, not connect6"),
    (
        "pair gameof6 --ruleset romanian --declare",
        "--ruleset and --declare are options of six, not gameof6",
    ),
    ("pair six --size 13", "--size is an option of connect6 and gameof6, not six"),
    ("pair connect6 --size 40", "a Connect6 board is 6 to 19 wide, not 40"),
    ("pair gameof6 --size big", "--size is a number, like 19, not 'big'"),
    ("pair six --declare", "declaring is part of the romanian rulesets only"),
    ("pair six --declare=yes", "--declare takes no value"),
    ("pair six --casual=yes", "--casual takes no value"),
    ("pair six --players 4 --players 2", "--players is given twice"),
    ("pair six connect6", "pair takes one: 'connect6' is left over"),
    ("pari six", "no command 'pari': did you mean pair? help lists every command"),
    ("unpair now", "unpair takes nothing more: 'now' is left over"),
    ("partner", "partner whom? partner NAME"),
    ("challenge", "challenge whom? challenge NAME GAME, like challenge bob connect6"),
    ("challenge bob", "challenge bob to what? challenge NAME GAME, like challenge bob connect6"),
    (
        "challenge six bob",
        "the name comes first: challenge NAME GAME, like challenge bob connect6",
    ),
    (
        "challenge connect6",
        "challenge whom? the name comes first: challenge NAME GAME, like challenge bob connect6",
    ),
    (
        "challenge bob six --computer easy",
        "--computer partners a side of four players: add --players 4",
    ),
    (
        "challenge bob six --players 4 --computer wise",
        "--computer is easy, normal or hard, not 'wise'",
    ),
    ("accept", "accept whose challenge? accept NAME"),
    ("decline", "decline whose challenge? decline NAME"),
    ("accept bob cy", "accept takes one: 'cy' is left over"),
    ("play", "play what? play GAME --vs LEVEL, like play six --vs easy"),
    ("play six --vs expert", "--vs is easy, normal or hard, not 'expert'"),
    ("watch", "watch whom? watch NAME, or watch a game's number"),
    ("say", "say what? say TEXT sends TEXT to everyone in the lobby"),
    ("mute", "mute whom? mute NAME"),
    ("pair connect6 --clock 5", "a clock is written MINUTES+SECONDS, like 5+5, or none: not '5'"),
    (
        "pair connect6 --clock 0+5",
        "a clock has 1 to 180 minutes and at most 180 seconds added a turn, not 0+5",
    ),
    (
        "play connect6 --clock 5+5",
        "no option '--clock' for play: --ruleset, --players, --size, --declare or --vs",
    ),
    ("profile", "whose profile? profile NAME"),
    ("top", "top at what? top connect6, top gameof6 or top six"),
    ("top chess", "no game 'chess': connect6, gameof6 or six"),
    ("replay", "replay which game? replay NUMBER, as a profile lists it"),
    ("replay twelve", "'twelve' is not a game's number: type one, as in replay 12"),
    ("replay 0", "'0' is not a game's number: type one, as in replay 12"),
    ("help me please", "help takes one command: 'please' is left over"),
    ("help dance", "no command 'dance': help alone lists every command"),
    (
        "hello everyone",
        "no command 'hello': to chat, type say and your line; help lists every command",
    ),
    ("xyzzy", "no command 'xyzzy': help lists every command"),
    ("six", "no command 'six': pair six waits for a game, play six plays the computer"),
    ("//pair six", "no command '/pair': did you mean pair? help lists every command"),
]


@pytest.mark.parametrize(("typed", "message"), MISTAKES, ids=[typed for typed, _ in MISTAKES])
def test_a_mistyped_command_says_what_is_wrong_and_what_would_be_right(typed, message):
    with pytest.raises(CommandError) as refused:
        parse_command(typed)
    assert str(refused.value) == message


def test_lines_are_held_to_their_lengths():
    with pytest.raises(CommandError, match=f"^a command holds at most {COMMAND_LINE} characters"):
        parse_command("watch " + "b" * COMMAND_LINE)
    assert parse_command("say " + "x" * CHAT_LINE) == Say("x" * CHAT_LINE)
    with pytest.raises(CommandError, match=f"^a line of chat holds at most {CHAT_LINE} char"):
        parse_command("say " + "x" * (CHAT_LINE + 1))


def test_what_a_player_typed_is_quoted_back_printable_and_short():
    with pytest.raises(CommandError) as refused:
        parse_command("pair \x1b[2J" + "x" * 50)
    message = str(refused.value)
    assert "\x1b" not in message
    assert message.startswith("no game '[2Jxxx") and "…'" in message


@given(st.text(max_size=200))
def test_any_text_is_read_as_a_command_or_refused_in_one_line(text):
    try:
        parse_command(text)
    except CommandError as refused:
        message = str(refused)
        assert message and "\n" not in message
        assert all(character.isprintable() for character in message)


def test_every_pool_has_a_key_that_names_it_again():
    others = (
        GameChoice("six", "romanian", 4, declare=True, clock="10+0", casual=True),
        GameChoice("gameof6", size=11, casual=True),
    )
    for choice in (*STANDARD_POOLS, *others):
        assert GameChoice.from_key(choice.key) == choice
        assert parse_command(f"pair {choice.words}") == Pair(choice)
    with pytest.raises(ValueError, match="no game is called 'six:steffen:4:loud'"):
        GameChoice.from_key("six:steffen:4:loud")


def test_the_readme_and_the_lobbys_help_list_every_command():
    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Play with others")[1].split("\n## ")[0]
    console = Console(width=100, file=io.StringIO())
    console.print(help_text())
    shown = console.file.getvalue()
    for typed, _ in USAGES.values():
        assert typed.split(" [")[0] in section, f"the README does not list {typed}"
        assert typed in shown, f"the lobby's help does not list {typed}"
