"""`mjcam eval DIR`: measure the bundled model on a YOLO-format folder (DIR/images, DIR/labels).

Class indices of the labels are named by `--classes` (a classes.tsv with a `tile_code` column, a YOLO
data.yaml, or a text file with one name per line), else by a classes.tsv / classes.txt in DIR or its parent,
else by the project's 43 classes (tile codes, then `back`).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from vision.detections import CLASS_NAMES
from vision.images import ImageError, read_photo
from vision.metrics import DetectionScores, LabelFixes, mend_labels, read_label_fixes, read_yolo_labels, to_pixel_boxes

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".webp", ".bmp", ".tif", ".tiff"}


def class_names(folder: Path, classes: Path | None) -> list[str]:
    """The class name of each label index (see the module docstring for where they come from)."""
    candidates = [classes] if classes else [
        folder / "classes.tsv", folder.parent / "classes.tsv", folder / "classes.txt", folder.parent / "classes.txt"
    ]
    for path in candidates:
        if path is None or not path.exists():
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        if path.suffix == ".tsv":
            header = lines[0].split("\t")
            names = [line.split("\t")[header.index("tile_code")] for line in lines[1:] if line.strip()]
        elif path.suffix in (".yaml", ".yml"):
            import ast

            text = path.read_text(encoding="utf-8")
            start = text.index("names:") + len("names:")
            names = [str(v) for v in ast.literal_eval(text[start:].strip().splitlines()[0])]
        else:
            names = [line.strip() for line in lines if line.strip()]
        unknown = sorted(set(names) - set(CLASS_NAMES))
        if unknown:
            raise ValueError(f"{path}: classes {', '.join(unknown)} are not tile codes or 'back'")
        return names
    return list(CLASS_NAMES)


def evaluate_folder(folder: Path, detector, names: list[str], accept: float, limit: int | None = None,
                    fixes: dict[str, LabelFixes] | None = None) -> dict:
    """Run the detector (set to a low threshold) on every labelled image of the folder and score it against
    its labels, with the label errors in ``fixes`` (image file name → `read_label_fixes`) mended.

    mAP is computed over all the detector's candidates, as usual; tile accuracy over those whose score
    reaches ``accept``, the operating threshold.
    """
    scores = DetectionScores()
    images = sorted(p for p in (folder / "images").iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    for image_path in images[:limit]:
        label = folder / "labels" / (image_path.stem + ".txt")
        if not label.exists():
            continue
        photo = read_photo(image_path)
        boxes, tiles = read_yolo_labels(label, names)
        if fixes and image_path.name in fixes:
            try:
                boxes, tiles = mend_labels(boxes, tiles, fixes[image_path.name])
            except ValueError as error:
                raise ValueError(f"{label}: {error}") from None
        found = detector.detect(photo)
        scores.add(to_pixel_boxes(boxes, photo.width, photo.height), tiles, found, accept)
    return scores.summary()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("folder", type=Path, help="a YOLO-format folder with images/ and labels/")
    parser.add_argument("--classes", type=Path, help="class names of the label indices")
    parser.add_argument("--json", action="store_true", help="print the metrics as JSON")
    parser.add_argument("--limit", type=int, help="evaluate only the first N images")
    parser.add_argument("--label-fixes", type=Path, metavar="TSV",
                        help="label errors to mend first (image, label index, labelled, shown, note; "
                             "datasets/valid_label_fixes.tsv holds those found in the real valid split)")
    parser.add_argument("--threads", type=int, help="ONNX Runtime threads")


def run(args: argparse.Namespace) -> int:
    from vision.detector import DetectorSettings, TileDetector

    if not (args.folder / "images").is_dir() or not (args.folder / "labels").is_dir():
        print(f"mjcam eval: {args.folder}: expected a folder with images/ and labels/", file=sys.stderr)
        return 2
    try:
        names = class_names(args.folder, args.classes)
        fixes = read_label_fixes(args.label_fixes) if args.label_fixes else None
        detector = TileDetector(settings=DetectorSettings(conf=0.01), threads=args.threads)
        summary = evaluate_folder(args.folder, detector, names, DetectorSettings().conf, args.limit, fixes)
    except (ValueError, ImageError, OSError) as error:
        print(f"mjcam eval: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
        return 0
    print(f"{summary['photos']} photos, {summary['labelled_tiles']} labelled tiles")
    print(f"mAP50 {summary['mAP50']:.3f}   mAP50-95 {summary['mAP50-95']:.3f}   tile accuracy {summary['tile_accuracy']:.3f}")
    print("class  labelled  recall  AP50")
    for tile, row in summary["per_class"].items():
        print(f"{tile:5}  {row['labelled']:8}  {row['recall']:6.3f}  {row['AP50']:.3f}")
    return 0
