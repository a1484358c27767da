"""Shape threats of Six, kept up to date piece by piece: the rows, triangles and
circles a team is one or two pieces from.

A *threat* of a team is a place for a shape (see :mod:`sixtui.rules.shapes`) that
holds only that team's pieces and lacks one or two of them. The empty cells of a
threat lacking one are the team's *winning cells*: a piece there completes a
shape. Two winning cells are a *double threat*, which one move of the other team
cannot stop.

:class:`ShapeBoard` counts each team's pieces in every place for a shape near the
layout, and changes only the 37 places through a cell when a piece goes on it or
leaves it, so that a search may ask after every move what the shapes threaten.
Cells are keys (see :mod:`sixtui.rules.hexes`).

>>> from sixtui.rules.hexes import Hex, pack, unpack
>>> row = {pack(Hex(q, 0)): 0 for q in range(1, 5)}  # four in a row, 1,0 .. 4,0
>>> board = ShapeBoard(row, centre_may_be_opponent=True)
>>> sorted(len(missing) for missing in board.threats(0))  # 0,0-5,0; 1,0-6,0; -1,0-4,0
[2, 2, 2]
>>> board.winning_cells(0)
set()
>>> [str(unpack(cell)) for cell in sorted(board.double_threat_cells(0))]
['0,0', '5,0']
>>> board.place(pack(Hex(5, 0)), 0)  # five: 0,0 and 6,0 complete a row
>>> [str(unpack(cell)) for cell in sorted(board.winning_cells(0))]
['0,0', '6,0']
>>> board.remove(pack(Hex(5, 0)))  # the team of the piece lifted
0
>>> board.winning_cells(0)
set()
"""

from __future__ import annotations

from sixtui.rules.hexes import AXIS_STEPS, NEIGHBOUR_STEPS
from sixtui.rules.shapes import SHAPE_SIZE, TRIANGLES

# What a shape holding this many pieces of one team (and none of the other) is worth to
# that team: a shape one short is a win next turn unless it is stopped.
SHAPE_WORTH = (0, 1, 4, 16, 64, 400, 400)

# A place for a shape is one int: its first cell (a row's first, a triangle's corner, a
# circle's centre) times 8 plus its kind, 0-2 a row along each axis, 3-4 a triangle of
# each orientation, 5 a circle.
_KINDS = 8
_CIRCLE = 5
_CELLS_OF_KIND: tuple[tuple[int, ...], ...] = (
    *(tuple(k * step for k in range(SHAPE_SIZE)) for step in AXIS_STEPS),
    *TRIANGLES,
    NEIGHBOUR_STEPS,
)
# The places through a cell, as offsets from the cell times 8: key = cell * 8 + offset.
_THROUGH: tuple[int, ...] = tuple(
    -offset * _KINDS + kind for kind, offsets in enumerate(_CELLS_OF_KIND) for offset in offsets
)
_PLACES_THROUGH = len(_THROUGH)
# The same, rows and triangles apart from circles, whose middle may spoil them.
_UNSPOILT_THROUGH = tuple(offset for offset in _THROUGH if offset & 7 != _CIRCLE)
_CIRCLES_THROUGH = tuple(offset for offset in _THROUGH if offset & 7 == _CIRCLE)
_ONE = (1, 16)  # a piece of team 0 or 1 in a place's count: team 0's in the low four bits
# For each count of a place: the team alone in it and its pieces there, or ``None`` when
# the place is empty or holds both teams.
_ALONE: tuple[tuple[int, int] | None, ...] = tuple(
    None
    if not count or (count & 15 and count >> 4)
    else ((1, count >> 4) if count >> 4 else (0, count & 15))
    for count in range(16 * (SHAPE_SIZE + 1))
)
_SIDE = (1, -1)  # team 0's worth counts up, team 1's down
# For each count of a place: what it brings to team 0 less what it brings to team 1
# (nothing for counts no place can have).
_NET_WORTH = tuple(
    0 if alone is None or alone[1] > SHAPE_SIZE else _SIDE[alone[0]] * SHAPE_WORTH[alone[1]]
    for alone in _ALONE
)
# For each count of a place: whether its lone team lacks one or two pieces there.
_NEAR = tuple(alone is not None and alone[1] >= SHAPE_SIZE - 2 for alone in _ALONE)


