"""The classifier's quarter-turn head refitted on real faces whose direction was seen by eye.

    python -m datasets.up_head [--model models/tile_classifier.onnx] [--scenes 800] [--epochs 5]

The quarter-turn head (``up``: which way a face's top points) was trained on synthetic crops only, as the
real training photos carry no direction (their copies are flipped and turned at random); on the real `valid`
hands in a row it read 72 % of faces the right way up. `train_row_up.tsv` gives, for 168 `train` photos, which
way the faces of their largest row point (seen by eye): each of the row's tiles points square to the row, to the
picture's top or bottom. This refits the head alone (the pooled features and box aspect → 64 → 4 quarter-turn
logits), from the exported weights, on those real tiles (each label box and two moved copies) and on the
face-up tiles the detector finds in synthetic scenes (the axis head's seeds, from 17,500), with the soft
quarter-turn targets the classifier was trained with (`datasets.train_classifier.turn_targets`). The classes,
the features and the axis head are untouched. It rewrites the model in place, once: a classifier whose head
was refitted already is refused (`make model` runs it on each fresh export, after the axis head).
"""
from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from datasets.axis_head import FIRST_SEED, head_parser, pooled_scene_samples, real_row_samples, saved_with_note
from datasets.real import ROW_UP, read_row_up

PREFIX = "up_head"
"""The metadata key saying the head was refitted (and on what)."""
VERSION_MARK = " + up head "
"""Appended to the classifier's ``version``, with the date the head was refitted."""
TURNS = ("net.turns.0.weight", "net.turns.0.bias", "net.turns.2.weight", "net.turns.2.bias")
"""The quarter-turn head's weights, by their names in the exported graph."""
REFITTED = "{}: its quarter-turn head was refitted already; run on a freshly exported classifier"
"""Why a classifier is refused (`replace_turns`, the command): its head must be refitted from the export's."""


def turns_weights(model: Path) -> dict[str, np.ndarray]:
    """The quarter-turn head's weights in ``model``, as float32."""
    import onnx
    from onnx import numpy_helper

    arrays = {t.name.removesuffix("_half"): numpy_helper.to_array(t).astype(np.float32)
              for t in onnx.load(str(model)).graph.initializer}
    return {name: arrays[name] for name in TURNS}


def fit_turns(init: dict[str, np.ndarray], features: np.ndarray, angles: np.ndarray, epochs: int = 5
              ) -> dict[str, np.ndarray]:
    """The quarter-turn head trained on from ``init`` on the samples (soft quarter-turn targets, torch seed 0)."""
    import torch

    from datasets.train_classifier import turn_targets

    torch.manual_seed(0)
    head = torch.nn.Sequential(torch.nn.Linear(features.shape[1], 64), torch.nn.ReLU(), torch.nn.Linear(64, 4))
    head.load_state_dict({name.removeprefix("net.turns."): torch.from_numpy(init[name].copy()) for name in TURNS})
    optimizer = torch.optim.AdamW(head.parameters(), lr=1e-3, weight_decay=1e-4)
    x = torch.from_numpy(features)
    targets = turn_targets(torch.from_numpy(angles.astype(np.float32)), torch.zeros(len(angles), dtype=torch.bool))
    order = torch.Generator().manual_seed(0)
    for _ in range(epochs):
        for rows in torch.randperm(len(x), generator=order).split(256):
            loss = -(targets[rows] * torch.log_softmax(head(x[rows]), 1)).sum(1).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    return {f"net.turns.{name}": value.detach().numpy() for name, value in head.state_dict().items()}


def refitted(model: Path) -> bool:
    """Whether ``model``'s quarter-turn head was refitted already (its metadata says so)."""
    import onnx

    return any(p.key == PREFIX for p in onnx.load(str(model), load_external_data=False).metadata_props)


def replace_turns(model: Path, weights: dict[str, np.ndarray], note: str, out: Path) -> Path:
    """Write ``model`` with the quarter-turn head's weights replaced (each stored as before: float16 where it was);
    ValueError for a model whose head was refitted already (`refitted`)."""
    import onnx
    from onnx import numpy_helper

    if refitted(model):
        raise ValueError(REFITTED.format(model))
    proto = onnx.load(str(model))
    for tensor in proto.graph.initializer:
        name = tensor.name.removesuffix("_half")
        if name in weights:
            kind = np.float16 if tensor.name.endswith("_half") else np.float32
            tensor.CopyFrom(numpy_helper.from_array(weights[name].astype(kind), tensor.name))
    return saved_with_note(proto, PREFIX, note, VERSION_MARK, out)


def main() -> None:
    parser = head_parser(__doc__, scenes=800, epochs=5)
    args = parser.parse_args()
    if refitted(args.model):
        parser.error(REFITTED.format(args.model))
    began = time.time()
    row_up = read_row_up()
    real_features, real_angles = real_row_samples(args.model, row_up)
    seeds = range(FIRST_SEED, FIRST_SEED + args.scenes)
    scene_features, scene_angles = pooled_scene_samples(seeds, args.model, args.detector, args.workers)
    print(f"{len(real_features)} real tiles of {len(row_up)} rows, {len(scene_features)} face-up tiles of "
          f"{args.scenes} scenes ({time.time() - began:.0f} s)", flush=True)
    weights = fit_turns(turns_weights(args.model), np.concatenate([scene_features, real_features]),
                        np.concatenate([scene_angles, real_angles]), args.epochs)
    note = (f"quarter-turn head refitted, {args.epochs} epochs, on {len(real_features)} tiles of {len(row_up)} train "
            f"rows ({ROW_UP.name}) and {len(scene_features)} of synthetic scenes {seeds.start}–{seeds.stop - 1}")
    print(replace_turns(args.model, weights, note, args.model), f"({time.time() - began:.0f} s)")


if __name__ == "__main__":
    main()
