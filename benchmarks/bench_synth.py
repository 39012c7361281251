"""Time per synthetic hand scene (`datasets.synth.generate_scene`) on one core.

    python benchmarks/bench_synth.py [--scenes 100] [--threads 1]

Scenes use the default random sizes (640–1600 px on the long side); the tile art is loaded and
cached by a warm-up of the same number of scenes (other seeds) first, as in a long dataset build.
"""
from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from datasets.synth import generate_scene  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=100)
    parser.add_argument("--threads", type=int, default=1, help="OpenCV threads (default 1: one core)")
    args = parser.parse_args()
    cv2.setNumThreads(args.threads)
    for seed in range(10**6, 10**6 + args.scenes):
        generate_scene(seed)
    times, megapixels = [], []
    for seed in range(args.scenes):
        start = time.perf_counter()
        scene = generate_scene(seed)
        times.append(time.perf_counter() - start)
        megapixels.append(scene.image.shape[0] * scene.image.shape[1] / 1e6)
    print(f"{platform.processor() or platform.machine()}, OpenCV threads {args.threads}, {args.scenes} scenes "
          f"of {np.mean(megapixels):.2f} MP on average")
    print(f"per scene: median {statistics.median(times) * 1000:.0f} ms, "
          f"90th percentile {np.percentile(times, 90) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
