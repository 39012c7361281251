"""Consistency: is the hand as read a legal win of the region, and if not, what is the likeliest fix?

A reading is checked against the region's tile set (what stands in a hand, what is laid aside), at most
four of a kind (one of each flower), the hand size and the winning shape (`scoring.is_winning_hand`). When
it fails, `suggest` searches corrections: one or two doubtful tiles replaced by their alternatives, or one
likely false tile dropped, or, for a winning hand one tile short, each tile that completes it added. A correction's weight is the product, over the tiles it changes, of the
alternative's probability over the read tile's (a drop: the chance the detection is no tile over its read
probability); the legal corrections' weights are normalised to probabilities. Nothing is applied: the
suggestions go to the player.

`needs` lists what a photo cannot show (spec §3.7, §4.5, §5.6, §6.6) under stable keys, table-record paths
the web page can use.
"""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from itertools import combinations, islice
from typing import Any

import scoring
from scoring.tiles import PLAYING_TILES, TILE_INDEX, format_tiles, is_yaojiu, parse_tiles
from vision.detections import Detections
from vision.grouping import HandReading, Layout, Need, Suggestion, read_layout, tiles_as_read

NO_WINNING_TILE = "no tile is set apart as the winning tile"
"""The problem of a winner's hand with no tile set apart (answered by naming the winning tile)."""
WON_ELSEWHERE = "a tile is set apart and the hand holds a winner's tiles: did this player win?"
"""The problem of a hand read as a non-winner's that shows a winning hand (`won_elsewhere`)."""
MANY_COMPLETING = 6
"""A hand a tile short that more kinds than this would complete says how many, not which."""
DOUBTFUL = 8
"""Single replacements (the likeliest first) that are paired up when two tiles may be wrong."""
MIN_WEIGHT = 0.02
"""Corrections less likely than this, relative to the reading as it is, are not tried."""
SUGGESTIONS = 3
"""At most this many suggestions are offered, the likeliest first."""
MAX_CORRECTIONS = 100
"""At most this many corrections are tried, the likeliest first (each reads the whole photo again: a photo
of hundreds of doubtful tiles would otherwise take minutes)."""


def check_hand(reading: HandReading, *, indicator: str | None = None, options: dict[str, Any] | None = None,
               seat: int = 0, first: bool = False) -> tuple[str, ...]:
    """Why the hand as read is no legal win of its region (empty when it is one); one line each. With
    ``first``, only whether there is a problem matters: the first one found is returned, briefly."""
    if first and reading.problems:
        return reading.problems[:1]
    region = reading.region
    info = scoring.REGIONS[region]
    aside = scoring.laid_aside(region, indicator, options)
    problems = list(reading.problems)
    held = parse_tiles(reading.concealed) + [t for m in reading.melds for t in parse_tiles(m["tiles"])]
    misplaced = sorted({t for t in held if t in aside}, key=TILE_INDEX.__getitem__)
    it = "it" if len(misplaced) == 1 else "them"
    if misplaced and region == "baicheng":  # no flowers to move it to: the scorer refuses any
        problems.append(f"{' '.join(misplaced)} in the hand: {info.name} is played without flowers, take {it} out")
    elif misplaced:
        problems.append(f"{' '.join(misplaced)} in the hand: {info.name} lays {it} aside")
    flowers = parse_tiles(reading.flowers)
    if flowers and region == "baicheng":
        problems.append(f"{info.name} is played without flowers: {' '.join(flowers)}")
    stray = [t for t in flowers if t not in aside]
    if stray and region != "baicheng":
        problems.append(f"{' '.join(stray)} among the flowers: {info.name} does not lay {'it' if len(stray) == 1 else 'them'} aside")
    counts = Counter(held + flowers + ([indicator] if indicator else []))
    for tile, n in sorted(counts.items(), key=lambda kv: TILE_INDEX[kv[0]]):
        if n > (1 if tile.endswith("f") else 4):
            problems.append(f"{n} × {tile}: a mahjong set has only {'one' if tile.endswith('f') else 'four'}")
    if reading.win_tile is None and reading.winner:
        problems.append(NO_WINNING_TILE)
    size = reading.size
    want = reading.full_size
    if first and (problems or size != want):
        return tuple(problems[:1]) or ("wrong hand size",)
    if size != want:
        problems.append(_size_problem(reading, size, want, indicator, options, seat))
    if not problems and reading.winner and not _wins(reading, indicator, options, seat):
        lacks = _lacks(reading, indicator, options, seat)
        because = f": complete, but no {lacks}" if lacks else ""
        problems.append(f"these tiles are no winning {info.name} hand{because}")
    return tuple(problems)


