"""Synthetic photos of revealed mahjong hands with exact labels (the only source of face-down tiles).

Each scene is a small 3D world drawn with OpenCV: tiles are cuboids (face 3×4 units, 1.8–2.5 deep,
an ivory face layer over a coloured back layer) on a procedural table, seen through a pinhole camera
from nearly top-down to a low phone angle, at any rotation, under shading, soft shadows, glare,
colour cast, vignetting, blur, noise and JPEG compression. `generate_scene(seed)` is deterministic.

Layout conventions (the grouping step is written against these; "left/right" are the player's):

- **Concealed row**: the player's concealed tiles side by side, nearly touching (gaps ≤ 0.08 tile
  widths), either all standing with their faces towards the player or all lying face up with the top
  of each face pointing away from the player.
- **Winning tile**: at the right end of the concealed row, in the row's pose, set apart by a gap of
  0.4–1.2 tile widths.
- **Melds**: lying face up, in one line in front of the concealed row (nearer the player), or on the
  row's line to its left, or to its right beyond the winning tile (then at least 1.4 widths away).
  Groups are ≥ 0.45 tile widths apart; tiles inside a group nearly touch (gaps ≤ 0.1 widths).
  - A claimed meld (chow, pung, exposed kong) has exactly one tile turned 90° (sideways). Its
    position names the seat it was claimed from: left end = 上家 (seat − 1), right end = 下家
    (seat + 1), anywhere between = 对家 (seat + 2). A chow is claimed from 上家 only, so its
    claimed tile is at its left end, the other two follow in ascending order.
  - An added kong (加杠) is the claimed pung with the fourth tile lying on top of the sideways tile
    (in the same orientation, so also sideways) or of the middle tile, shifted about half a tile so
    that both faces show.
  - A concealed kong (暗杠) is four tiles in a row with the two end tiles face down, or all four face
    down.
- **Flowers** (and tiles a region lays aside like flowers: Wenling's exposed Whites `5z`, Fuzhou's
  winds and dragons): a separate short row of face-up tiles beyond the concealed row (0.27–1 tile
  widths further from the player, more behind a standing row), or on the row's line at least 1.2 tile
  widths to the left or right of everything else.
- Sometimes more tiles lie behind the hand (as seen from the camera): a wall of face-down tiles,
  another player's standing row seen from behind, discards or stray tiles. They carry group -1.

Labels: for every tile whose face (or back) shows at least 40 % of its area, the axis-aligned box of
that face quad in image pixels (clipped to the image), its class (a tile code or ``back``),
``sideways`` (turned 90° against its row: a claimed tile), ``up_angle`` (image direction of the
face's top edge, degrees clockwise from up), its group and whether it lies on another tile
(``stacked``). Hands are legal winning hands of the
region by construction, with at most four of a kind (one of each flower) in the whole scene.

CLI: ``python -m datasets.synth --out DIR --count N --seed S [--region R] [--kind K] [--preview]``
writes ``images/``, ``labels/`` (YOLO, 43 classes: the tile codes then ``back``) and ``scenes.jsonl``.
"""
from __future__ import annotations

import argparse
import csv
import json
import math
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Sequence

import cv2
import numpy as np

from scoring.tiles import FLOWERS, PLAYING_TILES, format_tiles
from vision.detections import BACK, CLASS_NAMES
from vision.images import fit_within

SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
REGIONS = ("wenling", "fuzhou", "daishan", "baicheng")
KINDS = ("hand", "hand_only", "tiles")
"""``hand``: a revealed hand, sometimes with other tiles behind it; ``hand_only``: the hand alone;
``tiles``: no hand, loose tiles (grids, rows, walls, strays) for detector variety."""

FACE_W, FACE_H = 3.0, 4.0
MIN_VISIBLE = 0.4
TEX_W, TEX_H = 120, 160
UNKNOWN = "?"
"""The face of a tile that is only ever seen face down (walls, other players' rows)."""
ROW_GAP = (0.03, 0.2)
"""Gap between neighbouring tiles of one group, in world units (a tile is 3 wide)."""

Rng = np.random.Generator


# ----------------------------------------------------------------------------------------------
# Public structures


@dataclass(frozen=True)
class SceneTile:
    """One labelled tile: ``box`` x1, y1, x2, y2 in pixels; ``quad`` the face corners (top-left,
    top-right, bottom-right, bottom-left of the face as printed); ``stacked`` when it lies on
    another tile (an added kong's fourth tile, a wall's upper layer)."""

    box: tuple[float, float, float, float]
    tile: str
    sideways: bool
    up_angle: float
    group: int
    quad: tuple[tuple[float, float], ...]
    stacked: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "box": [round(v, 2) for v in self.box],
            "tile": self.tile,
            "sideways": self.sideways,
            "up_angle": round(self.up_angle, 1),
            "group": self.group,
            "quad": [[round(x, 2), round(y, 2)] for x, y in self.quad],
            "stacked": self.stacked,
        }


@dataclass
class Scene:
    """A rendered scene: BGR image, labels, the player's part of the table record and its groups.

    ``groups[i]`` is ``{"kind": "concealed"|"winning"|"meld"|"flowers", "meld": index or None,
    "tiles": [indices into tiles, left to right]}``; ``mask`` maps each pixel to the index of the
    labelled tile whose face (or back) shows there, -1 elsewhere.
    """

    image: np.ndarray
    tiles: list[SceneTile]
    hand: dict[str, Any]
    win_tile: str | None
    region: str
    groups: list[dict[str, Any]]
    seed: int
    kind: str
    mask: np.ndarray = field(repr=False)

    def to_json(self) -> dict[str, Any]:
        """One line of scenes.jsonl (everything but the pixels)."""
        return {
            "seed": self.seed,
            "kind": self.kind,
            "region": self.region,
            "width": int(self.image.shape[1]),
            "height": int(self.image.shape[0]),
            "hand": self.hand,
            "win_tile": self.win_tile,
            "groups": self.groups,
            "tiles": [t.to_json() for t in self.tiles],
        }


# ----------------------------------------------------------------------------------------------
# Hands


@dataclass(frozen=True)
class MeldPlan:
    """A meld as laid: ``tiles`` left to right; ``claimed`` the index of the sideways tile."""

    kind: str  # chow | pung | kong | added_kong | concealed_kong
    tiles: tuple[str, ...]
    claimed: int | None = None
    backs: int = 0
    stack_on: int | None = None

    def source(self, seat: int) -> int | None:
        """The seat the claimed tile came from, read from its position."""
        if self.claimed is None:
            return None
        if self.claimed == 0:
            return (seat + 3) % 4
        laid = 3 if self.kind == "added_kong" else len(self.tiles)
        return (seat + 1) % 4 if self.claimed == laid - 1 else (seat + 2) % 4

    def record(self, seat: int) -> dict[str, Any]:
        meld: dict[str, Any] = {
            "type": "chow" if self.kind == "chow" else "pung" if self.kind == "pung" else "kong",
            "tiles": format_tiles(self.tiles),
        }
        if self.kind == "concealed_kong":
            meld["concealed"] = True
        if self.kind == "added_kong":
            meld["added"] = True
        if self.claimed is not None:
            meld["from"] = self.source(seat)
        return meld


@dataclass(frozen=True)
class HandPlan:
    """A winning hand as the player lays it out."""

    region: str
    row: tuple[str, ...]
    win_tile: str
    melds: tuple[MeldPlan, ...]
    flowers: tuple[str, ...]

    def record(self, seat: int = 0) -> dict[str, Any]:
        """The player's part of a table record (table-format.md)."""
        return {
            "concealed": format_tiles(self.row + (self.win_tile,)),
            "melds": [m.record(seat) for m in self.melds],
            "flowers": format_tiles(self.flowers),
        }

    def tiles(self) -> list[str]:
        """Every physical tile of the hand, flowers included."""
        out = list(self.row) + [self.win_tile] + list(self.flowers)
        for meld in self.melds:
            out += meld.tiles
        return out


def _hand_kinds(region: str) -> list[str]:
    """Tile kinds that may stand in a hand or meld of the region."""
    if region == "fuzhou":
        return [t for t in PLAYING_TILES if t[1] != "z"]
    if region == "wenling":
        return [t for t in PLAYING_TILES if t != "5z"]
    return list(PLAYING_TILES)


def _take(pool: Counter, tiles: Sequence[str]) -> bool:
    need = Counter(tiles)
    if any(pool[t] < n for t, n in need.items()):
        return False
    pool.subtract(need)
    return True


def _draw_set(rng: Rng, pool: Counter, kinds: list[str], shape: str) -> tuple[str, ...] | None:
    """Draw a sequence, triplet or quad from the pool (None when none is left)."""
    if shape == "sequence":
        options = [
            tuple(f"{n + i}{s}" for i in range(3))
            for s in "mps"
            for n in range(1, 8)
            if f"{n}{s}" in kinds and all(pool[f"{n + i}{s}"] > 0 for i in range(3))
        ]
    else:
        size = 4 if shape == "quad" else 3
        options = [(t,) * size for t in kinds if pool[t] >= size]
    if not options:
        return None
    chosen = options[rng.integers(len(options))]
    _take(pool, chosen)
    return chosen


def _draw_flowers(rng: Rng, pool: Counter, region: str) -> list[str]:
    if region == "baicheng":
        return []
    flowers = [f for f in FLOWERS if pool[f] > 0]
    count = int(rng.choice([0, 1, 2, 3, 4], p=[0.25, 0.3, 0.25, 0.13, 0.07]))
    out = [str(f) for f in rng.choice(flowers, size=min(count, len(flowers)), replace=False)]
    if region == "wenling":
        out += ["5z"] * int(rng.choice([0, 1, 2, 3], p=[0.5, 0.3, 0.15, 0.05]))
    if region == "fuzhou":
        for _ in range(int(rng.choice([0, 1, 2, 3, 4, 5], p=[0.3, 0.25, 0.2, 0.12, 0.08, 0.05]))):
            out.append(f"{rng.integers(1, 8)}z")
    kept = [t for t in out if _take(pool, [t])]
    return kept


