"""The held-out synthetic hand photos that measure the reader (`vision.grouping`, `vision.read`).

Scenes come from `datasets.synth.generate_scene` with the seeds from 9,100,000 on, kept out of training
and out of the reader's development (which looked at seeds 9,000,000–9,099,999): no training data may
use seeds 9,000,000–9,199,999. The regions take turns, a quarter of the set each. A scene is read
*exactly* when the player's concealed tiles, every meld (type, tiles, concealed/added, source seat) and
the flowers equal the scene's labels and the winning tile is the one set apart. The identity of a
concealed kong shown with four backs is not in the picture, so a reading that leaves it blank matches.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import numpy as np

from vision.detections import BACK, Detections

EVAL_SEED_START = 9_100_000
REGIONS = ("wenling", "fuzhou", "daishan", "baicheng")


def eval_seeds(count: int, start: int = EVAL_SEED_START) -> range:
    """``count`` evaluation seeds from ``start`` (the held-out ones unless given: development sets start at
    9,000,000)."""
    return range(start, start + count)


def eval_region(seed: int) -> str:
    """The region of an evaluation scene."""
    return REGIONS[seed % len(REGIONS)]


def scene_detections(scene: Any) -> Detections:
    """Perfect detections: the scene's label boxes, tiles, sideways flags and face angles."""
    return Detections(
        xyxy=np.array([t.box for t in scene.tiles], np.float32).reshape(-1, 4),
        tiles=tuple(t.tile for t in scene.tiles),
        confidence=np.ones(len(scene.tiles), np.float32),
        sideways=np.array([t.sideways for t in scene.tiles], bool),
        angle=np.array([t.up_angle for t in scene.tiles], np.float32),
    )


def expected_hand(scene: Any) -> dict[str, Any]:
    """The scene's hand as a reader can see it: a concealed kong with four backs has blank tiles."""
    melds = [dict(m) for m in scene.hand["melds"]]
    for group in scene.groups:
        if group["kind"] == "meld" and all(scene.tiles[i].tile == BACK for i in group["tiles"]):
            melds[group["meld"]]["tiles"] = ""
    return {**scene.hand, "melds": melds, "win_tile": scene.win_tile}


def _meld_key(meld: dict[str, Any]) -> str:
    return json.dumps({k: v for k, v in meld.items() if v not in (None, False)}, sort_keys=True)


@dataclass(frozen=True)
class Comparison:
    """What a reading got wrong against the scene (empty ``wrong`` = exact)."""

    seed: int
    region: str
    wrong: tuple[str, ...]

    @property
    def exact(self) -> bool:
        return not self.wrong


def compare(player: dict[str, Any], win_tile: str | None, scene: Any) -> Comparison:
    """Compare a reading (player's part and winning tile) with the scene's hand."""
    want = expected_hand(scene)
    wrong = []
    if player["concealed"] != want["concealed"]:
        wrong.append(f"concealed {player['concealed']} != {want['concealed']}")
    if win_tile != want["win_tile"]:
        wrong.append(f"winning tile {win_tile} != {want['win_tile']}")
    got_melds = sorted(_meld_key(m) for m in player["melds"])
    want_melds = sorted(_meld_key(m) for m in want["melds"])
    if got_melds != want_melds:
        wrong.append(f"melds {got_melds} != {want_melds}")
    if player["flowers"] != want["flowers"]:
        wrong.append(f"flowers {player['flowers']} != {want['flowers']}")
    return Comparison(scene.seed, scene.region, tuple(wrong))
