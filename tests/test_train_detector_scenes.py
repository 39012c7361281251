"""The long detector run's dataset: real photos repeated, synthetic scenes rendered in parallel."""
import shutil

import cv2

from datasets.real import REAL_DATA
from datasets.train_detector_scenes import VAL_SEEDS, write_dataset


def test_write_dataset_lists_real_photos_twice_and_rendered_scenes(tmp_path):
    real = tmp_path / "real" / "images"
    real.mkdir(parents=True)
    for image in sorted((REAL_DATA / "train" / "images").iterdir())[:2]:
        shutil.copy(image, real / image.name)
    yaml = write_dataset(tmp_path / "set", real, real_copies=2, seeds=range(5, 8), jobs=2, imgsz=160)
    lines = (tmp_path / "set" / "train_5_8.txt").read_text().splitlines()
    assert len(lines) == 2 * 2 + 3 and lines[:2] == lines[2:4] and lines[0].startswith(str(real))
    assert [line.rsplit("/", 1)[1] for line in lines[4:]] == ["synth_0000005.jpg", "synth_0000006.jpg", "synth_0000007.jpg"]
    assert max(cv2.imread(lines[4]).shape[:2]) == 160
    assert (tmp_path / "set" / "synth" / "labels" / "synth_0000007.txt").read_text().strip()
    assert len(list((tmp_path / "set" / "val" / "images").iterdir())) == len(VAL_SEEDS)
    assert "train: train_5_8.txt" in yaml.read_text() and "42: back" in yaml.read_text()

    # a second run over more seeds keeps the scenes already rendered
    first = (tmp_path / "set" / "synth" / "images" / "synth_0000005.jpg").stat().st_mtime_ns
    write_dataset(tmp_path / "set", real, real_copies=1, seeds=range(5, 9), jobs=2, imgsz=160)
    assert (tmp_path / "set" / "synth" / "images" / "synth_0000005.jpg").stat().st_mtime_ns == first
    assert len((tmp_path / "set" / "train_5_9.txt").read_text().splitlines()) == 2 + 4
