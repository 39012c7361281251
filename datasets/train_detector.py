"""Train the one-class ("tile") detector with ultralytics, resumable across sessions.

    python -m datasets.train_detector --epochs 12 [--resume]

Starts from `build/warm_start.pt` (see datasets/warm_start.py) or, with --init, from any checkpoint
(e.g. a previous run's best.pt, to continue on a grown dataset); --resume continues an interrupted run
from its last.pt. `datasets.train_detector_scenes` runs it on freshly rendered scenes (on a GPU, by epochs
or by time).
"""
from __future__ import annotations

import argparse
from pathlib import Path

from datasets.build import BUILD

TIMED_EPOCHS = 10_000
"""The epochs asked of ultralytics in a run bounded by time: it ends a run after its epochs even when it is timed,
and fits them to the time only after the first (asked for one, it stopped there: 2026-12-04)."""


def train_detector(init: Path, data: Path, name: str, *, project: Path = BUILD / "runs", epochs: int = 12,
                   imgsz: int = 480, batch: int = 16, lr0: float = 0.002, device: str = "cpu", workers: int = 2,
                   hours: float | None = None, save_period: int = -1, val: bool = True,
                   close_mosaic: int | None = None) -> Path:
    """Train from ``init`` on ``data`` (a YOLO data.yaml) as one class; returns the run's folder.

    ``hours``, when given, bounds the run by time instead of ``epochs`` (ultralytics fits its schedule to it;
    `TIMED_EPOCHS`).
    """
    from ultralytics import YOLO

    YOLO(init).train(
        data=str(data),
        epochs=TIMED_EPOCHS if hours else epochs,
        time=hours,
        imgsz=imgsz,
        batch=batch,
        device=device,
        workers=workers,
        optimizer="AdamW",
        lr0=lr0,
        warmup_epochs=1,
        close_mosaic=close_mosaic if close_mosaic is not None else max(1, epochs // 4),
        cos_lr=True,
        single_cls=True,
        pretrained=True,
        plots=False,
        cache="ram",
        amp=device != "cpu",
        project=str(project),
        name=name,
        exist_ok=True,
        patience=100,
        seed=0,
        save_period=save_period,
        val=val,
    )
    return project / name


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=BUILD / "detector" / "data.yaml")
    parser.add_argument("--init", type=Path, default=BUILD / "warm_start.pt")
    parser.add_argument("--name", default="detector_by_hand",
                        help="the run's folder in build/runs (make model's stages have their own)")
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--imgsz", type=int, default=480)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--lr0", type=float, default=0.002)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--resume", action="store_true")
    args = parser.parse_args()

    if args.resume:
        from ultralytics import YOLO

        YOLO(BUILD / "runs" / args.name / "weights" / "last.pt").train(resume=True)
        return
    train_detector(args.init, args.data, args.name, epochs=args.epochs, imgsz=args.imgsz, batch=args.batch,
                   lr0=args.lr0, device=args.device)


if __name__ == "__main__":
    main()
