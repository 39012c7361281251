"""160 whole tables that turn on the options, flags and context facts of spec.md §7 (each non-default value,
each flag and its preconditions, settlement corner cases), every net computed by hand from spec.md before
the scorer was run on it (a helper's audit, 2026-12-01). ``net`` null: the record must be refused, with ``error`` in the message."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from scoring import RecordError, score_table

TABLES = [json.loads(line) for line in (Path(__file__).parent / "option_tables.jsonl").read_text("utf-8").splitlines()]


@pytest.mark.parametrize("table", TABLES, ids=[t["name"] for t in TABLES])
def test_option_table(table: dict[str, Any]) -> None:
    if table["net"] is None:
        with pytest.raises(RecordError, match=re.escape(table["error"])):
            score_table(table["record"])
    else:
        assert score_table(table["record"])["net"] == table["net"]
