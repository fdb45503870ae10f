"""SOTA over time (`pwc benchmark --name NAME --timeline [--metric METRIC]`, README "SOTA over
time"): through the real CLI against the sample catalog on loopback, plus the record rule itself
(pwc_core.timeline) over rows written here."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from pwc_core.timeline import publication_date, sota_timeline
from pwc_mcp.sample import RunningCatalog
from tests.helpers.cli import run_cli

PTB = "Penn Treebank (Word Level)"


def run(sample: RunningCatalog, *argv: str) -> tuple[int, str, str]:
    result = run_cli(sample.url, argv)
    return result.code, result.out, result.err


def payload(sample: RunningCatalog, *argv: str) -> dict[str, Any]:
    code, out, err = run(sample, "benchmark", *argv, "--json")
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)["data"]
    return data


def timeline(sample: RunningCatalog, *argv: str) -> dict[str, Any]:
    found: dict[str, Any] = payload(sample, *argv, "--timeline")["timeline"]
    return found


def records(found: dict[str, Any]) -> list[tuple[str, float, float | None, str]]:
    return [(r["date"], r["value"], r["improvement"], r["model_name"]) for r in found["records"]]


# --- the questions, end to end ------------------------------------------------------------


def test_word_level_perplexity_on_penn_treebank_year_by_year(sample: RunningCatalog) -> None:
    found = timeline(sample, "--name", PTB)
    assert {k: v for k, v in found.items() if k != "records"} == {
        "metric": "Test perplexity",
        "direction": "lower",
        "considered": 13,
        "undated": 0,
        "complete": True,
    }
    # Transformer-XL (54.52, 2019) does not beat MoS (54.44, 2017); the medium LSTM, NAS 25M,
    # MoS without finetuning and GPT-2 117M lose to a better row of the same day.
    assert records(found) == [
        ("2014-09-08", 78.4, None, "LSTM (large, regularized)"),
        ("2015-12-16", 73.4, 5.0, "Variational LSTM (large, MC dropout)"),
        ("2016-07-12", 65.4, 8.0, "Variational RHN + weight tying"),
        ("2016-11-05", 62.4, 3.0, "NAS Cell (54M)"),
        ("2017-08-07", 57.3, 5.1, "AWD-LSTM"),
        ("2017-11-10", 54.44, 2.86, "AWD-LSTM-MoS + finetune"),
        ("2019-02-14", 35.76, 18.68, "GPT-2 1.5B (zero-shot)"),
        ("2020-05-28", 20.5, 15.26, "GPT-3 175B (zero-shot)"),
    ]
    assert found["records"][0] == {
        "date": "2014-09-08",
        "value": 78.4,
        "model_name": "LSTM (large, regularized)",
        "paper_id": "27115",
        "paper_title": "Recurrent Neural Network Regularization",
        "paper_arxiv_id": "1409.2329",
        "num_parameters": 66_000_000,
        "is_open": True,
        "evaluation_id": "508401",
        "improvement": None,
    }
    gpt2 = found["records"][6]
    assert (gpt2["paper_arxiv_id"], gpt2["paper_id"]) == (None, "54766")  # no arXiv ID


def test_the_best_open_model_under_1b_on_imagenet_over_time(sample: RunningCatalog) -> None:
    data = payload(
        sample, "--name", "ImageNet", "--is-open", "true", "--max-parameters", "1B", "--timeline"
    )
    found = data["timeline"]
    assert [(r["date"], r["value"], r["model_name"]) for r in found["records"]] == [
        ("2015-12-10", 78.57, "ResNet-152 (10-crop)"),
        ("2019-05-28", 84.3, "EfficientNet-B7"),
        ("2020-10-22", 87.76, "ViT-L/16"),
    ]
    assert all(r["is_open"] and r["num_parameters"] <= 10**9 for r in found["records"])
    assert found["considered"] == data["matched_count"]  # every filtered row reports Top-1
    # Without the filters the closed ViT-H/14 (88.55, the same day) holds the last record.
    assert timeline(sample, "--name", "ImageNet")["records"][-1]["model_name"] == "ViT-H/14"


def test_openness_and_size_choose_the_records_on_penn_treebank(sample: RunningCatalog) -> None:
    found = timeline(sample, "--name", PTB, "--is-open", "true", "--max-parameters", "1B")
    # NAS (openness unknown), GPT-2 1.5B and GPT-3 (closed, 175B) are filtered out first.
    assert [(r["value"], r["improvement"]) for r in found["records"]] == [
        (78.4, None),
        (73.4, 5.0),
        (65.4, 8.0),
        (57.3, 8.1),
        (54.44, 2.86),
    ]
    assert found["considered"] == 9


@pytest.mark.parametrize("request_name", ["valid", "VALIDATION PERPLEXITY"])
def test_a_named_metric_resolves_like_the_metric_flags(
    sample: RunningCatalog, request_name: str
) -> None:
    found = timeline(sample, "--name", PTB, "--metric", request_name)
    assert (found["metric"], found["direction"], found["considered"]) == (
        "Validation perplexity",
        "lower",
        7,
    )
    assert [r["value"] for r in found["records"]] == [82.2, 67.9, 60.0, 56.54]


def test_metric_filters_apply_before_the_records(sample: RunningCatalog) -> None:
    found = timeline(sample, "--name", PTB, "--require-metrics", "Validation perplexity")
    assert (found["metric"], found["considered"]) == ("Test perplexity", 7)
    assert [r["value"] for r in found["records"]] == [78.4, 65.4, 57.3, 54.44]
    found = timeline(sample, "--name", PTB, "--max", "Test perplexity=60")
    assert records(found)[0] == ("2017-08-07", 57.3, None, "AWD-LSTM")


def test_the_text_lists_the_records_after_the_leaderboard_header(sample: RunningCatalog) -> None:
    code, out, err = run(sample, "benchmark", "--name", PTB, "--timeline")
    assert (code, err) == (0, "")
    assert out.startswith("# Penn Treebank (Word Level)\n")
    assert "13 of 13 merged rows match (13 evaluation rows).\n" in out
    assert "showing rows" not in out  # the page of rows is not printed, so not announced
    assert (
        "## SOTA over time\n\n8 records of Test perplexity (lower is better) among 13 rows" in out
    )
    assert (
        "| Date | Value | Improvement | Model | Paper |\n| --- | ---: | ---: | --- | --- |\n" in out
    )
    assert (
        "| 2014-09-08 | 78.4 | — | LSTM (large, regularized) | [Recurrent Neural Network "
        "Regularization](https://paperswithcode.co/paper/1409.2329) |\n"
    ) in out
    assert "| 2017-08-07 | 57.3 | 5.1 | AWD-LSTM |" in out
    assert "| Rank |" not in out  # the records take the place of the leaderboard table
    assert out.count("\n| 20") == 8


def test_without_timeline_the_payload_has_none(sample: RunningCatalog) -> None:
    assert "timeline" not in payload(sample, "--name", PTB)
    assert "timeline" not in payload(sample, "--name", PTB, "--sort", "Test perplexity:asc")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--timeline", "--sort", "Test perplexity"],
            "--timeline cannot be combined with --sort: records are ordered by publication date",
        ),
        (
            ["--timeline", "--pareto", "Test perplexity:lower,Validation perplexity:lower"],
            "--timeline cannot be combined with --pareto: the frontier drops past records",
        ),
        (["--metric", "Test perplexity"], "--metric is only valid with --timeline"),
        (
            ["--timeline", "--metric", "bleu"],
            "unknown metric(s): bleu; available metrics: Test perplexity, Validation perplexity",
        ),
        (
            ["--timeline", "--metric", "perplexity"],
            "metric is ambiguous: perplexity; candidates: Test perplexity, Validation perplexity",
        ),
        (["--timeline", "--metric", " "], "--metric must name a metric"),
    ],
)
def test_refused_requests_say_why(sample: RunningCatalog, argv: list[str], message: str) -> None:
    code, out, err = run(sample, "benchmark", "--name", PTB, *argv)
    assert (code, out) == (2, "")
    assert err.startswith(f"pwc: {message}"), err


# --- the record rule ----------------------------------------------------------------------


def row(i: int, value: Any, date: Any, **fields: Any) -> dict[str, Any]:
    return {
        "id": f"e{i}",
        "paper_id": f"p{i}",
        "model_name": f"Model {i}",
        "paper_published_date": date,
        "metrics": {"Score": value},
        **fields,
    }


def test_undated_rows_are_counted_and_left_out_never_guessed() -> None:
    rows = [
        row(1, 50, "2019-05-01T10:00:00Z"),  # a timestamp: its day
        row(2, 90, None),
        row(3, 91, ""),
        row(4, 92, "2019-02-30"),  # no such day
        row(5, 93, "May 2019"),
        row(6, 94, 20190501),
        row(7, "60%", "2020-01-01"),
        row(8, math.nan, "2021-01-01"),  # not a value: not considered at all
        row(9, None, "2021-01-01"),
    ]
    found = sota_timeline(rows, ("Score", "higher"), complete=True)
    assert (found["considered"], found["undated"]) == (7, 5)
    assert [(r["date"], r["value"], r["improvement"]) for r in found["records"]] == [
        ("2019-05-01", 50.0, None),
        ("2020-01-01", 60.0, 10.0),
    ]


def test_a_record_must_be_strictly_better_and_a_day_starts_with_its_best() -> None:
    rows = [
        row(1, 10.0, "2020-01-01"),
        row(2, 12.0, "2020-01-01"),  # the same day, better: the day's record
        row(3, 12.0, "2021-01-01"),  # a tie is no record
        row(4, 11.0, "2019-06-01"),  # older: the first record
        row(5, 12.3, "2022-01-01"),
    ]
    found = sota_timeline(rows, ("Score", "higher"), complete=False)
    assert [(r["evaluation_id"], r["improvement"]) for r in found["records"]] == [
        ("e4", None),
        ("e2", 1.0),
        ("e5", 0.3),  # decimal arithmetic: 12.3 - 12.0 is 0.3, not 0.3000000000000007
    ]
    assert found["complete"] is False
    lower = sota_timeline(rows, ("Score", "lower"), complete=True)
    assert [(r["evaluation_id"], r["improvement"]) for r in lower["records"]] == [
        ("e4", None),
        ("e1", 1.0),
    ]


def test_hostile_fields_become_plain_values() -> None:
    found = sota_timeline(
        [row(1, 5, "2020-01-01", paper_id=7, num_parameters=True, is_open="yes", paper_title=[1])],
        ("Score", "higher"),
        complete=True,
    )
    record = found["records"][0]
    assert (record["paper_id"], record["num_parameters"], record["is_open"]) == ("7", None, None)
    assert record["paper_title"] is None
    assert publication_date({"paper_published_date": "2020-01-01" + " " * 100}) is None
    assert sota_timeline([], None, complete=True) == {
        "metric": None,
        "direction": None,
        "records": [],
        "considered": 0,
        "undated": 0,
        "complete": True,
    }
