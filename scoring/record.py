"""The table record of table-format.md, parsed into small typed structures, with the checks every region shares.

`parse_table` turns the JSON object into a `Table` or raises `RecordError` with one line naming the
problem. Region-specific checks (tile counts, hand sizes, legal win, …) run afterwards in
`scoring.region.Region.check`.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from scoring.tiles import TILE_INDEX, TileError, brief, is_suited, number, parse_tiles, suit

if TYPE_CHECKING:
    from scoring.region import RegionInfo

RULES = ("wenling", "fuzhou", "daishan", "baicheng")
MELD_TYPES = ("chow", "pung", "kong", "whirlwind")
WIN_METHODS = ("self_draw", "discard", "rob_kong")
FLAGS = (
    "kong_replacement", "last_tile", "heaven", "earth", "rob_gold", "three_golds", "gold_kan",
    "bao_draw", "after_special_kong",
)
"""Every `win.flags` value of table-format.md; each region uses some of them."""
FLAG_WIN_BY = {
    "kong_replacement": "self_draw", "last_tile": "self_draw", "heaven": "self_draw", "earth": "discard",
    "rob_gold": "self_draw", "three_golds": "self_draw", "gold_kan": "self_draw", "bao_draw": "self_draw",
    "after_special_kong": "self_draw",
}
"""The one way of winning each flag's event happens by, in every region that reads it (spec; 地胡 is won on
the dealer's first discard, every other event by drawing the tile)."""
DEALER_FLAGS = ("heaven", "earth")
"""The flags whose event is checked against the dealer (天和/天胡: the dealer wins; 地胡: on the dealer's discard)."""
INDICATOR_WIN_FLAGS = ("rob_gold", "bao_draw")
"""The flags whose event is winning on the indicator tile itself (抢金 takes the 金 turned up; 摸宝 draws the 宝)."""
MAX_STREAK = 100
"""The most hands in a row a dealer keeps the deal (连庄) that a record may say: more is a typing slip."""


class RecordError(ValueError):
    """An invalid table record; the message is one line naming what is wrong."""


@dataclass(frozen=True)
class Meld:
    """A declared set: ``kind`` is chow, pung, kong or whirlwind; ``source`` is the seat it was claimed from."""

    kind: str
    tiles: tuple[str, ...]
    concealed: bool = False
    added: bool = False
    bao: bool = False
    source: int | None = None

    @property
    def tile(self) -> str:
        """The first tile (the kind of a pung or kong)."""
        return self.tiles[0]


@dataclass(frozen=True)
class Player:
    """One seat's tiles; ``concealed`` is None when the record leaves them blank (unknown)."""

    seat: int
    concealed: tuple[str, ...] | None
    melds: tuple[Meld, ...] = ()
    flowers: tuple[str, ...] = ()

    @property
    def size(self) -> int:
        """Hand size as the rules count it: concealed tiles + 3 per meld (kongs and whirlwinds too)."""
        return len(self.concealed or ()) + 3 * len(self.melds)

    @property
    def has_claimed_meld(self) -> bool:
        """Whether any meld is other than a concealed kong (a heavenly hand may have none)."""
        return any(not (m.kind == "kong" and m.concealed) for m in self.melds)

    @property
    def has_kong_or_flower(self) -> bool:
        """Whether the player has a kong or a tile laid aside (a flower, a special tile): what a replacement tile is
        drawn after."""
        return bool(self.flowers) or any(m.kind == "kong" for m in self.melds)


@dataclass(frozen=True)
class Win:
    """How the hand was won; ``source`` is the discarder or the robbed player."""

    player: int
    tile: str
    by: str
    source: int | None = None
    flags: frozenset[str] = frozenset()

    @property
    def self_drawn(self) -> bool:
        return self.by == "self_draw"


@dataclass(frozen=True)
class Table:
    """A parsed, typed table record; ``options`` has every option of the region, defaults filled in."""

    rules: str
    options: Mapping[str, Any]
    dealer: int
    players: tuple[Player, ...]
    win: Win | None
    dealer_streak: int = 0
    indicator: str | None = None
    context: Mapping[str, Any] = field(default_factory=dict)

    @property
    def winner(self) -> Player | None:
        return self.players[self.win.player] if self.win else None


MAX_RECORD_BYTES = 2**20
"""A table record is a few hundred bytes; a larger input is refused (and read no further: ``/dev/zero`` never ends)."""


def record_too_large(source: str) -> str:
    """The one line refusing an input over MAX_RECORD_BYTES."""
    return f"{source} is larger than a table record can be ({MAX_RECORD_BYTES // 2**20} MB at most)"