def _baicheng_ok(hand: HandPlan, sets: list[tuple[str, ...]], pair: str) -> bool:
    """Baicheng win conditions: all three suits, a terminal or honour, and a triplet (or dragon pair)."""
    tiles = hand.tiles()
    suits = {t[1] for t in tiles}
    terminal = any(t[1] == "z" or t[0] in "19" for t in tiles)
    triplet = any(s[0] == s[1] for s in sets) or pair in ("5z", "6z", "7z")
    return {"m", "p", "s"} <= suits and terminal and triplet


_MELD_KINDS = ("chow", "pung", "kong", "added_kong", "concealed_kong")
_MELD_WEIGHTS = (0.32, 0.28, 0.12, 0.13, 0.15)


def random_hand(rng: Rng, region: str, pool: Counter | None = None) -> HandPlan:
    """A legal winning hand of the region, drawn from ``pool`` (which it updates)."""
    for _ in range(200):
        trial = Counter(pool) if pool is not None else Counter({t: 4 for t in PLAYING_TILES} | {f: 1 for f in FLOWERS})
        hand = _try_hand(rng, region, trial)
        if hand is not None:
            if pool is not None:
                pool.clear()
                pool.update(trial)
            return hand
    raise RuntimeError(f"could not build a {region} hand from the remaining tiles")


def _try_hand(rng: Rng, region: str, pool: Counter) -> HandPlan | None:
    kinds = _hand_kinds(region)
    if region == "daishan" and rng.random() < 0.15:
        pairs = [str(t) for t in rng.choice(kinds, size=7, replace=False)]
        if not all(_take(pool, [t, t]) for t in pairs):
            return None
        concealed = [t for t in pairs for _ in range(2)]
        melds: list[MeldPlan] = []
        sets: list[tuple[str, ...]] = []
        pair = pairs[0]
    else:
        n_sets = 5 if region in ("wenling", "fuzhou") else 4
        weights = np.array([0.14, 0.24, 0.26, 0.2, 0.11, 0.05][: n_sets + 1])
        n_melds = int(rng.choice(n_sets + 1, p=weights / weights.sum()))
        concealed, melds, sets = [], [], []
        for i in range(n_sets):
            if i < n_melds:
                kind = str(rng.choice(_MELD_KINDS, p=_MELD_WEIGHTS))
                shape = "sequence" if kind == "chow" else "triplet" if kind == "pung" else "quad"
                tiles = _draw_set(rng, pool, kinds, shape)
                if tiles is None:
                    return None
                melds.append(_lay_meld(rng, kind, tiles))
            else:
                tiles = _draw_set(rng, pool, kinds, "sequence" if rng.random() < 0.7 else "triplet")
                if tiles is None:
                    return None
                concealed += tiles
            sets.append(tiles)
        pair_options = [t for t in kinds if pool[t] >= 2]
        pair = str(pair_options[rng.integers(len(pair_options))])
        _take(pool, [pair, pair])
        concealed += [pair, pair]
    win = concealed.pop(int(rng.integers(len(concealed))))
    flowers = _draw_flowers(rng, pool, region)
    hand = HandPlan(region, tuple(_sort_row(rng, concealed)), win, tuple(melds), tuple(flowers))
    if region == "baicheng" and not _baicheng_ok(hand, sets, pair):
        return None
    return hand


def _lay_meld(rng: Rng, kind: str, tiles: tuple[str, ...]) -> MeldPlan:
    if kind == "chow":
        first = int(rng.integers(3))
        rest = [t for i, t in enumerate(tiles) if i != first]
        return MeldPlan(kind, (tiles[first], *rest), claimed=0)
    if kind == "pung":
        return MeldPlan(kind, tiles, claimed=int(rng.integers(3)))
    if kind == "kong":
        return MeldPlan(kind, tiles, claimed=int(rng.choice([0, 1, 2, 3])))
    if kind == "added_kong":
        claimed = int(rng.integers(3))
        return MeldPlan(kind, tiles, claimed=claimed, stack_on=claimed if rng.random() < 0.7 else 1)
    return MeldPlan(kind, tiles, backs=2 if rng.random() < 0.6 else 4)


def _sort_row(rng: Rng, tiles: list[str]) -> list[str]:
    """Players sort their tiles by suit (in their own suit order) and number; some leave a few out of place."""
    order = "mpsz" if rng.random() < 0.5 else "".join(rng.permutation(list("mps"))) + "z"
    row = sorted(tiles, key=lambda t: (order.index(t[1]), t[0]))
    if rng.random() < 0.2 and len(row) > 2:
        for _ in range(int(rng.integers(1, 4))):
            i, j = rng.integers(len(row), size=2)
            row[i], row[j] = row[j], row[i]
    return row


# ----------------------------------------------------------------------------------------------
# Bodies and layout (hand frame: x along the row to the player's right, y away from the player, z up)


@dataclass
class Body:
    """A cuboid: ``axes`` columns are the face's right, the face's up and the face normal; ``half``
    the half extents along them. ``face`` is the printed tile code (None for a prop)."""

    center: np.ndarray
    axes: np.ndarray
    half: np.ndarray
    face: str | None
    sideways: bool = False
    group: int = -1
    colour: tuple[float, float, float] | None = None


_POSES: dict[str, tuple[tuple[float, ...], tuple[float, ...]]] = {
    # pose: (face right a, face up b); the face normal is a × b
    "up": ((1, 0, 0), (0, 1, 0)),
    "up_left": ((0, 1, 0), (-1, 0, 0)),
    "up_right": ((0, -1, 0), (1, 0, 0)),
    "down": ((-1, 0, 0), (0, 1, 0)),
    "stand": ((1, 0, 0), (0, 0, 1)),
    "stand_back": ((-1, 0, 0), (0, 0, 1)),
}


def _rot_z(angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])


class _Layout:
    """Places tile bodies by their footprint's near-left corner."""

    def __init__(self, rng: Rng, depth: float) -> None:
        self.rng = rng
        self.depth = depth
        self.bodies: list[Body] = []
        self.groups: list[dict[str, Any]] = []

    def extent(self, pose: str) -> tuple[float, float, float]:
        a, b = (np.array(v, float) for v in _POSES[pose])
        n = np.cross(a, b)
        ext = np.abs(a) * FACE_W + np.abs(b) * FACE_H + np.abs(n) * self.depth
        return float(ext[0]), float(ext[1]), float(ext[2])

    def tile(self, code: str, pose: str, x: float, y: float, *, z: float = 0.0, sideways: bool = False,
             group: int = -1, yaw: float | None = None) -> Body:
        a, b = (np.array(v, float) for v in _POSES[pose])
        ex, ey, ez = self.extent(pose)
        rot = _rot_z(self.rng.normal(0, 0.02) if yaw is None else yaw)
        axes = rot @ np.stack([a, b, np.cross(a, b)], 1)
        center = np.array([x + ex / 2, y + ey / 2, z + ez / 2])
        body = Body(center, axes, np.array([FACE_W / 2, FACE_H / 2, self.depth / 2]), code, sideways, group)
        self.bodies.append(body)
        return body

    def group(self, kind: str, meld: int | None = None) -> int:
        self.groups.append({"kind": kind, "meld": meld, "bodies": []})
        return len(self.groups) - 1

    def row(self, codes: Sequence[str], pose: str, x: float, y: float, group: int, gap: float) -> float:
        """Lay codes left to right from x; returns the x after the last tile."""
        right = x
        for code in codes:
            ex = self.extent(pose)[0]
            self.groups[group]["bodies"].append(len(self.bodies))
            self.tile(code, pose, x, y, group=group)
            right = x + ex
            x = right + gap * self.rng.uniform(0.5, 1.5)
        return right

    def meld(self, meld: MeldPlan, x: float, y: float, group: int, stack_dir: float) -> float:
        """Lay one meld from x with its near edge on y; returns the x after it."""
        gap = self.rng.uniform(*ROW_GAP)
        turn = "up_left" if self.rng.random() < 0.6 else "up_right"
        align_near = self.rng.random() < 0.7
        right = x
        for i, code in enumerate(meld.tiles):
            if meld.kind == "added_kong" and i == 3:
                break
            sideways = i == meld.claimed
            if meld.kind == "concealed_kong":
                pose = "down" if meld.backs == 4 or i in (0, 3) else "up"
            else:
                pose = turn if sideways else "up"
            ex, ey, _ = self.extent(pose)
            y0 = y if align_near or not sideways else y + (FACE_H - ey) / 2
            self.groups[group]["bodies"].append(len(self.bodies))
            self.tile(code, pose, x, y0, sideways=sideways, group=group)
            if meld.kind == "added_kong" and i == meld.stack_on:
                shift = self.rng.uniform(0.45, 0.5) * ey * stack_dir
                self.groups[group]["bodies"].append(len(self.bodies))
                self.tile(meld.tiles[3], pose, x + self.rng.normal(0, 0.08), y0 + shift, z=self.depth,
                          sideways=sideways, group=group)
            right = x + ex
            x = right + gap * self.rng.uniform(0.5, 1.5)
        return right

    def meld_width(self, meld: MeldPlan) -> float:
        laid = 3 if meld.kind != "kong" and meld.kind != "concealed_kong" else 4
        return laid * FACE_W + (FACE_H - FACE_W) * (meld.claimed is not None) + 0.12 * laid


@dataclass(frozen=True)
class _View:
    """Camera angles in degrees: elevation above the table, azimuth of the camera around the hand
    (0 = the player's side), roll about the optical axis; horizontal field of view; hand fill."""

    elevation: float
    azimuth: float
    roll: float
    fov: float
    fill: float

    @property
    def toward_camera(self) -> np.ndarray:
        """Unit vector on the table from the hand towards the camera (hand frame)."""
        az = math.radians(self.azimuth)
        return np.array([math.sin(az), -math.cos(az), 0.0])


def _random_view(rng: Rng, standing: bool) -> _View:
    """A camera for a standing row sees the faces from in front and not too high; lying hands are
    seen from any side when the camera is high, from in front or behind (±50°) when it is low, as
    nobody photographs a row end-on."""
    if standing:
        elevation, azimuth = rng.uniform(24, 58), rng.uniform(-38, 38)
    else:
        elevation = rng.uniform(60, 89) if rng.random() < 0.4 else rng.uniform(25, 60)
        if rng.random() < 0.45:
            azimuth = rng.normal(0, 20)
        elif elevation > 55:
            azimuth = rng.uniform(-180, 180)
        else:
            azimuth = rng.uniform(-50, 50) + (180 if rng.random() < 0.4 else 0)
    roll = rng.normal(0, 5) + (90 * rng.choice([-1, 1]) if rng.random() < 0.12 else 0)
    return _View(elevation, azimuth, roll, rng.uniform(48, 72), rng.uniform(0.6, 0.95))


