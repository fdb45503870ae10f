"""Evaluations, benchmarks (datasets), tasks and areas of the sample catalog."""

from __future__ import annotations

from urllib.parse import quote

import httpx
import pytest

from tests.helpers.sample import error, ok

EVALUATION_KEYS = {
    "id",
    "paper_id",
    "paper_title",
    "paper_arxiv_id",
    "paper_published_date",
    "task_id",
    "task_name",
    "task_slug",
    "dataset_id",
    "dataset_name",
    "model_name",
    "harness",
    "metrics",
    "best_metric",
    "best_rank",
    "num_parameters",
    "is_open",
    "methodology",
    "split_name",
    "result_url",
    "source_url",
    "code_url",
    "hf_model_url",
    "uses_additional_data",
    "updated_at",
}


def all_rows(api: httpx.Client, path: str, **params: object) -> list[dict]:
    rows, page = [], 1
    while page:
        body = ok(api.get(path, params={**params, "page": page, "page_size": 100}))
        rows += body["results"]
        page = body["next_page"]
    return rows


@pytest.mark.parametrize(
    ("dataset", "metrics"),
    [
        ("205", {"Top 1 Accuracy", "Top 5 Accuracy"}),
        ("230", {"box AP", "AP50"}),
        ("501", {"Pass@1"}),
        ("502", {"Average (%)"}),
        ("480", {"EM", "F1"}),
        ("610", {"D4RL Normalized Score"}),
    ],
)
def test_leaderboards_are_large_and_ranked(
    api: httpx.Client, dataset: str, metrics: set[str]
) -> None:
    first = ok(
        api.get(
            f"datasets/{dataset}/evaluations/", params={"ordering": "best_rank", "page_size": 10}
        )
    )
    assert first["count"] >= 30 and first["next_page"] == 2 and len(first["results"]) == 10
    rows = all_rows(api, f"datasets/{dataset}/evaluations/", ordering="best_rank")
    assert len(rows) == first["count"] and all(set(r) >= EVALUATION_KEYS for r in rows)
    assert metrics <= {m for r in rows for m in r["metrics"]}
    ranks = [r["best_rank"] for r in rows if r["best_rank"] is not None]
    assert ranks == sorted(ranks) and ranks[0] == 1


def test_leaderboard_row_variety(api: httpx.Client) -> None:
    rows = [
        r
        for d in ("205", "230", "501", "502", "480", "610")
        for r in all_rows(api, f"datasets/{d}/evaluations/")
    ]
    assert {r["is_open"] for r in rows} == {True, False, None}
    assert any(r["num_parameters"] is None for r in rows) and any(
        isinstance(r["num_parameters"], int) for r in rows
    )
    assert {"detectron2", "lm-evaluation-harness", "bigcode-evaluation-harness"} <= {
        r["harness"] for r in rows
    }
    assert "5-shot" in {r["methodology"] for r in rows}
    assert {"val", "test-dev", "val2017", "hopper-medium-v2"} <= {r["split_name"] for r in rows}
    assert any(str(v).endswith("%") for r in rows for v in r["metrics"].values())
    assert any((r["source_url"] or "").startswith("/paper/") for r in rows)
    assert all(r["updated_at"] and r["result_url"] or r["source_url"] for r in rows)


def test_equivalent_rows_in_two_task_scopes(api: httpx.Client) -> None:
    rows = [
        r for r in all_rows(api, "datasets/230/evaluations/") if r["model_name"] == "YOLOv4-608"
    ]
    assert {r["task_id"] for r in rows} == {"15", "318"}
    assert len({r["best_rank"] for r in rows}) == 2
    assert len({(r["paper_id"], r["split_name"], r["harness"]) for r in rows}) == 1
    assert rows[0]["metrics"]["box AP"] == rows[1]["metrics"]["box AP"]


def test_dataset_evaluation_filters(api: httpx.Client) -> None:
    closed = all_rows(api, "datasets/501/evaluations/", is_open="false")
    assert closed and all(r["is_open"] is False for r in closed)
    assert error(api.get("datasets/999/evaluations/"), 404)
    assert error(api.get("datasets/205/evaluations/", params={"page_size": 101}), 422)
    assert error(api.get("datasets/205/evaluations/", params={"ordering": "-best_rank"}), 422)
    assert (
        api.get("datasets/205/evaluations").status_code == 404
    )  # trailing slash is part of the path


def test_evaluations_by_paper(api: httpx.Client) -> None:
    body = ok(
        api.get(
            "evaluations/",
            params={"paper_id": "48213", "ordering": "-benchmark_popularity", "page_size": 100},
        )
    )
    assert body["count"] == 6 and {r["paper_id"] for r in body["results"]} == {"48213"}
    assert {r["dataset_name"] for r in body["results"]} == {
        "WMT2014 English-German",
        "WMT2014 English-French",
        "Penn Treebank",
    }
    assert "parameter_coverage_known" not in body
    assert error(api.get("evaluations/", params={"ordering": "popularity"}), 422)


