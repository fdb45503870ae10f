"""`pwc paper evaluations PAPER --against-sota` (issue #18, item 2): each of the paper's rows
against today's best of its benchmark and task scope, over the real sample catalog on loopback,
plus the comparison's rules on rows written out here (pwc_core/standing.py)."""

from __future__ import annotations

import shlex
from typing import Any

from pwc_core import deadline
from pwc_core.standing import (
    DEADLINE,
    DIRECTION_UNKNOWN,
    INCOMPLETE,
    NOT_REPORTED,
    Board,
    compare,
    gap,
)
from tests.helpers.cli import Result, run_cli

QUESTION = "paper evaluations 1706.03762 --against-sota"


def pwc(sample: Any, line: str, *, tty: bool = False) -> Result:
    return run_cli(sample.url, shlex.split(line), tty=tty, width=200)


def by_model(data: dict[str, Any], dataset: str) -> dict[str, dict[str, Any]]:
    return {r["model_name"]: r for r in data["results"] if r["dataset_name"] == dataset}


def test_the_original_transformer_against_todays_best_on_wmt_2014_english_german(sample) -> None:
    """How far is the original Transformer from today's best on WMT 2014 English-German?"""
    result = pwc(sample, QUESTION + " --json")
    assert result.code == 0, result.err
    rows = by_model(result.data, "WMT2014 English-German")
    assert rows["Transformer Big"]["sota"] == {
        "metric": "BLEU score",
        "direction": "higher",
        "value": 35.0,
        "gap": 6.6,  # decimal arithmetic: not 6.600000000000001
        "rank": 6,
        "of": 7,
        "model_name": "Transformer Big + BT",
        "paper_title": "Understanding Back-Translation at Scale",
        "paper_id": "52108",
        "uses_additional_data": True,  # back-translated monolingual data: said with the best
        "protocol": None,
    }
    assert (rows["Transformer Base"]["sota"]["gap"], rows["Transformer Base"]["sota"]["rank"]) == (
        7.7,
        7,
    )
    # the best of its own scope: gap 0, rank 1 (Penn Treebank, constituency parsing)
    parsing = by_model(result.data, "Penn Treebank")["Transformer (semi-supervised)"]["sota"]
    assert (parsing["gap"], parsing["rank"], parsing["of"]) == (0.0, 1, 2)
    assert result.data["against_sota"] == {"benchmarks": 3, "pages_read": 3, "unavailable": []}


def test_the_table_gains_best_gap_and_rank_of_n(sample) -> None:
    piped = pwc(sample, QUESTION)
    assert piped.code == 0 and piped.err == ""
    header, first = piped.out.splitlines()[:2]
    assert header.split("\t")[3:6] == ["best", "gap", "rank"]
    cells = first.split("\t")
    assert cells[:2] == ["WMT2014 English-German", "Transformer Big"]
    assert cells[3:6] == ["35 (Transformer Big + BT, extra training data)", "6.6", "6/7"]
    terminal = pwc(sample, QUESTION, tty=True).out
    assert "35 (Transformer Big + BT, extra training data)" in terminal and "6/7" in terminal


def test_one_leaderboard_lookup_per_benchmark_and_none_without_the_flag(sample) -> None:
    sample.stats.reset()
    assert pwc(sample, QUESTION + " --json").code == 0
    lookups = {p: n for p, n in sample.stats.requests.items() if p.startswith("datasets/")}
    assert lookups == {
        "datasets/402/evaluations/": 1,
        "datasets/403/evaluations/": 1,
        "datasets/455/evaluations/": 1,
    }
    sample.stats.reset()
    plain = pwc(sample, "paper evaluations 1706.03762 --json")
    assert not any(p.startswith("datasets/") for p in sample.stats.requests)
    assert all("sota" not in r and "sota_unavailable" not in r for r in plain.data["results"])
    assert "against_sota" not in plain.data


