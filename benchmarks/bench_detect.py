"""Median detection time per photo: mjcam's TileDetector beside the `mahjong-detector` package, same run.

    python benchmarks/bench_detect.py [--photos 100] [--threads N]

Both get the decoded photo in memory (decoding is timed by bench_read.py); each is warmed up first. They take
turns over several rounds, each detecting every photo in its turn, so that a machine whose speed drifts (one
shared with other jobs) slows both alike.
Photos: the real `valid` photos (640×640). `mahjong-detector` (PyPI, MIT) is installed on demand.
"""
from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from datasets.real import load_split  # noqa: E402
from vision.detector import TileDetector  # noqa: E402
from vision.images import read_photo  # noqa: E402


def paired_medians(ours, our_inputs, theirs, their_inputs, rounds: int) -> tuple[float, float]:
    """Median milliseconds per call of ``ours`` on ``our_inputs`` and ``theirs`` on ``their_inputs``, taking turns
    over ``rounds`` rounds."""
    ours(our_inputs[0]), theirs(their_inputs[0])
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(rounds):
        for function, inputs, kept in zip((ours, theirs), (our_inputs, their_inputs), times):
            for item in inputs:
                start = time.perf_counter()
                function(item)
                kept.append((time.perf_counter() - start) * 1000)
    return statistics.median(times[0]), statistics.median(times[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=100)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--rounds", type=int, default=3, help="times each photo is detected by each")
    args = parser.parse_args()
    paths = [p.image for p in load_split("valid")][: args.photos]
    photos = [read_photo(p) for p in paths]
    detector = TileDetector(threads=args.threads)
    try:
        mahjong_detector = importlib.import_module("mahjong_detector")
    except ImportError:
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "mahjong-detector"], check=True)
        mahjong_detector = importlib.import_module("mahjong_detector")
    from PIL import Image

    images = [Image.open(p).convert("RGB") for p in paths]
    ours, theirs = paired_medians(detector.detect, photos, mahjong_detector.detect_tiles, images, args.rounds)
    print(f"machine: {platform.processor() or platform.machine()}, {len(paths)} photos of `valid`, {args.rounds} rounds")
    print(f"mjcam TileDetector (detector {detector.imgsz} px + classifier): median {ours:.1f} ms per photo")
    version = importlib.metadata.version("mahjong-detector")
    print(f"mahjong-detector {version} (YOLO11n at 640 px): median {theirs:.1f} ms per photo")
    print(f"ratio mjcam / mahjong-detector: {ours / theirs:.2f}")


if __name__ == "__main__":
    main()
