"""The classifier's axis head: the axis a face lies along (modulo 180°), grafted onto the exported classifier.

    python -m datasets.axis_head [--model models/tile_classifier.onnx] [--scenes 2000] [--workers 2]

The classifier's quarter-turn head says which way a face points (its ``up`` output); where a face looks alike
turned by half a turn (9p, 4p, 8p, a blank white dragon) its quarter-turn probabilities split between
opposite quarters and ``up`` loses the axis, and between quarters (a hand photographed turned by about 45°)
it is coarse. The sideways flag needs only the axis. This head reads it from the same features the
quarter-turn head reads (the pooled crop features and the box's aspect): a 257 → 64 → 2 network trained to
give the doubled-angle vector (cos 2θ, sin 2θ) of each face's up angle θ (0 = up, clockwise), shorter where
it is unsure. Trained on the bundled detector's boxes in synthetic scenes (seeds 17,500 onwards, half hands
alone, half with other tiles behind: never used by the detector, the classifier or any evaluation) and, since
2026-12-06, on the real tiles of the rows of `datasets/train_row_up.tsv` (which way each row's faces point,
seen by eye; each label box and REAL_AXIS_COPIES moved copies), each crop as it lies and turned by each quarter
turn (the synthetic faces alone left real Green dragons' axes wrong), then added to the ONNX file as the output
``axis``; run again, it replaces the head it added before.
"""
from __future__ import annotations

import argparse
import re
import time
from datetime import date
from multiprocessing import Pool
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from vision.crops import box_aspects, crops_batch
from vision.detections import BACK
from vision.detector import CLASSIFIER_MODEL, DETECTOR_MODEL, TileDetector, view_to_image
from vision.metrics import box_iou, match_pairs, to_pixel_boxes

if TYPE_CHECKING:
    import onnx
    import onnxruntime as ort

FIRST_SEED = 17_500
HEAD_INPUTS = 257
"""What the heads read per tile: the classifier's 256 pooled features and the box's aspect."""
MOVED_COPIES = 2
"""Moved copies of each real row tile's label box, beside the box itself (`real_row_samples`)."""
REAL_TURNS = (0, 1, 2, 3)
"""The quarter turns each real row tile's crop is learnt at: its axis as it lies and turned."""
REAL_AXIS_COPIES = 1
"""Moved copies of each real row tile's label box the axis head learns from (the quarter-turn head takes
MOVED_COPIES): with the 168 rows and two copies (26,772 crops against the scenes' 34,621), the synthetic development
flags fell (400 `hand_only` scenes from seed 9,011,000: wrong 108 → 122 of 7,193); with one, 112."""
KINDS = ("hand_only", "hand")
HIDDEN = 64
PREFIX = "axis_head"
"""Names of everything the head adds to the graph start with this."""
VERSION_MARK = " + axis head "
"""Appended to the classifier's ``version``, with the date the head was added."""

_worker: dict = {}


def without_head(proto: onnx.ModelProto) -> onnx.ModelProto:
    """The classifier graph with a head added before (its nodes, weights, output and metadata) taken out."""
    graph = proto.graph
    for items in (graph.node, graph.initializer, graph.output):
        keep = [item for item in items if not item.name.startswith(PREFIX) and item.name != "axis"]
        del items[:]
        items.extend(keep)
    keep_meta = [p for p in proto.metadata_props if not p.key.startswith(PREFIX)]
    del proto.metadata_props[:]
    proto.metadata_props.extend(keep_meta)
    for prop in proto.metadata_props:
        if prop.key == "version":
            prop.value = re.sub(f"{re.escape(VERSION_MARK)}\\d{{4}}-\\d{{2}}-\\d{{2}}", "", prop.value)
    return proto


def head_input(proto: onnx.ModelProto) -> str:
    """The tensor the quarter-turn head reads: the pooled features with the box's aspect appended."""
    for node in proto.graph.node:
        if node.op_type == "Gemm" and node.input[1] == "net.turns.0.weight":
            return node.input[0]
    raise ValueError("no quarter-turn head (net.turns.0) in the classifier graph")


def feature_session(model: Path) -> ort.InferenceSession:
    """A one-thread session of the classifier ``model`` (any head it was given taken out) whose last output is
    what its heads read (`head_input`)."""
    import onnx
    import onnxruntime as ort

    proto = without_head(onnx.load(str(model)))
    proto.graph.output.append(onnx.helper.make_tensor_value_info(head_input(proto), onnx.TensorProto.FLOAT, None))
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    return ort.InferenceSession(proto.SerializeToString(), options, providers=["CPUExecutionProvider"])


