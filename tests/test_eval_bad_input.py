"""`mjcam eval` on bad input: one line of error naming the file (and line) and the problem, never a traceback."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from datasets.real import REAL_DATA, dataset_tile_codes
from mjcam.cli import main
from vision.eval_cli import CLASS_FILES, class_list

VALID = REAL_DATA / "valid"
PHOTOS = sorted((VALID / "images").iterdir())[:3]
HEADER = "image\tlabel\tlabelled\tshown\tnote\n"
YAML_FORMS = ("expected 'names: [a, b, ...]' or 'names: {0: a, 1: b, ...}', or below 'names:' lines '- a' "
              "(indented or not) or '0: a'")
CODES = dataset_tile_codes()


@pytest.fixture
def split(tmp_path) -> Path:
    """Three photos of the real valid split with their labels, and the dataset's classes.tsv beside them."""
    folder = tmp_path / "split"
    (folder / "images").mkdir(parents=True)
    (folder / "labels").mkdir()
    for photo in PHOTOS:
        os.symlink(photo, folder / "images" / photo.name)
        shutil.copy(VALID / "labels" / (photo.stem + ".txt"), folder / "labels")
    shutil.copy(REAL_DATA / "classes.tsv", folder)
    return folder


def mjcam_eval(capsys, *args) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of `mjcam eval ARGS`."""
    try:
        status = main(["eval", *map(str, args)])
    except SystemExit as exit_:  # argparse
        status = exit_.code
    out, err = capsys.readouterr()
    return status, out, err


def assert_error(capsys, args: tuple, message: str) -> None:
    status, out, err = mjcam_eval(capsys, *args)
    assert (status, out, err) == (2, "", f"mjcam eval: {message}\n")


def test_missing_classes_file_is_an_error(capsys, split):
    assert_error(capsys, (split, "--classes", split / "nowhere.txt"), f"{split / 'nowhere.txt'}: No such file or directory")


def test_folder_without_class_list_is_an_error(capsys, split):
    (split / "classes.tsv").unlink()
    assert_error(capsys, (split,), f"{split}: no class list (classes.tsv, classes.txt, data.yaml) in it or its parent; "
                                   "name one with --classes")


@pytest.mark.parametrize("name, text, message", [
    ("classes.tsv", "", "1: expected a header line with a tile_code column"),
    ("classes.tsv", "index\tcode\n0\t1m\n", "1: expected a header line with a tile_code column"),
    ("classes.tsv", "index\tdataset_name\ttile_code\n0\tbs1\n", "2: no tile_code cell"),
    ("classes.txt", "\n", " no class names"),
    ("data.yaml", "nc: 2\n", " no 'names:' line"),
    ("data.yaml", "nc: 2\nnames: [1m, 2m\n", f"2: {YAML_FORMS}"),
    ("data.yaml", "names: [1m, , 2m]\n", f"1: {YAML_FORMS}"),
    ("data.yaml", "names: {0: 1m, 1: 2m\n", f"1: {YAML_FORMS}"),
    ("data.yaml", "names: {0: 1m, 2: 2m}\n", f"1: {YAML_FORMS}"),
    ("data.yaml", "names: {0: 1m, 0: 2m}\n", f"1: {YAML_FORMS}"),
    ("data.yaml", "nc: 2\nnames:\n  0: 1m\n  0: 2m\n", f"2: {YAML_FORMS}"),
    ("data.yaml", "names:\n  - 1m\n  -\n  - 2m\n", f"1: {YAML_FORMS}"),
    ("data.yaml", "names:\n- 1m\n  - 2m\n", f"1: {YAML_FORMS}"),
    ("data.yaml", "names:\n- 1m\n- 2m\n  nc: 2\n", f"1: {YAML_FORMS}"),
    ("data.yaml", "names:\n-1m\n", f"1: {YAML_FORMS}"),
])
def test_bad_class_list_is_one_line_naming_it(capsys, split, name, text, message):
    path = split.parent / name
    path.write_text(text)
    assert_error(capsys, (split, "--classes", path), f"{path}:{message}")


@pytest.mark.parametrize("text", [
    "names: ['{}']\n".format("', '".join(dataset_tile_codes())),
    "nc: 42\nnames: [{},\n  {}]  # split over two lines\n".format(", ".join(dataset_tile_codes()[:20]),
                                                                   ", ".join(dataset_tile_codes()[20:])),
    "names:\n" + "".join(f"  - {code}\n" for code in dataset_tile_codes()) + "nc: 42\n",
    "names:\n" + "".join(f"  {i}: '{code}'\n" for i, code in enumerate(dataset_tile_codes())),
    "names: [{}, ]\n".format(", ".join(CODES)),  # a trailing comma
    # a block list at the key's indent, as yaml.safe_dump writes it
    "path: ../datasets\nnames:\n" + "".join(f"- {code}\n" for code in CODES) + "nc: 42\n",
    "names:\n\n" + "".join(f"- '{code}'  # class {i}\n" for i, code in enumerate(CODES)),
    # a flow mapping from class index to name, quoted or not, on one line or more, in any key order
    "names: {{{}}}\n".format(", ".join(f"{i}: '{code}'" for i, code in enumerate(CODES))),
    "names: {{{}}}\nnc: 42\n".format(",\n  ".join(f"{i}: {code}" for i, code in enumerate(CODES))),
    "names: {{{}}}\n".format(", ".join(f'{i}: "{code}"' for i, code in reversed(list(enumerate(CODES))))),
])
def test_yolo_data_yaml_forms_are_read(tmp_path, text):
    (tmp_path / "data.yaml").write_text(text)
    assert class_list(tmp_path / "valid", None)[1] == CODES


def write_class_list(path: Path, codes: list[str]) -> None:
    """``codes`` as a class list of the kind ``path``'s name says."""
    if path.name == "classes.tsv":
        path.write_text("index\ttile_code\n" + "".join(f"{i}\t{code}\n" for i, code in enumerate(codes)))
    elif path.name == "data.yaml":
        path.write_text("names:\n" + "".join(f"- {code}\n" for code in codes))
    else:
        path.write_text("".join(f"{code}\n" for code in codes))


