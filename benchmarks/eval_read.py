"""How well the reader rebuilds hands: exact-read rates on the held-out synthetic photos and the real-photo figure.

    python benchmarks/eval_read.py [--count 320] [--first-seed 9100000] [--no-model] [--no-real] [--threads N]

(`--first-seed` from 9,000,000 to 9,099,999 reads a development set instead: the held-out seeds are for
measuring, never for tuning.)

1. Synthetic, perfect detections: the scenes' own labels grouped (`datasets.read_eval`): the share of
   scenes whose every meld, concealed part, flowers and winning tile are read exactly, and the failures.
2. Synthetic, bundled model: the same scenes read from the photo as `mjcam read` reads them
   (`vision.read.hand_reading`: a hand not legal as read is looked at again mirrored). Each failure is marked
   *recognition* when a tile of the hand was missed or misnamed (matched at IoU ≥ 0.5 to the labels) and
   *grouping* when every hand tile was found and named right. Of the failures, those read as a legal hand
   (the page shows no problem: a wrong score unless the player looks; how many of them show a hand tile
   marked doubtful, `vision.read.doubtful_tiles`, against how many of the hands read exactly do) and those
   reported not legal whose first suggestion is the exact hand (one tap mends them) are counted.
3. Real photos: the `valid` photos whose labels show a complete hand in a row — the largest row (labels
   sorted by height, a tile joining the row while its centre is within half the median tile height of the
   row's mean) holds 14–18 tiles and at least 90 % of the photo's labels. Read with Daishan rules (flowers
   laid aside, honours in the hand); a photo counts when the tiles of the hand read (every group) are
   exactly the labelled row's tiles; first from the labels themselves (faces taken as upright: the photos
   are), to separate the reader's errors from the model's, then from the bundled model. Failures say why:
   row tiles the detector missed or misnamed, tiles it found right but the reader left out, and tiles
   read that are not in the row; and with the model, how many hands are read the right way up (`read_upright`:
   the photos are upright, so the reading's tiles, the player's left to right, run left to right in them) and
   how many of the row's faces found are read pointing to the photo's top.
   Then both again against the labels with the errors found by eye mended (`datasets/valid_label_fixes.tsv`:
   some photos show other tiles than their labels say).
"""
from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from datasets.read_eval import EVAL_SEED_START, compare, eval_region, eval_seeds, scene_detections  # noqa: E402
from datasets.real import VALID_LABEL_FIXES, complete_hand_row, load_split  # noqa: E402
from datasets.synth import generate_scene  # noqa: E402
from vision.grouping import group_hand  # noqa: E402
from vision.images import Photo  # noqa: E402
from vision.detections import BACK, DOUBTFUL_CONFIDENCE  # noqa: E402
from vision.read import doubtful_tiles, hand_reading  # noqa: E402
from vision.metrics import box_iou, match_pairs, to_pixel_boxes  # noqa: E402

REAL_RULES = "daishan"


def recognised(truth_boxes: np.ndarray, truth_tiles: list[str], detections) -> tuple[list[str], dict[int, int]]:
    """What the detector got wrong on the given labelled tiles, and label index → detection index."""
    pairs = dict(match_pairs(box_iou(truth_boxes, detections.xyxy), 0.5))
    wrong = []
    for t, tile in enumerate(truth_tiles):
        if t not in pairs:
            wrong.append(f"missed {tile}")
        elif detections.tiles[pairs[t]] != tile:
            wrong.append(f"{tile} read as {detections.tiles[pairs[t]]}")
    return wrong, pairs


def synthetic(seeds: range, detector) -> None:
    count = len(seeds)
    failures, exact, unwarned, one_tap = [], 0, 0, 0
    doubted = Counter()  # hands read exactly / legal but wrong that show a doubtful tile
    for seed in seeds:
        scene = generate_scene(seed, eval_region(seed))
        if detector is None:
            detections = scene_detections(scene)
            reading = group_hand(detections, scene.region, frame=(scene.image.shape[1], scene.image.shape[0]))
        else:
            reading, detections = hand_reading(Photo(scene.image, scene.image.shape[1], scene.image.shape[0]),
                                               detector, scene.region)
        result = compare(reading.player, reading.win_tile, scene)
        exact += result.exact
        if result.exact:
            doubted["exact"] += bool(doubtful_tiles(reading, detections))
        else:
            if not reading.problems:
                unwarned += 1
                doubted["unwarned"] += bool(doubtful_tiles(reading, detections))
            elif reading.suggestions and compare(reading.suggestions[0].hand, reading.suggestions[0].win_tile,
                                                 scene).exact:
                one_tap += 1
            why = ""
            if detector is not None:
                hand = [i for g in scene.groups for i in g["tiles"]]
                wrong, _ = recognised(np.array([scene.tiles[i].box for i in hand]).reshape(-1, 4),
                                      [scene.tiles[i].tile for i in hand], detections)
                why = f"recognition ({', '.join(wrong[:4])}{'…' if len(wrong) > 4 else ''})" if wrong else "grouping"
            failures.append(f"  {seed} {scene.region}: {why + ': ' if why else ''}{'; '.join(result.wrong)}")
    source = "perfect detections (labels)" if detector is None else f"bundled model {detector.model_info['version']}"
    print(f"synthetic (seeds {seeds.start:,}–{seeds.stop - 1:,}), {source}: {exact}/{count} read exactly "
          f"({100 * exact / count:.1f} %)")
    if detector is not None:
        grouping = sum(": grouping:" in f for f in failures)
        print(f"  failures: {len(failures) - grouping} recognition, {grouping} grouping")
    print(f"  of the failures, read as a legal hand (no warning): {unwarned}; reported not legal with the exact "
          f"hand as the first suggestion (one tap): {one_tap}")
    if detector is not None:
        print(f"  a hand tile marked doubtful (confidence < {DOUBTFUL_CONFIDENCE}): in {doubted['unwarned']} of the "
              f"{unwarned} read legal but wrong, in {doubted['exact']} of the {exact} read exactly")
    print("\n".join(failures))


