"""Train the detector for many epochs on the real photos and freshly rendered synthetic scenes (a GPU run).

    python -m datasets.train_detector_scenes --init CHECKPOINT --name NAME (--epochs N | --minutes M) [--device 0]

The training list holds every real training photo ``--real-copies`` times (from `build/detector`, or
``--real``, a folder of photos whose labels lie where ultralytics looks) and ``--scenes`` synthetic scenes
(seeds ``--first-seed``…), rendered by ``--jobs`` processes at the detector's input size into
`build/detector_scenes/` (scenes already there are kept). The bundled detector's last two stages are two
such runs (see datasets/train.py); an interrupted run resumes with `datasets.train_detector --name NAME --resume`.
"""
from __future__ import annotations

import argparse
import os
import time
from functools import partial
from multiprocessing import Pool
from pathlib import Path

from datasets.build import BUILD, SYNTH_KINDS, write_data_yaml

SCENES = BUILD / "detector_scenes"
VAL_SEEDS = range(8_500_000, 8_500_040)
"""Synthetic scenes for the one validation ultralytics always runs after the last epoch (not used to choose)."""


def render_scene(seed: int, root: Path, max_side: int) -> int:
    """Render the scene of ``seed`` into ``root``/images and ``root``/labels, unless it is there; returns the seed."""
    from datasets.synth import generate_scene, write_yolo

    name = f"synth_{seed:07d}"
    if not (root / "labels" / f"{name}.txt").exists():
        scene = generate_scene(seed, kind=SYNTH_KINDS[seed % len(SYNTH_KINDS)])
        write_yolo(scene, root / "images", root / "labels", name, max_side=max_side)
    return seed


def render_scenes(seeds: range, root: Path, jobs: int, max_side: int, deadline: float) -> list[int]:
    """Render ``seeds`` with ``jobs`` processes, stopping at ``deadline`` (time.time()); the seeds done."""
    done = []
    with Pool(jobs) as pool:
        for seed in pool.imap_unordered(partial(render_scene, root=root, max_side=max_side), seeds, chunksize=8):
            done.append(seed)
            if time.time() > deadline:
                pool.terminate()
                break
    return sorted(done)


def write_dataset(root: Path, real_images: Path, real_copies: int, seeds: range, jobs: int, imgsz: int,
                  render_seconds: float = float("inf")) -> Path:
    """Render the scenes and write the training list and data.yaml under ``root``; returns the yaml path."""
    start = time.time()
    done = render_scenes(seeds, root / "synth", jobs, imgsz, start + render_seconds)
    print(f"{len(done)} synthetic scenes of seeds {seeds.start}–{seeds.stop - 1} in {time.time() - start:.0f} s",
          flush=True)
    render_scenes(VAL_SEEDS, root / "val", jobs, imgsz, float("inf"))
    real = sorted(p for p in real_images.iterdir() if not p.name.startswith("synth_"))
    synth_images = [root / "synth" / "images" / f"synth_{seed:07d}.jpg" for seed in done]
    lines = [str(p) for p in real] * real_copies + [str(p) for p in synth_images]
    train_list = root / f"train_{seeds.start}_{seeds.stop}.txt"
    train_list.write_text("\n".join(lines) + "\n")
    print(f"training list: {len(real)} real photos × {real_copies} + {len(synth_images)} synthetic scenes")
    return write_data_yaml(root / f"data_{seeds.start}_{seeds.stop}.yaml", root, train_list.name, "val/images")


def strip_checkpoints(weights: Path) -> list[Path]:
    """Drop the optimizer state from every checkpoint in ``weights`` (about a third of the size)."""
    from ultralytics.utils.torch_utils import strip_optimizer

    checkpoints = sorted(weights.glob("*.pt"))
    for path in checkpoints:
        strip_optimizer(path)
    return checkpoints


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--init", type=Path, required=True, help="the checkpoint to start from")
    parser.add_argument("--name", required=True, help="the run's folder in build/runs")
    length = parser.add_mutually_exclusive_group(required=True)
    length.add_argument("--epochs", type=int)
    length.add_argument("--minutes", type=float, help="train for this long instead (ultralytics fits its schedule)")
    parser.add_argument("--real", type=Path, default=BUILD / "detector" / "images" / "train",
                        help="the real training photos (their labels where ultralytics looks: images/ → labels/)")
    parser.add_argument("--real-copies", type=int, default=2)
    parser.add_argument("--scenes", type=int, default=4000)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--render-seconds", type=float, default=float("inf"), help="stop rendering scenes after this")
    parser.add_argument("--jobs", type=int, default=os.cpu_count())
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--lr0", type=float, default=0.002)
    parser.add_argument("--close-mosaic", type=int, default=10, help="last epochs without mosaic")
    parser.add_argument("--imgsz", type=int, default=480)
    parser.add_argument("--save-period", type=int, default=-1, help="keep a checkpoint every N epochs")
    parser.add_argument("--device", default="0")
    args = parser.parse_args()

    from datasets.train_detector import train_detector

    seeds = range(args.first_seed, args.first_seed + args.scenes)
    data = write_dataset(SCENES, args.real, args.real_copies, seeds, args.jobs, args.imgsz, args.render_seconds)
    run = train_detector(args.init, data, args.name, epochs=args.epochs or 1, imgsz=args.imgsz, batch=args.batch,
                         lr0=args.lr0, device=args.device, workers=max(1, args.jobs - 2),
                         hours=args.minutes / 60 if args.minutes else None, save_period=args.save_period,
                         val=False, close_mosaic=args.close_mosaic)
    for path in strip_checkpoints(run / "weights"):
        print(f"{path.name}: {path.stat().st_size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