def _size_problem(reading: HandReading, size: int, want: int, indicator: str | None,
                  options: dict[str, Any] | None, seat: int) -> str:
    """The hand-size problem, naming the tiles that would complete a hand one tile short (a non-winner's hand
    with a winner's tiles, one set apart, is asked whether it won)."""
    if won_elsewhere(reading):
        return f"{WON_ELSEWHERE} ({size} tiles, a meld counting three)"
    kind = "a winning" if reading.winner else "a non-winner's"
    text = (f"the hand holds {size} tile{'' if size == 1 else 's'} (a meld counts three), where {kind} "
            f"{scoring.REGIONS[reading.region].name} hand holds {want}")
    completing = _completing(reading, indicator, options, seat) if size == want - 1 else []
    if len(completing) > MANY_COMPLETING:
        text += f": a tile may be missing (any of {len(completing)} kinds would complete it)"
    elif completing:
        text += f": a tile may be missing ({' or '.join(completing)} would complete it)"
    return text


def won_elsewhere(reading: HandReading) -> bool:
    """Whether a hand read as a non-winner's holds a winner's tiles, one of them set apart: the photo shows
    a winning hand (the winner chosen on the page may be wrong)."""
    return reading.apart and reading.size == reading.full_size + 1


def _completing(reading: HandReading, indicator: str | None, options: dict[str, Any] | None,
                seat: int) -> list[str]:
    """The tiles that, added to the concealed part of a winning hand one tile short, make it a winning hand."""
    if not reading.winner or not reading.win_tile:
        return []
    return [t for t in PLAYING_TILES if _wins(replace(reading, concealed=format_tiles(
        parse_tiles(reading.concealed) + [t])), indicator, options, seat)]


MAX_BLANK_FILLS = 64
"""Kinds tried at most for the kongs shown all face down (two such kongs could be any of hundreds of pairs of
kinds, three of thousands of triples): terminals and honours first, each rank in every suit in turn, as a
region's conditions ask for them (幺九, 三门全)."""


def _fill_order(tile: str) -> tuple[bool, str, str]:
    return not is_yaojiu(tile), tile[0], tile[1]


def _as_won(reading: HandReading) -> tuple[list[str], list[dict[str, Any]]] | None:
    """The reading's concealed tiles with its winning tile last, as `scoring.is_winning_hand` takes them, and a copy
    of its melds; None without a winning tile among the concealed ones."""
    concealed = parse_tiles(reading.concealed)
    if reading.win_tile is None or reading.win_tile not in concealed:
        return None
    concealed.remove(reading.win_tile)
    return concealed + [reading.win_tile], [dict(m) for m in reading.melds]


def _lacks(reading: HandReading, indicator: str | None, options: dict[str, Any] | None, seat: int) -> str:
    """The conditions of its region a complete hand lacks (Baicheng's 三门全, 幺九, 有刻: `scoring.lacking_conditions`);
    "" for none, or a kong shown all face down (its kind unknown)."""
    won = _as_won(reading)
    if won is None or any(not m["tiles"] for m in won[1]):
        return ""
    return scoring.lacking_conditions(reading.region, *won, indicator, options, reading.flowers, seat=seat)


def _wins(reading: HandReading, indicator: str | None, options: dict[str, Any] | None, seat: int) -> bool:
    """Whether the reading is a winning hand; a kong shown all face down may be any kind that fits (of the
    MAX_BLANK_FILLS kinds, or sets of kinds, tried first)."""
    won = _as_won(reading)
    if won is None:
        return False
    concealed, melds = won
    blank = [i for i, m in enumerate(melds) if not m["tiles"]]
    used = Counter(concealed + [t for m in melds for t in parse_tiles(m["tiles"])])
    choices = sorted((t for t in PLAYING_TILES if used[t] == 0), key=_fill_order)
    for fill in islice(combinations(choices, len(blank)), MAX_BLANK_FILLS):
        for i, tile in zip(blank, fill):
            melds[i]["tiles"] = format_tiles([tile] * 4)
        try:
            if scoring.is_winning_hand(reading.region, concealed, melds, indicator, options,
                                       reading.flowers, seat=seat):
                return True
        except scoring.RecordError:
            return False
    return False