def real(detector, fixes: Path | None = None) -> None:
    """The real-photo figure; with ``detector`` None, from the labels (boxes and tiles, faces taken as upright);
    against the labels with the label errors of ``fixes`` mended when given."""
    from vision.detections import Detections
    from vision.images import read_photo

    chosen, right, upright, failures = 0, 0, 0, []
    faces = Counter()  # the row's faces found: all, and read pointing to the photo's top
    for photo in load_split("valid", fixes=fixes):
        row = complete_hand_row(photo.boxes, photo.tiles)
        if not row:
            continue
        chosen += 1
        image = read_photo(photo.image)
        labels = to_pixel_boxes(photo.boxes, image.width, image.height)
        if detector is None:
            n = len(labels)
            detections = Detections(labels, photo.tiles, np.ones(n), (), np.zeros(n, bool), np.zeros(n))
            reading = group_hand(detections, REAL_RULES, frame=(image.width, image.height))
        else:
            reading, detections = hand_reading(image, detector, REAL_RULES)
        truth, truth_tiles = labels[row], [photo.tiles[i] for i in row]
        held = reading.held
        upright += read_upright(held, detections)
        wrong, pairs = recognised(truth, truth_tiles, detections)
        found = [d for d in pairs.values() if detections.tiles[d] != BACK]
        faces.update(all=len(found), up=sum(abs((float(detections.angle[d]) + 180) % 360 - 180) < 45 for d in found))
        if Counter(detections.tiles[i] for i in held) == Counter(truth_tiles):
            right += 1
            continue
        left_out = [truth_tiles[t] for t, d in pairs.items() if d not in held and detections.tiles[d] == truth_tiles[t]]
        extra = [detections.tiles[i] for i in held if i not in pairs.values()]
        why = wrong + [f"left out {t}" for t in left_out] + [f"extra {t}" for t in extra]
        failures.append(f"  {photo.source}: {len(truth_tiles)} tiles; " + ", ".join(why))
    source = "labels" if detector is None else f"bundled model {detector.model_info['version']}"
    source += f", label errors of {fixes.name} mended" if fixes else ""
    print(f"real `valid` photos with a complete hand in a row: {chosen}; read with every tile right from the "
          f"{source}: {right} ({100 * right / max(1, chosen):.1f} %)")
    if detector is not None:
        print(f"  read the right way up (the hand's tiles run from the player's left to right as the photo's do): "
              f"{upright}; of the row's {faces['all']} faces found, read pointing to the photo's top (within 45°): "
              f"{faces['up']} ({100 * faces['up'] / max(1, faces['all']):.1f} %)")
    print("\n".join(failures))


def read_upright(held: tuple[int, ...], detections) -> bool:
    """Whether a hand read from an upright photo of one row was read upright: its tiles, in the order the
    reading holds them (the player's left to right), run left to right in the photo (their order and their
    centres' x correlate)."""
    if len(held) < 2:
        return False
    x = detections.xyxy[list(held)][:, [0, 2]].mean(1)
    return bool(np.corrcoef(np.arange(len(held)), x)[0, 1] > 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=320, help="held-out synthetic scenes (default 320; 0: none)")
    parser.add_argument("--first-seed", type=int, default=EVAL_SEED_START,
                        help=f"first scene's seed (default {EVAL_SEED_START}, the held-out set)")
    parser.add_argument("--no-model", action="store_true", help="skip the runs with the bundled model")
    parser.add_argument("--no-real", action="store_true", help="skip the real photos")
    parser.add_argument("--threads", type=int, default=None, help="ONNX Runtime threads")
    args = parser.parse_args()
    if args.count < 0:
        parser.error("--count must be 0 or more")
    seeds = eval_seeds(args.count, args.first_seed)
    if args.count:
        synthetic(seeds, None)
    if not args.no_real:
        real(None)
        real(None, VALID_LABEL_FIXES)
    if args.no_model:
        return
    from vision.detector import TileDetector

    detector = TileDetector(threads=args.threads)
    if args.count:
        synthetic(seeds, detector)
    if not args.no_real:
        real(detector)
        real(detector, VALID_LABEL_FIXES)


if __name__ == "__main__":
    main()
