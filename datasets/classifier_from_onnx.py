"""A training checkpoint of the classifier taken back from its ONNX file, to train the bundled weights further.

The exported classifier has batch-norm folded into each convolution and its larger weights stored as
float16 (`datasets.export.halved`). Each convolution's weights and folded bias are read back in the graph's
order onto `TileClassifierNet`'s seven blocks, the linear heads by name, and the batch-norms re-expanded
with the statistics of a few thousand training crops (`datasets.warm_start.reexpand_batch_norms`), so the
checkpoint computes what the file does (checked on the calibration crops: it raises otherwise) and trains
like one saved by `datasets.train_classifier` (`--init`). The axis head, added after export
(`datasets.axis_head`), is not part of the network.

    python -m datasets.classifier_from_onnx [--onnx models/tile_classifier.onnx] [--crops build/classifier/real_train.npz]
        [--out build/runs/classifier_onnx/last.pt]
"""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from datasets.build import BUILD
from vision.detector import CLASSIFIER_MODEL

if TYPE_CHECKING:
    from datasets.classifier_net import TileClassifierNet

CALIBRATION_CROPS = 4096


def onnx_classifier_weights(path: Path) -> tuple[list[tuple[np.ndarray, np.ndarray]], dict[str, np.ndarray]]:
    """The (weight, folded bias) of each convolution in graph order, and the other named weights (``net.``
    prefix dropped), all as float32."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    arrays = {t.name.removesuffix("_half"): numpy_helper.to_array(t).astype(np.float32) for t in graph.initializer}
    convs = [(arrays[node.input[1]], arrays[node.input[2]]) for node in graph.node if node.op_type == "Conv"]
    named = {name.removeprefix("net."): value for name, value in arrays.items() if name.startswith("net.")}
    return convs, named


def classifier_from_onnx(path: Path, calibration: np.ndarray) -> dict:
    """A checkpoint (as `datasets.train_classifier` saves) of the ONNX classifier at ``path``;
    ``calibration``: uint8 BGR crops (N, 64, 64, 3) for the batch-norm statistics."""
    import torch

    from datasets.classifier_net import TileClassifierNet
    from datasets.train_classifier import to_tensor
    from datasets.warm_start import reexpand_batch_norms

    convs, named = onnx_classifier_weights(path)
    width = convs[0][0].shape[0]
    net = TileClassifierNet(width=width)
    blocks = list(net.features)
    if len(convs) != len(blocks):
        raise ValueError(f"{path}: {len(convs)} convolutions, the network has {len(blocks)}")
    layers = {}
    for k, (block, (weight, bias)) in enumerate(zip(blocks, convs)):
        block[0].weight.data.copy_(torch.from_numpy(weight))
        layers[str(k)] = (block[0], block[1], torch.from_numpy(bias))
    for name, value in named.items():
        net.get_parameter(name).data.copy_(torch.from_numpy(value))
    net.eval()
    reexpand_batch_norms(layers, lambda: net.features(to_tensor(calibration)))
    _check(net, path, calibration[:256])
    return {"net": net.state_dict(), "width": width, "epoch": -1, "best": 0.0}


def _check(net: "TileClassifierNet", path: Path, crops: np.ndarray) -> None:
    """Raise unless the network gives the ONNX file's class probabilities on ``crops`` (to 1e-4)."""
    import onnxruntime as ort
    import torch

    from datasets.classifier_net import ExportedClassifier
    from datasets.train_classifier import to_tensor

    x = to_tensor(crops)
    aspect = torch.zeros(len(crops), 1)
    with torch.no_grad():
        probs, _ = ExportedClassifier(net).eval()(x, aspect)
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    (expected,) = session.run(["probs"], {"crops": x.numpy(), "aspect": aspect.numpy()})
    error = float(np.abs(probs.numpy() - expected).max())
    if error > 1e-4:
        raise ValueError(f"{path}: the checkpoint's probabilities differ from the file's by up to {error:.2g}")


def main() -> None:
    import torch

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--onnx", type=Path, default=CLASSIFIER_MODEL)
    parser.add_argument("--crops", type=Path, default=BUILD / "classifier" / "real_train.npz",
                        help="training crops for the batch-norm statistics")
    parser.add_argument("--out", type=Path, default=BUILD / "runs" / "classifier_onnx" / "last.pt")
    args = parser.parse_args()
    crops = np.load(args.crops)["crops"]
    chosen = np.random.default_rng(0).permutation(len(crops))[:CALIBRATION_CROPS]
    state = classifier_from_onnx(args.onnx, crops[np.sort(chosen)])
    args.out.parent.mkdir(parents=True, exist_ok=True)
    torch.save(state, args.out)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
