"""The synthetic hand-scene generator: deterministic, legal hands, exact labels, every layout convention."""
from __future__ import annotations

import json
from collections import Counter
from functools import lru_cache

import cv2
import numpy as np
import pytest

from datasets.synth import (REGIONS, SHARED_DATA, TILE_PHOTO_FIXES, Scene, generate_scene, main, random_hand,
                            tile_photo_labels, write_yolo)
from scoring import REGIONS as SCORED_REGIONS
from scoring import is_winning_hand
from scoring.tiles import parse_tiles
from vision.detections import CLASS_NAMES
from vision.eval_cli import class_list

SIZE = (400, 300)
SEEDS = range(50)
HAND_SIZE = {"wenling": 17, "fuzhou": 17, "daishan": 14, "baicheng": 14}


@lru_cache(maxsize=None)
def scene(seed: int) -> Scene:
    return generate_scene(seed, size=SIZE)


def scenes() -> list[Scene]:
    return [scene(s) for s in SEEDS]


def decomposes(tiles: list[str], sets: int) -> bool:
    """Whether the tiles split into ``sets`` sequences/triplets and one pair."""
    counts = Counter(tiles)

    def sets_only(c: Counter, left: int) -> bool:
        if left == 0:
            return not +c
        tile = min(+c, key=lambda t: (t[1], t[0]))
        if c[tile] >= 3 and sets_only(c - Counter({tile: 3}), left - 1):
            return True
        run = [f"{int(tile[0]) + i}{tile[1]}" for i in range(3)]
        return tile[1] in "mps" and all(c[t] for t in run) and sets_only(c - Counter(run), left - 1)

    return any(sets_only(counts - Counter({p: 2}), sets) for p in counts if counts[p] >= 2)


def meld_kind(meld: dict) -> str:
    return "added" if meld.get("added") else "concealed" if meld.get("concealed") else meld["type"]


def test_single_tile_photos_labelled_with_another_tile_are_mended():
    """133.jpg shows 8p and 350.jpg 9p, though labels.csv says 8m and 8p: the faces pasted into scenes and the
    classifier's crops go by what they show."""
    listed = dict(line.split(",")[:2] for line in (SHARED_DATA / "tile-crops" / "labels.csv").read_text().split()[1:])
    assert {image: listed[image] for image in TILE_PHOTO_FIXES} == {"133.jpg": "8m", "350.jpg": "8p"}
    mended = dict(tile_photo_labels())
    assert {image: mended[image] for image in TILE_PHOTO_FIXES} == {"133.jpg": "8p", "350.jpg": "9p"}
    assert len(mended) == len(listed) == 628


def test_same_seed_same_scene_other_seed_other_scene():
    a, b = generate_scene(7, size=SIZE), generate_scene(7, size=SIZE)
    assert np.array_equal(a.image, b.image)
    assert a.tiles == b.tiles and a.hand == b.hand and a.groups == b.groups
    assert not np.array_equal(a.image, generate_scene(8, size=SIZE).image)


def test_random_sizes_vary_in_both_orientations():
    shapes = [generate_scene(s, "daishan", kind="hand_only").image.shape[:2] for s in range(6)]
    assert all(640 <= max(h, w) <= 1600 for h, w in shapes)
    assert any(h > w for h, w in shapes) and any(w > h for h, w in shapes)


def test_boxes_lie_in_the_image_around_the_pixels_of_their_tile():
    for s in scenes()[:12]:
        height, width = s.image.shape[:2]
        for i, tile in enumerate(s.tiles):
            x1, y1, x2, y2 = tile.box
            assert 0 <= x1 < x2 <= width and 0 <= y1 < y2 <= height
            ys, xs = np.nonzero(s.mask == i)
            assert len(xs) >= 0.4 * cv2.contourArea(np.array(tile.quad, np.float32)) - 2 * (x2 - x1 + y2 - y1)
            assert xs.min() >= x1 - 1 and xs.max() <= x2 + 1 and ys.min() >= y1 - 1 and ys.max() <= y2 + 1


def test_face_labels_sit_on_ivory_faces_and_back_labels_on_coloured_backs():
    backs = 0
    for s in scenes()[:25]:
        hsv = cv2.cvtColor(s.image, cv2.COLOR_BGR2HSV)
        for i, tile in enumerate(s.tiles):
            saturation = np.median(hsv[s.mask == i][:, 1])
            if tile.tile == "back":
                backs += 1
                assert saturation > 45, (s.seed, tile)
            else:
                assert saturation < 100, (s.seed, tile)
    assert backs > 20


