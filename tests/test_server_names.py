"""Player names: bound to the first key that uses one, kept across restarts, another
picked when the name is taken; and who else is here, in every player's lobby."""

import asyncio
import sqlite3

import asyncssh
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sixtui.server.names import FILE_NAME, NameBook, NamesFileError, name_problem, open_name_book
from support.ssh_client import TIMEOUT, Screen, connect


def test_a_name_belongs_to_the_first_key_whatever_its_case(tmp_path) -> None:
    book = open_name_book(tmp_path)
    assert book.claim("Alice", "key-1") is None
    assert book.claim("alice", "key-1") is None
    assert "belongs to another player" in book.claim("ALICE", "key-2")
    assert book.claim("bob", "key-2") is None
    assert book.claim("bobby", "key-2") is None  # one key may hold several names
    book.close()
    again = open_name_book(tmp_path)
    assert again.owner("alice") == "key-1" and again.owner("BOB") == "key-2"
    assert again.claim("alice", "key-2") is not None


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("", "2 to 20 characters"),
        ("a", "2 to 20 characters"),
        ("a" * 21, "2 to 20 characters"),
        ("9lives", "starts with a letter"),
        ("al ice", "only the letters a to z (no accents), digits"),
        ("zoë", "only the letters a to z (no accents)"),
        ("[bold]x", "starts with a letter"),
        ("élodie", "starts with a letter"),
        ("guest-1a2b3c", "for players without a key"),
        ("Guesthouse", "for players without a key"),
    ],
)
def test_names_that_cannot_be_anyones_say_why(tmp_path, name, why) -> None:
    assert why in name_problem(name)
    book = open_name_book(tmp_path)
    assert why in book.claim(name, "key-1")
    assert book.owner(name) is None


@given(st.lists(st.tuples(st.sampled_from(["ann", "Ann", "bo", "BO", "cy"]), st.integers(0, 2))))
def test_every_claim_is_decided_by_the_first_key_to_ask(claims) -> None:
    book, first = NameBook(":memory:"), {}
    for name, key in claims:
        owner = first.setdefault(name.lower(), key)
        assert (book.claim(name, f"key-{key}") is None) == (owner == key)


def test_the_names_file_and_its_journal_are_private(tmp_path) -> None:
    book = open_name_book(tmp_path / "data")
    assert book.claim("alice", "key-a") is None
    made = sorted((tmp_path / "data").iterdir())
    assert [path.name for path in made] == [FILE_NAME, FILE_NAME + "-shm", FILE_NAME + "-wal"]
    assert {path.stat().st_mode & 0o777 for path in made} == {0o600}
    book.close()


@pytest.mark.parametrize("ending", ["", "-wal", "-shm"])
@pytest.mark.parametrize("mode", [0o644, 0o640, 0o606])
def test_a_names_file_or_journal_others_may_read_is_refused_saying_how_to_fix_it(
    tmp_path, ending, mode
) -> None:
    open_name_book(tmp_path).close()  # a names file, kept as a stop leaves it
    loose = tmp_path / (FILE_NAME + ending)
    loose.touch()
    loose.chmod(mode)
    with pytest.raises(NamesFileError) as refused:
        open_name_book(tmp_path)
    assert str(refused.value) == (
        f"{loose} can be read by other users (mode {mode:04o}); run chmod 600 {loose}"
    )
    loose.chmod(0o600)
    open_name_book(tmp_path).close()


def test_a_file_that_is_not_a_names_database_is_refused_saying_so(tmp_path) -> None:
    (tmp_path / FILE_NAME).write_bytes(b"not a database at all, just bytes" * 100)
    (tmp_path / FILE_NAME).chmod(0o600)
    with pytest.raises(NamesFileError, match="cannot be used for player names"):
        open_name_book(tmp_path)
    other = tmp_path / "other"
    other.mkdir()
    with sqlite3.connect(other / FILE_NAME) as db:
        db.execute("CREATE TABLE names (x)")
    (other / FILE_NAME).chmod(0o600)
    with pytest.raises(NamesFileError):
        open_name_book(other)


async def open_lobby(port, key=None, user="alice", size=(100, 30)):
    """A session, in the lobby once its name is settled: with ``key``, or as a guest."""
    keys = {} if key is None else {"client_keys": [key]}
    connection = await connect(port, username=user, **keys)
    process = await connection.create_process(
        term_type="xterm-256color", term_size=size, encoding="utf-8"
    )
    return connection, Screen(process, size)


async def leave(connection, screen):
    screen.process.stdin.write("q")
    async with asyncio.timeout(TIMEOUT):
        await screen.process.wait_closed()
    connection.close()


async def test_a_taken_name_is_refused_across_a_restart_and_another_picked(serve) -> None:
    alice, other = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(2))
    port = await serve()
    connection, screen = await open_lobby(port, alice)
    await screen.shows("lobby · you are alice")
    await leave(connection, screen)

    port = await serve()  # a new server on the same data directory: names are kept
    connection, screen = await open_lobby(port, other)
    await screen.shows("You cannot play as alice: the name alice belongs to another")
    for attempt, answer in (("x", "x: a name has 2 to 20"), ("ALICE", "ALICE: the name ALICE")):
        screen.process.stdin.write(attempt + "\r")
        await screen.shows(answer)
        screen.process.stdin.write("\x7f" * len(attempt))
    screen.process.stdin.write("carol\r")
    await screen.shows("lobby · you are carol")
    await leave(connection, screen)

    connection, screen = await open_lobby(port, other, user="carol")
    await screen.shows("lobby · you are carol")  # carol is now this key's
    await leave(connection, screen)
    connection, screen = await open_lobby(port, alice)
    await screen.shows("lobby · you are alice")
    await leave(connection, screen)


async def test_everyone_sees_who_else_is_here_as_people_come_and_go(server) -> None:
    first_key, second_key = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(2))
    first_connection, first = await open_lobby(server, first_key, user="ann")
    await first.shows("you are ann · 1 here")
    second_connection, second = await open_lobby(server, second_key, user="bob")
    await second.shows("you are bob · 2 here")
    await first.shows("you are ann · 2 here")  # told by bob's session, drawn by ann's
    assert "bob          in the lobby" in first.text
    guest_connection, guest = await open_lobby(server)  # a guest is listed too
    await guest.shows("· 3 here")
    await first.shows("you are ann · 3 here")
    assert "guest-" in first.text
    await leave(guest_connection, guest)
    await leave(second_connection, second)
    await first.shows("you are ann · 1 here")
    assert "bob " not in first.text
    await leave(first_connection, first)


async def test_a_user_name_that_cannot_be_a_name_is_shown_harmlessly_and_another_asked(server):
    key = asyncssh.generate_private_key("ssh-ed25519")
    connection, screen = await open_lobby(server, key, user="[/]x [b]é")
    await screen.shows("You cannot play as [/]x [b]é: a name starts with a letter")
    screen.process.stdin.write("dora\r")
    await screen.shows("lobby · you are dora")
    await leave(connection, screen)
