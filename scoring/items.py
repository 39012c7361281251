"""Scoring items: each rule of a region is a small named unit with its value, unit and seed phrase.

A region lists its rules as `Rule` constants, each with a one-line condition where it has one; a
result lists the `Item`s that applied, so every number in a total can be checked against the rule text.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Item:
    """One line of a breakdown: ``value`` ``unit`` under ``rule`` (the spec's term), citing the seed text.
    ``name`` says what it is for in English, its detail (the tiles) included; ``detail_zh`` is that detail for
    ``name_zh``: the tiles as they are ("999p"), or words in Chinese; "" where there is none."""

    name: str
    name_zh: str
    rule: str
    value: int | float
    unit: str
    citation: str
    detail_zh: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "name_zh": self.name_zh, "rule": self.rule, "value": self.value,
                "unit": self.unit, "citation": self.citation, "detail_zh": self.detail_zh}


@dataclass(frozen=True)
class Rule:
    """A scoring rule: names (English, Chinese), the spec's rule term, value, unit, seed phrase, condition.

    ``when`` is the rule's condition on whatever the region evaluates (a hand, a block); None for
    rules applied by the region's own arithmetic (flowers counted, a value computed).
    """

    name: str
    name_zh: str
    rule: str
    value: int | float
    unit: str
    citation: str
    when: Callable[..., bool] | None = None

    def item(self, detail: str = "", value: int | float | None = None, *, name_zh: str | None = None,
             detail_zh: str | None = None) -> Item:
        """This rule as a result line; ``detail`` (e.g. the tiles) is appended to the English name and is the
        Chinese one's too (tiles, or words already Chinese) unless ``detail_zh`` says it in Chinese; ``name_zh``
        names it in Chinese where the rule's name depends on the hand (Wenling's 翻发财 under the 翻白板 rule)."""
        name = f"{self.name}: {detail}" if detail else self.name
        return Item(name, self.name_zh if name_zh is None else name_zh, self.rule,
                    self.value if value is None else value, self.unit, self.citation,
                    detail if detail_zh is None else detail_zh)

    def applies(self, *subject: Any) -> bool:
        return self.when is not None and self.when(*subject)


def split_sums(items: Iterable[Item | Rule], unit: str) -> tuple[int | float, int | float]:
    """The sum of the values in ``unit`` and the sum of the rest: for rules whose items come in two units
    (Wenling 和 and 番, Daishan 底 and 花)."""
    inside = rest = 0
    for i in items:
        if i.unit == unit:
            inside += i.value
        else:
            rest += i.value
    return inside, rest
