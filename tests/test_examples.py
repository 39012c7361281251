"""Every worked example of spec.md (../shared/rules/examples/*.json) scores its expected net, per region."""
import json
import re
from pathlib import Path

import pytest

from scoring import REGIONS, score_table

EXAMPLES = Path(__file__).resolve().parents[1].parent / "shared" / "rules" / "examples"
CASES = sorted(EXAMPLES.glob("*.json"))


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def test_examples_folder_is_there():
    assert CASES, f"no examples in {EXAMPLES}"


@pytest.mark.parametrize("path", [p for p in CASES if _load(p)["rules"] in REGIONS], ids=lambda p: p.stem)
def test_example_net(path):
    example = _load(path)
    result = score_table(example)
    assert result["net"] == example["expected_net"]
    assert sum(result["net"]) == 0


@pytest.mark.parametrize("path", [p for p in CASES if _load(p)["rules"] in REGIONS], ids=lambda p: p.stem)
def test_every_payment_says_why_in_english_too(path):
    for payment in score_table(_load(path))["payments"]:
        assert payment["reason"] and re.search(r"[a-z]{3}", payment["reason_en"]), payment