def _layout_hand(rng: Rng, hand: HandPlan, view: _View, standing: bool, layout: _Layout,
                 meld_side: str | None = None, flower_side: str | None = None) -> None:
    """Lay out the hand by the module's conventions (see the module docstring); the melds go to
    ``meld_side`` (front, left or right) and the flowers to ``flower_side`` (above, left or right),
    random where None."""
    depth = layout.depth
    row_pose = "stand" if standing else "up"
    row_depth = layout.extent(row_pose)[1]
    tan_el = math.tan(math.radians(view.elevation))
    concealed = layout.group("concealed")
    x_end = layout.row(hand.row, row_pose, 0.0, 0.0, concealed, rng.uniform(0.02, 0.15))
    winning = layout.group("winning")
    win_x = x_end + rng.uniform(0.4, 1.2) * FACE_W
    right = layout.row([hand.win_tile], row_pose, win_x, rng.normal(0, 0.1), winning, 0.0)

    toward = view.toward_camera
    stack_dir = -1.0 if toward[1] > 0 else 1.0
    if hand.melds:
        meld_side = meld_side or str(rng.choice(["front", "left", "right"], p=[0.6, 0.2, 0.2]))
        gaps = [rng.uniform(0.45, 1.3) * FACE_W for _ in hand.melds]
        width = sum(layout.meld_width(m) for m in hand.melds) + sum(gaps[1:])
        if meld_side == "front":
            gap = rng.uniform(0.6, 3.0) + (depth / tan_el if standing else 0.0)
            if stack_dir > 0 and any(m.kind == "added_kong" for m in hand.melds):
                gap += FACE_H / 2
            y = -gap - FACE_H
            x = rng.uniform(-2, 2) if rng.random() < 0.5 else right - width + rng.uniform(-2, 2)
        elif meld_side == "left":
            y, x = 0.0, -rng.uniform(0.8, 2.0) * FACE_W - width
        else:
            y, x = 0.0, right + rng.uniform(1.4, 2.5) * FACE_W
        for i, meld in enumerate(hand.melds):
            x += gaps[i] if i else 0.0
            x = layout.meld(meld, x, y, layout.group("meld", i), stack_dir)

    side = None
    if hand.flowers:
        sides = [s for s in ("above", "left", "right") if s != meld_side]
        side = flower_side or str(rng.choice(sides, p=[0.5, 0.25, 0.25] if len(sides) == 3 else [0.6, 0.4]))
        flowers = layout.group("flowers")
        gap = rng.uniform(0.03, 0.4)
        width = len(hand.flowers) * (FACE_W + gap)
        if side == "above":
            y = row_depth + rng.uniform(0.8, 3.0) + ((FACE_H - depth) / tan_el + 1.0 if standing else 0.0)
            x = rng.uniform(0, max(0.0, right - width))
        elif side == "left":
            y, x = 0.0, _min_x(layout) - rng.uniform(1.2, 2.5) * FACE_W - width
        else:
            y, x = 0.0, _max_x(layout) + rng.uniform(1.2, 2.5) * FACE_W
        layout.row(hand.flowers, "up", x, y, flowers, gap)

    if standing and side != "above" and rng.random() < 0.4:
        _rack(rng, layout, _min_x(layout) - 1, _max_x(layout) + 1, row_depth + rng.uniform(0.1, 0.5))


def _min_x(layout: _Layout) -> float:
    return min(float(b.center[0] - np.abs(b.axes[0]) @ b.half) for b in layout.bodies)


def _max_x(layout: _Layout) -> float:
    return max(float(b.center[0] + np.abs(b.axes[0]) @ b.half) for b in layout.bodies)


def _rack(rng: Rng, layout: _Layout, x0: float, x1: float, y: float) -> None:
    """A rack (a plain bar) behind a standing row."""
    colour = tuple(float(c) for c in rng.choice([[40, 70, 120], [30, 30, 30], [90, 130, 170], [60, 60, 140]]))
    height, depth = rng.uniform(1.2, 2.6), rng.uniform(2.0, 3.5)
    center = np.array([(x0 + x1) / 2, y + depth / 2, height / 2])
    layout.bodies.append(Body(center, np.eye(3), np.array([(x1 - x0) / 2, depth / 2, height / 2]), None, colour=colour))


# ----------------------------------------------------------------------------------------------
# Other tiles on the table


def _layout_distractors(rng: Rng, layout: _Layout, pool: Counter, kinds: list[str], toward: np.ndarray,
                        count: int) -> None:
    """Tiles that are not the player's hand, placed behind the hand as seen from the camera."""
    pts = np.array([b.center[:2] for b in layout.bodies])
    lo, hi = pts.min(0) - 3, pts.max(0) + 3
    center = (lo + hi) / 2
    radius = float(np.linalg.norm(hi - lo)) / 2
    away = -toward[:2] / max(1e-6, float(np.linalg.norm(toward[:2])))
    across = math.atan2(away[1], away[0]) - math.pi / 2
    distance = radius + rng.uniform(4, 12)
    first = len(layout.bodies)
    for _ in range(count):
        kind = str(rng.choice(["wall", "row_back", "discards", "strays"], p=[0.35, 0.25, 0.25, 0.15]))
        spot = center + away * distance + np.array([-away[1], away[0]]) * rng.uniform(-radius, radius) * 0.7
        yaw = across + rng.normal(0, 0.15)
        if kind == "wall":
            _wall(rng, layout, spot, yaw, int(rng.integers(5, 13)))
            distance += FACE_H * 2 + rng.uniform(2, 5)
        elif kind == "row_back":
            _block(rng, layout, spot, yaw, ["stand_back"] * int(rng.integers(8, 15)), [UNKNOWN] * 20, 1)
            distance += layout.depth + rng.uniform(3, 6)
        elif kind == "discards":
            codes = _pool_codes(rng, pool, kinds, int(rng.integers(4, 13)))
            _block(rng, layout, spot, yaw, ["up"] * len(codes), codes, 6, flip=rng.random() < 0.5)
            distance += FACE_H * math.ceil(len(codes) / 6) + rng.uniform(3, 6)
        else:
            for code in _pool_codes(rng, pool, kinds, int(rng.integers(1, 4))):
                p = spot + rng.normal(0, 4, 2)
                pose = "up" if rng.random() < 0.75 else "down"
                layout.tile(code, pose, p[0] - FACE_W / 2, p[1] - FACE_H / 2, yaw=rng.uniform(-math.pi, math.pi))
            distance += FACE_H * 2 + rng.uniform(2, 4)
    clear = [b for b in layout.bodies[first:] if ((b.center[:2] > lo - 3) & (b.center[:2] < hi + 3)).all()]
    layout.bodies[first:] = [b for b in layout.bodies[first:] if not any(b is c for c in clear)]


def _pool_codes(rng: Rng, pool: Counter, kinds: list[str], n: int) -> list[str]:
    out = []
    for _ in range(n):
        options = [t for t in kinds if pool[t] > 0]
        if not options:
            break
        code = options[rng.integers(len(options))]
        pool[code] -= 1
        out.append(code)
    return out


def _block(rng: Rng, layout: _Layout, spot: np.ndarray, yaw: float, poses: list[str], codes: list[str],
           per_row: int, flip: bool = False) -> None:
    """Tiles in rows of ``per_row`` from ``spot``, the block turned by ``yaw`` (hand frame), each
    tile too (upside down when ``flip``); later rows lie further along the turned +y."""
    rot = _rot_z(yaw)
    ex, ey, _ = layout.extent(poses[0])
    gap = rng.uniform(*ROW_GAP)
    cols = min(per_row, len(poses)) if per_row > 1 else len(poses)
    for i, pose in enumerate(poses):
        r, c = divmod(i, cols)
        local = np.array([(c - (cols - 1) / 2) * (ex + gap), r * (ey + gap * 2), 0.0])
        x, y, _ = rot @ local
        body = layout.tile(codes[i], pose, 0, 0, yaw=yaw + math.pi * flip + rng.normal(0, 0.03))
        body.center[:2] = [spot[0] + x, spot[1] + y]


def _wall(rng: Rng, layout: _Layout, spot: np.ndarray, yaw: float, stacks: int) -> None:
    """A wall of face-down tiles two high."""
    rot = _rot_z(yaw)
    gap = rng.uniform(0.02, 0.1)
    for i in range(stacks):
        for level in range(2):
            local = np.array([(i - (stacks - 1) / 2) * (FACE_W + gap), 0.0, 0.0])
            x, y, _ = rot @ local
            body = layout.tile(UNKNOWN, "down", 0, 0, z=level * layout.depth, yaw=yaw + rng.normal(0, 0.02))
            body.center[:2] = [spot[0] + x, spot[1] + y]


def _layout_loose(rng: Rng, layout: _Layout, pool: Counter, kinds: list[str]) -> None:
    """Tiles without a hand: a grid like a photo of a spread set, rows with a sideways tile, a wall, strays."""
    kind = str(rng.choice(["grid", "rows", "wall"], p=[0.4, 0.35, 0.25]))
    if kind == "grid":
        cols = int(rng.integers(3, 10))
        codes = _pool_codes(rng, pool, kinds + list(FLOWERS), cols * int(rng.integers(2, 6)))
        poses = ["up" if rng.random() < 0.9 else "down" for _ in codes]
        _block(rng, layout, np.zeros(2), 0.0, poses, codes, cols)
    elif kind == "rows":
        y = 0.0
        for _ in range(int(rng.integers(1, 4))):
            codes = _pool_codes(rng, pool, kinds, int(rng.integers(3, 9)))
            x = 0.0
            for code in codes:
                pose = "up" if rng.random() < 0.75 else str(rng.choice(["up_left", "up_right", "down"]))
                layout.tile(code, pose, x, y, sideways=pose.startswith("up_"))
                x += layout.extent(pose)[0] + rng.uniform(0.03, 1.5)
            y -= FACE_H + rng.uniform(0.5, 4)
    else:
        _wall(rng, layout, np.zeros(2), 0.0, int(rng.integers(4, 12)))
        _wall(rng, layout, np.array([0.0, -FACE_H - rng.uniform(1, 4)]), 0.0, int(rng.integers(4, 12)))
    strays = _pool_codes(rng, pool, kinds, int(rng.integers(0, 4)))
    for code in strays:
        p = rng.uniform(-15, 15, 2)
        layout.tile(code, "up", p[0], p[1] - 12, yaw=rng.uniform(-math.pi, math.pi))


