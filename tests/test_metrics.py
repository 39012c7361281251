"""Detection metrics on small hand-made cases whose answers are known."""
import numpy as np
import pytest

from vision.detections import Detections
from vision.metrics import DetectionScores, box_iou, match_pairs, mend_labels, read_label_fixes

def found(boxes, tiles, confidence, alternatives=None, score=None) -> Detections:
    return Detections(xyxy=boxes, tiles=tuple(tiles), confidence=confidence, alternatives=alternatives or (),
                      score=score if score is not None else confidence)


TRUTH = np.array([[0, 0, 10, 10], [20, 0, 30, 10], [40, 0, 50, 10]], np.float32)


def test_box_iou():
    iou = box_iou(np.array([[0, 0, 10, 10]], np.float32), np.array([[5, 0, 15, 10], [20, 20, 30, 30]], np.float32))
    assert iou[0, 0] == pytest.approx(50 / 150)
    assert iou[0, 1] == 0


def test_match_pairs_is_one_to_one_best_first():
    iou = np.array([[0.9, 0.6], [0.7, 0.0]])
    assert sorted(match_pairs(iou, 0.5)) == [(0, 0)]


def test_perfect_detections_score_one():
    scores = DetectionScores()
    scores.add(TRUTH, ["1m", "2m", "back"], found(TRUTH, ["1m", "2m", "back"], [0.9, 0.8, 0.7]))
    summary = scores.summary()
    assert summary["mAP50"] == pytest.approx(1.0)
    assert summary["mAP50-95"] == pytest.approx(1.0)
    assert summary["tile_accuracy"] == 1.0


def test_wrong_code_and_missed_tile_lower_accuracy_and_recall():
    scores = DetectionScores()
    boxes = TRUTH[:2] + [1, 0, 1, 0]  # IoU 0.82 with their truths
    scores.add(TRUTH, ["1m", "2m", "3m"], found(boxes, ["1m", "9m"], [0.9, 0.8]))
    summary = scores.summary()
    assert summary["tile_accuracy"] == pytest.approx(1 / 3)
    assert summary["per_class"]["1m"]["recall"] == 1.0
    assert summary["per_class"]["2m"]["recall"] == 0.0
    assert summary["mAP50"] == pytest.approx(1 / 3)  # 1m perfect, 2m and 3m never found
    assert summary["mAP50-95"] < summary["mAP50"]


def test_false_positive_ranked_above_true_positive_lowers_ap():
    scores = DetectionScores()
    boxes = np.vstack([TRUTH[:1], [[100, 100, 110, 110]]])
    scores.add(TRUTH[:1], ["1m"], found(boxes, ["1m", "1m"], [0.5, 0.9]))
    assert scores.summary()["mAP50"] == pytest.approx(0.5, abs=0.01)


def test_matches_do_not_cross_photos():
    scores = DetectionScores()
    scores.add(TRUTH[:1], ["1m"], found(TRUTH[:1], ["1m"], [0.9]))
    scores.add(np.zeros((0, 4)), [], found(TRUTH[:1], ["1m"], [0.95]))  # a false tile in a second photo
    summary = scores.summary()
    assert summary["labelled_tiles"] == 1
    assert summary["mAP50"] == pytest.approx(0.5, abs=0.01)


def test_alternatives_count_for_ap_but_not_for_tile_accuracy():
    scores = DetectionScores()
    scores.add(TRUTH[:1], ["2m"], found(TRUTH[:1], ["1m"], [0.6], alternatives=((("2m", 0.3),),)))
    summary = scores.summary()
    assert summary["tile_accuracy"] == 0.0
    assert summary["per_class"]["2m"]["AP50"] == pytest.approx(1.0)


def test_tiles_below_the_operating_score_are_not_accepted():
    scores = DetectionScores()
    scores.add(TRUTH[:1], ["1m"], found(TRUTH[:1], ["1m"], [0.2]), accept=0.35)
    summary = scores.summary()
    assert summary["tile_accuracy"] == 0.0
    assert summary["mAP50"] == pytest.approx(1.0)


def test_label_fixes_relabel_and_drop_second_boxes(tmp_path):
    fixes_file = tmp_path / "fixes.tsv"
    fixes_file.write_text("# a comment\nimage\tlabel\tlabelled\tshown\tnote\n"
                          "a.jpg\t0\t1s\t1p\tanother face\na.jpg\t2\t3m\t-\tthe same tile as label 1\n")
    fixes = read_label_fixes(fixes_file)
    assert fixes == {"a.jpg": {0: ("1s", "1p"), 2: ("3m", None)}}
    boxes, tiles = mend_labels(TRUTH, ["1s", "3m", "3m"], fixes["a.jpg"])
    assert tiles == ["1p", "3m"] and boxes.tolist() == TRUTH[:2].tolist()
    with pytest.raises(ValueError, match="label 0 is 2s, not 1s"):
        mend_labels(TRUTH, ["2s", "3m", "3m"], fixes["a.jpg"])
