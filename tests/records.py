"""Compact builders for table records in tests: one hand per line, in tile strings.

Melds are written as space-separated tokens, a letter then the tiles: ``c234m`` chow, ``p777z`` pung,
``k7777z`` exposed kong, ``a7777z`` added kong, ``K7777z`` concealed kong, ``w1234z`` whirlwind,
``b555p`` a Baicheng pung of the 宝.
"""
from __future__ import annotations

from typing import Any

import pytest

from scoring import RecordError, score_table

_MELDS = {
    "c": {"type": "chow"}, "p": {"type": "pung"}, "k": {"type": "kong"}, "a": {"type": "kong", "added": True},
    "K": {"type": "kong", "concealed": True}, "w": {"type": "whirlwind"}, "b": {"type": "pung", "bao": True},
}


def melds(text: str) -> list[dict[str, Any]]:
    """``"p777z c234m"`` -> the record's meld objects."""
    return [{**_MELDS[token[0]], "tiles": token[1:]} for token in text.split()]


def player(concealed: str = "", melds_text: str = "", flowers: str = "") -> dict[str, Any]:
    return {"concealed": concealed, "melds": melds(melds_text), "flowers": flowers}


def record(rules: str, hands: dict[int, dict[str, Any]], win: tuple | None, *, flags: tuple[str, ...] = (),
           options: dict | None = None, indicator: str | None = None, dealer: int = 0, streak: int = 0,
           context: dict | None = None) -> dict[str, Any]:
    """A record: ``hands`` maps seat -> `player(...)` (blank seats elsewhere); ``win`` is
    ``(player, tile, "self_draw")`` or ``(player, tile, "discard" | "rob_kong", from)`` or None."""
    win_obj = None
    if win is not None:
        win_obj = {"player": win[0], "tile": win[1], "by": win[2], "flags": list(flags)}
        if len(win) > 3:
            win_obj["from"] = win[3]
    return {
        "rules": rules, "options": options or {}, "dealer": dealer, "dealer_streak": streak,
        "indicator": indicator, "players": [hands.get(seat, player()) for seat in range(4)],
        "win": win_obj, "context": context or {},
    }


def winner_record(rules: str, concealed: str, win_tile: str, by: str = "self_draw", *, melds_text: str = "",
                  flowers: str = "", seat: int = 1, source: int = 2, **kw: Any) -> dict[str, Any]:
    """A record with one hand: seat ``seat`` wins on ``win_tile`` (from seat ``source`` unless self-drawn)."""
    win = (seat, win_tile, by) if by == "self_draw" else (seat, win_tile, by, source)
    return record(rules, {seat: player(concealed, melds_text, flowers)}, win, **kw)


def rejected(rec: dict[str, Any]) -> str:
    """The one-line message with which the scorer rejects ``rec`` (fails if it scores or spans lines)."""
    with pytest.raises(RecordError) as caught:
        score_table(rec)
    message = str(caught.value)
    assert message and "\n" not in message
    return message