# ----------------------------------------------------------------------------------------------
# Camera


@dataclass
class _Camera:
    K: np.ndarray
    R: np.ndarray
    C: np.ndarray
    width: int
    height: int

    def to_camera(self, pts: np.ndarray) -> np.ndarray:
        return (pts - self.C) @ self.R.T

    def project(self, pts: np.ndarray) -> np.ndarray:
        cam = self.to_camera(pts) @ self.K.T
        return cam[..., :2] / cam[..., 2:3]

    def table_homography(self) -> np.ndarray:
        """Table plane (x, y, 0) to image pixels."""
        t = -self.R @ self.C
        return self.K @ np.stack([self.R[:, 0], self.R[:, 1], t], 1)

    def corner_rays(self) -> np.ndarray:
        px = np.array([[0, 0, 1], [self.width, 0, 1], [self.width, self.height, 1], [0, self.height, 1]], float)
        return (np.linalg.inv(self.K) @ px.T).T @ self.R


def _camera(view: _View, target: np.ndarray, distance: float, size: tuple[int, int], shift=(0.0, 0.0)) -> _Camera:
    width, height = size
    el, az, roll = (math.radians(v) for v in (view.elevation, view.azimuth, view.roll))
    toward = np.array([math.sin(az), -math.cos(az), 0.0])
    C = target + distance * np.array([*(math.cos(el) * toward[:2]), math.sin(el)])
    forward = (target - C) / np.linalg.norm(target - C)
    right = np.array([math.cos(az), math.sin(az), 0.0])
    down = np.cross(forward, right)
    cr, sr = math.cos(roll), math.sin(roll)
    right, down = cr * right + sr * down, -sr * right + cr * down
    f = max(width, height) / 2 / math.tan(math.radians(view.fov) / 2)
    K = np.array([[f, 0, width / 2 + shift[0]], [0, f, height / 2 + shift[1]], [0, 0, 1]])
    return _Camera(K, np.stack([right, down, forward]), C, width, height)


def _corners(body: Body) -> np.ndarray:
    signs = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)], float)
    return body.center + (signs * body.half) @ body.axes.T


def _fit_camera(rng: Rng, view: _View, bodies: list[Body], size: tuple[int, int]) -> _Camera | None:
    """Place the camera so the bodies fill ``view.fill`` of the frame, at a random spot in it;
    None when the view would see above the horizon or put a body behind the camera."""
    pts = np.concatenate([_corners(b) for b in bodies])
    target = (pts.min(0) + pts.max(0)) / 2
    target[2] = 0.0
    width, height = size
    distance = float(np.linalg.norm(pts.max(0) - pts.min(0))) * 1.5
    for _ in range(6):
        cam = _camera(view, target, distance, size)
        if (cam.to_camera(pts)[:, 2] < 1.0).any():
            distance *= 1.5
            continue
        p = cam.project(pts)
        span = p.max(0) - p.min(0)
        distance *= max(span[0] / width, span[1] / height) / view.fill
    cam = _camera(view, target, distance, size)
    if (cam.to_camera(pts)[:, 2] < 1.0).any():
        return None
    p = cam.project(pts)
    lo, hi = p.min(0), p.max(0)
    margin = 0.03 * min(width, height)
    shift = []
    for axis, extent in enumerate((width, height)):
        a, b = margin - lo[axis], extent - margin - hi[axis]
        shift.append(rng.uniform(a, b) if a < b else (a + b) / 2)
    cam = _camera(view, target, distance, size, tuple(shift))
    if (cam.corner_rays()[:, 2] > -0.07).any():
        return None
    return cam


# ----------------------------------------------------------------------------------------------
# Tile faces, backs and table textures


def _riichi_name(code: str) -> str:
    n, suit = code
    if suit == "z":
        return ("Ton", "Nan", "Shaa", "Pei", "Haku", "Hatsu", "Chun")[int(n) - 1]
    return {"m": "Man", "p": "Pin", "s": "Sou"}[suit] + n


@lru_cache(maxsize=None)
def _art(kind: str, name: str) -> np.ndarray:
    """A source image as float32 BGRA in [0, 1] (alpha 1 where the file has none)."""
    folder = {"unicode": "tile-art/unicode-color", "riichi": "tile-art/riichi-regular", "photo": "tile-crops/images"}
    path = SHARED_DATA / folder[kind] / name
    image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if image is None:
        raise FileNotFoundError(f"missing tile art {path} (the synthetic scenes need ../shared/data)")
    if image.shape[2] == 3:
        image = np.dstack([image, np.full(image.shape[:2], 255, np.uint8)])
    if kind == "photo":
        h, w = image.shape[:2]
        image = image[int(h * 0.035): h - int(h * 0.035), int(w * 0.04): w - int(w * 0.04)]
    return cv2.resize(image, (TEX_W, TEX_H), interpolation=cv2.INTER_AREA).astype(np.float32) / 255


TILE_PHOTO_FIXES = {"133.jpg": "8p", "350.jpg": "9p"}
"""Single-tile photos (`tile-crops`) labelled with another tile than they show, found by eye on 2026-12-01
(every photo looked at): image → the tile shown (labelled 8m and 8p)."""


def tile_photo_labels() -> list[tuple[str, str]]:
    """(image file name, tile code) of every single-tile photo, its label mended where TILE_PHOTO_FIXES says."""
    with open(SHARED_DATA / "tile-crops" / "labels.csv", newline="") as handle:
        return [(row["image"], TILE_PHOTO_FIXES.get(row["image"], row["tile_code"])) for row in csv.DictReader(handle)]


@lru_cache(maxsize=None)
def _photos_by_code() -> dict[str, tuple[str, ...]]:
    out: dict[str, list[str]] = {}
    for image, code in tile_photo_labels():
        out.setdefault(code, []).append(image)
    return {code: tuple(names) for code, names in out.items()}