def test_evaluations_parameter_ceiling(api: httpx.Client) -> None:
    params = {
        "dataset_id": "205",
        "ordering": "best_rank",
        "max_parameters_exclusive": 25_000_001,
        "page_size": 100,
    }
    body = ok(api.get("evaluations/", params=params))
    assert isinstance(body["parameter_coverage_known"], int) and isinstance(
        body["parameter_coverage_total"], int
    )
    assert body["parameter_coverage_known"] < body["parameter_coverage_total"] == 39
    assert body["results"] and all(0 < r["num_parameters"] <= 25_000_000 for r in body["results"])
    assert [r["best_rank"] for r in body["results"]] == sorted(
        r["best_rank"] for r in body["results"]
    )
    closed = ok(
        api.get(
            "evaluations/",
            params={
                **params,
                "dataset_id": "501",
                "is_open": "false",
                "max_parameters_exclusive": 10**12,
            },
        )
    )
    assert closed["results"] and all(r["is_open"] is False for r in closed["results"])
    assert error(api.get("evaluations/", params={**params, "max_parameters_exclusive": 0}), 422)
    assert error(
        api.get("evaluations/", params={**params, "max_parameters_exclusive": "1.5B"}), 422
    )


def test_datasets_listing(api: httpx.Client) -> None:
    body = ok(api.get("datasets/", params={"page_size": 100}))
    names = [r["name"] for r in body["results"]]
    assert names == sorted(names, key=str.casefold) and body["count"] == 13
    assert {"paper_count", "evaluation_count", "full_name", "hf_url", "slug", "description"} <= set(
        body["results"][0]
    )
    assert [r["id"] for r in ok(api.get("datasets/", params={"q": "imagenet"}))["results"]] == [
        "205"
    ]
    by_count = ok(api.get("datasets/", params={"ordering": "-paper_count"}))["results"]
    assert [r["paper_count"] for r in by_count] == sorted(
        (r["paper_count"] for r in by_count), reverse=True
    )
    task = {
        r["id"]
        for r in ok(api.get("datasets/", params={"task": "image-classification"}))["results"]
    }
    assert task == {"205", "207"}
    deep = ok(
        api.get("datasets/", params={"task": "Image Classification", "include_descendants": "true"})
    )["results"]
    assert {r["id"] for r in deep} == {"205", "207", "620"}
    assert {
        r["id"] for r in ok(api.get("datasets/", params={"min_eval_count": 30}))["results"]
    } == {"205", "230", "480", "501", "502", "610"}
    assert {r["id"] for r in ok(api.get("datasets/", params={"is_open": "false"}))["results"]} == {
        "205",
        "207",
        "456",
        "501",
        "502",
    }
    assert error(api.get("datasets/", params={"ordering": "stars"}), 422)
    assert error(api.get("datasets/", params={"task": "Unknown"}), 404)


@pytest.mark.parametrize(
    "ref", ["12", "image-classification", "Image Classification", "IMAGE CLASSIFICATION"]
)
def test_trending_benchmarks_accepts_task_forms(api: httpx.Client, ref: str) -> None:
    body = ok(
        api.get(
            f"tasks/{quote(ref, safe='')}/trending-benchmarks",
            params={"limit": 100, "min_recent_papers": 0},
        )
    )
    assert {"task_id", "task_slug", "recent_days", "support_prior_papers", "results"} <= set(body)
    assert body["task_id"] == "12" and {r["id"] for r in body["results"]} == {"205", "207"}
    row = body["results"][0]
    assert {
        "recent_paper_count",
        "all_time_paper_count",
        "trend_score",
        "support_weighted_score",
        "best_model_name",
        "best_paper_title",
        "best_code_url",
    } <= set(row)


def test_trending_benchmarks_filters(api: httpx.Client) -> None:
    deep = ok(api.get("tasks/12/trending-benchmarks", params={"include_descendants": "true"}))
    assert {r["id"] for r in deep["results"]} == {"205", "207", "620"}
    code = ok(
        api.get("tasks/code-generation/trending-benchmarks", params={"min_recent_papers": 1})
    )["results"]
    assert (
        [r["id"] for r in code] == ["501"]
        and code[0]["recent_paper_count"] >= 1
        and code[0]["best_model_name"] == "Gemma 3 27B IT"
    )
    assert (
        ok(api.get("tasks/12/trending-benchmarks", params={"min_recent_papers": 1}))["results"]
        == []
    )
    closed = ok(api.get("tasks/code-generation/trending-benchmarks", params={"is_open": "false"}))[
        "results"
    ]
    assert closed[0]["best_model_name"] == "Codex-S-12B"
    assert len(ok(api.get("tasks/12/trending-benchmarks", params={"limit": 1}))["results"]) == 1
    assert error(api.get("tasks/No%20Such%20Task/trending-benchmarks"), 404)
    assert error(api.get("tasks/12/trending-benchmarks", params={"limit": 101}), 422)


