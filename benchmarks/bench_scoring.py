"""Scoring speed: median time for the hardest single tables, and random legal tables per second per region.

    python benchmarks/bench_scoring.py [--runs 200] [--tables 1000] [--rules wenling daishan ...]

Every timing starts cold: the hand-search cache is cleared before each table. Both wall-clock time and
the process's CPU time are printed: on a shared, loaded machine the CPU time is what scoring costs.
Random tables come from the property-test generators (tests/strategies.py, Hypothesis), built before
timing; a region without a registered module or generator is skipped with a note.
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402

from scoring import REGIONS, score_table  # noqa: E402
from scoring.hands import HandSpec, clear_cache, readings  # noqa: E402
from scoring.tiles import PLAYING_TILES, parse_tiles  # noqa: E402
from tests.records import player, record  # noqa: E402
from tests.strategies import TABLES  # noqa: E402

NON_WINNERS = {0: player("1357p2468s12346z", "c678p"), 2: player("", "p777z c234s"), 3: player("13579m2468p12357s14z")}
WENLING_THREE_DE = record("wenling", NON_WINNERS | {1: player("11122233344456m9p9p9p")}, (1, "9p", "self_draw"),
                          indicator="9p")
WENLING_TWO_DE = record("wenling", NON_WINNERS | {1: player("111222333444m9p9p678s")}, (1, "9p", "self_draw"),
                        indicator="9p")
FUZHOU_THREE_GOLDS = record("fuzhou", {1: player("11122233344456m9p9p9p")}, (1, "9p", "self_draw"),
                            indicator="9p")
FUZHOU_IDLE_GOLD = record("fuzhou", {1: player("11122233344456m9p9p9p")}, (1, "1m", "discard", 2), indicator="9p")
NOT_WHITE = tuple(t for t in PLAYING_TILES if t != "5z")
THREE_WILDS = HandSpec(HandSpec.of(parse_tiles("11122233344456m")).counts, 3, NOT_WHITE, frozenset({"9p"}), win_wild=True)


def median_ms(function, runs: int) -> str:
    """Median wall and CPU milliseconds of ``runs`` cold calls."""
    wall, cpu = [], []
    for _ in range(runs):
        clear_cache()
        start, start_cpu = time.perf_counter(), time.process_time()
        function()
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    return f"{statistics.median(wall):.2f} ms (CPU {statistics.median(cpu):.2f} ms)"


def random_tables(rules: str, n: int) -> list[dict]:
    found: list[dict] = []

    @settings(max_examples=n, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(TABLES[rules]())
    def collect(table):
        found.append(table)

    collect()
    return found[:n]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200, help="timed runs per single table")
    parser.add_argument("--tables", type=int, default=1000, help="random legal tables per region")
    parser.add_argument("--rules", nargs="*", default=sorted(REGIONS), help="regions to time (default: all)")
    args = parser.parse_args()
    print(f"python {platform.python_version()}, {os.cpu_count()} CPUs, load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")

    print(f"\nsingle tables, median of {args.runs} cold runs:")
    singles = [
        ("wenling", "winner with three 得 (腊子), 4 hands", lambda: score_table(WENLING_THREE_DE)),
        ("wenling", "winner with two 得 on a flexible hand, 4 hands", lambda: score_table(WENLING_TWO_DE)),
        ("fuzhou", "winner with three 金", lambda: score_table(FUZHOU_THREE_GOLDS)),
        ("fuzhou", "the same hand won on a discard (闲金 check, 金龙)", lambda: score_table(FUZHOU_IDLE_GOLD)),
    ]
    for rules, what, function in singles:
        if rules not in args.rules:
            continue
        if rules not in REGIONS:
            print(f"  {rules:9} {what}: skipped, {rules} rules are not registered yet")
            continue
        print(f"  {rules:9} {what}: {median_ms(function, args.runs)}")
    from scoring.wenling import REGION as WENLING, _combine, _Seat, _Summary, TileRoles  # noqa: E402

    seat = _Seat(TileRoles.of("9p", {o.name: o.default for o in WENLING.info.options}), 1, "2z", frozenset())
    search = lambda: readings(THREE_WILDS, (), _Summary(seat), _combine)  # noqa: E731
    print(f"  {'search':9} 14 flexible tiles + 3 wilds, every reading (Wenling merge key): "
          f"{median_ms(search, args.runs)}, {len(search())} merged readings")

    print(f"\n{args.tables} random legal tables per region (generated first, then scored cold):")
    for rules in args.rules:
        if rules not in REGIONS:
            print(f"  {rules:9} skipped: {rules} rules are not registered yet")
            continue
        if rules not in TABLES:
            print(f"  {rules:9} skipped: no generator in tests/strategies.py yet")
            continue
        tables = random_tables(rules, args.tables)
        clear_cache()
        start, start_cpu = time.perf_counter(), time.process_time()
        for table in tables:
            score_table(table)
        wall, cpu = time.perf_counter() - start, time.process_time() - start_cpu
        print(f"  {rules:9} {len(tables)} tables: {len(tables) / wall:.0f} tables/s wall, {len(tables) / cpu:.0f} per "
              f"CPU second")


if __name__ == "__main__":
    main()