@lru_cache(maxsize=8)
def _bevel(width: float, strength: float) -> np.ndarray:
    """Darkening towards a rounded rectangle's edge: the rounded look of a tile face."""
    mask = np.zeros((TEX_H, TEX_W), np.uint8)
    r = int(TEX_W * 0.12)
    cv2.rectangle(mask, (r, 0), (TEX_W - 1 - r, TEX_H - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (TEX_W - 1, TEX_H - 1 - r), 255, -1)
    for cx, cy in ((r, r), (TEX_W - 1 - r, r), (r, TEX_H - 1 - r), (TEX_W - 1 - r, TEX_H - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1)
    dist = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
    ramp = np.clip(dist / (width * TEX_W), 0, 1)
    return (1 - strength * (1 - ramp) ** 2)[..., None].astype(np.float32)


def _mips(texture: np.ndarray) -> list[np.ndarray]:
    levels = [np.clip(texture * 255, 0, 255).astype(np.uint8)]
    for _ in range(2):
        levels.append(cv2.pyrDown(levels[-1]))
    return levels


class _TileSet:
    """One table's tile set: face art style, ivory and back colours, bevel."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng
        self.style = str(rng.choice(["unicode", "riichi", "photo"], p=[0.3, 0.3, 0.4]))
        warm = rng.uniform(0, 1)
        self.ivory = np.array([238 - 30 * warm, 243 - 12 * warm, 244], np.float32) / 255 * rng.uniform(0.93, 1.0)
        hue = np.array(rng.choice(_BACK_COLOURS), np.float32)
        self.back_colour = np.clip(hue * rng.uniform(0.8, 1.15) + rng.normal(0, 10, 3), 0, 255) / 255
        self.face_layer = rng.uniform(0.4, 0.65)
        self.bevel = _bevel(round(rng.uniform(0.05, 0.1), 2), round(rng.uniform(0.15, 0.35), 2))
        self.white = str(rng.choice(["unicode", "blue", "blank", "photo"]))
        self.flower_style = "unicode" if self.style == "unicode" else str(rng.choice(["unicode", "photo"]))
        self.ink = rng.uniform(0.75, 1.0)
        self._faces: dict[str, list[np.ndarray]] = {}
        self.back = _mips(self._back_texture())

    def face(self, code: str) -> list[np.ndarray]:
        if code not in self._faces:
            self._faces[code] = _mips(self._face_texture(code))
        return self._faces[code]

    def _face_texture(self, code: str) -> np.ndarray:
        style = self.flower_style if code[1] == "f" else self.style
        canvas = np.ones((TEX_H, TEX_W, 3), np.float32) * self.ivory
        if code == "5z" and style != "photo":
            style = self.white
        if code == UNKNOWN:
            style = "blank"
        if style == "photo":
            names = _photos_by_code()[code]
            art = _art("photo", names[self.rng.integers(len(names))])
            return art[..., :3] * self.bevel
        if style == "blank":
            return canvas * self.bevel
        if style == "riichi":
            art = _art("riichi", _riichi_name(code) + ".png")
            alpha = art[..., 3:] * self.ink
            return (canvas * (1 - alpha) + art[..., :3] * alpha) * self.bevel
        art = _art("unicode", code + ".png")
        ink = art[..., :3] * art[..., 3:] + (1 - art[..., 3:])
        if style == "blue":
            ink = ink[..., [1, 0, 2]]
        ink = 1 - (1 - ink) * self.ink
        scale = self.rng.uniform(0.84, 0.94)
        h, w = int(TEX_H * scale), int(TEX_W * scale)
        small = cv2.resize(ink, (w, h), interpolation=cv2.INTER_AREA)
        y0, x0 = (TEX_H - h) // 2, (TEX_W - w) // 2
        canvas[y0: y0 + h, x0: x0 + w] *= small
        return canvas * self.bevel

    def _back_texture(self) -> np.ndarray:
        texture = np.ones((TEX_H, TEX_W, 3), np.float32) * self.back_colour
        look = self.rng.random()
        if look < 0.25:
            ramp = np.linspace(self.rng.uniform(0.8, 0.95), self.rng.uniform(1.0, 1.12), TEX_H, dtype=np.float32)
            texture *= ramp[:, None, None]
        elif look < 0.45:
            period = self.rng.uniform(6, 20)
            yy, xx = np.mgrid[0:TEX_H, 0:TEX_W].astype(np.float32)
            angle = self.rng.uniform(0, math.pi)
            wave = np.sin((xx * math.cos(angle) + yy * math.sin(angle)) * 2 * math.pi / period)
            texture *= (1 + self.rng.uniform(0.03, 0.08) * wave)[..., None]
        return np.clip(texture, 0, 1) * self.bevel


_BACK_COLOURS = [
    [20, 130, 240], [40, 150, 60], [170, 110, 30], [40, 200, 230], [150, 110, 230], [40, 40, 190],
    [150, 150, 40], [120, 60, 120], [30, 90, 30], [200, 160, 90], [60, 170, 200], [90, 60, 40],
]


def _noise(rng: Rng, h: int, w: int, cell: float) -> np.ndarray:
    """Smooth noise in [0, 1] with features about ``cell`` pixels wide."""
    gh, gw = max(2, int(h / cell) + 2), max(2, int(w / cell) + 2)
    return cv2.resize(rng.random((gh, gw), dtype=np.float32), (w, h), interpolation=cv2.INTER_CUBIC)


_FELTS = [[45, 125, 35], [60, 150, 50], [35, 100, 30], [140, 85, 25], [110, 60, 20], [45, 45, 150],
          [60, 40, 110], [110, 110, 110], [70, 70, 70], [120, 120, 60], [150, 140, 130]]
_WOODS = [([60, 110, 160], [95, 150, 200]), ([30, 60, 100], [50, 95, 140]), ([110, 160, 200], [150, 190, 225]),
          ([40, 50, 70], [70, 85, 110])]


def _table(rng: Rng, lo: np.ndarray, hi: np.ndarray, ppu: float, edges: tuple[np.ndarray, np.ndarray],
           keep_clear: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """The part [lo, hi] (world units) of a table whose edges are ``edges``, at ``ppu`` pixels per
    unit: felt, wood, cloth or a mat, maybe a rim, flat clutter kept off ``keep_clear``."""
    w, h = (max(8, int(v)) for v in (hi - lo) * ppu)
    kind = str(rng.choice(["felt", "wood", "cloth", "mat"], p=[0.45, 0.25, 0.15, 0.15]))
    yy = (np.arange(h, dtype=np.float32) / ppu)[:, None]
    xx = (np.arange(w, dtype=np.float32) / ppu)[None, :]
    if kind == "felt":
        base = np.array(rng.choice(_FELTS), np.float32) + rng.normal(0, 8, 3)
        shade = 1 + 0.12 * (_noise(rng, h, w, 25 * ppu) - 0.5) + 0.08 * (_noise(rng, h, w, 1.5 * ppu) - 0.5)
        tex = shade[..., None] * base
    elif kind == "wood":
        dark, light = (np.array(c, np.float32) for c in _WOODS[rng.integers(len(_WOODS))])
        streak = max(1.5, 0.35 * ppu)
        streaks = cv2.resize(rng.random((int(h / streak) + 2, int(w / (25 * ppu)) + 2), dtype=np.float32), (w, h),
                             interpolation=cv2.INTER_CUBIC)
        warp = _noise(rng, h, w, 15 * ppu) * rng.uniform(0.5, 1.5)
        rings = (0.5 + 0.5 * np.sin((yy / rng.uniform(2, 7) + warp) * 2 * math.pi)) ** rng.uniform(1, 3)
        grain = np.clip(0.5 * streaks + 0.5 * rings, 0, 1)
        tex = dark + (light - dark) * grain[..., None]
        plank = rng.uniform(8, 20)
        tex[np.broadcast_to((yy % plank) < 0.1, (h, w))] *= 0.55
    elif kind == "cloth":
        colour = np.array(rng.choice(_FELTS + [[200, 200, 210], [60, 90, 160], [180, 170, 150]]), np.float32)
        period = rng.uniform(0.25, 0.6)
        weave = 0.5 + 0.25 * (np.sin(xx * 2 * math.pi / period) + np.sin(yy * 2 * math.pi / period))
        tex = colour * (0.85 + 0.2 * weave)[..., None]
        if rng.random() < 0.5:
            stripe = rng.uniform(3, 10)
            band = ((xx // stripe) % 2 + (yy // stripe) % 2)[..., None] / 2
            tex = tex * (1 - 0.12 * band) + np.array(rng.choice(_FELTS), np.float32) * 0.12 * band
    else:
        colour = np.array(rng.choice(_FELTS + [[215, 215, 210], [40, 40, 40], [190, 200, 215]]), np.float32)
        ramp = np.linspace(rng.uniform(0.85, 1), rng.uniform(1, 1.15), w, dtype=np.float32)
        tex = colour * ramp[None, :, None] * (1 + 0.04 * (_noise(rng, h, w, 10 * ppu) - 0.5))[..., None]
    tex = np.clip(tex, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        rim = rng.uniform(2, 7)
        wx, wy = xx + lo[0], yy + lo[1]
        outer = (wx < edges[0][0] + rim) | (wx > edges[1][0] - rim)
        outer = outer | (wy < edges[0][1] + rim) | (wy > edges[1][1] - rim)
        tex[outer] = np.array(rng.choice([c[1] for c in _WOODS] + [[30, 30, 30], [200, 200, 200]]), np.uint8)
    clear_lo, clear_hi = ((keep_clear[0] - lo) * ppu).astype(int), ((keep_clear[1] - lo) * ppu).astype(int)
    for _ in range(int(rng.integers(0, 4))):
        _clutter(rng, tex, ppu, clear_lo, clear_hi)
    return tex


def _clutter(rng: Rng, tex: np.ndarray, ppu: float, clear_lo: np.ndarray, clear_hi: np.ndarray) -> None:
    """A flat object on the table (coin, cup base, phone, paper, pen), kept off the hand's area."""
    h, w = tex.shape[:2]
    for _ in range(10):
        c = rng.uniform([0, 0], [w, h])
        size = rng.uniform(2, 14) * ppu
        if not ((c > clear_lo - size).all() and (c < clear_hi + size).all()):
            break
    else:
        return
    colour = tuple(int(v) for v in rng.integers(0, 255, 3))
    center = (int(c[0]), int(c[1]))
    shape = rng.random()
    if shape < 0.35:
        cv2.circle(tex, center, int(size / 2), colour, -1, cv2.LINE_AA)
        cv2.circle(tex, center, int(size / 2.5), tuple(v // 2 for v in colour), max(1, int(ppu / 3)), cv2.LINE_AA)
    elif shape < 0.75:
        box = ((c[0], c[1]), (size, size * rng.uniform(1.6, 2.5)), rng.uniform(0, 180))
        cv2.fillConvexPoly(tex, cv2.boxPoints(box).astype(np.int32), colour, cv2.LINE_AA)
    else:
        end = c + rng.normal(0, size, 2)
        cv2.line(tex, center, (int(end[0]), int(end[1])), colour, max(1, int(ppu * 0.6)), cv2.LINE_AA)


# ----------------------------------------------------------------------------------------------
# Rendering


@dataclass(frozen=True)
class _Light:
    """A lamp above the table plus ambient light; brightness 1 on the table at ``center``."""

    position: np.ndarray
    center: np.ndarray
    ambient: float
    diffuse: float
    shadow: float

    @property
    def direction(self) -> np.ndarray:
        """Towards the lamp from the scene's centre."""
        to = self.position - self.center
        return to / np.linalg.norm(to)

    def shade(self, normal: np.ndarray, points: np.ndarray) -> np.ndarray:
        """Brightness of a surface with this normal at each point (N, 3)."""
        to = self.position - points
        dist = np.linalg.norm(to, axis=-1)
        falloff = (np.linalg.norm(self.position - self.center) / dist) ** 2
        return self.ambient + self.diffuse * np.maximum(0.0, (to @ normal) / dist) * falloff


def _random_light(rng: Rng, center: np.ndarray) -> _Light:
    el, az = math.radians(rng.uniform(35, 85)), rng.uniform(-math.pi, math.pi)
    direction = np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)])
    ambient = rng.uniform(0.5, 0.7)
    return _Light(center + direction * rng.uniform(60, 250), center, ambient,
                  (1.02 - ambient) / math.sin(el), rng.uniform(0.3, 0.6))


def _surfaces(body: Body) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """(role, outward normal, corners in world) of the face and the back; corners run top-left,
    top-right, bottom-right, bottom-left as seen from outside."""
    a, b, n = body.axes.T
    ha, hb, hn = body.half
    c = body.center
    return [
        ("face", n, np.array([c - a * ha + b * hb + n * hn, c + a * ha + b * hb + n * hn,
                              c + a * ha - b * hb + n * hn, c - a * ha - b * hb + n * hn])),
        ("back", -n, np.array([c + a * ha + b * hb - n * hn, c - a * ha + b * hb - n * hn,
                               c - a * ha - b * hb - n * hn, c + a * ha - b * hb - n * hn])),
    ]


def _side_quads(body: Body, layer: float) -> list[tuple[np.ndarray, list[tuple[str, np.ndarray]]]]:
    """(outward normal, [(layer, corners)]) of the four sides, each split into the back layer and the
    face layer (a prop is one layer)."""
    a, b, n = body.axes.T
    ha, hb, hn = body.half
    c = body.center
    split = hn - 2 * hn * layer if body.face is not None else -hn
    out = []
    for axis, other, h_axis, h_other in ((a, b, ha, hb), (b, a, hb, ha)):
        for sign in (1, -1):
            normal = axis * sign
            base = c + normal * h_axis
            parts = []
            for role, n0, n1 in (("back_layer", -hn, split), ("face_layer", split, hn)):
                if n1 - n0 > 1e-6:
                    parts.append((role, np.array([base - other * h_other + n * n0, base + other * h_other + n * n0,
                                                  base + other * h_other + n * n1, base - other * h_other + n * n1])))
            out.append((normal, parts))
    return out


def _to_fixed(points: np.ndarray) -> np.ndarray:
    return np.round(points * 16).astype(np.int32)


class _Canvas:
    """The image with a depth buffer (inverse depth) and an id map, drawn one planar polygon at a time."""

    def __init__(self, image: np.ndarray, cam: _Camera) -> None:
        self.image = image
        self.cam = cam
        self.ids = np.zeros(image.shape[:2], np.int32)
        self.depth = np.zeros(image.shape[:2], np.float32)
        self.k_inv = np.linalg.inv(cam.K)

    def draw(self, quad3: np.ndarray, normal: np.ndarray, id_value: int, gain: np.ndarray,
             colour: np.ndarray | None = None, mips: list[np.ndarray] | None = None) -> None:
        """Fill a planar quad (world corners) with a colour or a texture where it is nearer than what
        is drawn; anti-aliased edges. Texture corners map to quad corners in order; ``gain`` is the
        brightness at each corner (blended across a texture, averaged for a colour)."""
        quad = self.cam.project(quad3)
        height, width = self.image.shape[:2]
        x0, y0 = np.floor(quad.min(0)).astype(int)
        x1, y1 = np.ceil(quad.max(0)).astype(int) + 1
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
        if x1 <= x0 or y1 <= y0:
            return
        local = quad - [x0, y0]
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(mask, _to_fixed(local), 255, cv2.LINE_AA, 4)
        # inverse depth is affine in pixel coordinates on a plane
        n_cam = self.cam.R @ normal
        plane = (self.k_inv.T @ n_cam) / float(n_cam @ (self.cam.R @ (quad3[0] - self.cam.C)))
        xs = np.arange(x0, x1, dtype=np.float32)[None, :]
        ys = np.arange(y0, y1, dtype=np.float32)[:, None]
        inv_depth = np.float32(plane[0]) * xs + np.float32(plane[1]) * ys + np.float32(plane[2])
        depth = self.depth[y0:y1, x0:x1]
        front = inv_depth > depth * np.float32(1.0005)
        alpha = (mask.astype(np.float32) / 255) * front
        covered = (mask > 127) & front
        depth[covered] = inv_depth[covered]
        self.ids[y0:y1, x0:x1][covered] = id_value
        if mips is not None:
            span = float(np.linalg.norm(quad[0] - quad[3]))
            tex = mips[0 if span > TEX_H * 0.6 else 1 if span > TEX_H * 0.3 else 2]
            th, tw = tex.shape[:2]
            lit = cv2.resize(np.float32([[gain[0], gain[1]], [gain[3], gain[2]]]), (tw, th))
            src = np.array([[0, 0], [tw, 0], [tw, th], [0, th]], np.float32)
            M = cv2.getPerspectiveTransform(src, local.astype(np.float32))
            fill = cv2.warpPerspective(tex.astype(np.float32) * lit[..., None], M, (x1 - x0, y1 - y0),
                                       flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        else:
            fill = colour.astype(np.float32) * np.float32(np.mean(gain))
        roi = self.image[y0:y1, x0:x1].astype(np.float32)
        self.image[y0:y1, x0:x1] = cv2.convertScaleAbs(roi + (fill - roi) * alpha[..., None])


def _render(bodies: list[Body], cam: _Camera, tiles: _TileSet, light: _Light,
            background: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Draw the bodies (far to near, depth-tested) over the background; returns the image and an id
    map (3k+1: face of body k, 3k+2: its back, 3k+3: its sides, 0: table)."""
    canvas = _Canvas(background, cam)
    order = sorted(range(len(bodies)), key=lambda k: -float(np.linalg.norm(bodies[k].center - cam.C)))
    for k in order:
        body = bodies[k]
        prop = np.array(body.colour, np.float32) if body.face is None else None
        for role, normal, quad3 in _surfaces(body):
            if normal @ (cam.C - quad3.mean(0)) <= 0:
                continue
            shade = light.shade(normal, quad3)
            if prop is not None:
                canvas.draw(quad3, normal, 3 * k + 3, shade, colour=prop)
            else:
                mips = tiles.face(body.face) if role == "face" else tiles.back
                canvas.draw(quad3, normal, 3 * k + (1 if role == "face" else 2), shade, mips=mips)
        for normal, parts in _side_quads(body, tiles.face_layer):
            if normal @ (cam.C - parts[0][1].mean(0)) <= 0:
                continue
            for role, quad3 in parts:
                layer = tiles.ivory if role == "face_layer" else tiles.back_colour
                colour = prop if prop is not None else layer * 255
                canvas.draw(quad3, normal, 3 * k + 3, light.shade(normal, quad3) * 0.95, colour=colour)
    return canvas.image, canvas.ids


def _shadows(image: np.ndarray, bodies: list[Body], cam: _Camera, light: _Light, scale: float) -> None:
    """Darken the table under each body: a soft cast shadow away from the light and a dark contact
    shadow around its footprint (``scale``: a tile's size in pixels)."""
    height, width = image.shape[:2]
    factor = 2
    cast = np.zeros((height // factor + 1, width // factor + 1), np.float32)
    contact = np.zeros_like(cast)
    drop = light.direction / light.direction[2]
    hulls = []
    for body in bodies:
        corners = _corners(body)
        on_table = corners - np.outer(corners[:, 2], drop)
        hulls.append(cv2.convexHull(cam.project(on_table).astype(np.float32)).reshape(-1, 2))
        cv2.fillConvexPoly(cast, _to_fixed(hulls[-1] / factor), 1.0, cv2.LINE_AA, 4)
        base = corners[corners[:, 2] < corners[:, 2].min() + 1e-6]
        if base[0, 2] < 0.1:
            spread = base + 0.12 * (base - base.mean(0))
            footprint = cv2.convexHull(cam.project(spread).astype(np.float32)).reshape(-1, 2)
            cv2.fillConvexPoly(contact, _to_fixed(footprint / factor), 1.0, cv2.LINE_AA, 4)
    sigma = max(0.7, scale * 0.12 / factor)
    shade = light.shadow * cv2.GaussianBlur(cast, (0, 0), sigma)
    shade += 0.45 * cv2.GaussianBlur(contact, (0, 0), max(0.5, scale * 0.03 / factor))
    pts = np.concatenate(hulls)
    x0, y0 = np.clip(np.floor(pts.min(0) - 4 * sigma * factor), 0, [width, height]).astype(int)
    x1, y1 = np.clip(np.ceil(pts.max(0) + 4 * sigma * factor), 0, [width, height]).astype(int)
    if x1 <= x0 or y1 <= y0:
        return
    keep = cv2.resize(255 * (1 - np.clip(shade, 0, 0.8)), (width, height), interpolation=cv2.INTER_LINEAR)
    keep = cv2.merge([keep[y0:y1, x0:x1].astype(np.uint8)] * 3)
    image[y0:y1, x0:x1] = cv2.multiply(image[y0:y1, x0:x1], keep, scale=1 / 255)


def _glare(rng: Rng, image: np.ndarray, ids: np.ndarray, tiles: list[SceneTile], scale: float) -> None:
    """Soft specular spots on the glossy faces and backs of tiles."""
    if not tiles:
        return
    for _ in range(int(rng.integers(1, 4))):
        quad = np.array(tiles[rng.integers(len(tiles))].quad)
        cx, cy = np.round(quad.mean(0) + rng.normal(0, 0.2, 2) * np.ptp(quad, 0)).astype(int)
        radius = scale * rng.uniform(0.3, 1.5)
        r = int(radius * 3)
        y0, y1, x0, x1 = max(0, cy - r), min(image.shape[0], cy + r), max(0, cx - r), min(image.shape[1], cx + r)
        yy = np.arange(y0, y1, dtype=np.float32)[:, None] - cy
        xx = np.arange(x0, x1, dtype=np.float32)[None, :] - cx
        blob = np.exp(-(yy ** 2 + xx ** 2) / np.float32(2 * radius ** 2)) * np.float32(rng.uniform(0.3, 0.8))
        blob *= ids[y0:y1, x0:x1] % 3 != 0
        roi = image[y0:y1, x0:x1].astype(np.float32)
        image[y0:y1, x0:x1] = cv2.convertScaleAbs(roi + (255 - roi) * blob[..., None])


def _camera_look(rng: Rng, image: np.ndarray) -> np.ndarray:
    """Exposure, colour temperature, vignetting, blur, sensor noise and JPEG compression (in 8 bits)."""
    height, width = image.shape[:2]
    warm = rng.uniform(-1, 1)
    colour = np.array([1 - 0.1 * warm, 1.0, 1 + 0.1 * warm]) * rng.uniform(0.8, 1.15)
    lut = np.clip(np.arange(256)[:, None] * colour, 0, 255).astype(np.uint8).reshape(256, 1, 3)
    out = cv2.LUT(image, lut)
    yy = np.linspace(-1, 1, 32, dtype=np.float32)[:, None]
    xx = np.linspace(-1, 1, 32, dtype=np.float32)[None, :]
    vignette = cv2.resize(255 * (1 - rng.uniform(0, 0.35) * (xx ** 2 + yy ** 2) / 2), (width, height))
    out = cv2.multiply(out, cv2.merge([vignette.astype(np.uint8)] * 3), scale=1 / 255)
    if rng.random() < 0.6:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.4, 1.3))
    elif rng.random() < 0.3:
        length = int(rng.integers(3, 8))
        kernel = np.zeros((length, length), np.float32)
        cv2.line(kernel, (0, int(rng.integers(length))), (length - 1, int(rng.integers(length))), 1.0)
        out = cv2.filter2D(out, -1, kernel / kernel.sum())
    sigma = rng.uniform(0, 6)
    if sigma > 0.5:
        grain = np.empty((height, width), np.int16)
        cv2.setRNGSeed(int(rng.integers(2 ** 31)))
        cv2.randn(grain, 0, sigma)
        out = cv2.add(out, cv2.merge([grain] * 3), dtype=cv2.CV_8U)
    if rng.random() < 0.15:
        factor = rng.uniform(0.45, 0.8)
        small = cv2.resize(out, (int(width * factor), int(height * factor)), interpolation=cv2.INTER_AREA)
        out = cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR)
    ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(45, 96))])
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


