"""Errors and empty results in the tool's own words (issue #16): "closest results" ranked by
similarity to what was asked, area names that agree across commands, and empty results that
say 0. Against the sample catalog on loopback."""

from __future__ import annotations

import json
import shlex

import pytest

from pwc_core.commands.common import resolve_area
from pwc_core.replies import extract_rows
from pwc_core.suggest import closest
from pwc_mcp.sample import RunningCatalog
from tests.helpers.cli import run_cli


def run(sample: RunningCatalog, argv: str) -> tuple[int, str, str]:
    result = run_cli(sample.url, shlex.split(argv))
    return result.code, result.out, result.err


@pytest.mark.parametrize(
    ("argv", "suggested"),
    [
        # before: "ICLR 2022, ICCV 2021, ICLR 2021" (the catalog's first three)
        ("conference --name neurips", "NeurIPS 2021, NeurIPS 2020, NeurIPS 2019"),
        ("conference --name 'nips 2017'", "NeurIPS 2017, CVPR 2017, ICCV 2017"),
        ("conference --name 'iclr 2020'", "ICLR 2022, ICLR 2021, ICLR 2017"),
        ("organization --name googl", "Google, Google DeepMind"),
        ("framework --name pytorh", "PyTorch"),
    ],
)
def test_closest_results_are_ranked_by_similarity(
    sample: RunningCatalog, argv: str, suggested: str
) -> None:
    code, out, err = run(sample, argv)
    typed = shlex.split(argv)[-1]
    assert (code, out) == (4, "")
    assert err.endswith(f"not found: {typed}; closest results: {suggested}\n"), err


def test_closest_leaves_out_the_unrelated_once_some_are_alike() -> None:
    names = ["CIFAR-10", "ImageNet ReaL", "WMT2014 English-German", "ImageNet"]
    assert closest("ImageNe", names) == ["ImageNet", "ImageNet ReaL"]
    assert closest("zzz", ["Alpha", "Beta"]) == ["Alpha", "Beta"]  # nothing alike: catalog order


@pytest.mark.parametrize("typed", ["Audio", "audio", "6", "NATURAL-language-processing"])
def test_area_names_agree_across_commands(sample: RunningCatalog, typed: str) -> None:
    # before: `benchmark list --area Audio` said "Area not found" for an area `task list` shows
    for command in ("task list --group-by-area", "method list", "benchmark list"):
        code, _, err = run(sample, f"{command} --area '{typed}' --json")
        assert code == 0, (command, err)


def test_an_area_without_benchmarks_is_empty_and_counted(sample: RunningCatalog) -> None:
    code, out, _ = run(sample, "benchmark list --area Audio --json")
    assert (code, json.loads(out)["data"]) == (0, {"count": 0, "results": []})


def test_resolve_area_by_slug() -> None:
    areas = {"2": "Natural Language Processing"}
    assert resolve_area(areas, "natural-language-processing") == "2"


@pytest.mark.parametrize(
    "argv", ["task list --search zzzq", "method list --search zzzq", "benchmark list --search zzzq"]
)
def test_empty_results_count_zero(sample: RunningCatalog, argv: str) -> None:
    code, out, _ = run(sample, argv + " --json")
    data = json.loads(out)["data"]
    assert (code, data["results"], extract_rows(data)[1]) == (0, [], 0)


def test_a_zero_count_is_a_count() -> None:
    # before: `count or total` read 0 as "unknown" (None), so tools said "Found None tasks."
    assert extract_rows({"count": 0, "results": []}) == ([], 0)
    assert extract_rows({"total": 3, "results": []}) == ([], 3)