def suggest(detections: Detections, layout: Layout, reading: HandReading, *, seat: int = 0,
            indicator: str | None = None, options: dict[str, Any] | None = None,
            corrections: int = MAX_CORRECTIONS) -> tuple[Suggestion, ...]:
    """The likeliest corrections that make an illegal reading legal, with their probabilities.

    A winning hand one tile short is completed by each tile that makes it a winning hand (`_missing`). Tried,
    when the hand holds as many tiles as a winning hand or one more: each alternative of each tile of
    the hand and of each tile beside it that fits no group (``loose``: a flower misread), pairs of the
    DOUBTFUL likeliest of those, and, when it holds one too many or a tile fits no group, dropping each
    tile of the hand; corrections weighing less than MIN_WEIGHT of the reading as it is are not
    tried, nor any beyond the ``corrections`` likeliest. Corrections that make the same hand (dropping any
    one of three alike tiles) are one suggestion, the likeliest of them with their probabilities summed;
    the likeliest suggestion comes first.
    """
    size = reading.size
    want = reading.full_size
    if won_elsewhere(reading):
        return ()
    if size == want - 1:
        return _missing(reading, seat=seat, indicator=indicator, options=options)
    if size not in (want, want + 1):
        return ()
    held = list(reading.held)
    tiles = detections.tiles
    singles: list[tuple[float, int, str]] = []
    for i in held + list(reading.loose):
        read_p = max(float(detections.confidence[i]), 1e-6)
        for code, p in detections.alternatives[i]:
            if code != tiles[i] and p / read_p >= MIN_WEIGHT:
                singles.append((p / read_p, i, code))
    singles.sort(reverse=True)
    trials: list[tuple[float, tuple[tuple[int, str | None], ...]]] = [(w, ((i, c),)) for w, i, c in singles]
    for (w1, i1, c1), (w2, i2, c2) in combinations(singles[:DOUBTFUL], 2):
        if i1 != i2 and w1 * w2 >= MIN_WEIGHT:
            trials.append((w1 * w2, ((i1, c1), (i2, c2))))
    if size > want or reading.loose:
        for i in held:
            read_p = max(float(detections.confidence[i]), 1e-6)
            real = min(1.0, read_p + sum(p for _, p in detections.alternatives[i]))
            if (1 - real) / read_p >= MIN_WEIGHT:
                trials.append(((1 - real) / read_p, ((i, None),)))
    found: list[tuple[float, tuple[tuple[int, str | None], ...], HandReading]] = []
    as_read = tiles_as_read(layout, detections, scoring.laid_aside(reading.region, indicator, options))
    for weight, changes in sorted(trials, key=lambda trial: -trial[0])[:corrections]:
        fixed = _apply(as_read, layout, changes)
        trial = read_layout(fixed[0], fixed[1], detections.sideways, reading.region, seat=seat,
                            indicator=indicator, options=options, winner=reading.winner)
        if not check_hand(trial, indicator=indicator, options=options, seat=seat, first=True):
            found.append((weight, changes, trial))
    total = sum(w for w, _, _ in found)
    found.sort(key=lambda item: -item[0])
    alike: dict[str, list[Any]] = {}
    for weight, changes, trial in found:
        key = json.dumps([trial.player, trial.win_tile], sort_keys=True)
        if key in alike:
            alike[key][0] += weight
        else:
            alike[key] = [weight, changes, trial]
    likeliest = sorted(alike.values(), key=lambda merged: -merged[0])[:SUGGESTIONS]  # once summed, again
    return tuple(Suggestion(changes, weight / total, _describe(changes, tiles), trial.player, trial.win_tile)
                 for weight, changes, trial in likeliest)


def _missing(reading: HandReading, *, seat: int, indicator: str | None,
             options: dict[str, Any] | None) -> tuple[Suggestion, ...]:
    """For a winning hand one tile short (a tile the photo did not show): each tile that completes it, added
    to the concealed part, as alike in probability; none when more than MANY_COMPLETING kinds do (a guess
    among them helps no one: the player adds the tile)."""
    completing = _completing(reading, indicator, options, seat)
    if len(completing) > MANY_COMPLETING:
        return ()
    return tuple(
        Suggestion((), 1 / len(completing), f"a tile is missing: {tile}",
                   {**reading.player, "concealed": format_tiles(parse_tiles(reading.concealed) + [tile])},
                   reading.win_tile, (tile,))
        for tile in completing[:SUGGESTIONS])