def test_no_more_than_four_of_a_kind_in_a_scene():
    for s in scenes():
        faces = Counter(t.tile for t in s.tiles if t.tile != "back")
        hand = parse_tiles(s.hand["concealed"]) + parse_tiles(s.hand["flowers"])
        hand += [t for m in s.hand["melds"] for t in parse_tiles(m["tiles"])]
        for counts in (faces, Counter(hand)):
            assert all(n <= (1 if code.endswith("f") else 4) for code, n in counts.items()), (s.seed, counts)


def test_hands_are_legal_winning_hands_of_their_region():
    assert {s.region for s in scenes()} == set(REGIONS)
    for s in scenes():
        concealed = parse_tiles(s.hand["concealed"])
        melds = s.hand["melds"]
        assert s.win_tile in concealed
        assert len(concealed) + 3 * len(melds) == HAND_SIZE[s.region]
        for meld in melds:
            tiles = parse_tiles(meld["tiles"])
            assert len(tiles) == (3 if meld["type"] in ("chow", "pung") else 4)
            assert decomposes(tiles + ["7z", "7z"], 1) if meld["type"] != "kong" else len(set(tiles)) == 1
        sets = (5 if s.region in ("wenling", "fuzhou") else 4) - len(melds)
        seven_pairs = s.region == "daishan" and not melds and all(n == 2 for n in Counter(concealed).values())
        assert seven_pairs or decomposes(concealed, sets), s.hand
        in_hand = concealed + [t for m in melds for t in parse_tiles(m["tiles"])]
        flowers = parse_tiles(s.hand["flowers"])
        if s.region == "fuzhou":
            assert all(t[1] in "mps" for t in in_hand) and all(t[1] in "zf" for t in flowers)
        if s.region == "wenling":
            assert "5z" not in in_hand and all(t == "5z" or t[1] == "f" for t in flowers)
        if s.region == "daishan":
            assert all(t[1] == "f" for t in flowers)
        if s.region == "baicheng":
            assert not flowers and {t[1] for t in in_hand} >= {"m", "p", "s"}


def test_the_scorer_accepts_every_hand_of_the_regions_it_implements():
    assert SCORED_REGIONS
    for region in SCORED_REGIONS:
        rng = np.random.default_rng(0)
        for _ in range(100):
            record = random_hand(rng, region).record()
            assert is_winning_hand(region, record["concealed"], record["melds"], flowers=record["flowers"]), record


def test_every_meld_kind_and_sideways_position_occurs_across_fifty_seeds():
    kinds, sources, backs = Counter(), Counter(), Counter()
    for s in scenes():
        for group in s.groups:
            if group["kind"] == "meld":
                meld = s.hand["melds"][group["meld"]]
                kinds[meld_kind(meld)] += 1
                if "from" in meld:
                    sources[meld["from"]] += 1
                if meld.get("concealed"):
                    backs[sum(s.tiles[i].tile == "back" for i in group["tiles"])] += 1
    assert set(kinds) == {"chow", "pung", "kong", "added", "concealed"}
    assert set(sources) == {1, 2, 3}
    assert set(backs) == {2, 4}


def test_claimed_melds_show_one_sideways_tile_at_the_position_of_their_source():
    stacked_on_sideways = 0
    for s in scenes():
        for group in s.groups:
            tiles = [s.tiles[i] for i in group["tiles"]]
            laid = [t for t in tiles if not t.stacked]
            sideways = [k for k, t in enumerate(laid) if t.sideways]
            meld = s.hand["melds"][group["meld"]] if group["kind"] == "meld" else {}
            if "from" not in meld:
                assert not any(t.sideways for t in tiles)
                continue
            assert len(sideways) == 1, (s.seed, meld)
            slot = sideways[0]
            assert meld["from"] == (3 if slot == 0 else 1 if slot == len(laid) - 1 else 2), (s.seed, meld)
            on_top = [k for k, t in enumerate(tiles) if t.stacked]
            assert len(on_top) == (1 if meld.get("added") else 0)
            if on_top:
                top, below = tiles[on_top[0]], tiles[on_top[0] - 1]
                assert top.sideways == below.sideways and top.tile == below.tile
                stacked_on_sideways += top.sideways
    assert stacked_on_sideways > 0


def test_sideways_tiles_point_across_their_neighbours():
    turns = []
    for s in scenes():
        for group in s.groups:
            tiles = [s.tiles[i] for i in group["tiles"] if s.tiles[i].tile != "back"]
            upright = [t.up_angle for t in tiles if not t.sideways]
            turns += [(t.up_angle - np.median(upright)) % 180 for t in tiles if t.sideways and upright]
    # perspective bends image angles at low camera angles, never as far as parallel
    assert len(turns) > 20 and all(30 < turn < 150 for turn in turns)
    assert 80 < np.median(turns) < 100


