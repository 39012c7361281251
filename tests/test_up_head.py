"""The classifier's heads learnt on real faces (`datasets.up_head`, `datasets.axis_head`): the labels, the
targets, the real samples, and what rewriting the quarter-turn head changes in the file."""
from __future__ import annotations

from datetime import date

import numpy as np
import onnx
import onnxruntime as ort
import pytest

from datasets.axis_head import MOVED_COPIES, REAL_AXIS_COPIES, real_row_samples
from datasets.real import ROW_UP, LabelledPhoto, complete_hand_row, hand_row, load_split, read_row_up, row_up_angles
from datasets.up_head import PREFIX, VERSION_MARK, refitted, replace_turns, turns_weights
from vision.detector import CLASSIFIER_MODEL


def test_every_row_labelled_by_eye_is_a_row_of_eight_tiles_or_more_of_a_train_photo() -> None:
    row_up = read_row_up()
    assert len(row_up) == 168 and set(row_up.values()) == {0.0, 180.0}
    photos = {p.image.name: p for p in load_split("train")}
    rows = {name: hand_row(photos[name].boxes) for name in row_up}
    assert min(len(row) for row in rows.values()) >= 8
    assert sum(bool(complete_hand_row(photos[name].boxes, photos[name].tiles)) for name in row_up) == 101


def test_a_labels_file_with_a_direction_other_than_up_or_down_or_no_header_is_refused(tmp_path) -> None:
    bad = tmp_path / ROW_UP.name
    bad.write_text("# comment\nphoto\tfaces\na.jpg\tup\nb.jpg\tleft\n", encoding="utf-8")
    with pytest.raises(ValueError, match="b.jpg: faces must be up or down, not 'left'"):
        read_row_up(bad)
    bad.write_text("# comment\na.jpg\tup\n", encoding="utf-8")
    with pytest.raises(ValueError, match="must be the header photo<TAB>faces"):
        read_row_up(bad)


def _row(angle: float, count: int = 5) -> np.ndarray:
    """Boxes of a row of tiles 30 px apart running at ``angle`` degrees below the picture's left-to-right."""
    t = np.radians(angle)
    centres = np.array([[100 + 30 * k * np.cos(t), 200 + 30 * k * np.sin(t)] for k in range(count)])
    return np.concatenate([centres - [12, 16], centres + [12, 16]], 1)


@pytest.mark.parametrize(("slope", "turn", "expected"), [(0, 0, 0), (0, 180, 180), (30, 0, 30), (-20, 0, 340),
                                                          (30, 180, 210)])
def test_the_faces_of_a_row_point_square_to_it(slope: float, turn: float, expected: float) -> None:
    # a row falling to the right (slope 30°) has its faces' tops turned 30° clockwise, whatever its boxes' order
    angles = row_up_angles(_row(slope)[::-1], turn)
    assert np.allclose(angles, expected, atol=1e-6)


def test_real_row_tiles_are_learnt_as_they_lie_and_turned_a_quarter() -> None:
    name = "387513829_728647379318698_3224697710139884843_n_jpg.rf.d078a39a704ad150444e08fdd63de957.jpg"
    row_up = {name: read_row_up()[name]}
    assert row_up[name] == 180  # its faces point to the picture's bottom
    features, angles = real_row_samples(CLASSIFIER_MODEL, row_up, turns=(0, 1))
    photo = _train_photo(name)
    tiles = len(hand_row(photo.boxes)) * (1 + MOVED_COPIES)
    assert features.shape == (2 * tiles, 257) and angles.shape == (2 * tiles,)
    assert np.all(np.abs(angles[:tiles] - 180) < 45)
    # turned a quarter counter-clockwise, a face's top points 90° less far clockwise, and the bundled quarter-turn
    # head reads it so: the crops are turned the way their angles say (turned clockwise, most would be 180° off)
    assert np.allclose((angles[:tiles] - angles[tiles:]) % 360, 90)
    read = _up_angles(features)
    off = np.abs((read - angles + 180) % 360 - 180)
    assert (off[:tiles] < 45).mean() > 0.8 and (off[tiles:] < 45).mean() > 0.8  # 0.88 and 1.0


