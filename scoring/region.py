"""What a region is: its metadata (`RegionInfo`, shown by the web page) and its rules (`Region`).

A region module (``scoring/<name>.py``) defines a `Region` subclass and an instance ``REGION``; the
package finds it by name. The base class runs the record checks all regions share, in this order:
where each tile may stand (`check_tiles`), at most four of a kind and one of each flower over the
whole table (`check_counts`), hand sizes (`check_sizes`), the winning tile and the win's flags
(`check_win`), and finally that the win is a legal hand (`is_win`). A region overrides the hooks it
needs and provides `is_win` and `score`.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from scoring.record import DEALER_FLAGS, FLAG_WIN_BY, INDICATOR_WIN_FLAGS, Player, RecordError, Table, Win, whole_number
from scoring.result import Result
from scoring.tiles import FLOWERS, PLAYING_TILES, TILE_INDEX, TileError, brief, format_tiles, is_flower, parse_tiles


NEAR_WINS = 3
"""At most this many one-tile changes that would make a hand a win are named when it is none."""

MAX_STAKE = 1_000_000
"""The largest stake or multiple an option takes (底, 花): a typing slip beyond it is refused, not scored."""

DISCARD_PAYER_NAMES = (("all three others", "三家都付"), ("the discarder alone", "只由点炮者付"))
"""How the page names the two values of a ``discard_payer`` option (Fuzhou, Baicheng): "all", "discarder"."""


@dataclass(frozen=True)
class OptionInfo:
    """One rule-variant switch of a region: name, default, type and a one-line description (en, zh).

    ``type`` is ``bool``, ``int`` (at least ``minimum``; at most ``maximum`` if given), ``choice`` (one of
    ``allowed``, named for players by ``allowed_names``: (English, Chinese) each) or ``flower_groups`` (two
    strings of four flowers that together hold all eight).
    """

    name: str
    default: Any
    type: str
    description: str
    description_zh: str
    allowed: tuple[Any, ...] = ()
    allowed_names: tuple[tuple[str, str], ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    def parse(self, value: Any) -> Any:
        """The value as the scorer uses it; RecordError naming the option when it is not allowed."""
        bad = f"option {self.name} must be "
        if self.type == "bool":
            if not isinstance(value, bool):
                raise RecordError(bad + f"true or false, got {brief(value)}")
        elif self.type == "int":
            low, high = self.minimum or 0, self.maximum
            whole = whole_number(value)
            if whole is None or whole < low or (high is not None and whole > high):
                limits = f"from {low} to {high}" if high is not None else f"≥ {low}"
                raise RecordError(bad + f"a whole number {limits}, got {brief(value)}")
            return whole
        elif self.type == "choice":
            if value not in self.allowed or isinstance(value, bool):
                raise RecordError(bad + f"one of {', '.join(map(repr, self.allowed))}, got {brief(value)}")
        elif self.type == "flower_groups":
            return _flower_groups(value, bad)
        return value

    def to_dict(self) -> dict[str, Any]:
        default = [format_tiles(g) for g in self.default] if self.type == "flower_groups" else self.default
        out = {"name": self.name, "default": default, "type": self.type,
               "description": self.description, "description_zh": self.description_zh}
        if self.allowed:
            out["allowed"] = list(self.allowed)
            out["allowed_names"] = [list(names) for names in self.allowed_names]
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        return out


def _flower_groups(value: Any, bad: str) -> tuple[tuple[str, ...], ...]:
    message = bad + f'two strings of four flowers holding all eight, e.g. ["1234f", "5678f"], got {brief(value)}'
    if not isinstance(value, list) or len(value) != 2 or not all(isinstance(v, str) for v in value):
        raise RecordError(message)
    try:
        groups = tuple(tuple(sorted(parse_tiles(v), key=TILE_INDEX.__getitem__)) for v in value)
    except TileError:
        raise RecordError(message) from None
    if sorted(groups[0] + groups[1]) != sorted(FLOWERS) or len(groups[0]) != 4:
        raise RecordError(message)
    return groups


@dataclass(frozen=True)
class RegionInfo:
    """A region as the web page shows it.

    ``hand_size`` is a non-winner's size (the winner holds one more); ``flags`` and ``context`` are the
    `win.flags` and `context` fields the region reads; ``indicator`` names what the indicator makes
    (得, 金, 宝) or is None; ``scores_non_winners`` says whether every hand is scored (Wenling).
    ``meld_types``, ``extra_sets`` (extra set shapes as (name, tiles)) and ``bao_pungs`` say which melds
    a record may hold. ``asks`` names the facts besides the win that a score cannot go without and a photo
    cannot show (``dealer``, ``indicator``). ``indicator_flags`` are the flags whose event needs the
    indicator given; ``reads_streak`` says whether `dealer_streak` is read (Fuzhou); ``reads_payers_melds`` whether
    the other seats' melds change the payments though their hands are not scored (Baicheng: a 门清 payer's 背靠背,
    each seat's kongs); ``wins_on_laid_aside``
    whether the winning tile may be one laid aside with the flowers (Wenling's 腊子 completed by a flower drawn).
    ``exclusive_flags`` are pairs of flags whose events cannot happen together, each with why. ``flag_names``
    are (flag, English, Chinese) for the flags whose event the region's own rules call otherwise than the page
    does by default (Daishan's 天胡, Baicheng's 杠开 with no flowers).
    """

    key: str
    name: str
    name_zh: str
    hand_size: int
    unit: str
    options: tuple[OptionInfo, ...] = ()
    flags: tuple[str, ...] = ()
    context: tuple[str, ...] = ()
    indicator: str | None = None
    indicator_name: str | None = None
    scores_non_winners: bool = False
    meld_types: tuple[str, ...] = ("chow", "pung", "kong")
    extra_sets: tuple[tuple[str, tuple[str, ...]], ...] = ()
    bao_pungs: bool = False
    asks: tuple[str, ...] = ()
    indicator_flags: tuple[str, ...] = ()
    reads_streak: bool = False
    reads_payers_melds: bool = False
    has_flowers: bool = True
    """Whether the rules play flowers (Baicheng does not: the page offers none to pick)."""
    dealer_after: tuple[str, str | None] = ("keep_or_pass", None)
    """Who deals next, as the page offers it: after a win ``keep_or_pass`` (a dealer who won keeps the deal, else it
    passes to the dealer's 下家) or ``winner`` (the winner deals); after a drawn deal ``keep``, ``pass`` or None
    (the rules do not say: nothing offered)."""
    wins_on_laid_aside: bool = False
    exclusive_flags: tuple[tuple[str, str, str], ...] = ()
    flag_names: tuple[tuple[str, str, str], ...] = ()
    description: str = ""

    @property
    def extra_set_tiles(self) -> tuple[tuple[str, ...], ...]:
        return tuple(tiles for _, tiles in self.extra_sets)

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key, "name": self.name, "name_zh": self.name_zh, "hand_size": self.hand_size,
            "unit": self.unit, "options": [o.to_dict() for o in self.options], "flags": list(self.flags),
            "context": list(self.context), "indicator": self.indicator, "indicator_name": self.indicator_name,
            "scores_non_winners": self.scores_non_winners, "meld_types": list(self.meld_types),
            "extra_sets": [format_tiles(tiles) for _, tiles in self.extra_sets],
            "bao_pungs": self.bao_pungs, "asks": list(self.asks),
            "flag_win_by": {flag: FLAG_WIN_BY[flag] for flag in self.flags},
            "dealer_flags": [flag for flag in self.flags if flag in DEALER_FLAGS],
            "indicator_win_flags": [flag for flag in self.flags if flag in INDICATOR_WIN_FLAGS],
            "indicator_flags": list(self.indicator_flags), "reads_streak": self.reads_streak,
            "reads_payers_melds": self.reads_payers_melds, "has_flowers": self.has_flowers,
            "dealer_after": {"win": self.dealer_after[0], "draw": self.dealer_after[1]},
            "wins_on_laid_aside": self.wins_on_laid_aside,
            "exclusive_flags": [[first, second] for first, second, _ in self.exclusive_flags],
            "flag_names": {flag: {"en": en, "zh": zh} for flag, en, zh in self.flag_names},
            "description": self.description,
        }


class HandRefusal(RecordError):
    """A refusal of one seat's hand (``seat``) that says what would mend it; pickled and unpickled whole."""

    def __init__(self, message: str, seat: int, *mends: Any) -> None:
        super().__init__(message, seat, *mends)
        self.seat = seat

    def __str__(self) -> str:
        return str(self.args[0])

    def changes(self) -> list[dict[str, Any]]:
        """What would mend the hand, one change a dict: ``seat``; ``tile`` the tile to change (None: one to add);
        ``to`` the tile it becomes, or "flowers" where it is laid aside. None here; the refusals that know say."""
        return []


class NoWin(HandRefusal):
    """The winner's hand is no legal win of the region (every other record check passed); ``near``: the one-tile
    changes (tile, tile instead) of the winner's concealed tiles that would make it one."""

    def __init__(self, message: str, seat: int, near: tuple[tuple[str, str], ...] = ()) -> None:
        super().__init__(message, seat, near)
        self.near = near

    def changes(self) -> list[dict[str, Any]]:
        return [{"seat": self.seat, "tile": tile, "to": to} for tile, to in self.near]


class WrongSize(HandRefusal):
    """A hand of another size than its rules and role need; ``adds``: for a winner's hand one tile short, the tiles
    that, added, would make it a legal win (`Region.completing_tiles`)."""

    def __init__(self, message: str, seat: int, adds: tuple[str, ...] = ()) -> None:
        super().__init__(message, seat, adds)
        self.adds = adds

    def changes(self) -> list[dict[str, Any]]:
        return [{"seat": self.seat, "tile": None, "to": tile} for tile in self.adds]


class HeldLaidAside(HandRefusal):
    """A tile its rules lay aside with the flowers (a flower, Wenling's special tiles, Fuzhou's honours) held in a
    hand: ``tile``."""

    def __init__(self, message: str, seat: int, tile: str) -> None:
        super().__init__(message, seat, tile)
        self.tile = tile

    def changes(self) -> list[dict[str, Any]]:
        return [{"seat": self.seat, "tile": self.tile, "to": "flowers"}]


class ShortOfConditions(HandRefusal):
    """A complete hand the region refuses for conditions it lacks (Baicheng's 三门全, 幺九, 有刻): ``lacks``, them
    in the rules' terms ("三门全 (…) and no 幺九 (…)")."""

    def __init__(self, message: str, seat: int, lacks: str) -> None:
        super().__init__(message, seat, lacks)
        self.lacks = lacks


class Region:
    """A region's rules. Subclasses set ``info`` and implement `is_win` and `score`."""

    info: RegionInfo

    # -- checks ------------------------------------------------------------------------------------
    def check(self, table: Table) -> None:
        """Raise RecordError on the first thing wrong with a parsed table."""
        self.check_record(table)
        if table.win is not None and not self.is_win(table):
            unwild = "indicator" in self.info.asks and table.indicator is None  # its wilds, unknown, taken as none
            raise NoWin(f"players[{table.win.player}]'s hand is not a legal win under {self.info.key} rules"
                        + (f" with no {self.info.indicator} indicator given (no tile is wild)" if unwild else "")
                        + self.no_win_reason(table), table.win.player)

    def no_win_reason(self, table: Table) -> str:
        """Why a hand that is no legal win may have been thought one, appended to the refusal ("" for none)."""
        return ""

    def near_wins(self, table: Table) -> list[tuple[str, str]]:
        """(tile, tile instead) for at most NEAR_WINS changes of one of the winner's concealed tiles that make
        the table a legal win (the winning tile changed with its last copy), a tile of the same suit and
        nearest rank first: what a misread or mistyped tile may have been."""
        assert table.win is not None
        win, player = table.win, table.players[table.win.player]
        found: list[tuple[str, str]] = []
        for old in dict.fromkeys(player.concealed or ()):
            for new in (tile for tile in PLAYING_TILES if tile != old):
                concealed = list(player.concealed or ())
                concealed[concealed.index(old)] = new
                last = old == win.tile and concealed.count(old) == 0
                if self._wins_with(table, tuple(concealed), replace(win, tile=new) if last else win):
                    found.append((old, new))
        return sorted(found, key=lambda change: (change[0][1] != change[1][1],
                                                 abs(TILE_INDEX[change[0]] - TILE_INDEX[change[1]])))[:NEAR_WINS]

    def completing_tiles(self, table: Table) -> tuple[str, ...]:
        """For a winner's hand one tile short, at most NEAR_WINS tiles that, added to its concealed tiles, make the
        table a legal win (a tile the photo or the player left out); none otherwise."""
        if table.win is None:
            return ()
        player = table.players[table.win.player]
        if player.concealed is None or player.size + 1 not in self.allowed_sizes(table, player.seat):
            return ()
        found = [tile for tile in PLAYING_TILES if self._wins_with(table, (*player.concealed, tile), table.win)]
        return tuple(found[:NEAR_WINS])

    def _wins_with(self, table: Table, concealed: tuple[str, ...], win: Win) -> bool:
        """Whether the table is a legal win with the winner's concealed tiles ``concealed`` and the win ``win``
        (every record check passed too): a mended hand tried (`near_wins`, `completing_tiles`)."""
        changed = replace(table, win=win, players=tuple(replace(p, concealed=concealed) if p.seat == win.player else p
                                                        for p in table.players))
        return self._record_holds(changed) and self._wins(changed)

    def _wins(self, table: Table) -> bool:
        """`is_win`, but False where it refuses the hand (a region's own reason a hand is no win)."""
        try:
            return self.is_win(table)
        except RecordError:
            return False

    def check_record(self, table: Table) -> None:
        """Raise RecordError on the first thing wrong with a parsed table but the win's shape."""
        self.check_tiles(table)
        self.check_counts(table)
        self.check_sizes(table)
        self.check_win(table)

    def _record_holds(self, table: Table) -> bool:
        """Whether the table passes every record check but the win's shape (`check_record`)."""
        try:
            self.check_record(table)
        except RecordError:
            return False
        return True

    def laid_aside(self, table: Table) -> frozenset[str]:
        """The tiles laid aside with the flowers, never held in the hand or melded: the flowers."""
        return frozenset(FLOWERS)

    def check_tiles(self, table: Table) -> None:
        """Concealed tiles are playing tiles, flowers are flowers, the indicator exists only if the region has one."""
        if self.info.indicator is None and table.indicator is not None:
            raise RecordError(f"{self.info.key} rules have no indicator (got {table.indicator})")
        for p in table.players:
            for t in p.concealed or ():
                if is_flower(t):
                    raise HeldLaidAside(f"players[{p.seat}].concealed holds the flower {t}; flowers go in 'flowers'",
                                        p.seat, t)
            for t in p.flowers:
                if not is_flower(t):
                    raise RecordError(f"players[{p.seat}].flowers holds {t}, which is not a flower")

    def counted_tiles(self, table: Table) -> Iterable[str]:
        """Every physical tile on the table: concealed, melds, flowers and the indicator."""
        for p in table.players:
            yield from p.concealed or ()
            for m in p.melds:
                yield from m.tiles
            yield from p.flowers
        if table.indicator is not None:
            yield table.indicator

    def check_counts(self, table: Table) -> None:
        for code, n in sorted(Counter(self.counted_tiles(table)).items(), key=lambda kv: TILE_INDEX[kv[0]]):
            limit = 1 if is_flower(code) else 4
            if n > limit:
                raise RecordError(f"{n} copies of {code} on the table (at most {limit}; counting concealed tiles, "
                                  f"melds, flowers and the indicator)")

    def allowed_sizes(self, table: Table, seat: int) -> tuple[int, ...]:
        """Concealed tiles + 3 per meld for this seat: the region's hand size, one more for the winner."""
        return (self.info.hand_size + (1 if table.win is not None and table.win.player == seat else 0),)

    def check_sizes(self, table: Table) -> None:
        for p in table.players:
            if p.concealed is None:
                continue
            allowed = self.allowed_sizes(table, p.seat)
            if p.size not in allowed:
                role = "the winner" if table.win and table.win.player == p.seat else "a non-winner"
                raise WrongSize(f"players[{p.seat}] holds {p.size} tiles (concealed + 3 per meld); "
                                f"{self.info.key} rules need {' or '.join(map(str, allowed))} for {role}"
                                f"{self.size_reason(table, p)}", p.seat)

    def size_reason(self, table: Table, p: Player) -> str:
        """Why a hand of a wrong size may have been thought right, appended to the size refusal ("" for none)."""
        return ""

    def check_win(self, table: Table) -> None:
        """The winner's tiles are given and hold the winning tile; each flag's event fits how the hand was won,
        has the indicator it needs and excludes none of the others."""
        win = table.win
        if win is None:
            return
        winner = table.players[win.player]
        if winner.concealed is None:
            raise RecordError(f"players[{win.player}].concealed is empty: the winner's tiles are required")
        if not self.win_tile_present(table):
            raise RecordError(f"win.tile {win.tile} is not among players[{win.player}]'s concealed tiles")
        if win.by == "rob_kong":
            # the robbed player held a pung of the tile and added the fourth, which the winner takes
            shown = sum(t == win.tile for t in self.counted_tiles(table))
            pung = any(m.kind == "pung" and m.tile == win.tile for m in table.players[win.source].melds)
            if shown - 3 * pung > 1:
                where = "besides the robbed pung" if pung else "on the table"
                raise RecordError(f"{shown - 3 * pung} copies of {win.tile} {where}: robbing a kong "
                                  f"takes its fourth {win.tile}, so the winner can hold no other")
        for flag in sorted(win.flags):
            if win.by != FLAG_WIN_BY[flag]:
                raise RecordError(f"flag {flag} needs a {FLAG_WIN_BY[flag]} win")
            if flag in self.info.indicator_flags and table.indicator is None:
                raise RecordError(f"flag {flag} needs the {self.info.indicator} indicator")
            if flag in INDICATOR_WIN_FLAGS and win.tile != table.indicator:
                raise RecordError(f"flag {flag} needs win.tile to be the {self.info.indicator} indicator "
                                  f"{table.indicator}")
        for first, second, why in self.info.exclusive_flags:
            if {first, second} <= win.flags:
                raise RecordError(f"flags {first} and {second} exclude each other: {why}")

    def win_tile_present(self, table: Table) -> bool:
        return table.win.tile in table.players[table.win.player].concealed

    # -- rules ---------------------------------------------------------------------------------------
    def is_win(self, table: Table) -> bool:
        """True when the winner's hand is a legal win of the region (the record already passed the other checks)."""
        raise NotImplementedError

    def score(self, table: Table) -> Result:
        """Score a checked table."""
        raise NotImplementedError
