"""`mjcam read PHOTO --rules REGION`: read a player's hand from a photo; with --score, score it.

Prints the player's part of a table record (concealed tiles, melds, flowers, winning tile) with the
reader's problems, suggestions and what the photo cannot show (``needs``). With ``--score`` the missing
facts come as flags, the other players are left blank (``""``) and the table is scored; what the score had to
assume (a face-up kong taken as exposed) is said. An unreadable photo, a photo with no tile found, settings the
rules refuse, facts for scoring given without ``--score``, and missing or impossible facts exit with status 2,
a hand that is no legal win as read with status 1, each with one line on stderr.
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from scoring import REGIONS
from scoring.record import DEALER_FLAGS
from scoring.tiles import TileError, format_tiles, parse_tiles

FLAG_OF_NEED = {
    "win.by": "--self-draw or --from SEAT",
    "win.from": "--from SEAT",
    "win.tile": "--win-tile TILE",
    "indicator": "--indicator TILE (or none)",
    "dealer": "--dealer N",
}


NO_INDICATOR = "none"
"""``--indicator none``: the table turned up no indicator (scored with no wild tile), as the page's *None*."""


class ReadError(ValueError):
    """Bad input or missing facts: one line, exit status 2."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("photo", metavar="PHOTO", help="photo of the revealed hand (JPEG, PNG, WebP…)")
    parser.add_argument("--rules", required=True, choices=sorted(REGIONS), help="the table's regional rules")
    parser.add_argument("--seat", type=int, default=0, choices=range(4), metavar="N",
                        help="the photographed player's seat 0–3 (default 0)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--non-winner", action="store_true",
                        help="the hand did not win (Wenling scores every hand): read at the hand size, no tile apart")
    parser.add_argument("--score", action="store_true", help="score the hand (give the facts below)")
    parser.add_argument("--self-draw", action="store_true", help="the winning tile was self-drawn")
    parser.add_argument("--from", dest="source", type=int, choices=range(4), metavar="SEAT",
                        help="the seat whose discard won the hand")
    parser.add_argument("--rob-kong", action="store_true", help="with --from: the win robbed that seat's kong")
    parser.add_argument("--indicator", metavar="TILE",
                        help="the indicator tile (得, 金 or 宝), e.g. 5p; none: no indicator turned up, no tile wild")
    parser.add_argument("--dealer", type=int, choices=range(4), metavar="N", help="the dealer's seat")
    parser.add_argument("--streak", type=int, metavar="N", help="dealer streak 连庄 (default 0)")
    parser.add_argument("--flag", action="append", default=[], metavar="F", help="a win flag, e.g. last_tile")
    parser.add_argument("--option", action="append", default=[], metavar="K=V", help="a rule option, e.g. di=2")
    parser.add_argument("--kong", action="append", default=[], metavar="TILE",
                        help="the tile of a kong shown all face down (one per such kong, in meld order)")
    parser.add_argument("--concealed-kong", action="append", default=[], type=int, metavar="N",
                        help="meld N (numbered as read) is a concealed kong laid face up; unsaid, a kong of four "
                             "face-up tiles with none turned sideways is scored as exposed")
    parser.add_argument("--win-tile", metavar="TILE", help="the winning tile, when none is set apart")


def run(args: argparse.Namespace) -> int:
    from scoring import RecordError, check_setting

    try:
        indicator = _one_tile(args.indicator, "--indicator") if args.indicator not in (None, NO_INDICATOR) else None
        options = _options(args.option)
        try:
            check_setting(args.rules, indicator, options)
        except RecordError as error:
            raise ReadError(str(error)) from None
        unknown = [flag for flag in args.flag if flag not in REGIONS[args.rules].flags]
        if unknown:  # a record may carry another region's flags; a flag typed here is meant to count
            raise ReadError(f"--flag {unknown[0]}: not a win flag of {args.rules} rules "
                            f"(theirs: {', '.join(REGIONS[args.rules].flags)})")
        if args.score and args.non_winner:
            raise ReadError("--score scores the photographed hand as the winner's: leave out --non-winner")
        unused = [flag for flag, given in _scoring_facts(args) if given]
        if unused and not args.score:
            raise ReadError(f"{', '.join(unused)} {'counts' if len(unused) == 1 else 'count'} only with --score: "
                            "add --score to score the hand, or leave "
                            f"{'it' if len(unused) == 1 else 'them'} out")
        reading, photo, detections = _read(args.photo, args.rules, args.seat, indicator, options, not args.non_winner)
        if not len(detections):
            raise ReadError(f"no tile was found in {args.photo}: photograph the hand closer, the tiles filling "
                            "the frame")
        if not args.score:
            from vision.read import reading_json

            out = {"file": args.photo, "width": photo.width, "height": photo.height, "rules": args.rules,
                   **reading_json(reading, detections)}
            print(json.dumps(out, ensure_ascii=False) if args.json else describe(reading, detections))
            return 0
        refusal = hand_refusal(reading, detections, args.win_tile is not None)
        record = table_record(reading, args, indicator, options, refusal)
    except NoLegalWin as refusal:
        print(f"mjcam read: {refusal}", file=sys.stderr)
        return 1
    except ReadError as error:
        print(f"mjcam read: {error}", file=sys.stderr)
        return 2
    return _score(record, reading, detections, args.json)


def _scoring_facts(args: argparse.Namespace) -> list[tuple[str, bool]]:
    """The flags that only scoring uses, and whether each was given (--indicator and --option also steer the
    reading: which tiles are wild, which the region lays aside)."""
    return [("--self-draw", args.self_draw), ("--from", args.source is not None), ("--rob-kong", args.rob_kong),
            ("--dealer", args.dealer is not None), ("--streak", args.streak is not None), ("--flag", bool(args.flag)),
            ("--kong", bool(args.kong)), ("--concealed-kong", bool(args.concealed_kong)),
            ("--win-tile", args.win_tile is not None)]


def _read(path: str, region: str, seat: int, indicator: str | None, options: dict[str, Any],
          winner: bool) -> tuple[Any, Any, Any]:
    from vision.detector import ModelError, load_detector
    from vision.images import ImageError, read_photo
    from vision.read import hand_reading

    try:
        photo = read_photo(path)
    except ImageError as error:
        raise ReadError(str(error)) from None
    try:
        detector = load_detector()
    except ModelError as error:
        raise ReadError(str(error)) from None
    reading, detections = hand_reading(photo, detector, region, seat, indicator=indicator, options=options,
                                       winner=winner)
    return reading, photo, detections


def _one_tile(text: str, flag: str) -> str:
    try:
        tiles = parse_tiles(text)
    except TileError as error:
        raise ReadError(f"{flag}: {error}") from None
    if len(tiles) != 1:
        raise ReadError(f"{flag} takes one tile, e.g. 5p, not {text!r}")
    return tiles[0]


def _options(pairs: list[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ReadError(f"--option takes KEY=VALUE, e.g. di=2, not {pair!r}")
        try:
            options[key] = json.loads(value)
        except RecursionError:
            raise ReadError(f"--option {key}: the value is nested too deeply") from None
        except ValueError:  # not JSON: the value is the text itself
            options[key] = value
    return options


class NoLegalWin(Exception):
    """The hand as read is no legal win (`hand_refusal`): no fact given would make it one."""


def table_record(reading: Any, args: argparse.Namespace, indicator: str | None,
                 options: dict[str, Any], refusal: str | None = None) -> dict[str, Any]:
    """The table record of the read hand and the facts given as flags; ReadError for flags that are wrong, then
    NoLegalWin for a ``refusal`` of the hand as read (no fact would mend it), then ReadError naming missing facts."""
    player = reading.player
    blanks = [(n, m) for n, m in enumerate(player["melds"], 1) if m.get("concealed") and not m["tiles"]]
    kongs = [_one_tile(t, "--kong") for t in args.kong]
    if len(kongs) > len(blanks):
        raise ReadError(f"--kong names {len(kongs)} face-down kong(s), but the photo shows {len(blanks)}")
    for (_, meld), tile in zip(blanks, kongs):
        meld["tiles"] = format_tiles([tile] * 4)
    for n in args.concealed_kong:
        meld = player["melds"][n - 1] if 1 <= n <= len(player["melds"]) else None
        if meld is None or meld["type"] != "kong" or "from" in meld:
            what = ("the photo shows no such meld" if meld is None else f"meld {n} is a {meld['type']}"
                    if meld["type"] != "kong" else f"meld {n} shows a claimed tile turned sideways")
            raise ReadError(f"--concealed-kong {n}: {what}")
        meld["concealed"] = True
    win_tile = _one_tile(args.win_tile, "--win-tile") if args.win_tile is not None else reading.win_tile
    if args.self_draw and args.source is not None:
        raise ReadError("give either --self-draw or --from SEAT, not both")
    if args.source == args.seat:
        raise ReadError(f"--from {args.source} is the winner's own seat")
    if args.rob_kong and args.source is None:
        raise ReadError("--rob-kong needs --from SEAT (whose kong was robbed)")
    given = {"win.by": args.self_draw or args.source is not None, "win.from": True, "win.tile": win_tile is not None,
             "indicator": indicator is not None or args.indicator == NO_INDICATOR, "dealer": args.dealer is not None}
    missing = [FLAG_OF_NEED[n.key] for n in reading.needs if n.required and not given.get(n.key, False)
               and n.key in FLAG_OF_NEED]
    # 天和, 地胡: scored only with --dealer given
    if set(DEALER_FLAGS) & set(args.flag) and args.dealer is None and FLAG_OF_NEED["dealer"] not in missing:
        missing.append(FLAG_OF_NEED["dealer"])
    missing += [f"--kong TILE (meld {n} is face down)" for n, _ in blanks[len(kongs):]]
    if refusal:
        raise NoLegalWin(refusal)
    if missing:
        raise ReadError("cannot score without: " + ", ".join(missing))
    by = "self_draw" if args.self_draw else "rob_kong" if args.rob_kong else "discard"
    win: dict[str, Any] = {"player": args.seat, "tile": win_tile, "by": by, "flags": list(args.flag)}
    if by != "self_draw":
        win["from"] = args.source
    players = [{"concealed": "", "melds": [], "flowers": ""} for _ in range(4)]
    players[args.seat] = player
    return {"rules": reading.region, "options": options, "dealer": args.dealer or 0, "dealer_streak": args.streak or 0,
            "indicator": indicator, "players": players, "win": win, "context": {}}


def hand_refusal(reading: Any, detections: Any, win_given: bool) -> str | None:
    """Why the hand as read is no legal win, with its likeliest fix: its problems, but for the winning tile not set
    apart when ``win_given``; None when it has none."""
    from vision.consistency import NO_WINNING_TILE

    problems = [p for p in reading.problems if not (win_given and p == NO_WINNING_TILE)]
    if not problems:
        return None
    best = reading.suggestions[0] if reading.suggestions else None
    fix = f" (likeliest fix, {best.probability:.0%}: {suggestion_text(best, detections)})" if best else ""
    return f"the hand as read is no legal win: {'; '.join(problems)}{fix}"


def _score(record: dict[str, Any], reading: Any, detections: Any, as_json: bool) -> int:
    """Print the score of the record of a hand read legal (rc 0), or why it cannot be scored (rc 2: the facts
    given are at fault)."""
    from scoring import RecordError, score_valid_table, validate_table
    from scoring.cli import breakdown

    try:
        table = validate_table(record)
    except RecordError as error:  # the hand passed the reader's checks: the facts given are at fault
        print(f"mjcam read: cannot score: {error}", file=sys.stderr)
        return 2
    result = score_valid_table(table)
    assumed = assumptions(reading, record)
    if as_json:
        print(json.dumps({"record": record, "result": result, "assumed": assumed}, ensure_ascii=False))
    else:
        print(describe(reading, detections, asking=False) + "".join(f"\n  assumed: {a}" for a in assumed)
              + "\n\n" + breakdown(table, result))
    return 0


def assumptions(reading: Any, record: dict[str, Any]) -> list[str]:
    """What the score took for a question the flags left unanswered and that changes it: a kong of four face-up
    tiles with none turned sideways, scored as exposed unless said concealed."""
    melds = record["players"][record["win"]["player"]]["melds"]
    kongs = [int(n.key.split(".")[1]) for n in reading.needs if n.key.endswith(".concealed")]
    return [f"meld {k + 1} ({melds[k]['tiles']}) is scored as an exposed kong: give --concealed-kong {k + 1} if it "
            "is concealed" for k in kongs if not melds[k].get("concealed")]


def describe(reading: Any, detections: Any, asking: bool = True) -> str:
    """The reading for people: the hand, the tiles read doubtfully (`doubtful_tiles`), then problems,
    suggestions and (``asking``: not when the facts were given to score it) needs."""
    from vision.read import doubtful_tiles

    info = REGIONS[reading.region]
    lines = [f"{info.name} {info.name_zh} hand: concealed {reading.concealed or '(none)'}"
             + (f", winning tile {reading.win_tile}" if reading.win_tile
                else ", no winning tile set apart" if reading.winner else " (a hand that did not win)")]
    for k, meld in enumerate(reading.melds):
        how = ("concealed" if meld.get("concealed") else "added" if meld.get("added") else "")
        source = f"from seat {meld['from']}" if "from" in meld else ""
        lines.append(f"  meld {k + 1}: {meld['type']} {meld['tiles'] or '(face down)'} {how} {source}".rstrip())
    if reading.flowers:
        lines.append(f"  flowers: {reading.flowers}")
    doubtful = doubtful_tiles(reading, detections)
    if doubtful:
        lines.append("  doubtful, check: " + ", ".join(f"{detections.tiles[i]} ({detections.confidence[i]:.2f})"
                                                      for i in doubtful))
    lines += [f"  problem: {p}" for p in reading.problems]
    lines += [f"  suggestion ({s.probability:.0%}): {suggestion_text(s, detections)}" for s in reading.suggestions]
    lines += [f"  {'needs' if n.required else 'may need'} {n.key}: {n.question}" for n in reading.needs if asking]
    return "\n".join(lines)


def suggestion_text(suggestion: Any, detections: Any) -> str:
    """A suggestion for people reading the command's text (who see no detection numbers): each change by
    the tile as read, then the hand it makes."""
    changes = [f"{detections.tiles[i]} is {code}" if code else f"{detections.tiles[i]} is no tile"
               for i, code in suggestion.changes] or [suggestion.text]
    hand = suggestion.hand
    melds = " ".join(m["tiles"] or "(face down)" for m in hand["melds"])
    return (", ".join(changes) + f": concealed {hand['concealed']}" + (f", melds {melds}" if melds else "")
            + (f", flowers {hand['flowers']}" if hand["flowers"] else "")
            + (f", winning tile {suggestion.win_tile}" if suggestion.win_tile else ""))
