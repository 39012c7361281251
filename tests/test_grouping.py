"""Grouping and consistency on hand-made detection lists: tiles laid out as rows of groups, then turned,
put in perspective, or given doubtful reads."""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from vision.detections import Detections
from vision.grouping import group_hand

W, H = 30.0, 40.0
"""An upright face is 30 × 40 px before perspective."""
TOUCH, GAP = 2.0, 0.8 * W
"""Spacing of tiles inside a group, and between groups."""


def laid(*rows: tuple[float, list[str]], turn: float = 0.0, perspective: float = 0.0,
         reads: dict[int, tuple[float, tuple[tuple[str, float], ...]]] | None = None) -> Detections:
    """Detections of rows of groups, as a camera sees them.

    Each row is (y in tile heights, groups); y grows towards the player. A group is a string of tokens: a
    tile code, ``#`` a back, ``*`` after a code a sideways (claimed) tile, ``^`` before a code a tile stacked
    on the previous one. ``turn`` turns the photo (degrees clockwise), ``perspective`` shrinks tiles towards
    the right of the row (0.002: a tile 400 px further right is about half as big). ``reads`` gives a tile
    (by detection index) its confidence and alternatives.
    """
    faces: list[tuple[np.ndarray, str, bool]] = []
    for y_rows, groups in rows:
        x = 0.0
        y = y_rows * 1.6 * H
        for group in groups:
            for token in group.split():
                code = "back" if token == "#" else token.strip("*^")
                sideways = token.endswith("*")
                w, h = (H, W) if sideways else (W, H)
                if token.startswith("^"):
                    last = faces[-1][0]
                    left, top = last[0, 0], last[0, 1] - 0.5 * h
                else:
                    left, top = x, y + (H - h)
                    x += w + TOUCH
                corners = np.array([[left, top], [left + w, top], [left + w, top + h], [left, top + h]])
                faces.append((corners, code, sideways))
            x += GAP - TOUCH
    t = math.radians(turn)
    rotate = np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]])
    boxes, angles = [], []
    for corners, code, sideways in faces:
        depth = 1 + perspective * corners[:, :1]
        seen = (corners / depth) @ rotate.T
        boxes.append([*seen.min(0), *seen.max(0)])
        angles.append((turn + (-90 if sideways else 0)) % 360)
    reads = reads or {}
    return Detections(
        xyxy=np.array(boxes) + 1000,
        tiles=tuple(code for _, code, _ in faces),
        confidence=np.array([reads.get(i, (0.99, ()))[0] for i in range(len(faces))]),
        alternatives=tuple(reads.get(i, (0.99, ()))[1] for i in range(len(faces))),
        sideways=np.array([s for _, _, s in faces]),
        angle=np.array(angles),
    )


def row(*groups: str) -> list[str]:
    return list(groups)


