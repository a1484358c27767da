"""The archive as players read it: a player's page, the leaderboards, a game's record.

Each answer is a :class:`~sixtui.tui.lobby_session.Page` of plain lines, or the words that
say why there is none; names are shown as written, never as markup.

>>> from sixtui.server.archive import Archive
>>> archive = Archive(":memory:")
>>> print(top_page(archive, "connect6"))
nobody has 10 rated games of Connect6 yet
"""

from __future__ import annotations

import textwrap
from datetime import UTC, datetime

from sixtui.server.archive import Played
from sixtui.server.durable import GameRecords
from sixtui.server.ratings import GAMEOF6_GROUPS, PROVISIONAL_GAMES
from sixtui.tui.lobby_commands import PAGE_WIDTH
from sixtui.tui.lobby_session import Page
from sixtui.tui.player_text import printable, shown_word
from sixtui.tui.widgets.panel import DRAWN_BY, LOST_BY, WON_BY

RECENT_GAMES = 10
LEADERS = 20

_SIX_RULESETS = {"steffen": "Steffen", "romanian": "Romanian", "romanian-advanced": "Romanian adv."}
VARIANT_TITLES = {
    "connect6": "Connect6",
    **{
        f"gameof6-{name}": f"Game of 6 {name} ({low}×{low} to {high}×{high})"
        for low, high, name in GAMEOF6_GROUPS
    },
    **{
        f"six-{ruleset}-{players}": f"Six {title}{' partners' if players == 'partners' else ''}"
        for ruleset, title in _SIX_RULESETS.items()
        for players in ("two", "partners")
    },
}


def profile_page(archive: GameRecords, name: str) -> Page | str:
    """``name``'s ratings, rated results and recent games."""
    found = archive.player(name)
    if found is None:
        return f"{shown_word(name)} has played no game here with an SSH key"
    identity, written = found
    shown = printable(written)
    lines = [f"Ratings (? while provisional: fewer than {PROVISIONAL_GAMES} rated games)", ""]
    standings = archive.standings(identity)
    for standing in standings:
        title = VARIANT_TITLES.get(standing.variant, standing.variant)
        results = f"{standing.wins} won, {standing.losses} lost, {standing.draws} drawn"
        lines.append(f"  {title:<24} {standing.rating.label:>6}   {results}")
    if not standings:
        lines.append("  none yet: only games between players with SSH keys are rated")
    lines += ["", f"Last {RECENT_GAMES} games (replay NUMBER steps through one)", ""]
    for played in archive.recent(identity, RECENT_GAMES):
        lines += _game_lines(played)
    return Page(f"{shown}'s profile", tuple(lines))


def _game_lines(played: Played) -> list[str]:
    """A game on a player's page: its number and date, then the rest broken to the page's
    width under its first words."""
    when = datetime.fromtimestamp(played.ended, UTC).strftime("%Y-%m-%d")
    title = VARIANT_TITLES.get(played.variant, played.variant)
    rating = ""
    if played.rated and played.before is not None and played.after is not None:
        rating = f"  {played.before} → {played.after} ({played.after - played.before:+d})"
    elif not played.rated and played.outcome != "aborted":
        rating = "  unrated"
    opponents = printable(played.opponents or "?")
    lead = f"  #{played.id:<6} {when}  "
    return textwrap.wrap(
        f"{title} against {opponents}: {played.outcome}{_how(played)}{rating}",
        PAGE_WIDTH,
        initial_indent=lead,
        subsequent_indent=" " * len(lead),
        break_on_hyphens=False,
    )


def _how(played: Played) -> str:
    reason = played.reason
    if played.outcome == "aborted" or reason is None:
        return ""
    if played.winner is None:
        words = DRAWN_BY.get(reason)
    elif played.outcome == "lost":
        words = LOST_BY.get(reason, WON_BY.get(reason))
    else:
        words = WON_BY.get(reason)
    return f" ({words})" if words else ""


def top_page(archive: GameRecords, variant: str) -> Page | str:
    """The best rated players at ``variant`` whose rating is no longer provisional."""
    title = VARIANT_TITLES.get(variant, variant)
    leaders = archive.top(variant, LEADERS)
    if not leaders:
        return f"nobody has {PROVISIONAL_GAMES} rated games of {title} yet"
    lines = [
        f"  {place:>2}. {printable(name):<20} {rating.label:>6}   {rating.games} games"
        for place, (name, rating) in enumerate(leaders, start=1)
    ]
    return Page(f"The best at {title}", tuple(lines))
