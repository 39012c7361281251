"""Export the trained detector and classifier to ONNX: the bundled models in `models/`, or another folder.

    python -m datasets.export --detector WEIGHTS.pt --classifier CHECKPOINT.pt [--out DIR]

(`datasets.train` exports the last stages' weights to `build/export/`, adds the axis head there and only then
puts both files in `models/`.)
"""
from __future__ import annotations

import argparse
import json
import shutil
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from vision.crops import CROP_SIZE
from vision.detections import CLASS_NAMES
from vision.detector import CLASSIFIER_MODEL, DETECTOR_MODEL

if TYPE_CHECKING:
    import onnx


def export_detector(checkpoint: Path, out: Path = DETECTOR_MODEL, imgsz: int = 480) -> Path:
    """ONNX of the ultralytics detector (its metadata carries names, imgsz and stride)."""
    from ultralytics import YOLO

    exported = Path(YOLO(checkpoint).export(format="onnx", imgsz=imgsz, opset=17, simplify=False, dynamic=False))
    out.parent.mkdir(parents=True, exist_ok=True)
    shutil.move(exported, out)
    describe_detector(out)
    return out


def describe_detector(path: Path) -> None:
    """Name the detector's one class `tile` and describe it without build paths (the rest of ultralytics'
    metadata, imgsz and stride included, stays)."""
    import onnx

    proto = onnx.load(str(path))
    fixed = {"names": "{0: 'tile'}", "description": "mjcam tile detector: every mahjong tile, face up or down (one class)"}
    for prop in proto.metadata_props:
        prop.value = fixed.get(prop.key, prop.value)
    onnx.save(proto, str(path))


def export_classifier(checkpoint: Path, out: Path = CLASSIFIER_MODEL) -> Path:
    """ONNX of the classifier: inputs ``crops`` (N, 3, 64, 64) RGB in [0, 1] and ``aspect`` (N, 1) log box
    width/height; outputs ``probs`` (N, 43) and ``up`` (N, 2) (`datasets.axis_head` then adds ``axis``)."""
    import onnx
    import torch

    from datasets.classifier_net import ExportedClassifier, TileClassifierNet

    state = torch.load(checkpoint, weights_only=False)
    net = TileClassifierNet(width=state.get("width", 24))
    net.load_state_dict(state["net"])
    model = ExportedClassifier(net).eval()
    example = (torch.rand(2, 3, CROP_SIZE, CROP_SIZE), torch.zeros(2, 1))
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        model, example, str(out), input_names=["crops", "aspect"], output_names=["probs", "up"],
        dynamic_axes={"crops": {0: "n"}, "aspect": {0: "n"}, "probs": {0: "n"}, "up": {0: "n"}},
        opset_version=17, dynamo=False,
    )
    proto = halved(onnx.load(str(out)))
    metadata = {
        "names": json.dumps(list(CLASS_NAMES)),
        "crop_size": str(CROP_SIZE),
        "version": state.get("version", f"{date.today().isoformat()} epoch {state['epoch'] + 1}"),
        "description": "mjcam tile classifier: 42 faces + back, and the face's up direction",
        "license": "AGPL-3.0-or-later",
    }
    del proto.metadata_props[:]
    for key, value in metadata.items():
        proto.metadata_props.add(key=key, value=value)
    onnx.save(proto, str(out))
    return out


def halved(proto: onnx.ModelProto, smallest: int = 1024) -> onnx.ModelProto:
    """The model with its float32 weight tensors (of at least ``smallest`` values) stored as float16 and
    cast back to float32 when the session loads (ONNX Runtime folds the casts): half the file, the same
    float32 arithmetic, weights rounded to 11 significant bits."""
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper

    graph = proto.graph
    casts = []
    for weight in list(graph.initializer):
        values = numpy_helper.to_array(weight)
        if values.dtype != np.float32 or values.size < smallest:
            continue
        graph.initializer.remove(weight)
        graph.initializer.append(numpy_helper.from_array(values.astype(np.float16), f"{weight.name}_half"))
        casts.append(helper.make_node("Cast", [f"{weight.name}_half"], [weight.name], to=TensorProto.FLOAT))
    nodes = casts + list(graph.node)
    del graph.node[:]
    graph.node.extend(nodes)
    return proto


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--detector", type=Path, required=True, help="ultralytics weights (.pt)")
    parser.add_argument("--classifier", type=Path, required=True, help="classifier checkpoint (.pt)")
    parser.add_argument("--out", type=Path, default=DETECTOR_MODEL.parent, help="folder of the two ONNX files")
    parser.add_argument("--imgsz", type=int, default=480)
    args = parser.parse_args()
    print(export_detector(args.detector, args.out / DETECTOR_MODEL.name, imgsz=args.imgsz))
    print(export_classifier(args.classifier, args.out / CLASSIFIER_MODEL.name))


if __name__ == "__main__":
    main()
