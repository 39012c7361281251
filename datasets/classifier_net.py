"""The tile classifier network (PyTorch, training only; it runs through ONNX Runtime in `vision/`).

A small plain CNN on a 64×64 RGB crop: 43 class logits (42 faces + back) and 4 orientation logits, which
way the face's top points in the crop (up, right, down, left), read from the crop and the box's aspect
ratio (log width/height: the square crop hides it, and it is what tells a back or a 4-fold symmetric
face such as 5p turned by 90°). The exported model turns the orientation
into a unit up vector (cos, sin of the angle, 0 = up, clockwise), from which the detector derives
`sideways`. Orientation is a classification, not a regression: quarter turns are what matter, and the
crop (stretched to a square) keeps them while it bends the angles between.
"""
from __future__ import annotations

import torch
from torch import nn

from vision.detections import CLASS_NAMES


def _block(c_in: int, c_out: int, stride: int) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, stride, 1, bias=False), nn.BatchNorm2d(c_out), nn.ReLU(inplace=True))


class TileClassifierNet(nn.Module):
    def __init__(self, width: int = 24) -> None:
        super().__init__()
        w = width
        self.features = nn.Sequential(
            _block(3, w, 2),  # 32×32
            _block(w, 2 * w, 2),  # 16×16
            _block(2 * w, 2 * w, 1),
            _block(2 * w, 4 * w, 2),  # 8×8
            _block(4 * w, 4 * w, 1),
            _block(4 * w, 8 * w, 2),  # 4×4
            _block(8 * w, 8 * w, 1),
        )
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.dropout = nn.Dropout(0.2)
        self.classes = nn.Linear(8 * w, len(CLASS_NAMES))
        self.turns = nn.Sequential(nn.Linear(8 * w + 1, 64), nn.ReLU(inplace=True), nn.Linear(64, 4))

    def forward(self, x: torch.Tensor, aspect: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        features = self.dropout(self.pool(self.features(x)).flatten(1))
        return self.classes(features), self.turns(torch.cat([features, aspect], dim=1))


class ExportedClassifier(nn.Module):
    """What the ONNX file computes: class probabilities and a unit up vector (orientation-weighted mean)."""

    def __init__(self, net: TileClassifierNet) -> None:
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor, aspect: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        logits, turns = self.net(x, aspect)
        q = torch.softmax(turns, dim=1)  # up, right, down, left: angles 0, 90, 180, 270
        up = torch.stack([q[:, 0] - q[:, 2], q[:, 1] - q[:, 3]], dim=1)
        return torch.softmax(logits, dim=1), nn.functional.normalize(up, dim=1, eps=1e-6)
