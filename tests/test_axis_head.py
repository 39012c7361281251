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