def load_json(data: str | bytes, source: str = "the record") -> Any:
    """JSON text (bytes must be UTF-8; a leading byte-order mark is allowed) → its value; RecordError with one
    line naming ``source`` when it is not UTF-8, not JSON, nested too deeply, holds a number too long or gives a
    key twice in one object (which of the two was meant cannot be told)."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError:
            raise RecordError(f"{source} is not UTF-8 text") from None
    if not data.strip().removeprefix("\ufeff"):
        raise RecordError(f"{source} is empty: no JSON in it")
    try:
        return json.loads(data.removeprefix("\ufeff"), object_pairs_hook=lambda pairs: _unique_keys(pairs, source))
    except RecordError:
        raise
    except RecursionError:
        raise RecordError(f"{source} is not valid JSON: nested too deeply") from None
    except json.JSONDecodeError as error:
        raise RecordError(f"{source} is not valid JSON: {error}") from None
    except ValueError:  # Python's limit on the digits of an integer
        raise RecordError(f"{source} holds a number too long to be a table's") from None


def _unique_keys(pairs: list[tuple[str, Any]], source: str) -> dict[str, Any]:
    """A JSON object's pairs as a dict; RecordError when a key comes twice."""
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise RecordError(f"{source} gives the key {json.dumps(key, ensure_ascii=False)} twice in one object")
        seen[key] = value
    return seen


def parse_table(record: Any, info: RegionInfo) -> Table:
    """Parse a record whose ``rules`` is ``info``'s region; raise RecordError on the first problem."""
    _require(isinstance(record, dict), "the record must be a JSON object")
    options = _options(record.get("options"), info)
    dealer = _seat(_field(record, "dealer"), "dealer")
    given_streak = _given(record, "dealer_streak", 0)
    streak = whole_number(given_streak)
    _require(streak is not None and 0 <= streak <= MAX_STREAK,
             f"dealer_streak must be a whole number from 0 to {MAX_STREAK}, got {brief(given_streak)}")
    indicator = _given(record, "indicator", "")
    indicator = _one_tile(indicator, "indicator") if indicator != "" else None  # "": none, as null
    players_field = _field(record, "players")
    _require(isinstance(players_field, list) and len(players_field) == 4,
             "players must be a list of exactly four players (index = seat)")
    players = tuple(_player(p, seat, info) for seat, p in enumerate(players_field))
    win = _win(_field(record, "win"), info)
    context = record.get("context")
    context = {} if context is None else context
    _require(isinstance(context, dict), f"context must be an object, got {brief(context)}")
    # region-specific facts: those of other regions (or none) are ignored, as any field the scorer does not read
    context = {key: value for key, value in context.items() if key in info.context}
    return Table(info.key, options, dealer, players, win, streak, indicator, context)


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise RecordError(message)


def whole_number(value: Any) -> int | None:
    """A JSON whole number as an int (``2``, or ``2.0`` as a program may write it), else None (a fraction, text, a
    boolean: Python's True is an int)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def _given(obj: dict, name: str, default: Any) -> Any:
    """An optional field's value: ``default`` when it is absent or null."""
    value = obj.get(name)
    return default if value is None else value


def _field(obj: dict, name: str, where: str = "") -> Any:
    _require(name in obj, f"missing field {where}{name}")
    return obj[name]


def _seat(value: Any, where: str) -> int:
    seat = whole_number(value)
    _require(seat is not None and 0 <= seat <= 3, f"{where} must be a seat 0–3, got {brief(value)}")
    return seat


def _tiles(value: Any, where: str) -> tuple[str, ...]:
    _require(isinstance(value, str), f"{where} must be a tile string such as \"123m55z\", got {brief(value)}")
    try:
        return tuple(parse_tiles(value))
    except TileError as error:
        raise RecordError(f"{where}: {error}") from None


def _one_tile(value: Any, where: str) -> str:
    tiles = _tiles(value, where)
    _require(len(tiles) == 1, f"{where} must be one tile, got {brief(value)}")
    return tiles[0]


def _flag(obj: dict, name: str, where: str) -> bool:
    value = _given(obj, name, False)
    _require(isinstance(value, bool), f"{where}.{name} must be true or false, got {brief(value)}")
    return value


def _options(value: Any, info: RegionInfo) -> dict[str, Any]:
    value = {} if value is None else value
    _require(isinstance(value, dict), "options must be an object")
    known = {option.name: option for option in info.options}
    options = {name: option.default for name, option in known.items()}
    for name, given in value.items():
        _require(name in known, f"unknown option {brief(name)} for {info.key} rules (known: {', '.join(known)})")
        options[name] = known[name].parse(given)
    return options


