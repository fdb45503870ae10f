"""`pwc benchmark --name` (leaderboard) and `pwc benchmark list`, through the CLI with respx."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
import respx

from tests.helpers.cli import fixture, params_of

LEADERBOARD = "datasets/205/evaluations/"


@pytest.fixture
def lookup(api: respx.MockRouter) -> respx.Route:
    return api.get("datasets/").respond(json=fixture("datasets_list.json"))


def evaluation(i: int, **fields: Any) -> dict[str, Any]:
    """A synthetic evaluation row of benchmark 205 with a distinct paper/model."""
    base = {
        "id": f"e{i}",
        "paper_id": f"p{i}",
        "paper_title": f"Paper {i}",
        "paper_arxiv_id": f"2101.{i:05d}",
        "paper_published_date": "2021-01-01",
        "task_id": "12",
        "task_name": "Image Classification",
        "task_slug": "image-classification",
        "dataset_id": "205",
        "dataset_name": "ImageNet",
        "model_name": f"Model {i}",
        "harness": None,
        "metrics": {"Top 1 Accuracy": 70 + i, "Params (M)": 10 * i},
        "best_metric": "Top 1 Accuracy",
        "best_rank": i,
        "num_parameters": 1_000_000 * i,
        "is_open": True,
        "methodology": None,
        "split_name": None,
    }
    base.update(fields)
    return base


def page_of(
    rows: list[dict[str, Any]], count: int | None, next_page: int | None = None, **extra: Any
) -> dict[str, Any]:
    body: dict[str, Any] = {"next_page": next_page, "results": rows, **extra}
    if count is not None:
        body["count"] = count
    return body


# --- benchmark --name: lookup and plain leaderboard ---------------------------------------


def test_leaderboard_json_and_requests(pwc, api, lookup) -> None:
    board = api.get(LEADERBOARD).respond(json=fixture("datasets_evaluations.json"))
    result = pwc("benchmark", "--name", "ImageNet", "--json")
    assert result.code == 0, result.err
    assert params_of(lookup) == {"q": ["ImageNet"], "page": ["1"], "page_size": ["100"]}
    # the whole board is read in pages of 100 (the sorted path's pages); the fixture claims
    # 1,184 rows but answers page 2 with page 1's six rows again: the scan stops, incomplete
    assert [params_of(board, i) for i in range(board.call_count)] == [
        {"page": [str(p)], "page_size": ["100"], "ordering": ["best_rank"]} for p in (1, 2)
    ]
    data = result.data
    assert list(data)[:6] == ["benchmark", "count", "matched_count", "page", "next_page", "results"]
    assert data["benchmark"]["id"] == "205"
    assert (data["count"], data["matched_count"], data["page"], data["next_page"]) == (
        1184,
        6,
        1,
        None,
    )
    assert data["ordering"] == {
        "by": "task scope",
        "complete": False,
        "rows_ordered": 6,
        "stopped": "a page added no rows",
    }
    assert [r["model_name"] for r in data["results"]][:2] == ["ViT-H/14", "ViT-L/16"]
    assert data["results"][0]["rank_scopes"] == [
        {
            "task_id": "12",
            "task_name": "Image Classification",
            "task_slug": "image-classification",
            "rank": 38,
        }
    ]
    assert data["metric_directions"] == {
        "Top 1 Accuracy": "higher",
        "Number of params": "lower",
        "GFLOPs": "lower",
        "Top 5 Accuracy": "higher",
    }
    assert result.err == ""


def test_leaderboard_paging_and_is_open(pwc, api, lookup) -> None:
    rows = [evaluation(i) for i in range(1, 11)]
    board = api.get(LEADERBOARD).respond(json=page_of(rows, 10, next_page=None))
    data = pwc(
        "benchmark", "--name", "205", "--page", "2", "--limit", "4", "--is-open", "false", "--json"
    ).data
    read = {"page": ["1"], "page_size": ["100"], "ordering": ["best_rank"]}
    assert params_of(board, 0) == read | {"is_open": ["false"]}
    # and the board before the filter, once: its rows decide the scopes and the directions
    assert board.call_count == 2 and params_of(board, 1) == read
    # a page is a slice of the whole board's order
    assert [r["id"] for r in data["results"]] == ["e5", "e6", "e7", "e8"]
    assert (data["count"], data["matched_count"], data["page"], data["next_page"]) == (
        10,
        10,
        2,
        3,
    )


@pytest.mark.parametrize(
    "name",
    ["imagenet", "ImageNet Large Scale Visual Recognition Challenge 2012", " 205 ", "IMAGENET"],
)
def test_benchmark_exact_match_fields(pwc, api, lookup, name) -> None:
    api.get(LEADERBOARD).respond(json=page_of([], 0))
    result = pwc("benchmark", "--name", name, "--json")
    assert result.code == 0 and result.data["benchmark"]["slug"] == "imagenet"
    assert result.data["count"] == 0 and result.data["results"] == []


def test_benchmark_not_found(pwc, lookup) -> None:
    result = pwc("benchmark", "--name", "ImageNe")
    assert result.code == 4 and result.out == ""
    assert result.err == (
        "pwc: Benchmark not found: ImageNe; closest results: ImageNet, ImageNet ReaL\n"
    )


def test_benchmark_requires_name(pwc, api) -> None:
    result = pwc("benchmark")
    assert (result.code, result.err) == (2, "pwc: benchmark inspection requires --name\n")
    assert not api.calls


def test_leaderboard_identifier_is_path_encoded(pwc, api) -> None:
    api.get("datasets/").respond(json=page_of([{"id": "a/b c", "name": "Odd"}], 1))
    board = api.get(url__regex=r"/datasets/a%2Fb%20c/evaluations/").respond(json=page_of([], 0))
    assert pwc("benchmark", "--name", "Odd", "--json").code == 0
    assert board.called


# --- human output -------------------------------------------------------------------------


def test_leaderboard_captured_is_markdown(pwc, api, lookup) -> None:
    api.get(LEADERBOARD).respond(json=fixture("datasets_evaluations.json"))
    result = pwc("benchmark", "--name", "imagenet", "--limit", "2")
    lines = result.out.splitlines()
    assert lines[0] == "# ImageNet"
    assert "ImageNet Large Scale Visual Recognition Challenge 2012" in lines
    assert "[View benchmark](https://paperswithcode.co/benchmark/imagenet)" in lines
    assert "6 rows (6 of 1,184 evaluation rows read); showing rows 1–2." in lines
    assert (
        "Ordered over the first 6 evaluation rows read of 1,184 (a page added no rows): rows "
        "beyond are not ranked here."
    ) in lines
    assert "| Rank | Model | Parameters | Scores | Task | Paper | Published | Open |" in lines
    assert "| ---: | --- | ---: | --- | --- | --- | --- | :---: |" in lines
    assert (
        "| 38 | ViT-H/14 · extra training data · JFT-300M pre-training, fine-tuned at 518px | "
        "632M | Top 1 Accuracy: 88.55%, Number of params: 632M | "
        "Image Classification | [An Image is Worth 16x16 Words: Transformers for Image "
        "Recognition at Scale](https://paperswithcode.co/paper/2010.11929) | 2020-10-22 | open |"
    ) in lines
    # the lookup also found "ImageNet ReaL", which contains the name
    assert result.err == "# more: rerun with --page 2\n# also: ImageNet ReaL\n"


def test_leaderboard_tty_is_aligned(pwc, api, lookup) -> None:
    rows = [
        evaluation(1, harness="lm-eval", is_open=False, num_parameters=1_500_000_000),
        evaluation(12, num_parameters=None),
        evaluation(3, num_parameters=350_000),
    ]
    api.get(LEADERBOARD).respond(json=page_of(rows, 3))
    result = pwc("benchmark", "--name", "imagenet", tty=True)
    lines = result.out.splitlines()
    assert lines[0] == "ImageNet"
    assert "View benchmark: https://paperswithcode.co/benchmark/imagenet" in lines
    header = next(line for line in lines if line.startswith("Rank"))
    assert header.split("  ")[0] == "Rank" and "|" not in header
    table = lines[lines.index(header) + 1 :]
    assert lines[lines.index(header) - 1] == "Published: 2021-01-01"  # alike on every row
    assert table[0].startswith("   1  Model 1 (lm-eval)  1.5B ")
    assert "  Paper 1 [2101.00001]  " in table[0] and table[0].endswith("  closed")
    assert table[1].startswith("   3  Model 3            350,000 ")
    assert table[2].startswith("  12  Model 12           —  ")
    assert result.err == "# also: ImageNet ReaL\n"


def test_leaderboard_task_column_lists_rank_scopes(pwc, api, lookup) -> None:
    rows = [
        evaluation(1, best_rank=4),
        evaluation(1, task_id="13", task_name="Few-Shot", best_rank=2, metrics={"F1": 0.5}),
    ]
    api.get(LEADERBOARD).respond(json=page_of(rows, 2))
    out = pwc("benchmark", "--name", "imagenet").out
    # listed under the scope it shares with most rows (a tie: the first seen), with that rank
    assert (
        "| 4 | Model 1 | 1M | Top 1 Accuracy: 71, F1: 0.5, Params (M): 10 | "
        "Image Classification #4; Few-Shot #2 |" in out
    )


# --- --max-parameters ---------------------------------------------------------------------


def test_max_parameters_uses_evaluations_route(pwc, api, lookup, whole_board) -> None:
    route = api.get("evaluations/").respond(
        json=fixture("evaluations_by_dataset_max_parameters.json")
    )
    result = pwc(
        "benchmark",
        "--name",
        "imagenet",
        "--max-parameters",
        "100M",
        "--is-open",
        "true",
        "--limit",
        "2",
        "--json",
    )
    assert result.code == 0, result.err
    assert params_of(route) == {
        "page": ["1"],
        "page_size": ["100"],
        "dataset_id": ["205"],
        "ordering": ["best_rank"],
        "is_open": ["true"],
        "max_parameters_exclusive": ["100000001"],
    }
    data = result.data
    assert [r["num_parameters"] for r in data["results"]] == [87000000, 60192808]
    assert data["parameter_coverage"] == {"known": 842, "total": 1184}
    assert (data["count"], data["matched_count"]) == (3, 3)


@pytest.mark.parametrize(
    ("size", "value"),
    [
        ("500M", 500_000_000),
        ("500m", 500_000_000),
        ("1.5B", 1_500_000_000),
        ("3B", 3_000_000_000),
        ("3_000_000_000", 3_000_000_000),
        ("125000000", 125_000_000),
        (" 2b ", 2_000_000_000),
    ],
)
def test_size_grammar_valid(pwc, api, lookup, whole_board, size, value) -> None:
    route = api.get("evaluations/").respond(
        json=page_of([], 0, parameter_coverage_known=0, parameter_coverage_total=0)
    )
    result = pwc("benchmark", "--name", "imagenet", "--max-parameters", size, "--json")
    assert result.code == 0, result.err
    assert params_of(route)["max_parameters_exclusive"] == [str(value + 1)]


GRAMMAR = "expected a positive integer or decimal size with M/B suffix"


@pytest.mark.parametrize(
    ("size", "message"),
    [
        ("0", "parameter size must be between 1 and 9223372036854775806"),
        ("-1", GRAMMAR),
        ("1.5", GRAMMAR),
        ("3K", GRAMMAR),
        ("3B parameters", GRAMMAR),
        ("_3B", GRAMMAR),
        ("3_B", GRAMMAR),
        ("3B_", GRAMMAR),
        ("1__000", GRAMMAR),
        ("1_.5B", GRAMMAR),
        ("1.0000001M", "parameter size must resolve to a whole number"),
        ("9223372036854775807", "parameter size must be between 1 and 9223372036854775806"),
    ],
)
def test_size_grammar_invalid(pwc, api, capsys, size, message) -> None:
    result = pwc("benchmark", "--name", "imagenet", f"--max-parameters={size}")
    assert result.code == 2 and result.out == ""
    line = capsys.readouterr().err.splitlines()[-1]
    assert line.startswith(f"pwc benchmark: error: argument --max-parameters: {message}")
    assert line.endswith("; run 'pwc benchmark --help'")
    if message == GRAMMAR:  # the message names the bad value
        assert f"got {size!r}" in line
    assert not api.calls


def test_max_parameters_requires_coverage_fields(pwc, api, lookup) -> None:
    body = fixture("evaluations_by_dataset_max_parameters.json")
    del body["parameter_coverage_known"]
    api.get("evaluations/").respond(json=body)
    result = pwc("benchmark", "--name", "imagenet", "--max-parameters", "100M")
    assert result.code == 4
    assert (
        result.err
        == "pwc: parameter filtering requires a compatible API; server must be upgraded\n"
    )


def test_max_parameters_rejects_non_integer_coverage(pwc, api, lookup) -> None:
    api.get("evaluations/").respond(
        json=page_of([], 0, parameter_coverage_known="842", parameter_coverage_total=1184)
    )
    assert pwc("benchmark", "--name", "imagenet", "--max-parameters", "1B").code == 4


@pytest.mark.parametrize("bad", [200_000_000, None, 0])
def test_max_parameters_rechecks_every_row(pwc, api, lookup, bad) -> None:
    rows = [evaluation(1), evaluation(2, num_parameters=bad)]
    api.get("evaluations/").respond(
        json=page_of(rows, 2, parameter_coverage_known=1, parameter_coverage_total=2)
    )
    result = pwc("benchmark", "--name", "imagenet", "--max-parameters", "100M")
    assert (result.code, result.err) == (
        4,
        "pwc: API returned a model outside the requested parameter limit\n",
    )


def test_max_parameters_disagreeing_siblings_fail(pwc, api, lookup) -> None:
    rows = [
        evaluation(1, num_parameters=5),
        evaluation(1, task_id="13", num_parameters=6, metrics={"F1": 1}),
    ]
    api.get("evaluations/").respond(
        json=page_of(rows, 2, parameter_coverage_known=2, parameter_coverage_total=2)
    )
    assert pwc("benchmark", "--name", "imagenet", "--max-parameters", "100M").code == 4


# --- metric mode: bounded scan ------------------------------------------------------------


def test_metric_mode_scans_all_pages(pwc, api, lookup) -> None:
    rows = [evaluation(i) for i in range(1, 251)]
    board = api.get(LEADERBOARD).mock(
        side_effect=lambda request: httpx.Response(
            200, json=page_of(rows[(int(request.url.params["page"]) - 1) * 100 :][:100], 250)
        )
    )
    result = pwc("benchmark", "--name", "imagenet", "--min", "Top 1 Accuracy=300", "--json")
    assert result.code == 0, result.err
    assert [params_of(board, i) for i in range(3)] == [
        {"page": [str(p)], "page_size": ["100"], "ordering": ["best_rank"]} for p in (1, 2, 3)
    ]
    data = result.data
    assert (data["count"], data["matched_count"], data["next_page"]) == (250, 21, 2)
    assert [r["id"] for r in data["results"]] == [f"e{i}" for i in range(230, 250)]


def test_metric_mode_pages_after_selection(pwc, api, lookup) -> None:
    rows = [evaluation(i) for i in range(1, 8)]
    api.get(LEADERBOARD).respond(json=page_of(rows, 7))
    data = pwc(
        "benchmark", "--name", "imagenet", "--sort", "top1", "--limit", "3", "--page", "2", "--json"
    ).data
    assert (data["matched_count"], data["page"], data["next_page"]) == (7, 2, 3)
    assert [r["id"] for r in data["results"]] == ["e4", "e3", "e2"]
    data = pwc(
        "benchmark", "--name", "imagenet", "--sort", "top1", "--limit", "3", "--page", "3", "--json"
    ).data
    assert (data["next_page"], [r["id"] for r in data["results"]]) == (None, ["e1"])


def test_metric_mode_refuses_more_than_1000_rows(pwc, api, lookup) -> None:
    board = api.get(LEADERBOARD).respond(json=fixture("datasets_evaluations.json"))
    result = pwc("benchmark", "--name", "imagenet", "--require-metrics", "Top 1 Accuracy")
    assert result.code == 4 and result.out == ""
    assert result.err == (
        "pwc: metric selection requires scanning 1184 evaluation rows; safety limit is 1000\n"
    )
    assert board.call_count == 1


def test_metric_mode_exactly_1000_rows_is_allowed(pwc, api, lookup) -> None:
    rows = [evaluation(i) for i in range(1, 1001)]
    board = api.get(LEADERBOARD).mock(
        side_effect=lambda request: httpx.Response(
            200, json=page_of(rows[(int(request.url.params["page"]) - 1) * 100 :][:100], 1000)
        )
    )
    result = pwc("benchmark", "--name", "imagenet", "--max", "Top 1 Accuracy=71", "--json")
    assert result.code == 0 and board.call_count == 10
    assert result.data["matched_count"] == 1


def test_metric_mode_without_count_reads_one_page(pwc, api, lookup) -> None:
    board = api.get(LEADERBOARD).respond(json=[evaluation(1), evaluation(2)])
    data = pwc("benchmark", "--name", "imagenet", "--sort", "Top 1 Accuracy:asc", "--json").data
    assert board.call_count == 1
    assert (data["count"], [r["id"] for r in data["results"]]) == (2, ["e1", "e2"])


def test_metric_mode_with_cap_follows_next_page(pwc, api, lookup, whole_board) -> None:
    coverage = {"parameter_coverage_known": 3, "parameter_coverage_total": 9}
    replies = {
        1: page_of([evaluation(1)], 3, next_page=4, **coverage),
        4: page_of([evaluation(2)], 3, next_page=7, **coverage),
        7: page_of([evaluation(3)], 3, next_page=None, **coverage),
    }
    route = api.get("evaluations/").mock(
        side_effect=lambda request: httpx.Response(
            200, json=replies[int(request.url.params["page"])]
        )
    )
    data = pwc(
        "benchmark", "--name", "imagenet", "--max-parameters", "1B", "--sort", "top-1", "--json"
    ).data
    assert [params_of(route, i)["page"] for i in range(3)] == [["1"], ["4"], ["7"]]
    assert all(params_of(route, i)["page_size"] == ["100"] for i in range(3))
    assert [r["id"] for r in data["results"]] == ["e3", "e2", "e1"]


@pytest.mark.parametrize("next_page", [1, 0])
def test_metric_mode_with_cap_stops_on_a_next_page_that_does_not_advance(
    pwc, api, lookup, whole_board, next_page
) -> None:
    route = api.get("evaluations/").respond(
        json=page_of(
            [evaluation(1)],
            5,
            next_page=next_page,
            parameter_coverage_known=1,
            parameter_coverage_total=1,
        )
    )
    result = pwc(
        "benchmark", "--name", "imagenet", "--max-parameters", "1B", "--sort", "top1", "--json"
    )
    assert result.code == 0 and route.call_count == 1
    assert result.data["ordering"]["complete"] is False
    assert result.data["ordering"]["stopped"] == "pagination did not advance"


@pytest.mark.parametrize("next_page", ["2", 1.5, True])
def test_metric_mode_with_cap_rejects_bad_next_page(pwc, api, lookup, next_page) -> None:
    api.get("evaluations/").respond(
        json=page_of(
            [evaluation(1)],
            5,
            next_page=next_page,
            parameter_coverage_known=1,
            parameter_coverage_total=1,
        )
    )
    result = pwc("benchmark", "--name", "imagenet", "--max-parameters", "1B", "--sort", "top1")
    assert (result.code, result.err) == (4, "pwc: API returned invalid evaluation pagination\n")


# --- metric mode: selection through the CLI -----------------------------------------------


def leaderboard(api: respx.MockRouter, rows: list[dict[str, Any]]) -> respx.Route:
    return api.get(LEADERBOARD).respond(json=page_of(rows, len(rows)))


def test_unknown_metric_is_usage_error(pwc, api, lookup) -> None:
    leaderboard(api, [evaluation(1), evaluation(2, metrics={"GFLOPs": 4})])
    result = pwc(
        "benchmark", "--name", "imagenet", "--require-metrics", "Latency,bleu", "--sort", "latency"
    )
    assert result.code == 2 and result.out == ""
    assert result.err == (
        "pwc: unknown metric(s): latency, bleu; available metrics: GFLOPs, "
        "Params (M), Top 1 Accuracy\n"
    )


def test_ambiguous_metric_is_a_usage_error(pwc, api, lookup) -> None:
    leaderboard(api, [evaluation(1, metrics={"Top 1 Accuracy": 1, "Top 5 Accuracy": 2})])
    result = pwc("benchmark", "--name", "imagenet", "--min", "Top=1")
    assert result.code == 2  # like an unknown metric: the user names one of the candidates
    assert result.err == (
        "pwc: metric is ambiguous: Top; candidates: Top 1 Accuracy, Top 5 Accuracy\n"
    )


def test_min_max_require_and_aliases(pwc, api, lookup) -> None:
    rows = [evaluation(i) for i in range(1, 6)] + [evaluation(6, metrics={"Top 1 Accuracy": 99})]
    leaderboard(api, rows)
    data = pwc(
        "benchmark",
        "--name",
        "imagenet",
        "--min",
        "accuracy=72",
        "--max",
        "top1=74.5",
        "--require-metrics",
        "params",
        "--json",
    ).data
    # the alias table maps accuracy/top1 to "Top 1 Accuracy"; "params" is contained in "Params (M)"
    assert [r["id"] for r in data["results"]] == ["e2", "e3", "e4"]
    assert data["matched_count"] == 3


def test_pareto_through_cli(pwc, api, lookup) -> None:
    rows = [
        evaluation(1, metrics={"Accuracy": 90, "Latency": 100}),
        evaluation(2, metrics={"Accuracy": 85, "Latency": 50}),
        evaluation(3, metrics={"Accuracy": 80, "Latency": 60}),
        evaluation(4, metrics={"Accuracy": 70, "Latency": 10}),
    ]
    leaderboard(api, rows)
    result = pwc(
        "benchmark", "--name", "imagenet", "--pareto", "latency:lower,accuracy:higher", "--json"
    )
    assert [r["id"] for r in result.data["results"]] == ["e4", "e2", "e1"]
    assert result.data["metric_directions"] == {"Accuracy": "higher", "Latency": "lower"}
    human = pwc("benchmark", "--name", "imagenet", "--pareto", "latency:lower,accuracy:higher")
    assert "3 of 4 merged rows match (4 evaluation rows); all shown." in human.out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--require-metrics", " , "], "argument --require-metrics: metric list must not be empty"),
        (["--min", "acc"], "argument --min: expected METRIC=VALUE"),
        (["--max", "acc=high"], "argument --max: metric threshold must be numeric"),
        (["--sort", ":desc"], "argument --sort: expected METRIC[:asc|desc|higher|lower]"),
        (
            ["--pareto", "acc:higher"],
            "argument --pareto: Pareto selection requires at least two metrics",
        ),
        (["--pareto", "acc:up,b:lower"], "argument --pareto: expected METRIC:higher,METRIC:lower"),
        (["--limit", "101"], "argument --limit/--page-size: --limit must be 1-100"),
        (["--page-size", "0"], "argument --limit/--page-size: --limit must be 1-100"),
        (["--page", "0"], "argument --page: --page must be 1-100"),
    ],
)
def test_leaderboard_flag_validation(pwc, api, capsys, argv, message) -> None:
    result = pwc("benchmark", "--name", "imagenet", *argv)
    assert result.code == 2
    assert (
        capsys.readouterr().err.splitlines()[-1]
        == f"pwc benchmark: error: {message}; run 'pwc benchmark --help'"
    )
    assert not api.calls


# --- benchmark list -----------------------------------------------------------------------


@pytest.fixture
def datasets(api: respx.MockRouter) -> respx.Route:
    return api.get("datasets/").respond(json=fixture("datasets_list.json"))


def test_list_default_captured_is_tsv(pwc, datasets) -> None:
    result = pwc("benchmark", "list")
    assert result.code == 0
    assert params_of(datasets) == {
        "page": ["1"],
        "page_size": ["50"],
        "include_descendants": ["false"],
        "ordering": ["name"],
    }
    lines = result.out.splitlines()
    assert lines[0].split("\t") == ["id", "name", "description", "hf_url", "full_name", "evals"]
    assert lines[1].startswith("205\tImageNet\t") and lines[1].endswith("\t1184")
    assert lines[2].startswith("219\tImageNet ReaL\t") and lines[2].endswith("\t96")
    assert result.err == ""


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--order-dir", "desc"], "-name"),
        (["--order-by", "paper_count", "--order-dir", "desc"], "-paper_count"),
        (["--order-by", "created_at"], "created_at"),
        (["--order-by", "full_name", "--order-dir", "asc"], "full_name"),
    ],
)
def test_list_ordering_never_minus_none(pwc, datasets, argv, expected) -> None:
    assert pwc("benchmark", "list", *argv, "--json").code == 0
    assert params_of(datasets)["ordering"] == [expected]
    assert "None" not in str(datasets.calls[-1].request.url)


def test_list_flat_filters_are_sent(pwc, datasets) -> None:
    result = pwc(
        "benchmark",
        "list",
        "--search",
        "image net",
        "--task",
        "image-classification",
        "--order-by",
        "name",
        "--include-descendants",
        "--min-eval-count",
        "5",
        "--is-open",
        "true",
        "--page",
        "2",
        "--limit",
        "10",
        "--json",
    )
    assert result.code == 0
    assert params_of(datasets) == {
        "page": ["2"],
        "page_size": ["10"],
        "q": ["image net"],
        "task": ["image-classification"],
        "include_descendants": ["true"],
        "min_eval_count": ["5"],
        "is_open": ["true"],
        "ordering": ["name"],
    }
    assert result.data == fixture("datasets_list.json")


def test_list_flat_more_hint(pwc, api) -> None:
    body = fixture("datasets_list.json")
    body["count"] = 9
    api.get("datasets/").respond(json=body)
    assert pwc("benchmark", "list", "--page-size", "4").err == "# more: rerun with --page 2\n"
    assert pwc("benchmark", "list", "--page-size", "4", "--page", "3").err == ""


def test_list_task_uses_trends(pwc, api) -> None:
    route = api.get("tasks/image-classification/trending-benchmarks").respond(
        json=fixture("task_trending_benchmarks.json")
    )
    result = pwc("benchmark", "list", "--task", "image-classification", "--json")
    assert params_of(route) == {
        "limit": ["100"],
        "min_recent_papers": ["0"],
        "include_descendants": ["false"],
    }
    data = result.data
    assert data["task_id"] == "12" and data["count"] == 3 and data["next_page"] is None
    assert [r["id"] for r in data["results"]] == ["205", "207", "219"]


def test_list_task_client_side_filters_and_paging(pwc, api) -> None:
    route = api.get(url__regex=r"/tasks/Image%20Classification/trending-benchmarks").respond(
        json=fixture("task_trending_benchmarks.json")
    )
    data = pwc(
        "benchmark",
        "list",
        "--task",
        "Image Classification",
        "--order-by",
        "trending",
        "--search",
        "IMAGENET",
        "--is-open",
        "false",
        "--include-descendants",
        "--page-size",
        "1",
        "--json",
    ).data
    assert params_of(route) == {
        "limit": ["100"],
        "min_recent_papers": ["0"],
        "include_descendants": ["true"],
        "is_open": ["false"],
    }
    assert (data["count"], [r["id"] for r in data["results"]], data["next_page"]) == (2, ["205"], 2)
    data = pwc(
        "benchmark",
        "list",
        "--task",
        "Image Classification",
        "--min-eval-count",
        "600",
        "--page",
        "2",
        "--page-size",
        "1",
        "--json",
    ).data
    assert (data["count"], [r["id"] for r in data["results"]], data["next_page"]) == (
        2,
        ["207"],
        None,
    )


def test_list_task_table_and_hint(pwc, api) -> None:
    body = fixture("task_trending_benchmarks.json")
    del body["results"][1]["support_weighted_score"]  # falls back to trend_score
    api.get("tasks/12/trending-benchmarks").respond(json=body)
    result = pwc("benchmark", "list", "--task", "12", "--page-size", "2")
    lines = result.out.splitlines()
    assert lines[0] == (  # the TSV header, as printed
        "id\tslug\tname\tdescription\thf_url\trecent_papers\tranking_score\tbest_model\t"
        "paper_title\tcode"
    )
    assert "\t4.1187\tCoCa (finetuned)\t" in lines[1]
    assert "\t0.0171\tViT-H/14\t" in lines[2]
    assert len(lines) == 3
    assert result.err == "# more: rerun with --page 2\n"


@pytest.mark.parametrize("body", [[], {"results": None}, {"items": []}])
def test_list_task_trends_shape(pwc, api, body) -> None:
    api.get("tasks/ocr/trending-benchmarks").respond(json=body)
    result = pwc("benchmark", "list", "--task", "ocr")
    assert (result.code, result.err) == (4, "pwc: API response did not contain benchmark trends\n")


def test_list_trending_requires_task(pwc, api) -> None:
    result = pwc("benchmark", "list", "--order-by", "trending")
    assert (result.code, result.err) == (2, "pwc: --order-by trending requires --task\n")
    assert not api.calls


def test_list_grouped(pwc, api) -> None:
    route = api.get("areas/with-task-benchmarks/").respond(
        json=fixture("areas_with_task_benchmarks.json")
    )
    result = pwc("benchmark", "list", "--group-by-area")
    assert params_of(route) == {"benchmarks_per_task": ["3"], "min_eval_count": ["2"]}
    assert result.out.startswith(
        "# Area: Vision\n\nInspect a benchmark with `pwc benchmark --name SLUG`.\n\n"
        "## Image Classification (`image-classification`)\n\n"
        "- ImageNet — description: 1,000-class object recognition on the ILSVRC-2012 validation "
        "set.; HF: https://huggingface.co/datasets/ILSVRC/imagenet-1k; full name: ImageNet Large "
        "Scale Visual Recognition Challenge 2012; slug: `imagenet`; ID: `205`; 1,184 evaluations\n"
        "- CIFAR-10 — description: 60k 32x32 colour images in 10 classes.; HF: "
        "https://huggingface.co/datasets/uoft-cs/cifar10; slug: `cifar-10`; ID: `207`; "
        "642 evaluations\n\n# Area: Natural Language Processing\n"
    )
    assert result.err == ""
    data = pwc("benchmark", "list", "--group-by-area", "--json").data
    # plus the number of benchmarks listed, so an empty grouping says 0
    assert data == {"count": 3, "results": fixture("areas_with_task_benchmarks.json")["results"]}


def test_list_grouped_bullet_parts_and_defaults(pwc, api) -> None:
    body = {
        "results": [
            {
                "id": "9",
                "name": None,
                "tasks": [
                    {
                        "name": "T",
                        "slug": "t",
                        "benchmarks": [
                            {
                                "id": "1",
                                "name": "B",
                                "slug": "b",
                                "full_name": "B",
                                "evaluation_count": 1,
                            }
                        ],
                    },
                    {"name": "U", "slug": "u", "benchmarks": []},
                ],
            }
        ]
    }
    route = api.get("areas/with-task-benchmarks/").respond(json=body)
    out = pwc(
        "benchmark",
        "list",
        "--group-by-area",
        "--benchmarks-per-task",
        "5",
        "--min-eval-count",
        "0",
    ).out
    assert params_of(route) == {"benchmarks_per_task": ["5"], "min_eval_count": ["0"]}
    assert out == (
        "# Area: Uncategorized\n\nInspect a benchmark with `pwc benchmark --name SLUG`."
        "\n\n## T (`t`)\n\n- B — slug: `b`; ID: `1`; 1 evaluation\n"  # U has none: left out
    )


def test_list_area_filter(pwc, api) -> None:
    api.get("areas/with-task-benchmarks/").respond(json=fixture("areas_with_task_benchmarks.json"))
    api.get("areas/").respond(json=fixture("areas_list.json"))
    data = pwc("benchmark", "list", "--area", "natural language processing", "--json").data
    assert [a["name"] for a in data["results"]] == ["Natural Language Processing"]
    assert [a["id"] for a in pwc("benchmark", "list", "--area", "1", "--json").data["results"]] == [
        "1"
    ]
    slug = pwc("benchmark", "list", "--area", "Natural-Language-Processing", "--json").data
    assert [a["id"] for a in slug["results"]] == ["2"]
    result = pwc("benchmark", "list", "--area", "Nowhere")
    assert result.code == 4
    assert result.err == (
        "pwc: Area not found: Nowhere; available areas: Audio, General, "
        "Natural Language Processing, Reinforcement Learning, Vision\n"
    )


def test_list_area_without_benchmarks_is_empty_not_unknown(pwc, api) -> None:
    """Audio is an area of the catalog (list_tasks shows it) that has no benchmark yet: the
    grouped listing is empty with a count of 0, never `Area not found`."""
    api.get("areas/with-task-benchmarks/").respond(json=fixture("areas_with_task_benchmarks.json"))
    api.get("areas/").respond(json=fixture("areas_list.json"))
    result = pwc("benchmark", "list", "--area", "audio", "--json")
    assert (result.code, result.data) == (0, {"count": 0, "results": []})
    human = pwc("benchmark", "list", "--area", "Audio")
    assert (human.code, human.out, human.err) == (0, "", "# no results; drop --area\n")


@pytest.mark.parametrize(
    "argv",
    [
        ["--task", "ocr"],
        ["--search", "x"],
        ["--page", "2"],
        ["--limit", "10"],
        ["--order-dir", "desc"],
        ["--is-open", "true"],
        ["--include-descendants"],
        ["--order-by", "name"],
    ],
)
def test_list_area_with_flat_filters_is_usage_error(pwc, api, argv) -> None:
    result = pwc("benchmark", "list", "--area", "Vision", *argv)
    assert result.code == 2
    assert result.err == "pwc: --area cannot be combined with task/search/pagination filters\n"
    assert not api.calls


def test_list_flat_with_area_is_usage_error(pwc, api) -> None:
    result = pwc("benchmark", "list", "--flat", "--area", "Vision")
    assert result.code == 2 and "--area cannot be combined with --flat" in result.err
    assert not api.calls


def test_list_group_by_area_ignored_note(pwc, api) -> None:
    route = api.get("tasks/ocr/trending-benchmarks").respond(
        json=fixture("task_trending_benchmarks.json")
    )
    result = pwc("benchmark", "list", "--group-by-area", "--task", "ocr")
    assert result.code == 0 and route.called
    assert result.err == "# filters select task-scoped flat output; --group-by-area ignored\n"
    json_result = pwc("benchmark", "list", "--group-by-area", "--task", "ocr", "--json")
    assert json_result.err == "" and json_result.data["count"] == 3


def test_list_group_and_flat_are_exclusive(pwc, api, capsys) -> None:
    result = pwc("benchmark", "list", "--group-by-area", "--flat")
    assert result.code == 2
    assert "argument --flat: not allowed with argument --group-by-area" in capsys.readouterr().err


def test_list_rejects_parent_max_parameters(pwc, api) -> None:
    result = pwc("benchmark", "--max-parameters", "3B", "list")
    assert (result.code, result.err) == (
        2,
        "pwc: --max-parameters is only valid with benchmark --name\n",
    )
    assert not api.calls


def test_list_limit_alias_validation(pwc, api, capsys) -> None:
    result = pwc("benchmark", "list", "--limit", "0")
    assert result.code == 2
    assert "argument --limit/--page-size: --limit must be 1-100" in capsys.readouterr().err


def test_list_flat_view_forced_in_terminal(pwc, datasets) -> None:
    result = pwc("benchmark", "list", "--flat", tty=True)
    assert result.code == 0 and datasets.called
    assert result.out.splitlines()[0].split() == [
        "id",
        "name",
        "description",
        "hf_url",
        "full_name",
        "evals",
    ]


def test_list_terminal_and_pipe_get_the_same_rows(pwc, api, datasets) -> None:
    """Grouping is asked for (--group-by-area), never implied by a terminal."""
    grouped = api.get("areas/with-task-benchmarks/")
    piped, shown = pwc("benchmark", "list"), pwc("benchmark", "list", tty=True)
    assert not grouped.called and datasets.call_count == 2
    ids = [line.split("\t")[0] for line in piped.out.splitlines()[1:]]
    assert [line.split()[0] for line in shown.out.splitlines()[1:]] == ids
    assert "\t" not in shown.out and shown.out.splitlines()[0].split() == (
        piped.out.splitlines()[0].split("\t")
    )
