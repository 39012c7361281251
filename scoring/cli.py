"""`mjcam score FILE|-`: score a table record; a readable breakdown, or the result object with --json.

An unreadable file, malformed JSON or an invalid record exits with status 2 and one line on stderr,
``mjcam score: <problem>``.
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from scoring import REGIONS, Table, score_valid_table, validate_table
from scoring.record import MAX_RECORD_BYTES, load_json, record_too_large
from scoring.tiles import seat_wind

_WIND_NAMES = {"1z": "East", "2z": "South", "3z": "West", "4z": "North"}
_METHODS = {"self_draw": "self-drawn", "discard": "on a discard from P{}", "rob_kong": "robbing a kong from P{}"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="table record (JSON, see table-format.md); - reads standard input")
    parser.add_argument("--json", action="store_true", help="print the result object as JSON")


def run(args: argparse.Namespace) -> int:
    try:
        table = validate_table(_read(args.file))
    except (OSError, ValueError) as error:  # RecordError and JSON errors are ValueErrors
        print(f"mjcam score: {error}", file=sys.stderr)
        return 2
    result = score_valid_table(table)
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=1))
    else:
        print(breakdown(table, result))
    return 0


def _read(path: str) -> Any:
    source = "standard input" if path == "-" else path
    try:
        if path == "-":
            if sys.stdin is None:
                raise OSError("it is closed")
            data = sys.stdin.buffer.read(MAX_RECORD_BYTES + 1)
        else:
            with open(path, "rb") as file:
                data = file.read(MAX_RECORD_BYTES + 1)
    except OSError as error:
        raise OSError(f"cannot read {source}: {error.strerror or error}") from None
    if len(data) > MAX_RECORD_BYTES:
        raise OSError(record_too_large(source))
    return load_json(data, source)


def breakdown(table: Table, result: dict) -> str:
    """The result for people: the win, the indicator, each seat's items and total, the payments and the net."""
    info = REGIONS[result["rules"]]
    lines = [f"{info.name} {info.name_zh}"]
    win = table.win
    if win is None:
        paid = "only what the payments below list is paid" if result["payments"] else "nothing is paid"
        lines.append(f"No winner: {result.get('note', 'drawn hand')}, {paid}.")
    else:
        how = _METHODS[win.by].format(win.source)
        flags = f" ({', '.join(sorted(win.flags))})" if win.flags else ""
        lines.append(f"P{win.player} wins {how} with {win.tile}{flags}")
        if info.indicator:
            lines.append(f"{info.indicator} indicator: {table.indicator}" if table.indicator else
                         f"No {info.indicator} indicator given: scored without {info.indicator}")
        if result.get("reading"):
            lines.append("Reading: " + "  ".join(_block(b) for b in result["reading"]))
    for seat in result["players"]:
        if not seat["items"] and not seat["total"]:
            continue
        role = " (winner)" if seat["seat"] == result["winner"] else ""
        wind = _WIND_NAMES[seat_wind(seat["seat"], table.dealer)]
        lines.append("")
        lines.append(f"P{seat['seat']} {wind}{role}: {_number(seat['total'])} {seat['unit']}"
                     + (f"   {seat['formula']}" if seat.get("formula") else ""))
        for item in seat["items"]:
            lines.append(f"  {_number(item['value']):>5} {item['unit']}  {item['rule']}  ({item['name']})")
    lines.append("")
    if "bao" in result:  # Wenling's 包三家 facts given: whether they come to it
        bao = result["bao"]
        lines.append(bao["note"] + (f" (P{bao['payer']})" if bao["payer"] is not None else "") + ".")
    lines.append(f"Payments ({result['unit']}):" if result["payments"] else "Payments: none")
    for p in result["payments"]:
        lines.append(f"  P{p['from']} → P{p['to']}  {_number(p['amount']):>4}  {p['reason']}")
    lines.append("Net: " + "  ".join(f"P{i} {n:+d}" for i, n in enumerate(result["net"])))
    return "\n".join(lines)


def _block(block: dict) -> str:
    text = block["tiles"] + ("*" if block.get("melded") else "")
    if "wilds" in block:
        text += f"[wild {block['wilds']}]"
    if "winning_tile" in block:
        text += f"<{block['winning_tile']}"
    return text


def _number(value: int | float) -> str:
    """A value as the scorer gives it: 0.4, 399999.6, 12 (Python's shortest repr, never rounded to 6 digits)."""
    return repr(value).removesuffix(".0") if isinstance(value, float) else str(value)
