"""Score a finished mahjong hand under the table's regional rules (../shared/rules/spec.md).

Public API:

- ``score_table(record) -> dict``: the result object of table-format.md — ``rules``, ``net`` (four ints
  summing to 0), ``payments`` [{from, to, amount, reason, reason_en}], ``players`` [{seat, total, unit, items:
  [{name, name_zh, rule, value, unit, citation}]}], ``winner``, ``unit`` and, for a won hand, the
  winner's chosen ``reading`` (blocks as tile strings, wilds and the winning tile marked).
- ``validate_table(record) -> Table``: the parsed, checked record; ``RecordError`` otherwise.
- ``score_valid_table(table) -> dict``: the result object of a table `validate_table` gave.
- ``RecordError`` (a ValueError): every invalid record, with one line naming the problem.
- ``is_winning_hand(rules, concealed, melds, indicator=None, options=None, flowers="", *, seat=0, dealer=0)``:
  whether the tiles (winner's size) form a legal self-drawn win of that seat, wilds considered; no settlement.
- ``lacking_conditions(rules, concealed, melds, …)``: for a complete hand the region refuses all the same, the
  conditions it lacks (Baicheng's 三门全, 幺九, 有刻), in the rules' terms; "" otherwise.
- ``check_setting(rules, indicator=None, options=None)``: ``RecordError`` unless the table's settings are valid.
- ``laid_aside(rules, indicator=None, options=None)``: the tiles those rules lay aside with the flowers.
- ``REGIONS``: ``{key: RegionInfo}`` for every implemented region. A RegionInfo gives ``name`` and
  ``name_zh``, ``hand_size`` (a non-winner's; the winner holds one more), ``unit`` of the totals,
  ``options`` (each: ``name``, ``default``, ``type`` bool/int/choice/flower_groups, ``allowed``,
  ``minimum``, ``maximum``, ``description`` and ``description_zh``), ``flags`` (the ``win.flags`` it reads),
  ``context`` (the ``context`` fields it reads), ``indicator`` (得, 金, 宝 or None) and
  ``indicator_name``, ``scores_non_winners`` (Wenling scores all four hands), ``meld_types``,
  ``extra_sets``, ``bao_pungs``, ``asks`` (the facts a score cannot go without that a photo cannot show),
  ``indicator_flags`` (the flags that need the indicator), ``reads_streak`` (Fuzhou's 连庄), ``reads_payers_melds``
  (Baicheng's 背靠背 and kong payments read every seat's melds), ``dealer_after`` (who deals next, after a win and
  after a drawn deal, as the page offers it), ``has_flowers`` (Baicheng plays none),
  ``wins_on_laid_aside`` (Wenling's 腊子 won on a flower drawn) and ``description``. ``RegionInfo.to_dict()`` gives it as JSON.

A region is the module ``scoring/<key>.py`` holding ``REGION``, an instance of `scoring.region.Region`.
"""
from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from scoring.record import RULES, RecordError, Table, parse_table
from scoring.region import NoWin, Region, RegionInfo, ShortOfConditions, WrongSize
from scoring.tiles import brief

__all__ = ["REGIONS", "RecordError", "RegionInfo", "Table", "check_setting", "is_winning_hand", "lacking_conditions",
           "laid_aside", "score_table", "score_valid_table", "validate_table"]


def _load_regions() -> dict[str, Region]:
    found = {}
    for key in RULES:
        if importlib.util.find_spec(f"scoring.{key}") is not None:
            found[key] = importlib.import_module(f"scoring.{key}").REGION
    return found


_REGIONS: dict[str, Region] = _load_regions()
REGIONS: dict[str, RegionInfo] = {key: region.info for key, region in _REGIONS.items()}


def region_of(rules: Any) -> Region:
    """The Region for a record's ``rules`` value; RecordError when unknown or not implemented."""
    if rules not in RULES:
        raise RecordError(f"unknown rules {brief(rules)} (known: {', '.join(RULES)})")
    if rules not in _REGIONS:
        raise RecordError(f"{rules} rules are not implemented yet")
    return _REGIONS[rules]