# ----------------------------------------------------------------------------------------------
# Labels


def _labels(bodies: list[Body], cam: _Camera, ids: np.ndarray) -> tuple[list[SceneTile], list[int], np.ndarray]:
    """Labels of the tiles showing ≥ MIN_VISIBLE of their face or back; the body of each; the mask."""
    counts = np.bincount(ids.ravel(), minlength=3 * len(bodies) + 4)
    width, height = cam.width, cam.height
    lut = np.full(len(counts), -1, np.int16)
    tiles: list[SceneTile] = []
    owners: list[int] = []
    for k, body in enumerate(bodies):
        if body.face is None:
            continue
        face, back = _surfaces(body)
        role, normal, quad3 = face if face[1] @ (cam.C - face[2].mean(0)) > 0 else back
        view = cam.C - quad3.mean(0)
        if normal @ view / np.linalg.norm(view) < 0.25 or (role == "face" and body.face == UNKNOWN):
            continue
        quad = cam.project(quad3)
        area = abs(float(cv2.contourArea(quad.astype(np.float32))))
        index = 3 * k + (1 if role == "face" else 2)
        if area < 1 or counts[index] / area < MIN_VISIBLE:
            continue
        x1, y1 = np.clip(quad.min(0), 0, [width, height])
        x2, y2 = np.clip(quad.max(0), 0, [width, height])
        if x2 - x1 < 3 or y2 - y1 < 3:
            continue
        top = cam.project(np.array([quad3.mean(0) + body.axes[:, 1] * body.half[1]]))[0] - quad.mean(0)
        up_angle = math.degrees(math.atan2(top[0], -top[1])) % 360
        lut[index] = len(tiles)
        owners.append(k)
        tiles.append(SceneTile(
            (float(x1), float(y1), float(x2), float(y2)),
            body.face if role == "face" and body.face else BACK,
            body.sideways,
            up_angle,
            body.group,
            tuple((float(x), float(y)) for x, y in quad),
            bool(body.center[2] - np.abs(body.axes[2]) @ body.half > 0.5),
        ))
    return tiles, owners, lut[ids]


