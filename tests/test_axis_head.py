"""The classifier's axis head (`datasets.axis_head`): what the bundled file computes, and grafting it again."""
from __future__ import annotations

from datetime import date

import numpy as np
import onnx
import onnxruntime as ort

from datasets.axis_head import PREFIX, VERSION_MARK, graft, head_input
from datasets.up_head import VERSION_MARK as UP_HEAD_MARK
from vision.detector import CLASSIFIER_MODEL


def _run(proto: onnx.ModelProto, crops: np.ndarray, aspect: np.ndarray) -> dict[str, np.ndarray]:
    """Every output of the graph, and the head's input, by name."""
    proto.graph.output.append(onnx.helper.make_tensor_value_info(head_input(proto), onnx.TensorProto.FLOAT, None))
    session = ort.InferenceSession(proto.SerializeToString(), providers=["CPUExecutionProvider"])
    names = [o.name for o in session.get_outputs()]
    return dict(zip(names, session.run(names, {"crops": crops, "aspect": aspect})))


def test_a_head_grafted_again_replaces_the_one_before_and_leaves_the_classes_alone(tmp_path):
    rng = np.random.default_rng(0)
    weights = {"0.weight": rng.normal(size=(64, 257)).astype(np.float32), "0.bias": rng.normal(size=64).astype(np.float32),
               "2.weight": rng.normal(size=(2, 64)).astype(np.float32), "2.bias": rng.normal(size=2).astype(np.float32)}
    grafted = onnx.load(str(graft(CLASSIFIER_MODEL, weights, "a test head", tmp_path / "classifier.onnx")))
    assert [o.name for o in grafted.graph.output] == ["probs", "up", "axis"]
    assert sum(node.name.startswith(PREFIX) for node in grafted.graph.node) == 3
    assert [p.value for p in grafted.metadata_props if p.key == PREFIX] == ["a test head"]
    bundled_version = next(p.value for p in onnx.load(str(CLASSIFIER_MODEL)).metadata_props if p.key == "version")
    version = next(p.value for p in grafted.metadata_props if p.key == "version")
    # the head's mark and date replaced; the quarter-turn head's refit still said
    before = bundled_version.split(VERSION_MARK)[0]
    assert version == f"{before}{bundled_version.split(VERSION_MARK)[1][10:]}{VERSION_MARK}{date.today().isoformat()}"
    assert version.count(VERSION_MARK) == 1 and version.count(UP_HEAD_MARK) == 1

    crops, aspect = rng.random((5, 3, 64, 64), dtype=np.float32), rng.normal(size=(5, 1)).astype(np.float32) * 0.3
    new, bundled = _run(grafted, crops, aspect), _run(onnx.load(str(CLASSIFIER_MODEL)), crops, aspect)
    features = new[head_input(grafted)]
    expected = np.maximum(features @ weights["0.weight"].T + weights["0.bias"], 0) @ weights["2.weight"].T + weights["2.bias"]
    assert np.allclose(new["axis"], expected, rtol=1e-4, atol=1e-4)
    assert not np.allclose(new["axis"], bundled["axis"], atol=1e-2)
    assert np.allclose(new["probs"], bundled["probs"]) and np.allclose(new["up"], bundled["up"])


def test_real_green_dragons_turned_a_quarter_read_as_turned() -> None:
    """Their axis (what the sideways flag reads) turns with them. Learnt from synthetic faces alone, the head
    left the axis of 77 of the 178 real 發 of `valid` where it was (`benchmarks/eval_turned_tiles.py`),
    these two among them; the real row tiles it also learns from (`datasets/train_row_up.tsv`) hold 發."""
    import cv2

    from datasets.real import REAL_DATA, dataset_tile_codes
    from vision.detector import TileDetector
    from vision.metrics import read_yolo_labels, to_pixel_boxes

    name = "IMG_20231224_161220_jpg.rf.e6b3406f032b41498af86636d07efe1a"
    image = cv2.imread(str(REAL_DATA / "valid" / "images" / f"{name}.jpg"))
    height, width = image.shape[:2]
    labels, tiles = read_yolo_labels(REAL_DATA / "valid" / "labels" / f"{name}.txt", dataset_tile_codes())
    boxes = to_pixel_boxes(labels, width, height).astype(np.float32)[[t == "6z" for t in tiles]]
    assert len(boxes) == 2
    turned = np.stack([height - boxes[:, 3], boxes[:, 0], height - boxes[:, 1], boxes[:, 2]], 1)  # 90° clockwise
    detector = TileDetector()
    as_they_lie = detector.classify(image, boxes)[2]
    after = detector.classify(cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE), turned)[2]
    assert np.all(np.sum(as_they_lie * after, 1) < 0)  # axes more than 45° apart, as `sideways_flags` measures