def test_areas(api: httpx.Client) -> None:
    areas = ok(api.get("areas/", params={"page": 1, "page_size": 500, "ordering": "name"}))
    assert areas["count"] == 5 and [a["name"] for a in areas["results"]][:2] == ["Audio", "General"]
    grouped = ok(api.get("areas/with-tasks/"))["results"]
    assert {a["name"] for a in grouped} == {
        "Audio",
        "General",
        "Natural Language Processing",
        "Reinforcement Learning",
        "Vision",
    }
    assert next(a for a in grouped if a["name"] == "Audio")["tasks"] == []
    vision = next(a for a in grouped if a["name"] == "Vision")
    assert all(t["level"] == 0 for t in vision["tasks"]) and "image-classification" in {
        t["slug"] for t in vision["tasks"]
    }
    benchmarks = ok(
        api.get(
            "areas/with-task-benchmarks/", params={"benchmarks_per_task": 1, "min_eval_count": 2}
        )
    )["results"]
    tasks = {t["slug"]: t for a in benchmarks for t in a["tasks"]}
    assert tasks["image-classification"]["benchmarks"][0]["slug"] == "imagenet"
    assert all(
        len(t["benchmarks"]) == 1 and t["benchmarks"][0]["evaluation_count"] >= 2
        for t in tasks.values()
    )
    assert "handwritten-digit-recognition" in tasks and "audio" not in {
        a["name"].casefold() for a in benchmarks
    }
    busy = ok(api.get("areas/with-task-benchmarks/", params={"min_eval_count": 40}))["results"]
    assert {b["id"] for a in busy for t in a["tasks"] for b in t["benchmarks"]} == {"230"}
    assert error(api.get("areas/with-task-benchmarks/", params={"benchmarks_per_task": 11}), 422)


def test_tasks(api: httpx.Client) -> None:
    listing = ok(api.get("tasks/", params={"page": 1, "page_size": 100, "ordering": "name"}))
    assert listing["count"] >= 8 and {
        "id",
        "slug",
        "name",
        "area_id",
        "level",
        "paper_count",
        "benchmark_count",
        "evaluation_count",
    } <= set(listing["results"][0])
    probe = ok(api.get("tasks/", params={"page": 1, "page_size": 1}))
    assert len(probe["results"]) == 1 and probe["next_page"] == 2
    vision_children = ok(api.get("tasks/", params={"area_id": "1", "level": 1, "page_size": 100}))[
        "results"
    ]
    assert {t["slug"] for t in vision_children} >= {
        "fine-grained-image-classification",
        "real-time-object-detection",
    }
    visible = ok(api.get("tasks/", params={"visible_only": "true", "page_size": 100}))
    assert visible["count"] == listing["count"] - 1
    assert [t["id"] for t in ok(api.get("tasks/", params={"q": "detection"}))["results"]] == [
        "15",
        "318",
    ]
    by_papers = ok(api.get("tasks/", params={"ordering": "-paper_count", "page_size": 3}))[
        "results"
    ]
    assert by_papers[0]["slug"] == "image-classification"
    assert error(api.get("tasks/", params={"ordering": "stars"}), 422)
    summary = ok(api.get("tasks/12"))
    assert summary["slug"] == "image-classification" and summary["benchmark_count"] == 2
    assert error(api.get("tasks/99999"), 404)


def test_task_page_and_papers(api: httpx.Client) -> None:
    page = ok(api.get("tasks/330/page"))
    assert (
        page["task"]["level"] == 2
        and page["task"]["research_trends"]
        and page["task"]["description"]
    )
    assert [p["id"] for p in page["parents"]] == ["317", "12"]
    root = ok(api.get("tasks/12/page"))
    assert {c["id"] for c in root["children"]} == {"316", "317", "301"}
    assert [b["id"] for b in root["benchmarks"]] == ["205", "207"] and root["benchmarks"][0][
        "best_model_name"
    ] == "ViT-H/14"
    assert {s["subtask_id"] for s in root["subtask_benchmarks"]} == {"301"}
    assert root["recommended_frameworks"][0]["owner"] == "huggingface"
    papers = ok(
        api.get(
            "tasks/12/papers",
            params={
                "page": 1,
                "page_size": 100,
                "order_by": "trending",
                "order_dir": "desc",
                "include_resources": "true",
            },
        )
    )
    assert papers["count"] == ok(api.get("tasks/12"))["paper_count"]
    assert all("methods" in r and "repositories" in r for r in papers["results"])
    assert {"id", "slug", "name"} == set(papers["results"][0]["methods"][0])
