"""The SSH driver's input: terminal replies are never read as keys, however the bytes
are cut into pieces on the way."""

import time

from hypothesis import given
from hypothesis import strategies as st
from textual import events

from sixtui.server.driver import ReplyFilter
from sixtui.tui.textual_internals import XTermParser, escape_wait

KEYS = [
    "j",
    "q",
    "c",
    "R",
    "u",
    "t",
    "n",
    "7",
    ";",
    "[",
    "]",
    " ",
    "\r",
    "\t",
    "\x7f",
    "é",
    "\x1b[A",
    "\x1b[1;5C",
    "\x1bOP",
    "\x1b[15~",
    "\x1b[Z",
    "\x1b[<0;10;5M",
    "\x1b[<35;12;7m",
    "\x1b[I",
    "\x1b[200~pasted text\x1b[201~",
]
REPLIES = [
    "\x1b[?62;22;52c",  # primary device attributes
    "\x1b[>41;354;0c",  # secondary device attributes
    "\x1b[?1u",  # keyboard protocol flags
    "\x1b[0n",  # device status
    "\x1b[?997;1n",  # color scheme
    "\x1b[8;24;80t",  # window size
    "\x1b]11;rgb:1e1e/1e1e/1e1e\x1b\\",  # background color, ended by ST
    "\x1b]10;rgb:ffff/ffff/ffff\x07",  # foreground color, ended by BEL
    "\x1bP>|xterm(390)\x1b\\",  # terminal version
    "\x1bP1$r0m\x1b\\",  # a setting
    "\x1b_Gi=1;OK\x1b\\",  # graphics protocol
]


def key_events(text: str, filter_replies: bool, cuts: list[int] = ()) -> list[tuple]:
    """What the parser makes of ``text`` arriving in pieces cut at ``cuts``."""
    parser, replies = XTermParser(), ReplyFilter()
    pieces, start = [], 0
    for cut in [*sorted(set(cuts)), len(text)]:
        pieces.append(text[start:cut])
        start = cut
    seen = []
    for piece in pieces:
        typed = replies.feed(piece) if filter_replies else piece
        if typed:  # nothing fed would be the end of input
            seen += parser.feed(typed)
    if replies.held:
        seen += parser.feed(replies.release())
    wait = escape_wait(parser)
    if wait is not None:  # a lone Esc, held until its delay is over
        time.sleep(wait)
        seen += parser.tick()
    return [summary(event) for event in seen if isinstance(event, events.Event)]


def summary(event: events.Event) -> tuple:
    if isinstance(event, events.Key):
        return ("key", event.key, event.character)
    if isinstance(event, events.MouseEvent):
        return (type(event).__name__, event.x, event.y, event.button)
    if isinstance(event, events.Paste):
        return ("paste", event.text)
    return (type(event).__name__,)


def test_each_reply_alone_makes_no_key() -> None:
    for reply in REPLIES:
        assert key_events(reply, filter_replies=False), f"the parser alone reads keys in {reply!r}"
        assert key_events(reply, filter_replies=True) == []


@st.composite
def typing_with_replies(draw: st.DrawFn) -> tuple[str, str, list[int]]:
    """Keys with replies among them, and where the bytes are cut: anywhere except just
    after the Esc that starts a reply (there the parser alone decides; see the driver)."""
    tokens = draw(st.lists(st.sampled_from(KEYS + REPLIES), max_size=12))
    typed = "".join(token for token in tokens if token not in REPLIES)
    text, no_cut = "", set()
    for token in tokens:
        if token in REPLIES:
            no_cut.add(len(text) + 1)
        text += token
    cuts = draw(st.lists(st.integers(1, max(1, len(text) - 1)), max_size=6))
    return text, typed, [cut for cut in cuts if cut not in no_cut and cut < len(text)]


@given(typing_with_replies())
def test_replies_among_keys_leave_exactly_the_keys(case: tuple[str, str, list[int]]) -> None:
    text, typed, cuts = case
    assert key_events(text, filter_replies=True, cuts=cuts) == key_events(typed, False)


def test_a_reply_that_never_ends_is_let_through_as_typed() -> None:
    replies = ReplyFilter()
    assert replies.feed("\x1b]11;rgb") == ""
    assert replies.release() == "\x1b]11;rgb"
    assert replies.feed("j") == "j"


def test_an_overlong_unfinished_reply_is_not_held() -> None:
    text = "\x1bP" + "x" * 600
    assert ReplyFilter().feed(text) == text
