"""Rebuild the bundled model from ../shared, stage by stage (each stage is skipped once its output exists).

    python -m datasets.train            # or: make model

1. `datasets.build`: the detector dataset (real + 1,500 synthetic scenes) and the classifier crop sets;
2. `datasets.warm_start`: YOLO11n warm-started from `mahjong-detector` (downloaded from PyPI);
3. the detector: 2 epochs on the real photos only, then 6 on real + synthetic (480 px, one class), then
   the long runs of `datasets.train_detector_scenes` (on the GPU when there is one; slow on the CPU but
   resumable): 55 epochs on the real photos twice + 4,000 scenes (seeds 0–3,999), then 18 at a quarter of
   the learning rate on the real photos twice + 6,000 new scenes (seeds 4,000–9,999);
4. the classifier: 12 epochs of 200 steps (batch 256) on every crop set, then 12 of 300 steps from the
   best of those, then 12 of 300 steps with a third more channels per layer, started from the best of
   the second run (`train_classifier.widened`), then 4 of 300 steps at lr 0.001 with the white-dragon
   crops eight times over; then 4 more of 300 steps at lr 0.001 from its last weights on the crops of
   `build.build_mended_crops` (new scenes rendered with the two mislabelled single-tile photos mended), and
   the mean of the two runs' last weights (`train_classifier.averaged`);
5. `datasets.export`: both to ONNX in `models/`.
6. `datasets.axis_head`: the classifier's axis head, trained on 2,000 synthetic scenes and added to its ONNX file.

Interrupted training stages resume from their last checkpoint when run again.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from datasets.build import BUILD, build_mended_crops
from datasets.train_classifier import averaged

RUNS = BUILD / "runs"
MENDED = BUILD / "classifier_mended"


def run(*args: str) -> None:
    print("+", " ".join(args), flush=True)
    subprocess.run([sys.executable, "-m", *args], check=True)


def detector_stage(name: str, epochs: int, *start: str) -> Path:
    """A detector run of ``epochs`` started by the module and arguments ``start`` (resumed when interrupted);
    returns its last weights."""
    weights = RUNS / name / "weights"
    done = RUNS / name / "results.csv"
    if done.exists() and len(done.read_text().splitlines()) > epochs:
        return weights / "last.pt"
    if (weights / "last.pt").exists():
        run("datasets.train_detector", "--name", name, "--resume")
    else:
        run(*start, "--name", name, "--epochs", str(epochs))
    return weights / "last.pt"


def classifier_stage(name: str, init: Path | None, steps: int, width: int = 24, epochs: int = 12,
                     *extra: str, keep: str = "best.pt") -> Path:
    """A classifier run (resumed when interrupted); returns its ``keep`` checkpoint."""
    out = RUNS / name
    last = out / "last.pt"
    args = ["datasets.train_classifier", "--epochs", str(epochs), "--steps", str(steps), "--width", str(width),
            "--out", str(out), *extra]
    if last.exists():
        import torch

        if torch.load(last, weights_only=False)["epoch"] + 1 >= epochs:
            return out / keep
        args.append("--resume")
    elif init is not None:
        args += ["--init", str(init)]
    run(*args)
    return out / keep


def main() -> None:
    if not (BUILD / "detector" / "data.yaml").exists() or not (BUILD / "classifier" / "synth_5z.npz").exists():
        run("datasets.build")
    if not (BUILD / "warm_start.pt").exists():
        run("datasets.warm_start", "--images", str(BUILD / "detector" / "images" / "train"))
    import torch

    detector_data = BUILD / "detector"
    real_only = detector_stage("detector_real", 2, "datasets.train_detector", "--init", str(BUILD / "warm_start.pt"),
                               "--data", str(detector_data / "data_real.yaml"))
    mixed = detector_stage("detector", 6, "datasets.train_detector", "--init", str(real_only),
                           "--data", str(detector_data / "data.yaml"))
    scenes = ("datasets.train_detector_scenes", "--device", "0" if torch.cuda.is_available() else "cpu")
    long_run = detector_stage("detector_scenes_1", 55, *scenes, "--init", str(mixed.parent / "best.pt"),
                              "--first-seed", "0", "--scenes", "4000")
    detector = detector_stage("detector_scenes_2", 18, *scenes, "--init", str(long_run), "--first-seed", "4000",
                              "--scenes", "6000", "--lr0", "0.0005", "--close-mosaic", "5")
    first = classifier_stage("classifier_1", None, steps=200)
    second = classifier_stage("classifier_2", first, steps=300)
    wide = classifier_stage("classifier_3", second, steps=300, width=32)
    white = classifier_stage("classifier", wide, 300, 32, 4, "--lr", "0.001",
                             "--oversample", "tile_photos=8,synth_5z=8", keep="last.pt")
    if not (MENDED / "synth_89.npz").exists():
        build_mended_crops(MENDED, BUILD / "classifier")
    mended = classifier_stage("classifier_mended", white, 300, 32, 4, "--lr", "0.001", "--data", str(MENDED),
                              "--oversample", "tile_photos=8,synth_89=8,synth_a=2,synth_b=2", keep="last.pt")
    classifier = averaged(white, mended, RUNS / "classifier_mean.pt")
    run("datasets.export", "--detector", str(detector), "--classifier", str(classifier))
    run("datasets.axis_head")


if __name__ == "__main__":
    main()