# ----------------------------------------------------------------------------------------------
# Scenes


def _random_size(rng: Rng) -> tuple[int, int]:
    long_side = int(rng.uniform(640, 1600))
    aspect = float(rng.choice([4 / 3, 16 / 9, 3 / 2, 1.0]))
    short = int(long_side / aspect)
    return (long_side, short) if rng.random() < 0.6 else (short, long_side)


def _check_arguments(seed: int, region: str | None, size: tuple[int, int] | None, kind: str, seat: int) -> None:
    if not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, not {seed!r}")
    if region is not None and region not in REGIONS:
        raise ValueError(f"unknown region {region!r}: choose one of {', '.join(REGIONS)}")
    if kind not in KINDS:
        raise ValueError(f"unknown scene kind {kind!r}: choose one of {', '.join(KINDS)}")
    def pixels(v: Any) -> bool:
        return isinstance(v, (int, np.integer)) and 64 <= v <= 8000

    if size is not None and (not isinstance(size, (tuple, list)) or len(size) != 2 or not all(map(pixels, size))):
        raise ValueError(f"size must be (width, height) in pixels, each 64..8000, not {size!r}")
    if seat not in (0, 1, 2, 3):
        raise ValueError(f"seat must be 0..3, not {seat!r}")


def generate_scene(seed: int, region: str | None = None, *, size: tuple[int, int] | None = None,
                   kind: str = "hand", seat: int = 0) -> Scene:
    """Render one labelled scene, the same for the same arguments.

    ``region`` picks the hand's rules (random when None); ``size`` is (width, height) (random
    640–1600 px in either orientation when None); ``seat`` is the photographed player's seat, used
    for the melds' ``from``.
    """
    _check_arguments(seed, region, size, kind, seat)
    rng = np.random.default_rng(seed)
    region = region or str(rng.choice(REGIONS))
    given = size
    size = tuple(int(v) for v in size) if size else _random_size(rng)
    pool = Counter({t: 4 for t in PLAYING_TILES} | {f: 1 for f in FLOWERS})
    hand = random_hand(rng, region, pool) if kind != "tiles" else None
    return _compose(rng, int(seed), region, kind, seat, hand, pool, size, free_size=given is None)


def _compose(rng: Rng, seed: int, region: str, kind: str, seat: int, hand: HandPlan | None, pool: Counter,
             size: tuple[int, int], free_size: bool, view: _View | None = None, standing: bool | None = None,
             sides: tuple[str | None, str | None] = (None, None)) -> Scene:
    """Lay out, frame and render a scene; retry other camera views until every hand tile shows."""
    depth = rng.uniform(1.8, 2.5)
    kinds = _hand_kinds(region)
    fixed_view, fixed_standing = view, standing
    for attempt in range(12):
        standing = hand is not None and rng.random() < 0.3 if fixed_standing is None else fixed_standing
        view = fixed_view or (_random_view(rng, standing) if attempt < 10 else _View(50, 0, 0, 60, 0.7))
        layout = _Layout(rng, depth)
        trial_pool = Counter(pool)
        if hand is not None:
            _layout_hand(rng, hand, view, standing, layout, *sides)
            framed = list(layout.bodies)
            if kind == "hand" and rng.random() < 0.35:
                _layout_distractors(rng, layout, trial_pool, kinds, view.toward_camera, int(rng.integers(1, 3)))
        else:
            _layout_loose(rng, layout, trial_pool, kinds)
            framed = layout.bodies
        cam = _fit_camera(rng, view, framed, size)
        if cam is not None and free_size and _across_frame(cam, framed) and rng.random() < 0.9:
            size = (size[1], size[0])
            cam = _fit_camera(rng, view, framed, size)
        if cam is None:
            continue
        image, tiles, owners, mask = _draw(rng, layout.bodies, cam, framed)
        labelled = set(owners)
        hand_bodies = [k for k, b in enumerate(layout.bodies) if b.group >= 0 and b.face is not None]
        if hand is None or all(k in labelled for k in hand_bodies):
            break
    else:
        raise RuntimeError(f"seed {seed}: no camera view shows the whole hand")
    tile_of = {k: i for i, k in enumerate(owners)}
    groups = [{"kind": g["kind"], "meld": g["meld"], "tiles": [tile_of[k] for k in g["bodies"] if k in tile_of]}
              for g in layout.groups]
    return Scene(
        image=image,
        tiles=tiles,
        hand=hand.record(seat) if hand else {"concealed": "", "melds": [], "flowers": ""},
        win_tile=hand.win_tile if hand else None,
        region=region,
        groups=groups,
        seed=seed,
        kind=kind,
        mask=mask,
    )


def _across_frame(cam: _Camera, bodies: list[Body]) -> bool:
    """Whether the bodies' long side lies along the frame's short side (a wide hand in a tall photo)."""
    span = np.ptp(cam.project(np.concatenate([_corners(b) for b in bodies])), 0)
    wide = span[0] > 1.3 * span[1]
    tall = span[1] > 1.3 * span[0]
    return (wide and cam.height > cam.width) or (tall and cam.width > cam.height)


_FLOORS = [[40, 55, 75], [60, 80, 110], [90, 90, 90], [50, 50, 60], [120, 130, 140], [30, 35, 40], [70, 60, 90]]


def _warp_plane(texture: np.ndarray, cam: _Camera, lo: np.ndarray, hi: np.ndarray,
                image: np.ndarray | None = None) -> np.ndarray:
    """Draw a texture covering the table-plane rectangle [lo, hi] through the camera (over ``image``)."""
    h, w = texture.shape[:2]
    sx, sy = w / (hi[0] - lo[0]), h / (hi[1] - lo[1])
    to_texture = np.array([[sx, 0, -lo[0] * sx], [0, sy, -lo[1] * sy], [0, 0, 1]])
    H = cam.table_homography() @ np.linalg.inv(to_texture)
    if image is None:
        return cv2.warpPerspective(texture, H, (cam.width, cam.height), flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_REPLICATE)
    cv2.warpPerspective(texture, H, (cam.width, cam.height), dst=image, flags=cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_TRANSPARENT)
    return image


