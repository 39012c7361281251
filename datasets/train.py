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
5. `datasets.export`: both to ONNX in `build/export/`;
6. `datasets.axis_head`: the classifier's axis head, trained on 2,000 synthetic scenes and the real row tiles of
   `train_row_up.tsv` turned four ways, and added to its ONNX file;
7. `datasets.up_head`: the classifier's quarter-turn head refitted on the real row tiles of `train_row_up.tsv`
   and the face-up tiles of 800 synthetic scenes; then both files are put in `models/` (never a classifier
   without its heads).

Interrupted training stages resume from their last checkpoint when run again. The stages run with the
settings above, given here as arguments: each module run by hand has defaults of its own (see its --help).
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

from datasets.build import BUILD, build_mended_crops
from vision.detector import CLASSIFIER_MODEL, DETECTOR_MODEL

RUNS = BUILD / "runs"
MENDED = BUILD / "classifier_mended"
EXPORT = BUILD / "export"


def run(*args: str) -> None:
    print("+", " ".join(args), flush=True)
    subprocess.run([sys.executable, "-m", *args], check=True)


def finished(last: Path) -> bool:
    """Whether the ultralytics run whose last weights these are ran to its end: ultralytics strips a finished
    run's optimizer and marks its epoch -1 (it writes an epoch's row of results.csv before that epoch's
    weights, so counting rows can take a run stopped in between for a finished one)."""
    import torch

    return last.exists() and torch.load(last, map_location="cpu", weights_only=False).get("epoch") == -1


def detector_stage(name: str, epochs: int, *start: str) -> Path:
    """A detector run of ``epochs`` started by the module and arguments ``start`` (resumed when interrupted);
    returns its last weights."""
    last = RUNS / name / "weights" / "last.pt"
    if finished(last):
        return last
    if last.exists():
        run("datasets.train_detector", "--name", name, "--resume")
    else:
        run(*start, "--name", name, "--epochs", str(epochs))
    return last


def newer(outputs: list[Path], inputs: list[Path]) -> bool:
    """Whether every output exists and was written after every input: a stage made from them is done."""
    newest = max(path.stat().st_mtime for path in inputs)
    return all(path.exists() and path.stat().st_mtime > newest for path in outputs)


def exported(staged: list[Path], weights: list[Path]) -> bool:
    """Whether the detector and classifier files ``staged`` are done: newer than the ``weights``, loadable as
    the product loads them (`load_detector`: a classifier exported but left without its axis head, as a stop
    between the export and the axis head leaves it, is not) and with the classifier's quarter-turn head
    refitted (`datasets.up_head`)."""
    from datasets.up_head import refitted
    from vision.detector import ModelError, load_detector

    if not newer(staged, weights) or not refitted(staged[1]):
        return False
    try:
        load_detector(*staged)
    except ModelError:
        return False
    return True


def export_stage(detector: Path, classifier: Path) -> None:
    """Export both networks to EXPORT, add the classifier's axis head and refit its quarter-turn head there
    (skipped when the files there are done: `exported`), then put both in `models/`."""
    staged = [EXPORT / DETECTOR_MODEL.name, EXPORT / CLASSIFIER_MODEL.name]
    if not exported(staged, [detector, classifier]):
        for path in staged:
            path.unlink(missing_ok=True)
        run("datasets.export", "--detector", str(detector), "--classifier", str(classifier), "--out", str(EXPORT))
        run("datasets.axis_head", "--model", str(staged[1]), "--detector", str(staged[0]))
        run("datasets.up_head", "--model", str(staged[1]), "--detector", str(staged[0]))
    for path, bundled in zip(staged, (DETECTOR_MODEL, CLASSIFIER_MODEL)):
        shutil.copyfile(path, bundled)


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
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
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
    classifier = RUNS / "classifier_mean.pt"
    if not newer([classifier], [white, mended]):
        from datasets.train_classifier import averaged

        averaged(white, mended, classifier)
    export_stage(detector, classifier)


if __name__ == "__main__":
    main()
