"""The classifier's synthetic crop sets (`datasets.build`)."""
import numpy as np

from datasets.build import build_synthetic
from vision.detections import BACK, CLASS_NAMES


def test_synthetic_crops_take_every_back_and_some_faces_or_only_the_classes_asked_for(tmp_path):
    build_synthetic(None, tmp_path / "all.npz", 4, first_seed=20, faces_per_scene=5)
    crops = np.load(tmp_path / "all.npz")
    labels = [CLASS_NAMES[i] for i in crops["labels"]]
    assert crops["crops"].shape[1:] == (64, 64, 3) and len(crops["aspect"]) == len(labels)
    assert sum(t != BACK for t in labels) <= 4 * 5 and BACK in labels
    assert set(crops["group"]) <= {f"synth_{seed}" for seed in range(20, 24)}

    build_synthetic(None, tmp_path / "white.npz", 12, first_seed=20, only=frozenset({"5z"}))
    white = np.load(tmp_path / "white.npz")["labels"]
    assert len(white) > 0 and {CLASS_NAMES[i] for i in white} == {"5z"}