def _background(rng: Rng, cam: _Camera, bodies: list[Body], framed: list[Body]) -> np.ndarray:
    """The floor and a table under all the bodies, its near edge a little in front of them."""
    rays = cam.corner_rays()
    hits = cam.C[:2] - rays[:, :2] * (cam.C[2] / rays[:, 2:3])
    pts = np.concatenate([_corners(b)[:, :2] for b in bodies])
    lo, hi = pts.min(0), pts.max(0)
    center = (lo + hi) / 2
    view_lo, view_hi = np.maximum(hits.min(0), center - 500), np.minimum(hits.max(0), center + 500)
    floor = np.array(rng.choice(_FLOORS), np.float32) * (0.7 + 0.6 * _noise(rng, 48, 48, 6))[..., None]
    small = _Camera(np.diag([0.25, 0.25, 1]) @ cam.K, cam.R, cam.C, cam.width // 4 + 1, cam.height // 4 + 1)
    image = cv2.resize(_warp_plane(np.clip(floor, 0, 255).astype(np.uint8), small, view_lo, view_hi),
                       (cam.width, cam.height), interpolation=cv2.INTER_LINEAR)
    edges = (lo - rng.uniform(4, 40, 2), hi + rng.uniform(4, 40, 2))
    short = np.maximum(0, rng.uniform(85, 120) - (edges[1] - edges[0]))
    edges = (edges[0] - [short[0] / 2, 0], edges[1] + [short[0] / 2, short[1]])
    part_lo, part_hi = np.maximum(edges[0], view_lo - 1), np.minimum(edges[1], view_hi + 1)
    if (part_hi - part_lo > 1).all():
        ppu = min(10.0, 0.75 * max(cam.width, cam.height) / float(max(part_hi - part_lo)))
        framed_pts = np.concatenate([_corners(b)[:, :2] for b in framed])
        clear = (framed_pts.min(0) - 2, framed_pts.max(0) + 2)
        _warp_plane(_table(rng, part_lo, part_hi, ppu, edges, clear), cam, part_lo, part_hi, image)
    return image


def _lit_center(bodies: list[Body]) -> np.ndarray:
    center = np.mean([b.center for b in bodies], axis=0)
    center[2] = 0.0
    return center


def _light_table(image: np.ndarray, cam: _Camera, light: _Light) -> None:
    """Brighten or darken the table by the lamp's angle and distance at each point."""
    grid = np.stack(np.meshgrid(np.linspace(0, cam.width, 24), np.linspace(0, cam.height, 18)), -1).reshape(-1, 2)
    rays = np.c_[grid, np.ones(len(grid))] @ np.linalg.inv(cam.K).T @ cam.R
    points = cam.C - rays * (cam.C[2] / rays[:, 2:3])
    gain = np.clip(light.shade(np.array([0.0, 0.0, 1.0]), points), 0.3, 1.25).reshape(18, 24)
    gain = cv2.resize((gain * 200).astype(np.float32), (cam.width, cam.height), interpolation=cv2.INTER_LINEAR)
    image[:] = cv2.multiply(image, cv2.merge([gain.astype(np.uint8)] * 3), scale=1 / 200)


def _draw(rng: Rng, bodies: list[Body], cam: _Camera,
          framed: list[Body]) -> tuple[np.ndarray, list[SceneTile], list[int], np.ndarray]:
    """Table, shadows, tiles, glare and the camera's look; returns the image, labels, their bodies, mask."""
    image = _background(rng, cam, bodies, framed)
    light = _random_light(rng, _lit_center(bodies))
    _light_table(image, cam, light)
    tile_px = float(np.median([np.linalg.norm(np.ptp(cam.project(_corners(b)), 0)) for b in framed]))
    _shadows(image, bodies, cam, light, tile_px)
    tileset = _TileSet(rng)
    image, ids = _render(bodies, cam, tileset, light, image)
    tiles, owners, mask = _labels(bodies, cam, ids)
    if rng.random() < 0.5:
        _glare(rng, image, ids, tiles, tile_px * 0.5)
    return _camera_look(rng, image), tiles, owners, mask


# ----------------------------------------------------------------------------------------------
# Output


def write_yolo(scene: Scene, images_dir: Path | str, labels_dir: Path | str, name: str,
               classes: Sequence[str] = CLASS_NAMES, max_side: int | None = None) -> None:
    """Write ``name.jpg`` (scaled down to ``max_side`` pixels, if given) and a YOLO label file ``name.txt``
    (class index in ``classes``, cx cy w h)."""
    index = {c: i for i, c in enumerate(classes)}
    missing = sorted({t.tile for t in scene.tiles} - set(index))
    if missing:
        raise ValueError(f"classes has no entry for {', '.join(missing)}")
    height, width = scene.image.shape[:2]
    lines = []
    for t in scene.tiles:
        x1, y1, x2, y2 = t.box
        lines.append(f"{index[t.tile]} {(x1 + x2) / 2 / width:.6f} {(y1 + y2) / 2 / height:.6f} "
                     f"{(x2 - x1) / width:.6f} {(y2 - y1) / height:.6f}")
    images_dir, labels_dir = Path(images_dir), Path(labels_dir)
    images_dir.mkdir(parents=True, exist_ok=True)
    labels_dir.mkdir(parents=True, exist_ok=True)
    image = scene.image if max_side is None else fit_within(scene.image, max_side)
    if not cv2.imwrite(str(images_dir / f"{name}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 95]):
        raise OSError(f"cannot write {images_dir / f'{name}.jpg'}")
    (labels_dir / f"{name}.txt").write_text("".join(line + "\n" for line in lines))


_GROUP_COLOURS = {"concealed": (255, 160, 0), "winning": (0, 0, 255), "meld": (0, 200, 0), "flowers": (255, 0, 255)}


def draw_preview(scene: Scene) -> np.ndarray:
    """The image with each label's face quad, class, a tick towards the face's top, and each group's
    box and name (blue: concealed, red: winning, green: melds, magenta: flowers, grey: others)."""
    image = scene.image.copy()
    thick = max(1, round(max(image.shape) / 900))
    for tile in scene.tiles:
        kind = scene.groups[tile.group]["kind"] if tile.group >= 0 else None
        colour = _GROUP_COLOURS.get(kind, (160, 160, 160))
        quad = np.array(tile.quad)
        cv2.polylines(image, [np.round(quad).astype(np.int32)], True, colour, thick, cv2.LINE_AA)
        center = quad.mean(0)
        a = math.radians(tile.up_angle)
        tip = center + np.array([math.sin(a), -math.cos(a)]) * np.linalg.norm(quad[0] - quad[3]) * 0.35
        start, end = (tuple(np.round(p).astype(int)) for p in (center, tip))
        cv2.line(image, start, end, colour, thick, cv2.LINE_AA)
        text = tile.tile + ("*" if tile.sideways else "")
        cv2.putText(image, text, (int(tile.box[0]), int(tile.box[3]) + 12 * thick), cv2.FONT_HERSHEY_SIMPLEX,
                    0.4 * thick, colour, thick, cv2.LINE_AA)
    for group in scene.groups:
        if not group["tiles"]:
            continue
        boxes = np.array([scene.tiles[i].box for i in group["tiles"]])
        x1, y1 = boxes[:, :2].min(0) - 4 * thick
        x2, y2 = boxes[:, 2:].max(0) + 4 * thick
        name = group["kind"]
        if group["kind"] == "meld":
            meld = scene.hand["melds"][group["meld"]]
            how = "concealed" if meld.get("concealed") else "added" if meld.get("added") else f"from {meld.get('from')}"
            name = f"{meld['type']} {how}"
        colour = _GROUP_COLOURS[group["kind"]]
        cv2.rectangle(image, (int(x1), int(y1)), (int(x2), int(y2)), colour, thick, cv2.LINE_AA)
        cv2.putText(image, name, (int(x1), int(y1) - 4 * thick), cv2.FONT_HERSHEY_SIMPLEX, 0.5 * thick, colour,
                    thick, cv2.LINE_AA)
    return image


def layout_figure() -> np.ndarray:
    """The picture of docs/layout.png: two hand-made hands laid out by the conventions, labelled.

    Top (Wenling, seen from above): concealed row 234m 5s, winning 5s apart; in front a chow claimed
    from 上家 (sideways left), a pung from 对家 (middle), an added kong from 下家 (sideways right, the
    fourth tile on it), a concealed kong with two backs; flowers above. Bottom (Daishan, phone angle):
    a standing row, an exposed kong from 下家, a concealed kong all face down, a pung from 上家.
    """
    top = HandPlan("wenling", ("2m", "3m", "4m", "5s"), "5s", (
        MeldPlan("chow", ("7s", "6s", "8s"), claimed=0),
        MeldPlan("pung", ("9p", "9p", "9p"), claimed=1),
        MeldPlan("added_kong", ("1z",) * 4, claimed=2, stack_on=2),
        MeldPlan("concealed_kong", ("6m",) * 4, backs=2),
    ), ("1f", "5z", "6f"))
    bottom = HandPlan("daishan", ("1s", "2s", "3s", "9m"), "9m", (
        MeldPlan("kong", ("8m",) * 4, claimed=3),
        MeldPlan("concealed_kong", ("3p",) * 4, backs=4),
        MeldPlan("pung", ("7z",) * 3, claimed=0),
    ), ("2f",))
    panels = []
    for seed, hand, view, standing, sides in (
        (3, top, _View(72, 0, 0, 55, 0.9), False, ("front", "above")),
        (5, bottom, _View(34, 8, 0, 55, 0.9), True, ("left", "right")),
    ):
        rng = np.random.default_rng(seed)
        scene = _compose(rng, seed, hand.region, "hand_only", 0, hand, Counter(), (1000, 700), False, view,
                         standing, sides)
        boxes = np.array([t.box for t in scene.tiles])
        height, width = scene.image.shape[:2]
        x0, y0 = np.maximum(boxes[:, :2].min(0) - 40, 0).astype(int)
        x1, y1 = np.minimum(boxes[:, 2:].max(0) + 30, [width, height]).astype(int)
        panel = draw_preview(scene)[y0:y1, x0:x1]
        panels.append(cv2.resize(panel, (900, round(panel.shape[0] * 900 / panel.shape[1])),
                                 interpolation=cv2.INTER_AREA))
    return np.vstack(panels)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m datasets.synth", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, help="output folder (images/, labels/, scenes.jsonl)")
    parser.add_argument("--count", type=int, help="number of scenes")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first scene; scene i uses seed + i")
    parser.add_argument("--region", choices=REGIONS, help="rules of every hand (default: a random region each)")
    parser.add_argument("--kind", choices=KINDS, default="hand", help="scene kind (default: hand)")
    parser.add_argument("--size", type=int, nargs=2, metavar=("W", "H"), help="image size (default: random)")
    parser.add_argument("--preview", action="store_true", help="also write previews/ with the labels drawn")
    parser.add_argument("--figure", type=Path, help="only write the layout-conventions picture (PNG) to this path")
    args = parser.parse_args(argv)
    if args.figure:
        figure = layout_figure() // 8 * 8 + 4  # 5 bits a channel: the PNG stays small
        if not cv2.imwrite(str(args.figure), figure, [cv2.IMWRITE_PNG_COMPRESSION, 9]):
            print(f"error: cannot write {args.figure}", file=sys.stderr)
            return 1
        return 0
    if args.out is None or args.count is None:
        parser.error("--out and --count are required (or --figure)")
    if args.count < 0 or args.seed < 0:
        parser.error("--count and --seed must not be negative")
    started = time.perf_counter()
    try:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "classes.txt").write_text("".join(f"{name}\n" for name in CLASS_NAMES))  # for `mjcam eval`
        with open(args.out / "scenes.jsonl", "w") as jsonl:
            for i in range(args.count):
                seed = args.seed + i
                scene = generate_scene(seed, args.region, size=tuple(args.size) if args.size else None, kind=args.kind)
                name = f"synth_{seed:08d}"
                write_yolo(scene, args.out / "images", args.out / "labels", name)
                jsonl.write(json.dumps({"image": f"images/{name}.jpg", **scene.to_json()}, ensure_ascii=False) + "\n")
                if args.preview:
                    (args.out / "previews").mkdir(exist_ok=True)
                    cv2.imwrite(str(args.out / "previews" / f"{name}.jpg"), draw_preview(scene))
    except (OSError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    elapsed = time.perf_counter() - started
    per_scene = elapsed / max(1, args.count)
    print(f"wrote {args.count} scenes to {args.out} in {elapsed:.1f} s ({per_scene:.3f} s per scene)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