def _player(value: Any, seat: int, info: RegionInfo) -> Player:
    where = f"players[{seat}]"
    _require(isinstance(value, dict), f"{where} must be an object")
    concealed = _field(value, "concealed", f"{where}.")
    concealed = _tiles("" if concealed is None else concealed, f"{where}.concealed")  # null: unknown, as ""
    melds_field = _given(value, "melds", [])
    _require(isinstance(melds_field, list), f"{where}.melds must be a list")
    melds = tuple(_meld(m, f"{where}.melds[{i}]", seat, info) for i, m in enumerate(melds_field))
    flowers = _tiles(_given(value, "flowers", ""), f"{where}.flowers")
    return Player(seat, concealed or None, melds, flowers)


def _meld(value: Any, where: str, seat: int, info: RegionInfo) -> Meld:
    _require(isinstance(value, dict), f"{where} must be an object")
    kind = _field(value, "type", f"{where}.")
    _require(kind in MELD_TYPES, f"{where}.type must be one of {', '.join(MELD_TYPES)}, got {brief(kind)}")
    _require(kind in info.meld_types, f"{where}: {info.key} rules have no {kind} melds")
    tiles = _tiles(_field(value, "tiles", f"{where}."), f"{where}.tiles")
    _require(_meld_shape_ok(kind, tiles, info), f"{where}: {brief(''.join(tiles))} is not a {_SHAPES[kind]}")
    concealed, added, bao = (_flag(value, name, where) for name in ("concealed", "added", "bao"))
    _require(not concealed or kind == "kong", f"{where}: only a kong can be concealed")
    _require(not added or (kind == "kong" and not concealed), f"{where}: only an exposed kong can be added")
    bao = bao and info.bao_pungs  # a mark of Baicheng's 叉宝: other rules ignore it, as any field they do not read
    _require(not bao or kind == "pung", f"{where}: only a pung can be marked bao")
    source = value.get("from")
    if source is not None:
        source = _seat(source, f"{where}.from")
        _require(source != seat, f"{where}.from cannot be the player's own seat")
        _require(not concealed and kind != "whirlwind", f"{where}: a {kind} built from own draws has no 'from'")
    return Meld(kind, tiles, concealed, added, bao, source)


_SHAPES = {
    "chow": "chow (three consecutive tiles of one suit)",
    "pung": "pung (three identical tiles)",
    "kong": "kong (four identical tiles)",
    "whirlwind": "whirlwind (1234z)",
}


def _meld_shape_ok(kind: str, tiles: tuple[str, ...], info: RegionInfo) -> bool:
    ordered = tuple(sorted(tiles, key=TILE_INDEX.__getitem__))
    if any(not (is_suited(t) or suit(t) == "z") for t in tiles):
        return False
    if kind == "chow":
        if ordered in info.extra_set_tiles:
            return True
        return (len(tiles) == 3 and all(is_suited(t) and suit(t) == suit(tiles[0]) for t in tiles)
                and [number(t) for t in ordered] == list(range(number(ordered[0]), number(ordered[0]) + 3)))
    if kind == "whirlwind":
        return ordered == ("1z", "2z", "3z", "4z")
    return len(tiles) == (3 if kind == "pung" else 4) and len(set(tiles)) == 1


def _win(value: Any, info: RegionInfo) -> Win | None:
    if value is None:
        return None
    _require(isinstance(value, dict), "win must be an object or null")
    player = _seat(_field(value, "player", "win."), "win.player")
    tile = _one_tile(_field(value, "tile", "win."), "win.tile")
    by = _field(value, "by", "win.")
    _require(by in WIN_METHODS, f"win.by must be one of {', '.join(WIN_METHODS)}, got {brief(by)}")
    source = value.get("from")
    if by == "self_draw":
        source = None  # no one discarded: a seat given here says nothing
    else:
        _require(source is not None, f"win.from is missing: a {by} win needs the seat it came from")
        source = _seat(source, "win.from")
        _require(source != player, "win.from cannot be the winner")
    flags = _given(value, "flags", [])
    _require(isinstance(flags, list), "win.flags must be a list")
    for flag in flags:
        _require(flag in FLAGS, f"unknown win flag {brief(flag)}")
    # an event the region does not score (海底 in Wenling, 天和 in Baicheng…) changes nothing there
    return Win(player, tile, by, source, frozenset(flag for flag in flags if flag in info.flags))
