"""Parsed CSS is shared between apps with the same theme, and only between them."""

from textual.color import Color

from sixtui.tui.app import SixtuiApp
from sixtui.tui.stylesheet import SharedStylesheet

CSS = "Board { color: $accent; }"
WHERE = ("test_tui_stylesheet.py", "CSS")


def sheet(accent: str) -> SharedStylesheet:
    stylesheet = SharedStylesheet(variables={"accent": accent})
    stylesheet.add_source(CSS, read_from=WHERE)
    return stylesheet


def color(stylesheet: SharedStylesheet) -> Color:
    (rule,) = stylesheet.rules
    return rule.styles.color


def test_stylesheets_with_the_same_variables_share_the_parsed_rules():
    first, second = sheet("#ff0000"), sheet("#ff0000")
    assert first.rules[0] is second.rules[0]
    assert color(second) == Color.parse("#ff0000")


def test_other_variables_are_parsed_with_their_own_values():
    red, blue = sheet("#ff0000"), sheet("#0000ff")
    assert red.rules[0] is not blue.rules[0]
    assert (color(red), color(blue)) == (Color.parse("#ff0000"), Color.parse("#0000ff"))


def test_new_variables_are_parsed_again():
    stylesheet = sheet("#ff0000")
    assert color(stylesheet) == Color.parse("#ff0000")
    stylesheet.set_variables({"accent": "#00ff00"})
    stylesheet.reparse()
    assert color(stylesheet) == Color.parse("#00ff00")
    assert color(sheet("#ff0000")) == Color.parse("#ff0000")  # the shared rules unchanged


async def test_two_apps_hold_one_copy_of_their_rules():
    held = []
    for _ in range(2):
        app = SixtuiApp()
        async with app.run_test():
            held.append(app.stylesheet.rules)
    first, second = held
    assert len(first) == len(second) > 20
    assert all(a is b for a, b in zip(first, second, strict=True))


def test_each_theme_keeps_its_own_variables_as_textual_works_them_out():
    from textual.app import App

    dark, light = SixtuiApp(), SixtuiApp()
    light.theme = "textual-light"
    for app in (dark, light, SixtuiApp()):
        assert app.get_css_variables() == App.get_css_variables(app)
    assert dark.get_css_variables()["background"] != light.get_css_variables()["background"]
    light.get_css_variables()["background"] = "red"  # a caller's copy, not the kept one
    assert light.get_css_variables()["background"] != "red"