DAISHAN = (0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s 5z", "5z"))
"""A concealed row of ten and the winning 5z set apart: with one meld, a Daishan hand of 13 + 1."""
PUNG = (1, row("9p* 9p 9p"))


def test_concealed_row_winning_tile_and_meld() -> None:
    hand = group_hand(laid(DAISHAN, PUNG), "daishan")
    assert hand.player == {"concealed": "123m456p789s55z", "melds": [{"type": "pung", "tiles": "999p", "from": 3}],
                           "flowers": ""}
    assert hand.win_tile == "5z"
    assert hand.problems == ()
    assert [g.kind for g in hand.groups] == ["concealed", "winning", "meld"]
    assert hand.groups[2].tiles == (11, 12, 13)


@pytest.mark.parametrize("turn", [0, 25, 90, 180, 225, 270])
def test_any_rotation_up_to_upside_down(turn: float) -> None:
    hand = group_hand(laid(DAISHAN, PUNG, turn=turn), "daishan")
    assert (hand.concealed, hand.win_tile, hand.melds) == ("123m456p789s55z", "5z", ({"type": "pung", "tiles": "999p", "from": 3},))


@pytest.mark.parametrize("perspective", [0.0008, 0.0016])
def test_perspective_tiles_shrink_along_the_row(perspective: float) -> None:
    hand = group_hand(laid(DAISHAN, PUNG, perspective=perspective, turn=10), "daishan")
    assert (hand.concealed, hand.win_tile, len(hand.melds)) == ("123m456p789s55z", "5z", 1)


@pytest.mark.parametrize("meld, seat, source", [
    ("9p* 9p 9p", 0, 3), ("9p 9p* 9p", 0, 2), ("9p 9p 9p*", 0, 1), ("9p* 9p 9p", 2, 1), ("9p 9p 9p*", 3, 0)])
def test_sideways_position_names_the_source(meld: str, seat: int, source: int) -> None:
    hand = group_hand(laid(DAISHAN, (1, row(meld))), "daishan", seat=seat)
    assert hand.melds[0]["from"] == source


def test_a_concealed_pair_beside_its_melds_is_the_hand_not_a_longer_row_of_someone_elses() -> None:
    # every other tile melded, the two concealed tiles laid touching (none set apart), six tiles of another
    # player's further off: before, only the largest plain group was tried as the concealed part
    hand = laid((-4, row("4z 1p 9s 5s 6m 7z")), (0, row("1s 1s")),
                (1, row("8p* 8p 8p 8p", "2m* 3m 4m", "2s* 3s 4s", "2s* 3s 4s")))
    read = group_hand(hand, "daishan")
    assert (read.concealed, len(read.melds), read.win_tile, read.away, read.problems) == (
        "11s", 4, "1s", (0, 1, 2, 3, 4, 5), ())


@pytest.mark.parametrize("meld", ["4s* 3s 5s", "3s 4s* 5s", "3s 4s 5s*"])
def test_chow_is_claimed_from_the_left_whichever_tile_lies_sideways(meld: str) -> None:
    hand = group_hand(laid((0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s 1z", "1z")), (1, row(meld))), "daishan", seat=1)
    assert hand.melds == ({"type": "chow", "tiles": "345s", "from": 0},)


def test_added_kong_has_its_fourth_tile_stacked() -> None:
    hand = group_hand(laid(DAISHAN, (1, row("5m* ^5m 5m 5m"))), "daishan")
    assert hand.melds == ({"type": "kong", "tiles": "5555m", "added": True, "from": 3},)
    assert hand.groups[2].tiles == (11, 13, 14, 12)


@pytest.mark.parametrize("meld, odd", [("5m* ^4m 5m 5m", 12), ("5m* ^5m 9m 5m", 13), ("5m* ^5m 5m 4m", 14)])
def test_added_kong_read_doubtfully_takes_the_face_of_the_other_three(meld: str, odd: int) -> None:
    doubtful = {odd: (0.5, (("5m", 0.3), ("6m", 0.1), ("3m", 0.05)))}
    hand = group_hand(laid(DAISHAN, (1, row(meld)), reads=doubtful), "daishan")
    assert hand.melds == ({"type": "kong", "tiles": "5555m", "added": True, "from": 3},)
    sure = {odd: (0.9, (("6m", 0.05), ("3m", 0.03), ("7m", 0.01)))}
    assert "5555m" not in [m["tiles"] for m in group_hand(laid(DAISHAN, (1, row(meld)), reads=sure), "daishan").melds]


def test_added_kong_tile_under_the_stacked_one_takes_the_kong_face_however_sure() -> None:
    under = {11: (0.9, (("6m", 0.05), ("3m", 0.03), ("7m", 0.01)))}
    hand = group_hand(laid(DAISHAN, (1, row("9m* ^5m 5m 5m")), reads=under), "daishan")
    assert hand.melds == ({"type": "kong", "tiles": "5555m", "added": True, "from": 3},)


def test_added_kongs_upright_fourth_tile_lies_on_the_middle_tile_so_that_is_not_the_claimed_one() -> None:
    # the tile under the fourth shows a spoiled box and flag; the upright fourth says it is not the claimed one
    spoiled = _with(laid(DAISHAN, (1, row("5m 5m* ^5m 5m*"))), sideways={12: True})
    assert group_hand(spoiled, "daishan").melds == ({"type": "kong", "tiles": "5555m", "added": True, "from": 1},)


@pytest.mark.parametrize("flags, source", [({11: True, 12: False}, 2), ({12: False, 14: True}, 2), ({}, 2)])
def test_added_kongs_sideways_fourth_tile_marks_the_tile_under_it_as_claimed(flags: dict, source: int) -> None:
    hand = _with(laid(DAISHAN, (1, row("5m 5m* ^5m* 5m"))), sideways=flags)
    assert group_hand(hand, "daishan").melds == ({"type": "kong", "tiles": "5555m", "added": True, "from": source},)


def test_added_kong_split_apart_by_the_box_of_the_tile_under_the_fourth_is_one_meld() -> None:
    # the tile under the fourth shows half its face: misread, and its box stands off its neighbours
    hand = laid(DAISHAN, (1, row("5m 5m* ^5m* 5m")), reads={12: (0.3, (("5m", 0.2),))})
    misread = replace(hand, tiles=hand.tiles[:12] + ("9m",) + hand.tiles[13:])
    split = _with(misread, shift=(range(14, 15), 0.4 * W))
    assert group_hand(split, "daishan").melds == ({"type": "kong", "tiles": "5555m", "added": True, "from": 2},)


def _raised(detections: Detections, tile: int, sizes: float) -> Detections:
    """The detections with one tile moved ``sizes`` tile sizes up the photo (away from the player)."""
    xyxy = detections.xyxy.copy()
    xyxy[tile, [1, 3]] -= sizes * math.sqrt(W * H)
    return replace(detections, xyxy=xyxy)


@pytest.mark.parametrize("raised, melds", [
    (0.35, ({"type": "kong", "tiles": "9999p", "added": True, "from": 3},)),
    (0.1, ({"type": "pung", "tiles": "999p", "from": 3},)),
])
def test_claimed_tile_raised_off_its_line_lies_on_a_hidden_fourth(raised: float, melds: tuple) -> None:
    hand = group_hand(_raised(laid(DAISHAN, PUNG), 11, raised), "daishan")
    assert (hand.concealed, hand.win_tile, hand.melds, hand.problems) == ("123m456p789s55z", "5z", melds, ())


@pytest.mark.parametrize("grow_top, grow_bottom, melds", [
    (15.0, 0.0, ({"type": "kong", "tiles": "9999p", "added": True, "from": 3},)),  # the fourth half on it
    (7.5, 7.5, ({"type": "pung", "tiles": "999p", "from": 3},)),  # a bigger box, not behind the line
    (9.0, -9.0, ({"type": "pung", "tiles": "999p", "from": 3},)),  # behind the line, one tile deep
])
def test_claimed_tile_and_the_fourth_on_it_seen_as_one_box_are_an_added_kong(
        grow_top: float, grow_bottom: float, melds: tuple) -> None:
    """One box over the claimed tile and the fourth laid on it reaches further back than a tile alone: it
    is deeper than its neighbours and lies behind their line, if by less than RAISED. (Growing the box
    by ``grow_top`` px away from the player and ``grow_bottom`` towards.)"""
    detections = laid(DAISHAN, PUNG)
    xyxy = detections.xyxy.copy()
    xyxy[11, 1] -= grow_top
    xyxy[11, 3] += grow_bottom
    hand = group_hand(replace(detections, xyxy=xyxy), "daishan")
    assert (hand.melds, hand.problems) == (melds, ())


@pytest.mark.parametrize("meld, source", [("9p* 9p 9p", 3), ("9p 9p 9p*", 1)])
def test_claimed_tile_at_the_end_of_a_slanting_pung_is_in_line(meld: str, source: int) -> None:
    slanting = laid(DAISHAN, (1, row(meld)))
    for k, tile in enumerate((11, 12, 13)):
        slanting = _raised(slanting, tile, 0.25 * k)
    assert group_hand(slanting, "daishan").melds == ({"type": "pung", "tiles": "999p", "from": source},)


def test_false_back_beside_a_pung_makes_no_concealed_kong() -> None:
    clean = laid(DAISHAN, PUNG)
    x1, y1, x2, y2 = clean.xyxy[13]
    hand = group_hand(_with(clean, box=[x1 + 5, y2 + 2, x2 + 5, y2 + 2 + H], code="back", confidence=0.4), "daishan")
    assert (hand.concealed, hand.win_tile, hand.melds, hand.problems) == (*CLEAN, ())
    touching = group_hand(laid(DAISHAN, (1, row("9p* 9p 9p #"))), "daishan")
    assert (touching.melds, touching.away) == (CLEAN[2], (14,))
    three_down = group_hand(laid(DAISHAN, (1, row("# # # 9p"))), "daishan")
    assert any("two or four of them face down" in problem for problem in three_down.problems)


@pytest.mark.parametrize("meld, tiles", [("# 7s 7s #", "7777s"), ("# # # #", "")])
def test_concealed_kong_two_or_four_backs(meld: str, tiles: str) -> None:
    hand = group_hand(laid(DAISHAN, (1, row(meld))), "daishan")
    assert hand.melds == ({"type": "kong", "tiles": tiles, "concealed": True},)
    assert ("melds.0.tiles" in [n.key for n in hand.needs]) == (tiles == "")


def test_gaps_split_groups_and_touching_tiles_do_not() -> None:
    two_melds = group_hand(laid(DAISHAN, (1, row("9p* 9p 9p", "2s* 2s 2s"))), "daishan")
    assert [m["tiles"] for m in two_melds.melds] == ["999p", "222s"]
    touching = group_hand(laid(DAISHAN, (1, row("9p* 9p 9p 2s* 2s 2s"))), "daishan")
    assert touching.melds == () and touching.away == (11, 12, 13, 14, 15, 16)


def test_flowers_row_and_region_flowers() -> None:
    wenling = (0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 2z 2z 2z", "1z"))
    hand = group_hand(laid((-1, row("2f 5z 6f")), wenling, (1, row("9p* 9p 9p"))), "wenling")
    assert (hand.flowers, hand.win_tile, hand.problems) == ("5z26f", "1z", ())
    fuzhou = (0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s 1s 2m 2m 2m", "1s"))
    hand = group_hand(laid((-1, row("1z 7z 3f")), fuzhou, (1, row("9p* 9p 9p"))), "fuzhou")
    assert (hand.flowers, hand.problems) == ("17z3f", ())


def test_flower_read_sideways_is_still_a_flower() -> None:
    hand = group_hand(laid((-1, row("2f 3f* 7f 8f")), DAISHAN, PUNG), "daishan")
    assert (hand.flowers, [m["tiles"] for m in hand.melds], hand.problems) == ("2378f", ["999p"], ())


def test_whites_laid_aside_read_sideways_are_still_laid_aside() -> None:
    wenling = (0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 2z 2z 2z", "1z"))
    hand = group_hand(laid((-1, row("5z* 5z 6f")), wenling, PUNG), "wenling")
    assert (hand.flowers, [m["tiles"] for m in hand.melds], hand.problems) == ("55z6f", ["999p"], ())


def test_flower_at_the_end_of_the_row_is_laid_aside() -> None:
    hand = group_hand(laid((0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s 1z", "1z", "3f")), PUNG), "daishan")
    assert (hand.concealed, hand.win_tile, hand.flowers) == ("123m456p789s11z", "1z", "3f")


def test_flowers_laid_inside_the_row_are_laid_aside() -> None:
    hand = group_hand(laid((0, row("1m 2m 3m 3f 4p 5p 6p 6f 7s 8s 9s 1z", "1z")), PUNG), "daishan")
    assert (hand.concealed, hand.win_tile, hand.flowers, hand.problems) == ("123m456p789s11z", "1z", "36f", ())


def test_flowers_inside_the_row_of_a_hand_with_a_misread_tile_are_laid_aside_and_the_tile_mended() -> None:
    misread = {5: (0.5, (("5p", 0.45),))}
    hand = group_hand(laid((0, row("1m 2m 3m 3f 4p 6p 6p 6f 7s 8s 9s 1z", "1z")), PUNG, reads=misread), "daishan")
    assert (hand.concealed, hand.flowers, hand.problems) == ("123m466p789s11z", "36f",
                                                             ("these tiles are no winning Daishan hand",))
    assert (hand.suggestions[0].changes, hand.suggestions[0].hand["concealed"]) == (((5, "5p"),), "123m456p789s11z")


def test_tile_misread_as_a_flower_inside_the_row_is_mended_not_laid_aside() -> None:
    misread = {4: (0.5, (("5p", 0.45),))}
    hand = group_hand(laid((0, row("1m 2m 3m 4p 3f 6p 7s 8s 9s 1z", "1z")), PUNG, reads=misread), "daishan")
    assert (hand.concealed, hand.flowers) == ("123m46p789s11z3f", "")
    assert hand.problems == ("3f in the hand: Daishan lays it aside",)
    assert (hand.suggestions[0].changes, hand.suggestions[0].hand["concealed"]) == (((4, "5p"),), "123m456p789s11z")
    baicheng = group_hand(laid((0, row("1m 2m 3m 4p 3f 6p 7s 8s 9s 1z", "1z")), PUNG, reads=misread), "baicheng")
    assert baicheng.problems[0] == "3f in the hand: Baicheng is played without flowers, take it out"  # none to move to


def test_winning_tile_not_set_apart_is_the_right_end_to_confirm() -> None:
    hand = group_hand(laid((0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s 5z 5z")), PUNG), "daishan")
    assert (hand.concealed, hand.win_tile, hand.win_guessed, hand.problems) == ("123m456p789s55z", "5z", True, ())
    assert [(n.key, n.required) for n in hand.needs if n.key == "win.tile"] == [("win.tile", False)]


def test_no_winning_tile_when_the_row_holds_no_extra_tile() -> None:
    hand = group_hand(laid((0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s 5z")), PUNG), "daishan")
    assert hand.win_tile is None
    assert "no tile is set apart as the winning tile" in hand.problems
    assert [(n.key, n.required) for n in hand.needs if n.key == "win.tile"] == [("win.tile", True)]


def test_missing_tile_is_reported_with_what_would_complete_the_hand() -> None:
    hand = group_hand(laid((0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s", "5z")), PUNG), "daishan")
    assert hand.concealed == "123m456p789s5z"
    assert any("a tile may be missing (5z would complete it)" in p for p in hand.problems)
    assert [(s.added, s.changes, s.hand["concealed"], s.probability) for s in hand.suggestions] == [
        (("5z",), (), "123m456p789s55z", 1.0)]  # one tap adds it


def test_extra_false_tile_is_suggested_for_dropping_not_dropped() -> None:
    shaky = {10: (0.3, (("6p", 0.02),))}
    hand = group_hand(laid((0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s 5z 7p", "5z")), PUNG, reads=shaky), "daishan")
    assert hand.concealed == "123m4567p789s55z"
    best = hand.suggestions[0]
    assert best.changes == ((10, None),)
    assert best.hand["concealed"] == "123m456p789s55z" and best.probability > 0.9


def test_changing_either_of_two_alike_tiles_to_the_same_face_is_one_suggestion() -> None:
    shaky = {6: (0.5, (("8s", 0.3),)), 7: (0.5, (("8s", 0.2),))}
    hand = group_hand(laid((0, row("1m 2m 3m 4p 5p 6p 7s 7s 9s 5z", "5z")), PUNG, reads=shaky), "daishan")
    assert [(s.changes, s.hand["concealed"]) for s in hand.suggestions] == [(((6, "8s"),), "123m456p789s55z")]
    assert hand.suggestions[0].probability == 1.0  # 0.6 and 0.4 of the two ways, summed


def test_no_more_than_max_corrections_are_tried(monkeypatch: pytest.MonkeyPatch) -> None:
    import vision.consistency as consistency

    reads_made = []
    read_layout = consistency.read_layout
    monkeypatch.setattr(consistency, "read_layout", lambda *a, **k: reads_made.append(1) or read_layout(*a, **k))
    rows = [(0, row("1s 2m 3m 4p 5p 6p 7s 8s 9s 5z", "5z")), PUNG, (2.2, row("1f 2f 3f 4f 5f 6f 7f 8f")),
            (3.4, row("1f 2f 3f 4f 5f 6f 7f 8f"))]  # 30 doubtful tiles, 3 alternatives each: 118 corrections
    n = len(laid(*rows))
    doubtful = {i: (0.05, tuple((code, 0.04) for code in ("1p", "2p", "3p"))) for i in range(n)}
    hand = group_hand(laid(*rows, reads=doubtful), "daishan")
    assert hand.problems and not hand.suggestions
    # the reading taken tries MAX_CORRECTIONS; the readings tried to make it legal share as many more
    assert consistency.MAX_CORRECTIONS < len(reads_made) <= 2 * consistency.MAX_CORRECTIONS


def test_doubtful_tile_suggests_its_alternative_with_probability() -> None:
    doubtful = {4: (0.55, (("5p", 0.4), ("5s", 0.03)))}
    hand = group_hand(laid((0, row("1m 2m 3m 4p 6p 6p 7s 8s 9s 5z", "5z")), PUNG, reads=doubtful), "daishan")
    assert hand.concealed == "123m466p789s55z"
    assert hand.problems == ("these tiles are no winning Daishan hand",)
    best = hand.suggestions[0]
    assert best.changes == ((4, "5p"),) and best.win_tile == "5z"
    assert 0.5 < best.probability <= 1


def test_a_complete_hand_that_lacks_a_condition_of_its_rules_says_which() -> None:
    # Baicheng asks for all three suits (三门全): 123m 456m 789p 111p 55m is complete, but has no bamboo
    hand = group_hand(laid((0, row("1m 2m 3m 4m 5m 6m 7p 8p 9p 1p 1p 1p 5m", "5m"))), "baicheng")
    assert hand.problems == ("these tiles are no winning Baicheng hand: complete, but no 三门全 (all three suits: "
                             "萬, 筒 and 條)",)


def test_misread_meld_tile_is_fixed_by_its_alternative() -> None:
    misread = {13: (0.5, (("9p", 0.45),))}
    hand = group_hand(laid(DAISHAN, (1, row("9p* 9p 8p")), reads=misread), "daishan")
    assert hand.melds == ({"type": "pung", "tiles": "899p", "from": 3},)
    assert "meld 1: 9p 9p 8p is no pung" in hand.problems
    best = hand.suggestions[0]
    assert best.changes == ((13, "9p"),)
    assert best.hand["melds"] == [{"type": "pung", "tiles": "999p", "from": 3}]


def test_far_tiles_are_left_away() -> None:
    wall = (-7, row("# # # # # # # # # #"))
    hand = group_hand(laid(wall, DAISHAN, PUNG), "daishan")
    assert hand.away == tuple(range(10))
    assert (hand.concealed, len(hand.melds), hand.problems) == ("123m456p789s55z", 1, ())


@pytest.mark.parametrize("rows, region, problem", [
    ((DAISHAN, (1, row("5z* 5z 5z"))), "daishan", "5 × 5z: a mahjong set has only four"),
    ((DAISHAN, PUNG, (-1, row("1f"))), "baicheng", "Baicheng is played without flowers: 1f"),
    (((0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 2m 2m 2m", "1s")), PUNG), "fuzhou",
     "1z in the hand: Fuzhou lays it aside"),
])
def test_region_tile_set_and_four_of_a_kind(rows: tuple, region: str, problem: str) -> None:
    assert problem in group_hand(laid(*rows), region).problems


@pytest.mark.parametrize("region, required", [
    ("daishan", {"win.by", "win.from"}),
    ("wenling", {"win.by", "win.from", "indicator", "dealer"}),
    ("fuzhou", {"win.by", "win.from", "indicator", "dealer"}),
    ("baicheng", {"win.by", "win.from", "dealer"}),
])
def test_needs_what_the_photo_cannot_show(region: str, required: set[str]) -> None:
    hand = group_hand(laid((0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s 1s", "1s")), PUNG), region)
    assert {n.key for n in hand.needs if n.required} == required


WENLING_REST = (0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s 1s 2s 3s 7z"))
"""A Wenling non-winner's 13 concealed tiles: with a pung, the 16 a hand holds between turns."""


def test_non_winners_hand_holds_the_hand_size_and_sets_no_tile_apart() -> None:
    hand = group_hand(laid(WENLING_REST, PUNG), "wenling", winner=False)
    assert (hand.concealed, hand.win_tile, hand.problems) == ("123m456p123789s7z", None, ())
    assert [g.kind for g in hand.groups] == ["concealed", "meld"]
    assert not {"win.by", "win.from", "win.tile"} & {n.key for n in hand.needs}
    # as a winner the same tiles are a tile short and set none apart
    assert "no tile is set apart as the winning tile" in group_hand(laid(WENLING_REST, PUNG), "wenling").problems


def test_non_winners_tile_set_apart_is_one_of_its_tiles_and_a_wrong_size_is_said() -> None:
    apart = group_hand(laid((0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s 1s 2s 3s", "7z")), PUNG), "wenling", winner=False)
    assert (apart.concealed, apart.win_tile, apart.problems) == ("123m456p123789s7z", None, ())
    short = group_hand(laid((0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s 1s 2s 3s")), PUNG), "wenling", winner=False)
    assert short.problems == ("the hand holds 15 tiles (a meld counts three), where a non-winner's Wenling hand "
                            "holds 16",)
    one = group_hand(laid((0, row("5m"))), "wenling", winner=False)
    assert one.problems == ("the hand holds 1 tile (a meld counts three), where a non-winner's Wenling hand "
                            "holds 16",)


def test_non_winners_photo_of_a_winning_hand_asks_whether_the_player_won_and_suggests_no_drop() -> None:
    won = group_hand(laid((0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s 1s 2s 3s 7z", "7z")), PUNG), "wenling", winner=False)
    assert (won.concealed, won.win_tile, won.apart) == ("123m456p123789s77z", None, True)
    assert won.problems == ("a tile is set apart and the hand holds a winner's tiles: did this player win? "
                            "(17 tiles, a meld counting three)",)
    assert won.suggestions == ()
    assert won.to_json()["apart"] is True
    # the same tiles in one row, none apart: a non-winner's hand a tile too many
    crowded = group_hand(laid((0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s 1s 2s 3s 7z 7z")), PUNG), "wenling", winner=False)
    assert not crowded.apart
    assert crowded.problems == ("the hand holds 17 tiles (a meld counts three), where a non-winner's Wenling hand "
                            "holds 16",)


def test_a_hand_a_tile_short_that_many_kinds_complete_says_how_many() -> None:
    # a concealed kong of the seat's wind is Wenling's 腊子, a win with any tiles: any tile completes the hand
    hand = group_hand(laid((0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s 1s 2s 3s", "4s")), (1, row("# 1z 1z #"))), "wenling")
    assert hand.problems == ("the hand holds 16 tiles (a meld counts three), where a winning Wenling hand holds 17: "
                             "a tile may be missing (any of 32 kinds would complete it)",)
    assert hand.suggestions == ()  # no guess among them: the player adds the tile


def test_bad_region_or_seat_is_one_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown rules 'mcr'"):
        group_hand(laid(DAISHAN), "mcr")
    with pytest.raises(ValueError, match="seat must be 0, 1, 2 or 3"):
        group_hand(laid(DAISHAN), "daishan", seat=4)


def test_sliver_of_a_tile_cut_off_by_the_photo_edge_is_left_out() -> None:
    row14 = (0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s 5z 5z 1z 1z 1z"))
    hand = laid(row14)
    right = float(hand.xyxy[:, 2].max())
    sliver = _with(hand, box=[right + TOUCH, 1000, right + TOUCH + 8, 1000 + H], code="5z", confidence=0.6)
    frame = (int(right + TOUCH + 8), 2000)
    read = group_hand(sliver, "daishan", frame=frame)
    assert (read.concealed, read.win_tile) == ("123m456p789s11155z", "1z") and 14 in read.away
    assert group_hand(sliver, "daishan").concealed != "123m456p789s11155z"
    whole = _with(hand, box=[right + GAP, 1000, right + GAP + W, 1000 + H], code="2z", confidence=0.9)
    assert 14 not in group_hand(whole, "daishan", frame=(int(right + GAP + W), 2000)).away


def test_group_that_is_no_meld_and_runs_out_of_the_photo_is_left_out() -> None:
    no_win = (0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s 5z", "6z"))  # a real photo's hand need not be a win
    hand = laid(no_win, PUNG, (2.6, row("7z 7z 8p*")))
    frame = (int(hand.xyxy[:, 2].max()) + 50, int(hand.xyxy[:, 3].max()))
    read = group_hand(hand, "daishan", frame=frame)
    assert (read.melds, read.away) == (CLEAN[2], (14, 15, 16))
    assert group_hand(hand, "daishan").melds[1:] == ({"type": "pung", "tiles": "8p77z", "from": 1},)


def test_no_tiles_reads_an_empty_hand() -> None:
    hand = group_hand(Detections(), "daishan")
    assert (hand.concealed, hand.melds, hand.win_tile) == ("", (), None)
    assert "no tile is set apart as the winning tile" in hand.problems


def _with(detections: Detections, *, box: list[float] | None = None, code: str = "", confidence: float = 0.3,
          sideways: dict[int, bool] | None = None, shift: tuple[range, float] | None = None) -> Detections:
    """The detections with one more box (image pixels, a misread ``code``), flags changed, or tiles moved right."""
    xyxy, flags = detections.xyxy.copy(), detections.sideways.copy()
    for i, flag in (sideways or {}).items():
        flags[i] = flag
    if shift:
        xyxy[list(shift[0])] += [shift[1], 0, shift[1], 0]
    if box is None:
        return replace(detections, xyxy=xyxy, sideways=flags)
    return Detections(
        xyxy=np.vstack([xyxy, box]), tiles=detections.tiles + (code,),
        confidence=np.append(detections.confidence, confidence),
        alternatives=detections.alternatives + ((),), sideways=np.append(flags, False),
        angle=np.append(detections.angle, detections.angle[0]))


CLEAN = ("123m456p789s55z", "5z", ({"type": "pung", "tiles": "999p", "from": 3},))


@pytest.mark.parametrize("concealed", ["3m 3m 1s 1s*", "3m 3m* 1s 1s"])
def test_misread_flag_on_a_short_concealed_row_is_cleared_when_its_meld_reads_as_no_meld(concealed: str) -> None:
    # four concealed tiles, one flagged sideways by mistake, read as a kong "33m11s": no meld, so the flag goes
    rows = [(0, row(concealed, "3m")), (1, row("9p* 9p 9p", "4s* 5s 6s", "7p* 7p 7p"))]
    read = group_hand(laid(*rows), "daishan")
    assert (read.concealed, read.win_tile, read.problems) == ("333m11s", "3m", ())
    assert [m["tiles"] for m in read.melds] == ["999p", "456s", "777p"]


def test_false_back_in_the_concealed_row_of_a_wrong_hand_leaves_the_row_read() -> None:
    # a table's edge boxed as a tall back joins the row (false backs beyond it keep it from being a stray): the
    # hand, 16 tiles with none apart, is wrong either way, and is read and reported rather than left out whole
    felt = laid((-0.75, row("# # #")), (0, row("1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p 4p 5p 6p 7p")))
    (left, _, _, bottom), top = felt.xyxy[3], felt.xyxy[0][1]
    read = group_hand(_with(felt, box=[left - W - TOUCH, top + 20, left - TOUCH, bottom], code="back"), "daishan")
    assert (read.concealed, read.away) == ("123456789m1234567p", (0, 1, 2, 19))
    assert "the hand holds 16 tiles (a meld counts three), where a winning Daishan hand holds 14" in read.problems


def test_box_across_two_neighbours_is_a_double_left_out() -> None:
    clean = laid(DAISHAN, PUNG)
    (a, top, _, bottom), (_, _, b, _) = clean.xyxy[3], clean.xyxy[4]
    hand = group_hand(_with(clean, box=[(a + b) / 2 - W / 2, top, (a + b) / 2 + W / 2, bottom], code="9m"), "daishan")
    assert (hand.concealed, hand.win_tile, hand.melds) == CLEAN
    assert hand.away == (14,)


def test_upright_box_on_a_claimed_tile_is_left_out_as_its_second_box() -> None:
    # the claimed 3s boxed twice, lying and upright: four tiles are no kong, three make the chow
    chow = laid((0, row("1m 2m 3m 4p 5p 6p 7s", "7s")), PUNG, (2, row("3s* 4s 5s")))
    x1, y1, _, _ = chow.xyxy[11]
    hand = group_hand(_with(chow, box=[x1, y1 - 0.3 * H, x1 + W, y1 + 0.7 * H], code="3s", confidence=0.6), "daishan")
    assert (hand.concealed, hand.win_tile, hand.problems, hand.away) == ("123m456p77s", "7s", (), (14,))
    assert hand.melds[1] == {"type": "chow", "tiles": "345s", "from": 3}


def test_false_back_in_the_gap_before_the_winning_tile_is_left_out() -> None:
    clean = laid(DAISHAN, PUNG)
    (_, top, a, bottom), (b, _, _, _) = clean.xyxy[9], clean.xyxy[10]
    hand = group_hand(_with(clean, box=[a + 1, top + 8, b - 1, bottom], code="back", confidence=0.6), "daishan")
    assert (hand.concealed, hand.win_tile, hand.melds) == CLEAN


def test_lone_false_back_after_the_winning_tile_is_left_out() -> None:
    clean = laid(DAISHAN, PUNG)
    _, top, right, bottom = clean.xyxy[10]
    hand = group_hand(_with(clean, box=[right + TOUCH, top, right + TOUCH + W, bottom], code="back", confidence=0.6),
                      "daishan")
    assert (hand.concealed, hand.win_tile, hand.melds, hand.problems) == (*CLEAN, ())
    assert hand.away == (14,)


@pytest.mark.parametrize("slant, melds", [(0.0, CLEAN[2] + ({"type": "kong", "tiles": "", "concealed": True},)),
                                           (40.0, CLEAN[2])])
def test_four_backs_are_a_concealed_kong_only_along_the_rows(slant: float, melds: tuple) -> None:
    backs = laid((0, row("1m 2m 3m 4p 5p 6p 7s", "7s")), PUNG)  # a concealed kong short
    x0, y0 = backs.xyxy[8, 0], backs.xyxy[8, 3] + H
    step = W + TOUCH
    for k in range(4):
        x, y = x0 + k * step * math.cos(math.radians(slant)), y0 - k * step * math.sin(math.radians(slant))
        backs = _with(backs, box=[x, y, x + W, y + H], code="back", confidence=0.8)
    hand = group_hand(backs, "daishan")
    assert (hand.concealed, hand.win_tile, hand.melds) == ("123m456p77s", "7s", melds)


def test_faces_alike_turned_by_half_do_not_turn_the_hand() -> None:
    hand = laid((0, row("2p 2p 2p 4p 4p 4p 8p 8p 8p 4s 4s 7m 8m", "9m")))
    turned = [180.0 if code in ("2p", "4p", "8p", "4s") else 0.0 for code in hand.tiles]
    read = group_hand(replace(hand, angle=np.array(turned)), "daishan")
    assert (read.concealed, read.win_tile) == ("789m222444888p44s", "9m")


@pytest.mark.parametrize("face", ["4p", "6z"])
def test_pung_of_faces_whose_quarter_turn_cannot_be_read_takes_its_claimed_tile_from_the_shape(face: str) -> None:
    misflagged = _with(laid(DAISHAN, (1, row(f"{face} {face} {face}*"))), sideways={11: True, 13: False})
    assert group_hand(misflagged, "daishan").melds == ({"type": "pung", "tiles": f"{face[0] * 3}{face[1]}", "from": 1},)


def test_flower_read_twice_is_a_double_left_out() -> None:
    hand = laid(DAISHAN, PUNG, (2.2, row("1f 2f")))
    x1, y1, x2, y2 = hand.xyxy[15]
    double = _with(hand, box=[x1 - 0.4 * W, y1 - 0.8 * H, x2 - 0.4 * W, y2 - 0.8 * H], code="2f", confidence=0.5)
    read = group_hand(double, "daishan")
    assert (read.concealed, read.win_tile, read.melds, read.flowers, read.problems) == (*CLEAN, "12f", ())
    assert read.away == (16,)


def test_flower_read_twice_in_a_row_of_flowers_is_kept_and_reported() -> None:
    # two tiles side by side are no double box: the hand is told to be wrong rather than read wrong
    read = group_hand(laid(DAISHAN, PUNG, (2.2, row("4f 6f 6f")), reads={16: (0.5, (("8f", 0.3),))}), "daishan")
    assert (read.flowers, read.problems) == ("466f", ("2 × 6f: a mahjong set has only one",))
    assert read.suggestions[0].changes == ((16, "8f"),)


def test_misread_flower_that_fits_no_group_is_suggested_as_its_alternative() -> None:
    # a flower laid aside read as a suit tile fits no group; its alternative puts it back with the flowers
    read = group_hand(laid(DAISHAN, PUNG, (2.2, row("1f 2f 4s")), reads={16: (0.4, (("3f", 0.3), ("5s", 0.1)))}),
                      "daishan")
    assert (read.flowers, read.problems, read.loose) == ("12f", ("tile 4s fits no group of the hand",), (16,))
    assert [(s.changes, s.hand["flowers"]) for s in read.suggestions] == [(((16, "3f"),), "123f")]


def test_object_far_larger_than_a_tile_is_no_flower() -> None:
    # a white saucer beside a Wenling hand, read as a White: four times a tile's size, within reach of the hand
    wenling = (0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 2z 2z 2z", "1z"))
    hand = laid(wenling, PUNG)
    x1, y1 = hand.xyxy[:, :2].min(0)
    read = group_hand(_with(hand, box=[x1 - 5 * W, y1 - 2 * H, x1 - W, y1 + 2 * H], code="5z", confidence=0.5), "wenling")
    assert (read.concealed, read.win_tile, read.flowers, read.problems, read.away) == (
        "123m456p789s11222z", "1z", "", (), (17,))


def test_crowded_tile_taken_for_a_double_is_kept_when_the_hand_is_a_tile_short_without_it() -> None:
    # the 5p lies a third of a tile from the 4p (a row seen edge-on crowds its tiles): a double by spacing
    crowded = _with(laid(DAISHAN, PUNG, reads={4: (0.6, (("4p", 0.2),))}), shift=(range(4, 11), -0.7 * W))
    read = group_hand(crowded, "daishan")
    assert (read.concealed, read.win_tile, read.melds, read.problems) == (*CLEAN, ())


def test_doubtful_crowded_tile_is_still_a_double_in_a_hand_a_tile_short() -> None:
    crowded = _with(laid(DAISHAN, PUNG, reads={4: (0.3, (("4p", 0.2),))}), shift=(range(4, 11), -0.7 * W))
    read = group_hand(crowded, "daishan")
    assert (read.concealed, read.away) == ("123m46p789s55z", (4,))


def test_concealed_kong_slanting_off_its_row_keeps_both_backs() -> None:
    # seen in perspective the kong runs 4 px further back per tile: its two backs are 0.3 tile sizes apart
    # across the row, yet each is a concealed kong's end, not a stray box
    hand = laid((0, row("1m 2m 3m 4p 5p 6p 5z", "5z")), (1, row("# 7s 7s #", "9p* 9p 9p")))
    slanted = hand.xyxy.copy()
    slanted[8:12, [1, 3]] -= 4.0 * np.arange(4)[:, None]
    read = group_hand(replace(hand, xyxy=slanted), "daishan")
    assert (read.concealed, read.melds, read.problems) == (
        "123m456p55z", ({"type": "kong", "tiles": "7777s", "concealed": True},
                        {"type": "pung", "tiles": "999p", "from": 3}), ())


@pytest.mark.parametrize("rise", [7.0, 11.0])
def test_concealed_kong_slanting_further_beside_a_pung_in_its_row_keeps_both_backs(rise: float) -> None:
    # the kong rises 7–11 px a tile (12–19°): its backs lie 0.6–1.0 tile sizes apart across the row, and the
    # pung before it lies in line with its first back, which was left out as a stray box
    hand = laid((0, row("1m 2m 3m 4p 5p 6p 5z", "5z")), (1, row("9p* 9p 9p", "# 7s 7s #")))
    slanted = hand.xyxy.copy()
    slanted[11:15, [1, 3]] -= rise * np.arange(4)[:, None]
    read = group_hand(replace(hand, xyxy=slanted), "daishan")
    assert (read.melds, read.problems) == (({"type": "pung", "tiles": "999p", "from": 3},
                                            {"type": "kong", "tiles": "7777s", "concealed": True}), ())


def test_concealed_kong_of_wide_boxes_keeps_both_backs() -> None:
    # tiles seen from low down show boxes twice as wide as tall: the kong's two backs are 3.9 tile sizes
    # (square roots of box area) apart, but 3 box lengths
    hand = laid((0, row("1m 2m 3m 4p 5p 6p 5z", "5z")), (1, row("# 7s 7s #", "9p* 9p 9p")))
    wide = hand.xyxy.copy()
    wide[:, [0, 2]] *= 2.0
    read = group_hand(replace(hand, xyxy=wide), "daishan")
    assert (read.melds, read.problems) == (({"type": "kong", "tiles": "7777s", "concealed": True},
                                            {"type": "pung", "tiles": "999p", "from": 3}), ())


def test_pung_with_two_tiles_flagged_takes_the_claimed_one_from_the_face_turned_furthest() -> None:
    # the left 9p is flagged too and its box drawn wide (a shadow): the middle one's face lies turned by 90°
    hand = _with(laid(DAISHAN, (1, row("9p 9p* 9p"))), sideways={11: True})
    wide = hand.xyxy.copy()
    wide[11, 0] -= 0.8 * W
    read = group_hand(replace(hand, xyxy=wide), "daishan")
    assert (read.melds, read.problems) == (({"type": "pung", "tiles": "999p", "from": 2},), ())


@pytest.mark.parametrize("white", [0.3, 0.02])
def test_back_beside_the_flowers_is_a_white_where_whites_are_laid_aside(white: float) -> None:
    # a White's blank face read as a back, White its likeliest other reading: laid aside with the flowers
    wenling = (0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 2z 2z 2z", "1z"))
    hand = laid((-1, row("4f #")), wenling, PUNG, reads={1: (0.5, (("5z", white),))})
    read = group_hand(hand, "wenling")
    assert (read.flowers, read.problems) == ("5z4f" if white >= 0.1 else "4f", ())


@pytest.mark.parametrize(("groups", "flowers"), [("4f # #", "55z4f"), ("4f # # # #", "4f")])
def test_run_of_backs_beside_the_flowers_is_whites_unless_it_is_four(groups: str, flowers: str) -> None:
    # two Whites read as backs, the one beside the flower with White only 0.04 (a run of four is a kong's backs)
    wenling = (0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 2z 2z 2z", "1z"))
    reads = {1: (0.8, (("5z", 0.04),)), 2: (0.5, (("5z", 0.3),)), 3: (0.5, (("5z", 0.3),)), 4: (0.5, (("5z", 0.3),))}
    read = group_hand(laid((-1, row(groups)), wenling, PUNG, reads=reads), "wenling")
    assert read.flowers == flowers


def test_back_beside_the_flowers_stays_a_back_where_whites_are_played() -> None:
    hand = laid((-1, row("4f #")), DAISHAN, PUNG, reads={1: (0.5, (("5z", 0.3),))})
    read = group_hand(hand, "daishan")
    assert (read.flowers, read.concealed, read.away) == ("4f", CLEAN[0], (1,))


def test_concealed_pair_with_a_misread_flag_is_the_concealed_part_when_everything_else_is_melded() -> None:
    melds = (1, row("9p* 9p 9p", "2s* 2s 2s", "3m* 4m 5m", "7z* 7z 7z"))
    hand = group_hand(_with(laid((0, row("1p 1p")), melds), sideways={0: True}), "daishan")  # no gap between them
    assert (hand.concealed, hand.win_tile, len(hand.melds), hand.problems) == ("11p", "1p", 4, ())


def test_box_read_as_a_flower_is_left_out_where_none_are_played() -> None:
    hand = laid((0, row("1m 2m 3m 5p 6p 7s 8s 9s 1z 1z 1z 5s 5s", "4p")), (2.2, row("8f")),
                reads={14: (0.2, (("8s", 0.1),))})
    read = group_hand(hand, "baicheng")
    assert (read.concealed, read.win_tile, read.flowers, read.problems, read.away) == ("123m456p55789s111z", "4p", "", (), (14,))


def test_doubtful_middle_tile_of_three_is_no_double() -> None:
    # without it, its two neighbours alone would set the row's usual spacing: at twice theirs, always a double
    # (a hand turned by 40°: each box holds much of the table around its tile, so tiles are close for their size)
    tiles = laid(DAISHAN, PUNG, (2.2, row("1f 2f 3f")), turn=40, reads={15: (0.45, (("1f", 0.25),))})
    read = group_hand(tiles, "daishan")
    assert (read.concealed, read.win_tile, read.melds, read.flowers, read.away) == (*CLEAN, "123f", ())


def test_group_that_is_no_meld_is_left_out_when_the_hand_is_legal_without_it() -> None:
    read = group_hand(laid(DAISHAN, PUNG, (2.2, row("4m* 4m 3s 2s"))), "daishan")
    assert (read.concealed, read.win_tile, read.melds, read.problems) == (*CLEAN, ())
    assert read.away == (14, 15, 16, 17)


def test_false_back_beside_a_pung_close_in_front_of_the_concealed_row_is_left_out() -> None:
    hand = laid(DAISHAN, (0.65, row("9p* 9p 9p")))
    _, top, right, bottom = hand.xyxy[13]
    read = group_hand(_with(hand, box=[right + TOUCH, top, right + TOUCH + W, bottom], code="back", confidence=0.6),
                      "daishan")
    assert (read.concealed, read.win_tile, read.melds, read.problems) == (*CLEAN, ())
    assert read.away == (14,)


def test_claimed_tile_under_an_added_kongs_fourth_misread_as_a_back_stays_in_the_kong() -> None:
    hand = laid(DAISHAN, (1, row("5m* ^5m 5m 5m")))
    misread = replace(hand, tiles=hand.tiles[:11] + ("back",) + hand.tiles[12:],
                      sideways=np.array([i == 12 for i in range(len(hand))]))
    read = group_hand(misread, "daishan")
    assert read.melds == ({"type": "kong", "tiles": "5555m", "added": True, "from": 3},)
    assert read.away == ()


def test_false_backs_that_no_concealed_kong_explains_are_left_out_when_that_makes_the_hand_legal() -> None:
    # two gaps taken for backs, at the end of the concealed row and after the winning tile, close enough
    # together that neither is a lone stray back
    hand = group_hand(laid((0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s 5z #", "5z #")), PUNG), "daishan")
    assert (hand.concealed, hand.win_tile, hand.melds, hand.problems) == (*CLEAN, ())
    assert hand.away == (10, 12)
    kong = group_hand(laid(DAISHAN, (1, row("# 9m 9m # #"))), "daishan")
    assert kong.melds == ({"type": "kong", "tiles": "9999m", "concealed": True},) and kong.away == (15,)


def test_meld_of_more_than_four_tiles_has_its_least_likely_box_left_out() -> None:
    # a kong and a doubtful box lying on it: five tiles are no meld, so the doubtful one is a double
    hand = group_hand(laid(DAISHAN, (1, row("5m* ^5m* 5m 5m 5m")), reads={12: (0.2, ())}), "daishan")
    assert hand.melds == ({"type": "kong", "tiles": "5555m", "from": 3},)
    assert (hand.problems, hand.away) == ((), (12,))
    short = (0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s", "5z"))  # a tile short even without the double: it says why
    illegal = group_hand(laid(short, (1, row("5m* ^5m* 5m 5m 5m"))), "daishan")
    assert "meld 1: 5m 5m 5m 5m 5m are 5 tiles, a meld has three or four" in illegal.problems


def test_kong_with_its_flag_missed_takes_its_claimed_tile_from_a_clear_shape() -> None:
    missed = _with(laid(DAISHAN, (1, row("7s 7s* 7s 7s"))), sideways={12: False})
    assert group_hand(missed, "daishan").melds == ({"type": "kong", "tiles": "7777s", "from": 2},)
    unflagged = group_hand(laid(DAISHAN, (1, row("7s 7s 7s 7s"))), "daishan")
    assert unflagged.melds == ({"type": "kong", "tiles": "7777s"},)


@pytest.mark.parametrize("angles, melds", [
    ({11: 40.0}, ({"type": "kong", "tiles": "7777s", "from": 3},)),
    ({14: 140.0, 12: 170.0}, ({"type": "kong", "tiles": "7777s", "from": 1},)),  # upside down leans alike
    ({11: 40.0, 13: 30.0}, ({"type": "kong", "tiles": "7777s"},)),  # two lean: the source is asked
    ({11: 30.0}, ({"type": "kong", "tiles": "7777s"},)),
])
def test_kong_with_no_flag_takes_its_claimed_tile_from_a_face_that_alone_leans(angles: dict, melds: tuple) -> None:
    detections = laid(DAISHAN, (1, row("7s 7s 7s 7s")))
    angle = detections.angle.copy()
    for i, degrees in angles.items():
        angle[i] = degrees
    assert group_hand(replace(detections, angle=angle), "daishan").melds == melds


@pytest.mark.parametrize("angles, source", [({13: 40.0}, 1), ({12: 320.0}, 2), ({12: 40.0, 13: 40.0}, 3)])
def test_pung_with_no_flag_and_no_clear_shape_takes_its_claimed_tile_from_a_face_that_alone_leans(
        angles: dict, source: int) -> None:
    detections = laid(DAISHAN, (1, row("9m 9m 9m")))
    angle = detections.angle.copy()
    for i, degrees in angles.items():
        angle[i] = degrees
    assert group_hand(replace(detections, angle=angle), "daishan").melds == (
        {"type": "pung", "tiles": "999m", "from": source},)  # two leaning: as before, the first of like shapes


def test_wrong_sideways_flags_in_the_concealed_row_and_on_the_winning_tile_are_ignored() -> None:
    hand = group_hand(_with(laid(DAISHAN, PUNG), sideways={5: True, 10: True}), "daishan")
    assert (hand.concealed, hand.win_tile, hand.melds) == CLEAN


def test_missed_sideways_flag_is_found_by_the_tile_shape() -> None:
    hand = group_hand(_with(laid(DAISHAN, (1, row("9p 9p* 9p"))), sideways={12: False}), "daishan")
    assert hand.melds == ({"type": "pung", "tiles": "999p", "from": 2},)


def test_concealed_row_broken_by_a_wide_spacing_is_joined_to_the_hand_size() -> None:
    hand = group_hand(_with(laid(DAISHAN, PUNG), shift=(range(5, 11), 14.0)), "daishan")
    assert (hand.concealed, hand.win_tile, hand.melds, hand.away) == (*CLEAN, ())


def test_concealed_kong_of_four_backs_broken_by_a_wide_spacing_is_mended() -> None:
    hand = group_hand(_with(laid(DAISHAN, (1, row("# # # #"))), shift=(range(14, 15), 10.0)), "daishan")
    assert hand.melds == ({"type": "kong", "tiles": "", "concealed": True},)


def test_evenly_spaced_real_tile_is_never_dropped_to_make_the_hand_legal() -> None:
    # one 1p too many (15 tiles): leaving out the doubtful 1p would make a legal hand, but it lies where a
    # tile belongs, so it stays in the reading and the player is told
    shaky = {1: (0.4, (("2p", 0.1),))}
    tight = _with(laid((0, row("1p 1p 1p 1p 4p 4p 4p 5p 5p 5p 5z 5z 5z 1z", "1z")), reads=shaky), shift=(range(1), 3.0))
    hand = group_hand(tight, "daishan")
    assert hand.concealed == "1111444555p11555z" and hand.problems and hand.away == ()


def test_hand_with_no_tile_apart_beats_other_tiles_that_show_one() -> None:
    # the hand's 14 tiles touch (the winning tile not set apart); two tiles of the discards lie a gap apart
    hand = group_hand(laid((0, row("1m 2m 3m 4m 5m 6m 7m 8m 9m 5z 5z 5z 7z 7z")), (-4, row("7p", "2s"))), "daishan")
    assert (hand.concealed, hand.win_tile, hand.win_guessed, hand.problems) == ("123456789m55577z", "7z", True, ())


def test_pung_parted_by_a_false_box_left_out_is_joined() -> None:
    # a false box across the claimed 9p and the next (left out as a double) parts the pung: the rows split it
    clean = _with(laid(DAISHAN, PUNG), shift=(range(12, 14), 0.45 * W))
    (_, top, a, bottom), (b, _, _, _) = clean.xyxy[11], clean.xyxy[12]
    hand = group_hand(_with(clean, box=[a - 0.4 * W, top, b + 0.4 * W, bottom], code="8p", confidence=0.1), "daishan")
    assert (hand.concealed, hand.win_tile, hand.melds, hand.problems) == (*CLEAN, ())
    assert hand.away == (14,)


def test_meld_parted_by_a_box_of_its_face_left_out_as_a_double_is_not_guessed() -> None:
    # a doubtful 9p box between two fragments of 9p is left out as a double: a fourth tile (a kong) or a
    # second box on one (a pung)? The reader does not join them silently either way: it says the hand is short
    kong = laid(DAISHAN, (1, row("9p* 9p 9p 9p")), reads={13: (0.45, (("9p", 0.45),))})
    xyxy = kong.xyxy.copy()
    xyxy[13] += [0.4 * W, 0, 0.4 * W, 0]
    xyxy[14] -= [0.3 * W, 0, 0.3 * W, 0]
    ghost = _with(laid(DAISHAN, PUNG), shift=(range(13, 14), 0.5 * W))
    x0, top, x1, bottom = ghost.xyxy[12]
    ghost = _with(ghost, box=[x0 + 0.45 * W, top, x1 + 0.45 * W, bottom], code="9p", confidence=0.4)
    for detections in (replace(kong, xyxy=xyxy), ghost):
        hand = group_hand(detections, "daishan")
        assert hand.melds == () and hand.problems[-1].startswith("the hand holds 11 tiles")


def test_pair_and_winning_tile_apart_after_a_gap_in_the_concealed_row_are_no_pung() -> None:
    # a concealed row broken by gaps: 5z 5z, then the winning 5z set apart, all upright and unmarked
    hand = group_hand(laid((0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s 1p 1p", "5z 5z", "5z"))), "daishan")
    assert (hand.concealed, hand.win_tile, hand.melds, hand.problems) == ("123m11456p789s555z", "5z", (), ())


def test_four_backs_in_front_of_a_full_hand_are_the_wall_not_a_kong() -> None:
    hand = group_hand(laid((0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s 5z 5z 7z 7z", "7z")), (1, row("# # # #"))), "daishan")
    assert (hand.concealed, hand.win_tile, hand.melds, hand.problems) == ("123m456p789s55777z", "7z", (), ())
    assert hand.away == (14, 15, 16, 17)


def test_lone_concealed_tile_flagged_sideways_is_read_upright() -> None:
    # four melds and a pair: the concealed part is one 9s, the winning 9s beside it; the first is misflagged
    melds = (1, row("1p* 1p 1p", "3s* 3s 3s", "3m* 4m 5m", "7p* 7p 7p"))
    hand = group_hand(_with(laid((0, row("9s", "9s")), melds), sideways={0: True}), "daishan")
    assert (hand.concealed, hand.win_tile, len(hand.melds), hand.problems) == ("99s", "9s", 4, ())


def test_concealed_pair_of_tiles_in_no_meld_together_flagged_sideways_is_read_upright() -> None:
    # a gap splits the concealed row after its second tile, and the first is misflagged: 1m 9s can be no meld
    melds = (1, row("1p* 1p 1p", "3s* 3s 3s", "3m* 4m 5m"))
    hand = group_hand(_with(laid((0, row("1m 9s", "9s 9s", "1m")), melds), sideways={0: True}), "daishan")
    assert (hand.concealed, hand.win_tile, len(hand.melds), hand.problems) == ("11m999s", "1m", 3, ())


def test_concealed_row_split_by_a_wrong_gap_with_no_tile_apart_is_joined() -> None:
    # a blurred photo's boxes overlap unevenly: a gap read in the middle of a row of fourteen, none set apart
    hand = group_hand(laid((0, row("1m 2m 3m 4p 5p 6p 7s", "8s 9s 5z 5z 5z 1p 1p"))), "daishan")
    assert (hand.concealed, hand.win_tile, hand.problems, hand.away) == ("123m11456p789s555z", "1p", (), ())


def test_claimed_melds_laid_touching_are_parted() -> None:
    hand = group_hand(laid((0, row("1m 2m 3m 4p 5p 6p 7s", "7s")), (1, row("3m* 4m 5m 7p* 7p 7p"))), "daishan")
    assert (hand.concealed, hand.win_tile, hand.problems) == ("123m456p77s", "7s", ())
    assert hand.melds == ({"type": "chow", "tiles": "345m", "from": 3}, {"type": "pung", "tiles": "777p", "from": 3})


def test_claimed_meld_laid_touching_a_meld_whose_sideways_tile_was_missed_is_parted() -> None:
    # the pung's middle tile lies sideways but was not flagged: its box still shows it
    detections = _with(laid((0, row("1m 2m 3m 4p 5p 6p 7s", "7s")), (1, row("3m* 4m 5m 7p 7p* 7p"))),
                       sideways={12: False})
    hand = group_hand(detections, "daishan")
    assert (hand.concealed, hand.win_tile, hand.problems) == ("123m456p77s", "7s", ())
    assert hand.melds == ({"type": "chow", "tiles": "345m", "from": 3}, {"type": "pung", "tiles": "777p", "from": 2})


def test_tile_between_claimed_melds_laid_touching_is_left_out() -> None:
    hand = group_hand(laid((0, row("1m 2m 3m 4p 5p 6p 7s", "7s")), (1, row("1s 1s 1s* 6s 2m* 2m 2m"))), "daishan")
    assert (hand.concealed, hand.win_tile, hand.problems, hand.away) == ("123m456p77s", "7s", (), (11,))
    assert hand.melds == ({"type": "pung", "tiles": "111s", "from": 1}, {"type": "pung", "tiles": "222m", "from": 3})


def test_concealed_kong_of_four_backs_laid_touching_a_claimed_meld_is_parted() -> None:
    hand = group_hand(laid((0, row("1m 2m 3m 4p 5p 6p 7s", "7s")), (1, row("3m* 4m 5m # # # #"))), "daishan")
    assert (hand.concealed, hand.win_tile, hand.problems) == ("123m456p77s", "7s", ())
    assert hand.melds == ({"type": "chow", "tiles": "345m", "from": 3}, {"type": "kong", "tiles": "", "concealed": True})


def test_two_concealed_kongs_laid_touching_are_parted() -> None:
    hand = group_hand(laid((0, row("1m 2m 3m 4p 5p 6p 7s", "7s")), (1, row("# 9s 9s # # # # #"))), "daishan")
    assert (hand.concealed, hand.win_tile, hand.problems) == ("123m456p77s", "7s", ())
    assert hand.melds == ({"type": "kong", "tiles": "9999s", "concealed": True},
                          {"type": "kong", "tiles": "", "concealed": True})


def test_false_back_between_a_claimed_meld_and_a_concealed_kong_is_left_out() -> None:
    # a gap read as one more face-down tile, doubtful
    detections = laid((0, row("1m 2m 3m 4p 5p 6p 7s", "7s")), (1, row("3m* 4m 5m # # # # #")),
                      reads={11: (0.38, ())})
    hand = group_hand(detections, "daishan")
    assert (hand.concealed, hand.win_tile, hand.problems, hand.away) == ("123m456p77s", "7s", (), (11,))
    assert hand.melds == ({"type": "chow", "tiles": "345m", "from": 3}, {"type": "kong", "tiles": "", "concealed": True})


def test_faces_alike_turned_by_half_say_nothing_of_a_quarter_turn() -> None:
    # a hand seen upside down; beside it 16 loose tiles whose faces look alike turned by 180°, six of them a
    # quarter turn from the hand and ten lying as the hand does: none of them reads the photo a quarter turned
    hand = laid((0, row("1m 2m 3m 4m 5m 6m 7m 8m 9m 1m 1m 7m 8m", "9m")), turn=180)
    loose = laid((0, row("5p 8s 9p 2p 4p 5p 8p 9s 2s 4s 5s 6s 8s 9p 2p 4p")), turn=90)
    angles = np.concatenate([hand.angle, [270.0] * 6 + [0.0, 180.0] * 5])
    both = Detections(np.vstack([hand.xyxy, loose.xyxy + [0, 200, 0, 200]]), hand.tiles + loose.tiles,
                      np.ones(30), hand.alternatives + loose.alternatives, np.zeros(30, bool), angles)
    read = group_hand(both, "daishan")
    assert (read.concealed, read.win_tile, read.problems) == ("11123456778899m", "9m", ())


def test_a_row_a_tile_short_beats_two_stray_tiles_that_look_like_a_pair_and_its_winning_tile() -> None:
    # one tile of the hand missed, none set apart; two tiles of another player lie a gap apart behind it
    hand = group_hand(laid((0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s 5z 5z 7z 7z")), (-3, row("2m", "2p"))), "daishan")
    assert hand.concealed == "123m456p789s5577z" and hand.away == (13, 14)
    assert hand.problems[-1].startswith("the hand holds 13 tiles")


def test_a_meld_too_many_is_the_one_farthest_from_the_concealed_row() -> None:
    # another player's chow lies within reach behind the hand's own pung: the hand holds a meld too many
    hand = group_hand(laid(DAISHAN, PUNG, (2.2, row("3s* 4s 5s"))), "daishan")
    assert (hand.concealed, hand.win_tile, hand.melds, hand.problems, hand.away) == (*CLEAN, (), (14, 15, 16))


@pytest.mark.parametrize("stretch", [(1.0, 10.0), (12.0, 1.0), (0.1, 1.0)])
def test_a_stretched_photo_is_read_as_the_hand_it_shows(stretch) -> None:
    """A picture resized without keeping its aspect ratio (here ten times taller, twelve times wider, or a
    tenth as wide): its rows of tiles hold together once the axis is scaled back (`unstretched`)."""
    upright = laid(DAISHAN, PUNG)
    stretched = replace(upright, xyxy=upright.xyxy * np.tile(stretch, 2))
    frame = (round(2000 * stretch[0]), round(2000 * stretch[1]))
    hand = group_hand(stretched, "daishan", frame=frame)
    assert hand.player == group_hand(upright, "daishan", frame=(2000, 2000)).player
    assert hand.player["concealed"] == "123m456p789s55z" and hand.win_tile == "5z"


def test_white_dragons_read_as_backs_that_no_concealed_kong_explains_are_read_as_their_face() -> None:
    blank = {9: (0.6, (("5z", 0.3), ("8p", 0.01))), 10: (0.55, (("5z", 0.35), ("9p", 0.01)))}
    seen = laid((0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s #", "#")), PUNG, reads=blank)
    hand = group_hand(seen, "daishan")
    assert hand.player["concealed"] == "123m456p789s55z" and hand.win_tile == "5z" and not hand.problems
    assert group_hand(laid((0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s #", "#")), PUNG), "daishan").problems


def test_a_hand_that_needs_a_box_left_out_and_a_tile_corrected_is_offered_the_correction() -> None:
    # a stray back touches a concealed kong (a meld of five: no meld), and 4p is misread as 8p: with the back
    # left out the hand is one correction from legal, and that correction is offered
    seen = laid((0, row("1m 2m 3m 4p 5p 6p 5z", "5z")), (1, row("9p* 9p 9p", "# 2s 2s # #")),
                reads={3: (0.5, (("4p", 0.3),))})
    hand = group_hand(replace(seen, tiles=tuple("8p" if i == 3 else t for i, t in enumerate(seen.tiles))), "daishan")
    assert hand.problems == ("these tiles are no winning Daishan hand",)
    assert hand.suggestions[0].changes == ((3, "4p"),) and hand.suggestions[0].hand["concealed"] == "123m456p55z"


@pytest.mark.parametrize(("shift", "concealed", "melds"), [
    (0.0, "345789999m123p11s", []), (20.0, "345789999m11s", [{"type": "chow", "tiles": "123p", "from": 3}])])
def test_a_set_laid_well_apart_from_the_concealed_row_is_a_meld_with_its_flag_missed(
        shift: float, concealed: str, melds: list[dict[str, object]]) -> None:
    # a chow with no tile flagged sideways: a usual gap (1.7 spacings) is a wrongly split concealed row, a
    # gap of 2.3 spacings (MELD_GAP 1.9) sets a claimed meld apart; both read as legal hands
    seen = laid((0, row("1p 2p 3p", "3m 4m 5m 7m 8m 9m 9m 9m 1s 1s", "9m")))
    moved = seen.xyxy.copy()
    moved[:3, [0, 2]] -= shift
    hand = group_hand(replace(seen, xyxy=moved), "daishan")
    assert (hand.player["concealed"], hand.player["melds"], hand.win_tile, hand.problems) == (concealed, melds, "9m", ())


def test_the_region_a_hand_is_looked_at_again_in_reaches_a_margin_around_its_tiles() -> None:
    from vision.read import HAND_MARGIN, hand_region

    seen = laid(DAISHAN, PUNG)
    reading = group_hand(seen, "daishan")
    left, top = seen.xyxy[:, :2].min(0)
    right, bottom = seen.xyxy[:, 2:].max(0)
    margin = HAND_MARGIN * math.sqrt(W * H)
    assert hand_region(reading, seen, (3000, 3000)) == pytest.approx(
        (left - margin, top - margin, right + margin, bottom + margin))
    # within the photo; none when it is the whole photo, or when the hand holds no tile
    assert hand_region(reading, seen, (1200, 1100)) == pytest.approx((left - margin, top - margin, 1200, 1100))
    filling = replace(seen, xyxy=seen.xyxy - [left - 10, top - 10, left - 10, top - 10])
    assert hand_region(reading, filling, (int(right - left), int(bottom - top))) is None
    assert hand_region(replace(reading, groups=()), seen, (3000, 3000)) is None


def test_a_wenling_wild_that_would_be_a_special_tile_stays_in_the_hand() -> None:
    # White always 得 with Green the indicator: Green is a 得 too (held), only Red is laid aside, as the scorer has it
    wenling = (0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 2z 2z 6z", "1z"))
    hand = group_hand(laid(wenling, PUNG, (-1, row("7z 6f"))), "wenling", indicator="6z",
                      options={"white_always_de": True})
    assert (hand.concealed, hand.flowers, hand.problems) == ("123m456p789s11226z", "7z6f", ())


def test_a_correction_is_tried_on_an_added_kong_read_by_its_face() -> None:
    # the kong's third tile is read 9m, surely; read as 5555m by its face, the hand needs only 6p mended to 5p
    reads = {13: (0.9, (("5m", 0.01),)), 4: (0.55, (("5p", 0.4),))}
    concealed = (0, row("1m 2m 3m 4p 6p 6p 7s 8s 9s 5z", "5z"))
    hand = group_hand(laid(concealed, (1, row("5m* ^5m 9m 5m")), reads=reads), "daishan")
    assert [m["tiles"] for m in hand.melds] == ["5555m"]
    assert [s.changes for s in hand.suggestions] == [((4, "5p"),)]


@pytest.mark.parametrize("concealed, legal", [("1m 2m 3m 9s", True), ("1m 3m 5p 7s", False)])
def test_a_hand_of_three_kongs_shown_face_down_is_checked_like_any_other(concealed: str, legal: bool) -> None:
    hand = group_hand(laid((0, row(concealed, "9s")), (1, row("# # # #", "# # # #", "# # # #"))), "daishan")
    assert [m["concealed"] for m in hand.melds] == [True] * 3
    assert (hand.problems == ()) is legal