def test_a_row_that_is_no_whole_hand_is_learnt_too_with_the_axis_heads_own_copies() -> None:
    name = "421102866_1126848855422281_3271815004214082217_n_jpg.rf.324a5c4e4895094fe9ba9ab36e3c7339.jpg"
    row_up = {name: read_row_up()[name]}
    photo = _train_photo(name)
    assert row_up[name] == 180 and not complete_hand_row(photo.boxes, photo.tiles)
    features, angles = real_row_samples(CLASSIFIER_MODEL, row_up, copies=REAL_AXIS_COPIES)
    tiles = len(hand_row(photo.boxes))
    assert tiles == 11 and features.shape == (tiles * (1 + REAL_AXIS_COPIES), 257)
    # its faces point down (characters with their numeral below the 萬), and the bundled head reads them so
    off = np.abs((_up_angles(features) - angles + 180) % 360 - 180)
    assert np.all(np.abs(angles - 180) < 15) and (off < 45).mean() > 0.8


def _train_photo(name: str) -> LabelledPhoto:
    """The `train` photo of this file name."""
    return next(p for p in load_split("train") if p.image.name == name)


def _up_angles(features: np.ndarray) -> np.ndarray:
    """The up angles (degrees clockwise) the bundled quarter-turn head reads from head inputs, as the file does."""
    w = turns_weights(CLASSIFIER_MODEL)
    hidden = np.maximum(features @ w["net.turns.0.weight"].T + w["net.turns.0.bias"], 0)
    logits = hidden @ w["net.turns.2.weight"].T + w["net.turns.2.bias"]
    q = np.exp(logits - logits.max(1, keepdims=True))
    return np.degrees(np.arctan2(q[:, 1] - q[:, 3], q[:, 0] - q[:, 2])) % 360


def test_a_head_rewritten_changes_only_the_up_output_and_says_so(tmp_path) -> None:
    assert refitted(CLASSIFIER_MODEL)  # the bundled file's head was refitted
    weights = {name: value * 0.5 for name, value in turns_weights(CLASSIFIER_MODEL).items()}
    proto = onnx.load(str(CLASSIFIER_MODEL))
    kept = [p for p in proto.metadata_props if p.key not in (PREFIX, "version")]
    del proto.metadata_props[:]  # as freshly exported: no note
    proto.metadata_props.extend(kept)
    proto.metadata_props.add(key="version", value="v1")
    source = tmp_path / "exported.onnx"
    onnx.save(proto, str(source))
    assert not refitted(source)
    out = replace_turns(source, weights, "a test refit", tmp_path / "refitted.onnx")
    assert refitted(out)
    with pytest.raises(ValueError, match="refitted already"):
        replace_turns(out, weights, "a second refit", tmp_path / "again.onnx")
    meta = ort.InferenceSession(str(out), providers=["CPUExecutionProvider"]).get_modelmeta().custom_metadata_map
    assert (meta[PREFIX], meta["version"]) == ("a test refit", f"v1{VERSION_MARK}{date.today().isoformat()}")
    for name, value in turns_weights(out).items():
        assert np.allclose(value, weights[name], atol=1e-3 * np.abs(weights[name]).max())

    rng = np.random.default_rng(0)
    crops, aspect = rng.random((8, 3, 64, 64), dtype=np.float32), np.zeros((8, 1), np.float32)
    runs = [ort.InferenceSession(str(path), providers=["CPUExecutionProvider"]).run(["probs", "up", "axis"],
                                                                                  {"crops": crops, "aspect": aspect})
            for path in (CLASSIFIER_MODEL, out)]
    assert np.array_equal(runs[0][0], runs[1][0]) and np.array_equal(runs[0][2], runs[1][2])
    assert not np.allclose(runs[0][1], runs[1][1], atol=1e-3)
