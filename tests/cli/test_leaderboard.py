"""Unit tests of pwc_core.leaderboard: merging, metric matching, values, selection, direction."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from pwc_core.errors import AmbiguousError, UsageError
from pwc_core.leaderboard import metric_direction, pareto_frontier, select_rows
from pwc_core.merging import merge_key, merge_rows
from pwc_core.metrics import (
    available_metrics,
    match_metric,
    metric_value,
    parse_metric,
    resolve_metrics,
)


def row(**fields: Any) -> dict[str, Any]:
    base = {
        "id": "1",
        "paper_id": "p1",
        "dataset_id": "205",
        "model_name": "M",
        "harness": None,
        "task_id": "12",
        "task_name": "Image Classification",
        "task_slug": "image-classification",
        "metrics": {},
        "best_metric": None,
        "best_rank": None,
        "num_parameters": None,
        "methodology": None,
        "split_name": None,
    }
    base.update(fields)
    return base


def available(*names: str) -> dict[str, str]:
    return available_metrics([{"metrics": dict.fromkeys(names, 1)}])


# --- merging --------------------------------------------------------------------------------


def test_merge_two_task_scopes_into_one_row() -> None:
    rows = [
        row(
            id="a",
            task_id="12",
            task_name="Image Classification",
            best_rank=7,
            metrics={"Top 1 Accuracy": 88.5},
            best_metric="Top 1 Accuracy",
            num_parameters=86_000_000,
        ),
        row(
            id="b",
            task_id="316",
            task_name="Fine-Grained",
            task_slug="fine-grained",
            best_rank=2,
            metrics={"Top 5 Accuracy": 98.1},
            num_parameters=86_000_000,
        ),
    ]
    merged = merge_rows(rows)
    assert len(merged) == 1
    m = merged[0]
    assert m["id"] == "a" and m["task_id"] == "12"  # fields of the first row
    assert m["metrics"] == {"Top 1 Accuracy": 88.5, "Top 5 Accuracy": 98.1}
    assert m["rank_scopes"] == [
        {
            "task_id": "12",
            "task_name": "Image Classification",
            "task_slug": "image-classification",
            "rank": 7,
        },
        {"task_id": "316", "task_name": "Fine-Grained", "task_slug": "fine-grained", "rank": 2},
    ]
    assert m["best_rank"] == 2
    assert m["best_metric"] == "Top 1 Accuracy"
    assert m["num_parameters"] == 86_000_000
    assert m["metric_directions"] == {"Top 1 Accuracy": "higher", "Top 5 Accuracy": "higher"}


@pytest.mark.parametrize(
    ("counts", "expected"),
    [
        ((5, 5), 5),
        ((5, 6), None),  # disagreement
        ((5, None), None),  # one unknown
        ((5, True), None),  # a boolean is not a count
        ((0, 0), None),  # not positive
        ((None, None), None),
    ],
)
def test_num_parameters_reconciliation(counts: tuple[Any, Any], expected: Any) -> None:
    rows = [
        row(task_id=str(i), num_parameters=n, metrics={f"m{i}": 1}) for i, n in enumerate(counts)
    ]
    merged = merge_rows(rows)
    assert len(merged) == 1
    assert merged[0]["num_parameters"] == expected


def test_conflicting_metrics_split_rows() -> None:
    rows = [
        row(id="a", task_id="12", best_rank=3, metrics={"Accuracy": 90.0}),
        row(id="b", task_id="13", best_rank=1, metrics={"Accuracy": 80.0}),
        row(id="c", task_id="14", best_rank=9, metrics={"Accuracy": "80%", "F1": 0.7}),
    ]
    merged = merge_rows(rows)
    assert [m["id"] for m in merged] == ["b", "a"]  # ordered by best_rank
    b, a = merged
    assert a["metrics"] == {"Accuracy": 90.0} and [s["task_id"] for s in a["rank_scopes"]] == ["12"]
    # "80%" equals 80.0 numerically, so row c joins b rather than starting a third row
    assert b["metrics"] == {"Accuracy": 80.0, "F1": 0.7}
    assert [s["task_id"] for s in b["rank_scopes"]] == ["13", "14"]
    assert b["best_rank"] == 1


def test_repeated_task_keeps_smaller_rank_and_first_best_metric() -> None:
    rows = [
        row(task_id="12", best_rank=None, metrics={"A": 1}, best_metric=""),
        row(task_id="12", best_rank=9, metrics={"B": 2}, best_metric="B"),
        row(task_id="12", best_rank=4, metrics={"C": 3}, best_metric="C"),
        row(task_id="12", best_rank=True, metrics={"D": 4}),  # a boolean is not a rank
    ]
    (m,) = merge_rows(rows)
    assert m["rank_scopes"] == [
        {
            "task_id": "12",
            "task_name": "Image Classification",
            "task_slug": "image-classification",
            "rank": 4,
        }
    ]
    assert m["best_rank"] == 4
    assert m["best_metric"] == "B"


def test_merge_key_fields() -> None:
    assert merge_key(row(methodology="5-shot CoT", split_name="test")) == (
        "p1",
        "205",
        "M",
        "",
        "test",
        "5",
    )
    assert merge_key(row(methodology="5 shot"))[-1] == "5"
    assert merge_key(row(methodology="5Shot"))[-1] == "5"
    assert merge_key(row(methodology="10-crop testing"))[-1] == ""
    assert merge_key(row(split="val", split_name="test", evaluated_on="x"))[4] == "val"
    assert merge_key(row(split="", split_name=None, evaluated_on="dev"))[4] == "dev"
    assert merge_key(row(paper_id=71206, dataset_id=None, harness="lm-eval"))[:4] == (
        "71206",
        "",
        "M",
        "lm-eval",
    )


def test_different_keys_stay_apart() -> None:
    rows = [
        row(methodology="0-shot", metrics={"A": 1}),
        row(methodology="5-shot", metrics={"B": 1}),
        row(harness="h", metrics={"C": 1}),
        row(split_name="dev", metrics={"D": 1}),
        row(model_name="Other", metrics={"E": 1}),
    ]
    assert len(merge_rows(rows)) == 5


def test_output_order_and_inputs_untouched() -> None:
    rows = [
        row(paper_id="p9", model_name="zeta", best_rank=None),
        row(paper_id="p2", model_name="Beta", best_rank=5),
        row(paper_id="p1", model_name="alpha", best_rank=5),
        row(paper_id="p3", model_name="alpha", best_rank=5),
        row(paper_id="p4", model_name="Gamma", best_rank=1),
    ]
    before = copy.deepcopy(rows)
    merged = merge_rows(rows)
    assert [(m["paper_id"], m["model_name"]) for m in merged] == [
        ("p4", "Gamma"),
        ("p1", "alpha"),
        ("p3", "alpha"),
        ("p2", "Beta"),
        ("p9", "zeta"),
    ]
    assert rows == before
    assert merge_rows([]) == []


def test_non_dict_metrics_are_tolerated() -> None:
    (m,) = merge_rows([row(metrics=None, best_rank=2)])
    assert m["metrics"] == {} and m["best_rank"] == 2


# --- metric names -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("request_name", "names", "expected"),
    [
        ("top 1 accuracy", ("Top 1 Accuracy", "Top 5 Accuracy"), "Top 1 Accuracy"),
        ("AP", ("AP", "mAP"), "AP"),  # exact beats alias
        ("AP", ("mAP", "AP50"), "mAP"),
        ("mAP", ("box AP",), "box AP"),  # containment of an alias
        ("map", ("AP",), "AP"),
        ("top1", ("Accuracy", "F1"), "Accuracy"),
        ("Top-1", ("Top 1 Accuracy", "Top 5 Accuracy"), "Top 1 Accuracy"),
        ("Top 1 Accuracy", ("Accuracy",), "Accuracy"),
        ("Accuracy", ("Top-1 Accuracy", "Top-5 Accuracy"), "Top-1 Accuracy"),
        ("AUROC", ("AUC",), "AUC"),
        ("auc", ("AUROC",), "AUROC"),
        ("Pass@1", ("Pass Rate",), "Pass Rate"),
        ("pass rate", ("pass@1",), "pass@1"),
        ("Pass@1", ("HumanEval Pass Rate", "BLEU"), "HumanEval Pass Rate"),
        ("Normalized Score", ("D4RL Normalized Score", "Return"), "D4RL Normalized Score"),
        ("latency", ("Accuracy",), None),
    ],
)
def test_match_metric(request_name: str, names: tuple[str, ...], expected: str | None) -> None:
    assert match_metric(request_name, available(*names)) == expected


def test_ambiguous_containment_names_the_candidates() -> None:
    with pytest.raises(AmbiguousError) as err:
        match_metric("score", available("D4RL Normalized Score", "Raw Score", "Return"))
    assert (
        str(err.value) == "metric is ambiguous: score; candidates: D4RL Normalized Score, Raw Score"
    )
    assert isinstance(err.value, UsageError)  # the user fixes it by naming one (exit 2)


def test_ambiguous_alias_step() -> None:
    with pytest.raises(AmbiguousError, match="candidates: Accuracy, Top-1 Accuracy"):
        match_metric("top1", available("Top-1 Accuracy", "Accuracy"))


def test_resolve_metrics_unknown_message_lists_available() -> None:
    with pytest.raises(UsageError) as err:
        resolve_metrics(
            ["Latency", "top1", "FOO", "latency"], available("bleu", "Accuracy", "chrF")
        )
    assert str(err.value) == (
        "unknown metric(s): latency, foo; available metrics: Accuracy, bleu, chrF"
    )
    with pytest.raises(UsageError, match=r"^unknown metric\(s\): x; available metrics: none$"):
        resolve_metrics(["x"], {})
    assert resolve_metrics(["TOP1", "Accuracy"], available("Accuracy")) == {
        "top1": "Accuracy",
        "accuracy": "Accuracy",
    }


def test_available_metrics_keeps_first_spelling() -> None:
    rows = [{"metrics": {"BLEU": 1}}, {"metrics": {"bleu": 2, "chrF": 3}}, {"metrics": None}]
    assert available_metrics(rows) == {"bleu": "BLEU", "chrf": "chrF"}


# --- values -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (88.5, 88.5),
        (7, 7.0),
        ("88.55%", 88.55),
        (" 1,234.5 ", 1234.5),
        ("12%%", None),
        ("632M", None),
        (True, None),
        (False, None),
        (None, None),
        ([1], None),
        ("1e3", 1000.0),
    ],
)
def test_parse_metric(raw: Any, expected: float | None) -> None:
    assert parse_metric(raw) == expected


def test_metric_value_is_case_insensitive() -> None:
    r = {"metrics": {"Top 1 Accuracy": "88.55%"}}
    assert metric_value(r, "top 1 ACCURACY") == 88.55
    assert metric_value(r, "Top 5 Accuracy") is None
    assert metric_value({"metrics": "x"}, "a") is None


# --- selection ----------------------------------------------------------------------------


def scored(name: str, **metrics: Any) -> dict[str, Any]:
    return {"model_name": name, "metrics": metrics}


def names(rows: list[dict[str, Any]]) -> list[str]:
    return [r["model_name"] for r in rows]


ROWS = [
    scored("A", acc=90, params=100),
    scored("B", acc=85, params=50),
    scored("C", acc=80, params=60),  # dominated by B (lower acc, more params)
    scored("D", acc=90, params=120),  # dominated by A (same acc, more params)
    scored("E", acc=70, params=10),
    scored("F", acc="85%"),  # no params
]


def test_pareto_frontier_hand_checked() -> None:
    frontier = pareto_frontier(ROWS, [("acc", "higher"), ("params", "lower")])
    assert names(frontier) == ["A", "B", "E"]
    # equal rows do not dominate each other
    twins = [scored("X", a=1, b=1), scored("Y", a=1, b=1)]
    assert names(pareto_frontier(twins, [("a", "higher"), ("b", "higher")])) == ["X", "Y"]


def test_select_rows_pareto_orders_by_first_objective() -> None:
    picked = select_rows(ROWS, pareto=(("params", "lower"), ("acc", "higher")))
    assert names(picked) == ["E", "B", "A"]
    picked = select_rows(ROWS, pareto=(("ACC", "higher"), ("params", "lower")))
    assert names(picked) == ["A", "B", "E"]


def test_select_rows_filters_inclusive_and_required() -> None:
    assert names(select_rows(ROWS, required=("params",))) == ["A", "B", "C", "D", "E"]
    assert names(select_rows(ROWS, minimum=[("acc", 85)])) == ["A", "B", "D", "F"]
    assert names(select_rows(ROWS, maximum=[("acc", 85)], minimum=[("acc", 80)])) == ["B", "C", "F"]
    assert names(select_rows(ROWS, minimum=[("acc", 80)], maximum=[("params", 60)])) == ["B", "C"]
    assert select_rows(ROWS) == ROWS


def test_select_rows_sort_is_stable_desc_by_default() -> None:
    assert names(select_rows(ROWS, sort=("acc", "desc"))) == ["A", "D", "B", "F", "C", "E"]
    assert names(select_rows(ROWS, sort=("acc", "asc"))) == ["E", "C", "B", "F", "A", "D"]
    # --sort wins over the Pareto order
    picked = select_rows(
        ROWS, sort=("params", "desc"), pareto=(("acc", "higher"), ("params", "lower"))
    )
    assert names(picked) == ["A", "B", "E"]


def test_select_rows_resolves_aliases_and_reports_unknowns() -> None:
    rows = [scored("A", **{"Top 1 Accuracy": 80}), scored("B", **{"Top 1 Accuracy": 90})]
    assert names(select_rows(rows, sort=("top1", "desc"))) == ["B", "A"]
    with pytest.raises(UsageError, match="unknown metric"):
        select_rows(rows, minimum=[("bleu", 1)])


# --- direction ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Top 1 Accuracy", "higher"),
        ("Accuracy", "higher"),
        ("mAP", "higher"),
        ("box AP", "higher"),
        ("AP50", "higher"),
        ("F1", "higher"),
        ("BLEU", "higher"),
        ("Pass@1", "higher"),
        ("Pass Rate", "higher"),
        ("D4RL Normalized Score", "higher"),
        ("AUROC", "higher"),
        ("mIoU", "higher"),
        ("ROUGE-L", "higher"),
        ("Top-1 Error Rate", "lower"),
        ("Error", "lower"),
        ("Test Loss", "lower"),
        ("Perplexity", "lower"),
        ("FID", "lower"),
        ("FID score", "lower"),
        ("Latency (ms)", "lower"),
        ("Number of params", "lower"),
        ("Params", "lower"),
        ("GFLOPs", "lower"),
        ("WER", "lower"),
        ("MAE", "lower"),
        ("RMSE", "lower"),
        ("Percentage correct", "higher"),
        ("Percentage incorrect", None),
        ("Return", None),
        ("Mapping quality", None),
        ("Overall", None),
    ],
)
def test_metric_direction(name: str, expected: str | None) -> None:
    assert metric_direction(name) == expected
