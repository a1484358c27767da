"""Textual's private names that sixtui relies on (sixtui/tui/textual_internals.py, and the
stylesheet that shares parsed CSS) still do what sixtui needs of them. When a Textual
release changes one, the test that fails says which and what for."""

import asyncio
import gc
import inspect
import time
from contextvars import ContextVar

from hypothesis import given
from hypothesis import strategies as st
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.app import App
from textual.cache import FIFOCache
from textual.constants import ESCAPE_DELAY
from textual.css.stylesheet import Stylesheet
from textual.filter import NoColor
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Input

from sixtui.tui import textual_internals
from sixtui.tui.textual_internals import (
    STRIP_CACHES,
    TEXTUAL_VERSION,
    XTermParser,
    active_app,
    component_styles,
    disable_tooltips,
    end_quietly_on_failure,
    escape_wait,
    keep_strips_acyclic,
    line_filters,
    make_strip_caches_on_use,
    release_parser,
)


def changed(what: str, needed_for: str) -> str:
    return (
        f"Textual {TEXTUAL_VERSION} changed {what}, which sixtui needs {needed_for}: "
        "update sixtui/tui/textual_internals.py and the list in docs/operations.md"
    )


async def test_active_app_is_the_app_whose_code_runs():
    app = App()
    assert isinstance(active_app, ContextVar), changed(
        "textual._context.active_app", "to tell its own app's work from another's"
    )
    async with app.run_test():
        assert active_app.get() is app, changed(
            "textual._context.active_app", "to tell its own app's work from another's"
        )


class Failing(App):
    def on_mount(self) -> None:
        self.set_timer(0.01, self.fail)

    def fail(self) -> None:
        raise ValueError("a handler's bug")


async def test_an_app_ended_quietly_on_failure_tells_of_the_error_and_prints_no_traceback(capsys):
    app, told = Failing(), []
    end_quietly_on_failure(app, told.append)
    await asyncio.wait_for(app.run_async(headless=True, size=(40, 10)), 10)
    assert [str(error) for error in told] == ["a handler's bug"], changed(
        "App._handle_exception", "to end a player's session on an error without a traceback"
    )
    assert app.return_code == 1
    printed = capsys.readouterr()
    assert "Traceback" not in printed.out + printed.err


def keys(made) -> list[str]:
    return [event.key for event in made if isinstance(event, events.Key)]


def test_the_key_parser_reads_keys_and_holds_a_lone_esc_for_its_delay():
    why = "to read the keys of players over SSH"
    parser = XTermParser()
    assert keys(parser.feed("j\x1b[A")) == ["j", "up"], changed("XTermParser.feed", why)
    assert escape_wait(parser) is None, changed("XTermParser._timeout_time", why)
    assert keys(parser.feed("\x1b")) == [], changed("XTermParser's hold on a lone Esc", why)
    wait = escape_wait(parser)
    assert wait is not None and 0 < wait <= ESCAPE_DELAY, changed(
        "XTermParser._timeout_time or textual._time.get_time", "to deliver a lone Esc"
    )
    time.sleep(wait)
    assert keys(parser.tick()) == ["escape"], changed("XTermParser.tick", "to deliver Esc")


def test_a_released_parser_holds_nothing():
    parser = XTermParser()
    list(parser.feed("\x1b[A\x1b"))
    release_parser(parser)
    assert inspect.getgeneratorstate(parser._gen) == inspect.GEN_CLOSED, changed(
        "XTermParser._gen", "to let a finished session's app go"
    )
    assert not parser._tokens, changed("XTermParser._tokens", "to let a session's app go")


async def test_disabled_tooltips_take_the_tooltip_layer_off_every_screen():
    app = App()
    async with app.run_test(tooltips=True):
        assert "_tooltips" in app.screen.layers, changed(
            "how screens get tooltips", "to leave them out"
        )
        disable_tooltips(app)
        assert "_tooltips" not in app.screen.layers, changed(
            "App._disable_tooltips", "to start sessions without a tooltip per screen"
        )


class Restyled(App[None]):
    CSS = "Input.loud > .input--cursor { background: red; }"

    def compose(self):
        yield Input()


async def test_component_styles_are_replaced_whenever_the_stylesheet_styles_the_widget_again():
    needed = "to keep an input's component styles between refreshes"
    app = Restyled()
    async with app.run_test() as pilot:
        entry = app.query_one(Input)
        styles = component_styles(entry)
        assert "input--cursor" in styles, changed("DOMNode._component_styles", needed)
        before = styles["input--cursor"]
        entry.refresh()
        await pilot.pause()
        assert component_styles(entry)["input--cursor"] is before, changed(
            "DOMNode._component_styles (replaced by a mere refresh)", needed
        )
        entry.add_class("loud")
        await pilot.pause()
        after = component_styles(entry)["input--cursor"]
        assert after is not before, changed("DOMNode._component_styles", needed)
        assert after.background.rgb == (255, 0, 0), changed("DOMNode._component_styles", needed)


def test_line_filters_are_the_apps_own_list():
    app = App()
    added = NoColor()
    line_filters(app).append(added)
    assert added in app.get_line_filters(), changed(
        "App._filters", "to draw in the colors of the player's terminal, not the server's"
    )