def test_groups_hold_the_hand_left_to_right():
    for s in scenes():
        kinds = Counter(g["kind"] for g in s.groups)
        assert kinds["concealed"] == 1 and kinds["winning"] == 1 and kinds["meld"] == len(s.hand["melds"])
        assert kinds["flowers"] == (1 if s.hand["flowers"] else 0)
        win = next(g for g in s.groups if g["kind"] == "winning")
        assert [s.tiles[i].tile for i in win["tiles"]] == [s.win_tile]
        row = next(g for g in s.groups if g["kind"] == "concealed")
        in_row = Counter(s.tiles[i].tile for i in row["tiles"] + win["tiles"])
        assert in_row == Counter(parse_tiles(s.hand["concealed"]))
        for group in s.groups:
            for i in group["tiles"]:
                assert s.tiles[i].group == s.groups.index(group)
        faces = [t.tile for t in s.tiles if t.group >= 0 and t.tile != "back"]
        hidden = sum(t.tile == "back" for t in s.tiles if t.group >= 0)
        everything = parse_tiles(s.hand["concealed"]) + parse_tiles(s.hand["flowers"])
        everything += [t for m in s.hand["melds"] for t in parse_tiles(m["tiles"])]
        assert len(faces) + hidden == len(everything)


def test_other_scene_kinds_label_face_down_walls_and_loose_tiles():
    tiles = [generate_scene(s, kind="tiles", size=SIZE) for s in range(8)]
    assert all(t.hand == {"concealed": "", "melds": [], "flowers": ""} and t.win_tile is None for t in tiles)
    assert sum(t.tile == "back" for s in tiles for t in s.tiles) > 10
    assert any(t.group == -1 for s in (generate_scene(i, size=SIZE) for i in range(12)) for t in s.tiles)


def test_write_yolo_and_cli(tmp_path):
    s = scene(3)
    write_yolo(s, tmp_path / "images", tmp_path / "labels", "one")
    lines = (tmp_path / "labels" / "one.txt").read_text().splitlines()
    assert len(lines) == len(s.tiles)
    first = lines[0].split()
    assert CLASS_NAMES[int(first[0])] == s.tiles[0].tile and all(0 <= float(v) <= 1 for v in first[1:])
    assert cv2.imread(str(tmp_path / "images" / "one.jpg")).shape == s.image.shape
    write_yolo(s, tmp_path / "images", tmp_path / "labels", "small", max_side=100)
    height, width = s.image.shape[:2]
    assert cv2.imread(str(tmp_path / "images" / "small.jpg")).shape[:2] == (round(height * 100 / width), 100)
    assert (tmp_path / "labels" / "small.txt").read_text() == (tmp_path / "labels" / "one.txt").read_text()
    with pytest.raises(ValueError, match="no entry for"):
        write_yolo(s, tmp_path, tmp_path, "two", classes=["1m"])

    out = tmp_path / "set"
    assert main(["--out", str(out), "--count", "2", "--seed", "11", "--size", "320", "240", "--preview"]) == 0
    records = [json.loads(line) for line in (out / "scenes.jsonl").read_text().splitlines()]
    assert [r["seed"] for r in records] == [11, 12]
    assert records[0]["hand"] == scene_at(11).hand
    assert sorted(p.name for p in (out / "images").iterdir()) == ["synth_00000011.jpg", "synth_00000012.jpg"]
    assert len((out / "labels" / "synth_00000011.txt").read_text().splitlines()) == len(records[0]["tiles"])
    assert (out / "previews" / "synth_00000012.jpg").exists()
    assert class_list(out, None) == (out / "classes.txt", list(CLASS_NAMES))  # `mjcam eval` finds the class order


def scene_at(seed: int) -> Scene:
    return generate_scene(seed, size=(320, 240))


def test_bad_arguments_get_one_clear_error(capsys):
    with pytest.raises(ValueError, match="unknown region 'tokyo'"):
        generate_scene(1, "tokyo")
    with pytest.raises(ValueError, match="size must be"):
        generate_scene(1, size=(10, 10))
    with pytest.raises(ValueError, match="unknown scene kind"):
        generate_scene(1, kind="poster")
    with pytest.raises(SystemExit):
        main(["--out", "x", "--count", "1", "--region", "tokyo"])
    assert "invalid choice: 'tokyo'" in capsys.readouterr().err