def _placing_gain_in(count: int, team: int) -> int:
    """What a piece of ``team`` brings to its team in a place of ``count``: its own
    shape grows, or the other team's is spoilt."""
    mine, theirs = count >> 4 * team & 15, count >> 4 * (1 - team) & 15
    if (mine and theirs) or max(mine, theirs) >= SHAPE_SIZE:  # or a count no place has
        return 0
    if not theirs:
        return SHAPE_WORTH[mine + 1] - SHAPE_WORTH[mine]
    return SHAPE_WORTH[theirs]


_COUNTS = 16 * 16  # every count of a place: four bits for each team's pieces
# What a piece of each team brings in a place of each count (see ``placing_gain``).
_PLACING_GAIN = tuple(
    tuple(_placing_gain_in(count, team) for count in range(_COUNTS)) for team in (0, 1)
)
# The team a place of each count is read for, by the team that places: its own when
# it holds pieces there or the place is empty, else the other team (mixed places bring
# nothing either way).
_HOLDER = tuple(
    tuple(team if count >> 4 * team & 15 or not count else 1 - team for count in range(_COUNTS))
    for team in (0, 1)
)


def _lifting_gain_in(count: int, team: int) -> int:
    """What lifting a piece of ``team`` from a place of ``count`` brings to its team: its
    own shape shrinks, or the other team's, held back by this piece alone, is freed."""
    mine, theirs = count >> 4 * team & 15, count >> 4 * (1 - team) & 15
    if not mine or max(mine, theirs) > SHAPE_SIZE or (theirs and mine > 1):
        return 0  # the piece is not there, or the place stays mixed
    if not theirs:
        return SHAPE_WORTH[mine - 1] - SHAPE_WORTH[mine]
    return -SHAPE_WORTH[theirs]


# What lifting a piece of each team from a place of each count brings (``lifting_gain``).
_LIFTING_GAIN = tuple(
    tuple(_lifting_gain_in(count, team) for count in range(_COUNTS)) for team in (0, 1)
)
# The team a place of each count is read for once a piece of the team that lifts leaves
# it: the other team if it has pieces there, else the team itself.
_LIFTED_HOLDER = tuple(
    tuple(1 - team if count >> 4 * (1 - team) & 15 else team for count in range(_COUNTS))
    for team in (0, 1)
)

# For each count of a place: the team whose one piece there is all that keeps the other
# team, with the rest of the place, from a shape; -1 for none.
_HOLDING = tuple(
    0
    if count >> 4 == SHAPE_SIZE - 1 and count & 15 == 1
    else 1
    if count & 15 == SHAPE_SIZE - 1 and count >> 4 == 1
    else -1
    for count in range(_COUNTS)
)
_HELD = tuple(holding >= 0 for holding in _HOLDING)
# For each count a place can have: whether it makes a threat or holds a piece back, the
# places whose changes are followed.
_WATCHED = tuple(near or held for near, held in zip(_NEAR, _HELD, strict=False))

_MASK = (1 << 64) - 1