def test_the_stylesheet_still_parses_each_source_through_parse_rules():
    # sixtui/tui/stylesheet.py overrides it to share parsed CSS between apps.
    parameters = list(inspect.signature(Stylesheet._parse_rules).parameters)
    assert parameters == [
        "self",
        "css",
        "read_from",
        "is_default_rules",
        "tie_breaker",
        "scope",
    ], changed("Stylesheet._parse_rules", "to parse each app's CSS once per process")
    assert Stylesheet(variables={"accent": "red"})._variables == {"accent": "red"}, changed(
        "Stylesheet._variables", "to share parsed CSS between apps of one theme"
    )


def test_a_widget_gaining_or_losing_the_focus_does_no_more_than_sixtuis_line_widgets_do():
    # sixtui/tui/widgets/lines.py keeps Widget._on_focus and _on_blur from running on its
    # widgets, which repaint only what changed: it does what they do but the repaint.
    for handler, focused, told in (
        (Widget._on_focus, "True", "DescendantFocus"),
        (Widget._on_blur, "False", "DescendantBlur"),
    ):
        body = [line.strip() for line in inspect.getsource(handler).splitlines()[1:]]
        assert [line for line in body if line] == [
            f"self.has_focus = {focused}",
            "self.refresh()",
            "if self.parent is not None:",
            f"self.parent.post_message(events.{told}(self))",
        ], changed(f"Widget.{handler.__name__}", "to repaint no more than changed on a focus")


def cyclic_garbage_of(use_strip) -> int:
    """Objects only the collector could free after strips were made and used by
    ``use_strip``, then let go of."""
    gc.collect()
    gc.disable()
    try:
        for width in range(1, 40):
            use_strip(Strip([Segment("x" * width, Style(bold=True))], width))
        return gc.collect()
    finally:
        gc.enable()


def whole_crop_and_division(strip: Strip) -> None:
    assert strip.crop_extend(0, strip.cell_length, None) is strip
    assert list(strip.divide([strip.cell_length])) == [strip]


def test_a_strip_cropped_or_divided_whole_is_freed_without_the_collector():
    keep_strips_acyclic()  # as sixtui.tui.app does on import; done twice, it is the same
    assert cyclic_garbage_of(whole_crop_and_division) == 0


def test_textual_still_keeps_a_strip_cropped_whole_in_its_own_cache():
    # When a release stops doing so, keep_strips_acyclic is no longer needed.
    def with_textuals_own(strip: Strip) -> None:
        textual_internals._crop_extend(strip, 0, strip.cell_length, None)
        textual_internals._divide(strip, [strip.cell_length])

    assert cyclic_garbage_of(with_textuals_own) > 0, changed(
        "Strip.crop_extend and Strip.divide (they no longer cache a strip in itself)",
        "to free strips without the collector: keep_strips_acyclic can go",
    )


texts = st.lists(st.text(alphabet="ab界 ", min_size=1, max_size=6), min_size=1, max_size=4)


@given(
    texts=texts,
    start=st.integers(0, 30),
    length=st.integers(0, 30),
    cuts=st.lists(st.integers(0, 30), max_size=4),
)
def test_strips_crop_and_divide_as_textual_does(texts, start, length, cuts):
    keep_strips_acyclic()
    make_strip_caches_on_use()

    def strip() -> Strip:
        return Strip([Segment(text, Style(italic=True)) for text in texts])

    end, ordered = start + length, sorted(set(cuts))
    assert (
        strip().crop_extend(start, end, None).text
        == textual_internals._crop_extend(strip(), start, end, None).text
    )
    assert [part.text for part in strip().divide(ordered)] == [
        part.text for part in textual_internals._divide(strip(), ordered)
    ]


def caches_held(strip: Strip) -> list[object]:
    return [each for each in gc.get_referents(strip) if isinstance(each, FIFOCache)]


def test_strips_make_their_caches_when_first_used():
    make_strip_caches_on_use()  # as sixtui.tui.app does on import
    strips = [Strip([Segment(text, Style(bold=True))]) for text in ("abc", "de")]
    assert caches_held(strips[0]) == [], changed(
        "the caches Strip makes (textual.strip.FIFOCache)", "to make a strip's caches on use"
    )
    first = strips[0]
    assert first.crop(1, 2) is first.crop(1, 2)  # the crop cache keeps what it made
    assert first._crop_cache.hits == 1
    assert caches_held(first) == [first._crop_cache]  # that one cache, and no other
    assert caches_held(strips[1]) == []
    assert first.divide([1, 3])[0].text == "a" and len(caches_held(first)) == 2


def test_textuals_strips_make_the_caches_sixtui_knows(monkeypatch):
    """Strip.__init__ makes each of its caches with ``FIFOCache(size)`` and keeps it in a
    slot: a cache more, or one made another way, would be made as before, in every strip."""
    why = "to make a strip's caches on use"
    make_strip_caches_on_use()
    made: list[int] = []

    def make(size: int) -> str:
        made.append(size)
        return f"cache {len(made)}"

    monkeypatch.setattr(textual_internals.strip_module, "FIFOCache", make)
    strip = Strip([Segment("abc")])
    assert len(made) == len(STRIP_CACHES), changed("how many caches a strip makes", why)
    assert {vars(Strip)[name]._slot.__get__(strip) for name in STRIP_CACHES} == {
        f"cache {number}" for number in range(1, len(STRIP_CACHES) + 1)
    }, changed("the slots Strip keeps its caches in", why)
    slots = [name for name in Strip.__slots__ if name.endswith("_cache")]
    assert sorted(slots) == sorted([*STRIP_CACHES, "_render_cache"]), changed("Strip's caches", why)
