"""`mjcam eval DIR`: measure the bundled model on a YOLO-format folder (DIR/images, DIR/labels).

Class indices of the labels are named by `--classes` (a classes.tsv with a `tile_code` column, a YOLO
data.yaml, or a text file with one name per line), else by the first of classes.tsv, classes.txt and data.yaml
found in DIR, else the first found in its parent; with none of them the run stops (no class order is assumed).
The run names the file it used.
"""
from __future__ import annotations

import argparse
import itertools
import json
import sys
from pathlib import Path

from vision.detect_cli import MAX_THREADS, thread_count
from vision.detections import CLASS_NAMES
from vision.images import ImageError, read_photo
from vision.metrics import (DetectionScores, LabelFixes, mend_labels, read_label_fixes, read_lines, read_yolo_labels,
                            to_pixel_boxes)

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".webp", ".avif", ".bmp", ".tif", ".tiff"}
CLASS_FILES = ("classes.tsv", "classes.txt", "data.yaml")
YAML_FORMS = ("expected 'names: [a, b, ...]' or 'names: {0: a, 1: b, ...}', or below 'names:' lines '- a' "
              "(indented or not) or '0: a'")


def is_list_item(line: str) -> bool:
    """Whether a (stripped) YAML line is a block list item, `- a`."""
    return line == "-" or line.startswith(("- ", "-\t"))


def yaml_class_names(path: Path, lines: list[str]) -> list[str]:
    """The `names` of a YOLO data.yaml: a flow list (`names: [a, b]`) or mapping from class index to name
    (`names: {0: a, 1: b}`), either over one line or more, or below `names:` a block list (`- a`, indented or at
    the key's indent, as yaml.safe_dump writes it) or mapping (`0: a`). ValueError naming the `names:` line
    for any other form, an empty name, or mapping keys that are not the indices 0 to n-1."""
    lines = [line.split("#")[0].rstrip() for line in lines]
    start = next((n for n, line in enumerate(lines) if line.startswith("names:")), None)
    if start is None:
        raise ValueError(f"{path}: no 'names:' line")
    error = ValueError(f"{path}:{start + 1}: {YAML_FORMS}")
    head, below = lines[start][len("names:"):].strip(), lines[start + 1:]
    unindented = not head and is_list_item(next((line for line in below if line), ""))
    block = list(itertools.takewhile(lambda line: not line or (is_list_item(line) if unindented else line[0].isspace()),
                                     below))
    if unindented and len(block) < len(below) and below[len(block)][0].isspace():
        raise error  # an indented line inside the unindented list
    block = [line.strip() for line in block if line.strip()]
    value = " ".join([head, *block])
    if head and value[0] + value[-1] in ("[]", "{}"):
        items = [item.strip() for item in value[1:-1].split(",")]
        if items[-1] == "":
            items.pop()  # a trailing comma, or no items at all
        names = items if value[0] == "[" else indexed_names(items, error)
    elif not head and block and all(is_list_item(item) for item in block):
        names = [item[1:] for item in block]
    elif not head and block:
        names = indexed_names(block, error)
    else:
        raise error
    names = [name.strip().strip("'\"") for name in names]
    if "" in names:
        raise error
    return names


def indexed_names(items: list[str], error: ValueError) -> list[str]:
    """The names of YAML mapping items `i: name`, in the order of their keys, which must be 0 to n-1."""
    pairs = [item.split(":", 1) for item in items]
    if any(len(pair) < 2 or not pair[0].strip().isdecimal() for pair in pairs):
        raise error
    by_index = {int(key): name for key, name in pairs}
    if sorted(by_index) != list(range(len(pairs))):
        raise error
    return [by_index[i] for i in range(len(pairs))]


def find_class_list(folder: Path) -> Path:
    """The first of CLASS_FILES found in the folder, else the first found in its parent."""
    parent = folder.resolve().parent if folder.name in ("", "..") else folder.parent  # Path(".").parent is "."
    found = next((d / name for d in (folder, parent) for name in CLASS_FILES if (d / name).is_file()), None)
    if found is None:
        raise ValueError(f"{folder}: no class list ({', '.join(CLASS_FILES)}) in it or its parent; "
                         "name one with --classes")
    return found


def class_list(folder: Path, classes: Path | None) -> tuple[Path, list[str]]:
    """The class list file (``classes``, else `find_class_list`) and the class name of each label index in it."""
    path = classes or find_class_list(folder)
    lines = read_lines(path)
    if path.suffix == ".tsv":
        header = lines[0].split("\t") if lines else []
        if "tile_code" not in header:
            raise ValueError(f"{path}:1: expected a header line with a tile_code column")
        column = header.index("tile_code")
        cells = [(n, line.split("\t")) for n, line in enumerate(lines[1:], 2) if line.strip()]
        short = next((n for n, row in cells if len(row) <= column), None)
        if short:
            raise ValueError(f"{path}:{short}: no tile_code cell")
        names = [row[column] for _, row in cells]
    elif path.suffix in (".yaml", ".yml"):
        names = yaml_class_names(path, lines)
    else:
        names = [line.strip() for line in lines if line.strip()]
    if not names:
        raise ValueError(f"{path}: no class names")
    unknown = sorted(set(names) - set(CLASS_NAMES))
    if unknown:
        raise ValueError(f"{path}: classes {', '.join(unknown)} are not tile codes or 'back'")
    return path, names


