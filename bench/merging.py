"""`python -m bench.merging`: what a timeline over a hostile board costs beside a normal one.

Both boards have 1,000 rows (the most a scan reads), run through what `benchmark --timeline`
does after reading: merge, directions, scope order, timeline.

* distinct: every row its own paper and model;
* shared: every row the same paper, model and split with a different value, so no two merge
  (issue #24: merging compared each row with every earlier one of its key, 0.59 s).

It prints the median CPU seconds of each and its ratio to distinct (bench/cpu.py), and returns the numbers
(`make bench` keeps them under "merging" in latest.json). Tests prove the bound structurally
(tests/cli/test_linear_work.py); nothing about time is asserted in tests.
"""

from __future__ import annotations

from typing import Any

from bench import cpu
from pwc_core.directions import board_directions
from pwc_core.merging import merge_rows
from pwc_core.scan import MAX_ROWS
from pwc_core.scopes import order_by_scope
from pwc_core.timeline import sota_timeline


def board(shared: bool) -> list[dict[str, Any]]:
    return [
        {
            "id": f"e{i}",
            "paper_id": "p" if shared else f"p{i}",
            "model_name": "Model" if shared else f"Model {i}",
            "dataset_id": "7",
            "task_id": "1",
            "split_name": "test",
            "paper_published_date": f"20{10 + i % 14:02d}-01-01",
            "metrics": {"Score": float(i)},
            "best_metric": "Score",
            "best_rank": MAX_ROWS - i,
        }
        for i in range(MAX_ROWS)
    ]


def timeline(rows: list[dict[str, Any]]) -> None:
    merged = merge_rows(rows)
    directions = board_directions(merged)
    ordered, _ = order_by_scope(merged, ["7"], directions)
    sota_timeline(ordered, ("Score", directions.of("Score") or "higher"), complete=True)


def run(rounds: int = 9) -> dict[str, Any]:
    print("merging: a board of one key beside a board of distinct rows ...", flush=True)
    result = cpu.compare({"distinct": board(False), "shared": board(True)}, timeline, rounds)
    result["rows"] = MAX_ROWS
    print(cpu.table(f"Timeline over {MAX_ROWS:,} rows", "Rows", result), flush=True)
    return result


if __name__ == "__main__":
    raise SystemExit(cpu.main(run, "python -m bench.merging", __doc__, 9))