@pytest.mark.parametrize("own", ["classes.tsv", "classes.txt", "data.yaml"])
@pytest.mark.parametrize("parents", [["classes.tsv"], ["classes.txt"], ["data.yaml"],
                                     ["classes.tsv", "classes.txt", "data.yaml"]])
def test_folders_own_class_list_beats_its_parents(tmp_path, own, parents):
    folder = tmp_path / "valid"
    folder.mkdir()
    for name in parents:
        write_class_list(tmp_path / name, CODES[::-1])
    write_class_list(folder / own, CODES)
    assert class_list(folder, None) == (folder / own, CODES)


def test_class_list_names_are_taken_in_order_in_folder_then_in_parent(tmp_path):
    folder = tmp_path / "valid"
    folder.mkdir()
    order = [folder / name for name in CLASS_FILES] + [tmp_path / name for name in CLASS_FILES]
    for path in order:
        write_class_list(path, CODES)
    for path in order:
        assert class_list(folder, None) == (path, CODES)
        path.unlink()


def test_parent_of_current_folder_is_searched(tmp_path, monkeypatch):
    folder = tmp_path / "valid"
    folder.mkdir()
    write_class_list(tmp_path / "data.yaml", CODES)
    monkeypatch.chdir(folder)
    path, names = class_list(Path("."), None)
    assert path.resolve() == tmp_path / "data.yaml" and names == CODES


def test_run_names_the_class_list_it_used(capsys, split):
    (split / "classes.tsv").rename(split.parent / "classes.tsv")
    write_class_list(split / "data.yaml", CODES)
    write_class_list(split.parent / "classes.txt", CODES[::-1])
    status, out, err = mjcam_eval(capsys, split, "--json")
    summary = json.loads(out)
    assert (status, err) == (0, "")
    assert summary["classes"] == str(split / "data.yaml") and summary["tile_accuracy"] > 0.9
    status, out, err = mjcam_eval(capsys, split, "--classes", split.parent / "classes.tsv")
    assert (status, err) == (0, "")
    assert f"class names from {split.parent / 'classes.tsv'}" in out.splitlines()


@pytest.mark.parametrize("line, message", [
    ("42 0.5 0.5 0.1 0.1", "class index '42' is not a whole number from 0 to 41 (the class list has 42 classes)"),
    ("-1 0.5 0.5 0.1 0.1", "class index '-1' is not a whole number from 0 to 41 (the class list has 42 classes)"),
    ("1.5 0.5 0.5 0.1 0.1", "class index '1.5' is not a whole number from 0 to 41 (the class list has 42 classes)"),
    ("3 0.5 0.5 0.1", "3 coordinates: expected 4 for a box (cx cy w h) or an even number, at least 6, for a polygon "
                      "(x y of each point)"),
    ("3 0.1 0.1 0.2 0.1 0.2 0.2 0.1", "7 coordinates: expected 4 for a box (cx cy w h) or an even number, at least 6, "
                                      "for a polygon (x y of each point)"),
    ("3 nan 0.5 0.1 0.1", "the coordinates 'nan 0.5 0.1 0.1' are not all finite numbers"),
    ("3 line 0.5 0.1 0.1", "the coordinates 'line 0.5 0.1 0.1' are not all finite numbers"),
    ("3 1.5 0.5 -0.1 0.1", "the box (cx cy w h) 1.5 0.5 -0.1 0.1 is empty or lies outside the image (coordinates "
                           "are shares of its width and height, 0 to 1)"),
    ("3 0.5 0.5 0 0", "the box (cx cy w h) 0.5 0.5 0 0 is empty or lies outside the image (coordinates are shares "
                      "of its width and height, 0 to 1)"),
    ("3 1.2 0.5 0.2 0.1", "the box (cx cy w h) 1.2 0.5 0.2 0.1 is empty or lies outside the image (coordinates are "
                          "shares of its width and height, 0 to 1)"),
])
def test_bad_label_line_is_one_line_naming_file_and_line(capsys, split, line, message):
    label = split / "labels" / (PHOTOS[1].stem + ".txt")
    lines = label.read_text().splitlines()
    label.write_text("\n".join([*lines, line]) + "\n")
    assert_error(capsys, (split,), f"{label}:{len(lines) + 1}: {message}")


