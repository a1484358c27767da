"""What players write is made printable, and measured in terminal cells."""

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sixtui.tui.player_text import cells, cut, fit_cells, printable, wrap_cells

CLEANED = [
    ("[b]bold[/b] [link=x]y[/]", "[b]bold[/b] [link=x]y[/]"),  # markup is shown as typed
    ("\x1b[2J\x1b[31mred\x1b[0m", "[2J[31mred[0m"),  # escapes lose their ESC
    ("\x9b31m", "31m"),  # so does the one-byte CSI
    ("a\x00b\x07c\x08d\x7f", "abcd"),  # control characters go
    ("line\nbreak\r\ttab", "line break  tab"),  # breaks and tabs become spaces
    ("zero\u200bwidth\u200d\ufeff", "zerowidth"),  # invisible formatting goes
    ("\u202egnp.exe", "gnp.exe"),  # so do direction overrides
    ("\u3164\u115f", ""),  # fillers that draw nothing
    ("\ue000private", "private"),  # private use
    ("a\u2028b\u00a0c", "a b c"),  # every kind of space is a plain space
    ("e\u0301\u0301\u0301\u0301", "e\u0301\u0301"),  # marks stacked beyond two go
    ("日本語 ok émoji 🎉", "日本語 ok émoji 🎉"),  # letters of any script, and emoji, stay
]


@pytest.mark.parametrize(("written", "shown"), CLEANED)
def test_what_players_write_is_made_printable(written, shown):
    assert printable(written) == shown


@given(st.text())
def test_nothing_left_by_printable_is_a_control_or_invisible_character(text):
    for character in printable(text):
        assert unicodedata.category(character)[0] != "C"
        assert unicodedata.category(character) not in ("Zl", "Zp")


@given(st.text(), st.integers(min_value=2, max_value=40))
def test_text_cut_or_fitted_keeps_to_its_cells(text, width):
    text = printable(text)
    assert cells(cut(text, width)) <= width
    assert cells(fit_cells(text, width)) == width
    if cells(text) <= width:
        assert cut(text, width) == text


@given(st.text(min_size=1), st.integers(min_value=2, max_value=40))
def test_wrapped_text_keeps_to_its_cells_and_loses_nothing_but_spaces(text, width):
    text = printable(text)
    lines = wrap_cells(text, width)
    assert all(cells(line) <= width for line in lines)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