def _apply(as_read: tuple[str, ...], layout: Layout,
           changes: tuple[tuple[int, str | None], ...]) -> tuple[Layout, tuple[str, ...]]:
    """The layout and the tiles as read (`tiles_as_read`) with the changes made (a dropped detection leaves its
    group)."""
    tiles = list(as_read)
    dropped = set()
    for i, code in changes:
        if code is None:
            dropped.add(i)
        else:
            tiles[i] = code
    if not dropped:
        return layout, tuple(tiles)
    rows = tuple(
        tuple(g2 for g2 in (tuple(i for i in g if i not in dropped) for g in row) if g2) for row in layout.rows)
    stacked = {t: b for t, b in layout.stacked.items() if t not in dropped and b not in dropped}
    return replace(layout, rows=tuple(r for r in rows if r), stacked=stacked), tuple(tiles)


def _describe(changes: tuple[tuple[int, str | None], ...], tiles: tuple[str, ...]) -> str:
    return ", ".join(f"tile {i} ({tiles[i]}) is {code}" if code else f"tile {i} ({tiles[i]}) is no tile"
                     for i, code in changes)


def needs(reading: HandReading, *, indicator: str | None = None) -> tuple[Need, ...]:
    """What the photo cannot show for scoring this hand, required facts first."""
    region = reading.region
    info = scoring.REGIONS[region]
    out = [
        Need("win.by", "How was the hand won: self-drawn, on a discard, or by robbing a kong?",
             choices=("self_draw", "discard", "rob_kong")),
        Need("win.from", "Whose discard (or robbed kong) was it? Not needed for a self-drawn win."),
    ] if reading.winner else []
    if reading.winner and reading.win_tile is None:
        out.append(Need("win.tile", "Which tile won the hand? None is set apart at the end of the row."))
    elif reading.win_guessed:
        out.append(Need("win.tile", f"No tile is set apart: did {reading.win_tile}, the right end of the row, win the "
                                    "hand?", required=False))
    for k, meld in enumerate(reading.melds):
        if meld.get("concealed") and not meld["tiles"]:
            out.append(Need(f"melds.{k}.tiles", f"Meld {k + 1} is a kong shown face down: which tile is it?"))
        elif meld["type"] == "kong" and "from" not in meld and not meld.get("concealed"):
            out.append(Need(f"melds.{k}.concealed",
                            f"Meld {k + 1} ({meld['tiles']}) has no tile turned sideways: is it a concealed kong?",
                            required=False, choices=(True, False)))
        elif meld["type"] in ("chow", "pung", "kong") and "from" not in meld and not meld.get("concealed"):
            out.append(Need(f"melds.{k}.from", f"Meld {k + 1} ({meld['tiles']}) has no tile turned sideways: "
                                               "whose discard was claimed?", required=False))
        if info.bao_pungs and meld["type"] == "pung":
            out.append(Need(f"melds.{k}.bao", f"Is meld {k + 1} ({meld['tiles']}) a pung of the {info.indicator} "
                                              "(叉宝)?", required=False, choices=(True, False)))
    if info.indicator and indicator is None:
        out.append(Need("indicator", f"Which tile is the indicator ({info.indicator})?",
                        required="indicator" in info.asks))
    if "dealer" in info.asks:
        out.append(Need("dealer", "Which seat is the dealer (庄)?"))
    if region == "fuzhou":
        out.append(Need("dealer_streak", "How many hands in a row has the dealer kept the deal (连庄)?",
                        required=False))
    if info.flags and reading.winner:
        out.append(Need("win.flags", "Anything special about the win?", required=False, choices=info.flags))
    if info.context:
        out.append(Need("context.bao", "Does the discarder pay for all (包三家)?", required=False))
    if info.scores_non_winners or info.bao_pungs:
        out.append(Need("players", "The other players' hands (and melds) for a full settlement.", required=False))
    if info.options:
        out.append(Need("options", "Table stakes and rule variants, if not the defaults.", required=False,
                        choices=tuple(o.name for o in info.options)))
    out.sort(key=lambda need: not need.required)
    return tuple(out)

