"""The reader on the held-out synthetic hand photos (`datasets.read_eval`): every meld, the concealed part
and the winning tile read exactly in ≥ 99 % of them from perfect detections (the scenes' own labels), and
the bundled model's figure kept from falling.

The set is varied by construction and checked here: all four regions, every meld kind, face-down and
sideways tiles, flowers, and hands turned up to upside down. Rendering takes about 0.2 s a scene, the
bundled model's run about a minute on two cores.
"""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from datasets.read_eval import REGIONS, compare, eval_region, eval_seeds, expected_hand, scene_detections
from datasets.synth import generate_scene
from vision.grouping import group_hand

COUNT = 320


def _hand_turn(scene) -> float:
    """How far the hand is turned in the photo (0–180°): its upright faces' mean direction."""
    angles = np.radians([t.up_angle for t in scene.tiles if t.group >= 0 and not t.sideways and t.tile != "back"])
    mean = np.degrees(np.arctan2(np.sin(angles).sum(), np.cos(angles).sum()))
    return abs((mean + 180) % 360 - 180)


def _meld_kinds(scene) -> set[str]:
    kinds = set()
    for group in scene.groups:
        if group["kind"] == "meld":
            meld = scene.hand["melds"][group["meld"]]
            backs = sum(scene.tiles[i].tile == "back" for i in group["tiles"])
            kinds.add(f"concealed kong, {backs} backs" if meld.get("concealed")
                      else "added kong" if meld.get("added") else meld["type"])
    return kinds


def test_ground_truth_detections_read_exactly() -> None:
    failures, regions, kinds, turns, flowers = [], Counter(), set(), [], 0
    for seed in eval_seeds(COUNT):
        scene = generate_scene(seed, eval_region(seed))
        reading = group_hand(scene_detections(scene), scene.region)
        result = compare(reading.player, reading.win_tile, scene)
        if not result.exact:
            failures.append(f"{seed} {scene.region}: {'; '.join(result.wrong)}")
        regions[scene.region] += 1
        kinds |= _meld_kinds(scene)
        turns.append(_hand_turn(scene))
        flowers += bool(expected_hand(scene)["flowers"])
    assert regions == {r: COUNT // 4 for r in ("wenling", "fuzhou", "daishan", "baicheng")}
    assert kinds >= {"chow", "pung", "kong", "added kong", "concealed kong, 2 backs", "concealed kong, 4 backs"}
    assert max(turns) > 170 and sum(60 < t < 120 for t in turns) >= 5 and flowers >= COUNT // 4
    assert len(failures) <= COUNT // 100, "\n".join(failures)


def test_bundled_model_reads_exactly() -> None:
    from vision.detector import TileDetector
    from vision.images import Photo
    from vision.read import hand_reading

    detector = TileDetector()
    failures = []
    for seed in eval_seeds(COUNT):
        scene = generate_scene(seed, eval_region(seed))
        height, width = scene.image.shape[:2]
        reading, _ = hand_reading(Photo(scene.image, width, height), detector, scene.region)
        result = compare(reading.player, reading.win_tile, scene)
        if not result.exact:
            failures.append(f"{seed} {scene.region}: {'; '.join(result.wrong)}")
    # The target is 95 %; the bundled model reads 279 of 320 (87.2 %, 2026-12-04; docs/performance.md
    # says why): this guards that figure against regressions.
    assert len(failures) <= COUNT * 20 // 100, f"{len(failures)} of {COUNT} wrong:\n" + "\n".join(failures)


@pytest.mark.parametrize("seed, taken", [(9_001_194, "x"), (9_006_088, "y"), (9_004_028, "region")])
def test_a_hand_not_legal_as_read_is_read_again_from_a_second_look(seed: int, taken: str) -> None:
    # development scenes (never trained on), read as is not legal: in the first a face-down tile has no box
    # (the nearest at IoU 0.18), in the second a 3m is read 7m from the box found for it, in the third two
    # 4s are boxed at IoU 0.46-0.48 only. The looks are tried in turn (left to right mirrored, top to bottom,
    # the hand's region alone, each pooled with the first): the one taken is the first to read the hand legal,
    # and exactly
    from vision.detector import TileDetector
    from vision.images import Photo
    from vision.read import hand_reading, hand_region

    detector = TileDetector()
    scene = generate_scene(seed, REGIONS[seed % 4])
    height, width = scene.image.shape[:2]
    photo = Photo(scene.image, width, height)
    first = detector.detect(photo)
    around = hand_region(group_hand(first, scene.region, frame=(width, height)), first, (width, height))
    looks = {"x": {"mirror": "x"}, "y": {"mirror": "y"}, "region": {"region": around}}
    legal = {name: not group_hand(detector.detect(photo, **look), scene.region, frame=(width, height)).problems
             for name, look in looks.items()}
    order = list(looks)
    assert [legal[name] for name in order[: order.index(taken) + 1]] == [False] * order.index(taken) + [True]
    reading, detections = hand_reading(photo, detector, scene.region)
    assert not reading.problems and compare(reading.player, reading.win_tile, scene).exact
    assert len(detections) == len(detector.detect(photo, **looks[taken]))