def test_label_file_that_is_not_text_is_named(capsys, split):
    label = split / "labels" / (PHOTOS[0].stem + ".txt")
    label.write_bytes(b"\xff\xd8\xff\xe0")
    assert_error(capsys, (split,), f"{label}: not a UTF-8 text file")


@pytest.mark.parametrize("limit", ["-1", "0", "1.5"])
def test_limit_must_be_a_positive_whole_number(capsys, split, limit):
    status, out, err = mjcam_eval(capsys, split, "--limit", limit)
    assert status == 2 and out == ""
    assert f"argument --limit: expected a positive whole number, not '{limit}'" in err.splitlines()[-1]


@pytest.mark.parametrize("text, message", [
    (HEADER, " no label fixes below the header"),
    ("# only a comment\n", "1: expected the header line image, label, labelled, shown, note, tab-separated"),
    ("# a comment\nimage\tlabel\tshown\n", "2: expected the header line image, label, labelled, shown, note, "
                                          "tab-separated"),
    (HEADER + f"{PHOTOS[0].name}\t0\t1m\tonem\tnote\n", "2: the tiles labelled and shown must be tile codes or 'back' "
                                                       "('-' shown for a second box)"),
    (HEADER + f"{PHOTOS[0].name}\t0\t3p\t1p\tnote\n{PHOTOS[0].name}\t0\t3p\t-\tnote\n",
     "3: a second fix for label 0 of " + PHOTOS[0].name),
])
def test_bad_label_fixes_are_one_line_naming_file_and_line(capsys, split, text, message):
    fixes = split.parent / "fixes.tsv"
    fixes.write_text(text)
    assert_error(capsys, (split, "--label-fixes", fixes), f"{fixes}:{message}")


def test_unreadable_photo_is_reported_and_the_others_scored(capsys, split):
    broken = split / "images" / PHOTOS[1].name
    broken.unlink()
    broken.write_bytes(b"not a photo")
    status, out, err = mjcam_eval(capsys, split, "--json")
    assert status == 1
    assert err == f"mjcam eval: {broken}: not an image (JPEG, PNG, WebP, AVIF, BMP or TIFF expected)\n"
    summary = json.loads(out)
    assert summary["photos"] == 2 and summary["unreadable"] == 1 and summary["tile_accuracy"] > 0.9


def test_images_with_no_label_file_are_counted_as_left_out(capsys, split):
    (split / "labels" / (PHOTOS[2].stem + ".txt")).unlink()
    status, out, _ = mjcam_eval(capsys, split)
    assert status == 0 and out.startswith("2 photos, ") and "(1 image with no label file left out)" in out.splitlines()[0]
    status, out, _ = mjcam_eval(capsys, split, "--json")
    assert json.loads(out)["unlabelled"] == 1
    for photo in PHOTOS[1:2]:
        (split / "labels" / (photo.stem + ".txt")).unlink()
    assert mjcam_eval(capsys, split)[1].startswith("1 photo, ")  # one, not "1 photos"


def test_a_folder_with_no_labelled_image_is_an_error_not_a_score_of_zero(capsys, split):
    for label in (split / "labels").iterdir():
        label.unlink()
    assert_error(capsys, (split,), f"{split}: no labelled image to measure (3 with no label file in labels/)")
    for photo in (split / "images").iterdir():
        photo.unlink()
    assert_error(capsys, (split,), f"{split}: no labelled image to measure")


def test_no_readable_labelled_photo_is_an_error_not_a_score(capsys, split):
    for photo in PHOTOS:
        (split / "images" / photo.name).unlink()
        (split / "images" / photo.name).write_bytes(b"not a photo")
    status, out, err = mjcam_eval(capsys, split)
    assert (status, out) == (2, "")
    assert err.endswith(f"mjcam eval: {split}: no labelled image could be read (a score of nothing is no score)\n")
