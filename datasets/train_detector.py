"""Train the one-class ("tile") detector with ultralytics on the CPU, resumable across sessions.

    python -m datasets.train_detector --epochs 12 [--resume]

Starts from `build/warm_start.pt` (see datasets/warm_start.py) or, with --init, from any checkpoint
(e.g. a previous run's best.pt, to continue on a grown dataset); --resume continues an interrupted run
from its last.pt.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from datasets.build import BUILD


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=BUILD / "detector" / "data.yaml")
    parser.add_argument("--init", type=Path, default=BUILD / "warm_start.pt")
    parser.add_argument("--name", default="detector")
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--imgsz", type=int, default=480)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--lr0", type=float, default=0.002)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--resume", action="store_true")
    args = parser.parse_args()

    from ultralytics import YOLO

    run_dir = BUILD / "runs" / args.name
    if args.resume:
        YOLO(run_dir / "weights" / "last.pt").train(resume=True)
        return
    YOLO(args.init).train(
        data=str(args.data),
        epochs=args.epochs,
        imgsz=args.imgsz,
        batch=args.batch,
        device=args.device,
        workers=2,
        optimizer="AdamW",
        lr0=args.lr0,
        warmup_epochs=1,
        close_mosaic=max(1, args.epochs // 4),
        cos_lr=True,
        single_cls=True,
        pretrained=True,
        plots=False,
        cache="ram",
        amp=False,
        project=str(BUILD / "runs"),
        name=args.name,
        exist_ok=True,
        patience=100,
        seed=0,
    )


if __name__ == "__main__":
    main()