def head_features(session: ort.InferenceSession, crops: np.ndarray, aspect: np.ndarray) -> np.ndarray:
    """What the heads read for classifier inputs ``crops`` and ``aspect`` (`crops_batch`, `box_aspects`), from a
    `feature_session`."""
    if len(crops) == 0:
        return np.zeros((0, HEAD_INPUTS), np.float32)
    output = session.get_outputs()[-1].name
    return session.run([output], {"crops": np.ascontiguousarray(crops), "aspect": aspect})[0].astype(np.float32)


def real_row_samples(model: Path, row_up: dict[str, float], turns: tuple[int, ...] = (0,),
                     copies: int = MOVED_COPIES) -> tuple[np.ndarray, np.ndarray]:
    """Head inputs and up angles of the row tiles of the `train` photos in ``row_up`` (`datasets.real.read_row_up`):
    each label box and ``copies`` moved copies (seed 0), each crop as it lies and turned by each quarter turn
    of ``turns`` (counter-clockwise; the up angle and the box's aspect follow, as in the classifier's training)."""
    import cv2

    from datasets.build import jitter_box
    from datasets.real import ROW_UP, hand_row, load_split, row_up_angles

    session, rng = feature_session(model), np.random.default_rng(0)
    photos = load_split("train")
    missing = set(row_up) - {photo.image.name for photo in photos}
    if missing:
        raise ValueError(f"{ROW_UP.name}: {len(missing)} photos not in train, e.g. {sorted(missing)[0]}")
    features, angles = [], []
    for photo in photos:
        if photo.image.name not in row_up:
            continue
        image = cv2.imread(str(photo.image))
        boxes = to_pixel_boxes(photo.boxes, image.shape[1], image.shape[0])[hand_row(photo.boxes)]
        moved = [np.array([jitter_box(box, rng) for box in boxes]) for _ in range(copies)]
        everything = np.concatenate([boxes, *moved]).astype(np.float32)
        crops, aspect = crops_batch(image, everything), box_aspects(everything)
        up = np.tile(row_up_angles(boxes, row_up[photo.image.name]), 1 + copies)
        for k in turns:
            features.append(head_features(session, np.rot90(crops, k, axes=(2, 3)), -aspect if k % 2 else aspect))
            angles.append((up - 90.0 * k) % 360)
    return np.concatenate(features), np.concatenate(angles)


def doubled(up_angles: np.ndarray) -> np.ndarray:
    """The doubled-angle vectors (cos 2θ, sin 2θ) of up angles θ in degrees: the axes the head is fitted to."""
    twice = np.radians(up_angles) * 2
    return np.stack([np.cos(twice), np.sin(twice)], 1).astype(np.float32)


def _start_worker(model: Path, detector: Path) -> None:
    _worker["features"] = feature_session(model)
    _worker["detector"] = TileDetector(detector, model, threads=1)


