"""Train the tile classifier on the CPU from the crop sets of `datasets.build`, resumable across sessions.

    python -m datasets.train_classifier --epochs 30 [--width 24] [--resume | --init CHECKPOINT]

Inputs: build/classifier/*.npz (crops, box aspects, class labels, up angles: NaN where unknown). Training sets are every
npz but `real_valid.npz`, which only picks the best epoch (its accuracy is printed each epoch). Checkpoints:
OUT/{last,best}.pt (default build/runs/classifier_by_hand: `make model`'s stages have folders of their own, which
a run by hand must not take for a stage done). `--init` starts a new schedule from a checkpoint's weights, of this width
or a narrower one (`widened`).
"""
from __future__ import annotations

import argparse
import math
import time
from datetime import date
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from datasets.build import BUILD
from datasets.classifier_net import TileClassifierNet
from vision.detections import BACK, CLASS_NAMES

BACK_INDEX = CLASS_NAMES.index(BACK)


def load_crop_sets(folder: Path) -> dict[str, dict[str, np.ndarray]]:
    """Every crop set of the folder by name but ``real_valid`` (it only picks the best epoch)."""
    return {path.stem: dict(np.load(path)) for path in sorted(folder.glob("*.npz")) if path.stem != "real_valid"}


def widened(own: dict[str, torch.Tensor], init: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """``init``'s weights in a network as wide or wider (``own``, freshly initialised): each tensor is copied
    into the leading channels, and the weights from the new channels into the old ones are zero, so the
    wider network starts out computing exactly what ``init`` did while its new channels learn."""
    out = {}
    for key, fresh in own.items():
        old = init[key]
        if old.shape == fresh.shape:
            out[key] = old
            continue
        new = fresh.clone()
        if new.dim() > 1:
            new[: old.shape[0], old.shape[1] :] = 0
        new[tuple(slice(0, n) for n in old.shape)] = old
        if key == "turns.0.weight":  # its last input is the box aspect, after the features
            new[:, -1], new[:, old.shape[1] - 1] = old[:, -1], 0
        out[key] = new
    return out


def averaged(first: Path, second: Path, out: Path) -> Path:
    """A checkpoint of the mean of two checkpoints' weights, the second trained on from the first (so the
    two lie close enough for their mean to work as one network: run 15 in `models/README.md` read more
    development hands than either); it is marked so in the version `datasets.export` writes."""
    a, b = (torch.load(path, weights_only=False) for path in (first, second))
    net = {key: (a["net"][key].float() + value.float()) / 2 if value.is_floating_point() else value
           for key, value in b["net"].items()}
    version = f"{date.today().isoformat()} mean of epoch {a['epoch'] + 1} and its fine-tune's epoch {b['epoch'] + 1}"
    torch.save({**b, "net": net, "version": version}, out)
    return out


def to_tensor(crops: np.ndarray) -> torch.Tensor:
    """uint8 BGR NHWC → float RGB NCHW in [0, 1] (as vision.crops.crops_batch)."""
    return torch.from_numpy(np.ascontiguousarray(crops[..., ::-1])).permute(0, 3, 1, 2).float() / 255


def augment(x: torch.Tensor, aspect: torch.Tensor, up: torch.Tensor, gen: torch.Generator
            ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Random quarter turns (the up angle and the box's aspect follow), colour, grey, blur, low resolution."""
    n = x.shape[0]
    k = torch.randint(0, 4, (n,), generator=gen)
    out = torch.empty_like(x)
    for turns in range(4):
        rows = k == turns
        out[rows] = torch.rot90(x[rows], turns, dims=(2, 3))  # counter-clockwise
    up = torch.remainder(up - 90.0 * k, 360.0)
    aspect = torch.where((k % 2 == 1)[:, None], -aspect, aspect)
    gain = 1 + (torch.rand(n, 1, 1, 1, generator=gen) - 0.5) * 0.5
    bias = (torch.rand(n, 1, 1, 1, generator=gen) - 0.5) * 0.3
    channel = 1 + (torch.rand(n, 3, 1, 1, generator=gen) - 0.5) * 0.2
    mean = out.mean((1, 2, 3), keepdim=True)
    out = ((out - mean) * gain + mean + bias) * channel
    grey = torch.rand(n, generator=gen) < 0.1
    out[grey] = out[grey].mean(1, keepdim=True).expand(-1, 3, -1, -1)
    blur = torch.rand(n, generator=gen) < 0.2
    if blur.any():
        out[blur] = F.avg_pool2d(out[blur], 3, 1, 1, count_include_pad=False)
    small = torch.rand(n, generator=gen) < 0.25
    if small.any():
        size = int(torch.randint(20, 48, (1,), generator=gen))
        low = F.interpolate(out[small], size=(size, size), mode="area")
        out[small] = F.interpolate(low, size=x.shape[2:], mode="bilinear", align_corners=False)
    return out.clamp(0, 1), aspect, up


QUARTERS = torch.tensor([0.0, 90.0, 180.0, 270.0])


def turn_targets(up_deg: torch.Tensor, is_back: torch.Tensor) -> torch.Tensor:
    """Soft targets over the quarter turns: cos² of the angle to each, for the two within 90° of a face's up
    (so 30° weighs 3:1 between up and right, and the mean vector keeps angles between quarters); for a back,
    whose ends look alike, cos² to all four (opposite quarters alike)."""
    cos = torch.cos(torch.deg2rad(up_deg[:, None] - QUARTERS[None, :]))
    weight = torch.where(is_back[:, None] | (cos > 0), cos**2, torch.zeros_like(cos))
    return weight / weight.sum(1, keepdim=True)


def orientation_loss(turn_logits: torch.Tensor, up_deg: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    """Cross-entropy against the soft quarter-turn targets where the up angle is known."""
    known = ~torch.isnan(up_deg)
    if not known.any():
        return turn_logits.sum() * 0
    targets = turn_targets(up_deg[known], labels[known] == BACK_INDEX)
    return -(targets * F.log_softmax(turn_logits[known], dim=1)).sum(1).mean()


@torch.no_grad()
def evaluate(net: TileClassifierNet, crops: np.ndarray, aspect: np.ndarray, labels: np.ndarray) -> float:
    net.eval()
    correct = 0
    for start in range(0, len(crops), 512):
        logits, _ = net(to_tensor(crops[start : start + 512]), torch.from_numpy(aspect[start : start + 512]))
        correct += int((logits.argmax(1).numpy() == labels[start : start + 512]).sum())
    return correct / max(len(crops), 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=BUILD / "classifier")
    parser.add_argument("--out", type=Path, default=BUILD / "runs" / "classifier_by_hand")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--steps", type=int, default=0, help="steps per epoch (default: one pass)")
    parser.add_argument("--oversample", default="tile_photos=8", help="name=factor,... for small sets")
    parser.add_argument("--init", type=Path, help="start from this checkpoint's weights (a new schedule)")
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--width", type=int, default=24, help="channels of the first layer (later ones are 2×, 4×, 8×)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0, help="another seed draws other batches and augmentations")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)

    sets = load_crop_sets(args.data)
    factors = {k: int(v) for k, v in (item.split("=") for item in args.oversample.split(",") if item)}
    crops, labels, up, aspect = (np.concatenate([np.repeat(s[key], factors.get(n, 1), 0) for n, s in sets.items()])
                                 for key in ("crops", "labels", "up", "aspect"))
    print({n: len(s["labels"]) for n, s in sets.items()}, "→", len(labels), "training crops")
    valid = np.load(args.data / "real_valid.npz")

    net = TileClassifierNet(width=args.width)
    if args.init:
        net.load_state_dict(widened(net.state_dict(), torch.load(args.init, weights_only=False)["net"]))
    steps = args.steps or math.ceil(len(labels) / args.batch)
    optimizer = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=5e-4)
    total, warmup = args.epochs * steps, max(1, steps // 2)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: min(1.0, (s + 1) / warmup) * 0.5 * (1 + math.cos(math.pi * min(s, total) / total))
    )
    start_epoch, best = 0, 0.0
    args.out.mkdir(parents=True, exist_ok=True)
    if args.resume and (args.out / "last.pt").exists():
        state = torch.load(args.out / "last.pt", weights_only=False)
        net.load_state_dict(state["net"])
        optimizer.load_state_dict(state["optimizer"])
        schedule.load_state_dict(state["schedule"])
        start_epoch, best = state["epoch"] + 1, state["best"]
    gen = torch.Generator().manual_seed(args.seed * 1000 + start_epoch)
    rng = np.random.default_rng(args.seed * 1000 + start_epoch)
    for epoch in range(start_epoch, args.epochs):
        net.train()
        began, total_loss = time.time(), 0.0
        order = rng.permutation(len(labels))
        for step in range(steps):
            rows = order[(step * args.batch) % len(order) :][: args.batch]
            x, box_aspect, angle = augment(to_tensor(crops[rows]), torch.from_numpy(aspect[rows]),
                                           torch.from_numpy(up[rows]), gen)
            y = torch.from_numpy(labels[rows])
            logits, up_pred = net(x, box_aspect)
            loss = F.cross_entropy(logits, y, label_smoothing=0.05) + orientation_loss(up_pred, angle, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            schedule.step()
            total_loss += loss.item()
        accuracy = evaluate(net, valid["crops"], valid["aspect"], valid["labels"])
        best_now = accuracy > best
        best = max(best, accuracy)
        state = {"net": net.state_dict(), "width": args.width, "optimizer": optimizer.state_dict(),
                 "schedule": schedule.state_dict(), "epoch": epoch, "best": best, "valid_accuracy": accuracy}
        torch.save(state, args.out / "last.pt")
        if best_now:
            torch.save(state, args.out / "best.pt")
        print(f"epoch {epoch + 1}/{args.epochs} loss {total_loss / steps:.4f} valid accuracy {accuracy:.4f}"
              f" {'best ' if best_now else ''}({time.time() - began:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
