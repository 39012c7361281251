"""What limits the reading of synthetic hands: their tiles named from the label boxes, by how much of each face
shows and how large it is.

    python benchmarks/eval_hand_tiles.py [--count 300] [--first-seed 9006000] [--sheet misnamed.png]

Each scene of the reader's sets (`datasets.read_eval`: development seeds 9,000,000–9,099,999, held-out
9,100,000 on) is rendered, and every tile of the photographed hand (its groups) is classified from its label box
as the product classifies a box (`TileDetector.classify`: turned and moved looks included), so the detector and
the reader play no part. For each tile: the share of its face in view (the scene's mask: pixels of the face's
quadrilateral where this tile's face shows, not a neighbour or a tile stacked on it) and the face's shorter side in
pixels. Printed: the tiles named right by share in view and by size, and how many hands have every tile named
right, in all and among the hands whose every face is mostly in view (70 %) and at least 20 pixels across. With
``--sheet``, the misnamed tiles whose face is fully in view (90 %) are drawn into one picture, each with its true
and read name and its size, to be judged by eye: could a person name them?
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from datasets.read_eval import eval_region  # noqa: E402
from datasets.synth import Scene, generate_scene  # noqa: E402
from vision.crops import tile_crop  # noqa: E402
from vision.detections import CLASS_NAMES  # noqa: E402
from vision.detector import TileDetector  # noqa: E402

IN_VIEW_BINS = (0, 30, 50, 70, 90, 100)
"""Shares of the face in view, in %: each bin from its edge up to the next (the last one included)."""
SIZE_BINS = (0, 16, 20, 25, 30, 40, 60, None)
"""The face's shorter side in pixels, binned the same way (the last bin open)."""
FULLY_IN_VIEW = 0.9
"""A face at least this share in view counts as fully in view (the last `IN_VIEW_BINS` bin)."""
LEGIBLE_IN_VIEW, LEGIBLE_SIZE = 0.7, 20.0
"""A hand counts as plainly shown when every face is at least this share in view and this many pixels across."""
SHEET_CELL = 96


def face_in_view(scene: Scene, index: int) -> tuple[float, float]:
    """The share of the tile's face in view and the face's shorter side in pixels (the mean length of its
    shorter pair of opposite sides)."""
    quad = np.asarray(scene.tiles[index].quad, np.float32)
    face = np.zeros(scene.mask.shape, np.uint8)
    cv2.fillConvexPoly(face, quad.round().astype(np.int32), 1)
    inside = face.astype(bool)
    shown = np.count_nonzero(scene.mask[inside] == index)
    sides = np.linalg.norm(quad - np.roll(quad, -1, 0), axis=1)  # top, right, bottom, left
    return shown / max(np.count_nonzero(inside), 1), float(min(sides[0] + sides[2], sides[1] + sides[3]) / 2)


def sheet_cell(scene: Scene, index: int, read: str, size: float) -> np.ndarray:
    """The tile's crop, its true and read names and its size written on it."""
    cell = tile_crop(scene.image, np.asarray(scene.tiles[index].box, np.float32), SHEET_CELL)
    for text, y in ((f"{scene.tiles[index].tile}>{read}", 12), (f"{size:.0f}px", SHEET_CELL - 4)):
        cv2.putText(cell, text, (2, y), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 255), 1)
    return cell


def binned(label: str, values: np.ndarray, right: np.ndarray, edges: tuple, unit: str) -> None:
    """Tiles named right per bin of ``values`` (the last bin takes its upper edge in, or is open when it is None)."""
    for k, (lo, hi) in enumerate(zip(edges, edges[1:])):
        if hi is None:
            inside, span = values >= lo, f"{lo:g}{unit} and more"
        else:
            inside = (values >= lo) & ((values <= hi) if k == len(edges) - 2 else (values < hi))
            span = f"{lo:g}–{hi:g}{unit}"
        if inside.any():
            print(f"  {label} {span}: {inside.sum()} tiles, {right[inside].mean():.4f} named right "
                  f"({int((~right[inside]).sum())} wrong)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--first-seed", type=int, default=9_006_000)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--sheet", type=Path, help="draw the misnamed tiles fully in view into this picture")
    args = parser.parse_args()
    detector = TileDetector(threads=args.threads)
    rows, cells = [], []  # per hand tile: seed, share in view, size, named right
    for seed in range(args.first_seed, args.first_seed + args.count):
        scene = generate_scene(seed, eval_region(seed))
        hand = [i for group in scene.groups for i in group["tiles"]]
        probs = detector.classify(scene.image, np.array([scene.tiles[i].box for i in hand], np.float32))[0]
        for i, p in zip(hand, probs):
            share, size = face_in_view(scene, i)
            read = CLASS_NAMES[int(p.argmax())]
            rows.append((seed, share, size, read == scene.tiles[i].tile))
            if args.sheet and share >= FULLY_IN_VIEW and not rows[-1][3]:
                cells.append(sheet_cell(scene, i, read, size))
    seeds, shares, sizes, right = (np.array(column) for column in zip(*rows))
    last = args.first_seed + args.count - 1
    print(f"synthetic hands, seeds {args.first_seed:,}–{last:,}: {len(right)} hand tiles, {right.mean():.4f} named "
          "right from their label boxes")
    binned("face in view", shares * 100, right, IN_VIEW_BINS, " %")
    binned("face's shorter side", sizes, right, SIZE_BINS, " px")
    hands = np.unique(seeds)
    all_right = np.array([right[seeds == s].all() for s in hands])
    legible = np.array([(shares[seeds == s] >= LEGIBLE_IN_VIEW).all() and (sizes[seeds == s] >= LEGIBLE_SIZE).all()
                        for s in hands])
    print(f"  hands with every tile named right: {all_right.sum()} of {len(hands)}")
    in_view = shares >= FULLY_IN_VIEW
    print(f"  hands with a misnamed tile fully in view: {len(np.unique(seeds[~right & in_view]))}; with misnamed tiles "
          f"only partly in view: {len(np.setdiff1d(seeds[~right], seeds[~right & in_view]))}")
    print(f"  hands whose every face is {LEGIBLE_IN_VIEW:.0%} in view and {LEGIBLE_SIZE:g} px across: {legible.sum()}, "
          f"every tile named right in {all_right[legible].sum()}; the others: {(~legible).sum()}, "
          f"every tile named right in {all_right[~legible].sum()}")
    if args.sheet and cells:
        cells += [np.zeros_like(cells[0])] * (-len(cells) % 10)
        cv2.imwrite(str(args.sheet), np.vstack([np.hstack(cells[k:k + 10]) for k in range(0, len(cells), 10)]))
        print(f"  the misnamed tiles fully in view drawn into {args.sheet}")


if __name__ == "__main__":
    main()
