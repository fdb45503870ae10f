"""Linear work per row (issue #24, item 3): rows that share paper, model and split but keep
conflicting cost a bounded number of comparisons each, not one per earlier row."""

from __future__ import annotations

from typing import Any

import pytest

from pwc_core import merging
from pwc_core.merging import MAX_CANDIDATES, merge_rows


def row(i: int, **fields: Any) -> dict[str, Any]:
    return {
        "id": f"e{i}",
        "paper_id": "p",
        "model_name": "Model",
        "dataset_id": "7",
        "task_id": str(i),
        "metrics": {"Score": float(i)},
        "best_rank": i,
        **fields,
    }


def test_conflicting_rows_of_one_key_cost_a_bounded_number_of_comparisons(monkeypatch) -> None:
    calls = 0
    compatible = merging._compatible

    def counting(merged: dict[str, Any], metrics: dict[str, Any]) -> bool:
        nonlocal calls
        calls += 1
        return compatible(merged, metrics)

    monkeypatch.setattr(merging, "_compatible", counting)
    rows = [row(i) for i in range(1000)]
    merged = merge_rows(rows)
    assert len(merged) == 1000, "every row conflicts: none merges"
    assert calls <= MAX_CANDIDATES * len(rows)  # before: 499,500 (each with every earlier one)


def test_rows_of_many_scopes_merge_into_one_without_a_scan_per_scope() -> None:
    # one result listed under 1,000 task scopes: each scope kept once, with its rank
    rows = [row(i, metrics={"Score": 1.0}) for i in range(1000)]
    (merged,) = merge_rows(rows)
    assert len(merged["rank_scopes"]) == 1000 and merged["best_rank"] == 0
    assert "_scopes" not in merged and "_params" not in merged


@pytest.mark.parametrize("count", [2, MAX_CANDIDATES])
def test_few_candidates_merge_as_before(count: int) -> None:
    # the bound never changes a realistic board: a row finds the first compatible candidate
    rows = [row(i, task_id="1") for i in range(count)] + [row(0, task_id="2")]
    merged = merge_rows(rows)
    assert len(merged) == count
    first = next(m for m in merged if m["id"] == "e0")
    assert [s["task_id"] for s in first["rank_scopes"]] == ["1", "2"]