def scene_samples(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Head inputs and up angles (degrees) of the face-up tiles the detector finds in one scene (only its
    boxes: the classifier being trained on may not have a head yet), for a pool started by `_start_worker`."""
    from datasets.synth import generate_scene

    scene = generate_scene(seed, kind=KINDS[seed % len(KINDS)])
    view, scale, offset, boxes, _ = _worker["detector"].find_tiles_zoomed(scene.image)
    in_image = view_to_image(boxes, scale, offset)
    truth = np.array([t.box for t in scene.tiles], np.float32).reshape(-1, 4)
    pairs = [(t, f) for t, f in match_pairs(box_iou(truth, in_image), 0.5) if scene.tiles[t].tile != BACK]
    found = boxes[[f for _, f in pairs]]  # cut from the view the classifier sees, as `TileDetector.detect` does
    up = np.array([scene.tiles[t].up_angle for t, _ in pairs], np.float64)
    return head_features(_worker["features"], crops_batch(view, found), box_aspects(found)), up


def pooled_scene_samples(seeds: range, model: Path, detector: Path, workers: int) -> tuple[np.ndarray, np.ndarray]:
    """`scene_samples` of every seed, computed by ``workers`` processes, concatenated."""
    with Pool(workers, _start_worker, (model, detector)) as pool:
        samples = pool.map(scene_samples, seeds, chunksize=20)
    return np.concatenate([f for f, _ in samples]), np.concatenate([u for _, u in samples])


def train_head(features: np.ndarray, targets: np.ndarray, epochs: int = 30) -> dict[str, np.ndarray]:
    """A 257 → HIDDEN → 2 network fitted to the doubled-angle targets (squared error, torch seed 0): its weights."""
    import torch

    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(features.shape[1], HIDDEN), torch.nn.ReLU(), torch.nn.Linear(HIDDEN, 2))
    batches = (len(features) + 255) // 256
    optimizer = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimizer, 3e-3, total_steps=epochs * batches)
    x, y = torch.from_numpy(features), torch.from_numpy(targets)
    order = torch.Generator().manual_seed(0)
    for _ in range(epochs):
        for rows in torch.randperm(len(x), generator=order).split(256):
            loss = ((net(x[rows]) - y[rows]) ** 2).sum(1).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            schedule.step()
    return {name: value.detach().numpy().astype(np.float32) for name, value in net.state_dict().items()}


def graft(model: Path, weights: dict[str, np.ndarray], note: str, out: Path) -> Path:
    """Write ``model`` with the head added: output ``axis`` (N, 2), computed from the quarter-turn head's input."""
    import onnx
    from onnx import helper, numpy_helper

    proto = without_head(onnx.load(str(model)))
    graph = proto.graph
    source = head_input(proto)
    for name, value in weights.items():
        graph.initializer.append(numpy_helper.from_array(value, f"{PREFIX}.{name}"))
    graph.node.extend([
        helper.make_node("Gemm", [source, f"{PREFIX}.0.weight", f"{PREFIX}.0.bias"], [f"{PREFIX}/hidden"], transB=1,
                         name=f"{PREFIX}/gemm_0"),
        helper.make_node("Relu", [f"{PREFIX}/hidden"], [f"{PREFIX}/relu"], name=f"{PREFIX}/relu"),
        helper.make_node("Gemm", [f"{PREFIX}/relu", f"{PREFIX}.2.weight", f"{PREFIX}.2.bias"], ["axis"], transB=1,
                         name=f"{PREFIX}/gemm_2"),
    ])
    graph.output.append(helper.make_tensor_value_info("axis", onnx.TensorProto.FLOAT, ["n", 2]))
    return saved_with_note(proto, PREFIX, note, VERSION_MARK, out)


def saved_with_note(proto: onnx.ModelProto, key: str, note: str, mark: str, out: Path) -> Path:
    """Save the classifier ``proto`` to ``out`` with ``note`` in its metadata under ``key`` and ``mark`` and
    today's date appended to its ``version``, once checked."""
    import onnx

    proto.metadata_props.add(key=key, value=note)
    for prop in proto.metadata_props:
        if prop.key == "version":
            prop.value += f"{mark}{date.today().isoformat()}"
    onnx.checker.check_model(proto)
    onnx.save(proto, str(out))
    return out


def head_parser(doc: str, scenes: int, epochs: int) -> argparse.ArgumentParser:
    """The command line of a stage that fits a head of the classifier ``--model`` on the tiles the ``--detector``
    finds in synthetic scenes (this one's and `datasets.up_head`'s), with these defaults."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--model", type=Path, default=CLASSIFIER_MODEL, help="the exported classifier (rewritten)")
    parser.add_argument("--detector", type=Path, default=DETECTOR_MODEL, help="the detector whose boxes it reads")
    parser.add_argument("--scenes", type=int, default=scenes)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=epochs)
    return parser


def main() -> None:
    parser = head_parser(__doc__, scenes=2000, epochs=30)
    parser.add_argument("--no-real", action="store_true", help="synthetic scenes only (as before 2026-12-06)")
    args = parser.parse_args()
    began = time.time()
    seeds = range(FIRST_SEED, FIRST_SEED + args.scenes)
    features, up = pooled_scene_samples(seeds, args.model, args.detector, args.workers)
    print(f"{len(features)} face-up tiles found in {args.scenes} scenes ({time.time() - began:.0f} s)", flush=True)
    note = (f"face axis as (cos 2θ, sin 2θ) of the up angle; trained on {len(features)} tiles of synthetic scenes "
            f"{seeds.start}–{seeds.stop - 1}")
    if not args.no_real:
        from datasets.real import ROW_UP, read_row_up

        row_up = read_row_up()
        real_features, real_up = real_row_samples(args.model, row_up, turns=REAL_TURNS, copies=REAL_AXIS_COPIES)
        features, up = np.concatenate([features, real_features]), np.concatenate([up, real_up])
        note += (f" and {len(real_features)} real row tiles of {len(row_up)} train photos ({ROW_UP.name}), "
                 f"as they lie and turned {len(REAL_TURNS) - 1} ways")
    weights = train_head(features, doubled(up), args.epochs)
    note += f", {args.epochs} epochs"
    print(graft(args.model, weights, note, args.model), f"({time.time() - began:.0f} s)")


if __name__ == "__main__":
    main()