def evaluate_folder(folder: Path, detector, names: list[str], accept: float, limit: int | None = None,
                    fixes: dict[str, LabelFixes] | None = None) -> dict:
    """Run the detector (set to a low threshold) on every labelled image of the folder and score it against
    its labels, with the label errors in ``fixes`` (image file name → `read_label_fixes`) mended.

    mAP is computed over all the detector's candidates, as usual; tile accuracy over those whose score
    reaches ``accept``, the operating threshold. Every label file is read before the detector runs, so a bad
    one (ValueError) stops the run before any work is done; a photo that cannot be read is reported on stderr
    and left out, and counted as ``unreadable`` in the summary; images with no label file are left out and
    counted as ``unlabelled`` (ValueError when no image is left: a score of nothing is no score).
    """
    labelled, unlabelled = [], 0
    images = sorted(p for p in (folder / "images").iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    for image_path in images[:limit]:
        label = folder / "labels" / (image_path.stem + ".txt")
        if not label.exists():
            unlabelled += 1
            continue
        boxes, tiles = read_yolo_labels(label, names)
        if fixes and image_path.name in fixes:
            try:
                boxes, tiles = mend_labels(boxes, tiles, fixes[image_path.name])
            except ValueError as error:
                raise ValueError(f"{label}: {error}") from None
        labelled.append((image_path, boxes, tiles))
    if not labelled:
        without = f" ({unlabelled} with no label file in labels/)" if unlabelled else ""
        raise ValueError(f"{folder}: no labelled image to measure{without}")
    scores, unreadable = DetectionScores(), 0
    for image_path, boxes, tiles in labelled:
        try:
            photo = read_photo(image_path)
        except ImageError as error:
            print(f"mjcam eval: {error}", file=sys.stderr, flush=True)
            unreadable += 1
            continue
        found = detector.detect(photo)
        scores.add(to_pixel_boxes(boxes, photo.width, photo.height), tiles, found, accept)
    if unreadable == len(labelled):
        raise ValueError(f"{folder}: no labelled image could be read (a score of nothing is no score)")
    return {**scores.summary(), "unreadable": unreadable, "unlabelled": unlabelled}


def positive_int(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    if not text.isdecimal() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, not {text!r}")
    return int(text)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("folder", type=Path, help="a YOLO-format folder with images/ and labels/")
    parser.add_argument("--classes", type=Path, help="class names of the label indices")
    parser.add_argument("--json", action="store_true", help="print the metrics as JSON")
    parser.add_argument("--limit", type=positive_int, help="evaluate only the first N images")
    parser.add_argument("--label-fixes", type=Path, metavar="TSV",
                        help="label errors to mend first (image, label index, labelled, shown, note; "
                             "datasets/valid_label_fixes.tsv holds those found in the real valid split)")
    parser.add_argument("--threads", type=thread_count, help=f"ONNX Runtime threads, 1 to {MAX_THREADS}")


def run(args: argparse.Namespace) -> int:
    from vision.detector import DetectorSettings, ModelError, load_detector

    if not (args.folder / "images").is_dir() or not (args.folder / "labels").is_dir():
        print(f"mjcam eval: {args.folder}: expected a folder with images/ and labels/", file=sys.stderr)
        return 2
    try:
        classes, names = class_list(args.folder, args.classes)
        fixes = read_label_fixes(args.label_fixes) if args.label_fixes else None
        detector = load_detector(settings=DetectorSettings(conf=0.01), threads=args.threads)
        summary = evaluate_folder(args.folder, detector, names, DetectorSettings().conf, args.limit, fixes)
    except (ValueError, ModelError) as error:
        print(f"mjcam eval: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"mjcam eval: {error.filename}: {error.strerror}" if error.filename else f"mjcam eval: {error}",
              file=sys.stderr)
        return 2
    status = 1 if summary["unreadable"] else 0
    if args.json:
        print(json.dumps({**summary, "classes": str(classes)}, ensure_ascii=False))
        return status
    n = summary["unlabelled"]
    unlabelled = f" ({n} image{'s' if n > 1 else ''} with no label file left out)" if n else ""
    photos = summary["photos"]
    print(f"{photos} photo{'' if photos == 1 else 's'}, {summary['labelled_tiles']} labelled tiles{unlabelled}")
    print(f"class names from {classes}")
    print(f"mAP50 {summary['mAP50']:.3f}   mAP50-95 {summary['mAP50-95']:.3f}   tile accuracy {summary['tile_accuracy']:.3f}")
    print("class  labelled  recall  AP50")
    for tile, row in summary["per_class"].items():
        print(f"{tile:5}  {row['labelled']:8}  {row['recall']:6.3f}  {row['AP50']:.3f}")
    return status
