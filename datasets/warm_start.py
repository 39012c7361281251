"""Warm start for the tile detector from the MIT-licensed `mahjong-detector` package's YOLO11n.

`mahjong-detector` (PyPI, MIT) ships `model.onnx`: an ultralytics YOLO11n trained on riichi tiles, exported
with the PyTorch parameter names and batch-norm folded into each convolution. All 175 tensors map by name
onto an ultralytics YOLO11n. The folded batch-norm is re-expanded with real statistics so training can
move it again: each BN's running mean/var are set to the statistics of its convolution's output measured
on a few dozen training images, with weight = sqrt(var + eps) and bias = folded bias + mean, which leaves the
network's output unchanged. The class rows of the head become the detector's classes (their mean for a
single "tile" class).

    python -m datasets.warm_start --out build/warm_start.pt --images build/detector/images/train
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING, Callable

import cv2
import numpy as np

if TYPE_CHECKING:
    import torch

MAHJONG_DETECTOR = "mahjong-detector==0.0.6"


def fetch_mahjong_detector_onnx(dest: Path) -> Path:
    """Download the `mahjong-detector` wheel from PyPI (no install) and extract its model.onnx."""
    target = dest / "mahjong_detector.onnx"
    if target.exists():
        return target
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "-q", "--no-deps", MAHJONG_DETECTOR, "-d", tmp], check=True
        )
        wheel = next(Path(tmp).glob("mahjong_detector-*.whl"))
        with zipfile.ZipFile(wheel) as zf:
            target.write_bytes(zf.read("mahjong_detector/model.onnx"))
    return target


def _onnx_weights(onnx_path: Path) -> dict[str, np.ndarray]:
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(onnx_path)).graph
    return {t.name: numpy_helper.to_array(t) for t in graph.initializer if t.name.startswith("model.")}


def _calibration_batch(images: list[Path], size: int) -> "torch.Tensor":
    import torch

    batch = []
    for path in images:
        img = cv2.imread(str(path))[:, :, ::-1]
        h, w = img.shape[:2]
        scale = size / max(h, w)
        img = cv2.resize(img, (round(w * scale), round(h * scale)))
        canvas = np.full((size, size, 3), 114, np.uint8)
        canvas[: img.shape[0], : img.shape[1]] = img
        batch.append(canvas.transpose(2, 0, 1))
    return torch.from_numpy(np.stack(batch)).float() / 255


def build_warm_start(onnx_path: Path, calibration: list[Path], names: list[str], out: Path, size: int = 480) -> Path:
    """Write an ultralytics checkpoint of a YOLO11n with `len(names)` classes warm-started from the ONNX."""
    import torch
    from ultralytics.nn.modules import Conv
    from ultralytics.nn.tasks import DetectionModel

    weights = _onnx_weights(onnx_path)
    model = DetectionModel("yolo11n.yaml", nc=len(names), verbose=False)
    state = model.state_dict()
    folded_bias: dict[str, torch.Tensor] = {}
    for name, array in weights.items():
        tensor = torch.from_numpy(array.copy())
        if name.endswith(".conv.bias"):  # the folded BN's bias: becomes the BN bias below
            folded_bias[name[: -len(".conv.bias")]] = tensor
        elif state[name].shape == tensor.shape:
            state[name] = tensor
        elif name.startswith("model.23.cv3.") and name.endswith((".2.weight", ".2.bias")):
            state[name] = tensor.mean(0, keepdim=True).expand_as(state[name]).clone()  # class rows → mean
        else:
            raise ValueError(f"unexpected shape for {name}: {tuple(tensor.shape)} vs {tuple(state[name].shape)}")
    model.load_state_dict(state)

    convs = {name: module for name, module in model.named_modules() if isinstance(module, Conv)}
    model.eval()
    reexpand_batch_norms({name: (m.conv, m.bn, folded_bias[name]) for name, m in convs.items()},
                         lambda: model(_calibration_batch(calibration, size)))

    model.names = dict(enumerate(names))
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"model": model, "train_args": {"imgsz": size}, "epoch": -1, "date": None}, out)
    return out


def reexpand_batch_norms(layers: dict[str, tuple["torch.nn.Module", "torch.nn.BatchNorm2d", "torch.Tensor"]],
                         forward: Callable[[], object]) -> None:
    """Give each (convolution, batch-norm, folded bias) a batch-norm that computes what the folded network
    did: identity plus the folded bias while ``forward`` runs calibration data through the network (in eval
    mode) and each convolution's output statistics are measured, then running mean/var set to them,
    weight = sqrt(var + eps) and bias = folded bias + mean."""
    import torch

    stats: dict[str, tuple[torch.Tensor, torch.Tensor]] = {}
    hooks = []
    for name, (conv, bn, bias) in layers.items():
        bn.reset_running_stats()
        bn.running_var.fill_(1 - bn.eps)
        bn.weight.data.fill_(1.0)
        bn.bias.data.copy_(bias)

        def record(mod, inputs, output, name=name):
            stats[name] = (output.mean((0, 2, 3)), output.var((0, 2, 3)))

        hooks.append(conv.register_forward_hook(record))
    with torch.no_grad():
        forward()
    for hook in hooks:
        hook.remove()
    for name, (_, bn, bias) in layers.items():
        mean, var = stats[name]
        bn.running_mean.copy_(mean)
        bn.running_var.copy_(var)
        bn.weight.data.copy_(torch.sqrt(var + bn.eps))
        bn.bias.data.copy_(bias + mean)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("build/warm_start.pt"))
    parser.add_argument("--images", type=Path, required=True, help="training images for BN statistics")
    parser.add_argument("--names", default="tile", help="comma-separated class names")
    parser.add_argument("--count", type=int, default=48)
    parser.add_argument("--size", type=int, default=480)
    args = parser.parse_args()
    images = sorted(args.images.glob("*.jpg"))
    step = max(1, len(images) // args.count)
    onnx_path = fetch_mahjong_detector_onnx(args.out.parent)
    build_warm_start(onnx_path, images[::step][: args.count], args.names.split(","), args.out, args.size)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