def validate_table(record: Any) -> Table:
    """Parse and check a table record; raise RecordError with one line naming the first problem (a winner's
    hand that is no win, the one-tile changes that would make it one: `Region.near_wins`, also as `NoWin.near`;
    a winner's hand a tile short, the tiles that would complete it as `WrongSize.adds`)."""
    if not isinstance(record, dict):
        raise RecordError("the record must be a JSON object")
    if "rules" not in record:
        raise RecordError("missing field rules")
    region = region_of(record["rules"])
    table = parse_table(record, region.info)
    try:
        region.check(table)
    except WrongSize as error:
        adds = region.completing_tiles(table) if table.win is not None and error.seat == table.win.player else ()
        if not adds:
            raise
        raise WrongSize(str(error), error.seat, adds) from None
    except NoWin as error:
        near = region.near_wins(table)
        if not near:
            raise
        changes = ", or ".join(f"{old} {'changed ' if k == 0 else ''}to {new}" for k, (old, new) in enumerate(near))
        raise NoWin(f"{error}; it would be one with {changes}", error.seat, tuple(near)) from None
    return table


def _setting(rules: Any, indicator: Any, options: Any) -> tuple[Region, Table]:
    """The region and a table of four blank hands with the settings given; RecordError when they are not valid."""
    region = region_of(rules)
    table = parse_table({"options": options, "indicator": indicator, "dealer": 0, "win": None,
                         "players": [{"concealed": ""}] * 4}, region.info)
    region.check_tiles(table)
    return region, table


def check_setting(rules: Any, indicator: Any = None, options: Any = None) -> None:
    """Raise RecordError (one line) when ``rules``, an ``indicator`` of the wrong kind for them (a Fuzhou 金
    must be suited…) or ``options`` are not valid: the table's settings, checked before any hand is read."""
    _setting(rules, indicator, options)


def laid_aside(rules: Any, indicator: Any = None, options: Any = None) -> frozenset[str]:
    """The tiles the rules lay aside with the flowers at a table of these settings (`Region.laid_aside`);
    RecordError when the settings are not valid."""
    region, table = _setting(rules, indicator, options)
    return region.laid_aside(table)


def score_table(record: Any) -> dict[str, Any]:
    """Score a table record: the result object of table-format.md (see the module doc)."""
    return score_valid_table(validate_table(record))


def score_valid_table(table: Table) -> dict[str, Any]:
    """Score a table `validate_table` gave: the result object of table-format.md."""
    return _REGIONS[table.rules].score(table).to_dict()


def is_winning_hand(rules: str, concealed: list[str] | str, melds: list[dict], indicator: str | None = None,
                    options: dict | None = None, flowers: str = "", *, seat: int = 0, dealer: int = 0) -> bool:
    """True when ``concealed`` (the full hand, winning tile included) and ``melds`` (record form) are a legal
    self-drawn win of seat ``seat`` under ``rules``. A hand that breaks a record check (five of a kind,
    wrong size, a misplaced tile) is no win; malformed tiles or unknown rules/options raise RecordError.
    """
    return _self_drawn_refusal(rules, concealed, melds, indicator, options, flowers, seat, dealer) is None


def lacking_conditions(rules: str, concealed: list[str] | str, melds: list[dict], indicator: str | None = None,
                       options: dict | None = None, flowers: str = "", *, seat: int = 0) -> str:
    """For a hand `is_winning_hand` refuses though complete, the region's conditions it lacks, in the rules' terms
    (Baicheng's "三门全 (all three suits: 萬, 筒 and 條)", several joined by " and no "); "" otherwise."""
    refusal = _self_drawn_refusal(rules, concealed, melds, indicator, options, flowers, seat, 0)
    return refusal.lacks if isinstance(refusal, ShortOfConditions) else ""


def _self_drawn_refusal(rules: str, concealed: list[str] | str, melds: list[dict], indicator: str | None,
                        options: dict | None, flowers: str, seat: int, dealer: int) -> RecordError | None:
    """Why the hand is no self-drawn win (`is_winning_hand`), None when it is one; malformed input raises."""
    region = region_of(rules)
    text = concealed if isinstance(concealed, str) else "".join(concealed)
    blank = {"concealed": "", "melds": [], "flowers": ""}
    players = [dict(blank) for _ in range(4)]
    players[seat] = {"concealed": text, "melds": list(melds), "flowers": flowers}
    record = {"rules": rules, "options": options or {}, "dealer": dealer, "indicator": indicator,
              "players": players, "win": None}
    table = parse_table(record, region.info)
    if not table.players[seat].concealed:
        return RecordError("no tiles in hand")
    win_tile = table.players[seat].concealed[-1]
    record["win"] = {"player": seat, "tile": win_tile, "by": "self_draw", "flags": []}
    try:
        region.check(parse_table(record, region.info))
    except RecordError as error:
        return error
    return None
