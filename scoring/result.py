"""The result object of table-format.md: per-seat totals with their items, the payments, the net."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from scoring.items import Item

if TYPE_CHECKING:
    from scoring.record import Win


@dataclass(frozen=True)
class Payment:
    """``payer`` pays ``payee`` ``amount`` (in the region's unit) because of ``reason`` (the rule terms, in
    Chinese), ``reason_en`` in English."""

    payer: int
    payee: int
    amount: int
    reason: str
    reason_en: str

    def to_dict(self) -> dict[str, Any]:
        return {"from": self.payer, "to": self.payee, "amount": self.amount, "reason": self.reason,
                "reason_en": self.reason_en}


@dataclass(frozen=True)
class SeatResult:
    """One seat's total (in ``unit``) and the items it is made of; ``extra`` holds region details."""

    seat: int
    total: int | float
    unit: str
    items: tuple[Item, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "total": self.total, "unit": self.unit,
                "items": [item.to_dict() for item in self.items], **self.extra}


@dataclass(frozen=True)
class Result:
    """The scored table: ``net[i]`` is what seat i gains; the four sum to zero."""

    rules: str
    net: tuple[int, ...]
    payments: tuple[Payment, ...]
    players: tuple[SeatResult, ...]
    winner: int | None
    unit: str
    reading: list[dict] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        out = {"rules": self.rules, "net": list(self.net), "unit": self.unit,
               "payments": [p.to_dict() for p in self.payments],
               "players": [p.to_dict() for p in self.players], "winner": self.winner}
        if self.reading is not None:
            out["reading"] = self.reading
        out.update(self.extra)
        return out


def net_of(payments: list[Payment] | tuple[Payment, ...]) -> tuple[int, ...]:
    """Each seat's gain from a list of payments (sums to zero by construction)."""
    net = [0, 0, 0, 0]
    for p in payments:
        net[p.payer] -= p.amount
        net[p.payee] += p.amount
    return tuple(net)


def others(seat: int) -> tuple[int, ...]:
    """The three other seats, in turn order after ``seat``."""
    return tuple((seat + k) % 4 for k in (1, 2, 3))


def paying_seats(win: Win, discard_payer: str) -> tuple[int, ...]:
    """Who pays a win (the ``discard_payer`` option of Fuzhou and Baicheng): the discarder, or the robbed
    player, alone when the option says "discarder" and the tile was claimed; else the three others."""
    return (win.source,) if not win.self_drawn and discard_payer == "discarder" else others(win.player)
