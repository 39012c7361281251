"""Median time from a 12-megapixel JPEG file to a scored table: decode, read (detect, group and check), score.

    python benchmarks/bench_read.py [--runs 20] [--threads N] [--noise 4]

One 4000×3000 JPEG per region is made from a held-out synthetic hand scene (`datasets.read_eval` seeds),
with sensor-like noise added (``--noise``, the standard deviation in grey levels) and saved at quality 95, so
that the file is as large as a phone's 12-megapixel photo (about 3 MB: decoding takes time in proportion to
the file: the clean rendered scenes make files of 0.5–1.8 MB that decode about three times faster),
written to a temporary folder, then read ``--runs`` times each after a warm-up: `read_photo` (file read and
reduced JPEG decode), `vision.read.hand_reading` (`TileDetector.detect`, then `group_hand`: grouping,
consistency, needs; a hand not legal as read looked at again mirrored, as `mjcam read` and the page read
it), the table record with the facts a player adds (self-drawn, dealer 0, an indicator where the region has one) and
`score_table`. When the model's reading is no legal hand (so there is nothing to score), the scene's true
hand is scored in its place and the output says so. Prints the median of each step and of the whole, and
the median time to group the scene's own labels (a legal reading, no corrections to search).
"""
from __future__ import annotations

import argparse
import platform
import statistics
import sys
import tempfile
import time
from argparse import Namespace
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from datasets.read_eval import eval_region, eval_seeds  # noqa: E402
from datasets.synth import generate_scene  # noqa: E402
from scoring import REGIONS, score_table  # noqa: E402
from scoring.tiles import PLAYING_TILES, parse_tiles  # noqa: E402
from vision.detector import TileDetector  # noqa: E402
from vision.grouping import group_hand  # noqa: E402
from vision.images import read_photo  # noqa: E402
from vision.read import hand_reading  # noqa: E402
from vision.read_cli import table_record  # noqa: E402

SIZE = (4000, 3000)
JPEG_QUALITY = 95


def facts(region: str, hand: dict) -> tuple[Namespace, str | None]:
    """The flags a player would give for a self-drawn win: dealer 0, an indicator the hand does not hold
    (where the region has one), a free kind for each kong shown all face down."""
    held = Counter(parse_tiles(hand["concealed"]) + [t for m in hand["melds"] for t in parse_tiles(m["tiles"])])
    free = [t for t in PLAYING_TILES if held[t] == 0 and t[1] in "mps"]
    indicator = free.pop() if REGIONS[region].indicator else None
    kongs = [free.pop(0) for m in hand["melds"] if not m["tiles"]]
    args = Namespace(seat=0, self_draw=True, source=None, rob_kong=False, dealer=0, streak=0, flag=[], kong=kongs,
                     concealed_kong=[], win_tile=None, indicator=indicator)
    return args, indicator


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--noise", type=float, default=4.0,
                        help="sensor-like noise added to each scene, standard deviation in grey levels (default 4)")
    args = parser.parse_args()
    if args.noise < 0:
        parser.error("--noise must be 0 or more")
    detector = TileDetector(threads=args.threads)
    steps: dict[str, list[float]] = {"decode": [], "read": [], "score": [], "total": []}
    from_labels: list[float] = []
    stand_ins = 0
    megabytes: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        for seed in eval_seeds(4):
            scene = generate_scene(seed, eval_region(seed), size=SIZE)
            path = Path(folder) / f"{seed}.jpg"
            grain = np.random.default_rng(seed).normal(0, args.noise, scene.image.shape) if args.noise else 0
            cv2.imwrite(str(path), np.clip(scene.image + grain, 0, 255).astype(np.uint8),
                        [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
            megabytes.append(path.stat().st_size / 2**20)
            for run in range(args.runs + 1):
                start = time.perf_counter()
                photo = read_photo(path)
                decoded = time.perf_counter()
                reading, _ = hand_reading(photo, detector, scene.region)
                grouped = time.perf_counter()
                legal = not reading.problems
                hand = reading if legal else scene_reading(scene)
                flags, indicator = facts(scene.region, hand.player)
                score_table(table_record(hand, flags, indicator, {}))
                scored = time.perf_counter()
                if run:
                    for name, value in zip(steps, (decoded - start, grouped - decoded, scored - grouped,
                                                   scored - start)):
                        steps[name].append(value * 1000)
                    stand_ins += not legal
                    start = time.perf_counter()
                    scene_reading(scene)
                    from_labels.append((time.perf_counter() - start) * 1000)
    size = f"{SIZE[0]}×{SIZE[1]} JPEG, noise {args.noise:g}, quality {JPEG_QUALITY}, {min(megabytes):.1f}–{max(megabytes):.1f} MB"
    print(f"machine: {platform.processor() or platform.machine()}; model {detector.model_info['version']}; "
          f"{args.runs} runs × 4 scenes ({size}, one per region)")
    for name, values in steps.items():
        print(f"  {name:>6}: median {statistics.median(values):7.1f} ms")
    print(f"  group of the scene's own labels (a reading with nothing to correct): median "
          f"{statistics.median(from_labels):.1f} ms")
    if stand_ins:
        print(f"  ({stand_ins} of {len(steps['total'])} runs: the model's reading was no legal hand, so the scene's "
              "true hand was scored instead)")


def scene_reading(scene):
    """The scene's hand read from its own labels (the stand-in when the model's reading cannot be scored)."""
    from datasets.read_eval import scene_detections

    return group_hand(scene_detections(scene), scene.region)


if __name__ == "__main__":
    main()