def test_a_failed_lookup_is_said_for_its_benchmark_and_the_others_are_compared(sample) -> None:
    sample.faults.fail(503, times=5, path_prefix="datasets/402/evaluations")
    try:
        result = pwc(sample, QUESTION + " --json")
        piped = pwc(sample, QUESTION)
    finally:
        sample.faults.reset()
    assert result.code == 0, result.err
    english_german = by_model(result.data, "WMT2014 English-German")
    assert {r.get("sota_unavailable") for r in english_german.values()} == {
        "lookup failed (HTTP 503)"
    }
    assert all("sota" not in r for r in english_german.values())
    assert all("sota" in r for r in by_model(result.data, "WMT2014 English-French").values())
    assert result.data["against_sota"]["unavailable"] == [
        {
            "dataset_id": "402",
            "dataset_name": "WMT2014 English-German",
            "task_id": "88",
            "task_name": "Machine Translation",
            "reason": "lookup failed (HTTP 503)",
        }
    ]
    assert "injected failure" not in result.out  # the catalog's words never reach the row
    assert piped.code == 0
    assert (
        "# not compared: WMT2014 English-German (Machine Translation): lookup failed (HTTP 503)"
        in piped.err
    )
    assert piped.out.splitlines()[1].split("\t")[3:6] == ["— (lookup failed (HTTP 503))", "", "6"]


def test_no_lookup_starts_with_too_little_of_the_deadline_left(sample) -> None:
    sample.stats.reset()
    with deadline.within(4.0):  # under the 5 s reserve: the paper's own rows, no lookups
        result = pwc(sample, QUESTION + " --json")
    assert result.code == 0, result.err
    assert not any(p.startswith("datasets/") for p in sample.stats.requests)
    assert {r["sota_unavailable"] for r in result.data["results"]} == {DEADLINE}


# --- the comparison's rules, on rows written out here -----------------------------------------


def row(model: str, rank: int | None, task: str = "7", paper: str = "1", **metrics: Any) -> dict:
    return {
        "paper_id": paper,
        "dataset_id": "5",
        "dataset_name": "Bench",
        "model_name": model,
        "metrics": metrics,
        "best_metric": next(iter(metrics), None),
        "best_rank": rank,
        "task_id": task,
        "task_name": "Task",
    }


def board(*rows: dict[str, Any], complete: bool = True) -> Board:
    from pwc_core.merging import merge_rows

    return Board("5", list(rows), len(rows), 1, complete, None, merge_rows(list(rows)))


def test_lower_is_better_metrics_count_the_gap_the_other_way() -> None:
    mine = row("mine", 2, **{"Test perplexity": 58.3})
    leader = row("leader", 1, paper="2", **{"Test perplexity": 54.55})
    sota = compare(mine, board(leader, mine))["sota"]
    assert (sota["value"], sota["gap"], sota["rank"], sota["of"]) == (54.55, 3.75, 2, 2)
    assert sota["direction"] == "lower" and sota["model_name"] == "leader"


def test_rows_that_cannot_be_compared_say_why() -> None:
    odd = row("odd", 1, **{"Zorblax": 3.0})
    assert compare(odd, board(odd)) == {"sota_unavailable": DIRECTION_UNKNOWN}
    textual = row("textual", 1, **{"Accuracy": "n/a"})
    assert compare(textual, board(textual)) == {"sota_unavailable": NOT_REPORTED}


def test_an_incomplete_leaderboard_still_answers_the_metric_it_is_ranked_by() -> None:
    """Only the sorted first page was read: its rank-1 row is the best, the rank is the
    catalog's, and how many rows the scope holds is unknown."""
    mine = row("mine", 40, **{"Accuracy": 80.0})
    leader = row("leader", 1, paper="2", **{"Accuracy": 91.5})
    partial = board(leader, row("next", 2, paper="3", **{"Accuracy": 90.0}), complete=False)
    sota = compare(mine, partial)["sota"]
    assert (sota["value"], sota["gap"], sota["rank"], sota["of"]) == (91.5, 11.5, 40, None)
    # another metric than the scope's ranked one cannot be read off the catalog's order
    other = row("mine", 40, **{"F1": 70.0})
    assert compare(other, partial) == {"sota_unavailable": INCOMPLETE}


def test_ties_share_a_rank_and_the_gap_is_never_negative() -> None:
    mine = row("mine", 1, **{"BLEU": 30.0})
    twin = row("twin", 1, paper="2", **{"BLEU": 30.0})
    sota = compare(mine, board(twin, mine))["sota"]
    assert (sota["gap"], sota["rank"], sota["of"]) == (0.0, 1, 2)
    assert gap(1.0, 2.0, "higher") == 0.0 and gap(0.3, 0.1, "higher") == 0.2