def piece_key(cell: int, team: int) -> int:
    """A 64-bit number for a piece of ``team`` on ``cell``, well mixed (splitmix64): a
    layout's key is the exclusive or of its pieces'. Python's own ``hash`` will not do:
    ``hash(-1) == hash(-2)``, and two layouts would share a key; nor a key of 0, which
    would leave a layout with that piece the key of the one without.

    >>> from sixtui.rules.hexes import Hex, pack
    >>> piece_key(pack(Hex(0, -1)), 0) != piece_key(pack(Hex(0, -2)), 0)
    True
    >>> piece_key(pack(Hex(0, 0)), 0) != 0
    True
    """
    mixed = (cell * 2 + team + 0x9E3779B97F4A7C15) & _MASK  # never 0: no piece is keyless
    mixed = ((mixed ^ (mixed >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    mixed = ((mixed ^ (mixed >> 27)) * 0x94D049BB133111EB) & _MASK
    return mixed ^ (mixed >> 31)


def cells_of(place: int) -> tuple[int, ...]:
    """The six cells of a place for a shape (a circle's centre is not one of them).

    >>> from sixtui.rules.hexes import Hex, pack
    >>> len({place for place in places_through(pack(Hex(0, 0)))})
    36
    >>> all(pack(Hex(0, 0)) in cells_of(place) for place in places_through(pack(Hex(0, 0))))
    True
    """
    first = place >> 3
    return tuple(first + offset for offset in _CELLS_OF_KIND[place & 7])


def places_through(cell: int) -> list[int]:
    """The 36 places for a shape with ``cell`` among their six cells."""
    base = cell * _KINDS
    return [base + offset for offset in _THROUGH]


class ShapeBoard:
    """The shapes of one layout, counted, with the threats they make.

    ``board`` (cell key → team) is copied; :meth:`place` and :meth:`remove` then keep
    the copy and every count in step. ``centre_may_be_opponent`` is the ruleset's:
    where it is false, a piece of the other team in a circle's middle spoils the circle.
    """

    def __init__(self, board: dict[int, int], centre_may_be_opponent: bool) -> None:
        self.board: dict[int, int] = {}
        self.centre_may_be_opponent = centre_may_be_opponent
        self.key = 0  # of the pieces and their teams: the same layout has the same key
        self._counts: dict[int, int] = {}  # place → team 0's pieces + 16 × team 1's
        self._net_worth = 0  # team 0's worth of the places it alone holds, less team 1's
        # The places each team alone holds lacking one or two pieces → pieces held.
        self._near: tuple[dict[int, int], dict[int, int]] = ({}, {})
        # The places where one piece of each team holds back the other team's five.
        self._holding: tuple[set[int], set[int]] = (set(), set())
        for cell, team in board.items():
            self.place(cell, team)

    # -- keeping in step ------------------------------------------------------------------

    def place(self, cell: int, team: int) -> None:
        """A piece of ``team`` goes on the empty ``cell``."""
        self._change(cell, team, _ONE[team])

    def remove(self, cell: int) -> int:
        """The piece on ``cell`` leaves; returns its team."""
        team = self.board[cell]
        self._change(cell, team, -_ONE[team])
        return team

    def _change(self, cell: int, team: int, step: int) -> None:
        """Counts ``step`` (a piece of ``team``, plus or minus) in every place through
        ``cell``, and what each place brings to its team before and after.

        The search calls this four times a position: the places that no middle can
        spoil are counted apart, without asking."""
        board, counts = self.board, self._counts
        spoiling = not self.centre_may_be_opponent
        centred = cell * _KINDS + _CIRCLE  # the circle round ``cell``: its middle changes
        if spoiling:
            self._count(centred, -1)
        if step > 0:
            board[cell] = team
        else:
            del board[cell]
        self.key ^= piece_key(cell, team)
        base = cell * _KINDS
        net_worth = 0
        for offset in _UNSPOILT_THROUGH:
            place = base + offset
            was = counts.get(place, 0)
            now = was + step
            if now:
                counts[place] = now
            else:
                del counts[place]
            net_worth += _NET_WORTH[now] - _NET_WORTH[was]
            if _WATCHED[was] or _WATCHED[now]:
                self._renear(place, _ALONE[was], _ALONE[now])
                self._rehold(place, was, now)
        self._net_worth += net_worth
        for offset in _CIRCLES_THROUGH:
            place = base + offset
            was = counts.get(place, 0)
            now = was + step
            if now:
                counts[place] = now
            else:
                del counts[place]
            before, after = _ALONE[was], _ALONE[now]
            middle = board.get(place >> 3) if spoiling else None
            if middle is not None:  # a circle spoilt by its middle brings nothing
                before = None if before is None or before[0] != middle else before
                after = None if after is None or after[0] != middle else after
            self._recount(place, before, after)
            if _HELD[was] or _HELD[now]:
                self._rehold(place, was, now)
        if spoiling:
            self._count(centred, 1)

    def _recount(
        self, place: int, before: tuple[int, int] | None, after: tuple[int, int] | None
    ) -> None:
        """What ``place`` brings: what its lone team held there ``before`` (if one did)
        taken away, what it holds ``after`` added."""
        if before is not None:
            holder, pieces = before
            self._net_worth -= _SIDE[holder] * SHAPE_WORTH[pieces]
        if after is not None:
            holder, pieces = after
            self._net_worth += _SIDE[holder] * SHAPE_WORTH[pieces]
        self._renear(place, before, after)

    def _renear(
        self, place: int, before: tuple[int, int] | None, after: tuple[int, int] | None
    ) -> None:
        """The threats through ``place``: its lone team's ``before`` (if one held it)
        taken away, ``after``'s added, where it lacks one or two pieces."""
        if before is not None and before[1] >= SHAPE_SIZE - 2:
            del self._near[before[0]][place]
        if after is not None and after[1] >= SHAPE_SIZE - 2:
            self._near[after[0]][place] = after[1]

    def _rehold(self, place: int, was: int, now: int) -> None:
        """The pieces held back through ``place``, its count going from ``was`` to ``now``."""
        if _HOLDING[was] >= 0:
            self._holding[_HOLDING[was]].discard(place)
        if _HOLDING[now] >= 0:
            self._holding[_HOLDING[now]].add(place)

    def _count(self, place: int, sign: int) -> None:
        """Adds (``sign`` 1) or takes away (-1) what ``place`` brings to its team."""
        held = self.holder(place)
        if held is None:
            return
        team, pieces = held
        self._net_worth += sign * _SIDE[team] * SHAPE_WORTH[pieces]
        if pieces >= SHAPE_SIZE - 2:
            if sign > 0:
                self._near[team][place] = pieces
            else:
                self._near[team].pop(place, None)

    # -- reading -----------------------------------------------------------------------------

    def holder(self, place: int) -> tuple[int, int] | None:
        """The team alone in ``place`` with its pieces there, or ``None`` when it is empty,
        both teams are in it, or its middle spoils a circle."""
        count = self._counts.get(place)
        if not count:
            return None
        mine, theirs = count & 15, count >> 4
        if mine and theirs:
            return None
        team = 0 if mine else 1
        if place & 7 == _CIRCLE and not self.centre_may_be_opponent:
            centre = self.board.get(place >> 3)
            if centre is not None and centre != team:
                return None
        return team, mine or theirs

    def threats(self, team: int) -> list[tuple[int, ...]]:
        """The empty cells of each threat of ``team`` (one or two of them)."""
        board = self.board
        found = []
        for place, pieces in self._near[team].items():
            if pieces < SHAPE_SIZE:
                found.append(tuple(cell for cell in cells_of(place) if cell not in board))
        return found

    def winning_cells(self, team: int) -> set[int]:
        """The empty cells where a piece of ``team`` completes a shape."""
        board = self.board
        return {
            cell
            for place, pieces in self._near[team].items()
            if pieces == SHAPE_SIZE - 1
            for cell in cells_of(place)
            if cell not in board
        }

    def completes_without(self, cell: int, lifted: int, team: int) -> bool:
        """Whether a piece of ``team`` on the empty ``cell`` completes a shape that does not
        need ``lifted``, the team's piece that leaves: a second-round move to a winning
        cell wins only so (and only if its lift captures none of the shape)."""
        near = self._near[team]
        return any(
            near.get(place) == SHAPE_SIZE - 1 and lifted not in cells_of(place)
            for place in places_through(cell)
        )

    def held_back(self, team: int) -> set[int]:
        """The cells of ``team``'s pieces each of which is all that keeps the other team
        from a shape: lifted, it leaves the other team a winning cell it cannot fill again."""
        board = self.board
        cells = set()
        for place in self._holding[team]:
            # A circle round a piece of ``team`` is spoilt by it where the middle counts.
            spoiling = place & 7 == _CIRCLE and not self.centre_may_be_opponent
            if spoiling and board.get(place >> 3) == team:
                continue
            cells.update(cell for cell in cells_of(place) if board.get(cell) == team)
        return cells

    def double_threat_cells(self, team: int) -> set[int]:
        """The empty cells where a piece of ``team`` leaves it two winning cells or more,
        counting the ones it has already: the other team can stop only one."""
        before = self.winning_cells(team)
        ahead: dict[int, set[int]] = {}
        for missing in self.threats(team):
            if len(missing) == 2:
                first, second = missing
                ahead.setdefault(first, set()).add(second)
                ahead.setdefault(second, set()).add(first)
        return {cell for cell, wins in ahead.items() if len((wins | before) - {cell}) >= 2}

    def worth(self, team: int) -> int:
        """The worth of every shape for ``team``, less the other team's."""
        return _SIDE[team] * self._net_worth

    def placing_gain(self, cell: int, team: int) -> int:
        """How much a piece of ``team`` on the empty ``cell`` changes the worth of the
        shapes, for ``team``: its own grow, the other team's are spoilt.

        Read from the counts without changing them, through :data:`_PLACING_GAIN`: the
        search asks it of every cell where a piece may go.
        """
        counts = self._counts
        gains = _PLACING_GAIN[team]
        base = cell * _KINDS
        if self.centre_may_be_opponent:
            return sum([gains[counts.get(base + offset, 0)] for offset in _THROUGH])
        gain = sum([gains[counts.get(base + offset, 0)] for offset in _UNSPOILT_THROUGH])
        board = self.board
        for offset in _CIRCLES_THROUGH:
            place = base + offset
            count = counts.get(place, 0)
            centre = board.get(place >> 3)
            # A circle whose middle is not its holder's (the team's, if empty) is spoilt
            # before and after.
            if centre is None or centre == _HOLDER[team][count]:
                gain += gains[count]
        # A piece in the middle of the other team's circle spoils it.
        count = counts.get(base + _CIRCLE, 0)
        if _HOLDER[team][count] != team:
            gain += gains[count]
        return gain

    def lifting_gain(self, cell: int, team: int) -> int:
        """How much lifting ``team``'s piece from ``cell`` changes the worth for ``team``:
        its shapes through the cell shrink, the other team's there are freed (read through
        :data:`_LIFTING_GAIN`)."""
        counts = self._counts
        gains = _LIFTING_GAIN[team]
        base = cell * _KINDS
        if self.centre_may_be_opponent:
            return sum([gains[counts[base + offset]] for offset in _THROUGH])
        gain = sum([gains[counts[base + offset]] for offset in _UNSPOILT_THROUGH])
        board = self.board
        for offset in _CIRCLES_THROUGH:
            place = base + offset
            count = counts[place]
            centre = board.get(place >> 3)
            # A circle whose middle is not its holder's is spoilt before and after.
            if centre is None or centre == _LIFTED_HOLDER[team][count]:
                gain += gains[count]
        # Lifted from the middle of the other team's circle, the piece frees it.
        count = counts.get(base + _CIRCLE, 0)
        if _HOLDER[team][count] != team:
            gain -= _PLACING_GAIN[team][count]
        return gain
