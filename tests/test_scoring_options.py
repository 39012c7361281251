"""Whole tables whose nets were computed by hand from spec.md before the scorer was run on them:
``option_tables.jsonl``, 160 that turn on the options, flags and context facts of §7 (each non-default value,
each flag and its preconditions, settlement corner cases; a helper's audit, 2026-12-01), and
``audit_tables.jsonl``, 272 on ground those and the region tests leave (several wild tiles for different kinds,
the best of several readings, stacked events and specials, every kind of kong, dealers on every seat, each
region's scoring options; four helpers' audits, 2026-12-04, which found no scoring error: three Wenling
hand computations were corrected where the scorer's items showed a better reading or a 得 the helper had
missed; then 71 more on the items and combinations those tables left rare or untried, found by counting
what each table fires: a fifth audit, 2026-12-04, that found no scoring error either; then 71 more, 2026-12-05, by
two audits that found none: 25 Wenling tables of 包三家, non-winners' 腊子 and the 500 cap, and 46 of Fuzhou's 金,
Baicheng's 宝 and Daishan's readings; then 29, 2026-12-05, by two clause-by-clause audits of spec.md's four
regions, that found none and pinned the clauses no test held: names ``C01``…). ``net`` null: the
record must be refused, with ``error`` in the message."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from scoring import RecordError, score_table

TABLES = [json.loads(line) for name in ("option_tables.jsonl", "audit_tables.jsonl")
          for line in (Path(__file__).parent / name).read_text("utf-8").splitlines()]


@pytest.mark.parametrize("table", TABLES, ids=[t["name"] for t in TABLES])
def test_option_table(table: dict[str, Any]) -> None:
    if table["net"] is None:
        with pytest.raises(RecordError, match=re.escape(table["error"])):
            score_table(table["record"])
    else:
        assert score_table(table["record"])["net"] == table["net"]


def test_option_descriptions_speak_of_the_pages_boxes_not_json_values() -> None:
    """The page shows a switch as a box with its description: "(unticked: …)", never "(false: …)"."""
    from scoring import REGIONS

    said = [(key, o.name) for key, info in REGIONS.items() for o in info.options
            if re.search(r"\b(true|false)\b|\^", o.description)]
    assert said == []
