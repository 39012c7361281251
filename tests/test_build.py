"""The classifier's synthetic crop sets (`datasets.build`)."""
import numpy as np

from datasets.build import build_synthetic
from vision.detections import BACK, CLASS_NAMES


def test_synthetic_crops_take_every_back_and_some_faces_or_only_the_classes_asked_for(tmp_path):
    build_synthetic(None, tmp_path / "all.npz", 4, first_seed=20, faces_per_scene=5)
    crops = np.load(tmp_path / "all.npz")
    labels = [CLASS_NAMES[i] for i in crops["labels"]]
    assert crops["crops"].shape[1:] == (64, 64, 3) and len(crops["aspect"]) == len(labels)
    assert sum(t != BACK for t in labels) <= 4 * 5 and BACK in labels
    assert set(crops["group"]) <= {f"synth_{seed}" for seed in range(20, 24)}

    build_synthetic(None, tmp_path / "white.npz", 12, first_seed=20, only=frozenset({"5z"}))
    white = np.load(tmp_path / "white.npz")["labels"]
    assert len(white) > 0 and {CLASS_NAMES[i] for i in white} == {"5z"}


def test_stretched_strips_hold_whole_labelled_tiles_many_times_taller_or_wider(tmp_path):
    """`datasets.stretched_strips`: square pictures of a row (tiles come out tall) or a column (wide) of a
    training photo, each labelled tile inside the picture."""
    from datasets.real import dataset_tile_codes
    from datasets.stretched_strips import build_strips
    from vision.metrics import read_yolo_labels

    assert build_strips(tmp_path, 6, seed=1) == 6
    aspects = []
    for label in sorted((tmp_path / "labels").iterdir()):
        boxes, tiles = read_yolo_labels(label, dataset_tile_codes(tmp_path))
        assert len(tiles) >= 4 and (boxes[:, :2] - boxes[:, 2:] / 2 >= -1e-6).all()
        assert (boxes[:, :2] + boxes[:, 2:] / 2 <= 1 + 1e-6).all()
        aspects.append(float(np.median(boxes[:, 2] / boxes[:, 3])))
        assert (tmp_path / "images" / (label.stem + ".jpg")).exists()
    assert sum(a < 0.35 for a in aspects) == 3 and sum(a > 2.5 for a in aspects) == 3


def test_a_rebuild_stage_is_done_when_every_output_is_newer_than_every_input(tmp_path):
    import os

    from datasets.train import newer

    weights, export = tmp_path / "weights.pt", tmp_path / "model.onnx"
    for path, when in ((weights, 1_000), (export, 2_000)):
        path.write_bytes(b"")
        os.utime(path, (when, when))
    assert newer([export], [weights])
    os.utime(weights, (3_000, 3_000))  # trained on: the export is out of date
    assert not newer([export], [weights])
    assert not newer([export, tmp_path / "missing.onnx"], [tmp_path / "model.onnx"])


def test_an_export_stopped_before_its_heads_are_done_is_not_done(tmp_path):
    import os
    import shutil

    import onnx

    from datasets.axis_head import without_head
    from datasets.train import exported
    from datasets.up_head import PREFIX as UP_HEAD
    from vision.detector import CLASSIFIER_MODEL, DETECTOR_MODEL

    weights = tmp_path / "weights.pt"
    weights.write_bytes(b"")
    os.utime(weights, (1_000, 1_000))
    staged = [tmp_path / DETECTOR_MODEL.name, tmp_path / CLASSIFIER_MODEL.name]
    shutil.copyfile(DETECTOR_MODEL, staged[0])
    shutil.copyfile(CLASSIFIER_MODEL, staged[1])
    assert exported(staged, [weights])
    onnx.save(without_head(onnx.load(str(CLASSIFIER_MODEL))), str(staged[1]))  # exported, axis head not yet added
    assert not exported(staged, [weights])
    axis_only = onnx.load(str(CLASSIFIER_MODEL))  # the axis head added, the quarter-turn head not yet refitted
    kept = [p for p in axis_only.metadata_props if p.key != UP_HEAD]
    del axis_only.metadata_props[:]
    axis_only.metadata_props.extend(kept)
    onnx.save(axis_only, str(staged[1]))
    assert not exported(staged, [weights])
