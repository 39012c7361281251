"""Tile codes and the compact tile notation of table-format.md (`"123m55z"` = 1m 2m 3m 5z 5z)."""
from __future__ import annotations

import re
import reprlib
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

TILE_CODES: tuple[str, ...] = (
    tuple(f"{n}{s}" for s in "mps" for n in range(1, 10))
    + tuple(f"{n}z" for n in range(1, 8))
    + tuple(f"{n}f" for n in range(1, 9))
)
"""The 42 faces: 34 playing tiles then 8 flowers/seasons, in the project's canonical order."""

PLAYING_TILES: tuple[str, ...] = TILE_CODES[:34]
FLOWERS: tuple[str, ...] = TILE_CODES[34:]
TILE_INDEX: dict[str, int] = {code: i for i, code in enumerate(TILE_CODES)}

_RUN = re.compile(r"(\d+)([mpszf])")


class _JsonWords(reprlib.Repr):
    """Python's repr but for JSON's words: the values shown come from JSON (``true``, not ``True``)."""

    def repr_bool(self, value: bool, level: int) -> str:
        return "true" if value else "false"

    def repr_NoneType(self, value: None, level: int) -> str:
        return "null"


_BRIEF = _JsonWords()
_BRIEF.maxstring, _BRIEF.maxlist, _BRIEF.maxtuple, _BRIEF.maxdict = 40, 6, 6, 4
_BRIEF.maxlong, _BRIEF.maxother, _BRIEF.maxlevel = 24, 40, 2


def brief(value: Any) -> str:
    """A value as an error line shows it: its repr, long strings, numbers and lists cut short with '...'."""
    return _BRIEF.repr(value)


class TileError(ValueError):
    """A tile string that is not valid notation."""


CACHED_TEXT = 64
"""Tile strings up to this long (any hand's) are parsed once; a longer one (a record of a million tiles, which
the scorer refuses) is not kept: a server's cache of 4,096 of them would fill its memory."""


def parse_tiles(text: str) -> list[str]:
    """Split a tile string such as ``"123m55z"`` into codes; raise TileError naming the bad part."""
    return list(_parse(text) if len(text) <= CACHED_TEXT else _parse.__wrapped__(text))


@lru_cache(maxsize=4096)
def _parse(text: str) -> tuple[str, ...]:
    text = text.replace(" ", "")
    codes: list[str] = []
    pos = 0
    for match in _RUN.finditer(text):
        if match.start() != pos:
            raise TileError(f"bad tile string {brief(text)}: cannot read {brief(text[pos:match.start()])}")
        digits, suit = match.groups()
        for d in digits:
            code = f"{d}{suit}"
            if code not in TILE_INDEX:
                raise TileError(f"unknown tile {code!r} in {brief(text)}")
            codes.append(code)
        pos = match.end()
    if pos != len(text):
        raise TileError(f"bad tile string {brief(text)}: cannot read {brief(text[pos:])}")
    return tuple(codes)


def format_tiles(codes: Iterable[str]) -> str:
    """Write codes as a compact string, grouped by suit in canonical order: ``["5z","1m","5z"]`` -> ``"1m55z"``."""
    ordered = sorted(codes, key=TILE_INDEX.__getitem__)
    out: list[str] = []
    for i, code in enumerate(ordered):
        out.append(code[0])
        if i + 1 == len(ordered) or ordered[i + 1][1] != code[1]:
            out.append(code[1])
    return "".join(out)


SUIT_BITS: dict[str, int] = {"m": 1, "p": 2, "s": 4}
"""One bit per suit: the suits a hand's sets show, or'ed together (one suit, mixed with honours…)."""
WINDS: tuple[str, ...] = ("1z", "2z", "3z", "4z")
"""East, South, West, North: seat wind of the dealer, then of each following seat."""
DRAGONS: tuple[str, ...] = ("5z", "6z", "7z")
"""White 白, Green 發, Red 中."""


def suit(code: str) -> str:
    """The suit letter: ``m``, ``p``, ``s``, ``z`` (honour) or ``f`` (flower)."""
    return code[1]


def number(code: str) -> int:
    """The digit of a code (1–9 for suited tiles)."""
    return int(code[0])


def is_suited(code: str) -> bool:
    return code[1] in "mps"


def is_honour(code: str) -> bool:
    return code[1] == "z"


def is_flower(code: str) -> bool:
    return code[1] == "f"


def is_terminal(code: str) -> bool:
    """A suited 1 or 9."""
    return code[1] in "mps" and code[0] in "19"


def is_yaojiu(code: str) -> bool:
    """幺九: a terminal or an honour."""
    return is_terminal(code) or is_honour(code)


def seat_wind(seat: int, dealer: int) -> str:
    """The seat's wind: the dealer is East, the seats after it South, West, North."""
    return WINDS[(seat - dealer) % 4]
